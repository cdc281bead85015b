//! The HTTP client for search provider APIs.
//!
//! Provider endpoints are configured by the user (a SearXNG on the LAN, a proxy),
//! so they do not go through the private-network guard that web pages do; they
//! do get the same TLS stack, no system proxy, and firm timeouts.
//!
//! Requests carry API keys in headers (`X-Subscription-Token`, `X-API-KEY`)
//! or the query (Google's `key`). reqwest strips only its own sensitive
//! headers on a redirect to another host and sends a `Referer` holding the
//! previous URL, so a provider answering with a redirect could hand the key
//! to any host. Here a redirect is followed only within the same origin
//! (scheme, host and port), a few times at most, and no `Referer` is ever sent.

use std::time::Duration;

/// Redirects a provider call may follow, all within its own origin.
const MAX_SAME_ORIGIN_REDIRECTS: usize = 5;

/// Builds a client for provider APIs: rustls with ring, no system proxy, the
/// given `User-Agent`, a total `timeout` and a connect timeout of at most 10 s;
/// redirects only within the same origin, no `Referer`.
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
        .referer(false)
        .redirect(reqwest::redirect::Policy::custom(same_origin_only))
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(10)))
        .build()
}

/// Follows a redirect only to the origin of the request that got it; anything
/// else ends the call with an error naming the refused origin (never the URL:
/// it may carry a key).
fn same_origin_only(attempt: reqwest::redirect::Attempt<'_>) -> reqwest::redirect::Action {
    let Some(previous) = attempt.previous().last() else {
        return attempt.stop();
    };
    if attempt.previous().len() > MAX_SAME_ORIGIN_REDIRECTS {
        return attempt.error("the search provider redirected too many times");
    }
    if attempt.url().origin() == previous.origin() {
        return attempt.follow();
    }
    let refused = attempt.url().origin().ascii_serialization();
    attempt.error(format!(
        "the search provider redirected to another origin ({refused}); not followed, so its API key stays with it"
    ))
}
