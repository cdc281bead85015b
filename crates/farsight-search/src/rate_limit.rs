//! Per-provider request budgets: a GCRA limiter (`governor`) on tokio's clock,
//! so callers over the budget queue for a bounded time and tests can pause time.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::Clock;
use governor::middleware::NoOpMiddleware;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};

use crate::{ErrorKind, SearchError};

/// A provider's budget: a sustained rate and a burst above it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateLimit {
    /// Sustained requests per second (may be below 1: 0.5 is one every 2 s).
    pub requests_per_second: f64,
    /// Requests allowed back to back before the rate applies (at least 1).
    pub burst: u32,
}

impl RateLimit {
    /// A budget of `requests_per_second` with `burst`.
    pub fn new(requests_per_second: f64, burst: u32) -> Self {
        Self {
            requests_per_second,
            burst,
        }
    }

    /// The budget in a provider's settings (`requests_per_second`, `burst`
    /// defaulting to 1), or `None` when no rate is set.
    pub fn from_settings(settings: &crate::ProviderSettings) -> Option<Self> {
        settings
            .requests_per_second
            .map(|rps| Self::new(rps, settings.burst.unwrap_or(1)))
    }

    /// The budget applied when none is configured: Brave's free plan allows
    /// 1 request per second, and DuckDuckGo's HTML endpoint answers bursts with
    /// its anomaly page; the others enforce their limits with 429s, which the
    /// retry rules handle.
    pub fn default_for(provider: &str) -> Option<Self> {
        match provider {
            "brave" | "duckduckgo" => Some(Self::new(1.0, 1)),
            _ => None,
        }
    }
}

/// tokio's clock as governor sees it: time since the limiter was made.
#[derive(Debug, Clone)]
struct TokioClock {
    start: tokio::time::Instant,
}

impl Clock for TokioClock {
    type Instant = Duration;

    fn now(&self) -> Duration {
        self.start.elapsed()
    }
}

type Limiter = RateLimiter<NotKeyed, InMemoryState, TokioClock, NoOpMiddleware<Duration>>;

/// One provider's limiter and the longest a call may queue for it.
#[derive(Debug)]
pub(crate) struct ProviderLimiter {
    limiter: Limiter,
    clock: TokioClock,
    max_wait: Duration,
}

impl ProviderLimiter {
    /// `None` when the limit cannot be expressed (a rate of zero or less).
    pub(crate) fn new(limit: RateLimit, max_wait: Duration) -> Option<Self> {
        if !(limit.requests_per_second.is_finite() && limit.requests_per_second > 0.0) {
            return None;
        }
        let period = Duration::from_secs_f64(1.0 / limit.requests_per_second);
        let burst = NonZeroU32::new(limit.burst.max(1))?;
        let quota = Quota::with_period(period)?.allow_burst(burst);
        let clock = TokioClock {
            start: tokio::time::Instant::now(),
        };
        Some(Self {
            limiter: RateLimiter::direct_with_clock(quota, clock.clone()),
            clock,
            max_wait,
        })
    }

    /// Waits for a slot; `rateLimited` when none comes within the bound.
    ///
    /// Each waiter checks again after sleeping, so concurrent callers never get
    /// more slots than the budget, whatever order they wake in.
    pub(crate) async fn acquire(&self, provider: &str) -> Result<(), SearchError> {
        let deadline = tokio::time::Instant::now() + self.max_wait;
        loop {
            let not_until = match self.limiter.check() {
                Ok(()) => return Ok(()),
                Err(not_until) => not_until,
            };
            let wait = not_until.wait_time_from(self.clock.now());
            let now = tokio::time::Instant::now();
            if now + wait > deadline {
                return Err(SearchError::new(
                    ErrorKind::RateLimited,
                    format!(
                        "{provider}'s request budget is used up; waited {} ms for a slot",
                        self.max_wait.as_millis()
                    ),
                )
                .with_provider(provider.to_owned())
                .with_retry_after_ms(Some(wait.as_millis().max(1) as u64))
                .with_suggestion(
                    "Too many searches at once: wait a moment, or raise requests_per_second/burst for this provider if its plan allows.",
                ));
            }
            // Never spin: a zero wait from rounding still yields to the others.
            tokio::time::sleep(wait.max(Duration::from_millis(1))).await;
        }
    }
}
