//! Tavily: `POST /search` with `Authorization: Bearer <key>` and a JSON body.
//!
//! Native: `max_results` (≤ 20), `search_depth` basic/advanced, `topic`
//! general/news, `include_domains`/`exclude_domains`, `time_range`, `country`
//! (a name, "germany"; general topic only), images (`include_images` with
//! `include_image_descriptions`: the image URL and a caption, no page, size or
//! thumbnail). Not available: safe search, language (reported as unapplied).
//! Errors: 401 bad key, 429 rate limit, 432 plan limit and 433 pay-as-you-go
//! limit (both `quotaExceeded`), 400 bad request, 5xx.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::http::{self, Reply};
use super::operators::native_includes;
use crate::locale;
use crate::registry::require_key;
use crate::{
    DateRange, ErrorKind, Provider, ProviderAnswer, ProviderQuery, ProviderSettings, RawImage,
    RawResult, SearchDepth, SearchError, SearchType, Topic,
};

const NAME: &str = "tavily";
const SEARCH: &str = "https://api.tavily.com/search";
const MAX_COUNT: u32 = 20;

/// The Tavily search adapter.
pub struct TavilyProvider {
    client: reqwest::Client,
    api_key: String,
    base_url: Option<String>,
}

impl fmt::Debug for TavilyProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TavilyProvider")
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

impl TavilyProvider {
    /// An adapter with `settings.api_key` (`TAVILY_API_KEY`), sending through `client`.
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

#[derive(Debug, Serialize, PartialEq)]
struct Body {
    query: String,
    search_depth: &'static str,
    topic: &'static str,
    max_results: u32,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    include_domains: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    exclude_domains: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_range: Option<&'static str>,
    include_answer: bool,
    include_raw_content: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    country: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    include_images: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    include_image_descriptions: bool,
}

fn body(query: &ProviderQuery) -> Body {
    Body {
        query: query.query.clone(),
        search_depth: match query.depth {
            SearchDepth::Basic => "basic",
            SearchDepth::Deep => "advanced",
        },
        topic: match query.topic {
            Topic::General => "general",
            Topic::News => "news",
        },
        max_results: query.count.min(MAX_COUNT),
        include_domains: native_includes(query),
        exclude_domains: query.exclude_domains.clone(),
        time_range: query.date_range.map(|r| match r {
            DateRange::Day => "day",
            DateRange::Week => "week",
            DateRange::Month => "month",
            DateRange::Year => "year",
        }),
        include_answer: false,
        include_raw_content: false,
        country: tavily_country(query),
        include_images: query.search_type == SearchType::Images,
        include_image_descriptions: query.search_type == SearchType::Images,
    }
}

/// The country as Tavily names it, when the query's topic lets Tavily use it.
fn tavily_country(query: &ProviderQuery) -> Option<String> {
    if query.topic != Topic::General {
        return None;
    }
    query.country.as_deref().and_then(locale::tavily_country)
}

#[async_trait::async_trait]
impl Provider for TavilyProvider {
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
        let url = http::endpoint(NAME, self.base_url.as_deref(), SEARCH)?;
        let request = self
            .client
            .post(url)
            .bearer_auth(&self.api_key)
            .json(&body(query));
        let reply = http::send(NAME, request).await?;
        if !reply.status.is_success() {
            return Err(error_for(&reply));
        }
        let mut answer = parse(&reply)?;
        if query.search_type == SearchType::Images {
            answer.results.clear();
        } else {
            answer.images.clear();
        }
        if query.safe_search {
            answer.unapplied_filters.push("safeSearch");
        }
        if query.country.is_some() && tavily_country(query).is_none() {
            answer.unapplied_filters.push("country");
        }
        if query.language.is_some() {
            answer.unapplied_filters.push("language");
        }
        Ok(answer)
    }
}

#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    results: Vec<Item>,
    /// With `include_images`: URLs, or `{url, description}` with descriptions.
    #[serde(default)]
    images: Vec<Image>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Image {
    Described {
        url: String,
        #[serde(default)]
        description: Option<String>,
    },
    Url(String),
}

#[derive(Deserialize)]
struct Item {
    #[serde(default)]
    title: String,
    url: String,
    #[serde(default)]
    content: String,
    #[serde(default)]
    score: Option<f64>,
    #[serde(default)]
    published_date: Option<String>,
}

