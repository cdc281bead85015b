//! Brave Search API: `GET /res/v1/web/search` (news: `/res/v1/news/search`)
//! with the key in `X-Subscription-Token`.
//!
//! Native: count (≤ 20), `freshness` (pd/pw/pm/py), `safesearch` (strict/off),
//! news, `country`, `search_lang`, images (`/res/v1/images/search`, at most
//! 200 a call, safe search strict or off). Emulated: site and domain filters as `site:`/`-site:` operators.
//! Errors: a bad key is a 422 with code `SUBSCRIPTION_TOKEN_INVALID`, a missing
//! one a 422 `VALIDATION` whose `meta.errors[].loc` names the header; a 429
//! carries `X-RateLimit-Limit/Remaining/Reset` with a per-second and a
//! per-month window, and a spent monthly window means the quota is used up.

use std::fmt;

use reqwest::header::HeaderMap;
use serde::Deserialize;

use super::http::{self, Reply};
use super::operators::{Native, query_with_operators};
use crate::registry::require_key;
use crate::{
    DateRange, ErrorKind, Provider, ProviderAnswer, ProviderQuery, ProviderSettings, RawImage,
    RawResult, SearchError, SearchType, Topic,
};

const NAME: &str = "brave";
const WEB: &str = "https://api.search.brave.com/res/v1/web/search";
const NEWS: &str = "https://api.search.brave.com/res/v1/news/search";
const IMAGES: &str = "https://api.search.brave.com/res/v1/images/search";
/// The web endpoint's documented maximum `count`.
const MAX_COUNT: u32 = 20;

/// The Brave Search API adapter.
pub struct BraveProvider {
    client: reqwest::Client,
    api_key: String,
    base_url: Option<String>,
}

impl fmt::Debug for BraveProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BraveProvider")
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

impl BraveProvider {
    /// An adapter with `settings.api_key` (`BRAVE_API_KEY`), sending through `client`.
    ///
    /// # Errors
    ///
    /// `notConfigured` without a key or with a `base_url` that is not http(s).
    pub fn new(settings: &ProviderSettings, client: reqwest::Client) -> Result<Self, SearchError> {
        let api_key = require_key(NAME, settings.api_key.as_deref(), "the API key")?.to_owned();
        http::endpoint(NAME, settings.base_url.as_deref(), WEB)?;
        Ok(Self {
            client,
            api_key,
            base_url: settings.base_url.clone(),
        })
    }
}

#[async_trait::async_trait]
impl Provider for BraveProvider {
    fn name(&self) -> &'static str {
        NAME
    }

    fn max_results(&self) -> u32 {
        MAX_COUNT
    }

    fn supports_images(&self) -> bool {
        true
    }

    async fn search(&self, query: &ProviderQuery) -> Result<ProviderAnswer, SearchError> {
        let documented = match (query.search_type, query.topic) {
            (SearchType::Images, _) => IMAGES,
            (_, Topic::News) => NEWS,
            (_, Topic::General) => WEB,
        };
        let url = http::endpoint(NAME, self.base_url.as_deref(), documented)?;
        let request = self
            .client
            .get(url)
            .query(&params(query))
            .header("Accept", "application/json")
            .header("X-Subscription-Token", &self.api_key);
        let reply = http::send(NAME, request).await?;
        if !reply.status.is_success() {
            return Err(error_for(&reply));
        }
        let mut answer = if query.search_type == SearchType::Images {
            parse_images(&reply)?
        } else {
            parse(&reply, query.topic)?
        };
        if query.search_type == SearchType::Images && query.date_range.is_some() {
            // The image endpoint has no `freshness`.
            answer.unapplied_filters.push("dateRange");
        }
        Ok(answer)
    }
}

