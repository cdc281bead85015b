//! The fourth stage: cleaning the chosen roots with one ordered list of
//! passes, each switched on or off by the kind of page and by how the roots
//! were chosen. Every pass reads and edits the one parsed page.
//!
//! 0. Readability's cleaning — on an article, what dom_smoothie's own
//!    cleaning (made for articles) dropped inside the blocks it chose; in a
//!    block where it dropped most of the text, only the drops that end the
//!    block or that pass 1 would call furniture;
//! 1. furniture — navigation, sidebars, cookie notices, filters, ratings
//!    (`region.rs`): never a block holding most of a root's text;
//! 2. link lists — blocks that are mostly links (`density.rs`): not on a
//!    region or a whole body, whose entries are often nothing but links
//!    (a listing's titles);
//! 3. inner furniture — captions' credits, bylines, author boxes, ads,
//!    user panels, review widgets (`inner.rs`); on a whole body, only a
//!    shop's recommendation rows (`recommendations.rs`);
//! 4. repeats — an innermost block whose text the content already said
//!    (`repeats.rs`): on products and threads; on other pages but
//!    articles, only a short block right after the same text (a shop
//!    card's name and price said twice in a row);
//! 5. teasers — a trailing run of related-post cards (`trailing.rs`): only
//!    after a block chosen for its prose;
//! 6. empty headings — headings that end the content with nothing under
//!    them (`trailing.rs`).

use dom_query::{Document, NodeId, NodeRef};

use crate::content::Choice;
use crate::fasthash::FastSet;
use crate::kind::PageKind;
use crate::walk::{self, Read, Walk};
use crate::words::Words;
use crate::words::tables::ACCORDION;
use crate::{density, inner, region, repeats, trailing};

/// How the roots were chosen, which decides the passes they need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Chosen {
    /// The blocks a scoring engine kept for their prose.
    Blocks,
    /// A row of alike cards (a listing's entries).
    Row,
    /// The page's main region (`<main>`), or a thread's body.
    Region,
    /// The whole body: nothing better was found.
    Body,
}

/// The characters of text below `roots` that the passes would leave, as
/// far as whole elements go, without changing the page: blocks
/// and a region are compared as they would be rendered, before either is
/// cleaned (a listing's blocks are mostly link lists, which leave little).
/// With them, the furniture found below `roots` (pass 1 on this very
/// tree, in page order): [`clean`] removes it without looking again.
pub(crate) fn kept_text(
    doc: &Document,
    roots: &[NodeId],
    kind: PageKind,
    chosen: Chosen,
) -> (usize, Vec<NodeId>) {
    let (furniture, read) = furniture_below(doc, roots, kind);
    let doomed: FastSet<NodeId> = furniture.iter().copied().collect();
    (
        kept_after(doc, roots, kind, chosen, doomed, read),
        furniture,
    )
}

/// [`kept_text`] when it can be more than `floor`: `None` when the
/// furniture alone leaves at most `floor` characters, without looking for
/// what the other passes would remove (they only remove more). A region
/// weighed against picked blocks holding as much loses there, and most do.
pub(crate) fn kept_text_over(
    doc: &Document,
    roots: &[NodeId],
    kind: PageKind,
    chosen: Chosen,
    floor: f32,
) -> Option<(usize, Vec<NodeId>)> {
    let (furniture, read) = furniture_below(doc, roots, kind);
    let doomed: FastSet<NodeId> = furniture.iter().copied().collect();
    if left_text(doc, roots, &doomed) as f32 <= floor {
        return None;
    }
    Some((
        kept_after(doc, roots, kind, chosen, doomed, read),
        furniture,
    ))
}

/// Pass 1's finds below `roots`, in page order; with one root, what it
/// read of the root (see [`Read`]).
fn furniture_below<'a>(
    doc: &'a Document,
    roots: &[NodeId],
    kind: PageKind,
) -> (Vec<NodeId>, Option<Read<'a>>) {
    if let [root] = roots
        && let Some(r) = doc.tree.get(root)
    {
        let (order, stats) = walk::read(r, kind);
        let furniture = region::furniture_in(&order, &stats, kind);
        return (furniture, Some((order, stats)));
    }
    let furniture = roots
        .iter()
        .flat_map(|r| region::furniture(doc, *r, kind))
        .collect();
    (furniture, None)
}

