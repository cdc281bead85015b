//! A block said twice inside the content is said once.
//!
//! Responsive shop templates render the same block once per screen size
//! and let CSS media queries show one copy: Shopify themes print the
//! product's title and price in a mobile and a desktop `product__info`
//! block, WooCommerce and Magento themes repeat title and price in a
//! sticky "add to cart" bar, and many themes print the description twice,
//! in a tab for large screens and an accordion for small ones. A text
//! extractor applies no media query, so every copy would be read; the
//! people who mark a page's main text read it once. Forum engines do the
//! same to a thread: each post repeats its poster's rank line, "Likes" and
//! "Reply" labels and the quoted words of earlier posts.
//!
//! Only the innermost blocks are compared (a heading, a paragraph, a list
//! item, a `<div>` holding no other block), by their text with white space
//! collapsed, in page order: the first copy stays. Code, preformatted text
//! and tables are never touched: a line of code (`}`), a spec table's
//! "Yes" or a row said twice are what they say.

use dom_query::{Document, NodeId, NodeRef};

use crate::clean;
use crate::fasthash::{FastMap, FastSet};
use crate::render::{collapse_ws, is_block};

/// Removes, below `roots`, every innermost block whose text an earlier
/// innermost block already said. One walk over the content: each block's
/// text is read once, as the innermost blocks do not nest.
pub(crate) fn strip(doc: &Document, roots: &[NodeId]) {
    let mut seen: FastSet<String> = FastSet::default();
    let mut doomed: Vec<NodeRef<'_>> = Vec::new();
    lines(doc, roots, |line| {
        if let Line::Said { node, block: true } = line
            && let Some(text) = said(&node)
            && !seen.insert(text)
        {
            doomed.push(node);
        }
    });
    for n in doomed {
        n.remove_from_parent();
    }
}

/// What the walk of [`lines`] meets below the roots, in page order.
enum Line<'a> {
    /// A block whose text is never compared ([`uncompared`]), between the
    /// lines before and after it.
    Skipped,
    /// An element none of whose element children is a block: an innermost
    /// block, or an inline element beside blocks (its parent held one),
    /// which renders as a line of its own.
    Said { node: NodeRef<'a>, block: bool },
}

/// Walks below `roots` in page order down to the innermost blocks, giving
/// each line to `f`: the one walk of [`strip`] and [`strip_adjacent`].
fn lines<'a>(doc: &'a Document, roots: &[NodeId], mut f: impl FnMut(Line<'a>)) {
    // An explicit stack: a page may nest deeper than the call stack goes.
    let mut stack: Vec<NodeRef<'a>> = roots.iter().filter_map(|r| doc.tree.get(r)).collect();
    stack.reverse();
    while let Some(n) = stack.pop() {
        let Some(name) = n.node_name() else {
            continue;
        };
        if uncompared(&name) {
            f(Line::Skipped);
            continue;
        }
        let children: Vec<NodeRef<'a>> = n.element_children();
        if children
            .iter()
            .any(|c| c.node_name().is_some_and(|c| is_block(&c) || &*c == "pre"))
        {
            stack.extend(children.into_iter().rev());
            continue;
        }
        f(Line::Said {
            node: n,
            block: is_block(&name),
        });
    }
}

/// The text of a line, white space collapsed, when it says something (a
/// letter or a digit).
fn said(n: &NodeRef<'_>) -> Option<String> {
    let text = collapse_ws(&n.text());
    text.chars().any(char::is_alphanumeric).then_some(text)
}

/// A short block that says again what the block just before it said goes,
/// off articles, products and threads (see [`strip_adjacent`]).
const ADJACENT_AT_MOST_WORDS: usize = 5;

