//! The text of a piece of HTML that is not a page: a feed item's summary, a
//! FAQ's answer in JSON-LD, a raw HTML block in Markdown. It goes through
//! the extractor's own parser and renderer, so its tags, scripts and styles
//! never reach the answer and its words are escaped like a page's.

use crate::deadline::Deadline;
use crate::escape;
use crate::render::{self, RenderOptions, collapse_ws};
use crate::url_util::Resolver;

/// `html` as plain text on one line (blocks joined with a space). Text
/// without markup is only collapsed: parsing it would change nothing.
pub(crate) fn one_line(html: &str) -> String {
    if !html.contains(['<', '&']) {
        return collapse_ws(html);
    }
    collapse_ws(&rendered(html, false, false, None))
}

/// `html` as one line of Markdown text: its words escaped so that nothing
/// in them becomes markup, links reduced to their text.
pub(crate) fn one_markdown_line(html: &str) -> String {
    if !html.contains(['<', '&']) {
        return escape::escape_inline(&collapse_ws(html));
    }
    collapse_ws(&rendered(html, true, false, None))
}

/// `html` as Markdown (or plain text when `markdown` is false), with its
/// links (when `links`) made absolute against `base_url`: for HTML kept
/// inside a Markdown document.
pub(crate) fn rendered(html: &str, markdown: bool, links: bool, base_url: Option<&str>) -> String {
    let dom = crate::parse::parse(&crate::depth::prepare(html, crate::depth::MAX_DEPTH, true));
    let resolver = Resolver::new(base_url, None);
    let deadline = Deadline::new(None);
    let body: Vec<_> = dom.body().into_iter().collect();
    render::render(
        &body,
        &RenderOptions {
            markdown,
            images: false,
            links,
            resolver: &resolver,
            deadline: &deadline,
        },
    )
    .trim()
    .to_owned()
}

/// `s` cut to at most `max` characters, at a word boundary where one is
/// near, with an ellipsis when cut.
pub(crate) fn cap_chars(s: &str, max: usize) -> String {
    let Some((cut, _)) = s.char_indices().nth(max) else {
        return s.to_owned();
    };
    let head = &s[..cut];
    let head = match head.rfind(' ') {
        Some(space) if space > cut * 3 / 4 => &head[..space],
        _ => head,
    };
    format!("{}…", head.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_becomes_inert_text() {
        let t = one_line(
            "<p>Fresh <b>tides</b> &amp; ships.</p><script>alert(1)</script><style>p{}</style>\
             <p>See <a href=\"javascript:x\">this</a> <img src=x onerror=alert(1)></p>",
        );
        assert_eq!(t, "Fresh tides & ships. See this");
        assert_eq!(one_line("  plain\n text "), "plain text");
        // A tag written as text stays text, defused for Markdown renderers.
        assert_eq!(one_line("&lt;img src=x&gt;"), "\\<img src=x>");
    }

    #[test]
    fn markdown_keeps_structure_and_absolute_links() {
        let md = rendered(
            "<h2>Hi</h2><ul><li><a href=\"/a\">A</a></li></ul>",
            true,
            true,
            Some("https://e.x/docs/"),
        );
        assert_eq!(md, "## Hi\n\n- [A](https://e.x/a)");
    }

    #[test]
    fn markdown_lines_are_escaped_text() {
        assert_eq!(one_markdown_line("a [b](c) *d*"), "a \\[b\\](c) \\*d\\*");
        // Emphasis stays Markdown; a link is its text.
        assert_eq!(
            one_markdown_line("<b>Bold</b> <a href=\"/x\">link</a>"),
            "**Bold** link"
        );
    }

    #[test]
    fn caps_at_a_word() {
        assert_eq!(cap_chars("short", 10), "short");
        assert_eq!(cap_chars("one two three four", 15), "one two three…");
        assert_eq!(cap_chars("one two three four", 12), "one two thre…");
        assert_eq!(cap_chars("ééééé", 3), "ééé…");
    }
}
