//! Serper (Google results): `POST https://google.serper.dev/search` (news:
//! `/news`) with the key in `X-API-KEY` and a JSON body.
//!
//! Native: `num`, `tbs` (qdr:d/w/m/y), news, `gl` (country), `hl` (language),
//! images (`/images`). Emulated: site and domain filters
//! as `site:`/`-site:` operators. Not available: safe search (reported unapplied).
//! Errors: 401/403 bad key, 400 "Not enough credits" (`quotaExceeded`), 429, 5xx.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::http::{self, Reply};
use super::operators::{Native, query_with_operators};
use crate::registry::require_key;
use crate::{
    DateRange, ErrorKind, Provider, ProviderAnswer, ProviderQuery, ProviderSettings, RawImage,
    RawResult, SearchError, SearchType, Topic,
};

const NAME: &str = "serper";
const SEARCH: &str = "https://google.serper.dev/search";
const NEWS: &str = "https://google.serper.dev/news";
const IMAGES: &str = "https://google.serper.dev/images";
const MAX_COUNT: u32 = 20;

/// The Serper adapter.
pub struct SerperProvider {
    client: reqwest::Client,
    api_key: String,
    base_url: Option<String>,
}

impl fmt::Debug for SerperProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SerperProvider")
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

impl SerperProvider {
    /// An adapter with `settings.api_key` (`SERPER_API_KEY`), sending through `client`.
    ///
    /// # Errors
    ///
    /// `notConfigured` without a key or with a `base_url` that is not http(s).
    pub fn new(settings: &ProviderSettings, client: reqwest::Client) -> Result<Self, SearchError> {
        let api_key = require_key(NAME, settings.api_key.as_deref(), "the API key")?.to_owned();
        http::endpoint(NAME, settings.base_url.as_deref(), SEARCH)?;
        Ok(Self {
            client,
            api_key,
            base_url: settings.base_url.clone(),
        })
    }
}

#[derive(Debug, Serialize)]
struct Body {
    q: String,
    num: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    tbs: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gl: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hl: Option<String>,
}

fn body(query: &ProviderQuery) -> Body {
    Body {
        q: query_with_operators(query, Native::default()),
        num: query.count.min(MAX_COUNT),
        tbs: query.date_range.map(|r| match r {
            DateRange::Day => "qdr:d",
            DateRange::Week => "qdr:w",
            DateRange::Month => "qdr:m",
            DateRange::Year => "qdr:y",
        }),
        gl: query.country.clone(),
        hl: query.language.clone(),
    }
}

#[async_trait::async_trait]
impl Provider for SerperProvider {
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
            (_, Topic::General) => SEARCH,
        };
        let url = http::endpoint(NAME, self.base_url.as_deref(), documented)?;
        let request = self
            .client
            .post(url)
            .header("X-API-KEY", &self.api_key)
            .json(&body(query));
        let reply = http::send(NAME, request).await?;
        if !reply.status.is_success() {
            return Err(error_for(&reply));
        }
        let mut answer = parse(&reply)?;
        if query.safe_search {
            answer.unapplied_filters.push("safeSearch");
        }
        Ok(answer)
    }
}

#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    organic: Vec<Item>,
    #[serde(default)]
    news: Vec<Item>,
    #[serde(default)]
    images: Vec<ImageItem>,
}

/// One of `/images`' `images[]`: `{title, imageUrl, imageWidth, imageHeight,
/// thumbnailUrl, thumbnailWidth, thumbnailHeight, source, domain, link, position}`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ImageItem {
    #[serde(default)]
    title: String,
    image_url: String,
    #[serde(default)]
    image_width: Option<u32>,
    #[serde(default)]
    image_height: Option<u32>,
    #[serde(default)]
    thumbnail_url: Option<String>,
    #[serde(default)]
    link: Option<String>,
}

#[derive(Deserialize)]
struct Item {
    #[serde(default)]
    title: String,
    link: String,
    #[serde(default)]
    snippet: String,
    #[serde(default)]
    date: Option<String>,
}

fn parse(reply: &Reply) -> Result<ProviderAnswer, SearchError> {
    let answer: Answer = reply.json(NAME)?;
    let items = if answer.organic.is_empty() {
        answer.news
    } else {
        answer.organic
    };
    Ok(ProviderAnswer {
        images: answer
            .images
            .into_iter()
            .map(|i| RawImage {
                title: i.title,
                image_url: i.image_url,
                thumbnail_url: i.thumbnail_url,
                width: i.image_width,
                height: i.image_height,
                page_url: i.link,
            })
            .collect(),
        results: items
            .into_iter()
            .map(|i| RawResult {
                title: i.title,
                url: i.link,
                snippet: i.snippet,
                date: i.date,
                ..RawResult::default()
            })
            .collect(),
        total_results: None,
        unapplied_filters: Vec::new(),
    })
}

