use std::collections::HashSet;

use unicode_segmentation::UnicodeSegmentation;

use dom_query::{NodeData, NodeId, NodeRef};

use tendril::StrTendril;

use crate::glob::{is_phrasing_elem, MINI_ARIA_HIDDEN, MINI_FALLBACK_IMG};
use crate::matching::is_invisible_style;
use crate::node_slots::NodeSlots;

pub(crate) fn text_similarity(text_a: &str, text_b: &str) -> f64 {
    if text_a.is_empty() || text_b.is_empty() {
        return 0.0;
    }

    let a = text_a.to_lowercase();
    let b = text_b.to_lowercase();

    if a.contains(&b) {
        return 1.0;
    }

    let tokens_a: HashSet<&str> = a.unicode_words().collect();
    let tokens_b: Vec<&str> = b.unicode_words().collect();

    let b_chars_total: usize = tokens_b.iter().map(|s| s.chars().count()).sum();
    if b_chars_total == 0 {
        return 0.0;
    }
    let b_chars_unique: usize = tokens_b
        .iter()
        .filter(|&&s| !tokens_a.contains(s))
        .map(|s| s.chars().count())
        .sum();

    let distance_b = b_chars_unique as f64 / b_chars_total as f64;
    1.0 - distance_b
}

pub(crate) fn is_phrasing_content(node: &NodeRef) -> bool {
    if node.is_text() {
        return true;
    }

    // only elements has a node name
    let Some(qual_name) = node.qual_name_ref() else {
        return false;
    };
    // farsight: the atom matched, not its string hashed.
    if is_phrasing_elem(&qual_name.local) {
        return true;
    }
    let node_name: &str = qual_name.local.as_ref();

    if matches!(node_name, "a" | "del" | "ins") {
        // There is no big sense to consider link content as phrasing content if they doesn't have children element.
        let children = node.children();
        return !children.is_empty() && children.into_iter().all(|n| is_phrasing_content(&n));
    }
    false
}

pub(crate) fn is_whitespace(node: &NodeRef) -> bool {
    if node.is_text() && !node.is_nonempty_text() {
        return true;
    }
    // only an element node has a node_name
    node.has_name("br")
}

pub(crate) fn has_ancestor<F>(node: &NodeRef, max_depth: Option<usize>, filter_fn: F) -> bool
where
    F: Fn(&NodeRef) -> bool,
{
    let max_depth = max_depth.map(|max_depth| if max_depth == 0 { 3 } else { max_depth });
    node.ancestors_it(max_depth).any(|a| filter_fn(&a))
}

pub(crate) fn normalize_spaces(text: &str) -> String {
    let mut result = String::with_capacity(text.len());
    let mut iter = text.split_whitespace();

    if let Some(first) = iter.next() {
        result.push_str(first);
        for word in iter {
            result.push(' ');
            result.push_str(word);
        }
    }
    result
}

pub(crate) fn link_density_fn<F>(node: &NodeRef, char_count: Option<usize>, mut count_fn: F) -> f32
where
    F: FnMut(&NodeRef) -> usize,
{
    let mut link_length = 0f32;

    for a in node.find_descendants("a") {
        let href = a.attr_or("href", "");
        let coeff = if href.len() > 1 && href.starts_with('#') {
            0.3
        } else {
            1.0
        };
        link_length += count_fn(&a) as f32 * coeff;
    }

    if link_length == 0.0 {
        return 0.0;
    }

    let text_length = char_count.unwrap_or_else(|| count_fn(node)) as f32;
    if text_length == 0.0 {
        return 0.0;
    }

    link_length / text_length
}

pub(crate) fn link_density(node: &NodeRef, char_count: Option<usize>) -> f32 {
    link_density_fn(node, char_count, |n| n.normalized_char_count())
}

