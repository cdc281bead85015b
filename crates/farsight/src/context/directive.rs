//! The `→ search` directive: one line such as
//! `→ search "react native performance" depth:deep include:reactnative.dev,expo.dev max:3`
//! parsed into a [`SearchRequest`].

use std::fmt;

use farsight_search::{DateRange, SearchDepth, SearchRequest, Topic};

/// The syntax, shown with every parse error so the writer can fix the line.
pub const DIRECTIVE_SYNTAX: &str = "→ search \"query\" [depth:basic|deep] [topic:general|news] \
[max:N] [include:domain,domain] [exclude:domain,domain] [site:domain] [date:day|week|month|year]";

/// Why a directive line could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectiveError {
    message: String,
}

impl DirectiveError {
    fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// What is wrong, without the syntax reminder.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for DirectiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}. Syntax: {DIRECTIVE_SYNTAX}", self.message)
    }
}

impl std::error::Error for DirectiveError {}

/// Whether `line` is meant as a directive (starts with `→ search` or `-> search`),
/// so callers can tell a directive from an ordinary query that merely contains words.
pub fn looks_like_directive(line: &str) -> bool {
    strip_arrow(line.trim_start())
        .map(|rest| {
            rest.trim_start()
                .strip_prefix("search")
                .is_some_and(|r| r.is_empty() || r.starts_with(char::is_whitespace))
        })
        .unwrap_or(false)
}

fn strip_arrow(line: &str) -> Option<&str> {
    line.strip_prefix('→')
        .or_else(|| line.strip_prefix("->"))
        .or_else(|| line.strip_prefix("=>"))
}

/// Parses one directive line into a search request.
///
/// # Errors
///
/// A [`DirectiveError`] naming what is wrong (no arrow, no quoted query, an
/// unknown option, a bad value); its `Display` adds the syntax.
pub fn parse_directive(line: &str) -> Result<SearchRequest, DirectiveError> {
    let line = line.trim();
    let rest = strip_arrow(line).ok_or_else(|| {
        DirectiveError::new("a directive starts with `→ search` (or `-> search`)")
    })?;
    let rest = rest.trim_start();
    let rest = rest
        .strip_prefix("search")
        .filter(|r| r.is_empty() || r.starts_with(char::is_whitespace))
        .ok_or_else(|| DirectiveError::new("only the `search` directive is known"))?;
    let (query, options) = quoted_query(rest.trim_start())?;
    if query.trim().chars().count() < farsight_search::MIN_QUERY_CHARS {
        return Err(DirectiveError::new(format!(
            "the query must have at least {} characters",
            farsight_search::MIN_QUERY_CHARS
        )));
    }
    let mut request = SearchRequest::new(query.trim());
    for option in options.split_whitespace() {
        apply_option(&mut request, option)?;
    }
    Ok(request)
}

/// Splits `"query" rest` into the unescaped query and the rest. Straight and
/// typographic double quotes are accepted; `\"` and `\\` escape inside.
fn quoted_query(text: &str) -> Result<(String, &str), DirectiveError> {
    let mut chars = text.char_indices();
    let close = match chars.next() {
        Some((_, '"')) => '"',
        Some((_, '“')) => '”',
        Some((_, '\'')) => '\'',
        _ => {
            return Err(DirectiveError::new(
                "the query must follow `search` in double quotes",
            ));
        }
    };
    let mut query = String::new();
    let mut escaped = false;
    for (at, c) in chars {
        if escaped {
            query.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == close || (close == '”' && c == '"') {
            let rest = &text[at + c.len_utf8()..];
            if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
                return Err(DirectiveError::new(
                    "put a space between the quoted query and the options",
                ));
            }
            return Ok((query, rest));
        } else {
            query.push(c);
        }
    }
    Err(DirectiveError::new("the query's closing quote is missing"))
}

