//! Removing what a browser would not show, before anything reads the page.

use dom_query::{Document, NodeRef};

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
    let Some(name) = n.node_name() else {
        return false;
    };
    if matches!(
        &*name,
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
        // JSON-LD stays: metadata reads it before this runs, but keep it
        // harmlessly out of the content anyway.
        return true;
    }
    if n.has_attr("hidden") {
        return true;
    }
    if n.attr("aria-hidden")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
    {
        return true;
    }
    if n.attr("type")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("hidden"))
    {
        return true;
    }
    n.attr("style").is_some_and(|s| style_hides(&s))
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
