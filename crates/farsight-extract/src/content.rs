//! The third stage: choosing the content roots, elements of the one parsed
//! page. A scoring engine picks the blocks that read as the content
//! (Readability's choice, or the linear density engine's on pages too big
//! for it); when they are one card of a row of alike cards, the row is the
//! content; on pages that spread their content over many blocks, the
//! page's main region wins when it holds more. Nothing here edits the page:
//! cleaning is the next stage (`passes.rs`).

use dom_query::{Document, NodeId};

use crate::deadline::Deadline;
use crate::kind::PageKind;
use crate::passes::Chosen;
use crate::words::Words;
use crate::words::tables::REVIEW;
use crate::{Engine, archive, cards, density, listicle, passes, posts, readability, region};

/// Fewer characters than this from a page that is not an article are a
/// failure to find its content, not its content.
const TINY_CONTENT: usize = 300;

/// The chosen blocks already hold the region's content when they hold
/// this share of the raw `<main>` text (navigation and sidebars inside
/// `<main>` make up the rest): no second look to check.
const MAIN_COVERED: f32 = 0.95;

/// On a page without a `<main>` region, its body without furniture and
/// link lists replaces the picked blocks when it keeps this many times
/// their text: a service or product page spreads its content over many
/// sections, of which Readability picks the one with the most prose.
const BODY_WIDER: f32 = 1.2;

/// ... but not when it keeps more than this many times their text: then
/// the picked blocks are the page's content among many other things
/// (comments, feeds, archives) that no furniture rule names.
const BODY_TOO_WIDE: f32 = 6.0;

/// ... or this many on one product's page (schema.org `Product`,
/// `og:type` product), which has no comments, feeds or archives but
/// spreads its description over sections apart from the summary that
/// Readability picks: WooCommerce's `summary entry-summary` beside a
/// theme's feature rows, Shopify's product form beside its description
/// and specification blocks.
const PRODUCT_BODY_TOO_WIDE: f32 = 10.0;

/// Pages deeper than this skip dom_smoothie: its cost grows with the square
/// of the depth (20 s for 10,000 nested elements).
const SMOOTHIE_MAX_DEPTH: usize = 400;

/// Pages with more elements than this skip dom_smoothie too: it is linear,
/// but at several microseconds and a few hundred bytes per element, with
/// copies of the tree, it cannot read a page of 600,000 paragraphs in under
/// two seconds (issue 11); the density engine does. The largest of the
/// 1,678 pages of both benchmark corpora has 15,800 elements, so no real
/// page measured changes engine.
const SMOOTHIE_MAX_ELEMENTS: usize = 60_000;

/// The content roots, in page order, and how they were chosen.
pub(crate) struct Choice {
    pub roots: Vec<NodeId>,
    pub chosen: Chosen,
    /// What Readability's cleaning dropped inside the roots it chose (see
    /// `readability.rs`): a pass of its own on articles.
    pub dropped: Vec<NodeId>,
    /// What the cleaning's passes find below the roots, when it was found
    /// while choosing them (see `passes::kept_text`).
    pub found: Option<passes::Found>,
}

/// Chooses the content of `doc` (already cleaned of hidden elements).
pub(crate) fn choose(
    doc: &Document,
    engine: Engine,
    kind: PageKind,
    deadline: &Deadline,
) -> Choice {
    // A thread that marks its posts' texts (schema.org microdata) has
    // said where its content is: no engine needs to guess.
    if kind.discussion
        && let Some(roots) = posts::texts(doc)
    {
        return Choice {
            roots,
            chosen: Chosen::Region,
            dropped: Vec::new(),
            found: None,
        };
    }
    let (depth, elements) = shape(doc);
    let too_big = depth > SMOOTHIE_MAX_DEPTH || elements > SMOOTHIE_MAX_ELEMENTS;
    let by_density = || {
        density::choose(doc).map(|roots| readability::Verdict {
            roots,
            dropped: Vec::new(),
        })
    };
    let picked = match engine {
        Engine::Readability | Engine::Auto if too_big => by_density(),
        Engine::Readability | Engine::Auto => readability::pick(doc),
        Engine::Density => by_density(),
    };
    let Some(readability::Verdict { roots, dropped }) = picked else {
        return body(doc);
    };
    if let Some(row) = cards::row_of(doc, &roots) {
        return Choice {
            roots: vec![row],
            chosen: Chosen::Row,
            dropped: Vec::new(),
            found: None,
        };
    }
    // On an article, one entry's text of a listicle written as list
    // items gives the list (see `listicle.rs`).
    if !kind.spreads()
        && let Some(list) = listicle::list_of(doc, &roots)
    {
        return Choice {
            roots: vec![list],
            chosen: Chosen::Blocks,
            dropped: Vec::new(),
            found: None,
        };
    }
    // A part of one card gives its row (see `cards::row_around`), which
    // the page's main region or body still replaces when it holds more: a
    // row of cards may be one section of many (a reference's operations).
    let row_around = kind
        .lists()
        .then(|| cards::row_around(doc, &roots))
        .flatten();
    let blocks = match row_around {
        Some(row) => Choice {
            roots: vec![row],
            chosen: Chosen::Row,
            dropped: Vec::new(),
            found: None,
        },
        None => Choice {
            roots,
            chosen: Chosen::Blocks,
            dropped,
            found: None,
        },
    };
    // A blog archive's description picked outside the region of its
    // posts (see `archive.rs`): both are the archive.
    if kind.lists()
        && blocks.chosen == Chosen::Blocks
        && let Some(roots) = archive::with_region(doc, &blocks.roots)
    {
        return Choice {
            roots,
            chosen: Chosen::Region,
            dropped: Vec::new(),
            found: None,
        };
    }
    // The second look is a refinement: not when time is up.
    // An article is its picked blocks, unless they are a few words or
    // mostly links (an index: a Wikipedia "List of", a topic page): those
    // leave a few words once their link lists go, and its region says more
    // (see `widen_to_region`); or one accordion or tab panel holding a
    // small share of the page (a service page marked as an article).
    if deadline.expired() || (!kind.spreads() && !few_words_or_links(doc, &blocks.roots)) {
        return blocks;
    }
    widen_to_region(doc, blocks, kind)
}

