//! Counting a text's characters the way the passes weigh blocks: its
//! non-space characters ([`non_space`]), and dom_query's
//! `normalized_char_count` built from text nodes read once ([`TextRun`],
//! [`Normalized`]). Every text node of the content is counted, some several
//! times: the counts work on bytes where the text is ASCII, and each is
//! tested against the plain count over chars.

use dom_query::{NodeData, NodeId, NodeRef};
use html5ever::local_name;

/// `char::is_whitespace` in ASCII: tab, line feed, vertical tab, form
/// feed, carriage return (`\t` to `\r`) and space. Written without
/// branches, so the loops over bytes below turn into vector instructions.
fn ascii_blank(c: u8) -> bool {
    c == b' ' || c.wrapping_sub(b'\t') < 5
}

/// Non-space characters of `s` (those not `char::is_whitespace`), read
/// byte by byte without decoding: the characters are the bytes that start
/// one, less the white space, ASCII or not. Every text node of the content
/// is counted, some several times, and decoding each character was most
/// of the cost.
pub(crate) fn non_space(s: &str) -> usize {
    let b = s.as_bytes();
    if b.is_ascii() {
        return ascii_non_space(b);
    }
    // A byte that continues a character is 10xxxxxx: below -64 as i8.
    let starts = count_bytes(b, |c| c as i8 >= -0x40);
    starts - ascii_blanks(b) - wide_blanks(b)
}

/// [`non_space`] of ASCII text: its length less its white space.
pub(crate) fn ascii_non_space(b: &[u8]) -> usize {
    b.len() - ascii_blanks(b)
}

/// The bytes of ASCII white space in `b` ([`ascii_blank`]), summed in a
/// form the compiler turns into vector instructions.
fn ascii_blanks(b: &[u8]) -> usize {
    count_bytes(b, ascii_blank)
}

/// How many bytes of `b` are `is`, counted in chunks of [`CHUNK`] bytes
/// whose counts fit a byte: the compiler counts sixteen bytes in each
/// vector instruction, where a sum in `usize` counted two.
#[inline(always)]
fn count_bytes(b: &[u8], is: impl Fn(u8) -> bool) -> usize {
    b.chunks(CHUNK)
        .map(|c| usize::from(c.iter().fold(0u8, |n, &x| n.wrapping_add(u8::from(is(x))))))
        .sum()
}

/// The bytes [`count_bytes`] counts in one `u8`: at most 255, a multiple
/// of the vector's width.
const CHUNK: usize = 128;

/// The characters of white space outside ASCII in `b` (UTF-8): U+0085 and
/// U+00A0 (`C2 85`, `C2 A0`), U+1680 (`E1 9A 80`), U+2000 to U+200A,
/// U+2028, U+2029, U+202F (`E2 80 80`–`8A`, `A8`, `A9`, `AF`), U+205F
/// (`E2 81 9F`) and U+3000 (`E3 80 80`): all of `char::is_whitespace`.
/// A lead byte never continues a character, so each match is one.
fn wide_blanks(b: &[u8]) -> usize {
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let mut n = 0;
    for i in memchr::memchr3_iter(0xC2, 0xE2, 0xE3, b) {
        n += usize::from(match b[i] {
            0xC2 => matches!(at(i + 1), 0x85 | 0xA0),
            0xE2 => matches!(
                (at(i + 1), at(i + 2)),
                (0x80, 0x80..=0x8A | 0xA8 | 0xA9 | 0xAF) | (0x81, 0x9F)
            ),
            _ => (at(i + 1), at(i + 2)) == (0x80, 0x80),
        });
    }
    for i in memchr::memchr_iter(0xE1, b) {
        n += usize::from((at(i + 1), at(i + 2)) == (0x9A, 0x80));
    }
    n
}

/// One text node as [`Normalized`] reads it.
pub(crate) struct TextRun {
    /// Its characters with each run of white space as one, read as if
    /// after a non-space character.
    chars: usize,
    starts_blank: bool,
    ends_blank: bool,
}

impl TextRun {
    /// Whether `s`, read as `self`, is nothing but white space (its
    /// `trim` is empty): empty, or one character once each run of white
    /// space is one, which is white space. Its characters were decoded
    /// again to say so.
    pub(crate) fn is_blank(&self, s: &str) -> bool {
        s.is_empty() || (self.chars == 1 && self.starts_blank)
    }

