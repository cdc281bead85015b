//! DuckDuckGo against a local server replaying its HTML, lite, anomaly and
//! no-results pages.

use crate::support;
use std::sync::Arc;

use farsight_search::{
    DateRange, ErrorKind, Provider, ProviderQuery, ProviderSettings, SearchDepth, Topic,
    build_provider,
};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const HTML_RESULTS: &str = include_str!("../fixtures/duckduckgo/html_results.html");
const HTML_NO_RESULTS: &str = include_str!("../fixtures/duckduckgo/html_no_results.html");
const HTML_NO_RESULTS_GOOGLE: &str =
    include_str!("../fixtures/duckduckgo/html_no_results_google.html");
const ANOMALY: &str = include_str!("../fixtures/duckduckgo/anomaly.html");
const UNKNOWN: &str = include_str!("../fixtures/duckduckgo/unknown_layout.html");
const LITE_RESULTS: &str = include_str!("../fixtures/duckduckgo/lite_results.html");

fn provider(server: &MockServer) -> Arc<dyn Provider> {
    support::provider("duckduckgo", &support::settings(server, None))
}

fn query(text: &str) -> ProviderQuery {
    ProviderQuery {
        query: text.to_owned(),
        count: 5,
        site: None,
        include_domains: vec![],
        exclude_domains: vec![],
        date_range: None,
        safe_search: true,
        topic: Topic::General,
        depth: SearchDepth::Basic,
        ..ProviderQuery::default()
    }
}

fn html(status: u16, body: &str) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_raw(body.as_bytes().to_vec(), "text/html; charset=UTF-8")
}

async fn mount(server: &MockServer, endpoint: &str, response: ResponseTemplate, times: u64) {
    Mock::given(method("POST"))
        .and(path(endpoint))
        .respond_with(response)
        .expect(times)
        .mount(server)
        .await;
}

fn form_of(request: &wiremock::Request) -> Vec<(String, String)> {
    url::form_urlencoded::parse(&request.body)
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

#[tokio::test]
async fn html_results_are_parsed_and_the_form_carries_every_filter() {
    let server = MockServer::start().await;
    mount(&server, "/html/", html(200, HTML_RESULTS), 1).await;
    mount(&server, "/lite/", html(200, LITE_RESULTS), 0).await;

    let mut q = query("rust async runtime");
    q.include_domains = vec!["tokio.rs".into(), "github.com".into()];
    q.exclude_domains = vec!["spam.example".into()];
    q.date_range = Some(DateRange::Month);
    q.safe_search = false;
    let answer = provider(&server).search(&q).await.unwrap();

    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request.method.as_str(), "POST");
    assert_eq!(
        request.headers.get("content-type").unwrap(),
        "application/x-www-form-urlencoded"
    );
    assert_eq!(
        request.headers.get("referer").unwrap(),
        "https://html.duckduckgo.com/"
    );
    assert_eq!(
        form_of(request),
        vec![
            (
                "q".to_owned(),
                "rust async runtime site:tokio.rs OR site:github.com -site:spam.example".to_owned()
            ),
            ("b".to_owned(), String::new()),
            ("kl".to_owned(), "wt-wt".to_owned()),
            ("df".to_owned(), "m".to_owned()),
            ("kp".to_owned(), "-2".to_owned()),
        ]
    );

    // The ad is dropped, redirect links decoded, HTML left for the engine.
    let urls: Vec<&str> = answer.results.iter().map(|r| r.url.as_str()).collect();
    assert_eq!(
        urls,
        vec![
            "https://tokio.rs/",
            "https://rust-lang.github.io/async-book/01_getting_started/01_chapter.html?utm_source=ddg#why",
            "https://github.com/smol-rs/smol",
        ]
    );
    assert_eq!(
        answer.results[0].title,
        "Tokio - An asynchronous <b>Rust</b> <b>runtime</b>"
    );
    assert!(
        answer.results[0]
            .snippet
            .starts_with("Tokio is an <b>asynchronous</b>")
    );
    assert!(answer.results[0].snippet.contains("&amp; services."));
    assert_eq!(answer.results[0].date, None);
    assert_eq!(
        answer.results[1].date.as_deref(),
        Some("2023-08-24T00:00:00.0000000")
    );
    assert_eq!(answer.total_results, None);
    assert!(answer.unapplied_filters.is_empty());
}

#[tokio::test]
async fn safe_search_on_and_news_topic_and_the_count_cut() {
    let server = MockServer::start().await;
    mount(&server, "/html/", html(200, HTML_RESULTS), 1).await;
    let mut q = query("rust async runtime");
    q.count = 2;
    q.topic = Topic::News;
    let answer = provider(&server).search(&q).await.unwrap();
    assert_eq!(answer.results.len(), 2);
    assert_eq!(answer.unapplied_filters, vec!["topic"]);
    let requests = server.received_requests().await.unwrap();
    let form = form_of(&requests[0]);
    assert!(
        form.contains(&("kp".to_owned(), "1".to_owned())),
        "{form:?}"
    );
    assert!(!form.iter().any(|(k, _)| k == "df"), "{form:?}");
}

#[tokio::test]
async fn a_real_no_results_page_is_an_empty_answer() {
    let server = MockServer::start().await;
    mount(&server, "/html/", html(200, HTML_NO_RESULTS), 1).await;
    mount(&server, "/lite/", html(200, LITE_RESULTS), 0).await;
    let answer = provider(&server)
        .search(&query("zzqxj vbnmq plokij"))
        .await
        .unwrap();
    assert!(answer.results.is_empty());
}