fn apply_option(request: &mut SearchRequest, option: &str) -> Result<(), DirectiveError> {
    let (key, value) = option.split_once(':').ok_or_else(|| {
        DirectiveError::new(format!("`{option}` is not an option of the form key:value"))
    })?;
    let bad = |expected: &str| {
        DirectiveError::new(format!("`{key}:{value}` is not valid; expected {expected}"))
    };
    match key.to_ascii_lowercase().as_str() {
        "depth" => {
            request.depth = match value.to_ascii_lowercase().as_str() {
                "basic" => SearchDepth::Basic,
                "deep" | "advanced" => SearchDepth::Deep,
                _ => return Err(bad("depth:basic or depth:deep")),
            }
        }
        "topic" => {
            request.topic = match value.to_ascii_lowercase().as_str() {
                "general" => Topic::General,
                "news" => Topic::News,
                _ => return Err(bad("topic:general or topic:news")),
            }
        }
        "max" => {
            let n: u32 = value
                .parse()
                .ok()
                .filter(|n| (1..=farsight_search::MAX_RESULTS).contains(n))
                .ok_or_else(|| bad(&format!("max:1 to max:{}", farsight_search::MAX_RESULTS)))?;
            request.max_results = Some(n);
        }
        "include" => request
            .include_domains
            .extend(domains(value).map_err(|_| bad("include:a.com,b.org"))?),
        "exclude" => request
            .exclude_domains
            .extend(domains(value).map_err(|_| bad("exclude:a.com,b.org"))?),
        "site" => {
            let mut list = domains(value).map_err(|_| bad("site:example.com"))?;
            if list.len() != 1 {
                return Err(bad("one domain, as in site:example.com"));
            }
            request.site = list.pop();
        }
        "date" | "range" | "daterange" => {
            request.date_range = Some(match value.to_ascii_lowercase().as_str() {
                "day" => DateRange::Day,
                "week" => DateRange::Week,
                "month" => DateRange::Month,
                "year" => DateRange::Year,
                _ => return Err(bad("date:day, week, month or year")),
            })
        }
        _ => {
            return Err(DirectiveError::new(format!(
                "unknown option `{key}`; known: depth, topic, max, include, exclude, site, date"
            )));
        }
    }
    Ok(())
}

/// A comma-separated list of domains; each must look like a host name.
fn domains(value: &str) -> Result<Vec<String>, ()> {
    let list: Vec<String> = value
        .split(',')
        .map(|d| d.trim().trim_end_matches('/').to_ascii_lowercase())
        .filter(|d| !d.is_empty())
        .collect();
    let valid = |d: &String| {
        d.contains('.')
            && d.chars()
                .all(|c| c.is_alphanumeric() || c == '.' || c == '-')
            && !d.starts_with('.')
            && !d.ends_with('.')
    };
    if list.is_empty() || !list.iter().all(valid) {
        return Err(());
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_specification_examples() {
        let r =
            parse_directive(r#"→ search "Marie character archetype literary analysis""#).unwrap();
        assert_eq!(r.query, "Marie character archetype literary analysis");
        assert_eq!(r.depth, SearchDepth::Basic);

        let r = parse_directive(r#"→ search "climate change latest research 2025" topic:news"#)
            .unwrap();
        assert_eq!(r.topic, Topic::News);

        let r = parse_directive(
            r#"→ search "react native performance" depth:deep include:reactnative.dev,expo.dev max:3 topic:news exclude:spam.com"#,
        )
        .unwrap();
        assert_eq!(r.query, "react native performance");
        assert_eq!(r.depth, SearchDepth::Deep);
        assert_eq!(r.include_domains, ["reactnative.dev", "expo.dev"]);
        assert_eq!(r.exclude_domains, ["spam.com"]);
        assert_eq!(r.max_results, Some(3));
        assert_eq!(r.topic, Topic::News);
    }

    #[test]
    fn accepts_ascii_arrow_typographic_quotes_and_escapes() {
        let r =
            parse_directive(r#"-> search "say \"hi\" now" site:example.com date:week"#).unwrap();
        assert_eq!(r.query, r#"say "hi" now"#);
        assert_eq!(r.site.as_deref(), Some("example.com"));
        assert_eq!(r.date_range, Some(DateRange::Week));
        let r = parse_directive("→ search “rust async”").unwrap();
        assert_eq!(r.query, "rust async");
    }

    #[test]
    fn rejects_malformed_lines_with_the_syntax() {
        for (line, needle) in [
            ("search \"x y\"", "starts with"),
            ("→ find \"x y\"", "only the `search`"),
            ("→ search rust async", "double quotes"),
            ("→ search \"rust async", "closing quote"),
            ("→ search \"a\"", "at least 2"),
            ("→ search \"rust\" depth:huge", "depth:basic"),
            ("→ search \"rust\" max:0", "max:1"),
            ("→ search \"rust\" max:abc", "max:1"),
            ("→ search \"rust\" include:", "include:"),
            ("→ search \"rust\" colour:blue", "unknown option"),
            ("→ search \"rust\" deep", "key:value"),
            ("→ search \"rust\"depth:deep", "space"),
        ] {
            let err = parse_directive(line).unwrap_err();
            assert!(err.message().contains(needle), "{line}: {err}");
            assert!(err.to_string().contains("Syntax: → search"), "{err}");
        }
    }

    #[test]
    fn tells_directives_from_queries() {
        assert!(looks_like_directive("→ search \"x\""));
        assert!(looks_like_directive("  -> search \"x\""));
        assert!(!looks_like_directive("search engines -> search ranking"));
        assert!(!looks_like_directive("→ searching"));
    }
}
