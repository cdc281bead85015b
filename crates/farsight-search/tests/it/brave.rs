//! Brave against a local server replaying its documented answers.

use farsight_search::{DateRange, ErrorKind, SearchRequest, SearchType, Topic};
use wiremock::matchers::{header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::support::{fixture, provider, settings, single};

fn json(status: u16, body: String) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_raw(body, "application/json")
}

#[tokio::test]
async fn web_search_sends_every_filter_and_normalises() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/res/v1/web/search"))
        .and(header("X-Subscription-Token", "brave-key"))
        .and(header("Accept", "application/json"))
        .and(query_param(
            "q",
            "rust async runtime site:tokio.rs OR site:github.io -site:reddit.com",
        ))
        .and(query_param("count", "4"))
        .and(query_param("freshness", "pm"))
        .and(query_param("safesearch", "strict"))
        .and(query_param("result_filter", "web"))
        .respond_with(json(200, fixture("brave", "web_success.json")))
        .expect(1)
        .mount(&server)
        .await;
    let service = single(provider("brave", &settings(&server, Some("brave-key"))));
    let answer = service
        .search(SearchRequest {
            max_results: Some(4),
            include_domains: vec!["tokio.rs".into(), "github.io".into()],
            exclude_domains: vec!["reddit.com".into()],
            date_range: Some(DateRange::Month),
            ..SearchRequest::new("rust async runtime")
        })
        .await
        .expect("answer");
    assert_eq!(answer.search_engine, "brave");
    assert_eq!(answer.results.len(), 2, "{:#?}", answer.results);
    let first = &answer.results[0];
    assert_eq!(first.title, "Tokio - An asynchronous Rust runtime");
    assert!(
        first.snippet.contains("speed & reliability"),
        "{}",
        first.snippet
    );
    assert_eq!(first.domain, "tokio.rs");
    assert_eq!(first.date_published.as_deref(), Some("2024-05-14"));
    let second = &answer.results[1];
    assert_eq!(second.domain, "rust-lang.github.io");
    assert!(
        second.snippet.contains("Rust's async"),
        "{}",
        second.snippet
    );
    assert!(second.snippet.ends_with('…') && second.snippet.chars().count() <= 200);
    assert!(second.date_published.is_some(), "relative age parsed");
    assert!(answer.suggestion.is_none());
}

#[tokio::test]
async fn news_uses_the_news_endpoint() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/res/v1/news/search"))
        .and(query_param("q", "rust release"))
        .and(query_param("safesearch", "off"))
        .respond_with(json(200, fixture("brave", "news_success.json")))
        .expect(1)
        .mount(&server)
        .await;
    let service = single(provider("brave", &settings(&server, Some("k"))));
    let answer = service
        .search(SearchRequest {
            topic: Topic::News,
            safe_search: Some(false),
            ..SearchRequest::new("rust release")
        })
        .await
        .expect("answer");
    assert_eq!(answer.results[0].domain, "rust-lang.org");
    assert_eq!(
        answer.results[0].date_published.as_deref(),
        Some("2026-11-20")
    );
    let sent = &server.received_requests().await.expect("recorded")[0];
    assert!(sent.url.query_pairs().all(|(k, _)| k != "result_filter"));
}

#[tokio::test]
async fn empty_answer_suggests_broader_terms() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/res/v1/web/search"))
        .respond_with(json(200, fixture("brave", "web_empty.json")))
        .mount(&server)
        .await;
    let service = single(provider("brave", &settings(&server, Some("k"))));
    let answer = service
        .search(SearchRequest::new("qwxzv plorkle frumious"))
        .await
        .expect("answer");
    assert!(answer.results.is_empty());
    assert_eq!(answer.total_results, 0);
    assert_eq!(
        answer.suggestion.as_deref(),
        Some("No results found. Try broader search terms or check spelling.")
    );
}

/// Status, fixture, headers, expected kind, expected `retry_after_ms`.
type Case = (
    u16,
    &'static str,
    &'static [(&'static str, &'static str)],
    ErrorKind,
    Option<u64>,
);

