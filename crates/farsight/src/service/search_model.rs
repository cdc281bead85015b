//! What `web_search` takes and gives, on every surface (MCP, CLI, library).
//!
//! These mirror `farsight_search`'s request and response with the parts the
//! product adds: deep search (`content`, `contentError`, `maxContentTokens`),
//! several providers at once (`providers` on each result), and the doc
//! comments that become the schema text a model reads.

use farsight_search::{Attempt, SearchError, SearchRequest, SearchResponse, SearchResult};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Tokens of page content a deep search returns when `maxContentTokens` is not
/// given (the `[search].max_content_tokens` default).
pub const DEFAULT_MAX_CONTENT_TOKENS: usize = 4_000;

/// How recent results must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SearchDateRange {
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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SearchTopic {
    /// Ordinary web results.
    #[default]
    General,
    /// News articles.
    News,
}

/// How much to read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SearchDepthArg {
    /// Titles, URLs and snippets only. Fast.
    #[default]
    Basic,
    /// Also read the top result pages and return their most relevant passages
    /// as `content`.
    #[serde(alias = "advanced")]
    Deep,
}

/// One provider, several (a list, or a comma-separated string), or `"all"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ProviderChoice {
    /// `"brave"`, `"brave,duckduckgo"` or `"all"`.
    One(String),
    /// `["brave", "duckduckgo"]`.
    Many(Vec<String>),
}

impl ProviderChoice {
    /// The names asked for, lower-cased, empty entries dropped.
    pub fn names(&self) -> Vec<String> {
        let raw: Vec<&str> = match self {
            Self::One(s) => s.split(',').collect(),
            Self::Many(v) => v.iter().flat_map(|s| s.split(',')).collect(),
        };
        let mut out: Vec<String> = Vec::new();
        for n in raw {
            let n = n.trim().to_ascii_lowercase();
            if !n.is_empty() && !out.contains(&n) {
                out.push(n);
            }
        }
        out
    }
}

/// Search the web.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebSearchRequest {
    /// What to search for, 2 to 400 characters. Be specific: include names,
    /// version numbers or years ("tokio 1.40 release notes", not "tokio").
    pub query: String,
    /// How many results (default 5, at most 20).
    #[serde(default, alias = "max_results", alias = "num")]
    #[schemars(range(min = 1, max = 20))]
    pub max_results: Option<u32>,
    /// Only results from this site, e.g. "docs.rs" or "wikipedia.org" (its
    /// subdomains count). Use it when you know the authoritative source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// Only results from these domains, e.g. ["react.dev", "github.com"].
    #[serde(
        default,
        alias = "include_domains",
        alias = "allowed_domains",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub include_domains: Vec<String>,
    /// Never results from these domains.
    #[serde(
        default,
        alias = "exclude_domains",
        alias = "blocked_domains",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub exclude_domains: Vec<String>,
    /// Only results from the last "day", "week", "month" or "year". Use it for
    /// news and anything time-sensitive.
    #[serde(default, alias = "date_range", skip_serializing_if = "Option::is_none")]
    pub date_range: Option<SearchDateRange>,
    /// Filter adult content (default true unless the server is configured otherwise).
    #[serde(
        default,
        alias = "safe_search",
        skip_serializing_if = "Option::is_none"
    )]
    pub safe_search: Option<bool>,
    /// "general" (default) or "news".
    #[serde(default)]
    pub topic: SearchTopic,
    /// "basic" (default): snippets only. "deep": also read the top result
    /// pages and return, in each result's `content`, the passages that best
    /// answer the query (costs a few seconds and up to `maxContentTokens`).
    #[serde(default, alias = "depth", alias = "search_depth")]
    pub search_depth: SearchDepthArg,
    /// Same as searchDepth "deep": return page content with each result.
    #[serde(default, alias = "include_content")]
    pub include_content: bool,
    /// Deep search: tokens of page content for the whole answer, shared across
    /// results by rank (default 4000). One token is about four characters.
    #[serde(
        default,
        alias = "max_content_tokens",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(range(min = 1))]
    pub max_content_tokens: Option<usize>,
    /// Ask a specific provider (e.g. "brave", "duckduckgo"), several at once
    /// ("brave,duckduckgo" or a list) merged into one ranking, or "all"
    /// configured providers. Default: the configured chain with fallback.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<ProviderChoice>,
}

impl WebSearchRequest {
    /// A request for `query` with every option at its default.
    pub fn new(query: impl Into<String>) -> Self {
        Self {
            query: query.into(),
            ..Self::default()
        }
    }

