//! Wikipedia against a local server replaying MediaWiki API answers.

use crate::support;
use std::sync::Arc;

use farsight_search::{
    DateRange, ErrorKind, Provider, ProviderQuery, ProviderSettings, SearchDepth, Topic,
    build_provider,
};
use wiremock::matchers::{header_regex, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn provider(server: &MockServer) -> Arc<dyn Provider> {
    support::provider("wikipedia", &support::settings(server, None))
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
        "{}/tests/fixtures/wikipedia/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn json_reply(status: u16, body: &str) -> ResponseTemplate {
    ResponseTemplate::new(status)
        .set_body_raw(body.as_bytes().to_vec(), "application/json; charset=utf-8")
}

async fn mount(server: &MockServer, response: ResponseTemplate) {
    Mock::given(method("GET"))
        .and(path("/w/api.php"))
        .respond_with(response)
        .expect(1)
        .mount(server)
        .await;
}

#[tokio::test]
async fn results_are_parsed_and_the_request_follows_the_api_and_ua_policy() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/w/api.php"))
        .and(query_param("action", "query"))
        .and(query_param("list", "search"))
        .and(query_param("srsearch", "programming language"))
        .and(query_param("srlimit", "3"))
        .and(query_param("srnamespace", "0"))
        .and(query_param("srprop", "snippet|timestamp"))
        .and(query_param("srinfo", "totalhits"))
        .and(query_param("format", "json"))
        .and(query_param("formatversion", "2"))
        .and(header_regex(
            "user-agent",
            r"^farsight/\d+\.\d+\.\d+ \(https://[^;]+; ",
        ))
        .respond_with(json_reply(200, &fixture("search_success.json")))
        .expect(1)
        .mount(&server)
        .await;
    let mut q = query("programming language");
    q.count = 3;
    q.date_range = Some(DateRange::Week);
    q.safe_search = true;
    let answer = provider(&server).search(&q).await.unwrap();

    let origin = server.uri();
    let urls: Vec<&str> = answer.results.iter().map(|r| r.url.as_str()).collect();
    assert_eq!(
        urls,
        vec![
            format!("{origin}/wiki/Rust_(programming_language)"),
            format!("{origin}/wiki/C%2B%2B"),
            format!("{origin}/wiki/Z%C3%BCrich"),
        ]
    );
    assert_eq!(answer.results[0].title, "Rust (programming language)");
    assert!(
        answer.results[0]
            .snippet
            .starts_with("<span class=\"searchmatch\">Rust</span> is a general-purpose")
    );
    assert_eq!(
        answer.results[0].date.as_deref(),
        Some("2024-11-02T17:45:12Z")
    );
    assert_eq!(answer.total_results, Some(8412));
    assert_eq!(answer.unapplied_filters, vec!["dateRange", "safeSearch"]);
}

#[tokio::test]
async fn no_hits_is_an_empty_answer() {
    let server = MockServer::start().await;
    mount(&server, json_reply(200, &fixture("search_empty.json"))).await;
    let answer = provider(&server)
        .search(&query("zzqxj vbnmq"))
        .await
        .unwrap();
    assert!(answer.results.is_empty());
    assert_eq!(answer.total_results, Some(0));
}

#[tokio::test]
async fn errors_inside_200_bodies_are_found() {
    let server = MockServer::start().await;
    mount(
        &server,
        json_reply(200, &fixture("error_maxlag.json")).insert_header("Retry-After", "7"),
    )
    .await;
    let error = provider(&server).search(&query("rust")).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ServiceUnavailable, "{error}");
    assert_eq!(error.retry_after_ms(), Some(7_000));
    assert!(error.message().contains("maxlag"));

    let server = MockServer::start().await;
    mount(&server, json_reply(200, &fixture("error_ratelimited.json"))).await;
    let error = provider(&server).search(&query("rust")).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::RateLimited);

    let server = MockServer::start().await;
    mount(&server, json_reply(200, &fixture("error_badvalue.json"))).await;
    let error = provider(&server).search(&query("rust")).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidQuery);
}

#[tokio::test]
async fn http_errors_are_mapped() {
    let cases = [
        (429, ErrorKind::RateLimited),
        (403, ErrorKind::Unknown),
        (503, ErrorKind::ServiceUnavailable),
    ];
    for (status, kind) in cases {
        let server = MockServer::start().await;
        mount(
            &server,
            ResponseTemplate::new(status).set_body_string("<html>Wikimedia Error</html>"),
        )
        .await;
        let error = provider(&server).search(&query("rust")).await.unwrap_err();
        assert_eq!(error.kind(), kind, "HTTP {status}: {error}");
        assert_eq!(error.status(), Some(status));
    }
}

#[tokio::test]
async fn a_domain_filter_without_wikipedia_answers_empty_without_a_request() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(json_reply(200, &fixture("search_success.json")))
        .expect(0)
        .mount(&server)
        .await;
    let mut q = query("rust");
    q.site = Some("docs.rs".into());
    q.topic = Topic::News;
    let answer = provider(&server).search(&q).await.unwrap();
    assert!(answer.results.is_empty());
    assert_eq!(answer.unapplied_filters, vec!["topic"]);
}

#[tokio::test]
async fn another_language_edition_is_chosen_with_base_url() {
    let server = MockServer::start().await;
    let settings = ProviderSettings {
        base_url: Some(format!("{}/de-proxy", server.uri())),
        ..Default::default()
    };
    let client = support::client();
    let provider = build_provider("wikipedia", &settings, client).unwrap();
    // The proxy prefix is kept for the API and for the article URLs.
    Mock::given(method("GET"))
        .and(path("/de-proxy/w/api.php"))
        .respond_with(json_reply(200, &fixture("search_success.json")))
        .expect(1)
        .mount(&server)
        .await;
    let answer = provider.search(&query("rust")).await.unwrap();
    assert_eq!(
        answer.results[0].url,
        format!("{}/de-proxy/wiki/Rust_(programming_language)", server.uri())
    );
}

/// Against the real service, only when `FARSIGHT_LIVE_TESTS=1` (keyless
/// providers have no key whose presence could opt in).
#[tokio::test]
async fn live_wikipedia_search() {
    if std::env::var("FARSIGHT_LIVE_TESTS").as_deref() != Ok("1") {
        eprintln!("skipped: live wikipedia test (set FARSIGHT_LIVE_TESTS=1 to run it)");
        return;
    }
    let client = crate::support::live_client();
    let provider = build_provider("wikipedia", &ProviderSettings::default(), client).unwrap();
    let answer = provider
        .search(&query("rust programming language"))
        .await
        .unwrap_or_else(|e| panic!("live wikipedia search failed: {e}"));
    assert!(!answer.results.is_empty(), "live wikipedia: no results");
    assert!(answer.results.iter().all(|r| r.url.starts_with("http")));
}
