//! Why the on-disk cache could not be opened, read or cleared.
//!
//! Only [`crate::Cache::try_open`], [`crate::Cache::info_at`] and
//! [`crate::Cache::clear_at`] return it: the cache itself never fails a
//! fetch, it misses.

use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong with the cache file.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CacheErrorKind {
    /// The directory or the file cannot be created or opened (permissions, a
    /// read-only disk, a damaged file that could not be replaced).
    Unavailable,
    /// Another process held the file for longer than the busy timeout.
    Busy,
    /// The file is an SQLite database that farsight did not create.
    Foreign,
    /// The file is damaged (not a database, or a damaged one).
    Damaged,
    /// A statement failed on an open file (disk full, damage found late).
    Failed,
}

/// A failed cache operation: a kind, a message, the file, and what to do.
#[derive(Clone)]
pub struct CacheError {
    // Boxed so that `Result<_, CacheError>` stays one pointer wide, like
    // `crate::Error`.
    inner: Box<Inner>,
}

#[derive(Clone)]
struct Inner {
    kind: CacheErrorKind,
    message: String,
    path: PathBuf,
}

impl CacheError {
    pub(crate) fn new(kind: CacheErrorKind, message: impl Into<String>, path: &Path) -> Self {
        Self {
            inner: Box::new(Inner {
                kind,
                message: message.into(),
                path: path.to_path_buf(),
            }),
        }
    }

    /// An SQLite error, sorted into a kind.
    pub(crate) fn sqlite(e: &rusqlite::Error, path: &Path) -> Self {
        let kind = match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                CacheErrorKind::Busy
            }
            Some(
                rusqlite::ErrorCode::CannotOpen
                | rusqlite::ErrorCode::PermissionDenied
                | rusqlite::ErrorCode::ReadOnly,
            ) => CacheErrorKind::Unavailable,
            Some(rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt) => {
                CacheErrorKind::Damaged
            }
            _ => CacheErrorKind::Failed,
        };
        Self::new(kind, e.to_string(), path)
    }

    /// What went wrong.
    #[must_use]
    pub fn kind(&self) -> CacheErrorKind {
        self.inner.kind
    }

    /// What went wrong, for a person.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// The cache file (or directory) concerned.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// What to do about it.
    #[must_use]
    pub fn suggestion(&self) -> &'static str {
        match self.inner.kind {
            CacheErrorKind::Unavailable => {
                "Check that the cache directory is writable, or choose another one with \
                 [cache].dir or FARSIGHT_CACHE_DIR."
            }
            CacheErrorKind::Busy => {
                "Another farsight process held the cache file for a long time; try again."
            }
            CacheErrorKind::Foreign => {
                "Move that file away or choose another directory with [cache].dir or \
                 FARSIGHT_CACHE_DIR."
            }
            CacheErrorKind::Damaged => {
                "Run `farsight cache clear`, or delete the file: farsight creates it again."
            }
            CacheErrorKind::Failed => {
                "Check the free space on the cache's disk; if it persists, run \
                 `farsight cache clear`."
            }
        }
    }
}

impl fmt::Display for CacheError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.inner.message, self.inner.path.display())
    }
}

impl fmt::Debug for CacheError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CacheError")
            .field("kind", &self.inner.kind)
            .field("message", &self.inner.message)
            .field("path", &self.inner.path)
            .finish()
    }
}

impl std::error::Error for CacheError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_one_pointer_wide() {
        assert_eq!(
            std::mem::size_of::<CacheError>(),
            std::mem::size_of::<usize>()
        );
    }

    #[test]
    fn busy_and_unavailable_are_told_apart() {
        let busy = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
            None,
        );
        let p = Path::new("/tmp/x");
        assert_eq!(CacheError::sqlite(&busy, p).kind(), CacheErrorKind::Busy);
        let notadb = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_NOTADB),
            None,
        );
        let e = CacheError::sqlite(&notadb, p);
        assert_eq!(e.kind(), CacheErrorKind::Damaged);
        assert!(e.to_string().ends_with("(/tmp/x)"), "{e}");
        assert!(e.suggestion().contains("farsight cache clear"));
    }
}
