//! A linear main-content engine: text blocks score their ancestors
//! (Readability's idea), the best container wins, link-heavy and furniture
//! blocks inside it are dropped. Every pass is iterative and O(n), so deep
//! or huge pages cost no more per byte than small ones.

use crate::fasthash::FastMap;

use dom_query::{Document, NodeId, NodeRef};

use crate::boilerplate;

/// Non-space characters of text, and of link text, below an element, and
/// its commas (a sign of prose).
#[derive(Default, Clone, Copy)]
pub(crate) struct Stats {
    pub text: u32,
    pub link: u32,
    pub commas: u32,
}

/// The commas that mark clauses, in Latin and CJK text.
const COMMAS: [char; 3] = [',', '，', '、'];

/// Chooses the content roots of `doc` (cleaning them is `passes.rs`'s).
pub(crate) fn choose(doc: &Document) -> Option<Vec<NodeId>> {
    let body = doc.body()?;
    let order: Vec<NodeRef<'_>> = std::iter::once(body).chain(body.descendants_it()).collect();
    let stats = subtree_stats(&order);
    let st = |id: &NodeId| stats.get(id).copied().unwrap_or_default();

    // Furniture never scores: skip text blocks inside it.
    let mut noise: FastMap<NodeId, bool> = FastMap::default();
    let mut scores: FastMap<NodeId, f32> = FastMap::default();
    for n in &order {
        let Some(name) = n.node_name() else {
            continue;
        };
        let parent_noise = n
            .parent()
            .and_then(|p| noise.get(&p.id).copied())
            .unwrap_or(false);
        let is_noise = parent_noise || boilerplate::is_noise(n);
        noise.insert(n.id, is_noise);
        if is_noise
            || !matches!(
                &*name,
                "p" | "pre" | "td" | "blockquote" | "div" | "section" | "li" | "dd"
            )
        {
            continue;
        }
        // A block's own words; a paragraph's, a quote's, a pre's whole
        // text, read from the subtree figures: reading the text of each of
        // 256 nested quotes again walked the page 256 times (issue 11).
        let (own, commas) = if matches!(&*name, "div" | "section" | "li" | "td" | "dd") {
            let text = direct_text(n);
            let own = text.chars().filter(|c| !c.is_whitespace()).count();
            (own, text.matches(COMMAS).count())
        } else {
            let s = st(&n.id);
            (s.text as usize, s.commas as usize)
        };
        if own < 25 {
            continue;
        }
        let commas = commas as f32;
        let score = 1.0 + commas + (own as f32 / 100.0).min(3.0);
        for (level, anc) in n.ancestors_it(Some(5)).enumerate() {
            if !anc.is_element() {
                break;
            }
            let div = match level {
                0 => 1.0,
                1 => 2.0,
                l => l as f32 * 3.0,
            };
            *scores.entry(anc.id).or_insert(0.0) += score / div;
        }
    }
    let density = |id: &NodeId| {
        let s = st(id);
        if s.text == 0 {
            1.0
        } else {
            s.link as f32 / s.text as f32
        }
    };
    let (top, top_score) = scores
        .iter()
        .map(|(id, s)| (*id, s * (1.0 - density(id))))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let top_node = doc.tree.get(&top)?;

    // Siblings that score well or read as prose join the top candidate.
    let mut roots = Vec::new();
    let parent = top_node.parent();
    let siblings: Vec<NodeRef<'_>> = match &parent {
        Some(p) => p.children_it(false).filter(|c| c.is_element()).collect(),
        None => vec![top_node],
    };
    let threshold = (top_score * 0.2).max(10.0);
    for s in siblings {
        if s.id == top {
            roots.push(s.id);
            continue;
        }
        if noise.get(&s.id).copied().unwrap_or(false) {
            continue;
        }
        let score = scores.get(&s.id).copied().unwrap_or(0.0) * (1.0 - density(&s.id));
        let stats = st(&s.id);
        let prose = s.node_name().as_deref() == Some("p")
            && density(&s.id) < 0.25
            && (stats.text > 80 || (stats.text > 0 && s.text().trim_end().ends_with('.')));
        if score >= threshold || prose {
            roots.push(s.id);
        }
    }
    Some(roots)
}

