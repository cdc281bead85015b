//! Table entries arranged for matching: one table's (for a caller asking
//! about a raw class or id string), or every table's at once (the
//! lexicon, for [`Words`](super::Words)): a class or id is then read once
//! for all tables of a kind of matching, and each table's answer is one bit.
//!
//! The tables run on the class and id of every element of a page, several
//! passes asking several tables each; scanning each table's entries for
//! each question was the largest share of the time on pages of many
//! elements.

use std::sync::OnceLock;

use super::{How, Table, tables};
use crate::fasthash::FastMap;

/// Entries of one kind of matching, each carrying the bits of the tables
/// it belongs to.
pub(super) struct Index {
    how: How,
    /// The one-word entries (for [`How::Token`], every entry), and the
    /// first words of hyphenated [`How::Part`] entries, as bytes: a value
    /// is split on bytes (every separator is ASCII, and no byte of a
    /// character beyond ASCII is a letter or digit, so the words are the
    /// same as split on characters).
    singles: FastMap<&'static [u8], Word>,
    /// The entries of [`How::Fragment`] tables by their first byte: a value
    /// is read once, each of its bytes looking only at the entries that
    /// start with it. Each list is in the order of the entries' second
    /// bytes (a one-byte entry first): a byte looks only at the run of
    /// entries whose second byte is the next one's. Class and id values are short, where a searcher per
    /// entry (or an automaton) costs more to start than the whole scan.
    by_first: Vec<Vec<(&'static [u8], u64)>>,
    /// The first two bytes of the fragment entries, one bit per pair
    /// (a one-byte entry sets every pair it starts): most bytes of a value
    /// start no entry, and this says so without looking at any.
    pairs: Vec<u64>,
    /// Whether a byte starts a fragment entry, in either case: most bytes
    /// of a value start none, and one look says so; a value as the page
    /// wrote it is read without a lower-cased copy.
    starts: [bool; 256],
    /// The shortest entry's length: a shorter value matches nothing.
    pub(super) shortest: usize,
    /// For fragment entries all at least [`SKIP_FROM`] long: by a hash of
    /// two bytes (see [`block`]), how far a window of the shortest entry's
    /// length may move on when those bytes end it (Wu and Manber's
    /// multi-pattern search). Windows whose last two bytes end no entry's
    /// first `shortest` bytes are passed over, not read byte by byte.
    /// Empty when the entries are shorter (the skips would be too short
    /// to pay).
    shifts: Vec<u8>,
}

/// The shortest fragment entry that makes [`Index::fragments`] skip (see
/// `Index::shifts`). Three is enough to pay: consent notices' hints and
/// the lexicon (`cmp`, `cc-`) move on two bytes at a time on most class
/// names, and reading a window costs less than reading two bytes.
const SKIP_FROM: usize = 3;

/// Buckets of `Index::shifts`: two bytes, case folded, hashed into 12 bits.
/// Two blocks sharing a bucket share the smaller shift: a shorter skip,
/// never a missed entry.
const BLOCKS: usize = 4096;

/// The bucket of the two bytes `a` `b` (ASCII case ignored) in
/// `Index::shifts`. Setting bit 5 folds a capital onto its small letter
/// (and a few other bytes onto others: they only share a bucket, see
/// [`BLOCKS`]) in one instruction.
fn block(a: u8, b: u8) -> usize {
    ((usize::from(a | 0x20) << 5) ^ usize::from(b | 0x20)) & (BLOCKS - 1)
}

/// What one word of a value says.
#[derive(Default)]
struct Word {
    /// The tables with this word as an entry.
    mask: u64,
    /// The hyphenated entries this word starts: their other parts, which
    /// must follow it, and their tables.
    rows: Vec<(Vec<&'static [u8]>, u64)>,
}

impl Index {
    /// The entries of `tables` (all matching as `how`), each table
    /// answering with its bit.
    pub(super) fn of(how: How, tables: &[(&'static [&'static str], u64)]) -> Self {
        let mut index = Self {
            how,
            singles: FastMap::default(),
            by_first: Vec::new(),
            pairs: Vec::new(),
            starts: [false; 256],
            shortest: usize::MAX,
            shifts: Vec::new(),
        };
        if how == How::Fragment {
            index.by_first.resize(256, Vec::new());
            index.pairs.resize(256 * 256 / 64, 0);
        }
        for (entries, bit) in tables {
            for &e in entries.iter() {
                index.shortest = index.shortest.min(e.len());
                match how {
                    How::Part if e.contains('-') => {
                        let mut words = e.split('-').map(str::as_bytes);
                        let first = words.next().unwrap_or_default();
                        let word = index.singles.entry(first).or_default();
                        word.rows.push((words.collect(), *bit));
                    }
                    How::Token | How::Part => {
                        index.singles.entry(e.as_bytes()).or_default().mask |= bit
                    }
                    How::Fragment => {
                        let b = e.as_bytes();
                        if let Some(first) = b.first() {
                            index.by_first[usize::from(*first)].push((b, *bit));
                            index.starts[usize::from(*first)] = true;
                            index.starts[usize::from(first.to_ascii_uppercase())] = true;
                            let seconds = match b.get(1) {
                                Some(second) => usize::from(*second)..=usize::from(*second),
                                None => 0..=255,
                            };
                            for second in seconds {
                                index.set_pair(*first, second);
                            }
                        }
                    }
                }
            }
        }
        if index.shortest == usize::MAX {
            index.shortest = 0;
        }
        for list in &mut index.by_first {
            list.sort_by_key(|(e, _)| e.get(1).copied());
        }
        if how == How::Fragment && index.shortest >= SKIP_FROM {
            index.shifts = index.skips();
        }
        index
    }

