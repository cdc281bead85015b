//! What an agent asks for.

use serde::{Deserialize, Serialize};

use crate::{DateRange, SearchDepth, Topic};

/// Shortest query accepted, in characters (the specifications' minimum).
pub const MIN_QUERY_CHARS: usize = 2;
/// Longest query accepted, in characters. Brave refuses queries over 400
/// characters (and 50 words) and the others gain nothing from longer ones.
pub const MAX_QUERY_CHARS: usize = 400;
/// Results returned when `max_results` is not given.
pub const DEFAULT_MAX_RESULTS: u32 = 5;
/// The most results one search returns (then clamped to the provider's own maximum).
pub const MAX_RESULTS: u32 = 20;

/// One search as an agent asks for it. Only `query` is required.
///
/// Deserialises from the tool's camelCase names and their snake_case aliases
/// (`max_results`/`num`, `allowed_domains`/`include_domains`,
/// `blocked_domains`/`exclude_domains`, `depth`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SearchRequest {
    /// The query, 2 to [`MAX_QUERY_CHARS`] characters.
    pub query: String,
    /// How many results (default 5, at most 20, clamped to the provider's maximum).
    #[serde(alias = "max_results", alias = "num")]
    pub max_results: Option<u32>,
    /// Only results from this site (a domain; its subdomains count).
    pub site: Option<String>,
    /// Only results from these domains (their subdomains count).
    #[serde(alias = "include_domains", alias = "allowed_domains")]
    pub include_domains: Vec<String>,
    /// No results from these domains (nor their subdomains).
    #[serde(alias = "exclude_domains", alias = "blocked_domains")]
    pub exclude_domains: Vec<String>,
    /// Only results from the last day, week, month or year.
    #[serde(alias = "date_range")]
    pub date_range: Option<DateRange>,
    /// Filter adult content; `None` takes the service's default (on unless configured off).
    #[serde(alias = "safe_search")]
    pub safe_search: Option<bool>,
    /// General web or news.
    pub topic: Topic,
    /// Basic or deep (deep asks providers for their thorough mode; fetching
    /// page content is the caller's job).
    #[serde(rename = "searchDepth", alias = "depth", alias = "search_depth")]
    pub depth: SearchDepth,
    /// Ask this provider alone, with no fallback.
    pub provider: Option<String>,
    /// Skip reading the cache (the answer is still stored).
    #[serde(alias = "bypass_cache")]
    pub bypass_cache: bool,
}

impl SearchRequest {
    /// A request for `query` with every option at its default.
    pub fn new(query: impl Into<String>) -> Self {
        Self {
            query: query.into(),
            ..Self::default()
        }
    }
}
