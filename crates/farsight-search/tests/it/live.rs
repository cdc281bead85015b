//! Searches against the real services, only when their keys are in the
//! environment; otherwise each test says it was skipped.

use std::time::Duration;

use farsight_search::{ProviderSettings, SearchRequest, SearchService, build_provider};

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

async fn live(name: &str, settings: Option<ProviderSettings>) {
    let Some(settings) = settings else {
        eprintln!(
            "skipped: live {name} test (set {} to run it)",
            farsight_search::provider_env_vars(name).join(" and ")
        );
        return;
    };
    let client = farsight_net::api_client(
        "farsight-live-test/0.1",
        Duration::from_secs(20),
        None,
        &farsight_net::TlsTrust::default(),
    )
    .expect("client");
    let provider = build_provider(name, &settings, client).expect("provider builds");
    let service = SearchService::builder()
        .provider(provider)
        .build()
        .expect("service");
    let answer = service
        .search(SearchRequest {
            max_results: Some(3),
            ..SearchRequest::new("rust programming language")
        })
        .await
        .unwrap_or_else(|e| panic!("live {name} search failed: {e}"));
    assert_eq!(answer.search_engine, name);
    assert!(!answer.results.is_empty(), "live {name}: no results");
    for r in &answer.results {
        assert!(r.url.starts_with("http"), "{r:?}");
        assert!(!r.domain.is_empty(), "{r:?}");
    }
}

fn keyed(var: &str) -> Option<ProviderSettings> {
    env(var).map(|key| ProviderSettings {
        api_key: Some(key),
        ..ProviderSettings::default()
    })
}

#[tokio::test]
async fn live_brave() {
    live("brave", keyed("BRAVE_API_KEY")).await;
}

#[tokio::test]
async fn live_tavily() {
    live("tavily", keyed("TAVILY_API_KEY")).await;
}

#[tokio::test]
async fn live_serper() {
    live("serper", keyed("SERPER_API_KEY")).await;
}

#[tokio::test]
async fn live_google() {
    let settings = env("GOOGLE_SEARCH_API_KEY")
        .zip(env("GOOGLE_SEARCH_ENGINE_ID"))
        .map(|(key, cx)| ProviderSettings {
            api_key: Some(key),
            engine_id: Some(cx),
            ..ProviderSettings::default()
        });
    live("google", settings).await;
}

#[tokio::test]
async fn live_searxng() {
    let settings = env("SEARXNG_URL").map(|url| ProviderSettings {
        base_url: Some(url),
        ..ProviderSettings::default()
    });
    live("searxng", settings).await;
}
