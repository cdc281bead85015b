//! Arbitrary bytes (lossy UTF-8) through the pre-parse pass alone
//! (`farsight_extract::prepare_html`: depth cap, NULs, attribute floods,
//! scripts and styles emptied). It must never panic, and what it promises
//! the parser must hold: no NUL, no growth beyond the `<br>`s it adds, and a
//! tree no deeper than its cap plus a bounded margin.
#![no_main]

use dom_query::Document;
use libfuzzer_sys::fuzz_target;

/// `depth::MAX_DEPTH` in farsight-extract (crate-private there): elements
/// nested deeper are flattened into their ancestor.
const MAX_DEPTH: usize = 256;

/// How much deeper than `MAX_DEPTH` the parsed tree may be. The pass never
/// counts `<html>` and `<body>` (2 levels), and its model of the tree
/// builder leaves out the one step that opens elements no tag asked for:
/// reconstructing active formatting elements (`<b>`, `<i>`, `<a>`, ...).
/// The Noah's Ark clause keeps at most 3 entries per tag name and
/// attributes, but distinct names or attributes are not bounded by it. See
/// the fuzz README section in crates/farsight-extract/README.md for the
/// measured figure.
const DEPTH_MARGIN: usize = 2 + 64;

fuzz_target!(|data: &[u8]| {
    let html = String::from_utf8_lossy(data);
    let out = farsight_extract::prepare_html(&html);

    // The parser reports an error per NUL and keeps it: the pass exists to
    // spare it those.
    assert!(!out.contains('\0'), "a NUL reached the parser");

    // The pass only leaves text out, except one `<br>` (4 bytes) for each
    // run of dropped block tags, and a block tag is at least 3 bytes
    // (`<p>`): each `<br>` in the output adds at most one byte, and two
    // added ones need a byte copied between them (one break per run).
    let brs = out.matches("<br>").count();
    assert!(
        out.len() <= html.len() + brs,
        "grew by {} bytes with {brs} <br>",
        out.len().saturating_sub(html.len())
    );
    assert!(
        out.len() <= html.len() + html.len() / 4 + 1,
        "grew by more than a quarter: {} -> {}",
        html.len(),
        out.len()
    );

    let depth = element_depth(&Document::from(out.as_ref()));
    assert!(
        depth <= MAX_DEPTH + DEPTH_MARGIN,
        "parsed tree {depth} elements deep"
    );
});

/// The number of elements on the longest path from the document down,
/// walked without recursion (the tree is whatever the parser built).
fn element_depth(doc: &Document) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(doc.root(), 0usize)];
    while let Some((node, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        for child in node.children_it(false) {
            if child.is_element() {
                stack.push((child, depth + 1));
            }
        }
    }
    deepest
}
