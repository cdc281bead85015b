//! Markdown from the source (issue 13): the author's own text instead of
//! farsight's reading of a page's HTML, when the site offers it.
//!
//! Three ways in. The fetcher asks every server for Markdown first
//! (`farsight_net::PAGE_ACCEPT`), and a Markdown answer is read by the text
//! path like any text page. An HTML page may link its Markdown version
//! (`<link rel="alternate" type="text/markdown">`, read by the extractor);
//! it is fetched here. And GitHub's file pages and repository front pages
//! are read from their raw files (`github.rs`). Each goes through the same
//! guarded fetcher, robots.txt and cache as any fetch, and each falls back
//! to what farsight did before: the answer is never worse than the page's.

use std::time::Instant;

use farsight_extract::Document;
use farsight_net::{FetchOptions, Fetcher, Page, PageKind};
use url::Url;

use super::model::{FetchFormat, FetchRequest};

/// The page behind a GitHub URL read from its raw file, or for a repository
/// its README: the first candidate (`github::raw_candidates`) that answers.
/// A 404 moves on to the next README name; any other failure, or none
/// found by `deadline`, gives `None` and the page itself is fetched.
pub(super) async fn github_raw(
    fetcher: &Fetcher,
    url: &str,
    raw_base: &str,
    options: &FetchOptions,
    deadline: Instant,
) -> Option<Page> {
    let candidates = super::github::raw_candidates(url, raw_base);
    if candidates.is_empty() {
        return None;
    }
    let attempts = async {
        for raw in &candidates {
            match fetcher.fetch(raw, options).await {
                Ok(page) => return Some(page),
                Err(e) if e.status() == Some(404) => {
                    tracing::debug!(raw, "no raw file here; trying the next name");
                }
                Err(e) => {
                    tracing::debug!(raw, "raw file not read, reading the page: {}", e.message());
                    return None;
                }
            }
        }
        None
    };
    tokio::time::timeout_at(deadline.into(), attempts)
        .await
        .ok()
        .flatten()
}

/// The Markdown version an HTML page at `page_url` links to, fetched, when
/// the page `doc` names one and it answers with Markdown; `None` otherwise,
/// and the page's own extraction is the answer.
///
/// One hop only: the alternate is taken only if it IS Markdown, and
/// Markdown's links are not followed, so an alternate that points back to
/// HTML (or to itself) ends here.
pub(super) async fn alternate(
    fetcher: &Fetcher,
    page_url: &str,
    doc: &Document,
    request: &FetchRequest,
    bypass_cache: bool,
    deadline: Instant,
) -> Option<Page> {
    // `format: html` asks for the page's HTML, and a selector picks
    // elements of it: the Markdown version has neither.
    let wants_html = request.format == FetchFormat::Html
        || request
            .selector
            .as_deref()
            .is_some_and(|s| !s.trim().is_empty());
    if wants_html {
        return None;
    }
    let url = doc.metadata.markdown_url.as_deref()?;
    if same_document(url, page_url) {
        return None;
    }
    let options = FetchOptions::new().bypass_cache(bypass_cache);
    match tokio::time::timeout_at(deadline.into(), fetcher.fetch(url, &options)).await {
        Ok(Ok(page)) if is_markdown(&page) => Some(page),
        Ok(Ok(page)) => {
            tracing::debug!(url, content_type = %page.content_type, "the Markdown alternate is not Markdown");
            None
        }
        Ok(Err(e)) => {
            tracing::debug!(url, "the Markdown alternate failed: {}", e.message());
            None
        }
        Err(_) => {
            tracing::debug!(url, "the Markdown alternate ran out of the call's time");
            None
        }
    }
}

/// Whether a fetched page is Markdown: its type says so, or it is plain
/// text at a `.md` address (what static hosts send for Markdown files).
fn is_markdown(page: &Page) -> bool {
    if page.kind != PageKind::Text {
        return false;
    }
    farsight_extract::is_markdown_type(&page.content_type)
        || (page.content_type == "text/plain"
            && Url::parse(&page.url).is_ok_and(|u| u.path().to_ascii_lowercase().ends_with(".md")))
}

/// Whether two URLs name the same document (fragments aside).
fn same_document(a: &str, b: &str) -> bool {
    let strip = |u: &str| {
        Url::parse(u).ok().map(|mut u| {
            u.set_fragment(None);
            u
        })
    };
    matches!((strip(a), strip(b)), (Some(a), Some(b)) if a == b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(url: &str, content_type: &str, kind: PageKind) -> Page {
        Page {
            url: url.to_owned(),
            requested_url: url.to_owned(),
            status: 200,
            content_type: content_type.to_owned(),
            kind,
            charset: "UTF-8".to_owned(),
            text: "# T".to_owned(),
            bytes: None,
            truncated: false,
            from_cache: false,
        }
    }

    #[test]
    fn markdown_is_known_by_type_or_by_a_plain_md_file() {
        let text = PageKind::Text;
        assert!(is_markdown(&page("https://e.x/a", "text/markdown", text)));
        assert!(is_markdown(&page("https://e.x/a", "text/x-markdown", text)));
        assert!(is_markdown(&page(
            "https://e.x/a.MD?v=1",
            "text/plain",
            text
        )));
        assert!(!is_markdown(&page("https://e.x/a.txt", "text/plain", text)));
        assert!(!is_markdown(&page("https://e.x/a.md", "text/csv", text)));
        assert!(!is_markdown(&page(
            "https://e.x/a.md",
            "text/html",
            PageKind::Html
        )));
    }

    #[test]
    fn the_same_document_ignores_the_fragment_only() {
        assert!(same_document("https://e.x/a#x", "https://e.x/a"));
        assert!(!same_document("https://e.x/a.md", "https://e.x/a"));
        assert!(!same_document("nonsense", "nonsense"));
    }

    /// Every README name is asked for in order, then `None` (the caller
    /// fetches the page itself); a name that answers ends the search.
    #[tokio::test]
    async fn a_repository_without_a_readme_tries_every_name_then_gives_up() {
        use std::sync::{Arc, Mutex};
        let asked: Arc<Mutex<Vec<String>>> = Arc::default();
        let log = asked.clone();
        let app = axum::Router::new().fallback(move |uri: axum::http::Uri| {
            let log = log.clone();
            async move {
                log.lock().unwrap().push(uri.path().to_owned());
                if uri.path() == "/o/found/HEAD/README.rst" {
                    (axum::http::StatusCode::OK, "Found\n=====\n")
                } else {
                    (axum::http::StatusCode::NOT_FOUND, "")
                }
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        let fetcher = Fetcher::builder()
            .allow_hosts(vec!["127.0.0.1".to_owned()])
            .respect_robots_txt(false)
            .build()
            .unwrap();
        let deadline = Instant::now() + std::time::Duration::from_secs(10);
        let options = FetchOptions::new();

        let none = github_raw(
            &fetcher,
            "https://github.com/o/none",
            &base,
            &options,
            deadline,
        )
        .await;
        assert!(none.is_none());
        let names = ["README.md", "readme.md", "README.rst", "README"];
        let expected: Vec<String> = names.iter().map(|n| format!("/o/none/HEAD/{n}")).collect();
        assert_eq!(*asked.lock().unwrap(), expected);

        asked.lock().unwrap().clear();
        let found = github_raw(
            &fetcher,
            "https://github.com/o/found",
            &base,
            &options,
            deadline,
        )
        .await
        .expect("the third name answers");
        assert!(found.text.starts_with("Found"));
        assert_eq!(asked.lock().unwrap().len(), 3);
    }
}
