//! What a model reads about `web_search`, and the text of its answers.

use farsight_search::{SearchError, SearchResponse};

use super::{render_compact, render_full};

/// The tool description, built from the specifications' "Description for
/// LLM" texts and tips, and the citation rule of the one that follows Claude
/// Code.
pub const WEB_SEARCH_DESCRIPTION: &str = "\
Searches the web and returns relevant results with titles, URLs, snippets and dates. Use it for information beyond your knowledge cutoff: current documentation and release notes, recent events and news, solutions to recent errors, current best practices.

Parameters (only query is required):
- query: be specific: include names, version numbers, years (\"Dune 2024 movie cast\", not \"Dune\").
- maxResults: 1-20 (default 5).
- site: one domain when you know the authoritative source (site=\"docs.rs\", site=\"wikipedia.org\").
- includeDomains / excludeDomains: lists of domains to keep or drop.
- dateRange: \"day\", \"week\", \"month\" or \"year\" for time-sensitive questions; topic: \"news\" for news.
- searchDepth: \"deep\" also reads the top result pages and returns in each result's content the passages that best answer the query, within maxContentTokens (default 4000) for the whole answer. Use it for research questions instead of calling web_fetch on every result; it takes a few seconds more.
- provider: a specific provider, several (\"brave,duckduckgo\") or \"all\", merged into one ranking. Usually leave it out.

Examples:
- query=\"qBittorrent API documentation\", site=\"github.com\"
- query=\"Netflix new releases\", dateRange=\"week\"
- query=\"how does tokio's work-stealing scheduler work\", searchDepth=\"deep\"

After using the results, read promising pages with web_fetch if you need more than the snippets. \
IMPORTANT: after answering, include a \"Sources:\" section listing the results you used as Markdown links:

  Sources:
  - [Title 1](https://url1)
  - [Title 2](https://url2)

On failure the result is an error with errorKind, message, retryable, retryAfterMs and suggestion: read the suggestion; if search is unavailable, say so and answer from what you know.";

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