    /// Whether page content is wanted (`searchDepth: "deep"` or `includeContent`).
    pub fn wants_content(&self) -> bool {
        self.include_content || self.search_depth == SearchDepthArg::Deep
    }

    /// The engine's request, for one provider (`None`: the engine's choice).
    pub(crate) fn to_engine(&self, provider: Option<&str>, bypass_cache: bool) -> SearchRequest {
        let mut r = SearchRequest::new(self.query.clone());
        r.max_results = self.max_results;
        r.site = self.site.clone();
        r.include_domains = self.include_domains.clone();
        r.exclude_domains = self.exclude_domains.clone();
        r.date_range = self.date_range.map(|d| match d {
            SearchDateRange::Day => farsight_search::DateRange::Day,
            SearchDateRange::Week => farsight_search::DateRange::Week,
            SearchDateRange::Month => farsight_search::DateRange::Month,
            SearchDateRange::Year => farsight_search::DateRange::Year,
        });
        r.safe_search = self.safe_search;
        r.topic = match self.topic {
            SearchTopic::General => farsight_search::Topic::General,
            SearchTopic::News => farsight_search::Topic::News,
        };
        r.depth = if self.wants_content() {
            farsight_search::SearchDepth::Deep
        } else {
            farsight_search::SearchDepth::Basic
        };
        r.provider = provider.map(str::to_owned);
        r.bypass_cache = bypass_cache;
        r
    }

    /// The request a `→ search` directive line describes.
    pub fn from_engine(r: &SearchRequest) -> Self {
        Self {
            query: r.query.clone(),
            max_results: r.max_results,
            site: r.site.clone(),
            include_domains: r.include_domains.clone(),
            exclude_domains: r.exclude_domains.clone(),
            date_range: r.date_range.map(|d| match d {
                farsight_search::DateRange::Day => SearchDateRange::Day,
                farsight_search::DateRange::Week => SearchDateRange::Week,
                farsight_search::DateRange::Month => SearchDateRange::Month,
                farsight_search::DateRange::Year => SearchDateRange::Year,
            }),
            safe_search: r.safe_search,
            topic: match r.topic {
                farsight_search::Topic::News => SearchTopic::News,
                _ => SearchTopic::General,
            },
            search_depth: match r.depth {
                farsight_search::SearchDepth::Deep => SearchDepthArg::Deep,
                _ => SearchDepthArg::Basic,
            },
            include_content: false,
            max_content_tokens: None,
            provider: r.provider.clone().map(ProviderChoice::One),
        }
    }
}

/// One result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebSearchResult {
    /// The page title.
    pub title: String,
    /// The page URL: cite it, or read the page with web_fetch.
    pub url: String,
    /// A plain-text excerpt of at most about 200 characters.
    pub snippet: String,
    /// The registrable domain ("docs.rs", "bbc.co.uk").
    pub domain: String,
    /// Publication date, YYYY-MM-DD, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_published: Option<String>,
    /// Relevance: the provider's score, or for several providers at once the
    /// reciprocal-rank-fusion score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// Deep search: the page's passages most relevant to the query, in page
    /// order; "[…]" marks text left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Deep search: why the page could not be read (a web_fetch error kind:
    /// "timeout", "httpStatus", "robotsDisallowed", ...); the snippet stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_error: Option<String>,
    /// Several providers at once: the providers that returned this result.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub providers: Vec<String>,
}

impl From<SearchResult> for WebSearchResult {
    fn from(r: SearchResult) -> Self {
        Self {
            title: r.title,
            url: r.url,
            snippet: r.snippet,
            domain: r.domain,
            date_published: r.date_published,
            score: r.score,
            content: r.content,
            content_error: None,
            providers: Vec::new(),
        }
    }
}

impl From<&WebSearchResult> for SearchResult {
    fn from(r: &WebSearchResult) -> Self {
        SearchResult {
            title: r.title.clone(),
            url: r.url.clone(),
            snippet: r.snippet.clone(),
            domain: r.domain.clone(),
            date_published: r.date_published.clone(),
            score: r.score,
            content: r.content.clone(),
        }
    }
}

/// A provider that was asked and failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchAttempt {
    /// The provider's name.
    pub provider: String,
    /// How it failed: authenticationFailed, rateLimited, quotaExceeded,
    /// invalidQuery, serviceUnavailable, timeout, notConfigured or unknown.
    pub error_kind: String,
    /// What it said.
    pub message: String,
}

impl From<Attempt> for SearchAttempt {
    fn from(a: Attempt) -> Self {
        Self {
            provider: a.provider,
            error_kind: a.error_kind.as_str().to_owned(),
            message: a.message,
        }
    }
}

