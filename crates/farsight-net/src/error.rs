//! The one error type of this crate: a kind, a message for a person or a model,
//! and what to do about it.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What went wrong with a fetch, as the agent-facing `errorKind` names it.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ErrorKind {
    /// The URL cannot be fetched as written: bad syntax, a scheme other than
    /// http/https, or credentials in it.
    InvalidUrl,
    /// The guard refused the URL: a blocked domain or a non-public address.
    BlockedUrl,
    /// The site's robots.txt does not let farsight fetch this path.
    RobotsDisallowed,
    /// The server answered with an HTTP error status (400 and above).
    HttpStatus,
    /// More redirects than allowed, or a redirect loop.
    TooManyRedirects,
    /// The body passed the byte cap and nothing useful arrived before it.
    TooLarge,
    /// The response is of a type farsight cannot turn into text (PDF, images...).
    UnsupportedContent,
    /// The connection or the whole fetch took longer than allowed.
    Timeout,
    /// Any other transport failure: DNS, connection refused, TLS, reset.
    Network,
    /// A bot-management wall (a Cloudflare challenge, DataDome, PerimeterX,
    /// Imperva, AWS WAF, Sucuri, Akamai) answered instead of the page.
    BotChallenge,
    /// A [`crate::FetcherBuilder`] setting is invalid (a bad CIDR, a zero
    /// timeout...). Only [`crate::FetcherBuilder::build`] returns it.
    InvalidConfig,
}

impl ErrorKind {
    /// The camelCase name used on the wire, e.g. `"invalidUrl"`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidUrl => "invalidUrl",
            Self::BlockedUrl => "blockedUrl",
            Self::RobotsDisallowed => "robotsDisallowed",
            Self::HttpStatus => "httpStatus",
            Self::TooManyRedirects => "tooManyRedirects",
            Self::TooLarge => "tooLarge",
            Self::UnsupportedContent => "unsupportedContent",
            Self::Timeout => "timeout",
            Self::Network => "network",
            Self::BotChallenge => "botChallenge",
            Self::InvalidConfig => "invalidConfig",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failed fetch. Opaque: ask it with the predicates ([`Error::kind`],
/// [`Error::status`], [`Error::is_retryable`], ...).
///
/// `Display` shows the message only; the URL (which may carry tokens in its
/// query) is never printed by `Display` or `Debug` beyond its origin and path.
#[derive(Clone)]
pub struct Error {
    // Boxed so that `Result<Page, Error>` stays small (one pointer for the error).
    inner: Box<Inner>,
}

#[derive(Clone)]
struct Inner {
    kind: ErrorKind,
    message: String,
    suggestion: Option<String>,
    status: Option<u16>,
    url: Option<String>,
    retryable: bool,
    retry_after_ms: Option<u64>,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        let retryable = matches!(kind, ErrorKind::Timeout | ErrorKind::Network);
        Self {
            inner: Box::new(Inner {
                kind,
                message: message.into(),
                suggestion: None,
                status: None,
                url: None,
                retryable,
                retry_after_ms: None,
            }),
        }
    }

    pub(crate) fn with_suggestion(mut self, suggestion: impl Into<String>) -> Self {
        self.inner.suggestion = Some(suggestion.into());
        self
    }

    /// Attaches the URL, without any user name or password in it.
    pub(crate) fn with_url(mut self, url: &str) -> Self {
        self.inner.url = Some(strip_credentials(url));
        self
    }

    pub(crate) fn with_status(mut self, status: u16) -> Self {
        self.inner.status = Some(status);
        self
    }

    pub(crate) fn with_retryable(mut self, retryable: bool) -> Self {
        self.inner.retryable = retryable;
        self
    }

    pub(crate) fn with_retry_after_ms(mut self, ms: Option<u64>) -> Self {
        self.inner.retry_after_ms = ms;
        self
    }

    /// The kind of failure.
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// What happened, in a sentence.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// What the caller (often a model) could do next, when there is advice.
    #[must_use]
    pub fn suggestion(&self) -> Option<&str> {
        self.inner.suggestion.as_deref()
    }

    /// Whether trying the same fetch again later may succeed (timeouts, network
    /// failures, 429 and 5xx statuses).
    #[must_use]
    pub fn is_retryable(&self) -> bool {
        self.inner.retryable
    }

    /// How long the server asked us to wait (`Retry-After`), in milliseconds.
    #[must_use]
    pub fn retry_after_ms(&self) -> Option<u64> {
        self.inner.retry_after_ms
    }

    /// The HTTP status, when the server answered with an error status.
    #[must_use]
    pub fn status(&self) -> Option<u16> {
        self.inner.status
    }

    /// The URL the failure concerns (the redirect hop, when it happened on
    /// one), without credentials.
    #[must_use]
    pub fn url(&self) -> Option<&str> {
        self.inner.url.as_deref()
    }

    /// Whether the guard refused the URL (blocked domain or non-public address).
    #[must_use]
    pub fn is_blocked(&self) -> bool {
        self.inner.kind == ErrorKind::BlockedUrl
    }

    /// Whether the fetch ran out of time.
    #[must_use]
    pub fn is_timeout(&self) -> bool {
        self.inner.kind == ErrorKind::Timeout
    }

    /// Whether the server said we are sending too many requests (HTTP 429).
    #[must_use]
    pub fn is_rate_limited(&self) -> bool {
        self.inner.status == Some(429)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.inner.message)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Error");
        d.field("kind", &self.inner.kind)
            .field("message", &self.inner.message);
        if let Some(s) = &self.inner.suggestion {
            d.field("suggestion", s);
        }
        if let Some(s) = self.inner.status {
            d.field("status", &s);
        }
        if let Some(u) = &self.inner.url {
            d.field("url", &redact_for_debug(u));
        }
        if let Some(ms) = self.inner.retry_after_ms {
            d.field("retry_after_ms", &ms);
        }
        d.finish()
    }
}

