//! An element's tag name, read as the parser's atom: dom_query's
//! `node_name` copies the name into a new string on every call, which the
//! passes that look at each element of a page (link density, cards, inner
//! furniture) did millions of times on a large page, a fifth of their time.
//! The atom reads as a `&str` (`&*name`) like the copy did.

use dom_query::NodeRef;
use html5ever::LocalName;

/// The tag name of `n`; `None` for a node that is not an element.
pub(crate) fn of(n: &NodeRef<'_>) -> Option<LocalName> {
    n.qual_name_ref().map(|q| q.local.clone())
}

#[cfg(test)]
mod tests {
    use dom_query::Document;

    #[test]
    fn the_tag_of_an_element_and_none_for_text() {
        let doc = Document::from("<div><p>x</p></div>");
        let p = doc.select("p").nodes().first().copied();
        let p = p.expect("the page has a paragraph");
        assert_eq!(super::of(&p).as_deref(), Some("p"));
        assert_eq!(p.node_name().as_deref(), super::of(&p).as_deref());
        let text = p.first_child().expect("a text node");
        assert_eq!(super::of(&text), None);
    }
}
