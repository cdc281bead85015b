//! Cleaning inside the chosen content: what sits in an article's container
//! without being the article — image captions and credits, gallery
//! controls, bylines and date lines, author boxes, tag lists, "Don't miss"
//! link runs, teaser cards, screen-reader-only text.
//!
//! Every rule is bounded by size: a match that holds a large share of the
//! content is never removed, so a container that happens to carry such a
//! class (`article-meta-body`) survives.

use crate::fasthash::FastMap;

use dom_query::{Document, NodeData, NodeId, NodeRef};

use crate::kind::PageKind;
use crate::words::tables::{
    AD, AUTHOR_BOX, AUTHOR_CARD, BADGE, BUY_BOX, CAPTION, HIDDEN, META, REVIEW, SCREEN_READER,
    SIGNATURE, TEASER, USER_PANEL,
};
use crate::words::{Table, Words};

#[derive(Default, Clone, Copy)]
struct Size {
    text: usize,
    link: usize,
    links: usize,
}

/// Removes the furniture described above from below `roots`. Bylines and
/// date lines go only from articles (a thread's posts and a listing's
/// entries show who and when); on a product page review widgets go
/// whatever their size.
pub(crate) fn clean(doc: &Document, roots: &[NodeId], kind: PageKind) {
    let (doomed, strip_text) = plan(doc, roots, kind);
    for n in strip_text.iter().filter_map(|id| doc.tree.get(id)) {
        let texts: Vec<NodeRef<'_>> = n.descendants_it().filter(|d| d.is_text()).collect();
        for t in texts {
            t.remove_from_parent();
        }
    }
    for n in doomed.iter().filter_map(|id| doc.tree.get(id)) {
        n.remove_from_parent();
    }
}

/// What [`clean`] removes, without changing the page: the elements that
/// go, and the elements whose text goes (a figure's, its media stay).
pub(crate) fn plan(doc: &Document, roots: &[NodeId], kind: PageKind) -> (Vec<NodeId>, Vec<NodeId>) {
    let mut order: Vec<NodeRef<'_>> = Vec::new();
    for r in roots.iter().filter_map(|r| doc.tree.get(r)) {
        order.push(r);
        order.extend(r.descendants_it());
    }
    let sizes = sizes(&order);
    let size = |id: &NodeId| sizes.get(id).copied().unwrap_or_default();
    let total: usize = roots.iter().map(|r| size(r).text).sum();
    // Nothing that holds this much of the content is furniture.
    let cap = |limit: usize| limit.min(total * 2 / 5);

    // A set: a page of many small roots (a long bare list) made this loop
    // quadratic with `roots.contains` (issue 11).
    let is_root: std::collections::HashSet<NodeId> = roots.iter().copied().collect();
    let mut doomed: Vec<NodeRef<'_>> = Vec::new();
    let mut strip_text: Vec<NodeRef<'_>> = Vec::new();
    for n in &order {
        if is_root.contains(&n.id) {
            continue;
        }
        let Some(name) = n.node_name() else {
            continue;
        };
        let s = size(&n.id);
        let words = Words::of(n);
        let has = |table: &Table| table.matches(&words);

        let remove = match &*name {
            // A quote's attribution ("Amara Osei, Head of Platform") is
            // what the testimonial says, not an image credit.
            "figcaption" => !n.parent().is_some_and(|f| has_any(&f, &["blockquote"])),
            // Form captions whose controls are gone ("Size", "Quantity").
            "label" | "legend" => s.text < cap(80),
            "fieldset" => s.text < cap(200),
            "figure" => {
                if has_media(n) && !has_any(n, &["pre", "blockquote", "table"]) {
                    strip_text.push(*n);
                }
                false
            }
            _ if has(&HIDDEN) || has(&SCREEN_READER) => s.text < cap(400),
            // "Sale", "Sold out", "New", "Best seller".
            _ if has(&BADGE) => s.text < cap(40),
            _ if kind.product && has(&REVIEW) => true,
            _ if kind.product && has(&BUY_BOX) => s.text < cap(600),
            // A post's signature, but Stack Exchange's `post-signature` is
            // the author card.
            _ if has(&USER_PANEL) || (has(&SIGNATURE) && !has(&AUTHOR_CARD)) => s.text < cap(600),
            _ if has(&AD) => s.text < cap(300),
            // Off articles, only next to an image: `text-caption` and
            // `caption-large` are also type sizes (Etsy's and Shopify's
            // listing titles). An article's gallery keeps its captions
            // after its images have gone.
            _ if has(&CAPTION) && (kind.article || near_media(n)) => s.text < cap(600),
            _ if has(&TEASER) => s.text < cap(1500),
            _ if has(&AUTHOR_BOX) => s.text < cap(1200),
            _ if has(&META) && kind.article && !kind.discussion => s.text < cap(200),
            "p" | "div" | "ul" | "section" => {
                // A run of two or more links with a label ("Don't miss:
                // A, B, C") inside the text; off articles and products (whose
                // rows are "you may also like"), not one of a row of alike
                // blocks, which is a listing's entry (an issue's title,
                // labels and author are all links).
                s.links >= 2
                    && s.link * 10 >= s.text * 7
                    && s.text < cap(600)
                    && (kind.article || kind.product || !in_row(n))
            }
            _ => false,
        };
        // News agencies end articles with their copyright line, and the
        // people marking articles keep it.
        if !remove && !kind.article && is_copyright_line(n, &name, s.text) {
            doomed.push(*n);
            continue;
        }
        if !remove && kind.article && !kind.discussion && is_date_line(n, &name, s.text) {
            doomed.push(*n);
            continue;
        }
        if remove {
            doomed.push(*n);
        }
    }
    (
        doomed.iter().map(|n| n.id).collect(),
        strip_text.iter().map(|n| n.id).collect(),
    )
}

