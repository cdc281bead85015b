//! The on-disk level of the cache: one SQLite file in WAL mode.
//!
//! Why SQLite: several farsight processes share one cache directory (an MCP
//! session, CLI calls, other agents' sessions). WAL mode lets any number of
//! them read while one writes, and every write here is one short statement,
//! so a writer waits milliseconds for another (`busy_timeout`), never fails.
//! redb, used before, locks its file to one process: the second process ran
//! on memory and downloaded again what the first had.
//!
//! Everything here blocks; [`crate::Cache`] calls it on tokio's blocking pool.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use serde::Serialize;

use crate::cache_error::{CacheError, CacheErrorKind};

/// The store's file in the cache directory. The number is the layout's
/// version: a farsight with another layout uses another file instead of
/// misreading this one.
pub(crate) const FILE_NAME: &str = "cache-v2.sqlite3";
/// Files of earlier layouts, removed by [`clear`]. v1 had no `stored_ms`
/// column, and its pages no record of how they were reached.
const LEGACY_FILES: &[&str] = &[
    "cache.redb",
    "cache-v1.sqlite3",
    "cache-v1.sqlite3-wal",
    "cache-v1.sqlite3-shm",
];
/// `[cache].max_disk_bytes` unless configured: room for thousands of pages,
/// small next to any disk.
pub const DEFAULT_MAX_DISK_BYTES: u64 = 512 * 1024 * 1024;
/// Eviction brings the file down to this share of the limit (in percent),
/// so that it runs once per tenth of the limit written, not on every write.
const EVICT_TO_PERCENT: u64 = 90;
/// Eviction deletes in rounds, each estimating the rows to delete from their
/// sizes and then measuring the file again; a few rounds always suffice.
const EVICT_ROUNDS: u32 = 8;
/// Marks the file as farsight's (`PRAGMA application_id`, "fsc1"), so a
/// foreign database under the same name is refused, not written over.
const APPLICATION_ID: i32 = 0x6673_6331;
/// How long a statement waits for another process's write. Writes are one
/// statement of at most one value (a few MiB), so this is reached only when
/// something is badly stuck.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// After a checkpoint the WAL file is cut back to this size; without it one
/// burst of large pages would leave a large `-wal` file behind for good.
const WAL_SIZE_LIMIT: i64 = 64 * 1024 * 1024;
/// Opening is retried this often when another process is creating the same
/// file at the same moment (switching a new file to WAL can report "busy"
/// without waiting).
const OPEN_ATTEMPTS: u32 = 40;

const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS entries (
        namespace  TEXT    NOT NULL,
        key        TEXT    NOT NULL,
        expires_ms INTEGER NOT NULL,
        stored_ms  INTEGER NOT NULL,
        -- Last, so that reading the other columns never touches the value's
        -- pages.
        value      BLOB    NOT NULL,
        PRIMARY KEY (namespace, key)
    );
    CREATE INDEX IF NOT EXISTS entries_by_expiry ON entries (expires_ms);
";

/// One process's connection to the cache file.
pub(crate) struct Store {
    path: PathBuf,
    /// Bytes of database pages in use above which a write evicts.
    max_bytes: u64,
    // One connection per process, used for one short statement at a time: the
    // lock is held for microseconds to milliseconds.
    conn: Mutex<Connection>,
}

/// How to open the file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Create the directory and the file if needed.
    Serve,
    /// Open an existing file as it is (`info`, `clear`).
    Inspect,
}

