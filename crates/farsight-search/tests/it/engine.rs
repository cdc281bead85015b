//! The engine around providers, driven through the public `MockProvider`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use farsight_search::testing::{MockProvider, raw_result, simulated_error};
use farsight_search::{
    ErrorKind, ProviderAnswer, ProviderChoice, RateLimit, RawResult, RetryPolicy, SearchCache,
    SearchRequest, SearchService,
};
use tokio::time::Instant;

fn service(providers: Vec<Arc<MockProvider>>) -> SearchService {
    let mut b = SearchService::builder();
    for p in providers {
        b = b.provider(p);
    }
    b.build().expect("service")
}

fn results(n: usize) -> Vec<RawResult> {
    (0..n)
        .map(|i| {
            raw_result(
                &format!("R{i}"),
                &format!("https://site{i}.example.com/p"),
                "s",
            )
        })
        .collect()
}

#[tokio::test]
async fn queries_are_validated_before_any_provider() {
    let mock = Arc::new(MockProvider::new("mock"));
    let s = service(vec![mock.clone()]);
    for q in ["", " a ", &"x".repeat(401)] {
        let e = s.search(SearchRequest::new(q)).await.expect_err("invalid");
        assert_eq!(e.kind(), ErrorKind::InvalidQuery, "{q:?}");
        assert!(e.suggestion().is_some());
    }
    let e = s
        .search(SearchRequest {
            include_domains: vec!["not a domain".into()],
            ..SearchRequest::new("ok query")
        })
        .await
        .expect_err("bad domain");
    assert_eq!(e.kind(), ErrorKind::InvalidQuery);
    assert_eq!(mock.request_count(), 0);
    assert!(
        s.search(SearchRequest::new("ok")).await.is_ok(),
        "2 chars is enough"
    );
    assert!(s.search(SearchRequest::new("x".repeat(400))).await.is_ok());
}

#[tokio::test]
async fn max_results_defaults_to_5_caps_at_20_and_clamps_to_the_provider() {
    let wide = Arc::new(MockProvider::new("wide").otherwise(
        farsight_search::testing::MockReply::Answer(ProviderAnswer {
            images: Vec::new(),
            results: results(30),
            ..ProviderAnswer::default()
        }),
    ));
    let s = service(vec![wide.clone()]);
    let a = s.search(SearchRequest::new("query one")).await.expect("ok");
    assert_eq!(a.results.len(), 5);
    let a = s
        .search(SearchRequest {
            max_results: Some(50),
            ..SearchRequest::new("query two")
        })
        .await
        .expect("ok");
    assert_eq!(a.results.len(), 20);
    let counts: Vec<u32> = wide.requests().iter().map(|r| r.count).collect();
    assert_eq!(counts, [5, 20]);

    let narrow = Arc::new(MockProvider::new("narrow").with_max_results(10));
    let s = service(vec![narrow.clone()]);
    s.search(SearchRequest {
        max_results: Some(20),
        ..SearchRequest::new("q3")
    })
    .await
    .expect("ok");
    assert_eq!(narrow.requests()[0].count, 10);
}

#[tokio::test]
async fn duplicates_are_removed_by_normalised_url() {
    let mock = Arc::new(MockProvider::new("mock").respond(
        "dupes",
        vec![
            raw_result("A", "https://Example.com/page?id=1&utm_source=x", "first"),
            raw_result("A again", "https://example.com/page/?id=1#section", "dup"),
            raw_result(
                "A tracked",
                "http://www.example.com/page?id=1&fbclid=zz&gclid=y",
                "dup",
            ),
            raw_result("B", "https://example.com/page?id=2", "other"),
            raw_result("bad", "javascript:alert(1)", "dropped"),
            raw_result("bad2", "not a url", "dropped"),
        ],
    ));
    let a = service(vec![mock])
        .search(SearchRequest::new("dupes"))
        .await
        .expect("ok");
    let titles: Vec<&str> = a.results.iter().map(|r| r.title.as_str()).collect();
    assert_eq!(titles, ["A", "B"]);
}

