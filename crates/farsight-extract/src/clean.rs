//! Removing what a browser would not show, before anything reads the page.

use dom_query::{Document, NodeData, NodeRef};

/// Removes hidden and non-content elements from the whole document:
/// `hidden`, `aria-hidden="true"`, inline `display:none` /
/// `visibility:hidden`, `<template>`, `<noscript>`, scripts, styles, frames
/// and form controls. Returns how many elements were removed.
pub(crate) fn remove_hidden(doc: &Document) -> usize {
    // Comments carry no content and confuse text density.
    let doomed: Vec<NodeRef<'_>> = doc
        .root()
        .descendants_it()
        .filter(|n| (n.is_element() && is_hidden(n)) || n.is_comment())
        .collect();
    let count = doomed.iter().filter(|n| n.is_element()).count();
    for n in doomed {
        n.remove_from_parent();
    }
    count
}

fn is_hidden(n: &NodeRef<'_>) -> bool {
    // One look at the name and attributes, borrowed, not cloned.
    n.query_or(false, |node| {
        let NodeData::Element(el) = &node.data else {
            return false;
        };
        if matches!(
            &*el.name.local,
            "script"
                | "style"
                | "template"
                | "noscript"
                | "iframe"
                | "frame"
                | "object"
                | "embed"
                | "button"
                | "input"
                | "select"
                | "textarea"
                | "dialog"
                | "link"
        ) {
            // JSON-LD stays: metadata reads it before this runs, but keep
            // it harmlessly out of the content anyway.
            return true;
        }
        el.attrs.iter().any(|a| match &*a.name.local {
            "hidden" => true,
            "aria-hidden" => a.value.trim().eq_ignore_ascii_case("true"),
            "type" => a.value.trim().eq_ignore_ascii_case("hidden"),
            "style" => style_hides(&a.value),
            _ => false,
        })
    })
}

/// Whether an inline style hides the element.
pub(crate) fn style_hides(style: &str) -> bool {
    let compact: String = style
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    compact.split(';').any(|decl| {
        let decl = decl.trim_end_matches("!important");
        matches!(
            decl,
            "display:none"
                | "visibility:hidden"
                | "visibility:collapse"
                | "font-size:0"
                | "font-size:0px"
        ) || decl == "opacity:0"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles() {
        assert!(style_hides("color: red; DISPLAY : none"));
        assert!(style_hides("visibility:hidden !important"));
        assert!(style_hides("font-size: 0"));
        assert!(!style_hides("display: block"));
        assert!(!style_hides("visibility: visible"));
    }
}