    /// `Index::shifts` of the fragment entries: a window of `shortest`
    /// bytes ending with a block that ends the `q` first bytes of an entry
    /// may move on `shortest - q` bytes at most; a block ending none, by
    /// `shortest - 1` (its last byte may start an entry).
    fn skips(&self) -> Vec<u8> {
        let m = self.shortest;
        let most = u8::try_from(m - 1).unwrap_or(u8::MAX);
        let mut shifts = vec![most; BLOCKS];
        for (e, _) in self.by_first.iter().flatten() {
            for q in 2..=m {
                if let [.., a, b] = e[..q] {
                    let at = block(a, b);
                    let shift = u8::try_from(m - q).unwrap_or(u8::MAX);
                    shifts[at] = shifts[at].min(shift);
                }
            }
        }
        shifts
    }

    /// The bits of the tables with an entry that matches `value` (one
    /// lower-cased class or id value).
    pub(super) fn mask(&self, value: &str) -> u64 {
        if value.is_empty() || value.len() < self.shortest {
            return 0;
        }
        let mut mask = 0;
        match self.how {
            How::Token => {
                let names = value
                    .as_bytes()
                    .split(|b| b.is_ascii_whitespace() || *b == b'_')
                    .filter(|w| !w.is_empty());
                for t in names {
                    mask |= self.singles.get(t).map_or(0, |w| w.mask);
                }
            }
            // One split: each part is looked up, and a hyphenated entry is
            // tried only where its first part stands.
            How::Part => {
                let mut at = value
                    .as_bytes()
                    .split(|b| !b.is_ascii_alphanumeric())
                    .filter(|w| !w.is_empty());
                while let Some(p) = at.next() {
                    let Some(word) = self.singles.get(p) else {
                        continue;
                    };
                    mask |= word.mask;
                    for (rest, bit) in &word.rows {
                        if mask & bit == 0 && rest.iter().copied().eq(at.clone().take(rest.len())) {
                            mask |= bit;
                        }
                    }
                }
            }
            How::Fragment => mask = self.fragments(value.as_bytes()),
        }
        mask
    }

