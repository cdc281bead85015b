//! Removing what a browser would not show, before anything reads the page.

use dom_query::{Document, Element, NodeData, NodeId, NodeRef};
use html5ever::local_name;
use memchr::memmem::Finder;
use std::sync::LazyLock;

use crate::consent::Notices;
use crate::words::Words;
use crate::words::tables::{
    FAQ_ANSWER, FAQ_QUESTION, FRAMER_HIDDEN, FRAMER_VARIANT, HIDDEN_BY_CLASS, HIDDEN_ON_DESKTOP,
    SCREEN_READER,
};

/// Removes hidden and non-content elements from the whole document:
/// `hidden`, `aria-hidden="true"`, inline `display:none` /
/// `visibility:hidden` (unless it wraps the page: see
/// [`hidden_until_shown`]), `<template>`, `<noscript>` (unless it holds the
/// page: see [`noscript_holds_page`]), scripts, styles, frames
/// and form controls (buttons too, but for disclosure toggles that say
/// something: an FAQ's question), and cookie consent notices (see
/// `consent.rs`). Returns how many outermost elements were removed.
///
/// Class tokens that say "hidden" without hiding anything on a desktop page
/// are dropped on the way (see [`visible_class`]), and an inline
/// `font-size:0` hides only what does not set its own size (see
/// [`zero_font_hidden`]).
pub(crate) fn remove_hidden(doc: &Document) -> usize {
    let mut found = Found {
        noscript_shown: noscript_holds_page(doc),
        framer_shown: framer_breakpoint(doc),
        doomed: Vec::new(),
        reclassed: Vec::new(),
        spoken: Vec::new(),
        shown: Vec::new(),
        zero_font: Vec::new(),
        waiting: Vec::new(),
        notices: Notices::new(),
        disclosures: Disclosures::default(),
    };
    // Inside a removed element until the walk reaches this node (`None`:
    // the end of the page): nothing there needs looking at.
    let mut skip_until: Option<Option<NodeId>> = None;
    for n in doc.root().descendants_it() {
        if let Some(end) = skip_until {
            if end != Some(n.id) {
                continue;
            }
            skip_until = None;
        }
        // One look at each node: its name and attributes are read in
        // place, borrowed, never copied (this runs on every node of the
        // page, and a copy per attribute read was most of its time).
        let removed = n.query_or(false, |node| match &node.data {
            NodeData::Text { contents } => {
                // A notice that says what it is, in a block with no name.
                if let Some(block) = found.notices.worded_notice(&n, contents) {
                    found.doomed.push(block);
                }
                false
            }
            // Comments carry no content and confuse text density.
            NodeData::Comment { .. } => {
                found.doomed.push(n);
                true
            }
            NodeData::Element(el) => found.element(n, el),
            _ => false,
        });
        if removed {
            skip_until = Some(following(&n));
        }
    }
    let Found {
        mut doomed,
        reclassed,
        spoken,
        shown,
        zero_font,
        waiting,
        ..
    } = found;
    if !zero_font.is_empty() {
        doomed.extend(zero_font_hidden(&zero_font));
    }
    if !waiting.is_empty() {
        doomed.extend(hidden_until_shown(doc, &waiting));
    }
    let count = doomed.iter().filter(|n| n.is_element()).count();
    for n in doomed {
        n.remove_from_parent();
    }
    for (n, class) in reclassed {
        n.set_attr("class", &class);
    }
    for n in spoken {
        n.set_attr(SPOKEN_PRICE, "");
    }
    // A shown `<noscript>` becomes a plain block: every later stage (and
    // Readability, which drops `<noscript>`) reads it as page content.
    for n in shown {
        n.rename("div");
    }
    count
}

/// What [`remove_hidden`]'s walk has found so far; the page is changed
/// only after the walk.
struct Found<'a> {
    /// `<noscript>` holds the page (see [`noscript_holds_page`]).
    noscript_shown: bool,
    /// The breakpoint a Framer page is read at (see [`framer_breakpoint`]).
    framer_shown: Option<String>,
    doomed: Vec<NodeRef<'a>>,
    reclassed: Vec<(NodeRef<'a>, String)>,
    spoken: Vec<NodeRef<'a>>,
    shown: Vec<NodeRef<'a>>,
    zero_font: Vec<NodeRef<'a>>,
    waiting: Vec<NodeRef<'a>>,
    notices: Notices,
    disclosures: Disclosures,
}