/// Returns the child element if the node contains exactly one element child with the given tag
/// and no non-empty text nodes.
pub(crate) fn single_child_element<'a>(node: &NodeRef<'a>, tag: &str) -> Option<NodeRef<'a>> {
    // There should be exactly 1 element child with given tag
    let children = node.element_children();
    if children.len() != 1 {
        return None;
    }

    let first = children.first()?;

    if !first.has_name(tag) {
        return None;
    }
    if node.children_it(false).any(|n| n.is_nonempty_text()) {
        return None;
    }
    Some(*first)
}

pub(crate) fn is_element_without_content(node: &NodeRef) -> bool {
    // since this function calls only for elements check `node.is_element()` is redundant
    let has_text = node.descendants_it().any(|n| n.is_nonempty_text());
    if has_text {
        return false;
    }

    let el_children_count = node.children_it(false).filter(|n| n.is_element()).count();
    if el_children_count == 0 {
        return true;
    }

    let line_breaks = node.find_descendants("br").len() + node.find_descendants("hr").len();
    el_children_count == line_breaks
}

pub(crate) fn get_dir_attr(node: &NodeRef) -> Option<String> {
    if let Some(first_child) = node.first_child() {
        if let Some(dir_attr) = first_child.attr("dir") {
            return Some(dir_attr.to_string());
        }

        let dir_attr = first_child.ancestors_it(None).find_map(|a| a.attr("dir"));
        if let Some(dir_attr) = dir_attr {
            return Some(dir_attr.to_string());
        }
    }
    None
}

pub(crate) fn node_name_in(node: &NodeRef, names: &phf::Set<&str>) -> bool {
    node.qual_name_ref()
        .is_some_and(|name| names.contains(name.local.as_ref()))
}

/// farsight: whether `node` is an element whose name `is_in` says yes to
/// (one of the tag-name matches of `glob.rs`).
pub(crate) fn node_name_is(node: &NodeRef, is_in: fn(&dom_query::LocalName) -> bool) -> bool {
    node.qual_name_ref().is_some_and(|name| is_in(&name.local))
}

pub(crate) fn is_probably_visible(node: &NodeRef) -> bool {
    if node.has_attr("hidden") {
        return false;
    }
    if is_invisible_style(node) {
        return false;
    }
    !MINI_ARIA_HIDDEN.match_node(node) || MINI_FALLBACK_IMG.match_node(node)
}

pub(crate) fn get_node_matching_string(node: &NodeRef) -> StrTendril {
    let mut buf = StrTendril::new();
    let Some(el) = node.element_ref() else {
        return buf;
    };

    for attr in &el.attrs {
        if !matches!(attr.name.local.as_ref(), "class" | "id") {
            continue;
        }
        buf.push_tendril(&attr.value);
        buf.push_char(' ');
    }

    buf.make_ascii_lowercase();
    buf
}

pub(crate) fn next_child_or_sibling<'a>(
    node: &NodeRef<'a>,
    ignore_child: bool,
) -> Option<NodeRef<'a>> {
    if !ignore_child {
        if let Some(first_child) = node.first_element_child() {
            return Some(first_child);
        }
    }

    if let Some(sibling) = node.next_element_sibling() {
        return Some(sibling);
    }
    let mut parent = node.parent();
    while let Some(parent_node) = parent {
        if let Some(next_sibling) = parent_node.next_element_sibling() {
            return Some(next_sibling);
        }
        parent = parent_node.parent();
    }
    None
}

#[cfg(not(feature = "aho-corasick"))]
/// A lightweight byte-level pre-checker used to quickly skip patterns
/// that cannot occur in the haystack.
pub(crate) struct BytePatternCheck<'a> {
    haystack: &'a str,
    char_map: [u8; 256],
}

