//! Serper against a local server.

use farsight_search::{DateRange, ErrorKind, SearchRequest, Topic};
use wiremock::matchers::{body_json, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::support::{fixture, provider, settings, single};

fn json(status: u16, body: String) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_raw(body, "application/json")
}

#[tokio::test]
async fn search_sends_key_operators_and_tbs() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/search"))
        .and(header("X-API-KEY", "serper-key"))
        .and(header("Content-Type", "application/json"))
        .and(body_json(serde_json::json!({"q": "rust async site:docs.rs -site:reddit.com", "num": 5, "tbs": "qdr:w"})))
        .respond_with(json(200, fixture("serper", "search_success.json")))
        .expect(1)
        .mount(&server)
        .await;
    let service = single(provider("serper", &settings(&server, Some("serper-key"))));
    let answer = service
        .search(SearchRequest {
            site: Some("docs.rs".into()),
            exclude_domains: vec!["reddit.com".into()],
            date_range: Some(DateRange::Week),
            ..SearchRequest::new("rust async")
        })
        .await
        .expect("answer");
    assert_eq!(answer.results.len(), 2);
    assert_eq!(
        answer.results[1].date_published.as_deref(),
        Some("2024-03-03")
    );
    assert_eq!(answer.unapplied_filters, ["safeSearch"]);
}

#[tokio::test]
async fn news_uses_the_news_endpoint() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/news"))
        .and(body_json(
            serde_json::json!({"q": "rust release", "num": 5}),
        ))
        .respond_with(json(200, fixture("serper", "news_success.json")))
        .expect(1)
        .mount(&server)
        .await;
    let service = single(provider("serper", &settings(&server, Some("k"))));
    let answer = service
        .search(SearchRequest {
            topic: Topic::News,
            safe_search: Some(false),
            ..SearchRequest::new("rust release")
        })
        .await
        .expect("answer");
    assert_eq!(answer.results[0].domain, "infoworld.com");
    assert!(answer.results[0].date_published.is_some());
    assert!(answer.unapplied_filters.is_empty());
}

#[tokio::test]
async fn empty_answer() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(json(200, fixture("serper", "empty.json")))
        .mount(&server)
        .await;
    let service = single(provider("serper", &settings(&server, Some("k"))));
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
        (403, "error_403.json", ErrorKind::AuthenticationFailed),
        (400, "error_credits.json", ErrorKind::QuotaExceeded),
        (429, "error_429.json", ErrorKind::RateLimited),
    ] {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(json(status, fixture("serper", file)))
            .expect(1)
            .mount(&server)
            .await;
        let service = single(provider("serper", &settings(&server, Some("k"))));
        let e = service
            .search(SearchRequest::new("rust"))
            .await
            .expect_err(file);
        assert_eq!(e.kind(), kind, "{file}: {e}");
        assert_eq!(e.status(), Some(status));
    }
}
