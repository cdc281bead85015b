//! Calendar dates, read from the ways pages and search providers write them,
//! as `YYYY-MM-DD`. The one reader of dates in farsight: page metadata here,
//! and search results' dates and snippet date prefixes in `farsight-search`.
//!
//! Read forms:
//! - ISO 8601 and RFC 3339: `2023-08-24`, `2023-08-24T10:00:00.000Z`,
//!   `2023-08-24 23:10:00 +02:00`, `2023/8/24`, `2023.08.24`, `20230824`.
//!   The date is the one written, not converted to UTC: a page dated
//!   `23:10+02:00` on the 24th was published on the 24th where it was written.
//! - RFC 2822 and its HTTP relative: `Thu, 24 Aug 2023 10:00:00 GMT`.
//! - Words: `3 April 2023`, `April 3, 2023`, `Apr 17, 2024`, `24th Aug 2023`,
//!   `Sept. 4, 2023`, with an optional weekday before and time and zone after.
//! - Ages, only when a "now" is given: `3 days ago`, `5h ago`, `a month ago`,
//!   `yesterday`, `today`, `just now`.
//!
//! A day that the month does not have (`31 February`, `29 Feb 2023`) is not a
//! date. In running text ([`find_date`], [`leading_date`]) a date is a whole
//! run of whitespace-separated words, so the `mar` inside "Summary" or the
//! digits inside a word are never read as part of one.
//!
//! The calendar itself (month lengths, leap years, counting back months and
//! days) is `chrono`'s: farsight already builds it for the MCP SDK.

use std::ops::Range;
use std::sync::LazyLock;
use std::time::SystemTime;

use chrono::{DateTime, Datelike, Months, NaiveDate, SecondsFormat, SubsecRound, TimeDelta, Utc};
use regex::Regex;

/// Years outside this range are taken for other numbers, not publication dates.
const YEARS: std::ops::RangeInclusive<i32> = 1000..=2999;

/// The longest date in words: `Thursday, 24th August 2023 10:00:00 +0000`
/// is seven words.
const MAX_RUN: usize = 7;

/// A date longer than this is not one date.
const MAX_CHARS: usize = 80;

/// Running text is searched for a date within its first this many words: the
/// callers look in short texts (a `<time>` element, a snippet's start).
const MAX_WORDS: usize = 64;

/// `raw` as `YYYY-MM-DD` when the whole of it (surrounding spaces aside) is a
/// date in one of the forms above, or `None`. Ages like "3 days ago" are read
/// only when `now` is given, counted back from it in UTC.
#[must_use]
pub fn parse_date(raw: &str, now: Option<SystemTime>) -> Option<String> {
    read(raw, now).map(format_date)
}

/// A date found in running text: the date and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateMatch {
    /// `YYYY-MM-DD`.
    pub date: String,
    /// The byte range of the words that wrote it.
    pub range: Range<usize>,
}

/// The first date written in `text` as a whole run of words, the longest run
/// when several start at the same word ("Summary of 3 April 2023" →
/// `2023-04-03`). Brackets, quotes and commas around the run are not part of it.
#[must_use]
pub fn find_date(text: &str, now: Option<SystemTime>) -> Option<DateMatch> {
    let words = words(text);
    (0..words.len()).find_map(|start| run_at(text, &words, start, now))
}

/// The date `text` begins with (spaces aside), as a whole run of words:
/// "Apr 17, 2024 — Rust 1.78 ships" → `2024-04-17`, range `0..12`.
#[must_use]
pub fn leading_date(text: &str, now: Option<SystemTime>) -> Option<DateMatch> {
    run_at(text, &words(text), 0, now).filter(|m| text[..m.range.start].trim().is_empty())
}

