//! Readability's choice of the content, as elements of the page.
//!
//! dom_smoothie (a port of Mozilla's Readability) scores the page and
//! moves the blocks it keeps into a wrapper of its own, cleaning them with
//! rules made for news articles. We want its choice, not its cleaning
//! (ours runs on every kind of page, see `passes.rs`): it runs on a copy of
//! the page whose elements carry their node id in the page as an attribute,
//! which dom_smoothie copies when it rebuilds an element under another tag
//! (the copy's own ids are no guide: it recycles the slots of removed
//! nodes for the elements it makes).

use std::collections::HashSet;

use dom_query::{Document, NodeData, NodeId, NodeRef};

/// Readability's verdict on the page: the blocks it keeps, as elements of
/// the page, outermost only, in page order, and the elements inside them
/// that its cleaning dropped (outermost only; none that hold something it
/// kept).
pub(crate) struct Verdict {
    pub roots: Vec<NodeId>,
    pub dropped: Vec<NodeId>,
}

/// Readability's [`Verdict`] on `doc`; `None` when it finds nothing.
///
/// Its `parse` prepares the page once and scores a copy of it in up to four
/// attempts (strict, then ever looser), keeping the first with enough text.
/// Most pages pass the strict attempt: that one runs alone, on the marked
/// copy itself, and `parse` only when it falls short — running the strict
/// attempt (and copying, marking and preparing the page) a second time. A
/// page whose paragraphs hold less text than Readability asks for rarely
/// passes it: there `parse` runs at once. Either way the choice is
/// `parse`'s (its post-processing only removes text, so a strict result
/// long enough after it was long enough before): the paragraphs decide
/// what it costs, never what is chosen.
pub(crate) fn pick(doc: &Document) -> Option<Verdict> {
    let cfg = || dom_smoothie::Config {
        // The text is rendered by us; skip dom_smoothie's own rendering work.
        text_mode: dom_smoothie::TextMode::Raw,
        // Its class-based cleaning is not used, but its scoring reads them.
        keep_classes: true,
        // Metadata is read by us (metadata.rs); its JSON-LD pass is wasted.
        disable_json_ld: true,
        // Its result is read as elements, never as HTML.
        disable_content_html: true,
        // Nor as names, attributes or text: the steps that change only
        // those are skipped (its text is looked at by `has_text`).
        elements_only: true,
        ..Default::default()
    };
    let threshold = cfg().char_threshold;
    let (copy, ids) = marked_copy(doc);
    let mut r = dom_smoothie::Readability::with_document(copy, None, Some(cfg())).ok()?;
    let try_strict = !paragraph_text_below(doc, threshold);
    // The article and its wrapper, found once (a walk of the whole copy).
    let strict = if try_strict {
        r.parse_with_policy(dom_smoothie::ParsePolicy::Strict)
            .ok()
            .and_then(|_| {
                let w = wrapper(&r.doc).filter(|n| n.normalized_char_count() >= threshold)?;
                Some(w.id)
            })
    } else {
        None
    };
    let wrapper = match strict {
        Some(found) => found,
        None => {
            if try_strict {
                // The strict attempt changed this copy: a fresh one.
                let (copy, _) = marked_copy(doc);
                r = dom_smoothie::Readability::with_document(copy, None, Some(cfg())).ok()?;
            }
            r.parse().ok()?;
            wrapper(&r.doc)?.id
        }
    };
    let wrapper = NodeRef::new(wrapper, &r.doc.tree);
    if !has_text(&wrapper) {
        return None;
    }
    let roots = in_page(doc, &ids, &picks(&wrapper))?;
    let kept: HashSet<NodeId> = wrapper
        .descendants_it()
        .filter_map(|n| original(&n, &ids).or_else(|| same_text(doc, &n)))
        .collect();
    let dropped = dropped(doc, &roots, &kept);
    Some(Verdict { roots, dropped })
}

/// Whether the `<p>` elements of `doc` hold fewer than `chars` characters
/// of text (counting stops when they reach it).
fn paragraph_text_below(doc: &Document, chars: usize) -> bool {
    let mut seen = 0;
    for n in doc.root().descendants_it() {
        if n.node_name().as_deref() == Some("p") {
            seen += n.normalized_char_count();
            if seen >= chars {
                return false;
            }
        }
    }
    true
}

/// Whether the text below `n` is more than whitespace: what Readability's
/// text of the result, trimmed, being empty said (its raw text is its text
/// nodes' in order, which `elements_only` leaves unmade).
fn has_text(n: &NodeRef<'_>) -> bool {
    n.descendants_it().any(|d| {
        d.query_or(false, |t| {
            matches!(&t.data, NodeData::Text { contents } if contents.chars().any(|c| !c.is_whitespace()))
        })
    })
}

/// The element of the page an element of the copy stands for.
fn original(n: &NodeRef<'_>, ids: &[NodeId]) -> Option<NodeId> {
    n.attr(MARK)
        .and_then(|m| m.parse::<usize>().ok())
        .and_then(|i| ids.get(i).copied())
}

