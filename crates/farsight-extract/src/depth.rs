//! Bounding the DOM depth before the parser sees the page.
//!
//! html5ever's tree builder walks the stack of open elements for every start
//! tag that closes a `<p>` (scope checks), so a page nested N elements deep
//! costs O(N²): 10,000 nested `<div>`s take 0.2 s to parse, 100,000 take
//! 20 s, and everything after the parser (dom_smoothie above all) is worse.
//! Browsers cap the depth instead (Chromium's parser stops nesting at 512).
//!
//! This pass does the equivalent on the text, in one linear scan: it follows
//! start and end tags with a simplified model of the tree builder's stack
//! (void elements, raw text, comments, implied end tags of `p`, `li`, `dd`,
//! `dt`, table parts, scope rules for end tags) and drops the tags of
//! elements that would open deeper than the limit, so their content joins
//! the element at the limit. The model errs towards counting too deep, so
//! the parser never nests much deeper than the limit; a page that stays
//! under the limit is returned untouched, without a copy.

use crate::fasthash::FastMap;
use std::borrow::Cow;

/// Elements deeper than this are flattened into their ancestor. Real pages
/// rarely pass 60; 256 keeps the parser's scope walks and every later pass
/// cheap.
pub(crate) const MAX_DEPTH: usize = 256;

/// Returns `html` with nesting beyond `limit` flattened (tags dropped,
/// block boundaries kept as `<br>`), or `html` itself when nothing is that
/// deep.
#[cfg(test)]
pub(crate) fn cap_depth(html: &str, limit: usize) -> Cow<'_, str> {
    // Fewer tags than the limit cannot nest that deep.
    if memchr::memchr_iter(b'<', html.as_bytes())
        .nth(limit)
        .is_none()
    {
        return Cow::Borrowed(html);
    }
    finish(Sim::new(html, limit, false))
}

/// [`cap_depth`], and the bodies of scripts and style sheets emptied: they
/// are half the bytes of a typical page, nothing reads them (JSON-LD, which
/// metadata reads, is kept), and the parser tokenizes them character by
/// character.
/// With `blank`, white space between block tags goes too (see
/// `Sim::skip_blank`); sanitised HTML output keeps it for its line breaks.
pub(crate) fn prepare(html: &str, limit: usize, blank: bool) -> Cow<'_, str> {
    if memchr::memchr(0, html.as_bytes()).is_some() {
        let clean = without_nul(html);
        return Cow::Owned(prepare(&clean, limit, blank).into_owned());
    }
    let mut sim = Sim::new(html, limit, true);
    sim.blank = blank;
    finish(sim)
}

/// `html` without its NUL characters. The parser drops them from text (and
/// turns them into U+FFFD elsewhere) but reports a parse error for each, and
/// a page of millions of NULs is a flood of those, not content.
fn without_nul(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    for part in html.split('\0') {
        out.push_str(part);
    }
    out
}

fn finish(mut sim: Sim<'_>) -> Cow<'_, str> {
    let html = sim.html;
    sim.run();
    match sim.out {
        None => Cow::Borrowed(html),
        Some(mut out) => {
            out.push_str(&html[sim.copied..]);
            Cow::Owned(out)
        }
    }
}

// Flags of an open element, for the scope rules.
const SPECIAL: u8 = 1; // html5ever's "special" category
const SPECIAL_NOT_ADP: u8 = 2; // special, except address, div, p
const SCOPE: u8 = 4; // bounds the default scope
const BUTTON_SCOPE: u8 = 8; // bounds button scope
const TABLE_SCOPE: u8 = 16; // bounds table scope

struct Entry<'a> {
    name: Cow<'a, str>,
    /// The name's slot in `Sim::open_at`.
    slot: usize,
    flags: u8,
    /// An SVG/MathML element where tags are not HTML's.
    foreign: bool,
    /// The start tag's text (a formatting element's identity for the
    /// parser's "Noah's Ark" rule).
    tag: &'a str,
    /// How many formatting elements awaited reopening when it opened: a
    /// cell, caption or object is a marker, and closing it forgets the
    /// ones closed inside it.
    reopen_mark: usize,
    /// A formatting element still in the parser's list of active
    /// formatting elements: reopened if something else closes it.
    listed: bool,
}

/// Names asked for at every tag, with their slots in `Sim::open_at`.
const FIXED_SLOTS: [&str; 5] = ["p", "pre", "listing", "table", "noscript"];
const P: usize = 0;
const PRE: usize = 1;
const LISTING: usize = 2;
const TABLE: usize = 3;
const NOSCRIPT: usize = 4;

/// A name of at most seven bytes as one word: its bytes, and its length in
/// the top byte (so no two names share a key). `None` for longer names.
fn short_key(name: &str) -> Option<u64> {
    let bytes = name.as_bytes();
    if bytes.len() > 7 {
        return None;
    }
    let mut key = (bytes.len() as u64) << 56;
    for (i, &c) in bytes.iter().enumerate() {
        key |= u64::from(c) << (8 * i);
    }
    Some(key)
}

/// What the pass asks of an element name at each of its tags, worked out
/// once per name (a slot's) instead of by string compares at every tag.
#[derive(Clone, Copy, Default)]
struct Class {
    /// [`blank_between`].
    blank: bool,
    /// [`closes_p`].
    closes_p: bool,
    /// A start tag that opens nothing: void, or `html`, `head`, `body`.
    ignored: bool,
    /// [`is_formatting`].
    formatting: bool,
    /// [`is_table_part`].
    table_part: bool,
    /// [`is_marker`].
    marker: bool,
    /// [`flags_of`].
    flags: u8,
}

impl Class {
    fn of(name: &str) -> Class {
        Class {
            blank: blank_between(name),
            closes_p: closes_p(name),
            ignored: is_void(name) || matches!(name, "html" | "head" | "body"),
            formatting: is_formatting(name),
            table_part: is_table_part(name),
            marker: is_marker(name),
            flags: flags_of(name),
        }
    }
}

/// What a start tag opened.
enum Opened {
    Plaintext,
    Raw(Raw),
    Other,
}

struct Sim<'a> {
    html: &'a str,
    limit: usize,
    stack: Vec<Entry<'a>>,
    /// Each element name's slot in `open_at`, given when it is first
    /// pushed ([`FIXED_SLOTS`] from the start): one lookup per tag, and
    /// none to pop or to ask for the names checked at every tag.
    by_name: FastMap<Cow<'a, str>, usize>,
    /// The same slots for names of at most seven bytes (nearly every tag),
    /// by [`short_key`]: hashing one word, with no string to compare.
    by_short: FastMap<u64, usize>,
    // Stack positions by name slot, and of each flag, innermost last.
    open_at: Vec<Vec<usize>>,
    /// What each slot's name is, by slot (see [`Class`]).
    classes: Vec<Class>,
    by_flag: [Vec<usize>; 5],
    /// The rewritten page, once something had to be dropped.
    out: Option<String>,
    /// How much of `html` has been copied into `out`.
    copied: usize,
    /// Length of `out` just after the last `<br>` it was given.
    break_at: usize,
    /// Whether to empty scripts and style sheets.
    elide: bool,
    /// Whether to drop white space between block tags.
    blank: bool,
    /// Formatting elements (`<b>`, `<font>`, `<a>`, ...) closed by another
    /// element's end, which the parser keeps in its list of active
    /// formatting elements and reopens at the next text or start tag, one
    /// inside the other: `<div><b><i>…</div>x` repeated nests deeper every
    /// round, around the depth cap (found by fuzzing, issue 11). They
    /// count towards the cap for new formatting start tags (see
    /// `start_tag`). By their start tag's text.
    reopen: Vec<&'a str>,
}

