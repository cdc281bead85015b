//! `web_search` through the service: the chain, explicit providers, fusion,
//! deep search, and `web_fetch` with `focus`. Providers are wiremock servers
//! speaking their wire formats; pages come from a local server.

use std::time::{Duration, Instant};

use farsight::{
    CallOptions, ErrorKind, FetchRequest, ProviderChoice, SearchDepth, SearchRequest, Service,
};
use farsight_extract::estimate_tokens;
use wiremock::matchers::header;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::search_support::*;

fn deep(query: &str, max_tokens: usize) -> SearchRequest {
    let mut r = SearchRequest::new(query);
    r.depth = SearchDepth::Deep;
    r.max_content_tokens = Some(max_tokens);
    r
}

#[tokio::test]
async fn the_chain_asks_brave_with_its_key_and_normalises() {
    let dir = tempfile::tempdir().unwrap();
    let mock = MockServer::start().await;
    Mock::given(header("X-Subscription-Token", "test"))
        .respond_with(ResponseTemplate::new(200).set_body_json(brave_body(&[
            (
                "<b>Tokio</b> runtime",
                "https://tokio.rs/?utm_source=x",
                "An async &amp; fast runtime",
            ),
            ("Docs", "https://docs.rs/tokio", "API docs"),
        ])))
        .expect(1)
        .mount(&mock)
        .await;
    let service = Service::new(search_config(dir.path(), &[("brave", &mock.uri())], "")).unwrap();
    assert_eq!(service.search_chain(), ["brave", "duckduckgo", "wikipedia"]);
    let answer = service
        .web_search(
            &SearchRequest::new("rust async runtime"),
            CallOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(answer.search_engine, "brave");
    assert_eq!(answer.results.len(), 2);
    assert_eq!(answer.results[0].title, "Tokio runtime");
    assert_eq!(answer.results[0].snippet, "An async & fast runtime");
    assert_eq!(answer.results[0].domain, "tokio.rs");
    assert_eq!(
        answer.results[0].date_published.as_deref(),
        Some("2025-01-15")
    );
    assert!(answer.attempts.is_empty());
    assert!(answer.results.iter().all(|r| r.content.is_none()));

    // The second call is a cache hit: the mock expects exactly one request.
    let again = service
        .web_search(
            &SearchRequest::new("rust async runtime"),
            CallOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(again.results, answer.results);
}

#[tokio::test]
async fn a_failing_provider_falls_back_and_is_listed() {
    let dir = tempfile::tempdir().unwrap();
    let b = brave(
        401,
        serde_json::json!({"error": {"code": "UNAUTHORIZED", "detail": "bad key"}}),
    )
    .await;
    let s = searxng(
        200,
        searxng_body(&[("Result", "https://example.org/a", "from searxng")]),
    )
    .await;
    let cfg = search_config(
        dir.path(),
        &[("brave", &b.uri()), ("searxng", &s.uri())],
        "fallbacks = [\"brave\", \"searxng\"]",
    );
    let service = Service::new(cfg).unwrap();
    assert_eq!(service.search_chain(), ["brave", "searxng"]);
    let answer = service
        .web_search(
            &SearchRequest::new("anything at all"),
            CallOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(answer.search_engine, "searxng");
    assert_eq!(answer.attempts.len(), 1);
    assert_eq!(answer.attempts[0].provider, "brave");
    assert_eq!(
        answer.attempts[0].error_kind,
        ErrorKind::AuthenticationFailed
    );
}

#[tokio::test]
async fn every_provider_failing_is_one_error_listing_each() {
    let dir = tempfile::tempdir().unwrap();
    let b = brave(401, serde_json::json!({})).await;
    let s = searxng(403, serde_json::json!({})).await;
    let cfg = search_config(
        dir.path(),
        &[("brave", &b.uri()), ("searxng", &s.uri())],
        "provider = \"brave\"\nfallbacks = [\"searxng\"]",
    );
    let service = Service::new(cfg).unwrap();
    let err = service
        .web_search(
            &SearchRequest::new("anything at all"),
            CallOptions::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(err.attempts().len(), 2, "{err:?}");
    assert_eq!(err.attempts()[0].provider, "brave");
    assert_eq!(err.attempts()[1].provider, "searxng");
    assert!(
        err.message().contains("every search provider failed"),
        "{err:?}"
    );
    assert!(!err.is_retryable());
}

#[tokio::test]
async fn an_unconfigured_provider_names_its_variables() {
    let dir = tempfile::tempdir().unwrap();
    let service = Service::new(search_config(dir.path(), &[], "")).unwrap();
    let mut r = SearchRequest::new("rust async");
    r.provider = Some(ProviderChoice::One("tavily".into()));
    let err = service
        .web_search(&r, CallOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotConfigured);
    let text = format!("{} {}", err.message(), err.suggestion().unwrap_or_default());
    assert!(text.contains("TAVILY_API_KEY"), "{text}");

    let err = service
        .web_search(&SearchRequest::new("x"), CallOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidQuery);
}

#[tokio::test]
async fn several_providers_are_fused_with_provenance() {
    let dir = tempfile::tempdir().unwrap();
    let b = brave(
        200,
        brave_body(&[
            ("Only brave", "https://one.example/", "a"),
            ("Shared", "https://shared.example/page", "b"),
        ]),
    )
    .await;
    let s = searxng(
        200,
        searxng_body(&[
            (
                "Shared copy",
                "https://shared.example/page/?utm_source=s#top",
                "c",
            ),
            ("Only searxng", "https://two.example/", "d"),
        ]),
    )
    .await;
    let cfg = search_config(
        dir.path(),
        &[("brave", &b.uri()), ("searxng", &s.uri())],
        "",
    );
    let service = Service::new(cfg).unwrap();
    let mut r = SearchRequest::new("shared things");
    r.provider = Some(ProviderChoice::Many(vec!["brave".into(), "searxng".into()]));
    let answer = service
        .web_search(&r, CallOptions::default())
        .await
        .unwrap();
    assert_eq!(answer.search_engine, "brave+searxng");
    let urls: Vec<&str> = answer.results.iter().map(|r| r.url.as_str()).collect();
    assert_eq!(
        urls,
        [
            "https://shared.example/page",
            "https://one.example/",
            "https://two.example/"
        ]
    );
    assert_eq!(answer.results[0].providers, ["brave", "searxng"]);
    assert_eq!(answer.results[1].providers, ["brave"]);
    assert_eq!(answer.results[2].providers, ["searxng"]);
    assert!(answer.results[0].score > answer.results[1].score);
}

#[tokio::test]
async fn fusion_survives_a_failing_provider() {
    let dir = tempfile::tempdir().unwrap();
    let b = brave(401, serde_json::json!({})).await;
    let s = searxng(200, searxng_body(&[("A", "https://a.example/", "a")])).await;
    let cfg = search_config(
        dir.path(),
        &[("brave", &b.uri()), ("searxng", &s.uri())],
        "",
    );
    let service = Service::new(cfg).unwrap();
    let mut r = SearchRequest::new("some query");
    r.provider = Some(ProviderChoice::One("brave,searxng".into()));
    let answer = service
        .web_search(&r, CallOptions::default())
        .await
        .unwrap();
    assert_eq!(answer.search_engine, "searxng");
    assert_eq!(answer.results.len(), 1);
    assert_eq!(answer.results[0].providers, ["searxng"]);
    assert_eq!(answer.attempts.len(), 1);
    assert_eq!(answer.attempts[0].provider, "brave");
}

#[tokio::test]
async fn deep_search_reads_pages_and_keeps_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let pages = Pages::start().await;
    let (p1, p2, p3) = (pages.url("/p1"), pages.url("/p2"), pages.url("/p3"));
    let b = brave(
        200,
        brave_body(&[
            ("One", &p1, "first"),
            ("Two", &p2, "second"),
            ("Three", &p3, "third"),
        ]),
    )
    .await;
    let service = Service::new(search_config(dir.path(), &[("brave", &b.uri())], "")).unwrap();
    let answer = service
        .web_search(&deep(QUESTION, 600), CallOptions::default())
        .await
        .unwrap();
    let mut total = 0;
    for r in &answer.results {
        let content = r
            .content
            .as_deref()
            .unwrap_or_else(|| panic!("no content: {r:?}"));
        assert!(content.contains(ANSWER), "{content}");
        assert!(content.contains("[…]"), "{content}");
        assert!(r.content_error.is_none());
        total += estimate_tokens(content);
    }
    assert!(total <= 600, "{total}");
    assert_eq!(answer.content_tokens, Some(total));
    // A whole page is far more than its share: the budget did the cutting.
    assert!(estimate_tokens(&page_html("Harbour", 7)) > 600);
}

#[tokio::test]
async fn a_page_that_fails_keeps_its_snippet_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let pages = Pages::start().await;
    let (p1, missing) = (pages.url("/p1"), pages.url("/missing"));
    let b = brave(
        200,
        brave_body(&[
            ("One", &p1, "first"),
            ("Gone", &missing, "the snippet stays"),
        ]),
    )
    .await;
    let service = Service::new(search_config(dir.path(), &[("brave", &b.uri())], "")).unwrap();
    let mut r = SearchRequest::new(QUESTION);
    r.include_content = true;
    let answer = service
        .web_search(&r, CallOptions::default())
        .await
        .unwrap();
    assert!(
        answer.results[0]
            .content
            .as_deref()
            .unwrap()
            .contains(ANSWER)
    );
    let gone = &answer.results[1];
    assert_eq!(gone.content, None);
    assert_eq!(gone.content_error, Some(ErrorKind::HttpStatus));
    assert_eq!(gone.snippet, "the snippet stays");
}

#[tokio::test]
async fn a_page_that_never_answers_is_dropped_at_the_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let pages = Pages::start().await;
    let urls: Vec<String> = ["/p1", "/hang", "/p2", "/p3", "/p4"]
        .iter()
        .map(|p| pages.url(p))
        .collect();
    let results: Vec<(&str, &str, &str)> = urls
        .iter()
        .map(|u| ("Page", u.as_str(), "snippet"))
        .collect();
    let b = brave(200, brave_body(&results)).await;
    let cfg = search_config(
        dir.path(),
        &[("brave", &b.uri())],
        "deep_timeout_seconds = 2",
    );
    let service = Service::new(cfg).unwrap();
    let started = Instant::now();
    let answer = service
        .web_search(&deep(QUESTION, 2000), CallOptions::default())
        .await
        .unwrap();
    let elapsed = started.elapsed();
    // The hanging page would take 120 s; the deadline is 2 s.
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
    assert_eq!(pages.hits("/hang"), 1);
    let hang = &answer.results[1];
    assert_eq!(hang.content_error, Some(ErrorKind::Timeout), "{hang:?}");
    assert_eq!(hang.snippet, "snippet");
    for i in [0, 2, 3, 4] {
        assert!(
            answer.results[i]
                .content
                .as_deref()
                .unwrap_or("")
                .contains(ANSWER),
            "{:?}",
            answer.results[i]
        );
    }
}

#[tokio::test]
async fn provider_content_is_ranked_instead_of_fetched() {
    let dir = tempfile::tempdir().unwrap();
    let pages = Pages::start().await;
    let url = pages.url("/p1");
    let text = (0..60)
        .map(|i| format!("Filler paragraph {i} about the ferry timetable and the market."))
        .chain(["The keeper lights the lamp at dusk, every single day.".to_owned()])
        .collect::<Vec<_>>()
        .join("\n\n");
    let j = jina(&[("Jina page", &url, "desc", &text)]).await;
    let service = Service::new(search_config(dir.path(), &[("jina", &j.uri())], "")).unwrap();
    let mut r = deep(QUESTION, 200);
    r.provider = Some(ProviderChoice::One("jina".into()));
    let answer = service
        .web_search(&r, CallOptions::default())
        .await
        .unwrap();
    let content = answer.results[0].content.as_deref().unwrap();
    assert!(content.contains(ANSWER), "{content}");
    assert!(estimate_tokens(content) <= 200);
    assert_eq!(pages.hits("/p1"), 0, "the page was fetched");
}

#[tokio::test]
async fn web_fetch_focus_returns_the_answer_within_max_length() {
    let dir = tempfile::tempdir().unwrap();
    let pages = Pages::start().await;
    let service = Service::new(search_config(dir.path(), &[], "")).unwrap();
    let mut r = FetchRequest::new(pages.url("/p3"));
    r.max_length = 600;
    r.focus = Some(QUESTION.to_owned());
    let answer = service.web_fetch(&r, CallOptions::default()).await;
    let content = answer.content.as_deref().unwrap();
    assert!(content.contains(ANSWER), "{content}");
    assert!(content.chars().count() <= 600);
    assert_eq!(answer.truncated, Some(true));
    assert_eq!(answer.next_start_index, None);
    assert!(answer.content_length.unwrap() > 600);

    // Without focus, the first window does not reach the answer (paragraph 21).
    r.focus = None;
    let plain = service.web_fetch(&r, CallOptions::default()).await;
    assert!(!plain.content.as_deref().unwrap().contains(ANSWER));
}

#[tokio::test]
async fn search_disabled_answers_not_configured() {
    let dir = tempfile::tempdir().unwrap();
    let service = Service::new(search_config(dir.path(), &[], "enabled = false")).unwrap();
    assert!(!service.search_enabled());
    let err = service
        .web_search(&SearchRequest::new("rust"), CallOptions::default())
        .await
        .unwrap_err();
    assert!(err.message().contains("disabled"));
}