/// `time` to the second as an RFC 3339 UTC timestamp written with
/// milliseconds (`2024-03-01T12:00:00.000Z`), the form date filters of search
/// APIs take.
#[must_use]
pub fn format_timestamp(time: SystemTime) -> String {
    DateTime::<Utc>::from(time)
        .trunc_subsecs(0)
        .to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn format_date(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

/// The byte ranges of `text`'s first words, without the punctuation that
/// wraps a date in prose.
fn words(text: &str) -> Vec<Range<usize>> {
    const WRAP: &[char] = &['(', ')', '[', ']', '"', '\'', '“', '”', '‘', '’', ',', ';'];
    let mut out = Vec::new();
    let mut rest = text;
    let mut offset = 0;
    while out.len() < MAX_WORDS {
        let Some(start) = rest.find(|c: char| !c.is_whitespace()) else {
            break;
        };
        let len = rest[start..]
            .find(char::is_whitespace)
            .unwrap_or(rest.len() - start);
        let word = &rest[start..start + len];
        let inner = word.trim_start_matches(WRAP);
        let lead = word.len() - inner.len();
        let inner = inner.trim_end_matches(WRAP);
        if !inner.is_empty() {
            let s = offset + start + lead;
            out.push(s..s + inner.len());
        }
        offset += start + len;
        rest = &rest[start + len..];
    }
    out
}

/// The longest run of words from `words[start]` that is a date.
fn run_at(
    text: &str,
    words: &[Range<usize>],
    start: usize,
    now: Option<SystemTime>,
) -> Option<DateMatch> {
    let first = words.get(start)?;
    let last = (start + MAX_RUN).min(words.len());
    (start..last).rev().find_map(|end| {
        let range = first.start..words[end].end;
        read(&text[range.clone()], now).map(|d| DateMatch {
            date: format_date(d),
            range,
        })
    })
}

fn read(raw: &str, now: Option<SystemTime>) -> Option<NaiveDate> {
    let s = raw.trim();
    if s.is_empty() || s.len() > MAX_CHARS {
        return None;
    }
    let date = numeric(s)
        .or_else(|| in_words(s))
        .or_else(|| now.and_then(|now| age(s, DateTime::<Utc>::from(now))))?;
    YEARS.contains(&date.year()).then_some(date)
}

// A time of day after an ISO date: `T10:00`, ` 10:00:00.123`, with a zone.
static ISO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^
        (\d{4})([-/.])(\d{1,2})[-/.](\d{1,2})
        (?:[T\x20]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?
           \x20?(?:Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?)?
        $",
    )
    .expect("static regex")
});

/// ISO 8601 forms, and RFC 3339 (one of them).
fn numeric(s: &str) -> Option<NaiveDate> {
    if s.len() == 8 && s.bytes().all(|b| b.is_ascii_digit()) {
        // The basic format, 20230824.
        return ymd(&s[0..4], &s[4..6], &s[6..8]);
    }
    let caps = ISO.captures(s)?;
    // One separator throughout: 2023-08/24 is not a date.
    let sep = &caps[2];
    let rest = &s[caps.get(3)?.end()..];
    if !rest.starts_with(sep) {
        return None;
    }
    ymd(&caps[1], &caps[3], &caps[4])
}

fn ymd(y: &str, m: &str, d: &str) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(y.parse().ok()?, m.parse().ok()?, d.parse().ok()?)
}

/// What one word of a date in words is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Word {
    Weekday,
    Month(u32),
    Day(u32),
    Year(i32),
    Time,
    Zone,
}

/// `[weekday] day month year [time [zone]]`,
/// `[weekday] month day year [time [zone]]` or `year month day [time [zone]]`
/// (PubMed's `citation_publication_date`, `2023 Jan 7`).
fn in_words(s: &str) -> Option<NaiveDate> {
    let words: Vec<Word> = s
        .split_whitespace()
        .map(|w| word(w.trim_end_matches([',', '.'])))
        .collect::<Option<_>>()?;
    let mut w = words.as_slice();
    if let [Word::Weekday, rest @ ..] = w {
        w = rest;
    }
    let (date, tail) = match w {
        [Word::Day(d), Word::Month(m), Word::Year(y), tail @ ..]
        | [Word::Month(m), Word::Day(d), Word::Year(y), tail @ ..]
        | [Word::Year(y), Word::Month(m), Word::Day(d), tail @ ..] => ((*y, *m, *d), tail),
        _ => return None,
    };
    if !matches!(tail, [] | [Word::Time] | [Word::Time, Word::Zone]) {
        return None;
    }
    NaiveDate::from_ymd_opt(date.0, date.1, date.2)
}

// `10:00`, `10:00:00`, `10:00pm`.
static TIME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\d{1,2}:\d{2}(?::\d{2})?(?:am|pm)?$").expect("static regex")
});
// `GMT`, `UTC`, `EST`, `+0000`, `-05:00`, `am`/`pm` written apart.
static ZONE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:[A-Z]{1,4}|[+-]\d{2}:?\d{2}|(?i:am|pm))$").expect("static regex")
});