impl<'a> Found<'a> {
    /// Looks at the element `n` (its data `el`, borrowed); whether it goes
    /// with everything inside it.
    fn element(&mut self, n: NodeRef<'a>, el: &Element) -> bool {
        if self.noscript_shown && el.name.local == local_name!("noscript") {
            self.shown.push(n);
            return false;
        }
        let class = el.attr_ref(local_name!("class"));
        let mut hidden = hiding(&n, el, class);
        if hidden.is_none()
            && let Some(shown) = &self.framer_shown
            && other_framer_variant(class, shown)
        {
            hidden = Some(Hiding::Always);
        }
        self.disclosures.note_toggle(el);
        if hidden.is_some() && self.disclosures.controls(el) {
            hidden = None;
        }
        if hidden == Some(Hiding::ByStyle) && answer_after_question(&n, class) {
            hidden = None;
        }
        if hidden == Some(Hiding::Always) || self.notices.is_named_notice(&n, el) {
            if hidden == Some(Hiding::Always)
                && let Some(twin) = reader_twin(&n, el)
            {
                self.reclassed.push((twin, String::new()));
                self.spoken.push(twin);
            }
            self.doomed.push(n);
            return true;
        }
        // Hidden by its class or by `<main aria-hidden>` (no style needed),
        // by its inline style, or by `visibility:hidden` only until shown.
        let mut waits = hidden == Some(Hiding::ByStyle);
        if let Some(style) = el.attr_ref(local_name!("style")) {
            if font_size(style) == Some(Size::Zero) {
                self.zero_font.push(n);
            }
            waits = waits || (style_waits(style) && !collapsed_panel(el, style));
        }
        if waits {
            self.waiting.push(n);
        }
        if let Some(class) = class {
            if is_heading(el) {
                // Readability drops headings whose class reads as negative
                // (`header-scroll`, `section-meta`); nothing reads a
                // heading's class after it.
                self.reclassed.push((n, String::new()));
            } else if let Some(visible) = visible_class(class) {
                self.reclassed.push((n, visible));
            }
        }
        false
    }
}

/// Framer's server-rendered pages hold one copy of a component per
/// breakpoint (desktop, tablet, phone), each a `ssr-variant` hidden at the
/// breakpoints it is not for by a class `hidden-<breakpoint id>`; the copies
/// of one component share out the breakpoints. The page is read at one
/// breakpoint, the first such class names: the variants hidden there go.
/// `None` on a page without variants (read until the first one).
fn framer_breakpoint(doc: &Document) -> Option<String> {
    // Every element of every page is looked at: its class is read in
    // place, and only one holding the variant's name is split into words.
    let variant = memchr::memmem::Finder::new(FRAMER_VARIANT);
    doc.root().descendants_it().find_map(|n| {
        n.query_or(None, |node| {
            let NodeData::Element(el) = &node.data else {
                return None;
            };
            let class = crate::tag::attr(el, &local_name!("class"))?;
            variant.find(class.as_bytes())?;
            let mut tokens = class.split_ascii_whitespace();
            if !tokens.clone().any(|t| t == FRAMER_VARIANT) {
                return None;
            }
            tokens
                .find(|t| t.starts_with(FRAMER_HIDDEN))
                .map(str::to_string)
        })
    })
}

/// Whether `n` is a Framer variant hidden at the breakpoint `shown` (see
/// [`framer_breakpoint`]).
fn other_framer_variant(class: Option<&str>, shown: &str) -> bool {
    class.is_some_and(|class| {
        let mut tokens = class.split_ascii_whitespace();
        tokens.clone().any(|t| t == FRAMER_VARIANT) && tokens.any(|t| t == shown)
    })
}

/// The panels of the page's disclosure widgets (WAI-ARIA's accordion and
/// disclosure patterns: an FAQ's answers, a service's details): a toggle
/// with `aria-expanded` names its panel by id in `aria-controls`. A
/// collapsed panel is hidden (`hidden`, `display:none`, `aria-hidden`)
/// until its toggle is clicked, one click away: content, as a tab panel
/// is. The toggle comes before its panel, so one walk finds both.
///
/// A toggle without `aria-expanded` (its state kept by a script alone)
/// counts when its panel names it back: WAI-ARIA's accordion pattern
/// labels each panel (`role="region"`) by its header, `aria-labelledby`
/// holding the id of the toggle whose `aria-controls` holds the panel's
/// (a Vue accordion's `es-accordion-heading` and its `display:none`
/// content). Both links, not one: a carousel's arrows name their slides in
/// `aria-controls` too.
#[derive(Default)]
struct Disclosures {
    panels: std::collections::HashSet<String>,
    /// Panel id → the id of a toggle without `aria-expanded` naming it.
    labelled: std::collections::HashMap<String, String>,
}

impl Disclosures {
    /// Remembers the panels `n` controls when it is a toggle.
    fn note_toggle(&mut self, el: &Element) {
        let Some(ids) = el.attr_ref(local_name!("aria-controls")) else {
            return;
        };
        if el.attr_ref(local_name!("aria-expanded")).is_some() {
            self.panels
                .extend(ids.split_ascii_whitespace().map(str::to_owned));
        } else if let Some(toggle) = el.attr_ref(local_name!("id")) {
            for id in ids.split_ascii_whitespace() {
                self.labelled.insert(id.to_owned(), toggle.to_string());
            }
        }
    }

