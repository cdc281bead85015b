//! Whether an answer holds the page's content, and if not, why: a page
//! whose HTML holds nothing but a title, a notice ("please update your
//! browser") or a form's hint is not a success, and only a page that shows
//! it is built by scripts is said to need JavaScript.

use crate::{Format, Shortfall};

/// Fewer words than this (besides the title) are not a page's main
/// content: at most a sentence or a notice. Of the 1,476 WCXB dev pages
/// with a reference text, 3 are this short with fewer than
/// [`MIN_CHARS`] characters too (shop categories of a few names and prices);
/// of the 181 article-benchmark pages, none.
const MIN_WORDS: usize = 25;

/// Text without spaces between words (Chinese, Japanese, Thai) counts
/// by characters: this many, not counting white space, is content
/// whatever the word count.
const MIN_CHARS: usize = 150;

/// The bytes after `<noscript` looked at for a request to enable
/// JavaScript.
const NOSCRIPT_WINDOW: usize = 600;

/// Why `content` (rendered in `format`) holds little or nothing of the page
/// whose HTML is `html`; `None` when it holds content. `title` and `h1`
/// are the page's title and heading: repeated alone, they are not content.
pub(crate) fn judge(
    content: &str,
    format: Format,
    title: Option<&str>,
    h1: Option<&str>,
    html: &str,
) -> Option<Shortfall> {
    let text = match format {
        Format::Html => std::borrow::Cow::Owned(without_tags(content)),
        _ => std::borrow::Cow::Borrowed(content),
    };
    let headings: Vec<String> = [title, h1].into_iter().flatten().map(words_key).collect();
    let (mut words, mut chars) = (0usize, 0usize);
    for line in text.lines() {
        let key = words_key(line);
        if key.is_empty() || headings.contains(&key) {
            continue;
        }
        words += line.split_whitespace().count();
        chars += line.chars().filter(|c| !c.is_whitespace()).count();
        // Enough: the rest of a long answer need not be read.
        if words >= MIN_WORDS || chars >= MIN_CHARS {
            return None;
        }
    }
    if words >= MIN_WORDS || chars >= MIN_CHARS {
        return None;
    }
    Some(if built_by_scripts(html) {
        Shortfall::BuiltByScripts
    } else {
        Shortfall::NoMainContent
    })
}

/// Evidence in the page's HTML that scripts build it in the browser: a
/// framework's state (`__NEXT_DATA__`, `__NUXT__`), a `<noscript>` that asks
/// for JavaScript, or an empty application root (`#root`, `#app`,
/// `#__next`, `[data-reactroot]`, `<app-root>`) beside a script bundle.
/// Read only for answers with almost no content, on the page as it came.
pub(crate) fn built_by_scripts(html: &str) -> bool {
    let bytes = html.as_bytes();
    let has = |s: &str| memchr::memmem::find(bytes, s.as_bytes()).is_some();
    if has("__NEXT_DATA__") || has("__NUXT__") || has("__NUXT_DATA__") {
        return true;
    }
    let lower = html.to_ascii_lowercase();
    let lower = lower.as_bytes();
    let asks_for_javascript = memchr::memmem::find_iter(lower, b"<noscript").any(|at| {
        let end = (at + NOSCRIPT_WINDOW).min(lower.len());
        let inside = &lower[at..end];
        let inside = match memchr::memmem::find(inside, b"</noscript") {
            Some(close) => &inside[..close],
            None => inside,
        };
        memchr::memmem::find(inside, b"javascript").is_some()
    });
    if asks_for_javascript {
        return true;
    }
    let bundle = memchr::memmem::find_iter(lower, b"<script").any(|at| {
        let tag_end = memchr::memchr(b'>', &lower[at..]).map_or(lower.len(), |e| at + e);
        let tag = &lower[at..tag_end];
        memchr::memmem::find(tag, b"src=").is_some()
            || memchr::memmem::find(tag, b"module").is_some()
    });
    bundle && has_empty_app_root(lower)
}

/// Attributes and tags of the roots single-page applications mount into.
const APP_ROOTS: [&[u8]; 12] = [
    b"id=\"root\"",
    b"id='root'",
    b"id=\"app\"",
    b"id='app'",
    b"id=\"__next\"",
    b"id=\"__nuxt\"",
    b"id=\"___gatsby\"",
    b"id=\"svelte\"",
    b"id=\"q-app\"",
    b"data-reactroot",
    b"<app-root",
    b"ng-app",
];

