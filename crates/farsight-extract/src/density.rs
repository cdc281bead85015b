//! A linear main-content engine: text blocks score their ancestors
//! (Readability's idea), the best container wins, link-heavy and furniture
//! blocks inside it are dropped. Every pass is iterative and O(n), so deep
//! or huge pages cost no more per byte than small ones.

use crate::fasthash::FastMap;

use dom_query::{Document, NodeId, NodeRef};

use crate::boilerplate;
use crate::kind::PageKind;
use crate::walk::{Read, Walk};

/// Non-space characters of text, and of link text, below an element, and
/// its commas (a sign of prose).
#[derive(Default, Clone, Copy)]
pub(crate) struct Stats {
    pub text: u32,
    pub link: u32,
    pub commas: u32,
    /// Characters of heading (`h1`–`h6`) text, to tell a whole-card link.
    pub heading: u32,
}

/// Non-space characters of text besides its heading that make a link
/// holding a heading a whole card, not a menu entry (see `subtree_stats`).
const CARD_PROSE: u32 = 60;

/// The commas that mark clauses, in Latin and CJK text.
const COMMAS: [char; 3] = [',', '，', '、'];

/// Chooses the content roots of `doc` (cleaning them is `passes.rs`'s).
pub(crate) fn choose(doc: &Document) -> Option<Vec<NodeId>> {
    let body = doc.body()?;
    let order: Vec<NodeRef<'_>> = std::iter::once(body).chain(body.descendants_it()).collect();
    let stats = subtree_stats(&order, false);
    let st = |id: &NodeId| stats.get(id).copied().unwrap_or_default();

    // Furniture never scores: skip text blocks inside it.
    let mut noise: FastMap<NodeId, bool> = FastMap::default();
    let mut scores: FastMap<NodeId, f32> = FastMap::default();
    for n in &order {
        let Some(name) = crate::tag::of(n) else {
            continue;
        };
        let parent_noise = n
            .parent()
            .and_then(|p| noise.get(&p.id).copied())
            .unwrap_or(false);
        let is_noise = parent_noise || boilerplate::is_noise(n);
        noise.insert(n.id, is_noise);
        if is_noise
            || !matches!(
                &*name,
                "p" | "pre" | "td" | "blockquote" | "div" | "section" | "li" | "dd"
            )
        {
            continue;
        }
        // A block's own words; a paragraph's, a quote's, a pre's whole
        // text, read from the subtree figures: reading the text of each of
        // 256 nested quotes again walked the page 256 times (issue 11).
        let (own, commas) = if matches!(&*name, "div" | "section" | "li" | "td" | "dd") {
            let text = direct_text(n);
            text_and_commas(&text)
        } else {
            let s = st(&n.id);
            (s.text as usize, s.commas as usize)
        };
        if own < 25 {
            continue;
        }
        let commas = commas as f32;
        let score = 1.0 + commas + (own as f32 / 100.0).min(3.0);
        for (level, anc) in n.ancestors_it(Some(5)).enumerate() {
            if !anc.is_element() {
                break;
            }
            let div = match level {
                0 => 1.0,
                1 => 2.0,
                l => l as f32 * 3.0,
            };
            *scores.entry(anc.id).or_insert(0.0) += score / div;
        }
    }
    let density = |id: &NodeId| {
        let s = st(id);
        if s.text == 0 {
            1.0
        } else {
            s.link as f32 / s.text as f32
        }
    };
    let (top, top_score) = scores
        .iter()
        .map(|(id, s)| (*id, s * (1.0 - density(id))))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let top_node = doc.tree.get(&top)?;

    // Siblings that score well or read as prose join the top candidate.
    let mut roots = Vec::new();
    let parent = top_node.parent();
    let siblings: Vec<NodeRef<'_>> = match &parent {
        Some(p) => p.children_it(false).filter(|c| c.is_element()).collect(),
        None => vec![top_node],
    };
    let threshold = (top_score * 0.2).max(10.0);
    for s in siblings {
        if s.id == top {
            roots.push(s.id);
            continue;
        }
        if noise.get(&s.id).copied().unwrap_or(false) {
            continue;
        }
        let score = scores.get(&s.id).copied().unwrap_or(0.0) * (1.0 - density(&s.id));
        let stats = st(&s.id);
        let prose = s.node_name().as_deref() == Some("p")
            && density(&s.id) < 0.25
            && (stats.text > 80 || (stats.text > 0 && s.text().trim_end().ends_with('.')));
        if score >= threshold || prose {
            roots.push(s.id);
        }
    }
    Some(roots)
}

