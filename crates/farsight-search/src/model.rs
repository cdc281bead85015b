//! The shapes that cross the provider boundary.

use serde::{Deserialize, Serialize};

/// How recent results must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum DateRange {
    /// The last 24 hours.
    Day,
    /// The last 7 days.
    Week,
    /// The last month.
    Month,
    /// The last year.
    Year,
}

/// What kind of results to look for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Topic {
    /// Ordinary web results.
    #[default]
    General,
    /// News articles (the provider's news endpoint where it has one).
    News,
}

/// Web pages or images.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum SearchType {
    /// Web pages.
    #[default]
    Web,
    /// Images.
    #[serde(alias = "image")]
    Images,
}

/// How thorough the search should be.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum SearchDepth {
    /// A fast search returning snippets.
    #[default]
    Basic,
    /// A thorough search (Tavily's `advanced`); page content is added by the caller.
    #[serde(alias = "advanced")]
    Deep,
}

/// One query as a provider receives it: already validated, `count` already
/// clamped to what the provider can return.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProviderQuery {
    /// The query text as the agent wrote it (no operators added yet).
    pub query: String,
    /// How many results to ask for (1..=provider maximum).
    pub count: u32,
    /// Restrict to one site (a domain).
    pub site: Option<String>,
    /// Only results from these domains.
    pub include_domains: Vec<String>,
    /// No results from these domains.
    pub exclude_domains: Vec<String>,
    /// Recency filter.
    pub date_range: Option<DateRange>,
    /// Whether adult content is filtered.
    pub safe_search: bool,
    /// General web or news.
    pub topic: Topic,
    /// Basic or deep.
    pub depth: SearchDepth,
    /// Web pages or images.
    pub search_type: SearchType,
    /// Results from or for this country: ISO 3166-1 alpha-2, lower case ("de").
    pub country: Option<String>,
    /// Results in this language: ISO 639-1, lower case ("fr").
    pub language: Option<String>,
}

/// One result as a provider gave it, before normalisation (HTML may remain in
/// `title` and `snippet`; `date` is in whatever form the provider uses).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawResult {
    /// The title, possibly with HTML.
    pub title: String,
    /// The result's URL.
    pub url: String,
    /// The snippet, possibly with HTML and of any length.
    pub snippet: String,
    /// A date in the provider's own form ("2024-03-01T..", "2 days ago", ...).
    pub date: Option<String>,
    /// A relevance score, when the provider gives one.
    pub score: Option<f64>,
    /// Page content, when the provider returns it (Tavily, Exa, Jina).
    pub content: Option<String>,
}

/// One image result as a provider gave it, before normalisation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawImage {
    /// The title or caption, possibly with HTML.
    pub title: String,
    /// The full-size image's URL.
    pub image_url: String,
    /// A thumbnail's URL, when the provider gives one.
    pub thumbnail_url: Option<String>,
    /// The image's width in pixels, when given.
    pub width: Option<u32>,
    /// The image's height in pixels, when given.
    pub height: Option<u32>,
    /// The page the image appears on, when given.
    pub page_url: Option<String>,
}

/// A provider's whole answer to one query.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProviderAnswer {
    /// The results in the provider's order.
    pub results: Vec<RawResult>,
    /// Image search: the images in the provider's order.
    pub images: Vec<RawImage>,
    /// The provider's estimate of all matches, when it gives one.
    pub total_results: Option<u64>,
    /// Filters of the query this provider could not honour (`"dateRange"`,
    /// `"safeSearch"`, `"topic"`, ...), reported to the agent.
    pub unapplied_filters: Vec<&'static str>,
}

/// A provider's settings, from `[providers.NAME]` of the configuration with the
/// environment's keys already merged in by the caller.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderSettings {
    /// The API key, for providers that need one.
    pub api_key: Option<String>,
    /// Replaces scheme, host and port of the documented endpoint; its path is kept.
    pub base_url: Option<String>,
    /// Google Programmable Search engine id (`cx`).
    pub engine_id: Option<String>,
    /// Sustained request rate allowed to this provider.
    pub requests_per_second: Option<f64>,
    /// Requests allowed at once above the sustained rate.
    pub burst: Option<u32>,
    /// Provider-specific default for safe search (Google: off unless set).
    pub safe_search: Option<bool>,
}

/// Shown without the API key (a `{:?}` of the configuration may reach a log).
impl std::fmt::Debug for ProviderSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderSettings")
            .field("api_key", &self.api_key.as_ref().map(|_| "***"))
            .field("base_url", &self.base_url)
            .field("engine_id", &self.engine_id)
            .field("requests_per_second", &self.requests_per_second)
            .field("burst", &self.burst)
            .field("safe_search", &self.safe_search)
            .finish()
    }
}