impl<'a> Sim<'a> {
    fn new(html: &'a str, limit: usize, elide: bool) -> Self {
        Sim {
            html,
            limit,
            stack: Vec::new(),
            by_name: FIXED_SLOTS
                .iter()
                .enumerate()
                .map(|(slot, &name)| (Cow::Borrowed(name), slot))
                .collect(),
            by_short: FIXED_SLOTS
                .iter()
                .enumerate()
                .filter_map(|(slot, name)| Some((short_key(name)?, slot)))
                .collect(),
            open_at: vec![Vec::new(); FIXED_SLOTS.len()],
            classes: FIXED_SLOTS.iter().map(|n| Class::of(n)).collect(),
            by_flag: Default::default(),
            out: None,
            copied: 0,
            break_at: usize::MAX,
            elide,
            blank: false,
            reopen: Vec::new(),
        }
    }

    fn run(&mut self) {
        let bytes = self.html.as_bytes();
        let mut i = 0;
        let mut attrs: Vec<(usize, usize)> = Vec::new();
        // The end of the last tag, if it was a block's (see `blank_between`).
        let mut after_block: Option<usize> = None;
        while let Some(off) = memchr::memchr(b'<', &bytes[i..]) {
            let lt = i + off;
            // Text since the last tag reopens closed formatting elements.
            if off > 0 && !self.reopen.is_empty() && !self.in_foreign() {
                self.reconstruct();
            }
            i = lt + 1;
            let last_block = after_block.take();
            match bytes.get(lt + 1) {
                Some(b'!') => {
                    i = skip_markup_decl(bytes, lt, self.in_foreign());
                    // Comments are nobody's content; React's end of a
                    // Suspense fallback stays for `streamed.rs`.
                    if self.elide
                        && bytes[lt..].starts_with(b"<!--")
                        && !bytes[lt..].starts_with(b"<!--/$-->")
                    {
                        self.skip(lt, i);
                    }
                }
                Some(b'?') => i = find_gt(bytes, lt + 2),
                Some(b'/') => match bytes.get(lt + 2) {
                    Some(c) if c.is_ascii_alphabetic() => {
                        let (name, end) = tag_name(self.html, lt + 2);
                        let close = skip_attrs(bytes, end).1;
                        if close > bytes.len() {
                            return; // An unfinished tag at the end is dropped.
                        }
                        let slot = self.slot(&name);
                        let block = self.class(slot).blank;
                        if block && let Some(from) = last_block {
                            self.skip_blank(from, lt);
                        }
                        self.end_tag(name, slot, lt, close);
                        i = close;
                        after_block = block.then_some(close);
                    }
                    _ => i = find_gt(bytes, lt + 2),
                },
                Some(c) if c.is_ascii_alphabetic() => {
                    let (name, end) = tag_name(self.html, lt + 1);
                    attrs.clear();
                    let noting = if self.elide { Some(&mut attrs) } else { None };
                    let (self_closing, close) = skip_attrs_noting(bytes, end, noting);
                    if close > bytes.len() {
                        return;
                    }
                    i = close;
                    // Style sheets, icons, preloads: only the links
                    // metadata.rs reads are kept; the rest are nodes for
                    // nothing. Void, so no end tag to follow.
                    if self.elide
                        && &*name == "link"
                        && !crate::metadata::may_read_link(&bytes[end..close])
                    {
                        self.skip(lt, close);
                        continue;
                    }
                    let slot = self.slot(&name);
                    let block = self.class(slot).blank;
                    if block && let Some(from) = last_block {
                        self.skip_blank(from, lt);
                    }
                    let opened = self.start_tag(name, slot, self_closing, lt, close);
                    // A frame in a `<noscript>` that the noscript's end
                    // closes (see `frame_cut_by_noscript`) goes with its
                    // text: a browser never shows either.
                    let cut = match opened {
                        Opened::Raw(Raw::Iframe)
                            if self.elide
                                && self.copied <= lt
                                && self.nearest_in(NOSCRIPT).is_some() =>
                        {
                            frame_cut_by_noscript(bytes, close)
                        }
                        _ => None,
                    };
                    // Scripts and style sheets go whole: removed after
                    // parsing anyway, they are a twentieth of the elements.
                    let whole = cut.is_some()
                        || (self.elide
                            && self.copied <= lt
                            && matches!(opened, Opened::Raw(Raw::Script | Raw::Style))
                            && matches!(opened, Opened::Raw(k) if elidable(k, &bytes[lt..close])));
                    // Unless the tag itself was dropped.
                    if self.copied <= lt && !whole {
                        for &(from, to) in &attrs {
                            self.skip(from, to);
                        }
                    }
                    after_block = block.then_some(close);
                    match opened {
                        Opened::Plaintext => return,
                        Opened::Raw(kind) => {
                            let (body_end, end) = match (kind, cut) {
                                (_, Some(at)) => (at, at),
                                (Raw::Svg, _) => find_svg_end(self.html, close),
                                _ => find_raw_end(bytes, close, kind),
                            };
                            if whole {
                                self.skip(lt, end);
                            } else if self.elide && elidable(kind, &bytes[lt..close]) {
                                self.skip(close, body_end);
                            }
                            i = end;
                            after_block = block.then_some(end);
                            // The raw-text element closes itself.
                            self.pop_top();
                        }
                        Opened::Other => {}
                    }
                }
                _ => {}
            }
        }
    }

    /// Leaves out the white space at `from..to` between two block tags: the
    /// parser would make a text node of it (a fifth of a typical page's
    /// nodes) that no renderer shows. Not inside `<pre>`, where it shows.
    fn skip_blank(&mut self, from: usize, to: usize) {
        if !self.blank
            || from >= to
            || self.copied > from
            || self.in_foreign()
            || self.nearest_in(PRE).is_some()
            || self.nearest_in(LISTING).is_some()
            || !self.html.as_bytes()[from..to].iter().all(|&c| is_space(c))
        {
            return;
        }
        self.skip(from, to);
    }

