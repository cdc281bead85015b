//! Listings and collections: when the chosen content is one card of a row of
//! alike cards (search results, products, jobs, posts of a thread), the
//! content is the row, not the one card that happened to score best.

use dom_query::{Document, NodeData, NodeId, NodeRef};
use html5ever::local_name;

use std::hash::{Hash, Hasher};

use crate::density::Stats;
use crate::fasthash::{FastMap, FastSet, FxHasher};

/// Cards in a row, the chosen one included, for it to be a listing.
const MIN_CARDS: usize = 3;

/// The row around `roots` when they are one card: the outermost element
/// with a class at or below the one root, holding most of its text, whose
/// parent holds at least [`MIN_CARDS`] children of the same class, the
/// others together holding as much text as it (layout rows around an
/// article share a class too, but not its weight). The row's parent.
pub(crate) fn row_of(doc: &Document, roots: &[NodeId]) -> Option<NodeId> {
    let [root] = roots else {
        return None;
    };
    let root = doc.tree.get(root)?;
    let card = std::iter::once(root)
        .chain(root.descendants_it())
        .find(|n| n.is_element() && n.attr("class").is_some_and(|c| !c.trim().is_empty()))?;
    let class = card.attr("class")?;
    let parent = card.parent()?;
    let alike = |s: &NodeRef<'_>| s.is_element() && s.attr("class").is_some_and(|c| *c == *class);
    // Texts are counted (each a walk of its element) only once the row
    // has its cards: most picked blocks have no alike siblings.
    if parent.children_it(false).filter(alike).count() < MIN_CARDS {
        return None;
    }
    let card_text = text_len(&card);
    // The card is often the root itself, which holds all of its text.
    if card.id != root.id && card_text * 2 < text_len(&root) {
        return None;
    }
    // The others' text is read until it holds as much as the card's.
    let mut others = 0;
    for s in parent
        .children_it(false)
        .filter(|s| s.id != card.id && alike(s))
    {
        if others >= card_text {
            break;
        }
        others += text_len(&s);
    }
    (others >= card_text).then_some(parent.id)
}

fn text_len(n: &NodeRef<'_>) -> usize {
    crate::char_count::normalized(*n)
}