#[tokio::test]
async fn domain_filters_are_applied_to_results_whatever_the_provider_did() {
    let mock = Arc::new(MockProvider::new("mock").otherwise(
        farsight_search::testing::MockReply::Answer(ProviderAnswer {
            images: Vec::new(),
            results: vec![
                raw_result("docs", "https://doc.rust-lang.org/std/", "s"),
                raw_result("root", "https://rust-lang.org/", "s"),
                raw_result("blog", "https://blog.rust-lang.org/x", "s"),
                raw_result("lookalike", "https://evilrust-lang.org/", "s"),
                raw_result("other", "https://docs.rs/tokio", "s"),
                raw_result("spam", "https://www.reddit.com/r/rust", "s"),
            ],
            ..ProviderAnswer::default()
        }),
    ));
    let s = service(vec![mock.clone()]);
    let titles = |a: &farsight_search::SearchResponse| {
        a.results
            .iter()
            .map(|r| r.title.clone())
            .collect::<Vec<_>>()
    };
    let a = s
        .search(SearchRequest {
            include_domains: vec!["https://www.rust-lang.org/".into()],
            exclude_domains: vec!["blog.rust-lang.org".into()],
            max_results: Some(10),
            ..SearchRequest::new("q include")
        })
        .await
        .expect("ok");
    assert_eq!(titles(&a), ["docs", "root"]);
    let a = s
        .search(SearchRequest {
            exclude_domains: vec!["reddit.com".into(), "rust-lang.org".into()],
            max_results: Some(10),
            ..SearchRequest::new("q exclude")
        })
        .await
        .expect("ok");
    assert_eq!(titles(&a), ["lookalike", "other"]);
    let a = s
        .search(SearchRequest {
            site: Some("docs.rs".into()),
            ..SearchRequest::new("q site")
        })
        .await
        .expect("ok");
    assert_eq!(titles(&a), ["other"]);
    let sent = mock.requests();
    assert_eq!(sent[0].include_domains, ["rust-lang.org"]);
    assert_eq!(sent[0].exclude_domains, ["blog.rust-lang.org"]);
    assert_eq!(sent[2].site.as_deref(), Some("docs.rs"));
}

#[tokio::test]
async fn results_are_clean_text_with_short_snippets_domains_and_dates() {
    let long = "word ".repeat(100);
    let mock = Arc::new(MockProvider::new("mock").respond(
        "clean",
        vec![
            RawResult {
                title: "<b>Bold</b> &amp; <em>brave</em>&nbsp;title".into(),
                url: "https://news.bbc.co.uk/a".into(),
                snippet: format!("<p>{long}</p>"),
                date: Some("Thu, 24 Aug 2023 10:00:00 GMT".into()),
                score: Some(0.87),
                content: None,
            },
            RawResult {
                title: "".into(),
                url: "https://docs.rs/x".into(),
                snippet: "Vec&lt;T&gt; docs".into(),
                date: Some("Aug 24, 2023".into()),
                ..RawResult::default()
            },
            RawResult {
                title: "t".into(),
                url: "https://c.example/".into(),
                date: Some("not a date".into()),
                ..RawResult::default()
            },
        ],
    ));
    let a = service(vec![mock])
        .search(SearchRequest::new("clean"))
        .await
        .expect("ok");
    let r = &a.results;
    assert_eq!(r[0].title, "Bold & brave title");
    assert!(
        r[0].snippet.chars().count() <= 200 && r[0].snippet.ends_with("word…"),
        "{}",
        r[0].snippet
    );
    assert_eq!(r[0].domain, "bbc.co.uk");
    assert_eq!(r[0].date_published.as_deref(), Some("2023-08-24"));
    assert_eq!(r[0].score, Some(0.87));
    assert_eq!(
        r[1].title, "docs.rs",
        "an empty title falls back to the domain"
    );
    assert_eq!(r[1].snippet, "Vec<T> docs");
    assert_eq!(r[1].date_published.as_deref(), Some("2023-08-24"));
    assert_eq!(r[2].date_published, None);
}

