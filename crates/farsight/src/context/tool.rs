//! What a model reads about `web_search`, and the text of its answers.

use farsight_search::{SearchError, SearchResponse};

use super::{render_compact, render_full};

/// The tool description: when to use the tool and how to use its answer.
/// What each parameter means is in the input schema; only the choices a
/// model gets wrong without a hint are repeated here. Every word is paid for
/// in each session's `tools/list`.
pub const WEB_SEARCH_DESCRIPTION: &str = "\
Search the web for what is past your knowledge cutoff (current docs, releases, news, errors). \
Be specific (names, versions, years); pass site for a known authoritative source. \
searchDepth=\"deep\" adds each top result's passages that answer the query: use it instead of fetching every result. \
Read a result in full with web_fetch. \
Then list the results you used under \"Sources:\" as Markdown links [Title](url). \
On error read the suggestion; if search is unavailable, say so and answer from what you know.";

/// The text of a search answer: the full format when pages were read (deep
/// search), else the compact one; both end with the `Sources:` list.
pub fn render_search_text(response: &SearchResponse) -> String {
    if response.results.iter().any(|r| r.content.is_some()) {
        render_full(response)
    } else {
        render_compact(response)
    }
}

/// The text of a failed search, for a person (the CLI's stderr).
pub fn render_search_error(error: &SearchError) -> String {
    let mut out = format!("Error ({}): {}\n", error.kind(), error.message());
    if let Some(s) = error.suggestion() {
        out.push_str(&format!("Suggestion: {s}\n"));
    }
    if error.is_retryable() {
        match error.retry_after_ms() {
            Some(ms) => out.push_str(&format!("Retryable: yes, after {ms} ms\n")),
            None => out.push_str("Retryable: yes\n"),
        }
    }
    out
}
