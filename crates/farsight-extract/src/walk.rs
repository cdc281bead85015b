//! The elements below the chosen roots in page order, with the link text of
//! the rows of cards among them: what link density (pass 2) and the inner
//! furniture (pass 3) both weigh. Read once where both look at the same,
//! unchanged page (a dry run, `passes::kept_after`): finding the cards was
//! a tenth of a large page's time, and each dry run found them twice.

use dom_query::{Document, NodeId, NodeRef};

use crate::density::{self, Stats};
use crate::fasthash::FastMap;
use crate::kind::PageKind;

pub(crate) struct Walk<'a> {
    /// The roots and their descendants, each root before its insides.
    pub order: Vec<NodeRef<'a>>,
    /// On a page that lists things, the link text inside rows of cards
    /// below each element (see `cards::card_link_text`): entries, not
    /// runs of links. Empty elsewhere.
    pub card_links: FastMap<NodeId, usize>,
}

impl<'a> Walk<'a> {
    pub(crate) fn of(doc: &'a Document, roots: &[NodeId], kind: PageKind) -> Self {
        let mut order: Vec<NodeRef<'a>> = Vec::new();
        for r in roots.iter().filter_map(|r| doc.tree.get(r)) {
            order.push(r);
            order.extend(r.descendants_it());
        }
        Self::of_order(order, kind, None)
    }

    /// The walk whose elements, in order, are `order` (as [`Walk::of`]
    /// lists them), read already; with `stats` when there are (the
    /// figures of a [`Read`] of one root: see `cards::card_link_text`).
    pub(crate) fn of_order(
        order: Vec<NodeRef<'a>>,
        kind: PageKind,
        stats: Option<&FastMap<NodeId, Stats>>,
    ) -> Self {
        let card_links = if kind.lists() {
            crate::cards::card_link_text(&order, stats)
        } else {
            FastMap::default()
        };
        Self { order, card_links }
    }
}

/// The elements below one root, the root first, in page order (as
/// [`Walk::of`] lists them), with their figures (`density::subtree_stats`,
/// whole cards read off articles): what passes 1 and 2 both weigh. Valid
/// while the page is unchanged: read once for both when pass 1 removes
/// nothing, or in a dry run.
pub(crate) type Read<'a> = (Vec<NodeRef<'a>>, FastMap<NodeId, Stats>);

/// The [`Read`] of `root`.
pub(crate) fn read(root: NodeRef<'_>, kind: PageKind) -> Read<'_> {
    let order: Vec<NodeRef<'_>> = std::iter::once(root).chain(root.descendants_it()).collect();
    let stats = density::subtree_stats(&order, !kind.article);
    (order, stats)
}