fn params(query: &ProviderQuery) -> Vec<(&'static str, String)> {
    let mut p = vec![
        ("q", query_with_operators(query, Native::default())),
        ("count", query.count.min(MAX_COUNT).to_string()),
        (
            "safesearch",
            if query.safe_search { "strict" } else { "off" }.to_owned(),
        ),
    ];
    if let Some(country) = &query.country {
        p.push(("country", country.clone()));
    }
    if let Some(language) = &query.language {
        p.push(("search_lang", language.clone()));
    }
    if query.search_type == SearchType::Images {
        return p;
    }
    if let Some(range) = query.date_range {
        let freshness = match range {
            DateRange::Day => "pd",
            DateRange::Week => "pw",
            DateRange::Month => "pm",
            DateRange::Year => "py",
        };
        p.push(("freshness", freshness.to_owned()));
    }
    if query.topic == Topic::General {
        // Only the web results are read; skip videos, discussions, infobox...
        p.push(("result_filter", "web".to_owned()));
    }
    p
}

#[derive(Deserialize, Default)]
struct WebAnswer {
    #[serde(default)]
    web: Option<Results>,
    // The news endpoint puts its results at the top level.
    #[serde(default)]
    results: Vec<Item>,
}

#[derive(Deserialize, Default)]
struct Results {
    #[serde(default)]
    results: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    #[serde(default)]
    title: String,
    url: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    page_age: Option<String>,
    #[serde(default)]
    age: Option<String>,
}

fn parse(reply: &Reply, topic: Topic) -> Result<ProviderAnswer, SearchError> {
    let answer: WebAnswer = reply.json(NAME)?;
    let items = match topic {
        Topic::News => answer.results,
        Topic::General => answer.web.unwrap_or_default().results,
    };
    Ok(ProviderAnswer {
        images: Vec::new(),
        results: items
            .into_iter()
            .map(|i| RawResult {
                title: i.title,
                url: i.url,
                snippet: i.description,
                date: i.page_age.or(i.age),
                ..RawResult::default()
            })
            .collect(),
        total_results: None,
        unapplied_filters: Vec::new(),
    })
}

/// The image endpoint's answer: `results[]` of `{title, url (the page),
/// thumbnail: {src, width, height}, properties: {url (the image), width, height}}`.
#[derive(Deserialize)]
struct ImageAnswer {
    #[serde(default)]
    results: Vec<ImageItem>,
}

#[derive(Deserialize)]
struct ImageItem {
    #[serde(default)]
    title: String,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    thumbnail: Option<Picture>,
    #[serde(default)]
    properties: Option<Picture>,
}

#[derive(Deserialize, Default)]
struct Picture {
    #[serde(default, alias = "src")]
    url: Option<String>,
    #[serde(default)]
    width: Option<u32>,
    #[serde(default)]
    height: Option<u32>,
}

fn parse_images(reply: &Reply) -> Result<ProviderAnswer, SearchError> {
    let answer: ImageAnswer = reply.json(NAME)?;
    let images = answer
        .results
        .into_iter()
        .filter_map(|i| {
            let full = i.properties.unwrap_or_default();
            let thumb = i.thumbnail.unwrap_or_default();
            Some(RawImage {
                title: i.title,
                image_url: full.url.or_else(|| thumb.url.clone())?,
                thumbnail_url: thumb.url,
                width: full.width,
                height: full.height,
                page_url: i.url,
            })
        })
        .collect();
    Ok(ProviderAnswer {
        images,
        ..ProviderAnswer::default()
    })
}

#[derive(Deserialize)]
struct ErrorBody {
    error: ErrorDetail,
}

#[derive(Deserialize)]
struct ErrorDetail {
    #[serde(default)]
    code: String,
    #[serde(default)]
    detail: String,
    #[serde(default)]
    meta: Option<ErrorMeta>,
}

/// `VALIDATION` errors list each refused field: `{"type":"missing","loc":["header","x-subscription-token"],...}`.
#[derive(Deserialize, Default)]
struct ErrorMeta {
    #[serde(default)]
    errors: Vec<FieldError>,
}

#[derive(Deserialize)]
struct FieldError {
    #[serde(default)]
    loc: Vec<serde_json::Value>,
}

