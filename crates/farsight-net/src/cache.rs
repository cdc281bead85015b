//! A layered cache of byte values: memory (moka) first, then Redis when one
//! is configured (shared by every instance, see `cache_shared.rs`), then one
//! SQLite file on disk that every farsight process on the machine shares
//! (see `cache_store.rs`). Pages are cached under namespace `"page"`,
//! extracted documents under `"document"`, search answers under `"search"`.
//!
//! The cache never fails a caller: an unreadable, corrupt or expired entry is a
//! miss, a failed write is logged (once), and a store that cannot be opened (a
//! read-only disk, a foreign file) leaves a memory-only cache and a warning.
//! Redis down or slow is skipped within its short timeouts (`redis_link.rs`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::cache_error::CacheError;
use crate::cache_lookups::{CacheLevel, CacheLookups, LookupCounters};
use crate::cache_shared;
use crate::cache_store::{self, CacheInfo, Cleared, DEFAULT_MAX_DISK_BYTES, Store, now_ms};
use crate::redis_link::RedisLink;

/// Memory budget of the in-memory level. Pages are capped at a few MiB each,
/// so this holds dozens of pages and thousands of search answers.
const MEMORY_BYTES: u64 = 64 * 1024 * 1024;
/// The disk level skips values this large rather than bloating the file.
const MAX_DISK_VALUE: usize = 32 * 1024 * 1024;
/// The first write of a process, and every this many after it, also drops
/// expired entries. Not done at open: a process that never writes (a fetch
/// refused by the policy, a run of cache hits) then never walks the file.
const PURGE_EVERY: u64 = 128;

/// A shared cache handle; cloning it is cheap and clones share the entries.
#[derive(Clone)]
pub struct Cache {
    inner: Option<Arc<Inner>>,
    /// The shared level, between memory and disk.
    redis: Option<RedisLink>,
}

struct Inner {
    memory: moka::future::Cache<String, Entry>,
    disk: Option<Arc<Store>>,
    /// The disk level's size limit: a larger value is not written to disk.
    max_disk_bytes: u64,
    /// Counts disk writes, for `PURGE_EVERY`.
    writes: AtomicU64,
    /// A failed disk write is logged as a warning once, then at debug level:
    /// a full disk would otherwise repeat it on every page.
    warned: AtomicBool,
    /// Hits and misses of each level, for `/metrics`.
    lookups: LookupCounters,
}

#[derive(Clone)]
struct Entry {
    value: Arc<Vec<u8>>,
    expires_at: Instant,
}

struct ByEntryExpiry;

impl moka::Expiry<String, Entry> for ByEntryExpiry {
    fn expire_after_create(
        &self,
        _key: &String,
        value: &Entry,
        created_at: Instant,
    ) -> Option<Duration> {
        Some(value.expires_at.saturating_duration_since(created_at))
    }
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mode = match &self.inner {
            None => "disabled",
            Some(i) if i.disk.is_some() => "memory+disk",
            Some(_) => "memory",
        };
        f.debug_struct("Cache")
            .field("mode", &mode)
            .field("redis", &self.redis)
            .finish()
    }
}

impl Cache {
    /// A cache in memory and in the shared file under `dir` (the directory is
    /// created). Other farsight processes may use the same directory at the
    /// same time. If the file cannot be opened (a read-only disk, a foreign
    /// file under its name), logs one warning and runs memory-only. Blocks
    /// briefly while it opens the file (reading its header and schema, not
    /// its entries): call it at start-up. The file is kept within
    /// [`Cache::DEFAULT_MAX_DISK_BYTES`]; see [`Cache::open_limited`].
    pub fn open(dir: &Path) -> Cache {
        Self::open_limited(dir, DEFAULT_MAX_DISK_BYTES)
    }

    /// The default size limit of the file on disk (512 MiB).
    pub const DEFAULT_MAX_DISK_BYTES: u64 = DEFAULT_MAX_DISK_BYTES;

    /// Like [`Cache::open`], with the file kept within about `max_disk_bytes`
    /// (`[cache].max_disk_bytes`): a write that takes it over the limit
    /// evicts expired entries, then the oldest, down to 90% of it; a value
    /// larger than the limit is kept in memory only.
    pub fn open_limited(dir: &Path, max_disk_bytes: u64) -> Cache {
        match Self::try_open_limited(dir, max_disk_bytes) {
            Ok(cache) => cache,
            Err(e) => {
                tracing::warn!(
                    "page cache on disk unavailable, using memory only: {e}. {}",
                    e.suggestion()
                );
                Self::memory_only()
            }
        }
    }

