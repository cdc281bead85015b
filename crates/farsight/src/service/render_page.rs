//! `render` (issue 14): when `web_fetch` runs a page's JavaScript in the
//! headless browser of `farsight-render`, and what the answer says about it.
//!
//! - `never`: the page's HTML as it came (its embedded state included: the
//!   extractor reads it without a browser).
//! - `auto` (the default): the static answer first; only when it holds almost
//!   nothing and the page shows it is built by scripts
//!   (`Shortfall::BuiltByScripts`, after the embedded state was tried) is
//!   the page rendered, and the rendered DOM extracted like any page. A
//!   browser that is missing or fails leaves the static answer, with a note
//!   saying why and how to enable rendering: never an error for that alone.
//! - `always`: every HTML page is rendered, after the static fetch has
//!   checked the URL against the guard and robots.txt (and found that it is
//!   HTML: a PDF or a feed is read as it is); no browser is an error answer.
//!
//! `[render].enabled = false` makes `auto` read pages as `never` does and
//! refuses `always`. The rendered document is cached apart from the static
//! one, keyed by the static page's text (`extracted.rs`), so a later window
//! of a rendered page starts no browser.

use std::time::{Duration, Instant};

use farsight_extract::{Document, ExtractOptions};
use farsight_net::Fetcher;
use farsight_render::{RenderError, RenderErrorKind, RenderSettings, Renderer};
use farsight_search::ErrorKind;

use super::Service;
use super::extract::extraction_deadline;
use super::extracted::DocumentCache;
use super::model::{FetchRequest, FetchResponse, RenderMode};
use crate::config::Config;

/// An unused browser is shut down after this long: an agent reading a site
/// calls every few seconds to a minute, and a browser kept for longer holds
/// a few hundred MB for nothing.
const BROWSER_IDLE: Duration = Duration::from_secs(120);

/// Time of the call kept back from the browser for extracting what it built
/// and answering.
const EXTRACT_RESERVE: Duration = Duration::from_secs(2);

/// With less time than this left, the browser is not started: a cold start
/// alone takes about a second.
const MIN_RENDER_TIME: Duration = Duration::from_secs(2);

/// What to do when no `RenderError` says (the interface leaves the
/// suggestion optional).
pub(crate) const INSTALL_HINT: &str = "Install Chromium (`apt-get install chromium` on Debian and \
     Ubuntu) or set [render].browser_path to a Chromium executable";

/// The renderer of a service: built from `[render]`, it sends everything
/// through `fetcher`'s egress and starts nothing until a page needs it.
pub(super) fn renderer(config: &Config, fetcher: &Fetcher) -> Renderer {
    let r = &config.render;
    Renderer::new(
        RenderSettings {
            browser_path: r.browser_path.clone(),
            max_tabs: r.max_tabs,
            timeout: r.timeout,
            idle_timeout: BROWSER_IDLE,
        },
        fetcher.clone(),
    )
}

/// What one call does about the page's scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Plan {
    /// Read the HTML as it came; `why` says, in the note of a script-built
    /// page, why it was not rendered.
    Static(Scripts),
    /// Render only a script-built shell.
    Auto,
    /// Render every HTML page.
    Always,
}

/// What became of a page's scripts, for the note of an answer that holds
/// almost nothing of a page built by them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scripts {
    /// A local file (`farsight extract`): there is nothing to render.
    Local,
    /// The call (or `[render].mode`) said `never`.
    NotAsked,
    /// `[render].enabled = false`.
    Off,
    /// `auto` would have rendered it; the note says why it could not.
    Failed,
    /// The content is the rendered DOM's.
    Rendered,
}

/// The first words of the note of a script-built page's answer.
const BUILT_BY_SCRIPTS: &str = "The page's HTML holds almost no content: the page is built by \
     JavaScript in the browser (an empty application shell).";
const TRY_ANOTHER_SOURCE: &str = "Try another source for the same information.";
const RENDERED_LITTLE: &str = "Even rendered in a browser (its JavaScript run), the page holds \
     almost no content. Try another source for the same information.";