fn word(w: &str) -> Option<Word> {
    let lower = w.to_ascii_lowercase();
    if let Some(m) = month(&lower) {
        return Some(Word::Month(m));
    }
    if is_weekday(&lower) {
        return Some(Word::Weekday);
    }
    let digits = lower.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &lower[digits.len()..];
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return match (digits.len(), suffix) {
            (4, "") => digits.parse().ok().map(Word::Year),
            (1 | 2, "" | "st" | "nd" | "rd" | "th") => digits.parse().ok().map(Word::Day),
            _ => None,
        };
    }
    if TIME.is_match(w) {
        return Some(Word::Time);
    }
    ZONE.is_match(w).then_some(Word::Zone)
}

fn month(word: &str) -> Option<u32> {
    const NAMES: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let word = if word == "sept" { "sep" } else { word };
    NAMES
        .iter()
        .position(|name| word == *name || (word.len() == 3 && name.starts_with(word)))
        .map(|i| i as u32 + 1)
}

/// A day or month name or its abbreviation, in English and lower case
/// ("sat", "sept", "august"): a byline's date words are not a name.
pub(crate) fn is_calendar_word(word: &str) -> bool {
    month(word).is_some() || is_weekday(word)
}

fn is_weekday(word: &str) -> bool {
    const NAMES: [&str; 7] = [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ];
    NAMES
        .iter()
        .any(|name| word == *name || (word.len() >= 3 && name.starts_with(word)))
}