/// The answer of `web_search`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebSearchResponse {
    /// The query as asked.
    pub query: String,
    /// The provider's estimate of all matches, or the number returned.
    pub total_results: u64,
    /// The results, best first.
    pub results: Vec<WebSearchResult>,
    /// The provider that answered ("brave+duckduckgo" when several were merged).
    pub search_engine: String,
    /// How long the whole call took, in seconds.
    pub search_time: f64,
    /// How long the whole call took, in milliseconds.
    pub response_time_ms: u64,
    /// What to try next when there are no results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// Providers that failed (before the one that answered, or beside the
    /// ones that were merged).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<SearchAttempt>,
    /// Filters the answering provider could not honour.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unapplied_filters: Vec<String>,
    /// Deep search: estimated tokens of all `content` together (never above
    /// `maxContentTokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_tokens: Option<usize>,
}

impl WebSearchResponse {
    /// The engine's answer in the tool's shape.
    pub fn from_engine(r: SearchResponse) -> Self {
        Self {
            query: r.query,
            total_results: r.total_results,
            results: r.results.into_iter().map(Into::into).collect(),
            search_engine: r.search_engine,
            search_time: r.search_time,
            response_time_ms: r.response_time_ms,
            suggestion: r.suggestion,
            attempts: r.attempts.into_iter().map(Into::into).collect(),
            unapplied_filters: r.unapplied_filters,
            content_tokens: None,
        }
    }

    /// The engine's shape, for the context renderers.
    pub fn to_engine(&self) -> SearchResponse {
        SearchResponse {
            query: self.query.clone(),
            total_results: self.total_results,
            results: self.results.iter().map(Into::into).collect(),
            search_engine: self.search_engine.clone(),
            search_time: self.search_time,
            response_time_ms: self.response_time_ms,
            suggestion: self.suggestion.clone(),
            attempts: self
                .attempts
                .iter()
                .filter_map(|a| {
                    let kind =
                        serde_json::from_value(serde_json::Value::String(a.error_kind.clone()))
                            .ok()?;
                    Some(Attempt {
                        provider: a.provider.clone(),
                        error_kind: kind,
                        message: a.message.clone(),
                    })
                })
                .collect(),
            unapplied_filters: self.unapplied_filters.clone(),
        }
    }
}

/// A failed `web_search`: what went wrong and what to do next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebSearchError {
    /// The query as asked.
    pub query: String,
    /// authenticationFailed, rateLimited, quotaExceeded, invalidQuery,
    /// serviceUnavailable, timeout, notConfigured or unknown.
    pub error_kind: String,
    /// What went wrong.
    pub message: String,
    /// Whether the same call may succeed later.
    pub retryable: bool,
    /// How long to wait before retrying, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
    /// What to do next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// The provider that failed, when one alone was asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// Every provider asked, and how each failed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<SearchAttempt>,
}

impl WebSearchError {
    /// The error for `query` from the engine's error, with its attempts.
    pub fn from_engine(query: &str, e: &SearchError) -> Self {
        Self {
            query: query.to_owned(),
            error_kind: e.kind().as_str().to_owned(),
            message: e.message().to_owned(),
            retryable: e.is_retryable(),
            retry_after_ms: e.retry_after_ms(),
            suggestion: e.suggestion().map(str::to_owned),
            provider: e.provider().map(str::to_owned),
            attempts: e.attempts().iter().cloned().map(Into::into).collect(),
        }
    }
}

impl std::fmt::Display for WebSearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.error_kind)
    }
}

impl std::error::Error for WebSearchError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_and_provider_forms_are_accepted() {
        let r: WebSearchRequest = serde_json::from_value(serde_json::json!({
            "query": "rust",
            "num": 3,
            "allowed_domains": ["docs.rs"],
            "blocked_domains": ["spam.com"],
            "depth": "deep",
            "max_content_tokens": 500,
            "provider": ["brave", "DuckDuckGo,brave"],
        }))
        .unwrap();
        assert_eq!(r.max_results, Some(3));
        assert_eq!(r.include_domains, ["docs.rs"]);
        assert_eq!(r.exclude_domains, ["spam.com"]);
        assert!(r.wants_content());
        assert_eq!(r.max_content_tokens, Some(500));
        assert_eq!(r.provider.unwrap().names(), ["brave", "duckduckgo"]);
        let r: WebSearchRequest =
            serde_json::from_value(serde_json::json!({"query": "x y", "provider": "all"})).unwrap();
        assert_eq!(r.provider.unwrap().names(), ["all"]);
    }
}
