//! Answers rendered for a person: the CLI without `--json`, and the text
//! mirror of a tool result for text-only MCP clients.

use std::fmt::Write as _;

use crate::service::{FetchManyResponse, FetchResponse};

/// The page for a person to read: title, URL, content, and how to read on.
/// `read_on` says how to ask for the next window ("--start-index" on the
/// command line, "startIndex" for a model).
pub fn fetch_text(r: &FetchResponse, read_on: &str) -> String {
    let mut out = String::new();
    if r.is_error() {
        let kind = r.error_kind.map_or("error", |k| k.as_str());
        let _ = write!(out, "Error ({kind}");
        if let Some(code) = r.error_code {
            let _ = write!(out, ", HTTP {code}");
        }
        let _ = writeln!(
            out,
            "): {}",
            r.message.as_deref().unwrap_or("the fetch failed")
        );
        let _ = writeln!(out, "URL: {}", r.url);
        if let Some(s) = &r.suggestion {
            let _ = writeln!(out, "Suggestion: {s}");
        }
        if r.retryable == Some(true) {
            match r.retry_after_ms {
                Some(ms) => {
                    let _ = writeln!(out, "Retryable: yes, after {ms} ms");
                }
                None => {
                    let _ = writeln!(out, "Retryable: yes");
                }
            }
        }
        return out;
    }
    let mut content = fetch_content(r);
    if let Some(title) = r.title.as_deref().filter(|t| !t.is_empty()) {
        let _ = writeln!(out, "# {title}\n");
        // Articles often open with their headline as an H1: under the title
        // it would read twice.
        if let Some(rest) = after_heading(&content, title) {
            content = rest.to_owned();
        }
    }
    if !r.url.is_empty() {
        let _ = writeln!(out, "URL: {}\n", r.url);
    }
    if let Some(message) = &r.message {
        let _ = writeln!(out, "Note: {message}\n");
    }
    out.push_str(&content);
    if let Some(data) = r
        .structured_data
        .as_ref()
        .filter(|d| d.as_object().is_some_and(|o| !o.is_empty()))
    {
        // A person (or a text-only client) sees what `--json` would give.
        let pretty = serde_json::to_string_pretty(data).unwrap_or_default();
        if !out.ends_with('\n') {
            out.push('\n');
        }
        let _ = writeln!(out, "\nStructured data:\n```json\n{pretty}\n```");
    }
    if let Some(line) = read_on_line(r, read_on) {
        let _ = writeln!(out, "\n{line}");
    }
    out
}

/// Several pages for a person, in order, each under a header naming its URL:
/// the header, then the page as [`fetch_text`] renders it (its error, for a
/// page that failed). `read_on` says how to read on in that page.
pub fn fetch_many_text(
    r: &FetchManyResponse,
    read_on: impl Fn(&FetchResponse) -> String,
) -> String {
    let mut out = String::new();
    if let Some(message) = &r.message {
        let _ = writeln!(out, "Note: {message}\n");
    }
    for (i, page) in r.results.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&page_header(i, r.results.len(), &page.url));
        out.push_str(&fetch_text(page, &read_on(page)));
    }
    out
}

/// The line that opens page `i` of `n` (counted from 0) in an answer of
/// several pages, as `head` opens each file: `==> [1/3] https://... <==`.
pub fn page_header(i: usize, n: usize, url: &str) -> String {
    format!("==> [{}/{n}] {url} <==\n", i + 1)
}

