//! `[server].calls_per_minute`: each tenant (a token's subject, the static
//! token, or everyone on a server without a token) gets that many tool calls
//! a minute, by GCRA: the whole minute's calls may come at once, then one
//! every `60 / calls_per_minute` seconds.
//!
//! The counts live behind [`TenantBudgetStore`]: [`LocalTenantBudget`] keeps
//! them in this process; with Redis configured, a store running the same
//! GCRA in a Lua script makes all instances share one budget per tenant.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// Where the per-tenant budgets are kept: the seam between the limiter and
/// its storage.
#[async_trait]
pub trait TenantBudgetStore: Send + Sync {
    /// Takes one call from `tenant`'s budget; `Err(wait)` when it is used
    /// up, `wait` being how long until the next call would be let through.
    ///
    /// A store that cannot reach its storage (Redis down) should decide from
    /// a local budget rather than refuse: the limit is a courtesy between
    /// tenants, not a reason for calls to fail.
    async fn take(&self, tenant: &str) -> Result<(), Duration>;
}

/// The budgets of this process alone (governor's keyed GCRA).
pub struct LocalTenantBudget {
    limiter: DefaultKeyedRateLimiter<String>,
    /// Calls since the idle tenants were last forgotten.
    since_sweep: AtomicU64,
}

/// Calls between two sweeps of tenants whose budget is full again: the map
/// stays as small as the tenants active in the last minute.
const SWEEP_EVERY: u64 = 1_024;

impl LocalTenantBudget {
    /// `per_minute` calls a minute for each tenant.
    pub fn new(per_minute: NonZeroU32) -> Self {
        Self {
            limiter: RateLimiter::keyed(Quota::per_minute(per_minute)),
            since_sweep: AtomicU64::new(0),
        }
    }
}

#[async_trait]
impl TenantBudgetStore for LocalTenantBudget {
    async fn take(&self, tenant: &str) -> Result<(), Duration> {
        if self.since_sweep.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            self.limiter.retain_recent();
        }
        self.limiter
            .check_key(&tenant.to_owned())
            .map_err(|not_until| not_until.wait_time_from(self.limiter.clock().now()))
    }
}

/// The per-tenant limit of a server: a budget store, shared by all calls.
#[derive(Clone)]
pub struct TenantLimits {
    store: Arc<dyn TenantBudgetStore>,
    per_minute: NonZeroU32,
}

impl TenantLimits {
    /// Limits of `per_minute` calls a minute kept in `store` (which must
    /// count with the same `per_minute`; it is named here for the answers).
    pub fn new(store: Arc<dyn TenantBudgetStore>, per_minute: NonZeroU32) -> Self {
        Self { store, per_minute }
    }

    /// Limits of `per_minute` calls a minute kept in this process.
    pub fn local(per_minute: NonZeroU32) -> Self {
        Self::new(Arc::new(LocalTenantBudget::new(per_minute)), per_minute)
    }

    /// The calls a minute each tenant gets.
    pub fn per_minute(&self) -> NonZeroU32 {
        self.per_minute
    }

    /// Takes one call of `tenant`; `Err(wait)` when its budget is used up.
    pub async fn take(&self, tenant: &str) -> Result<(), Duration> {
        self.store.take(tenant).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_tenant_gets_its_minute_and_others_keep_theirs() {
        let limits = TenantLimits::local(NonZeroU32::new(2).unwrap());
        assert!(limits.take("sub:alice").await.is_ok());
        assert!(limits.take("sub:alice").await.is_ok());
        let wait = limits.take("sub:alice").await.unwrap_err();
        // One call every 30 s: the next one is at most that far away.
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(30),
            "{wait:?}"
        );
        assert!(limits.take("sub:bob").await.is_ok());
    }
}
