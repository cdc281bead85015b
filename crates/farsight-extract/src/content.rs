//! Choosing the main content: one entry point, several engines, so they can
//! be compared and combined.

use dom_query::{Document, NodeId};

use crate::deadline::Deadline;
use crate::{Engine, boilerplate, cards, clean, density, inner, region, table, trailing};

/// What the page says it is, for the choices that depend on it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PageKind {
    pub article: bool,
    pub product: bool,
    /// A forum thread or questions and answers.
    pub discussion: bool,
}

/// Fewer characters than this from a page that is not an article are a
/// failure to find its content, not its content.
const TINY_CONTENT: usize = 300;

/// The chosen block already holds the region's content when it holds this
/// share of the raw `<main>` text (navigation and sidebars inside `<main>`
/// make up the rest): no second look to check.
const MAIN_COVERED: f32 = 0.95;

/// The chosen content: a document and the roots to render, in order.
pub(crate) struct MainContent {
    pub doc: Document,
    pub roots: Vec<NodeId>,
}

/// Pages deeper than this skip dom_smoothie: its cost grows with the square
/// of the depth (20 s for 10,000 nested elements).
const SMOOTHIE_MAX_DEPTH: usize = 400;

/// Pages with more elements than this skip dom_smoothie too: it is linear,
/// but at several microseconds and a few hundred bytes per element, with
/// copies of the tree, it cannot read a page of 600,000 paragraphs in under
/// two seconds (issue 11); the density engine does. The largest of the
/// 1,678 pages of both benchmark corpora has 15,800 elements, so no real
/// page measured changes engine.
const SMOOTHIE_MAX_ELEMENTS: usize = 60_000;

/// Finds the main content of `doc` (already cleaned of hidden elements).
/// `html` is the text it was parsed from, parsed again for a second look at
/// an article or a page of more than [`SMOOTHIE_MAX_ELEMENTS`] elements
/// (other pages keep a copy of `doc` for that).
pub(crate) fn main_content(
    doc: Document,
    html: &str,
    engine: Engine,
    kind: PageKind,
    deadline: &Deadline,
) -> MainContent {
    let (depth, elements) = shape(&doc);
    let too_big = depth > SMOOTHIE_MAX_DEPTH || elements > SMOOTHIE_MAX_ELEMENTS;
    let engine = match engine {
        Engine::Readability | Engine::Auto if too_big => Engine::Density,
        Engine::Auto => Engine::Readability,
        e => e,
    };
    let widen = kind.discussion || !kind.article;
    // The engines edit the tree: find and measure the page's `<main>` before
    // them. Its id names the same element in every copy of `doc`.
    let main = widen
        .then(|| region::find(&doc))
        .flatten()
        .and_then(|id| doc.tree.get(&id).map(|n| (id, n.normalized_char_count())));
    // Pages that may be looked at again keep a copy of the parsed page: a
    // copy costs a fraction of a second parse. Not a huge page: two trees of
    // a million nodes cost hundreds of MB, and the density engine it gets
    // rarely needs the second look.
    let src = Source {
        html,
        pristine: (widen && elements <= SMOOTHIE_MAX_ELEMENTS).then(|| doc.clone()),
    };
    // The density engine leaves the page untouched when it finds nothing:
    // the fallback below reads that page instead of parsing it again.
    let (found, untouched) = match engine {
        Engine::Readability => (smoothie(doc, &src, kind), None),
        _ => match density_engine(doc, kind) {
            Ok(found) => (Some(found), None),
            Err(doc) => (None, Some(doc)),
        },
    };
    if let Some(found) = found {
        // The second look is a refinement: not when time is up.
        if !widen || deadline.expired() {
            return found;
        }
        return widen_to_region(found, src, kind, main);
    }
    let doc = untouched.unwrap_or_else(|| src.into_fresh());
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

/// The page's main region instead of `found` when `found` holds less text
/// than the region without its furniture (see `region.rs`). A thread always
/// takes its region (its body when it has no `<main>`): Readability drops
/// short replies and every post's byline, which are the thread as much as
/// the long posts.
///
/// `main` is the page's `<main>` and its text before any engine ran:
/// furniture removal only shortens that text, so when the chosen block
/// already holds nearly that much, the region is not looked at.
fn widen_to_region(
    found: MainContent,
    src: Source<'_>,
    kind: PageKind,
    main: Option<(NodeId, usize)>,
) -> MainContent {
    let chosen: usize = found
        .roots
        .iter()
        .filter_map(|id| found.doc.tree.get(id))
        .map(|n| n.normalized_char_count())
        .sum();
    // A few words out of a whole page (a listing whose every entry is one
    // link, which link pruning takes): the body minus furniture says more.
    let tiny = chosen < TINY_CONTENT;
    let covered = |main: usize| chosen as f32 >= main as f32 * MAIN_COVERED;
    if !kind.discussion && !tiny && main.is_none_or(|(_, chars)| covered(chars)) {
        return found;
    }
    // The last look at the page: the kept copy itself, not a copy of it.
    let doc = src.into_fresh();
    let body = || {
        (kind.discussion || tiny)
            .then(|| doc.body().map(|b| b.id))
            .flatten()
    };
    let Some(root) = main.map(|(id, _)| id).or_else(body) else {
        return found;
    };
    region::prune(&doc, root, kind);
    inner::clean(&doc, &[root], kind);
    let wide = doc.tree.get(&root).map_or(0, |n| n.normalized_char_count());
    if kind.discussion || chosen < wide {
        MainContent {
            doc,
            roots: vec![root],
        }
    } else {
        found
    }
}

/// The page, for a second look: dom_smoothie changes the tree it scores.
pub(crate) struct Source<'a> {
    html: &'a str,
    /// The parsed page with hidden elements removed, before any engine ran.
    pristine: Option<Document>,
}

