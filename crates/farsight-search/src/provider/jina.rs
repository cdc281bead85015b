//! Jina Search (`JINA_API_KEY`): `POST https://s.jina.ai/` with a JSON body
//! `{q, num}`, `Accept: application/json` and `Authorization: Bearer <key>`.
//!
//! A basic search sends `X-Respond-With: no-content` (titles, URLs and
//! descriptions only: fast and cheap); a deep search lets Jina read each result
//! and return its content. `site` (or a single include domain) goes in the
//! `X-Site` header; other domain filters become `site:`/`-site:` operators.
//!
//! Answers are `{code, status, data: [{title, url, description, content,
//! date}], meta}`. Jina answers 422 `AssertionFailureError` "No search results
//! available for query ..." when nothing matched: that is an empty answer, not
//! an error. 401 is a bad key, 402 an empty balance, 429 its rate limit (with
//! `Retry-After`), 451 a query refused by policy.

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;
use url::Url;

use super::http::{self, Reply};
use super::operators::{Native, query_with_operators};
use crate::registry::require_key;
use crate::{
    ErrorKind, Provider, ProviderAnswer, ProviderQuery, ProviderSettings, RawResult, SearchDepth,
    SearchError, Topic,
};

const NAME: &str = "jina";
const ENDPOINT: &str = "https://s.jina.ai/";
/// Jina validates `num` to at most 20.
const MAX_RESULTS: u32 = 20;

/// The Jina Search adapter.
#[derive(Clone)]
pub struct JinaProvider {
    endpoint: Url,
    api_key: String,
    client: reqwest::Client,
}

impl std::fmt::Debug for JinaProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JinaProvider")
            .field("endpoint", &self.endpoint.as_str())
            .field("api_key", &"<redacted>")
            .finish()
    }
}

impl JinaProvider {
    /// An adapter for the key in `settings.api_key` (from `JINA_API_KEY`).
    ///
    /// # Errors
    ///
    /// `notConfigured` naming `JINA_API_KEY` when the key is missing, or when
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
impl Provider for JinaProvider {
    fn name(&self) -> &'static str {
        NAME
    }

    fn max_results(&self) -> u32 {
        MAX_RESULTS
    }

    async fn search(&self, query: &ProviderQuery) -> Result<ProviderAnswer, SearchError> {
        let plan = plan(query);
        let mut request = self
            .client
            .post(self.endpoint.clone())
            .header(reqwest::header::ACCEPT, "application/json")
            .header(
                reqwest::header::AUTHORIZATION,
                format!("Bearer {}", self.api_key),
            )
            .json(&json!({ "q": plan.q, "num": query.count.clamp(1, MAX_RESULTS) }));
        if let Some(site) = &plan.site_header {
            request = request.header("X-Site", site);
        }
        if query.depth == SearchDepth::Basic {
            request = request.header("X-Respond-With", "no-content");
        }
        let reply = http::send(NAME, request).await?;
        let answer = parse(&reply).map_err(|e| e.redact(&self.api_key))?;
        Ok(ProviderAnswer {
            images: Vec::new(),
            unapplied_filters: unapplied(query),
            ..answer
        })
    }
}

#[derive(Debug, PartialEq)]
struct Plan {
    q: String,
    site_header: Option<String>,
}

/// Where each domain filter goes: `X-Site` takes one domain, the rest are
/// operators in the query text.
fn plan(query: &ProviderQuery) -> Plan {
    let site = query
        .site
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .or_else(|| match query.include_domains.as_slice() {
            [one] if !one.trim().is_empty() => Some(one.trim().to_owned()),
            _ => None,
        });
    // With the header set, the site and included domains are not repeated as
    // operators; the engine intersects the results with all of them anyway.
    let native = Native {
        include: site.is_some(),
        exclude: false,
    };
    let q = query_with_operators(query, native);
    Plan {
        q,
        site_header: site.map(|s| s.to_ascii_lowercase()),
    }
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
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Item {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    date: Option<String>,
    #[serde(default)]
    published_time: Option<String>,
}

#[derive(Debug, Deserialize)]
struct JinaError {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default, rename = "readableMessage")]
    readable_message: Option<String>,
}

