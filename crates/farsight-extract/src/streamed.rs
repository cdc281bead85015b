//! Content that React's streamed server rendering sends late in the page.
//!
//! `renderToPipeableStream` (Next.js's App Router, Remix, any React 18+
//! server) writes a Suspense boundary's fallback in place, marked by an
//! empty `<template id="B:N">` (or `P:N` for a postponed segment) and
//! ending at a `<!--/$-->` comment, and sends the boundary's content at the
//! end of the body in `<div hidden id="S:N">`. An inline script (`$RC`,
//! `$RS`) then moves the content over the fallback. Without running it,
//! the page's main text sits hidden after its footer and its `<main>` holds
//! a loading skeleton: this does the move.

use dom_query::{Document, NodeData, NodeRef};

use crate::fasthash::FastMap;

/// Siblings looked at after a placeholder for the end of its fallback: a
/// fallback is a skeleton of a few elements, never the page.
const MAX_FALLBACK_SIBLINGS: usize = 64;

/// Puts every streamed segment of `doc` in the place of its placeholder,
/// or shows it where it is when the page has none. `html` is the page's
/// markup, to skip the walk on the pages (most) that stream nothing.
pub(crate) fn place(doc: &Document, html: &str) {
    if memchr::memmem::find(html.as_bytes(), b"\"S:").is_none() {
        return;
    }
    let mut segments: Vec<(String, NodeRef<'_>)> = Vec::new();
    let mut placeholders: FastMap<String, NodeRef<'_>> = FastMap::default();
    for n in doc.root().descendants_it() {
        let Some(name) = n.node_name() else {
            continue;
        };
        let Some(id) = n.attr("id") else {
            continue;
        };
        match (&*name, number_after(&id, "S:")) {
            ("div", Some(k)) if n.has_attr("hidden") => segments.push((k, n)),
            ("template", _) => {
                if let Some(k) = number_after(&id, "B:").or_else(|| number_after(&id, "P:")) {
                    placeholders.entry(k).or_insert(n);
                }
            }
            _ => {}
        }
    }
    for (k, segment) in segments {
        match placeholders.get(&k) {
            Some(template) => {
                remove_fallback(template);
                let children: Vec<NodeRef<'_>> = segment.children_it(false).collect();
                for c in children {
                    template.insert_before(&c);
                }
                template.remove_from_parent();
                segment.remove_from_parent();
            }
            None => segment.remove_attr("hidden"),
        }
    }
}

/// `N` of an id `{prefix}N`, where React writes `N` in hexadecimal
/// (`S:1f`).
fn number_after(id: &str, prefix: &str) -> Option<String> {
    let digits = id.strip_prefix(prefix)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some(digits.to_owned())
}

/// Removes the fallback after a boundary's placeholder, up to the comment
/// `/$` that ends it; nothing when that end is not found close by.
fn remove_fallback(template: &NodeRef<'_>) {
    let mut fallback = Vec::new();
    let mut next = template.next_sibling();
    while let Some(n) = next {
        if fallback.len() >= MAX_FALLBACK_SIBLINGS {
            return;
        }
        let ends = n.query_or(
            false,
            |node| matches!(&node.data, NodeData::Comment { contents } if &**contents == "/$"),
        );
        if ends {
            for f in fallback {
                NodeRef::remove_from_parent(&f);
            }
            return;
        }
        next = n.next_sibling();
        fallback.push(n);
    }
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
    fn a_segment_replaces_its_fallback() {
        let out = placed(
            "<body><header>Site</header><main><!--$?--><template id=\"B:0\"></template>\
             <p>Loading…</p><!--/$--></main><footer>Foot</footer>\
             <div hidden id=\"S:0\"><h1>Title</h1><p>Text</p></div></body>",
        );
        assert_eq!(
            out,
            "<body><header>Site</header><main><!--$?--><h1>Title</h1><p>Text</p><!--/$--></main>\
             <footer>Foot</footer></body>"
        );
    }

    #[test]
    fn a_postponed_segment_goes_to_its_placeholder() {
        let out = placed(
            "<body><main><template id=\"P:3c\"></template></main>\
             <div hidden=\"\" id=\"S:3c\"><p>Late</p></div></body>",
        );
        assert_eq!(out, "<body><main><p>Late</p></main></body>");
    }

    #[test]
    fn a_segment_without_a_placeholder_is_shown_where_it_is() {
        let out = placed("<body><p>A</p><div hidden id=\"S:7\"><p>B</p></div></body>");
        assert_eq!(out, "<body><p>A</p><div id=\"S:7\"><p>B</p></div></body>");
    }

    #[test]
    fn other_hidden_blocks_and_ids_are_left_alone() {
        let html = "<body><div hidden id=\"S:x1\"><p>A</p></div><div id=\"S:1\"><p>B</p></div>\
                    <template id=\"B:1\"></template><div hidden id=\"menu\">M</div></body>";
        let out = placed(html);
        assert_eq!(
            out,
            "<body><div hidden=\"\" id=\"S:x1\"><p>A</p></div><div id=\"S:1\"><p>B</p></div>\
             <template id=\"B:1\"></template><div hidden=\"\" id=\"menu\">M</div></body>"
        );
    }

    #[test]
    fn a_fallback_without_its_end_stays() {
        let out = placed(
            "<body><main><template id=\"B:0\"></template><p>Loading</p></main>\
             <div hidden id=\"S:0\"><p>Text</p></div></body>",
        );
        assert_eq!(out, "<body><main><p>Text</p><p>Loading</p></main></body>");
    }
}
