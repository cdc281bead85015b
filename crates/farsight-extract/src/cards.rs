//! Listings and collections: when the chosen content is one card of a row of
//! alike cards (search results, products, jobs, posts of a thread), the
//! content is the row, not the one card that happened to score best.
//!
//! dom_smoothie moves the node it picks out of its parent, so the row is
//! found on a fresh parse of the same text: parsing and hidden-element
//! removal are deterministic and node ids are arena indices that later edits
//! do not renumber, so an id names the same element in both documents (and
//! that is checked, not assumed).

use dom_query::{Document, NodeId, NodeRef};

use crate::fasthash::FastMap;

/// Cards in a row, the chosen one included, for it to be a listing.
const MIN_CARDS: usize = 3;

/// A listing found around the chosen content: the row's parent, and the
/// chosen card, to check against the fresh parse.
pub(crate) struct Row {
    parent: NodeId,
    card: NodeId,
    class: String,
}

/// Looks for the card the content consists of (an element with a class,
/// holding most of the content's text) whose alike siblings (same class;
/// dom_smoothie renames the card it moves, so not the tag) still sit
/// together elsewhere in `doc`. `html` is the text `doc` was parsed from.
pub(crate) fn find_row(doc: &Document, root: &NodeRef<'_>, html: &str) -> Option<Row> {
    // The outermost element with a class: the card, if this is a listing.
    let card = root
        .descendants_it()
        .find(|n| n.is_element() && n.attr("class").is_some_and(|c| !c.trim().is_empty()))?;
    let class = card.attr("class")?.to_string();
    // Most pages are not listings: a search of the text rules them out
    // before anything walks the tree.
    memchr::memmem::find_iter(html.as_bytes(), class.as_bytes()).nth(MIN_CARDS - 1)?;
    // The card holds most of the content.
    let card_text = text_len(&card);
    if card_text * 2 < text_len(root) {
        return None;
    }
    // Per parent: how many alike cards, and their text.
    let mut parents: FastMap<NodeId, (usize, usize)> = FastMap::default();
    for n in doc.root().descendants_it() {
        if n.is_element()
            && n.attr("class").is_some_and(|c| *c == *class)
            && let Some(p) = n.parent()
        {
            let e = parents.entry(p.id).or_default();
            e.0 += 1;
            e.1 += text_len(&n);
        }
    }
    let (&parent, &(count, text)) = parents.iter().max_by_key(|(id, c)| (c.0, **id))?;
    // The chosen card left its parent: the others must make up the rest of
    // the row, and hold as much text as it (layout rows around an article
    // share a class too, but not its weight).
    (count + 1 >= MIN_CARDS && text >= card_text).then_some(Row {
        parent,
        card: card.id,
        class,
    })
}

/// The row's parent in `fresh` (a new parse of the same text), if the
/// chosen card is one of its children there.
pub(crate) fn row_in(fresh: &Document, row: &Row) -> Option<NodeId> {
    let card = fresh.tree.get(&row.card)?;
    let parent = card.parent()?;
    let same = card.attr("class").is_some_and(|c| *c == *row.class);
    (same && parent.id == row.parent).then_some(parent.id)
}

fn text_len(n: &NodeRef<'_>) -> usize {
    n.normalized_char_count()
}
