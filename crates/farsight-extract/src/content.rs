//! Choosing the main content: one entry point, several engines, so they can
//! be compared and combined.

use dom_query::{Document, NodeId};

use crate::boilerplate;
use crate::clean;

/// The chosen content: a document and the roots to render, in order.
pub(crate) struct MainContent {
    pub doc: Document,
    pub roots: Vec<NodeId>,
}

/// Main-content extraction engines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Engine {
    /// dom_smoothie (a Readability.js port).
    Smoothie,
    /// The page's body without boilerplate (navigation, headers, footers).
    Body,
}

/// Finds the main content of `doc` (already cleaned of hidden elements).
/// `html` is the original page, re-parsed only when the first engine fails.
pub(crate) fn main_content(doc: Document, html: &str) -> MainContent {
    if let Some(found) = run(Engine::Smoothie, doc) {
        return found;
    }
    let doc = Document::from(html);
    clean::remove_hidden(&doc);
    run(Engine::Body, doc).unwrap_or_else(|| MainContent {
        doc: Document::default(),
        roots: Vec::new(),
    })
}

pub(crate) fn run(engine: Engine, doc: Document) -> Option<MainContent> {
    match engine {
        Engine::Smoothie => smoothie(doc),
        Engine::Body => {
            boilerplate::strip(&doc);
            let body = doc.body().map(|b| b.id)?;
            Some(MainContent {
                roots: vec![body],
                doc,
            })
        }
    }
}

fn smoothie(doc: Document) -> Option<MainContent> {
    let cfg = dom_smoothie::Config {
        // The text is rendered by us; skip dom_smoothie's own rendering work.
        text_mode: dom_smoothie::TextMode::Raw,
        ..Default::default()
    };
    let mut r = dom_smoothie::Readability::with_document(doc, None, Some(cfg)).ok()?;
    let article = r.parse().ok()?;
    if article.text_content.trim().is_empty() {
        return None;
    }
    let root = r.doc.select("#readability-page-1").nodes().first()?.id;
    Some(MainContent {
        roots: vec![root],
        doc: r.doc,
    })
}