/// Removes, below `roots`, every short innermost block (at most
/// [`ADJACENT_AT_MOST_WORDS`] words) inside one card of a row whose text is
/// that of the block just before it, as the content is read in page order.
///
/// A shop's product card says its name and price twice in a row: Shopify's
/// Dawn theme (and the many themes built on it) prints a card's heading
/// inside its media box for cards without an image and again below it,
/// with CSS showing one, an image link carries the name as its text, and
/// its price snippet holds a regular and a sale price of which CSS shows
/// one. On a page that lists things [`strip`] cannot run (the cards repeat
/// their labels with each entry); a copy right after its first is no
/// label, it is the same card saying its name once more. Inline elements
/// beside blocks (an image link before the card's heading) are read as a
/// block of their own, as they render on a line of their own.
pub(crate) fn strip_adjacent(doc: &Document, roots: &[NodeId]) {
    // The text of the last line read, and its element.
    let mut last = String::new();
    let mut last_node: Option<NodeRef<'_>> = None;
    let mut doomed: Vec<NodeRef<'_>> = Vec::new();
    // The paragraphs of a sentence's length, for the small-screen copies.
    let mut long: Vec<(String, NodeRef<'_>)> = Vec::new();
    lines(doc, roots, |line| {
        let (n, block) = match line {
            // A block between two copies.
            Line::Skipped => {
                last.clear();
                last_node = None;
                return;
            }
            Line::Said { node, block } => (node, block),
        };
        let Some(text) = said(&n) else {
            return;
        };
        if block && text.len() >= SMALL_SCREEN_COPY_CHARS {
            long.push((text.clone(), n));
        }
        // The words are counted only for a copy of the last line.
        let words = || {
            text.split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .count()
        };
        if text == last
            && words() <= ADJACENT_AT_MOST_WORDS
            && !last_node.is_some_and(|l| alike_siblings(&l, &n))
            && in_card(&n)
        {
            doomed.push(n);
        } else {
            last = text;
            last_node = Some(n);
        }
    });
    doomed.extend(small_screen_copies(long));
    for n in doomed {
        n.remove_from_parent();
    }
}

/// A paragraph at least this long (bytes) is compared with its copies
/// for a small screen (see [`small_screen_copies`]): a sentence, not a
/// card's label.
const SMALL_SCREEN_COPY_CHARS: usize = 80;

/// The blocks of `long` (text and element, in page order) that say again
/// what another of them says, inside an element shown on small screens
/// only (Bootstrap's `d-md-none`, Tailwind's `md:hidden`, `hidden-lg`;
/// see [`clean::small_screen_only`]), when a copy outside one stays.
/// Responsive themes print a category's description twice, in columns for
/// large screens and in an accordion for small ones (Salesforce Commerce
/// Cloud's `d-none d-md-block` beside `accordion d-md-none`); a desktop
/// page shows one. Only text said already goes: a block shown on small
/// screens alone may be the only copy of what it says.
fn small_screen_copies(long: Vec<(String, NodeRef<'_>)>) -> Vec<NodeRef<'_>> {
    let mut count: FastMap<&str, usize> = FastMap::default();
    for (text, _) in &long {
        *count.entry(text.as_str()).or_default() += 1;
    }
    let mut small: Vec<(usize, bool)> = Vec::with_capacity(long.len());
    let mut kept: FastSet<&str> = FastSet::default();
    for (i, (text, n)) in long.iter().enumerate() {
        if count.get(text.as_str()).is_some_and(|&c| c > 1) {
            let only_small = clean::small_screen_only(n);
            if !only_small {
                kept.insert(text.as_str());
            }
            small.push((i, only_small));
        }
    }
    small
        .into_iter()
        .filter(|&(i, only_small)| {
            only_small && long.get(i).is_some_and(|(t, _)| kept.contains(t.as_str()))
        })
        .filter_map(|(i, _)| long.get(i).map(|(_, n)| *n))
        .collect()
}

/// Two children of one parent with the same tag and class: a row of alike
/// entries (list items, a refrain's lines), each saying its own text, not
/// one entry said in two layouts.
fn alike_siblings(a: &NodeRef<'_>, b: &NodeRef<'_>) -> bool {
    a.parent().map(|p| p.id) == b.parent().map(|p| p.id)
        && a.node_name() == b.node_name()
        && a.attr("class") == b.attr("class")
}

/// How far above a block its card may start: Dawn's sale price sits eight
/// levels below the grid's list item.
const CARD_DEPTH: usize = 8;

/// Whether `n` is inside one card of a row: an ancestor (at most
/// [`CARD_DEPTH`] levels up) beside an element sibling of the same tag and
/// the same class (`li.grid__item`, `div.product-tile`). Copies elsewhere
/// (a paragraph and a list item saying the same) are the page's own.
pub(crate) fn in_card(n: &NodeRef<'_>) -> bool {
    n.ancestors_it(Some(CARD_DEPTH)).any(|a| {
        let Some(class) = a.attr("class").filter(|c| !c.trim().is_empty()) else {
            return false;
        };
        let alike = |s: NodeRef<'_>| {
            s.node_name() == a.node_name() && s.attr("class").is_some_and(|c| c == class)
        };
        a.prev_element_sibling().is_some_and(alike) || a.next_element_sibling().is_some_and(alike)
    })
}

/// Blocks whose text is never compared (code, tables, formulas, forms):
/// there a line said twice is the content saying it twice.
fn uncompared(name: &str) -> bool {
    matches!(
        name,
        "pre" | "code" | "table" | "dl" | "textarea" | "math" | "svg"
    )
}
