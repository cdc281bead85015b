//! Pages that are not articles — service and landing pages, shop
//! categories, listings, product pages — spread their content over many
//! sibling sections: a hero, feature cards, a grid of items, an FAQ. A
//! Readability-style engine picks the one block that scores best and leaves
//! the rest; people marking such a page keep everything between the header
//! and the footer. The region is that: the page's `<main>` without
//! furniture (a thread's, or a failed page's, body when it has no `<main>`).

use dom_query::{Document, NodeData, NodeId, NodeRef};
use html5ever::local_name;

use crate::fasthash::{FastMap, FastSet};
use crate::kind::PageKind;
use crate::walk::{self, Read};
use crate::words::Words;
use crate::words::tables::{EDIT_PAGE, FILTER, REGION_NOISE, RESULT_COUNT, TABLE_OF_CONTENTS};
use crate::{boilerplate, density};

/// The main region of `doc`: its largest visible `<main>` (or
/// `role="main"`) element. A page without one has not said where its
/// content is, and its body minus furniture still holds tag clouds and
/// archive lists: Readability's choice stands there.
pub(crate) fn find(doc: &Document) -> Option<NodeId> {
    find_counted(doc).map(|(id, _)| id)
}

/// [`find`], with the region's `normalized_char_count`, which choosing it
/// read already.
pub(crate) fn find_counted(doc: &Document) -> Option<(NodeId, usize)> {
    let mut best: Option<(NodeRef<'_>, usize)> = None;
    for n in doc.root().descendants_it() {
        // The tag and the attribute's name compared as the parser's atoms,
        // the role read in place: the whole page is walked, and
        // `node_name` and `attr` copied each element's name and role.
        let is_main = n.query_or(false, |node| {
            let NodeData::Element(el) = &node.data else {
                return false;
            };
            el.name.local == local_name!("main")
                || crate::tag::attr(el, &local_name!("role"))
                    .is_some_and(|role| role.eq_ignore_ascii_case("main"))
        });
        if !is_main {
            continue;
        }
        let chars = crate::char_count::normalized(n);
        if best.as_ref().is_none_or(|(_, c)| chars > *c) {
            best = Some((n, chars));
        }
    }
    best.map(|(n, chars)| (n.id, chars))
}

/// Removes furniture below `root`; an element holding over half of the
/// region's text is never furniture (a `content-with-sidebar` wrapper).
/// Returns what it read of `root` when it removed nothing: the page is
/// still as read (see [`Read`]).
pub(crate) fn prune(doc: &Document, root: NodeId, kind: PageKind) -> Option<Read<'_>> {
    let (order, stats) = walk::read(doc.tree.get(&root)?, kind);
    let found = furniture_in(&order, &stats, kind);
    if found.is_empty() {
        return Some((order, stats));
    }
    for id in found {
        if let Some(n) = doc.tree.get(&id) {
            n.remove_from_parent();
        }
    }
    None
}

/// The furniture below `root`, in page order (nested ones too).
pub(crate) fn furniture(doc: &Document, root: NodeId, kind: PageKind) -> Vec<NodeId> {
    let Some(r) = doc.tree.get(&root) else {
        return Vec::new();
    };
    let (order, stats) = walk::read(r, kind);
    furniture_in(&order, &stats, kind)
}

