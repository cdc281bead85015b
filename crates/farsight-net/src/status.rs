//! HTTP error statuses as errors an agent can act on (the fetch
//! specification's error table), and `Retry-After`.

use std::time::{Duration, SystemTime};

use crate::error::{Error, ErrorKind};

/// A server's wait request longer than this is treated as this long: an agent
/// should not plan on waiting a day.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60 * 60);

/// The error for an HTTP status of 400 or more.
pub(crate) fn status_error(status: u16, retry_after: Option<&str>, url: &str) -> Error {
    let retry_after_ms = retry_after.and_then(|v| parse_retry_after(v, SystemTime::now()));
    let (message, suggestion, retryable): (String, String, bool) = match status {
        400 => (
            "Bad request (400): the server rejected the request".into(),
            "Check the URL, especially its query parameters.".into(),
            false,
        ),
        401 => (
            "Authentication required (401): the page needs a login".into(),
            "farsight does not log in to sites; find a public source for this content.".into(),
            false,
        ),
        402 => (
            "Payment required (402): the content is behind a paywall".into(),
            "Find the information in a freely available source.".into(),
            false,
        ),
        403 => (
            "Access denied (403): the site refuses this request, probably because it blocks automated access"
                .into(),
            "Use the search result's snippet or find the content on another site.".into(),
            false,
        ),
        404 => (
            "Page not found (404)".into(),
            "Verify the URL is correct or search for the content.".into(),
            false,
        ),
        405 => (
            "Method not allowed (405): the server does not serve this URL to plain GET requests"
                .into(),
            "This URL is probably an API endpoint or a form target, not a page; search for the page instead."
                .into(),
            false,
        ),
        408 => (
            "Request timeout (408): the server gave up waiting".into(),
            "Try again in a moment.".into(),
            true,
        ),
        410 => (
            "Page gone (410): the page was removed permanently".into(),
            "Search for the content elsewhere, or for an archived copy.".into(),
            false,
        ),
        429 => (
            "Too many requests (429): the site is rate limiting".into(),
            match retry_after_ms {
                Some(ms) => format!("Wait {} seconds, then try again.", ms.div_ceil(1000)),
                None => "Wait a little, then try again.".into(),
            },
            true,
        ),
        451 => (
            "Unavailable for legal reasons (451)".into(),
            "Find the information in another source.".into(),
            false,
        ),
        500..=599 => (
            format!("Server error ({status}{}): the site failed to answer", reason(status)),
            match retry_after_ms {
                Some(ms) => format!("Try again in {} seconds.", ms.div_ceil(1000)),
                None => "Try again later; the problem is on the site's side.".into(),
            },
            true,
        ),
        _ => (
            format!("The server answered with HTTP status {status}{}", reason(status)),
            "Verify the URL, or search for the content.".into(),
            false,
        ),
    };
    Error::new(ErrorKind::HttpStatus, message)
        .with_suggestion(suggestion)
        .with_status(status)
        .with_retryable(retryable)
        .with_retry_after_ms(if retryable { retry_after_ms } else { None })
        .with_url(url)
}

fn reason(status: u16) -> String {
    http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .map(|r| format!(" {r}"))
        .unwrap_or_default()
}

/// A `Retry-After` header value as milliseconds to wait from `now`: the
/// delta-seconds (RFC 9110; a decimal such as `1.5`, which some APIs send, is
/// read too) or an HTTP-date, a date already past being no wait. The one
/// reader of this header for pages and search providers alike; a wait longer
/// than an hour is an hour. `None` for anything else, negative numbers included.
#[must_use]
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<u64> {
    let value = value.trim();
    let wait = if let Ok(secs) = value.parse::<u64>() {
        Duration::from_secs(secs)
    } else if let Ok(secs) = value.parse::<f64>() {
        // `from_secs_f64` panics on negative, infinite or huge values.
        if !(secs.is_finite() && secs >= 0.0) {
            return None;
        }
        Duration::from_secs_f64(secs.min(MAX_RETRY_AFTER.as_secs_f64()))
    } else {
        let at = httpdate::parse_http_date(value).ok()?;
        at.duration_since(now).unwrap_or(Duration::ZERO)
    };
    u64::try_from(wait.min(MAX_RETRY_AFTER).as_millis()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_seconds_and_dates() {
        let now = httpdate::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        assert_eq!(parse_retry_after("120", now), Some(120_000));
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:50:07 GMT", now),
            Some(30_000)
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now),
            Some(0)
        );
        assert_eq!(parse_retry_after("999999999", now), Some(3_600_000));
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("-5", now), None);
        assert_eq!(parse_retry_after("1.5", now), Some(1_500));
        assert_eq!(parse_retry_after(" 3 ", now), Some(3_000));
        assert_eq!(parse_retry_after("1e300", now), Some(3_600_000));
        for bad in ["-0.5", "NaN", "inf", ""] {
            assert_eq!(parse_retry_after(bad, now), None, "{bad}");
        }
    }

    #[test]
    fn table_of_statuses() {
        let e = status_error(404, None, "https://example.com/x");
        assert_eq!(e.kind(), ErrorKind::HttpStatus);
        assert_eq!(e.status(), Some(404));
        assert!(!e.is_retryable());
        assert!(e.suggestion().unwrap().contains("search"));

        let e = status_error(403, None, "https://example.com/x");
        assert!(e.message().contains("Access denied"));

        let e = status_error(429, Some("7"), "https://example.com/x");
        assert!(e.is_retryable() && e.is_rate_limited());
        assert_eq!(e.retry_after_ms(), Some(7000));

        let e = status_error(503, None, "https://example.com/x");
        assert!(e.is_retryable());
        assert!(e.message().contains("503 Service Unavailable"));

        let e = status_error(418, None, "https://example.com/x");
        assert!(!e.is_retryable());
        assert_eq!(e.status(), Some(418));
    }
}
