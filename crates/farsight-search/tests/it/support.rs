//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use farsight_search::{
    Provider, ProviderSettings, RateLimit, RetryPolicy, SearchService, build_provider,
};
use wiremock::MockServer;

/// A fixture from `tests/fixtures/<provider>/<name>`.
pub fn fixture(provider: &str, name: &str) -> String {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "fixtures",
        provider,
        name,
    ]
    .iter()
    .collect();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The HTTP client providers get in the application.
pub fn client() -> reqwest::Client {
    client_with("farsight-test/0.1", Duration::from_secs(5))
}

/// The same client for the live tests (`FARSIGHT_LIVE_TESTS`): real
/// providers take longer than a mock.
pub fn live_client() -> reqwest::Client {
    client_with("farsight-live-test", Duration::from_secs(30))
}

fn client_with(user_agent: &str, timeout: Duration) -> reqwest::Client {
    farsight_net::api_client(
        user_agent,
        timeout,
        None,
        &farsight_net::TlsTrust::default(),
    )
    .expect("client")
}

/// Settings pointing `name` at the mock server.
pub fn settings(server: &MockServer, api_key: Option<&str>) -> ProviderSettings {
    ProviderSettings {
        api_key: api_key.map(str::to_owned),
        base_url: Some(server.uri()),
        ..ProviderSettings::default()
    }
}

/// The provider `name` built as the application builds it.
pub fn provider(name: &str, settings: &ProviderSettings) -> Arc<dyn Provider> {
    build_provider(name, settings, client()).expect("provider builds")
}

/// A service around one provider, without retries or rate limits, so each
/// test sees exactly one request per search.
pub fn single(provider: Arc<dyn Provider>) -> SearchService {
    let name = provider.name();
    SearchService::builder()
        .provider(provider)
        .retry_policy(name, RetryPolicy::none())
        .rate_limit(name, RateLimit::new(1000.0, 100))
        .build()
        .expect("service builds")
}
