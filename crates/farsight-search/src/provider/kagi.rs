//! Kagi (`KAGI_API_KEY`): `GET https://kagi.com/api/v0/search?q=&limit=` with
//! `Authorization: Bot <key>`.
//!
//! Answers come in Kagi's envelope `{meta, data, error}`: `data` items with
//! `t: 0` are results (`url`, `title`, `snippet`, `published`), `t: 1` are
//! related searches (skipped). Errors are `error: [{code, msg, ref}]`, with
//! codes 0 internal, 1 malformed request, 2 unauthorized, 100 no billing
//! information, 101 insufficient credit; they are read whatever the status.
//!
//! The v0 API has no filter parameters: domains become `site:`/`-site:`
//! operators (Kagi honours them); date range, safe search and the news topic
//! are reported as not applied.

use async_trait::async_trait;
use serde::Deserialize;
use url::Url;

use super::http::{self, Reply};
use super::operators::{Native, query_with_operators};
use crate::registry::require_key;
use crate::{
    ErrorKind, Provider, ProviderAnswer, ProviderQuery, ProviderSettings, RawResult, SearchError,
    Topic,
};

const NAME: &str = "kagi";
const ENDPOINT: &str = "https://kagi.com/api/v0/search";
/// Kagi documents no ceiling for `limit`; this is the contract's own maximum.
const MAX_RESULTS: u32 = 20;

/// The Kagi Search API adapter.
#[derive(Clone)]
pub struct KagiProvider {
    endpoint: Url,
    api_key: String,
    client: reqwest::Client,
}

impl std::fmt::Debug for KagiProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KagiProvider")
            .field("endpoint", &self.endpoint.as_str())
            .field("api_key", &"<redacted>")
            .finish()
    }
}

impl KagiProvider {
    /// An adapter for the key in `settings.api_key` (from `KAGI_API_KEY`).
    ///
    /// # Errors
    ///
    /// `notConfigured` naming `KAGI_API_KEY` when the key is missing, or when
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
impl Provider for KagiProvider {
    fn name(&self) -> &'static str {
        NAME
    }

    fn max_results(&self) -> u32 {
        MAX_RESULTS
    }

    async fn search(&self, query: &ProviderQuery) -> Result<ProviderAnswer, SearchError> {
        let request = self
            .client
            .get(self.endpoint.clone())
            .query(&query_params(query))
            .header(
                reqwest::header::AUTHORIZATION,
                format!("Bot {}", self.api_key),
            )
            .header(reqwest::header::ACCEPT, "application/json");
        let reply = http::send(NAME, request).await?;
        let answer = parse(&reply).map_err(|e| e.redact(&self.api_key))?;
        Ok(ProviderAnswer {
            images: Vec::new(),
            unapplied_filters: unapplied(query),
            ..answer
        })
    }
}

fn query_params(query: &ProviderQuery) -> Vec<(&'static str, String)> {
    vec![
        ("q", query_with_operators(query, Native::default())),
        ("limit", query.count.clamp(1, MAX_RESULTS).to_string()),
    ]
}

fn unapplied(query: &ProviderQuery) -> Vec<&'static str> {
    let mut out = Vec::new();
    // Neither country nor language is a parameter of this API.
    if query.country.is_some() {
        out.push("country");
    }
    if query.language.is_some() {
        out.push("language");
    }
    if query.date_range.is_some() {
        out.push("dateRange");
    }
    if query.safe_search {
        out.push("safeSearch");
    }
    if query.topic == Topic::News {
        out.push("topic");
    }
    out
}

#[derive(Debug, Deserialize)]
struct Envelope {
    #[serde(default)]
    data: Option<Vec<Item>>,
    #[serde(default)]
    error: Option<Vec<KagiError>>,
}

#[derive(Debug, Deserialize)]
struct Item {
    t: i64,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    snippet: Option<String>,
    #[serde(default)]
    published: Option<String>,
}

#[derive(Debug, Deserialize)]
struct KagiError {
    #[serde(default)]
    code: Option<i64>,
    #[serde(default)]
    msg: Option<String>,
}

fn parse(reply: &Reply) -> Result<ProviderAnswer, SearchError> {
    let envelope: Option<Envelope> = serde_json::from_slice(&reply.body).ok();
    let first_error = envelope
        .as_ref()
        .and_then(|e| e.error.as_ref())
        .and_then(|errors| errors.first());
    if let Some(error) = first_error {
        return Err(kagi_error(reply, error));
    }
    if !reply.status.is_success() {
        return Err(http::error_for_status(NAME, reply));
    }
    let Some(envelope) = envelope else {
        // Surfaces serde's own message.
        return reply
            .json::<Envelope>(NAME)
            .map(|_| ProviderAnswer::default());
    };
    let results = envelope
        .data
        .unwrap_or_default()
        .into_iter()
        .filter(|item| item.t == 0)
        .filter_map(|item| {
            let url = item.url.filter(|u| !u.trim().is_empty())?;
            Some(RawResult {
                title: item.title.unwrap_or_default(),
                url,
                snippet: item.snippet.unwrap_or_default(),
                date: item.published.filter(|d| !d.trim().is_empty()),
                score: None,
                content: None,
            })
        })
        .collect();
    Ok(ProviderAnswer {
        images: Vec::new(),
        results,
        total_results: None,
        unapplied_filters: Vec::new(),
    })
}

