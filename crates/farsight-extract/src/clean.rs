//! Removing what a browser would not show, before anything reads the page.

use dom_query::{Document, NodeData, NodeRef};

/// Removes hidden and non-content elements from the whole document:
/// `hidden`, `aria-hidden="true"`, inline `display:none` /
/// `visibility:hidden`, `<template>`, `<noscript>` (unless it holds the
/// page: see [`noscript_holds_page`]), scripts, styles, frames
/// and form controls (buttons too, but for disclosure toggles that say
/// something: an FAQ's question). Returns how many elements were removed.
///
/// Class tokens that say "hidden" without hiding anything on a desktop page
/// are dropped on the way (see [`visible_class`]).
pub(crate) fn remove_hidden(doc: &Document) -> usize {
    let noscript_shown = noscript_holds_page(doc);
    let mut doomed: Vec<NodeRef<'_>> = Vec::new();
    let mut reclassed: Vec<(NodeRef<'_>, String)> = Vec::new();
    let mut shown: Vec<NodeRef<'_>> = Vec::new();
    for n in doc.root().descendants_it() {
        if noscript_shown && n.node_name().as_deref() == Some("noscript") {
            shown.push(n);
            continue;
        }
        // Comments carry no content and confuse text density.
        if n.is_comment() || (n.is_element() && is_hidden(&n)) {
            doomed.push(n);
        } else if let Some(class) = n.attr("class") {
            if is_heading(&n) {
                // Readability drops headings whose class reads as negative
                // (`header-scroll`, `section-meta`); nothing reads a
                // heading's class after it.
                reclassed.push((n, String::new()));
            } else if let Some(visible) = visible_class(&class) {
                reclassed.push((n, visible));
            }
        }
    }
    let count = doomed.iter().filter(|n| n.is_element()).count();
    for n in doomed {
        n.remove_from_parent();
    }
    for (n, class) in reclassed {
        n.set_attr("class", &class);
    }
    // A shown `<noscript>` becomes a plain block: every later stage (and
    // Readability, which drops `<noscript>`) reads it as page content.
    for n in shown {
        n.rename("div");
    }
    count
}

/// The least text, in non-space characters, that makes a `<noscript>`
/// the page rather than a "please enable JavaScript" line.
const NOSCRIPT_PAGE: usize = 400;

/// Whether the page keeps its content inside `<noscript>`, for browsers
/// without scripts, and shows scripts' work (a splash screen, an empty app
/// root) otherwise: Discourse's crawler view, server-rendered fallbacks of
/// single-page apps. So when the text inside `<noscript>` elements is
/// substantial and more than twice the page's other text: the scripts
/// would have built that text, which we cannot run. One walk.
fn noscript_holds_page(doc: &Document) -> bool {
    let Some(body) = doc.body() else {
        return false;
    };
    let (mut inside, mut outside) = (0usize, 0usize);
    let mut stack = vec![(body, false)];
    while let Some((n, in_noscript)) = stack.pop() {
        if n.is_text() {
            let chars = n.query_or(0, |node| match &node.data {
                NodeData::Text { contents } => {
                    contents.chars().filter(|c| !c.is_whitespace()).count()
                }
                _ => 0,
            });
            if in_noscript {
                inside += chars;
            } else {
                outside += chars;
            }
            continue;
        }
        let Some(name) = n.node_name() else {
            continue;
        };
        // Script and style bodies are not text anyone reads.
        if matches!(&*name, "script" | "style" | "template") {
            continue;
        }
        let in_noscript = in_noscript || &*name == "noscript";
        stack.extend(n.children_it(false).map(|c| (c, in_noscript)));
    }
    inside >= NOSCRIPT_PAGE && inside > outside * 2
}

fn is_heading(n: &NodeRef<'_>) -> bool {
    matches!(
        n.node_name().as_deref(),
        Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6")
    )
}

/// The class attribute without the tokens that mention hiding but leave
/// the element shown on a desktop page: Shopify's `quick-add-hidden` and
/// `no-js-hidden`, `small-hide`, `overflow-hidden`, Bootstrap 3's
/// `hidden-xs`, Tailwind's `hidden md:block`. Readability counts any class
/// containing "hidden" against an element and then drops it, which took
/// the description off every product page of Shopify's default theme.
/// `None` when nothing changes.
pub(crate) fn visible_class(class: &str) -> Option<String> {
    let lower = class.to_ascii_lowercase();
    memchr::memmem::find(lower.as_bytes(), b"hid")?;
    let tokens: Vec<&str> = lower.split_ascii_whitespace().collect();
    // Tailwind: `hidden` with a breakpoint that shows the element again.
    let shown_again = tokens.iter().any(|t| {
        t.split_once(':').is_some_and(|(bp, v)| {
            matches!(bp, "sm" | "md" | "lg" | "xl" | "2xl")
                && matches!(
                    v,
                    "block" | "flex" | "grid" | "inline" | "inline-block" | "inline-flex" | "table"
                )
        })
    });
    let keep = |t: &str| {
        if !t.contains("hid") {
            return true;
        }
        if t == "hidden" {
            return !shown_again;
        }
        // Hidden for everyone, or on large screens.
        matches!(
            t,
            "hide"
                | "is-hidden"
                | "u-hidden"
                | "visually-hidden"
                | "visuallyhidden"
                | "hidden-lg"
                | "hidden-md"
                | "hidden-desktop"
                | "desktop-hidden"
                | "hide-desktop"
                | "large-up-hide"
        ) || t
            .split_once(':')
            .is_some_and(|(bp, v)| matches!(bp, "md" | "lg" | "xl" | "2xl") && v == "hidden")
    };
    let kept: Vec<&str> = tokens.iter().copied().filter(|t| keep(t)).collect();
    (kept.len() != tokens.len()).then(|| kept.join(" "))
}

fn is_hidden(n: &NodeRef<'_>) -> bool {
    // One look at the name and attributes, borrowed, not cloned.
    n.query_or(false, |node| {
        let NodeData::Element(el) = &node.data else {
            return false;
        };
        if &*el.name.local == "button" {
            return !is_disclosure(n, el);
        }
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

/// A button that opens a section of the page (an FAQ's question, an
/// accordion's heading) says something; "Add to cart" and "Menu" do not.
fn is_disclosure(n: &NodeRef<'_>, el: &dom_query::Element) -> bool {
    let toggles = el
        .attrs
        .iter()
        .any(|a| matches!(&*a.name.local, "aria-expanded" | "aria-controls"));
    toggles && {
        let text = n.text();
        text.split_whitespace().count() >= 3 && text.trim().chars().count() >= 20
    }
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
    fn classes_that_hide_nothing_on_a_desktop_go() {
        let v = |c: &str| visible_class(c);
        assert_eq!(
            v("product__description rte quick-add-hidden").as_deref(),
            Some("product__description rte")
        );
        assert_eq!(v("small-hide no-js-hidden x").as_deref(), Some("x"));
        assert_eq!(v("hidden md:block").as_deref(), Some("md:block"));
        assert_eq!(v("hidden-xs overflow-hidden").as_deref(), Some(""));
        assert_eq!(v("hidden"), None);
        assert_eq!(v("menu lg:hidden"), None);
        assert_eq!(v("visually-hidden"), None);
        assert_eq!(v("content"), None);
    }

    #[test]
    fn styles() {
        assert!(style_hides("color: red; DISPLAY : none"));
        assert!(style_hides("visibility:hidden !important"));
        assert!(style_hides("font-size: 0"));
        assert!(!style_hides("display: block"));
        assert!(!style_hides("visibility: visible"));
    }
}
