//! Pages built by JavaScript: a headless Chromium that farsight starts on
//! first need, drives over the DevTools protocol, and sends every request
//! through its own guarded egress (a forward proxy on loopback, see
//! `farsight_net`), so the browser never resolves or connects by itself.
//!
//! API agreed between the browser work and the service wiring (issue 14);
//! the bodies are filled in by the browser work.
#![deny(missing_docs)]

use std::path::PathBuf;
use std::time::Duration;

use farsight_net::Fetcher;

/// `[render]` as the renderer needs it.
#[derive(Debug, Clone)]
pub struct RenderSettings {
    /// The browser executable; `None` looks for Chromium on `PATH` and in the
    /// usual places.
    pub browser_path: Option<PathBuf>,
    /// Pages rendered at once (tabs); more calls wait their turn.
    pub max_tabs: usize,
    /// The longest one page may take to render, start to settled DOM.
    pub timeout: Duration,
    /// The browser is shut down after this long without a page.
    pub idle_timeout: Duration,
}

/// Why a page could not be rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RenderErrorKind {
    /// No browser is installed (or the configured one does not start).
    Unavailable,
    /// The egress refused a URL the page needed for its main document.
    Blocked,
    /// The page did not load its main document in time.
    Timeout,
    /// The browser failed (crashed, closed the tab, the protocol failed).
    Browser,
    /// The main document could not be loaded (network, HTTP status).
    Network,
}

/// A failed render: a kind, a message and a suggestion.
#[derive(Debug, Clone)]
pub struct RenderError {
    /// What went wrong.
    pub kind: RenderErrorKind,
    /// What happened, in words.
    pub message: String,
    /// What to do about it.
    pub suggestion: Option<String>,
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RenderError {}

/// A rendered page.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The DOM after scripts ran, serialised as HTML.
    pub html: String,
    /// The page's URL after any navigation or redirect.
    pub url: String,
    /// Whether the page settled (network quiet, DOM still) before the
    /// timeout; `false` means the DOM was taken as it was at the limit.
    pub settled: bool,
}

/// Renders pages in one shared headless browser. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Renderer {
    settings: RenderSettings,
    fetcher: Fetcher,
}

impl Renderer {
    /// A renderer whose browser sends everything through `fetcher`'s
    /// egress (its guard, upstream proxy and caps). Starts nothing.
    #[must_use]
    pub fn new(settings: RenderSettings, fetcher: Fetcher) -> Self {
        Self { settings, fetcher }
    }

    /// Where the browser is, or why there is none (kind `Unavailable`,
    /// with a suggestion saying how to install or configure one).
    ///
    /// # Errors
    ///
    /// `Unavailable` when no browser is found.
    pub fn browser(&self) -> Result<PathBuf, RenderError> {
        let _ = (&self.settings, &self.fetcher);
        Err(RenderError {
            kind: RenderErrorKind::Unavailable,
            message: "rendering is not built yet".into(),
            suggestion: None,
        })
    }

    /// Loads `url` in a fresh tab, waits until it settles (bounded by
    /// `timeout` and the settings' timeout) and returns the DOM.
    ///
    /// # Errors
    ///
    /// A [`RenderError`] saying what went wrong.
    pub async fn render(&self, url: &str, timeout: Duration) -> Result<Rendered, RenderError> {
        let _ = (url, timeout);
        Err(self.browser().err().unwrap_or(RenderError {
            kind: RenderErrorKind::Unavailable,
            message: "rendering is not built yet".into(),
            suggestion: None,
        }))
    }
}
