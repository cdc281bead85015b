//! Wikipedia, keyless, through the MediaWiki Action API:
//! `GET https://en.wikipedia.org/w/api.php?action=query&list=search&srsearch=...`
//! with `format=json&formatversion=2`.
//!
//! Another language edition is chosen with `base_url` (for example
//! `https://de.wikipedia.org`); result URLs are built from each title on the
//! same origin (`/wiki/Title_with_underscores`).
//!
//! Wikimedia's policy requires a descriptive User-Agent with a way to reach
//! the operator, so every request carries [`USER_AGENT`] whatever the shared
//! client's agent is. Errors arrive in HTTP 200 bodies
//! (`{"error": {"code", "info"}}`): `maxlag`/`readonly` are
//! `serviceUnavailable`, `ratelimited` is `rateLimited`, query-shaped codes
//! are `invalidQuery`. Snippets keep MediaWiki's `<span class="searchmatch">`
//! markup for the engine to strip; the date is the page's last edit.
//!
//! Wikipedia cannot filter by date, safe search or news: those are reported as
//! not applied. Its results are all on wikipedia.org, so a domain filter that
//! excludes it answers empty without a request.

use async_trait::async_trait;
use serde::Deserialize;
use url::Url;

use super::http::{self, Reply};
use crate::{
    ErrorKind, Provider, ProviderAnswer, ProviderQuery, ProviderSettings, RawResult, SearchError,
    Topic,
};

const NAME: &str = "wikipedia";
const ENDPOINT: &str = "https://en.wikipedia.org/w/api.php";
/// `srlimit` allows up to 500; more than a page of hits is never useful here.
const MAX_RESULTS: u32 = 50;
/// Wikimedia's User-Agent policy: name, version and a contact URL.
pub(crate) const USER_AGENT: &str = concat!(
    "farsight/",
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("CARGO_PKG_REPOSITORY"),
    "; web search for AI agents) reqwest"
);

/// The Wikipedia (MediaWiki search API) adapter.
#[derive(Debug, Clone)]
pub struct WikipediaProvider {
    endpoint: Url,
    client: reqwest::Client,
}

impl WikipediaProvider {
    /// An adapter for the English Wikipedia, or for the edition whose origin is
    /// `settings.base_url` (e.g. `https://fr.wikipedia.org`).
    ///
    /// # Errors
    ///
    /// `notConfigured` when `base_url` is not an http(s) URL.
    pub fn new(settings: &ProviderSettings, client: reqwest::Client) -> Result<Self, SearchError> {
        Ok(Self {
            endpoint: http::endpoint(NAME, settings.base_url.as_deref(), ENDPOINT)?,
            client,
        })
    }
}

#[async_trait]
impl Provider for WikipediaProvider {
    fn name(&self) -> &'static str {
        NAME
    }

    fn max_results(&self) -> u32 {
        MAX_RESULTS
    }

    async fn search(&self, query: &ProviderQuery) -> Result<ProviderAnswer, SearchError> {
        let unapplied_filters = unapplied(query);
        if domain_filters_exclude_wikipedia(query) {
            return Ok(ProviderAnswer {
                images: Vec::new(),
                unapplied_filters,
                ..ProviderAnswer::default()
            });
        }
        let endpoint = edition(&self.endpoint, query.language.as_deref());
        let mut unapplied_filters = unapplied_filters;
        if query.language.is_some() && endpoint == self.endpoint {
            // A configured host that is not a Wikipedia edition (a mirror).
            unapplied_filters.push("language");
        }
        let request = self
            .client
            .get(endpoint.clone())
            .query(&query_params(query))
            .header(reqwest::header::USER_AGENT, USER_AGENT)
            .header(reqwest::header::ACCEPT, "application/json");
        let reply = http::send(NAME, request).await?;
        let answer = parse(&reply, &endpoint)?;
        Ok(ProviderAnswer {
            images: Vec::new(),
            unapplied_filters,
            ..answer
        })
    }
}

