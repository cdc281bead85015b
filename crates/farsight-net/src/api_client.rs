//! The HTTP client for search provider APIs.
//!
//! Provider endpoints are configured by the user (a SearXNG on the LAN, a proxy),
//! so they do not go through the private-network guard that web pages do; they
//! do get the same TLS stack, no system proxy, and firm timeouts.

use std::time::Duration;

/// Builds a client for provider APIs: rustls with ring, no system proxy, the
/// given `User-Agent`, a total `timeout` and a connect timeout of at most 10 s.
///
/// # Errors
///
/// Fails only if the TLS backend cannot be initialised.
pub fn api_client(user_agent: &str, timeout: Duration) -> Result<reqwest::Client, reqwest::Error> {
    reqwest::Client::builder()
        .tls_backend_preconfigured(crate::tls::client_config())
        .no_proxy()
        // A name without an answer then reads "could not resolve HOST (no DNS
        // answer)" (see `unresolved_host`), not hyper's error chain.
        .dns_resolver(crate::resolver::PlainResolver)
        .user_agent(user_agent)
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(10)))
        .build()
}
