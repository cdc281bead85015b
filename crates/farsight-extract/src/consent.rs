//! Cookie and privacy consent notices, recognised by their markup and their
//! words and removed with what is hidden, before anything chooses the
//! content: on a short post a notice holds as much text as the post, and
//! was returned instead of it.
//!
//! Either sign is enough:
//! - the class or id names a consent notice (`cookie-banner`,
//!   `onetrust-banner-sdk`, `CybotCookiebotDialog`, `cmplz-cookiebanner`,
//!   `gdpr-notice`): see [`names_a_notice`];
//! - a short block says it ("We use cookies", "This website uses cookies")
//!   and offers a choice (a link or button "Accept", "Got it", "Settings"):
//!   see [`worded_notice`].
//!
//! Neither is trusted on a block that holds the page's heading, an
//! `<article>` or `<main>`, or more text than a notice has: a wrapper
//! classed `has-cookie-consent` is the page, and a privacy policy that says
//! "we use cookies" is content.

use dom_query::{Element, NodeRef};
use html5ever::{LocalName, local_name};
use memchr::memmem::Finder;
use std::sync::LazyLock;

use crate::words::parts;
use crate::words::tables::{
    CMP_WORDS, COOKIE, COOKIE_COMPANIONS, NOTICE_FRAGMENTS, NOTICE_HINTS, NOTICE_TOKENS,
};

/// Ways a notice says it, lower-cased: English, and the sentence the most
/// common notices use in a few other languages.
const NOTICE_PHRASES: [&str; 12] = [
    "we use cookies",
    "uses cookies",
    "use of cookies",
    "cookie policy",
    "cookie settings",
    "accept cookies",
    "accept all cookies",
    "wir verwenden cookies",
    "verwendet cookies",
    "nous utilisons des cookies",
    "utilizamos cookies",
    "utilizziamo i cookie",
];

/// The search for "ookie" (Cookie, cookie) that every text node of the
/// page goes through in [`Notices::worded_notice`], built once:
/// `memmem::find` builds a searcher for each text of 64 bytes or more.
static OOKIE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("ookie"));

/// What the choice a notice offers says, lower-cased and trimmed.
const CHOICES: [&str; 22] = [
    "accept",
    "accept all",
    "accept cookies",
    "accept all cookies",
    "i accept",
    "agree",
    "i agree",
    "allow",
    "allow all",
    "allow cookies",
    "ok",
    "okay",
    "got it",
    "got it!",
    "i understand",
    "reject",
    "reject all",
    "decline",
    "dismiss",
    "close",
    "settings",
    "cookie settings",
];

/// A notice is a few sentences; a preference centre's lists of vendors and
/// purposes run to a few thousand characters.
const MAX_NAMED_CHARS: usize = 5_000;

/// A notice recognised by its words alone is short: a sentence or two and
/// its buttons.
const MAX_WORDED_CHARS: usize = 800;

/// Elements looked at inside one candidate before it counts as too big to
/// be a notice.
const MAX_NOTICE_ELEMENTS: usize = 2_000;

/// Elements looked at by all checks of one page together: candidates
/// nested in candidates (a hostile page of 100,000 nested `consent` divs)
/// cannot make the checks quadratic. A real page's few notices use a small
/// part of it.
const PAGE_BUDGET: usize = 50_000;

/// Phrase matches followed up on one page: a privacy policy says "cookies"
/// in every paragraph.
const MAX_WORDED_TRIES: usize = 8;

/// Finds consent notices during one walk of the page (see `clean.rs`).
pub(crate) struct Notices {
    budget: usize,
    worded_tries: usize,
}

impl Notices {
    pub(crate) fn new() -> Self {
        Self {
            budget: PAGE_BUDGET,
            worded_tries: MAX_WORDED_TRIES,
        }
    }

