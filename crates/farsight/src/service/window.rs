//! Cutting content into windows of `maxLength` characters, between blocks
//! where a block boundary is near, so that a model reading on from
//! `nextStartIndex` never gets half a paragraph or half a character.

/// One window of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Window<'a> {
    /// The text of the window.
    pub text: &'a str,
    /// Where the next window starts (characters), when more remains.
    pub next: Option<usize>,
    /// Characters in the whole text.
    pub total: usize,
}

/// The window of at most `max` characters starting at character `start`.
pub(crate) fn window(content: &str, start: usize, max: usize) -> Window<'_> {
    let total = content.chars().count();
    let max = max.max(1);
    let Some((start_b, _)) = content.char_indices().nth(start) else {
        return Window {
            text: "",
            next: None,
            total,
        };
    };
    let rest = &content[start_b..];
    let Some((end_b, _)) = rest.char_indices().nth(max) else {
        return Window {
            text: rest,
            next: None,
            total,
        };
    };
    let candidate = &rest[..end_b];
    // A boundary is "near" when cutting there keeps at least four fifths of
    // the window: a shorter window wastes the model's turn, a mid-paragraph
    // cut wastes its attention.
    let keep_at_least = candidate
        .char_indices()
        .nth(max - max / 5)
        .map_or(candidate.len(), |(b, _)| b);
    let tail = &candidate[keep_at_least..];
    let cut = ["\n\n", "\n", ". ", " "]
        .iter()
        .find_map(|sep| tail.rfind(sep).map(|p| (keep_at_least + p, sep.len())));
    let (mut text_end, mut resume) = match cut {
        Some((p, len)) => {
            // Resume after the separator and any further blank lines, so the
            // next window starts on the next block's first character.
            let mut resume = p + len;
            resume += rest[resume..].len() - rest[resume..].trim_start_matches('\n').len();
            let text_end = if candidate[p..].starts_with(". ") {
                p + 1
            } else {
                p
            };
            (text_end, resume)
        }
        None => (end_b, end_b),
    };
    if cut.is_some() {
        // A heading is about what follows it: a window that ends on one gives
        // the model a title with nothing under it. Such headings go to the
        // next window, unless the window would be left with nothing else.
        loop {
            let kept = rest[..text_end].trim_end();
            let line_start = kept.rfind('\n').map_or(0, |p| p + 1);
            if line_start == 0 || !is_heading(&kept[line_start..]) {
                break;
            }
            text_end = line_start;
            resume = line_start;
        }
    }
    let next = start + rest[..resume].chars().count();
    Window {
        text: rest[..text_end].trim_end(),
        next: (next < total).then_some(next),
        total,
    }
}

/// A Markdown ATX heading (`## Install`) or an HTML one (`<h2>Install</h2>`);
/// plain text has no marked headings.
fn is_heading(line: &str) -> bool {
    let line = line.trim_start();
    let hashes = line.len() - line.trim_start_matches('#').len();
    if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
        return true;
    }
    let lower = line.get(..3).map(str::to_ascii_lowercase);
    lower.is_some_and(|l| {
        l.starts_with("<h")
            && l.as_bytes()
                .get(2)
                .is_some_and(|d| (b'1'..=b'6').contains(d))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_one_window() {
        let w = window("hello", 0, 100);
        assert_eq!(
            w,
            Window {
                text: "hello",
                next: None,
                total: 5
            }
        );
    }

    #[test]
    fn cuts_between_paragraphs_when_one_is_near() {
        let text = format!("{}\n\n{}", "a".repeat(90), "b".repeat(50));
        let w = window(&text, 0, 100);
        assert_eq!(w.text, "a".repeat(90));
        assert_eq!(w.next, Some(92));
        let w2 = window(&text, 92, 100);
        assert_eq!(w2.text, "b".repeat(50));
        assert_eq!(w2.next, None);
    }

    #[test]
    fn a_far_boundary_is_not_used() {
        let text = format!("{}\n\n{}", "a".repeat(10), "b".repeat(200));
        let w = window(&text, 0, 100);
        assert_eq!(w.text.chars().count(), 100);
        assert_eq!(w.next, Some(100));
    }

    #[test]
    fn never_splits_a_character_and_counts_characters() {
        let text = "é".repeat(30) + &"日本".repeat(30);
        let mut start = 0;
        let mut rebuilt = String::new();
        loop {
            let w = window(&text, start, 7);
            assert!(w.text.chars().count() <= 7);
            rebuilt.push_str(w.text);
            match w.next {
                Some(n) => start = n,
                None => break,
            }
        }
        assert_eq!(rebuilt, text);
    }

    #[test]
    fn reading_on_covers_everything_but_separators() {
        let text = (0..200)
            .map(|i| format!("Paragraph {i} has some words in it."))
            .collect::<Vec<_>>()
            .join("\n\n");
        let mut start = 0;
        let mut parts = Vec::new();
        while let Some(n) = {
            let w = window(&text, start, 300);
            parts.push(w.text.to_owned());
            w.next
        } {
            assert!(n > start);
            start = n;
        }
        let squash = |s: &str| s.split_whitespace().collect::<String>();
        assert_eq!(squash(&parts.join(" ")), squash(&text));
        assert!(
            parts.iter().all(|p| p.starts_with("Paragraph")),
            "{parts:?}"
        );
    }

    #[test]
    fn a_window_never_ends_on_a_heading() {
        let text = format!(
            "{}\n\n## Installation\n\n### On Linux\n\n{}",
            "a".repeat(80),
            "b".repeat(200)
        );
        let w = window(&text, 0, 120);
        assert_eq!(w.text, "a".repeat(80));
        let next = w.next.unwrap();
        let w2 = window(&text, next, 120);
        assert!(
            w2.text
                .starts_with("## Installation\n\n### On Linux\n\nbbb"),
            "{w2:?}"
        );

        let html = format!(
            "<p>{}</p>\n<h2>Usage</h2>\n<p>{}</p>",
            "a".repeat(90),
            "b".repeat(200)
        );
        let w = window(&html, 0, 120);
        assert_eq!(w.text, format!("<p>{}</p>", "a".repeat(90)));

        // A window that is nothing but headings keeps them.
        let only = format!("# A\n\n## B\n\n{}", "c".repeat(300));
        let w = window(&only, 0, 12);
        assert!(!w.text.is_empty());
        assert!(w.next.is_some());
    }

    #[test]
    fn hashes_without_a_space_are_not_headings() {
        assert!(is_heading("## Install") && is_heading("<H3 id=x>Use</H3>"));
        assert!(!is_heading("#hashtag") && !is_heading("####### seven") && !is_heading("<hr>"));
    }

    #[test]
    fn past_the_end_is_empty() {
        let w = window("abc", 10, 5);
        assert_eq!(
            w,
            Window {
                text: "",
                next: None,
                total: 3
            }
        );
    }
}