#[cfg(not(feature = "aho-corasick"))]
impl<'a> BytePatternCheck<'a> {
    pub(crate) fn new(haystack: &'a str) -> Self {
        let mut char_map = [0u8; 256];

        for &b in haystack.as_bytes() {
            char_map[b as usize] = 1;
        }
        Self { haystack, char_map }
    }
    #[inline]
    fn pre_check(&self, pat: &str) -> bool {
        for &b in pat.as_bytes() {
            if self.char_map[b as usize] == 0 {
                return false;
            }
        }
        true
    }
    /// Checks if the haystack contains any of the given patterns.
    /// Performs a cheap bitmap pre-check before `str::contains`.
    pub(crate) fn contains_any(&self, pats: &[&str]) -> bool {
        pats.iter()
            .any(|pat| self.pre_check(pat) && self.haystack.contains(pat))
    }
}

// farsight: the cache holds each node's `TextRun` (below) instead of its
// count, and a node's run is made from its children's: `score_elements` asks
// for the count of every candidate (up to five nested ancestors of each
// paragraph, up to `body`), and `normalized_char_count` walked each one's
// whole subtree anew. The `a` elements below each node are summed the same
// way for the candidates' link density. Valid while the tree's structure,
// text and `href`s do not change (one `score_elements` call, which only
// sets score attributes).
#[derive(Default)]
pub(crate) struct CharCounterCache {
    /// farsight: by the node's index in the tree (`NodeSlots`), not a hash
    /// of its id: every node below a candidate is looked up about three times.
    inner: NodeSlots<Known>,
    /// farsight: `known`'s list of nodes to visit, kept between calls so
    /// its allocation is made once (empty between calls).
    order: Vec<NodeId>,
}

/// farsight: what the cache knows of a node's subtree.
#[derive(Clone, Copy)]
struct Known {
    run: TextRun,
    links: Links,
}

/// farsight: the `a` elements below a node (not itself), as
/// `link_density_fn` sums them.
#[derive(Clone, Copy, Default)]
struct Links {
    /// The sum of their char counts.
    chars: usize,
    /// Whether one of them links within the page (`#...`): those count
    /// 0.3 of their chars in an `f32` sum, which a sum of integers cannot
    /// give to the bit.
    in_page: bool,
}

impl Known {
    const EMPTY: Known = Known {
        run: TextRun::EMPTY,
        links: Links {
            chars: 0,
            in_page: false,
        },
    };
}

impl CharCounterCache {
    /// The same as `node.normalized_char_count()`.
    pub(crate) fn char_count(&mut self, node: &NodeRef) -> usize {
        self.known(node).run.normalized_count()
    }

    /// The same as `link_density_fn(node, None, |n| self.char_count(n))`.
    pub(crate) fn link_density(&mut self, node: &NodeRef) -> f32 {
        let links = self.known(node).links;
        // Below 2^24 each partial sum of whole numbers is exact in an
        // `f32`, so the sum is the one `link_density_fn` makes in order.
        if links.in_page || links.chars >= 1 << 24 {
            return link_density_fn(node, None, |n| self.char_count(n));
        }
        if links.chars == 0 {
            return 0.0;
        }
        let text_length = self.char_count(node) as f32;
        if text_length == 0.0 {
            return 0.0;
        }
        links.chars as f32 / text_length
    }