#[tokio::test]
async fn response_json_has_the_contract_shape() {
    let mock = Arc::new(MockProvider::new("second").respond_answer(
        "shape",
        ProviderAnswer {
            images: Vec::new(),
            results: vec![raw_result("T", "https://a.example/", "s")],
            total_results: Some(1234),
            unapplied_filters: vec!["safeSearch"],
        },
    ));
    let first =
        Arc::new(MockProvider::new("first").fail_with("shape", ErrorKind::AuthenticationFailed));
    let a = service(vec![first, mock])
        .search(SearchRequest::new("shape"))
        .await
        .expect("ok");
    let json = serde_json::to_value(&a).expect("json");
    assert_eq!(json["query"], "shape");
    assert_eq!(json["totalResults"], 1234);
    assert_eq!(json["searchEngine"], "second");
    assert!(json["searchTime"].is_number() && json["responseTimeMs"].is_number());
    assert_eq!(json["results"][0]["domain"], "a.example");
    // Unknown dates are left out, as every other absent field.
    assert!(json["results"][0].get("datePublished").is_none());
    assert!(json["results"][0].get("score").is_none());
    assert_eq!(json["attempts"][0]["provider"], "first");
    assert_eq!(json["attempts"][0]["errorKind"], "authenticationFailed");
    assert_eq!(json["unappliedFilters"][0], "safeSearch");
    assert!(json.get("suggestion").is_none());
}

#[tokio::test]
async fn request_accepts_the_documented_aliases() {
    let r: SearchRequest = serde_json::from_value(serde_json::json!({
        "query": "qq", "num": 3, "allowed_domains": ["a.com"], "blocked_domains": ["b.com"],
        "date_range": "week", "safe_search": false, "topic": "news", "depth": "deep"
    }))
    .expect("aliases");
    assert_eq!(r.max_results, Some(3));
    assert_eq!(r.include_domains, ["a.com"]);
    assert_eq!(r.exclude_domains, ["b.com"]);
    assert_eq!(r.date_range, Some(farsight_search::DateRange::Week));
    assert_eq!(r.depth, farsight_search::SearchDepth::Deep);
    let r: SearchRequest = serde_json::from_value(serde_json::json!({
        "query": "qq", "maxResults": 4, "includeDomains": ["a.com"], "excludeDomains": [],
        "dateRange": "day", "safeSearch": true, "searchDepth": "basic"
    }))
    .expect("canonical");
    assert_eq!(r.max_results, Some(4));
}

// --- retries (paused time: sleeps complete at once, but tokio's clock moves) ---

