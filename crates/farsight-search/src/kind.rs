//! The one list of error kinds farsight answers with, on both tools and every
//! surface: the `errorKind` of a failed search or fetch, of a provider's
//! attempt, and of a deep-search page that could not be read.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What went wrong, in the terms an agent can act on. The serialised names
/// are the `errorKind` values of the tool contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum ErrorKind {
    // Search providers.
    /// The key is missing, wrong or revoked. Never retried.
    AuthenticationFailed,
    /// Too many requests; `retry_after_ms` says when to come back.
    RateLimited,
    /// The plan's credits are spent. Never retried.
    QuotaExceeded,
    /// The query itself is unusable (too short, too long, malformed).
    InvalidQuery,
    /// The provider is down or answered 5xx.
    ServiceUnavailable,
    /// The provider or the page did not answer in time.
    Timeout,
    /// The provider has no key or URL configured.
    NotConfigured,
    /// Anything else (an unparseable answer...).
    Unknown,
    // Fetching a page (the kinds of `farsight_net::ErrorKind`).
    /// The URL cannot be fetched as written.
    InvalidUrl,
    /// The guard refused the URL: a blocked domain or a non-public address.
    BlockedUrl,
    /// The site's robots.txt does not let farsight fetch this path.
    RobotsDisallowed,
    /// The server answered with an HTTP error status.
    HttpStatus,
    /// More redirects than allowed, or a redirect loop.
    TooManyRedirects,
    /// The body passed the byte cap and nothing useful arrived before it.
    TooLarge,
    /// A type farsight cannot turn into text.
    UnsupportedContent,
    /// Any other transport failure: DNS, connection refused, TLS, reset.
    Network,
    /// A bot-management wall (a Cloudflare challenge and the like) answered
    /// instead of the page. Never retried: the wall stays.
    BotChallenge,
    // The product itself.
    /// An argument of the call cannot be read (a wrong type, an unknown value,
    /// an invalid selector).
    InvalidArgument,
    /// The tool is switched off in this farsight's configuration.
    Disabled,
    /// The server is serving as many calls as it may at once.
    Overloaded,
    /// Deep search: the page was read but held no text to quote.
    NoContent,
}

impl ErrorKind {
    /// Whether trying the same call again later can succeed.
    pub fn is_retryable(self) -> bool {
        matches!(
            self,
            Self::RateLimited
                | Self::ServiceUnavailable
                | Self::Timeout
                | Self::Network
                | Self::Overloaded
        )
    }

    /// The camelCase name used in JSON (`rateLimited`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::AuthenticationFailed => "authenticationFailed",
            Self::RateLimited => "rateLimited",
            Self::QuotaExceeded => "quotaExceeded",
            Self::InvalidQuery => "invalidQuery",
            Self::ServiceUnavailable => "serviceUnavailable",
            Self::Timeout => "timeout",
            Self::NotConfigured => "notConfigured",
            Self::Unknown => "unknown",
            Self::InvalidUrl => "invalidUrl",
            Self::BlockedUrl => "blockedUrl",
            Self::RobotsDisallowed => "robotsDisallowed",
            Self::HttpStatus => "httpStatus",
            Self::TooManyRedirects => "tooManyRedirects",
            Self::TooLarge => "tooLarge",
            Self::UnsupportedContent => "unsupportedContent",
            Self::Network => "network",
            Self::BotChallenge => "botChallenge",
            Self::InvalidArgument => "invalidArgument",
            Self::Disabled => "disabled",
            Self::Overloaded => "overloaded",
            Self::NoContent => "noContent",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<farsight_net::ErrorKind> for ErrorKind {
    fn from(kind: farsight_net::ErrorKind) -> Self {
        use farsight_net::ErrorKind as Net;
        match kind {
            Net::InvalidUrl => Self::InvalidUrl,
            Net::BlockedUrl => Self::BlockedUrl,
            Net::RobotsDisallowed => Self::RobotsDisallowed,
            Net::HttpStatus => Self::HttpStatus,
            Net::TooManyRedirects => Self::TooManyRedirects,
            Net::TooLarge => Self::TooLarge,
            Net::UnsupportedContent => Self::UnsupportedContent,
            Net::Timeout => Self::Timeout,
            Net::Network => Self::Network,
            Net::BotChallenge => Self::BotChallenge,
            // A fetcher's own setting is not something an agent can fix.
            _ => Self::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wire_name_is_the_serde_name() {
        for kind in [
            ErrorKind::AuthenticationFailed,
            ErrorKind::InvalidUrl,
            ErrorKind::NoContent,
            ErrorKind::InvalidArgument,
        ] {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json, kind.as_str());
        }
    }

    #[test]
    fn every_fetch_kind_has_its_own_name() {
        use farsight_net::ErrorKind as Net;
        for net in [
            Net::InvalidUrl,
            Net::BlockedUrl,
            Net::RobotsDisallowed,
            Net::HttpStatus,
            Net::TooManyRedirects,
            Net::TooLarge,
            Net::UnsupportedContent,
            Net::Timeout,
            Net::Network,
            Net::BotChallenge,
        ] {
            assert_eq!(ErrorKind::from(net).as_str(), net.as_str());
        }
    }
}