impl Scripts {
    /// The note of a script-built page's answer; `failure` is what the
    /// browser said when it could not render it.
    pub(crate) fn note(self, failure: Option<&str>) -> String {
        let tail = match self {
            Self::Rendered => return RENDERED_LITTLE.to_owned(),
            Self::Local => TRY_ANOTHER_SOURCE.to_owned(),
            Self::NotAsked => "It was not rendered (render: \"never\"): pass render: \"auto\" to \
                 run its scripts in a browser, or try another source."
                .to_owned(),
            Self::Off => "Rendering is switched off in this farsight's configuration \
                 ([render].enabled = false). Try another source for the same information."
                .to_owned(),
            Self::Failed => failure.unwrap_or(TRY_ANOTHER_SOURCE).to_owned(),
        };
        format!("{BUILT_BY_SCRIPTS} {tail}")
    }
}

impl Service {
    /// The call's plan: its `render`, else `[render].mode`, as
    /// `[render].enabled` allows; `Err` is the answer of `always` when no
    /// page can be rendered (rendering off, no browser), given before
    /// anything is downloaded.
    pub(super) fn render_plan(&self, request: &FetchRequest) -> Result<Plan, Box<FetchResponse>> {
        let config = &self.inner.config.render;
        let mode = request.render.unwrap_or(config.mode);
        match (mode, config.enabled) {
            (RenderMode::Never, _) => Ok(Plan::Static(Scripts::NotAsked)),
            (RenderMode::Auto, false) => Ok(Plan::Static(Scripts::Off)),
            (RenderMode::Auto, true) => Ok(Plan::Auto),
            (RenderMode::Always, false) => Err(Box::new(FetchResponse::error(
                request.url.clone(),
                ErrorKind::Disabled,
                "render: \"always\" asks for a browser, and rendering is switched off in this \
                 farsight's configuration ([render].enabled = false)",
                "Call again with render: \"auto\" or \"never\", or set [render].enabled = true",
            ))),
            (RenderMode::Always, true) => {
                let renderer = self.inner.renderer.as_ref();
                match renderer.map(Renderer::browser) {
                    Some(Err(e)) => Err(Box::new(render_error_response(&request.url, &e))),
                    _ => Ok(Plan::Always),
                }
            }
        }
    }
}

/// Renders pages for one call.
pub(super) struct RenderStep<'a> {
    pub renderer: Option<&'a Renderer>,
    /// `[render].timeout_seconds`.
    pub timeout: Duration,
    pub plan: Plan,
}

impl RenderStep<'_> {
    /// The document of the page at `url` (whose static text hashes to
    /// `page_sha256`) as a browser builds it, extracted with `options`:
    /// from the cache when this page was rendered before, else rendered
    /// within what is left of the call.
    pub(super) async fn document(
        &self,
        url: &str,
        page_sha256: &str,
        options: ExtractOptions,
        documents: &DocumentCache<'_>,
        call_deadline: Instant,
    ) -> Result<Document, RenderError> {
        if let Some(doc) = documents.rendered(page_sha256, &options).await {
            tracing::debug!(url, "rendered document from the cache");
            return Ok(doc);
        }
        let Some(renderer) = self.renderer else {
            return Err(unavailable("web_fetch is disabled"));
        };
        let left = call_deadline
            .saturating_duration_since(Instant::now())
            .saturating_sub(EXTRACT_RESERVE);
        let budget = left.min(self.timeout);
        if budget < MIN_RENDER_TIME {
            return Err(RenderError {
                kind: RenderErrorKind::Timeout,
                message: "too little of the call's time was left to render the page".to_owned(),
                suggestion: Some("Raise [fetch].timeout_seconds".to_owned()),
            });
        }
        let started = Instant::now();
        let rendered = renderer.render(url, budget).await?;
        tracing::debug!(
            url,
            settled = rendered.settled,
            bytes = rendered.html.len(),
            ms = started.elapsed().as_millis() as u64,
            "rendered"
        );
        let options = options.deadline(extraction_deadline(call_deadline));
        // A DOM taken at the time limit is this call's, not the page's.
        Ok(documents
            .extract_rendered(page_sha256, rendered.html, options, rendered.settled)
            .await)
    }
}

