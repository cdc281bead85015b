//! Documents (PDF, DOCX, PPTX) for `web_fetch` and `farsight extract`: read by
//! `farsight-docs` on tokio's blocking pool under the call's deadline, kept
//! in the cache like extracted pages, then windowed, focused and answered
//! like any page's Markdown.
//!
//! The readers check the deadline before each page but cannot be stopped
//! inside one; the input is bounded first (`[fetch].max_document_bytes`), and
//! should a page still run past the call's deadline, the call answers with a
//! timeout and the blocking thread finishes unobserved, as for HTML.

use std::time::{Duration, Instant};

use farsight_docs::{DocKind, Limits, Reading};
use farsight_net::Cache;
use farsight_search::ErrorKind;
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::model::{FetchMetadata, FetchRequest, FetchResponse, FetchStatus};

/// The cache namespace of read documents.
const NAMESPACE: &str = "reading";

/// The meaning of a cached reading: bump it when the readers give other
/// output for the same bytes. The package version is in the key as well.
const FORMAT_VERSION: u32 = 1;

/// The reader is asked to stop starting pages this long before the call must
/// answer, leaving time to window and send the answer.
const STOP_BEFORE_CALL_DEADLINE: Duration = Duration::from_millis(400);

/// What reading a document came to.
pub(crate) enum Outcome {
    /// Read, in whole or in part (see [`Reading::shortfall`]).
    Read(Reading),
    /// The reader refused the document.
    Failed(farsight_docs::Error),
    /// A page was still being read at the call's deadline.
    TimedOut,
}

/// How one document is read: the bounds and where readings are cached.
pub(crate) struct DocumentReader<'a> {
    /// The shared cache, or `None` to read without it.
    pub cache: Option<&'a Cache>,
    /// How long a reading is kept: as long as its page.
    pub ttl: Duration,
    /// Do not read the cache (the fresh reading is still stored).
    pub bypass: bool,
    /// `[fetch].max_document_bytes`.
    pub max_bytes: u64,
    /// `[fetch].max_document_pages`.
    pub max_pages: usize,
}

#[derive(Serialize)]
struct Key<'a> {
    v: u32,
    farsight: &'static str,
    sha256: &'a str,
    max_pages: usize,
}

impl DocumentReader<'_> {
    /// Reads `bytes` (of media type `content_type`, possibly empty) by
    /// `call_deadline`.
    pub(crate) async fn read(
        &self,
        bytes: Vec<u8>,
        content_type: &str,
        call_deadline: Instant,
    ) -> Outcome {
        let sha256 = hex::encode(Sha256::digest(&bytes));
        let key = serde_json::to_string(&Key {
            v: FORMAT_VERSION,
            farsight: env!("CARGO_PKG_VERSION"),
            sha256: &sha256,
            max_pages: self.max_pages,
        })
        .unwrap_or(sha256);
        if let Some(cache) = self.cache.filter(|c| c.is_enabled() && !self.bypass)
            && let Some(stored) = cache.get(NAMESPACE, &key).await
        {
            match serde_json::from_slice::<Reading>(&stored) {
                Ok(reading) => return Outcome::Read(reading),
                // A damaged entry is a miss; the fresh reading replaces it.
                Err(e) => tracing::debug!("unreadable cached reading: {e}"),
            }
        }
        let limits = Limits {
            max_bytes: usize::try_from(self.max_bytes).unwrap_or(usize::MAX),
            max_pages: self.max_pages,
            deadline: Some(
                call_deadline
                    .checked_sub(STOP_BEFORE_CALL_DEADLINE)
                    .unwrap_or(call_deadline),
            ),
            ..Limits::default()
        };
        let outcome = run_reader(
            bytes,
            farsight_docs::kind_of_media_type(content_type),
            limits,
            call_deadline,
        )
        .await;
        // A reading cut short by this call's deadline is the call's, not the
        // document's: not cached.
        if let (Outcome::Read(reading), Some(cache)) = (&outcome, self.cache)
            && reading.shortfall != Some(farsight_docs::Shortfall::Deadline)
        {
            match serde_json::to_vec(reading) {
                Ok(value) => cache.put(NAMESPACE, &key, value, self.ttl).await,
                Err(e) => tracing::debug!("reading not cached: {e}"),
            }
        }
        outcome
    }
}

/// The one place the document readers run: on the blocking pool, waited on
/// until the call's deadline. A panic the reader did not catch is a failed
/// document, not a failed process.
async fn run_reader(
    bytes: Vec<u8>,
    hint: Option<DocKind>,
    limits: Limits,
    call_deadline: Instant,
) -> Outcome {
    let job = tokio::task::spawn_blocking(move || farsight_docs::read(&bytes, hint, &limits));
    match tokio::time::timeout_at(call_deadline.into(), job).await {
        Err(_) => {
            tracing::warn!("a document outlived the call's deadline; answering without it");
            Outcome::TimedOut
        }
        Ok(Ok(Ok(reading))) => Outcome::Read(reading),
        Ok(Ok(Err(e))) => Outcome::Failed(e),
        Ok(Err(e)) => {
            tracing::error!("the document reader failed: {e}");
            Outcome::TimedOut
        }
    }
}

/// The answer for a document: its Markdown windowed (or focused) like a
/// page's, with title, author, date and page count; a partial answer says
/// why; a refused document is an error answer with the reader's words.
pub(crate) fn document_response(
    url: String,
    outcome: Outcome,
    request: &FetchRequest,
) -> FetchResponse {
    let reading = match outcome {
        Outcome::Read(r) => r,
        Outcome::Failed(e) => {
            let kind = match e.kind() {
                farsight_docs::ErrorKind::TooLarge => ErrorKind::TooLarge,
                farsight_docs::ErrorKind::Timeout => ErrorKind::Timeout,
                _ => ErrorKind::UnsupportedContent,
            };
            return FetchResponse::error(
                url,
                kind,
                e.message().to_owned(),
                e.suggestion().to_owned(),
            );
        }
        Outcome::TimedOut => {
            return FetchResponse::error(
                url,
                ErrorKind::Timeout,
                "Reading the document took longer than the call's timeout",
                "Try again (a part read is not kept), raise [fetch].timeout_seconds, or lower \
                 [fetch].max_document_pages",
            );
        }
    };
    let mut status = if reading.shortfall.is_some() {
        FetchStatus::Partial
    } else {
        FetchStatus::Success
    };
    let mut notes: Vec<String> = reading.shortfall_note().into_iter().collect();
    if request.selector.is_some() {
        notes.push(
            "This is a document, not HTML, so the selector does not apply; the whole text is \
             returned."
                .to_owned(),
        );
    }
    let mut response = super::fetch::windowed(
        url,
        &reading.markdown,
        request,
        false,
        &mut status,
        &mut notes,
    );
    response.title = reading.metadata.title;
    response.metadata = Some(FetchMetadata {
        author: reading.metadata.author,
        date_published: reading.metadata.date,
        ..FetchMetadata::default()
    });
    response.pages = reading.pages;
    response.selector = request.selector.clone();
    response.selector_matched = request.selector.as_ref().map(|_| false);
    response.status = status;
    response.message = (!notes.is_empty()).then(|| notes.join(" "));
    response
}

/// Whether `farsight extract` should read these local bytes as a document.
pub(crate) fn is_document(bytes: &[u8]) -> bool {
    farsight_docs::sniff(bytes).is_some()
}