    /// Whether the element `n` (its data `el`, borrowed) is a consent
    /// notice by its class or id.
    pub(crate) fn is_named_notice(&mut self, n: &NodeRef<'_>, el: &Element) -> bool {
        // This runs on every element with a class or an id: the hints
        // are read in the value as written (copied only when it has
        // capitals), and only the few that hint are lower-cased.
        let named = el.attrs.iter().any(|a| {
            (a.name.local == local_name!("class") || a.name.local == local_name!("id"))
                && NOTICE_HINTS.in_raw_value(&a.value)
                && names_a_notice(&a.value.to_ascii_lowercase())
        });
        named && !is_page_name(&el.name.local) && self.notice_sized(n, MAX_NAMED_CHARS)
    }

    /// The block a text node belongs to when the text says it is a consent
    /// notice and the block offers a choice: the largest such block of at
    /// most [`MAX_WORDED_CHARS`]. `contents` is the text of `text`.
    pub(crate) fn worded_notice<'a>(
        &mut self,
        text: &NodeRef<'a>,
        contents: &str,
    ) -> Option<NodeRef<'a>> {
        if self.worded_tries == 0 {
            return None;
        }
        let said = OOKIE.find(contents.as_bytes()).is_some() && {
            let lower = contents.to_lowercase();
            NOTICE_PHRASES.iter().any(|p| lower.contains(p))
        };
        if !said {
            return None;
        }
        self.worded_tries -= 1;
        let mut best = None;
        for a in text.ancestors_it(Some(8)) {
            if is_page_element(&a) || !self.notice_sized(&a, MAX_WORDED_CHARS) {
                break;
            }
            if self.offers_choice(&a) {
                best = Some(a);
            }
        }
        best
    }

    /// Whether `n` holds at most `max_chars` of text and no page heading,
    /// `<article>` or `<main>`, within the page's budget of elements.
    fn notice_sized(&mut self, n: &NodeRef<'_>, max_chars: usize) -> bool {
        let mut chars = 0usize;
        let mut seen = 0usize;
        for d in n.descendants_it() {
            seen += 1;
            if seen > MAX_NOTICE_ELEMENTS || seen > self.budget {
                self.budget = self.budget.saturating_sub(seen);
                return false;
            }
            if d.is_text() {
                chars += d.query_or(0, |node| match &node.data {
                    dom_query::NodeData::Text { contents } => contents.trim().len(),
                    _ => 0,
                });
                if chars > max_chars {
                    self.budget = self.budget.saturating_sub(seen);
                    return false;
                }
            } else if matches!(d.node_name().as_deref(), Some("h1" | "article" | "main")) {
                self.budget = self.budget.saturating_sub(seen);
                return false;
            }
        }
        self.budget = self.budget.saturating_sub(seen);
        true
    }

    /// A link or button below `n` whose words are a notice's choice.
    fn offers_choice(&mut self, n: &NodeRef<'_>) -> bool {
        let mut seen = 0usize;
        let found = n.descendants_it().any(|d| {
            seen += 1;
            if seen > self.budget {
                return false;
            }
            let control = matches!(d.node_name().as_deref(), Some("a" | "button" | "input"))
                || d.attr("role").is_some_and(|r| &*r == "button");
            control && {
                let words = d
                    .attr("value")
                    .or_else(|| d.attr("aria-label"))
                    .map(|v| v.to_string())
                    .unwrap_or_else(|| d.text().to_string());
                let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
                CHOICES.contains(&words.to_lowercase().as_str())
            }
        });
        self.budget = self.budget.saturating_sub(seen);
        found
    }
}

/// Whether a lower-cased class or id attribute names a consent notice.
fn names_a_notice(value: &str) -> bool {
    // Quantcast's `qc-cmp2-container`: a consent management platform's
    // name and a version.
    let cmp_version = |w: &str| {
        w.strip_prefix("cmp")
            .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
    };
    // `cookiebanner`, `cookiebar`, `cookienotice` written as one word.
    let joined = |w: &str| {
        COOKIE.entries().iter().any(|c| {
            w.strip_prefix(c)
                .is_some_and(|rest| COOKIE_COMPANIONS.has_entry(rest))
        })
    };
    NOTICE_FRAGMENTS.in_value(value)
        || NOTICE_TOKENS.in_value(value)
        || CMP_WORDS.in_value(value)
        || parts(value).any(|w| cmp_version(w) || joined(w))
        || (COOKIE.in_value(value) && COOKIE_COMPANIONS.in_value(value))
}