/// The text below `roots` once `doomed` (the furniture) and what the
/// other passes would remove are gone.
fn kept_after(
    doc: &Document,
    roots: &[NodeId],
    kind: PageKind,
    chosen: Chosen,
    // Fast-hashed sets: a page of many elements dooms thousands (nested
    // ones too), and SipHash was a visible share of this walk.
    mut doomed: FastSet<NodeId>,
    read: Option<Read<'_>>,
) -> usize {
    // Passes 2 and 3 weigh the same walk of the unchanged page, which
    // pass 1 read already when there is one root.
    let (order, stats) = read.unzip();
    let walk = (link_lists_go(chosen) || chosen != Chosen::Body).then(|| match order {
        Some(order) => Walk::of_order(order, kind),
        None => Walk::of(doc, roots, kind),
    });
    if let Some(walk) = &walk {
        if link_lists_go(chosen) {
            doomed.extend(match &stats {
                Some(stats) => density::link_lists_with(doc, roots, walk, stats),
                None => density::link_lists_in(doc, roots, kind, walk),
            });
        }
        if chosen != Chosen::Body {
            doomed.extend(inner::plan_in(roots, kind, walk).doomed);
        }
    }
    if chosen == Chosen::Blocks {
        doomed.extend(trailing::teasers(doc, roots));
    }
    left_text(doc, roots, &doomed)
}

/// The characters of text below `roots` without the elements `doomed`.
/// More doomed elements never leave more: an element's count is at least
/// the sum of those of separate elements inside it.
fn left_text(doc: &Document, roots: &[NodeId], doomed: &FastSet<NodeId>) -> usize {
    let mut kept = 0;
    for root in roots.iter().filter_map(|r| doc.tree.get(r)) {
        kept += root.normalized_char_count();
        // Outermost removals only: a removed block takes its insides along.
        let mut gone: FastSet<NodeId> = FastSet::default();
        for n in root.descendants_it() {
            if n.parent().is_some_and(|p| gone.contains(&p.id)) {
                gone.insert(n.id);
            } else if doomed.contains(&n.id) {
                gone.insert(n.id);
                kept = kept.saturating_sub(n.normalized_char_count());
            }
        }
    }
    kept
}

fn link_lists_go(chosen: Chosen) -> bool {
    matches!(chosen, Chosen::Blocks | Chosen::Row)
}

/// Readability's drops holding more than this share of a root's text are
/// not article cleaning (see [`clean`]) ...
const DROPPED_AT_MOST: f32 = 0.5;

/// ... unless they hold nearly all of it: then the root is one
/// Readability kept for its frame alone (a row of teaser cards).
const DROPPED_ALL: f32 = 0.95;

/// The elements of `dropped` (separate, below `roots`) that stay: in a
/// root where they hold most but not all of the text, those that some of
/// its other text follows; then, apart, in a root where they hold nearly
/// all of it, the one that holds over half of the root's text and of the
/// content's (not a thread of comments picked beside the article). One
/// walk of each root.
fn restored(
    doc: &Document,
    roots: &[NodeId],
    dropped: &[NodeId],
) -> (FastSet<NodeId>, FastSet<NodeId>) {
    let dropped: FastSet<NodeId> = dropped.iter().copied().collect();
    let mut out: FastSet<NodeId> = FastSet::default();
    let mut whole: FastSet<NodeId> = FastSet::default();
    if dropped.is_empty() {
        return (out, whole);
    }
    let content: usize = roots
        .iter()
        .filter_map(|r| doc.tree.get(r))
        .map(|r| r.normalized_char_count())
        .sum();
    for root in roots.iter().filter_map(|r| doc.tree.get(r)) {
        let mut gone: FastSet<NodeId> = FastSet::default();
        let (mut pending, mut before) = (Vec::new(), Vec::new());
        let mut gone_chars = 0;
        let mut largest: Option<(NodeId, usize)> = None;
        for n in root.descendants_it() {
            if n.parent().is_some_and(|p| gone.contains(&p.id)) {
                gone.insert(n.id);
            } else if dropped.contains(&n.id) {
                gone.insert(n.id);
                let chars = n.normalized_char_count();
                gone_chars += chars;
                if largest.is_none_or(|(_, c)| chars > c) {
                    largest = Some((n.id, chars));
                }
                pending.push(n.id);
            } else if n.is_text() && !n.text().trim().is_empty() {
                before.append(&mut pending);
            }
        }
        let all = root.normalized_char_count().max(1);
        let share = gone_chars as f32 / all as f32;
        if share > DROPPED_AT_MOST && share < DROPPED_ALL {
            out.extend(before);
        } else if share >= DROPPED_ALL
            && let Some((id, _)) = largest.filter(|(_, c)| c * 2 > all && c * 2 > content)
        {
            whole.insert(id);
        }
    }
    (out, whole)
}

