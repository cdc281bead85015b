//! What `GET /metrics` shows, in the Prometheus text format.
//!
//! `prometheus-client` rather than `metrics` + `metrics-exporter-prometheus`:
//! it is a registry and an encoder with four small dependencies, and no
//! process-wide recorder (tests run many servers in one process, each with
//! its own numbers); the exporter brings `metrics-util`, `quanta` and a
//! hyper server of its own that would sit unused beside axum.
//!
//! Each family has one writer here. The calls, their latency, the calls in
//! flight, provider attempts and rate-limit refusals are recorded by the MCP
//! tools; the cache layers and Redis report through [`Metrics::cache_lookups`]
//! and [`Metrics::redis_state`].

use std::fmt::Write as _;
use std::time::Duration;

use farsight_net::{CacheLevel, CacheLookups};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// The content type of the text format, version 0.0.4 (what every scraper reads).
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CallLabels {
    tool: String,
    outcome: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ToolLabel {
    tool: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct AttemptLabels {
    provider: String,
    /// `ok`, or the error kind (`rateLimited`, `timeout`...).
    outcome: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CacheLabels {
    layer: String,
    result: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ScopeLabel {
    /// `tenant` (the per-tenant budget) or `provider` (a provider's budget).
    scope: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StateLabel {
    state: String,
}

/// The `layer` label of a cache level.
fn level_label(level: CacheLevel) -> &'static str {
    match level {
        CacheLevel::Memory => "memory",
        CacheLevel::Redis => "redis",
        CacheLevel::Disk => "disk",
    }
}

/// Where the shared state stands, as `farsight_redis_state{state}` shows it
/// (the one state at 1, the others at 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedisState {
    /// No `[cache].redis_url`: nothing is shared.
    Disabled,
    /// Redis answers; cache, budgets and windows are shared.
    Up,
    /// Redis is configured but down, slow or refusing: local state only.
    Degraded,
}

const REDIS_STATES: [(RedisState, &str); 3] = [
    (RedisState::Disabled, "disabled"),
    (RedisState::Up, "up"),
    (RedisState::Degraded, "degraded"),
];

type HistogramFamily = Family<ToolLabel, Histogram, fn() -> Histogram>;

/// The server's metrics: cheap to record (atomics), encoded on a scrape.
pub struct Metrics {
    registry: Registry,
    calls: Family<CallLabels, Counter>,
    latency: HistogramFamily,
    in_flight: Gauge,
    attempts: Family<AttemptLabels, Counter>,
    cache: Family<CacheLabels, Counter>,
    rate_limited: Family<ScopeLabel, Counter>,
    rate_limit_waits: Family<ScopeLabel, Counter>,
    redis: Family<StateLabel, Gauge>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

/// Latency buckets from 5 ms to about 41 s: a cached answer takes
/// milliseconds, a rendered page or a deep search tens of seconds.
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.005, 2.0, 14))
}

impl Metrics {
    /// Empty metrics, Redis reported as disabled until told otherwise.
    pub fn new() -> Self {
        let mut registry = Registry::with_prefix("farsight");
        let calls = Family::<CallLabels, Counter>::default();
        registry.register(
            "tool_calls",
            "Tool calls answered, by tool and outcome (success, partial, or the error kind)",
            calls.clone(),
        );
        let latency: HistogramFamily = Family::new_with_constructor(latency_histogram);
        registry.register(
            "tool_call_duration_seconds",
            "Time from a tool call's arrival to its answer",
            latency.clone(),
        );
        let in_flight = Gauge::default();
        registry.register(
            "calls_in_flight",
            "Tool calls being served now",
            in_flight.clone(),
        );
        let attempts = Family::<AttemptLabels, Counter>::default();
        registry.register(
            "provider_attempts",
            "Search provider attempts, by provider and outcome (ok, or the error kind)",
            attempts.clone(),
        );
        let cache = Family::<CacheLabels, Counter>::default();
        registry.register(
            "cache_lookups",
            "Cache lookups by layer (memory, disk, redis) and result (hit, miss)",
            cache.clone(),
        );
        let rate_limited = Family::<ScopeLabel, Counter>::default();
        registry.register(
            "rate_limited",
            "Calls refused for a used-up budget: tenant (calls_per_minute) or provider",
            rate_limited.clone(),
        );
        let rate_limit_waits = Family::<ScopeLabel, Counter>::default();
        registry.register(
            "rate_limit_waits",
            "Times a call queued for a budget before going on",
            rate_limit_waits.clone(),
        );
        let redis = Family::<StateLabel, Gauge>::default();
        registry.register(
            "redis_state",
            "The shared state's Redis: 1 on the current state (disabled, up, degraded)",
            redis.clone(),
        );
        let metrics = Self {
            registry,
            calls,
            latency,
            in_flight,
            attempts,
            cache,
            rate_limited,
            rate_limit_waits,
            redis,
        };
        metrics.redis_state(RedisState::Disabled);
        metrics
    }

    /// A call began; the returned guard counts it in flight until dropped.
    pub fn call_started(&self) -> InFlight {
        self.in_flight.inc();
        InFlight(self.in_flight.clone())
    }

    /// A call of `tool` ended with `outcome` after `took`.
    pub fn call_answered(&self, tool: &str, outcome: &str, took: Duration) {
        self.calls
            .get_or_create(&CallLabels {
                tool: tool.to_owned(),
                outcome: outcome.to_owned(),
            })
            .inc();
        self.latency
            .get_or_create(&ToolLabel {
                tool: tool.to_owned(),
            })
            .observe(took.as_secs_f64());
    }

    /// One attempt of a search provider: `ok`, or its error kind.
    pub fn provider_attempt(&self, provider: &str, outcome: &str) {
        self.attempts
            .get_or_create(&AttemptLabels {
                provider: provider.to_owned(),
                outcome: outcome.to_owned(),
            })
            .inc();
    }

    /// Brings `farsight_cache_lookups_total` up to the cache's own counts
    /// (read when scraped: the cache counts as it looks, in farsight-net).
    pub fn cache_lookups(&self, counts: &CacheLookups) {
        for level in CacheLevel::ALL {
            let seen = counts.of(level);
            for (result, total) in [("hit", seen.hits), ("miss", seen.misses)] {
                let counter = self.cache.get_or_create(&CacheLabels {
                    layer: level_label(level).to_owned(),
                    result: result.to_owned(),
                });
                counter.inc_by(total.saturating_sub(counter.get()));
            }
        }
    }

    /// A call refused because a budget (`"tenant"` or `"provider"`) was used up.
    pub fn rate_limited(&self, scope: &str) {
        self.rate_limited
            .get_or_create(&ScopeLabel {
                scope: scope.to_owned(),
            })
            .inc();
    }

    /// Brings `farsight_rate_limit_waits_total{scope="provider"}` up to the
    /// search engine's own count of calls that queued for a provider's
    /// budget (read when scraped). Tenant budgets refuse at once, so only
    /// providers queue.
    pub fn provider_waits(&self, total: u64) {
        let counter = self.rate_limit_waits.get_or_create(&ScopeLabel {
            scope: "provider".to_owned(),
        });
        counter.inc_by(total.saturating_sub(counter.get()));
    }

    /// The Redis layer's state; the hook for it to call on every change.
    pub fn redis_state(&self, now: RedisState) {
        for (state, label) in REDIS_STATES {
            self.redis
                .get_or_create(&StateLabel {
                    state: label.to_owned(),
                })
                .set(i64::from(state == now));
        }
    }

    /// The text format of everything recorded so far.
    pub fn encode(&self) -> String {
        let mut text = String::new();
        if prometheus_client::encoding::text::encode(&mut text, &self.registry).is_err() {
            // Writing to a String cannot fail; say so in the output rather
            // than panic should the encoder ever refuse a value.
            let _ = writeln!(text, "# farsight: the metrics could not be encoded");
        }
        text
    }
}

/// Counts one call in flight until dropped (also when the call's future is
/// dropped: a client that goes away mid-call).
pub struct InFlight(Gauge);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_text_format_holds_each_family_with_its_labels() {
        let m = Metrics::new();
        let cache = farsight_net::Cache::memory_only();
        cache
            .put("page", "k", b"v".to_vec(), Duration::from_secs(60))
            .await;
        assert!(cache.get("page", "k").await.is_some());
        assert!(cache.get("page", "other").await.is_none());
        {
            let _guard = m.call_started();
            assert!(m.encode().contains("farsight_calls_in_flight 1"));
        }
        m.call_answered("web_fetch", "success", Duration::from_millis(12));
        m.provider_attempt("brave", "rateLimited");
        m.cache_lookups(&cache.lookups());
        // Read again: the counters catch up, they do not add twice.
        m.cache_lookups(&cache.lookups());
        m.redis_state(RedisState::Degraded);
        m.provider_waits(3);
        m.provider_waits(3);
        let text = m.encode();
        for line in [
            "farsight_calls_in_flight 0",
            "farsight_tool_calls_total{tool=\"web_fetch\",outcome=\"success\"} 1",
            "farsight_tool_call_duration_seconds_count{tool=\"web_fetch\"} 1",
            "farsight_provider_attempts_total{provider=\"brave\",outcome=\"rateLimited\"} 1",
            "farsight_cache_lookups_total{layer=\"memory\",result=\"hit\"} 1",
            "farsight_cache_lookups_total{layer=\"memory\",result=\"miss\"} 1",
            "farsight_cache_lookups_total{layer=\"redis\",result=\"hit\"} 0",
            "farsight_redis_state{state=\"degraded\"} 1",
            "farsight_rate_limit_waits_total{scope=\"provider\"} 3",
            "farsight_redis_state{state=\"disabled\"} 0",
        ] {
            assert!(text.contains(line), "{line} not in:\n{text}");
        }
    }
}
