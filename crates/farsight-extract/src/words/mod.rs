//! Class and id words: the one place that reads an element's `class` and
//! `id` as words, and the named tables of words that mark furniture,
//! captions, bylines, paywalls, consent notices and the rest
//! ([`tables`]).
//!
//! An element's class and id are lower-cased once into a [`Words`] value;
//! every table is then asked about that value. A [`Table`] says how its
//! entries match:
//! - [`How::Token`]: an entry is a whole name: class and id split on white
//!   space (between class names) and `_` (between the words of a
//!   snake_case name: Simple Machines' `post_wrapper`), so a hyphenated name
//!   stays one (`sr-only`, `cc-banner`, `post-body`) and so does a
//!   Tailwind variant (`md:hidden` is not `hidden`). For names a site uses
//!   as one unit, where a part would say too little (`hidden` inside
//!   `overflow-hidden`, `post` inside `post-body`, a part of a post).
//! - [`How::Part`]: an entry is a word part: class and id split on every
//!   character that is not an ASCII letter or digit (`c-byline__author` is
//!   `c`, `byline`, `author`). An entry written with hyphens (`skip-link`)
//!   matches its parts in a row (`a11y-skip-link`, `skip_link`). For words
//!   that name something alone but also start longer words (`nav` is not
//!   `navy`, `header` is not `subheader`).
//! - [`How::Fragment`]: an entry is found anywhere inside the class or the
//!   id (`cookiebot` inside `CybotCookiebotDialog`). For vendors' names and
//!   compounds sites write without separators.
//!
//! Matching never crosses from the class into the id: each is read on its
//! own.

use std::sync::OnceLock;

use std::cell::{OnceCell, RefCell};
use std::hash::Hasher;
use std::rc::Rc;

use dom_query::{NodeData, NodeRef};
use html5ever::{LocalName, local_name};

use crate::fasthash::{FastMap, FxHasher};

use index::Index;
use tables::{AEM_CONTENT_COMPONENTS, TAB_WIDGET};

mod index;
pub(crate) mod tables;

/// An element's class and id, lower-cased once for all the tables a pass
/// asks about the element.
#[derive(Debug, Default, Clone)]
pub(crate) struct Words {
    class: String,
    id: String,
    /// The bits of the tables matching the class and the id, per kind of
    /// matching (`How as usize`), read on the first question of that kind.
    masks: [OnceCell<[u64; 2]>; 3],
}

impl Words {
    /// The class and id of `n` (empty for a node that is not an element),
    /// read without copying them (see [`remembered`]).
    pub(crate) fn of(n: &NodeRef<'_>) -> Rc<Self> {
        Self::of_attrs(n, true)
    }

    /// The class of `n` alone, for tables read in the class only.
    pub(crate) fn of_class(n: &NodeRef<'_>) -> Rc<Self> {
        Self::of_attrs(n, false)
    }

    fn of_attrs(n: &NodeRef<'_>, with_id: bool) -> Rc<Self> {
        n.query_or(None, |node| {
            let NodeData::Element(el) = &node.data else {
                return None;
            };
            // Names compared as atoms: one integer each, no string read.
            let value = |name: &LocalName| crate::tag::attr(el, name).unwrap_or_default();
            let id = if with_id {
                value(&local_name!("id"))
            } else {
                ""
            };
            Some(remembered(value(&local_name!("class")), id))
        })
        .unwrap_or_else(none)
    }

    /// A class and an id as written in the page, any case.
    pub(crate) fn from_attrs(class: &str, id: &str) -> Rc<Self> {
        remembered(class, id)
    }

    fn read(class: &str, id: &str) -> Self {
        let id = id.to_ascii_lowercase();
        Self {
            class: without_tab_menus(without_aem_component_names(without_arbitrary_values(class))),
            id: if is_aem_content_id(&id) {
                String::new()
            } else {
                id
            },
            masks: Default::default(),
        }
    }

    /// The bits of the tables matching as `how` (see `index::lexicon`) in
    /// the class and in the id.
    fn masks(&self, how: How) -> [u64; 2] {
        *self.masks[how as usize].get_or_init(|| {
            let index = &index::lexicon()[how as usize];
            [index.mask(&self.class), index.mask(&self.id)]
        })
    }

    /// The lower-cased class and id, each to be matched on its own.
    pub(crate) fn values(&self) -> [&str; 2] {
        [&self.class, &self.id]
    }
}