fn unavailable(message: &str) -> RenderError {
    RenderError {
        kind: RenderErrorKind::Unavailable,
        message: message.to_owned(),
        suggestion: None,
    }
}

/// The note of an `auto` answer whose page could not be rendered: what
/// happened, and for a missing browser, how to get one.
pub(super) fn failure_note(e: &RenderError) -> String {
    let message = e.message.trim_end_matches('.');
    match e.kind {
        RenderErrorKind::Unavailable => format!(
            "Rendering it in a browser is unavailable ({message}). {}.",
            suggestion(e).trim_end_matches('.')
        ),
        _ => format!(
            "Rendering it in a browser failed ({message}); this is the page's HTML as it came."
        ),
    }
}

fn suggestion(e: &RenderError) -> &str {
    e.suggestion
        .as_deref()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or(INSTALL_HINT)
}

/// The error answer of a page that `render: "always"` could not render.
pub(super) fn render_error_response(url: &str, e: &RenderError) -> FetchResponse {
    let (kind, default_suggestion) = match e.kind {
        // No browser is a setup matter, as a provider without its key is.
        RenderErrorKind::Unavailable => (ErrorKind::NotConfigured, INSTALL_HINT),
        RenderErrorKind::Blocked => (
            ErrorKind::BlockedUrl,
            "The page needs an address farsight's guard refuses; it cannot be rendered",
        ),
        RenderErrorKind::Timeout => (
            ErrorKind::Timeout,
            "Retry, call with render: \"auto\" or \"never\", or raise [render].timeout_seconds",
        ),
        RenderErrorKind::Network => (
            ErrorKind::Network,
            "Retry later, or call with render: \"never\"",
        ),
        // The browser is restarted on the next call.
        RenderErrorKind::Browser => (
            ErrorKind::ServiceUnavailable,
            "Retry: the browser is started again on the next call",
        ),
        _ => (ErrorKind::Unknown, "Retry, or call with render: \"never\""),
    };
    let suggestion = e
        .suggestion
        .as_deref()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or(default_suggestion);
    FetchResponse::error(
        url,
        kind,
        format!("The page could not be rendered: {}", e.message),
        suggestion,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(kind: RenderErrorKind, suggestion: Option<&str>) -> RenderError {
        RenderError {
            kind,
            message: "no Chromium found on PATH".to_owned(),
            suggestion: suggestion.map(str::to_owned),
        }
    }

    #[test]
    fn a_missing_browser_is_a_note_with_the_install_step() {
        let note = failure_note(&error(RenderErrorKind::Unavailable, None));
        assert!(
            note.contains("unavailable (no Chromium found on PATH)"),
            "{note}"
        );
        assert!(note.contains("apt-get install chromium"), "{note}");
        let note = failure_note(&error(
            RenderErrorKind::Unavailable,
            Some("Install chromium."),
        ));
        assert!(note.ends_with("Install chromium."), "{note}");
        let note = failure_note(&error(RenderErrorKind::Timeout, Some("x")));
        assert!(
            note.contains("failed (no Chromium found on PATH)"),
            "{note}"
        );
    }

    #[test]
    fn always_without_a_browser_is_not_configured_with_a_suggestion() {
        let r = render_error_response("https://e.x/", &error(RenderErrorKind::Unavailable, None));
        assert_eq!(r.error_kind, Some(ErrorKind::NotConfigured));
        assert!(r.suggestion.unwrap().contains("apt-get install chromium"));
        assert_eq!(r.retryable, Some(false));
        let r = render_error_response("https://e.x/", &error(RenderErrorKind::Browser, None));
        assert_eq!(r.error_kind, Some(ErrorKind::ServiceUnavailable));
        assert_eq!(r.retryable, Some(true));
    }

    #[test]
    fn each_note_says_what_became_of_the_scripts() {
        assert!(Scripts::NotAsked.note(None).contains("render: \"auto\""));
        assert!(Scripts::Off.note(None).contains("[render].enabled = false"));
        assert!(Scripts::Failed.note(Some("Because.")).ends_with("Because."));
        assert_eq!(Scripts::Rendered.note(None), RENDERED_LITTLE);
        assert!(Scripts::Local.note(None).ends_with(TRY_ANOTHER_SOURCE));
    }
}
