//! SearXNG against a local server standing in for an instance.

use std::time::SystemTime;

use farsight_search::{
    DateRange, ErrorKind, ProviderSettings, SearchRequest, Topic, build_provider,
};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::support::{client, fixture, provider, single};

fn instance(server: &MockServer, prefix: &str) -> ProviderSettings {
    ProviderSettings {
        base_url: Some(format!("{}{prefix}", server.uri())),
        ..ProviderSettings::default()
    }
}

#[tokio::test]
async fn search_asks_for_json_with_every_filter_under_the_instance_path() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/searx/search"))
        .and(query_param("q", "rust async -site:reddit.com"))
        .and(query_param("format", "json"))
        .and(query_param("categories", "news"))
        .and(query_param("time_range", "month"))
        .and(query_param("safesearch", "2"))
        .and(query_param("pageno", "1"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_raw(fixture("searxng", "success.json"), "application/json"),
        )
        .expect(1)
        .mount(&server)
        .await;
    let service = single(provider("searxng", &instance(&server, "/searx/")));
    let answer = service
        .search(SearchRequest {
            topic: Topic::News,
            date_range: Some(DateRange::Month),
            exclude_domains: vec!["reddit.com".into()],
            ..SearchRequest::new("rust async")
        })
        .await
        .expect("answer");
    assert_eq!(answer.search_engine, "searxng");
    assert_eq!(answer.results.len(), 2);
    assert_eq!(answer.results[0].score, Some(3.0));
    assert_eq!(
        answer.results[1].snippet,
        "A look at the state of async Rust."
    );
    assert_eq!(
        answer.results[1].date_published.as_deref(),
        Some("2024-02-10")
    );
    assert_eq!(answer.total_results, 2, "number_of_results 0 means unknown");
}

// Issue 10: engines' date prefixes stayed in SearXNG snippets and gave no
// `datePublished`; direction marks reached titles and snippets.
#[tokio::test]
async fn date_prefixes_become_dates_and_invisible_marks_go() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/search"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_raw(fixture("searxng", "date_prefixes.json"), "application/json"),
        )
        .mount(&server)
        .await;
    let service = single(provider("searxng", &instance(&server, "")));
    // "3 days ago" is counted back from the clock: read it before and after.
    let before = farsight_extract::date::parse_date("3 days ago", Some(SystemTime::now()));
    let answer = service
        .search(SearchRequest::new("rust 1.78"))
        .await
        .expect("answer");
    let after = farsight_extract::date::parse_date("3 days ago", Some(SystemTime::now()));
    let r = &answer.results;
    assert_eq!(r.len(), 5);

    assert_eq!(
        r[0].snippet,
        "The Rust team is happy to announce a new version of Rust, 1.78.0."
    );
    let three_days_ago = r[0].date_published.clone();
    assert!(
        three_days_ago.is_some() && (three_days_ago == before || three_days_ago == after),
        "{three_days_ago:?}"
    );

    assert_eq!(
        r[1].snippet,
        "Rust 1.78 is out today with a new diagnostic namespace."
    );
    assert_eq!(r[1].date_published.as_deref(), Some("2024-04-17"));

    assert_eq!(r[2].title, "Rust 1.78.0 released");
    assert_eq!(r[2].snippet, "The Rust 1.78.0 release adds diagnostics.");
    assert_eq!(r[2].date_published.as_deref(), Some("2024-04-17"));

    // publishedDate wins over the prefix; the prefix still goes.
    assert_eq!(r[3].snippet, "An early look at what became Rust 1.78.");
    assert_eq!(r[3].date_published.as_deref(), Some("2024-05-03"));

    // A sentence that begins with a date is not a prefix.
    assert_eq!(
        r[4].snippet,
        "3 April 2023 was the day the first draft was written."
    );
    assert_eq!(r[4].date_published, None);
}

#[tokio::test]
async fn empty_and_failed_engines_differ() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(query_param("q", "qwxzv plorkle"))
        .and(query_param("safesearch", "0"))
        .and(query_param("categories", "general"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_raw(fixture("searxng", "empty.json"), "application/json"),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(query_param("q", "rust"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(
            fixture("searxng", "all_engines_failed.json"),
            "application/json",
        ))
        .mount(&server)
        .await;
    let service = single(provider("searxng", &instance(&server, "")));
    let answer = service
        .search(SearchRequest {
            safe_search: Some(false),
            ..SearchRequest::new("qwxzv plorkle")
        })
        .await
        .expect("answer");
    assert!(answer.results.is_empty());
    assert!(answer.suggestion.is_some());
    let e = service
        .search(SearchRequest::new("rust"))
        .await
        .expect_err("engines failed");
    assert_eq!(e.kind(), ErrorKind::ServiceUnavailable);
    assert!(e.message().contains("CAPTCHA"), "{e}");
}

#[tokio::test]
async fn json_disabled_is_explained() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(403)
                .set_body_raw(fixture("searxng", "error_403.html"), "text/html"),
        )
        .mount(&server)
        .await;
    let service = single(provider("searxng", &instance(&server, "")));
    let e = service
        .search(SearchRequest::new("rust"))
        .await
        .expect_err("403");
    assert_eq!(e.kind(), ErrorKind::NotConfigured);
    assert!(e.message().contains("JSON"), "{e}");
    assert!(
        e.suggestion().unwrap_or("").contains("search.formats"),
        "{e:?}"
    );
    assert!(e.suggestion().unwrap_or("").contains("settings.yml"));
}

#[tokio::test]
async fn limiter_429_is_rate_limited() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(429)
                .set_body_raw(fixture("searxng", "error_429.html"), "text/html"),
        )
        .mount(&server)
        .await;
    let service = single(provider("searxng", &instance(&server, "")));
    let e = service
        .search(SearchRequest::new("rust"))
        .await
        .expect_err("429");
    assert_eq!(e.kind(), ErrorKind::RateLimited);
}

#[tokio::test]
async fn the_url_is_required() {
    let e = build_provider("searxng", &ProviderSettings::default(), client()).expect_err("no url");
    assert_eq!(e.kind(), ErrorKind::NotConfigured);
    assert!(e.message().contains("SEARXNG_URL"), "{e}");
}