/// `3 days ago`, `5h ago`, `a month ago`, `yesterday`: `now` counted back.
fn age(s: &str, now: DateTime<Utc>) -> Option<NaiveDate> {
    let lower = s.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let (n, unit) = match words.as_slice() {
        ["today"] | ["just", "now"] => return Some(now.date_naive()),
        ["yesterday"] => return now.date_naive().pred_opt(),
        [n, unit, "ago"] => (*n, *unit),
        // `5h ago`, `3d ago`
        [n_unit, "ago"] => {
            let at = n_unit.find(|c: char| !c.is_ascii_digit())?;
            n_unit.split_at(at)
        }
        _ => return None,
    };
    let n: u32 = match n {
        "a" | "an" | "one" => 1,
        n => n.parse().ok()?,
    };
    let back = |delta: fn(i64) -> Option<TimeDelta>| {
        now.checked_sub_signed(delta(i64::from(n))?)
            .map(|t| t.date_naive())
    };
    // One plural `s` off: `days`, `hrs`; `s` alone is seconds.
    let unit = unit
        .strip_suffix('s')
        .filter(|u| !u.is_empty())
        .unwrap_or(unit);
    match unit {
        "sec" | "second" | "s" => back(TimeDelta::try_seconds),
        "min" | "minute" | "m" => back(TimeDelta::try_minutes),
        "hr" | "hour" | "h" => back(TimeDelta::try_hours),
        "day" | "d" => back(TimeDelta::try_days),
        "week" | "wk" | "w" => back(TimeDelta::try_weeks),
        "month" | "mo" => now.date_naive().checked_sub_months(Months::new(n)),
        "year" | "yr" | "y" => now
            .date_naive()
            .checked_sub_months(Months::new(n.checked_mul(12)?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;

    /// 2023-08-26T12:00:00Z
    fn now() -> Option<SystemTime> {
        Some(UNIX_EPOCH + Duration::from_secs(1_693_051_200))
    }

    fn date(raw: &str) -> Option<String> {
        parse_date(raw, now())
    }

    #[test]
    fn iso_and_rfc_3339_forms() {
        for (raw, want) in [
            ("2023-08-24", "2023-08-24"),
            ("2023-08-24T10:00:00.000Z", "2023-08-24"),
            ("2023-08-24T23:10:00+02:00", "2023-08-24"),
            ("2023-08-24 23:10:00 +0200", "2023-08-24"),
            ("2024-03-01T00:00:00.0000000", "2024-03-01"),
            ("2023-08-24T10:00", "2023-08-24"),
            ("2023/08/24", "2023-08-24"),
            ("2024/3/1", "2024-03-01"),
            ("2024.03.01", "2024-03-01"),
            ("20240301", "2024-03-01"),
            ("  2024-02-29  ", "2024-02-29"),
        ] {
            assert_eq!(date(raw).as_deref(), Some(want), "{raw}");
        }
    }

    #[test]
    fn rfc_2822_and_words() {
        for (raw, want) in [
            ("Thu, 24 Aug 2023 10:00:00 GMT", "2023-08-24"),
            ("Thu, 24 Aug 2023 10:00:00 +0000", "2023-08-24"),
            ("Thursday, 24 August 2023", "2023-08-24"),
            ("3 April 2023", "2023-04-03"),
            ("April 3, 2023", "2023-04-03"),
            ("Apr 17, 2024", "2024-04-17"),
            ("17 Apr 2024", "2024-04-17"),
            ("August 24th, 2023", "2023-08-24"),
            ("Sept. 4, 2023", "2023-09-04"),
            ("Mar 1, 2024 10:00 AM", "2024-03-01"),
            ("29 Feb 2024", "2024-02-29"),
            ("2023 Jan 7", "2023-01-07"),
        ] {
            assert_eq!(date(raw).as_deref(), Some(want), "{raw}");
        }
    }

    #[test]
    fn days_the_month_does_not_have_are_not_dates() {
        for raw in [
            "31 February 2023",
            "2023-02-31",
            "29 Feb 2023",
            "2100-02-29",
            "April 31, 2024",
            "2023-13-01",
            "2024-13-45",
            "2023-00-10",
            "0 May 2023",
        ] {
            assert_eq!(date(raw), None, "{raw}");
        }
        // Leap years: every fourth, not every hundredth, every four hundredth.
        assert_eq!(date("2000-02-29").as_deref(), Some("2000-02-29"));
        assert_eq!(date("2024-02-29").as_deref(), Some("2024-02-29"));
    }

    #[test]
    fn what_is_not_a_whole_date_is_none() {
        for raw in [
            "",
            "soon",
            "Aug 2023",
            "3 April",
            "12345678901",
            "1693051200",
            "ages ago",
            "Summary of 3 April 2023",
            "2023-08/24",
            "2023-08-24 and more",
            "24 Aug 2023 was a Thursday",
            "Marching 3, 2023",
            "2023 Jan",
        ] {
            assert_eq!(date(raw), None, "{raw}");
        }
    }

    #[test]
    fn ages_count_back_from_now_only_when_given() {
        for (raw, want) in [
            ("2 days ago", "2023-08-24"),
            ("3 hours ago", "2023-08-26"),
            ("13 hours ago", "2023-08-25"),
            ("13h ago", "2023-08-25"),
            ("3d ago", "2023-08-23"),
            ("1 week ago", "2023-08-19"),
            ("a month ago", "2023-07-26"),
            ("2 years ago", "2021-08-26"),
            ("yesterday", "2023-08-25"),
            ("Today", "2023-08-26"),
            ("5 minutes ago", "2023-08-26"),
            ("30s ago", "2023-08-26"),
        ] {
            assert_eq!(date(raw).as_deref(), Some(want), "{raw}");
            assert_eq!(parse_date(raw, None), None, "{raw} without now");
        }
        assert_eq!(date("99999999999 years ago"), None);
    }

    #[test]
    fn dates_in_text_are_whole_runs_of_words() {
        fn found(t: &str) -> Option<(String, &str)> {
            find_date(t, None).map(|m| (m.date, &t[m.range]))
        }
        assert_eq!(
            found("Summary of 3 April 2023"),
            Some(("2023-04-03".into(), "3 April 2023"))
        );
        assert_eq!(
            found("Posted (March 1, 2024) by alice"),
            Some(("2024-03-01".into(), "March 1, 2024"))
        );
        assert_eq!(
            found("Updated: 2024-03-01 10:00:00 +0000 UTC"),
            Some(("2024-03-01".into(), "2024-03-01 10:00:00 +0000"))
        );
        // Digits and month names inside words are not dates.
        assert_eq!(found("Summary 3, 2023"), None);
        assert_eq!(found("item2024-03-01 v3"), None);
        assert_eq!(found("Marchetti 1 2024"), None);
        assert_eq!(found("31 February 2023 never came"), None);
        assert_eq!(
            find_date("posted 3 days ago", now()).map(|m| m.date),
            Some("2023-08-23".into())
        );
    }

    #[test]
    fn a_leading_date_is_at_the_start() {
        let text = "Apr 17, 2024 — Rust 1.78 ships";
        let m = leading_date(text, None).expect("leading date");
        assert_eq!(m.date, "2024-04-17");
        assert_eq!(&text[m.range], "Apr 17, 2024");
        assert_eq!(leading_date("Rust 1.78 ships on Apr 17, 2024", None), None);
        assert_eq!(
            leading_date(" 3 days ago · x", now()).map(|m| m.range),
            Some(1..11)
        );
    }

    #[test]
    fn timestamps_are_utc_to_the_second() {
        let t = UNIX_EPOCH + Duration::from_millis(1_709_294_400_923);
        assert_eq!(format_timestamp(t), "2024-03-01T12:00:00.000Z");
        assert_eq!(format_timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
    }
}
