//! A blog archive's description outside its main region: WordPress prints
//! a category's or tag's description (`the_archive_description()`, the
//! Genesis framework's `archive-description` block) above the region that
//! holds the archive's posts, and on many themes outside `<main>`. A
//! scoring engine picks the description, the one block of prose; the posts
//! are titles alone. The archive is both.

use dom_query::{Document, NodeId, NodeRef};

use crate::region;
use crate::words::Words;
use crate::words::tables::ARCHIVE_DESCRIPTION;

/// How many levels above or below a picked block its description's class
/// may sit (a theme's wrappers: `custom-archive-description` > `wrap` >
/// `archive-description`).
const LEVELS: usize = 3;

/// The picked block and the page's main region, in page order, when
/// `roots` is one block that is (or wraps, or lies in) an archive's
/// description (`words::ARCHIVE_DESCRIPTION`) outside that region.
pub(crate) fn with_region(doc: &Document, roots: &[NodeId]) -> Option<Vec<NodeId>> {
    let [root] = roots else {
        return None;
    };
    let root = doc.tree.get(root)?;
    if !describes(&root) {
        return None;
    }
    let main = doc.tree.get(&region::find(doc)?)?;
    if main.ancestors_it(None).any(|a| a.id == root.id)
        || root.ancestors_it(None).any(|a| a.id == main.id)
    {
        return None;
    }
    // Page order: which of the two a walk of the page meets first.
    let first = doc
        .root()
        .descendants_it()
        .find(|n| n.id == root.id || n.id == main.id)?;
    Some(if first.id == root.id {
        vec![root.id, main.id]
    } else {
        vec![main.id, root.id]
    })
}

/// Whether `n`, an element a few levels above it or below it, is named an
/// archive's description.
fn describes(n: &NodeRef<'_>) -> bool {
    let named =
        |e: &NodeRef<'_>| e.is_element() && ARCHIVE_DESCRIPTION.matches(&Words::of_class(e));
    let mut below = vec![(*n, 0)];
    while let Some((e, depth)) = below.pop() {
        if named(&e) {
            return true;
        }
        if depth < LEVELS {
            below.extend(
                e.children_it(false)
                    .filter(|c| c.is_element())
                    .map(|c| (c, depth + 1)),
            );
        }
    }
    n.ancestors_it(Some(LEVELS)).any(|a| named(&a))
}
