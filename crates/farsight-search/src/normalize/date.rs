//! Dates in whatever form providers give them, as `YYYY-MM-DD`.
//!
//! Accepted: ISO 8601 (`2023-08-24`, `2023-08-24T10:00:00Z`), RFC 1123/2822
//! (`Thu, 24 Aug 2023 10:00:00 GMT`), `Aug 24, 2023`, `August 24th, 2023`,
//! `24 Aug 2023`, `2023/08/24`, and relative ages (`2 days ago`, `3 hours ago`,
//! `a week ago`, `yesterday`), which are counted back from now.

use std::time::{SystemTime, UNIX_EPOCH};

/// `raw` as `YYYY-MM-DD`, or `None` when it is not a date we can read.
pub(crate) fn parse_date(raw: &str) -> Option<String> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    parse_date_at(raw, now)
}

/// [`parse_date`] with "now" given as Unix seconds, for relative dates.
pub(crate) fn parse_date_at(raw: &str, now_unix: i64) -> Option<String> {
    let s = raw.trim();
    if s.is_empty() || s.len() > 80 {
        return None;
    }
    let (y, m, d) = iso(s)
        .or_else(|| relative(s, now_unix))
        .or_else(|| textual(s))?;
    valid(y, m, d).then(|| format!("{y:04}-{m:02}-{d:02}"))
}

fn valid(y: i64, m: u32, d: u32) -> bool {
    (1900..=2200).contains(&y) && (1..=12).contains(&m) && d >= 1 && d <= days_in_month(y, m)
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    }
}

/// `YYYY-MM-DD` or `YYYY/MM/DD` at the start, whatever follows (time, zone).
fn iso(s: &str) -> Option<(i64, u32, u32)> {
    let b = s.as_bytes();
    if b.len() < 10 || !(b[4] == b'-' || b[4] == b'/') || b[7] != b[4] {
        return None;
    }
    if b.len() > 10 && b[10].is_ascii_digit() {
        return None;
    }
    let y = s.get(0..4)?.parse().ok()?;
    let m = s.get(5..7)?.parse().ok()?;
    let d = s.get(8..10)?.parse().ok()?;
    Some((y, m, d))
}

fn relative(s: &str, now_unix: i64) -> Option<(i64, u32, u32)> {
    let lower = s.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let seconds: i64 = match words.as_slice() {
        ["today"] | ["just", "now"] => 0,
        ["yesterday"] => 86_400,
        [n, unit, "ago"] => {
            let n: i64 = match *n {
                "a" | "an" | "one" => 1,
                n => n.parse().ok()?,
            };
            let unit = unit.trim_end_matches('s');
            let per = match unit {
                "sec" | "second" | "min" | "minute" => 1,
                "hr" | "hour" | "h" => 3_600,
                "day" | "d" => 86_400,
                "week" | "wk" | "w" => 7 * 86_400,
                // Calendar months and years vary; a day's error is acceptable for an age.
                "month" | "mo" => 30 * 86_400,
                "year" | "yr" | "y" => 365 * 86_400,
                _ => return None,
            };
            if per == 1 {
                // Seconds or minutes ago: today, give or take the minute.
                n.checked_mul(60)?
            } else {
                n.checked_mul(per)?
            }
        }
        _ => return None,
    };
    Some(civil_from_days((now_unix - seconds).div_euclid(86_400)))
}

/// Month-name forms: `Aug 24, 2023`, `24 Aug 2023`, `Thu, 24 Aug 2023 10:00:00 GMT`.
fn textual(s: &str) -> Option<(i64, u32, u32)> {
    let mut month = None;
    let mut day = None;
    let mut year = None;
    for token in s.split(|c: char| c.is_whitespace() || c == ',' || c == '.') {
        if token.is_empty() || token.contains(':') {
            continue;
        }
        let lower = token.to_ascii_lowercase();
        if let Some(m) = month_number(&lower) {
            month.get_or_insert(m);
            continue;
        }
        let digits = lower.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let suffix = &lower[digits.len()..];
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if !matches!(suffix, "" | "st" | "nd" | "rd" | "th") {
            continue;
        }
        if digits.len() == 4 && suffix.is_empty() {
            year.get_or_insert(digits.parse().ok()?);
        } else if digits.len() <= 2 {
            day.get_or_insert(digits.parse().ok()?);
        }
    }
    Some((year?, month?, day?))
}

fn month_number(word: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    const FULL: [&str; 12] = [
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
    (0..12)
        .find(|&i| word == MONTHS[i] || word == FULL[i])
        .map(|i| i as u32 + 1)
}

/// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2023-08-26T12:00:00Z
    const NOW: i64 = 1_693_051_200;

    #[test]
    fn absolute_forms() {
        for (raw, want) in [
            ("2023-08-24", "2023-08-24"),
            ("2023-08-24T10:00:00.000Z", "2023-08-24"),
            ("2023-08-24T23:10:00+02:00", "2023-08-24"),
            ("2023/08/24", "2023-08-24"),
            ("Thu, 24 Aug 2023 10:00:00 GMT", "2023-08-24"),
            ("Thu, 24 Aug 2023 10:00:00 +0000", "2023-08-24"),
            ("Aug 24, 2023", "2023-08-24"),
            ("August 24th, 2023", "2023-08-24"),
            ("24 Aug 2023", "2023-08-24"),
            ("Sept. 4, 2023", "2023-09-04"),
            ("29 Feb 2024", "2024-02-29"),
        ] {
            assert_eq!(parse_date_at(raw, NOW).as_deref(), Some(want), "{raw}");
        }
    }

    #[test]
    fn relative_forms_count_back_from_now() {
        for (raw, want) in [
            ("2 days ago", "2023-08-24"),
            ("3 hours ago", "2023-08-26"),
            ("13 hours ago", "2023-08-25"),
            ("1 week ago", "2023-08-19"),
            ("a month ago", "2023-07-27"),
            ("yesterday", "2023-08-25"),
            ("5 minutes ago", "2023-08-26"),
        ] {
            assert_eq!(parse_date_at(raw, NOW).as_deref(), Some(want), "{raw}");
        }
    }

    #[test]
    fn nonsense_is_none() {
        for raw in [
            "",
            "soon",
            "2023-13-01",
            "31 Feb 2023",
            "Aug 2023",
            "12345678901",
            "ages ago",
            "1693051200",
        ] {
            assert_eq!(parse_date_at(raw, NOW), None, "{raw}");
        }
    }
}
