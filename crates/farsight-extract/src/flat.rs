//! The last resort for a page whose nesting the pre-parse pass misjudged:
//! the same text with no element that can nest.
//!
//! `depth.rs` bounds the tree by modelling html5ever's tree builder, and a
//! model of that builder has gaps no test list closes (the adoption agency,
//! MathML text integration points, `</body>` inside foreign content, ...):
//! fuzzing keeps finding markup the model counts as closed while the parser
//! nests it, and a page nested 50,000 deep costs the parser minutes (its
//! scope checks walk the whole stack of open elements). So the parser is
//! watched too (`parse.rs`): when the tree it builds passes
//! [`MAX_PARSED_DEPTH`], it stops and parses this flattened page instead.
//!
//! Flattened, a page keeps its text, its void elements (`<br>`, `<img>`,
//! `<meta>`, canonical `<link>`) and its raw-text elements whole (`<title>`,
//! JSON-LD `<script>`, `<textarea>`: each closes itself), and every block
//! boundary as one `<br>`. Every other tag goes, so nothing opens inside
//! anything: the parsed tree is a handful of levels deep whatever the input.
//! Structure is lost, which for a page nested hundreds of levels deep costs
//! a reader nothing.

use crate::depth::{
    MAX_DEPTH, find_gt, find_raw_end, is_block, is_void, raw_text, skip_attrs, skip_markup_decl,
    tag_name,
};

/// The deepest element the parser may build before the page is parsed
/// flattened instead. The pre-parse pass's own cap is [`MAX_DEPTH`]; its
/// model errs towards counting too deep for the tags it sees, but the
/// parser adds elements no tag names (`<html>`, `<body>`, and the `<tbody>`
/// and `<tr>` a bare `<td>` implies), so a tree it passed reaches twice the
/// cap (measured: 515 for `<table><td>` repeated). Past that, the model
/// missed something.
pub(crate) const MAX_PARSED_DEPTH: usize = 2 * MAX_DEPTH + 8;

/// `html` with every tag that could nest left out and block boundaries kept
/// as `<br>`. Linear, and never longer than the input plus one `<br>` per
/// dropped block tag (a block tag is at least 3 bytes, `<br>` 4).
pub(crate) fn flatten(html: &str) -> String {
    let bytes = html.as_bytes();
    let mut out = String::with_capacity(html.len());
    let mut i = 0;
    // Whether `out` ends in a `<br>` this pass added: one is enough.
    let mut broke = false;
    while let Some(off) = memchr::memchr(b'<', &bytes[i..]) {
        let lt = i + off;
        if off > 0 {
            out.push_str(&html[i..lt]);
            broke = false;
        }
        let closing = bytes.get(lt + 1) == Some(&b'/');
        let name_at = lt + 1 + usize::from(closing);
        match bytes.get(lt + 1) {
            // Comments, doctypes, CDATA: nobody's text.
            Some(b'!') => {
                i = skip_markup_decl(bytes, lt, false);
                continue;
            }
            Some(b'?') => {
                i = find_gt(bytes, lt + 2);
                continue;
            }
            _ => {}
        }
        if !bytes.get(name_at).is_some_and(u8::is_ascii_alphabetic) {
            // `</ ` or `< `: the parser reads a bare `<` as text, and an end
            // tag without a name as a comment.
            if closing {
                i = find_gt(bytes, lt + 2);
            } else {
                out.push('<');
                broke = false;
                i = lt + 1;
            }
            continue;
        }
        let (name, end) = tag_name(html, name_at);
        let close = skip_attrs(bytes, end).1;
        if close > bytes.len() {
            // An unfinished tag at the end: the parser drops it too.
            return out;
        }
        i = close;
        if !closing && let Some(kind) = raw_text(&name) {
            // Kept whole with its body and end tag: it cannot nest.
            let (_, raw_end) = find_raw_end(bytes, close, kind);
            out.push_str(&html[lt..raw_end]);
            broke = false;
            i = raw_end;
        } else if !closing && is_void(&name) {
            out.push_str(&html[lt..close]);
            broke = false;
        } else if is_block(&name) && !broke && !out.is_empty() {
            out.push_str("<br>");
            broke = true;
        }
    }
    out.push_str(&html[i..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_void_and_raw_text_elements_stay_and_nothing_nests() {
        let html = "<!doctype html><html><head><title>T &amp; t</title>\
                    <meta name=description content=d><script type=application/ld+json>{\"a\":\"<b>\"}</script>\
                    </head><body><div><b>bold</b> and <a href=/x>link</a><p>para<br>line</p>\
                    <img src=i.png alt=pic><!-- <div> --><math><mi>x</mi></math> 1 < 2</div>";
        let out = flatten(html);
        assert_eq!(
            out,
            "<title>T &amp; t</title><meta name=description content=d>\
             <script type=application/ld+json>{\"a\":\"<b>\"}</script>\
             <br>bold and link<br>para<br>line<br><img src=i.png alt=pic>x 1 < 2<br>"
        );
        let doc = crate::parse::parse(&out);
        assert_eq!(doc.select("title").text().as_ref(), "T & t");
        assert!(doc.select("body").text().contains("bold and link"));
    }

    #[test]
    fn an_unfinished_tag_at_the_end_is_dropped() {
        assert_eq!(flatten("a<div class=\"x"), "a");
        assert_eq!(flatten("a</"), "a");
    }

    #[test]
    fn output_grows_by_at_most_a_byte_per_dropped_block_tag() {
        let html = "<p>".repeat(1000) + &"<div>x</div>".repeat(1000);
        let out = flatten(&html);
        assert!(out.len() <= html.len() + html.len() / 3);
        assert_eq!(out.matches('x').count(), 1000);
    }
}