/// Removes furniture and link lists below `roots`, given `read`, the
/// [`Read`] of a single root on the page as it is, when there is one.
/// Returns the walk of `roots` it read when it removed nothing, with the
/// figures of `read` when given: the page is still as the walk read it,
/// and pass 3 reads the same walk (see `passes::clean`).
pub(crate) fn prune_roots<'a>(
    doc: &'a Document,
    roots: &[NodeId],
    kind: PageKind,
    read: Option<Read<'a>>,
) -> Option<(Walk<'a>, Option<FastMap<NodeId, Stats>>)> {
    let (walk, gone, stats) = match read {
        Some((order, stats)) => {
            let walk = Walk::of_order(order, kind, Some(&stats));
            let gone = link_lists_with(doc, roots, &walk, &stats);
            (walk, gone, Some(stats))
        }
        None => {
            let walk = Walk::of(doc, roots, kind);
            let gone = link_lists_in(doc, roots, kind, &walk);
            (walk, gone, None)
        }
    };
    if gone.is_empty() {
        return Some((walk, stats));
    }
    for id in gone {
        if let Some(n) = doc.tree.get(&id) {
            n.remove_from_parent();
        }
    }
    None
}

/// The furniture and link lists below `roots` (nested ones too), without
/// changing the page, over a [`Walk`] of `roots` read already. On a page
/// that lists things, rows of cards are not link lists (see
/// `cards::card_link_text`).
pub(crate) fn link_lists_in(
    doc: &Document,
    roots: &[NodeId],
    kind: PageKind,
    walk: &Walk<'_>,
) -> Vec<NodeId> {
    let stats = subtree_stats(&walk.order, !kind.article);
    link_lists_with(doc, roots, walk, &stats)
}

/// [`link_lists_in`] with the figures of the walk's elements
/// ([`subtree_stats`] of its order, whole cards read off articles) read
/// already.
pub(crate) fn link_lists_with(
    doc: &Document,
    roots: &[NodeId],
    walk: &Walk<'_>,
    stats: &FastMap<NodeId, Stats>,
) -> Vec<NodeId> {
    let mut content_links = walk.card_links.clone();
    for (id, chars) in data_table_links(&walk.order, stats) {
        *content_links.entry(id).or_default() += chars;
    }
    doomed(doc, roots, stats, &content_links)
}

