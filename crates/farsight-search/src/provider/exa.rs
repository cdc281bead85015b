//! Exa (`EXA_API_KEY`): `POST https://api.exa.ai/search` with the key in
//! `x-api-key` and a JSON body.
//!
//! Native: `includeDomains`/`excludeDomains`, `startPublishedDate` for the date
//! range, `category: "news"` for the news topic, `moderation` for safe search,
//! `numResults` (up to 100). Snippets come from `highlights`; a deep search also
//! asks for the page `text`, returned as the result's content.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::{Value, json};
use url::Url;

use super::http;
use crate::registry::require_key;
use crate::{
    DateRange, ErrorKind, Provider, ProviderAnswer, ProviderQuery, ProviderSettings, RawResult,
    SearchDepth, SearchError, Topic,
};

const NAME: &str = "exa";
const ENDPOINT: &str = "https://api.exa.ai/search";
/// Exa's documented ceiling for `numResults` with neural/auto search.
const MAX_RESULTS: u32 = 100;
/// Page text asked for on a deep search: enough for the engine's passage
/// selection without paying for whole books.
const DEEP_TEXT_CHARS: u32 = 10_000;

/// The Exa adapter.
#[derive(Clone)]
pub struct ExaProvider {
    endpoint: Url,
    api_key: String,
    client: reqwest::Client,
}

impl std::fmt::Debug for ExaProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExaProvider")
            .field("endpoint", &self.endpoint.as_str())
            .field("api_key", &"<redacted>")
            .finish()
    }
}

impl ExaProvider {
    /// An adapter for the key in `settings.api_key` (from `EXA_API_KEY`).
    ///
    /// # Errors
    ///
    /// `notConfigured` naming `EXA_API_KEY` when the key is missing, or when
    /// `base_url` is not an http(s) URL.
    pub fn new(settings: &ProviderSettings, client: reqwest::Client) -> Result<Self, SearchError> {
        let api_key = require_key(NAME, settings.api_key.as_deref(), "the API key")?.to_owned();
        Ok(Self {
            endpoint: http::endpoint(NAME, settings.base_url.as_deref(), ENDPOINT)?,
            api_key,
            client,
        })
    }
}

#[async_trait]
impl Provider for ExaProvider {
    fn name(&self) -> &'static str {
        NAME
    }

    fn max_results(&self) -> u32 {
        MAX_RESULTS
    }

    async fn search(&self, query: &ProviderQuery) -> Result<ProviderAnswer, SearchError> {
        let body = request_body(query, SystemTime::now());
        let request = self
            .client
            .post(self.endpoint.clone())
            .header("x-api-key", &self.api_key)
            .header(reqwest::header::ACCEPT, "application/json")
            .json(&body);
        let reply = http::send(NAME, request).await?;
        if !reply.status.is_success() {
            return Err(error_for(&reply).redact(&self.api_key));
        }
        let answer: ExaResponse = reply.json(NAME)?;
        Ok(ProviderAnswer {
            images: Vec::new(),
            results: answer.results.into_iter().filter_map(to_raw).collect(),
            total_results: None,
            // Exa has no language parameter.
            unapplied_filters: if query.language.is_some() {
                vec!["language"]
            } else {
                Vec::new()
            },
        })
    }
}

fn request_body(query: &ProviderQuery, now: SystemTime) -> Value {
    let mut body = json!({
        "query": query.query.trim(),
        "numResults": query.count.clamp(1, MAX_RESULTS),
        "type": "auto",
    });
    let include: Vec<&str> = match &query.site {
        Some(site) if !site.trim().is_empty() => vec![site.trim()],
        _ => query.include_domains.iter().map(|d| d.trim()).collect(),
    };
    if !include.is_empty() {
        body["includeDomains"] = json!(include);
    } else if !query.exclude_domains.is_empty() {
        // Sent only without an include list: the engine filters excluded
        // domains out of the results anyway, and one list is always accepted.
        body["excludeDomains"] = json!(query.exclude_domains);
    }
    if let Some(range) = query.date_range {
        let days = match range {
            DateRange::Day => 1,
            DateRange::Week => 7,
            DateRange::Month => 30,
            DateRange::Year => 365,
        };
        let start = now
            .checked_sub(Duration::from_secs(days * 86_400))
            .unwrap_or(UNIX_EPOCH);
        body["startPublishedDate"] = json!(iso8601(start));
    }
    if query.topic == Topic::News {
        body["category"] = json!("news");
    }
    if query.safe_search {
        body["moderation"] = json!(true);
    }
    if let Some(country) = &query.country {
        // Exa's documented `userLocation`: a two-letter ISO country code.
        body["userLocation"] = json!(country.to_ascii_uppercase());
    }
    body["contents"] = match query.depth {
        SearchDepth::Basic => json!({ "highlights": true }),
        SearchDepth::Deep => json!({
            "highlights": true,
            "text": { "maxCharacters": DEEP_TEXT_CHARS },
        }),
    };
    body
}

