//! `web_fetch`: one page, fetched safely, extracted, cut into a window.

use std::time::Instant;

use farsight_extract::{Document, ExtractOptions, Shortfall, TextDocument, TextKind};
use farsight_net::{FetchOptions, Fetcher, Page, PageKind};
use farsight_search::ErrorKind;

use super::document::DocumentReader;
use super::extract::{extract_document, extraction_deadline, read_text_document};
use super::extracted::{DocumentCache, page_sha256};
use super::markdown_source;
use super::model::{
    FetchLink, FetchMetadata, FetchRequest, FetchResponse, FetchSource, FetchStatus,
};
use super::render_page::{Plan, RenderStep, Scripts, failure_note, render_error_response};
use super::window::window;
use super::{CallOptions, Service};

const NO_MAIN_CONTENT: &str = "No main content was found in the page's HTML: it holds little \
     besides its title (a notice, a form, a heading alone). Try another source for the same \
     information.";
const PAYWALLED: &str = "Content appears to be behind a paywall";

impl Service {
    /// Fetches `request.url` and returns its readable content, or an error
    /// answer (`status: "error"`) that says what went wrong and what to do.
    /// Never fails otherwise: every problem is part of the answer.
    pub async fn web_fetch(&self, request: &FetchRequest, options: CallOptions) -> FetchResponse {
        let Some(fetcher) = &self.inner.fetcher else {
            return FetchResponse::error(
                request.url.clone(),
                ErrorKind::Disabled,
                "web_fetch is disabled in this farsight configuration",
                "Unset WEB_FETCH_ENABLED=false or set [fetch].enabled = true",
            );
        };
        if let Some(refusal) = invalid_selector(request) {
            return refusal;
        }
        let plan = match self.render_plan(request) {
            Ok(plan) => plan,
            Err(refusal) => return *refusal,
        };
        // The whole call, download, rendering and extraction, answers within
        // the fetch timeout.
        let call_deadline = Instant::now() + self.inner.config.fetch.timeout;
        let fetch_options = FetchOptions::new().bypass_cache(options.bypass_cache);
        // GitHub's file and repository pages: the raw file, when it answers.
        // Not for a URL the guard refuses: a blocked github.com stays
        // blocked, and the fetch below says why.
        let allowed = fetcher.check_url(&request.url).is_ok();
        let raw = if !allowed {
            None
        } else {
            markdown_source::github_raw(
                fetcher,
                &request.url,
                &self.inner.config.fetch.github_raw_base,
                &fetch_options,
                super::extract::extraction_deadline(call_deadline),
            )
            .await
        };
        let from_raw = raw.is_some();
        let fetched = match raw {
            Some(page) => Ok(page),
            None => fetcher.fetch(&request.url, &fetch_options).await,
        };
        match fetched {
            Ok(page) => {
                tracing::debug!(url = %page.url, from_cache = page.from_cache, bytes = page.text.len(), "fetched");
                let documents = DocumentCache {
                    cache: &self.inner.cache,
                    ttl: self.inner.config.cache.page_ttl,
                    bypass: options.bypass_cache,
                };
                let readers = DocumentReader {
                    cache: Some(&self.inner.cache),
                    ttl: self.inner.config.cache.page_ttl,
                    bypass: options.bypass_cache,
                    max_bytes: self.inner.config.fetch.max_document_bytes,
                    max_pages: self.inner.config.fetch.max_document_pages,
                };
                let render = RenderStep {
                    renderer: self.inner.renderer.as_ref(),
                    timeout: self.inner.config.render.timeout,
                    plan,
                };
                let call = Call {
                    request,
                    fetcher,
                    documents: &documents,
                    readers: &readers,
                    render: &render,
                    call_deadline,
                };
                let mut answer = page_response(page, &call).await;
                if from_raw && !answer.is_error() {
                    // The user's URL, read from its raw file.
                    answer.url.clone_from(&request.url);
                    answer.source = Some(FetchSource::Raw);
                }
                answer
            }
            Err(e) => net_error_response(&request.url, &e),
        }
    }
}