    fn top_name(&self) -> Cow<'a, str> {
        self.stack
            .last()
            .map(|e| e.name.clone())
            .unwrap_or_default()
    }

    /// Whether tags are read as SVG/MathML here (inside a foreign element
    /// that is not an HTML integration point).
    fn in_foreign(&self) -> bool {
        self.stack
            .last()
            .is_some_and(|e| e.foreign && !integration_point(&e.name))
    }

    fn last_flag(&self, flag: u8) -> Option<usize> {
        self.by_flag[flag.trailing_zeros() as usize].last().copied()
    }

    fn nearest(&self, name: &str) -> Option<usize> {
        self.nearest_in(*self.by_name.get(name)?)
    }

    /// The slot of the element name `name`, given it now if it has none.
    // A `Cow`, not a `&str`: a new name is kept as it came, a borrowed
    // one without a copy.
    #[allow(clippy::ptr_arg)]
    fn slot(&mut self, name: &Cow<'a, str>) -> usize {
        let short = short_key(name);
        let known = match short {
            Some(key) => self.by_short.get(&key),
            None => self.by_name.get(&**name),
        };
        if let Some(&slot) = known {
            return slot;
        }
        let slot = self.open_at.len();
        self.by_name.insert(name.clone(), slot);
        if let Some(key) = short {
            self.by_short.insert(key, slot);
        }
        self.open_at.push(Vec::new());
        self.classes.push(Class::of(name));
        slot
    }

    /// What the name in `slot` is (nothing for a slot never given).
    fn class(&self, slot: usize) -> Class {
        self.classes.get(slot).copied().unwrap_or_default()
    }

    /// [`Sim::in_scope`] for the name in `slot`.
    fn in_scope_of(&self, slot: usize, bound: u8) -> Option<usize> {
        self.nearest_in(slot).filter(|&at| self.scoped(at, bound))
    }

    /// The innermost open element of the name in `slot`.
    fn nearest_in(&self, slot: usize) -> Option<usize> {
        self.open_at.get(slot).and_then(|v| v.last().copied())
    }

    /// Whether the nearest `name` has no element flagged `bound` above it.
    fn in_scope(&self, name: &str, bound: u8) -> Option<usize> {
        self.nearest(name).filter(|&at| self.scoped(at, bound))
    }

    /// Whether no element flagged `bound` is open above position `at`.
    fn scoped(&self, at: usize, bound: u8) -> bool {
        self.last_flag(bound).is_none_or(|b| b <= at)
    }

    /// Handles a start tag.
    fn start_tag(
        &mut self,
        name: Cow<'a, str>,
        slot: usize,
        self_closing: bool,
        from: usize,
        to: usize,
    ) -> Opened {
        let n: &str = &name;
        if self.in_foreign() {
            if !breaks_foreign(n) {
                if !self_closing {
                    self.push(name, slot, true, from, to);
                }
                return Opened::Other;
            }
            while self.in_foreign() {
                self.pop_top();
            }
        }
        let class = self.class(slot);
        if class.ignored {
            return Opened::Other;
        }
        // Outside a table the parser ignores table parts (found by
        // fuzzing: counting them open let `</td>` "close" divs the parser
        // keeps open).
        if class.table_part && self.nearest_in(TABLE).is_none() {
            return Opened::Other;
        }
        // Text and most start tags reopen the formatting elements an
        // earlier end closed; the blocks that close a paragraph do not.
        if !class.closes_p {
            self.reconstruct();
        }
        if class.formatting && self.formatting_start(n, slot, from, to) {
            self.drop_tag(from, to, false);
            return Opened::Other;
        }
        if class.closes_p
            && let Some(at) = self
                .nearest_in(P)
                .filter(|&at| self.scoped(at, BUTTON_SCOPE))
        {
            self.pop_to(at);
        }
        match n {
            "li" => self.close_item(&["li"]),
            "dd" | "dt" => self.close_item(&["dd", "dt"]),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" if is_heading(&self.top_name()) => {
                self.pop_top();
            }
            // With a special element in between, the parser runs the
            // adoption agency instead; keeping both open overestimates.
            "a" | "nobr" => {
                if let Some(at) = self.in_scope(n, SPECIAL) {
                    self.pop_to(at);
                }
            }
            "button" => {
                if let Some(at) = self.in_scope(n, SCOPE) {
                    self.pop_to(at);
                }
            }
            "option" | "optgroup" if self.top_name() == "option" => self.pop_top(),
            "td" | "th" => self.close_in_table(&["td", "th"]),
            "tr" => self.close_in_table(&["tr"]),
            "tbody" | "thead" | "tfoot" => self.close_in_table(&["tbody", "thead", "tfoot"]),
            _ => {}
        }
        let opened = match raw_text(n) {
            Some(kind) => Opened::Raw(kind),
            // Nothing renders SVG; its paths are many elements and long
            // attributes. The empty element stays (a media marker).
            None if n == "svg" && self.elide && !self_closing => Opened::Raw(Raw::Svg),
            None if n == "plaintext" => Opened::Plaintext,
            None => Opened::Other,
        };
        let foreign = matches!(n, "svg" | "math");
        self.push(name, slot, foreign, from, to);
        opened
    }

    /// `<li>`, `<dd>`, `<dt>` close an open item unless a special element
    /// (other than address, div, p) sits between.
    fn close_item(&mut self, names: &[&str]) {
        let at = names.iter().filter_map(|n| self.nearest(n)).max();
        if let Some(at) = at
            && self.last_flag(SPECIAL_NOT_ADP).is_none_or(|b| b <= at)
        {
            self.pop_to(at);
        }
    }

    fn close_in_table(&mut self, names: &[&str]) {
        let at = names.iter().filter_map(|n| self.nearest(n)).max();
        if let Some(at) = at
            && self.last_flag(TABLE_SCOPE).is_none_or(|b| b <= at)
        {
            self.pop_to(at);
        }
    }

    fn end_tag(&mut self, name: Cow<'a, str>, slot: usize, from: usize, to: usize) {
        let n: &str = &name;
        let class = self.class(slot);
        if !self.in_foreign() && class.table_part && self.nearest_in(TABLE).is_none() {
            return;
        }
        let at = if self.in_foreign() {
            self.nearest_in(slot)
        } else if n == "form" {
            // The parser removes just the form and leaves what is open
            // inside it; unless the form is innermost, keep it open here.
            self.nearest_in(slot)
                .filter(|&at| at + 1 == self.stack.len())
        } else if is_heading(n) {
            ["h1", "h2", "h3", "h4", "h5", "h6"]
                .iter()
                .filter_map(|h| self.in_scope(h, SCOPE))
                .max()
        } else if n == "p" {
            self.in_scope_of(slot, BUTTON_SCOPE)
        } else if n == "li" {
            self.in_scope_of(slot, SCOPE).filter(|&at| {
                ["ol", "ul"]
                    .iter()
                    .filter_map(|l| self.nearest(l))
                    .all(|l| l < at)
            })
        } else if class.flags & SPECIAL != 0 {
            self.in_scope_of(slot, SCOPE)
        } else {
            // Other end tags stop at a special element; for formatting
            // elements that would run the adoption agency, which we do not
            // model: keeping them open only overestimates the depth.
            self.in_scope_of(slot, SPECIAL)
        };
        let Some(at) = at else {
            // A formatting end tag without its element open removes the
            // element from the parser's list.
            if class.formatting {
                self.forget_reopen(n);
            }
            return;
        };
        if at >= self.limit {
            self.drop_tag(from, to, is_block(n));
        }
        self.pop_to(at);
        // Its own end tag closes a formatting element for good.
        if class.formatting {
            self.forget_reopen(n);
        }
    }

    /// Forgets the last formatting element named `name` awaiting reopening.
    /// Asked only for a formatting element's name (its slot's
    /// [`Class::formatting`], not the names compared again at each end tag).
    fn forget_reopen(&mut self, name: &str) {
        if let Some(i) = self.reopen.iter().rposition(|t| tag_name(t, 1).0 == name) {
            self.reopen.remove(i);
        }
    }

    /// A formatting start tag, as the parser's list of active formatting
    /// elements sees it: a new `<a>` ends the old one's reopening, and at
    /// most three identical tags are kept ("Noah's Ark"). Whether the tag
    /// must be left out: open elements and those awaiting reopening reach
    /// the cap. Leaving out a formatting tag loses no text.
    fn formatting_start(&mut self, name: &str, slot: usize, from: usize, to: usize) -> bool {
        if name == "a" {
            self.reopen.retain(|t| tag_name(t, 1).0 != "a");
        }
        // Identical tags in the list, open or awaiting reopening: with
        // three already, the earliest leaves the list (it stays open if it
        // is, but is not reopened once closed).
        let tag = &self.html[from..to];
        let waiting = self.reopen.iter().filter(|t| **t == tag).count();
        let stack = &self.stack;
        let positions = self.open_at.get(slot).map_or(&[][..], Vec::as_slice);
        let mut open = positions
            .iter()
            .copied()
            .filter(|&i| stack[i].listed && stack[i].tag == tag);
        let first_open = open.next();
        if waiting + usize::from(first_open.is_some()) + open.count() >= 3 {
            match self.reopen.iter().position(|t| *t == tag) {
                Some(i) => {
                    self.reopen.remove(i);
                }
                None => {
                    if let Some(i) = first_open {
                        self.stack[i].listed = false;
                    }
                }
            }
        }
        self.stack.len() + self.reopen.len() >= self.limit
    }

    fn push(&mut self, name: Cow<'a, str>, slot: usize, foreign: bool, from: usize, to: usize) {
        let at = self.stack.len();
        // Raw-text and plaintext elements keep their tags: without them
        // their text would be read as markup.
        let keeps_tags = foreign || (raw_text(&name).is_none() && &*name != "plaintext");
        let dropped = at >= self.limit && keeps_tags;
        if dropped {
            self.drop_tag(from, to, is_block(&name));
        }
        let tag = &self.html[from..to.min(self.html.len())];
        self.push_entry(name, slot, foreign, tag, dropped);
    }

    /// The formatting elements awaiting reopening, reopened (the parser's
    /// "reconstruct the active formatting elements"): open again, inside
    /// what is open, though no tag in the text says so.
    fn reconstruct(&mut self) {
        for tag in std::mem::take(&mut self.reopen) {
            let (name, _) = tag_name(tag, 1);
            let slot = self.slot(&name);
            self.push_entry(name, slot, false, tag, false);
        }
    }

    fn push_entry(
        &mut self,
        name: Cow<'a, str>,
        slot: usize,
        foreign: bool,
        tag: &'a str,
        dropped: bool,
    ) {
        let at = self.stack.len();
        let class = self.class(slot);
        let flags = if !foreign {
            class.flags
        } else if integration_point(&name) {
            SCOPE | BUTTON_SCOPE
        } else {
            0
        };
        for (bit, list) in self.by_flag.iter_mut().enumerate() {
            if flags & (1 << bit) != 0 {
                list.push(at);
            }
        }
        if let Some(v) = self.open_at.get_mut(slot) {
            v.push(at);
        }
        let listed = !foreign && !dropped && class.formatting;
        self.stack.push(Entry {
            name,
            slot,
            flags,
            foreign,
            tag,
            reopen_mark: self.reopen.len(),
            listed,
        });
    }

    fn pop_top(&mut self) {
        self.pop_to(self.stack.len().saturating_sub(1));
    }

    /// Pops the element at `at` and everything above it.
    fn pop_to(&mut self, at: usize) {
        while self.stack.len() > at {
            let Some(e) = self.stack.pop() else {
                return;
            };
            let idx = self.stack.len();
            if e.listed {
                self.reopen.push(e.tag);
            } else if !e.foreign && self.class(e.slot).marker {
                self.reopen.truncate(e.reopen_mark);
            }
            if let Some(v) = self.open_at.get_mut(e.slot) {
                v.pop();
            }
            for (bit, list) in self.by_flag.iter_mut().enumerate() {
                if e.flags & (1 << bit) != 0 && list.last() == Some(&idx) {
                    list.pop();
                }
            }
        }
    }

    /// Leaves `from..to` out of the output.
    fn skip(&mut self, from: usize, to: usize) {
        let out = self
            .out
            .get_or_insert_with(|| String::with_capacity(self.html.len()));
        out.push_str(&self.html[self.copied..from]);
        self.copied = to;
    }

    /// Leaves the tag at `from..to` out of the output; a block boundary
    /// becomes a line break so words on either side stay apart.
    fn drop_tag(&mut self, from: usize, to: usize, block: bool) {
        let out = self
            .out
            .get_or_insert_with(|| String::with_capacity(self.html.len()));
        out.push_str(&self.html[self.copied..from]);
        // One break between two runs of text is enough.
        if block && out.len() != self.break_at {
            out.push_str("<br>");
            self.break_at = out.len();
        }
        self.copied = to;
    }
}