impl Source<'_> {
    /// The page as it was before any engine ran: a copy of the kept parse,
    /// or a new parse.
    fn fresh(&self) -> Document {
        match &self.pristine {
            Some(doc) => doc.clone(),
            None => visible_document(self.html),
        }
    }

    /// [`Source::fresh`] for the last look: the kept parse itself.
    fn into_fresh(self) -> Document {
        self.pristine.unwrap_or_else(|| visible_document(self.html))
    }
}

/// A new parse of the page with hidden elements removed.
fn visible_document(html: &str) -> Document {
    let doc = crate::parse::parse(html);
    clean::remove_hidden(&doc);
    doc
}

/// The density engine's content, or the page as it was when it found none.
fn density_engine(doc: Document, kind: PageKind) -> Result<MainContent, Document> {
    let Some(roots) = density::extract(&doc) else {
        return Err(doc);
    };
    inner::clean(&doc, &roots, kind);
    Ok(MainContent { doc, roots })
}

/// Runs dom_smoothie. Its `parse` clones the document before each of up to
/// four attempts (strict, then ever looser) and keeps the first with enough
/// text; most pages succeed at the first, so that one runs alone on the
/// document, and only when it falls short does the full sequence run, on a
/// fresh parse. The result is the same, without the clones.
fn smoothie(doc: Document, src: &Source<'_>, kind: PageKind) -> Option<MainContent> {
    let cfg = || dom_smoothie::Config {
        // The text is rendered by us; skip dom_smoothie's own rendering work.
        text_mode: dom_smoothie::TextMode::Raw,
        // Code blocks name their language in classes.
        keep_classes: true,
        // Metadata is read by us (metadata.rs); its JSON-LD pass is wasted.
        disable_json_ld: true,
        ..Default::default()
    };
    let threshold = cfg().char_threshold;
    table::mark_key_value_tables(&doc);
    let mut r = dom_smoothie::Readability::with_document(doc, None, Some(cfg())).ok()?;
    let strict = r
        .parse_with_policy(dom_smoothie::ParsePolicy::Strict)
        .ok()
        .filter(|_| content_root(&r.doc).is_some_and(|n| n.normalized_char_count() >= threshold));
    let article = match strict {
        Some(article) => article,
        None => {
            let doc = src.fresh();
            table::mark_key_value_tables(&doc);
            r = dom_smoothie::Readability::with_document(doc, None, Some(cfg())).ok()?;
            r.parse().ok()?
        }
    };
    if article.text_content.trim().is_empty() {
        return None;
    }
    let root = content_root(&r.doc)?;
    if let Some(row) = cards::find_row(&r.doc, &root, src.html) {
        let fresh = src.fresh();
        if let Some(parent) = cards::row_in(&fresh, &row) {
            density::prune_roots(&fresh, &[parent]);
            inner::clean(&fresh, &[parent], kind);
            return Some(MainContent {
                roots: vec![parent],
                doc: fresh,
            });
        }
    }
    if !kind.article
        && let Some(found) = uncleaned(&root, src, kind)
    {
        return Some(found);
    }
    let root = root.id;
    density::prune_roots(&r.doc, &[root]);
    inner::clean(&r.doc, &[root], kind);
    trailing::strip(&r.doc, &[root]);
    Some(MainContent {
        roots: vec![root],
        doc: r.doc,
    })
}

