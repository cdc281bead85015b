//! Kagi against a local server replaying its documented envelope.

use crate::support;
use std::sync::Arc;

use farsight_search::{
    DateRange, ErrorKind, Provider, ProviderQuery, ProviderSettings, SearchDepth, Topic,
    build_provider,
};
use wiremock::matchers::{header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

const KEY: &str = "kagi-test-token-abcdef";

fn provider(server: &MockServer) -> Arc<dyn Provider> {
    support::provider("kagi", &support::settings(server, Some(KEY)))
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

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/kagi/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[tokio::test]
async fn results_are_parsed_and_the_request_carries_every_filter() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/api/v0/search"))
        .and(header("authorization", format!("Bot {KEY}").as_str()))
        .and(query_param(
            "q",
            "grand canyon site:nps.gov -site:pinterest.com",
        ))
        .and(query_param("limit", "3"))
        .respond_with(json_reply(200, &fixture("search_success.json")))
        .expect(1)
        .mount(&server)
        .await;
    let mut q = query("grand canyon");
    q.count = 3;
    q.site = Some("nps.gov".into());
    q.exclude_domains = vec!["pinterest.com".into()];
    q.date_range = Some(DateRange::Week);
    q.safe_search = true;
    q.topic = Topic::News;
    let answer = provider(&server).search(&q).await.unwrap();

    assert_eq!(
        answer.results.len(),
        3,
        "related searches (t: 1) are skipped"
    );
    assert_eq!(answer.results[0].url, "https://www.nps.gov/grca/index.htm");
    assert!(
        answer.results[0]
            .snippet
            .starts_with("<b>Grand Canyon</b> National Park")
    );
    assert_eq!(
        answer.results[1].date.as_deref(),
        Some("2023-01-18T03:05:23+00:00")
    );
    assert_eq!(answer.results[2].snippet, "");
    assert_eq!(
        answer.unapplied_filters,
        vec!["dateRange", "safeSearch", "topic"]
    );
}

#[tokio::test]
async fn an_empty_data_array_is_an_empty_answer() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/api/v0/search"))
        .respond_with(json_reply(200, &fixture("search_empty.json")))
        .expect(1)
        .mount(&server)
        .await;
    let answer = provider(&server).search(&query("zzqxj")).await.unwrap();
    assert!(answer.results.is_empty());
    assert!(answer.unapplied_filters.is_empty());
}

#[tokio::test]
async fn envelope_errors_and_statuses_are_mapped() {
    let cases = [
        (
            401,
            fixture("error_unauthorized.json"),
            ErrorKind::AuthenticationFailed,
        ),
        (
            402,
            fixture("error_insufficient_credit.json"),
            ErrorKind::QuotaExceeded,
        ),
        // Errors inside a 200 body are errors too.
        (
            200,
            fixture("error_insufficient_credit.json"),
            ErrorKind::QuotaExceeded,
        ),
        (
            400,
            fixture("error_malformed.json"),
            ErrorKind::InvalidQuery,
        ),
        (
            500,
            fixture("error_internal.json"),
            ErrorKind::ServiceUnavailable,
        ),
        (429, "Too Many Requests".to_owned(), ErrorKind::RateLimited),
        (
            503,
            "<html>maintenance</html>".to_owned(),
            ErrorKind::ServiceUnavailable,
        ),
    ];
    for (status, body, kind) in cases {
        let server = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/api/v0/search"))
            .respond_with(json_reply(status, &body).insert_header("Retry-After", "4"))
            .expect(1)
            .mount(&server)
            .await;
        let error = provider(&server).search(&query("rust")).await.unwrap_err();
        assert_eq!(error.kind(), kind, "HTTP {status}: {error}");
        assert_eq!(error.status(), Some(status));
        assert_eq!(error.provider(), Some("kagi"));
        assert!(!error.message().contains(KEY));
        if kind == ErrorKind::RateLimited {
            assert_eq!(error.retry_after_ms(), Some(4_000));
        }
    }
}

#[tokio::test]
async fn a_missing_key_is_not_configured_and_names_the_variable() {
    let client = support::client();
    let error = build_provider("kagi", &ProviderSettings::default(), client).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::NotConfigured);
    assert!(error.message().contains("KAGI_API_KEY"), "{error}");
}

/// Against the real service, only when `KAGI_API_KEY` is set.
#[tokio::test]
async fn live_kagi_search() {
    let Some(key) = std::env::var("KAGI_API_KEY")
        .ok()
        .filter(|k| !k.trim().is_empty())
    else {
        eprintln!("skipped: live kagi test (set KAGI_API_KEY to run it)");
        return;
    };
    let settings = ProviderSettings {
        api_key: Some(key),
        ..Default::default()
    };
    let client = crate::support::live_client();
    let provider = build_provider("kagi", &settings, client).unwrap();
    let answer = provider
        .search(&query("rust programming language"))
        .await
        .unwrap_or_else(|e| panic!("live kagi search failed: {e}"));
    assert!(!answer.results.is_empty(), "live kagi: no results");
    assert!(answer.results.iter().all(|r| r.url.starts_with("http")));
}
