//! Titles and snippets as plain text: no tags, no entities, no invisible
//! marks, one line, and snippets cut at a word.

use std::sync::LazyLock;

use regex::Regex;

/// Snippets longer than this many characters (ellipsis included) are cut: about
/// two sentences, which keeps five results near 50-100 tokens each.
pub(crate) const SNIPPET_MAX_CHARS: usize = 200;

// Only real HTML tag names are removed, so that text like `Vec<T>` or
// `a <b> c` written as prose in a plain-text snippet survives. Script and style
// elements lose their content too.
static SCRIPT_STYLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?is)<(script|style)\b[^>]*>.*?</(script|style)\s*>").expect("static regex")
});
static TAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)<!--.*?-->|</?(a|abbr|b|big|blockquote|br|cite|code|del|div|em|font|h[1-6]|hr|i|img|ins|kbd|li|mark|ol|p|pre|q|s|samp|small|span|strike|strong|sub|sup|time|tt|u|ul|var|wbr)\b[^<>]*/?>",
    )
    .expect("static regex")
});

/// `html` as plain text: tags removed, entities decoded, invisible marks
/// removed, whitespace collapsed.
pub(crate) fn clean_text(html: &str) -> String {
    let without_scripts = SCRIPT_STYLE.replace_all(html, " ");
    let without_tags = TAG.replace_all(&without_scripts, "");
    let decoded = decode_entities(&without_tags);
    let visible: String = decoded.chars().filter(|c| !is_invisible(*c)).collect();
    collapse_whitespace(&visible)
}

/// Characters that show nothing and only steer layout: direction marks,
/// embeddings, overrides and isolates (U+200E, U+200F, U+202A-U+202E,
/// U+2066-U+2069), zero-width space and joiners (U+200B-U+200D) and the byte
/// order mark (U+FEFF). Engines leave them around dates and right-to-left
/// names; in an agent's text they only cost tokens and break matching.
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}'
    )
}

/// `text` cut to at most [`SNIPPET_MAX_CHARS`] characters at a word boundary,
/// with an ellipsis when something was cut.
pub(crate) fn cut_snippet(text: &str) -> String {
    cut_at_word(text, SNIPPET_MAX_CHARS)
}

pub(crate) fn cut_at_word(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_owned();
    }
    // Room for the ellipsis.
    let limit = max_chars.saturating_sub(1);
    let byte_end = text
        .char_indices()
        .nth(limit)
        .map_or(text.len(), |(i, _)| i);
    let head = &text[..byte_end];
    // Cut at the last space unless that would throw away more than a third.
    let cut = match head.rfind(char::is_whitespace) {
        Some(i) if head[..i].chars().count() >= limit * 2 / 3 => &head[..i],
        _ => head,
    };
    let cut = cut.trim_end_matches(|c: char| c.is_whitespace() || ",;:-–—(".contains(c));
    let cut = cut.trim_end_matches(['.', '…']);
    format!("{cut}…")
}

fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Decodes numeric references and the named entities search snippets use.
/// Unknown names are left as they are.
pub(crate) fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        // An entity name is short; look for its `;` nearby only.
        let end = after
            .char_indices()
            .take(12)
            .find(|&(_, c)| c == ';')
            .map(|(i, _)| i);
        let decoded = end.and_then(|end| decode_one(&after[..end]).map(|c| (c, end)));
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &after[end + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn decode_one(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse::<u32>().ok()?,
        };
        // A NUL or control character is never wanted in a snippet.
        return char::from_u32(code).map(|c| if c.is_control() { ' ' } else { c });
    }
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        "hellip" => '…',
        "mdash" => '—',
        "ndash" => '–',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "laquo" => '«',
        "raquo" => '»',
        "middot" => '·',
        "bull" => '•',
        "copy" => '©',
        "reg" => '®',
        "trade" => '™',
        "deg" => '°',
        "times" => '×',
        "euro" => '€',
        "pound" => '£',
        "eacute" => 'é',
        "egrave" => 'è',
        "agrave" => 'à',
        "ccedil" => 'ç',
        "uuml" => 'ü',
        "ouml" => 'ö',
        "auml" => 'ä',
        "szlig" => 'ß',
        // Invisible marks, removed after decoding like their literal forms.
        "lrm" => '\u{200E}',
        "rlm" => '\u{200F}',
        "ZeroWidthSpace" => '\u{200B}',
        "zwnj" => '\u{200C}',
        "zwj" => '\u{200D}',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_entities_are_removed() {
        assert_eq!(
            clean_text("<strong>Rust</strong> &amp; <em>async</em>&#39;s&nbsp;future &#x2014; ok"),
            "Rust & async's future — ok"
        );
        assert_eq!(clean_text("Vec<T> and a < b"), "Vec<T> and a < b");
        assert_eq!(clean_text("x<script>alert(1)</script>y"), "x y");
        assert_eq!(clean_text("AT&T &unknown; &"), "AT&T &unknown; &");
        assert_eq!(clean_text("line\n  break\t<br/>here"), "line break here");
    }

    // Issue 10: direction marks and zero-width characters reached snippets.
    #[test]
    fn invisible_marks_are_removed() {
        assert_eq!(
            clean_text("\u{200E}3 days ago\u{200F} \u{202B}שלום\u{202C} \u{2067}x\u{2069}"),
            "3 days ago שלום x"
        );
        assert_eq!(
            clean_text("\u{FEFF}zero\u{200B}width\u{200C}join\u{200D}ed"),
            "zerowidthjoined"
        );
        assert_eq!(clean_text("a&lrm; b&rlm;&zwj;"), "a b");
        for c in ['\u{200D}', '\u{202A}', '\u{2066}', '\u{FEFF}'] {
            assert!(is_invisible(c), "{c:?}");
        }
        for c in ['\u{2010}', '\u{2028}', '\u{2070}', ' ', 'a'] {
            assert!(!is_invisible(c), "{c:?}");
        }
    }

    #[test]
    fn snippets_are_cut_at_a_word() {
        let short = "A short snippet.";
        assert_eq!(cut_snippet(short), short);
        let long = "word ".repeat(60);
        let cut = cut_snippet(long.trim());
        assert!(cut.chars().count() <= SNIPPET_MAX_CHARS, "{}", cut.len());
        assert!(cut.ends_with("word…"), "{cut}");
        let one_word = "x".repeat(300);
        assert_eq!(cut_snippet(&one_word).chars().count(), SNIPPET_MAX_CHARS);
        let multibyte = "é".repeat(300);
        assert!(cut_snippet(&multibyte).ends_with('…'));
    }
}