fn query_params(query: &ProviderQuery) -> Vec<(&'static str, String)> {
    vec![
        ("action", "query".to_owned()),
        ("list", "search".to_owned()),
        ("srsearch", query.query.trim().to_owned()),
        ("srlimit", query.count.clamp(1, MAX_RESULTS).to_string()),
        ("srnamespace", "0".to_owned()),
        ("srprop", "snippet|timestamp".to_owned()),
        ("srinfo", "totalhits".to_owned()),
        ("format", "json".to_owned()),
        ("formatversion", "2".to_owned()),
    ]
}

fn unapplied(query: &ProviderQuery) -> Vec<&'static str> {
    let mut out = Vec::new();
    if query.date_range.is_some() {
        out.push("dateRange");
    }
    if query.safe_search {
        out.push("safeSearch");
    }
    if query.topic == Topic::News {
        out.push("topic");
    }
    if query.country.is_some() {
        out.push("country");
    }
    out
}

/// The API of the edition in `language` (`fr` → `fr.wikipedia.org`), when the
/// endpoint is a Wikipedia edition; otherwise the endpoint as configured.
fn edition(endpoint: &Url, language: Option<&str>) -> Url {
    let Some(language) = language else {
        return endpoint.clone();
    };
    let mut url = endpoint.clone();
    let is_edition = endpoint
        .host_str()
        .is_some_and(|h| h.ends_with(".wikipedia.org"));
    if is_edition
        && url
            .set_host(Some(&format!("{language}.wikipedia.org")))
            .is_ok()
    {
        return url;
    }
    endpoint.clone()
}

/// Whether `site`/`includeDomains` name only other sites, or
/// `excludeDomains` names Wikipedia: then no Wikipedia result can be shown.
fn domain_filters_exclude_wikipedia(query: &ProviderQuery) -> bool {
    let is_wikipedia = |d: &str| {
        let d = d.trim().trim_end_matches('.').to_ascii_lowercase();
        d == "wikipedia.org" || d.ends_with(".wikipedia.org")
    };
    // An excluded parent domain (`wikipedia.org`) or this edition's host.
    let excluded = query.exclude_domains.iter().any(|d| {
        let d = d.trim().to_ascii_lowercase();
        d == "wikipedia.org" || d == "en.wikipedia.org"
    });
    let site_elsewhere = query
        .site
        .as_deref()
        .is_some_and(|s| !s.trim().is_empty() && !is_wikipedia(s));
    let include_elsewhere =
        !query.include_domains.is_empty() && !query.include_domains.iter().any(|d| is_wikipedia(d));
    excluded || site_elsewhere || include_elsewhere
}

#[derive(Debug, Deserialize)]
struct Answer {
    #[serde(default)]
    error: Option<ApiError>,
    #[serde(default)]
    query: Option<QueryPart>,
}

#[derive(Debug, Deserialize)]
struct ApiError {
    #[serde(default)]
    code: String,
    #[serde(default)]
    info: String,
}

#[derive(Debug, Deserialize)]
struct QueryPart {
    #[serde(default)]
    searchinfo: Option<SearchInfo>,
    #[serde(default)]
    search: Vec<Hit>,
}

#[derive(Debug, Deserialize)]
struct SearchInfo {
    #[serde(default)]
    totalhits: Option<u64>,
}

#[derive(Debug, Deserialize)]
struct Hit {
    title: String,
    #[serde(default)]
    snippet: String,
    #[serde(default)]
    timestamp: Option<String>,
}

