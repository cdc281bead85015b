//! Dates as documents write them, made `YYYY-MM-DD` where possible: PDF's
//! `D:YYYYMMDDHHmmSSOHH'mm'` and the ISO 8601 of Office core properties.

/// The day of `raw`, `YYYY-MM-DD`, or `raw` trimmed when it is in neither form.
pub(crate) fn iso_day(raw: &str) -> String {
    let s = raw.trim();
    let digits = s.strip_prefix("D:").unwrap_or(s);
    let d: Vec<char> = digits.chars().take(8).collect();
    if d.len() == 8 && d.iter().all(char::is_ascii_digit) {
        let y: String = d[..4].iter().collect();
        let m: String = d[4..6].iter().collect();
        let day: String = d[6..8].iter().collect();
        if valid(&m, 12) && valid(&day, 31) {
            return format!("{y}-{m}-{day}");
        }
    }
    // ISO 8601 ("2024-03-05T10:00:00Z"): its first ten characters.
    let b = s.as_bytes();
    if b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[7] == b'-'
        && b[5..7].iter().chain(&b[8..10]).all(u8::is_ascii_digit)
    {
        return s[..10].to_owned();
    }
    s.to_owned()
}

fn valid(two: &str, max: u32) -> bool {
    two.parse::<u32>().is_ok_and(|n| (1..=max).contains(&n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdf_and_iso_dates() {
        assert_eq!(iso_day("D:20230122103000+01'00'"), "2023-01-22");
        assert_eq!(iso_day("20230122"), "2023-01-22");
        assert_eq!(iso_day("2024-03-05T10:00:00Z"), "2024-03-05");
        assert_eq!(iso_day("D:20231399"), "D:20231399");
        assert_eq!(iso_day("  Tuesday "), "Tuesday");
        assert_eq!(iso_day("é"), "é");
    }
}
