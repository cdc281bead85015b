//! What extraction produced, kept in the cache. Reading on with `startIndex`,
//! asking again with `focus`, or another farsight process reading the same
//! page gets the extracted document back instead of parsing and extracting
//! the page again, which for a large page costs far more than a cache read.
//!
//! A document needs no policy check of its own (issue 11): it is looked up
//! only with the text of a page the fetcher has just returned, which passed
//! the current policy (a cached page is re-checked against it on every hit),
//! and its entry matches only that text (`page_sha256`) at that final URL.
//! A page the policy refuses never reaches this cache.

use std::time::Duration;

use farsight_extract::{Document, ExtractOptions, Format};
use farsight_net::Cache;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::extract::extract_document;

/// The cache namespace of extracted documents (pages live under `"page"`).
pub(crate) const NAMESPACE: &str = "document";

/// The meaning of a cached document. Bump it whenever the extractor gives
/// other output for the same page (a new rule, a fixed bug) or [`Document`]
/// changes shape: a farsight never reads an entry that another version of the
/// extractor wrote. The package version is in the key as well, for releases.
const FORMAT_VERSION: u32 = 4;

/// Everything that determines a document besides the page itself: the key of
/// its cache entry, built from the extractor's own options (all of them: an
/// option added to `ExtractOptions` must be added here too).
#[derive(Serialize)]
struct Key<'a> {
    v: u32,
    farsight: &'static str,
    /// The page's final URL: links are made absolute against it.
    url: Option<&'a str>,
    format: Format,
    selector: Option<&'a str>,
    links: bool,
    images: bool,
    engine: String,
    /// A document read with its structured data holds more; one without
    /// cannot answer a call that asks for it.
    structured: bool,
    /// Read from the DOM a browser built from the page (`render`), not from
    /// the page's HTML: another document of the same page.
    rendered: bool,
}

impl<'a> Key<'a> {
    fn of(options: &'a ExtractOptions, rendered: bool) -> Self {
        let ExtractOptions {
            base_url,
            format,
            selector,
            include_links,
            include_images,
            engine,
            include_structured_data,
            ..
        } = options;
        Key {
            v: FORMAT_VERSION,
            farsight: env!("CARGO_PKG_VERSION"),
            url: base_url.as_deref(),
            format: *format,
            selector: selector.as_deref(),
            links: *include_links,
            images: *include_images,
            engine: format!("{engine:?}"),
            structured: *include_structured_data,
            rendered,
        }
    }
}

/// The hash that ties a document to the page text it was read from.
pub(crate) fn page_sha256(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// A cached document and the page text it came from.
#[derive(Serialize, Deserialize)]
struct Entry {
    /// SHA-256 of the page's text (for a rendered document, of the text the
    /// fetcher returned, not of the DOM the browser built). A page downloaded
    /// again with other content (after `--no-cache`, or by another process)
    /// makes the documents of its old text misses, without keeping one entry
    /// per version.
    page_sha256: String,
    document: Document,
}

/// Where extracted documents are kept, for one call.
pub(crate) struct DocumentCache<'a> {
    /// The shared cache.
    pub cache: &'a Cache,
    /// How long a document is kept: as long as its page.
    pub ttl: Duration,
    /// Do not read the cache (the fresh document is still stored).
    pub bypass: bool,
}

