//! Listings and collections: when the chosen content is one card of a row of
//! alike cards (search results, products, jobs, posts of a thread), the
//! content is the row, not the one card that happened to score best.

use dom_query::{Document, NodeId, NodeRef};

/// Cards in a row, the chosen one included, for it to be a listing.
const MIN_CARDS: usize = 3;

/// The row around `roots` when they are one card: the outermost element
/// with a class at or below the one root, holding most of its text, whose
/// parent holds at least [`MIN_CARDS`] children of the same class, the
/// others together holding as much text as it (layout rows around an
/// article share a class too, but not its weight). The row's parent.
pub(crate) fn row_of(doc: &Document, roots: &[NodeId]) -> Option<NodeId> {
    let [root] = roots else {
        return None;
    };
    let root = doc.tree.get(root)?;
    let card = std::iter::once(root)
        .chain(root.descendants_it())
        .find(|n| n.is_element() && n.attr("class").is_some_and(|c| !c.trim().is_empty()))?;
    let class = card.attr("class")?;
    let card_text = text_len(&card);
    if card_text * 2 < text_len(&root) {
        return None;
    }
    let parent = card.parent()?;
    let (mut count, mut others) = (0, 0);
    for s in parent.children_it(false) {
        if s.is_element() && s.attr("class").is_some_and(|c| *c == *class) {
            count += 1;
            if s.id != card.id {
                others += text_len(&s);
            }
        }
    }
    (count >= MIN_CARDS && others >= card_text).then_some(parent.id)
}

fn text_len(n: &NodeRef<'_>) -> usize {
    n.normalized_char_count()
}