    /// Whether `n` is the panel of a toggle seen before it.
    fn controls(&self, el: &Element) -> bool {
        if self.panels.is_empty() && self.labelled.is_empty() {
            return false;
        }
        let Some(id) = el.attr_ref(local_name!("id")) else {
            return false;
        };
        self.panels.contains(id)
            || self.labelled.get(id).is_some_and(|toggle| {
                el.attr_ref(local_name!("aria-labelledby"))
                    .is_some_and(|by| by.split_ascii_whitespace().any(|t| t == toggle))
            })
    }
}

/// Whether `n`, hidden by its style, is an FAQ's answer right after its
/// question (class words [`FAQ_ANSWER`] and [`FAQ_QUESTION`]: `faq__answer`
/// after `faq__question`). FAQ scripts without WAI-ARIA (see
/// [`Disclosures`]) pair the two by place alone and show the answer when
/// its question is clicked: one click away, content. Both words, not one:
/// a quiz hides its `answer` until the reader has tried.
fn answer_after_question(n: &NodeRef<'_>, class: Option<&str>) -> bool {
    class.is_some_and(|class| FAQ_ANSWER.in_raw_value(class))
        && n.prev_element_sibling()
            .and_then(|q| q.attr("class"))
            .is_some_and(|class| FAQ_QUESTION.in_raw_value(&class))
}

/// The elements of `waiting` (hidden by their inline style alone:
/// `display:none`, see [`Hiding::ByStyle`], or [`style_waits`]; in page
/// order) that are hidden from the page rather than the page waiting for
/// its scripts: all but those holding [`PAGE_SHARE`] of the body's text.
fn hidden_until_shown<'a>(doc: &'a Document, waiting: &[NodeRef<'a>]) -> Vec<NodeRef<'a>> {
    let page = doc.body().map_or(0, |b| b.normalized_char_count()) as f32;
    let mut doomed = Vec::new();
    let mut gone: std::collections::HashSet<NodeId> = std::collections::HashSet::new();
    for (i, n) in waiting.iter().enumerate() {
        // Inside one that goes: gone with it.
        if n.ancestors_it(None).any(|a| gone.contains(&a.id)) {
            continue;
        }
        // The page waits in a container, never in a list or a table (a
        // shop theme's hidden `<dl>` of raw custom fields can outweigh the
        // page).
        let container = !matches!(n.node_name().as_deref(), Some("dl" | "ul" | "ol" | "table"));
        let shows =
            i < MAX_WAITING && container && n.normalized_char_count() as f32 >= page * PAGE_SHARE;
        if !shows {
            gone.insert(n.id);
            doomed.push(*n);
        }
    }
    doomed
}

/// The least text, in non-space characters, that makes a `<noscript>`
/// the page rather than a "please enable JavaScript" line.
const NOSCRIPT_PAGE: usize = 400;

/// Whether the page keeps its content inside `<noscript>`, for browsers
/// without scripts, and shows scripts' work (a splash screen, an empty app
/// root) otherwise: Discourse's crawler view, server-rendered fallbacks of
/// single-page apps. So when the text inside `<noscript>` elements is
/// substantial and more than twice the page's other text: the scripts
/// would have built that text, which we cannot run. One walk.
fn noscript_holds_page(doc: &Document) -> bool {
    let Some(body) = doc.body() else {
        return false;
    };
    // The text inside first: on almost every page it is short, and the
    // rest of the page's text need not be counted.
    let inside = text_chars(&body, Within::Noscript);
    inside >= NOSCRIPT_PAGE && inside > text_chars(&body, Within::Elsewhere) * 2
}

/// Which text [`text_chars`] counts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Within {
    Noscript,
    Elsewhere,
}

/// The non-space characters of the text below `root` inside `<noscript>`
/// elements, or outside them, in one walk; script and style bodies are not
/// text anyone reads.
fn text_chars(root: &NodeRef<'_>, within: Within) -> usize {
    let mut chars = 0;
    let mut stack = vec![(*root, false)];
    while let Some((n, in_noscript)) = stack.pop() {
        // One look at each node: whether to go in, and how.
        let inside = n.query_or(None, |node| match &node.data {
            NodeData::Text { contents } => {
                if in_noscript == (within == Within::Noscript) {
                    chars += contents.chars().filter(|c| !c.is_whitespace()).count();
                }
                None
            }
            NodeData::Element(el) => {
                let name = &el.name.local;
                let skipped = *name == local_name!("script")
                    || *name == local_name!("style")
                    || *name == local_name!("template");
                (!skipped).then(|| in_noscript || *name == local_name!("noscript"))
            }
            _ => None,
        });
        if let Some(in_noscript) = inside {
            stack.extend(n.children_it(false).map(|c| (c, in_noscript)));
        }
    }
    chars
}

/// The first node after `n` and everything inside it, in document order.
fn following(n: &NodeRef<'_>) -> Option<NodeId> {
    let mut at = *n;
    loop {
        if let Some(next) = at.next_sibling() {
            return Some(next.id);
        }
        at = at.parent()?;
    }
}

