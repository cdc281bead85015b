//! What every adapter needs around the HTTP exchange: the endpoint under a
//! configured `base_url`, sending with a body cap, and the common mapping of
//! statuses to error kinds. Adapters handle their own special statuses first
//! (Brave's 422, Tavily's 432/433, Jina's 422 "no results"...) and fall back
//! to [`error_for_status`].

use std::time::SystemTime;

use bytes::Bytes;
use futures_util::StreamExt;
use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use url::Url;

use crate::{ErrorKind, SearchError};

/// Provider answers larger than this are cut off: no search API returns
/// anything close, so a bigger body is a misbehaving proxy.
const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// A provider's answer: status, headers and the (capped) body.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: StatusCode,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Bytes,
}

impl Reply {
    /// The body as text, lossily decoded (providers answer in UTF-8).
    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body parsed as JSON into `T`.
    pub(crate) fn json<T: serde::de::DeserializeOwned>(
        &self,
        provider: &'static str,
    ) -> Result<T, SearchError> {
        serde_json::from_slice(&self.body).map_err(|e| {
            SearchError::new(
                ErrorKind::Unknown,
                format!("could not read the provider's answer: {e}"),
            )
            .with_provider(provider)
            .with_status(self.status.as_u16())
        })
    }
}

/// The documented endpoint, with scheme, host and port replaced by `base_url`
/// when one is configured. A path in `base_url` is kept as a prefix, so a proxy
/// at `https://proxy.example/brave` serves `https://proxy.example/brave/res/v1/...`.
pub(crate) fn endpoint(
    provider: &'static str,
    base_url: Option<&str>,
    documented: &str,
) -> Result<Url, SearchError> {
    let not_configured = |what: String| {
        SearchError::new(ErrorKind::NotConfigured, what)
            .with_provider(provider)
            .with_suggestion(format!(
                "Set providers.{provider}.base_url to an http(s) URL such as https://host:port"
            ))
    };
    let documented = Url::parse(documented)
        .map_err(|e| not_configured(format!("bad documented endpoint {documented}: {e}")))?;
    let Some(base) = base_url.map(str::trim).filter(|b| !b.is_empty()) else {
        return Ok(documented);
    };
    let base = Url::parse(base)
        .map_err(|e| not_configured(format!("base_url {base:?} is not a URL: {e}")))?;
    if !matches!(base.scheme(), "http" | "https") || base.host_str().is_none() {
        return Err(not_configured(format!(
            "base_url {base} must be an http or https URL with a host"
        )));
    }
    let mut url = base.clone();
    let prefix = base.path().trim_end_matches('/');
    url.set_path(&format!("{prefix}{}", documented.path()));
    url.set_query(documented.query());
    url.set_fragment(None);
    Ok(url)
}

/// Sends `request`, reads the body up to a cap, and maps transport failures.
pub(crate) async fn send(
    provider: &'static str,
    request: reqwest::RequestBuilder,
) -> Result<Reply, SearchError> {
    let response = request
        .send()
        .await
        .map_err(|e| transport_error(provider, e))?;
    let status = response.status();
    let headers = response.headers().clone();
    let mut body = Vec::new();
    let mut stream = response.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| transport_error(provider, e))?;
        let room = MAX_BODY_BYTES.saturating_sub(body.len());
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if body.len() >= MAX_BODY_BYTES {
            break;
        }
    }
    Ok(Reply {
        status,
        headers,
        body: Bytes::from(body),
    })
}

fn transport_error(provider: &'static str, error: reqwest::Error) -> SearchError {
    // reqwest's Display includes the URL, and provider URLs can carry keys.
    let error = error.without_url();
    if error.is_timeout() {
        SearchError::new(
            ErrorKind::Timeout,
            format!("{provider} did not answer in time"),
        )
        .with_provider(provider)
        .with_suggestion("Try again; the provider may be slow right now.")
    } else if let Some(host) = farsight_net::unresolved_host(&error) {
        // Offline, or a name that does not exist: one plain sentence, not
        // hyper's chain, and no advice about settings the user never set.
        SearchError::new(
            ErrorKind::ServiceUnavailable,
            format!("could not resolve {host} (no DNS answer)"),
        )
        .with_provider(provider)
        .with_suggestion("Check that this machine is online.")
    } else if error.is_connect() {
        SearchError::new(
            ErrorKind::ServiceUnavailable,
            format!("could not connect to {provider}: {}", root_cause(&error)),
        )
        .with_provider(provider)
        .with_suggestion("Check that this machine is online and the provider is reachable.")
    } else {
        SearchError::new(
            ErrorKind::Unknown,
            format!("request to {provider} failed: {}", source_chain(&error)),
        )
        .with_provider(provider)
    }
}

/// The innermost cause ("Connection refused (os error 111)"): the layers
/// above it ("client error (Connect)", "tcp connect error") add words, not facts.
fn root_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut current = error;
    while let Some(next) = current.source() {
        current = next;
    }
    if std::ptr::addr_eq(current, error) {
        "connection error".to_owned()
    } else {
        current.to_string()
    }
}

