//! The cache the engine stores answers in, as a trait so this crate does not
//! depend on any one store (the application adapts its page cache to it).

use std::time::Duration;

/// A byte store with expiry. Failures are the store's to log: the engine treats
/// a failed `get` as a miss and ignores a failed `put`.
#[async_trait::async_trait]
pub trait SearchCache: Send + Sync {
    /// The bytes stored under `key`, unless absent or expired.
    async fn get(&self, key: &str) -> Option<Vec<u8>>;
    /// Stores `value` under `key` for `ttl`.
    async fn put(&self, key: &str, value: Vec<u8>, ttl: Duration);
}