#[tokio::test(start_paused = true)]
async fn rate_limited_waits_for_retry_after_then_retries() {
    let mock = Arc::new(
        MockProvider::new("mock")
            .fail(
                "qq",
                simulated_error("mock", ErrorKind::RateLimited, Some(2_000)),
            )
            .respond("qq", results(1)),
    );
    let started = Instant::now();
    let a = service(vec![mock.clone()])
        .search(SearchRequest::new("qq"))
        .await
        .expect("ok");
    assert_eq!(a.results.len(), 1);
    assert_eq!(mock.request_count(), 2);
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(a.attempts.is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_long_retry_after_moves_on_to_the_next_provider() {
    let slow = Arc::new(MockProvider::new("slow").fail(
        "qq",
        simulated_error("slow", ErrorKind::RateLimited, Some(60_000)),
    ));
    let next = Arc::new(MockProvider::new("next").respond("qq", results(1)));
    let started = Instant::now();
    let a = service(vec![slow.clone(), next])
        .search(SearchRequest::new("qq"))
        .await
        .expect("ok");
    assert_eq!(slow.request_count(), 1);
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(a.search_engine, "next");
    assert_eq!(a.attempts[0].error_kind, ErrorKind::RateLimited);
}

#[tokio::test(start_paused = true)]
async fn unavailable_backs_off_exponentially_for_three_attempts() {
    let down = Arc::new(MockProvider::new("down").fail_with("qq", ErrorKind::ServiceUnavailable));
    let next = Arc::new(MockProvider::new("next").respond("qq", results(1)));
    let started = Instant::now();
    let a = service(vec![down.clone(), next])
        .search(SearchRequest::new("qq"))
        .await
        .expect("ok");
    assert_eq!(down.request_count(), 3);
    // 500 ms, then 1 s.
    assert_eq!(
        started.elapsed().as_millis() / 100,
        15,
        "{:?}",
        started.elapsed()
    );
    assert_eq!(a.search_engine, "next");
    assert_eq!(a.attempts.len(), 1);
}

#[tokio::test(start_paused = true)]
async fn unavailable_then_recovered_is_answered_by_the_same_provider() {
    let flaky = Arc::new(
        MockProvider::new("flaky")
            .fail_with("qq", ErrorKind::ServiceUnavailable)
            .fail_with("qq", ErrorKind::ServiceUnavailable)
            .respond("qq", results(2)),
    );
    let a = service(vec![flaky.clone()])
        .search(SearchRequest::new("qq"))
        .await
        .expect("ok");
    assert_eq!(flaky.request_count(), 3);
    assert_eq!(a.results.len(), 2);
}

#[tokio::test(start_paused = true)]
async fn timeout_is_retried_once() {
    let slow = Arc::new(MockProvider::new("slow").fail_with("qq", ErrorKind::Timeout));
    let e = service(vec![slow.clone()])
        .search(SearchRequest::new("qq"))
        .await
        .expect_err("fails");
    assert_eq!(slow.request_count(), 2);
    assert_eq!(e.kind(), ErrorKind::Timeout);
}

#[tokio::test(start_paused = true)]
async fn authentication_and_quota_are_never_retried() {
    for kind in [
        ErrorKind::AuthenticationFailed,
        ErrorKind::QuotaExceeded,
        ErrorKind::Unknown,
    ] {
        let p = Arc::new(MockProvider::new("p").fail_with("qq", kind));
        let e = service(vec![p.clone()])
            .search(SearchRequest::new("qq"))
            .await
            .expect_err("fails");
        assert_eq!(p.request_count(), 1, "{kind}");
        assert_eq!(e.kind(), kind);
    }
}

#[tokio::test(start_paused = true)]
async fn invalid_query_is_not_passed_to_the_next_provider() {
    let first = Arc::new(MockProvider::new("first").fail_with("qq", ErrorKind::InvalidQuery));
    let second = Arc::new(MockProvider::new("second").respond("qq", results(1)));
    let e = service(vec![first.clone(), second.clone()])
        .search(SearchRequest::new("qq"))
        .await
        .expect_err("invalid");
    assert_eq!(e.kind(), ErrorKind::InvalidQuery);
    assert_eq!(first.request_count(), 1);
    assert_eq!(second.request_count(), 0);
}

#[tokio::test(start_paused = true)]
async fn google_rules_retry_network_errors_once_and_429_never() {
    let g = Arc::new(
        MockProvider::new("google")
            .with_retry_policy(RetryPolicy::google())
            .fail_with("limited", ErrorKind::RateLimited)
            .fail_with("down", ErrorKind::ServiceUnavailable),
    );
    let s = service(vec![g.clone()]);
    s.search(SearchRequest::new("limited"))
        .await
        .expect_err("429");
    assert_eq!(g.request_count(), 1);
    s.search(SearchRequest::new("down")).await.expect_err("5xx");
    assert_eq!(g.request_count(), 3);
    // The real adapter carries the same policy.
    let real = farsight_search::build_provider(
        "google",
        &farsight_search::ProviderSettings {
            api_key: Some("k".into()),
            engine_id: Some("cx".into()),
            ..Default::default()
        },
        crate::support::client(),
    )
    .expect("google builds");
    assert_eq!(real.retry_policy(), RetryPolicy::google());
}

#[tokio::test(start_paused = true)]
async fn retry_policy_can_be_overridden_per_provider() {
    let g = Arc::new(
        MockProvider::new("google")
            .with_retry_policy(RetryPolicy::google())
            .fail_with("qq", ErrorKind::RateLimited)
            .respond("qq", results(1)),
    );
    let s = SearchService::builder()
        .provider(g.clone())
        .retry_policy("google", RetryPolicy::google().with_rate_limited_retries(1))
        .build()
        .expect("service");
    s.search(SearchRequest::new("qq"))
        .await
        .expect("retried once");
    assert_eq!(g.request_count(), 2);
}

// --- the chain ---

#[tokio::test]
async fn fallback_names_the_answering_provider_and_the_failed_attempts() {
    let a = Arc::new(MockProvider::new("a").fail_with("qq", ErrorKind::AuthenticationFailed));
    let b = Arc::new(MockProvider::new("b").fail_with("qq", ErrorKind::QuotaExceeded));
    let c = Arc::new(MockProvider::new("c").respond("qq", results(1)));
    let r = service(vec![a, b, c])
        .search(SearchRequest::new("qq"))
        .await
        .expect("ok");
    assert_eq!(r.search_engine, "c");
    let tried: Vec<(String, ErrorKind)> = r
        .attempts
        .iter()
        .map(|a| (a.provider.clone(), a.error_kind))
        .collect();
    assert_eq!(
        tried,
        [
            ("a".to_owned(), ErrorKind::AuthenticationFailed),
            ("b".to_owned(), ErrorKind::QuotaExceeded)
        ]
    );
}

#[tokio::test]
async fn a_fully_failed_search_says_what_each_provider_answered() {
    let a = Arc::new(MockProvider::new("a").fail_with("qq", ErrorKind::AuthenticationFailed));
    let b = Arc::new(MockProvider::new("b").fail_with("qq", ErrorKind::QuotaExceeded));
    let e = service(vec![a, b])
        .search(SearchRequest::new("qq"))
        .await
        .expect_err("fails");
    // One line per provider with what it said; the kinds are in the attempts.
    let lines: Vec<&str> = e.message().lines().collect();
    assert_eq!(lines.len(), 3, "{e}");
    assert!(lines[1].starts_with("- a: "), "{e}");
    assert!(lines[2].starts_with("- b: "), "{e}");
    let kinds: Vec<ErrorKind> = e.attempts().iter().map(|a| a.error_kind).collect();
    assert_eq!(
        kinds,
        [ErrorKind::AuthenticationFailed, ErrorKind::QuotaExceeded]
    );
    assert_eq!(e.kind(), ErrorKind::AuthenticationFailed);
}

#[tokio::test]
async fn an_explicit_provider_is_asked_alone() {
    let a = Arc::new(MockProvider::new("brave").respond("qq", results(1)));
    let b = Arc::new(MockProvider::new("tavily").fail_with("qq", ErrorKind::ServiceUnavailable));
    let s = service(vec![a.clone(), b.clone()]);
    let e = s
        .search(SearchRequest {
            provider: Some(ProviderChoice::One("Tavily".into())),
            ..SearchRequest::new("qq")
        })
        .await
        .expect_err("tavily alone");
    assert_eq!(e.kind(), ErrorKind::ServiceUnavailable);
    assert_eq!(a.request_count(), 0);

    let e = s
        .search(SearchRequest {
            provider: Some(ProviderChoice::One("google".into())),
            ..SearchRequest::new("qq")
        })
        .await
        .expect_err("not built");
    assert_eq!(e.kind(), ErrorKind::NotConfigured);
    assert!(
        e.message().contains("GOOGLE_SEARCH_API_KEY")
            && e.message().contains("GOOGLE_SEARCH_ENGINE_ID"),
        "{e}"
    );

    let e = s
        .search(SearchRequest {
            provider: Some(ProviderChoice::One("bing".into())),
            ..SearchRequest::new("qq")
        })
        .await
        .expect_err("bing");
    assert!(e.message().contains("retired"), "{e}");
    let e = s
        .search(SearchRequest {
            provider: Some(ProviderChoice::One("altavista".into())),
            ..SearchRequest::new("qq")
        })
        .await
        .expect_err("unknown");
    assert_eq!(e.kind(), ErrorKind::NotConfigured);
    assert!(
        e.suggestion().unwrap_or("").contains("brave, tavily"),
        "{e:?}"
    );
}

#[tokio::test]
async fn no_provider_at_all_is_not_configured() {
    let s = SearchService::builder().build().expect("service");
    let e = s.search(SearchRequest::new("qq")).await.expect_err("none");
    assert_eq!(e.kind(), ErrorKind::NotConfigured);
}

// --- rate limits ---

#[tokio::test(start_paused = true)]
async fn parallel_searches_queue_for_the_budget_and_never_burst() {
    let mock = Arc::new(MockProvider::new("mock"));
    let s = SearchService::builder()
        .provider(mock.clone())
        .rate_limit("mock", RateLimit::new(1.0, 1))
        .rate_limit_wait(Duration::from_secs(5))
        .build()
        .expect("service");
    let started = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..4 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            s.search(SearchRequest::new(format!("query {i}")))
                .await
                .map(|_| started.elapsed())
        }));
    }
    let mut times = Vec::new();
    for t in tasks {
        times.push(t.await.expect("task").expect("queued, then answered"));
    }
    times.sort();
    for pair in times.windows(2) {
        assert!(pair[1] - pair[0] >= Duration::from_millis(990), "{times:?}");
    }
    assert_eq!(mock.request_count(), 4);
}

