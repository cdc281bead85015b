//! Per-provider request budgets: a GCRA limiter (`governor`) on tokio's clock,
//! so callers over the budget queue for a bounded time and tests can pause time.
//!
//! With Redis configured, the same GCRA runs in Redis instead
//! ([`farsight_net::RedisLink::gcra`], key `farsight:gcra:provider:{name}`),
//! so all instances together keep to the budget; the queue-then-`rateLimited`
//! behaviour is the same. While Redis is unavailable the local limiter
//! answers, as with no Redis at all.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use farsight_net::{GcraVerdict, RedisLink};
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
    /// The budget shared through Redis: one slot per `period`, `burst` at once.
    shared: Option<RedisLink>,
    period: Duration,
    burst: u32,
    /// Calls that had to queue for a slot, for every provider of the
    /// service (`/metrics`: `farsight_rate_limit_waits_total`).
    waits: Arc<AtomicU64>,
}

impl ProviderLimiter {
    /// `None` when the limit cannot be expressed (a rate of zero or less).
    /// With `shared`, the budget is kept in Redis for every instance.
    pub(crate) fn new(
        limit: RateLimit,
        max_wait: Duration,
        shared: Option<RedisLink>,
        waits: Arc<AtomicU64>,
    ) -> Option<Self> {
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
            shared,
            period,
            burst: burst.get(),
            waits,
        })
    }

    /// Waits for a slot; `rateLimited` when none comes within the bound.
    ///
    /// Each waiter checks again after sleeping, so concurrent callers never get
    /// more slots than the budget, whatever order they wake in.
    pub(crate) async fn acquire(&self, provider: &str) -> Result<(), SearchError> {
        let deadline = tokio::time::Instant::now() + self.max_wait;
        let mut counted = false;
        loop {
            let wait = match self.shared_verdict(provider).await {
                Some(GcraVerdict::Allowed) => return Ok(()),
                Some(GcraVerdict::Wait(wait)) => wait,
                None => match self.limiter.check() {
                    Ok(()) => return Ok(()),
                    Err(not_until) => not_until.wait_time_from(self.clock.now()),
                },
            };
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
            if !counted {
                counted = true;
                self.waits.fetch_add(1, Ordering::Relaxed);
            }
            // Never spin: a zero wait from rounding still yields to the others.
            tokio::time::sleep(wait.max(Duration::from_millis(1))).await;
        }
    }

    /// The shared budget's answer; `None` without Redis or while it is
    /// unavailable (the local limiter then decides).
    async fn shared_verdict(&self, provider: &str) -> Option<GcraVerdict> {
        let link = self.shared.as_ref()?;
        link.gcra(&format!("provider:{provider}"), self.period, self.burst)
            .await
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use farsight_net::testing::RedisServer;

    use super::*;

    /// Two instances' limiters on one Redis, 2 per second with a burst of 1,
    /// asked far more often than that for about 3 s: together they admit at
    /// most the budget, and the rest is `rateLimited` after the short queue.
    #[tokio::test]
    async fn two_instances_share_one_budget_through_redis() {
        let Some(server) = RedisServer::start("two_instances_share_one_budget_through_redis")
        else {
            return;
        };
        let limiter = || {
            let link = RedisLink::open(&server.url()).unwrap();
            ProviderLimiter::new(
                RateLimit::new(2.0, 1),
                Duration::from_millis(100),
                Some(link),
                Arc::default(),
            )
            .unwrap()
        };
        let instances = [limiter(), limiter()];
        let started = Instant::now();
        let (mut admitted, mut limited) = (0u32, 0u32);
        while started.elapsed() < Duration::from_secs(3) {
            for limiter in &instances {
                match limiter.acquire("mock").await {
                    Ok(()) => admitted += 1,
                    Err(e) => {
                        assert_eq!(e.kind(), ErrorKind::RateLimited);
                        limited += 1;
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let elapsed = started.elapsed().as_secs_f64();
        let budget = 1 + (elapsed * 2.0).ceil() as u32 + 1;
        assert!(admitted <= budget, "{admitted} admitted in {elapsed:.2} s");
        assert!(admitted >= 4, "{admitted} admitted in {elapsed:.2} s");
        assert!(limited > 0, "the queue never overflowed");
    }

    /// With Redis gone the local budget decides: still a budget.
    #[tokio::test]
    async fn without_redis_the_local_budget_applies() {
        let link = RedisLink::open(&farsight_net::testing::unreachable_redis_url()).unwrap();
        let limiter = ProviderLimiter::new(
            RateLimit::new(0.1, 1),
            Duration::ZERO,
            Some(link),
            Arc::default(),
        )
        .unwrap();
        assert!(limiter.acquire("mock").await.is_ok());
        let e = limiter.acquire("mock").await.unwrap_err();
        assert_eq!(e.kind(), ErrorKind::RateLimited);
    }

    /// A call that queues for its slot is counted once, however often it
    /// wakes; one admitted at once or refused at once is not.
    #[tokio::test(start_paused = true)]
    async fn calls_that_queue_are_counted() {
        let waits = Arc::new(AtomicU64::new(0));
        let limiter = ProviderLimiter::new(
            RateLimit::new(10.0, 1),
            Duration::from_secs(1),
            None,
            waits.clone(),
        )
        .unwrap();
        limiter.acquire("mock").await.unwrap();
        assert_eq!(waits.load(Ordering::Relaxed), 0);
        limiter.acquire("mock").await.unwrap();
        limiter.acquire("mock").await.unwrap();
        assert_eq!(waits.load(Ordering::Relaxed), 2);
    }
}
