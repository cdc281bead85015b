//! A shop's recommendation rows on a product page (any page that is not
//! an article or a thread, as shops often do not say they sell a product): "Frequently bought
//! together", "Customers also bought", "You may also like", "Related
//! products", "Similar items". Every shop platform shows them under the
//! product (Amazon, eBay, Shopify themes, WooCommerce's related products,
//! Magento's cross-sells), under one of these headings whatever its markup;
//! their cards are other products, never this one's description. Class
//! words catch some (`related`, `upsell`, `cross-sell`, in `words`);
//! hashed classes (CSS modules, styled-components) say nothing, and the
//! heading is all there is.

use dom_query::{NodeData, NodeRef};

/// How such a heading starts, lower-cased. A heading that only starts so
/// is one too ("Customers also bought or read", "Similar products from
/// outside of Best Buy").
const STARTS: [&str; 21] = [
    "frequently bought together",
    "customers also bought",
    "customers also viewed",
    "customers who bought this item also",
    "customers who viewed this item also",
    "people who bought this item also",
    "people who viewed this item also",
    "people also bought",
    "people also viewed",
    "you may also like",
    "you might also like",
    "related products",
    "related items",
    "similar items",
    "similar products",
    "complete the look",
    "shop the look",
    "more like this",
    "more from",
    "recently viewed",
    "explore related",
];

/// Headings that open a row of other products only under a product: a
/// shop's "Featured products" row below one product's description
/// (Shopify themes' featured-collection section, iFixit), where a
/// category or home page's "Featured products" is that page's own grid.
const PRODUCT_ONLY: [&str; 1] = ["featured products"];

/// Headings longer than this are prose that happens to start so.
const MOST_CHARS: usize = 60;

/// Whether `n` is a heading (`<h2>`…`<h4>`, or `role="heading"`) that
/// opens a recommendation row; `product` when the page says it is one
/// product (schema.org `Product`, `og:type` product).
pub(crate) fn is_heading(n: &NodeRef<'_>, name: &str, product: bool) -> bool {
    let heading = matches!(name, "h2" | "h3" | "h4")
        || n.attr("role")
            .is_some_and(|r| r.eq_ignore_ascii_case("heading"));
    if !heading {
        return false;
    }
    let Some(text) = short_text(n) else {
        return false;
    };
    let text = crate::render::collapse_ws(&text);
    if text.len() > MOST_CHARS {
        return false;
    }
    let text = text.trim().to_lowercase();
    STARTS.iter().any(|s| text.starts_with(s))
        || (product && PRODUCT_ONLY.iter().any(|s| text.starts_with(s)))
}

/// The text of `n` when it is short: read until it passes a bound, so a
/// heading wrapped around the page (headings nest in hostile markup) costs
/// no more than a short one.
fn short_text(n: &NodeRef<'_>) -> Option<String> {
    // White space collapses later: allow some before judging the length.
    const READ_AT_MOST: usize = MOST_CHARS * 4;
    let mut text = String::new();
    for d in n.descendants_it() {
        d.query(|node| {
            if let NodeData::Text { contents } = &node.data {
                text.push_str(contents);
            }
        });
        if text.len() > READ_AT_MOST {
            return None;
        }
    }
    Some(text)
}

/// The row that `heading` opens: its outermost ancestor below `stop` that
/// it starts (nothing with text comes before it there) and whose text
/// `fits`. The heading alone when no ancestor does. One walk up, for the
/// few headings that match.
pub(crate) fn row_of<'a>(
    heading: NodeRef<'a>,
    stop: impl Fn(&NodeRef<'a>) -> bool,
    text_of: impl Fn(&NodeRef<'a>) -> usize,
    fits: impl Fn(usize) -> bool,
) -> NodeRef<'a> {
    let mut row = heading;
    let mut at = heading;
    while let Some(parent) = at.parent() {
        if stop(&parent) || !parent.is_element() || !fits(text_of(&parent)) {
            break;
        }
        let mut before = at.prev_sibling();
        while let Some(s) = before {
            if text_of(&s) > 0 || has_own_text(&s) {
                return row;
            }
            before = s.prev_sibling();
        }
        row = parent;
        at = parent;
    }
    row
}

/// A text node with more than white space.
fn has_own_text(n: &NodeRef<'_>) -> bool {
    n.query_or(false, |node| match &node.data {
        NodeData::Text { contents } => !contents.trim().is_empty(),
        _ => false,
    })
}
