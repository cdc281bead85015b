//! Tavily against a local server replaying its documented answers.

use farsight_search::{DateRange, ErrorKind, SearchDepth, SearchRequest, Topic};
use wiremock::matchers::{body_json, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::support::{fixture, provider, settings, single};

fn json(status: u16, body: String) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_raw(body, "application/json")
}

#[tokio::test]
async fn search_sends_the_documented_body_and_normalises() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/search"))
        .and(header("Authorization", "Bearer tvly-key"))
        .and(header("Content-Type", "application/json"))
        .and(body_json(serde_json::json!({
            "query": "rust async runtime",
            "search_depth": "advanced",
            "topic": "general",
            "max_results": 7,
            "include_domains": ["tokio.rs", "docs.rs"],
            "exclude_domains": ["reddit.com"],
            "time_range": "year",
            "include_answer": false,
            "include_raw_content": false
        })))
        .respond_with(json(200, fixture("tavily", "success.json")))
        .expect(1)
        .mount(&server)
        .await;
    let service = single(provider("tavily", &settings(&server, Some("tvly-key"))));
    let answer = service
        .search(SearchRequest {
            max_results: Some(7),
            include_domains: vec!["tokio.rs".into(), "docs.rs".into()],
            exclude_domains: vec!["reddit.com".into()],
            date_range: Some(DateRange::Year),
            depth: SearchDepth::Deep,
            safe_search: Some(false),
            ..SearchRequest::new("rust async runtime")
        })
        .await
        .expect("answer");
    assert_eq!(answer.search_engine, "tavily");
    assert_eq!(answer.results.len(), 2);
    assert_eq!(answer.results[0].score, Some(0.92));
    assert_eq!(answer.results[1].domain, "docs.rs");
    assert!(answer.unapplied_filters.is_empty());
}

#[tokio::test]
async fn news_topic_basic_depth_and_safe_search_reported_unapplied() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/search"))
        .and(wiremock::matchers::body_partial_json(serde_json::json!({
            "topic": "news", "search_depth": "basic", "max_results": 5
        })))
        .respond_with(json(200, fixture("tavily", "news_success.json")))
        .expect(1)
        .mount(&server)
        .await;
    let service = single(provider("tavily", &settings(&server, Some("k"))));
    let answer = service
        .search(SearchRequest {
            topic: Topic::News,
            ..SearchRequest::new("rust release")
        })
        .await
        .expect("answer");
    assert_eq!(
        answer.results[0].date_published.as_deref(),
        Some("2026-11-20")
    );
    assert_eq!(answer.results[0].domain, "theregister.com");
    assert_eq!(answer.unapplied_filters, ["safeSearch"]);
    let sent = &server.received_requests().await.expect("recorded")[0];
    let body: serde_json::Value = serde_json::from_slice(&sent.body).expect("json body");
    assert!(body.get("include_domains").is_none() && body.get("time_range").is_none());
    assert!(
        body.get("api_key").is_none(),
        "the key travels in the header only"
    );
}

#[tokio::test]
async fn empty_answer() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(json(200, fixture("tavily", "empty.json")))
        .mount(&server)
        .await;
    let service = single(provider("tavily", &settings(&server, Some("k"))));
    let answer = service
        .search(SearchRequest::new("qwxzv plorkle"))
        .await
        .expect("answer");
    assert!(answer.results.is_empty());
    assert!(answer.suggestion.is_some());
}

#[tokio::test]
async fn documented_errors_map_to_kinds() {
    for (status, file, kind) in [
        (401, "error_401.json", ErrorKind::AuthenticationFailed),
        (432, "error_432.json", ErrorKind::QuotaExceeded),
        (433, "error_433.json", ErrorKind::QuotaExceeded),
        (429, "error_429.json", ErrorKind::RateLimited),
        (400, "error_400.json", ErrorKind::InvalidQuery),
        (500, "error_500.json", ErrorKind::ServiceUnavailable),
    ] {
        let server = MockServer::start().await;
        let mut response = json(status, fixture("tavily", file));
        if status == 429 {
            response = response.insert_header("Retry-After", "3");
        }
        Mock::given(method("POST"))
            .respond_with(response)
            .expect(1)
            .mount(&server)
            .await;
        let service = single(provider("tavily", &settings(&server, Some("k"))));
        let e = service
            .search(SearchRequest::new("rust"))
            .await
            .expect_err(file);
        assert_eq!(e.kind(), kind, "{file}: {e}");
        assert_eq!(e.status(), Some(status));
        if status == 429 {
            assert_eq!(e.retry_after_ms(), Some(3000));
        }
    }
}
