//! Pages that are not articles — service and landing pages, shop
//! categories, listings, product pages — spread their content over many
//! sibling sections: a hero, feature cards, a grid of items, an FAQ. A
//! Readability-style engine picks the one block that scores best and leaves
//! the rest; people marking such a page keep everything between the header
//! and the footer. The region is that: the page's `<main>` without
//! furniture (a thread's, or a failed page's, body when it has no `<main>`).

use dom_query::{Document, NodeId, NodeRef};

use crate::kind::PageKind;
use crate::{boilerplate, density};

/// Class/id words of furniture that sits inside `<main>` on such pages, on
/// top of [`boilerplate::is_noise`]'s.
const REGION_NOISE: [&str; 24] = [
    "rating",
    "ratings",
    "cart",
    "basket",
    "star-rating",
    "stars",
    "toc",
    "filter",
    "filters",
    "facet",
    "facets",
    "sort",
    "sorting",
    "pagination",
    "pager",
    "recently",
    "upsell",
    "upsells",
    "crosssell",
    "cross-sell",
    "breadcrumbs",
    "feedback",
    "announcement",
    "toolbar",
];

/// The main region of `doc`: its largest visible `<main>` (or
/// `role="main"`) element. A page without one has not said where its
/// content is, and its body minus furniture still holds tag clouds and
/// archive lists: Readability's choice stands there.
pub(crate) fn find(doc: &Document) -> Option<NodeId> {
    let mut best: Option<(NodeRef<'_>, usize)> = None;
    for n in doc.root().descendants_it() {
        let is_main = n.node_name().as_deref() == Some("main")
            || n.attr("role")
                .is_some_and(|r| r.eq_ignore_ascii_case("main"));
        if !is_main {
            continue;
        }
        let chars = n.normalized_char_count();
        if best.as_ref().is_none_or(|(_, c)| chars > *c) {
            best = Some((n, chars));
        }
    }
    best.map(|(n, _)| n.id)
}

/// Removes furniture below `root`; an element holding over half of the
/// region's text is never furniture (a `content-with-sidebar` wrapper).
pub(crate) fn prune(doc: &Document, root: NodeId, kind: PageKind) {
    for id in furniture(doc, root, kind) {
        if let Some(n) = doc.tree.get(&id) {
            n.remove_from_parent();
        }
    }
}

/// The furniture below `root`, in page order (nested ones too).
pub(crate) fn furniture(doc: &Document, root: NodeId, kind: PageKind) -> Vec<NodeId> {
    let Some(r) = doc.tree.get(&root) else {
        return Vec::new();
    };
    let order: Vec<NodeRef<'_>> = std::iter::once(r).chain(r.descendants_it()).collect();
    let stats = density::subtree_stats(&order);
    let text = |id: &NodeId| stats.get(id).map_or(0, |s| s.text);
    let most = text(&root) / 2;
    order
        .iter()
        .skip(1)
        .filter(|n| n.is_element() && text(&n.id) <= most)
        .filter(|n| is_furniture(n, kind))
        .map(|n| n.id)
        .collect()
}

fn is_furniture(n: &NodeRef<'_>, kind: PageKind) -> bool {
    if boilerplate::is_noise_in(n, kind.discussion) {
        return true;
    }
    let class = n.attr("class").unwrap_or_default().to_ascii_lowercase();
    let id = n.attr("id").unwrap_or_default().to_ascii_lowercase();
    // "Showing 1-12 of 40 results".
    if [
        "result-count",
        "results-count",
        "resultcount",
        "serp-count",
        "grid-count",
    ]
    .iter()
    .any(|f| class.contains(f))
    {
        return true;
    }
    // "Edit this page" links of documentation; not the word "edit" alone,
    // which GitHub puts on the wrapper of every comment.
    if ["edit-this-page", "edit-page", "editthispage", "page-edit"]
        .iter()
        .any(|f| class.contains(f) || id.contains(f))
    {
        return true;
    }
    let mut words = class
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
        .chain(id.split(|c: char| !c.is_ascii_alphanumeric() && c != '-'))
        .flat_map(|w| std::iter::once(w).chain(w.split('-')))
        .filter(|w| !w.is_empty());
    words.any(|w| REGION_NOISE.contains(&w))
}
