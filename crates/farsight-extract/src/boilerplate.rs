//! Page furniture: navigation, headers, footers, sidebars, cookie banners.

use dom_query::{Document, NodeRef};

use crate::words::Words;
use crate::words::tables::{ACCORDION, CARD, NOISE};

/// Removes furniture from the document.
pub(crate) fn strip(doc: &Document) {
    let doomed: Vec<NodeRef<'_>> = doc
        .root()
        .descendants_it()
        .filter(|n| n.is_element() && is_noise(n))
        .collect();
    for n in doomed {
        n.remove_from_parent();
    }
}

pub(crate) fn is_noise(n: &NodeRef<'_>) -> bool {
    is_noise_in(n, false)
}

/// [`is_noise`], where on a thread (`discussion`) comments are content.
pub(crate) fn is_noise_in(n: &NodeRef<'_>, discussion: bool) -> bool {
    is_noise_with(n, &Words::of(n), discussion)
}

/// [`is_noise_in`], for a caller that has read `n`'s [`Words`] already.
pub(crate) fn is_noise_with(n: &NodeRef<'_>, words: &Words, discussion: bool) -> bool {
    let Some(name) = crate::tag::of(n) else {
        return false;
    };
    if matches!(&*name, "nav" | "footer" | "aside") {
        return true;
    }
    // Old Reddit wraps every comment's text in a form; a search box or a
    // sign-up form holds no paragraphs.
    if &*name == "form" {
        return !holds_prose(n);
    }
    let in_content = || {
        n.ancestors_it(None)
            .any(|a| matches!(a.node_name().as_deref(), Some("article" | "main")))
    };
    if &*name == "header" && !in_content() {
        return true;
    }
    if let Some(role) = n.attr("role")
        && matches!(
            &*role,
            "navigation"
                | "banner"
                | "contentinfo"
                | "complementary"
                | "search"
                | "dialog"
                | "alert"
        )
    {
        return true;
    }
    if matches!(&*name, "body" | "html" | "main" | "article") {
        return false;
    }
    // A header class inside `<main>` (a shop category's title and intro,
    // `woocommerce-products-header`) or inside one card of a listing is
    // content; inside an article it holds the headline and byline, which
    // are not the article's text. In an accordion's class it names the
    // panes' headers, its toggles (Bootstrap's `accordion-header`, an
    // FAQ's questions; Kadence's `kt-pane-header-alignment-left` on the
    // whole set): content. On or just below a card's class it names the
    // card's own header, its title (`card-header`, eBay's
    // `brwrvr__item-card__signals__header` around `bsig--header`).
    let accordion = || ACCORDION.matches(words);
    // Most elements hold no word of the table: one test of its bit says
    // so before its entries are listed (every element of the content is
    // asked).
    NOISE.matches(words)
        && NOISE.matching(words).any(|w| {
            (w != "header" || !(content_header(n) || accordion() || card_part(n)))
                && !(discussion && w == "comments")
        })
}

/// How far above an element the card it is a part of may start: eBay's
/// title block sits one level below the card's signals, two below the
/// card's body.
const CARD_PART_DEPTH: usize = 3;

/// Whether `n` or an ancestor at most [`CARD_PART_DEPTH`] levels up is
/// named a card ([`CARD`]): `n` is a part of one entry of a grid.
fn card_part(n: &NodeRef<'_>) -> bool {
    std::iter::once(*n)
        .chain(n.ancestors_it(Some(CARD_PART_DEPTH)))
        .any(|a| CARD.matches(&Words::of_class(&a)))
}

fn content_header(n: &NodeRef<'_>) -> bool {
    n.ancestors_it(None)
        .find_map(|a| match a.node_name().as_deref() {
            Some("main") => Some(true),
            Some("article") => Some(is_card(&a)),
            _ => None,
        })
        .unwrap_or(false)
}

/// An `<article>` beside other `<article>`s: one entry of a listing.
fn is_card(article: &NodeRef<'_>) -> bool {
    let is_article = |s: &NodeRef<'_>| s.node_name().as_deref() == Some("article");
    article
        .prev_element_sibling()
        .is_some_and(|s| is_article(&s))
        || article
            .next_element_sibling()
            .is_some_and(|s| is_article(&s))
}

/// A paragraph of at least a sentence's length below `n`.
fn holds_prose(n: &NodeRef<'_>) -> bool {
    n.descendants_it().any(|d| {
        d.node_name().as_deref() == Some("p") && crate::char_count::normalized(d) >= PROSE_CHARS
    })
}

/// The length of a sentence: a paragraph this long is prose.
pub(crate) const PROSE_CHARS: usize = 80;