impl Store {
    /// Opens (creating if needed) the store in `dir`, to be kept within about
    /// `max_bytes`. A file that is not a database at all (damaged) is
    /// replaced. Reads the file's header and schema only, never the entries:
    /// a process that is refused its fetch reads nothing more (expired
    /// entries are dropped by the first write, see [`crate::Cache::put`]).
    pub(crate) fn open(dir: &Path, max_bytes: u64) -> Result<Store, CacheError> {
        std::fs::create_dir_all(dir).map_err(|e| {
            CacheError::new(
                CacheErrorKind::Unavailable,
                format!("cannot create the cache directory: {e}"),
                dir,
            )
        })?;
        let path = dir.join(FILE_NAME);
        let mut store = match open_with_retry(&path, Mode::Serve) {
            Err(e) if e.kind() == CacheErrorKind::Damaged && remove_store_files(&path).is_ok() => {
                tracing::warn!(path = %path.display(), "the cache file was damaged and has been replaced");
                open_with_retry(&path, Mode::Serve)?
            }
            r => r?,
        };
        store.max_bytes = max_bytes;
        Ok(store)
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves the connection usable: every
        // statement is atomic on its own.
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The value under `namespace`/`key` and its expiry (unix ms), if present
    /// and not expired at `now_ms`. A row that cannot be read as written by
    /// this version (wrong types) is a miss.
    pub(crate) fn get(&self, namespace: &str, key: &str, now_ms: u64) -> Option<(Vec<u8>, u64)> {
        let conn = self.conn();
        let row = conn
            .prepare_cached(
                // An expired value is not read at all.
                "SELECT expires_ms, value FROM entries \
                 WHERE namespace = ?1 AND key = ?2 AND expires_ms > ?3",
            )
            .and_then(|mut s| {
                let now = i64::try_from(now_ms).unwrap_or(i64::MAX);
                s.query_row(params![namespace, key, now], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?))
                })
                .optional()
            });
        match row {
            Ok(Some((expires, value))) => {
                let expires = u64::try_from(expires).ok()?;
                (expires > now_ms).then_some((value, expires))
            }
            Ok(None) => None,
            Err(e) => {
                tracing::debug!(namespace, "unreadable cache entry: {e}");
                None
            }
        }
    }

    /// Stores `value` under `namespace`/`key` at `now_ms` until `expires_ms`
    /// (unix ms), replacing any earlier value; then, if the file is over its
    /// limit, evicts (see [`Store::evict`]). Returns the entries evicted.
    pub(crate) fn put(
        &self,
        namespace: &str,
        key: &str,
        value: &[u8],
        expires_ms: u64,
        now_ms: u64,
    ) -> Result<usize, CacheError> {
        let expires = i64::try_from(expires_ms).unwrap_or(i64::MAX);
        let now = i64::try_from(now_ms).unwrap_or(i64::MAX);
        self.conn()
            .prepare_cached(
                "INSERT INTO entries (namespace, key, expires_ms, stored_ms, value) \
                 VALUES (?1, ?2, ?3, ?4, ?5) \
                 ON CONFLICT (namespace, key) DO UPDATE \
                 SET expires_ms = excluded.expires_ms, stored_ms = excluded.stored_ms, \
                 value = excluded.value",
            )
            .and_then(|mut s| s.execute(params![namespace, key, expires, now, value]))
            .map_err(|e| CacheError::sqlite(&e, &self.path))?;
        self.evict(now_ms)
    }

    /// When the pages in use exceed the limit, deletes entries until they are
    /// under [`EVICT_TO_PERCENT`] of it: expired ones first, then the oldest
    /// written. "Oldest written" rather than "least recently read" keeps a
    /// read a read: recording each use would make every hit a write that
    /// waits for other processes' writes. Costs two header reads when under
    /// the limit, which is nearly always.
    fn evict(&self, now_ms: u64) -> Result<usize, CacheError> {
        let err = |e: rusqlite::Error| CacheError::sqlite(&e, &self.path);
        let mut conn = self.conn();
        if used_bytes(&conn).map_err(err)? <= self.max_bytes {
            return Ok(0);
        }
        // IMMEDIATE: one process evicts at a time; the next one measures
        // again inside its own transaction and finds nothing to do.
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(err)?;
        let target = self.max_bytes / 100 * EVICT_TO_PERCENT;
        let now = i64::try_from(now_ms).unwrap_or(i64::MAX);
        let mut evicted = 0;
        for _ in 0..EVICT_ROUNDS {
            let used = used_bytes(&tx).map_err(err)?;
            if used <= target {
                break;
            }
            let excess = i64::try_from(used - target).unwrap_or(i64::MAX);
            // The rows, expired first and then oldest first, whose sizes
            // before them add up to less than the excess. `length()` of a
            // blob is read from the row's header, not from the value. The
            // primary-key index holds the key a second time.
            let deleted = tx
                .execute(
                    "DELETE FROM entries WHERE rowid IN (
                        SELECT rowid FROM (
                            SELECT rowid, COALESCE(SUM(
                                length(value) + 2 * (length(namespace) + length(key)) + 32
                            ) OVER (
                                ORDER BY expires_ms > ?1, stored_ms, rowid
                                ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
                            ), 0) AS before
                            FROM entries
                        ) WHERE before < ?2
                    )",
                    params![now, excess],
                )
                .map_err(err)?;
            if deleted == 0 {
                break;
            }
            evicted += deleted;
        }
        tx.commit().map_err(err)?;
        tracing::debug!(evicted, "cache over its size limit: evicted");
        Ok(evicted)
    }

    /// Drops the entries expired at `now_ms`; returns how many.
    pub(crate) fn purge_expired(&self, now_ms: u64) -> Result<usize, CacheError> {
        let now = i64::try_from(now_ms).unwrap_or(i64::MAX);
        self.conn()
            .execute("DELETE FROM entries WHERE expires_ms <= ?1", [now])
            .map_err(|e| CacheError::sqlite(&e, &self.path))
    }
}

