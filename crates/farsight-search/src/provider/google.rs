//! Google Programmable Search Engine, Custom Search JSON API:
//! `GET /customsearch/v1?key=..&cx=..&q=..`.
//!
//! Google has closed this API to new customers and ends it on 2027-01-01;
//! existing engines keep working until then.
//!
//! Native: `num` (≤ 10 per page), `safe` (`active`/`off`, off unless the
//! provider's `safe_search` setting turns it on), `dateRestrict` (d1/w1/m1/y1),
//! `siteSearch` for one site or one excluded domain. Emulated: several domains
//! as `site:`/`-site:` operators; `gl` (country), `lr=lang_xx` and `hl`
//! (language), images (`searchType=image`). Not available: news (reported unapplied).
//! Retries: one for transient network errors, none on 429 (see [`RetryPolicy::google`]).

use std::fmt;

use serde::Deserialize;

use super::http::{self, Reply};
use super::operators::{Native, query_with_operators};
use crate::normalize::split_date_prefix;
use crate::registry::{not_configured, require_key};
use crate::{
    DateRange, ErrorKind, Provider, ProviderAnswer, ProviderQuery, ProviderSettings, RawImage,
    RawResult, RetryPolicy, SearchError, SearchType, Topic,
};

const NAME: &str = "google";
const SEARCH: &str = "https://www.googleapis.com/customsearch/v1";
/// The API's per-page limit.
const MAX_COUNT: u32 = 10;

/// The Google Custom Search JSON API adapter.
pub struct GoogleProvider {
    client: reqwest::Client,
    api_key: String,
    engine_id: String,
    base_url: Option<String>,
    safe_search: bool,
}

impl fmt::Debug for GoogleProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GoogleProvider")
            .field("engine_id", &self.engine_id)
            .field("base_url", &self.base_url)
            .field("safe_search", &self.safe_search)
            .finish_non_exhaustive()
    }
}

impl GoogleProvider {
    /// An adapter with `settings.api_key` (`GOOGLE_SEARCH_API_KEY`) and
    /// `settings.engine_id` (`GOOGLE_SEARCH_ENGINE_ID`, the `cx`); safe search
    /// only when `settings.safe_search` is `Some(true)`.
    ///
    /// # Errors
    ///
    /// `notConfigured` when the key or the engine id is missing, or `base_url`
    /// is not http(s).
    pub fn new(settings: &ProviderSettings, client: reqwest::Client) -> Result<Self, SearchError> {
        let api_key = require_key(NAME, settings.api_key.as_deref(), "the API key")?.to_owned();
        let engine_id = settings
            .engine_id
            .as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| not_configured(NAME, "the search engine id (cx)"))?
            .to_owned();
        http::endpoint(NAME, settings.base_url.as_deref(), SEARCH)?;
        Ok(Self {
            client,
            api_key,
            engine_id,
            base_url: settings.base_url.clone(),
            safe_search: settings.safe_search.unwrap_or(false),
        })
    }

    fn params(&self, query: &ProviderQuery) -> Vec<(&'static str, String)> {
        let includes: Vec<&String> = query.site.iter().chain(&query.include_domains).collect();
        let excludes = &query.exclude_domains;
        // `siteSearch` takes one domain; more go into the query as operators.
        let (site_search, native) = match (includes.as_slice(), excludes.as_slice()) {
            ([one], _) => (
                Some(((*one).clone(), "i")),
                Native {
                    include: true,
                    exclude: false,
                },
            ),
            ([], [one]) => (
                Some((one.clone(), "e")),
                Native {
                    include: false,
                    exclude: true,
                },
            ),
            _ => (None, Native::default()),
        };
        let mut p = vec![
            ("key", self.api_key.clone()),
            ("cx", self.engine_id.clone()),
            ("q", query_with_operators(query, native)),
            ("num", query.count.clamp(1, MAX_COUNT).to_string()),
            ("start", "1".to_owned()),
            (
                "safe",
                if self.safe_search { "active" } else { "off" }.to_owned(),
            ),
        ];
        if let Some(range) = query.date_range {
            let restrict = match range {
                DateRange::Day => "d1",
                DateRange::Week => "w1",
                DateRange::Month => "m1",
                DateRange::Year => "y1",
            };
            p.push(("dateRestrict", restrict.to_owned()));
        }
        if let Some((domain, filter)) = site_search {
            p.push(("siteSearch", domain));
            p.push(("siteSearchFilter", filter.to_owned()));
        }
        if let Some(country) = &query.country {
            // `gl` boosts results from the country; `cr` would drop all others.
            p.push(("gl", country.clone()));
        }
        if let Some(language) = &query.language {
            // `lr` restricts the documents' language, `hl` the interface's.
            p.push(("lr", format!("lang_{language}")));
            p.push(("hl", language.clone()));
        }
        if query.search_type == SearchType::Images {
            p.push(("searchType", "image".to_owned()));
        }
        p
    }
}

