//! `web_fetch` with `urls`: several pages in one call, each read by
//! [`Service::web_fetch`] (the one fetch pipeline), in parallel within limits.
//!
//! The limits, and why:
//! - One request at a time per host (`host:port`, the unit a server's limits
//!   and robots.txt apply to; two ports of one machine are two servers). The
//!   lock map lives for ONE call, not for the process: it is what stops a call
//!   from sending ten requests at once to one site, while calls of other
//!   agents stay independent (a process-wide lock would let one agent's slow
//!   page hold up another's, and single-page calls were never serialised), and
//!   the map dies with the call instead of growing with every host ever seen.
//!   A redirect to another host is not counted against that host.
//! - At most `[fetch].max_parallel` pages in flight for the call.
//! - Each page has the deadline a single call has (`[fetch].timeout_seconds`,
//!   counted from when its turn comes); the call as a whole ends at
//!   [`CALL_BOUND_FACTOR`] times that, and a page not answered by then
//!   (still queued behind a slow page of its host, or still reading) answers
//!   `timeout` alone while the others keep their answers.
//! - `maxLength` is per page, and the pages together hold at most
//!   [`MAX_TOTAL_LENGTH`] characters: ten pages at the default window would
//!   be 100,000 characters in an agent's context.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use farsight_search::ErrorKind;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use super::fetch::invalid_selector;
use super::model::{FetchManyResponse, FetchRequest, FetchResponse};
use super::{CallOptions, Service};

/// The most URLs in one call: more is a crawl, not a read.
pub const MAX_URLS: usize = 10;

/// Characters of content in one answer, all pages together: four pages at the
/// default window of 10,000, about 10,000 tokens. With more pages each
/// page's window shrinks to its share (`MAX_TOTAL_LENGTH / pages`).
pub const MAX_TOTAL_LENGTH: usize = 40_000;

/// The whole call ends at this many times `[fetch].timeout_seconds` (45 s by
/// default): room for a page queued behind one slow page of its host, and
/// under the 60 s after which the common MCP clients give up on a call.
const CALL_BOUND_FACTOR: f64 = 1.5;

impl Service {
    /// Reads every page of `request.urls`, each as [`Service::web_fetch`]
    /// reads one page with the same arguments, and answers them in order.
    /// One page failing never fails the others.
    ///
    /// # Errors
    ///
    /// The refusal of the whole call, before anything is downloaded: `url`
    /// and `urls` both given or neither, more than [`MAX_URLS`] URLs, one of
    /// them not an http(s) URL (named by its position), or a selector that
    /// is not CSS.
    pub async fn web_fetch_many(
        &self,
        request: &FetchRequest,
        options: CallOptions,
    ) -> Result<FetchManyResponse, FetchResponse> {
        let targets = check_urls(request).map_err(|refusal| *refusal)?;
        if let Some(refusal) = invalid_selector(request) {
            return Err(refusal);
        }
        let pages = targets.len();
        let share = (MAX_TOTAL_LENGTH / pages).max(1);
        let mut page_request = request.clone();
        page_request.urls.clear();
        let message = (request.max_length > share).then(|| {
            format!(
                "maxLength was lowered to {share} characters per page so that {pages} pages \
                 fit in {MAX_TOTAL_LENGTH}; read on in a page with its url and startIndex = \
                 nextStartIndex."
            )
        });
        page_request.max_length = request.max_length.min(share);

        let fetch = &self.inner.config.fetch;
        let permits = Arc::new(Semaphore::new(fetch.max_parallel.max(1)));
        let mut host_locks: HashMap<&str, Arc<Semaphore>> = HashMap::new();
        for t in &targets {
            host_locks
                .entry(t.host.as_str())
                .or_insert_with(|| Arc::new(Semaphore::new(1)));
        }
        let started: Arc<Vec<AtomicBool>> =
            Arc::new((0..pages).map(|_| AtomicBool::new(false)).collect());
        let deadline = tokio::time::Instant::now() + fetch.timeout.mul_f64(CALL_BOUND_FACTOR);

        let mut tasks = JoinSet::new();
        let mut task_page = HashMap::new();
        for (i, target) in targets.iter().enumerate() {
            let mut one = page_request.clone();
            one.url.clone_from(&target.url);
            let host_lock = host_locks[target.host.as_str()].clone();
            let permits = permits.clone();
            let started = started.clone();
            let service = self.clone();
            let task = tasks.spawn(async move {
                // The host first, then a slot: a page waiting for its host
                // holds no slot that a page of another host could use. The
                // semaphores are never closed, so acquiring only waits.
                let _host = host_lock.acquire_owned().await;
                let _slot = permits.acquire_owned().await;
                started[i].store(true, Ordering::Relaxed);
                (i, service.web_fetch(&one, options).await)
            });
            task_page.insert(task.id(), i);
        }

        let mut answers: Vec<Option<FetchResponse>> = vec![None; pages];
        loop {
            match tokio::time::timeout_at(deadline, tasks.join_next()).await {
                Ok(Some(Ok((i, answer)))) => answers[i] = Some(answer),
                Ok(Some(Err(e))) => {
                    tracing::error!("a web_fetch page task failed: {e}");
                    if let Some(&i) = task_page.get(&e.id()) {
                        answers[i] = Some(FetchResponse::error(
                            targets[i].url.clone(),
                            ErrorKind::Unknown,
                            "farsight failed while reading this page",
                            "Fetch this URL alone (url); if it fails again, report it",
                        ));
                    }
                }
                Ok(None) => break,
                Err(_) => {
                    tracing::debug!(
                        unanswered = tasks.len(),
                        "web_fetch call bound reached; the slow pages answer timeout"
                    );
                    tasks.abort_all();
                    break;
                }
            }
        }
        let bound = fetch.timeout.mul_f64(CALL_BOUND_FACTOR).as_secs();
        let results = answers
            .into_iter()
            .enumerate()
            .map(|(i, answer)| {
                answer.unwrap_or_else(|| {
                    unanswered(&targets[i].url, started[i].load(Ordering::Relaxed), bound)
                })
            })
            .collect();
        Ok(FetchManyResponse::new(results, message))
    }
}