/// `class` lower-cased, without Tailwind CSS's arbitrary-value utilities:
/// a class name holding square brackets (`pt-[calc(var(--banner-height))]`,
/// `has-[>[data-slot=banner]]:pt-0`, `[&>p]:mt-2`) writes a CSS value or
/// selector into the name, and its words (`banner`, `nav`, `footer` of a
/// custom property) say how something is laid out, never what the element
/// is. Read as words, they made a whole landing page's sections furniture.
fn without_arbitrary_values(class: &str) -> String {
    if !class.contains('[') {
        return class.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(class.len());
    for name in class.split_ascii_whitespace().filter(|t| !t.contains('[')) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&name.to_ascii_lowercase());
    }
    out
}

/// `class` (lower case) without the names of Adobe Experience Manager's
/// content components ([`AEM_CONTENT_COMPONENTS`]) when it is an AEM
/// component's: a name starting `cmp-` (the Core Components' blocks and
/// their parts: `cmp-teaser`, `cmp-promo__services`, `cmp-cta__banner`) or
/// the layout grid's column (`aem-GridColumn`), beside which the
/// component's wrapper names its type alone (`promo`). There they say which
/// component an author placed on the page, not that it is furniture: read
/// as words, they made an AEM page's sections promotions and teasers.
fn without_aem_component_names(class: String) -> String {
    let is_aem = |t: &str| t.starts_with("cmp-") || t.starts_with("aem-gridcolumn");
    if !(class.contains("cmp-") || class.contains("aem-gridcolumn"))
        || !class.split_ascii_whitespace().any(is_aem)
    {
        return class;
    }
    let names_content = |t: &str| {
        if t.starts_with("cmp-") {
            parts(t).any(|p| AEM_CONTENT_COMPONENTS.contains(&p))
        } else {
            AEM_CONTENT_COMPONENTS.contains(&t)
        }
    };
    let mut out = String::with_capacity(class.len());
    for name in class.split_ascii_whitespace().filter(|t| !names_content(t)) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(name);
    }
    out
}