/// Rows of cards whose every part may be a link: a shop category's product
/// grid (the picture, the name, the rating and the price all link to the
/// product: Amazon's best sellers, eBay, Shopify and WooCommerce
/// `product-card`/`product-item` grids, schema.org `Product`/`Offer`
/// microdata) and a listing's link-only entries (a job board's or a blog
/// index's `<li>`/`<article>` cards, one `<a>` around a title, a company
/// and a date). Link density reads them as menus; they are the page.
///
/// A row is an element with at least [`MIN_CARDS`] alike children (same
/// tag and first class word that is not an item's number; `<li>` of any
/// class) of which most are cards: a link, at least [`CARD_PARTS`]
/// separate texts (or an `<article>` with a heading: its title alone) and
/// [`CARD_TEXT`] characters, and what a menu item lacks — a picture, a
/// heading, a `<time>`, a price (a currency sign against a digit) or
/// schema.org `Product`/`Offer` microdata. A menu's item is one label.
///
/// Returns, for the elements of `order` (a pre-order walk, as
/// `density::subtree_stats` reads it), the characters of link text inside
/// cards of such rows below each: link text that is content.
///
/// `stats`, when given, are `density::subtree_stats` of `order` (one
/// root's walk, as `walk::read` reads it): their text is the text counted
/// here, and the text nodes are then only asked whether they hold any.
pub(crate) fn card_link_text(
    order: &[NodeRef<'_>],
    stats: Option<&FastMap<NodeId, Stats>>,
) -> FastMap<NodeId, usize> {
    find_cards(order, stats).map_or_else(FastMap::default, |(_, links)| links)
}

/// The row of cards around `roots` when they are one card of it, or a part
/// of one (a job's tags, a product's name): a scoring engine picks the
/// card's longest text, and the listing is the row. When `roots` is in no
/// card, the block of it and a row of cards next to it (see
/// [`block_with_row`]). Only on a page whose cards hold a good share of
/// its text (see [`card_link_text`]).
pub(crate) fn row_around(doc: &Document, roots: &[NodeId]) -> Option<NodeId> {
    let [root] = roots else {
        return None;
    };
    let body = doc.body()?;
    let order: Vec<NodeRef<'_>> = std::iter::once(body).chain(body.descendants_it()).collect();
    let (cards, _) = find_cards(&order, None)?;
    let root = doc.tree.get(root)?;
    match std::iter::once(root)
        .chain(root.ancestors_it(None))
        .find(|a| cards.contains(&a.id))
    {
        Some(card) => card.parent().map(|row| row.id),
        None => block_with_row(doc, &body, &root, &cards),
    }
}

/// The block that holds `roots` and a row of cards next to it, when
/// `roots` is one block of prose: a shop category's or a catalogue's
/// description (WooCommerce `term-description`, Magento `category-view`,
/// Shopify's `collection-description`/`rte`, a home page's welcome text)
/// followed by its product grid, the listing itself. A scoring engine
/// picks the prose, the longest text, and loses the grid. The nearest
/// ancestor of the root (at most [`BESIDE_LEVELS`] up) that holds a row of
/// cards, when the root and the cards are half its text or more (not the whole
/// page with its menus). Only on a page whose cards hold a good share of
/// its text (see [`card_link_text`]); `roots` is in no card.
fn block_with_row(
    doc: &Document,
    body: &NodeRef<'_>,
    root: &NodeRef<'_>,
    cards: &FastSet<NodeId>,
) -> Option<NodeId> {
    // Each row's text (its cards'), summed onto the row's ancestors up to
    // [`BESIDE_LEVELS`] above it: one walk per row, bounded.
    let mut row_text: FastMap<NodeId, usize> = FastMap::default();
    let mut in_row: FastMap<NodeId, usize> = FastMap::default();
    for id in cards {
        if let Some(card) = doc.tree.get(id)
            && let Some(row) = card.parent()
        {
            *row_text.entry(row.id).or_default() += text_len(&card);
        }
    }
    for (row, chars) in &row_text {
        let Some(row) = doc.tree.get(row) else {
            continue;
        };
        for a in std::iter::once(row)
            .chain(row.ancestors_it(None))
            .take(BESIDE_LEVELS + 1)
        {
            let held = in_row.entry(a.id).or_default();
            *held = (*held).max(*chars);
        }
    }
    // A root holding a row already has its listing.
    if in_row.contains_key(&root.id) {
        return None;
    }
    let root_text = text_len(root);
    for a in root.ancestors_it(None).take(BESIDE_LEVELS) {
        if a.id == body.id {
            return None;
        }
        if let Some(&chars) = in_row.get(&a.id) {
            return ((root_text + chars) * 2 >= text_len(&a)).then_some(a.id);
        }
    }
    None
}

/// How far above a description its product grid's block may be: the
/// description and the grid sit in a theme's container, rows and columns
/// (Bootstrap's `container` > `row` > `col-*`, nested twice).
const BESIDE_LEVELS: usize = 6;

/// The cards of the rows of `order` and the link text inside them below
/// each element; `None` when the cards hold too little of the text. The
/// text is that of `stats` when given (see [`card_link_text`]).
fn find_cards(
    order: &[NodeRef<'_>],
    stats: Option<&FastMap<NodeId, Stats>>,
) -> Option<(FastSet<NodeId>, FastMap<NodeId, usize>)> {
    let mut feats: FastMap<NodeId, Feats> =
        FastMap::with_capacity_and_hasher(order.len(), Default::default());
    let mut cards: FastSet<NodeId> = FastSet::default();
    // Children before parents: each element's figures, then whether its
    // children form a row (their figures are all known by then).
    for n in order.iter().rev() {
        let mut f = Feats::default();
        for c in n.children_it(false) {
            if c.is_text() {
                c.query(|node| {
                    if let NodeData::Text { contents } = &node.data {
                        // With `stats`, only whether the text holds a
                        // character that is not white space (what a
                        // count above nothing says).
                        let chars = match stats {
                            Some(_) => usize::from(!contents.trim().is_empty()),
                            None => crate::char_count::non_space(contents),
                        };
                        if chars > 0 {
                            f.text += chars;
                            f.parts = f.parts.saturating_add(1);
                            f.signal |= has_price(contents);
                        }
                    }
                });
            } else if let Some(cf) = feats.get(&c.id) {
                f.add(cf);
            }
        }
        // The same sum of each text node's non-space characters up the
        // same tree, read once by `density::subtree_stats`.
        if let Some(stats) = stats {
            f.text = stats.get(&n.id).map_or(0, |s| s.text as usize);
        }
        let Some(name) = crate::tag::of(n) else {
            continue;
        };
        match &*name {
            "a" => {
                f.link = f.text;
                f.has_link = true;
                f.links = f.links.saturating_add(1);
            }
            "img" | "picture" | "time" => f.signal = true,
            "h2" | "h3" | "h4" | "h5" | "h6" => {
                f.signal = true;
                f.heading = true;
            }
            _ => f.signal |= has_product_microdata(n),
        }
        // An `<article>` holding a heading is one entry of a blog's or
        // recipe site's archive even when its title is its only text
        // (WordPress themes' `article.post.entry`: a thumbnail and an
        // `h2.entry-title` link, as Genesis prints a category's posts; the
        // thumbnail's link is often `aria-hidden` and gone by now).
        f.titled_entry = &*name == "article" && f.heading;
        mark_row(n, &feats, &mut cards);
        feats.insert(n.id, f);
    }
    // Parents before children: what lies inside a card.
    let mut inside: FastSet<NodeId> = FastSet::default();
    let (mut in_cards, mut total) = (0, 0);
    let text = |n: &NodeRef<'_>| feats.get(&n.id).map_or(0, |f| f.text);
    for n in order {
        let parent_inside = n.parent().is_some_and(|p| inside.contains(&p.id));
        if parent_inside || cards.contains(&n.id) {
            inside.insert(n.id);
            if !parent_inside {
                in_cards += text(n);
            }
        }
        if n.parent().is_none_or(|p| !feats.contains_key(&p.id)) {
            total += text(n);
        }
    }
    // A row or two of cards in a page of prose are teasers ("Also see",
    // "You may also like"); a listing is mostly its cards.
    if in_cards * LISTED_SHARE < total {
        return None;
    }
    let mut out: FastMap<NodeId, usize> = FastMap::default();
    for n in order.iter().rev() {
        let own = if inside.contains(&n.id) {
            feats.get(&n.id).map_or(0, |f| f.link)
        } else {
            n.children_it(false)
                .filter_map(|c| out.get(&c.id))
                .sum::<usize>()
        };
        if own > 0 {
            out.insert(n.id, own);
        }
    }
    Some((cards, out))
}

/// A page lists things when its cards hold at least one part in this many
/// of its text (the rest is navigation, filters and footers).
const LISTED_SHARE: usize = 3;

/// Separate texts of a card: a title and at least one more thing.
const CARD_PARTS: u16 = 2;

/// Non-space characters of a card: more than a label and its count.
const CARD_TEXT: usize = 20;

/// Links of a card: its picture, title, rating, price, maker and a button
/// or two point at one or two places. A mega-menu's item, which also has
/// a heading, a picture and many texts, holds a list of links.
const CARD_LINKS: u16 = 6;

/// What a card shows, summed over an element's subtree.
#[derive(Default, Clone, Copy)]
struct Feats {
    text: usize,
    link: usize,
    parts: u16,
    links: u16,
    has_link: bool,
    /// A picture, a heading, a time, a price or product microdata.
    signal: bool,
    /// An `h2`-`h6` below.
    heading: bool,
    /// The element is an `<article>` holding a heading: a card even with
    /// one text part (its title). Not summed onto ancestors.
    titled_entry: bool,
}

impl Feats {
    fn add(&mut self, o: &Feats) {
        self.text += o.text;
        self.link += o.link;
        self.parts = self.parts.saturating_add(o.parts);
        self.links = self.links.saturating_add(o.links);
        self.has_link |= o.has_link;
        self.signal |= o.signal;
        self.heading |= o.heading;
    }

    fn is_card(&self) -> bool {
        self.has_link
            && self.signal
            && (self.parts >= CARD_PARTS || self.titled_entry)
            && self.text >= CARD_TEXT
            && self.links <= CARD_LINKS
    }
}

/// Adds to `cards` the children of `n` that make it a row of cards: the
/// largest group of alike children, when it has [`MIN_CARDS`] members and
/// two thirds of them are cards.
fn mark_row(n: &NodeRef<'_>, feats: &FastMap<NodeId, Feats>, cards: &mut FastSet<NodeId>) {
    let elements = || n.children_it(false).filter(|c| c.is_element());
    if elements().nth(MIN_CARDS - 1).is_none() {
        return;
    }
    let mut groups: FastMap<u64, Vec<NodeId>> = FastMap::default();
    for c in elements() {
        groups.entry(alike_key(&c)).or_default().push(c.id);
    }
    let Some(group) = groups.into_values().max_by_key(Vec::len) else {
        return;
    };
    if group.len() < MIN_CARDS {
        return;
    }
    let is_card = |id: &NodeId| feats.get(id).is_some_and(Feats::is_card);
    let count = group.iter().filter(|id| is_card(id)).count();
    if count * 3 >= group.len() * 2 {
        cards.extend(group.into_iter().filter(|id| is_card(id)));
    }
}

/// What makes siblings alike, hashed: their tag and first class word (a
/// featured card adds words to its class); list items are alike whatever
/// their class.
fn alike_key(n: &NodeRef<'_>) -> u64 {
    let mut h = FxHasher::default();
    let tag = crate::tag::of(n);
    tag.as_deref().hash(&mut h);
    if tag.as_deref() != Some("li") {
        // The class read in place, not copied out: every child of an
        // element with a few is asked.
        let read = n.query_or(false, |node| {
            first_word(class_of(&node.data)).hash(&mut h);
            true
        });
        if !read {
            None::<&str>.hash(&mut h);
        }
    }
    h.finish()
}

/// The first class word that is not an item's number (see
/// [`alike_key`]).
fn first_word(class: Option<&str>) -> Option<&str> {
    class.and_then(|c| c.split_whitespace().find(|w| !is_numbered(w)))
}

/// The class of an element, read in place.
fn class_of(data: &NodeData) -> Option<&str> {
    crate::tag::attr_of(data, &local_name!("class"))
}

/// Whether a class word is WordPress's number of one post (`post-30149`):
/// `post_class()` writes the post's id first, for every post type, so the
/// entries of an archive differ in their first class word, which says
/// nothing of what the element is. Not any word ending in a number:
/// Bootstrap's and Tailwind's (`col-lg-6`, `py-5`, `text-gray-500`) say
/// how an element is laid out, and siblings laid out alike are alike.
fn is_numbered(word: &str) -> bool {
    word.strip_prefix("post-")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A currency sign against a digit ("$11.99", "€ 25", "25 €", "£1,200"),
/// or alone: WooCommerce and Shopify themes put the sign in an element of
/// its own (`woocommerce-Price-currencySymbol`).
fn has_price(text: &str) -> bool {
    const SIGNS: [char; 8] = ['$', '€', '£', '¥', '₹', '₩', '₽', '₺'];
    // Every text node of a page comes here and nearly none holds a sign:
    // one fast look for the bytes a sign starts with (`$`, and the lead
    // bytes of the others in UTF-8) says so.
    if memchr::memchr3(b'$', 0xC2, 0xE2, text.as_bytes()).is_none() {
        return false;
    }
    let trimmed = text.trim();
    if trimmed.chars().count() == 1 && trimmed.starts_with(SIGNS) {
        return true;
    }
    let mut prev: Option<char> = None;
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        if let Some(p) = prev
            && ((SIGNS.contains(&p) && c.is_ascii_digit())
                || (p.is_ascii_digit() && SIGNS.contains(&c)))
        {
            return true;
        }
        prev = Some(c);
    }
    false
}

/// schema.org microdata of a product or its offer (`itemtype` Product or
/// Offer, `itemprop` price or offers).
fn has_product_microdata(n: &NodeRef<'_>) -> bool {
    // Both attributes read in place in one look at the element: every
    // element of a listing's walk is asked.
    n.query_or(false, |node| {
        crate::tag::attr_of(&node.data, &local_name!("itemtype"))
            .is_some_and(|t| t.contains("schema.org/Product") || t.contains("schema.org/Offer"))
            || crate::tag::attr_of(&node.data, &local_name!("itemprop"))
                .is_some_and(|p| matches!(p, "price" | "offers" | "lowPrice"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_price_is_a_currency_sign_against_a_digit_or_alone() {
        for (text, price) in [
            ("$11.99", true),
            ("from € 25", true),
            ("25 €", true),
            ("£1,200", true),
            ("¥300", true),
            (" ₹ ", true),
            ("₺", true),
            ("12₩", true),
            ("₽ and more", false),
            ("no price here, 12 items", false),
            ("©2024 — all rights", false),
            ("", false),
        ] {
            assert_eq!(has_price(text), price, "{text:?}");
        }
    }

    // A job board's featured card lists its regions as many short
    // paragraphs, which a scoring engine reads as the page's longest text
    // block: the listing is the row of cards around it (`<li>` cards of a
    // link, a heading, a `<time>`), not that one card's tags.
    #[test]
    fn a_part_of_one_card_gives_the_row_around_it() {
        let doc = crate::parse::parse(include_str!("../test-data/job-board-featured.html"));
        let tags = doc.select("li.job--featured div.job__tags");
        let tags = tags.nodes().first().map(|n| n.id);
        let rows = doc.select("ul.jobs");
        let row = rows.nodes().first().map(|n| n.id);
        assert!(tags.is_some() && row.is_some());
        let tags: Vec<NodeId> = tags.into_iter().collect();
        // One card's class differs from its siblings': the row is not found
        // from the card's class alone.
        assert_eq!(row_of(&doc, &tags), None);
        assert_eq!(row_around(&doc, &tags), row);
        // The page's header is no card: no row around it.
        let header = doc.select("header");
        let header: Vec<NodeId> = header.nodes().iter().map(|n| n.id).collect();
        assert_eq!(row_around(&doc, &header), None);
    }

    // A shop category's description is the longest prose and is picked;
    // the grid of product cards after it in the same container is the
    // listing: the container of both is the content, not the testimonials
    // and newsletter after it.
    #[test]
    fn a_description_gives_the_block_with_the_grid_after_it() {
        let doc = crate::parse::parse(include_str!("../test-data/description-then-grid.html"));
        let ids =
            |sel: &str| -> Vec<NodeId> { doc.select(sel).nodes().iter().map(|n| n.id).collect() };
        let description = ids("div.category-description");
        let container = ids("body > div.container");
        assert_eq!(description.len(), 1);
        assert_eq!(container.len(), 1);
        assert_eq!(row_around(&doc, &description), container.first().copied());
        // Prose with no grid near it keeps its own block.
        assert_eq!(row_around(&doc, &ids("section.testimonials")), None);
    }
}