fn parse(reply: &Reply) -> Result<ProviderAnswer, SearchError> {
    let status = reply.status.as_u16();
    if status == 422 && is_no_results(reply) {
        return Ok(ProviderAnswer::default());
    }
    if status == 451 {
        return Err(SearchError::new(
            ErrorKind::InvalidQuery,
            format!(
                "jina refused the query for legal or content reasons (HTTP 451): {}",
                message(reply)
            ),
        )
        .with_provider(NAME)
        .with_status(status)
        .with_suggestion("Rephrase the query or use another provider."));
    }
    if !reply.status.is_success() {
        return Err(http::error_for_status(NAME, reply));
    }
    let envelope: Envelope = reply.json(NAME)?;
    let results = envelope
        .data
        .unwrap_or_default()
        .into_iter()
        .filter_map(|item| {
            let url = item.url.filter(|u| !u.trim().is_empty())?;
            Some(RawResult {
                title: item.title.unwrap_or_default(),
                url,
                snippet: item.description.unwrap_or_default(),
                date: item
                    .date
                    .or(item.published_time)
                    .filter(|d| !d.trim().is_empty()),
                score: None,
                content: item.content.filter(|c| !c.trim().is_empty()),
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

/// Jina's "nothing matched" 422: an `AssertionFailureError` saying no search
/// results (or no content) are available for the query.
fn is_no_results(reply: &Reply) -> bool {
    let Ok(error) = serde_json::from_slice::<JinaError>(&reply.body) else {
        return false;
    };
    let text = format!(
        "{} {}",
        error.message.unwrap_or_default(),
        error.readable_message.unwrap_or_default()
    )
    .to_ascii_lowercase();
    error.name.as_deref() == Some("AssertionFailureError")
        && (text.contains("no search results") || text.contains("no content available"))
}

fn message(reply: &Reply) -> String {
    serde_json::from_slice::<JinaError>(&reply.body)
        .ok()
        .and_then(|e| e.readable_message.or(e.message))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DateRange;
    use reqwest::StatusCode;

    fn query() -> ProviderQuery {
        ProviderQuery {
            query: "jina reader".into(),
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
    fn site_goes_to_the_header_and_the_rest_to_operators() {
        let mut q = query();
        q.site = Some("jina.ai".into());
        q.exclude_domains = vec!["spam.example".into()];
        assert_eq!(
            plan(&q),
            Plan {
                q: "jina reader -site:spam.example".into(),
                site_header: Some("jina.ai".into())
            }
        );
        let mut q = query();
        q.include_domains = vec!["a.com".into(), "b.com".into()];
        assert_eq!(
            plan(&q),
            Plan {
                q: "jina reader site:a.com OR site:b.com".into(),
                site_header: None
            }
        );
        let mut q = query();
        q.include_domains = vec!["github.com".into()];
        assert_eq!(plan(&q).site_header.as_deref(), Some("github.com"));
        q.date_range = Some(DateRange::Day);
        q.safe_search = true;
        assert_eq!(unapplied(&q), vec!["dateRange", "safeSearch"]);
    }

    #[test]
    fn no_results_422_is_empty_but_other_422s_are_errors() {
        let none = r#"{"data":null,"code":422,"name":"AssertionFailureError","status":42206,"message":"No search results available for query zzqx","readableMessage":"AssertionFailureError: No search results available for query zzqx"}"#;
        assert_eq!(parse(&reply(422, none)).unwrap(), ProviderAnswer::default());
        let other = r#"{"data":null,"code":422,"name":"ParamValidationError","status":42201,"message":"num must be <= 20"}"#;
        assert_eq!(
            parse(&reply(422, other)).unwrap_err().kind(),
            ErrorKind::InvalidQuery
        );
        assert_eq!(
            parse(&reply(
                451,
                r#"{"name":"HarmfulContentError","message":"no"}"#
            ))
            .unwrap_err()
            .kind(),
            ErrorKind::InvalidQuery
        );
    }

    #[test]
    fn items_map_description_content_and_date() {
        let body = r##"{"code":200,"status":20000,"data":[
          {"title":"Reader API","url":"https://jina.ai/reader","description":"Read <b>URLs</b>","content":"","date":"Aug 24, 2023","usage":{"tokens":1000}},
          {"title":"No URL"},
          {"title":"Deep","url":"https://x.example/","description":"d","content":"# Page","publishedTime":"2024-01-02T00:00:00Z"}],
          "meta":{"usage":{"tokens":10000}}}"##;
        let answer = parse(&reply(200, body)).unwrap();
        assert_eq!(answer.results.len(), 2);
        assert_eq!(answer.results[0].snippet, "Read <b>URLs</b>");
        assert_eq!(answer.results[0].date.as_deref(), Some("Aug 24, 2023"));
        assert_eq!(answer.results[0].content, None);
        assert_eq!(answer.results[1].content.as_deref(), Some("# Page"));
        assert_eq!(
            answer.results[1].date.as_deref(),
            Some("2024-01-02T00:00:00Z")
        );
    }
}
