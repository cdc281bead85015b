//! Answers rendered for a person: the CLI without `--json`, and the text
//! mirror of a tool result for text-only MCP clients.

use std::fmt::Write as _;

use crate::service::FetchResponse;

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
    if let Some(title) = r.title.as_deref().filter(|t| !t.is_empty()) {
        let _ = writeln!(out, "# {title}\n");
    }
    if !r.url.is_empty() {
        let _ = writeln!(out, "URL: {}\n", r.url);
    }
    if let Some(message) = &r.message {
        let _ = writeln!(out, "Note: {message}\n");
    }
    if let Some(content) = &r.content {
        out.push_str(content);
        if !content.ends_with('\n') {
            out.push('\n');
        }
    }
    if let Some(next) = r.next_start_index {
        let total = r.content_length.unwrap_or(next);
        let _ = writeln!(
            out,
            "\n[Content truncated at character {next} of {total}. To read on, repeat the call with {read_on} {next}.]"
        );
    }
    out
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
