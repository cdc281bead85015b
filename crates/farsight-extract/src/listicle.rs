//! A listicle whose entries are list items: a "top 20" article written as
//! one `<ol>`/`<ul>` whose every `<li>` holds an entry's heading, picture
//! and paragraphs (Top Gear's and many magazines' ranked lists, a
//! WordPress list block of sections). A scoring engine picks the text of
//! the entry with the most prose, deep inside one `<li>`, and never looks
//! at the other items, which are not its siblings: the list is the content.

use dom_query::{Document, NodeId, NodeRef};

/// Levels above the picked block searched for its `<li>`: an entry's text
/// sits a few wrappers below it (item → body → text column → prose).
const ITEM_LEVELS: usize = 5;

/// Items of the list, the picked one included, that are entries (a
/// heading and prose) for the list to be a listicle.
const MIN_ENTRIES: usize = 3;

/// Characters of text outside its heading for an item to be an entry, not
/// a menu's or a table of contents' line.
const ENTRY_TEXT: usize = 200;

/// The list around `roots` when they are one block inside one entry of a
/// listicle: the nearest `<li>` at most [`ITEM_LEVELS`] above the one
/// root, holding all of it, whose parent list holds at least
/// [`MIN_ENTRIES`] items with a heading and [`ENTRY_TEXT`] characters
/// besides it, the others together at least half as much text as the
/// picked item (not one long section beside a few short notes).
pub(crate) fn list_of(doc: &Document, roots: &[NodeId]) -> Option<NodeId> {
    let [root] = roots else {
        return None;
    };
    let root = doc.tree.get(root)?;
    let item = std::iter::once(root)
        .chain(root.ancestors_it(Some(ITEM_LEVELS)))
        .find(|a| a.node_name().as_deref() == Some("li"))?;
    let list = item.parent()?;
    if !matches!(list.node_name().as_deref(), Some("ol" | "ul")) {
        return None;
    }
    let (mut entries, mut others) = (0, 0);
    for li in list.children_it(false) {
        if li.node_name().as_deref() != Some("li") {
            continue;
        }
        if is_entry(&li) {
            entries += 1;
        }
        if li.id != item.id {
            others += li.normalized_char_count();
        }
    }
    (entries >= MIN_ENTRIES && others * 2 >= item.normalized_char_count()).then_some(list.id)
}

/// An item with a heading and [`ENTRY_TEXT`] characters besides it.
fn is_entry(li: &NodeRef<'_>) -> bool {
    let heading: usize = li
        .descendants_it()
        .filter(|n| {
            matches!(
                n.node_name().as_deref(),
                Some("h2" | "h3" | "h4" | "h5" | "h6")
            )
        })
        .map(|h| h.normalized_char_count())
        .sum();
    heading > 0 && li.normalized_char_count() >= heading + ENTRY_TEXT
}