/// Issue 10: the no-results page that offers the query on Google (an
/// `a.result__a` titled "EOF" inside the `result--no-result` block) is an
/// empty answer, not one result titled "EOF"; the lite endpoint is not asked.
#[tokio::test]
async fn issue_10_no_results_page_with_google_fallback_is_empty() {
    let server = MockServer::start().await;
    mount(&server, "/html/", html(200, HTML_NO_RESULTS_GOOGLE), 1).await;
    mount(&server, "/lite/", html(200, LITE_RESULTS), 0).await;
    let answer = provider(&server)
        .search(&query("qwxzv plorkle frumious snarglebart"))
        .await
        .unwrap();
    assert!(answer.results.is_empty(), "{:?}", answer.results);
}

#[tokio::test]
async fn the_anomaly_page_is_rate_limited_never_no_results() {
    for status in [202, 200] {
        let server = MockServer::start().await;
        mount(&server, "/html/", html(status, ANOMALY), 1).await;
        mount(&server, "/lite/", html(200, LITE_RESULTS), 0).await;
        let error = provider(&server)
            .search(&query("rust async runtime"))
            .await
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::RateLimited, "{error}");
        assert_eq!(error.status(), Some(status));
        assert!(error.is_retryable());
        assert_eq!(error.provider(), Some("duckduckgo"));
    }
    // A bare 202 (the throttle without the page) is not "no results" either.
    let server = MockServer::start().await;
    mount(&server, "/html/", html(202, ""), 1).await;
    let error = provider(&server).search(&query("rust")).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::RateLimited);
}

#[tokio::test]
async fn an_unknown_layout_falls_back_to_the_lite_endpoint() {
    let server = MockServer::start().await;
    mount(&server, "/html/", html(200, UNKNOWN), 1).await;
    mount(&server, "/lite/", html(200, LITE_RESULTS), 1).await;
    let answer = provider(&server)
        .search(&query("rust async runtime"))
        .await
        .unwrap();
    let urls: Vec<&str> = answer.results.iter().map(|r| r.url.as_str()).collect();
    assert_eq!(
        urls,
        vec!["https://tokio.rs/", "https://docs.rs/async-std/"]
    );
    assert_eq!(
        answer.results[1].snippet,
        "Async version of the <b>Rust</b> standard library."
    );
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests[1].url.path(), "/lite/");
    let form = form_of(&requests[1]);
    assert!(form.contains(&("q".to_owned(), "rust async runtime".to_owned())));
    assert!(form.contains(&("kl".to_owned(), "wt-wt".to_owned())));
}

#[tokio::test]
async fn an_unknown_layout_on_both_endpoints_is_an_error_not_an_empty_answer() {
    let server = MockServer::start().await;
    mount(&server, "/html/", html(200, UNKNOWN), 1).await;
    mount(&server, "/lite/", html(200, UNKNOWN), 1).await;
    let error = provider(&server).search(&query("rust")).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Unknown);
    assert!(error.message().contains("layout"), "{error}");
}

#[tokio::test]
async fn a_lite_page_from_the_html_endpoint_is_read_directly() {
    let server = MockServer::start().await;
    mount(&server, "/html/", html(200, LITE_RESULTS), 1).await;
    mount(&server, "/lite/", html(200, LITE_RESULTS), 0).await;
    let answer = provider(&server).search(&query("rust")).await.unwrap();
    assert_eq!(answer.results.len(), 2);
}

#[tokio::test]
async fn http_errors_are_mapped() {
    let cases = [
        (403, None, ErrorKind::RateLimited, None),
        (429, Some("30"), ErrorKind::RateLimited, Some(30_000)),
        (500, None, ErrorKind::ServiceUnavailable, None),
        (503, Some("5"), ErrorKind::ServiceUnavailable, Some(5_000)),
    ];
    for (status, retry_after, kind, retry_ms) in cases {
        let server = MockServer::start().await;
        let mut response = html(status, "<html><body>error</body></html>");
        if let Some(value) = retry_after {
            response = response.insert_header("Retry-After", value);
        }
        mount(&server, "/html/", response, 1).await;
        let error = provider(&server).search(&query("rust")).await.unwrap_err();
        assert_eq!(error.kind(), kind, "HTTP {status}: {error}");
        assert_eq!(error.status(), Some(status));
        assert_eq!(error.retry_after_ms(), retry_ms, "HTTP {status}");
    }
}

#[tokio::test]
async fn a_query_too_long_for_duckduckgo_is_refused_before_sending() {
    let server = MockServer::start().await;
    mount(&server, "/html/", html(200, HTML_RESULTS), 0).await;
    let error = provider(&server)
        .search(&query(&"rust ".repeat(120)))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidQuery);
}

/// Against the real service, only when `FARSIGHT_LIVE_TESTS=1` (keyless
/// providers have no key whose presence could opt in).
#[tokio::test]
async fn live_duckduckgo_search() {
    if std::env::var("FARSIGHT_LIVE_TESTS").as_deref() != Ok("1") {
        eprintln!("skipped: live duckduckgo test (set FARSIGHT_LIVE_TESTS=1 to run it)");
        return;
    }
    let client = crate::support::live_client();
    let provider = build_provider("duckduckgo", &ProviderSettings::default(), client).unwrap();
    let answer = provider
        .search(&query("rust programming language"))
        .await
        .unwrap_or_else(|e| panic!("live duckduckgo search failed: {e}"));
    assert!(!answer.results.is_empty(), "live duckduckgo: no results");
    assert!(answer.results.iter().all(|r| r.url.starts_with("http")));
}
