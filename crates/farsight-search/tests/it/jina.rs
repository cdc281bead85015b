//! Jina Search against a local server replaying its documented answers.

use crate::support;
use std::sync::Arc;

use farsight_search::{
    DateRange, ErrorKind, Provider, ProviderQuery, ProviderSettings, SearchDepth, Topic,
    build_provider,
};
use serde_json::{Value, json};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const KEY: &str = "jina_test_key_0123456789abcdef";

fn provider(server: &MockServer) -> Arc<dyn Provider> {
    support::provider("jina", &support::settings(server, Some(KEY)))
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

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/jina/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

async fn mount(server: &MockServer, status: u16, body: &str, retry_after: Option<&str>) {
    let mut response =
        ResponseTemplate::new(status).set_body_raw(body.as_bytes().to_vec(), "application/json");
    if let Some(value) = retry_after {
        response = response.insert_header("Retry-After", value);
    }
    Mock::given(method("POST"))
        .and(path("/"))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .and(header("accept", "application/json"))
        .respond_with(response)
        .expect(1)
        .mount(server)
        .await;
}

#[tokio::test]
async fn basic_search_asks_for_no_content_and_maps_every_filter() {
    let server = MockServer::start().await;
    mount(&server, 200, &fixture("search_success.json"), None).await;
    let mut q = query("jina reader api");
    q.count = 4;
    q.site = Some("jina.ai".into());
    q.exclude_domains = vec!["spam.example".into()];
    q.date_range = Some(DateRange::Day);
    q.safe_search = true;
    let answer = provider(&server).search(&q).await.unwrap();

    let requests = server.received_requests().await.unwrap();
    let request = &requests[0];
    assert_eq!(request.headers.get("x-site").unwrap(), "jina.ai");
    assert_eq!(request.headers.get("x-respond-with").unwrap(), "no-content");
    let body: Value = request.body_json().unwrap();
    assert_eq!(
        body,
        json!({"q": "jina reader api -site:spam.example", "num": 4})
    );

    assert_eq!(answer.results.len(), 2);
    assert_eq!(answer.results[0].url, "https://jina.ai/reader/");
    assert_eq!(
        answer.results[0].snippet,
        "Convert a URL to LLM-friendly input, by simply adding <b>r.jina.ai</b> in front."
    );
    assert_eq!(answer.results[0].date.as_deref(), Some("Aug 24, 2023"));
    assert_eq!(answer.results[0].content, None);
    assert_eq!(answer.unapplied_filters, vec!["dateRange", "safeSearch"]);
}

#[tokio::test]
async fn deep_search_returns_page_content() {
    let server = MockServer::start().await;
    mount(&server, 200, &fixture("search_deep.json"), None).await;
    let mut q = query("jina reader api");
    q.depth = SearchDepth::Deep;
    q.include_domains = vec!["jina.ai".into(), "github.com".into()];
    q.topic = Topic::News;
    let answer = provider(&server).search(&q).await.unwrap();

    let requests = server.received_requests().await.unwrap();
    let request = &requests[0];
    assert!(request.headers.get("x-respond-with").is_none());
    assert!(request.headers.get("x-site").is_none());
    let body: Value = request.body_json().unwrap();
    assert_eq!(
        body,
        json!({"q": "jina reader api site:jina.ai OR site:github.com", "num": 5})
    );
    assert_eq!(answer.results.len(), 1);
    assert!(
        answer.results[0]
            .content
            .as_deref()
            .unwrap()
            .starts_with("# Reader API")
    );
    assert_eq!(
        answer.results[0].date.as_deref(),
        Some("2024-05-15T08:00:00.000Z")
    );
    assert_eq!(answer.unapplied_filters, vec!["topic"]);
}

#[tokio::test]
async fn the_no_results_422_is_an_empty_answer() {
    let server = MockServer::start().await;
    mount(&server, 422, &fixture("no_results_422.json"), None).await;
    let answer = provider(&server)
        .search(&query("zzqxj vbnmq plokij"))
        .await
        .unwrap();
    assert!(answer.results.is_empty());
}

#[tokio::test]
async fn documented_errors_are_mapped() {
    let cases = [
        (401, "error_401.json", None, ErrorKind::AuthenticationFailed),
        (402, "error_402.json", None, ErrorKind::QuotaExceeded),
        (429, "error_429.json", Some("21"), ErrorKind::RateLimited),
    ];
    for (status, name, retry_after, kind) in cases {
        let server = MockServer::start().await;
        mount(&server, status, &fixture(name), retry_after).await;
        let error = provider(&server).search(&query("rust")).await.unwrap_err();
        assert_eq!(error.kind(), kind, "{name}: {error}");
        assert_eq!(error.status(), Some(status));
        assert_eq!(error.provider(), Some("jina"));
        assert!(!error.message().contains(KEY));
        if retry_after.is_some() {
            assert_eq!(error.retry_after_ms(), Some(21_000));
        }
    }
    let server = MockServer::start().await;
    mount(&server, 503, "upstream connect error", None).await;
    let error = provider(&server).search(&query("rust")).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ServiceUnavailable);
}

#[tokio::test]
async fn a_missing_key_is_not_configured_and_names_the_variable() {
    let client = support::client();
    let error = build_provider("jina", &ProviderSettings::default(), client).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::NotConfigured);
    assert!(error.message().contains("JINA_API_KEY"), "{error}");
}

/// Against the real service, only when `JINA_API_KEY` is set.
#[tokio::test]
async fn live_jina_search() {
    let Some(key) = std::env::var("JINA_API_KEY")
        .ok()
        .filter(|k| !k.trim().is_empty())
    else {
        eprintln!("skipped: live jina test (set JINA_API_KEY to run it)");
        return;
    };
    let settings = ProviderSettings {
        api_key: Some(key),
        ..Default::default()
    };
    let client = crate::support::live_client();
    let provider = build_provider("jina", &settings, client).unwrap();
    let answer = provider
        .search(&query("rust programming language"))
        .await
        .unwrap_or_else(|e| panic!("live jina search failed: {e}"));
    assert!(!answer.results.is_empty(), "live jina: no results");
    assert!(answer.results.iter().all(|r| r.url.starts_with("http")));
}