/// What the on-disk cache holds (`farsight cache info`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CacheInfo {
    /// The store's file.
    pub path: PathBuf,
    /// Whether the file exists (nothing was ever cached in this directory if not).
    pub exists: bool,
    /// Bytes on disk: the file and its write-ahead log.
    pub file_bytes: u64,
    /// Entries stored, expired ones included.
    pub entries: u64,
    /// Entries past their time, dropped on the next start or purge.
    pub expired: u64,
    /// Bytes of keys and values stored.
    pub bytes: u64,
    /// The same figures for each namespace (`page`, `document`, `search`...).
    pub namespaces: Vec<NamespaceInfo>,
}

/// One namespace's share of the cache.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NamespaceInfo {
    /// The namespace, e.g. `page`.
    pub name: String,
    /// Entries stored, expired ones included.
    pub entries: u64,
    /// Entries past their time.
    pub expired: u64,
    /// Bytes of keys and values.
    pub bytes: u64,
}

/// What `farsight cache clear` removed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Cleared {
    /// The store's file.
    pub path: PathBuf,
    /// Whether the file existed (if not, there was nothing to clear).
    pub existed: bool,
    /// Entries removed.
    pub entries: u64,
    /// Bytes of keys and values removed.
    pub bytes: u64,
    /// Bytes on disk afterwards.
    pub file_bytes: u64,
    /// Files of earlier farsight versions that were removed.
    pub legacy_files: Vec<PathBuf>,
    /// The file was damaged and has been deleted (farsight creates it again).
    pub damaged: bool,
}

/// What the store in `dir` holds, without creating anything.
pub(crate) fn info(dir: &Path) -> Result<CacheInfo, CacheError> {
    let path = dir.join(FILE_NAME);
    let mut info = CacheInfo {
        path: path.clone(),
        exists: path.exists(),
        file_bytes: 0,
        entries: 0,
        expired: 0,
        bytes: 0,
        namespaces: Vec::new(),
    };
    if !info.exists {
        return Ok(info);
    }
    let store = open_with_retry(&path, Mode::Inspect)?;
    info.namespaces = store.namespaces(now_ms())?;
    for n in &info.namespaces {
        info.entries += n.entries;
        info.expired += n.expired;
        info.bytes += n.bytes;
    }
    info.file_bytes = file_bytes(&path);
    Ok(info)
}