/// The blocks Readability chose, as they are on the page: found again by
/// node id in a fresh parse (ids are arena indices the same text gives
/// again; each one's tag and class are checked), before Readability's own
/// cleaning. That cleaning is made for articles: it drops anything whose
/// class says `media`, `meta`, `hidden` or `shopping` and any block with
/// more links than prose, which on a listing or a product page is the
/// content (names that are links, a description marked `quick-add-hidden`).
/// Our pruning and cleaning run instead.
fn uncleaned(
    root: &dom_query::NodeRef<'_>,
    src: &Source<'_>,
    kind: PageKind,
) -> Option<MainContent> {
    // dom_smoothie wraps what it keeps in elements of its own.
    let mut top = *root;
    loop {
        let kids: Vec<_> = top.children_it(false).filter(|c| c.is_element()).collect();
        match kids.as_slice() {
            [only]
                if only
                    .attr("id")
                    .is_some_and(|i| i.starts_with("readability")) =>
            {
                top = *only
            }
            _ => break,
        }
    }
    let picked: Vec<dom_query::NodeRef<'_>> =
        top.children_it(false).filter(|c| c.is_element()).collect();
    if picked.is_empty() {
        return None;
    }
    let fresh = src.fresh();
    let mut roots = Vec::with_capacity(picked.len());
    for p in &picked {
        let f = fresh.tree.get(&p.id)?;
        let same = f.node_name() == p.node_name() || p.node_name().as_deref() == Some("div");
        if !same || f.attr("class") != p.attr("class") {
            return None;
        }
        roots.push(p.id);
    }
    // Siblings in Readability's result need not be siblings on the page: a
    // block inside another would be rendered twice.
    // A set: a page of many small picks (a long bare list) made this check
    // quadratic with a `Vec` (issue 11).
    let all: std::collections::HashSet<NodeId> = roots.iter().copied().collect();
    roots.retain(|id| {
        fresh
            .tree
            .get(id)
            .is_some_and(|n| !n.ancestors_it(None).any(|a| all.contains(&a.id)))
    });
    for root in &roots {
        region::prune(&fresh, *root, kind);
    }
    density::prune_roots(&fresh, &roots);
    inner::clean(&fresh, &roots, kind);
    trailing::strip(&fresh, &roots);
    Some(MainContent { doc: fresh, roots })
}

/// The element dom_smoothie puts the content in.
fn content_root(doc: &Document) -> Option<dom_query::NodeRef<'_>> {
    doc.select("#readability-page-1").nodes().first().copied()
}

/// The document's greatest element depth and its number of elements, in
/// one walk without recursion.
fn shape(doc: &Document) -> (usize, usize) {
    let (mut best, mut elements) = (0, 0);
    let mut stack = vec![(doc.root(), 0usize)];
    while let Some((n, d)) = stack.pop() {
        best = best.max(d);
        elements += 1;
        for c in n.children_it(false) {
            if c.is_element() {
                stack.push((c, d + 1));
            }
        }
    }
    (best, elements)
}