    pub(crate) fn of(s: &str) -> Self {
        let b = s.as_bytes();
        let chars = if b.is_ascii() {
            ascii_collapsed(b)
        } else {
            chars_collapsed(s)
        };
        TextRun {
            chars,
            starts_blank: s.starts_with(char::is_whitespace),
            ends_blank: s.ends_with(char::is_whitespace),
        }
    }
}

/// [`TextRun::of`]'s count of ASCII text: its length less each blank
/// that follows a blank, in a form the compiler turns into vector
/// instructions (decoding each character was most of the cost).
fn ascii_collapsed(b: &[u8]) -> usize {
    let Some(next) = b.get(1..) else {
        return 0;
    };
    // Each byte but the last with the one after it, in chunks of the same
    // length whose counts fit a byte (see [`count_bytes`]).
    let joined: usize = b
        .chunks(CHUNK)
        .zip(next.chunks(CHUNK))
        .map(|(a, c)| {
            let pairs = a.iter().zip(c);
            usize::from(pairs.fold(0u8, |n, (&a, &c)| {
                n.wrapping_add(u8::from(ascii_blank(a) & ascii_blank(c)))
            }))
        })
        .sum();
    b.len() - joined
}

/// [`TextRun::of`]'s count of any text, character by character.
fn chars_collapsed(s: &str) -> usize {
    let mut chars = 0;
    let mut prev = false;
    for c in s.chars() {
        let blank = c.is_whitespace();
        if !(prev && blank) {
            chars += 1;
        }
        prev = blank;
    }
    chars
}

/// dom_query's `normalized_char_count` of an element, fed its text nodes
/// in page order: the characters with each run of white space as one,
/// none at the start or the end.
pub(crate) struct Normalized {
    chars: usize,
    after_blank: bool,
}

impl Default for Normalized {
    fn default() -> Self {
        Normalized {
            chars: 0,
            after_blank: true,
        }
    }
}

impl Normalized {
    pub(crate) fn add(&mut self, t: &TextRun) {
        // A leading blank after a blank joins its run.
        self.chars += t.chars - usize::from(self.after_blank && t.starts_blank);
        self.after_blank = t.ends_blank;
    }

    pub(crate) fn count(self) -> usize {
        if self.after_blank && self.chars > 0 {
            self.chars - 1
        } else {
            self.chars
        }
    }
}

/// dom_query's `normalized_char_count` of `n`, with the byte counts of
/// [`TextRun`] where dom_query decoded every character.
pub(crate) fn normalized(n: NodeRef<'_>) -> usize {
    let mut all = Normalized::default();
    for d in std::iter::once(n).chain(n.descendants_it()) {
        d.query(|node| {
            if let NodeData::Text { contents } = &node.data {
                all.add(&TextRun::of(contents));
            }
        });
    }
    all.count()
}

