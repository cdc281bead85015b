//! How often each level of the cache answered, for `/metrics` (issue 15):
//! counted as lookups happen, read as a snapshot when scraped.

use std::sync::atomic::{AtomicU64, Ordering};

/// A level of the cache, in the order a lookup tries them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheLevel {
    /// This process's memory.
    Memory,
    /// The Redis shared by the instances.
    Redis,
    /// The local SQLite file.
    Disk,
}

impl CacheLevel {
    /// Every level, in lookup order.
    pub const ALL: [CacheLevel; 3] = [CacheLevel::Memory, CacheLevel::Redis, CacheLevel::Disk];

    fn index(self) -> usize {
        self as usize
    }
}

/// Hits and misses of one level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HitsMisses {
    /// Lookups this level answered.
    pub hits: u64,
    /// Lookups this level did not answer (the next level was asked).
    pub misses: u64,
}

/// Hits and misses of every level since the cache was opened.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheLookups {
    levels: [HitsMisses; 3],
}

impl CacheLookups {
    /// The counts of `level`.
    pub fn of(&self, level: CacheLevel) -> HitsMisses {
        self.levels[level.index()]
    }
}

/// The live counters behind [`CacheLookups`].
#[derive(Debug, Default)]
pub(crate) struct LookupCounters {
    hits: [AtomicU64; 3],
    misses: [AtomicU64; 3],
}

impl LookupCounters {
    pub(crate) fn count(&self, level: CacheLevel, hit: bool) {
        let counters = if hit { &self.hits } else { &self.misses };
        counters[level.index()].fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn snapshot(&self) -> CacheLookups {
        let mut out = CacheLookups::default();
        for level in CacheLevel::ALL {
            out.levels[level.index()] = HitsMisses {
                hits: self.hits[level.index()].load(Ordering::Relaxed),
                misses: self.misses[level.index()].load(Ordering::Relaxed),
            };
        }
        out
    }
}
