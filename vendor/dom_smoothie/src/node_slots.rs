//! farsight: a map from a tree's nodes to values, looked up by the node's
//! index in the tree's node array instead of by hashing its `NodeId`.
//!
//! dom_query 0.29 keeps that index crate-private; `NodeId`'s derived `Hash`
//! writes it (plus one) as its one `u32`, which a `Hasher` can read. When
//! it writes anything else (another dom_query), or the value is too large
//! for a table, the id is kept in a hash map instead: the answers are the
//! same either way, only their cost differs.

use std::hash::{Hash, Hasher};

use dom_query::NodeId;
use foldhash::HashMap;

/// Raw values at or above this go to the hash map (a table of `u32` this
/// long is 4 MiB; a page's tree is far smaller).
const MAX_RAW: u32 = 1 << 20;

/// The one `u32` a `NodeId`'s `Hash` writes: distinct ids write distinct
/// values (equal ids are equal in it), so it can index a table.
fn raw_of(id: NodeId) -> Option<u32> {
    let mut reader = OneU32::default();
    id.hash(&mut reader);
    match reader {
        OneU32 {
            value: Some(raw),
            other: false,
        } if raw < MAX_RAW => Some(raw),
        _ => None,
    }
}

/// A `Hasher` that keeps the `u32` written to it; `other` when anything
/// else (or a second `u32`) was written.
#[derive(Default)]
struct OneU32 {
    value: Option<u32>,
    other: bool,
}

impl Hasher for OneU32 {
    fn finish(&self) -> u64 {
        0
    }

    fn write(&mut self, _bytes: &[u8]) {
        self.other = true;
    }

    fn write_u32(&mut self, n: u32) {
        if self.value.replace(n).is_some() {
            self.other = true;
        }
    }
}

/// Values by node. `by_raw[raw]` is the value's place in `values` plus one
/// (0: none); ids without a raw value are in `others`.
pub(crate) struct NodeSlots<T> {
    by_raw: Vec<u32>,
    others: HashMap<NodeId, u32>,
    values: Vec<T>,
}

impl<T> Default for NodeSlots<T> {
    fn default() -> Self {
        NodeSlots {
            by_raw: Vec::new(),
            others: HashMap::default(),
            values: Vec::new(),
        }
    }
}

impl<T: Copy> NodeSlots<T> {
    fn place(&self, id: NodeId) -> Option<usize> {
        let place = match raw_of(id) {
            Some(raw) => self.by_raw.get(raw as usize).copied().unwrap_or(0),
            None => self.others.get(&id).copied().unwrap_or(0),
        };
        (place as usize).checked_sub(1)
    }

    pub(crate) fn get(&self, id: NodeId) -> Option<T> {
        self.place(id).and_then(|i| self.values.get(i).copied())
    }

    pub(crate) fn contains(&self, id: NodeId) -> bool {
        self.place(id).is_some()
    }

    pub(crate) fn insert(&mut self, id: NodeId, value: T) {
        if let Some(i) = self.place(id) {
            if let Some(slot) = self.values.get_mut(i) {
                *slot = value;
                return;
            }
        }
        // Past u32::MAX values the id is not kept: a lookup then finds none
        // and its caller works the value out again (same answer).
        let Ok(place) = u32::try_from(self.values.len() + 1) else {
            return;
        };
        self.values.push(value);
        match raw_of(id) {
            Some(raw) => {
                let raw = raw as usize;
                if self.by_raw.len() <= raw {
                    self.by_raw.resize(raw + 1, 0);
                }
                self.by_raw[raw] = place;
            }
            None => {
                self.others.insert(id, place);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_raw_values_are_distinct_and_kept() {
        let doc = dom_query::Document::from("<div><p>a</p><p>b<i>c</i></p></div>");
        let ids: Vec<NodeId> = doc.root().descendants_it().map(|n| n.id).collect();
        let raws: Vec<u32> = ids.iter().filter_map(|&id| raw_of(id)).collect();
        // dom_query 0.29 writes one u32 per id: the table is used.
        assert_eq!(raws.len(), ids.len());
        let mut sorted = raws.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), raws.len());

        let mut slots = NodeSlots::default();
        for (i, &id) in ids.iter().enumerate() {
            assert!(!slots.contains(id));
            slots.insert(id, i);
        }
        for (i, &id) in ids.iter().enumerate() {
            assert_eq!(slots.get(id), Some(i));
        }
        slots.insert(ids[0], 99);
        assert_eq!(slots.get(ids[0]), Some(99));
        assert_eq!(slots.get(doc.root().id), None);
    }
}