/// Removes every entry of the store in `dir` (other processes see the store
/// empty at once) and the files of earlier versions.
pub(crate) fn clear(dir: &Path) -> Result<Cleared, CacheError> {
    let path = dir.join(FILE_NAME);
    let mut cleared = Cleared {
        path: path.clone(),
        existed: path.exists(),
        entries: 0,
        bytes: 0,
        file_bytes: 0,
        legacy_files: Vec::new(),
        damaged: false,
    };
    if cleared.existed {
        match open_with_retry(&path, Mode::Inspect) {
            Ok(store) => {
                let (entries, bytes) = store.delete_all()?;
                cleared.entries = entries;
                cleared.bytes = bytes;
                store.shrink();
                cleared.file_bytes = file_bytes(&path);
            }
            Err(e) if e.kind() == CacheErrorKind::Damaged => {
                remove_store_files(&path).map_err(|io| {
                    CacheError::new(
                        CacheErrorKind::Unavailable,
                        format!("cannot remove the damaged cache file: {io}"),
                        &path,
                    )
                })?;
                cleared.damaged = true;
            }
            Err(e) => return Err(e),
        }
    }
    for name in LEGACY_FILES {
        let legacy = dir.join(name);
        if legacy.exists() {
            std::fs::remove_file(&legacy).map_err(|e| {
                CacheError::new(
                    CacheErrorKind::Unavailable,
                    format!("cannot remove a cache file of an earlier farsight: {e}"),
                    &legacy,
                )
            })?;
            cleared.legacy_files.push(legacy);
        }
    }
    Ok(cleared)
}

impl Store {
    fn namespaces(&self, now_ms: u64) -> Result<Vec<NamespaceInfo>, CacheError> {
        let now = i64::try_from(now_ms).unwrap_or(i64::MAX);
        let conn = self.conn();
        if !has_entries_table(&conn).map_err(|e| CacheError::sqlite(&e, &self.path))? {
            return Ok(Vec::new());
        }
        let to_u64 = |v: i64| u64::try_from(v).unwrap_or(0);
        let rows = conn
            .prepare(
                "SELECT namespace, COUNT(*), COALESCE(SUM(expires_ms <= ?1), 0), \
                 COALESCE(SUM(length(key) + length(value)), 0) \
                 FROM entries GROUP BY namespace ORDER BY namespace",
            )
            .and_then(|mut s| {
                s.query_map([now], |r| {
                    Ok(NamespaceInfo {
                        name: r.get(0)?,
                        entries: to_u64(r.get(1)?),
                        expired: to_u64(r.get(2)?),
                        bytes: to_u64(r.get(3)?),
                    })
                })?
                .collect::<Result<Vec<_>, _>>()
            });
        rows.map_err(|e| CacheError::sqlite(&e, &self.path))
    }

    /// Deletes every entry in one transaction; returns the entries and bytes removed.
    fn delete_all(&self) -> Result<(u64, u64), CacheError> {
        let err = |e: rusqlite::Error| CacheError::sqlite(&e, &self.path);
        let mut conn = self.conn();
        if !has_entries_table(&conn).map_err(err)? {
            return Ok((0, 0));
        }
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(err)?;
        let (entries, bytes): (i64, i64) = tx
            .query_row(
                "SELECT COUNT(*), COALESCE(SUM(length(key) + length(value)), 0) FROM entries",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(err)?;
        tx.execute("DELETE FROM entries", []).map_err(err)?;
        tx.commit().map_err(err)?;
        Ok((
            u64::try_from(entries).unwrap_or(0),
            u64::try_from(bytes).unwrap_or(0),
        ))
    }

    /// Gives the freed pages back to the file system. Best effort: another
    /// process reading at that moment makes it a no-op, and the entries are
    /// gone either way.
    fn shrink(&self) {
        let conn = self.conn();
        if let Err(e) = conn.execute_batch("VACUUM") {
            tracing::debug!("cache vacuum skipped: {e}");
        }
        if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())) {
            tracing::debug!("cache checkpoint skipped: {e}");
        }
    }
}

fn open_with_retry(path: &Path, mode: Mode) -> Result<Store, CacheError> {
    let mut attempt = 0;
    loop {
        match open_once(path, mode) {
            Err(e) if e.kind() == CacheErrorKind::Busy && attempt + 1 < OPEN_ATTEMPTS => {
                attempt += 1;
                // Another process is creating or switching the same file; it
                // takes milliseconds.
                std::thread::sleep(Duration::from_millis(25 * u64::from(attempt.min(8))));
            }
            r => return r,
        }
    }
}

