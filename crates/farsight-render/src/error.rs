//! Why a page could not be rendered: a kind, a message and a suggestion.

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

impl RenderError {
    fn new(kind: RenderErrorKind, message: impl Into<String>, suggestion: &str) -> Self {
        Self {
            kind,
            message: message.into(),
            suggestion: Some(suggestion.to_owned()),
        }
    }

    pub(crate) fn unavailable(message: impl Into<String>) -> Self {
        Self::new(
            RenderErrorKind::Unavailable,
            message,
            "Install Chromium (`apt-get install chromium` on Debian/Ubuntu) or set \
             [render].browser_path to a Chromium or Chrome executable.",
        )
    }

    pub(crate) fn blocked(message: impl Into<String>) -> Self {
        Self::new(
            RenderErrorKind::Blocked,
            message,
            "Only public internet addresses can be fetched. To reach a local or intranet host \
             on purpose, add it to fetch.allow_hosts.",
        )
    }

    pub(crate) fn timeout(message: impl Into<String>) -> Self {
        Self::new(
            RenderErrorKind::Timeout,
            message,
            "The site is slow or not answering; try again later, or without rendering.",
        )
    }

    pub(crate) fn browser(message: impl Into<String>) -> Self {
        Self::new(
            RenderErrorKind::Browser,
            message,
            "Try again: the browser is restarted on the next page. Without rendering, the \
             static page is still available.",
        )
    }

    pub(crate) fn network(message: impl Into<String>) -> Self {
        Self::new(
            RenderErrorKind::Network,
            message,
            "Check that the URL is right and the site is up; try again later.",
        )
    }
}

/// A protocol failure as a `Browser` error, naming what was being done.
pub(crate) fn cdp(doing: &str) -> impl Fn(chromiumoxide::error::CdpError) -> RenderError + '_ {
    move |e| RenderError::browser(format!("the browser failed while {doing}: {e}"))
}