fn parse(reply: &Reply, endpoint: &Url) -> Result<ProviderAnswer, SearchError> {
    let status = reply.status.as_u16();
    if status == 403 {
        // Wikimedia answers 403 to clients its User-Agent policy refuses.
        return Err(SearchError::new(
            ErrorKind::Unknown,
            "Wikipedia refused the request (HTTP 403), usually for the User-Agent policy",
        )
        .with_provider(NAME)
        .with_status(status)
        .with_suggestion(
            "Use another provider; see https://meta.wikimedia.org/wiki/User-Agent_policy.",
        ));
    }
    if !reply.status.is_success() {
        return Err(http::error_for_status(NAME, reply));
    }
    let answer: Answer = reply.json(NAME)?;
    if let Some(error) = answer.error {
        return Err(api_error(reply, &error));
    }
    let part = answer.query.unwrap_or(QueryPart {
        searchinfo: None,
        search: Vec::new(),
    });
    let results = part
        .search
        .into_iter()
        .filter_map(|hit| {
            Some(RawResult {
                url: article_url(endpoint, &hit.title)?,
                title: hit.title,
                snippet: hit.snippet,
                date: hit.timestamp.filter(|t| !t.trim().is_empty()),
                score: None,
                content: None,
            })
        })
        .collect();
    Ok(ProviderAnswer {
        images: Vec::new(),
        results,
        total_results: part.searchinfo.and_then(|i| i.totalhits),
        unapplied_filters: Vec::new(),
    })
}

fn api_error(reply: &Reply, error: &ApiError) -> SearchError {
    let code = error.code.as_str();
    let (kind, suggestion) = match code {
        "ratelimited" => (
            ErrorKind::RateLimited,
            "Wait before retrying, or lower requests_per_second for wikipedia.",
        ),
        "maxlag" | "readonly" => (
            ErrorKind::ServiceUnavailable,
            "Wikipedia is busy or read-only; try again shortly.",
        ),
        c if c.starts_with("internal_api_error") => (
            ErrorKind::ServiceUnavailable,
            "Try again later or use another provider.",
        ),
        "missingparam" | "badvalue" | "invalidparammix" | "toomanyvalues" => {
            (ErrorKind::InvalidQuery, "Rephrase the query.")
        }
        c if c.starts_with("search") || c.starts_with("cirrussearch") => (
            ErrorKind::InvalidQuery,
            "Rephrase the query (Wikipedia's search syntax refused it).",
        ),
        _ => (ErrorKind::Unknown, "Try again or use another provider."),
    };
    let mut retry = http::retry_after_ms(&reply.headers);
    if retry.is_none() && code == "maxlag" {
        // MediaWiki sends Retry-After: 5 with maxlag; assume it when a proxy drops it.
        retry = Some(5_000);
    }
    SearchError::new(kind, format!("wikipedia error {code}: {}", error.info))
        .with_provider(NAME)
        .with_status(reply.status.as_u16())
        .with_suggestion(suggestion)
        .with_retry_after_ms(retry)
}

/// `/wiki/Title_with_underscores` on the API's origin (and path prefix).
fn article_url(endpoint: &Url, title: &str) -> Option<String> {
    let title = title.trim();
    if title.is_empty() {
        return None;
    }
    let prefix = endpoint
        .path()
        .strip_suffix("/w/api.php")
        .unwrap_or("")
        .trim_end_matches('/');
    let mut url = endpoint.clone();
    url.set_query(None);
    url.set_fragment(None);
    url.set_path(&format!("{prefix}/wiki/{}", encode_title(title)));
    Some(url.to_string())
}