/// What one call reads a page with.
struct Call<'a> {
    request: &'a FetchRequest,
    fetcher: &'a Fetcher,
    documents: &'a DocumentCache<'a>,
    readers: &'a DocumentReader<'a>,
    render: &'a RenderStep<'a>,
    call_deadline: Instant,
}

/// The answer for a page that arrived. Its extracted document comes from the
/// cache when an earlier call (another window, a focus, another process)
/// extracted the same page the same way.
async fn page_response(page: Page, call: &Call<'_>) -> FetchResponse {
    let Call {
        request,
        fetcher,
        documents,
        readers,
        render,
        call_deadline,
    } = *call;
    match page.kind {
        PageKind::Document => {
            let outcome = readers
                .read(
                    page.bytes.unwrap_or_default(),
                    &page.content_type,
                    call_deadline,
                )
                .await;
            super::document::document_response(page.url, outcome, request)
        }
        PageKind::Html => {
            let base = extract_options(request, Some(&page.url));
            // The page the fetcher returned (and the guard and robots.txt
            // let through) is what a rendered document is kept under.
            let sha = matches!(render.plan, Plan::Auto | Plan::Always)
                .then(|| page_sha256(&page.text))
                .unwrap_or_default();
            if render.plan == Plan::Always {
                return match render
                    .document(&page.url, &sha, base, documents, call_deadline)
                    .await
                {
                    Ok(doc) => rendered_response(page.url, doc, request),
                    Err(e) => render_error_response(&page.url, &e),
                };
            }
            let options = base.clone().deadline(extraction_deadline(call_deadline));
            let doc = documents.extract(page.text, options).await;
            let deadline = extraction_deadline(call_deadline);
            if let Some(markdown) = markdown_source::alternate(
                fetcher,
                &page.url,
                &doc,
                request,
                documents.bypass,
                deadline,
            )
            .await
            {
                return alternate_response(page.url, markdown, doc, request, call_deadline).await;
            }
            let scripts = match render.plan {
                Plan::Static(scripts) => scripts,
                _ => Scripts::Failed,
            };
            let mut failure = None;
            if render.plan == Plan::Auto && doc.shortfall == Some(Shortfall::BuiltByScripts) {
                match render
                    .document(&page.url, &sha, base, documents, call_deadline)
                    .await
                {
                    Ok(rendered) => return rendered_response(page.url, rendered, request),
                    Err(e) => {
                        tracing::debug!(url = %page.url, kind = ?e.kind, "not rendered: {e}");
                        failure = Some(failure_note(&e));
                    }
                }
            }
            let notes = Notes {
                scripts,
                failure: failure.as_deref(),
            };
            document_response(page.url, doc, request, page.truncated, &notes)
        }
        PageKind::Text => text_page_response(page, request, call_deadline).await,
    }
}

/// The answer for a page that is text (Markdown, a feed, JSON, code...).
async fn text_page_response(
    page: Page,
    request: &FetchRequest,
    call_deadline: Instant,
) -> FetchResponse {
    let options =
        extract_options(request, Some(&page.url)).deadline(extraction_deadline(call_deadline));
    let read = read_text_document(page.text, page.content_type, options).await;
    text_response(page.url, read, request, page.truncated)
}

/// The answer for an HTML page at `url` read from the Markdown version it
/// links to: that Markdown, with the page's title and metadata (and its
/// structured data, which is the HTML page's).
async fn alternate_response(
    url: String,
    markdown: Page,
    doc: Document,
    request: &FetchRequest,
    call_deadline: Instant,
) -> FetchResponse {
    let text_request = FetchRequest {
        include_structured_data: false,
        ..request.clone()
    };
    let mut answer = text_page_response(markdown, &text_request, call_deadline).await;
    answer.url = url;
    answer.source = Some(FetchSource::Alternate);
    answer.title = doc.title;
    answer.metadata = Some(fetch_metadata(doc.metadata));
    if request.include_structured_data {
        answer.structured_data = Some(structured_value(doc.structured_data));
    }
    answer
}

/// Extraction of local HTML (`farsight extract`): the same answer as for a
/// fetched page, without the network.
pub(crate) async fn html_response(
    html: String,
    base_url: Option<&str>,
    request: &FetchRequest,
) -> FetchResponse {
    if let Some(refusal) = invalid_selector(request) {
        return refusal;
    }
    let doc = extract_document(html, extract_options(request, base_url)).await;
    let notes = Notes {
        scripts: Scripts::Local,
        failure: None,
    };
    document_response(
        base_url.unwrap_or_default().to_owned(),
        doc,
        request,
        false,
        &notes,
    )
}

