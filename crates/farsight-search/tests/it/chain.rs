//! The default chain and the attempts a failed search carries.

use std::sync::Arc;

use farsight_search::testing::{MockProvider, raw_result};
use farsight_search::{ErrorKind, ProviderChoice, SearchRequest, SearchService};

fn tried(attempts: &[farsight_search::Attempt]) -> Vec<(&str, ErrorKind)> {
    attempts
        .iter()
        .map(|a| (a.provider.as_str(), a.error_kind))
        .collect()
}

#[tokio::test]
async fn the_default_chain_is_a_subset_and_any_provider_can_still_be_named() {
    let a = Arc::new(
        MockProvider::new("a").respond("qq", vec![raw_result("A", "https://a.example.com/", "s")]),
    );
    let b = Arc::new(
        MockProvider::new("b").respond("qq", vec![raw_result("B", "https://b.example.com/", "s")]),
    );
    let c = Arc::new(MockProvider::new("c").fail_with("qq", ErrorKind::QuotaExceeded));
    let s = SearchService::builder()
        .providers([a.clone() as _, b.clone() as _, c.clone() as _])
        .default_chain(["C", "a", "nope", "c"])
        .build()
        .expect("service");
    assert_eq!(s.provider_names(), ["a", "b", "c"]);
    assert_eq!(s.default_chain(), ["c", "a"]);

    let r = s.search(SearchRequest::new("qq")).await.expect("a answers");
    assert_eq!(r.search_engine, "a");
    assert_eq!(tried(&r.attempts), [("c", ErrorKind::QuotaExceeded)]);
    assert_eq!(b.request_count(), 0, "b is not in the default chain");

    let r = s
        .search(SearchRequest {
            provider: Some(ProviderChoice::One("b".into())),
            ..SearchRequest::new("qq")
        })
        .await
        .expect("b asked by name");
    assert_eq!(r.search_engine, "b");
    assert!(r.attempts.is_empty());
    assert_eq!(b.request_count(), 1);
}

#[tokio::test]
async fn without_a_default_chain_every_provider_is_asked_in_order() {
    let s = SearchService::builder()
        .provider(Arc::new(MockProvider::new("x")))
        .provider(Arc::new(MockProvider::new("y")))
        .build()
        .expect("service");
    assert_eq!(s.default_chain(), ["x", "y"]);
}

#[tokio::test]
async fn a_default_chain_naming_nothing_built_says_what_is_configured() {
    let s = SearchService::builder()
        .provider(Arc::new(MockProvider::new("x")))
        .default_chain(["nope"])
        .build()
        .expect("service");
    let e = s
        .search(SearchRequest::new("qq"))
        .await
        .expect_err("empty chain");
    assert_eq!(e.kind(), ErrorKind::NotConfigured);
    assert!(e.suggestion().unwrap_or("").contains('x'), "{e:?}");
}

#[tokio::test]
async fn a_fully_failed_search_carries_every_attempt() {
    let a = Arc::new(MockProvider::new("a").fail_with("qq", ErrorKind::AuthenticationFailed));
    let b = Arc::new(MockProvider::new("b").fail_with("qq", ErrorKind::QuotaExceeded));
    let s = SearchService::builder()
        .providers([a as _, b as _])
        .build()
        .expect("service");
    let e = s.search(SearchRequest::new("qq")).await.expect_err("fails");
    assert_eq!(
        tried(e.attempts()),
        [
            ("a", ErrorKind::AuthenticationFailed),
            ("b", ErrorKind::QuotaExceeded)
        ]
    );
    assert_eq!(e.provider(), None, "several providers failed");

    // Named alone, a provider's failure is its own, with no attempt list.
    let e = s
        .search(SearchRequest {
            provider: Some(ProviderChoice::One("b".into())),
            ..SearchRequest::new("qq")
        })
        .await
        .expect_err("fails");
    assert_eq!(e.kind(), ErrorKind::QuotaExceeded);
    assert_eq!(e.provider(), Some("b"));
    assert!(e.attempts().is_empty());
}

#[tokio::test]
async fn a_one_provider_chain_failure_names_it_and_lists_it() {
    let s = SearchService::builder()
        .provider(Arc::new(
            MockProvider::new("a").fail_with("qq", ErrorKind::AuthenticationFailed),
        ))
        .build()
        .expect("service");
    let e = s.search(SearchRequest::new("qq")).await.expect_err("fails");
    assert_eq!(e.provider(), Some("a"));
    assert_eq!(
        tried(e.attempts()),
        [("a", ErrorKind::AuthenticationFailed)]
    );
}

#[tokio::test]
async fn an_invalid_query_after_failures_carries_the_attempts_so_far() {
    let a = Arc::new(MockProvider::new("a").fail_with("qq", ErrorKind::AuthenticationFailed));
    let b = Arc::new(MockProvider::new("b").fail_with("qq", ErrorKind::InvalidQuery));
    let c = Arc::new(MockProvider::new("c"));
    let s = SearchService::builder()
        .providers([a as _, b as _, c.clone() as _])
        .build()
        .expect("service");
    let e = s
        .search(SearchRequest::new("qq"))
        .await
        .expect_err("invalid");
    assert_eq!(e.kind(), ErrorKind::InvalidQuery);
    assert_eq!(
        tried(e.attempts()),
        [("a", ErrorKind::AuthenticationFailed)]
    );
    assert_eq!(c.request_count(), 0);
}