fn is_heading(el: &Element) -> bool {
    [
        local_name!("h1"),
        local_name!("h2"),
        local_name!("h3"),
        local_name!("h4"),
        local_name!("h5"),
        local_name!("h6"),
    ]
    .contains(&el.name.local)
}

/// The class attribute without the tokens that mention hiding but leave
/// the element shown on a desktop page: Shopify's `quick-add-hidden` and
/// `no-js-hidden`, `small-hide`, `overflow-hidden`, Bootstrap 3's
/// `hidden-xs`, Tailwind's `hidden md:block`. Readability counts any class
/// containing "hidden" against an element and then drops it, which took
/// the description off every product page of Shopify's default theme.
/// `None` when nothing changes.
pub(crate) fn visible_class(class: &str) -> Option<String> {
    // Most classes do not mention it: no lower-cased copy for them.
    let b = class.as_bytes();
    memchr::memchr2_iter(b'h', b'H', b).find(|&i| {
        b.get(i + 1..i + 3)
            .is_some_and(|r| r.eq_ignore_ascii_case(b"id"))
    })?;
    let lower = class.to_ascii_lowercase();
    let tokens: Vec<&str> = lower.split_ascii_whitespace().collect();
    let shown_again = shown_again(&tokens);
    let keep = |t: &str| {
        if !t.contains("hid") {
            return true;
        }
        if t == "hidden" {
            return !shown_again;
        }
        // Hidden for everyone, or on large screens.
        HIDDEN_ON_DESKTOP.has_entry(t)
            || t.split_once(':')
                .is_some_and(|(bp, v)| matches!(bp, "md" | "lg" | "xl" | "2xl") && v == "hidden")
    };
    let kept: Vec<&str> = tokens.iter().copied().filter(|t| keep(t)).collect();
    (kept.len() != tokens.len()).then(|| kept.join(" "))
}

/// Whether a class shows its element again from some screen width up:
/// Tailwind's `hidden md:block`, Bootstrap 4/5's `d-none d-lg-flex`, and
/// the `show`/`visible` words of responsive grids (`hide show@medium`,
/// Foundation's `show-for-medium`, Bootstrap 3's `visible-md-block`).
fn shown_again(tokens: &[&str]) -> bool {
    let display = |v: &str| {
        matches!(
            v,
            "block" | "flex" | "grid" | "inline" | "inline-block" | "inline-flex" | "table"
        )
    };
    tokens.iter().any(|t| {
        t.starts_with("show-")
            || t.starts_with("show@")
            || t.starts_with("visible-")
            || t.split_once(':').is_some_and(|(bp, v)| {
                matches!(bp, "sm" | "md" | "lg" | "xl" | "2xl") && display(v)
            })
            || t.strip_prefix("d-").is_some_and(|rest| {
                rest.split_once('-').is_some_and(|(bp, v)| {
                    matches!(bp, "sm" | "md" | "lg" | "xl" | "xxl") && display(v)
                })
            })
    })
}

/// Whether a class may say it hides ("hid" or Bootstrap's "-none"): most
/// classes do not, and need no lower-cased copy.
fn mentions_hiding(class: &str) -> bool {
    let b = class.as_bytes();
    memchr::memchr2_iter(b'h', b'H', b).any(|i| {
        b.get(i + 1..i + 3)
            .is_some_and(|r| r.eq_ignore_ascii_case(b"id"))
    }) || NONE_SUFFIX.find(b).is_some()
}

/// The search for Bootstrap's `-none` in [`mentions_hiding`], built once:
/// `memmem::find` builds a searcher for every class of 64 bytes or more
/// (Tailwind's), which cost more than the search.
static NONE_SUFFIX: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("-none"));

/// Whether a utility class hides the element from everyone on a desktop
/// page ([`HIDDEN_BY_CLASS`]: `hide`, `d-none`, `is-hidden`, not shown again
/// from a breakpoint up). Such an element is hidden as an inline
/// `display:none` is: it waits ([`Hiding::ByStyle`]).
fn class_hides(class: &str) -> bool {
    if !mentions_hiding(class) {
        return false;
    }
    let lower = class.to_ascii_lowercase();
    let tokens: Vec<&str> = lower.split_ascii_whitespace().collect();
    tokens.iter().any(|t| HIDDEN_BY_CLASS.has_entry(t)) && !shown_again(&tokens)
}

/// The mark left on a sale price's spoken twin (see [`reader_twin`]): on
/// one product's page it goes after all (`inner.rs`), as the people
/// marking product pages leave it out.
pub(crate) const SPOKEN_PRICE: &str = "data-farsight-spoken-price";