/// The lower-cased tag name starting at `at`, and where it ends.
pub(crate) fn tag_name(html: &str, at: usize) -> (Cow<'_, str>, usize) {
    let bytes = html.as_bytes();
    // One pass, noting capitals on the way (every tag of the page).
    let mut end = at;
    let mut upper = false;
    while let Some(&c) = bytes.get(end)
        && !ENDS_TAG_NAME[usize::from(c)]
    {
        upper |= c.is_ascii_uppercase();
        end += 1;
    }
    let raw = &html[at..end];
    let name = if upper {
        Cow::Owned(raw.to_ascii_lowercase())
    } else {
        Cow::Borrowed(raw)
    };
    (name, end)
}

fn is_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// Skips a tag's attributes as the tokenizer does (a `>` inside a quoted
/// value does not end the tag). Returns whether the tag is self-closing and
/// the index just past its `>` (past the end when the tag is unfinished).
pub(crate) fn skip_attrs(bytes: &[u8], i: usize) -> (bool, usize) {
    skip_attrs_noting(bytes, i, None)
}

/// [`skip_attrs`], noting in `droppable` the spans (leading space
/// included) of attributes nothing reads: see [`droppable_attr`].
fn skip_attrs_noting(
    bytes: &[u8],
    mut i: usize,
    mut droppable: Option<&mut Vec<(usize, usize)>>,
) -> (bool, usize) {
    let len = bytes.len();
    let mut slash = false;
    // Attributes seen in this tag, and where the last one ended.
    let mut count = 0usize;
    let mut last_end = i;
    while i < len {
        match bytes[i] {
            b'>' => return (slash, i + 1),
            b'/' => {
                slash = true;
                i += 1;
                continue;
            }
            c if is_space(c) => {
                let from = i;
                i += 1;
                // Most often one space: no run to look for.
                if i < len && !is_space(bytes[i]) {
                    continue;
                }
                while i < len && is_space(bytes[i]) {
                    i += 1;
                }
                // Between attributes one space separates as well as many,
                // and the tokenizer steps through each (pretty-printed
                // tags, a sixtieth of a page's bytes): all but the last go.
                // Not past the attribute limit, whose spans start here.
                if i - from > 1
                    && count < MAX_ATTRIBUTES
                    && let Some(spans) = droppable.as_deref_mut()
                {
                    spans.push((from, i - 1));
                }
                continue;
            }
            _ => {}
        }
        slash = false;
        let name_at = i;
        // Attribute name (a leading '=' belongs to it).
        i = name_end(bytes, i + 1);
        let name_end = i;
        // A valueless attribute's span ends with its name: the spaces after
        // it lead the next attribute's span, and spans must not overlap.
        let mut span_end = i;
        while i < len && is_space(bytes[i]) {
            i += 1;
        }
        if i < len && bytes[i] == b'=' {
            i += 1;
            while i < len && is_space(bytes[i]) {
                i += 1;
            }
            match bytes.get(i) {
                Some(&q @ (b'"' | b'\'')) => {
                    i = memchr::memchr(q, &bytes[i + 1..]).map_or(len + 1, |p| i + 1 + p + 1);
                }
                _ => {
                    while i < len && !ENDS_UNQUOTED[usize::from(bytes[i])] {
                        i += 1;
                    }
                }
            }
            span_end = i;
        }
        count += 1;
        if let Some(spans) = droppable.as_deref_mut()
            && span_end <= len
        {
            if count > MAX_ATTRIBUTES {
                // With what separates it from the one before.
                spans.push((last_end, span_end));
            } else if name_at > 0
                && is_space(bytes[name_at - 1])
                && droppable_attr(&bytes[name_at..name_end.min(span_end)])
            {
                // The next attribute may follow a quoted value without a
                // space (`"simple"data-x`: browsers read two attributes,
                // Squarespace writes them so): the space before this one
                // then stays, or the tag's name and that attribute would
                // run together into one name (`<divdata-x`).
                let glued = bytes
                    .get(span_end)
                    .is_some_and(|&c| !is_space(c) && !matches!(c, b'>' | b'/'));
                spans.push((if glued { name_at } else { name_at - 1 }, span_end));
            }
        }
        last_end = span_end;
    }
    (false, len + 1)
}

/// The `data-*` attributes the pre-parse pass keeps, by a fragment of the
/// name after `data-` (`lazy` keeps `data-lazy-src`); every other `data-*`
/// attribute and every `on*` handler is dropped before parsing (see
/// [`droppable_attr`]). Each is here for its reader:
/// - `src`, `lazy`, `original`, `img`, `image`: lazy-loaded images
///   (render.rs reads `data-src`; Readability's lazy-image fix reads any
///   attribute holding an image's address, `data-original`, `data-lazy-src`);
/// - `lang`: a code block's language (`data-lang`, `data-language`,
///   render.rs);
/// - `paywall`, `testid`: paywall markers (paywall.rs);
/// - `url`, `permalink`: a post's own address on infinite-scroll pages
///   (own_article.rs);
/// - `nosnippet`: Google's mark for text a search snippet must not quote
///   (an article's author bio, related-story cards: region.rs);
/// - `role`: Invision Community's post text (`data-role="commentContent"`,
///   posts.rs).
pub(crate) const KEPT_DATA_ATTRIBUTES: [&str; 12] = [
    "src",
    "lazy",
    "original",
    "img",
    "image",
    "lang",
    "paywall",
    "testid",
    "url",
    "permalink",
    "nosnippet",
    "role",
];

