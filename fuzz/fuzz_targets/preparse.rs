//! Arbitrary bytes (lossy UTF-8) through the pre-parse pass alone
//! (`farsight_extract::prepare_html`: depth cap, NULs, attribute floods,
//! scripts and styles emptied). It must never panic, and what it promises
//! the parser must hold: no NUL, no growth beyond the `<br>`s it adds, and a
//! tree no deeper than its cap plus a bounded margin.
#![no_main]

use dom_query::Document;
use libfuzzer_sys::fuzz_target;

/// The pre-parse pass's cap: elements nested deeper are flattened into
/// their ancestor.
const MAX_DEPTH: usize = farsight_extract::PREPARE_MAX_DEPTH;

/// The deepest parsed tree the pass lets through. Its model of the tree
/// builder counts the elements whose tags it sees and errs towards too deep
/// for those, but the parser adds elements no tag names: `<html>` and
/// `<body>` (2 levels), and in a table the `<tbody>` and `<tr>` that a bare
/// `<td>` implies. `<table><td>` repeated is 2 levels to the pass and 4 to
/// the parser, so the tree reaches twice the cap (measured: 515 for
/// `MAX_DEPTH` 256). Still bounded, so that is the bound, with a little
/// room for the last kept element.
///
/// Two gaps in the model break any bound (fuzz/regressions/README.md, for
/// depth.rs to close): reconstructed formatting elements
/// (`<div><b><i></div>x` repeated: the parser reopens `<b><i>` inside the
/// next block, the pass sees them closed), and table-part tags outside a
/// table (`<td><div>…</td>`: the parser ignores both tags and keeps the divs
/// open, the pass pops them at `</td>`).
const MAX_PARSED_DEPTH: usize = 2 * MAX_DEPTH + 8;

fuzz_target!(|data: &[u8]| {
    let html = String::from_utf8_lossy(data);
    // Valid UTF-8 by its type; what could break it, a copy cut inside a
    // character, would panic here and be reported as a crash.
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
        depth <= MAX_PARSED_DEPTH,
        "parsed tree {depth} elements deep (bound {MAX_PARSED_DEPTH})"
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