/// The text for screen readers that says what `n` shows, when `n` is a
/// price change hidden from them (`<del>`/`<ins>` with
/// `aria-hidden="true"`): its next sibling, visually hidden
/// (`screen-reader-text`, `sr-only`). WooCommerce writes every sale price
/// so (`<del aria-hidden="true">$30.00</del><span
/// class="screen-reader-text">Original price was: $30.00.</span><ins
/// aria-hidden="true">…`): the visible prices go with the hidden, so their
/// spoken twins stay, as the only prices left. Only behind text with a
/// letter or digit. Other text hidden from screen readers beside a spoken
/// twin (Etsy's struck prices, review counts) is left out by the people
/// marking pages as often as kept: not those.
fn reader_twin<'a>(n: &NodeRef<'a>, el: &Element) -> Option<NodeRef<'a>> {
    let price_change = (el.name.local == local_name!("del") || el.name.local == local_name!("ins"))
        && el
            .attr_ref(local_name!("aria-hidden"))
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"));
    if !price_change {
        return None;
    }
    let twin = n.next_element_sibling()?;
    if !SCREEN_READER.matches(&Words::of(&twin)) {
        return None;
    }
    n.text().chars().any(char::is_alphanumeric).then_some(twin)
}

/// How an element is hidden, when it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hiding {
    /// By what it is or says of itself (a script, a form field, `hidden`,
    /// `aria-hidden`): it goes.
    Always,
    /// By its inline style alone (`display:none`), a utility class
    /// ([`class_hides`]) or `<main aria-hidden>` (an open dialog): scripts
    /// show such elements too, so it waits like `visibility:hidden` (see
    /// [`PAGE_SHARE`]). Shopify's page-lock apps wrap the whole page in
    /// one until a script decides.
    ByStyle,
}

fn hiding(n: &NodeRef<'_>, el: &Element, class: Option<&str>) -> Option<Hiding> {
    hiding_by_markup(n, el).or_else(|| mobile_twin(n, class).then_some(Hiding::ByStyle))
}

/// Whether `n` is the small-screen copy of a Tailwind responsive pair: its
/// class hides it from a breakpoint up (`md:hidden`) and an element sibling
/// beside it is shown from that breakpoint up (`hidden md:block`), the
/// same text said once per screen size (a product card's badge, a price).
/// A desktop page shows the second; read together, the text came twice.
fn mobile_twin(n: &NodeRef<'_>, class: Option<&str>) -> bool {
    let Some(class) = class else {
        return false;
    };
    // Most classes hold no colon: one quick scan says so.
    if memchr::memchr(b':', class.as_bytes()).is_none() || !class.contains(":hidden") {
        return false;
    }
    let lower = class.to_ascii_lowercase();
    let tokens: Vec<&str> = lower.split_ascii_whitespace().collect();
    // Shown again at a larger breakpoint (`lg:hidden xl:block`): not a
    // copy for small screens only.
    if shown_again(&tokens) {
        return false;
    }
    let Some(bp) = tokens.iter().find_map(|t| {
        t.strip_suffix(":hidden")
            .filter(|bp| matches!(*bp, "sm" | "md" | "lg"))
    }) else {
        return false;
    };
    let desktop = |s: NodeRef<'_>| {
        s.attr("class").is_some_and(|c| {
            let c = c.to_ascii_lowercase();
            let tokens: Vec<&str> = c.split_ascii_whitespace().collect();
            tokens.contains(&"hidden")
                && tokens.iter().any(|t| {
                    t.split_once(':').is_some_and(|(b, v)| {
                        b == bp
                            && matches!(
                                v,
                                "block"
                                    | "flex"
                                    | "grid"
                                    | "inline"
                                    | "inline-block"
                                    | "inline-flex"
                            )
                    })
                })
        })
    };
    (n.prev_element_sibling().is_some_and(desktop) || n.next_element_sibling().is_some_and(desktop))
        && n.normalized_char_count() <= 40
}

/// How far above a block the element that shows it on small screens only
/// may be (see [`small_screen_only`]).
const SMALL_SCREEN_DEPTH: usize = 12;

/// Whether `n` or an ancestor at most [`SMALL_SCREEN_DEPTH`] levels up is
/// shown on small screens only: its class hides it from a breakpoint up
/// (Bootstrap 4/5's `d-md-none`, Tailwind's `md:hidden`, Bootstrap 3's
/// `hidden-md`/`hidden-lg`) and does not show it again higher up.
pub(crate) fn small_screen_only(n: &NodeRef<'_>) -> bool {
    std::iter::once(*n)
        .chain(n.ancestors_it(Some(SMALL_SCREEN_DEPTH)))
        .any(|a| a.attr("class").is_some_and(|c| class_small_screen_only(&c)))
}

fn class_small_screen_only(class: &str) -> bool {
    if !mentions_hiding(class) {
        return false;
    }
    let lower = class.to_ascii_lowercase();
    let tokens: Vec<&str> = lower.split_ascii_whitespace().collect();
    let hides_from_breakpoint = |t: &&str| {
        matches!(*t, "hidden-md" | "hidden-lg" | "hidden-desktop")
            || t.strip_suffix(":hidden")
                .is_some_and(|bp| matches!(bp, "sm" | "md" | "lg"))
            || t.strip_prefix("d-")
                .and_then(|rest| rest.strip_suffix("-none"))
                .is_some_and(|bp| matches!(bp, "sm" | "md" | "lg"))
    };
    tokens.iter().any(hides_from_breakpoint) && !shown_again(&tokens)
}

