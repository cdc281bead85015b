//! A two-level cache of byte values: memory (moka) in front of an embedded
//! on-disk store (redb). Pages are cached under namespace `"page"`, search
//! answers under `"search"`.
//!
//! The cache never fails a caller: an unreadable, corrupt or expired entry is a
//! miss, and a store that cannot be opened (another farsight process holds the
//! file lock, a read-only disk) leaves a memory-only cache and a warning.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use redb::{ReadableDatabase, TableDefinition};

/// Memory budget of the in-memory level. Pages are capped at a few MiB each,
/// so this holds dozens of pages and thousands of search answers.
const MEMORY_BYTES: u64 = 64 * 1024 * 1024;
/// The disk level skips values this large rather than bloating the file.
const MAX_DISK_VALUE: usize = 32 * 1024 * 1024;
const FILE_NAME: &str = "cache.redb";
const TABLE: TableDefinition<'static, &str, &[u8]> = TableDefinition::new("entries");
/// Stored values start with this byte, then the expiry (unix ms, big endian).
const FORMAT_V1: u8 = 1;
const PURGE_EVERY: u64 = 128;

/// A shared cache handle; cloning it is cheap and clones share the entries.
#[derive(Clone)]
pub struct Cache {
    inner: Option<Arc<Inner>>,
}

struct Inner {
    memory: moka::future::Cache<String, Entry>,
    disk: Option<Arc<redb::Database>>,
    /// Counts disk writes, so that every `PURGE_EVERY`th one also drops
    /// expired entries and a long-running server's file stops growing.
    writes: AtomicU64,
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
        f.debug_struct("Cache").field("mode", &mode).finish()
    }
}

impl Cache {
    /// A cache in memory and in `dir/cache.redb` (the directory is created).
    /// If the disk store cannot be opened (for example another farsight process
    /// holds it), logs a warning and runs memory-only. Blocks briefly while it
    /// opens the file and drops expired entries: call it at start-up.
    pub fn open(dir: &Path) -> Cache {
        let disk = match open_disk(dir) {
            Ok(db) => Some(Arc::new(db)),
            Err(e) => {
                tracing::warn!(dir = %dir.display(), "page cache on disk unavailable, using memory only: {e}");
                None
            }
        };
        Self::with_disk(disk)
    }

    /// A cache in memory only (lost when the process ends).
    pub fn memory_only() -> Cache {
        Self::with_disk(None)
    }

    /// No cache: every `get` misses, every `put` is dropped.
    pub fn disabled() -> Cache {
        Cache { inner: None }
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

    fn with_disk(disk: Option<Arc<redb::Database>>) -> Cache {
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
                writes: AtomicU64::new(0),
            })),
        }
    }

    /// The value stored under `namespace`/`key`, if present and not expired.
    pub async fn get(&self, namespace: &str, key: &str) -> Option<Vec<u8>> {
        let inner = self.inner.as_ref()?;
        let k = compose(namespace, key);
        if let Some(e) = inner.memory.get(&k).await
            && e.expires_at > Instant::now()
        {
            return Some(e.value.as_ref().clone());
        }
        let db = Arc::clone(inner.disk.as_ref()?);
        let k2 = k.clone();
        // A panic or an error inside redb is a miss, like a corrupt entry.
        let (value, remaining) = tokio::task::spawn_blocking(move || read_disk(&db, &k2))
            .await
            .ok()
            .flatten()?;
        let entry = Entry {
            value: Arc::new(value),
            expires_at: Instant::now() + remaining,
        };
        let out = entry.value.as_ref().clone();
        inner.memory.insert(k, entry).await;
        Some(out)
    }

    /// Stores `value` under `namespace`/`key` for `ttl`, in memory and on disk.
    /// Failures to write to disk are logged, not returned.
    pub async fn put(&self, namespace: &str, key: &str, value: Vec<u8>, ttl: Duration) {
        let Some(inner) = self.inner.as_ref() else {
            return;
        };
        if ttl.is_zero() {
            return;
        }
        let k = compose(namespace, key);
        let value = Arc::new(value);
        inner
            .memory
            .insert(
                k.clone(),
                Entry {
                    value: Arc::clone(&value),
                    expires_at: Instant::now() + ttl,
                },
            )
            .await;
        let Some(db) = inner.disk.as_ref().map(Arc::clone) else {
            return;
        };
        if value.len() > MAX_DISK_VALUE {
            return;
        }
        let expires_ms = unix_ms(SystemTime::now() + ttl);
        let purge = inner.writes.fetch_add(1, Ordering::Relaxed) % PURGE_EVERY == PURGE_EVERY - 1;
        let written = tokio::task::spawn_blocking(move || {
            write_disk(&db, &k, &value, expires_ms)?;
            if purge {
                purge_expired(&db)?;
            }
            Ok::<_, BoxError>(())
        })
        .await;
        match written {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!("cache write failed: {e}"),
            Err(e) => tracing::warn!("cache write task failed: {e}"),
        }
    }
}