impl DocumentCache<'_> {
    /// The document of `html` (a page's text) for `options`: from the cache
    /// when this text was already extracted this way, else extracted on the
    /// blocking pool and stored.
    pub(crate) async fn extract(&self, html: String, options: ExtractOptions) -> Document {
        if !self.cache.is_enabled() {
            return run_extractor(html, options).await;
        }
        let page_sha256 = page_sha256(&html);
        if let Some(document) = self.cached(&page_sha256, &options, false).await {
            return document;
        }
        let document = run_extractor(html, options.clone()).await;
        self.keep(page_sha256, &options, false, document).await
    }

    /// The document a browser's DOM of the page whose text hashes to
    /// `page_sha256` gave with `options`, when it is cached: a later window
    /// of a rendered page starts no browser.
    pub(crate) async fn rendered(
        &self,
        page_sha256: &str,
        options: &ExtractOptions,
    ) -> Option<Document> {
        if !self.cache.is_enabled() {
            return None;
        }
        self.cached(page_sha256, options, true).await
    }

    /// Extracts `dom`, the HTML a browser built from the page whose text
    /// hashes to `page_sha256`, and stores the document under that page when
    /// `keep` (a DOM taken before the page settled is not kept).
    pub(crate) async fn extract_rendered(
        &self,
        page_sha256: &str,
        dom: String,
        options: ExtractOptions,
        keep: bool,
    ) -> Document {
        let document = run_extractor(dom, options.clone()).await;
        if !keep || !self.cache.is_enabled() {
            return document;
        }
        self.keep(page_sha256.to_owned(), &options, true, document)
            .await
    }

    async fn cached(
        &self,
        page_sha256: &str,
        options: &ExtractOptions,
        rendered: bool,
    ) -> Option<Document> {
        if self.bypass {
            return None;
        }
        let key = key(options, rendered)?;
        let bytes = self.cache.get(NAMESPACE, &key).await?;
        match serde_json::from_slice::<Entry>(&bytes) {
            Ok(entry) if entry.page_sha256 == page_sha256 => {
                tracing::debug!(url = ?options.base_url, rendered, "extracted document from the cache");
                Some(entry.document)
            }
            Ok(_) => {
                tracing::debug!("cached document is of an older copy of the page");
                None
            }
            // A damaged entry is a miss; the fresh document replaces it.
            Err(e) => {
                tracing::debug!("unreadable cached document: {e}");
                None
            }
        }
    }

    /// Stores `document` and gives it back.
    async fn keep(
        &self,
        page_sha256: String,
        options: &ExtractOptions,
        rendered: bool,
        document: Document,
    ) -> Document {
        // A document cut short by a deadline is this call's, not the page's.
        if document.timed_out {
            return document;
        }
        let Some(key) = key(options, rendered) else {
            return document;
        };
        let entry = Entry {
            page_sha256,
            document,
        };
        match serde_json::to_vec(&entry) {
            Ok(bytes) => self.cache.put(NAMESPACE, &key, bytes, self.ttl).await,
            Err(e) => tracing::debug!("document not cached: {e}"),
        }
        entry.document
    }
}

fn key(options: &ExtractOptions, rendered: bool) -> Option<String> {
    serde_json::to_string(&Key::of(options, rendered))
        .map_err(|e| tracing::debug!("document not cached: {e}"))
        .ok()
}

async fn run_extractor(html: String, options: ExtractOptions) -> Document {
    #[cfg(test)]
    runs::bump(options.base_url.as_deref().unwrap_or_default());
    extract_document(html, options).await
}

/// How often the extractor ran for each base URL, so tests can prove that a
/// call was served without extracting. Keyed by URL because tests run in
/// parallel, each against its own server.
#[cfg(test)]
pub(crate) mod runs {
    use std::collections::HashMap;
    use std::sync::{Mutex, PoisonError};

    static RUNS: Mutex<Option<HashMap<String, usize>>> = Mutex::new(None);

    pub(super) fn bump(url: &str) {
        let mut runs = RUNS.lock().unwrap_or_else(PoisonError::into_inner);
        *runs
            .get_or_insert_with(HashMap::new)
            .entry(url.to_owned())
            .or_default() += 1;
    }

    /// Extractor runs for pages whose base URL is `url`.
    pub(crate) fn count(url: &str) -> usize {
        RUNS.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .and_then(|r| r.get(url).copied())
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<html><head><title>T</title></head><body><main><h1>T</h1>\
        <p>A paragraph long enough to be the main content of this small page, with \
        <a href=\"/next\">a link</a> in it and a few more words.</p></main></body></html>";

    fn options(url: &str) -> ExtractOptions {
        ExtractOptions::new(Format::Markdown)
            .base_url(url)
            .include_links(true)
    }

    fn docs(cache: &Cache) -> DocumentCache<'_> {
        DocumentCache {
            cache,
            ttl: Duration::from_secs(60),
            bypass: false,
        }
    }