fn hiding_by_markup(n: &NodeRef<'_>, el: &Element) -> Option<Hiding> {
    // Names compared as the parser's atoms: one integer each.
    let name = &el.name.local;
    if *name == local_name!("button") {
        return (!is_disclosure(n, el)).then_some(Hiding::Always);
    }
    // A tab panel (WAI-ARIA tabs: the other languages of a code sample,
    // a product's specifications) is hidden until its tab is clicked,
    // one click away: content, whatever hides it.
    let tab_panel = el.attrs.iter().any(|a| {
        a.name.local == local_name!("role") && a.value.trim().eq_ignore_ascii_case("tabpanel")
    });
    if tab_panel {
        return None;
    }
    if [
        local_name!("script"),
        local_name!("style"),
        local_name!("template"),
        local_name!("noscript"),
        local_name!("iframe"),
        local_name!("frame"),
        local_name!("object"),
        local_name!("embed"),
        local_name!("input"),
        local_name!("select"),
        local_name!("textarea"),
        local_name!("dialog"),
        local_name!("link"),
    ]
    .contains(name)
    {
        // JSON-LD stays: metadata reads it before this runs, but keep
        // it harmlessly out of the content anyway.
        return Some(Hiding::Always);
    }
    let mut by_style = false;
    let always = el.attrs.iter().any(|a| {
        let attr = &a.name.local;
        if *attr == local_name!("hidden") {
            true
        } else if *attr == local_name!("aria-hidden") {
            if *name == local_name!("main") {
                // `<main aria-hidden="true">`: the page behind an open modal
                // dialog (WAI-ARIA's dialog pattern hides the rest of the
                // page from screen readers while one is open; eBay's item
                // pages are served so). It waits, as inline `display:none`
                // does.
                by_style |= a.value.trim().eq_ignore_ascii_case("true");
                false
            } else {
                a.value.trim().eq_ignore_ascii_case("true") && !shown_beside_its_name(n, el)
            }
        } else if *attr == local_name!("type") {
            a.value.trim().eq_ignore_ascii_case("hidden")
        } else if *attr == local_name!("style") {
            by_style |= style_hides(&a.value);
            false
        } else if *attr == local_name!("class") {
            by_style |= class_hides(&a.value);
            false
        } else {
            false
        }
    });
    if always {
        Some(Hiding::Always)
    } else {
        by_style.then_some(Hiding::ByStyle)
    }
}

/// Whether an element hidden from screen readers (`aria-hidden="true"`)
/// is shown on the screen all the same, because what it says is said to
/// screen readers another way: `aria-hidden` takes an element out of the
/// accessibility tree, not off the page. Two WAI-ARIA conventions:
/// - the visible text of a link or button whose name is its `aria-label`
///   (Amazon's rating link, `aria-label="4.7 out of 5 stars, 58,483
///   ratings"` around its stars and count, each `aria-hidden`): hidden so
///   that it is not read twice;
/// - a link also out of the tab order (`tabindex="-1"`): a card's second
///   link to the same page (around its picture or its summary), skipped
///   by screen readers and keyboards as a duplicate, not by the eye.
fn shown_beside_its_name(n: &NodeRef<'_>, el: &dom_query::Element) -> bool {
    let skipped_link = &*el.name.local == "a"
        && el
            .attrs
            .iter()
            .any(|a| &*a.name.local == "tabindex" && a.value.trim() == "-1");
    skipped_link
        || n.ancestors_it(Some(NAMED_CONTROL_DEPTH)).any(|p| {
            matches!(p.node_name().as_deref(), Some("a" | "button")) && p.has_attr("aria-label")
        })
}

/// How far above a hidden element its link or button is looked for (see
/// [`shown_beside_its_name`]): the icon and the count inside a link.
const NAMED_CONTROL_DEPTH: usize = 2;

/// A button that opens a section of the page (an FAQ's question, an
/// accordion's heading) says something; "Add to cart" and "Menu" do not.
fn is_disclosure(n: &NodeRef<'_>, el: &dom_query::Element) -> bool {
    let toggles = el
        .attrs
        .iter()
        .any(|a| matches!(&*a.name.local, "aria-expanded" | "aria-controls"));
    toggles && {
        let text = n.text();
        text.split_whitespace().count() >= 3 && text.trim().chars().count() >= 20
    }
}

/// Whether an inline style hides the element. `font-size:0` is not read
/// here: whether it hides depends on the descendants (see
/// [`zero_font_hidden`]).
pub(crate) fn style_hides(style: &str) -> bool {
    let compact = compact_style(style);
    declarations(&compact).any(|decl| matches!(decl, "display:none" | "visibility:collapse"))
}

/// Whether an inline style may hide its element only until scripts run:
/// `visibility:hidden` on the anti-flicker wrappers of A/B testing tools
/// and page builders. See [`PAGE_SHARE`]. (`opacity:0`, the first frame of
/// an entrance animation — Webflow's interactions, Framer — hides nothing:
/// screen readers read such text, and so do we.)
fn style_waits(style: &str) -> bool {
    let compact = compact_style(style);
    declarations(&compact).any(|decl| matches!(decl, "visibility:hidden"))
}