/// The page's main region instead of `found` when `found` holds less text
/// than the region without its furniture (see `region.rs`); on a page
/// without a region, its body, cleaned as picked blocks are, when that
/// holds clearly more (see [`BODY_WIDER`]). A thread always takes its
/// region (its body when it has no `<main>`): Readability drops short
/// replies and every post's byline, which are the thread as much as the
/// long posts.
fn widen_to_region(doc: &Document, found: Choice, kind: PageKind) -> Choice {
    let (chosen, dry) = passes::kept_text(doc, &found.roots, kind, found.chosen);
    // On a product page, picked blocks that are customer reviews (the
    // longest prose of many shops' pages) are not the product's content,
    // which inner furniture would drop as such: nothing was found.
    let chosen = if kind.product && in_review(doc, &found.roots) {
        0
    } else {
        chosen
    };
    let found = Choice {
        found: Some(dry),
        ..found
    };
    // A few words out of a whole page (a listing whose every entry is one
    // link): the body minus furniture says more.
    let tiny = chosen < TINY_CONTENT;
    // An article whose picked blocks are one panel of a set (see
    // `in_panel`) and a small share of its main region (its body without
    // one) is one section of a page that spreads (a service page's
    // accordion): the region is weighed as blocks.
    let panel = !kind.spreads() && !tiny && in_panel(doc, &found.roots);
    // An article of links (see `choose`) keeps its picked blocks unless
    // they leave a few words (the region is not looked for).
    if !kind.spreads() && !tiny && !panel {
        return found;
    }
    // The region and its characters, read once for every look below.
    let counted = region::find_counted(doc);
    let main = counted.map(|(id, _)| id);
    let small_share =
        panel && (chosen as f32) < whole_chars_with(doc, counted) as f32 * SMALL_SHARE;
    if !kind.spreads() && !tiny && !small_share {
        return found;
    }
    let (root, how, wider, at_most) = match main {
        Some(main) if small_share => (main, Chosen::Blocks, BODY_WIDER, Some(SHARE_TOO_WIDE)),
        // Furniture removal only shortens the region's text: when the
        // chosen blocks already hold nearly all of it, the region is not
        // looked at.
        Some(main)
            if kind.discussion
                || tiny
                || (chosen as f32) < main_chars(counted) as f32 * MAIN_COVERED =>
        {
            (main, Chosen::Region, 1.0, None)
        }
        Some(_) => return found,
        None => {
            let Some(body) = doc.body().map(|b| b.id) else {
                return found;
            };
            if kind.discussion || tiny {
                (body, Chosen::Region, 1.0, None)
            } else if small_share {
                (body, Chosen::Blocks, BODY_WIDER, Some(SHARE_TOO_WIDE))
            } else {
                // The body as blocks: its link lists (a tag cloud, an
                // archive) go too.
                let most = if kind.product {
                    PRODUCT_BODY_TOO_WIDE
                } else {
                    BODY_TOO_WIDE
                };
                (body, Chosen::Blocks, BODY_WIDER, Some(most))
            }
        }
    };
    let chosen = chosen as f32;
    // The body weighed as blocks mostly loses (to text it holds nearly
    // all of once its furniture is gone): it is not weighed further when
    // its furniture alone leaves too little. A region mostly wins.
    let weighed = if how == Chosen::Blocks && !kind.discussion {
        passes::kept_text_over(doc, &[root], kind, how, chosen * wider)
    } else {
        Some(passes::kept_text(doc, &[root], kind, how))
    };
    let Some((kept, dry)) = weighed else {
        return found;
    };
    let kept = kept as f32;
    if kind.discussion
        || (chosen * wider < kept && at_most.is_none_or(|most| kept <= chosen * most))
    {
        Choice {
            roots: vec![root],
            chosen: how,
            dropped: Vec::new(),
            found: Some(dry),
        }
    } else {
        found
    }
}