/// Whether `n` is an accordion (class and id words [`ACCORDION`]) of
/// prose: less than half of its text is link text.
fn is_prose_accordion(n: &NodeRef<'_>) -> bool {
    if !ACCORDION.matches(&Words::of(n)) {
        return false;
    }
    let links: usize = n
        .descendants_it()
        .filter(|d| d.node_name().as_deref() == Some("a"))
        .map(|a| a.normalized_char_count())
        .sum();
    links * 2 < n.normalized_char_count()
}

/// Runs the passes over the chosen roots, in order.
pub(crate) fn clean(doc: &Document, choice: &Choice, kind: PageKind) {
    let (roots, chosen) = (&choice.roots[..], choice.chosen);
    if kind.article && !kind.discussion {
        // Readability's cleaning reads a page builder's sections as
        // widgets (Elementor's `elementor-widget` icon boxes and text
        // widgets, Drupal CKEditor's `ck-widget` grids): when what it
        // dropped holds most of a block's text, it dropped the content
        // itself. Then only what our own furniture rules name (the
        // comments under a post) and a run of drops after all the kept
        // text (related stories, a share bar) go.
        let (inside, whole) = restored(doc, roots, &choice.dropped);
        for n in choice.dropped.iter().filter_map(|id| doc.tree.get(id)) {
            // A root of which Readability dropped nearly all, most of it
            // in one block: that block is the content, whatever its class
            // says (pass 1's bound), not a frame's row of teasers: a
            // component's own part named `footer` (a `page1-footer`
            // element of the `page1` block around a guide's entries).
            if whole.contains(&n.id) {
                continue;
            }
            // An accordion's panels are one click away (a guide's
            // methodology, its FAQ): not a widget to drop, unless it is a
            // menu of links.
            if is_prose_accordion(&n) {
                continue;
            }
            if !inside.contains(&n.id) || region::is_furniture(&n, kind) {
                n.remove_from_parent();
            }
        }
    }
    // Readability's cleaning changes what holds most of a root's text,
    // which bounds furniture: then pass 1 looks again.
    let dropped = kind.article && !kind.discussion && !choice.dropped.is_empty();
    // What pass 1 read of a single root, when it removed nothing: pass 2
    // weighs the same page.
    let mut read = None;
    match &choice.furniture {
        Some(found) if !dropped => {
            for n in found.iter().filter_map(|id| doc.tree.get(id)) {
                n.remove_from_parent();
            }
        }
        _ => match roots {
            [root] => read = region::prune(doc, *root, kind),
            _ => {
                for root in roots {
                    region::prune(doc, *root, kind);
                }
            }
        },
    }
    // Pass 3 reads the walk of the roots pass 2 read when pass 2 removed
    // nothing (finding a listing's cards in it is a large share of each).
    let walk = link_lists_go(chosen)
        .then(|| density::prune_roots(doc, roots, kind, read))
        .flatten();
    if chosen != Chosen::Body {
        inner::clean(doc, roots, kind, walk);
    } else if !kind.article && !kind.discussion {
        // The whole body still holds a shop's "Similar items" rows: they
        // go, as from any chosen block (an eBay item page that no engine
        // read).
        inner::clean_rows(doc, roots, kind);
    }
    // A block said twice: on a product page a responsive template's
    // copies (title and price per screen size), on a thread the lines
    // every post repeats. Not on a page that lists things, whose cards
    // repeat their labels ("Screen size", "Ideal for") with each entry.
    if kind.product || kind.discussion {
        repeats::strip(doc, roots);
    } else if !kind.article {
        // A shop card's name and price said twice in a row (a theme's
        // copy per layout): said once.
        repeats::strip_adjacent(doc, roots);
    }
    // The roots' text as pass 5 counted it, when it removed nothing.
    let counted = (chosen == Chosen::Blocks)
        .then(|| trailing::strip(doc, roots))
        .flatten();
    // A page that lists things may end with a card titled by its heading
    // alone (a blog archive's title-only posts).
    trailing::strip_headings(doc, roots, !kind.article && !kind.product, counted);
}