/// A short block that is a copyright line ("© 2024 Example Inc. All rights
/// reserved."): a site's footer that ended up inside its content.
fn is_copyright_line(n: &NodeRef<'_>, name: &str, text: usize) -> bool {
    if !matches!(name, "p" | "div" | "span" | "small") || text > 300 {
        return false;
    }
    let t = n.text();
    let t = t.trim_start();
    t.starts_with('©') || t.starts_with("Copyright ©") || t.contains("All rights reserved")
}

/// A short block that is a `<time>` and a few words ("Updated 5:27 am").
fn is_date_line(n: &NodeRef<'_>, name: &str, text: usize) -> bool {
    if !matches!(name, "p" | "div" | "span" | "small" | "time") || text > 80 {
        return false;
    }
    name == "time"
        || n.descendants_it()
            .any(|d| d.node_name().as_deref() == Some("time"))
}

/// Whether `n`, or its parent or grandparent, has an element sibling of the
/// same tag and class beside it: an entry of a row of alike entries.
fn in_row(n: &NodeRef<'_>) -> bool {
    fn has_twin(e: &NodeRef<'_>) -> bool {
        let alike =
            |s: NodeRef<'_>| s.node_name() == e.node_name() && s.attr("class") == e.attr("class");
        e.prev_element_sibling().is_some_and(alike) || e.next_element_sibling().is_some_and(alike)
    }
    std::iter::once(*n)
        .chain(n.ancestors_it(Some(2)))
        .any(|e| has_twin(&e))
}

/// Media in `n`, its parent or its grandparent: where a caption sits.
fn near_media(n: &NodeRef<'_>) -> bool {
    std::iter::once(*n)
        .chain(n.ancestors_it(Some(2)))
        .any(|a| has_media(&a))
}

fn has_media(n: &NodeRef<'_>) -> bool {
    has_any(n, &["img", "picture", "video", "iframe", "svg"])
}

fn has_any(n: &NodeRef<'_>, names: &[&str]) -> bool {
    n.descendants_it()
        .any(|d| d.node_name().is_some_and(|name| names.contains(&&*name)))
}

/// Non-space characters of text, of link text and the number of links
/// below each element, children before parents, in one pass.
fn sizes(order: &[NodeRef<'_>]) -> FastMap<NodeId, Size> {
    let mut sizes: FastMap<NodeId, Size> =
        FastMap::with_capacity_and_hasher(order.len(), Default::default());
    for n in order.iter().rev() {
        let mut s = Size::default();
        for c in n.children_it(false) {
            if c.is_text() {
                s.text += c.query_or(0, |node| match &node.data {
                    NodeData::Text { contents } => {
                        contents.chars().filter(|ch| !ch.is_whitespace()).count()
                    }
                    _ => 0,
                });
            } else if let Some(cs) = sizes.get(&c.id) {
                s.text += cs.text;
                s.link += cs.link;
                s.links += cs.links;
            }
        }
        if n.node_name().as_deref() == Some("a") {
            s.link = s.text;
            s.links += 1;
        }
        sizes.insert(n.id, s);
    }
    sizes
}
