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
        self.0.append(parent, child);
    }

    fn append_based_on_parent_node(
        &self,
        element: &Self::Handle,
        prev_element: &Self::Handle,
        child: NodeOrText<Self::Handle>,
    ) {
        self.0
            .append_based_on_parent_node(element, prev_element, child);
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

    fn append_before_sibling(&self, sibling: &Self::Handle, new_node: NodeOrText<Self::Handle>) {
        self.0.append_before_sibling(sibling, new_node);
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
}