#[tokio::test]
async fn documented_errors_map_to_kinds() {
    let cases: [Case; 6] = [
        (
            422,
            "error_invalid_token.json",
            &[],
            ErrorKind::AuthenticationFailed,
            None,
        ),
        (
            429,
            "error_rate_limited.json",
            &[
                ("X-RateLimit-Limit", "1, 2000"),
                ("X-RateLimit-Remaining", "0, 1983"),
                ("X-RateLimit-Reset", "1, 1419704"),
            ],
            ErrorKind::RateLimited,
            Some(1000),
        ),
        (
            429,
            "error_quota.json",
            &[
                ("X-RateLimit-Limit", "1, 2000"),
                ("X-RateLimit-Remaining", "1, 0"),
                ("X-RateLimit-Reset", "1, 1419704"),
            ],
            ErrorKind::QuotaExceeded,
            None,
        ),
        (
            422,
            "error_missing_token.json",
            &[],
            ErrorKind::AuthenticationFailed,
            None,
        ),
        (
            422,
            "error_validation.json",
            &[],
            ErrorKind::InvalidQuery,
            None,
        ),
        (
            503,
            "error_rate_limited.json",
            &[],
            ErrorKind::ServiceUnavailable,
            None,
        ),
    ];
    for (status, file, headers, kind, retry_after) in cases {
        let server = MockServer::start().await;
        let mut response = json(status, fixture("brave", file));
        for (k, v) in headers {
            response = response.insert_header(*k, *v);
        }
        Mock::given(method("GET"))
            .respond_with(response)
            .expect(1)
            .mount(&server)
            .await;
        let service = single(provider("brave", &settings(&server, Some("k"))));
        let error = service
            .search(SearchRequest::new("rust"))
            .await
            .expect_err(file);
        assert_eq!(error.kind(), kind, "{file}: {error}");
        assert_eq!(error.status(), Some(status), "{file}");
        assert_eq!(error.provider(), Some("brave"));
        if retry_after.is_some() {
            assert_eq!(error.retry_after_ms(), retry_after, "{file}");
        }
        assert!(!error.message().contains("k\""), "no key in messages");
    }
}

/// Issue 10: Brave's 422 `VALIDATION` answer that names the missing
/// `x-subscription-token` header is a key problem, not a bad query, and says
/// which variable to set; the same 422 about the query stays `invalidQuery`.
#[tokio::test]
async fn issue_10_missing_token_header_is_authentication_failed() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(json(422, fixture("brave", "error_missing_token.json")))
        .expect(1)
        .mount(&server)
        .await;
    let service = single(provider("brave", &settings(&server, Some("k"))));
    let error = service
        .search(SearchRequest::new("rust"))
        .await
        .expect_err("422");
    assert_eq!(error.kind(), ErrorKind::AuthenticationFailed, "{error}");
    assert!(!error.is_retryable());
    assert!(
        error.suggestion().unwrap_or("").contains("BRAVE_API_KEY"),
        "{error:?}"
    );
}

#[tokio::test]
async fn missing_key_is_not_configured() {
    let e = farsight_search::build_provider(
        "brave",
        &farsight_search::ProviderSettings::default(),
        crate::support::client(),
    )
    .expect_err("no key");
    assert_eq!(e.kind(), ErrorKind::NotConfigured);
    assert!(e.message().contains("BRAVE_API_KEY"), "{e}");
}

// Issue #13: an image search goes to Brave's image endpoint with the
// country and language, and its answer comes back in `images`.
#[tokio::test]
async fn image_search_with_country_and_language() {
    let server = MockServer::start().await;
    let body = r#"{"type":"images","query":{"original":"harbour crane"},"results":[
        {"type":"image_result","title":"Crane at dusk","url":"https://port.example/cranes","source":"port.example",
         "thumbnail":{"src":"https://imgs.search.brave.com/t1","width":500,"height":333},
         "properties":{"url":"https://port.example/img/crane.jpg","placeholder":"https://imgs.search.brave.com/p1","width":2400,"height":1600},
         "meta_url":{"scheme":"https","netloc":"port.example","hostname":"port.example"}},
        {"type":"image_result","title":"Not http","url":"https://x.example/","source":"x.example",
         "properties":{"url":"javascript:alert(1)"}}]}"#;
    Mock::given(method("GET"))
        .and(path("/res/v1/images/search"))
        .and(query_param("q", "harbour crane"))
        .and(query_param("country", "de"))
        .and(query_param("search_lang", "fr"))
        .respond_with(json(200, body.to_owned()))
        .expect(1)
        .mount(&server)
        .await;
    let service = single(provider("brave", &settings(&server, Some("k"))));
    let answer = service
        .search(SearchRequest {
            search_type: SearchType::Images,
            country: Some("DE".into()),
            language: Some("fr".into()),
            ..SearchRequest::new("harbour crane")
        })
        .await
        .expect("answer");
    assert!(answer.results.is_empty(), "{:#?}", answer.results);
    assert_eq!(answer.images.len(), 1, "{:#?}", answer.images);
    let image = &answer.images[0];
    assert_eq!(image.image_url, "https://port.example/img/crane.jpg");
    assert_eq!(
        image.page_url.as_deref(),
        Some("https://port.example/cranes")
    );
    assert_eq!((image.width, image.height), (Some(2400), Some(1600)));
}

// Issue #13: a code that names no country is refused before any request.
#[tokio::test]
async fn an_unknown_country_is_an_invalid_argument() {
    let server = MockServer::start().await;
    let service = single(provider("brave", &settings(&server, Some("k"))));
    let e = service
        .search(SearchRequest {
            country: Some("zz".into()),
            ..SearchRequest::new("harbour crane")
        })
        .await
        .expect_err("refused");
    assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e:?}");
    assert!(e.message().contains("country"), "{}", e.message());
    assert!(
        server
            .received_requests()
            .await
            .expect("recorded")
            .is_empty()
    );
}
