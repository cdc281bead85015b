//! A Markdown document returned as it is, without its raw HTML.
//!
//! Markdown may hold HTML, and a renderer shows it: a `<script>`, an
//! `<img onerror>`, an invisible `<div>` of instructions. pulldown-cmark
//! finds the HTML exactly as a CommonMark renderer would (not inside code
//! spans or fenced blocks, where `<` is text); each HTML block is replaced
//! by its content rendered as Markdown by the extractor (scripts, styles
//! and comments dropped), and each inline tag is removed, the text between
//! tags kept. A link or an image whose destination would run code
//! (`javascript:`, `data:`, `vbscript:`... anything but http, https,
//! mailto or a relative reference) is replaced by its text. Everything else
//! is the author's Markdown, byte for byte.

use std::ops::Range;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use crate::escape;
use crate::fragment;

/// `markdown` without raw HTML; links in HTML blocks are made absolute
/// against `base_url`.
pub(crate) fn sanitize(markdown: &str, base_url: Option<&str>) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS;
    // (range in the source, what replaces it)
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    // The lines of the HTML block being read, with their ranges.
    let mut block: Option<Vec<Range<usize>>> = None;
    // A link or image with an unsafe destination: its range, its text so
    // far, and how many links or images are open inside it.
    let mut unsafe_link: Option<(Range<usize>, String, usize)> = None;
    for (event, range) in Parser::new_ext(markdown, options).into_offset_iter() {
        if let Some((_, text, open)) = unsafe_link.as_mut() {
            match &event {
                Event::Text(t) | Event::Code(t) => text.push_str(t),
                Event::Start(Tag::Link { .. } | Tag::Image { .. }) => *open += 1,
                Event::End(TagEnd::Link | TagEnd::Image) if *open > 0 => *open -= 1,
                Event::End(TagEnd::Link | TagEnd::Image) => {
                    if let Some((range, text, _)) = unsafe_link.take() {
                        edits.push((range, escape::escape_inline(text.trim())));
                    }
                }
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. })
                if !is_safe_destination(&dest_url) =>
            {
                unsafe_link = Some((range, String::new(), 0));
            }
            Event::Start(Tag::HtmlBlock) => block = Some(Vec::new()),
            Event::Html(_) => match block.as_mut() {
                Some(lines) => lines.push(range),
                None => edits.push((range, String::new())),
            },
            Event::End(TagEnd::HtmlBlock) => {
                if let Some(lines) = block.take() {
                    replace_block(markdown, &lines, base_url, &mut edits);
                }
            }
            Event::InlineHtml(_) => edits.push((range, String::new())),
            _ => {}
        }
    }
    if edits.is_empty() {
        return markdown.to_owned();
    }
    edits.sort_by_key(|(r, _)| r.start);
    let mut out = String::with_capacity(markdown.len());
    let mut at = 0;
    for (range, with) in edits {
        // Ranges never overlap; a defensive check keeps slicing in bounds.
        if range.start < at || range.end > markdown.len() {
            continue;
        }
        out.push_str(&markdown[at..range.start]);
        out.push_str(&with);
        at = range.end;
    }
    out.push_str(&markdown[at..]);
    out
}

/// http(s), mailto, or a reference without a scheme (relative, a
/// fragment). Browsers ignore ASCII white space and control characters
/// inside a scheme (`java\tscript:`), so they are ignored here too.
fn is_safe_destination(dest: &str) -> bool {
    let squeezed: String = dest
        .chars()
        .filter(|c| !c.is_ascii_whitespace() && !c.is_ascii_control())
        .take(64)
        .collect::<String>()
        .to_ascii_lowercase();
    let scheme_end = squeezed.find([':', '/', '?', '#']);
    match scheme_end {
        Some(i) if squeezed[i..].starts_with(':') => {
            matches!(&squeezed[..i], "http" | "https" | "mailto")
        }
        _ => true,
    }
}

/// The edits that turn one HTML block (its lines' ranges) into Markdown.
fn replace_block(
    markdown: &str,
    lines: &[Range<usize>],
    base_url: Option<&str>,
    edits: &mut Vec<(Range<usize>, String)>,
) {
    let (Some(first), Some(last)) = (lines.first(), lines.last()) else {
        return;
    };
    let html: String = lines.iter().map(|r| &markdown[r.clone()]).collect();
    let mut text = fragment::rendered(&html, true, true, base_url);
    let contiguous = lines.windows(2).all(|w| w[0].end == w[1].start);
    if contiguous {
        let mut end = last.end;
        if text.is_empty() {
            // A block that leaves nothing (a script, a comment) takes the
            // blank line after it along, or blank lines would pile up.
            if markdown[end..].starts_with('\n') {
                end += 1;
            }
        } else {
            text.push('\n');
        }
        edits.push((first.start..end, text));
    } else {
        // Inside a list item or a quote, the lines' prefixes sit between
        // the ranges: the content goes on the first line, the others empty.
        edits.push((first.clone(), text.replace('\n', " ") + "\n"));
        for r in &lines[1..] {
            edits.push((r.clone(), String::new()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_blocks_become_markdown_and_inline_tags_go() {
        let md = "# Title\n\nPress <kbd>Ctrl</kbd>+<kbd>C</kbd> <img src=x onerror=alert(1)>.\n\n\
                  <div align=\"center\">\n<p>Centred <a href=\"/docs\">docs</a></p>\n</div>\n\n\
                  <script>steal()</script>\n\n<!-- hidden instructions -->\n\nEnd.\n";
        let out = sanitize(md, Some("https://e.x/readme.md"));
        assert_eq!(
            out,
            "# Title\n\nPress Ctrl+C .\n\nCentred [docs](https://e.x/docs)\n\nEnd.\n"
        );
    }

    #[test]
    fn links_that_would_run_code_become_their_text() {
        let md = "[ok](https://e.x/a) [rel](../b#c) [mail](mailto:a@e.x)\n\
                  [click *me*](javascript:alert(1)) ![pic](data:image/svg+xml,x) \
                  [tab](java\tscript:x) <vbscript:msgbox> [ref][r]\n\n[r]: JavaScript:evil()\n";
        assert_eq!(
            sanitize(md, None),
            "[ok](https://e.x/a) [rel](../b#c) [mail](mailto:a@e.x)\n\
             click me pic [tab](java\tscript:x) vbscript:msgbox ref\n\n[r]: JavaScript:evil()\n"
        );
        // (A destination with a tab is no link at all; a reference
        // definition renders as nothing.)
    }

    #[test]
    fn code_keeps_its_angle_brackets() {
        let md =
            "Use `<div>` here.\n\n```html\n<script>ok()</script>\n```\n\n    <b>indented</b>\n";
        assert_eq!(sanitize(md, None), md);
    }

    #[test]
    fn html_inside_a_quote_stays_in_the_quote() {
        let out = sanitize("> <div>\n> <b>Note</b>\n> </div>\n", None);
        assert!(!out.contains('<'), "{out}");
        assert!(out.contains("Note"), "{out}");
    }
}