/// For the elements of `order` (a pre-order walk) that hold a data table
/// (see `table::is_data_table`), the characters of link text inside such
/// tables below each. Link density never removes a data table (a sortable
/// list of laureates, whose every name is a link); its links are content
/// for the blocks around it too, or the block holding the table (a
/// scrolling wrapper, the page's text) goes as a link list with it. One
/// walk, children before parents.
fn data_table_links(
    order: &[NodeRef<'_>],
    stats: &FastMap<NodeId, Stats>,
) -> FastMap<NodeId, usize> {
    let mut found: FastMap<NodeId, usize> = FastMap::default();
    for n in order.iter().rev() {
        let own = if crate::tag::of(n).as_deref() == Some("table") && crate::table::is_data_table(n)
        {
            stats.get(&n.id).map_or(0, |s| s.link as usize)
        } else {
            n.children_it(false)
                .filter_map(|c| found.get(&c.id).copied())
                .sum()
        };
        if own > 0 {
            found.insert(n.id, own);
        }
    }
    found
}

fn doomed(
    doc: &Document,
    roots: &[NodeId],
    stats: &FastMap<NodeId, Stats>,
    card_links: &FastMap<NodeId, usize>,
) -> Vec<NodeId> {
    // The links of a row of cards are its entries, not navigation (see
    // `cards::card_link_text`), and so are a data table's: they count as
    // text.
    let st = |id: &NodeId| {
        let mut s = stats.get(id).copied().unwrap_or_default();
        let cards = card_links.get(id).copied().unwrap_or(0) as u32;
        s.link = s.link.saturating_sub(cards);
        s
    };
    let mut doomed = Vec::new();
    for root in roots {
        let Some(r) = doc.tree.get(root) else {
            continue;
        };
        // A class word like "sidebar" in a layout wrapper
        // ("content-with-sidebar") does not make the article furniture:
        // furniture never holds most of the content's text.
        let most = st(root).text / 2;
        for d in r.descendants_it() {
            let Some(name) = crate::tag::of(&d) else {
                continue;
            };
            if boilerplate::is_noise(&d) && st(&d.id).text <= most {
                doomed.push(d.id);
                continue;
            }
            if matches!(
                &*name,
                "ul" | "ol" | "div" | "section" | "table" | "p" | "aside"
            ) {
                let s = st(&d.id);
                // A list is judged by its own items: the sub-lists of items
                // with prose are kept with them (see `links_are_content`).
                let (text, link) = match &*name {
                    "ul" | "ol" => {
                        let (t, l) = sub_lists(&d, |id| {
                            let s = st(id);
                            (s.text as usize, s.link as usize)
                        });
                        let (text, link) = (s.text as usize, s.link as usize);
                        (text.saturating_sub(t), link.saturating_sub(l))
                    }
                    _ => (s.text as usize, s.link as usize),
                };
                let link_heavy = text > 0 && (link as f32 / text as f32) > 0.6;
                if link_heavy && (&*name != "p" || text < 80) && !links_are_content(&d, &name) {
                    doomed.push(d.id);
                }
            }
        }
    }
    doomed
}

/// Non-space characters of a table cell above which it is a block of the
/// page laid out by a table, not one value of a data table.
const CELL_VALUE: usize = 100;

/// Prose of its own, in non-space characters, that makes a list item more
/// than a link: "Becks that join the Aire:" above a sub-list of links. A
/// menu's item is a link or a word ("Products") above its sub-menu.
const ITEM_PROSE: u32 = 20;

/// Whether the links of block `n` (named `name`) are content whatever
/// their share of its text, so no link-density rule may remove it:
/// - a data table (see `table::is_data_table`) — a sortable table's
///   column titles and every name in it are links;
/// - the value of a short table cell (`<td><div><a>Aire</a></div></td>`):
///   removing it empties the cell and breaks the row;
/// - the sub-list of a list item that has prose of its own.
pub(crate) fn links_are_content(n: &NodeRef<'_>, name: &str) -> bool {
    match name {
        "table" => crate::table::is_data_table(n),
        "ul" | "ol" => in_cell_value(n) || n.parent().is_some_and(|li| item_has_prose(&li)),
        _ => in_cell_value(n),
    }
}

/// Whether `n` lies in a `td`/`th` (a few levels up, not past a table) of at
/// most [`CELL_VALUE`] characters, counted with an early stop (after as
/// many nodes) so a huge layout cell costs no more than a small one.
fn in_cell_value(n: &NodeRef<'_>) -> bool {
    let Some(cell) = n
        .ancestors_it(Some(4))
        .take_while(|a| a.node_name().as_deref() != Some("table"))
        .find(|a| matches!(a.node_name().as_deref(), Some("td" | "th")))
    else {
        return false;
    };
    let mut chars = 0;
    for (i, t) in cell.descendants_it().enumerate() {
        if i > CELL_VALUE {
            return false;
        }
        chars += t.query_or(0, |node| match &node.data {
            dom_query::NodeData::Text { contents } => {
                contents.chars().filter(|c| !c.is_whitespace()).count()
            }
            _ => 0,
        });
        if chars > CELL_VALUE {
            return false;
        }
    }
    true
}

/// Whether list item `li` says something besides its links and sub-lists.
fn item_has_prose(li: &NodeRef<'_>) -> bool {
    if li.node_name().as_deref() != Some("li") {
        return false;
    }
    let mut own = 0u32;
    let mut stack: Vec<NodeRef<'_>> = li.children_it(false).collect();
    while let Some(c) = stack.pop() {
        if c.is_text() {
            own += c.query_or(0, |node| match &node.data {
                dom_query::NodeData::Text { contents } => {
                    contents.chars().filter(|ch| !ch.is_whitespace()).count() as u32
                }
                _ => 0,
            });
            if own >= ITEM_PROSE {
                return true;
            }
        } else if !matches!(c.node_name().as_deref(), Some("a" | "ul" | "ol")) {
            stack.extend(c.children_it(false));
        }
    }
    false
}

/// Text and link text, summed by `size`, of the link lists nested in the
/// items of `list` (`li > ul`, `li > ol`, mostly links): what a list's own
/// link density leaves out, since each of those is judged on its own. A
/// sub-list of prose counts: it is what makes an item of links
/// ("Package A", "Package B", "Plus:" above the details) content.
pub(crate) fn sub_lists(
    list: &NodeRef<'_>,
    size: impl Fn(&NodeId) -> (usize, usize),
) -> (usize, usize) {
    let (mut text, mut link) = (0, 0);
    for li in list
        .children_it(false)
        .filter(|c| c.node_name().as_deref() == Some("li"))
    {
        for sub in li
            .children_it(false)
            .filter(|c| matches!(c.node_name().as_deref(), Some("ul" | "ol")))
        {
            let (t, l) = size(&sub.id);
            if l * 10 > t * 6 {
                text += t;
                link += l;
            }
        }
    }
    (text, link)
}

/// Characters of text and of link text below each element, in one pass.
/// With `whole_cards` (pages that are not articles, whose cards are their
/// content; an article's are teasers of other articles), a whole-card link
/// counts only its heading as link text.
pub(crate) fn subtree_stats(order: &[NodeRef<'_>], whole_cards: bool) -> FastMap<NodeId, Stats> {
    let mut stats: FastMap<NodeId, Stats> =
        FastMap::with_capacity_and_hasher(order.len(), Default::default());
    // Pre-order reversed visits children before parents.
    for n in order.iter().rev() {
        let mut s = stats.get(&n.id).copied().unwrap_or_default();
        for c in n.children_it(false) {
            if c.is_text() {
                let (t, commas) = c.query_or((0, 0), |node| match &node.data {
                    dom_query::NodeData::Text { contents } => text_and_commas(contents),
                    _ => (0, 0),
                });
                s.text += t as u32;
                s.commas += commas as u32;
            } else if let Some(cs) = stats.get(&c.id).copied() {
                s.text += cs.text;
                s.link += cs.link;
                s.commas += cs.commas;
                s.heading += cs.heading;
            }
        }
        match crate::tag::of(n).as_deref() {
            Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6") => s.heading = s.text,
            // A whole-card link, one `<a>` around a card's heading and its
            // description (the card components of many design systems: AEM's
            // promo, Bootstrap's stretched card, Tailwind UI): the
            // description is the card's prose, not a menu's entry. Only the
            // heading counts as link text.
            Some("a") if whole_cards && s.heading > 0 && s.text >= s.heading + CARD_PROSE => {
                s.link = s.heading;
            }
            Some("a") => s.link = s.text,
            _ => {}
        }
        stats.insert(n.id, s);
    }
    stats
}

/// The characters of `text` that are not white space, and its [`COMMAS`]
/// (every text node of a page is read here: byte by byte, without
/// decoding a character).
fn text_and_commas(text: &str) -> (usize, usize) {
    if text.is_ascii() {
        let b = text.as_bytes();
        return (
            crate::char_count::ascii_non_space(b),
            memchr::memchr_iter(b',', b).count(),
        );
    }
    // Each comma outside ASCII is one sequence of bytes, which starts
    // with a byte that never continues a character.
    let b = text.as_bytes();
    let commas = memchr::memchr_iter(b',', b).count()
        + COMMAS[1..]
            .iter()
            .map(|c| memchr::memmem::find_iter(b, c.encode_utf8(&mut [0; 4]).as_bytes()).count())
            .sum::<usize>();
    (crate::char_count::non_space(text), commas)
}

/// The text of `n` itself and its inline children, not of nested blocks.
fn direct_text(n: &NodeRef<'_>) -> String {
    let mut out = String::new();
    for c in n.children_it(false) {
        if c.is_text() {
            out.push_str(&c.text());
        } else if let Some(name) = crate::tag::of(&c)
            && matches!(
                &*name,
                "a" | "b"
                    | "strong"
                    | "em"
                    | "i"
                    | "span"
                    | "code"
                    | "sup"
                    | "sub"
                    | "small"
                    | "mark"
                    | "abbr"
                    | "time"
                    | "u"
            )
        {
            out.push_str(&c.text());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_and_commas_are_counted_in_one_reading() {
        let two_readings = |t: &str| {
            (
                t.chars().filter(|c| !c.is_whitespace()).count(),
                t.matches(COMMAS).count(),
            )
        };
        for text in [
            "",
            "a, b,\tc\x0b d",
            "  \n ",
            "\u{a0}x，y、z, w",
            "naïve, déjà vu",
        ] {
            assert_eq!(text_and_commas(text), two_readings(text), "{text:?}");
        }
        assert_eq!(text_and_commas("a, b"), (3, 1));
    }
}