fn open_once(path: &Path, mode: Mode) -> Result<Store, CacheError> {
    let err = |e: rusqlite::Error| CacheError::sqlite(&e, path);
    let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    if mode == Mode::Serve {
        flags |= OpenFlags::SQLITE_OPEN_CREATE;
    }
    let conn = Connection::open_with_flags(path, flags).map_err(err)?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(err)?;
    // WAL is a property of the file: set once, every later connection finds it.
    // Readers then never wait for the writer, and the writer waits only for
    // another writer.
    let journal: String = conn
        .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
        .map_err(err)?;
    if !journal.eq_ignore_ascii_case("wal") {
        // A file system without shared memory (some network mounts): SQLite's
        // file locks still make it safe, with less concurrency.
        tracing::debug!(journal, "the cache file is not in WAL mode");
    }
    // In WAL mode NORMAL cannot corrupt the file; a power cut may lose the
    // last writes, which for a cache is a few misses.
    conn.execute_batch(&format!(
        "PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = {WAL_SIZE_LIMIT};"
    ))
    .map_err(err)?;
    let id: i32 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .map_err(err)?;
    let tables: i64 = conn
        .query_row("SELECT COUNT(*) FROM sqlite_schema", [], |r| r.get(0))
        .map_err(err)?;
    if id != APPLICATION_ID && (id != 0 || tables > 0) {
        return Err(CacheError::new(
            CacheErrorKind::Foreign,
            "the cache file is a database that farsight did not create",
            path,
        ));
    }
    if mode == Mode::Serve && !has_entries_table(&conn).map_err(err)? {
        create_schema(&conn).map_err(err)?;
    }
    Ok(Store {
        path: path.to_path_buf(),
        max_bytes: DEFAULT_MAX_DISK_BYTES,
        conn: Mutex::new(conn),
    })
}

fn create_schema(conn: &Connection) -> rusqlite::Result<()> {
    // IMMEDIATE takes the write lock first (waiting on busy_timeout), so two
    // processes creating the file at once take turns; the second finds the
    // table there.
    conn.execute_batch(&format!(
        "BEGIN IMMEDIATE; {SCHEMA} PRAGMA application_id = {APPLICATION_ID}; COMMIT;"
    ))
    .inspect_err(|_| {
        let _ = conn.execute_batch("ROLLBACK");
    })
}

fn has_entries_table(conn: &Connection) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'entries'",
        [],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n > 0)
}