/// The answer for the document of a rendered page.
fn rendered_response(url: String, doc: Document, request: &FetchRequest) -> FetchResponse {
    let notes = Notes {
        scripts: Scripts::Rendered,
        failure: None,
    };
    let mut answer = document_response(url, doc, request, false, &notes);
    answer.rendered = Some(true);
    answer
}

/// What an answer's notes say about the page's scripts, should it hold
/// almost nothing of a page built by them.
struct Notes<'a> {
    scripts: Scripts,
    /// Why the browser could not render it (`auto`).
    failure: Option<&'a str>,
}

/// Reading a local document (`farsight extract FILE.pdf`): the same answer as
/// for a fetched one, with the default bounds and no cache.
pub(crate) async fn local_document_response(
    bytes: Vec<u8>,
    request: &FetchRequest,
) -> FetchResponse {
    let defaults = crate::config::FetchConfig::default();
    let readers = DocumentReader {
        cache: None,
        ttl: std::time::Duration::ZERO,
        bypass: true,
        max_bytes: defaults.max_document_bytes,
        max_pages: defaults.max_document_pages,
    };
    let outcome = readers
        .read(bytes, "", Instant::now() + defaults.timeout)
        .await;
    super::document::document_response(request.url.clone(), outcome, request)
}

/// The error answer for a selector that cannot be parsed, before anything is
/// downloaded: returning the main content instead would look like success.
pub(super) fn invalid_selector(request: &FetchRequest) -> Option<FetchResponse> {
    let selector = request
        .selector
        .as_deref()
        .filter(|s| !s.trim().is_empty())?;
    let e = farsight_extract::check_selector(selector).err()?;
    Some(FetchResponse {
        selector: Some(selector.to_owned()),
        ..FetchResponse::error(
            request.url.clone(),
            ErrorKind::InvalidArgument,
            e.to_string(),
            "Fix the CSS selector (e.g. \".infobox\", \"#main > p\", \"table.prices\"), or leave it out for the main content.",
        )
    })
}

fn extract_options(request: &FetchRequest, base_url: Option<&str>) -> ExtractOptions {
    let mut o = ExtractOptions::new(request.format.into())
        .include_links(request.include_links)
        .include_images(request.include_images)
        .include_structured_data(request.include_structured_data);
    if let Some(url) = base_url.filter(|u| !u.is_empty()) {
        o = o.base_url(url);
    }
    if let Some(selector) = request.selector.as_deref().filter(|s| !s.trim().is_empty()) {
        o = o.selector(selector);
    }
    o
}