#[tokio::test(start_paused = true)]
async fn the_queue_is_bounded_and_then_fails_rate_limited() {
    let mock = Arc::new(MockProvider::new("mock"));
    let s = SearchService::builder()
        .provider(mock.clone())
        .rate_limit("mock", RateLimit::new(1.0, 1))
        .rate_limit_wait(Duration::from_secs(2))
        .build()
        .expect("service");
    let mut tasks = Vec::new();
    for i in 0..6 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            s.search(SearchRequest::new(format!("query {i}"))).await
        }));
    }
    let mut ok = 0;
    let mut limited = 0;
    for t in tasks {
        match t.await.expect("task") {
            Ok(_) => ok += 1,
            Err(e) => {
                assert_eq!(e.kind(), ErrorKind::RateLimited);
                assert!(e.retry_after_ms().is_some());
                limited += 1;
            }
        }
    }
    // One at once, then one per second for the 2 s the queue waits.
    assert_eq!(ok, 3, "{ok} answered, {limited} refused");
    assert_eq!(limited, 3);
    assert_eq!(mock.request_count(), 3);
}

#[tokio::test]
async fn a_rate_not_above_zero_is_refused_at_build() {
    let e = SearchService::builder()
        .rate_limit("brave", RateLimit::new(0.0, 1))
        .build()
        .expect_err("bad rate");
    assert_eq!(e.kind(), ErrorKind::NotConfigured);
}

