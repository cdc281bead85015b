//! JSON pretty-printed for reading.
//!
//! Why not `serde_json::to_string_pretty` of a `Value`: without serde_json's
//! `preserve_order` and `arbitrary_precision` features (which would change
//! every other use in the workspace) a `Value` sorts object keys and rounds
//! numbers beyond 64 bits, and the answer must say what the server said.
//! serde_json only checks that the text is JSON (without building it);
//! this file re-indents the text itself, token by token, in its order.

/// Indentation stops growing past this many levels: deeper levels are
/// written at this indent, so a deeply nested document cannot multiply its
/// size by its depth.
const MAX_INDENT_LEVELS: usize = 16;
/// The pretty text may be this many times the original (and at least
/// [`MIN_OUTPUT_CAP`]); a document of many tiny values that would grow past
/// it is returned as it came instead.
const GROWTH_CAP: usize = 6;
const MIN_OUTPUT_CAP: usize = 64 * 1024;

/// `body` re-indented with two spaces, or `None` when it is not JSON (the
/// caller returns it as it is) or would grow past the cap. serde_json's
/// own nesting limit (128) bounds the check.
pub(crate) fn pretty(body: &str) -> Option<String> {
    let body = body.trim_start_matches('\u{feff}');
    serde_json::from_str::<serde::de::IgnoredAny>(body).ok()?;
    let cap = body.len().saturating_mul(GROWTH_CAP).max(MIN_OUTPUT_CAP);
    let mut out = String::with_capacity(body.len() + body.len() / 2);
    let mut depth = 0usize;
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push('"');
                let mut escaped = false;
                for s in chars.by_ref() {
                    out.push(s);
                    if escaped {
                        escaped = false;
                    } else if s == '\\' {
                        escaped = true;
                    } else if s == '"' {
                        break;
                    }
                }
            }
            '{' | '[' => {
                out.push(c);
                skip_ws(&mut chars);
                // An empty object or array stays on its line.
                if matches!(chars.peek(), Some('}' | ']')) {
                    out.extend(chars.next());
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(',');
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c if c.is_ascii_whitespace() => {}
            c => out.push(c),
        }
        if out.len() > cap {
            return None;
        }
    }
    Some(out)
}

fn skip_ws(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while chars.next_if(|c| c.is_ascii_whitespace()).is_some() {}
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth.min(MAX_INDENT_LEVELS) {
        out.push_str("  ");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_numbers_and_strings() {
        let body = r#"{"z":1,"a":[12345678901234567890123,1.50,{}],"s":"a,b:{\"c\"}\\","e":[ ]}"#;
        assert_eq!(
            pretty(body).unwrap(),
            "{\n  \"z\": 1,\n  \"a\": [\n    12345678901234567890123,\n    1.50,\n    {}\n  ],\n  \
             \"s\": \"a,b:{\\\"c\\\"}\\\\\",\n  \"e\": []\n}"
        );
        assert_eq!(pretty(" 42 ").as_deref(), Some("42"));
    }

    #[test]
    fn invalid_json_is_left_to_the_caller() {
        assert_eq!(pretty("{\"a\": 1,}"), None);
        assert_eq!(
            pretty("{\"a\":1}\n{\"a\":2}"),
            None,
            "NDJSON is not one document"
        );
        assert_eq!(pretty("<html>"), None);
    }

    #[test]
    fn hostile_nesting_and_growth_are_bounded() {
        // Deeper than serde_json's limit: not re-indented, no stack overflow.
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(pretty(&deep), None);
        // Within the limit: the indent stops growing.
        let nested = format!("{}1{}", "[".repeat(100), "]".repeat(100));
        let p = pretty(&nested).unwrap();
        let widest = p.lines().map(str::len).max().unwrap();
        assert_eq!(widest, 2 * MAX_INDENT_LEVELS + 1, "{p}");
        // Many tiny values at the deepest indent would grow past the cap.
        let inner = vec!["1"; 200_000].join(",");
        let wide = format!("{}{inner}{}", "[".repeat(40), "]".repeat(40));
        assert_eq!(pretty(&wide), None);
    }
}