/// The bytes that end an attribute's name: white space, `/`, `>`, `=`.
/// A table, as the scan over every tag's attributes goes byte by byte.
static ENDS_NAME: [bool; 256] = byte_set(b"\t\n\x0c\r /=>");

/// The bytes that end a tag's name: white space, `/`, `>`.
static ENDS_TAG_NAME: [bool; 256] = byte_set(b"\t\n\x0c\r />");

/// The bytes that end an unquoted attribute value: white space, `>`.
static ENDS_UNQUOTED: [bool; 256] = byte_set(b"\t\n\x0c\r >");

const fn byte_set(members: &[u8]) -> [bool; 256] {
    let mut set = [false; 256];
    let mut i = 0;
    while i < members.len() {
        set[members[i] as usize] = true;
        i += 1;
    }
    set
}

/// Whether an attribute, by its name, is one nothing downstream reads and
/// the parser may skip: event handlers and `data-*` attributes (a tenth of
/// a typical page's bytes) but [`KEPT_DATA_ATTRIBUTES`].
fn droppable_attr(name: &[u8]) -> bool {
    if name.len() > 2 && name[..2].eq_ignore_ascii_case(b"on") {
        return true;
    }
    if name.len() <= 5 || !name[..5].eq_ignore_ascii_case(b"data-") {
        return false;
    }
    let rest = &name[5..];
    // Each key is tried only where its first letter stands (most bytes
    // start none): the names are a few bytes, and building memmem's
    // searcher for each of the twelve cost more than the search.
    !(0..rest.len()).any(|at| {
        let mut keys = KEPT_BY_FIRST[usize::from(rest[at])];
        while keys != 0 {
            let key = KEPT_DATA_ATTRIBUTES[keys.trailing_zeros() as usize].as_bytes();
            if rest
                .get(at..at + key.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(key))
            {
                return true;
            }
            keys &= keys - 1;
        }
        false
    })
}

/// By a byte, which of [`KEPT_DATA_ATTRIBUTES`] start with it (either
/// case): bit `k` for the `k`th.
static KEPT_BY_FIRST: [u16; 256] = {
    let mut table = [0u16; 256];
    let mut k = 0;
    while k < KEPT_DATA_ATTRIBUTES.len() {
        let first = KEPT_DATA_ATTRIBUTES[k].as_bytes()[0];
        table[first.to_ascii_lowercase() as usize] |= 1 << k;
        table[first.to_ascii_uppercase() as usize] |= 1 << k;
        k += 1;
    }
    table
};

/// Where the attribute name that goes on at `i` ends: the first byte from
/// `i` in [`ENDS_NAME`], or the end. Eight bytes at a time: a word with
/// none of the ending bytes, nor any byte below `!` (white space is among
/// them), is passed whole; else the first such byte is looked at, and a
/// control byte that is not white space is passed as part of the name.
fn name_end(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    // High bit set in the byte where `w` has a zero byte (exact for the
    // lowest such byte, which is all that is read).
    let zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGH;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let found = w.wrapping_sub(ONES * 0x21) & !w & HIGH
            | zero(w ^ (ONES * u64::from(b'/')))
            | zero(w ^ (ONES * u64::from(b'=')))
            | zero(w ^ (ONES * u64::from(b'>')));
        if found == 0 {
            i += 8;
            continue;
        }
        let at = i + (found.trailing_zeros() / 8) as usize;
        if ENDS_NAME[usize::from(bytes[at])] {
            return at;
        }
        i = at + 1;
    }
    while i < bytes.len() && !ENDS_NAME[usize::from(bytes[i])] {
        i += 1;
    }
    i
}

/// Attributes of one tag beyond this many are left out. The tokenizer
/// checks each new attribute against all before it for a duplicate, so one
/// tag of 500,000 attributes took a minute (issue 11); real elements carry
/// a few dozen at most.
const MAX_ATTRIBUTES: usize = 128;

/// Index just past the next `>` at or after `from`.
pub(crate) fn find_gt(bytes: &[u8], from: usize) -> usize {
    let from = from.min(bytes.len());
    memchr::memchr(b'>', &bytes[from..]).map_or(bytes.len(), |p| from + p + 1)
}

/// Skips `<!--...-->`, `<![CDATA[...]]>` (in SVG/MathML) and `<!...>`.
pub(crate) fn skip_markup_decl(bytes: &[u8], lt: usize, foreign: bool) -> usize {
    let rest = &bytes[lt..];
    if rest.starts_with(b"<!--") {
        let body = lt + 4;
        // "<!-->" and "<!--->" are complete (empty) comments.
        for short in [&b">"[..], b"->"] {
            if bytes[body..].starts_with(short) {
                return body + short.len();
            }
        }
        return memchr::memmem::find(&bytes[body..], b"-->").map_or(bytes.len(), |p| body + p + 3);
    }
    if foreign && rest.starts_with(b"<![CDATA[") {
        let body = lt + 9;
        return memchr::memmem::find(&bytes[body..], b"]]>").map_or(bytes.len(), |p| body + p + 3);
    }
    find_gt(bytes, lt + 2)
}

#[derive(Clone, Copy)]
pub(crate) enum Raw {
    Script,
    Style,
    Textarea,
    Title,
    Xmp,
    Iframe,
    Noembed,
    Noframes,
    /// Not raw text: an SVG image whose body is dropped whole.
    Svg,
}

impl Raw {
    fn name(self) -> &'static [u8] {
        match self {
            Raw::Script => b"script",
            Raw::Style => b"style",
            Raw::Textarea => b"textarea",
            Raw::Title => b"title",
            Raw::Xmp => b"xmp",
            Raw::Iframe => b"iframe",
            Raw::Noembed => b"noembed",
            Raw::Noframes => b"noframes",
            Raw::Svg => b"svg",
        }
    }
}

pub(crate) fn raw_text(name: &str) -> Option<Raw> {
    Some(match name {
        "script" => Raw::Script,
        "style" => Raw::Style,
        "textarea" => Raw::Textarea,
        "title" => Raw::Title,
        "xmp" => Raw::Xmp,
        "iframe" => Raw::Iframe,
        "noembed" => Raw::Noembed,
        "noframes" => Raw::Noframes,
        _ => return None,
    })
}

/// Whether a raw-text element's body can go: a script other than JSON-LD,
/// a style sheet, an SVG image. `tag` is its start tag.
fn elidable(kind: Raw, tag: &[u8]) -> bool {
    match kind {
        Raw::Style | Raw::Svg => true,
        Raw::Script => !tag.windows(7).any(|w| w.eq_ignore_ascii_case(b"ld+json")),
        _ => false,
    }
}

/// Where the end tag that closes a raw-text element starts and the index
/// just past it (both the end of the text when there is none).
pub(crate) fn find_raw_end(bytes: &[u8], from: usize, kind: Raw) -> (usize, usize) {
    let name = kind.name();
    let mut i = from;
    while let Some(p) = memchr::memmem::find(&bytes[i..], b"</") {
        let at = i + p + 2;
        let end = at + name.len();
        if bytes.len() >= end
            && bytes[at..end].eq_ignore_ascii_case(name)
            && bytes
                .get(end)
                .is_none_or(|&c| is_space(c) || c == b'/' || c == b'>')
        {
            return (at - 2, skip_attrs(bytes, end).1.min(bytes.len()));
        }
        i = at;
    }
    (bytes.len(), bytes.len())
}

