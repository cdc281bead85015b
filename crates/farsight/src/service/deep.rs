//! Deep search: read the top results' pages and keep, for each, the passages
//! that best answer the query, within one token budget for the whole answer.
//!
//! Pages are fetched in parallel (at most `concurrency` at once) through the
//! same guarded [`Fetcher`] as `web_fetch`, so the same URL policy, robots.txt
//! rules and page cache apply. Where the provider already returned page
//! content (Tavily, Exa, Jina) that content is ranked instead of fetching. The
//! whole reading phase ends at `deadline`: pages not read by then are dropped
//! with `contentError: "timeout"` and keep their snippets.

use std::sync::Arc;
use std::time::Duration;

use farsight_extract::{
    ExtractOptions, Format, estimate_tokens, select_within_budget, share_budget,
};
use farsight_net::{Cache, FetchOptions, Fetcher, PageKind};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use super::extracted::DocumentCache;
use farsight_search::{ErrorKind, SearchResult};

/// How the pages of a deep search are read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeepLimits {
    /// Pages fetched at once.
    pub concurrency: usize,
    /// The most time spent reading pages.
    pub deadline: Duration,
    /// Tokens of content for the whole answer.
    pub max_tokens: usize,
    /// Download pages again even if cached.
    pub bypass_cache: bool,
    /// How long a page's extracted document is kept (as long as the page).
    pub document_ttl: Duration,
}

/// A page's text, or the kind of error that kept it from being read.
type PageText = Result<String, ErrorKind>;

/// Fills `content` (or `contentError`) of every result and returns the
/// estimated tokens of all content together (at most `limits.max_tokens`).
pub(crate) async fn add_content(
    fetcher: Option<&Fetcher>,
    cache: &Cache,
    query: &str,
    results: &mut [SearchResult],
    limits: DeepLimits,
) -> usize {
    if results.is_empty() {
        return 0;
    }
    let texts = read_pages(fetcher, cache, results, limits).await;
    let query = query.to_owned();
    let max_tokens = limits.max_tokens;
    let selected =
        tokio::task::spawn_blocking(move || select_all(&query, &texts, max_tokens)).await;
    let selected = match selected {
        Ok(s) => s,
        Err(e) => {
            tracing::error!("passage selection failed: {e}");
            vec![Err(ErrorKind::Unknown); results.len()]
        }
    };
    let mut total = 0;
    for (r, outcome) in results.iter_mut().zip(selected) {
        match outcome {
            Ok(Some((text, tokens))) => {
                r.content = Some(text);
                total += tokens;
            }
            Ok(None) => r.content = None,
            Err(kind) => {
                r.content = None;
                r.content_error = Some(kind);
            }
        }
    }
    total
}

/// The text of every result's page, in result order.
async fn read_pages(
    fetcher: Option<&Fetcher>,
    cache: &Cache,
    results: &mut [SearchResult],
    limits: DeepLimits,
) -> Vec<PageText> {
    // Anything still unread at the deadline stays a timeout.
    let mut texts: Vec<PageText> = vec![Err(ErrorKind::Timeout); results.len()];
    let permits = Arc::new(Semaphore::new(limits.concurrency.max(1)));
    // One deadline for the whole reading phase; extractions stop at it too
    // (their blocking threads would otherwise outlive the abort below).
    let deadline = tokio::time::Instant::now() + limits.deadline;
    let mut tasks = JoinSet::new();
    for (i, r) in results.iter_mut().enumerate() {
        if let Some(content) = r.content.take().filter(|c| !c.trim().is_empty()) {
            texts[i] = Ok(content);
            continue;
        }
        let Some(fetcher) = fetcher else {
            texts[i] = Err(ErrorKind::Disabled);
            continue;
        };
        let fetcher = fetcher.clone();
        let url = r.url.clone();
        let permits = permits.clone();
        let cache = cache.clone();
        tasks.spawn(async move {
            // The semaphore is never closed, so acquiring only waits.
            let _permit = permits.acquire_owned().await;
            (i, read_page(&fetcher, &cache, &url, limits, deadline).await)
        });
    }
    loop {
        match tokio::time::timeout_at(deadline, tasks.join_next()).await {
            Ok(Some(Ok((i, text)))) => texts[i] = text,
            Ok(Some(Err(e))) => tracing::error!("a deep-search page task failed: {e}"),
            Ok(None) => break,
            Err(_) => {
                tracing::debug!(
                    unread = tasks.len(),
                    "deep search deadline reached; dropping slow pages"
                );
                tasks.abort_all();
                break;
            }
        }
    }
    texts
}

