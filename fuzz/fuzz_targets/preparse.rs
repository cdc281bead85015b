//! Arbitrary bytes (lossy UTF-8) through the pre-parse pass alone
//! (`farsight_extract::prepare_html`: depth cap, NULs, attribute floods,
//! scripts and styles emptied). It must never panic, and what it promises
//! the parser must hold: no NUL, no growth beyond the `<br>`s it adds; and
//! farsight's parse of the result (`parse.rs`) is no deeper than its bound.
#![no_main]

use dom_query::Document;
use libfuzzer_sys::fuzz_target;

/// The deepest tree farsight's parse returns. The pre-parse pass models the
/// tree builder and errs towards too deep for the tags it sees, but the
/// parser adds elements no tag names (`<html>`, `<body>`, a bare `<td>`'s
/// `<tbody>` and `<tr>`), and the model has gaps fuzzing keeps finding (the
/// adoption agency, MathML integration points, `</body>` in foreign
/// content): the parse watches the depth itself and parses the page
/// flattened past this bound (`flat.rs`). So the bound holds for any input.
const MAX_PARSED_DEPTH: usize = farsight_extract::PARSED_MAX_DEPTH;

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

    let depth = element_depth(&farsight_extract::parse_html(&out));
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
