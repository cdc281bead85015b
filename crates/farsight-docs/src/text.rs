//! Plain-text tidying shared by the readers: page markers, paragraphs
//! re-flowed from the lines a PDF lays out, hyphenation at line ends joined,
//! and the output bound.

/// The line before page (or slide) `n`: an HTML comment, invisible when the
/// Markdown is rendered, on its own line so a reading window can cut there.
pub(crate) fn page_marker(n: usize) -> String {
    format!("<!-- page {n} -->\n\n")
}

/// Re-flows the lines of one page of Markdown: lines of one paragraph are
/// joined with a space, a word hyphenated at a line end is joined again
/// ("exam-" + "ple" = "example"), and blank lines stay paragraph breaks.
/// Lines that are Markdown blocks of their own (headings, list items, table
/// rows, block quotes, fences and what they hold) are kept as they are.
pub(crate) fn reflow(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    let mut paragraph = String::new();
    let mut in_fence = false;
    for raw in page.lines() {
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            flush(&mut paragraph, &mut out);
            in_fence = !in_fence;
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if in_fence {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if trimmed.is_empty() {
            flush(&mut paragraph, &mut out);
            continue;
        }
        if is_block_line(trimmed) {
            flush(&mut paragraph, &mut out);
            out.push_str(trimmed);
            out.push_str(if trimmed.starts_with('|') {
                "\n"
            } else {
                "\n\n"
            });
            continue;
        }
        join_line(&mut paragraph, trimmed);
    }
    flush(&mut paragraph, &mut out);
    out
}

/// Appends `line` to `paragraph`: directly when the paragraph ends in a
/// hyphen that breaks a word ("infor-" before "mation"), else after a space.
fn join_line(paragraph: &mut String, line: &str) {
    if paragraph.is_empty() {
        paragraph.push_str(line);
        return;
    }
    if ends_with_broken_word(paragraph) && line.chars().next().is_some_and(char::is_lowercase) {
        paragraph.pop();
        paragraph.push_str(line);
        return;
    }
    paragraph.push(' ');
    paragraph.push_str(line);
}

/// A hyphen (or soft hyphen) right after a letter at the very end: a word
/// cut by the layout. "well-" before "known" loses its hyphen too, the price
/// of joining the far more common cut words; a dash after a space is kept.
fn ends_with_broken_word(s: &str) -> bool {
    let mut rev = s.chars().rev();
    matches!(rev.next(), Some('-' | '\u{00AD}' | '\u{2010}'))
        && rev.next().is_some_and(char::is_alphabetic)
}

fn is_block_line(line: &str) -> bool {
    line.starts_with('#')
        || line.starts_with('|')
        || line.starts_with('>')
        || line.starts_with("<!--")
        || line.starts_with("- ")
        || line.starts_with("* ")
        || line.starts_with("+ ")
        || line.starts_with("• ")
        || is_numbered_item(line)
}

fn is_numbered_item(line: &str) -> bool {
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    (1..=3).contains(&digits) && line[digits..].starts_with(". ")
}

fn flush(paragraph: &mut String, out: &mut String) {
    if paragraph.is_empty() {
        return;
    }
    out.push_str(paragraph);
    out.push_str("\n\n");
    paragraph.clear();
}

/// Trailing spaces removed and runs of blank lines made one.
pub(crate) fn tidy_markdown(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let mut blank = 0;
    for line in md.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blank += 1;
            if blank > 1 || out.is_empty() {
                continue;
            }
        } else {
            blank = 0;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// `s` cut to at most `max` characters, and whether it was cut.
pub(crate) fn truncate_chars(mut s: String, max: usize) -> (String, bool) {
    match s.char_indices().nth(max) {
        Some((at, _)) => {
            s.truncate(at);
            (s, true)
        }
        None => (s, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_a_paragraph_are_joined_and_hyphens_mended() {
        let page = "The quick brown fox jumps over the\nlazy dog, an exam-\nple of a pan-\ngram.\n\nA second para-\n   graph.\n";
        assert_eq!(
            reflow(page),
            "The quick brown fox jumps over the lazy dog, an example of a pangram.\n\n\
             A second paragraph.\n\n"
        );
    }

    #[test]
    fn dashes_capitals_and_blocks_are_kept() {
        let page = "# Title\nIntro text -\nThen more.\nCERN-\nLHC results\n- item one\n- item two\n| a | b |\n|---|---|\n| 1 | 2 |\n1. first\n";
        let out = reflow(page);
        assert!(out.starts_with("# Title\n\n"), "{out}");
        assert!(out.contains("Intro text - Then more."), "{out}");
        assert!(out.contains("CERN- LHC results"), "{out}");
        assert!(out.contains("- item one\n\n- item two"), "{out}");
        assert!(out.contains("| a | b |\n|---|---|\n| 1 | 2 |\n"), "{out}");
        assert!(out.contains("1. first"), "{out}");
    }

    #[test]
    fn tidy_and_truncate() {
        assert_eq!(tidy_markdown("\n\na  \n\n\n\nb\n"), "a\n\nb\n");
        assert_eq!(truncate_chars("héllo".into(), 2), ("hé".into(), true));
        assert_eq!(truncate_chars("hé".into(), 2), ("hé".into(), false));
        assert_eq!(page_marker(3), "<!-- page 3 -->\n\n");
    }
}