impl ErrorDetail {
    /// Whether Brave refused the request for its token header: a `VALIDATION`
    /// error is an invalid query unless the field it names is the key itself.
    fn names_the_token_header(&self) -> bool {
        self.meta.as_ref().is_some_and(|m| {
            m.errors.iter().any(|e| {
                e.loc.iter().any(|part| {
                    part.as_str()
                        .is_some_and(|p| p.eq_ignore_ascii_case("x-subscription-token"))
                })
            })
        })
    }
}

fn error_for(reply: &Reply) -> SearchError {
    let status = reply.status.as_u16();
    let detail = serde_json::from_slice::<ErrorBody>(&reply.body)
        .ok()
        .map(|b| b.error);
    let code = detail.as_ref().map_or("", |d| d.code.as_str());
    let text = detail
        .as_ref()
        .map(|d| d.detail.as_str())
        .filter(|d| !d.is_empty())
        .unwrap_or(code);
    let with_text = |message: String| {
        if text.is_empty() {
            message
        } else {
            format!("{message}: {text}")
        }
    };
    let token_missing = detail
        .as_ref()
        .is_some_and(ErrorDetail::names_the_token_header);
    match (status, code) {
        (_, "VALIDATION") if token_missing => SearchError::new(
            ErrorKind::AuthenticationFailed,
            format!("brave received no API key (HTTP {status}: the X-Subscription-Token header is missing)"),
        )
        .with_provider(NAME)
        .with_status(status)
        .with_suggestion(
            "Set BRAVE_API_KEY to the key of a Search plan from the Brave API dashboard.",
        ),
        (_, "SUBSCRIPTION_TOKEN_INVALID") | (401 | 403, _) => SearchError::new(
            ErrorKind::AuthenticationFailed,
            with_text(format!("brave refused the API key (HTTP {status})")),
        )
        .with_provider(NAME)
        .with_status(status)
        .with_suggestion(
            "Check BRAVE_API_KEY: copy the key of a Search plan from the Brave API dashboard.",
        ),
        (429, _) if monthly_window_spent(&reply.headers) => SearchError::new(
            ErrorKind::QuotaExceeded,
            with_text("brave's monthly quota is used up (HTTP 429)".to_owned()),
        )
        .with_provider(NAME)
        .with_status(status)
        .with_suggestion("Upgrade the Brave plan or use another provider until the quota resets."),
        _ => http::error_for_status(NAME, reply),
    }
}