fn error_for(reply: &Reply) -> SearchError {
    let status = reply.status.as_u16();
    let message = serde_json::from_slice::<serde_json::Value>(&reply.body)
        .ok()
        .and_then(|v| v.get("message").and_then(|m| m.as_str()).map(str::to_owned))
        .unwrap_or_default();
    let lower = message.to_ascii_lowercase();
    if lower.contains("credits") {
        return SearchError::new(
            ErrorKind::QuotaExceeded,
            format!("serper has no credits left (HTTP {status}): {message}"),
        )
        .with_provider(NAME)
        .with_status(status)
        .with_suggestion("Top up the Serper account or use another provider.");
    }
    if matches!(status, 401 | 403) || lower.contains("api key") || lower.contains("unauthorized") {
        return SearchError::new(
            ErrorKind::AuthenticationFailed,
            format!("serper refused the API key (HTTP {status}): {message}"),
        )
        .with_provider(NAME)
        .with_status(status)
        .with_suggestion("Check SERPER_API_KEY in the Serper dashboard.");
    }
    http::error_for_status(NAME, reply)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchDepth;
    use bytes::Bytes;
    use reqwest::StatusCode;
    use reqwest::header::HeaderMap;

    fn reply(status: u16, body: &str) -> Reply {
        Reply {
            status: StatusCode::from_u16(status).unwrap(),
            headers: HeaderMap::new(),
            body: Bytes::from(body.to_owned()),
        }
    }

    #[test]
    fn maps_every_filter() {
        let q = ProviderQuery {
            query: "rust".into(),
            count: 8,
            site: Some("docs.rs".into()),
            include_domains: vec![],
            exclude_domains: vec!["x.com".into()],
            date_range: Some(DateRange::Year),
            safe_search: false,
            topic: Topic::General,
            depth: SearchDepth::Basic,
            ..ProviderQuery::default()
        };
        assert_eq!(
            serde_json::to_value(body(&q)).unwrap(),
            serde_json::json!({"q":"rust site:docs.rs -site:x.com","num":8,"tbs":"qdr:y"})
        );
    }

    #[test]
    fn sends_country_and_language() {
        let q = ProviderQuery {
            query: "rust".into(),
            count: 5,
            country: Some("de".into()),
            language: Some("fr".into()),
            ..ProviderQuery::default()
        };
        let b = serde_json::to_value(body(&q)).unwrap();
        assert_eq!(b["gl"], "de");
        assert_eq!(b["hl"], "fr");
    }

    #[test]
    fn reads_images() {
        // Serper's documented /images answer, trimmed.
        let a = parse(&reply(200, r#"{"searchParameters":{"q":"eiffel tower","type":"images","engine":"google"},"images":[
            {"title":"Eiffel Tower - Wikipedia","imageUrl":"https://upload.example/eiffel.jpg","imageWidth":1200,"imageHeight":1800,
             "thumbnailUrl":"https://encrypted-tbn0.gstatic.com/images?q=tbn:x","thumbnailWidth":183,"thumbnailHeight":275,
             "source":"Wikipedia","domain":"en.wikipedia.org","link":"https://en.wikipedia.org/wiki/Eiffel_Tower","googleUrl":"https://www.google.com/imgres?x","position":1}]}"#)).unwrap();
        let i = &a.images[0];
        assert_eq!(i.image_url, "https://upload.example/eiffel.jpg");
        assert_eq!((i.width, i.height), (Some(1200), Some(1800)));
        assert_eq!(
            i.page_url.as_deref(),
            Some("https://en.wikipedia.org/wiki/Eiffel_Tower")
        );
        assert!(
            i.thumbnail_url
                .as_deref()
                .unwrap()
                .starts_with("https://encrypted-tbn0")
        );
    }

    #[test]
    fn reads_organic_and_news() {
        let a = parse(&reply(
            200,
            r#"{"organic":[{"title":"T","link":"https://a.example/","snippet":"s","position":1}]}"#,
        ))
        .unwrap();
        assert_eq!(a.results[0].url, "https://a.example/");
        let a = parse(&reply(200, r#"{"news":[{"title":"T","link":"https://n.example/","snippet":"s","date":"3 hours ago","source":"N"}]}"#)).unwrap();
        assert_eq!(a.results[0].date.as_deref(), Some("3 hours ago"));
    }

    #[test]
    fn maps_errors() {
        assert_eq!(
            error_for(&reply(
                400,
                r#"{"message":"Not enough credits","statusCode":400}"#
            ))
            .kind(),
            ErrorKind::QuotaExceeded
        );
        assert_eq!(
            error_for(&reply(
                403,
                r#"{"message":"Unauthorized.","statusCode":403}"#
            ))
            .kind(),
            ErrorKind::AuthenticationFailed
        );
        assert_eq!(
            error_for(&reply(429, r#"{"message":"Too many requests"}"#)).kind(),
            ErrorKind::RateLimited
        );
    }
}
