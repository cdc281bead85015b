//! robots.txt decisions kept in the page cache (namespace `"robots"`, keyed by
//! origin), so instances sharing a Redis (and processes sharing the disk
//! store) read a site's robots.txt once between them, not once each. What is
//! kept is the outcome of the download (allow all, disallow all with the
//! reason, or the file's bytes to parse again) and when it expires; a
//! corrupt or foreign entry is a miss and the file is downloaded again.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::cache::Cache;
use crate::cache_store::now_ms;

/// The cache namespace of robots.txt decisions.
pub(crate) const NAMESPACE: &str = "robots";
/// Bump when [`Stored`] changes shape.
const FORMAT: u32 = 1;

/// One origin's robots.txt, as downloaded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "rules", rename_all = "camelCase")]
pub(crate) enum Outcome {
    /// No rules (4xx, a file that does not parse): everything allowed.
    AllowAll,
    /// Unreachable or 5xx: nothing allowed, for this reason.
    DisallowAll { why: String },
    /// The file's bytes, parsed again by the reader.
    Parsed {
        #[serde(default, with = "crate::base64_bytes")]
        body: Option<Vec<u8>>,
    },
}

#[derive(Serialize, Deserialize)]
struct Stored {
    v: u32,
    /// Wall-clock expiry (ms since the epoch): the same for every reader.
    expires_ms: u64,
    #[serde(flatten)]
    outcome: Outcome,
}

/// The decision kept for `origin` and the time it has left.
pub(crate) async fn get(cache: &Cache, origin: &str) -> Option<(Outcome, Duration)> {
    let bytes = cache.get(NAMESPACE, origin).await?;
    let stored: Stored = serde_json::from_slice(&bytes).ok()?;
    let left = stored
        .expires_ms
        .checked_sub(now_ms())
        .filter(|ms| *ms > 0)?;
    (stored.v == FORMAT).then_some((stored.outcome, Duration::from_millis(left)))
}

/// Keeps the decision for `origin` for `ttl`.
pub(crate) async fn put(cache: &Cache, origin: &str, outcome: Outcome, ttl: Duration) {
    let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
    let stored = Stored {
        v: FORMAT,
        expires_ms: now_ms().saturating_add(ttl_ms),
        outcome,
    };
    if let Ok(bytes) = serde_json::to_vec(&stored) {
        cache.put(NAMESPACE, origin, bytes, ttl).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn decisions_round_trip_and_garbage_is_a_miss() {
        let cache = Cache::memory_only();
        let body = Outcome::Parsed {
            body: Some(b"User-agent: *\nDisallow: /x\n".to_vec()),
        };
        put(
            &cache,
            "https://a.example",
            body.clone(),
            Duration::from_secs(60),
        )
        .await;
        let (got, left) = get(&cache, "https://a.example").await.unwrap();
        assert_eq!(got, body);
        assert!(left <= Duration::from_secs(60) && left > Duration::ZERO);
        cache
            .put(
                NAMESPACE,
                "https://b.example",
                b"{\"v\":1}".to_vec(),
                Duration::from_secs(60),
            )
            .await;
        assert_eq!(get(&cache, "https://b.example").await, None);
        assert_eq!(get(&cache, "https://c.example").await, None);
    }
}
