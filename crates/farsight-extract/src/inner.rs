//! Cleaning inside the chosen content: what sits in an article's container
//! without being the article — image captions and credits, gallery
//! controls, bylines and date lines, author boxes, tag lists, "Don't miss"
//! link runs, teaser cards, screen-reader-only text.
//!
//! Every rule is bounded by size: a match that holds a large share of the
//! content is never removed, so a container that happens to carry such a
//! class (`article-meta-body`) survives.

use std::cell::RefCell;

use crate::fasthash::{FastMap, FastSet};

use dom_query::{Document, NodeData, NodeId, NodeRef};
use html5ever::local_name;

use crate::density;
use crate::kind::PageKind;
use crate::walk::Walk;
use crate::words::tables::{
    AD, AUTHOR_BOX, AUTHOR_CARD, BADGE, BUTTON_LINK, BUY_BOX, CAPTION, CARD_CAPTION, CREDIT,
    ELEMENTOR_CTA, HIDDEN, META, POST_QUOTE, REVIEW, SCREEN_READER, SIGNATURE, SLIDESHOW, TEASER,
    USER_PANEL, VIEW_DETAILS,
};
use crate::words::{Table, Words, is_css_module_badge};

/// Labels that start a photo credit inside a caption's text ("…
/// stretch. Photo: Example News", "… Hong Kong (Image: GETTY)"): the credit
/// is cut from there, the caption kept.
const CREDIT_LABELS: [&str; 12] = [
    "AP Photo",
    "Photo:",
    "Photograph:",
    "Photo by ",
    "Photos:",
    "Image:",
    "Image Source:",
    "Picture:",
    "Credit:",
    "Credit…",
    "Credit...",
    "Illustration:",
];
/// Words that start a credit when they start a text node of a caption:
/// "Credit…", "© Amazon", "Getty Images", "Courtesy of …".
const CREDIT_STARTS: [&str; 6] = [
    "Credit…",
    "Credit...",
    "©",
    "Getty Images",
    "Courtesy of",
    "Photo illustration",
];

#[derive(Default, Clone, Copy)]
struct Size {
    text: usize,
    link: usize,
    links: usize,
    /// A heading (`<h1>`–`<h6>`) below.
    heading: bool,
}

/// Removes the furniture described above from below `roots`. Bylines and
/// date lines go only from articles (a thread's posts and a listing's
/// entries show who and when); on a product page review widgets go
/// whatever their size. `plan` is [`plan`] of the roots on the page as it
/// is now.
pub(crate) fn clean(doc: &Document, kind: PageKind, plan: Plan) {
    // A figure's text beside its media ("Enlarge", "Image 1 of 5", a
    // credit) goes; its caption stays.
    for n in plan.strip_text.iter().filter_map(|id| doc.tree.get(id)) {
        let texts: Vec<NodeRef<'_>> = n
            .descendants_it()
            .filter(|d| {
                d.is_text()
                    && !d
                        .ancestors_it(None)
                        .take_while(|a| a.id != n.id)
                        .any(|a| is_caption(&a))
            })
            .collect();
        for t in texts {
            t.remove_from_parent();
        }
    }
    let mut doomed = plan.doomed;
    // A caption said twice (a template's placeholder under every image)
    // is said once.
    let mut seen = std::collections::HashSet::new();
    let ids: std::collections::HashSet<NodeId> = plan.captions.iter().copied().collect();
    for c in plan.captions.iter().filter_map(|id| doc.tree.get(id)) {
        // A caption inside a caption (`wp-caption` around
        // `wp-caption-text`) is read with the outer one.
        if c.ancestors_it(None).any(|a| ids.contains(&a.id)) {
            continue;
        }
        cut_credit(&c);
        let text = crate::render::collapse_ws(&c.text());
        if !text.is_empty() && !seen.insert(text) {
            doomed.push(c.id);
        } else if captions_an_image(&c, kind) {
            // Off articles a Bootstrap `.caption` is a card's text (a
            // product's name and price), and a quote's figcaption its
            // attribution: both are shown whatever the options.
            c.set_attr(IMAGE_CAPTION, "");
        }
    }
    for n in doomed.iter().filter_map(|id| doc.tree.get(id)) {
        n.remove_from_parent();
    }
}

/// The mark [`clean`] leaves on an image's caption. A caption travels with
/// its image: it is rendered when images are (`include_images`), and left
/// out with them otherwise, as people marking main text leave captions out
/// (119 of 121 captions on the news corpus, 1,132 of 1,233 on WCXB dev).
const IMAGE_CAPTION: &str = "data-farsight-caption";