#[async_trait::async_trait]
impl Provider for GoogleProvider {
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
        let request = self.client.get(url).query(&self.params(query));
        let reply = http::send(NAME, request).await?;
        if !reply.status.is_success() {
            return Err(error_for(&reply));
        }
        let mut answer = parse(&reply, query.search_type)?;
        if query.topic == Topic::News {
            answer.unapplied_filters.push("topic");
        }
        if query.safe_search && !self.safe_search {
            answer.unapplied_filters.push("safeSearch");
        }
        Ok(answer)
    }

    fn retry_policy(&self) -> RetryPolicy {
        RetryPolicy::google()
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Answer {
    #[serde(default)]
    items: Vec<Item>,
    #[serde(default)]
    search_information: Option<SearchInformation>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SearchInformation {
    // Google sends the count as a string ("12300").
    #[serde(default)]
    total_results: Option<String>,
}

#[derive(Deserialize)]
struct Item {
    #[serde(default)]
    title: String,
    link: String,
    #[serde(default)]
    snippet: String,
    #[serde(default)]
    pagemap: Option<serde_json::Value>,
    /// With `searchType=image`: `{contextLink, width, height, thumbnailLink, ...}`;
    /// `link` is then the image itself.
    #[serde(default)]
    image: Option<ImageData>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ImageData {
    #[serde(default)]
    context_link: Option<String>,
    #[serde(default)]
    width: Option<u32>,
    #[serde(default)]
    height: Option<u32>,
    #[serde(default)]
    thumbnail_link: Option<String>,
}

fn parse(reply: &Reply, search_type: SearchType) -> Result<ProviderAnswer, SearchError> {
    let answer: Answer = reply.json(NAME)?;
    let total = answer
        .search_information
        .and_then(|s| s.total_results)
        .and_then(|t| t.parse().ok());
    if search_type == SearchType::Images {
        return Ok(ProviderAnswer {
            images: answer
                .items
                .into_iter()
                .map(|i| {
                    let data = i.image;
                    RawImage {
                        title: i.title,
                        image_url: i.link,
                        thumbnail_url: data.as_ref().and_then(|d| d.thumbnail_link.clone()),
                        width: data.as_ref().and_then(|d| d.width),
                        height: data.as_ref().and_then(|d| d.height),
                        page_url: data.and_then(|d| d.context_link),
                    }
                })
                .collect(),
            total_results: total,
            ..ProviderAnswer::default()
        });
    }
    Ok(ProviderAnswer {
        images: Vec::new(),
        results: answer
            .items
            .into_iter()
            .map(|i| {
                let (date, snippet) = date_of(&i);
                RawResult {
                    title: i.title,
                    url: i.link,
                    snippet,
                    date,
                    ..RawResult::default()
                }
            })
            .collect(),
        total_results: total,
        unapplied_filters: Vec::new(),
    })
}

/// The page's published time from its meta tags, else the date Google puts in
/// front of the snippet ("Aug 24, 2023 ... text"), which is then removed.
fn date_of(item: &Item) -> (Option<String>, String) {
    let meta = item
        .pagemap
        .as_ref()
        .and_then(|p| p.pointer("/metatags/0"))
        .and_then(|m| {
            [
                "article:published_time",
                "og:published_time",
                "date",
                "pubdate",
            ]
            .iter()
            .find_map(|k| m.get(*k).and_then(|v| v.as_str()))
        })
        .map(str::to_owned);
    match split_date_prefix(&item.snippet) {
        Some((date, rest)) => (meta.or(Some(date)), rest.to_owned()),
        None => (meta, item.snippet.clone()),
    }
}

#[derive(Deserialize)]
struct ErrorBody {
    error: ErrorDetail,
}

#[derive(Deserialize)]
struct ErrorDetail {
    #[serde(default)]
    message: String,
    #[serde(default)]
    status: String,
    #[serde(default)]
    errors: Vec<ErrorReason>,
}

#[derive(Deserialize)]
struct ErrorReason {
    #[serde(default)]
    reason: String,
}

fn error_for(reply: &Reply) -> SearchError {
    let status = reply.status.as_u16();
    let body = serde_json::from_slice::<ErrorBody>(&reply.body).ok();
    let message = body.as_ref().map_or("", |b| b.error.message.as_str());
    let reason = body
        .as_ref()
        .and_then(|b| b.error.errors.first())
        .map_or("", |r| r.reason.as_str());
    let grpc = body.as_ref().map_or("", |b| b.error.status.as_str());
    let lower = message.to_ascii_lowercase();
    let (kind, hint) = if reason == "keyInvalid" || lower.contains("api key not valid") {
        (
            ErrorKind::AuthenticationFailed,
            "the API key is not valid: check GOOGLE_SEARCH_API_KEY",
        )
    } else if status == 403
        && (lower.contains("does not have the access")
            || reason == "accessNotConfigured"
            || grpc == "PERMISSION_DENIED")
    {
        (
            ErrorKind::AuthenticationFailed,
            "the project cannot use the Custom Search JSON API (closed to new customers; it ends on 2027-01-01): enable it for the key's project, or use another provider",
        )
    } else if status == 429 || reason.contains("LimitExceeded") || grpc == "RESOURCE_EXHAUSTED" {
        if lower.contains("per day") || reason == "dailyLimitExceeded" {
            (
                ErrorKind::QuotaExceeded,
                "the daily query quota is used up: wait for tomorrow (Pacific time) or raise the quota",
            )
        } else {
            (
                ErrorKind::RateLimited,
                "too many queries: slow down or raise the quota in the Cloud console",
            )
        }
    } else if status == 400 && (lower.contains("invalid value") || reason == "invalid") {
        (
            ErrorKind::InvalidQuery,
            "Google rejected a parameter: check GOOGLE_SEARCH_ENGINE_ID (cx) and the query",
        )
    } else {
        let generic = http::error_for_status(NAME, reply);
        let hint = match status {
            400 => "the request was rejected: check GOOGLE_SEARCH_ENGINE_ID (cx) and the query",
            401 | 403 => "access denied: check the key, its API restrictions and billing",
            500..=599 => "Google is having trouble: try again shortly",
            _ => "unexpected answer from Google",
        };
        return SearchError::new(
            generic.kind(),
            with_message(format!("google answered HTTP {status}: {hint}"), message),
        )
        .with_provider(NAME)
        .with_status(status)
        .with_retry_after_ms(generic.retry_after_ms())
        .with_suggestion(hint.to_owned());
    };
    SearchError::new(
        kind,
        with_message(format!("google answered HTTP {status}: {hint}"), message),
    )
    .with_provider(NAME)
    .with_status(status)
    .with_retry_after_ms(http::retry_after_ms(&reply.headers))
    .with_suggestion(hint.to_owned())
}

fn with_message(head: String, message: &str) -> String {
    if message.is_empty() {
        head
    } else {
        format!("{head} ({message})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchDepth;
    use bytes::Bytes;
    use reqwest::StatusCode;
    use reqwest::header::HeaderMap;

    fn provider(safe: Option<bool>) -> GoogleProvider {
        GoogleProvider {
            client: farsight_net::api_client(
                "t",
                std::time::Duration::from_secs(1),
                None,
                &farsight_net::TlsTrust::default(),
            )
            .unwrap(),
            api_key: "k".into(),
            engine_id: "cx1".into(),
            base_url: None,
            safe_search: safe.unwrap_or(false),
        }
    }

    fn q(include: &[&str], exclude: &[&str]) -> ProviderQuery {
        ProviderQuery {
            query: "rust".into(),
            count: 20,
            site: None,
            include_domains: include.iter().map(|s| s.to_string()).collect(),
            exclude_domains: exclude.iter().map(|s| s.to_string()).collect(),
            date_range: Some(DateRange::Day),
            safe_search: true,
            topic: Topic::General,
            depth: SearchDepth::Basic,
            ..ProviderQuery::default()
        }
    }

    fn reply(status: u16, body: &str) -> Reply {
        Reply {
            status: StatusCode::from_u16(status).unwrap(),
            headers: HeaderMap::new(),
            body: Bytes::from(body.to_owned()),
        }
    }

    #[test]
    fn one_domain_is_native_and_more_are_operators() {
        let get =
            |p: &[(&str, String)], k: &str| p.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone());
        let p = provider(None).params(&q(&["docs.rs"], &["reddit.com"]));
        assert_eq!(get(&p, "q").as_deref(), Some("rust -site:reddit.com"));
        assert_eq!(get(&p, "siteSearch").as_deref(), Some("docs.rs"));
        assert_eq!(get(&p, "siteSearchFilter").as_deref(), Some("i"));
        assert_eq!(get(&p, "num").as_deref(), Some("10"));
        assert_eq!(get(&p, "safe").as_deref(), Some("off"));
        assert_eq!(get(&p, "dateRestrict").as_deref(), Some("d1"));
        let p = provider(Some(true)).params(&q(&["a.com", "b.com"], &[]));
        assert_eq!(
            get(&p, "q").as_deref(),
            Some("rust site:a.com OR site:b.com")
        );
        assert_eq!(get(&p, "siteSearch"), None);
        assert_eq!(get(&p, "safe").as_deref(), Some("active"));
        let p = provider(None).params(&q(&[], &["x.com"]));
        assert_eq!(get(&p, "siteSearchFilter").as_deref(), Some("e"));
        assert_eq!(get(&p, "q").as_deref(), Some("rust"));
    }

    #[test]
    fn maps_country_language_and_images() {
        let get =
            |p: &[(&str, String)], k: &str| p.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone());
        let query = ProviderQuery {
            country: Some("de".into()),
            language: Some("fr".into()),
            search_type: SearchType::Images,
            ..q(&[], &[])
        };
        let p = provider(None).params(&query);
        assert_eq!(get(&p, "gl").as_deref(), Some("de"));
        assert_eq!(get(&p, "lr").as_deref(), Some("lang_fr"));
        assert_eq!(get(&p, "hl").as_deref(), Some("fr"));
        assert_eq!(get(&p, "searchType").as_deref(), Some("image"));
        let p = provider(None).params(&q(&[], &[]));
        assert_eq!(get(&p, "searchType"), None);
        assert_eq!(get(&p, "gl"), None);
    }

    #[test]
    fn reads_image_items() {
        // The documented Result with `image` (searchType=image), trimmed.
        let body = r#"{"kind":"customsearch#search","searchInformation":{"totalResults":"4560000"},"items":[
            {"kind":"customsearch#result","title":"Eiffel Tower - Wikipedia","htmlTitle":"<b>Eiffel Tower</b>","link":"https://upload.example/eiffel.jpg",
             "displayLink":"en.wikipedia.org","snippet":"Eiffel Tower","mime":"image/jpeg","fileFormat":"image/jpeg",
             "image":{"contextLink":"https://en.wikipedia.org/wiki/Eiffel_Tower","height":1800,"width":1200,"byteSize":512000,
                      "thumbnailLink":"https://encrypted-tbn0.gstatic.com/images?q=tbn:x","thumbnailHeight":150,"thumbnailWidth":100}}]}"#;
        let a = parse(&reply(200, body), SearchType::Images).unwrap();
        assert!(a.results.is_empty());
        assert_eq!(a.total_results, Some(4_560_000));
        let i = &a.images[0];
        assert_eq!(i.image_url, "https://upload.example/eiffel.jpg");
        assert_eq!(
            i.page_url.as_deref(),
            Some("https://en.wikipedia.org/wiki/Eiffel_Tower")
        );
        assert_eq!((i.width, i.height), (Some(1200), Some(1800)));
        assert!(i.thumbnail_url.is_some());
    }

    #[test]
    fn snippet_dates_are_read_and_removed() {
        let body = r#"{"searchInformation":{"totalResults":"1200"},"items":[{"title":"T","link":"https://a.example/","snippet":"Aug 24, 2023 ... The text."}]}"#;
        let a = parse(&reply(200, body), SearchType::Web).unwrap();
        assert_eq!(a.total_results, Some(1200));
        assert_eq!(a.results[0].snippet, "The text.");
        assert_eq!(a.results[0].date.as_deref(), Some("2023-08-24"));
        // The prefix reader is SearXNG's too: other separators, and a sentence
        // that begins with a date keeps it.
        let body = r#"{"items":[{"title":"T","link":"https://a.example/","snippet":"Apr 17, 2024 — The text."},{"title":"U","link":"https://b.example/","snippet":"3 April 2023 was a Monday."}]}"#;
        let a = parse(&reply(200, body), SearchType::Web).unwrap();
        assert_eq!(a.results[0].snippet, "The text.");
        assert_eq!(a.results[0].date.as_deref(), Some("2024-04-17"));
        assert_eq!(a.results[1].snippet, "3 April 2023 was a Monday.");
        assert_eq!(a.results[1].date, None);
    }

    #[test]
    fn maps_errors() {
        let e = error_for(&reply(
            400,
            r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","errors":[{"reason":"keyInvalid"}],"status":"INVALID_ARGUMENT"}}"#,
        ));
        assert_eq!(e.kind(), ErrorKind::AuthenticationFailed);
        let e = error_for(&reply(
            429,
            r#"{"error":{"code":429,"message":"Quota exceeded for quota metric 'Queries' and limit 'Queries per day'","status":"RESOURCE_EXHAUSTED"}}"#,
        ));
        assert_eq!(e.kind(), ErrorKind::QuotaExceeded);
        let e = error_for(&reply(503, "oops"));
        assert_eq!(e.kind(), ErrorKind::ServiceUnavailable);
        assert!(e.message().contains("503"), "{e}");
    }
}
