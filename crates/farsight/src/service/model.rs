//! What `web_fetch` takes and gives, on every surface (MCP, CLI, library).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The format of the returned content.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FetchFormat {
    /// Markdown: headings, lists, tables and links kept. Best for reading.
    #[default]
    Markdown,
    /// Plain text, blocks separated by blank lines. Fewest tokens.
    Text,
    /// Sanitised HTML (no scripts, styles or event handlers). For exact structure.
    Html,
}

impl From<FetchFormat> for farsight_extract::Format {
    fn from(f: FetchFormat) -> Self {
        match f {
            FetchFormat::Markdown => Self::Markdown,
            FetchFormat::Text => Self::Text,
            FetchFormat::Html => Self::Html,
        }
    }
}

fn default_max_length() -> usize {
    10_000
}

fn yes() -> bool {
    true
}

/// Fetch one web page and return its readable content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FetchRequest {
    /// The page to fetch: an absolute http:// or https:// URL, e.g.
    /// "https://docs.example.com/api". Addresses on private networks are refused.
    pub url: String,
    /// A CSS selector to return only matching elements instead of the main
    /// content, e.g. ".infobox", "#article", "table.prices". If nothing
    /// matches, the main content is returned and `selectorMatched` is false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// Output format: "markdown" (default), "text" or "html".
    #[serde(default)]
    pub format: FetchFormat,
    /// Maximum characters of content to return in this call (default 10000).
    /// Longer pages are cut between paragraphs; read on with `startIndex`.
    #[serde(default = "default_max_length", alias = "max_length")]
    #[schemars(range(min = 1))]
    pub max_length: usize,
    /// Character offset to start from (default 0). To read a truncated page
    /// further, pass the `nextStartIndex` of the previous answer; the page is
    /// then served from the cache, not downloaded again.
    #[serde(default, alias = "start_index")]
    pub start_index: usize,
    /// Include the page's links as `links[{text, url}]` (default true).
    #[serde(default = "yes", alias = "include_links")]
    pub include_links: bool,
    /// Include images as their alt text / captions (default false).
    #[serde(default, alias = "include_images")]
    pub include_images: bool,
    /// A question or topic: instead of the page's first `maxLength`
    /// characters, return the passages that best answer it, in page order
    /// ("[…]" marks text left out), within `maxLength`. `startIndex` is
    /// ignored. E.g. focus="installation on Windows".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<String>,
}

impl FetchRequest {
    /// A request for `url` with every other field at its default.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            selector: None,
            format: FetchFormat::Markdown,
            max_length: default_max_length(),
            start_index: 0,
            include_links: true,
            include_images: false,
            focus: None,
        }
    }
}

/// How the fetch went.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FetchStatus {
    /// The content is the page's readable content.
    #[default]
    Success,
    /// Some content came back but not all of it (paywall, JavaScript page,
    /// size cap); `message` says why.
    Partial,
    /// Nothing usable came back; see `errorKind`, `message` and `suggestion`.
    Error,
}

/// Facts about the page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FetchMetadata {
    /// The page's description (meta description, OpenGraph or JSON-LD).
    pub description: Option<String>,
    /// The author(s).
    pub author: Option<String>,
    /// Publication date, ISO 8601.
    pub date_published: Option<String>,
    /// The site's name.
    pub site_name: Option<String>,
}

/// A link found in the content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FetchLink {
    /// The link's text.
    pub text: String,
    /// The absolute URL.
    pub url: String,
}

/// The answer of `web_fetch`: the page's content, or an error that says what
/// to do next.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FetchResponse {
    /// The page's final URL (after redirects); the requested URL on error.
    pub url: String,
    /// "success", "partial" or "error".
    pub status: FetchStatus,
    /// The page's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// This window of the content, in the requested format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Characters in the whole extracted content (all windows together).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_length: Option<usize>,
    /// More content exists than this answer holds: a later window
    /// (`nextStartIndex`) or bytes past the download cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    /// Pass as `startIndex` to read the next window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_start_index: Option<usize>,
    /// Description, author, publication date and site name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<FetchMetadata>,
    /// Links in the page, absolute and deduplicated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub links: Option<Vec<FetchLink>>,
    /// The selector that was asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// Whether the selector matched anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector_matched: Option<bool>,
    /// A note for the reader: why the answer is partial, a selector fallback,
    /// or what went wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// On error, what kind: invalidUrl, blockedUrl, robotsDisallowed,
    /// httpStatus, tooManyRedirects, tooLarge, unsupportedContent, timeout,
    /// network.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<String>,
    /// On an HTTP error, the status code (404, 403, 500...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_code: Option<u16>,
    /// On error, what to do next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// On error, whether the same call may succeed later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retryable: Option<bool>,
    /// On error, how long to wait before retrying, when the server said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
}

impl FetchResponse {
    /// Whether this is an error answer (`status: "error"`).
    pub fn is_error(&self) -> bool {
        self.status == FetchStatus::Error
    }
}
