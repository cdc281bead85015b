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

use dom_query::{Document, NodeData, NodeId, NodeRef};

use crate::char_count::{Normalized, TextRun};
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
/// With them, what the passes found below `roots` on this very tree (see
/// [`Found`]): [`clean`] does not look again.
pub(crate) fn kept_text(
    doc: &Document,
    roots: &[NodeId],
    kind: PageKind,
    chosen: Chosen,
) -> (usize, Found) {
    let (furniture, read) = furniture_below(doc, roots, kind);
    let doomed: FastSet<NodeId> = furniture.iter().copied().collect();
    let (kept, unchanged) = kept_after(doc, roots, kind, chosen, doomed, read);
    (
        kept,
        Found {
            unchanged: unchanged.filter(|_| furniture.is_empty()),
            furniture,
        },
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
) -> Option<(usize, Found)> {
    let (furniture, read) = furniture_below(doc, roots, kind);
    let doomed: FastSet<NodeId> = furniture.iter().copied().collect();
    if left_text(doc, roots, &doomed) as f32 <= floor {
        return None;
    }
    let (kept, unchanged) = kept_after(doc, roots, kind, chosen, doomed, read);
    Some((
        kept,
        Found {
            unchanged: unchanged.filter(|_| furniture.is_empty()),
            furniture,
        },
    ))
}

/// What a dry run ([`kept_text`]) found below the roots it weighed, on the
/// page as the roots were chosen, which nothing edits before [`clean`].
pub(crate) struct Found {
    /// Pass 1's furniture, in page order: the cleaning's first pass, done.
    pub furniture: Vec<NodeId>,
    /// Passes 2 and 3's finds, kept only when pass 1 found nothing: then
    /// the cleaning reaches pass 2 with the very page the dry run read
    /// (when pass 0 removes nothing too), and pass 3 as well when pass 2
    /// removes nothing. Finding them again was a tenth of an article's
    /// time (the inner plan, a listing's cards).
    pub unchanged: Option<Unchanged>,
}

/// Passes 2 and 3's finds on an unchanged page (see [`Found`]).
pub(crate) struct Unchanged {
    /// Pass 2's link lists, in the order pass 2 removes them; empty when
    /// pass 2 does not run for the roots.
    pub link_lists: Vec<NodeId>,
    /// Pass 3's plan, when pass 3 runs for the roots (see [`clean`]).
    pub plan: Option<inner::Plan>,
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
/// other passes would remove are gone; with passes 2 and 3's finds (see
/// [`Unchanged`]).
fn kept_after(
    doc: &Document,
    roots: &[NodeId],
    kind: PageKind,
    chosen: Chosen,
    // Fast-hashed sets: a page of many elements dooms thousands (nested
    // ones too), and SipHash was a visible share of this walk.
    mut doomed: FastSet<NodeId>,
    read: Option<Read<'_>>,
) -> (usize, Option<Unchanged>) {
    // Passes 2 and 3 weigh the same walk of the unchanged page, which
    // pass 1 read already when there is one root.
    let (order, stats) = read.unzip();
    let walk = (link_lists_go(chosen) || chosen != Chosen::Body).then(|| match order {
        Some(order) => Walk::of_order(order, kind, stats.as_ref()),
        None => Walk::of(doc, roots, kind),
    });
    let mut found = Unchanged {
        link_lists: Vec::new(),
        plan: None,
    };
    if let Some(walk) = &walk {
        if link_lists_go(chosen) {
            found.link_lists = match &stats {
                Some(stats) => density::link_lists_with(doc, roots, walk, stats),
                None => density::link_lists_in(doc, roots, kind, walk),
            };
            doomed.extend(found.link_lists.iter().copied());
        }
        if chosen != Chosen::Body {
            let plan = inner::plan_with(roots, kind, walk, stats.as_ref());
            doomed.extend(plan.doomed.iter().copied());
            found.plan = Some(plan);
        }
    }
    if chosen == Chosen::Blocks {
        // The one root's text, as pass 1 read it of this page.
        let counted = match (roots, &stats) {
            ([root], Some(stats)) => stats.get(root).map(|s| s.text as usize),
            _ => None,
        };
        doomed.extend(trailing::teasers(doc, roots, counted));
    }
    (left_text(doc, roots, &doomed), Some(found))
}

/// The characters of text below `roots` without the elements `doomed`.
/// More doomed elements never leave more: an element's count is at least
/// the sum of those of separate elements inside it.
///
/// The figure is dom_query's `normalized_char_count` of each root less
/// that of each outermost doomed element, as it always was; both are read
/// in one walk of the root ([`read_drops`]), each text node's characters
/// once (counting the root, then each doomed block again, was most of this
/// pass).
fn left_text(doc: &Document, roots: &[NodeId], doomed: &FastSet<NodeId>) -> usize {
    let mut kept = 0;
    for root in roots.iter().filter_map(|r| doc.tree.get(r)) {
        let read = read_drops(root, doomed);
        let gone: usize = read.drops.iter().map(|(_, chars)| chars).sum();
        // Subtracting each block in turn, floored at nothing, is
        // subtracting their sum once.
        kept = (kept + read.all).saturating_sub(gone);
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
    // Each root's count and its dropped blocks', in one walk of it (see
    // [`left_text`]).
    let read: Vec<_> = roots
        .iter()
        .filter_map(|r| doc.tree.get(r))
        .map(|root| read_drops(root, &dropped))
        .collect();
    let content: usize = read.iter().map(|r| r.all).sum();
    for r in read {
        let gone_chars: usize = r.drops.iter().map(|(_, c)| c).sum();
        let mut largest: Option<(NodeId, usize)> = None;
        for &(id, chars) in &r.drops {
            if largest.is_none_or(|(_, c)| chars > c) {
                largest = Some((id, chars));
            }
        }
        let before = r.before;
        let all = r.all.max(1);
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

/// What [`restored`] and [`left_text`] read of one root.
struct Drops {
    /// The root's `normalized_char_count`.
    all: usize,
    /// The outermost dropped blocks below it, in page order, with theirs.
    drops: Vec<(NodeId, usize)>,
    /// Those that some of the root's other text follows.
    before: Vec<NodeId>,
}

/// [`Drops`] of `root`, in one walk of it: each text node's characters
/// are read once for the root's count and the block holding it (counting
/// each apart walked them twice).
fn read_drops(root: NodeRef<'_>, dropped: &FastSet<NodeId>) -> Drops {
    let mut all = Normalized::default();
    let mut block: Option<(NodeId, Normalized)> = None;
    let mut drops = Vec::new();
    let (mut pending, mut before) = (Vec::new(), Vec::new());
    let mut gone: FastSet<NodeId> = FastSet::default();
    for n in std::iter::once(root).chain(root.descendants_it()) {
        let inside = n.id != root.id && n.parent().is_some_and(|p| gone.contains(&p.id));
        if inside {
            gone.insert(n.id);
        } else {
            if let Some((id, b)) = block.take() {
                drops.push((id, b.count()));
            }
            if n.id != root.id && dropped.contains(&n.id) {
                gone.insert(n.id);
                block = Some((n.id, Normalized::default()));
                pending.push(n.id);
            }
        }
        let mut blank = true;
        n.query(|node| {
            if let NodeData::Text { contents } = &node.data {
                let text = TextRun::of(contents);
                all.add(&text);
                if let Some((_, b)) = &mut block {
                    b.add(&text);
                }
                blank = text.is_blank(contents);
            }
        });
        if !inside && block.is_none() && !blank {
            before.append(&mut pending);
        }
    }
    if let Some((id, b)) = block.take() {
        drops.push((id, b.count()));
    }
    Drops {
        all: all.count(),
        drops,
        before,
    }
}

/// Whether `n` is an accordion (class and id words [`ACCORDION`]) of
/// prose: less than half of its text is link text.
fn is_prose_accordion(n: &NodeRef<'_>) -> bool {
    if !ACCORDION.matches(&Words::of(n)) {
        return false;
    }
    let (all, links) = crate::char_count::with_links(*n);
    links * 2 < all
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
    // Passes 2 and 3's finds on the page as the dry run read it, when
    // passes 0 and 1 remove nothing (see [`Found`]).
    let unchanged = choice
        .found
        .as_ref()
        .filter(|_| !dropped)
        .and_then(|f| f.unchanged.as_ref());
    // What pass 1 read of a single root, when it removed nothing: pass 2
    // weighs the same page.
    let mut read = None;
    match &choice.found {
        Some(found) if !dropped => {
            for n in found.furniture.iter().filter_map(|id| doc.tree.get(id)) {
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
    let walk = match unchanged {
        Some(found) => {
            for n in found.link_lists.iter().filter_map(|id| doc.tree.get(id)) {
                n.remove_from_parent();
            }
            None
        }
        None => link_lists_go(chosen)
            .then(|| density::prune_roots(doc, roots, kind, read))
            .flatten(),
    };
    if chosen != Chosen::Body {
        // The dry run's plan, when the page is still the one it read.
        let planned = unchanged
            .filter(|found| found.link_lists.is_empty())
            .and_then(|found| found.plan.clone());
        let plan = match (planned, walk) {
            (Some(plan), _) => plan,
            (None, Some((walk, stats))) => inner::plan_with(roots, kind, &walk, stats.as_ref()),
            (None, None) => inner::plan(doc, roots, kind),
        };
        inner::clean(doc, kind, plan);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// [`left_text`] is each root's `normalized_char_count` less that of
    /// each outermost doomed element, white space and all.
    #[test]
    fn left_text_is_the_root_count_less_the_doomed_counts() {
        let doc = Document::from(
            "<div id=a> x\u{a0} <p id=b>  c\u{3000} d\t</p>\n\n<span id=c>é  <i id=d> g </i></span> \
             <b>\u{2003}h  i </b><p id=e></p>  </div><div id=f>\r\n k<u id=g> l </u>m </div>",
        );
        let id = |s: &str| {
            let n = doc.select(s).nodes().first().copied();
            n.map(|n| n.id).expect("the page has it")
        };
        let count = |s: &str| {
            doc.select(s)
                .nodes()
                .first()
                .map_or(0, |n| n.normalized_char_count())
        };
        let roots = [id("#a"), id("#f")];
        for doomed in [
            vec![],
            vec!["#b"],
            vec!["#c", "#d"],
            vec!["#d", "#e", "#g"],
            vec!["#b", "#c", "#g"],
        ] {
            let set: FastSet<NodeId> = doomed.iter().map(|s| id(s)).collect();
            let outer: usize = doomed
                .iter()
                .filter(|s| **s != "#d" || !doomed.contains(&"#c"))
                .map(|s| count(s))
                .sum();
            let want = (count("#a") + count("#f")).saturating_sub(outer);
            assert_eq!(left_text(&doc, &roots, &set), want, "{doomed:?}");
        }
    }
}