    /// Like [`Cache::open`], but returns the reason instead of falling back to
    /// memory.
    ///
    /// # Errors
    ///
    /// When the directory or the file cannot be created or opened, or the file
    /// is a database farsight did not create.
    pub fn try_open(dir: &Path) -> Result<Cache, CacheError> {
        Self::try_open_limited(dir, DEFAULT_MAX_DISK_BYTES)
    }

    fn try_open_limited(dir: &Path, max_disk_bytes: u64) -> Result<Cache, CacheError> {
        let store = Store::open(dir, max_disk_bytes)?;
        Ok(Self::with_disk(Some(Arc::new(store)), max_disk_bytes))
    }

    /// A cache in memory only (lost when the process ends).
    pub fn memory_only() -> Cache {
        Self::with_disk(None, 0)
    }

    /// No cache: every `get` misses, every `put` is dropped.
    pub fn disabled() -> Cache {
        Cache {
            inner: None,
            redis: None,
        }
    }

    /// This cache with Redis between memory and disk: entries are shared by
    /// every instance using that Redis. A disabled cache stays disabled.
    #[must_use]
    pub fn with_redis(mut self, link: RedisLink) -> Cache {
        if self.inner.is_some() {
            self.redis = Some(link);
        }
        self
    }

    /// The Redis level, when there is one.
    #[must_use]
    pub fn redis(&self) -> Option<&RedisLink> {
        self.redis.as_ref()
    }

    /// The Redis key that holds `namespace`/`key` (for operators and tests):
    /// `farsight:v{FORMAT}:{namespace}:{sha256 of key}`.
    #[must_use]
    pub fn redis_key(namespace: &str, key: &str) -> String {
        cache_shared::key(namespace, key)
    }

    /// The file the on-disk level keeps in `dir`.
    #[must_use]
    pub fn file_in(dir: &Path) -> PathBuf {
        dir.join(cache_store::FILE_NAME)
    }

    /// What the on-disk cache in `dir` holds: entries, bytes, per namespace.
    /// Creates nothing: a directory never used reports `exists: false`.
    /// Blocks (call it from a CLI or a blocking task).
    ///
    /// # Errors
    ///
    /// When the file exists but cannot be opened or read.
    pub fn info_at(dir: &Path) -> Result<CacheInfo, CacheError> {
        cache_store::info(dir)
    }

    /// Removes every entry of the on-disk cache in `dir`, and the files of
    /// earlier farsight versions. Processes using the directory see the store
    /// empty at once (their memory level keeps what it holds until they end).
    /// Blocks (call it from a CLI or a blocking task).
    ///
    /// # Errors
    ///
    /// When the file exists but cannot be opened or written.
    pub fn clear_at(dir: &Path) -> Result<Cleared, CacheError> {
        cache_store::clear(dir)
    }

    /// Whether this cache keeps anything at all.
    #[must_use]
    pub fn is_enabled(&self) -> bool {
        self.inner.is_some()
    }

    /// Whether values also go to disk.
    #[must_use]
    pub fn is_persistent(&self) -> bool {
        self.inner.as_ref().is_some_and(|i| i.disk.is_some())
    }

    /// The on-disk file, when there is one.
    #[must_use]
    pub fn file(&self) -> Option<&Path> {
        Some(self.inner.as_ref()?.disk.as_ref()?.path())
    }

    fn with_disk(disk: Option<Arc<Store>>, max_disk_bytes: u64) -> Cache {
        let memory = moka::future::Cache::builder()
            .max_capacity(MEMORY_BYTES)
            .weigher(|k: &String, v: &Entry| {
                u32::try_from(k.len() + v.value.len()).unwrap_or(u32::MAX)
            })
            .expire_after(ByEntryExpiry)
            .build();
        Cache {
            inner: Some(Arc::new(Inner {
                memory,
                disk,
                max_disk_bytes,
                writes: AtomicU64::new(0),
                warned: AtomicBool::new(false),
                lookups: LookupCounters::default(),
            })),
            redis: None,
        }
    }