/// Whether [`clean`] kept `n` as an image's caption.
pub(crate) fn is_image_caption(n: &NodeRef<'_>) -> bool {
    n.has_attr(IMAGE_CAPTION)
}

/// What [`clean`] does to the content below some roots.
#[derive(Clone)]
pub(crate) struct Plan {
    /// The elements that go.
    pub doomed: Vec<NodeId>,
    /// The elements whose text goes, but not their media or caption (a
    /// figure's "Enlarge", "Image 1 of 5").
    pub strip_text: Vec<NodeId>,
    /// The captions that stay, once each and without their credit line.
    pub captions: Vec<NodeId>,
    /// The shop's recommendation rows among `doomed` (see
    /// `recommendations.rs`).
    pub rows: Vec<NodeId>,
}

/// Removes only a shop's recommendation rows (see `recommendations.rs`)
/// from below `roots`: on a page whose roots are its whole body (no engine
/// found a block), where the rest of [`clean`] does not run, the rows
/// ("People who viewed this item also viewed", "Similar items") are still
/// other products, never this one's.
pub(crate) fn clean_rows(doc: &Document, roots: &[NodeId], kind: PageKind) {
    for n in plan(doc, roots, kind)
        .rows
        .iter()
        .filter_map(|id| doc.tree.get(id))
    {
        n.remove_from_parent();
    }
}

/// What [`clean`] does, without changing the page.
pub(crate) fn plan(doc: &Document, roots: &[NodeId], kind: PageKind) -> Plan {
    plan_in(roots, kind, &Walk::of(doc, roots, kind))
}

/// [`plan`] over a [`Walk`] of `roots` read already.
pub(crate) fn plan_in(roots: &[NodeId], kind: PageKind, walk: &Walk<'_>) -> Plan {
    plan_with(roots, kind, walk, None)
}

