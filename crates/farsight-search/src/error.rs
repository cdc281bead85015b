use std::fmt;

use serde::{Deserialize, Serialize};

use crate::Attempt;
pub use crate::kind::ErrorKind;
use crate::normalize::cut_at_word;

/// The most characters of one provider's line in a combined error: a status
/// and a short reason fit; an error page's body does not need to.
pub(crate) const ATTEMPT_LINE_CHARS: usize = 140;

/// A failed search: a kind, a message for people and models, and what to do next.
///
/// Messages never contain API keys: providers redact URLs before attaching them.
///
/// Serialised, it is the error answer of `web_search` (camelCase JSON with
/// `query`, `errorKind`, `message`, `retryable`, ...).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct SearchError {
    inner: Box<Inner>,
}

/// The fields of a [`SearchError`], in the order of its JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
struct Inner {
    /// The query as asked (empty until the service attaches it).
    #[serde(default)]
    query: String,
    #[serde(rename = "errorKind")]
    kind: ErrorKind,
    message: String,
    /// Whether the same call may succeed later.
    retryable: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    retry_after_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    suggestion: Option<String>,
    /// The provider's HTTP status (for logs; not part of the answer).
    #[serde(skip)]
    status: Option<u16>,
    /// The provider that failed, when one alone was asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    provider: Option<String>,
    /// Every provider asked, and how each failed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    attempts: Vec<Attempt>,
}

impl SearchError {
    /// The same error with every occurrence of `secret` in its message and
    /// suggestion replaced by `<redacted>`: error bodies are quoted in
    /// messages, and a provider that echoes the key must not leak it.
    /// Secrets shorter than 4 characters are left alone (they would blank
    /// out ordinary words).
    #[must_use]
    pub(crate) fn redact(mut self, secret: &str) -> Self {
        let secret = secret.trim();
        if secret.len() < 4 {
            return self;
        }
        if self.inner.message.contains(secret) {
            self.inner.message = self.inner.message.replace(secret, "<redacted>");
        }
        if let Some(s) = self
            .inner
            .suggestion
            .as_mut()
            .filter(|s| s.contains(secret))
        {
            *s = s.replace(secret, "<redacted>");
        }
        self
    }

