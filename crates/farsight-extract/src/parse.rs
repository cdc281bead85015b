//! The one place a page is parsed: html5ever into a dom_query tree, without
//! keeping parse errors.
//!
//! dom_query's own `Document::from` keeps every parse error html5ever
//! reports, one string each, in a vector that lives as long as the tree and
//! is copied with it. Hostile pages make one error per byte or two (a NUL,
//! a stray `<`): 5 MiB of NULs held 1.6 GB (issue 11). Nothing here reads
//! those errors, so this sink passes every call to the document and drops
//! the errors instead.
//!
//! It also watches how deep the tree grows: past `flat::MAX_PARSED_DEPTH`
//! the pre-parse pass misjudged the page's nesting, and the parser, whose
//! scope checks walk the whole stack of open elements, would go on at a
//! cost quadratic in the depth. The page is fed in chunks; after the chunk
//! where the tree went too deep, parsing stops and the flattened page
//! (`flat.rs`) is parsed instead.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::fasthash::FastMap;
use crate::flat::{MAX_PARSED_DEPTH, flatten};

use dom_query::{Document, NodeId};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeBuilderOpts, TreeSink};
use html5ever::{Attribute, ParseOpts, QualName, parse_document};

/// Parses `html` as a whole document, as `dom_query::Document::from` does
/// (scripting off, so `<noscript>` content is parsed as markup), without
/// the parse errors.
pub(crate) fn parse(html: &str) -> Document {
    parse_watched(html).unwrap_or_else(|| {
        let flat = flatten(html);
        // Nothing in a flattened page nests, so this cannot go too deep.
        parse_watched(&flat).unwrap_or_default()
    })
}

/// How much of the page the parser is given at a time. Between chunks the
/// depth is checked, so past the limit at most one chunk's elements (a
/// third of its bytes, `<b>` being 3) are built on a stack that deep.
const CHUNK: usize = 8 * 1024;

/// The parsed page, or `None` when its tree went deeper than
/// [`MAX_PARSED_DEPTH`].
fn parse_watched(html: &str) -> Option<Document> {
    let opts = ParseOpts {
        tree_builder: TreeBuilderOpts {
            scripting_enabled: false,
            ..TreeBuilderOpts::default()
        },
        ..ParseOpts::default()
    };
    let too_deep = Rc::new(Cell::new(false));
    let moved = Rc::new(Cell::new(false));
    let sink = Quiet {
        doc: Document::default(),
        // About one node per 40 bytes of a prepared page: grown by
        // rehashing, the map cost half as much again.
        depths: RefCell::new(FastMap::with_capacity_and_hasher(
            html.len() / 40,
            Default::default(),
        )),
        too_deep: too_deep.clone(),
        moved: moved.clone(),
    };
    let mut parser = parse_document(sink, opts);
    for chunk in chunks(html, CHUNK) {
        parser.process(StrTendril::from_slice(chunk));
        if too_deep.get() {
            return None;
        }
    }
    let doc = parser.finish();
    // Moved subtrees are deeper than noted: measure the tree itself, once.
    let deep = too_deep.get() || (moved.get() && element_depth(&doc) > MAX_PARSED_DEPTH);
    (!deep).then_some(doc)
}

/// `html` in pieces of about `size` bytes, each cut at the first character
/// boundary at or after it.
fn chunks(html: &str, size: usize) -> impl Iterator<Item = &str> {
    let mut rest = html;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut cut = rest.len().min(size.max(1));
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (chunk, after) = rest.split_at(cut);
        rest = after;
        Some(chunk)
    })
}

/// The number of elements on the longest path down from the document,
/// walked without recursion.
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

/// A document that forgets parse errors and notes when its tree goes too
/// deep.
struct Quiet {
    doc: Document,
    /// Each node's depth when it was placed, the document being 0. Nodes
    /// the parser moves later keep the depth they were placed at; the one
    /// move that deepens what is below it, the adoption agency's, sets
    /// `moved`, and the finished tree is then measured once.
    depths: RefCell<FastMap<NodeId, u32>>,
    /// Set once a node is placed deeper than [`MAX_PARSED_DEPTH`].
    too_deep: Rc<Cell<bool>>,
    /// Whether the adoption agency moved children under a new element,
    /// making everything below them a level deeper than noted.
    moved: Rc<Cell<bool>>,
}

impl Quiet {
    fn depth(&self, node: &NodeId) -> u32 {
        self.depths.borrow().get(node).copied().unwrap_or(0)
    }

    /// Notes that `child` was placed under `parent`.
    fn placed(&self, parent: &NodeId, child: &NodeId) {
        let depth = self.depth(parent) + 1;
        if depth as usize > MAX_PARSED_DEPTH {
            self.too_deep.set(true);
        }
        self.depths.borrow_mut().insert(*child, depth);
    }

