//! What an agent asks for: the `web_search` tool's input, on every surface.

use serde::{Deserialize, Serialize};

use crate::lenient;
use crate::{DateRange, SearchDepth, SearchType, Topic};

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
/// `blocked_domains`/`exclude_domains`, `depth`); numbers and booleans may
/// come as strings (`"5"`, `"false"`), as some clients send them. The doc
/// comments of the fields are the input schema's descriptions a model reads:
/// keep them short.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SearchRequest {
    /// 2-400 characters.
    pub query: String,
    /// Results wanted (default 5).
    #[serde(
        default,
        alias = "max_results",
        alias = "num",
        deserialize_with = "lenient::opt_u32",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 20)))]
    pub max_results: Option<u32>,
    /// Only this site, e.g. "docs.rs".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// Only these domains.
    #[serde(
        default,
        alias = "include_domains",
        alias = "allowed_domains",
        deserialize_with = "lenient::string_list",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub include_domains: Vec<String>,
    /// Never these domains.
    #[serde(
        default,
        alias = "exclude_domains",
        alias = "blocked_domains",
        deserialize_with = "lenient::string_list",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub exclude_domains: Vec<String>,
    /// Only results this recent.
    #[serde(default, alias = "date_range", skip_serializing_if = "Option::is_none")]
    pub date_range: Option<DateRange>,
    /// Filter adult content (default on).
    #[serde(
        default,
        alias = "safe_search",
        deserialize_with = "lenient::opt_bool",
        skip_serializing_if = "Option::is_none"
    )]
    pub safe_search: Option<bool>,
    /// Kind of results.
    #[serde(default)]
    pub topic: Topic,
    /// "images": answered in `images`.
    #[serde(default, alias = "search_type")]
    pub search_type: SearchType,
    /// Country code, e.g. "de".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// Language code, e.g. "fr".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// "deep" also reads the top pages.
    #[serde(
        default,
        rename = "searchDepth",
        alias = "depth",
        alias = "search_depth"
    )]
    pub depth: SearchDepth,
    /// Same as searchDepth "deep".
    #[serde(
        default,
        alias = "include_content",
        deserialize_with = "lenient::bool",
        skip_serializing_if = "std::ops::Not::not"
    )]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub include_content: bool,
    /// Deep: total content tokens (default 4000).
    #[serde(
        default,
        alias = "max_content_tokens",
        deserialize_with = "lenient::opt_usize",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub max_content_tokens: Option<usize>,
    /// Usually omit: a provider, a list or "all".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // Listed as a string, the form a model needs; a list is accepted too.
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    pub provider: Option<ProviderChoice>,
    /// Skip reading the cache (the answer is still stored). Not part of the
    /// tool's input: a per-call option of the CLI and the library.
    #[serde(skip)]
    #[cfg_attr(feature = "schema", schemars(skip))]
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

    /// Whether page content is wanted (`searchDepth: "deep"` or `includeContent`).
    pub fn wants_content(&self) -> bool {
        self.include_content || self.depth == SearchDepth::Deep
    }

    /// The providers asked for by name, lower-cased, empty entries and
    /// repeats dropped; empty means the default chain.
    pub fn provider_names(&self) -> Vec<String> {
        self.provider
            .as_ref()
            .map(ProviderChoice::names)
            .unwrap_or_default()
    }
}

/// One provider, several (a list, or a comma-separated string), or `"all"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum ProviderChoice {
    /// `"brave"`, `"brave,duckduckgo"` or `"all"`.
    One(String),
    /// `["brave", "duckduckgo"]`.
    Many(Vec<String>),
}

impl ProviderChoice {
    /// The names asked for, lower-cased, empty entries and repeats dropped.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_and_provider_forms_are_accepted() {
        let r: SearchRequest = serde_json::from_value(serde_json::json!({
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
        assert_eq!(r.provider_names(), ["brave", "duckduckgo"]);
        let r: SearchRequest =
            serde_json::from_value(serde_json::json!({"query": "x y", "provider": "all"})).unwrap();
        assert_eq!(r.provider_names(), ["all"]);
    }

    #[test]
    fn reads_search_type_country_and_language() {
        let r: SearchRequest = serde_json::from_value(serde_json::json!({
            "query": "eiffel tower",
            "searchType": "images",
            "country": "FR",
            "language": "fr",
        }))
        .unwrap();
        assert_eq!(r.search_type, SearchType::Images);
        assert_eq!(r.country.as_deref(), Some("FR"));
        assert_eq!(r.language.as_deref(), Some("fr"));
        let r: SearchRequest =
            serde_json::from_value(serde_json::json!({"query": "x y", "search_type": "image"}))
                .unwrap();
        assert_eq!(r.search_type, SearchType::Images);
        let r: SearchRequest = serde_json::from_value(serde_json::json!({"query": "x y"})).unwrap();
        assert_eq!(r.search_type, SearchType::Web);
    }

    #[test]
    fn numbers_and_booleans_may_come_as_strings() {
        let r: SearchRequest = serde_json::from_value(serde_json::json!({
            "query": "rust",
            "maxResults": " 2 ",
            "safeSearch": "false",
            "includeContent": "true",
            "maxContentTokens": "800",
            "includeDomains": "docs.rs, crates.io",
        }))
        .unwrap();
        assert_eq!(r.max_results, Some(2));
        assert_eq!(r.safe_search, Some(false));
        assert!(r.include_content);
        assert_eq!(r.max_content_tokens, Some(800));
        assert_eq!(r.include_domains, ["docs.rs", "crates.io"]);
    }

    #[test]
    fn the_cache_switch_is_not_an_input() {
        let r: SearchRequest =
            serde_json::from_value(serde_json::json!({"query": "rust", "bypassCache": true}))
                .unwrap();
        assert!(!r.bypass_cache);
    }
}