    /// The value stored under `namespace`/`key`, if present and not expired.
    /// Looks in memory, then in Redis (where another instance may have put
    /// it), then on disk (where another process may have put it).
    pub async fn get(&self, namespace: &str, key: &str) -> Option<Vec<u8>> {
        let inner = self.inner.as_ref()?;
        let k = compose(namespace, key);
        let in_memory = inner
            .memory
            .get(&k)
            .await
            .filter(|e| e.expires_at > Instant::now());
        inner.lookups.count(CacheLevel::Memory, in_memory.is_some());
        if let Some(e) = in_memory {
            return Some(e.value.as_ref().clone());
        }
        if let Some(link) = &self.redis {
            let shared = cache_shared::get(link, namespace, key).await;
            inner.lookups.count(CacheLevel::Redis, shared.is_some());
            if let Some((value, left)) = shared {
                let entry = Entry {
                    value: Arc::new(value),
                    expires_at: Instant::now() + left,
                };
                let out = entry.value.as_ref().clone();
                inner.memory.insert(k, entry).await;
                return Some(out);
            }
        }
        let store = Arc::clone(inner.disk.as_ref()?);
        let (ns, key) = (namespace.to_owned(), key.to_owned());
        // SQLite blocks; a panic in the task is a miss, like a corrupt entry.
        let found = tokio::task::spawn_blocking(move || store.get(&ns, &key, now_ms()))
            .await
            .ok()
            .flatten();
        inner.lookups.count(CacheLevel::Disk, found.is_some());
        let (value, expires_ms) = found?;
        let remaining = Duration::from_millis(expires_ms.saturating_sub(now_ms()));
        let entry = Entry {
            value: Arc::new(value),
            expires_at: Instant::now() + remaining,
        };
        let out = entry.value.as_ref().clone();
        inner.memory.insert(k, entry).await;
        Some(out)
    }

    /// Hits and misses of each level since this cache was opened (zero for
    /// a disabled cache), for `/metrics`.
    pub fn lookups(&self) -> CacheLookups {
        self.inner
            .as_ref()
            .map(|i| i.lookups.snapshot())
            .unwrap_or_default()
    }

    /// Stores `value` under `namespace`/`key` for `ttl`, in memory, in Redis
    /// (unless larger than 8 MiB) and on disk. Returns once the value is in
    /// Redis and on disk, so another instance reads it at once and a process
    /// that ends right after loses nothing. Failures are logged, not returned.
    pub async fn put(&self, namespace: &str, key: &str, value: Vec<u8>, ttl: Duration) {
        let Some(inner) = self.inner.as_ref() else {
            return;
        };
        if ttl.is_zero() {
            return;
        }
        let value = Arc::new(value);
        inner
            .memory
            .insert(
                compose(namespace, key),
                Entry {
                    value: Arc::clone(&value),
                    expires_at: Instant::now() + ttl,
                },
            )
            .await;
        if let Some(link) = &self.redis {
            cache_shared::put(link, namespace, key, &value, ttl).await;
        }
        let Some(store) = inner.disk.as_ref().map(Arc::clone) else {
            return;
        };
        let too_large = u64::try_from(value.len()).unwrap_or(u64::MAX) > inner.max_disk_bytes;
        if value.len() > MAX_DISK_VALUE || too_large {
            return;
        }
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        let purge = inner.writes.fetch_add(1, Ordering::Relaxed) % PURGE_EVERY == 0;
        let (ns, key) = (namespace.to_owned(), key.to_owned());
        let written = tokio::task::spawn_blocking(move || {
            let now = now_ms();
            if purge {
                store.purge_expired(now)?;
            }
            store.put(&ns, &key, &value, now.saturating_add(ttl_ms), now)?;
            Ok::<_, CacheError>(())
        })
        .await;
        let failure = match written {
            Ok(Ok(())) => return,
            Ok(Err(e)) => format!("{e}. {}", e.suggestion()),
            Err(e) => e.to_string(),
        };
        if inner.warned.swap(true, Ordering::Relaxed) {
            tracing::debug!("cache write failed: {failure}");
        } else {
            tracing::warn!(
                "cache write failed (further failures are logged at debug level): {failure}"
            );
        }
    }
}

