use std::fmt;

/// What went wrong with a search, in the terms an agent can act on.
///
/// The serialised names are the `errorKind` values of the tool contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum SearchErrorKind {
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
    /// The provider did not answer in time.
    Timeout,
    /// The provider has no key or URL configured.
    NotConfigured,
    /// Anything else (an unparseable answer, a network failure...).
    Unknown,
}

impl SearchErrorKind {
    /// Whether trying again later can succeed.
    pub fn is_retryable(self) -> bool {
        matches!(
            self,
            Self::RateLimited | Self::ServiceUnavailable | Self::Timeout
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
        }
    }
}

impl fmt::Display for SearchErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failed search: a kind, a message for people and models, and what to do next.
///
/// Messages never contain API keys: providers redact URLs before attaching them.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchError {
    inner: Box<Inner>,
}

#[derive(Debug, Clone, PartialEq)]
struct Inner {
    kind: SearchErrorKind,
    message: String,
    suggestion: Option<String>,
    retry_after_ms: Option<u64>,
    status: Option<u16>,
    provider: Option<String>,
}

impl SearchError {
    /// A new error of `kind` with a message.
    pub fn new(kind: SearchErrorKind, message: impl Into<String>) -> Self {
        Self {
            inner: Box::new(Inner {
                kind,
                message: message.into(),
                suggestion: None,
                retry_after_ms: None,
                status: None,
                provider: None,
            }),
        }
    }

    /// Adds what the caller should do about it.
    #[must_use]
    pub fn with_suggestion(mut self, suggestion: impl Into<String>) -> Self {
        self.inner.suggestion = Some(suggestion.into());
        self
    }

    /// Adds when to retry, in milliseconds.
    #[must_use]
    pub fn with_retry_after_ms(mut self, ms: Option<u64>) -> Self {
        self.inner.retry_after_ms = ms;
        self
    }

    /// Adds the HTTP status the provider answered with.
    #[must_use]
    pub fn with_status(mut self, status: u16) -> Self {
        self.inner.status = Some(status);
        self
    }

    /// Names the provider that failed.
    #[must_use]
    pub fn with_provider(mut self, provider: impl Into<String>) -> Self {
        self.inner.provider = Some(provider.into());
        self
    }

    /// The kind of failure.
    pub fn kind(&self) -> SearchErrorKind {
        self.inner.kind
    }

    /// The message, for people and models.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// What to do next, when known.
    pub fn suggestion(&self) -> Option<&str> {
        self.inner.suggestion.as_deref()
    }

    /// Whether trying again later can succeed.
    pub fn is_retryable(&self) -> bool {
        self.inner.kind.is_retryable()
    }

    /// How long to wait before retrying, when the provider said.
    pub fn retry_after_ms(&self) -> Option<u64> {
        self.inner.retry_after_ms
    }

    /// The HTTP status of the provider's answer, when there was one.
    pub fn status(&self) -> Option<u16> {
        self.inner.status
    }

    /// The provider that failed, when known.
    pub fn provider(&self) -> Option<&str> {
        self.inner.provider.as_deref()
    }
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.inner.provider {
            write!(f, "{p}: ")?;
        }
        write!(f, "{} ({})", self.inner.message, self.inner.kind)
    }
}

impl std::error::Error for SearchError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_is_one_pointer_wide() {
        assert_eq!(
            std::mem::size_of::<SearchError>(),
            std::mem::size_of::<usize>()
        );
    }
}