/// Whether an element hidden by `visibility:hidden` (see [`style_waits`])
/// is a collapsed accordion panel: the CSS way to animate a panel open
/// (Bootstrap-style collapse, Radix/Headless UI accordions, styled-system
/// `height="0"` props) gives it no height and no visibility until its
/// header is clicked, one click away, like a tab panel: content (an FAQ's
/// answers, a course's modules). A tracking beacon or a zoom overlay is
/// zero wide as well, and stays hidden.
fn collapsed_panel(el: &Element, style: &str) -> bool {
    let zero = |v: &str| matches!(v, "0" | "0px");
    let compact = compact_style(style);
    let (mut no_height, mut no_width) = (false, false);
    for decl in declarations(&compact) {
        match decl.split_once(':') {
            Some(("height" | "max-height", v)) => no_height |= zero(v),
            Some(("width" | "max-width", v)) => no_width |= zero(v),
            _ => {}
        }
    }
    no_height |= el
        .attr_ref(local_name!("height"))
        .is_some_and(|h| zero(h.trim()));
    no_width |= el
        .attr_ref(local_name!("width"))
        .is_some_and(|w| zero(w.trim()));
    no_height && !no_width
}

/// An element hidden only until scripts run (see [`style_waits`]) that
/// holds at least this share of the page's text is the page waiting to be
/// shown, not something hidden from it: it stays. Smaller ones go.
const PAGE_SHARE: f32 = 0.5;

/// At most this many waiting elements are measured on one page (each is a
/// walk of its subtree); later ones go as hidden.
const MAX_WAITING: usize = 64;

/// An inline style lower-cased and without white space: one allocation
/// for all of its declarations (this runs on every styled element).
fn compact_style(style: &str) -> String {
    // Nearly every style is ASCII: byte by byte, the same white space
    // (`char::is_whitespace` on ASCII) and the same lower case, without
    // decoding characters (a visible share of the time on styled pages).
    if style.is_ascii() {
        let mut out = Vec::with_capacity(style.len());
        out.extend(
            style
                .bytes()
                .filter(|b| !matches!(b, b' ' | b'\t'..=b'\r'))
                .map(|b| b.to_ascii_lowercase()),
        );
        // ASCII in, ASCII out: always UTF-8.
        return String::from_utf8(out).unwrap_or_default();
    }
    style
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The declarations of a [`compact_style`], without `!important`.
fn declarations(compact: &str) -> impl Iterator<Item = &str> {
    compact
        .split(';')
        .map(|decl| decl.strip_suffix("!important").unwrap_or(decl))
}

/// What an inline style says about the font size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Size {
    /// `font-size:0` (any unit).
    Zero,
    /// A size of its own (`font-size:14px`, `font:1em serif`).
    Set,
}

/// The font size an inline style sets, if any; the last declaration wins,
/// as in CSS.
fn font_size(style: &str) -> Option<Size> {
    // Most styles say nothing of fonts: no allocation for them.
    let font = style
        .as_bytes()
        .windows(4)
        .any(|w| w.eq_ignore_ascii_case(b"font"));
    if !font {
        return None;
    }
    let compact = compact_style(style);
    declarations(&compact)
        .filter_map(|decl| {
            // The `font` shorthand always names a size; read as one of its own.
            if decl.starts_with("font:") {
                return Some(Size::Set);
            }
            let value = decl.strip_prefix("font-size:")?;
            // `0`, `0px`, `0em`, `0.0rem`, `0%`: a number of zero, any unit.
            let number = value.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            let zero = number.len() < value.len()
                && value[..value.len() - number.len()]
                    .chars()
                    .all(|c| c == '0' || c == '.')
                && number.chars().all(|c| c.is_ascii_alphabetic() || c == '%');
            Some(if zero { Size::Zero } else { Size::Set })
        })
        .last()
}

