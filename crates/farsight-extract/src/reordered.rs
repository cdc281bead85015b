//! Content that Marko's out-of-order rendering sends late in the page.
//!
//! Marko (eBay's framework) renders an `<await client-reorder>` block as an
//! empty placeholder in place, `id="af{R}ph{N}"` (a `<span>` or
//! `<noscript>`, sometimes around a loading skeleton), and sends the
//! block's content at the end of the body in `<div id="af{R}{N}"
//! style="display:none">`, where `R` is the page's runtime id (eBay's
//! `brwweb`; empty by default). An inline script (`$af{R}(N)`) then moves
//! the content over its placeholder. Without running it, a page's product
//! grid sits hidden after its footer and its place holds a skeleton: this
//! does the move.

use dom_query::{Document, NodeRef};

use crate::fasthash::FastMap;

/// Puts every reordered block of `doc` in the place of its placeholder.
/// `html` is the page's markup, to skip the walk on the pages (most) that
/// hold no placeholder.
pub(crate) fn place(doc: &Document, html: &str) {
    let bytes = html.as_bytes();
    if memchr::memmem::find(bytes, b"id=af").is_none()
        && memchr::memmem::find(bytes, b"id=\"af").is_none()
    {
        return;
    }
    let mut blocks: Vec<(String, NodeRef<'_>)> = Vec::new();
    let mut placeholders: FastMap<String, NodeRef<'_>> = FastMap::default();
    for n in doc.root().descendants_it() {
        let Some(id) = n.attr("id") else {
            continue;
        };
        let Some((runtime, number)) = split_id(&id) else {
            continue;
        };
        match runtime.strip_suffix("ph") {
            Some(r) => {
                placeholders.entry(format!("{r}{number}")).or_insert(n);
            }
            None if n.node_name().as_deref() == Some("div")
                && n.attr("style")
                    .is_some_and(|s| crate::clean::style_hides(&s)) =>
            {
                blocks.push((format!("{runtime}{number}"), n));
            }
            None => {}
        }
    }
    for (key, block) in blocks {
        let Some(placeholder) = placeholders.get(&key) else {
            continue;
        };
        let children: Vec<NodeRef<'_>> = block.children_it(false).collect();
        for c in children {
            placeholder.insert_before(&c);
        }
        placeholder.remove_from_parent();
        block.remove_from_parent();
    }
}

/// `(R, N)` of an id `af{R}{N}`: `N` its final digits, `R` the letters
/// before them (`ph` ending a placeholder's).
fn split_id(id: &str) -> Option<(&str, &str)> {
    let rest = id.strip_prefix("af")?;
    let letters = rest.trim_end_matches(|c: char| c.is_ascii_digit());
    let number = &rest[letters.len()..];
    let plain = letters
        .bytes()
        .all(|b| b.is_ascii_alphabetic() || b == b'_');
    (!number.is_empty() && plain).then_some((letters, number))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(html: &str) -> String {
        let doc = Document::from(html);
        place(&doc, html);
        doc.select("body").html().to_string()
    }

    #[test]
    fn a_block_replaces_its_placeholder() {
        let out = placed(
            "<body><main><h1>Shop</h1><span id=\"afxph1\"><div class=\"skeleton\"></div></span>\
             </main><footer>Foot</footer>\
             <div id=\"afx1\" style=\"display:none\"><ul><li>Kettle</li></ul></div></body>",
        );
        assert_eq!(
            out,
            "<body><main><h1>Shop</h1><ul><li>Kettle</li></ul></main><footer>Foot</footer></body>"
        );
    }

    #[test]
    fn the_default_runtime_id_is_empty() {
        let out = placed(
            "<body><main><noscript id=\"afph0\"></noscript></main>\
             <div id=\"af0\" style=\"display: none\"><p>Late</p></div></body>",
        );
        assert_eq!(out, "<body><main><p>Late</p></main></body>");
    }

    #[test]
    fn other_hidden_blocks_and_ids_are_left_alone() {
        let html = "<body><div id=\"afterword1\"><p>A</p></div>\
                    <div id=\"af2\" style=\"color:red\"><p>B</p></div><span id=\"afph2\"></span>\
                    <div id=\"af3\" style=\"display:none\"><p>C</p></div></body>";
        assert_eq!(placed(html), html.replace("<html>", ""));
    }
}