/// One page's readable text as Markdown (headings help the ranking), its
/// extraction kept in the document cache: a page that another deep search
/// (another query, another process) reads again is not extracted again.
async fn read_page(
    fetcher: &Fetcher,
    cache: &Cache,
    url: &str,
    limits: DeepLimits,
    deadline: tokio::time::Instant,
) -> PageText {
    let page = fetcher
        .fetch(url, &FetchOptions::new().bypass_cache(limits.bypass_cache))
        .await
        .map_err(|e| ErrorKind::from(e.kind()))?;
    let text = match page.kind {
        PageKind::Html => {
            let options = ExtractOptions::new(Format::Markdown)
                .base_url(page.url.clone())
                .deadline(super::extract::extraction_deadline(deadline.into_std()));
            let documents = DocumentCache {
                cache,
                ttl: limits.document_ttl,
                bypass: limits.bypass_cache,
            };
            documents.extract(page.text, options).await.content
        }
        // Read as web_fetch reads it: since pages are asked for as Markdown
        // first (issue 13), a server's Markdown arrives here, and its raw
        // HTML must go as it does there.
        PageKind::Text => {
            let options = ExtractOptions::new(Format::Markdown)
                .base_url(page.url.clone())
                .deadline(super::extract::extraction_deadline(deadline.into_std()));
            super::extract::read_text_document(page.text, page.content_type, options)
                .await
                .document
                .content
        }
        // A PDF or Office document among the results: read like web_fetch
        // reads it (the fetcher has applied [fetch].max_document_bytes).
        PageKind::Document => {
            let reader = super::document::DocumentReader {
                cache: Some(cache),
                ttl: limits.document_ttl,
                bypass: limits.bypass_cache,
                max_bytes: u64::MAX,
                max_pages: crate::config::FetchConfig::default().max_document_pages,
            };
            let bytes = page.bytes.unwrap_or_default();
            match reader
                .read(bytes, &page.content_type, deadline.into_std())
                .await
            {
                super::document::Outcome::Read(reading) => reading.markdown,
                _ => return Err(ErrorKind::UnsupportedContent),
            }
        }
    };
    if text.trim().is_empty() {
        // Nothing readable in the page's HTML (often a page built by
        // scripts): nothing to select passages from.
        return Err(ErrorKind::NoContent);
    }
    Ok(text)
}

/// Shares the budget by rank and picks each page's best passages. A page
/// gets `Ok(None)` when its share is too small for any text.
fn select_all(
    query: &str,
    texts: &[PageText],
    max_tokens: usize,
) -> Vec<Result<Option<(String, usize)>, ErrorKind>> {
    let available: Vec<usize> = texts
        .iter()
        .map(|t| t.as_ref().map_or(0, |text| estimate_tokens(text)))
        .collect();
    let shares = share_budget(max_tokens, &available);
    texts
        .iter()
        .zip(shares)
        .map(|(t, share)| match t {
            Err(kind) => Err(*kind),
            Ok(_) if share == 0 => Ok(None),
            Ok(text) => {
                let s = select_within_budget(query, text, share);
                Ok((!s.text.trim().is_empty()).then_some((s.text, s.tokens)))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::extracted::runs;

    #[tokio::test]
    async fn a_page_read_again_is_not_extracted_again() {
        let dir = tempfile::tempdir().unwrap();
        let (url, service) = crate::service::fetch::tests::served_article(80, dir.path()).await;
        let fetcher = service.inner.fetcher.clone().unwrap();
        let limits = DeepLimits {
            concurrency: 1,
            deadline: Duration::from_secs(30),
            max_tokens: 500,
            bypass_cache: false,
            document_ttl: Duration::from_secs(60),
        };
        let deadline = tokio::time::Instant::now() + limits.deadline;
        for _ in 0..2 {
            let text = read_page(&fetcher, service.cache(), &url, limits, deadline).await;
            assert!(text.unwrap().contains("Paragraph 79"));
        }
        assert_eq!(runs::count(&url), 1);
        let fresh = DeepLimits {
            bypass_cache: true,
            ..limits
        };
        read_page(&fetcher, service.cache(), &url, fresh, deadline)
            .await
            .unwrap();
        assert_eq!(runs::count(&url), 2);
    }

    #[test]
    fn the_budget_is_shared_and_kept() {
        let page = |topic: &str| {
            (0..50)
                .map(|i| format!("Paragraph {i} says something unrelated about {topic} and more."))
                .chain(["The lighthouse keeper lit the lamp at dusk every day.".to_owned()])
                .collect::<Vec<_>>()
                .join("\n\n")
        };
        let texts = vec![
            Ok(page("weather")),
            Err(ErrorKind::HttpStatus),
            Ok(page("ships")),
        ];
        let out = select_all("when did the keeper light the lamp", &texts, 300);
        let tokens: usize = out
            .iter()
            .filter_map(|o| o.as_ref().ok().and_then(|s| s.as_ref().map(|(_, t)| *t)))
            .sum();
        assert!(tokens <= 300, "{tokens}");
        assert_eq!(out[1], Err(ErrorKind::HttpStatus));
        for i in [0, 2] {
            let (text, _) = out[i].as_ref().unwrap().as_ref().unwrap();
            assert!(text.contains("lit the lamp"), "{text}");
            assert!(text.contains("[…]"), "{text}");
        }
    }
}