/// Which of the elements styled `font-size:0` (`zero`, in document order)
/// hide their content. HTML e-mails and newsletters set it on a wrapper to
/// kill the white space between inline blocks, and every block sets its own
/// size again: such a wrapper hides nothing. An element hides when it holds
/// text of its own (shown at size 0) or no element below it sets a size.
///
/// Linear: the innermost elements are decided first, and an outer one
/// takes an inner one's answer instead of walking its elements again, so
/// each element is looked at for one `font-size:0` ancestor only.
fn zero_font_hidden<'a>(zero: &[NodeRef<'a>]) -> Vec<NodeRef<'a>> {
    let index: std::collections::HashMap<dom_query::NodeId, usize> =
        zero.iter().enumerate().map(|(i, n)| (n.id, i)).collect();
    let mut shows = vec![false; zero.len()];
    // Document order puts descendants after their ancestors.
    for (i, n) in zero.iter().enumerate().rev() {
        let own_text = n
            .children_it(false)
            .any(|c| c.is_text() && !c.text().trim().is_empty());
        if own_text {
            continue;
        }
        let mut stack: Vec<NodeRef<'a>> = n.children_it(false).filter(|c| c.is_element()).collect();
        while let Some(d) = stack.pop() {
            if let Some(&j) = index.get(&d.id) {
                if shows[j] {
                    shows[i] = true;
                    break;
                }
                continue;
            }
            if d.attr("style")
                .is_some_and(|s| font_size(&s) == Some(Size::Set))
            {
                shows[i] = true;
                break;
            }
            stack.extend(d.children_it(false).filter(|c| c.is_element()));
        }
    }
    zero.iter()
        .zip(shows)
        .filter(|(_, shows)| !shows)
        .map(|(n, _)| *n)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_that_hide_nothing_on_a_desktop_go() {
        let v = |c: &str| visible_class(c);
        assert_eq!(
            v("product__description rte quick-add-hidden").as_deref(),
            Some("product__description rte")
        );
        assert_eq!(v("small-hide no-js-hidden x").as_deref(), Some("x"));
        assert_eq!(v("hidden md:block").as_deref(), Some("md:block"));
        assert_eq!(v("hide show@medium"), None);
        assert_eq!(v("hidden-xs overflow-hidden").as_deref(), Some(""));
        assert_eq!(v("hidden"), None);
        assert_eq!(v("menu lg:hidden"), None);
        assert_eq!(v("visually-hidden"), None);
        assert_eq!(v("content"), None);
    }

    #[test]
    fn a_class_mentioning_hid_in_any_case_is_read() {
        assert_eq!(visible_class("Quick-Add-HIDDEN x").as_deref(), Some("x"));
        assert_eq!(visible_class("h hi hid-x").as_deref(), Some("h hi"));
        assert_eq!(visible_class("ch"), None);
    }

    #[test]
    fn ascii_styles_compact_as_characters_do() {
        // Byte by byte for ASCII, character by character otherwise: the
        // same white space (vertical tab included) and the same lower case.
        let by_chars = |s: &str| -> String {
            s.chars()
                .filter(|c| !c.is_whitespace())
                .flat_map(char::to_lowercase)
                .collect()
        };
        for style in [
            "Display : NONE ;\tcolor:Red",
            "a\x0bb\x0cc\rd\ne",
            "\x1fX\x7f",
            "FONT-SIZE:0\u{a0}px",
            "Ä: \u{2003}B",
        ] {
            assert_eq!(compact_style(style), by_chars(style), "{style:?}");
        }
    }

    #[test]
    fn styles() {
        assert!(style_hides("color: red; DISPLAY : none"));
        assert!(style_hides("visibility:collapse !important"));
        assert!(
            !style_hides("visibility:hidden"),
            "decided by the text it holds"
        );
        assert!(style_waits("visibility: HIDDEN !important"));
        assert!(!style_waits("opacity: 0") && !style_hides("opacity:0"));
        assert!(!style_hides("font-size: 0"));
        assert!(!style_hides("display: block"));
        assert!(!style_hides("visibility: visible"));
    }

    #[test]
    fn font_sizes() {
        for zero in [
            "font-size:0",
            "FONT-SIZE: 0px",
            "font-size:0.0em !important",
        ] {
            assert_eq!(font_size(zero), Some(Size::Zero), "{zero}");
        }
        for set in [
            "font-size:14px",
            "font-size: 0.875rem",
            "font: 12px Arial",
            "font-size:small",
        ] {
            assert_eq!(font_size(set), Some(Size::Set), "{set}");
        }
        assert_eq!(font_size("color:red"), None);
        assert_eq!(font_size("font-size:0;font-size:16px"), Some(Size::Set));
        assert_eq!(font_size("font-size:16px;font-size:0"), Some(Size::Zero));
    }

    fn visible_text(html: &str) -> String {
        let doc = Document::from(html);
        remove_hidden(&doc);
        doc.select("body")
            .text()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    // Issue 12: a newsletter's `font-size:0` wrapper hid the whole page.
    #[test]
    fn a_zero_font_wrapper_hides_only_what_sets_no_size() {
        let html = r#"<body><div style="font-size:0">
            <div style="display:inline-block;font-size:16px">Shown</div>
            <div style="font-size:0"> <span style="font-size:14px">Deep</span> </div>
            <div style="font-size:0">Gone</div>
            <div style="font-size:0"><b>Also gone</b></div>
          </div><div style="font-size:0px">Tiny <i style="font-size:9px">x</i></div></body>"#;
        assert_eq!(visible_text(html), "Shown Deep");
    }

    #[test]
    fn nested_zero_fonts_stay_linear_and_hidden() {
        let depth = 2_000;
        let html = format!(
            "<body>{}<span>leaf</span>{}<p>after</p></body>",
            r#"<div style="font-size:0">"#.repeat(depth),
            "</div>".repeat(depth)
        );
        assert_eq!(visible_text(&html), "after");
    }
}
