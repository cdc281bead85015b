//! Per-tenant budgets shared by every instance on one Redis (issue 15): the
//! same GCRA as [`LocalTenantBudget`], run by the Lua script the providers'
//! budgets use, keyed by a hash of the tenant so no subject or token reaches
//! Redis. While Redis is unavailable each instance counts locally.

use std::num::NonZeroU32;
use std::time::Duration;

use async_trait::async_trait;
use farsight_net::{GcraVerdict, RedisLink};
use sha2::{Digest, Sha256};

use super::tenant_limit::{LocalTenantBudget, TenantBudgetStore};

/// Tenant budgets in Redis, with a local budget for when it is away.
pub struct SharedTenantBudget {
    link: RedisLink,
    /// One call every `period` once the burst is spent.
    period: Duration,
    /// A whole minute's calls may come at once, as in the local budget.
    burst: u32,
    local: LocalTenantBudget,
}

impl SharedTenantBudget {
    /// `per_minute` calls a minute for each tenant, counted in `link`'s Redis.
    pub fn new(link: RedisLink, per_minute: NonZeroU32) -> Self {
        Self {
            link,
            period: Duration::from_secs(60) / per_minute.get(),
            burst: per_minute.get(),
            local: LocalTenantBudget::new(per_minute),
        }
    }
}

/// The Redis key part for `tenant`: `tenant:{sha256}`.
fn key(tenant: &str) -> String {
    format!("tenant:{}", hex::encode(Sha256::digest(tenant.as_bytes())))
}

#[async_trait]
impl TenantBudgetStore for SharedTenantBudget {
    async fn take(&self, tenant: &str) -> Result<(), Duration> {
        match self.link.gcra(&key(tenant), self.period, self.burst).await {
            Some(GcraVerdict::Allowed) => Ok(()),
            Some(GcraVerdict::Wait(wait)) => Err(wait),
            None => self.local.take(tenant).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_hold_no_tenant_text() {
        let k = key("sub:alice@example.com");
        assert!(k.starts_with("tenant:"));
        assert!(!k.contains("alice"));
        assert_eq!(k.len(), "tenant:".len() + 64);
        assert_ne!(k, key("sub:bob"));
    }
}
