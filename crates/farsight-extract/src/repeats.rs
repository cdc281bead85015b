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

use crate::fasthash::FastSet;
use crate::render::{collapse_ws, is_block};

/// Removes, below `roots`, every innermost block whose text an earlier
/// innermost block already said. One walk over the content: each block's
/// text is read once, as the innermost blocks do not nest.
pub(crate) fn strip(doc: &Document, roots: &[NodeId]) {
    let mut seen: FastSet<String> = FastSet::default();
    let mut doomed: Vec<NodeRef<'_>> = Vec::new();
    // An explicit stack: a page may nest deeper than the call stack goes.
    let mut stack: Vec<NodeRef<'_>> = roots.iter().filter_map(|r| doc.tree.get(r)).collect();
    stack.reverse();
    while let Some(n) = stack.pop() {
        let Some(name) = n.node_name() else {
            continue;
        };
        if matches!(
            &*name,
            "pre" | "code" | "table" | "dl" | "textarea" | "math" | "svg"
        ) {
            continue;
        }
        let children: Vec<NodeRef<'_>> = n.element_children();
        if children
            .iter()
            .any(|c| c.node_name().is_some_and(|c| is_block(&c) || &*c == "pre"))
        {
            stack.extend(children.into_iter().rev());
            continue;
        }
        if !is_block(&name) {
            continue;
        }
        let text = collapse_ws(&n.text());
        if !text.chars().any(char::is_alphanumeric) {
            continue;
        }
        if !seen.insert(text) {
            doomed.push(n);
        }
    }
    for n in doomed {
        n.remove_from_parent();
    }
}
