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
const FORMAT_VERSION: u32 = 3;

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
}

impl<'a> Key<'a> {
    fn of(options: &'a ExtractOptions) -> Self {
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
        }
    }
}

/// A cached document and the page text it came from.
#[derive(Serialize, Deserialize)]
struct Entry {
    /// SHA-256 of the page's text. A page downloaded again with other content
    /// (after `--no-cache`, or by another process) makes the documents of its
    /// old text misses, without keeping one entry per version.
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
        let key = match serde_json::to_string(&Key::of(&options)) {
            Ok(k) => k,
            Err(e) => {
                tracing::debug!("document not cached: {e}");
                return run_extractor(html, options).await;
            }
        };
        let page_sha256 = hex::encode(Sha256::digest(html.as_bytes()));
        if !self.bypass
            && let Some(bytes) = self.cache.get(NAMESPACE, &key).await
        {
            match serde_json::from_slice::<Entry>(&bytes) {
                Ok(entry) if entry.page_sha256 == page_sha256 => {
                    tracing::debug!(url = ?options.base_url, "extracted document from the cache");
                    return entry.document;
                }
                Ok(_) => tracing::debug!("cached document is of an older copy of the page"),
                // A damaged entry is a miss; the fresh document replaces it.
                Err(e) => tracing::debug!("unreadable cached document: {e}"),
            }
        }
        let document = run_extractor(html, options).await;
        // A document cut short by a deadline is this call's, not the page's.
        if document.timed_out {
            return document;
        }
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

    #[tokio::test]
    async fn a_damaged_entry_is_a_miss() {
        let url = "https://damaged.example/page";
        let cache = Cache::memory_only();
        let key = serde_json::to_string(&Key::of(&options(url))).unwrap();
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
