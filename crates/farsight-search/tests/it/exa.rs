//! Exa against a local server replaying its documented JSON answers.

use crate::support;
use std::sync::Arc;

use farsight_search::{
    DateRange, ErrorKind, Provider, ProviderQuery, ProviderSettings, SearchDepth, Topic,
    build_provider,
};
use serde_json::{Value, json};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const KEY: &str = "exa-test-key-0123456789";

fn provider(server: &MockServer) -> Arc<dyn Provider> {
    support::provider("exa", &support::settings(server, Some(KEY)))
}

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

fn json_reply(status: u16, body: &str) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_raw(body.as_bytes().to_vec(), "application/json")
}

async fn mount(server: &MockServer, response: ResponseTemplate) {
    Mock::given(method("POST"))
        .and(path("/search"))
        .and(header("x-api-key", KEY))
        .respond_with(response)
        .expect(1)
        .mount(server)
        .await;
}

#[tokio::test]
async fn results_are_parsed_and_the_body_carries_every_filter() {
    let server = MockServer::start().await;
    mount(
        &server,
        json_reply(200, include_str!("../fixtures/exa/search_success.json")),
    )
    .await;
    let mut q = query("tokio release notes");
    q.count = 8;
    q.site = Some("tokio.rs".into());
    q.date_range = Some(DateRange::Month);
    q.topic = Topic::News;
    q.safe_search = true;
    q.depth = SearchDepth::Deep;
    let answer = provider(&server).search(&q).await.unwrap();

    let requests = server.received_requests().await.unwrap();
    let request = &requests[0];
    assert_eq!(
        request.headers.get("content-type").unwrap(),
        "application/json"
    );
    let mut body: Value = request.body_json().unwrap();
    let start = body
        .as_object_mut()
        .unwrap()
        .remove("startPublishedDate")
        .unwrap();
    let start = start.as_str().unwrap();
    assert_eq!(start.len(), "2024-03-01T12:00:00.000Z".len(), "{start}");
    assert!(
        start.ends_with(".000Z") && start.as_bytes()[10] == b'T',
        "{start}"
    );
    assert_eq!(
        body,
        json!({
            "query": "tokio release notes",
            "numResults": 8,
            "type": "auto",
            "includeDomains": ["tokio.rs"],
            "category": "news",
            "moderation": true,
            "contents": {"highlights": true, "text": {"maxCharacters": 10000}},
        })
    );

    assert_eq!(
        answer.results.len(),
        2,
        "the result without a URL is dropped"
    );
    let first = &answer.results[0];
    assert_eq!(first.url, "https://tokio.rs/blog/2024-03-tokio-1-37");
    assert_eq!(first.title, "Announcing Tokio 1.37");
    assert_eq!(
        first.snippet,
        "Today, we are releasing Tokio 1.37, an asynchronous runtime for Rust. … This release stabilises the task dump API."
    );
    assert_eq!(first.date.as_deref(), Some("2024-03-28T00:00:00.000Z"));
    assert_eq!(first.score, Some(0.4602));
    assert!(
        first
            .content
            .as_deref()
            .unwrap()
            .starts_with("Announcing Tokio 1.37")
    );
    let second = &answer.results[1];
    assert_eq!(
        second.snippet,
        "An essay on the design history of async/await in Rust."
    );
    assert_eq!(second.content, None);
    assert!(answer.unapplied_filters.is_empty());
}

#[tokio::test]
async fn exclusions_are_sent_when_nothing_is_included() {
    let server = MockServer::start().await;
    mount(
        &server,
        json_reply(200, include_str!("../fixtures/exa/search_empty.json")),
    )
    .await;
    let mut q = query("rust");
    q.exclude_domains = vec!["reddit.com".into()];
    let answer = provider(&server).search(&q).await.unwrap();
    assert!(answer.results.is_empty());
    let body: Value = server.received_requests().await.unwrap()[0]
        .body_json()
        .unwrap();
    assert_eq!(
        body,
        json!({
            "query": "rust",
            "numResults": 5,
            "type": "auto",
            "excludeDomains": ["reddit.com"],
            "contents": {"highlights": true},
        })
    );
}

#[tokio::test]
async fn documented_errors_are_mapped() {
    let cases = [
        (400, "error_400.json", None, ErrorKind::InvalidQuery),
        (401, "error_401.json", None, ErrorKind::AuthenticationFailed),
        (402, "error_402.json", None, ErrorKind::QuotaExceeded),
        (
            403,
            "error_403_prohibited.json",
            None,
            ErrorKind::InvalidQuery,
        ),
        (429, "error_429.json", Some("2"), ErrorKind::RateLimited),
        (500, "error_500.json", None, ErrorKind::ServiceUnavailable),
    ];
    for (status, fixture, retry_after, kind) in cases {
        let body = std::fs::read_to_string(format!(
            "{}/tests/fixtures/exa/{fixture}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let server = MockServer::start().await;
        let mut response = json_reply(status, &body);
        if let Some(value) = retry_after {
            response = response.insert_header("Retry-After", value);
        }
        mount(&server, response).await;
        let error = provider(&server).search(&query("rust")).await.unwrap_err();
        assert_eq!(error.kind(), kind, "{fixture}: {error}");
        assert_eq!(error.status(), Some(status));
        assert_eq!(error.provider(), Some("exa"));
        if retry_after.is_some() {
            assert_eq!(error.retry_after_ms(), Some(2_000));
        }
    }
}

#[tokio::test]
async fn an_echoed_key_never_reaches_the_error() {
    let server = MockServer::start().await;
    let body =
        format!(r#"{{"requestId":"x","error":"Invalid API key {KEY}","tag":"INVALID_API_KEY"}}"#);
    mount(&server, json_reply(401, &body)).await;
    let error = provider(&server).search(&query("rust")).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::AuthenticationFailed);
    assert!(!error.message().contains(KEY), "{error}");
    assert!(!format!("{error:?}").contains(KEY));
    assert!(!format!("{:?}", provider(&server)).contains(KEY));
}

#[tokio::test]
async fn a_missing_key_is_not_configured_and_names_the_variable() {
    let client = support::client();
    let error = build_provider("exa", &ProviderSettings::default(), client).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::NotConfigured);
    assert!(error.message().contains("EXA_API_KEY"), "{error}");
}

/// Against the real service, only when `EXA_API_KEY` is set.
#[tokio::test]
async fn live_exa_search() {
    let Some(key) = std::env::var("EXA_API_KEY")
        .ok()
        .filter(|k| !k.trim().is_empty())
    else {
        eprintln!("skipped: live exa test (set EXA_API_KEY to run it)");
        return;
    };
    let settings = ProviderSettings {
        api_key: Some(key),
        ..Default::default()
    };
    let client = crate::support::live_client();
    let provider = build_provider("exa", &settings, client).unwrap();
    let answer = provider
        .search(&query("rust programming language"))
        .await
        .unwrap_or_else(|e| panic!("live exa search failed: {e}"));
    assert!(!answer.results.is_empty(), "live exa: no results");
    assert!(answer.results.iter().all(|r| r.url.starts_with("http")));
}