/// Elements that are the page, whatever their class says.
fn is_page_element(n: &NodeRef<'_>) -> bool {
    n.qual_name_ref().is_none_or(|q| is_page_name(&q.local))
}

/// Whether an element so named is the page (see [`is_page_element`]).
fn is_page_name(name: &LocalName) -> bool {
    [
        local_name!("html"),
        local_name!("body"),
        local_name!("main"),
        local_name!("article"),
        local_name!("head"),
    ]
    .contains(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notice_names() {
        for yes in [
            "cookie-banner",
            "js-cookie-notice wrapper",
            "cookies_bar",
            "cookiebanner",
            "onetrust-banner-sdk",
            "cybotcookiebotdialog",
            "cmplz-cookiebanner cmplz-show",
            "qc-cmp2-container",
            "cmpbox",
            "gdpr-notice",
            "cookieconsent",
            "cc-window cc-banner",
            "cookie-law-info-bar",
        ] {
            assert!(names_a_notice(yes), "{yes}");
        }
        for no in [
            "cookie",
            "cookie-recipe",
            "post tag-cookies category-baking",
            "compare",
            "cmp",
            "cmp-container cmp-text",
            "cmpnt",
            "banner",
            "content",
        ] {
            assert!(!names_a_notice(no), "{no}");
        }
    }

    fn after_cleaning(html: &str) -> String {
        let doc = dom_query::Document::from(html);
        crate::clean::remove_hidden(&doc);
        doc.select("body")
            .text()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn the_page_is_never_taken_for_a_notice() {
        let post =
            "<h1>Brown butter cookies</h1><p>Brown the butter until it smells of hazelnuts.</p>";
        for html in [
            // A wrapper whose class mentions consent holds the page.
            format!(r#"<body><div id="page" class="has-cookie-consent">{post}</div></body>"#),
            // WordPress puts a post's tags in its class.
            format!(r#"<body><article class="post tag-cookies">{post}</article></body>"#),
            // A recipe's block named `cookie`, which says "cookies".
            format!(
                r#"<body><div class="cookie">{post}<p>These cookies keep a week; we use cookies of any size.</p></div></body>"#
            ),
        ] {
            let text = after_cleaning(&html);
            assert!(text.contains("Brown the butter"), "{html}: {text}");
        }
    }

    #[test]
    fn notices_go_by_name_or_by_words_and_choice() {
        let post = "<p>Brown the butter until it smells of hazelnuts.</p>";
        for notice in [
            r#"<div id="onetrust-banner-sdk"><p>Our partners and we process data.</p></div>"#,
            r#"<div class="cookie-bar">Cookies help us. <a href="/p">More</a></div>"#,
            r#"<div class="x"><p>This website uses cookies.</p><button>Accept all</button></div>"#,
            r##"<section><p>We use cookies for analytics.</p><a href="#" class="btn">OK</a></section>"##,
        ] {
            let text = after_cleaning(&format!("<body>{post}{notice}</body>"));
            assert_eq!(
                text, "Brown the butter until it smells of hazelnuts.",
                "{notice}"
            );
        }
        // Words without a choice: a privacy policy's paragraph stays.
        let policy = "<body><section><p>We use cookies to count visits.</p></section></body>";
        assert_eq!(after_cleaning(policy), "We use cookies to count visits.");
    }

    #[test]
    fn nested_blocks_named_like_notices_but_holding_the_page_stay() {
        // 3,000 nested blocks named like notices around the page's text:
        // each is too big to be one (checked within the page's budget of
        // elements, so the nesting costs no more than a few notices).
        let depth = 3_000;
        let html = format!(
            "<body>{}<p>{}</p>{}</body>",
            r#"<div class="cookie-banner">"#.repeat(depth),
            "Text of the page. ".repeat(400),
            "</div>".repeat(depth)
        );
        assert!(after_cleaning(&html).starts_with("Text of the page."));
    }
}