    /// [`Self::mask`] of `value` lower-cased (ASCII), without the copy:
    /// for a value as the page wrote it. Only fragment entries are found
    /// this way (the entries are lower case, a test says so).
    pub(super) fn mask_any_case(&self, value: &str) -> Option<u64> {
        if self.how != How::Fragment {
            return None;
        }
        if value.is_empty() || value.len() < self.shortest {
            return Some(0);
        }
        Some(self.fragments(value.as_bytes()))
    }

    /// The fragment entries found in `v` (`v` at least as long as the
    /// shortest), ASCII case ignored: an entry is lower case, so a byte
    /// of `v` equals its byte when lower-cased.
    fn fragments(&self, v: &[u8]) -> u64 {
        let mut mask = 0;
        if !self.shifts.is_empty() {
            // Windows of the shortest entry's length, each read at its
            // last two bytes (`p` is its last): only a window those bytes
            // may end an entry's start in is looked at from its first.
            let m = self.shortest;
            let mut p = m - 1;
            while let (Some(&a), Some(&b)) = (v.get(p - 1), v.get(p)) {
                let shift = self.shifts[block(a, b)];
                if shift > 0 {
                    p += usize::from(shift);
                    continue;
                }
                mask = self.entries_at(v, p + 1 - m, mask);
                p += 1;
            }
            return mask;
        }
        // An empty table (shortest 0) starts nothing: no byte past the end.
        let last = v.len() - self.shortest.max(1);
        for i in 0..=last {
            mask = self.entries_at(v, i, mask);
        }
        mask
    }

    /// `mask` with the bits of the fragment entries found in `v` at `i`.
    /// Inlined: the scan without skips calls it at every byte.
    #[inline(always)]
    fn entries_at(&self, v: &[u8], i: usize, mut mask: u64) -> u64 {
        let Some(&b) = v.get(i) else {
            return mask;
        };
        if !self.starts[usize::from(b)] {
            return mask;
        }
        let first = b.to_ascii_lowercase();
        let second = v.get(i + 1).map(u8::to_ascii_lowercase);
        if second.is_some_and(|second| !self.has_pair(first, second)) {
            return mask;
        }
        for (e, bit) in &self.by_first[usize::from(first)] {
            // In the order of their second bytes (entries are lower case):
            // past the run of the next byte's, none matches.
            if let (Some(&at), Some(second)) = (e.get(1), second) {
                if at < second {
                    continue;
                }
                if at > second {
                    break;
                }
            }
            if mask & bit == 0
                && v[i..]
                    .get(..e.len())
                    .is_some_and(|w| w.eq_ignore_ascii_case(e))
            {
                mask |= bit;
            }
        }
        mask
    }

    fn set_pair(&mut self, first: u8, second: usize) {
        let at = usize::from(first) * 256 + second;
        self.pairs[at / 64] |= 1 << (at % 64);
    }

    fn has_pair(&self, first: u8, second: u8) -> bool {
        let at = usize::from(first) * 256 + usize::from(second);
        self.pairs[at / 64] & (1 << (at % 64)) != 0
    }
}

/// Every table of [`tables::ALL`] in one [`Index`] per kind of matching
/// (by `How as usize`), a table's bit being its place in that list.
pub(super) fn lexicon() -> &'static [Index; 3] {
    static LEXICON: OnceLock<[Index; 3]> = OnceLock::new();
    LEXICON.get_or_init(|| {
        [How::Token, How::Part, How::Fragment].map(|how| {
            let of_how: Vec<(&'static [&'static str], u64)> = tables::ALL
                .iter()
                .enumerate()
                .filter(|(i, (_, t))| *i < 64 && t.how() == how)
                .map(|(i, (_, t))| (t.entries(), 1u64 << i))
                .collect();
            Index::of(how, &of_how)
        })
    })
}

/// The bit of `table` in the [`lexicon`]: `None` for a table missing from
/// [`tables::ALL`] (a test says there is none), which then reads values
/// on its own.
pub(super) fn bit_of(table: &Table) -> Option<u64> {
    tables::ALL
        .iter()
        .position(|(_, t)| std::ptr::eq(*t, table))
        .filter(|i| *i < 64)
        .map(|i| 1u64 << i)
}
