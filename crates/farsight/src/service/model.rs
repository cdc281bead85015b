//! What `web_fetch` takes and gives, on every surface (MCP, CLI, library).

use farsight_search::{ErrorKind, lenient};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The format of the returned content.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FetchFormat {
    /// Markdown (headings, lists, tables, links).
    #[default]
    Markdown,
    /// Plain text: fewest tokens.
    Text,
    /// Sanitised HTML.
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

/// When `web_fetch` runs a page's JavaScript in a headless browser.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RenderMode {
    /// Only when the page's HTML is an application shell that scripts build
    /// (and its embedded state does not hold the text).
    #[default]
    Auto,
    /// Never: the page's HTML as it came.
    Never,
    /// Every HTML page (robots.txt and the guard still apply).
    Always,
}

impl RenderMode {
    /// The word used in the tool, the CLI and the configuration.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Never => "never",
            Self::Always => "always",
        }
    }
}

fn default_max_length() -> usize {
    10_000
}

fn yes() -> bool {
    true
}

/// Fetch one web page (`url`) or several (`urls`) and return their readable
/// content; every other field applies to each page.
///
/// Numbers and booleans may come as strings (`"2000"`, `"false"`), as some
/// clients send them; snake_case names are accepted too. The doc comments of
/// the fields are the input schema's descriptions a model reads: keep them
/// short.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FetchRequest {
    /// Absolute http(s) URL.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub url: String,
    /// Instead of url: up to 10 pages.
    #[serde(
        default,
        deserialize_with = "lenient::url_list",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[schemars(length(max = 10))]
    pub urls: Vec<String>,
    /// CSS selector: only what matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// Output format.
    #[serde(default)]
    pub format: FetchFormat,
    /// Characters per window, per page (40000 in all).
    #[serde(
        default = "default_max_length",
        alias = "max_length",
        deserialize_with = "lenient::positive_usize"
    )]
    #[schemars(range(min = 1))]
    pub max_length: usize,
    /// A previous answer's nextStartIndex.
    #[serde(default, alias = "start_index", deserialize_with = "lenient::usize")]
    pub start_index: usize,
    /// The page's links.
    #[serde(
        default = "yes",
        alias = "include_links",
        deserialize_with = "lenient::bool"
    )]
    pub include_links: bool,
    /// Images with captions.
    #[serde(default, alias = "include_images", deserialize_with = "lenient::bool")]
    pub include_images: bool,
    /// A question: only passages that answer it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<String>,
    /// Add JSON-LD and OpenGraph as structuredData.
    #[serde(
        default,
        alias = "include_structured_data",
        deserialize_with = "lenient::bool"
    )]
    pub include_structured_data: bool,
    /// Run JavaScript (auto: if needed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render: Option<RenderMode>,
}

impl FetchRequest {
    /// A request for `url` with every other field at its default.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            urls: Vec::new(),
            selector: None,
            format: FetchFormat::Markdown,
            max_length: default_max_length(),
            start_index: 0,
            include_links: true,
            include_images: false,
            focus: None,
            include_structured_data: false,
            render: None,
        }
    }
}

/// The answer of `web_fetch` for several URLs (`urls`): each page's own
/// answer, in the order asked.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FetchManyResponse {
    /// "success" when every page is, "error" when every page failed, else
    /// "partial".
    pub status: FetchStatus,
    /// Each URL's answer (its own status, window and errors), in the order of
    /// `urls`.
    pub results: Vec<FetchResponse>,
    /// A note on the call as a whole (the window per page was lowered to keep
    /// the answer within its total bound), or that every page failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// When every page failed, what to do next (each result has its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

impl FetchManyResponse {
    /// The answer for `results`: its status summarises theirs.
    pub fn new(results: Vec<FetchResponse>, message: Option<String>) -> Self {
        let failed = results.iter().filter(|r| r.is_error()).count();
        let status = if failed == results.len() {
            FetchStatus::Error
        } else if failed == 0 && results.iter().all(|r| r.status == FetchStatus::Success) {
            FetchStatus::Success
        } else {
            FetchStatus::Partial
        };
        // An error answer says what happened and what to do, as every
        // error answer of the tool does.
        let (message, suggestion) = if status == FetchStatus::Error {
            let failed = format!(
                "None of the {} pages could be read; each result says why.",
                results.len()
            );
            (
                Some(message.map_or(failed.clone(), |m| format!("{failed} {m}"))),
                Some("Read each result's message and suggestion before retrying.".to_owned()),
            )
        } else {
            (message, None)
        };
        Self {
            status,
            results,
            message,
            suggestion,
        }
    }

    /// Whether every page failed (`status: "error"`); one page read is an
    /// answer.
    pub fn is_error(&self) -> bool {
        self.status == FetchStatus::Error
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

/// Where the content came from, when it is not farsight's extraction of the
/// page's HTML (issue 13). One short word in the answer: the reader learns
/// it holds the author's own text, not a reading of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FetchSource {
    /// The server sent Markdown (asked for first in `Accept`, or a `.md`
    /// file), returned as it came without raw HTML.
    Markdown,
    /// The Markdown version the HTML page links to
    /// (`<link rel="alternate" type="text/markdown">`).
    Alternate,
    /// GitHub: the raw file of a `/blob/` page, or a repository's README,
    /// read from raw.githubusercontent.com instead of the page.
    Raw,
    /// The text a script framework embeds in an application shell for its
    /// scripts (Next.js, Nuxt, Angular state; JSON-LD `articleBody`), read
    /// without running them (issue 14).
    #[serde(rename = "embeddedState")]
    EmbeddedState,
}

/// Facts about the page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FetchMetadata {
    /// The page's description (meta description, OpenGraph or JSON-LD).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The author(s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// Publication date, ISO 8601.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_published: Option<String>,
    /// The site's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_name: Option<String>,
    /// A feed's site.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_url: Option<String>,
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
    /// Set when the content is not extracted from the page's HTML markup:
    /// "markdown", "alternate", "raw" or "embeddedState".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // A string in the output schema: the three values listed cost
    // `tools/list` a dozen tokens in every session, and the word itself says
    // what it means (the README lists them).
    #[schemars(with = "Option<String>")]
    pub source: Option<FetchSource>,
    /// The page was rendered: its JavaScript ran in a headless browser.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rendered: Option<bool>,
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
    /// With includeStructuredData: `items` (the page's JSON-LD objects of
    /// the common schema.org types, flattened: Product with its offers,
    /// Article, Recipe, Event, FAQPage, BreadcrumbList, Organization,
    /// Person, VideoObject; each with its `type`) and `openGraph`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Map<String, serde_json::Value>>")]
    pub structured_data: Option<serde_json::Value>,
    /// Pages (PDF) or slides (PPTX) in a document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages: Option<usize>,
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
    /// On error, what kind (invalidUrl, blockedUrl, robotsDisallowed,
    /// httpStatus, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<ErrorKind>,
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
    /// An error answer for `url`: its kind, what happened and what to do;
    /// retryable as the kind is.
    pub fn error(
        url: impl Into<String>,
        kind: ErrorKind,
        message: impl Into<String>,
        suggestion: impl Into<String>,
    ) -> Self {
        Self {
            url: url.into(),
            status: FetchStatus::Error,
            error_kind: Some(kind),
            message: Some(message.into()),
            suggestion: Some(suggestion.into()),
            retryable: Some(kind.is_retryable()),
            ..Self::default()
        }
    }

    /// Whether this is an error answer (`status: "error"`).
    pub fn is_error(&self) -> bool {
        self.status == FetchStatus::Error
    }
}