/// Exactly the content, for `--format text` and `--format html`: nothing
/// added before it, one newline at the end.
pub fn fetch_content(r: &FetchResponse) -> String {
    let mut out = r.content.clone().unwrap_or_default();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// What [`fetch_text`] says around the content (the note, how to read on),
/// for a person reading stderr while stdout carries only the content.
pub fn fetch_notes(r: &FetchResponse, read_on: &str) -> String {
    let mut out = String::new();
    if let Some(message) = &r.message {
        let _ = writeln!(out, "Note: {message}");
    }
    if let Some(line) = read_on_line(r, read_on) {
        let _ = writeln!(out, "{line}");
    }
    out
}

fn read_on_line(r: &FetchResponse, read_on: &str) -> Option<String> {
    let next = r.next_start_index?;
    let total = r.content_length.unwrap_or(next);
    Some(format!(
        "[Content truncated at character {next} of {total}. To read on, repeat the call with {read_on} {next}.]"
    ))
}

/// The content after its opening level-1 heading, when that heading reads
/// as `title` (case and spacing aside).
fn after_heading<'a>(content: &'a str, title: &str) -> Option<&'a str> {
    let squash = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let content = content.trim_start();
    let (first, rest) = content.split_once('\n').unwrap_or((content, ""));
    let h1 = first.strip_prefix("# ")?;
    (squash(h1) == squash(title)).then(|| rest.trim_start_matches('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::FetchStatus;

    #[test]
    fn a_cut_page_says_how_to_read_on() {
        let r = FetchResponse {
            url: "https://e.x/".into(),
            title: Some("Hello".into()),
            content: Some("Body".into()),
            content_length: Some(40),
            next_start_index: Some(4),
            truncated: Some(true),
            ..FetchResponse::default()
        };
        let t = fetch_text(&r, "--start-index");
        assert!(
            t.starts_with("# Hello\n\nURL: https://e.x/\n\nBody\n"),
            "{t}"
        );
        assert!(t.contains("--start-index 4"), "{t}");
    }

    #[test]
    fn the_title_is_not_printed_twice() {
        let r = FetchResponse {
            url: "https://e.x/".into(),
            title: Some("Hello  World".into()),
            content: Some("# Hello World\n\nBody".into()),
            ..FetchResponse::default()
        };
        let t = fetch_text(&r, "--start-index");
        assert_eq!(t, "# Hello  World\n\nURL: https://e.x/\n\nBody\n");
        let other = FetchResponse {
            content: Some("# Another heading\n\nBody".into()),
            ..r
        };
        assert_eq!(
            fetch_text(&other, "--start-index"),
            "# Hello  World\n\nURL: https://e.x/\n\n# Another heading\n\nBody\n"
        );
    }

    #[test]
    fn content_alone_and_its_notes_apart() {
        let r = FetchResponse {
            url: "https://e.x/".into(),
            title: Some("Hello".into()),
            content: Some("<p>Body</p>".into()),
            message: Some("A note.".into()),
            content_length: Some(40),
            next_start_index: Some(11),
            ..FetchResponse::default()
        };
        assert_eq!(fetch_content(&r), "<p>Body</p>\n");
        assert_eq!(
            fetch_notes(&r, "--start-index"),
            "Note: A note.\n[Content truncated at character 11 of 40. To read on, repeat the call with --start-index 11.]\n"
        );
    }

    #[test]
    fn several_pages_each_under_its_url() {
        let page = FetchResponse {
            url: "https://e.x/a".into(),
            content: Some("Body A".into()),
            content_length: Some(40),
            next_start_index: Some(6),
            ..FetchResponse::default()
        };
        let failed = FetchResponse {
            url: "https://e.x/b".into(),
            status: FetchStatus::Error,
            message: Some("Page not found".into()),
            ..FetchResponse::default()
        };
        let r = FetchManyResponse::new(vec![page, failed], Some("Lowered.".into()));
        let t = fetch_many_text(&r, |p| format!("url = {} and startIndex =", p.url));
        assert_eq!(
            t,
            "Note: Lowered.\n\n==> [1/2] https://e.x/a <==\nURL: https://e.x/a\n\nBody A\n\n\
             [Content truncated at character 6 of 40. To read on, repeat the call with url = \
             https://e.x/a and startIndex = 6.]\n\n==> [2/2] https://e.x/b <==\n\
             Error (error): Page not found\nURL: https://e.x/b\n"
        );
    }

    #[test]
    fn an_error_names_kind_status_and_advice() {
        let r = FetchResponse {
            url: "https://e.x/missing".into(),
            status: FetchStatus::Error,
            error_kind: Some(farsight_search::ErrorKind::HttpStatus),
            error_code: Some(404),
            message: Some("Page not found".into()),
            suggestion: Some("Verify the URL".into()),
            retryable: Some(false),
            ..FetchResponse::default()
        };
        let t = fetch_text(&r, "--start-index");
        assert!(
            t.starts_with("Error (httpStatus, HTTP 404): Page not found"),
            "{t}"
        );
        assert!(t.contains("Suggestion: Verify the URL"), "{t}");
    }
}