/// `class` (lower case) without the word `menu` where it follows `tab` or
/// `tabs` ([`TAB_WIDGET`]): Webflow's tabs component (`w-tab-menu`) and the
/// names sites give theirs (`faq_tabs-menu`, `stack-tabs_menu-item`) call
/// the list of a tab widget's tabs a menu. It is part of the content (an
/// FAQ whose answers sit in the tab list's items, a feature tour), not the
/// site's menu that [`tables::NOISE`] reads the word as. A tab list that is
/// a site menu says so with its other words (`mega-nav-tabs-menu`).
fn without_tab_menus(class: String) -> String {
    if !class.contains("menu") {
        return class;
    }
    let mut out = String::with_capacity(class.len());
    let mut previous = "";
    let mut rest = class.as_str();
    while let Some(at) = rest.find(|c: char| c.is_ascii_alphanumeric()) {
        let between = &rest[..at];
        if between.contains(|c: char| c.is_ascii_whitespace()) {
            // Another class name: `tabs menu` is two components.
            previous = "";
        }
        out.push_str(between);
        rest = &rest[at..];
        let end = rest
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        let part = &rest[..end];
        if !(part == "menu" && TAB_WIDGET.contains(&previous)) {
            out.push_str(part);
        }
        previous = part;
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Whether `id` (lower case) is one AEM's Core Components generate for a
/// content component ([`AEM_CONTENT_COMPONENTS`]): its type, a hyphen and
/// ten hexadecimal digits of a hash (`teaser-5b0e8c2a41`), on a page that
/// may style it with class names that say nothing.
///
/// Components built on them name their version too, and hash the path in
/// fewer digits (a Java hash code in hexadecimal): `promo-v3-1f484733`,
/// `teaser-v2-4139659`, on cards that a grid of services is made of.
fn is_aem_content_id(id: &str) -> bool {
    let is_hex = |s: &str| s.bytes().all(|b| b.is_ascii_hexdigit());
    let Some((kind, hash)) = id.rsplit_once('-') else {
        return false;
    };
    if hash.len() == 10 && is_hex(hash) && AEM_CONTENT_COMPONENTS.contains(&kind) {
        return true;
    }
    // The versioned form: type, `v` and a number, the hash.
    kind.rsplit_once('-').is_some_and(|(kind, version)| {
        AEM_CONTENT_COMPONENTS.contains(&kind)
            && version.len() > 1
            && version.starts_with('v')
            && version[1..].bytes().all(|b| b.is_ascii_digit())
            && (1..=10).contains(&hash.len())
            && is_hex(hash)
    })
}

/// At most this many class and id pairs are remembered per thread; then
/// the memory starts over. It is emptied after each page too (see
/// [`forget`]): nothing of a page is kept on the threads of a server.
const REMEMBERED: usize = 4096;

/// Pairs longer than this, in bytes, are read each time rather than kept
/// after the page: a hostile page's megabyte class stays with the page.
const REMEMBERED_LEN: usize = 512;

thread_local! {
    /// See [`none`].
    static NONE: Rc<Words> = Rc::new(Words::default());
    /// The [`Words`] of the class and id pairs read lately, by a hash of
    /// the pair as written: the cards of a grid share their class, and the
    /// passes ask about each element several times (seven on a page whose
    /// region is weighed against the picked blocks). A hash shared by
    /// two pairs keeps the later one: the pair is compared, never assumed.
    static SEEN: RefCell<Seen> = RefCell::new(Seen::default());
}

/// [`SEEN`]: by the hash of a class and id pair, the pair and its words.
type Seen = FastMap<u64, (Box<str>, Box<str>, Rc<Words>)>;

/// Empties this thread's memory of class and id pairs (see [`SEEN`]):
/// called when a page is done.
pub(crate) fn forget() {
    SEEN.with(|seen| {
        if let Ok(mut seen) = seen.try_borrow_mut() {
            *seen = Seen::default();
        }
    });
}

/// The [`Words`] of an element without class or id (most elements of a
/// page, and every node that is not an element): one value per thread,
/// shared, never looked up.
fn none() -> Rc<Words> {
    NONE.with(Rc::clone)
}

/// The [`Words`] of a class and an id as written, read once per pair (see
/// [`SEEN`]).
fn remembered(class: &str, id: &str) -> Rc<Words> {
    if class.is_empty() && id.is_empty() {
        return none();
    }
    if class.len() + id.len() > REMEMBERED_LEN {
        return Rc::new(Words::read(class, id));
    }
    let mut hasher = FxHasher::default();
    hasher.write(class.as_bytes());
    // No class ends with this byte (not UTF-8): "a b" + "" and "a" + "b"
    // hash apart.
    hasher.write_u8(0xff);
    hasher.write(id.as_bytes());
    let key = hasher.finish();
    SEEN.with(|seen| {
        let Ok(mut seen) = seen.try_borrow_mut() else {
            return Rc::new(Words::read(class, id));
        };
        if let Some((c, i, words)) = seen.get(&key)
            && **c == *class
            && **i == *id
        {
            return Rc::clone(words);
        }
        if seen.len() >= REMEMBERED {
            seen.clear();
        }
        let words = Rc::new(Words::read(class, id));
        seen.insert(key, (class.into(), id.into(), Rc::clone(&words)));
        words
    })
}

/// Whether `class` (as the page wrote it, not lower-cased) holds a CSS
/// Modules name for a badge: CSS Modules (Next.js, Create React App, Vite)
/// write a component's local class as `Component_localName__hash`, the
/// local name in camelCase (`Products_productBadge__Prv_X`,
/// `ProductTile_collapsedBadges__O_wsp`, `Card_newBadgeWrap__a1b2`). Split
/// on `_` alone, `productbadge` is one word and [`tables::BADGE`] misses
/// it; here a local name's camelCase word `Badge` or `Badges` names the
/// badge ("New Arrival", "Just Reduced" on every card of a shop's row).
pub(crate) fn is_css_module_badge(class: &str) -> bool {
    if !class.contains("Badge") || !class.contains("__") {
        return false;
    }
    class.split_ascii_whitespace().any(|name| {
        let Some((_, rest)) = name.split_once('_') else {
            return false;
        };
        let Some((local, _hash)) = rest.split_once("__") else {
            return false;
        };
        local.match_indices("Badge").any(|(at, _)| {
            let after = &local.as_bytes()[at + "Badge".len()..];
            let after = after.strip_prefix(b"s").unwrap_or(after);
            after.first().is_none_or(|b| b.is_ascii_uppercase())
        })
    })
}

/// The word parts of one lower-cased class or id value, in order: split on
/// every character that is not an ASCII letter or digit.
pub(crate) fn parts(value: &str) -> impl Iterator<Item = &str> + Clone {
    value
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// The whole names of one lower-cased class or id value: split on white
/// space and `_`.
fn tokens(value: &str) -> impl Iterator<Item = &str> {
    value
        .split(|c: char| c.is_ascii_whitespace() || c == '_')
        .filter(|w| !w.is_empty())
}

/// How a table's entries match a class or id; see the module's notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum How {
    /// A whole name: split on white space and `_`.
    Token,
    /// Word parts, in a row for a hyphenated entry.
    Part,
    /// A substring.
    Fragment,
}

/// A named list of lower-case class/id words and how they match.
pub(crate) struct Table {
    how: How,
    entries: &'static [&'static str],
    /// The table's own entries arranged for matching and its bit in the
    /// lexicon of all tables, built on first use (see `index.rs`).
    index: OnceLock<(Index, Option<u64>)>,
}

impl Table {
    /// Entries that match whole names (hyphenated names whole).
    pub(crate) const fn tokens(entries: &'static [&'static str]) -> Self {
        Self::new(How::Token, entries)
    }

    /// Entries that match word parts.
    pub(crate) const fn parts(entries: &'static [&'static str]) -> Self {
        Self::new(How::Part, entries)
    }

    /// Entries that match anywhere inside the class or id.
    pub(crate) const fn fragments(entries: &'static [&'static str]) -> Self {
        Self::new(How::Fragment, entries)
    }

    const fn new(how: How, entries: &'static [&'static str]) -> Self {
        Self {
            how,
            entries,
            index: OnceLock::new(),
        }
    }

    /// How the entries match.
    pub(crate) fn how(&self) -> How {
        self.how
    }

    /// The entries, lower case.
    pub(crate) fn entries(&self) -> &'static [&'static str] {
        self.entries
    }

    /// Whether `word` is one of the entries, as written.
    pub(crate) fn has_entry(&self, word: &str) -> bool {
        self.entries.contains(&word)
    }

    /// Whether an entry matches the class or the id.
    pub(crate) fn matches(&self, w: &Words) -> bool {
        match self.bit() {
            Some(bit) => {
                let [class, id] = w.masks(self.how);
                (class | id) & bit != 0
            }
            None => w.values().iter().any(|v| self.in_value(v)),
        }
    }

    /// Whether an entry matches the class (the id is not read).
    pub(crate) fn in_class(&self, w: &Words) -> bool {
        match self.bit() {
            Some(bit) => w.masks(self.how)[0] & bit != 0,
            None => self.in_value(&w.class),
        }
    }

    /// The entries that match the class or the id, in table order: for a
    /// caller whose rule depends on which word matched.
    pub(crate) fn matching<'t>(&'t self, w: &'t Words) -> impl Iterator<Item = &'static str> + 't {
        // Most elements match nothing: one pass over the parts says so
        // before each entry is looked at.
        let any = self.matches(w);
        // The class and the id split into names or parts once, not once
        // per entry, and only when an entry matches.
        let values = w.values();
        let split: [Vec<&'t str>; 2] = if any && self.how != How::Fragment {
            values.map(|v| match self.how {
                How::Token => tokens(v).collect(),
                _ => parts(v).collect(),
            })
        } else {
            Default::default()
        };
        self.entries.iter().copied().filter(move |e| {
            any && values
                .iter()
                .zip(&split)
                .any(|(v, split)| self.entry_in_split(e, v, split))
        })
    }

    /// Whether an entry matches one class or id value as the page wrote it,
    /// any case; a value without capitals is not copied. For walks over
    /// every element's raw attributes (the paywall markers, the prefilters
    /// of consent notices and bylines).
    pub(crate) fn in_raw_value(&self, value: &str) -> bool {
        if value.len() < self.index().shortest {
            return false;
        }
        if let Some(mask) = self.index().mask_any_case(value) {
            return mask != 0;
        }
        if value.bytes().any(|b| b.is_ascii_uppercase()) {
            self.in_value(&value.to_ascii_lowercase())
        } else {
            self.in_value(value)
        }
    }

    /// Whether an entry matches one lower-cased class or id value.
    pub(crate) fn in_value(&self, value: &str) -> bool {
        self.index().mask(value) != 0
    }

    /// Whether `entry` matches one lower-cased class or id value, `split`
    /// being the value as this table reads it: its whole names
    /// ([`How::Token`]) or its word parts ([`How::Part`], a hyphenated
    /// entry's parts in a row); nothing for fragments, found in `value`.
    fn entry_in_split(&self, entry: &str, value: &str, split: &[&str]) -> bool {
        match self.how {
            How::Token => split.contains(&entry),
            How::Part => {
                let n = entry.split('-').count();
                split
                    .windows(n.max(1))
                    .any(|w| w.iter().copied().eq(entry.split('-')))
            }
            How::Fragment => memchr::memmem::find(value.as_bytes(), entry.as_bytes()).is_some(),
        }
    }

    fn index(&self) -> &Index {
        &self.built().0
    }

    fn bit(&self) -> Option<u64> {
        self.built().1
    }

    fn built(&self) -> &(Index, Option<u64>) {
        self.index.get_or_init(|| {
            (
                Index::of(self.how, &[(self.entries, 1)]),
                index::bit_of(self),
            )
        })
    }
}

#[cfg(test)]
mod tests;