fn compose(namespace: &str, key: &str) -> String {
    // NUL cannot appear in a namespace name, so keys of different namespaces
    // never collide.
    format!("{namespace}\u{0}{key}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn disabled_cache_keeps_nothing() {
        let c = Cache::disabled();
        c.put("page", "k", b"v".to_vec(), Duration::from_secs(60))
            .await;
        assert_eq!(c.get("page", "k").await, None);
    }

    #[tokio::test]
    async fn namespaces_are_separate() {
        let c = Cache::memory_only();
        c.put("page", "k", b"page".to_vec(), Duration::from_secs(60))
            .await;
        c.put("search", "k", b"search".to_vec(), Duration::from_secs(60))
            .await;
        assert_eq!(c.get("page", "k").await.as_deref(), Some(&b"page"[..]));
        assert_eq!(c.get("search", "k").await.as_deref(), Some(&b"search"[..]));
        assert_eq!(c.get("other", "k").await, None);
    }

    #[tokio::test]
    async fn entries_expire() {
        let c = Cache::memory_only();
        c.put("page", "k", b"v".to_vec(), Duration::from_millis(50))
            .await;
        assert!(c.get("page", "k").await.is_some());
        tokio::time::sleep(Duration::from_millis(120)).await;
        assert_eq!(c.get("page", "k").await, None);
    }

    #[tokio::test]
    async fn disk_entries_expire_for_every_process() {
        let dir = tempfile::tempdir().unwrap();
        let c = Cache::open(dir.path());
        c.put("page", "old", b"v".to_vec(), Duration::from_millis(30))
            .await;
        c.put("page", "new", b"v".to_vec(), Duration::from_secs(600))
            .await;
        tokio::time::sleep(Duration::from_millis(80)).await;
        // A second handle has nothing in memory: it reads the file.
        let other = Cache::open(dir.path());
        assert_eq!(other.get("page", "old").await, None);
        assert!(other.get("page", "new").await.is_some());
    }

    #[tokio::test]
    async fn two_handles_on_one_directory_share_the_disk() {
        let dir = tempfile::tempdir().unwrap();
        let a = Cache::open(dir.path());
        let b = Cache::open(dir.path());
        assert!(a.is_persistent() && b.is_persistent());
        a.put("page", "k", b"from a".to_vec(), Duration::from_secs(60))
            .await;
        assert_eq!(b.get("page", "k").await.as_deref(), Some(&b"from a"[..]));
        assert_eq!(a.file(), Some(Cache::file_in(dir.path()).as_path()));
    }

    #[tokio::test]
    async fn a_value_larger_than_the_disk_limit_stays_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let c = Cache::open_limited(dir.path(), 64 * 1024);
        assert!(c.is_persistent());
        c.put("page", "big", vec![1; 65 * 1024], Duration::from_secs(60))
            .await;
        c.put("page", "small", vec![1; 1024], Duration::from_secs(60))
            .await;
        assert!(c.get("page", "big").await.is_some(), "kept in memory");
        let other = Cache::open_limited(dir.path(), 64 * 1024);
        assert_eq!(other.get("page", "big").await, None);
        assert!(other.get("page", "small").await.is_some());
    }

    #[tokio::test]
    async fn the_first_write_drops_expired_entries() {
        let dir = tempfile::tempdir().unwrap();
        let c = Cache::open(dir.path());
        c.put("page", "old", b"v".to_vec(), Duration::from_millis(1))
            .await;
        tokio::time::sleep(Duration::from_millis(20)).await;
        let other = Cache::open(dir.path());
        assert_eq!(Cache::info_at(dir.path()).unwrap().expired, 1);
        other
            .put("page", "new", b"v".to_vec(), Duration::from_secs(60))
            .await;
        let info = Cache::info_at(dir.path()).unwrap();
        assert_eq!((info.entries, info.expired), (1, 0));
    }

    #[tokio::test]
    async fn a_store_that_cannot_open_leaves_memory() {
        let dir = tempfile::tempdir().unwrap();
        // A file where the directory should be.
        let blocked = dir.path().join("not-a-dir");
        std::fs::write(&blocked, b"x").unwrap();
        assert!(Cache::try_open(&blocked).is_err());
        let c = Cache::open(&blocked);
        assert!(c.is_enabled() && !c.is_persistent());
        c.put("page", "k", b"v".to_vec(), Duration::from_secs(60))
            .await;
        assert!(c.get("page", "k").await.is_some());
    }
}