/// An application root whose element is empty in the HTML (`<div
/// id="root"></div>`): what the scripts fill. `lower` is the page,
/// lower-cased.
fn has_empty_app_root(lower: &[u8]) -> bool {
    APP_ROOTS.iter().any(|marker| {
        memchr::memmem::find_iter(lower, marker).any(|at| {
            let Some(gt) = memchr::memchr(b'>', &lower[at..]) else {
                return false;
            };
            let after = &lower[at + gt + 1..];
            let next = after.iter().position(|b| !b.is_ascii_whitespace());
            next.is_some_and(|i| after[i..].starts_with(b"</"))
        })
    })
}

/// Rendered HTML's text: what is between its tags, each tag a line break
/// (so blocks stay lines for [`judge`]).
fn without_tags(html: &str) -> String {
    text_between_tags(html, '\n')
}

/// What is between the tags of `html`, each tag replaced by `separator`.
/// For HTML farsight wrote itself or a string a page's state holds: a
/// quick count of its words, not a parse.
pub(crate) fn text_between_tags(html: &str, separator: char) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(separator);
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// Lower-cased letters and digits only, to recognise a title in a rendered
/// line whatever the markup around it (`# Title`).
fn words_key(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const POST: &str = "My kitchen sits at sixteen degrees all winter, and the starter sulks. \
        Moving the jar into the oven with only the light on gives it a steady twenty-four degrees.";

    fn judged(content: &str) -> Option<Shortfall> {
        judge(
            content,
            Format::Markdown,
            Some("Sourdough"),
            None,
            "<html></html>",
        )
    }

    #[test]
    fn a_short_post_is_content() {
        assert_eq!(judged(POST), None);
        assert_eq!(judged(&format!("# Sourdough\n\n{POST}")), None);
    }

    #[test]
    fn a_title_a_notice_or_a_hint_is_not() {
        assert_eq!(judged("# Sourdough"), Some(Shortfall::NoMainContent));
        assert_eq!(judged(""), Some(Shortfall::NoMainContent));
        assert_eq!(
            judged("Your browser is out of date. Please update your browser to view this site."),
            Some(Shortfall::NoMainContent)
        );
        assert_eq!(
            judged(
                "This content is password protected. To view it please enter your password below:"
            ),
            Some(Shortfall::NoMainContent)
        );
    }

    #[test]
    fn text_without_spaces_counts_by_characters() {
        let zh = "潮汐每天涨落两次，".repeat(20);
        assert_eq!(judged(&zh), None);
    }

    #[test]
    fn html_output_counts_its_text_only() {
        let html = format!("<h1>Sourdough</h1><p>{POST}</p>");
        assert_eq!(
            judge(&html, Format::Html, Some("Sourdough"), None, ""),
            None
        );
        assert_eq!(
            judge(
                "<h1>Sourdough</h1>",
                Format::Html,
                Some("Sourdough"),
                None,
                ""
            ),
            Some(Shortfall::NoMainContent)
        );
    }

    #[test]
    fn evidence_of_a_page_built_by_scripts() {
        let bundle = r#"<script src="/static/js/main.3f2a.js"></script>"#;
        for yes in [
            format!(r#"<body><div id="root"></div>{bundle}</body>"#),
            format!("<body><div id=\"app\">\n  </div>{bundle}</body>"),
            r#"<body><app-root></app-root><script type="module" src="/m.js"></script></body>"#
                .to_owned(),
            r#"<body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{}</script></body>"#.to_owned(),
            "<body><div>Loading</div><NOSCRIPT>Please enable JavaScript to view this site.</NOSCRIPT></body>".to_owned(),
        ] {
            assert!(built_by_scripts(&yes), "{yes}");
        }
        for no in [
            // A root without a bundle, a root with text, a noscript
            // tracking pixel, nothing.
            r#"<body><div id="root"></div></body>"#.to_owned(),
            format!(r#"<body><div id="root"><p>Server-rendered text</p></div>{bundle}</body>"#),
            r#"<body><noscript><img src="/pixel.gif"></noscript><p>Hi</p></body>"#.to_owned(),
            String::new(),
        ] {
            assert!(!built_by_scripts(&no), "{no}");
        }
    }
}
