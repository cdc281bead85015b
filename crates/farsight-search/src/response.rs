//! What an agent gets back.

use serde::{Deserialize, Serialize};

use crate::{ErrorKind, SearchError};

/// The `suggestion` of an answer without results.
pub const NO_RESULTS_SUGGESTION: &str =
    "No results found. Try broader search terms or check spelling.";

/// The answer to a search, in the tool's output shape (camelCase JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SearchResponse {
    /// The query as asked.
    pub query: String,
    /// The provider's estimate of all matches, or the number returned.
    pub total_results: u64,
    /// The results, best first: clean text, deduplicated, domain filters applied.
    pub results: Vec<SearchResult>,
    /// The provider that answered ("brave+duckduckgo" when several were merged).
    pub search_engine: String,
    /// How long the search took, in seconds.
    pub search_time: f64,
    /// How long the search took, in milliseconds.
    pub response_time_ms: u64,
    /// What to try next when there are no results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// Image search results.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ImageResult>,
    /// Providers that failed (before the one that answered, or beside the
    /// ones that were merged).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<Attempt>,
    /// Filters the answering provider could not honour (`dateRange`, `safeSearch`, `topic`...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unapplied_filters: Vec<String>,
    /// Deep search: estimated tokens of all `content` together (never above
    /// the request's `maxContentTokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_tokens: Option<usize>,
}

/// One result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    /// The page title, plain text.
    pub title: String,
    /// The page URL as the provider gave it.
    pub url: String,
    /// A plain-text excerpt of at most about 200 characters.
    pub snippet: String,
    /// The registrable domain (`docs.rs`, `bbc.co.uk`).
    pub domain: String,
    /// `YYYY-MM-DD` when the provider gave a date.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_published: Option<String>,
    /// The provider's relevance score, or with several providers the
    /// reciprocal-rank-fusion score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// Page content: the provider's, or with deep search the page's passages
    /// that best answer the query, in page order ("[…]" marks text left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Deep search: why the page could not be read; the snippet stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_error: Option<ErrorKind>,
    /// Several providers at once: the providers that returned this result.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub providers: Vec<String>,
}

/// One image.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ImageResult {
    /// Title or caption.
    pub title: String,
    /// The image.
    pub image_url: String,
    /// A thumbnail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thumbnail_url: Option<String>,
    /// Pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    /// Pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    /// The page showing it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_url: Option<String>,
    /// The page's domain.
    pub domain: String,
}

/// A provider that was asked and failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Attempt {
    /// The provider's name.
    pub provider: String,
    /// How it failed.
    pub error_kind: ErrorKind,
    /// What it said.
    pub message: String,
}

impl Attempt {
    /// The attempt of `provider` that ended in `error`.
    pub fn new(provider: impl Into<String>, error: &SearchError) -> Self {
        Self {
            provider: provider.into(),
            error_kind: error.kind(),
            message: error.message().to_owned(),
        }
    }
}