    fn known(&mut self, node: &NodeRef) -> Known {
        if let Some(known) = self.inner.get(node.id) {
            return known;
        }
        // The nodes below `node` not known yet, each after its parent
        // (breadth first); known subtrees are not entered.
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.push(node.id);
        let mut i = 0;
        while let Some(id) = order.get(i).copied() {
            i += 1;
            order.extend(
                NodeRef::new(id, node.tree)
                    .children_it(false)
                    .filter(|c| !self.inner.contains(c.id))
                    .map(|c| c.id),
            );
        }
        // Children before parents.
        for &id in order.iter().rev() {
            let n = NodeRef::new(id, node.tree);
            let text = n.query_or(None, |t| match t.data {
                NodeData::Text { ref contents } => Some(TextRun::of_text(contents)),
                _ => None,
            });
            let known = match text {
                Some(run) => Known {
                    run,
                    links: Links::default(),
                },
                None => n.children_it(false).fold(Known::EMPTY, |acc, c| {
                    let kid = self.inner.get(c.id).unwrap_or(Known::EMPTY);
                    let mut links = Links {
                        chars: acc.links.chars + kid.links.chars,
                        in_page: acc.links.in_page || kid.links.in_page,
                    };
                    if c.is_element() && c.has_name("a") {
                        let href = c.attr_or("href", "");
                        if href.len() > 1 && href.starts_with('#') {
                            links.in_page = true;
                        }
                        links.chars += kid.run.normalized_count();
                    }
                    Known {
                        run: acc.run.then(kid.run),
                        links,
                    }
                }),
            };
            self.inner.insert(n.id, known);
        }
        order.clear();
        self.order = order;
        self.inner.get(node.id).unwrap_or(Known::EMPTY)
    }
}

/// farsight: `TextRun::of_text`'s count of an ASCII text: each byte but
/// one that is whitespace after whitespace (or at the start), where the
/// whitespace is `char::is_whitespace`'s in ASCII (tab, line feed, vertical
/// tab, form feed, carriage return, space; `u8::is_ascii_whitespace` leaves
/// out the vertical tab).
fn ascii_count_after_space(bytes: &[u8]) -> usize {
    let space = |b: u8| matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ');
    let Some(&first) = bytes.first() else {
        return 0;
    };
    usize::from(!space(first))
        + bytes
            .windows(2)
            .filter(|w| !(space(w[0]) && space(w[1])))
            .count()
}

/// farsight: what `normalized_char_count` needs to know of a run of text
/// nodes (a subtree's, in document order) to count it after other text
/// without reading it again: it counts each character but the second and
/// later of a run of whitespace, across nodes (an empty text node ends a
/// run), and not the first or last one of the whole.
#[derive(Clone, Copy)]
pub(crate) struct TextRun {
    /// Whether the run holds a text node (else it changes nothing).
    has_text: bool,
    /// The count after whitespace (or at the start).
    after_space: usize,
    /// The count after a character that is not whitespace.
    after_text: usize,
    /// Whether its last text node ends with whitespace.
    ends_in_space: bool,
}

impl TextRun {
    const EMPTY: TextRun = TextRun {
        has_text: false,
        after_space: 0,
        after_text: 0,
        ends_in_space: false,
    };

    fn of_text(text: &str) -> Self {
        // farsight: an ASCII text (most are) counted on its bytes, in a
        // loop without a value carried from one byte to the next; the
        // same count (below).
        let count = if text.is_ascii() {
            ascii_count_after_space(text.as_bytes())
        } else {
            let mut count = 0;
            let mut prev_space = true;
            for c in text.chars() {
                let space = c.is_whitespace();
                if !(prev_space && space) {
                    count += 1;
                }
                prev_space = space;
            }
            count
        };
        // Only the first character's count depends on what came before.
        let starts_with_space = text.starts_with(char::is_whitespace);
        TextRun {
            has_text: true,
            after_space: count,
            after_text: count + usize::from(starts_with_space),
            ends_in_space: text.ends_with(char::is_whitespace),
        }
    }

    fn count_after(&self, space: bool) -> usize {
        if space {
            self.after_space
        } else {
            self.after_text
        }
    }

    fn then(self, next: TextRun) -> TextRun {
        if !next.has_text {
            return self;
        }
        if !self.has_text {
            return next;
        }
        TextRun {
            has_text: true,
            after_space: self.after_space + next.count_after(self.ends_in_space),
            after_text: self.after_text + next.count_after(self.ends_in_space),
            ends_in_space: next.ends_in_space,
        }
    }