/// MediaWiki's URL form of a title: spaces as underscores, and everything
/// outside the characters its own links leave bare percent-encoded.
fn encode_title(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    for byte in title.replace(' ', "_").bytes() {
        let bare = byte.is_ascii_alphanumeric()
            || matches!(
                byte,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'('
                    | b')'
                    | b'*'
                    | b','
                    | b';'
                    | b':'
                    | b'@'
                    | b'/'
                    | b'\''
            );
        if bare {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DateRange, SearchDepth};
    use reqwest::StatusCode;

    fn query() -> ProviderQuery {
        ProviderQuery {
            query: "rust language".into(),
            count: 5,
            site: None,
            include_domains: vec![],
            exclude_domains: vec![],
            date_range: None,
            safe_search: false,
            topic: Topic::General,
            depth: SearchDepth::Basic,
            ..ProviderQuery::default()
        }
    }

    fn reply(status: u16, body: &str) -> Reply {
        Reply {
            status: StatusCode::from_u16(status).unwrap(),
            headers: Default::default(),
            body: bytes::Bytes::copy_from_slice(body.as_bytes()),
        }
    }

    #[test]
    fn titles_become_article_urls() {
        let api = Url::parse(ENDPOINT).unwrap();
        assert_eq!(
            article_url(&api, "Rust (programming language)").as_deref(),
            Some("https://en.wikipedia.org/wiki/Rust_(programming_language)")
        );
        assert_eq!(
            article_url(&api, "AC/DC").as_deref(),
            Some("https://en.wikipedia.org/wiki/AC/DC")
        );
        assert_eq!(
            article_url(&api, "C++ & C#? 100%").as_deref(),
            Some("https://en.wikipedia.org/wiki/C%2B%2B_%26_C%23%3F_100%25")
        );
        assert_eq!(
            article_url(&api, "Zürich").as_deref(),
            Some("https://en.wikipedia.org/wiki/Z%C3%BCrich")
        );
        let proxied = Url::parse("https://proxy.example/wp/w/api.php").unwrap();
        assert_eq!(
            article_url(&proxied, "Rust").as_deref(),
            Some("https://proxy.example/wp/wiki/Rust")
        );
    }

    #[test]
    fn errors_in_200_bodies_are_found() {
        let err = |code: &str| {
            let body = format!(
                r#"{{"error":{{"code":"{code}","info":"i","docref":"d"}},"servedby":"mw1"}}"#
            );
            parse(&reply(200, &body), &Url::parse(ENDPOINT).unwrap()).unwrap_err()
        };
        let e = err("maxlag");
        assert_eq!(e.kind(), ErrorKind::ServiceUnavailable);
        assert_eq!(e.retry_after_ms(), Some(5_000));
        assert_eq!(err("ratelimited").kind(), ErrorKind::RateLimited);
        assert_eq!(err("readonly").kind(), ErrorKind::ServiceUnavailable);
        assert_eq!(
            err("internal_api_error_DBQueryError").kind(),
            ErrorKind::ServiceUnavailable
        );
        assert_eq!(err("missingparam").kind(), ErrorKind::InvalidQuery);
        assert_eq!(err("something-new").kind(), ErrorKind::Unknown);
    }

    #[test]
    fn filters_wikipedia_cannot_apply_are_reported_or_short_circuit() {
        let mut q = query();
        q.date_range = Some(DateRange::Year);
        q.safe_search = true;
        q.topic = Topic::News;
        assert_eq!(unapplied(&q), vec!["dateRange", "safeSearch", "topic"]);
        assert!(!domain_filters_exclude_wikipedia(&query()));
        let mut q = query();
        q.site = Some("en.wikipedia.org".into());
        assert!(!domain_filters_exclude_wikipedia(&q));
        q.site = Some("docs.rs".into());
        assert!(domain_filters_exclude_wikipedia(&q));
        let mut q = query();
        q.include_domains = vec!["docs.rs".into(), "wikipedia.org".into()];
        assert!(!domain_filters_exclude_wikipedia(&q));
        q.include_domains = vec!["docs.rs".into()];
        assert!(domain_filters_exclude_wikipedia(&q));
        let mut q = query();
        q.exclude_domains = vec!["wikipedia.org".into()];
        assert!(domain_filters_exclude_wikipedia(&q));
    }

    #[test]
    fn user_agent_is_descriptive() {
        assert!(USER_AGENT.starts_with("farsight/"));
        assert!(USER_AGENT.contains("https://"), "{USER_AGENT}");
    }

    #[test]
    fn language_picks_the_edition() {
        let api = Url::parse(ENDPOINT).unwrap();
        assert_eq!(
            edition(&api, Some("fr")).as_str(),
            "https://fr.wikipedia.org/w/api.php"
        );
        assert_eq!(edition(&api, None), api);
        let mirror = Url::parse("http://127.0.0.1:8080/w/api.php").unwrap();
        assert_eq!(edition(&mirror, Some("fr")), mirror);
    }
}