/// The answer of a page the call's bound cut off.
fn unanswered(url: &str, started: bool, bound_secs: u64) -> FetchResponse {
    let what = if started {
        "The page was still being read"
    } else {
        "The page was still waiting for its turn (one request at a time per host)"
    };
    FetchResponse::error(
        url,
        ErrorKind::Timeout,
        format!("{what} when the call reached its time limit ({bound_secs} s for all pages)"),
        "Fetch this URL alone (url), or fewer URLs of the same site in one call",
    )
}

/// A page to read and the host it counts against.
#[derive(Debug)]
struct Target {
    url: String,
    host: String,
}

/// The pages of `request.urls` (or its `url` alone), in order, or the
/// refusal that names what is wrong with the arguments (boxed: it is a
/// whole answer, and the caller returns it as it is).
fn check_urls(request: &FetchRequest) -> Result<Vec<Target>, Box<FetchResponse>> {
    let refuse = |kind, message: String, suggestion: &str| {
        Err(Box::new(FetchResponse::error(
            String::new(),
            kind,
            message,
            suggestion,
        )))
    };
    let has_url = !request.url.trim().is_empty();
    let n = request.urls.len();
    if !has_url && n == 0 {
        return refuse(
            ErrorKind::InvalidArgument,
            "`url` or `urls` is required".to_owned(),
            "Pass the page's address as url, or several (at most 10) as urls.",
        );
    }
    if has_url && n > 0 {
        return refuse(
            ErrorKind::InvalidArgument,
            "`url` and `urls` were both given; pass one of them".to_owned(),
            "Put every address in urls, or pass one page as url.",
        );
    }
    if n > MAX_URLS {
        return refuse(
            ErrorKind::InvalidArgument,
            format!("`urls` holds {n} URLs; at most {MAX_URLS} are read in one call"),
            "Split the URLs over several calls of at most 10.",
        );
    }
    // `url` alone is a list of one.
    let targets: Vec<(String, &str)> = if n == 0 {
        vec![("url".to_owned(), request.url.as_str())]
    } else {
        let named = request.urls.iter().enumerate();
        named
            .map(|(i, u)| (format!("urls[{i}]"), u.as_str()))
            .collect()
    };
    let mut pages = Vec::with_capacity(targets.len());
    for (name, raw) in targets {
        let Some(host) = host_key(raw) else {
            return refuse(
                ErrorKind::InvalidUrl,
                format!("`{name}` is not an absolute http(s) URL: {}", shown(raw)),
                "Fix that entry (like https://example.com/page), or leave it out.",
            );
        };
        pages.push(Target {
            url: raw.trim().to_owned(),
            host,
        });
    }
    Ok(pages)
}