    #[tokio::test]
    async fn the_same_page_the_same_way_is_extracted_once() {
        let url = "https://once.example/page";
        let cache = Cache::memory_only();
        let first = docs(&cache).extract(PAGE.to_owned(), options(url)).await;
        let second = docs(&cache).extract(PAGE.to_owned(), options(url)).await;
        assert_eq!(first, second);
        assert!(first.content.contains("paragraph"));
        assert_eq!(runs::count(url), 1);
    }

    #[tokio::test]
    async fn other_options_other_text_or_bypass_extract_again() {
        let url = "https://again.example/page";
        let cache = Cache::memory_only();
        docs(&cache).extract(PAGE.to_owned(), options(url)).await;
        let text = ExtractOptions::new(Format::Text).base_url(url);
        docs(&cache).extract(PAGE.to_owned(), text).await;
        assert_eq!(runs::count(url), 2);
        let changed = PAGE.replace("few more", "several more");
        let doc = docs(&cache).extract(changed, options(url)).await;
        assert!(doc.content.contains("several more"));
        assert_eq!(runs::count(url), 3);
        let bypass = DocumentCache {
            bypass: true,
            ..docs(&cache)
        };
        bypass.extract(PAGE.to_owned(), options(url)).await;
        assert_eq!(runs::count(url), 4);
    }

    /// The rendered document of a page is kept apart from its static one,
    /// found by the page's text before any browser starts, and not kept when
    /// the DOM was taken before the page settled (issue 14).
    #[tokio::test]
    async fn a_rendered_document_is_kept_apart_under_the_static_text() {
        let url = "https://rendered.example/page";
        let cache = Cache::memory_only();
        let shell =
            "<html><body><div id=\"root\"></div><script src=\"/a.js\"></script></body></html>";
        let sha = page_sha256(shell);
        assert!(docs(&cache).rendered(&sha, &options(url)).await.is_none());
        let statik = docs(&cache).extract(shell.to_owned(), options(url)).await;
        assert!(
            docs(&cache).rendered(&sha, &options(url)).await.is_none(),
            "the static document is not the rendered one"
        );
        let rendered = docs(&cache)
            .extract_rendered(&sha, PAGE.to_owned(), options(url), true)
            .await;
        assert!(rendered.content.contains("paragraph"));
        assert_eq!(
            docs(&cache).rendered(&sha, &options(url)).await,
            Some(rendered.clone())
        );
        // The static document is still the static one.
        assert_eq!(
            docs(&cache).extract(shell.to_owned(), options(url)).await,
            statik
        );
        // Another copy of the page, or a DOM taken unsettled: not found.
        assert!(
            docs(&cache)
                .rendered(&page_sha256("other"), &options(url))
                .await
                .is_none()
        );
        let other = "https://unsettled.example/page";
        docs(&cache)
            .extract_rendered(&sha, PAGE.to_owned(), options(other), false)
            .await;
        assert!(docs(&cache).rendered(&sha, &options(other)).await.is_none());
    }

    #[tokio::test]
    async fn a_damaged_entry_is_a_miss() {
        let url = "https://damaged.example/page";
        let cache = Cache::memory_only();
        let key = serde_json::to_string(&Key::of(&options(url), false)).unwrap();
        cache
            .put(
                NAMESPACE,
                &key,
                b"{not json".to_vec(),
                Duration::from_secs(60),
            )
            .await;
        let doc = docs(&cache).extract(PAGE.to_owned(), options(url)).await;
        assert!(doc.content.contains("paragraph"));
        assert_eq!(runs::count(url), 1);
        docs(&cache).extract(PAGE.to_owned(), options(url)).await;
        assert_eq!(
            runs::count(url),
            1,
            "the fresh document replaced the damaged entry"
        );
    }
}