/// [`plan_in`], given `stats`, when there are, `density::subtree_stats`
/// of the walk's order (one root's, as `walk::read` reads it): their
/// text is the text counted here, read without reading the text again.
pub(crate) fn plan_with(
    roots: &[NodeId],
    kind: PageKind,
    walk: &Walk<'_>,
    stats: Option<&FastMap<NodeId, density::Stats>>,
) -> Plan {
    let order = &walk.order;
    let sizes = sizes(order, stats);
    // The links of a row of cards are its entries (see
    // `cards::card_link_text`): not a run of links.
    let card_links = &walk.card_links;
    let size = |id: &NodeId| {
        let mut s = sizes.get(id).copied().unwrap_or_default();
        s.link = s
            .link
            .saturating_sub(card_links.get(id).copied().unwrap_or(0));
        s
    };
    let total: usize = roots.iter().map(|r| size(r).text).sum();
    // Nothing that holds this much of the content is furniture.
    let cap = |limit: usize| limit.min(total * 2 / 5);

    // A set: a page of many small roots (a long bare list) made this loop
    // quadratic with `roots.contains` (issue 11).
    // Fast-hashed: every element of the walk is looked up.
    let is_root: FastSet<NodeId> = roots.iter().copied().collect();
    let mut doomed: Vec<NodeRef<'_>> = Vec::new();
    let mut strip_text: Vec<NodeRef<'_>> = Vec::new();
    let mut captions: Vec<NodeRef<'_>> = Vec::new();
    let mut rows: Vec<NodeId> = Vec::new();
    let slideshows = Slideshows::default();
    for n in order {
        if is_root.contains(&n.id) {
            continue;
        }
        let Some(name) = crate::tag::of(n) else {
            continue;
        };
        let s = size(&n.id);
        let words = Words::of(n);
        // Most elements have no class or id, which no table matches (an
        // empty value matches no entry): not asked a dozen times.
        let plain = words.values().iter().all(|v| v.is_empty());
        let has = |table: &Table| !plain && table.matches(&words);
        // Two rules ask whether the element is a caption: read once.
        let caption = std::cell::OnceCell::new();
        let captioned = || *caption.get_or_init(|| is_caption(n));

        // A shop's "Frequently bought together" row (see
        // `recommendations.rs`): the row goes, never most of the content.
        // Not only where the page says it is a product: many shops (Amazon,
        // Nintendo's store) say only `og:type` website. Off articles and
        // threads, whose "Related" headings open their own links.
        if !kind.article
            && !kind.discussion
            && crate::recommendations::is_heading(n, &name, kind.product)
        {
            let row = crate::recommendations::row_of(
                *n,
                |a| is_root.contains(&a.id),
                |a| size(&a.id).text,
                |text| text < cap(usize::MAX),
            );
            rows.push(row.id);
            doomed.push(row);
            continue;
        }
        // A sale price's spoken twin (see `clean::SPOKEN_PRICE`): the
        // listing's price, but not one product's, whose struck and new
        // prices the people marking its page leave out.
        if kind.product && n.has_attr(crate::clean::SPOKEN_PRICE) {
            doomed.push(*n);
            continue;
        }
        let remove = match &*name {
            // A caption says what the image shows: it stays, without a
            // credit line at its end.
            // A caption that is a link is a promotion ("Subscribe to our
            // sister title"), not a description.
            "figcaption" if s.link * 2 > s.text => true,
            "figcaption" if !slideshows.contain(n) => {
                captions.push(*n);
                false
            }
            "figcaption" => true,
            // Form captions whose controls are gone ("Size", "Quantity").
            "label" | "legend" => s.text < cap(80),
            "fieldset" => s.text < cap(200),
            "figure" => {
                if is_media_figure(n) {
                    strip_text.push(*n);
                }
                false
            }
            _ if has(&HIDDEN) || has(&SCREEN_READER) => s.text < cap(400),
            // "Sale", "Sold out", "New", "Best seller".
            _ if has(&BADGE) || n.attr("class").is_some_and(|c| is_css_module_badge(&c)) => {
                s.text < cap(40)
            }
            // A shop card's action links ("Quick shop", "View details",
            // "Choose options"), styled as buttons: off articles, a few
            // words inside one card of a row.
            "a" if !kind.article && has(&BUTTON_LINK) => s.text < cap(40) && is_card_action(n),
            // On one product's page, Shopify Dawn's link to the page
            // itself ("View full details"): the quick-add modal's.
            "a" if kind.product && has(&VIEW_DETAILS) => s.text < cap(40),
            // On a review article that also describes its products
            // (JSON-LD `Product` beside `Article`: a "best of" roundup),
            // the boxes named after each product's review are the
            // article's picks, not a shop's customer reviews.
            _ if kind.product && !kind.article && has(&REVIEW) => true,
            _ if kind.product && has(&BUY_BOX) => s.text < cap(600),
            // A post's signature, but Stack Exchange's `post-signature` is
            // the author card.
            _ if has(&USER_PANEL) || (has(&SIGNATURE) && !has(&AUTHOR_CARD)) => s.text < cap(600),
            // On a thread, a post's quote of an earlier post: that post is
            // there already, and people marking threads leave quotes out.
            _ if kind.discussion && has(&POST_QUOTE) => s.text < cap(usize::MAX),
            // Elementor's Call to Action widget is a content card, not an ad.
            _ if has(&AD) && !has(&ELEMENTOR_CTA) => s.text < cap(300),
            // Off articles, only next to an image: `credit` is a word of
            // other things too (a loan's credit terms on a product page).
            _ if has(&CREDIT) && (kind.article || near_media(n)) => s.text < cap(600),
            // A slideshow's captions come once per slide size and with
            // their toggles ("Caption", "Close", "more"): its caption
            // boxes go whole.
            _ if has(&CAPTION) && slideshows.contain(n) => s.text < cap(600),
            // WordPress's caption paragraph (`wp-caption-text`) and its
            // block editor's (`wp-element-caption`) are a figcaption.
            _ if kind.article && captioned() && s.link * 2 > s.text => true,
            // Bootstrap's `.thumbnail > .caption` is the text of a card
            // under its image (a product's name and price) on any page.
            _ if captioned() && (kind.article || has(&CARD_CAPTION)) => {
                captions.push(*n);
                false
            }
            // Off articles, another class that says caption beside an
            // image is a card's overlay or a type size (Etsy's
            // `wt-text-caption` on delivery notes, Shopify's
            // `caption-large` listing titles).
            // A caption box holding a heading is a card's text under its
            // picture (WooCommerce themes' `product-caption` with the
            // product's `<h3>` name, price and excerpt): no caption holds
            // a heading.
            _ if has(&CAPTION) && near_media(n) && !s.heading => s.text < cap(600),
            // Drupal core renders a listing's nodes in its teaser view mode
            // (`node--view-mode-teaser`): off articles they are the entries.
            _ if has(&TEASER) && (kind.article || !is_drupal_teaser_node(n)) => s.text < cap(1500),
            _ if has(&AUTHOR_BOX) => s.text < cap(1200),
            _ if has(&META) && kind.article && !kind.discussion => s.text < cap(200),
            "p" | "div" | "ul" | "section" => {
                // A run of two or more links with a label ("Don't miss:
                // A, B, C") inside the text; off articles and products (whose
                // rows are "you may also like"), not one of a row of alike
                // blocks, which is a listing's entry (an issue's title,
                // labels and author are all links). A list is judged by its
                // own items, as link pruning judges it.
                let (text, link) = if &*name == "ul" {
                    let (t, l) = density::sub_lists(n, |id| {
                        let s = size(id);
                        (s.text, s.link)
                    });
                    (s.text.saturating_sub(t), s.link.saturating_sub(l))
                } else {
                    (s.text, s.link)
                };
                s.links >= 2
                    && link * 10 >= text * 7
                    && text < cap(600)
                    && (kind.article || kind.product || !in_row(n))
                    && !density::links_are_content(n, &name)
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
    Plan {
        doomed: doomed.iter().map(|n| n.id).collect(),
        strip_text: strip_text.iter().map(|n| n.id).collect(),
        captions: captions.iter().map(|n| n.id).collect(),
        rows,
    }
}

/// A caption: `<figcaption>`, or an element whose class says so
/// (`wp-caption-text`, `wp-element-caption`, `image-caption`) that is not a
/// caption's toggle ("Hide caption").
fn is_caption(n: &NodeRef<'_>) -> bool {
    // The tag as the parser's atom, not a copied name: every element of
    // the content is asked.
    if crate::tag::of(n).as_deref() == Some("figcaption") {
        return true;
    }
    // A class name that ends in "caption": a suffix, which no word table
    // says (`image-caption`, not `caption-large`, a type size). Read in
    // any case without a lower-cased copy: every element of the content
    // is asked.
    // The class read in place, not copied out.
    n.query_or(false, |node| {
        crate::tag::attr_of(&node.data, &local_name!("class")).is_some_and(is_caption_class)
    })
}

/// Whether a class, as the page wrote it, names a caption (see
/// [`is_caption`]).
fn is_caption_class(class: &str) -> bool {
    let ends = |w: &[u8], suffix: &[u8]| {
        w.len() >= suffix.len() && w[w.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
    };
    class
        .as_bytes()
        .split(u8::is_ascii_whitespace)
        .any(|w| ends(w, b"caption") || ends(w, b"caption-text"))
        && !class
            .as_bytes()
            .windows(b"toggle".len())
            .any(|w| w.eq_ignore_ascii_case(b"toggle"))
}

/// Whether elements are inside a slideshow widget (a class or id of an
/// ancestor says `gallery`, `slideshow` or `carousel`), read for one
/// [`plan`]. A cache: for each element looked at, whether it or one of its
/// ancestors is a slideshow; valid while the page is unchanged, which it
/// is for the whole of [`plan_in`]. Captions share their ancestors, and
/// the class of `<body>`, too long for [`Words`] to remember, was read
/// again for each caption.
#[derive(Default)]
struct Slideshows {
    at_or_above: RefCell<FastMap<NodeId, bool>>,
}

impl Slideshows {
    /// Whether `n` is inside a slideshow widget.
    fn contain(&self, n: &NodeRef<'_>) -> bool {
        let Some(parent) = n.parent() else {
            return false;
        };
        let mut memo = self.at_or_above.borrow_mut();
        // The ancestors not read yet, nearest first, up to the first one
        // read (or the document), then what that one says for all of them.
        let mut unread: Vec<NodeId> = Vec::new();
        let mut answer = false;
        let mut at = Some(parent);
        while let Some(a) = at {
            if let Some(&known) = memo.get(&a.id) {
                answer = known;
                break;
            }
            unread.push(a.id);
            if SLIDESHOW.matches(&Words::of(&a)) {
                answer = true;
                break;
            }
            at = a.parent();
        }
        for id in unread {
            memo.insert(id, answer);
        }
        answer
    }
}

/// Cuts a photo credit from a caption: from the first text where one
/// starts (see [`CREDIT_LABELS`], [`CREDIT_STARTS`]) to the caption's end.
fn cut_credit(caption: &NodeRef<'_>) {
    let texts: Vec<NodeRef<'_>> = caption.descendants_it().filter(|d| d.is_text()).collect();
    let mut cut = false;
    for t in texts {
        if cut {
            t.remove_from_parent();
            continue;
        }
        t.update(|node| {
            let NodeData::Text { contents } = &mut node.data else {
                return;
            };
            let starts = contents.trim_start();
            // The New York Times writes the label alone: "Credit".
            let at = if starts.trim_end() == "Credit"
                || CREDIT_STARTS.iter().any(|w| starts.starts_with(w))
            {
                Some(0)
            } else {
                CREDIT_LABELS.iter().filter_map(|l| contents.find(l)).min()
            };
            if let Some(at) = at {
                // "… Hong Kong (Image: GETTY)": the bracket goes too.
                let kept = contents[..at].trim_end().trim_end_matches(['(', '[']);
                let kept = kept.trim_end().to_string();
                *contents = kept.into();
                cut = true;
            }
        });
    }
}

/// A short block that is a copyright line ("© 2024 Example Inc. All rights
/// reserved."): a site's footer that ended up inside its content.
fn is_copyright_line(n: &NodeRef<'_>, name: &str, text: usize) -> bool {
    if !matches!(name, "p" | "div" | "span" | "small") || text > 300 {
        return false;
    }
    // Each mark below holds a `©` (whose second byte is A9) or starts with
    // an `A`, which lies in one text node: a block without either byte in
    // its text nodes is not one, and its text is not copied out (most
    // short blocks off articles were).
    let may = std::iter::once(*n).chain(n.descendants_it()).any(|d| {
        d.query_or(false, |node| match &node.data {
            NodeData::Text { contents } => {
                memchr::memchr2(b'A', 0xA9, contents.as_bytes()).is_some()
            }
            _ => false,
        })
    });
    if !may {
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
            .any(|d| crate::tag::of(&d).as_deref() == Some("time"))
}

/// Whether `n`, or its parent or grandparent, has an element sibling
/// beside it of the same tag, the same first class word and as many class
/// words: an entry of a row of alike entries. An entry's last words may
/// tell it apart (an A–Z index's letter blocks `letter-group A`,
/// `letter-group B`; a numbered or a state's modifier), as `cards::alike_key`
/// reads a row by its first word; as many words keeps a one-off block
/// beside its row (a featured card's extra words, a heading block) apart.
/// "Beside" looks past the headings between an index's sections (see
/// [`separates_entries`], at most [`BETWEEN_ENTRIES`] of them).
fn in_row(n: &NodeRef<'_>) -> bool {
    /// The first class word and the number of class words.
    fn class_shape(e: &NodeRef<'_>) -> Option<(String, usize)> {
        let class = e.attr("class")?;
        let mut words = class.split_whitespace();
        let first = words.next()?.to_owned();
        Some((first, 1 + words.count()))
    }
    fn has_twin(e: &NodeRef<'_>) -> bool {
        let shape = class_shape(e);
        let alike = |s: &NodeRef<'_>| s.node_name() == e.node_name() && class_shape(s) == shape;
        // The nearest sibling each way past the headings between
        // sections: an index's letter blocks under their own headings
        // ("A", list, "B", list: MediaWiki's `div-col` lists, a glossary's
        // letters) are a row too.
        let twin = |forward: bool| {
            fn step<'a>(n: &NodeRef<'a>, forward: bool) -> Option<NodeRef<'a>> {
                if forward {
                    n.next_element_sibling()
                } else {
                    n.prev_element_sibling()
                }
            }
            let mut s = step(e, forward);
            for _ in 0..=BETWEEN_ENTRIES {
                match s {
                    Some(sib) if alike(&sib) => return true,
                    Some(sib) if separates_entries(&sib) => s = step(&sib, forward),
                    _ => return false,
                }
            }
            false
        };
        twin(false) || twin(true)
    }
    std::iter::once(*n)
        .chain(n.ancestors_it(Some(2)))
        .any(|e| has_twin(&e))
}

/// How many headings (and style blocks) may stand between two entries of
/// a row (see `in_row`): a heading and its wrapper's styles.
const BETWEEN_ENTRIES: usize = 3;

/// A heading (`h1`-`h6`), a wrapper that starts with one (MediaWiki's
/// `div.mw-heading` around an `h2` and its edit link), or the `<style>` (or
/// its deduplicated `<link>`) a template writes before its block: what
/// separates an index's sections. A description list's term (`<dt>`)
/// separates its descriptions as well: arXiv's listings write each paper's
/// number and links as a `<dt>` and its title, author links and subjects
/// as the `<dd>` after it, entries of one row.
fn separates_entries(n: &NodeRef<'_>) -> bool {
    let heading = |e: &NodeRef<'_>| {
        matches!(
            crate::tag::of(e).as_deref(),
            Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6")
        )
    };
    heading(n)
        || matches!(crate::tag::of(n).as_deref(), Some("style" | "link" | "dt"))
        || n.first_element_child().is_some_and(|c| heading(&c))
}

/// Media in `n`, its parent or its grandparent: where a caption sits.
fn near_media(n: &NodeRef<'_>) -> bool {
    std::iter::once(*n)
        .chain(n.ancestors_it(Some(2)))
        .any(|a| has_media(&a))
}

/// Whether a kept caption is an image's: a `<figcaption>` of any figure
/// but one of a quote, code or a table, or on an article a caption element
/// (`wp-caption-text`) that is not beside one. The image itself may be
/// missing: a lazy-loaded one is an empty placeholder until scripts run.
/// Whether `n` is a node Drupal renders in its teaser view mode
/// (`node--view-mode-teaser`, `node-view-mode--teaser`).
fn is_drupal_teaser_node(n: &NodeRef<'_>) -> bool {
    n.attr("class").is_some_and(|c| {
        c.split_ascii_whitespace()
            .any(|w| w == "node--view-mode-teaser" || w == "node-view-mode--teaser")
    })
}

fn captions_an_image(c: &NodeRef<'_>, kind: PageKind) -> bool {
    let not_an_image = |n: &NodeRef<'_>| has_any(n, &["pre", "blockquote", "table"]);
    if c.node_name().as_deref() == Some("figcaption") {
        return !c
            .ancestors_it(None)
            .find(|a| a.node_name().as_deref() == Some("figure"))
            .is_some_and(|f| not_an_image(&f));
    }
    // `wp-caption` holds its image; `wp-caption-text` sits beside it.
    let holder = if has_media(c) { Some(*c) } else { c.parent() };
    kind.article && !holder.is_some_and(|h| not_an_image(&h))
}

/// A figure of an image or a video, not of a quote, code or a table that
/// has an image in it.
fn is_media_figure(n: &NodeRef<'_>) -> bool {
    has_media(n) && !has_any(n, &["pre", "blockquote", "table"])
}

fn has_media(n: &NodeRef<'_>) -> bool {
    has_any(n, &["img", "picture", "video", "iframe", "svg"])
}

fn has_any(n: &NodeRef<'_>, names: &[&str]) -> bool {
    n.descendants_it()
        .any(|d| d.node_name().is_some_and(|name| names.contains(&&*name)))
}

/// Non-space characters of text, of link text and the number of links
/// below each element, children before parents, in one pass. The text is
/// that of `stats` when given (`density::subtree_stats` of `order`, which
/// counts each text node's non-space characters as this did, and sums
/// them up the same tree): every text node was read again here.
fn sizes(
    order: &[NodeRef<'_>],
    stats: Option<&FastMap<NodeId, density::Stats>>,
) -> FastMap<NodeId, Size> {
    let mut sizes: FastMap<NodeId, Size> =
        FastMap::with_capacity_and_hasher(order.len(), Default::default());
    for n in order.iter().rev() {
        let mut s = Size::default();
        for c in n.children_it(false) {
            if c.is_text() {
                if stats.is_none() {
                    s.text += c.query_or(0, |node| match &node.data {
                        NodeData::Text { contents } => crate::char_count::non_space(contents),
                        _ => 0,
                    });
                }
            } else if let Some(cs) = sizes.get(&c.id) {
                s.text += cs.text;
                s.link += cs.link;
                s.links += cs.links;
                s.heading |= cs.heading;
            }
        }
        if let Some(stats) = stats {
            s.text = stats.get(&n.id).map_or(0, |st| st.text as usize);
        }
        match crate::tag::of(n).as_deref() {
            Some("a") => {
                s.link = s.text;
                s.links += 1;
            }
            Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6") => s.heading = true,
            _ => {}
        }
        sizes.insert(n.id, s);
    }
    sizes
}

/// At most this many words make a card's action link.
const CARD_ACTION_WORDS: usize = 3;

/// A link of a few words (at most [`CARD_ACTION_WORDS`]) inside one card
/// of a row (see `repeats::in_card`), without a heading or an image: an
/// action, not the card's title.
fn is_card_action(n: &NodeRef<'_>) -> bool {
    let text = n.text();
    let words = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .count();
    (1..=CARD_ACTION_WORDS).contains(&words)
        && !has_any(n, &["img", "picture", "h1", "h2", "h3", "h4", "h5", "h6"])
        && crate::repeats::in_card(n)
}
