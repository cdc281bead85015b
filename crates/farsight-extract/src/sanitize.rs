//! The html format: the content re-serialised through an allowlist.
//!
//! Writing the HTML ourselves (instead of cleaning and re-using the parser's
//! serialiser) means nothing outside the allowlist can slip through: no
//! scripts, styles, frames, forms, event attributes, `javascript:` or
//! `data:` URLs.

use crate::deadline::Deadline;
use dom_query::NodeRef;

use crate::render::{is_skipped, strip_invisible};
use crate::url_util::Resolver;

/// Deeper than this, elements are unwrapped to their text (no recursion).
const MAX_DEPTH: usize = 120;

/// Elements kept as they are (with allowlisted attributes).
fn kept(name: &str) -> bool {
    matches!(
        name,
        "p" | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "ul"
            | "ol"
            | "li"
            | "dl"
            | "dt"
            | "dd"
            | "table"
            | "thead"
            | "tbody"
            | "tfoot"
            | "tr"
            | "td"
            | "th"
            | "caption"
            | "pre"
            | "code"
            | "blockquote"
            | "hr"
            | "br"
            | "a"
            | "img"
            | "strong"
            | "b"
            | "em"
            | "i"
            | "u"
            | "s"
            | "del"
            | "ins"
            | "sub"
            | "sup"
            | "small"
            | "mark"
            | "q"
            | "cite"
            | "abbr"
            | "kbd"
            | "samp"
            | "var"
            | "time"
            | "figure"
            | "figcaption"
            | "div"
            | "section"
            | "article"
            | "span"
            | "details"
            | "summary"
            | "address"
    )
}

fn void(name: &str) -> bool {
    matches!(name, "hr" | "br" | "img")
}

/// Serialises `nodes` as sanitised HTML.
/// Stops early, keeping what it wrote, once `deadline` passes.
pub(crate) fn sanitize(
    nodes: &[NodeRef<'_>],
    resolver: &Resolver,
    images: bool,
    deadline: &Deadline,
) -> String {
    let mut out = String::new();
    let ctx = Ctx {
        r: resolver,
        images,
        deadline,
    };
    for n in nodes {
        node(n, &ctx, 0, &mut out);
        out.push('\n');
    }
    out.trim().to_string()
}

/// What every node of one sanitising pass needs.
struct Ctx<'a> {
    r: &'a Resolver,
    images: bool,
    deadline: &'a Deadline,
}

fn node(n: &NodeRef<'_>, ctx: &Ctx<'_>, depth: usize, out: &mut String) {
    let (r, images) = (ctx.r, ctx.images);
    if ctx.deadline.passed() {
        return;
    }
    if n.is_text() {
        escape_text(&strip_invisible(&n.text()), out);
        return;
    }
    if n.is_document() || n.is_fragment() {
        for c in n.children_it(false) {
            node(&c, ctx, depth + 1, out);
        }
        return;
    }
    let Some(name) = n.node_name() else {
        return;
    };
    if is_skipped(&name) || !n.is_element() {
        return;
    }
    if depth > MAX_DEPTH {
        escape_text(&strip_invisible(&n.text()), out);
        return;
    }
    let name: &str = &name;
    if (name == "img" || crate::inner::is_image_caption(n)) && !images {
        return;
    }
    // MathML is not on the allowlist (its `href` and `<maction>` are
    // attack surface): a formula keeps its text, in a `<code>` when TeX.
    if name == "math" {
        if let Some(f) = crate::math::formula(n) {
            if f.tex {
                out.push_str("<code>");
            }
            escape_text(&f.text, out);
            if f.tex {
                out.push_str("</code>");
            }
        }
        return;
    }
    let keep = kept(name);
    if keep {
        out.push('<');
        out.push_str(name);
        attrs(n, name, r, out);
        out.push('>');
        if void(name) {
            return;
        }
    }
    for c in n.children_it(false) {
        node(&c, ctx, depth + 1, out);
    }
    if keep {
        out.push_str("</");
        out.push_str(name);
        out.push('>');
    }
}

fn attrs(n: &NodeRef<'_>, name: &str, r: &Resolver, out: &mut String) {
    let mut push = |k: &str, v: &str| {
        out.push(' ');
        out.push_str(k);
        out.push_str("=\"");
        escape_attr(v, out);
        out.push('"');
    };
    match name {
        "a" => {
            if let Some(url) = n.attr("href").and_then(|h| r.link(&h)) {
                push("href", &url);
            }
        }
        "img" => {
            if let Some(url) = n.attr("src").and_then(|s| r.image(&s)) {
                push("src", &url);
            }
            if let Some(alt) = n.attr("alt") {
                push("alt", &alt);
            }
        }
        "td" | "th" => {
            for k in ["colspan", "rowspan"] {
                if let Some(v) = n.attr(k).filter(|v| v.trim().parse::<u32>().is_ok()) {
                    push(k, v.trim());
                }
            }
        }
        "pre" | "code" => {
            if let Some(c) = n.attr("class") {
                let lang: Vec<&str> = c
                    .split_ascii_whitespace()
                    .filter(|c| {
                        c.starts_with("language-")
                            && c.chars()
                                .all(|ch| ch.is_ascii_alphanumeric() || "-_+#.".contains(ch))
                    })
                    .collect();
                if !lang.is_empty() {
                    push("class", &lang.join(" "));
                }
            }
        }
        "time" => {
            if let Some(v) = n.attr("datetime") {
                push("datetime", &v);
            }
        }
        "ol" => {
            if let Some(v) = n.attr("start").filter(|v| v.trim().parse::<u32>().is_ok()) {
                push("start", v.trim());
            }
        }
        _ => {}
    }
}

fn escape_text(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
}

fn escape_attr(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
}