/// Whether the text below `roots` is less than [`TINY_CONTENT`], at
/// least [`LINKS_SHARE`] link text, or, in one panel of a set (see
/// [`in_panel`]), less than [`SMALL_SHARE`] of the page's main region (its
/// body without one).
fn few_words_or_links(doc: &Document, roots: &[NodeId]) -> bool {
    let (mut all, mut links) = (0, 0);
    for root in roots.iter().filter_map(|r| doc.tree.get(r)) {
        let (chars, link_chars) = crate::char_count::with_links(root);
        all += chars;
        links += link_chars;
    }
    all < TINY_CONTENT
        || links as f32 >= all as f32 * LINKS_SHARE
        || (in_panel(doc, roots) && (all as f32) < whole_chars(doc) as f32 * SMALL_SHARE)
}

/// The characters of the page's main region, or of its body without one.
fn whole_chars(doc: &Document) -> usize {
    whole_chars_with(doc, region::find_counted(doc))
}

/// [`whole_chars`], given the main region and its characters
/// (`region::find_counted`).
fn whole_chars_with(doc: &Document, main: Option<(NodeId, usize)>) -> usize {
    match main {
        Some((_, chars)) => chars,
        None => doc.body().map_or(0, |b| b.normalized_char_count()),
    }
}

/// The characters of the main region, given by `region::find_counted`.
fn main_chars(main: Option<(NodeId, usize)>) -> usize {
    main.map_or(0, |(_, chars)| chars)
}

/// Whether one of `roots` is, or lies in, one panel of a set of panels
/// that show one at a time: WAI-ARIA's tab panel (`role="tabpanel"`) or
/// accordion panel (`role="region"` labelled by its toggle through
/// `aria-labelledby`), as Elementor, Bootstrap and most accordion widgets
/// mark them. Readability picks the panel with the most prose; the page
/// is all of them and what is around them.
fn in_panel(doc: &Document, roots: &[NodeId]) -> bool {
    roots.iter().filter_map(|r| doc.tree.get(r)).any(|root| {
        std::iter::once(root)
            .chain(root.ancestors_it(None))
            .any(|n| match n.attr("role") {
                Some(role) if role.eq_ignore_ascii_case("tabpanel") => true,
                Some(role) if role.eq_ignore_ascii_case("region") => n.has_attr("aria-labelledby"),
                _ => false,
            })
    })
}

/// How many ancestors of a picked block are looked at for a review widget.
const REVIEW_DEPTH: usize = 6;

/// Whether every one of `roots` is, or lies a few levels inside, a review
/// or question widget by its class and id words (`words::REVIEW`: Yotpo,
/// Judge.me, Okendo, Stamped, a theme's `product-reviews`). Not the body,
/// whose classes name the page's layout (WooCommerce themes'
/// `single-product-reviews-01`).
fn in_review(doc: &Document, roots: &[NodeId]) -> bool {
    !roots.is_empty()
        && roots.iter().all(|r| {
            doc.tree.get(r).is_some_and(|root| {
                std::iter::once(root)
                    .chain(root.ancestors_it(Some(REVIEW_DEPTH)))
                    .take_while(|n| !matches!(n.node_name().as_deref(), Some("body" | "html")))
                    .any(|n| n.is_element() && REVIEW.matches(&Words::of(&n)))
            })
        })
}

/// The share of the page's main region (its body without one) below
/// which an article's picked blocks are one section of many.
const SMALL_SHARE: f32 = 0.2;

/// How many times the picked blocks' text the region weighed as blocks
/// may keep when they were a small share of it: more is comments, feeds
/// and teasers no furniture rule names.
const SHARE_TOO_WIDE: f32 = 10.0;

/// The share of link text that makes picked blocks an index of links.
const LINKS_SHARE: f32 = 0.5;

/// The whole body, when no engine found anything.
fn body(doc: &Document) -> Choice {
    Choice {
        roots: doc.body().map(|b| b.id).into_iter().collect(),
        chosen: Chosen::Body,
        dropped: Vec::new(),
        found: None,
    }
}

/// The document's greatest element depth and its number of elements, in
/// one walk without recursion.
fn shape(doc: &Document) -> (usize, usize) {
    let (mut best, mut elements) = (0, 0);
    let mut stack = vec![(doc.root(), 0usize)];
    while let Some((n, d)) = stack.pop() {
        best = best.max(d);
        elements += 1;
        for c in n.children_it(false) {
            if c.is_element() {
                stack.push((c, d + 1));
            }
        }
    }
    (best, elements)
}