/// A text node of the copy as the page's text node of the same id: text
/// dom_smoothie moved into an element of its own (a `div` of phrasing
/// content rebuilt as a `p`, without the mark) keeps its id. The text is
/// compared too: a node it made may sit in a recycled slot.
fn same_text(doc: &Document, n: &NodeRef<'_>) -> Option<NodeId> {
    // Read in place: copying both texts out cost more than the comparison.
    let same = n.query_or(false, |copy| {
        let NodeData::Text { contents } = &copy.data else {
            return false;
        };
        doc.tree.get(&n.id).is_some_and(|page| {
            page.query_or(
                false,
                |p| matches!(&p.data, NodeData::Text { contents: c } if c == contents),
            )
        })
    });
    same.then_some(n.id)
}

/// The outermost elements below `roots` that are not `kept` and hold
/// nothing kept, in one walk (children before parents).
fn dropped(doc: &Document, roots: &[NodeId], kept: &HashSet<NodeId>) -> Vec<NodeId> {
    let mut out = Vec::new();
    for root in roots.iter().filter_map(|r| doc.tree.get(r)) {
        let order: Vec<NodeRef<'_>> = root
            .descendants_it()
            .filter(|n| n.is_element() || n.is_text())
            .collect();
        let mut holds_kept: HashSet<NodeId> = HashSet::new();
        for n in order.iter().rev() {
            if (kept.contains(&n.id) || holds_kept.contains(&n.id))
                && let Some(p) = n.parent()
            {
                holds_kept.insert(p.id);
            }
        }
        let gone = |id: &NodeId| !kept.contains(id) && !holds_kept.contains(id);
        out.extend(
            order
                .iter()
                .filter(|n| n.is_element() && gone(&n.id))
                .filter(|n| n.parent().is_none_or(|p| p.id == root.id || !gone(&p.id)))
                .map(|n| n.id),
        );
    }
    out
}

/// The element dom_smoothie puts the content in (the first match, as
/// its own look-up finds it): the walk stops there instead of matching
/// every element of the copy.
fn wrapper(doc: &Document) -> Option<NodeRef<'_>> {
    doc.select_single("#readability-page-1")
        .nodes()
        .first()
        .copied()
}

/// The blocks inside dom_smoothie's wrapper (it nests wrappers of its own).
fn picks<'a>(wrapper: &NodeRef<'a>) -> Vec<NodeRef<'a>> {
    let mut top = *wrapper;
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
            _ => return kids,
        }
    }
}

/// The attribute that names an element of the copy by its id in the page.
const MARK: &str = "data-farsight-id";

/// A copy of `doc` whose elements carry [`MARK`]: an index into the
/// returned ids, which are the page's (a fresh copy has the page's ids).
fn marked_copy(doc: &Document) -> (Document, Vec<NodeId>) {
    let copy = doc.clone();
    let elements: Vec<NodeRef<'_>> = copy
        .root()
        .descendants_it()
        .filter(|n| n.is_element())
        .collect();
    let mut digits = [0u8; 20];
    // The attribute's name made once and copied: making it anew for each
    // element interned it each time, a visible share of this copy.
    let mut made: Option<dom_query::Attr> = None;
    for (i, n) in elements.iter().enumerate() {
        let mark = decimal(i, &mut digits);
        n.update(|node| {
            let NodeData::Element(el) = &mut node.data else {
                return;
            };
            // The page's own attribute of that name, if any, is replaced.
            // Once made, its name is compared as an atom (equal when the
            // strings are), not read as a string for each attribute.
            let own = match &made {
                Some(attr) => el
                    .attrs
                    .iter_mut()
                    .find(|a| a.name.local == attr.name.local),
                None => el.attrs.iter_mut().find(|a| &*a.name.local == MARK),
            };
            match (own, &made) {
                (Some(own), _) => own.value = mark.into(),
                (None, Some(attr)) => {
                    // The clone's list is exactly full: a push grew it with
                    // `realloc`, which glibc serves outside its per-thread
                    // cache. A new list of the size needed, the attributes
                    // moved in, costs a cached allocation and free instead.
                    // One slot more for the score Readability sets on its
                    // candidates (a push then grew the list again).
                    let mut attrs = Vec::with_capacity(el.attrs.len() + 2);
                    attrs.append(&mut el.attrs);
                    attrs.push(dom_query::Attr {
                        name: attr.name.clone(),
                        value: mark.into(),
                    });
                    el.attrs = attrs;
                }
                (None, None) => {
                    el.set_attr(MARK, mark);
                    made = el.attrs.iter().find(|a| &*a.name.local == MARK).cloned();
                }
            }
            // In the same visit as the mark: a walk of its own, reading
            // each class anew, cost a tenth of this copy.
            unname_sidebar_layout(el);
        });
    }
    let ids = elements.iter().map(|n| n.id).collect();
    drop(elements);
    // Readability takes a small infobox for layout and drops it whole.
    crate::table::mark_key_value_tables(&copy);
    (copy, ids)
}