fn kagi_error(reply: &Reply, error: &KagiError) -> SearchError {
    let status = reply.status.as_u16();
    let msg = error.msg.as_deref().unwrap_or("no message").trim();
    let code = error.code.unwrap_or(-1);
    let (kind, suggestion) = match (code, status) {
        (_, 429) => (
            ErrorKind::RateLimited,
            "Wait before retrying, or lower requests_per_second for kagi.",
        ),
        (2, _) => (
            ErrorKind::AuthenticationFailed,
            "Check KAGI_API_KEY (generate a token at kagi.com/settings?p=api).",
        ),
        (100 | 101, _) => (
            ErrorKind::QuotaExceeded,
            "Add funds to the Kagi API balance (kagi.com/settings?p=billing_api).",
        ),
        (1, _) => (
            ErrorKind::InvalidQuery,
            "Rephrase the query; Kagi could not read the request.",
        ),
        (0, _) | (_, 500..=599) => (
            ErrorKind::ServiceUnavailable,
            "Try again later or use another provider.",
        ),
        (_, 401 | 403) => (ErrorKind::AuthenticationFailed, "Check KAGI_API_KEY."),
        _ => (ErrorKind::Unknown, "Try again or use another provider."),
    };
    SearchError::new(kind, format!("kagi error {code} (HTTP {status}): {msg}"))
        .with_provider(NAME)
        .with_status(status)
        .with_suggestion(suggestion)
        .with_retry_after_ms(http::retry_after_ms(&reply.headers))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DateRange, SearchDepth};
    use reqwest::StatusCode;

    fn reply(status: u16, body: &str) -> Reply {
        Reply {
            status: StatusCode::from_u16(status).unwrap(),
            headers: Default::default(),
            body: bytes::Bytes::copy_from_slice(body.as_bytes()),
        }
    }

    #[test]
    fn params_carry_operators_and_limit() {
        let q = ProviderQuery {
            query: "grand canyon".into(),
            count: 7,
            site: None,
            include_domains: vec!["nps.gov".into()],
            exclude_domains: vec!["pinterest.com".into()],
            date_range: Some(DateRange::Month),
            safe_search: true,
            topic: Topic::News,
            depth: SearchDepth::Basic,
            ..ProviderQuery::default()
        };
        assert_eq!(
            query_params(&q),
            vec![
                (
                    "q",
                    "grand canyon site:nps.gov -site:pinterest.com".to_owned()
                ),
                ("limit", "7".to_owned())
            ]
        );
        assert_eq!(unapplied(&q), vec!["dateRange", "safeSearch", "topic"]);
    }

    #[test]
    fn results_keep_t0_and_skip_related_searches() {
        let body = r#"{"meta":{"id":"x","node":"us-east","ms":12},"data":[
            {"t":0,"rank":1,"url":"https://www.nps.gov/grca/","title":"Grand Canyon","snippet":"<b>Grand</b>","published":"2023-01-18T03:05:23+00:00"},
            {"t":1,"list":["grand canyon tours"]},
            {"t":0,"url":"https://grandcanyon.com/","title":"GC"}]}"#;
        let answer = parse(&reply(200, body)).unwrap();
        assert_eq!(answer.results.len(), 2);
        assert_eq!(answer.results[0].snippet, "<b>Grand</b>");
        assert_eq!(
            answer.results[0].date.as_deref(),
            Some("2023-01-18T03:05:23+00:00")
        );
        assert_eq!(answer.results[1].snippet, "");
    }

    #[test]
    fn envelope_errors_are_mapped_by_code() {
        let err = |status, code| {
            parse(&reply(
                status,
                &format!(r#"{{"meta":{{}},"data":null,"error":[{{"code":{code},"msg":"m","ref":null}}]}}"#),
            ))
            .unwrap_err()
            .kind()
        };
        assert_eq!(err(401, 2), ErrorKind::AuthenticationFailed);
        assert_eq!(err(200, 101), ErrorKind::QuotaExceeded);
        assert_eq!(err(402, 100), ErrorKind::QuotaExceeded);
        assert_eq!(err(400, 1), ErrorKind::InvalidQuery);
        assert_eq!(err(500, 0), ErrorKind::ServiceUnavailable);
        assert_eq!(err(429, 1), ErrorKind::RateLimited);
        assert_eq!(
            parse(&reply(502, "<html>bad gateway</html>"))
                .unwrap_err()
                .kind(),
            ErrorKind::ServiceUnavailable
        );
        assert_eq!(
            parse(&reply(200, "not json")).unwrap_err().kind(),
            ErrorKind::Unknown
        );
    }
}