fn document_response(
    url: String,
    doc: Document,
    request: &FetchRequest,
    page_truncated: bool,
    scripts: &Notes<'_>,
) -> FetchResponse {
    let mut notes = Vec::new();
    let mut status = FetchStatus::Success;
    if doc.timed_out && doc.content.trim().is_empty() {
        return FetchResponse {
            title: doc.title,
            ..FetchResponse::error(
                url,
                ErrorKind::Timeout,
                "Reading the page took longer than the call's timeout",
                "Ask for a part of the page with a selector, try a lighter version of it, or \
                 raise [fetch].timeout_seconds",
            )
        };
    }
    if doc.timed_out {
        status = FetchStatus::Partial;
        notes.push(
            "Reading the page ran out of time (the call's timeout): this is the part read by \
             then, possibly without the page's main content chosen."
                .to_owned(),
        );
    }
    if doc.content.trim().is_empty() {
        if page_truncated {
            return FetchResponse {
                title: doc.title,
                ..FetchResponse::error(
                    url,
                    ErrorKind::TooLarge,
                    "The page is larger than the download limit and nothing readable arrived \
                     before the cut",
                    "Look for a lighter version of the page (a print view, an article URL, an \
                     API), or raise [fetch].max_bytes",
                )
            };
        }
        status = FetchStatus::Partial;
        notes.push(shortfall_note(doc.shortfall, scripts));
    } else if doc.paywalled {
        status = FetchStatus::Partial;
        notes.push(PAYWALLED.to_owned());
    } else if doc.shortfall.is_some() {
        status = FetchStatus::Partial;
        notes.push(shortfall_note(doc.shortfall, scripts));
    }
    if let Some(selector) = &request.selector {
        match (&doc.selector_error, doc.selector_matched) {
            (Some(err), _) => notes.push(format!(
                "The selector {selector:?} is not valid CSS ({err}); the main content is returned instead."
            )),
            (None, Some(false)) => notes.push(format!(
                "The selector {selector:?} matched nothing; the main content is returned instead."
            )),
            _ => {}
        }
    }
    let selector_matched = request
        .selector
        .as_ref()
        .map(|_| doc.selector_matched == Some(true));
    let mut response = windowed(
        url,
        &doc.content,
        request,
        page_truncated,
        &mut status,
        &mut notes,
    );
    response.title = doc.title;
    response.metadata = Some(fetch_metadata(doc.metadata));
    response.links = request.include_links.then(|| fetch_links(doc.links));
    if request.include_structured_data {
        response.structured_data = Some(structured_value(doc.structured_data));
    }
    if doc.embedded_state {
        response.source = Some(FetchSource::EmbeddedState);
    }
    response.selector = request.selector.clone();
    response.selector_matched = selector_matched;
    response.status = status;
    response.message = (!notes.is_empty()).then(|| notes.join(" "));
    response
}

/// Why an answer holds almost nothing, as the extractor found it; an empty
/// answer it gave no reason for (a selector's empty matches, a failed
/// extraction) has no main content either. A rendered page's DOM still
/// shows its scripts: its note says it was rendered.
fn shortfall_note(shortfall: Option<Shortfall>, notes: &Notes<'_>) -> String {
    match shortfall {
        _ if notes.scripts == Scripts::Rendered => Scripts::Rendered.note(None),
        Some(Shortfall::BuiltByScripts) => notes.scripts.note(notes.failure),
        _ => NO_MAIN_CONTENT.to_owned(),
    }
}

fn fetch_metadata(m: farsight_extract::Metadata) -> FetchMetadata {
    FetchMetadata {
        description: m.description,
        author: m.author,
        date_published: m.date_published,
        site_name: m.site_name,
        site_url: m.site_url,
    }
}

fn fetch_links(links: Vec<farsight_extract::Link>) -> Vec<FetchLink> {
    links
        .into_iter()
        .map(|l| FetchLink {
            text: l.text,
            url: l.url,
        })
        .collect()
}

/// The answer's `structuredData`: what the page has, `{}` when it has none
/// (asked for and absent is an answer too).
fn structured_value(data: Option<farsight_extract::StructuredData>) -> serde_json::Value {
    serde_json::to_value(data.unwrap_or_default())
        .unwrap_or_else(|_| serde_json::Value::Object(serde_json::Map::new()))
}

/// The answer for a page that is text: a feed's items, pretty JSON,
/// Markdown without HTML, fenced source code, or the text as it came.
fn text_response(
    url: String,
    read: TextDocument,
    request: &FetchRequest,
    page_truncated: bool,
) -> FetchResponse {
    let mut notes = Vec::new();
    let mut status = FetchStatus::Success;
    if request.selector.is_some() {
        notes.push(
            "This page is not HTML, so the selector does not apply; the whole text is returned."
                .to_owned(),
        );
    }
    if request.include_structured_data {
        notes.push(
            "This page is not HTML: it has no JSON-LD or OpenGraph to return as structured data."
                .to_owned(),
        );
    }
    let doc = read.document;
    let mut response = windowed(
        url,
        &doc.content,
        request,
        page_truncated,
        &mut status,
        &mut notes,
    );
    if read.kind == TextKind::Markdown {
        response.source = Some(FetchSource::Markdown);
    }
    if read.kind == TextKind::Feed {
        response.title = doc.title;
        response.metadata = Some(fetch_metadata(doc.metadata));
        response.links = request.include_links.then(|| fetch_links(doc.links));
    }
    response.selector = request.selector.clone();
    response.selector_matched = request.selector.as_ref().map(|_| false);
    response.status = status;
    response.message = (!notes.is_empty()).then(|| notes.join(" "));
    response
}

