//! Google Custom Search JSON API against a local server.

use farsight_search::{
    DateRange, ErrorKind, ProviderSettings, SearchRequest, Topic, build_provider,
};
use wiremock::matchers::{method, path, query_param, query_param_is_missing};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::support::{client, fixture, provider, single};

fn json(status: u16, body: String) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_raw(body, "application/json")
}

fn google_settings(server: &MockServer, safe: Option<bool>) -> ProviderSettings {
    ProviderSettings {
        api_key: Some("g-key".into()),
        engine_id: Some("cx-123".into()),
        base_url: Some(server.uri()),
        safe_search: safe,
        ..ProviderSettings::default()
    }
}

#[tokio::test]
async fn search_sends_key_cx_and_every_filter() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/customsearch/v1"))
        .and(query_param("key", "g-key"))
        .and(query_param("cx", "cx-123"))
        .and(query_param("q", "rust async -site:reddit.com"))
        .and(query_param("num", "10"))
        .and(query_param("start", "1"))
        .and(query_param("safe", "off"))
        .and(query_param("dateRestrict", "w1"))
        .and(query_param("siteSearch", "rust-lang.github.io"))
        .and(query_param("siteSearchFilter", "i"))
        .respond_with(json(200, fixture("google", "success.json")))
        .expect(1)
        .mount(&server)
        .await;
    let service = single(provider("google", &google_settings(&server, None)));
    let answer = service
        .search(SearchRequest {
            max_results: Some(20),
            site: Some("rust-lang.github.io".into()),
            exclude_domains: vec!["reddit.com".into()],
            date_range: Some(DateRange::Week),
            safe_search: Some(false),
            ..SearchRequest::new("rust async")
        })
        .await
        .expect("answer");
    assert_eq!(answer.total_results, 1_230_000);
    // tokio.rs is outside the site and is filtered out again.
    assert_eq!(answer.results.len(), 1);
    let r = &answer.results[0];
    assert_eq!(
        r.snippet,
        "This book aims to be a comprehensive, up-to-date guide to using Rust's async language features and libraries."
    );
    assert_eq!(r.date_published.as_deref(), Some("2023-08-24"));
    assert!(answer.unapplied_filters.is_empty());
}

#[tokio::test]
async fn default_is_five_results_safe_off_and_news_is_reported_unapplied() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/customsearch/v1"))
        .and(query_param("num", "5"))
        .and(query_param("safe", "off"))
        .and(query_param_is_missing("dateRestrict"))
        .and(query_param_is_missing("siteSearch"))
        .respond_with(json(200, fixture("google", "success.json")))
        .expect(1)
        .mount(&server)
        .await;
    let service = single(provider("google", &google_settings(&server, None)));
    let answer = service
        .search(SearchRequest {
            topic: Topic::News,
            ..SearchRequest::new("rust async")
        })
        .await
        .expect("answer");
    assert_eq!(
        answer.results[1].date_published.as_deref(),
        Some("2024-03-01")
    );
    assert_eq!(answer.unapplied_filters, ["topic", "safeSearch"]);
}

#[tokio::test]
async fn safe_search_on_when_configured() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(query_param("safe", "active"))
        .respond_with(json(200, fixture("google", "empty.json")))
        .expect(1)
        .mount(&server)
        .await;
    let service = single(provider("google", &google_settings(&server, Some(true))));
    let answer = service
        .search(SearchRequest::new("qwxzv plorkle"))
        .await
        .expect("answer");
    assert!(answer.results.is_empty());
    assert_eq!(answer.total_results, 0);
    assert!(answer.suggestion.is_some());
    assert!(answer.unapplied_filters.is_empty());
}

#[tokio::test]
async fn errors_carry_status_and_a_short_hint() {
    for (status, file, kind) in [
        (
            400,
            "error_key_invalid.json",
            ErrorKind::AuthenticationFailed,
        ),
        (400, "error_bad_cx.json", ErrorKind::InvalidQuery),
        (403, "error_access.json", ErrorKind::AuthenticationFailed),
        (429, "error_quota.json", ErrorKind::QuotaExceeded),
        (429, "error_rate.json", ErrorKind::RateLimited),
        (500, "error_500.json", ErrorKind::ServiceUnavailable),
    ] {
        let server = MockServer::start().await;
        Mock::given(method("GET"))
            .respond_with(json(status, fixture("google", file)))
            .expect(1)
            .mount(&server)
            .await;
        let service = single(provider("google", &google_settings(&server, None)));
        let e = service
            .search(SearchRequest::new("rust"))
            .await
            .expect_err(file);
        assert_eq!(e.kind(), kind, "{file}: {e}");
        assert_eq!(e.status(), Some(status));
        assert!(e.message().contains(&format!("HTTP {status}")), "{e}");
        assert!(e.suggestion().is_some_and(|s| !s.is_empty()));
        assert!(
            !e.message().contains("g-key"),
            "the key never reaches messages"
        );
    }
}

// Real time: paused time would fire the engine's timeout while the socket waits.
// The one backoff costs 500 ms.
#[tokio::test]
async fn with_its_own_retry_rules_429_is_asked_once_and_5xx_twice() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(query_param("q", "limited"))
        .respond_with(json(429, fixture("google", "error_rate.json")))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(query_param("q", "down"))
        .respond_with(json(500, fixture("google", "error_500.json")))
        .expect(2)
        .mount(&server)
        .await;
    let service = farsight_search::SearchService::builder()
        .provider(provider("google", &google_settings(&server, None)))
        .build()
        .expect("service");
    service
        .search(SearchRequest::new("limited"))
        .await
        .expect_err("429");
    service
        .search(SearchRequest::new("down"))
        .await
        .expect_err("500");
}

#[tokio::test]
async fn both_variables_are_required() {
    let only_key = ProviderSettings {
        api_key: Some("k".into()),
        ..ProviderSettings::default()
    };
    let e = build_provider("google", &only_key, client()).expect_err("no cx");
    assert_eq!(e.kind(), ErrorKind::NotConfigured);
    assert!(e.message().contains("GOOGLE_SEARCH_ENGINE_ID"), "{e}");
    let only_cx = ProviderSettings {
        engine_id: Some("cx".into()),
        ..ProviderSettings::default()
    };
    let e = build_provider("google", &only_cx, client()).expect_err("no key");
    assert!(e.message().contains("GOOGLE_SEARCH_API_KEY"), "{e}");
}