/// Where the `<noscript>` around an `<iframe>` whose start tag ends at
/// `from` ends, when that comes before the frame's own end tag. Google Tag
/// Manager's snippet, `<noscript><iframe src=".../ns.html?id=GTM-..."
/// height="0" width="0" /></noscript>`, is often written self-closing,
/// which HTML does not close: a browser, which runs scripts, reads the
/// noscript as text up to `</noscript>`, but this parser reads it as markup
/// (its content is shown when it holds the page, see `clean.rs`), and the
/// open frame's raw text took the rest of the page along. `None` when the
/// frame is closed first (or neither end tag follows). The walk stops at
/// the first of the two, which reading then goes past: linear in the page.
fn frame_cut_by_noscript(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(p) = memchr::memmem::find(&bytes[i..], b"</") {
        let at = i + p;
        let is_end_of = |name: &[u8]| {
            let end = at + 2 + name.len();
            bytes.len() >= end
                && bytes[at + 2..end].eq_ignore_ascii_case(name)
                && bytes
                    .get(end)
                    .is_none_or(|&c| is_space(c) || c == b'/' || c == b'>')
        };
        if is_end_of(b"iframe") {
            return None;
        }
        if is_end_of(b"noscript") {
            return Some(at);
        }
        i = at + 2;
    }
    None
}

/// Where an SVG image's body ends: at its `</svg>`, or, as a browser
/// reads it, at the first HTML start tag that breaks out of foreign
/// content (outside a `<foreignObject>`). An `<svg>` left unclosed before
/// the page's `<ul>` or `<div>` must not take the rest of the page along.
/// Returns the body's end and where reading goes on.
fn find_svg_end(html: &str, from: usize) -> (usize, usize) {
    let bytes = html.as_bytes();
    let mut i = from;
    let mut in_foreign_object = 0usize;
    while let Some(p) = memchr::memchr(b'<', &bytes[i..]) {
        let lt = i + p;
        let closing = bytes.get(lt + 1) == Some(&b'/');
        let at = lt + 1 + usize::from(closing);
        if !bytes.get(at).is_some_and(u8::is_ascii_alphabetic) {
            i = lt + 1;
            continue;
        }
        let (name, end) = tag_name(html, at);
        match (closing, &*name) {
            (true, "svg") if in_foreign_object == 0 => {
                return (lt, skip_attrs(bytes, end).1.min(bytes.len()));
            }
            (false, "foreignobject") => in_foreign_object += 1,
            (true, "foreignobject") => in_foreign_object = in_foreign_object.saturating_sub(1),
            (false, n) if in_foreign_object == 0 && breaks_foreign(n) => return (lt, lt),
            _ => {}
        }
        i = end;
    }
    (bytes.len(), bytes.len())
}

pub(crate) fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "basefont"
            | "bgsound"
            | "br"
            | "col"
            | "embed"
            | "frame"
            | "hr"
            | "image"
            | "img"
            | "input"
            | "keygen"
            | "link"
            | "meta"
            | "param"
            | "source"
            | "track"
            | "wbr"
    )
}

