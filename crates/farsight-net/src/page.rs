//! What a successful fetch returns, and the options of one fetch.

use serde::{Deserialize, Serialize};

/// How the text of a [`Page`] should be treated downstream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PageKind {
    /// HTML or XHTML: run it through the extractor.
    Html,
    /// Plain text, Markdown, JSON, XML, CSV...: return it as it is.
    Text,
    /// A document (PDF, DOCX, PPTX): [`Page::bytes`] holds it as it came,
    /// for `farsight-docs`; [`Page::text`] is empty.
    Document,
}

/// A fetched page, decoded to UTF-8. This is also what the cache stores, so
/// that other formats and reading windows reuse one download.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Page {
    /// The final URL, after redirects.
    pub url: String,
    /// The URL that was asked for.
    pub requested_url: String,
    /// The HTTP status of the final response (2xx).
    pub status: u16,
    /// The media type essence, lower-case (`text/html`); empty when the server
    /// sent none and the type was sniffed.
    pub content_type: String,
    /// Html or Text.
    pub kind: PageKind,
    /// The encoding the body was decoded from, e.g. `Shift_JIS`, `UTF-8`.
    pub charset: String,
    /// The body as UTF-8 text; empty for a [`PageKind::Document`].
    pub text: String,
    /// The body as it came, for a [`PageKind::Document`] only. Base64 in the
    /// cache entry (JSON): an array of numbers would be four times the size.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::base64_bytes"
    )]
    pub bytes: Option<Vec<u8>>,
    /// The body was cut at the byte cap (`max_bytes`).
    pub truncated: bool,
    /// This page came from the cache, not from the network.
    pub from_cache: bool,
}

/// Options for one [`crate::Fetcher::fetch`] call.
#[derive(Clone, Debug, Default)]
pub struct FetchOptions {
    /// Do not read the cache (the fresh page is still written to it).
    pub bypass_cache: bool,
}

impl FetchOptions {
    /// The defaults: use the cache.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets [`FetchOptions::bypass_cache`].
    #[must_use]
    pub fn bypass_cache(mut self, yes: bool) -> Self {
        self.bypass_cache = yes;
        self
    }
}