/// `i` in decimal, written into `buf` (`write!` cost four times as much,
/// once per element of the page).
fn decimal(mut i: usize, buf: &mut [u8; 20]) -> &str {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (i % 10) as u8;
        i /= 10;
        if i == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[at..]).unwrap_or("0")
}

/// Readability removes before scoring every element whose class or id
/// says `sidebar` (and none of `content`, `main`, `article`, ...): a
/// layout wrapper named for the sidebar beside it (`with-sidebar`,
/// `full-width-template-with-sidebar`, `has-sidebar`) goes with the whole
/// article in it, and a disclosure box outside it becomes the content.
/// In the copy, such class names are left out (`words::SIDEBAR_LAYOUT`).
fn unname_sidebar_layout(el: &mut dom_query::Element) {
    let Some(class) = el
        .attrs
        .iter()
        .find(|a| a.name.local == dom_query::local_name!("class"))
    else {
        return;
    };
    // Most classes never say "sidebar": found by its `b` before any split.
    let v = class.value.as_bytes();
    let says_sidebar = memchr::memchr2_iter(b'b', b'B', v).any(|i| {
        i >= 4
            && v.get(i - 4..i + 3)
                .is_some_and(|w| w.eq_ignore_ascii_case(b"sidebar"))
    });
    if !says_sidebar || !class.value.split_ascii_whitespace().any(is_sidebar_layout) {
        return;
    }
    let kept: Vec<&str> = class
        .value
        .split_ascii_whitespace()
        .filter(|t| !is_sidebar_layout(t))
        .collect();
    let kept = kept.join(" ");
    el.set_attr("class", &kept);
}

/// A class name of a layout around a sidebar (see
/// [`unname_sidebar_layout`]).
fn is_sidebar_layout(name: &str) -> bool {
    crate::words::tables::SIDEBAR_LAYOUT.iter().any(|l| {
        let (n, k) = (name.len(), l.len());
        n >= k
            && name.is_char_boundary(n - k)
            && name[n - k..].eq_ignore_ascii_case(l)
            && (n == k || name.as_bytes()[n - k - 1] == b'-')
    })
}

/// `picked` (elements of Readability's copy) as elements of `doc`, by
/// their [`MARK`], without any pick inside another, in page order. A
/// wrapper dom_smoothie made (no mark) stands for its children.
fn in_page(doc: &Document, ids: &[NodeId], picked: &[NodeRef<'_>]) -> Option<Vec<NodeId>> {
    let mut roots = Vec::with_capacity(picked.len());
    let mut stack: Vec<NodeRef<'_>> = picked.iter().rev().copied().collect();
    while let Some(p) = stack.pop() {
        let original =
            original(&p, ids).filter(|id| doc.tree.get(id).is_some_and(|n| n.is_element()));
        match original {
            Some(id) => roots.push(id),
            None => {
                let kids: Vec<NodeRef<'_>> =
                    p.children_it(false).filter(|c| c.is_element()).collect();
                stack.extend(kids.into_iter().rev());
            }
        }
    }
    if roots.is_empty() {
        return None;
    }
    // Siblings in Readability's result need not be siblings on the page: a
    // block inside another would be rendered twice. A set: a page of many
    // small picks (a long bare list) made this quadratic (issue 11).
    let all: HashSet<NodeId> = roots.iter().copied().collect();
    roots.retain(|id| {
        doc.tree
            .get(id)
            .is_some_and(|n| !n.ancestors_it(None).any(|a| all.contains(&a.id)))
    });
    Some(roots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sidebar_layouts_are_told_from_sidebars() {
        for l in crate::words::tables::SIDEBAR_LAYOUT {
            assert!(is_sidebar_layout(l), "{l}");
            assert!(is_sidebar_layout(&format!("page-{l}")), "{l}");
            assert!(is_sidebar_layout(&l.to_ascii_uppercase()), "{l}");
            assert!(!is_sidebar_layout(&format!("x{l}")), "{l}");
        }
        assert!(is_sidebar_layout("full-width-template-with-sidebar"));
        assert!(!is_sidebar_layout("sidebar"));
        assert!(!is_sidebar_layout("sidebar-right"));
    }

    #[test]
    fn marks_are_decimal() {
        let mut buf = [0u8; 20];
        for i in [0, 7, 10, 99, 100, 12345, usize::MAX] {
            assert_eq!(decimal(i, &mut buf), i.to_string());
        }
    }

    #[test]
    fn paragraph_text_is_counted_up_to_the_bound() {
        let doc = Document::from("<div>long text outside paragraphs</div><p>four</p><p>five!</p>");
        assert!(paragraph_text_below(&doc, 10));
        assert!(!paragraph_text_below(&doc, 9));
        assert!(paragraph_text_below(
            &Document::from("<div>no paragraph</div>"),
            1
        ));
    }
}