/// [`furniture`] over `order` (a root, then its descendants in page
/// order) and their figures (`density::subtree_stats` of `order`, whole
/// cards read off articles), read already.
pub(crate) fn furniture_in(
    order: &[NodeRef<'_>],
    stats: &FastMap<NodeId, density::Stats>,
    kind: PageKind,
) -> Vec<NodeId> {
    let Some(root) = order.first().map(|r| r.id) else {
        return Vec::new();
    };
    let text = |id: &NodeId| stats.get(id).map_or(0, |s| s.text);
    let all = text(&root);
    let most = all / 2;
    // An article's table of contents is a list of links that jump to its
    // sections; an element named `toc` in an article that is mostly prose
    // is a section the table leads to (see `TABLE_OF_CONTENTS`). Off
    // articles a contents list need not link (a report's chapters on its
    // shop page): the word alone says furniture.
    let links_mostly =
        |id: &NodeId| !kind.article || stats.get(id).is_none_or(|s| s.link * 2 >= s.text);
    let found: Vec<NodeId> = order
        .iter()
        .skip(1)
        .filter(|n| n.is_element() && text(&n.id) <= most)
        .filter(|n| {
            // The words read once for both questions.
            let words = Words::of(n);
            is_furniture_with(n, &words, kind)
                || (TABLE_OF_CONTENTS.matches(&words) && links_mostly(&n.id))
        })
        .map(|n| n.id)
        .collect();
    // Furniture that together holds nearly all the text is a site's own
    // naming read as furniture words (sections `toc-para` that a table of
    // contents links to): removing it would leave nothing.
    let gone = outermost_text(order, &found, &text);
    if all > 0 && gone as f32 >= all as f32 * ALL_BUT_NOTHING {
        return Vec::new();
    }
    found
}

/// Furniture holding this share of a root's text is not furniture (see
/// [`furniture`]).
const ALL_BUT_NOTHING: f32 = 0.95;

/// The text of the outermost of `found` (nested ones counted once), in one
/// walk of `order`, the root's elements in page order.
fn outermost_text(order: &[NodeRef<'_>], found: &[NodeId], text: &dyn Fn(&NodeId) -> u32) -> u32 {
    let found: FastSet<NodeId> = found.iter().copied().collect();
    let mut inside: FastSet<NodeId> = FastSet::default();
    let mut sum = 0;
    for n in order {
        let parent_in = n.parent().is_some_and(|p| inside.contains(&p.id));
        if parent_in {
            inside.insert(n.id);
        } else if found.contains(&n.id) {
            inside.insert(n.id);
            sum += text(&n.id);
        }
    }
    sum
}

/// Whether `n` is furniture by its own markup (class and id words, roles),
/// whatever text it holds.
pub(crate) fn is_furniture(n: &NodeRef<'_>, kind: PageKind) -> bool {
    let words = Words::of(n);
    is_furniture_with(n, &words, kind) || TABLE_OF_CONTENTS.matches(&words)
}

/// Google's `data-nosnippet`: text the publisher tells search engines not
/// to quote as the page's own. On an article it marks the furniture around
/// the story: the author's bio, inline "Related" story cards, affiliate
/// notices (Valnet's sites: XDA, Screen Rant, How-To Geek; WordPress
/// themes). Off articles it also wraps content (a listing's sections).
const NOSNIPPET: &str = "data-nosnippet";

/// Whether `n` is the article's author as a schema.org item
/// (`itemprop="author"`, a `Person` in microdata): the byline, or the box
/// about the author under the story (WordPress's Simple Author Box,
/// `saboxplugin-wrap`; Starbox's `abh_tab`), not the story's text.
fn is_author_item(n: &NodeRef<'_>) -> bool {
    n.attr("itemprop").is_some_and(|v| {
        v.split_ascii_whitespace()
            .any(|p| p.eq_ignore_ascii_case("author"))
    })
}

/// [`is_furniture`] but for the words of a table of contents, which
/// [`furniture`] weighs with the element's links; given the [`Words`] of
/// `n` (read once for both questions).
fn is_furniture_with(n: &NodeRef<'_>, words: &Words, kind: PageKind) -> bool {
    if boilerplate::is_noise_with(n, words, kind.discussion) {
        return true;
    }
    if kind.article && (n.has_attr(NOSNIPPET) || is_author_item(n)) {
        return true;
    }
    // "Showing 1-12 of 40 results"; "Edit this page" links of documentation.
    RESULT_COUNT.in_class(words)
        || EDIT_PAGE.matches(words)
        || (REGION_NOISE.matches(words) && !filter_with_prose(n, words))
}

/// Whether `n` is named only a filter or facet panel ([`FILTER`]) and
/// its text is mostly sentences (paragraphs and list items of a
/// sentence's length): a shop's facets are checkboxes and links, never
/// sentences. Sites reuse the collapsible markup of their
/// facet panels for an FAQ below the grid (an `expandable-section filters`
/// whose panes are questions and answers), or class the items a tab bar
/// filters (`filter-active`): that is the page's text. A section that
/// only mounts the facets' script around the grid (`mount-facets`) is
/// mostly the grid's names and prices.
fn filter_with_prose(n: &NodeRef<'_>, words: &Words) -> bool {
    if !REGION_NOISE.matching(words).all(|w| FILTER.has_entry(w)) {
        return false;
    }
    let prose: usize = n
        .descendants_it()
        .filter(|d| matches!(d.node_name().as_deref(), Some("p" | "li")))
        .map(crate::char_count::normalized)
        .filter(|&c| c >= boilerplate::PROSE_CHARS)
        .sum();
    prose > 0 && prose * 2 >= crate::char_count::normalized(*n)
}