/// Cuts `content` to the requested window and fills the content fields.
pub(super) fn windowed(
    url: String,
    content: &str,
    request: &FetchRequest,
    page_truncated: bool,
    status: &mut FetchStatus,
    notes: &mut Vec<String>,
) -> FetchResponse {
    if let Some(focus) = request.focus.as_deref().filter(|f| !f.trim().is_empty()) {
        return super::focus::focused_response(
            url,
            content,
            focus,
            request,
            page_truncated,
            status,
            notes,
        );
    }
    let w = window(content, request.start_index, request.max_length);
    if request.start_index > 0 && request.start_index >= w.total {
        notes.push(format!(
            "startIndex {} is past the end of the content ({} characters).",
            request.start_index, w.total
        ));
    }
    if page_truncated {
        *status = FetchStatus::Partial;
        notes.push(
            "The page is larger than the download limit; only its beginning was read.".to_owned(),
        );
    }
    FetchResponse {
        url,
        status: *status,
        content: Some(w.text.to_owned()),
        content_length: Some(w.total),
        truncated: Some(w.next.is_some() || page_truncated),
        next_start_index: w.next,
        ..FetchResponse::default()
    }
}

/// The error answer for a fetch that failed.
fn net_error_response(url: &str, e: &farsight_net::Error) -> FetchResponse {
    FetchResponse {
        url: url.to_owned(),
        status: FetchStatus::Error,
        error_kind: Some(e.kind().into()),
        error_code: e.status(),
        message: Some(e.message().to_owned()),
        suggestion: e.suggestion().map(str::to_owned),
        retryable: Some(e.is_retryable()),
        retry_after_ms: e.retry_after_ms(),
        ..FetchResponse::default()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    const NEVER: Notes<'static> = Notes {
        scripts: Scripts::NotAsked,
        failure: None,
    };

    fn doc(content: &str) -> Document {
        Document {
            title: Some("T".to_owned()),
            content: content.to_owned(),
            ..Document::default()
        }
    }

    /// A local page of `n` paragraphs, and a service whose cache is in `dir`.
    pub(crate) async fn served_article(n: usize, dir: &std::path::Path) -> (String, Service) {
        let body: String = (0..n)
            .map(|i| format!("<p>Paragraph {i} is about tides and harbours and ships.</p>"))
            .collect();
        let html = format!(
            "<html><head><title>Tides</title></head><body><article><h1>Tides</h1>{body}\
             </article></body></html>"
        );
        let app = axum::Router::new().route(
            "/page",
            axum::routing::get(move || {
                let html = html.clone();
                async move { axum::response::Html(html) }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        let toml = format!(
            "[fetch]\nallow_hosts = [\"127.0.0.1\"]\n[cache]\ndir = {:?}\n",
            dir.display().to_string()
        );
        let raw = crate::config::RawConfig::from_toml(&toml).unwrap();
        let service = Service::new(crate::Config::resolve(raw).unwrap()).unwrap();
        (format!("http://{addr}/page"), service)
    }

    /// Reading on with `startIndex` and asking with a focus use the cached
    /// document: the extractor runs once for the page (issue 10).
    #[tokio::test]
    async fn later_windows_and_focus_do_not_extract_again() {
        let dir = tempfile::tempdir().unwrap();
        let (url, service) = served_article(200, dir.path()).await;
        let mut req = FetchRequest::new(&url);
        req.max_length = 1000;
        let first = service.web_fetch(&req, CallOptions::default()).await;
        assert_eq!(first.status, FetchStatus::Success, "{first:?}");
        req.start_index = first.next_start_index.unwrap();
        let second = service.web_fetch(&req, CallOptions::default()).await;
        assert_ne!(second.content, first.content);
        assert!(
            second.content.as_deref().unwrap().starts_with("Paragraph"),
            "{second:?}"
        );
        req.start_index = 0;
        req.focus = Some("Paragraph 150".to_owned());
        let focused = service.web_fetch(&req, CallOptions::default()).await;
        assert!(
            focused
                .content
                .as_deref()
                .unwrap()
                .contains("Paragraph 150 "),
            "{focused:?}"
        );
        assert_eq!(crate::service::extracted::runs::count(&url), 1);

        // Another format is another document; --no-cache extracts again.
        req.focus = None;
        req.format = crate::FetchFormat::Text;
        service.web_fetch(&req, CallOptions::default()).await;
        assert_eq!(crate::service::extracted::runs::count(&url), 2);
        service
            .web_fetch(&req, CallOptions::default().bypass_cache(true))
            .await;
        assert_eq!(crate::service::extracted::runs::count(&url), 3);
    }

    // Issue 12: every empty answer claimed the page needed JavaScript, and
    // almost no content was a success.
    #[test]
    fn almost_no_content_is_partial_with_the_extractors_reason() {
        let with = |content: &str, why: Option<Shortfall>| {
            let mut d = doc(content);
            d.shortfall = why;
            document_response("u".into(), d, &FetchRequest::new("u"), false, &NEVER)
        };
        let r = with("", Some(Shortfall::BuiltByScripts));
        assert_eq!(r.status, FetchStatus::Partial);
        assert_eq!(r.message, Some(Scripts::NotAsked.note(None)));
        for (content, why) in [
            (" ", None),
            ("", Some(Shortfall::NoMainContent)),
            (
                "Please update your browser.",
                Some(Shortfall::NoMainContent),
            ),
        ] {
            let r = with(content, why);
            assert_eq!(r.status, FetchStatus::Partial, "{content:?}");
            let m = r.message.unwrap();
            assert_eq!(m, NO_MAIN_CONTENT);
            assert!(!m.contains("JavaScript"), "{m}");
        }
        let r = with(
            "Please update your browser.",
            Some(Shortfall::BuiltByScripts),
        );
        assert_eq!(r.content.as_deref(), Some("Please update your browser."));
        assert_eq!(r.message, Some(Scripts::NotAsked.note(None)));
        assert_eq!(
            with("A page of content.", None).status,
            FetchStatus::Success
        );
    }

    #[test]
    fn empty_content_of_a_cut_page_is_too_large() {
        let r = document_response("u".into(), doc(""), &FetchRequest::new("u"), true, &NEVER);
        assert_eq!(r.status, FetchStatus::Error);
        assert_eq!(r.error_kind, Some(ErrorKind::TooLarge));
    }

    #[test]
    fn paywall_is_partial() {
        let mut d = doc("Subscribe to read");
        d.paywalled = true;
        let r = document_response("u".into(), d, &FetchRequest::new("u"), false, &NEVER);
        assert_eq!(r.status, FetchStatus::Partial);
        assert_eq!(r.message.as_deref(), Some(PAYWALLED));
    }

    #[test]
    fn a_cut_page_is_marked_truncated_with_a_message() {
        let r = document_response(
            "u".into(),
            doc("Some text"),
            &FetchRequest::new("u"),
            true,
            &NEVER,
        );
        assert_eq!(r.truncated, Some(true));
        assert_eq!(r.next_start_index, None);
        assert!(r.message.unwrap().contains("download limit"));
    }

    #[test]
    fn an_invalid_selector_is_an_error_answer_naming_it() {
        let mut req = FetchRequest::new("https://e.x/");
        req.selector = Some("div[".to_owned());
        let r = invalid_selector(&req).expect("refused");
        assert_eq!(r.status, FetchStatus::Error);
        assert_eq!(r.error_kind, Some(ErrorKind::InvalidArgument));
        let m = r.message.unwrap();
        assert!(
            m.starts_with("\"div[\" is not a valid CSS selector: "),
            "{m}"
        );
        req.selector = Some("div.ok".to_owned());
        assert!(invalid_selector(&req).is_none());
    }

    #[test]
    fn unmatched_selector_says_so() {
        let mut req = FetchRequest::new("u");
        req.selector = Some(".nope".to_owned());
        let mut d = doc("main");
        d.selector_matched = Some(false);
        let r = document_response("u".into(), d, &req, false, &NEVER);
        assert_eq!(r.selector_matched, Some(false));
        assert_eq!(r.selector.as_deref(), Some(".nope"));
        assert!(r.message.unwrap().contains("matched nothing"));
    }
}