    /// The parent `sibling` has, for a node placed beside it.
    fn parent_of(&self, sibling: &NodeId) -> Option<NodeId> {
        self.doc.tree.parent_of(sibling).map(|p| p.id)
    }
}

impl TreeSink for Quiet {
    type Handle = <Document as TreeSink>::Handle;
    type Output = Document;
    type ElemName<'a> = <Document as TreeSink>::ElemName<'a>;

    fn finish(self) -> Document {
        self.doc
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> Self::Handle {
        self.doc.get_document()
    }

    fn elem_name<'a>(&'a self, target: &'a Self::Handle) -> Self::ElemName<'a> {
        self.doc.elem_name(target)
    }

    fn create_element(
        &self,
        name: QualName,
        attrs: Vec<Attribute>,
        flags: ElementFlags,
    ) -> Self::Handle {
        self.doc.create_element(name, attrs, flags)
    }

    fn create_comment(&self, text: StrTendril) -> Self::Handle {
        self.doc.create_comment(text)
    }

    fn create_pi(&self, target: StrTendril, data: StrTendril) -> Self::Handle {
        self.doc.create_pi(target, data)
    }

    fn append(&self, parent: &Self::Handle, child: NodeOrText<Self::Handle>) {
        let NodeOrText::AppendText(text) = child else {
            if let NodeOrText::AppendNode(node) = &child {
                self.placed(parent, node);
            }
            return self.doc.append(parent, child);
        };
        let held = self
            .doc
            .tree
            .last_child_of(parent)
            .map_or(0, |last| text_len(&last));
        if held + text.len() <= MAX_TEXT_NODE {
            // Merged into the text before it, as the document does.
            return self.doc.append(parent, NodeOrText::AppendText(text));
        }
        // Too long for one node: pieces of their own, never merged.
        for piece in pieces(&text) {
            let node = self.doc.tree.new_text(piece);
            self.doc.tree.append_child_of(parent, &node.id);
        }
    }

    fn append_before_sibling(&self, sibling: &Self::Handle, new_node: NodeOrText<Self::Handle>) {
        let NodeOrText::AppendText(text) = new_node else {
            if let NodeOrText::AppendNode(node) = &new_node
                && let Some(parent) = self.parent_of(sibling)
            {
                self.placed(&parent, node);
            }
            return self.doc.append_before_sibling(sibling, new_node);
        };
        let held = self
            .doc
            .tree
            .prev_sibling_of(sibling)
            .map_or(0, |prev| text_len(&prev));
        if held + text.len() <= MAX_TEXT_NODE {
            return self
                .doc
                .append_before_sibling(sibling, NodeOrText::AppendText(text));
        }
        for piece in pieces(&text) {
            let node = self.doc.tree.new_text(piece);
            self.doc.tree.insert_before_of(sibling, &node.id);
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
            .doc
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
        self.doc
            .append_doctype_to_document(name, public_id, system_id);
    }

    fn get_template_contents(&self, target: &Self::Handle) -> Self::Handle {
        // A template's content is a fragment of its own, nested as deep as
        // the template for the parser's stack.
        let contents = self.doc.get_template_contents(target);
        self.placed(target, &contents);
        contents
    }

    fn same_node(&self, x: &Self::Handle, y: &Self::Handle) -> bool {
        self.doc.same_node(x, y)
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.doc.set_quirks_mode(mode);
    }

    fn add_attrs_if_missing(&self, target: &Self::Handle, attrs: Vec<Attribute>) {
        self.doc.add_attrs_if_missing(target, attrs);
    }

    fn remove_from_parent(&self, target: &Self::Handle) {
        self.doc.remove_from_parent(target);
    }

    fn reparent_children(&self, node: &Self::Handle, new_parent: &Self::Handle) {
        self.moved.set(true);
        self.doc.reparent_children(node, new_parent);
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &Self::Handle) -> bool {
        self.doc.is_mathml_annotation_xml_integration_point(handle)
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
    fn pages_the_depth_model_misjudges_are_parsed_flattened_with_their_text() {
        // Found by fuzzing: markup the pre-parse pass counts as closed and
        // the parser nests (the adoption agency, MathML text integration
        // points, `</body>` in foreign content, `<noscript>` in a head).
        for (prefix, unit) in [
            ("", "<math><desc><tbody></body><a>"),
            ("<desc><h1>", "<li><foreignObject><head><div><noscript></p>"),
            ("", "<button></b><b></a><b>"),
            ("<p></tr>", "<noscript></div><li>"),
            ("<b>", "<mi><col><frameset><math>"),
            ("<math><title>", "<input><desc>"),
        ] {
            let html = format!(
                "<title>t</title><body>{prefix}{}<p>end of page</p>",
                unit.repeat(1500)
            );
            let prepared = crate::depth::prepare(&html, crate::depth::MAX_DEPTH, true);
            // The parser alone nests it past the bound.
            let unwatched = element_depth(&Document::from(prepared.as_ref()));
            assert!(unwatched > MAX_PARSED_DEPTH, "{unit}: {unwatched} deep");
            let doc = parse(&prepared);
            let depth = element_depth(&doc);
            assert!(depth <= MAX_PARSED_DEPTH, "{unit}: {depth} deep");
            assert!(doc.root().text().contains("end of page"), "{unit}");
            assert_eq!(doc.select("title").first().text().as_ref(), "t", "{unit}");
        }
    }

    #[test]
    fn pages_within_the_bound_parse_whole() {
        // Nested as deep as the bound allows, the tree stays as it is.
        let html = format!("<body>{}x", "<span>".repeat(MAX_PARSED_DEPTH - 2));
        let doc = parse(&html);
        assert_eq!(element_depth(&doc), MAX_PARSED_DEPTH);
        // One more, and the page is parsed flattened: text kept, no spans.
        let html = format!("<body>{}x", "<span>".repeat(MAX_PARSED_DEPTH - 1));
        let doc = parse(&html);
        assert!(element_depth(&doc) < 5);
        assert_eq!(doc.select("body").text().as_ref(), "x");
        // A chunk boundary inside a character or a tag changes nothing.
        let text = "é<b>ü</b>".repeat(CHUNK);
        assert_eq!(parse(&text).html(), Document::from(text.as_str()).html());
    }

    /// The tree html5ever builds from `html` fed `step` bytes at a time
    /// (at character boundaries), with or without exact errors.
    fn tree_of(html: &str, step: usize, exact_errors: bool) -> String {
        let opts = ParseOpts {
            tokenizer: html5ever::tokenizer::TokenizerOpts {
                exact_errors,
                ..Default::default()
            },
            tree_builder: TreeBuilderOpts {
                scripting_enabled: false,
                ..TreeBuilderOpts::default()
            },
        };
        let mut parser = parse_document(Document::default(), opts);
        for chunk in chunks(html, step) {
            parser.process(StrTendril::from_slice(chunk));
        }
        parser.finish().html().to_string()
    }

    #[test]
    fn the_vendored_tokenizers_fast_paths_build_the_tree_its_slow_ones_do() {
        // html5ever's runs of name and attribute value characters (vendor/
        // html5ever/FARSIGHT.md) are off with exact errors, where every
        // character goes through `get_char`: both must build the same tree,
        // whatever the chunks the input arrives in.
        let html = "<!DOCTYPE html><HTML><Head><TITLE>T</TITLE></head><BODY \
            CLASS=\"Big\" data-X='1'><DiV Id=\"a\r\nb\" title=\"x&amp;y\" \
            hidden><sPaN\rCLASS=q\tDATA-é=\"ü\">é</sPaN><p\0x a\0b=\"\0\">\
            <a href=\"/x?a=1&b=2\" x=\"\" y='' z=>l</a><b\r\n><I \"q<=1>i</I>\
            <img SRC=\"a.png\"/><ÉL ÀT=1>t</ÉL><br/ ><textarea>\r\nx</textarea>\
            <svg viewBox=\"0 0 1 1\"><foreignObject/></svg><table><tr><TD>c\
            </TD></tr></table></DiV>&lt;<  >&#65;\r\n<p id=\"\r\" A=\"\n\">e\
            <div a=\"1\" B='2' c=\"3\" \"d\"=4 e='5' =f g=\"6\" <h i=\"7\" é=8 j=\"9\" \
            k=\"\" L>m</div><SPAN Class=\"x\" id='y' /><q x=\"1\"  y=\"2\"\tz=\"3\" \0=4>\
            </q><P a b=\"1\" C><em x='1' X='0' y='2' z='3' w=\"4\" v=\"a\" u=\"b\" >n</em></P>";
        let reference = tree_of(html, usize::MAX, true);
        for step in [usize::MAX, 1, 2, 3, 5, 7, 64] {
            assert_eq!(tree_of(html, step, false), reference, "chunks of {step}");
        }
    }

    #[test]
    fn pieces_end_after_a_space_or_at_a_character_boundary() {
        assert_eq!(piece_end("abc", 10), 3);
        assert_eq!(piece_end("aaaa bbbb cc", 11), 10);
        // No space in the second half: cut at the limit, never inside a char.
        assert_eq!(piece_end("ééééé", 5), 4);
    }
}