impl std::error::Error for Error {}

fn strip_credentials(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) => {
            if !u.username().is_empty() || u.password().is_some() {
                // Setting these only fails for URLs that cannot have credentials,
                // which then have none to strip.
                let _ = u.set_username("");
                let _ = u.set_password(None);
            }
            u.to_string()
        }
        // Not a URL we could parse: cut anything that looks like userinfo.
        Err(_) => match (url.find("://"), url.rfind('@')) {
            (Some(s), Some(at)) if at > s => format!("{}{}", &url[..s + 3], &url[at + 1..]),
            _ => url.to_owned(),
        },
    }
}

/// Origin and path only: query strings often carry tokens.
fn redact_for_debug(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) => {
            if u.query().is_some() {
                u.set_query(Some("[redacted]"));
            }
            u.set_fragment(None);
            u.to_string()
        }
        Err(_) => "[unparsed url]".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_is_one_pointer_wide() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
    }

    #[test]
    fn kind_names_are_camel_case_and_match_serde() {
        for kind in [
            ErrorKind::InvalidUrl,
            ErrorKind::BlockedUrl,
            ErrorKind::RobotsDisallowed,
            ErrorKind::HttpStatus,
            ErrorKind::TooManyRedirects,
            ErrorKind::TooLarge,
            ErrorKind::UnsupportedContent,
            ErrorKind::Timeout,
            ErrorKind::Network,
            ErrorKind::BotChallenge,
            ErrorKind::InvalidConfig,
        ] {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
        }
        assert_eq!(ErrorKind::InvalidUrl.as_str(), "invalidUrl");
    }

    #[test]
    fn credentials_and_query_never_reach_display_or_debug() {
        let e = Error::new(ErrorKind::InvalidUrl, "credentials are not allowed in URLs")
            .with_url("https://user:hunter2@example.com/a?key=sk-secret");
        assert_eq!(e.url(), Some("https://example.com/a?key=sk-secret"));
        let shown = format!("{e} {e:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(!shown.contains("sk-secret"), "{shown}");
    }

    #[test]
    fn timeouts_and_network_errors_are_retryable_by_default() {
        assert!(Error::new(ErrorKind::Timeout, "t").is_retryable());
        assert!(Error::new(ErrorKind::Network, "n").is_retryable());
        assert!(!Error::new(ErrorKind::BlockedUrl, "b").is_retryable());
    }
}
