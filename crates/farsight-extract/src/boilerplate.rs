//! Page furniture: navigation, headers, footers, sidebars, cookie banners.

use dom_query::{Document, NodeRef};

/// Class/id words that mark furniture.
const NOISE: [&str; 22] = [
    "nav",
    "navbar",
    "menu",
    "footer",
    "header",
    "sidebar",
    "breadcrumb",
    "cookie",
    "consent",
    "banner",
    "share",
    "social",
    "related",
    "newsletter",
    "advert",
    "ads",
    "promo",
    "popup",
    "modal",
    "subscribe",
    "skip-link",
    "comments",
];

/// Removes furniture from the document.
pub(crate) fn strip(doc: &Document) {
    let doomed: Vec<NodeRef<'_>> = doc
        .root()
        .descendants_it()
        .filter(|n| n.is_element() && is_noise(n))
        .collect();
    for n in doomed {
        n.remove_from_parent();
    }
}

pub(crate) fn is_noise(n: &NodeRef<'_>) -> bool {
    let Some(name) = n.node_name() else {
        return false;
    };
    if matches!(&*name, "nav" | "footer" | "aside") {
        return true;
    }
    // Old Reddit wraps every comment's text in a form; a search box or a
    // sign-up form holds no paragraphs.
    if &*name == "form" {
        return !holds_prose(n);
    }
    if &*name == "header"
        && !n
            .ancestors_it(None)
            .any(|a| matches!(a.node_name().as_deref(), Some("article" | "main")))
    {
        return true;
    }
    if let Some(role) = n.attr("role")
        && matches!(
            &*role,
            "navigation"
                | "banner"
                | "contentinfo"
                | "complementary"
                | "search"
                | "dialog"
                | "alert"
        )
    {
        return true;
    }
    if matches!(&*name, "body" | "html" | "main" | "article") {
        return false;
    }
    let class = n.attr("class").unwrap_or_default().to_ascii_lowercase();
    let id = n.attr("id").unwrap_or_default().to_ascii_lowercase();
    words(&class).chain(words(&id)).any(|w| NOISE.contains(&w))
}

/// A paragraph of at least a sentence's length below `n`.
fn holds_prose(n: &NodeRef<'_>) -> bool {
    n.descendants_it().any(|d| {
        d.node_name().as_deref() == Some("p") && d.normalized_char_count() >= 80
    })
}

fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
}