/// Removes furniture and link lists below `roots`.
pub(crate) fn prune_roots(doc: &Document, roots: &[NodeId]) {
    for id in link_lists(doc, roots) {
        if let Some(n) = doc.tree.get(&id) {
            n.remove_from_parent();
        }
    }
}

/// The furniture and link lists below `roots` (nested ones too), without
/// changing the page.
pub(crate) fn link_lists(doc: &Document, roots: &[NodeId]) -> Vec<NodeId> {
    let mut order: Vec<NodeRef<'_>> = Vec::new();
    for r in roots.iter().filter_map(|r| doc.tree.get(r)) {
        order.push(r);
        order.extend(r.descendants_it());
    }
    let stats = subtree_stats(&order);
    doomed(doc, roots, &stats)
}

fn doomed(doc: &Document, roots: &[NodeId], stats: &FastMap<NodeId, Stats>) -> Vec<NodeId> {
    let st = |id: &NodeId| stats.get(id).copied().unwrap_or_default();
    let mut doomed = Vec::new();
    for root in roots {
        let Some(r) = doc.tree.get(root) else {
            continue;
        };
        // A class word like "sidebar" in a layout wrapper
        // ("content-with-sidebar") does not make the article furniture:
        // furniture never holds most of the content's text.
        let most = st(root).text / 2;
        for d in r.descendants_it() {
            let Some(name) = d.node_name() else {
                continue;
            };
            if boilerplate::is_noise(&d) && st(&d.id).text <= most {
                doomed.push(d.id);
                continue;
            }
            if matches!(
                &*name,
                "ul" | "ol" | "div" | "section" | "table" | "p" | "aside"
            ) {
                let s = st(&d.id);
                let link_heavy = s.text > 0 && (s.link as f32 / s.text as f32) > 0.6;
                if link_heavy && (&*name != "p" || s.text < 80) {
                    doomed.push(d.id);
                }
            }
        }
    }
    doomed
}

/// Characters of text and of link text below each element, in one pass.
pub(crate) fn subtree_stats(order: &[NodeRef<'_>]) -> FastMap<NodeId, Stats> {
    let mut stats: FastMap<NodeId, Stats> =
        FastMap::with_capacity_and_hasher(order.len(), Default::default());
    // Pre-order reversed visits children before parents.
    for n in order.iter().rev() {
        let mut s = stats.get(&n.id).copied().unwrap_or_default();
        for c in n.children_it(false) {
            if c.is_text() {
                let (t, commas) = c.query_or((0, 0), |node| match &node.data {
                    dom_query::NodeData::Text { contents } => (
                        contents.chars().filter(|ch| !ch.is_whitespace()).count(),
                        contents.matches(COMMAS).count(),
                    ),
                    _ => (0, 0),
                });
                s.text += t as u32;
                s.commas += commas as u32;
            } else if let Some(cs) = stats.get(&c.id).copied() {
                s.text += cs.text;
                s.link += cs.link;
                s.commas += cs.commas;
            }
        }
        if n.node_name().as_deref() == Some("a") {
            s.link = s.text;
        }
        stats.insert(n.id, s);
    }
    stats
}

/// The text of `n` itself and its inline children, not of nested blocks.
fn direct_text(n: &NodeRef<'_>) -> String {
    let mut out = String::new();
    for c in n.children_it(false) {
        if c.is_text() {
            out.push_str(&c.text());
        } else if let Some(name) = c.node_name()
            && matches!(
                &*name,
                "a" | "b"
                    | "strong"
                    | "em"
                    | "i"
                    | "span"
                    | "code"
                    | "sup"
                    | "sub"
                    | "small"
                    | "mark"
                    | "abbr"
                    | "time"
                    | "u"
            )
        {
            out.push_str(&c.text());
        }
    }
    out
}