fn remove_store_files(path: &Path) -> std::io::Result<()> {
    for suffix in ["-wal", "-shm"] {
        let mut side = path.as_os_str().to_owned();
        side.push(suffix);
        match std::fs::remove_file(PathBuf::from(side)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    std::fs::remove_file(path)
}

/// Bytes of the database's pages that hold data (free pages, reused by the
/// next writes, are not counted). Two reads of the header page.
fn used_bytes(conn: &Connection) -> rusqlite::Result<u64> {
    let pragma = |name: &str| conn.query_row(&format!("PRAGMA {name}"), [], |r| r.get::<_, i64>(0));
    let pages = pragma("page_count")? - pragma("freelist_count")?;
    let size = pragma("page_size")?;
    Ok(u64::try_from(pages.max(0) * size).unwrap_or(0))
}

/// Bytes of the file and its write-ahead log.
fn file_bytes(path: &Path) -> u64 {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    [path.to_path_buf(), PathBuf::from(wal)]
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum()
}

/// Now, in milliseconds since the Unix epoch: the clock every process shares.
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reopening_keeps_the_entries() {
        let dir = tempfile::tempdir().unwrap();
        let far = now_ms() + 60_000;
        Store::open(dir.path(), DEFAULT_MAX_DISK_BYTES)
            .unwrap()
            .put("page", "k", b"kept", far, now_ms())
            .unwrap();
        let again = Store::open(dir.path(), DEFAULT_MAX_DISK_BYTES).unwrap();
        assert_eq!(
            again.get("page", "k", now_ms()),
            Some((b"kept".to_vec(), far))
        );
        assert_eq!(again.get("search", "k", now_ms()), None);
    }

    #[test]
    fn a_file_over_its_limit_evicts_expired_entries_then_the_oldest() {
        let dir = tempfile::tempdir().unwrap();
        let limit = 400 * 1024;
        let store = Store::open(dir.path(), limit).unwrap();
        let value = vec![7u8; 20 * 1024];
        let t0 = now_ms();
        let far = t0 + 3_600_000;
        // Stored last but expired: the first to go.
        let mut evicted = 0;
        for i in 0..60u64 {
            evicted += store
                .put("page", &format!("p{i}"), &value, far, t0 + i)
                .unwrap();
            if i == 5 {
                store.put("search", "gone", &value, t0, t0 + 100).unwrap();
            }
        }
        assert!(evicted > 0);
        let used = used_bytes(&store.conn()).unwrap();
        assert!(used <= limit, "{used} bytes in use, limit {limit}");
        let now = t0 + 1;
        // The expired entry went first, the newest entries stayed, the oldest
        // went.
        let kept: Vec<bool> = (0..60)
            .map(|i| store.get("page", &format!("p{i}"), now).is_some())
            .collect();
        assert_eq!(info(dir.path()).unwrap().expired, 0);
        assert!(kept[59] && kept[50], "{kept:?}");
        assert!(!kept[0] && !kept[10], "{kept:?}");
        // Kept entries are the newest ones, without holes.
        let first_kept = kept.iter().position(|k| *k).unwrap();
        assert!(kept[first_kept..].iter().all(|k| *k), "{kept:?}");
        // Nearly the whole limit is still used: eviction stops at 90%, not 0.
        assert!(first_kept < 50, "{kept:?}");
    }

    #[test]
    fn under_the_limit_nothing_is_evicted() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), DEFAULT_MAX_DISK_BYTES).unwrap();
        let value = vec![1u8; 64 * 1024];
        for i in 0..20 {
            let evicted = store
                .put(
                    "page",
                    &format!("p{i}"),
                    &value,
                    now_ms() + 60_000,
                    now_ms(),
                )
                .unwrap();
            assert_eq!(evicted, 0);
        }
        assert_eq!(info(dir.path()).unwrap().entries, 20);
    }

    #[test]
    fn opening_reads_no_entry() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), DEFAULT_MAX_DISK_BYTES).unwrap();
        let value = vec![3u8; 256 * 1024];
        for i in 0..8 {
            store
                .put("page", &format!("p{i}"), &value, now_ms() - 1, now_ms())
                .unwrap();
        }
        drop(store);
        // Expired entries are still there after a new open: opening neither
        // purged nor read them (deleting a value walks its pages).
        let _again = Store::open(dir.path(), DEFAULT_MAX_DISK_BYTES).unwrap();
        assert_eq!(info(dir.path()).unwrap().expired, 8);
    }

    #[test]
    fn an_expired_entry_is_a_miss_and_is_purged() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), DEFAULT_MAX_DISK_BYTES).unwrap();
        let now = now_ms();
        store.put("page", "old", b"v", now - 1, now_ms()).unwrap();
        store
            .put("page", "new", b"v", now + 60_000, now_ms())
            .unwrap();
        assert_eq!(store.get("page", "old", now), None);
        assert!(store.get("page", "new", now).is_some());
        // Still on disk until purged.
        assert_eq!(info(dir.path()).unwrap().expired, 1);
        assert_eq!(store.purge_expired(now).unwrap(), 1);
        let i = info(dir.path()).unwrap();
        assert_eq!((i.entries, i.expired), (1, 0));
    }

    #[test]
    fn rows_of_the_wrong_shape_are_misses() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), DEFAULT_MAX_DISK_BYTES).unwrap();
        let far = i64::try_from(now_ms() + 60_000).unwrap();
        // SQLite keeps whatever type is given; a row written by something
        // else is read as a miss, never as a value.
        store
            .conn()
            .execute_batch(&format!(
                "INSERT INTO entries VALUES ('page', 'text', {far}, 0, 'not a blob');
                 INSERT INTO entries VALUES ('page', 'when', 'tomorrow', 0, x'01');
                 INSERT INTO entries VALUES ('page', 'neg', -5, 0, x'01');"
            ))
            .unwrap();
        for key in ["text", "when", "neg"] {
            assert_eq!(store.get("page", key, now_ms()), None, "{key}");
        }
        // A good write replaces the bad row.
        store
            .put("page", "text", b"fine", now_ms() + 60_000, now_ms())
            .unwrap();
        assert_eq!(
            store.get("page", "text", now_ms()).map(|(v, _)| v),
            Some(b"fine".to_vec())
        );
    }

    #[test]
    fn a_damaged_file_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(FILE_NAME),
            b"this is not an SQLite database, not even close, and it goes on for a while",
        )
        .unwrap();
        assert_eq!(
            info(dir.path()).err().map(|e| e.kind()),
            Some(CacheErrorKind::Damaged)
        );
        let store = Store::open(dir.path(), DEFAULT_MAX_DISK_BYTES).unwrap();
        store
            .put("page", "k", b"v", now_ms() + 60_000, now_ms())
            .unwrap();
        assert!(store.get("page", "k", now_ms()).is_some());
    }

    #[test]
    fn clear_deletes_a_damaged_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(
            &path,
            b"not a database, and long enough to be read as a header",
        )
        .unwrap();
        let c = clear(dir.path()).unwrap();
        assert!(c.damaged);
        assert!(!path.exists());
        assert!(!info(dir.path()).unwrap().exists);
    }

    #[test]
    fn a_foreign_database_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        Connection::open(&path)
            .unwrap()
            .execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');")
            .unwrap();
        let err = Store::open(dir.path(), DEFAULT_MAX_DISK_BYTES)
            .err()
            .unwrap();
        assert_eq!(err.kind(), CacheErrorKind::Foreign);
        let body: String = Connection::open(&path)
            .unwrap()
            .query_row("SELECT body FROM notes", [], |r| r.get(0))
            .unwrap();
        assert_eq!(body, "mine");
    }

    #[test]
    fn two_connections_see_each_others_writes() {
        let dir = tempfile::tempdir().unwrap();
        let a = Store::open(dir.path(), DEFAULT_MAX_DISK_BYTES).unwrap();
        let b = Store::open(dir.path(), DEFAULT_MAX_DISK_BYTES).unwrap();
        a.put("page", "from-a", b"a", now_ms() + 60_000, now_ms())
            .unwrap();
        b.put("page", "from-b", b"b", now_ms() + 60_000, now_ms())
            .unwrap();
        assert!(b.get("page", "from-a", now_ms()).is_some());
        assert!(a.get("page", "from-b", now_ms()).is_some());
    }

    #[test]
    fn info_counts_per_namespace_and_clear_empties() {
        let dir = tempfile::tempdir().unwrap();
        let missing = info(dir.path()).unwrap();
        assert!(!missing.exists);
        assert!(!dir.path().join(FILE_NAME).exists(), "info creates nothing");
        let store = Store::open(dir.path(), DEFAULT_MAX_DISK_BYTES).unwrap();
        let far = now_ms() + 60_000;
        store.put("page", "a", b"12345", far, now_ms()).unwrap();
        store.put("page", "b", b"12345", far, now_ms()).unwrap();
        store.put("search", "q", b"1", far, now_ms()).unwrap();
        std::fs::write(dir.path().join("cache.redb"), b"old").unwrap();
        let i = info(dir.path()).unwrap();
        assert!(i.exists);
        assert_eq!(i.entries, 3);
        assert_eq!(i.bytes, 6 + 6 + 2);
        assert!(i.file_bytes > 0);
        let names: Vec<_> = i
            .namespaces
            .iter()
            .map(|n| (n.name.as_str(), n.entries))
            .collect();
        assert_eq!(names, [("page", 2), ("search", 1)]);

        let c = clear(dir.path()).unwrap();
        assert_eq!((c.entries, c.bytes), (3, 14));
        assert_eq!(c.legacy_files, [dir.path().join("cache.redb")]);
        assert!(!dir.path().join("cache.redb").exists());
        // The open connection sees the store empty, and keeps working.
        assert_eq!(store.get("page", "a", now_ms()), None);
        store.put("page", "c", b"v", far, now_ms()).unwrap();
        assert_eq!(info(dir.path()).unwrap().entries, 1);
    }
}
