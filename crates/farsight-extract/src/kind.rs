//! The second stage: what kind of page this is, for the choices that
//! depend on it (which blocks to choose, which cleaning passes run).

use dom_query::Document;

use crate::metadata::PageFacts;
use crate::{threads, url_util};

/// What the page says it is.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PageKind {
    /// A news story or blog post (schema.org `Article`, `og:type` article).
    pub article: bool,
    /// One product (schema.org `Product`, `og:type` product).
    pub product: bool,
    /// A forum thread or questions and answers.
    pub discussion: bool,
}

impl PageKind {
    /// Whether the page may spread its content over many blocks (every kind
    /// but an article; a thread always): the chosen block is compared with
    /// the page's main region.
    pub fn spreads(self) -> bool {
        self.discussion || !self.article
    }

    /// Whether the page lists things (a shop category, a listing, a
    /// landing page): neither an article, nor one product, nor a thread,
    /// whose rows of link cards are teasers, "you may also like" and user
    /// cards.
    pub fn lists(self) -> bool {
        !self.article && !self.product && !self.discussion
    }
}

/// Classifies the page from what it says about itself (JSON-LD,
/// OpenGraph), the shape of its address (`/t/slug/123`, `/questions/…`)
/// and, for forum software that says nothing, its markup (posts that name
/// their authors).
pub(crate) fn classify(doc: &Document, facts: &PageFacts, base_url: Option<&str>) -> PageKind {
    let by_url = base_url.is_some_and(url_util::looks_like_thread);
    PageKind {
        article: facts.is_article,
        product: facts.is_product,
        discussion: facts.is_discussion
            || by_url
            || (!facts.is_article && !facts.is_product && threads::looks_like_thread(doc)),
    }
}