fn parse(reply: &Reply) -> Result<ProviderAnswer, SearchError> {
    let answer: Answer = reply.json(NAME)?;
    Ok(ProviderAnswer {
        images: answer
            .images
            .into_iter()
            .map(|i| {
                let (url, description) = match i {
                    Image::Described { url, description } => (url, description),
                    Image::Url(url) => (url, None),
                };
                RawImage {
                    title: description.unwrap_or_default(),
                    image_url: url,
                    ..RawImage::default()
                }
            })
            .collect(),
        results: answer
            .results
            .into_iter()
            .map(|i| RawResult {
                title: i.title,
                url: i.url,
                snippet: i.content,
                date: i.published_date,
                score: i.score,
                content: None,
            })
            .collect(),
        total_results: None,
        unapplied_filters: Vec::new(),
    })
}

/// Tavily's error body: `{"detail": {"error": "..."}}`.
fn detail(reply: &Reply) -> String {
    serde_json::from_slice::<serde_json::Value>(&reply.body)
        .ok()
        .and_then(|v| {
            v.pointer("/detail/error")
                .or_else(|| v.get("detail"))
                .and_then(|d| d.as_str().map(str::to_owned))
        })
        .unwrap_or_default()
}

fn error_for(reply: &Reply) -> SearchError {
    let status = reply.status.as_u16();
    let message = |m: &str| {
        let d = detail(reply);
        if d.is_empty() {
            m.to_owned()
        } else {
            format!("{m}: {d}")
        }
    };
    match status {
        432 | 433 => SearchError::new(
            ErrorKind::QuotaExceeded,
            message(&format!(
                "tavily's {} limit is reached (HTTP {status})",
                if status == 432 {
                    "plan"
                } else {
                    "pay-as-you-go"
                }
            )),
        )
        .with_provider(NAME)
        .with_status(status)
        .with_suggestion(
            "Upgrade the Tavily plan or raise its pay-as-you-go limit, or use another provider.",
        ),
        401 => SearchError::new(
            ErrorKind::AuthenticationFailed,
            message("tavily refused the API key (HTTP 401)"),
        )
        .with_provider(NAME)
        .with_status(status)
        .with_suggestion("Check TAVILY_API_KEY (it starts with tvly-)."),
        _ => http::error_for_status(NAME, reply),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
            count: 30,
            site: Some("docs.rs".into()),
            include_domains: vec![],
            exclude_domains: vec!["reddit.com".into()],
            date_range: Some(DateRange::Month),
            safe_search: false,
            topic: Topic::News,
            depth: SearchDepth::Deep,
            ..ProviderQuery::default()
        };
        let json = serde_json::to_value(body(&q)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"query":"rust","search_depth":"advanced","topic":"news","max_results":20,
                "include_domains":["docs.rs"],"exclude_domains":["reddit.com"],"time_range":"month",
                "include_answer":false,"include_raw_content":false})
        );
    }

    #[test]
    fn maps_country_and_images() {
        let q = ProviderQuery {
            query: "eiffel tower".into(),
            count: 5,
            country: Some("us".into()),
            search_type: SearchType::Images,
            ..ProviderQuery::default()
        };
        let b = serde_json::to_value(body(&q)).unwrap();
        assert_eq!(b["country"], "united states");
        assert_eq!(b["include_images"], true);
        assert_eq!(b["include_image_descriptions"], true);
        let news = ProviderQuery {
            topic: Topic::News,
            search_type: SearchType::Web,
            ..q
        };
        let b = serde_json::to_value(body(&news)).unwrap();
        assert!(b.get("country").is_none());
        assert!(b.get("include_images").is_none());
    }

    #[test]
    fn reads_images_with_and_without_descriptions() {
        let body = r#"{"query":"eiffel tower","images":[
            {"url":"https://a.example/eiffel.jpg","description":"The Eiffel Tower at dusk."},
            "https://b.example/tower.png"],"results":[],"response_time":1.2}"#;
        let a = parse(&Reply {
            status: reqwest::StatusCode::OK,
            headers: reqwest::header::HeaderMap::new(),
            body: bytes::Bytes::from(body),
        })
        .unwrap();
        assert_eq!(a.images[0].image_url, "https://a.example/eiffel.jpg");
        assert_eq!(a.images[0].title, "The Eiffel Tower at dusk.");
        assert_eq!(a.images[1].image_url, "https://b.example/tower.png");
        assert_eq!(a.images[1].page_url, None);
    }

    #[test]
    fn maps_errors() {
        for (status, kind) in [
            (401, ErrorKind::AuthenticationFailed),
            (432, ErrorKind::QuotaExceeded),
            (433, ErrorKind::QuotaExceeded),
            (429, ErrorKind::RateLimited),
            (400, ErrorKind::InvalidQuery),
            (500, ErrorKind::ServiceUnavailable),
        ] {
            let e = error_for(&reply(status, r#"{"detail":{"error":"nope"}}"#));
            assert_eq!(e.kind(), kind, "{status}");
            assert!(e.message().contains("nope"), "{e}");
        }
    }
}
