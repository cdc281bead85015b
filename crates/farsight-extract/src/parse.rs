//! The one place a page is parsed: html5ever into a dom_query tree, without
//! keeping parse errors.
//!
//! dom_query's own `Document::from` keeps every parse error html5ever
//! reports, one string each, in a vector that lives as long as the tree and
//! is copied with it. Hostile pages make one error per byte or two (a NUL,
//! a stray `<`): 5 MiB of NULs held 1.6 GB (issue 11). Nothing here reads
//! those errors, so this sink passes every call to the document and drops
//! the errors instead.

use std::borrow::Cow;

use dom_query::Document;
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeBuilderOpts, TreeSink};
use html5ever::{Attribute, ParseOpts, QualName, parse_document};

/// Parses `html` as a whole document, as `dom_query::Document::from` does
/// (scripting off, so `<noscript>` content is parsed as markup), without
/// the parse errors.
pub(crate) fn parse(html: &str) -> Document {
    let opts = ParseOpts {
        tree_builder: TreeBuilderOpts {
            scripting_enabled: false,
            ..TreeBuilderOpts::default()
        },
        ..ParseOpts::default()
    };
    parse_document(Quiet(Document::default()), opts).one(html)
}

/// The longest text node the parser makes; longer text is split into
/// sibling text nodes (at a space where there is one). html5ever's
/// serializer, which dom_smoothie runs on the content, rescans the rest of
/// a text node for `<` after every `&` or U+00A0 it escapes: quadratic in a
/// node's length, 18 s for a 5 MiB paragraph of `&amp;` (issue 11). Real
/// paragraphs are far shorter; adjacent text nodes read as one text.
const MAX_TEXT_NODE: usize = 16 * 1024;

/// The bytes of `node`'s text when it is a text node, else 0.
fn text_len(node: &dom_query::NodeRef<'_>) -> usize {
    node.query_or(0, |n| match &n.data {
        dom_query::NodeData::Text { contents } => contents.len(),
        _ => 0,
    })
}

/// Where the first piece of `text` at most `max` bytes long ends: after the
/// last white space in it, or at a character boundary when it has none.
fn piece_end(text: &str, max: usize) -> usize {
    if text.len() <= max {
        return text.len();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match text[..end].rfind(|c: char| c.is_ascii_whitespace()) {
        Some(space) if space > max / 2 => space + 1,
        _ => end,
    }
}

/// `text` in pieces of at most [`MAX_TEXT_NODE`] bytes.
fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let cut = piece_end(rest, MAX_TEXT_NODE);
        let (piece, after) = rest.split_at(cut);
        rest = after;
        Some(piece)
    })
}

/// A document that forgets parse errors.
struct Quiet(Document);

impl TreeSink for Quiet {
    type Handle = <Document as TreeSink>::Handle;
    type Output = Document;
    type ElemName<'a> = <Document as TreeSink>::ElemName<'a>;

