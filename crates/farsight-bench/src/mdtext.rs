//! Markdown to plain text for scoring: link and image targets, fence
//! languages, list numbers and markup go; the words stay.

/// Strips Markdown syntax that would count as words.
pub fn to_text(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    for line in md.lines() {
        let l = line.trim_start();
        if l.starts_with("```") || l.starts_with("~~~") {
            out.push('\n');
            continue;
        }
        let l = l.trim_start_matches(['>', ' ']);
        let l = strip_list_number(l);
        out.push_str(&strip_targets(l));
        out.push('\n');
    }
    out
}

fn strip_list_number(l: &str) -> &str {
    let digits = l.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && l[digits..].starts_with(". ") {
        &l[digits + 2..]
    } else {
        l
    }
}

/// `[text](url)` → `text`, `![alt](url)` → `alt`; markup characters become
/// spaces, and backslash escapes give back the character they escape (the
/// renderer escapes page text, which the ground truth holds as it is).
fn strip_targets(l: &str) -> String {
    let mut out = String::with_capacity(l.len());
    let mut rest = l;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '\\' if rest.starts_with(|n: char| n.is_ascii_punctuation()) => {
                let escaped = rest.chars().next().unwrap_or(' ');
                rest = &rest[escaped.len_utf8()..];
                // `\|` in a table cell stands among the cell separators,
                // which become spaces too.
                out.push(if escaped == '|' { ' ' } else { escaped });
            }
            ']' if rest.starts_with('(') => {
                out.push(' ');
                if let Some(close) = rest.find(')') {
                    rest = &rest[close + 1..];
                }
            }
            '*' | '`' | '#' | '|' | '[' | ']' | '!' | '\\' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}
