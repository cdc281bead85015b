//! A product's page whose only text, once cleaned, is its page footer: an
//! application shell whose scripts build the product (AliExpress's item
//! pages, `<div id="root">` empty) leaves the footer's link columns and
//! language sites, which say nothing of the product. Nothing was found.
//! Only on products: a shop category's footer may hold its own SEO text
//! ("At Glossier, we make products..."), a listing's its footnotes.

use dom_query::{NodeId, NodeRef};

/// Whether `n` is the page's footer: HTML's `<footer>` not inside a
/// sectioning element or `<main>` (`in_section`; that makes it that
/// section's footer, an article's byline box), the page's `contentinfo`
/// landmark as WAI-ARIA maps it; or an element that says so with
/// `role="contentinfo"`.
fn is_page_footer(n: &NodeRef<'_>, in_section: bool) -> bool {
    if n.attr("role")
        .is_some_and(|r| r.trim().eq_ignore_ascii_case("contentinfo"))
    {
        return true;
    }
    !in_section && n.node_name().as_deref() == Some("footer")
}

/// Whether `n` is a sectioning element or `<main>`, whose `<footer>` is
/// its own and not the page's.
fn is_section(n: &NodeRef<'_>) -> bool {
    matches!(
        n.node_name().as_deref(),
        Some("article" | "aside" | "main" | "nav" | "section")
    )
}

/// Whether the text below `roots` is all inside the page's footer, there
/// is some, and at least half of it is link text: the footer's link
/// columns. A footer of prose (a shop's SEO paragraph, a store's
/// footnotes) may be what a page built by scripts says of itself.
pub(crate) fn only_footer(doc: &dom_query::Document, roots: &[NodeId]) -> bool {
    let (mut all, mut links) = (0usize, 0usize);
    for root in roots.iter().filter_map(|r| doc.tree.get(r)) {
        // The root's own place, read once from its ancestors (outermost
        // first, so a section's footer is told from the page's).
        let mut lineage: Vec<NodeRef<'_>> = root.ancestors_it(None).collect();
        lineage.reverse();
        lineage.push(root);
        let (mut root_in_footer, mut root_in_section) = (false, false);
        for a in lineage.iter().filter(|a| a.is_element()) {
            root_in_footer |= is_page_footer(a, root_in_section);
            root_in_section |= is_section(a);
        }
        // Each node with whether it lies in the footer, in a section and in
        // a link: one walk, no ancestor walk per node.
        let mut stack = vec![(root, root_in_footer, root_in_section, false)];
        while let Some((n, in_footer, in_section, in_link)) = stack.pop() {
            if n.is_text() {
                let chars = n.text().chars().filter(|c| !c.is_whitespace()).count();
                if chars > 0 {
                    if !in_footer {
                        return false;
                    }
                    all += chars;
                    if in_link {
                        links += chars;
                    }
                }
                continue;
            }
            for c in n.children_it(false) {
                let element = c.is_element();
                let footer = in_footer || (element && is_page_footer(&c, in_section));
                let section = in_section || (element && is_section(&c));
                let link = in_link || (element && c.node_name().as_deref() == Some("a"));
                stack.push((c, footer, section, link));
            }
        }
    }
    all > 0 && links * 2 >= all
}