fn is_heading(name: &str) -> bool {
    matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// Start tags that close an open `<p>` in button scope.
fn closes_p(name: &str) -> bool {
    is_heading(name)
        || matches!(
            name,
            "address"
                | "article"
                | "aside"
                | "blockquote"
                | "center"
                | "details"
                | "dialog"
                | "dir"
                | "div"
                | "dl"
                | "fieldset"
                | "figcaption"
                | "figure"
                | "footer"
                | "header"
                | "hgroup"
                | "main"
                | "menu"
                | "nav"
                | "ol"
                | "p"
                | "search"
                | "section"
                | "summary"
                | "ul"
                | "pre"
                | "listing"
                | "form"
                | "li"
                | "dd"
                | "dt"
                | "plaintext"
                | "xmp"
        )
}

/// Tags around which white space is never shown: blocks, and elements
/// that show nothing.
fn blank_between(name: &str) -> bool {
    is_block(name)
        || matches!(
            name,
            "html"
                | "head"
                | "body"
                | "title"
                | "meta"
                | "link"
                | "script"
                | "style"
                | "noscript"
                | "hr"
                | "br"
        )
}

/// Elements whose dropped tags still separate the words around them.
pub(crate) fn is_block(name: &str) -> bool {
    closes_p(name)
        || matches!(
            name,
            "table"
                | "tr"
                | "td"
                | "th"
                | "caption"
                | "tbody"
                | "thead"
                | "tfoot"
                | "option"
                | "select"
        )
}

fn flags_of(name: &str) -> u8 {
    let special = is_heading(name)
        || matches!(
            name,
            "address"
                | "applet"
                | "article"
                | "aside"
                | "blockquote"
                | "button"
                | "caption"
                | "center"
                | "colgroup"
                | "dd"
                | "details"
                | "dir"
                | "div"
                | "dl"
                | "dt"
                | "fieldset"
                | "figcaption"
                | "figure"
                | "footer"
                | "form"
                | "frameset"
                | "header"
                | "hgroup"
                | "iframe"
                | "li"
                | "listing"
                | "main"
                | "marquee"
                | "menu"
                | "nav"
                | "noembed"
                | "noframes"
                | "object"
                | "ol"
                | "p"
                | "plaintext"
                | "pre"
                | "script"
                | "search"
                | "section"
                | "select"
                | "style"
                | "summary"
                | "table"
                | "tbody"
                | "td"
                | "template"
                | "textarea"
                | "tfoot"
                | "th"
                | "thead"
                | "title"
                | "tr"
                | "ul"
                | "xmp"
        );
    let mut f = 0;
    if special {
        f |= SPECIAL;
        if !matches!(name, "address" | "div" | "p") {
            f |= SPECIAL_NOT_ADP;
        }
    }
    if matches!(
        name,
        "applet" | "caption" | "html" | "table" | "td" | "th" | "marquee" | "object" | "template"
    ) {
        f |= SCOPE | BUTTON_SCOPE;
    }
    if name == "button" {
        f |= BUTTON_SCOPE;
    }
    if matches!(name, "html" | "table" | "template") {
        f |= TABLE_SCOPE;
    }
    f
}

/// SVG/MathML elements whose content is HTML again.
fn integration_point(name: &str) -> bool {
    matches!(
        name,
        "mi" | "mo" | "mn" | "ms" | "mtext" | "annotation-xml" | "foreignobject" | "desc" | "title"
    )
}

/// HTML start tags that end SVG/MathML content.
fn breaks_foreign(name: &str) -> bool {
    is_heading(name)
        || matches!(
            name,
            "b" | "big"
                | "blockquote"
                | "body"
                | "br"
                | "center"
                | "code"
                | "dd"
                | "div"
                | "dl"
                | "dt"
                | "em"
                | "embed"
                | "head"
                | "hr"
                | "i"
                | "img"
                | "li"
                | "listing"
                | "menu"
                | "meta"
                | "nobr"
                | "ol"
                | "p"
                | "pre"
                | "ruby"
                | "s"
                | "small"
                | "span"
                | "strong"
                | "strike"
                | "sub"
                | "sup"
                | "table"
                | "tt"
                | "u"
                | "ul"
                | "var"
        )
}

/// The parser's formatting elements: kept in its list of active formatting
/// elements and reopened after an element that closed them.
fn is_formatting(name: &str) -> bool {
    matches!(
        name,
        "a" | "b"
            | "big"
            | "code"
            | "em"
            | "font"
            | "i"
            | "nobr"
            | "s"
            | "small"
            | "strike"
            | "strong"
            | "tt"
            | "u"
    )
}

/// Parts of a table, which mean nothing outside one.
fn is_table_part(name: &str) -> bool {
    matches!(
        name,
        "td" | "th" | "tr" | "tbody" | "thead" | "tfoot" | "caption" | "col" | "colgroup"
    )
}

/// Elements that put a marker in the list of active formatting elements:
/// formatting elements closed inside them are not reopened after them.
fn is_marker(name: &str) -> bool {
    matches!(
        name,
        "applet" | "object" | "marquee" | "template" | "td" | "th" | "caption"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_of(html: &str) -> usize {
        let doc = dom_query::Document::from(html);
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

    fn nested(open: &str, close: &str, n: usize) -> String {
        let mut s = String::from("<html><body>");
        s.push_str(&open.repeat(n));
        s.push_str("<p>bottom</p>");
        s.push_str(&close.repeat(n));
        s.push_str("<p>after</p></body></html>");
        s
    }

    #[test]
    fn formatting_elements_reopened_round_after_round_stay_under_the_cap() {
        // Found by fuzzing: the parser reopens formatting elements a `</div>`
        // closed, inside the ones reopened the round before.
        let unit =
            "<div><b><i><u><s><em><strong><small><big><tt><code><font><nobr><strike><a></div>x";
        let html = format!("<body>{}</body>", unit.repeat(300));
        let out = prepare(&html, MAX_DEPTH, true);
        let depth = depth_of(&out);
        assert!(depth <= 2 * MAX_DEPTH, "parsed {depth} deep");
        assert_eq!(depth_of(&out).min(1), 1);
        assert_eq!(out.matches('x').count(), 300, "no text lost");
    }

    #[test]
    fn table_parts_outside_a_table_open_nothing() {
        // Found by fuzzing: the parser ignores them, so `</td>` closes
        // none of the divs opened after `<td>`.
        for part in ["td", "tr", "caption"] {
            let unit = format!("<{part}>{}</{part}>", "<div>".repeat(100));
            let html = format!("<body>{}x</body>", unit.repeat(20));
            let out = prepare(&html, MAX_DEPTH, true);
            let depth = depth_of(&out);
            assert!(depth <= MAX_DEPTH + 8, "{part}: parsed {depth} deep");
        }
        // Inside a table they still close what they close.
        let rows = format!("<table>{}</table>", "<tr><td><div>a</td>".repeat(500));
        assert!(depth_of(&prepare(&rows, MAX_DEPTH, true)) < 20);
    }

    #[test]
    fn sloppy_formatting_on_real_pages_is_kept() {
        // Unclosed <b> in every paragraph, unclosed <a> and <font> in every
        // cell: the parser's own rules (Noah's Ark, a new <a> ends the old,
        // cells forget) keep the list short; nothing is left out.
        let p = "<p><b>bold".repeat(2000);
        let a = "<p><a href=\"/x\">link".repeat(2000);
        let cells = format!(
            "<table>{}</table>",
            "<tr><td><font color=red>c</td>".repeat(2000)
        );
        for html in [p, a, cells] {
            let html = format!("<body>{html}</body>");
            let out = prepare(&html, MAX_DEPTH, true);
            assert_eq!(out.matches("<b>").count(), html.matches("<b>").count());
            assert_eq!(out.matches("<a ").count(), html.matches("<a ").count());
            assert_eq!(out.matches("<font").count(), html.matches("<font").count());
        }
    }

    #[test]
    fn nul_characters_are_dropped_before_parsing() {
        let html = "<p>a\0b</p>\0\0<div title=\"x\0y\">c</div>";
        let out = prepare(html, MAX_DEPTH, true);
        assert!(!out.contains('\0'));
        assert!(out.contains("<p>ab</p>") && out.contains("title=\"xy\""));
        // Without NULs, nothing is copied for it.
        assert!(matches!(
            prepare("<p>a</p>", MAX_DEPTH, true),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn attributes_beyond_the_limit_are_left_out() {
        let many: String = (0..MAX_ATTRIBUTES + 50)
            .map(|i| format!(" a{i}=\"v{i}\""))
            .collect();
        let html = format!("<div{many} id=\"late\">text</div><p class=k>after</p>");
        let out = prepare(&html, MAX_DEPTH, true);
        let doc = dom_query::Document::from(out.as_ref());
        let div = doc.select("div");
        assert_eq!(div.text().as_ref(), "text");
        let kept = div.nodes()[0].attrs().len();
        assert_eq!(kept, MAX_ATTRIBUTES);
        assert!(div.attr("a0").is_some() && div.attr("id").is_none());
        assert_eq!(doc.select("p.k").text().as_ref(), "after");
        // Within the limit, a tag keeps all of them.
        let few = "<div a=1 b='2' c d=\"4\">x</div>";
        assert!(prepare(few, MAX_DEPTH, true).contains(few));
    }

    #[test]
    fn shallow_pages_are_untouched() {
        let html = "<!doctype html><html><body><div><p>a<p>b<ul><li>x<li>y</ul>\
                    <table><tr><td>1<td>2<tr><td>3</table></div></body></html>";
        assert!(matches!(cap_depth(html, 4), Cow::Borrowed(_)));
        // Unclosed <p> and <li> do not nest in the parser, nor here.
        let many = format!(
            "<body><ul>{}</ul>{}",
            "<li>item".repeat(500),
            "<p>para".repeat(500)
        );
        assert!(matches!(cap_depth(&many, 16), Cow::Borrowed(_)));
        let rows = format!("<table>{}</table>", "<tr><td>a<td>b".repeat(500));
        assert!(matches!(cap_depth(&rows, 16), Cow::Borrowed(_)));
    }

    #[test]
    fn deep_nesting_is_capped_and_text_kept() {
        for (open, close) in [
            ("<div>", "</div>"),
            ("<span>", "</span>"),
            ("<b>", "</b>"),
            ("<div>", ""),
        ] {
            let html = nested(open, close, 2000);
            let capped = cap_depth(&html, 100);
            assert!(matches!(capped, Cow::Owned(_)), "{open}");
            let d = depth_of(&capped);
            assert!(d <= 110, "{open}{close}: depth {d}");
            let doc = dom_query::Document::from(capped.as_ref());
            let text = doc.root().text();
            assert!(text.contains("bottom") && text.contains("after"), "{open}");
        }
    }

    #[test]
    fn misnesting_the_parser_keeps_deep_is_capped() {
        // Patterns where the parser keeps elements open that a naive model
        // would close: the adoption agency, </form>, SVG integration points.
        for unit in [
            "<a href=x><div>",
            "<b><div></b>",
            "<form><div></form>",
            "<svg><foreignObject><div>",
            "<p><table><p><table>",
            "<ul><li><div><li>",
            "<table><tr><td><div><table><tr><td>",
        ] {
            let html = format!("<body>{}x", unit.repeat(1000));
            let capped = cap_depth(&html, 100);
            let d = depth_of(&capped);
            assert!(d <= 220, "{unit}: depth {d}");
        }
    }

    #[test]
    fn comments_raw_text_and_quoted_attributes_hide_no_tags() {
        let mut html = String::from("<body>");
        for _ in 0..50 {
            html.push_str("<div title='a > b' data-x=\"<div>\"><!-- <div> --><script>if (a<b) x='<div>';</script>");
        }
        html.push_str("<textarea><div></div></textarea>");
        let capped = cap_depth(&html, 40);
        assert!(depth_of(&capped) <= 45);
        assert!(capped.contains("x='<div>'"));
        assert!(capped.contains("<textarea><div></div></textarea>"));
        // Nothing past the limit, so nothing rewritten.
        assert!(matches!(cap_depth(&html, 60), Cow::Borrowed(_)));
    }

    #[test]
    fn end_tags_of_dropped_elements_are_dropped() {
        let html = format!(
            "<body><section>{}x{}</section><p>after</p>",
            "<div>".repeat(10),
            "</div>".repeat(10)
        );
        let capped = cap_depth(&html, 5);
        let doc = dom_query::Document::from(capped.as_ref());
        // The section stays open until its own end tag, not closed early by
        // an end tag of a dropped div.
        assert_eq!(doc.select("section p").length(), 0);
        assert!(doc.select("section").text().contains('x'));
    }

    #[test]
    fn an_unclosed_svg_ends_where_html_breaks_out_of_it() {
        // An icon left unclosed before a menu and the page: a browser ends
        // the SVG at the first HTML block; the page is not lost.
        let html = "<body><a href=#><svg width=18><path d=M0/></a>\
                    <ul><li>English</li></ul><main><h1>Consulting</h1><p>Text</p></main>";
        let out = prepare(html, MAX_DEPTH, false);
        assert_eq!(
            out,
            "<body><a href=#><svg width=18><ul><li>English</li></ul><main><h1>Consulting</h1>\
             <p>Text</p></main>"
        );
        let doc = crate::parse::parse(&out);
        assert_eq!(doc.select("main p").text().as_ref(), "Text");
        // Inside a foreignObject HTML is the picture's own; the SVG goes on
        // to its end tag.
        let html = "<svg><foreignObject><div>label</div></foreignObject><g/></svg><p>after</p>";
        assert_eq!(prepare(html, MAX_DEPTH, false), "<svg></svg><p>after</p>");
    }

    #[test]
    fn prepare_drops_scripts_and_styles_but_keeps_json_ld() {
        let html = "<head><SCRIPT src=a.js>var a = '<p>x</p>';</SCRIPT>\
                    <script type=\"application/ld+json\">{\"a\": 1}</script>\
                    <style>p { color: red }</style></head>\
                    <body><!-- <script> --><p>hi</p><script>never()</script>\
                    <svg viewBox=\"0 0 1 1\"><path d=\"M0 0\"/></SVG><svg/><p>b</p></body>";
        let out = prepare(html, MAX_DEPTH, false);
        assert_eq!(
            out,
            "<head><script type=\"application/ld+json\">{\"a\": 1}</script></head>\
             <body><p>hi</p>\
             <svg viewBox=\"0 0 1 1\"></SVG><svg/><p>b</p></body>"
        );
        let tag = "<div data-track='{\"a\": 1}' onclick=\"go()\" data-src=i.jpg class=a \
                   data-paywall>x</div>";
        assert_eq!(
            prepare(tag, MAX_DEPTH, false),
            "<div data-src=i.jpg class=a data-paywall>x</div>"
        );
        // An unclosed script runs to the end, as in the parser.
        assert_eq!(prepare("<p>a<script>b", MAX_DEPTH, false), "<p>a");
    }

    #[test]
    fn kept_data_attributes_survive_and_others_go() {
        for k in KEPT_DATA_ATTRIBUTES {
            for name in [
                format!("data-{k}"),
                format!("DATA-X-{}-Y", k.to_uppercase()),
            ] {
                let html = format!("<div data-track=1 {name}=v onclick=go()>x</div>");
                let want = format!("<div {name}=v>x</div>");
                assert_eq!(prepare(&html, MAX_DEPTH, true), want, "{name}");
            }
        }
        // What the readers read, by its full name.
        for name in [
            "data-src",
            "data-srcset",
            "data-lazy-src",
            "data-original",
            "data-lang",
            "data-language",
            "data-paywall",
            "data-testid",
            "data-url",
            "data-permalink",
        ] {
            let html = format!("<p {name}=v>x</p>");
            assert_eq!(prepare(&html, MAX_DEPTH, true), html, "{name}");
        }
    }

    #[test]
    fn a_dropped_attribute_leaves_the_tag_name_apart_from_a_glued_one() {
        // `"simple"data-x`: no space between two attributes (Squarespace's
        // product pages). Dropping the first with its leading space once
        // made `<divclass=...` one unknown element of the whole product.
        assert_eq!(
            prepare(
                "<div data-layout=\"simple\"class=\"product\">x</div>",
                MAX_DEPTH,
                true
            ),
            "<div class=\"product\">x</div>"
        );
        assert_eq!(
            prepare("<p data-a='1'data-b='2' id=i>t</p>", MAX_DEPTH, true),
            "<p data-b='2' id=i>t</p>"
        );
    }

    #[test]
    fn runs_of_space_between_attributes_shrink_to_one() {
        let html = "<div\n    class=\"a b\"\n    data-x=1\n\n  id=c  >x  y</div><br   />";
        let out = prepare(html, MAX_DEPTH, true);
        assert_eq!(out, "<div class=\"a b\" id=c >x  y</div><br />");
        // The parser reads the same tree as from one space each.
        assert_eq!(
            crate::parse::parse(&out).html(),
            crate::parse::parse("<div class=\"a b\" id=c>x  y</div><br/>").html()
        );
    }

    #[test]
    fn valueless_droppable_attributes_next_to_each_other() {
        // The spaces after a valueless attribute once belonged to two spans
        // and the copy panicked (a realistic MkDocs page had `data-md-state
        // data-md-component`).
        assert_eq!(prepare("<e data-d data-\">", MAX_DEPTH, true), "<e>");
        assert_eq!(
            prepare(
                "<p data-a  data-b onclick=x class=c data-c >t</p>",
                MAX_DEPTH,
                true
            ),
            "<p  class=c >t</p>"
        );
        assert_eq!(
            prepare("<p data-a =1 data-b>t</p>", MAX_DEPTH, true),
            "<p>t</p>"
        );
    }

    #[test]
    fn prepare_drops_links_but_the_canonical_and_markdown_and_keeps_noscript() {
        // `<noscript>` stays: some sites serve their whole content there
        // (clean.rs decides whether it is shown). The Markdown alternate
        // stays for web_fetch to follow (issue 13).
        let html = "<head><link rel=stylesheet href=a.css><LINK REL=\"Canonical\" href=/c>\
                    <link rel=alternate type=\"text/markdown\" href=/c.md>\
                    <link rel=alternate type=application/rss+xml href=/feed>\
                    <link rel=icon href=i.png /></head><body><noscript><img src=x>\
                    <div>y</div></noscript><p>z</p></body>";
        assert_eq!(
            prepare(html, MAX_DEPTH, false),
            "<head><LINK REL=\"Canonical\" href=/c>\
             <link rel=alternate type=\"text/markdown\" href=/c.md></head>\
             <body><noscript><img src=x><div>y</div></noscript><p>z</p></body>"
        );
        // Depth capping alone keeps them: it changes nothing but depth.
        assert_eq!(cap_depth(html, MAX_DEPTH), html);
    }

    #[test]
    fn prepare_ends_a_frame_left_open_in_a_noscript_with_it() {
        // Google Tag Manager's snippet written self-closing: the frame
        // goes up to `</noscript>`, and the page after it stays markup.
        let html = "<body><noscript><iframe src=\"ns.html?id=GTM-X\" height=\"0\" />\
                    </noscript><div><p>Text</p></div></body>";
        assert_eq!(
            prepare(html, MAX_DEPTH, false),
            "<body><noscript></noscript><div><p>Text</p></div></body>"
        );
        // A frame closed inside its noscript stays as it was.
        let closed = "<body><noscript><iframe src=a></iframe></noscript><p>b</p></body>";
        assert_eq!(prepare(closed, MAX_DEPTH, false), closed);
        // Outside a noscript a browser reads the frame open too.
        let open = "<body><iframe src=a /><p>b</p></body>";
        assert_eq!(prepare(open, MAX_DEPTH, false), open);
    }

    #[test]
    fn prepare_drops_blank_between_blocks_only() {
        let html =
            "<div>\n  <p>a</p>\n  <p><b>x</b> <i>y</i></p>\n</div><pre>\n<div>\n</div></pre>";
        assert_eq!(
            prepare(html, MAX_DEPTH, true),
            "<div><p>a</p><p><b>x</b> <i>y</i></p></div><pre>\n<div>\n</div></pre>"
        );
        assert_eq!(prepare(html, MAX_DEPTH, false), html);
    }
}
