//! Pages built by JavaScript: a headless Chromium that farsight starts on
//! first need, drives over the DevTools protocol, and sends every request
//! through its own guarded egress (a forward proxy on loopback, see
//! `farsight_net`), so the browser never resolves or connects by itself.
//!
//! - [`Renderer`] keeps one browser for all pages (started on the first,
//!   restarted if it died, shut down when idle), at most
//!   [`RenderSettings::max_tabs`] pages at once.
//! - Each page gets a fresh browser context whose proxy is a fresh egress
//!   proxy: its bytes, time and refusals are its own. Images, media and
//!   fonts are never requested; popups never open.
//! - A page is taken when it settled (no request in flight and the DOM
//!   still, for half a second, after the load event) or at its time bound
//!   ([`Rendered::settled`] says which).
//! - On these machines Chromium runs as root, which needs `--no-sandbox`;
//!   as any other user the sandbox stays on.
#![deny(missing_docs)]

mod discover;
mod error;
mod flags;
mod instance;
mod interception;
mod memory;
mod pool;
mod settle;
mod tab;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use farsight_net::Fetcher;

pub use error::{RenderError, RenderErrorKind};

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

/// The bounds every page is held to besides its time.
#[derive(Debug, Clone, Copy)]
pub struct PageBounds {
    /// Bytes through the page's egress proxy, both directions; past it the
    /// page's connections are cut.
    pub max_bytes: u64,
    /// Resident memory of the whole browser (all its processes) past which
    /// the page being rendered is stopped.
    pub max_browser_memory: u64,
}

impl Default for PageBounds {
    fn default() -> Self {
        Self {
            // A heavy page's HTML, scripts and styles stay far below this;
            // images, media and fonts are not fetched at all.
            max_bytes: 32 * 1024 * 1024,
            // A browser with a few tabs of ordinary pages uses a few hundred
            // MB; one page's JavaScript heap is capped far below this.
            max_browser_memory: 2 * 1024 * 1024 * 1024,
        }
    }
}

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
    pool: Arc<pool::Pool>,
}

impl Renderer {
    /// A renderer whose browser sends everything through `fetcher`'s
    /// egress (its guard, upstream proxy and caps). Starts nothing.
    #[must_use]
    pub fn new(settings: RenderSettings, fetcher: Fetcher) -> Self {
        Self::with_bounds(settings, PageBounds::default(), fetcher)
    }

    /// [`Renderer::new`] with other page bounds.
    #[must_use]
    pub fn with_bounds(settings: RenderSettings, bounds: PageBounds, fetcher: Fetcher) -> Self {
        Self {
            pool: Arc::new(pool::Pool::new(settings, bounds, fetcher)),
        }
    }

    /// Where the browser is, or why there is none (kind `Unavailable`,
    /// with a suggestion saying how to install or configure one).
    ///
    /// # Errors
    ///
    /// `Unavailable` when no browser is found.
    pub fn browser(&self) -> Result<PathBuf, RenderError> {
        self.pool.browser()
    }

    /// Loads `url` in a fresh tab, waits until it settles (bounded by
    /// `timeout` and the settings' timeout) and returns the DOM.
    ///
    /// # Errors
    ///
    /// A [`RenderError`] saying what went wrong.
    pub async fn render(&self, url: &str, timeout: Duration) -> Result<Rendered, RenderError> {
        self.pool.render(url, timeout).await
    }

    /// Closes the browser now (it starts again on the next page). Dropping
    /// the last clone of the renderer kills it too.
    pub async fn shutdown(&self) {
        self.pool.shutdown().await;
    }

    /// The running browser's process id, if one runs.
    pub async fn browser_pid(&self) -> Option<u32> {
        self.pool.pid().await
    }

    /// Resident memory of the running browser and all its processes, in
    /// bytes (Linux; `None` elsewhere or when none runs).
    pub async fn browser_memory(&self) -> Option<u64> {
        self.pool.memory().await
    }

    /// How many times a browser was started (a restart after a crash or an
    /// idle shutdown counts).
    #[must_use]
    pub fn launches(&self) -> usize {
        self.pool.launches()
    }
}
