//! The one place where the synchronous extractor runs, on tokio's blocking
//! pool, so a large page never stalls the threads serving other calls, and
//! under the call's deadline.

use std::sync::Arc;
use std::time::{Duration, Instant};

use farsight_extract::{Document, ExtractOptions, Shortfall, TextDocument, TextKind};

/// The extractor is asked to stop this long before the call must answer:
/// enough for its fallback (rendering what it has, 200 ms) and for the
/// answer to be built and sent.
const STOP_BEFORE_CALL_DEADLINE: Duration = Duration::from_millis(400);

/// When extraction should stop for a call that must answer by
/// `call_deadline` (see [`ExtractOptions::deadline`]).
pub(crate) fn extraction_deadline(call_deadline: Instant) -> Instant {
    call_deadline
        .checked_sub(STOP_BEFORE_CALL_DEADLINE)
        .unwrap_or(call_deadline)
}

/// Extracts `html` on a blocking thread.
///
/// With a deadline in `options`, the extractor stops by itself at it with
/// what it read (`timed_out`); should a stage it cannot interrupt (the
/// parse) run past the call's own deadline, this returns an empty
/// `timed_out` document then, and the blocking thread finishes unobserved.
///
/// A panic inside the extractor (it parses untrusted HTML) is caught by the
/// blocking pool and turned into an empty document that says it has no
/// content, so one hostile page cannot take the server down.
pub async fn extract_document(html: String, options: ExtractOptions) -> Document {
    let call_deadline = options.deadline.map(|d| d + STOP_BEFORE_CALL_DEADLINE);
    let job = tokio::task::spawn_blocking(move || farsight_extract::extract(&html, &options));
    let joined = match call_deadline {
        Some(at) => match tokio::time::timeout_at(at.into(), job).await {
            Ok(joined) => joined,
            Err(_) => {
                tracing::warn!("extraction outlived the call's deadline; answering without it");
                return Document {
                    timed_out: true,
                    ..Document::default()
                };
            }
        },
        None => job.await,
    };
    match joined {
        Ok(doc) => doc,
        Err(e) => {
            tracing::error!("the extractor failed on a page: {e}");
            Document {
                shortfall: Some(Shortfall::NoMainContent),
                ..Document::default()
            }
        }
    }
}

/// Reads a page that is text but not HTML (a feed, JSON, Markdown, source
/// code) on a blocking thread, as [`extract_document`] does for HTML: a
/// feed of 100,000 items or a large JSON document takes a while to read.
/// Past the call's deadline, or should the reader fail, the text comes back
/// as it is.
pub async fn read_text_document(
    text: String,
    essence: String,
    options: ExtractOptions,
) -> TextDocument {
    let call_deadline = options.deadline.map(|d| d + STOP_BEFORE_CALL_DEADLINE);
    let text = Arc::new(text);
    let input = Arc::clone(&text);
    let job = tokio::task::spawn_blocking(move || {
        farsight_extract::read_text(&input, &essence, &options)
    });
    let joined = match call_deadline {
        Some(at) => tokio::time::timeout_at(at.into(), job).await.ok(),
        None => Some(job.await),
    };
    match joined {
        Some(Ok(read)) => return read,
        Some(Err(e)) => tracing::error!("reading a text page failed: {e}"),
        None => tracing::warn!("reading a text page outlived the call's deadline"),
    }
    TextDocument {
        kind: TextKind::Plain,
        document: Document {
            content: Arc::unwrap_or_clone(text),
            ..Document::default()
        },
    }
}
