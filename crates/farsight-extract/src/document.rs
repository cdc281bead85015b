//! What extraction takes and gives.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::StructuredData;

/// The output format of the content.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// GitHub-flavoured Markdown.
    #[default]
    Markdown,
    /// Plain text, blocks separated by blank lines.
    Text,
    /// Sanitised HTML: no scripts, styles, iframes, forms, event attributes,
    /// `javascript:` or `data:` URLs.
    Html,
}

/// How to extract.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExtractOptions {
    /// The page's URL, to make links absolute and to read the site's name.
    pub base_url: Option<String>,
    /// The content's format. Default: Markdown.
    pub format: Format,
    /// A CSS selector: every match, in document order, instead of the main content.
    pub selector: Option<String>,
    /// Collect the page's links. Default: false here; `web_fetch` asks for them.
    pub include_links: bool,
    /// Keep images (`![alt](url)` in Markdown). Default: false.
    pub include_images: bool,
    /// The main-content engine. Default: [`Engine::Auto`].
    pub engine: Engine,
    /// When extraction must end: past it, the stages not yet run are left
    /// out and rendering stops, and the result says so
    /// ([`Document::timed_out`]). Default: none.
    pub deadline: Option<Instant>,
    /// Read the page's JSON-LD and OpenGraph into
    /// [`Document::structured_data`]. Default: false.
    pub include_structured_data: bool,
}

/// Which main-content engine to use; the choices exist to compare them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// The best combination measured (see the crate README).
    #[default]
    Auto,
    /// dom_smoothie, a Readability.js port.
    Readability,
    /// farsight's own linear text-density engine.
    Density,
}

impl ExtractOptions {
    /// Options for `format` with everything else at its default.
    pub fn new(format: Format) -> Self {
        Self {
            format,
            ..Self::default()
        }
    }

    /// Sets the page's URL.
    #[must_use]
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = Some(url.into());
        self
    }

    /// Sets a CSS selector.
    #[must_use]
    pub fn selector(mut self, selector: impl Into<String>) -> Self {
        self.selector = Some(selector.into());
        self
    }

    /// Collects links when true.
    #[must_use]
    pub fn include_links(mut self, yes: bool) -> Self {
        self.include_links = yes;
        self
    }

    /// Chooses the main-content engine.
    #[must_use]
    pub fn engine(mut self, engine: Engine) -> Self {
        self.engine = engine;
        self
    }

    /// Sets when extraction must end (see [`ExtractOptions::deadline`]).
    #[must_use]
    pub fn deadline(mut self, at: Instant) -> Self {
        self.deadline = Some(at);
        self
    }

    /// Keeps images when true.
    #[must_use]
    pub fn include_images(mut self, yes: bool) -> Self {
        self.include_images = yes;
        self
    }

    /// Reads the page's structured data when true.
    #[must_use]
    pub fn include_structured_data(mut self, yes: bool) -> Self {
        self.include_structured_data = yes;
        self
    }
}

/// Facts about the page, from JSON-LD, OpenGraph, `<meta>` and `<time>`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    /// The page's description.
    pub description: Option<String>,
    /// The author or authors.
    pub author: Option<String>,
    /// Publication date, ISO 8601 (`YYYY-MM-DD`).
    pub date_published: Option<String>,
    /// The site's name.
    pub site_name: Option<String>,
    /// The document language (`en`, `de-AT`, ...).
    pub language: Option<String>,
    /// The canonical URL.
    pub canonical_url: Option<String>,
    /// The site a feed belongs to (its `<link>`); pages leave it empty.
    #[serde(default)]
    pub site_url: Option<String>,
    /// The page's own Markdown version, absolute http(s): the `href` of its
    /// `<link rel="alternate" type="text/markdown">` (or `text/x-markdown`).
    #[serde(default)]
    pub markdown_url: Option<String>,
}

/// Why an answer holds little or nothing of its page (see
/// [`Document::shortfall`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum Shortfall {
    /// The page's HTML holds almost nothing but its title: a notice ("please
    /// update your browser"), a form's hint, a title alone.
    NoMainContent,
    /// As [`Shortfall::NoMainContent`], and the page shows that scripts
    /// build it in the browser: an empty application root beside a script
    /// bundle, a framework's state (`__NEXT_DATA__`), a `<noscript>` asking
    /// for JavaScript.
    BuiltByScripts,
}

/// A link found in the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    /// The link's visible text.
    pub text: String,
    /// The absolute URL.
    pub url: String,
}

/// The result of extraction. Serializable so that `farsight` can cache it and
/// serve later windows of a page without extracting it again.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Document {
    /// The page's title, without a " | Site" suffix when the site is known.
    pub title: Option<String>,
    /// The content in the requested format.
    pub content: String,
    /// Facts about the page.
    pub metadata: Metadata,
    /// The page's links, absolute and deduplicated, when asked for.
    pub links: Vec<Link>,
    /// `Some(true)` when a selector was given and matched, `Some(false)` when it
    /// did not (the content is then the main content), `None` without one.
    pub selector_matched: Option<bool>,
    /// Why the selector could not be used (invalid syntax), when so.
    pub selector_error: Option<String>,
    /// Why the content holds little or nothing of the page (almost no words
    /// besides the title), when so: no main content in the page's HTML, or
    /// a page that scripts build in the browser. `None` for content, and
    /// for a selector's matches.
    #[serde(default)]
    pub shortfall: Option<Shortfall>,
    /// The page appears to be behind a paywall.
    pub paywalled: bool,
    /// The content was read from the state a script framework embeds in the
    /// page for its scripts (Next.js `__NEXT_DATA__`, Nuxt `__NUXT_DATA__`,
    /// Angular `ng-state`) or from its JSON-LD `articleBody`: the page's
    /// HTML is an application shell ([`Shortfall::BuiltByScripts`]) whose
    /// markup holds almost nothing.
    #[serde(default)]
    pub embedded_state: bool,
    /// Extraction reached its deadline: the content is what was read by then
    /// (the page's beginning, or its body without main-content selection).
    #[serde(default)]
    pub timed_out: bool,
    /// The page's JSON-LD objects and OpenGraph properties as data, when
    /// [`ExtractOptions::include_structured_data`] asked for them.
    #[serde(default)]
    pub structured_data: Option<StructuredData>,
}