/// Brave sends two windows, per second and per month (`X-RateLimit-Remaining: 0, 0`);
/// a spent second window is the quota, which waiting a second does not fix.
fn monthly_window_spent(headers: &HeaderMap) -> bool {
    headers
        .get("x-ratelimit-remaining")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').nth(1))
        .is_some_and(|month| month.trim() == "0")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchDepth;
    use bytes::Bytes;
    use reqwest::StatusCode;

    fn query() -> ProviderQuery {
        ProviderQuery {
            query: "rust async".into(),
            count: 7,
            site: None,
            include_domains: vec!["docs.rs".into()],
            exclude_domains: vec!["reddit.com".into()],
            date_range: Some(DateRange::Week),
            safe_search: true,
            topic: Topic::General,
            depth: SearchDepth::Basic,
            ..ProviderQuery::default()
        }
    }

    fn reply(status: u16, headers: &[(&'static str, &str)], body: &str) -> Reply {
        let mut h = HeaderMap::new();
        for (k, v) in headers {
            h.insert(*k, v.parse().unwrap());
        }
        Reply {
            status: StatusCode::from_u16(status).unwrap(),
            headers: h,
            body: Bytes::from(body.to_owned()),
        }
    }

    #[test]
    fn maps_every_filter() {
        let p = params(&query());
        let get = |k: &str| p.iter().find(|(n, _)| *n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("q"), Some("rust async site:docs.rs -site:reddit.com"));
        assert_eq!(get("count"), Some("7"));
        assert_eq!(get("freshness"), Some("pw"));
        assert_eq!(get("safesearch"), Some("strict"));
        assert_eq!(get("result_filter"), Some("web"));
    }

    #[test]
    fn maps_country_language_and_images() {
        let q = ProviderQuery {
            country: Some("de".into()),
            language: Some("fr".into()),
            search_type: SearchType::Images,
            ..query()
        };
        let p = params(&q);
        let get = |k: &str| p.iter().find(|(n, _)| *n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("country"), Some("de"));
        assert_eq!(get("search_lang"), Some("fr"));
        assert_eq!(get("freshness"), None);
        assert_eq!(get("result_filter"), None);
    }

    #[test]
    fn reads_the_image_shape() {
        // The documented ImageSearchApiResponse, trimmed.
        let body = r#"{"type":"images","query":{"original":"eiffel tower"},"results":[
            {"type":"image_result","title":"Eiffel Tower at night","url":"https://travel.example/paris","source":"travel.example",
             "thumbnail":{"src":"https://imgs.search.brave.com/abc","width":500,"height":375},
             "properties":{"url":"https://travel.example/img/eiffel.jpg","placeholder":"https://imgs.search.brave.com/p","width":1600,"height":1200},
             "meta_url":{"scheme":"https","netloc":"travel.example","hostname":"travel.example"}}]}"#;
        let a = parse_images(&reply(200, &[], body)).unwrap();
        assert!(a.results.is_empty());
        let i = &a.images[0];
        assert_eq!(i.image_url, "https://travel.example/img/eiffel.jpg");
        assert_eq!(
            i.thumbnail_url.as_deref(),
            Some("https://imgs.search.brave.com/abc")
        );
        assert_eq!((i.width, i.height), (Some(1600), Some(1200)));
        assert_eq!(i.page_url.as_deref(), Some("https://travel.example/paris"));
    }

    #[test]
    fn reads_web_and_news_shapes() {
        let web = r#"{"type":"search","web":{"type":"search","results":[
            {"title":"<strong>Rust</strong>","url":"https://a.example/","description":"d","page_age":"2024-01-02T03:04:05","age":"January 2, 2024"}]}}"#;
        let a = parse(&reply(200, &[], web), Topic::General).unwrap();
        assert_eq!(a.results[0].date.as_deref(), Some("2024-01-02T03:04:05"));
        let news = r#"{"type":"news","results":[{"title":"N","url":"https://n.example/","description":"x","age":"2 hours ago"}]}"#;
        let a = parse(&reply(200, &[], news), Topic::News).unwrap();
        assert_eq!(a.results[0].date.as_deref(), Some("2 hours ago"));
        let empty = r#"{"type":"search","query":{"original":"zzz"}}"#;
        assert!(
            parse(&reply(200, &[], empty), Topic::General)
                .unwrap()
                .results
                .is_empty()
        );
    }

    #[test]
    fn maps_errors() {
        let bad_key = r#"{"type":"ErrorResponse","error":{"id":"x","status":422,"code":"SUBSCRIPTION_TOKEN_INVALID","detail":"The provided subscription token is invalid."}}"#;
        assert_eq!(
            error_for(&reply(422, &[], bad_key)).kind(),
            ErrorKind::AuthenticationFailed
        );
        let limited = r#"{"type":"ErrorResponse","error":{"status":429,"code":"RATE_LIMITED","detail":"Request rate limit exceeded for plan."}}"#;
        let e = error_for(&reply(
            429,
            &[
                ("x-ratelimit-remaining", "0, 1999"),
                ("x-ratelimit-reset", "1, 2000000"),
            ],
            limited,
        ));
        assert_eq!(e.kind(), ErrorKind::RateLimited);
        assert_eq!(e.retry_after_ms(), Some(1000));
        let e = error_for(&reply(429, &[("x-ratelimit-remaining", "0, 0")], limited));
        assert_eq!(e.kind(), ErrorKind::QuotaExceeded);
    }
}