// --- cache ---

#[derive(Default)]
struct MemoryCache {
    entries: Mutex<HashMap<String, Vec<u8>>>,
    ttls: Mutex<Vec<Duration>>,
}

#[async_trait::async_trait]
impl SearchCache for MemoryCache {
    async fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.entries.lock().expect("lock").get(key).cloned()
    }
    async fn put(&self, key: &str, value: Vec<u8>, ttl: Duration) {
        self.ttls.lock().expect("lock").push(ttl);
        self.entries
            .lock()
            .expect("lock")
            .insert(key.to_owned(), value);
    }
}

#[tokio::test]
async fn answers_are_cached_by_normalised_request() {
    let mock = Arc::new(MockProvider::new("mock").otherwise(
        farsight_search::testing::MockReply::Answer(ProviderAnswer {
            images: Vec::new(),
            results: results(3),
            ..ProviderAnswer::default()
        }),
    ));
    let cache = Arc::new(MemoryCache::default());
    let s = SearchService::builder()
        .provider(mock.clone())
        .cache(cache.clone())
        .cache_ttl(Duration::from_secs(600))
        .build()
        .expect("service");
    let first = s
        .search(SearchRequest::new("Rust  Async"))
        .await
        .expect("ok");
    let again = s
        .search(SearchRequest::new("rust async"))
        .await
        .expect("ok");
    assert_eq!(mock.request_count(), 1, "same question, one provider call");
    assert_eq!(again.results, first.results);
    assert_eq!(again.query, "rust async");
    assert_eq!(
        cache.ttls.lock().expect("lock")[0],
        Duration::from_secs(600)
    );

    s.search(SearchRequest {
        bypass_cache: true,
        ..SearchRequest::new("rust async")
    })
    .await
    .expect("ok");
    assert_eq!(mock.request_count(), 2, "bypass skips reading");
    s.search(SearchRequest {
        max_results: Some(2),
        ..SearchRequest::new("rust async")
    })
    .await
    .expect("ok");
    s.search(SearchRequest {
        provider: Some(ProviderChoice::One("mock".into())),
        ..SearchRequest::new("rust async")
    })
    .await
    .expect("ok");
    s.search(SearchRequest {
        exclude_domains: vec!["x.com".into()],
        ..SearchRequest::new("rust async")
    })
    .await
    .expect("ok");
    assert_eq!(mock.request_count(), 5, "other options are other keys");
}