    fn normalized_count(&self) -> usize {
        let c = self.after_space;
        let ends_in_space = !self.has_text || self.ends_in_space;
        if ends_in_space && c > 0 { c - 1 } else { c }
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    const FLOAT_TOLERANCE: f64 = 0.00001;

    // farsight: the ASCII count is the count made on chars.
    #[test]
    fn ascii_count_is_the_char_count() {
        let by_chars = |t: &str| {
            let mut count = 0;
            let mut prev_space = true;
            for c in t.chars() {
                let space = c.is_whitespace();
                count += usize::from(!(prev_space && space));
                prev_space = space;
            }
            count
        };
        for t in [
            "", " ", "a", " a", "a ", "  a  b  ", "\t\n\x0B\x0C\r x",
            "x\x0By", "x\x1Cy\x1F", "one, two.\n\n  three",
        ] {
            assert_eq!(ascii_count_after_space(t.as_bytes()), by_chars(t), "{t:?}");
        }
    }

    #[test]
    fn test_text_similarity() {
        let text_a = "The quick brown fox";
        let text_b = "The quick fox";
        let similarity = text_similarity(text_a, text_b);
        assert!(similarity > 0.75);
    }

    #[test]
    fn test_text_similarity_contains() {
        let text_a = "the quick brown fox jumps over the lazy dog";
        let text_b = "The Quick Brown Fox";
        let similarity = text_similarity(text_a, text_b);
        assert!(1.0 - similarity < FLOAT_TOLERANCE);
    }

    #[test]
    fn test_text_similarity_similar() {
        let text_a = "DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶_科技_腾讯网";
        let text_b = "DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶";
        let similarity = text_similarity(text_a, text_b);
        assert!(1.0 - similarity < FLOAT_TOLERANCE);
    }

    #[test]
    fn test_text_similarity_no_words() {
        // `text_b` has no unicode words, so the char totals are zero.
        let similarity = text_similarity("Some title", "...");
        assert!(similarity < FLOAT_TOLERANCE);
    }

    // farsight: the cached count is `normalized_char_count`'s, on every node.
    #[test]
    fn test_char_counter_cache_counts_as_dom_query() {
        let html = "<div> a <b>  b</b><i></i>c <p>\n</p><span> d  e </span>\
            <p><a>f</a> <a> </a></p><p></p> <!-- x --> g\u{a0}</div><div>  </div>\
            <ul><li><a href=\"/x\">one <a>two</a></a> three</li></ul>\
            <p>four <a href=\"#n\">five</a> <a href=\"#\">six</a></p>";
        let doc = dom_query::Document::from(html);
        let mut cache = CharCounterCache::default();
        for n in doc.root().descendants_it() {
            assert_eq!(cache.char_count(&n), n.normalized_char_count(), "{}", n.html());
        }
        let uncached = |n: &NodeRef| link_density_fn(n, None, |n| n.normalized_char_count());
        for n in doc.root().descendants_it() {
            assert_eq!(cache.link_density(&n).to_bits(), uncached(&n).to_bits());
        }
        // Children first: parents are made of known runs.
        let mut cold = CharCounterCache::default();
        let nodes: Vec<_> = doc.root().descendants_it().collect();
        for n in nodes.iter().rev() {
            assert_eq!(cold.char_count(n), n.normalized_char_count(), "{}", n.html());
        }
    }

    #[test]
    fn test_normalize_spaces() {
        let text = "    The quick  brown  fox\n jumps over the lazy dog. ";
        let normalized_text = normalize_spaces(text);
        let expected = "The quick brown fox jumps over the lazy dog.";
        assert_eq!(expected, normalized_text);
    }

    #[test]
    #[cfg(not(feature = "aho-corasick"))]
    fn test_ascii_pattern_check() {
        let class = "article primary main äußerlich konnen";
        let check = BytePatternCheck::new(class);
        assert!(check.contains_any(&["äußerlich"]));
        assert!(check.contains_any(&["article", "post"]));
        assert!(!check.contains_any(&["können"]));
    }
}
