//! Choosing the main content: one entry point, several engines, so they can
//! be compared and combined.

use dom_query::{Document, NodeId};

use crate::{Engine, boilerplate, clean, density, inner};

/// The chosen content: a document and the roots to render, in order.
pub(crate) struct MainContent {
    pub doc: Document,
    pub roots: Vec<NodeId>,
}

/// Pages deeper than this skip dom_smoothie: its cost grows with the square
/// of the depth (20 s for 10,000 nested elements).
const SMOOTHIE_MAX_DEPTH: usize = 400;

/// Finds the main content of `doc` (already cleaned of hidden elements).
/// `html` is the original page, re-parsed only when the first engine fails.
pub(crate) fn main_content(doc: Document, html: &str, engine: Engine) -> MainContent {
    let engine = match engine {
        Engine::Readability if max_depth(&doc) > SMOOTHIE_MAX_DEPTH => Engine::Density,
        Engine::Auto if max_depth(&doc) > SMOOTHIE_MAX_DEPTH => Engine::Density,
        Engine::Auto => Engine::Readability,
        e => e,
    };
    let found = match engine {
        Engine::Readability => smoothie(doc),
        _ => density_engine(doc),
    };
    if let Some(found) = found {
        return found;
    }
    let doc = Document::from(html);
    clean::remove_hidden(&doc);
    boilerplate::strip(&doc);
    match doc.body().map(|b| b.id) {
        Some(body) => MainContent {
            roots: vec![body],
            doc,
        },
        None => MainContent {
            doc: Document::default(),
            roots: Vec::new(),
        },
    }
}

fn density_engine(doc: Document) -> Option<MainContent> {
    let roots = density::extract(&doc)?;
    inner::clean(&doc, &roots);
    Some(MainContent { doc, roots })
}

fn smoothie(doc: Document) -> Option<MainContent> {
    let cfg = dom_smoothie::Config {
        // The text is rendered by us; skip dom_smoothie's own rendering work.
        text_mode: dom_smoothie::TextMode::Raw,
        // Code blocks name their language in classes.
        keep_classes: true,
        ..Default::default()
    };
    let mut r = dom_smoothie::Readability::with_document(doc, None, Some(cfg)).ok()?;
    let article = r.parse().ok()?;
    if article.text_content.trim().is_empty() {
        return None;
    }
    let root = r.doc.select("#readability-page-1").nodes().first()?.id;
    density::prune_roots(&r.doc, &[root]);
    inner::clean(&r.doc, &[root]);
    Some(MainContent {
        roots: vec![root],
        doc: r.doc,
    })
}

/// The document's greatest element depth, without recursion.
fn max_depth(doc: &Document) -> usize {
    let mut best = 0;
    let mut stack = vec![(doc.root(), 0usize)];
    while let Some((n, d)) = stack.pop() {
        best = best.max(d);
        for c in n.children_it(false) {
            if c.is_element() {
                stack.push((c, d + 1));
            }
        }
    }
    best
}