    /// A new error of `kind` with a message.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            inner: Box::new(Inner {
                query: String::new(),
                kind,
                retryable: kind.is_retryable(),
                message: message.into(),
                suggestion: None,
                retry_after_ms: None,
                status: None,
                provider: None,
                attempts: Vec::new(),
            }),
        }
    }

    /// Attaches the query the error answers.
    #[must_use]
    pub fn with_query(mut self, query: impl Into<String>) -> Self {
        self.inner.query = query.into();
        self
    }

    /// The query the error answers (empty when none was attached).
    pub fn query(&self) -> &str {
        &self.inner.query
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

    /// Lists the providers asked before this error, and how each failed.
    #[must_use]
    pub fn with_attempts(mut self, attempts: Vec<Attempt>) -> Self {
        self.inner.attempts = attempts;
        self
    }

    /// One error for a search no provider answered: the kind an agent can
    /// act on, one short line per provider (each line is the provider's own
    /// message, cut at 140 characters), the advice of the providers
    /// whose failure is that kind (once when they agree), and every attempt
    /// (in [`SearchError::attempts`]). One failure is returned as it is (its
    /// provider named); none at all is `notConfigured`.
    pub fn from_attempts(attempts: Vec<(Attempt, SearchError)>) -> Self {
        let Some((_, first)) = attempts.first() else {
            return Self::new(ErrorKind::NotConfigured, "no search provider is configured");
        };
        if attempts.len() == 1 {
            let first = first.clone();
            return first.with_attempts(attempts.into_iter().map(|(a, _)| a).collect());
        }
        let kinds: Vec<ErrorKind> = attempts.iter().map(|(a, _)| a.error_kind).collect();
        // Same failure everywhere: that is the answer. Otherwise, if any provider may
        // answer later, say so (retryable); else the primary provider's failure.
        let kind = if kinds.iter().all(|k| *k == kinds[0]) {
            kinds[0]
        } else {
            kinds
                .iter()
                .copied()
                .find(|k| k.is_retryable())
                .unwrap_or(kinds[0])
        };
        let retry_after = attempts
            .iter()
            .filter(|(a, _)| a.error_kind == kind)
            .filter_map(|(_, e)| e.retry_after_ms())
            .min();
        let mut message = "every search provider failed:".to_owned();
        for (a, _) in &attempts {
            let line = a.message.split_whitespace().collect::<Vec<_>>().join(" ");
            message.push_str(&format!(
                "\n- {}: {}",
                a.provider,
                cut_at_word(&line, ATTEMPT_LINE_CHARS)
            ));
        }
        // Advice only from the failures that make the answer's kind: a
        // provider that failed otherwise (or was never set up by the user)
        // has nothing to add. Offline, every provider says the same thing
        // once.
        let mut advice: Vec<(&str, &str)> = Vec::new();
        for (a, e) in attempts.iter().filter(|(a, _)| a.error_kind == kind) {
            if let Some(s) = e.suggestion()
                && !advice.iter().any(|(_, seen)| *seen == s)
            {
                advice.push((a.provider.as_str(), s));
            }
        }
        let suggestion = match advice.as_slice() {
            [] => None,
            [(_, only)] => Some((*only).to_owned()),
            many => Some(
                many.iter()
                    .map(|(p, s)| format!("{p}: {s}"))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
        };
        let mut error = Self::new(kind, message).with_retry_after_ms(retry_after);
        if let Some(s) = suggestion {
            error = error.with_suggestion(s);
        }
        error.with_attempts(attempts.into_iter().map(|(a, _)| a).collect())
    }

    /// The kind of failure.
    pub fn kind(&self) -> ErrorKind {
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
        self.inner.retryable
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

    /// The providers of the chain that were asked and failed, in order. Empty
    /// when one provider was asked by name: the error is then its own.
    pub fn attempts(&self) -> &[Attempt] {
        &self.inner.attempts
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

    #[test]
    fn no_attempt_at_all_is_not_configured() {
        let e = SearchError::from_attempts(Vec::new());
        assert_eq!(e.kind(), ErrorKind::NotConfigured);
        assert!(e.attempts().is_empty());
    }

    #[test]
    fn mixed_failures_combine_to_the_retryable_kind_with_the_shortest_wait() {
        let failed = |name: &str, kind, wait| {
            let e = SearchError::new(kind, format!("{name} failed"))
                .with_retry_after_ms(wait)
                .with_provider(name);
            (Attempt::new(name, &e), e)
        };
        let e = SearchError::from_attempts(vec![
            failed("a", ErrorKind::AuthenticationFailed, None),
            failed("b", ErrorKind::RateLimited, Some(3000)),
            failed("c", ErrorKind::RateLimited, Some(1000)),
        ]);
        assert_eq!(e.kind(), ErrorKind::RateLimited);
        assert_eq!(e.retry_after_ms(), Some(1000));
        assert_eq!(e.provider(), None);
        assert_eq!(
            e.message(),
            "every search provider failed:\n- a: a failed\n- b: b failed\n- c: c failed"
        );
        let names: Vec<&str> = e.attempts().iter().map(|a| a.provider.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
    }

    /// Issue 10: offline, every provider fails the same way; the answer says
    /// so once per provider on one short line each, and gives the advice once,
    /// with nothing about settings nobody set.
    #[test]
    fn issue_10_one_short_line_per_provider_and_advice_once() {
        let offline = |name: &str, host: &str| {
            let e = SearchError::new(
                ErrorKind::ServiceUnavailable,
                format!("could not resolve {host} (no DNS answer)"),
            )
            .with_provider(name)
            .with_suggestion("Check that this machine is online.");
            (Attempt::new(name, &e), e)
        };
        let e = SearchError::from_attempts(vec![
            offline("duckduckgo", "html.duckduckgo.com"),
            offline("wikipedia", "en.wikipedia.org"),
        ]);
        assert_eq!(
            e.message(),
            "every search provider failed:\n\
             - duckduckgo: could not resolve html.duckduckgo.com (no DNS answer)\n\
             - wikipedia: could not resolve en.wikipedia.org (no DNS answer)"
        );
        assert_eq!(e.suggestion(), Some("Check that this machine is online."));

        // A long error body is cut; the advice of a provider whose failure
        // is not the answer's kind is left out.
        let long = SearchError::new(
            ErrorKind::Unknown,
            format!("x answered HTTP 418: {}", "teapot ".repeat(60)),
        )
        .with_suggestion("Check the base_url of x.");
        let (_, offline_b) = offline("b", "b.example");
        let e = SearchError::from_attempts(vec![
            (Attempt::new("x", &long), long),
            (Attempt::new("b", &offline_b), offline_b),
        ]);
        assert_eq!(e.kind(), ErrorKind::ServiceUnavailable);
        for line in e.message().lines().skip(1) {
            assert!(line.chars().count() <= ATTEMPT_LINE_CHARS + 8, "{line}");
        }
        assert_eq!(e.suggestion(), Some("Check that this machine is online."));
    }
}
