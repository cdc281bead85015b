//! Output bounded by the input (issue #11): no pattern of markup makes the
//! rendered answer more than a small multiple of the page's text. Before the
//! caps, 580,000 nested `<ul><li>x` gave 142 M characters, nested quotes
//! prefixed every line with `> ` once per level, and a row of 500,000 empty
//! cells wrote ` --- |` for each of them.

use farsight_extract::{ExtractOptions, Format, extract};

/// About 200 KB of markup per page: large enough that a multiplier shows,
/// small enough for a debug build.
const SIZE: usize = 200_000;

/// `unit` repeated to about [`SIZE`] bytes, between `head` and `tail`.
fn page(head: &str, unit: &str, tail: &str) -> String {
    let n = SIZE / unit.len().max(1);
    format!(
        "<html><body><article>{head}{}{tail}</article></body></html>",
        unit.repeat(n)
    )
}

/// The characters of the page's text nodes: what the output is measured
/// against.
fn text_len(html: &str) -> usize {
    let mut n = 0;
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => n += c.len_utf8(),
            _ => {}
        }
    }
    n
}

/// Asserts `output <= k * text + C` in Markdown and text, images and links
/// included, and that the output holds at least `min_x` of the page's `x`s
/// (so an empty answer cannot pass).
fn assert_bounded(name: &str, html: &str, k: usize, min_x: usize) {
    const C: usize = 4096;
    let text = text_len(html);
    for format in [Format::Markdown, Format::Text] {
        let opts = ExtractOptions::new(format)
            .base_url("https://example.com/page")
            .include_links(true)
            .include_images(true);
        let out = extract(html, &opts).content;
        let xs = out.matches('x').count();
        eprintln!(
            "{name} ({format:?}): {} bytes out, {text} bytes of text, {} bytes in",
            out.len(),
            html.len()
        );
        assert!(
            out.len() <= k * text + C,
            "{name} ({format:?}): {} bytes of output for {text} bytes of text ({:.1}x)",
            out.len(),
            out.len() as f64 / text.max(1) as f64
        );
        assert!(
            xs >= min_x,
            "{name} ({format:?}): only {xs} of the page's x kept: {:.300}",
            out
        );
    }
}

#[test]
fn nested_unclosed_list_items() {
    // Eight levels of `- `, then each deeper item a line of its own at the
    // deepest indentation (16 columns, then `x`): 18 bytes for each `x `,
    // 9x. Before the cap, 128 levels: about 130x.
    let html = page("", "<ul><li>x ", "");
    assert_bounded("<ul><li>x", &html, 12, 1000);
}

#[test]
fn nested_ordered_lists_with_huge_numbers() {
    // 11-column markers: one level of indentation fits under the cap.
    let html = page("", "<ol start=999999999><li value=999999999>x ", "");
    assert_bounded("<ol start><li value>x", &html, 10, 1000);
}

#[test]
fn flat_items_under_the_nesting_cap() {
    // The deepest indentation the cap allows, then many one-character items:
    // 13 bytes a line in Markdown (one level of 11-column markers fits), 18
    // in text (`- ` markers). Before the cap: about 140.
    let head = "<ol start=999999999><li>a ".repeat(12);
    let html = page(&head, "<li>x</li>", "");
    assert_bounded("capped list", &html, 20, 1000);
}

#[test]
fn nested_blockquotes() {
    let html = page(&"<blockquote>".repeat(10_000), "<p>x</p>", "");
    // `> ` eight times, then `x`: 18 bytes a line. Before the cap: about 240.
    assert_bounded("<blockquote> x 10k", &html, 20, 1000);
}

#[test]
fn a_wide_row_of_empty_cells() {
    let html = page(
        "<table><tr><td>x</td><td>y</td></tr><tr>",
        "<td></td>",
        "<td>x</td></tr></table>",
    );
    assert_bounded("<td></td> x many", &html, 16, 2);
}

#[test]
fn a_sparse_diagonal_table() {
    // Each row has one cell with text, in its own column.
    let n = 300;
    let mut rows = String::new();
    for i in 0..n {
        rows.push_str("<tr>");
        for j in 0..n {
            rows.push_str(if i == j { "<td>x</td>" } else { "<td></td>" });
        }
        rows.push_str("</tr>");
    }
    let html = format!("<html><body><article><table>{rows}</table></article></body></html>");
    assert_bounded("diagonal table", &html, 16, n);
}

#[test]
fn line_breaks() {
    let html = page("<p>x</p>", "<br>", "<p>x</p>");
    assert_bounded("<br> x many", &html, 4, 2);
}

#[test]
fn empty_links_with_long_urls() {
    let url = format!("https://example.com/{}", "a".repeat(2000));
    let html = page("<p>x</p>", &format!("<a href=\"{url}\"></a>"), "<p>x</p>");
    assert_bounded("<a href=LONG></a>", &html, 4, 2);
}

#[test]
fn pre_blocks_with_backtick_runs() {
    let html = page("", "<pre>x ``` ````</pre>", "");
    assert_bounded("<pre> with fences", &html, 8, 1000);
}

#[test]
fn images_with_long_urls_cost_no_more_than_their_markup() {
    // An image has no text: its output is measured against its markup.
    let url = format!("https://example.com/{}.png", "i".repeat(500));
    let html = page("<p>x</p>", &format!("<img src=\"{url}\" alt=\"x\">"), "");
    let opts = ExtractOptions::new(Format::Markdown)
        .base_url("https://example.com/page")
        .include_images(true);
    let out = extract(&html, &opts).content;
    assert!(
        out.len() <= html.len() + 4096,
        "{} for {}",
        out.len(),
        html.len()
    );
    assert!(out.matches("![x](").count() > 100, "{:.300}", out);
}