/// dom_query's `normalized_char_count` of `root`, and the sum of that of
/// every `<a>` below it, not itself (each of nested links counts its own), in one walk
/// that reads each text node once: counting the links apart read their
/// text a second time, and decoded every character. The walk enters and
/// leaves each node (first child, next sibling, parent) so that a link's
/// count closes when its subtree ends, without looking up ancestors.
pub(crate) fn with_links(root: NodeRef<'_>) -> (usize, usize) {
    let mut all = Normalized::default();
    // The links that hold the node being read, outermost first.
    let mut open: Vec<(NodeId, Normalized)> = Vec::new();
    let mut links = 0;
    let mut n = root;
    loop {
        n.query(|node| match &node.data {
            NodeData::Text { contents } => {
                let text = TextRun::of(contents);
                all.add(&text);
                for (_, a) in &mut open {
                    a.add(&text);
                }
            }
            // Not the root: its own text is `all`.
            NodeData::Element(e) if e.name.local == local_name!("a") && n.id != root.id => {
                open.push((n.id, Normalized::default()));
            }
            _ => {}
        });
        if let Some(c) = n.first_child() {
            n = c;
            continue;
        }
        // Leave `n`, then each ancestor whose last child it was.
        loop {
            if open.last().is_some_and(|(id, _)| *id == n.id)
                && let Some((_, a)) = open.pop()
            {
                links += a.count();
            }
            if n.id == root.id {
                return (all.count(), links);
            }
            if let Some(s) = n.next_sibling() {
                n = s;
                break;
            }
            match n.parent() {
                Some(p) => n = p,
                None => return (all.count(), links),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use dom_query::Document;

    use super::*;

    #[test]
    fn non_space_counts_what_is_not_white_space_of_every_character() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let s = format!("a{c}b{c}");
            let want = s.chars().filter(|c| !c.is_whitespace()).count();
            assert_eq!(non_space(&s), want, "{:X}", c as u32);
        }
        for s in [
            "",
            " \u{a0}\u{3000}x\u{205f}",
            "é \u{2028}\u{1680}ü\t",
            "\u{c2}\u{85}",
        ] {
            let want = s.chars().filter(|c| !c.is_whitespace()).count();
            assert_eq!(non_space(s), want, "{s:?}");
        }
    }

    #[test]
    fn text_runs_add_up_to_dom_querys_normalized_count() {
        for s in [
            "",
            " ",
            "a",
            "  a  b \t\n c ",
            "\u{a0}x\u{2003} \u{3000}y ",
            " \u{a0}\t",
            "\u{200b}",
            " \u{200b} ",
        ] {
            assert_eq!(TextRun::of(s).is_blank(s), s.trim().is_empty(), "{s:?}");
            assert_eq!(run_count(s), dom_count(s), "{s:?}");
        }
    }

    #[test]
    fn with_links_is_dom_querys_counts_of_root_and_links() {
        let html = "<div id=r> a <a href=x> b  <b>c </b></a>\t<span><a>d <a> e</a></a> f</span>\
                    <a></a><p>g<a> h </a></p> </div><a>out</a>";
        let doc = Document::from(html);
        let root = doc.select("#r").nodes().first().cloned();
        let Some(root) = root else {
            panic!("no root");
        };
        let links: usize = root
            .descendants_it()
            .filter(|n| n.node_name().as_deref() == Some("a"))
            .map(|a| a.normalized_char_count())
            .sum();
        assert_eq!(with_links(root), (root.normalized_char_count(), links));
        for n in std::iter::once(root).chain(root.descendants_it()) {
            assert_eq!(normalized(n), n.normalized_char_count());
        }
        let leaf = doc.select("b").nodes().first().cloned();
        if let Some(b) = leaf {
            assert_eq!(with_links(b), (b.normalized_char_count(), 0));
        }
        let link = doc.select("p a").nodes().first().cloned();
        if let Some(a) = link {
            assert_eq!(with_links(a), (a.normalized_char_count(), 0));
        }
    }

    #[test]
    fn byte_counts_across_chunks_are_the_plain_counts() {
        for len in [0, 1, 2, 127, 128, 129, 255, 256, 257, 300, 1000] {
            for pattern in ["  ab\t\n", "a b ", "      ", "abcdef", " é\u{a0} x\u{3000}"] {
                let s: String = pattern.chars().cycle().take(len).collect();
                let want = s.chars().filter(|c| !c.is_whitespace()).count();
                assert_eq!(non_space(&s), want, "{len} {pattern:?}");
                assert_eq!(run_count(&s), dom_count(&s), "{len} {pattern:?}");
            }
        }
    }

    /// [`Normalized`]'s count of `s` as one text node.
    fn run_count(s: &str) -> usize {
        let mut n = Normalized::default();
        n.add(&TextRun::of(s));
        n.count()
    }

    /// dom_query's `normalized_char_count` of a paragraph holding `s`.
    fn dom_count(s: &str) -> usize {
        Document::from(format!("<p>{s}</p>").as_str())
            .select("p")
            .nodes()
            .first()
            .map_or(0, |p| p.normalized_char_count())
    }

    #[test]
    fn ascii_blank_is_char_is_whitespace_in_ascii() {
        for b in 0..=0x7Fu8 {
            assert_eq!(ascii_blank(b), char::from(b).is_whitespace(), "{b:#x}");
        }
    }
}
