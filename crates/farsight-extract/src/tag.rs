//! An element's tag name, read as the parser's atom: dom_query's
//! `node_name` copies the name into a new string on every call, which the
//! passes that look at each element of a page (link density, cards, inner
//! furniture) did millions of times on a large page, a fifth of their time.
//! The atom reads as a `&str` (`&*name`) like the copy did.

use dom_query::{Element, NodeData, NodeRef};
use html5ever::LocalName;

/// The tag name of `n`; `None` for a node that is not an element.
pub(crate) fn of(n: &NodeRef<'_>) -> Option<LocalName> {
    n.qual_name_ref().map(|q| q.local.clone())
}

/// The value of `el`'s attribute `name` (an atom: `local_name!("class")`),
/// read in place; the first of that name, as `NodeRef::attr` finds it,
/// which copies the value out on every call.
pub(crate) fn attr<'a>(el: &'a Element, name: &LocalName) -> Option<&'a str> {
    el.attrs
        .iter()
        .find(|a| a.name.local == *name)
        .map(|a| &*a.value)
}

/// [`attr`] of a node's data; `None` for a node that is not an element.
pub(crate) fn attr_of<'a>(data: &'a NodeData, name: &LocalName) -> Option<&'a str> {
    match data {
        NodeData::Element(el) => attr(el, name),
        _ => None,
    }
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

    #[test]
    fn an_attribute_read_in_place_is_the_first_of_its_name() {
        let doc = Document::from(r#"<p class="a b" role=x>t</p>"#);
        let p = doc.select("p").nodes().first().copied();
        let p = p.expect("the page has a paragraph");
        let class = p.query_or(None, |n| {
            super::attr_of(&n.data, &html5ever::local_name!("class")).map(str::to_string)
        });
        assert_eq!(class.as_deref(), Some("a b"));
        assert_eq!(class.as_deref(), p.attr("class").as_deref());
        let id = p.query_or(None, |n| {
            super::attr_of(&n.data, &html5ever::local_name!("id")).map(str::to_string)
        });
        assert_eq!(id, None);
        let text = p.first_child().expect("a text node");
        let none = text.query_or(None, |n| {
            super::attr_of(&n.data, &html5ever::local_name!("class")).map(str::to_string)
        });
        assert_eq!(none, None);
    }
}