/// Exa's error bodies are `{"requestId", "error", "tag"}`; the tag refines the
/// status where the common mapping would mislead.
fn error_for(reply: &http::Reply) -> SearchError {
    #[derive(Deserialize)]
    struct ExaError {
        #[serde(default)]
        tag: Option<String>,
        #[serde(default)]
        error: Option<String>,
    }
    let parsed: Option<ExaError> = serde_json::from_slice(&reply.body).ok();
    let tag = parsed.as_ref().and_then(|e| e.tag.as_deref()).unwrap_or("");
    let detail = parsed
        .as_ref()
        .and_then(|e| e.error.as_deref())
        .unwrap_or("");
    let status = reply.status.as_u16();
    let special = match tag {
        "NO_MORE_CREDITS" | "API_KEY_BUDGET_EXCEEDED" => Some((
            ErrorKind::QuotaExceeded,
            "Add credits at dashboard.exa.ai or raise the key's budget.",
        )),
        "PROHIBITED_CONTENT" => Some((
            ErrorKind::InvalidQuery,
            "Exa's content policy refused this query; rephrase it.",
        )),
        "ACCESS_DENIED" | "FEATURE_DISABLED" => Some((
            ErrorKind::AuthenticationFailed,
            "This Exa key's plan does not include the feature; check the plan.",
        )),
        _ => None,
    };
    match special {
        Some((kind, suggestion)) => SearchError::new(
            kind,
            format!("exa refused the request (HTTP {status}, {tag}): {detail}"),
        )
        .with_provider(NAME)
        .with_status(status)
        .with_suggestion(suggestion)
        .with_retry_after_ms(http::retry_after_ms(&reply.headers)),
        None => http::error_for_status(NAME, reply),
    }
}

#[derive(Debug, Deserialize)]
struct ExaResponse {
    #[serde(default)]
    results: Vec<ExaResult>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExaResult {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    published_date: Option<String>,
    #[serde(default)]
    score: Option<f64>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    highlights: Vec<String>,
    #[serde(default)]
    summary: Option<String>,
}

fn to_raw(result: ExaResult) -> Option<RawResult> {
    let url = result.url.filter(|u| !u.trim().is_empty())?;
    let highlights: Vec<&str> = result
        .highlights
        .iter()
        .map(|h| h.trim())
        .filter(|h| !h.is_empty())
        .collect();
    let text = result.text.filter(|t| !t.trim().is_empty());
    // Highlights are Exa's query-relevant excerpts; the summary or the start of
    // the text stand in when they were not returned.
    let snippet = if !highlights.is_empty() {
        highlights.join(" … ")
    } else if let Some(summary) = result.summary.filter(|s| !s.trim().is_empty()) {
        summary
    } else {
        text.as_deref()
            .map(|t| t.chars().take(600).collect())
            .unwrap_or_default()
    };
    Some(RawResult {
        title: result.title.unwrap_or_default(),
        url,
        snippet,
        date: result.published_date.filter(|d| !d.trim().is_empty()),
        score: result.score,
        content: text,
    })
}

/// `2024-03-01T12:00:00.000Z` for `time` (UTC).
fn iso8601(time: SystemTime) -> String {
    farsight_extract::date::format_timestamp(time)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(text: &str) -> ProviderQuery {
        ProviderQuery {
            query: text.to_owned(),
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

    #[test]
    fn iso_dates_are_utc_calendar_dates() {
        assert_eq!(iso8601(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_709_294_400 + 3661);
        assert_eq!(iso8601(t), "2024-03-01T13:01:01.000Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(iso8601(leap), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn body_maps_every_filter() {
        let now = UNIX_EPOCH + Duration::from_secs(1_709_294_400);
        let mut q = query("rust async runtimes");
        q.include_domains = vec!["tokio.rs".into(), "docs.rs".into()];
        q.exclude_domains = vec!["spam.example".into()];
        q.date_range = Some(DateRange::Week);
        q.topic = Topic::News;
        q.safe_search = true;
        q.depth = SearchDepth::Deep;
        assert_eq!(
            request_body(&q, now),
            json!({
                "query": "rust async runtimes",
                "numResults": 5,
                "type": "auto",
                "includeDomains": ["tokio.rs", "docs.rs"],
                "startPublishedDate": "2024-02-23T12:00:00.000Z",
                "category": "news",
                "moderation": true,
                "contents": {"highlights": true, "text": {"maxCharacters": 10000}},
            })
        );
        let mut q = query("rust");
        q.site = Some("blog.rust-lang.org".into());
        q.include_domains = vec!["ignored.example".into()];
        let body = request_body(&q, now);
        assert_eq!(body["includeDomains"], json!(["blog.rust-lang.org"]));
        let mut q = query("rust");
        q.exclude_domains = vec!["spam.example".into()];
        let body = request_body(&q, now);
        assert_eq!(body["excludeDomains"], json!(["spam.example"]));
        assert_eq!(body["contents"], json!({"highlights": true}));
        assert!(body.get("moderation").is_none());
    }

    #[test]
    fn snippet_prefers_highlights_then_summary_then_text() {
        let r: ExaResult = serde_json::from_value(json!({
            "url": "https://a.example/", "title": "A",
            "highlights": ["one", " two "], "text": "full text"
        }))
        .unwrap();
        let raw = to_raw(r).unwrap();
        assert_eq!(raw.snippet, "one … two");
        assert_eq!(raw.content.as_deref(), Some("full text"));
        let r: ExaResult = serde_json::from_value(json!({
            "url": "https://a.example/", "summary": "short", "text": "full"
        }))
        .unwrap();
        assert_eq!(to_raw(r).unwrap().snippet, "short");
        let r: ExaResult = serde_json::from_value(json!({"title": "no url"})).unwrap();
        assert!(to_raw(r).is_none());
    }

    #[test]
    fn scrubbing_removes_an_echoed_key() {
        let e = SearchError::new(ErrorKind::AuthenticationFailed, "bad key exa-secret-123")
            .with_provider("exa")
            .with_status(401);
        let e = e.redact("exa-secret-123");
        assert_eq!(e.message(), "bad key <redacted>");
        assert_eq!(e.status(), Some(401));
        assert_eq!(e.provider(), Some("exa"));
    }
}
