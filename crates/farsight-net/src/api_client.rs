//! The HTTP client for search provider APIs.
//!
//! Provider endpoints are configured by the user (a SearXNG on the LAN, a proxy),
//! so they do not go through the private-network guard that web pages do; they
//! do get the same TLS trust, the user's upstream proxy when there is one
//! (never the system's behind the user's back), and firm timeouts.
//!
//! Requests carry API keys in headers (`X-Subscription-Token`, `X-API-KEY`)
//! or the query (Google's `key`). reqwest strips only its own sensitive
//! headers on a redirect to another host and sends a `Referer` holding the
//! previous URL, so a provider answering with a redirect could hand the key
//! to any host. Here a redirect is followed only within the same origin
//! (scheme, host and port), a few times at most, and no `Referer` is ever sent.

use std::time::Duration;

use crate::tls::TlsTrust;
use crate::upstream_proxy::UpstreamProxy;

/// Redirects a provider call may follow, all within its own origin.
const MAX_SAME_ORIGIN_REDIRECTS: usize = 5;

/// Builds a client for provider APIs: rustls with ring trusting `trust`,
/// requests through `proxy` where [`UpstreamProxy::for_url`] says so (direct
/// otherwise; the system's proxy settings are not read), the given
/// `User-Agent`, a total `timeout` and a connect timeout of at most 10 s;
/// redirects only within the same origin, no `Referer`.
///
/// # Errors
///
/// Fails only if the TLS backend cannot be initialised.
pub fn api_client(
    user_agent: &str,
    timeout: Duration,
    proxy: Option<&UpstreamProxy>,
    trust: &TlsTrust,
) -> Result<reqwest::Client, reqwest::Error> {
    let builder = reqwest::Client::builder().tls_backend_preconfigured(trust.client_config());
    let builder = match proxy {
        Some(proxy) => {
            let decide = proxy.clone();
            builder.proxy(reqwest::Proxy::custom(move |url| {
                decide.for_url(url).cloned()
            }))
        }
        None => builder.no_proxy(),
    };
    builder
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
