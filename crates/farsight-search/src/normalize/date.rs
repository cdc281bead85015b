//! Dates of search results: `farsight_extract::date` (the one date reader)
//! bound to the clock for ages such as "3 days ago", and the date some engines
//! write at the start of a snippet, shared by the adapters that meet it.

use std::time::SystemTime;

use farsight_extract::date::{leading_date, parse_date as read_date};

use super::text::is_invisible;

/// `raw` as `YYYY-MM-DD`, ages counted back from now; `None` when it is not a
/// date.
pub(crate) fn parse_date(raw: &str) -> Option<String> {
    read_date(raw, Some(SystemTime::now()))
}

/// The date a snippet begins with and the snippet without it
/// (`"Apr 17, 2024 — Rust 1.78 ships"` → `2024-04-17`, `"Rust 1.78 ships"`),
/// ages counted back from now. See [`split_date_prefix_at`].
pub(crate) fn split_date_prefix(snippet: &str) -> Option<(String, &str)> {
    split_date_prefix_at(snippet, SystemTime::now())
}

/// What engines put between a snippet's date and its text: Google `...`,
/// SearXNG's engines `·` and `—`, others a dash or a bar.
const SEPARATORS: [&str; 8] = ["...", "…", "·", "—", "–", "-", "|", "•"];

/// [`split_date_prefix`] at a given now. A date counts only when a whole run
/// of words at the start is one and a separator follows it: a sentence that
/// begins with a date ("3 April 2023 was the day...") keeps it.
pub(crate) fn split_date_prefix_at(snippet: &str, now: SystemTime) -> Option<(String, &str)> {
    let text = snippet.trim_start_matches(|c: char| c.is_whitespace() || is_invisible(c));
    let found = leading_date(text, Some(now))?;
    let after =
        text[found.range.end..].trim_start_matches(|c: char| c.is_whitespace() || is_invisible(c));
    let sep = SEPARATORS.iter().find(|s| after.starts_with(**s))?;
    Some((found.date, after[sep.len()..].trim_start()))
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;

    /// 2024-04-20T12:00:00Z
    fn now() -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(1_713_614_400)
    }

    #[test]
    fn engines_date_prefixes_are_split_off() {
        for (snippet, date, rest) in [
            (
                "3 days ago · Rust 1.78 ships.",
                "2024-04-17",
                "Rust 1.78 ships.",
            ),
            (
                "Apr 17, 2024 — Rust 1.78 ships.",
                "2024-04-17",
                "Rust 1.78 ships.",
            ),
            (
                "17 Apr 2024 ... Rust 1.78 ships.",
                "2024-04-17",
                "Rust 1.78 ships.",
            ),
            ("Aug 24, 2023 ... This book", "2023-08-24", "This book"),
            ("\u{200e}2 hours ago — x", "2024-04-20", "x"),
            ("2024-04-17 - x", "2024-04-17", "x"),
            ("Apr 17, 2024 —", "2024-04-17", ""),
        ] {
            assert_eq!(
                split_date_prefix_at(snippet, now()),
                Some((date.to_owned(), rest)),
                "{snippet}"
            );
        }
    }

    #[test]
    fn text_that_only_begins_with_a_date_keeps_it() {
        for snippet in [
            "3 April 2023 was the day the release shipped.",
            "Rust 1.78 shipped on Apr 17, 2024 — read more",
            "Summary of 3 April 2023 · notes",
            "31 Feb 2024 — not a day",
            "2024 — a year in review",
            "",
        ] {
            assert_eq!(split_date_prefix_at(snippet, now()), None, "{snippet}");
        }
    }
}