fn compose(namespace: &str, key: &str) -> String {
    // NUL cannot appear in a namespace name, so keys of different namespaces
    // never collide.
    format!("{namespace}\u{0}{key}")
}

fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

fn open_disk(dir: &Path) -> Result<redb::Database, BoxError> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(FILE_NAME);
    // redb reports damage as errors, but a cache must not take the process
    // down even if a damaged file trips an assertion.
    let db = std::panic::catch_unwind(|| redb::Database::create(&path))
        .map_err(|_| "the cache file is damaged")??;
    if let Err(e) = purge_expired(&db) {
        tracing::debug!("cache purge failed: {e}");
    }
    Ok(db)
}

fn purge_expired(db: &redb::Database) -> Result<(), BoxError> {
    let now = unix_ms(SystemTime::now());
    let txn = db.begin_write()?;
    {
        let mut table = txn.open_table(TABLE)?;
        table.retain(|_, v| decode_disk(v, now).is_some())?;
    }
    txn.commit()?;
    Ok(())
}

/// The payload and the time it has left, or `None` if expired or malformed.
fn decode_disk(stored: &[u8], now_ms: u64) -> Option<(&[u8], Duration)> {
    let (&format, rest) = stored.split_first()?;
    if format != FORMAT_V1 || rest.len() < 8 {
        return None;
    }
    let (expiry, payload) = rest.split_at(8);
    let expires_ms = u64::from_be_bytes(expiry.try_into().ok()?);
    (expires_ms > now_ms).then(|| (payload, Duration::from_millis(expires_ms - now_ms)))
}

fn read_disk(db: &redb::Database, key: &str) -> Option<(Vec<u8>, Duration)> {
    let txn = db.begin_read().ok()?;
    // A missing table (nothing written yet) is a miss.
    let table = txn.open_table(TABLE).ok()?;
    let stored = table.get(key).ok()??;
    let (payload, remaining) = decode_disk(stored.value(), unix_ms(SystemTime::now()))?;
    Some((payload.to_vec(), remaining))
}

fn write_disk(
    db: &redb::Database,
    key: &str,
    value: &[u8],
    expires_ms: u64,
) -> Result<(), BoxError> {
    let mut stored = Vec::with_capacity(9 + value.len());
    stored.push(FORMAT_V1);
    stored.extend_from_slice(&expires_ms.to_be_bytes());
    stored.extend_from_slice(value);
    let txn = db.begin_write()?;
    {
        let mut table = txn.open_table(TABLE)?;
        table.insert(key, stored.as_slice())?;
    }
    txn.commit()?;
    Ok(())
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
    async fn disk_entries_expire_and_are_purged() {
        use redb::ReadableTableMetadata;
        let dir = tempfile::tempdir().unwrap();
        let c = Cache::open(dir.path());
        c.put("page", "old", b"v".to_vec(), Duration::from_millis(30))
            .await;
        c.put("page", "new", b"v".to_vec(), Duration::from_secs(600))
            .await;
        tokio::time::sleep(Duration::from_millis(80)).await;
        let db = c.inner.as_ref().unwrap().disk.as_ref().unwrap();
        assert!(read_disk(db, &compose("page", "old")).is_none());
        purge_expired(db).unwrap();
        let txn = db.begin_read().unwrap();
        assert_eq!(txn.open_table(TABLE).unwrap().len().unwrap(), 1);
    }

    #[test]
    fn malformed_disk_values_are_misses() {
        assert!(decode_disk(&[], 0).is_none());
        assert!(decode_disk(&[1, 0, 0], 0).is_none());
        assert!(decode_disk(&[9, 0, 0, 0, 0, 0, 0, 0, 9, b'x'], 0).is_none());
        let mut ok = vec![1];
        ok.extend_from_slice(&100u64.to_be_bytes());
        ok.push(b'x');
        assert_eq!(decode_disk(&ok, 50).map(|(p, _)| p), Some(&b"x"[..]));
        assert!(decode_disk(&ok, 100).is_none());
    }
}