fn source_chain(error: &dyn std::error::Error) -> String {
    let mut out = String::new();
    let mut current = error.source();
    while let Some(e) = current {
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&e.to_string());
        current = e.source();
    }
    if out.is_empty() {
        "connection error".to_owned()
    } else {
        out
    }
}

/// Milliseconds to wait, from `Retry-After` (read by `farsight_net`, as for
/// pages) or, failing that, the providers' `X-RateLimit-Reset`/`RateLimit-Reset`
/// seconds headers (Brave sends `X-RateLimit-Reset: 1, 1419704`: the first
/// window counts).
pub(crate) fn retry_after_ms(headers: &HeaderMap) -> Option<u64> {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
    };
    if let Some(wait) =
        header("retry-after").and_then(|v| farsight_net::parse_retry_after(v, SystemTime::now()))
    {
        return Some(wait);
    }
    for name in ["x-ratelimit-reset", "ratelimit-reset"] {
        if let Some(value) = header(name) {
            let first = value.split(',').next().unwrap_or("").trim();
            if let Ok(seconds) = first.parse::<u64>() {
                // Some providers send an epoch timestamp here, not a delay.
                if seconds < 86_400 {
                    return Some(seconds * 1000);
                }
            }
        }
    }
    None
}

/// The common mapping of an unsuccessful status to an error; adapters handle
/// their documented special cases before calling this.
pub(crate) fn error_for_status(provider: &'static str, reply: &Reply) -> SearchError {
    let status = reply.status.as_u16();
    let detail = short_detail(&reply.text());
    let (kind, message, suggestion) = match status {
        401 | 403 => (
            ErrorKind::AuthenticationFailed,
            format!("{provider} refused the API key (HTTP {status})"),
            format!("Check the API key configured for {provider}."),
        ),
        402 => (
            ErrorKind::QuotaExceeded,
            format!("{provider} says the plan's quota is used up (HTTP 402)"),
            format!("Add credits to the {provider} account or use another provider."),
        ),
        429 => (
            ErrorKind::RateLimited,
            format!("{provider} is rate limiting requests (HTTP 429)"),
            "Wait before retrying, or lower requests_per_second for this provider.".to_owned(),
        ),
        400 | 422 => (
            ErrorKind::InvalidQuery,
            format!("{provider} rejected the query (HTTP {status})"),
            "Rephrase the query or remove unsupported filters.".to_owned(),
        ),
        408 | 504 => (
            ErrorKind::Timeout,
            format!("{provider} timed out (HTTP {status})"),
            "Try again in a moment.".to_owned(),
        ),
        500..=599 => (
            ErrorKind::ServiceUnavailable,
            format!("{provider} is unavailable (HTTP {status})"),
            "Try again later or use another provider.".to_owned(),
        ),
        _ => (
            ErrorKind::Unknown,
            format!("{provider} answered HTTP {status}"),
            "Try again or use another provider.".to_owned(),
        ),
    };
    let message = if detail.is_empty() {
        message
    } else {
        format!("{message}: {detail}")
    };
    SearchError::new(kind, message)
        .with_provider(provider)
        .with_status(status)
        .with_suggestion(suggestion)
        .with_retry_after_ms(retry_after_ms(&reply.headers))
}

/// A one-line excerpt of an error body, for the message.
fn short_detail(body: &str) -> String {
    let line: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut cut: String = line.chars().take(160).collect();
    if cut.len() < line.len() {
        cut.push('…');
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_url_replaces_origin_and_keeps_path() {
        let url = endpoint(
            "brave",
            Some("http://127.0.0.1:9999"),
            "https://api.search.brave.com/res/v1/web/search",
        )
        .unwrap();
        assert_eq!(url.as_str(), "http://127.0.0.1:9999/res/v1/web/search");
        let url = endpoint(
            "brave",
            Some("https://proxy.example/brave/"),
            "https://api.search.brave.com/res/v1/web/search",
        )
        .unwrap();
        assert_eq!(
            url.as_str(),
            "https://proxy.example/brave/res/v1/web/search"
        );
        assert_eq!(
            endpoint("x", Some("ftp://h"), "https://a.b/c")
                .unwrap_err()
                .kind(),
            ErrorKind::NotConfigured
        );
    }

    #[test]
    fn retry_after_reads_seconds_dates_and_rate_limit_headers() {
        let mut h = HeaderMap::new();
        h.insert("retry-after", "3".parse().unwrap());
        assert_eq!(retry_after_ms(&h), Some(3000));
        let mut h = HeaderMap::new();
        h.insert("x-ratelimit-reset", "1, 1419704".parse().unwrap());
        assert_eq!(retry_after_ms(&h), Some(1000));
        // Retry-After wins over the rate-limit headers; one that cannot be
        // read leaves them the say.
        let mut h = HeaderMap::new();
        h.insert("retry-after", "1.5".parse().unwrap());
        h.insert("x-ratelimit-reset", "9".parse().unwrap());
        assert_eq!(retry_after_ms(&h), Some(1500));
        h.insert("retry-after", "soon".parse().unwrap());
        assert_eq!(retry_after_ms(&h), Some(9000));
        let mut h = HeaderMap::new();
        h.insert(
            "retry-after",
            "Sun, 06 Nov 1994 08:49:37 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after_ms(&h), Some(0), "a date past is no wait");
    }
}