/// `host:port` of an absolute http(s) URL (the default port filled in), or
/// `None` for anything else.
fn host_key(raw: &str) -> Option<String> {
    let url = url::Url::parse(raw.trim()).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    let host = url.host_str().filter(|h| !h.is_empty())?;
    Some(format!("{host}:{}", url.port_or_known_default()?))
}

/// An argument as a refusal quotes it: never the whole of a long one.
fn shown(raw: &str) -> String {
    let quoted = format!("{raw:?}");
    if quoted.chars().count() <= 80 {
        return quoted;
    }
    let cut: String = quoted.chars().take(77).collect();
    format!("{cut}...")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::FetchStatus;

    fn many(urls: &[&str]) -> FetchRequest {
        let mut r = FetchRequest::new("");
        r.urls = urls.iter().map(|u| (*u).to_owned()).collect();
        r
    }

    #[test]
    fn the_host_is_host_and_port() {
        assert_eq!(
            host_key("https://Example.com/a").as_deref(),
            Some("example.com:443")
        );
        assert_eq!(
            host_key("http://example.com:80/b").as_deref(),
            Some("example.com:80")
        );
        assert_eq!(
            host_key("http://127.0.0.1:8080/").as_deref(),
            Some("127.0.0.1:8080")
        );
        assert_eq!(host_key("mailto:a@example.com"), None);
        assert_eq!(host_key("example.com/page"), None);
        assert_eq!(host_key("file:///etc/passwd"), None);
    }

    #[test]
    fn the_arguments_are_checked_and_the_wrong_one_named() {
        let refused = |r: &FetchRequest| check_urls(r).unwrap_err();
        let e = refused(&many(&[]));
        assert_eq!(e.error_kind, Some(ErrorKind::InvalidArgument));
        assert!(e.message.unwrap().contains("`url` or `urls` is required"));

        let mut both = many(&["https://a.example/"]);
        both.url = "https://b.example/".to_owned();
        let e = refused(&both);
        assert_eq!(e.error_kind, Some(ErrorKind::InvalidArgument));
        assert!(e.message.unwrap().contains("both"));

        let eleven: Vec<String> = (0..11).map(|i| format!("https://e.x/{i}")).collect();
        let refs: Vec<&str> = eleven.iter().map(String::as_str).collect();
        let e = refused(&many(&refs));
        assert!(e.message.unwrap().contains("holds 11 URLs"), "11");
        assert_eq!(
            check_urls(&many(&refs[..10])).map(|t| t.len()).ok(),
            Some(10)
        );
        let alone = check_urls(&FetchRequest::new(" https://e.x/a "))
            .ok()
            .unwrap();
        assert_eq!(
            (alone[0].url.as_str(), alone[0].host.as_str()),
            ("https://e.x/a", "e.x:443")
        );

        let e = refused(&many(&["https://a.example/", "not a url"]));
        assert_eq!(e.error_kind, Some(ErrorKind::InvalidUrl));
        assert_eq!(
            e.message.as_deref(),
            Some("`urls[1]` is not an absolute http(s) URL: \"not a url\"")
        );
        assert_eq!(e.status, FetchStatus::Error);
    }

    #[test]
    fn the_status_of_many_summarises_the_pages() {
        let ok = FetchResponse::default();
        let partial = FetchResponse {
            status: FetchStatus::Partial,
            ..FetchResponse::default()
        };
        let failed = FetchResponse::error("u", ErrorKind::Timeout, "m", "s");
        let status = |rs: Vec<FetchResponse>| FetchManyResponse::new(rs, None).status;
        assert_eq!(status(vec![ok.clone(), ok.clone()]), FetchStatus::Success);
        assert_eq!(status(vec![ok.clone(), partial]), FetchStatus::Partial);
        assert_eq!(status(vec![ok, failed.clone()]), FetchStatus::Partial);
        let all_failed = FetchManyResponse::new(vec![failed.clone(), failed], None);
        assert_eq!(all_failed.status, FetchStatus::Error);
        assert!(all_failed.message.unwrap().contains("None of the 2 pages"));
        assert!(all_failed.suggestion.is_some());
    }
}