    fn finish(self) -> Document {
        self.0
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> Self::Handle {
        self.0.get_document()
    }

    fn elem_name<'a>(&'a self, target: &'a Self::Handle) -> Self::ElemName<'a> {
        self.0.elem_name(target)
    }

    fn create_element(
        &self,
        name: QualName,
        attrs: Vec<Attribute>,
        flags: ElementFlags,
    ) -> Self::Handle {
        self.0.create_element(name, attrs, flags)
    }

    fn create_comment(&self, text: StrTendril) -> Self::Handle {
        self.0.create_comment(text)
    }

    fn create_pi(&self, target: StrTendril, data: StrTendril) -> Self::Handle {
        self.0.create_pi(target, data)
    }

    fn append(&self, parent: &Self::Handle, child: NodeOrText<Self::Handle>) {
        let NodeOrText::AppendText(text) = child else {
            return self.0.append(parent, child);
        };
        let held = self
            .0
            .tree
            .last_child_of(parent)
            .map_or(0, |last| text_len(&last));
        if held + text.len() <= MAX_TEXT_NODE {
            // Merged into the text before it, as the document does.
            return self.0.append(parent, NodeOrText::AppendText(text));
        }
        // Too long for one node: pieces of their own, never merged.
        for piece in pieces(&text) {
            let node = self.0.tree.new_text(piece);
            self.0.tree.append_child_of(parent, &node.id);
        }
    }

    fn append_before_sibling(&self, sibling: &Self::Handle, new_node: NodeOrText<Self::Handle>) {
        let NodeOrText::AppendText(text) = new_node else {
            return self.0.append_before_sibling(sibling, new_node);
        };
        let held = self
            .0
            .tree
            .prev_sibling_of(sibling)
            .map_or(0, |prev| text_len(&prev));
        if held + text.len() <= MAX_TEXT_NODE {
            return self
                .0
                .append_before_sibling(sibling, NodeOrText::AppendText(text));
        }
        for piece in pieces(&text) {
            let node = self.0.tree.new_text(piece);
            self.0.tree.insert_before_of(sibling, &node.id);
        }
    }

    // The document's own version calls its own `append`; this one calls
    // ours, which splits long text.
    fn append_based_on_parent_node(
        &self,
        element: &Self::Handle,
        prev_element: &Self::Handle,
        child: NodeOrText<Self::Handle>,
    ) {
        let has_parent = self
            .0
            .tree
            .get(element)
            .is_some_and(|n| n.parent().is_some());
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(
        &self,
        name: StrTendril,
        public_id: StrTendril,
        system_id: StrTendril,
    ) {
        self.0
            .append_doctype_to_document(name, public_id, system_id);
    }

    fn get_template_contents(&self, target: &Self::Handle) -> Self::Handle {
        self.0.get_template_contents(target)
    }

    fn same_node(&self, x: &Self::Handle, y: &Self::Handle) -> bool {
        self.0.same_node(x, y)
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.0.set_quirks_mode(mode);
    }

    fn add_attrs_if_missing(&self, target: &Self::Handle, attrs: Vec<Attribute>) {
        self.0.add_attrs_if_missing(target, attrs);
    }

    fn remove_from_parent(&self, target: &Self::Handle) {
        self.0.remove_from_parent(target);
    }

    fn reparent_children(&self, node: &Self::Handle, new_parent: &Self::Handle) {
        self.0.reparent_children(node, new_parent);
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &Self::Handle) -> bool {
        self.0.is_mathml_annotation_xml_integration_point(handle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_like_dom_query_without_errors() {
        let html = "<p>a\0b<b><i>c</b></i><table><td>x</table><noscript><p>n</p></noscript>< <";
        let ours = parse(html);
        let theirs = Document::from(html);
        assert_eq!(ours.html(), theirs.html());
        assert!(!theirs.errors.borrow().is_empty());
        assert!(ours.errors.borrow().is_empty());
    }

    #[test]
    fn long_text_is_split_into_sibling_nodes_with_all_of_it() {
        let words = "word &amp; more\u{a0}".repeat(5_000);
        let html = format!("<p id=a>{words}</p><p id=b>{}</p>", "x".repeat(40_000));
        let doc = parse(&html);
        for (id, expected) in [
            ("a", words.replace("&amp;", "&")),
            ("b", "x".repeat(40_000)),
        ] {
            let p = doc.select(&format!("#{id}"));
            let node = p.nodes()[0];
            let kids: Vec<_> = node.children_it(false).collect();
            assert!(kids.len() > 1, "{id}: one node of {} bytes", expected.len());
            assert!(
                kids.iter()
                    .all(|k| k.is_text() && text_len(k) <= MAX_TEXT_NODE)
            );
            assert_eq!(node.text().as_ref(), expected);
        }
        // Text moved before a table (foster parenting) too.
        let html = format!("<table>{words}<tr><td>x</td></tr></table>");
        let doc = parse(&html);
        let table = doc.select("table").nodes()[0];
        let before: Vec<_> = table
            .parent()
            .map(|p| p.children_it(false).collect())
            .unwrap_or_default();
        assert!(before.iter().filter(|n| n.is_text()).count() > 1);
        assert!(before.iter().all(|k| text_len(k) <= MAX_TEXT_NODE));
        // Short text stays one node.
        let doc = parse("<p>a &amp; b</p>");
        assert_eq!(doc.select("p").nodes()[0].children_it(false).count(), 1);
    }

    #[test]
    fn pieces_end_after_a_space_or_at_a_character_boundary() {
        assert_eq!(piece_end("abc", 10), 3);
        assert_eq!(piece_end("aaaa bbbb cc", 11), 10);
        // No space in the second half: cut at the limit, never inside a char.
        assert_eq!(piece_end("ééééé", 5), 4);
    }
}
