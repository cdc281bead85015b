//! When the engine asks the same provider again, per the design's retry rules.

use std::time::Duration;

/// How a provider's failures are retried before the next provider is asked.
///
/// The default follows the design: a rate-limited call waits for `Retry-After`
/// (at most [`RetryPolicy::max_rate_limit_wait`]) and is tried once more; an
/// unavailable service is tried up to 3 times with exponential backoff; a
/// timeout is tried once more; authentication, quota and query errors never.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Retries after `rateLimited` (default 1).
    pub rate_limited_retries: u32,
    /// The longest `Retry-After` worth waiting for (default 10 s); a longer
    /// one sends the search on to the next provider at once.
    pub max_rate_limit_wait: Duration,
    /// Total attempts on `serviceUnavailable` (default 3).
    pub service_unavailable_attempts: u32,
    /// Retries after `timeout` (default 1).
    pub timeout_retries: u32,
    /// The first backoff after `serviceUnavailable`, doubled each time (default 500 ms).
    pub backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            rate_limited_retries: 1,
            max_rate_limit_wait: Duration::from_secs(10),
            service_unavailable_attempts: 3,
            timeout_retries: 1,
            backoff: Duration::from_millis(500),
        }
    }
}

impl RetryPolicy {
    /// Google Custom Search's rules: one retry for transient network errors
    /// (unavailable or timed out), none on 429, whose quota is daily.
    pub fn google() -> Self {
        Self {
            rate_limited_retries: 0,
            service_unavailable_attempts: 2,
            ..Self::default()
        }
    }

    /// Never retry (for callers that retry themselves).
    pub fn none() -> Self {
        Self {
            rate_limited_retries: 0,
            service_unavailable_attempts: 1,
            timeout_retries: 0,
            ..Self::default()
        }
    }

    /// Sets the retries after `rateLimited` (Google: turn 429 retries on with 1).
    #[must_use]
    pub fn with_rate_limited_retries(mut self, retries: u32) -> Self {
        self.rate_limited_retries = retries;
        self
    }

    /// Sets the longest `Retry-After` worth waiting for.
    #[must_use]
    pub fn with_max_rate_limit_wait(mut self, wait: Duration) -> Self {
        self.max_rate_limit_wait = wait;
        self
    }

    /// Sets the total attempts on `serviceUnavailable`.
    #[must_use]
    pub fn with_service_unavailable_attempts(mut self, attempts: u32) -> Self {
        self.service_unavailable_attempts = attempts;
        self
    }

    /// Sets the retries after `timeout`.
    #[must_use]
    pub fn with_timeout_retries(mut self, retries: u32) -> Self {
        self.timeout_retries = retries;
        self
    }

    /// Sets the first backoff after `serviceUnavailable`.
    #[must_use]
    pub fn with_backoff(mut self, backoff: Duration) -> Self {
        self.backoff = backoff;
        self
    }
}