#[tokio::test]
async fn failures_are_not_cached() {
    let mock = Arc::new(MockProvider::new("mock").fail_with("qq", ErrorKind::AuthenticationFailed));
    let cache = Arc::new(MemoryCache::default());
    let s = SearchService::builder()
        .provider(mock.clone())
        .cache(cache.clone())
        .build()
        .expect("service");
    s.search(SearchRequest::new("qq")).await.expect_err("fails");
    s.search(SearchRequest::new("qq")).await.expect_err("fails");
    assert_eq!(mock.request_count(), 2);
    assert!(cache.entries.lock().expect("lock").is_empty());
}

#[tokio::test]
async fn safe_search_default_comes_from_the_builder() {
    let mock = Arc::new(MockProvider::new("mock"));
    let on = service(vec![mock.clone()]);
    on.search(SearchRequest::new("q1")).await.expect("ok");
    let off = SearchService::builder()
        .provider(mock.clone())
        .safe_search(false)
        .build()
        .expect("s");
    off.search(SearchRequest::new("q2")).await.expect("ok");
    off.search(SearchRequest {
        safe_search: Some(true),
        ..SearchRequest::new("q3")
    })
    .await
    .expect("ok");
    let safe: Vec<bool> = mock.requests().iter().map(|r| r.safe_search).collect();
    assert_eq!(safe, [true, false, true]);
}

#[tokio::test(start_paused = true)]
async fn a_timeout_is_retried_once_with_twice_the_time() {
    // 20 s: too slow for the first 15 s attempt, in time for the 30 s retry.
    let slow = Arc::new(
        MockProvider::new("slow")
            .with_latency(Duration::from_secs(20))
            .respond("qq", results(1)),
    );
    let s = SearchService::builder()
        .provider(slow.clone())
        .timeout(Duration::from_secs(15))
        .build()
        .expect("service");
    let started = Instant::now();
    let a = s
        .search(SearchRequest::new("qq"))
        .await
        .expect("answered by the retry");
    assert_eq!(a.results.len(), 1);
    assert_eq!(slow.request_count(), 2);
    assert_eq!(started.elapsed().as_secs(), 35);

    let stuck = Arc::new(MockProvider::new("stuck").with_latency(Duration::from_secs(100)));
    let s = SearchService::builder()
        .provider(stuck.clone())
        .timeout(Duration::from_secs(1))
        .build()
        .expect("service");
    let e = s
        .search(SearchRequest::new("qq"))
        .await
        .expect_err("times out twice");
    assert_eq!(e.kind(), ErrorKind::Timeout);
    assert_eq!(e.provider(), Some("stuck"));
    assert_eq!(stuck.request_count(), 2);
}

#[tokio::test]
async fn a_keyless_provider_left_out_of_the_chain_says_so() {
    let s = service(vec![Arc::new(MockProvider::new("brave"))]);
    let e = s
        .search(SearchRequest {
            provider: Some(ProviderChoice::One("wikipedia".into())),
            ..SearchRequest::new("qq")
        })
        .await
        .expect_err("not in chain");
    assert_eq!(e.kind(), ErrorKind::NotConfigured);
    assert!(e.message().contains("chain"), "{e}");
    assert!(
        e.suggestion().unwrap_or("").contains("[search].providers"),
        "{e:?}"
    );
}
