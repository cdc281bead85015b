//! Every entry of every table, matched through an element built for it, and
//! the words each table must not match.

use std::rc::Rc;

use dom_query::Document;

use super::tables::*;
use super::{How, Table, Words};

/// The [`Words`] of the first `<div>` of `html`.
fn words_of(class: &str, id: &str) -> Rc<Words> {
    let html = format!("<div class=\"{class}\" id=\"{id}\">x</div>");
    let doc = Document::from(html.as_str());
    let div = doc.select("div");
    let node = div.nodes().first().copied();
    node.map(|n| Words::of(&n)).unwrap_or_default()
}

fn class_matches(t: &Table, class: &str) -> bool {
    t.matches(&words_of(class, ""))
}

fn id_matches(t: &Table, id: &str) -> bool {
    t.matches(&words_of("", id))
}

#[test]
fn every_entry_matches_as_its_table_says() {
    for (name, t) in ALL {
        assert!(!t.entries().is_empty(), "{name} is empty");
        for e in t.entries() {
            let upper = e.to_ascii_uppercase();
            let mut hits: Vec<String> = vec![e.to_string(), upper.clone()];
            let mut misses: Vec<String> = Vec::new();
            match t.how() {
                How::Token => {
                    hits.push(format!("a {e} b"));
                    hits.push(format!("\t{upper}\n"));
                    hits.push(format!("x_{e}__y"));
                    misses.push(format!("{e}x"));
                    misses.push(format!("x-{e}"));
                    misses.push(format!("{e}-x"));
                }
                How::Part => {
                    hits.push(format!("x-{e}-y"));
                    hits.push(format!("x_{e}__y"));
                    hits.push(format!("a {e} b"));
                    hits.push(e.replace('-', "_"));
                    misses.push(format!("{e}x"));
                    misses.push(format!("x{e}"));
                }
                How::Fragment => {
                    hits.push(format!("x{e}y"));
                    hits.push(format!("a b-{upper}_c"));
                    // The entry cut short at either end.
                    misses.push(e[1..].to_string());
                    misses.push(e[..e.len() - 1].to_string());
                }
            }
            for h in &hits {
                assert!(class_matches(t, h), "{name}: {e} in class {h:?}");
                if t.how() != How::Token || !h.contains(' ') {
                    assert!(id_matches(t, h), "{name}: {e} in id {h:?}");
                }
                assert!(t.in_class(&words_of(h, "")), "{name}: class only {h:?}");
                assert!(!t.in_class(&words_of("", h)), "{name}: id read {h:?}");
                assert!(t.in_raw_value(h), "{name}: raw {h:?}");
                assert!(t.matching(&words_of(h, "")).any(|m| m == *e));
            }
            for m in &misses {
                assert!(!class_matches(t, m), "{name}: {e} wrongly in {m:?}");
                assert!(!t.in_raw_value(m), "{name}: {e} wrongly raw in {m:?}");
            }
        }
    }
}

#[test]
fn entries_are_lower_case_and_unique() {
    for (name, t) in ALL {
        for (i, e) in t.entries().iter().enumerate() {
            assert_eq!(*e, e.to_ascii_lowercase(), "{name}: {e}");
            assert!(!e.is_empty() && !e.contains(' '), "{name}: {e:?}");
            assert!(!t.entries()[..i].contains(e), "{name}: {e} twice");
            // A part entry is letters and digits, with hyphens between parts.
            if t.how() == How::Part {
                assert!(
                    e.split('-')
                        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric())),
                    "{name}: {e} cannot match word parts"
                );
            }
        }
    }
}

#[test]
fn prefilters_cover_what_they_guard() {
    for t in [&NOTICE_FRAGMENTS, &NOTICE_TOKENS, &CMP_WORDS, &COOKIE] {
        for e in t.entries() {
            assert!(NOTICE_HINTS.in_value(e), "NOTICE_HINTS misses {e}");
        }
    }
    assert!(NOTICE_HINTS.in_value("qc-cmp2-container"));
    for e in BYLINE.entries() {
        assert!(BYLINE_HINTS.in_value(e), "BYLINE_HINTS misses {e}");
    }
}

/// The decisions each table's way of matching makes, on real class names.
#[test]
fn what_each_table_must_and_must_not_match() {
    let cases: &[(&str, &Table, &str, bool)] = &[
        ("NOISE", &NOISE, "site-header", true),
        ("NOISE", &NOISE, "subheader", false),
        ("NOISE", &NOISE, "main-nav", true),
        ("NOISE", &NOISE, "navy-theme", false),
        ("NOISE", &NOISE, "a11y-skip-link", true),
        ("NOISE", &NOISE, "skip", false),
        ("NOISE", &NOISE, "link-skip", false),
        ("NOISE", &NOISE, "menu-item", true),
        ("NOISE", &NOISE, "shared-content", false),
        ("REGION_NOISE", &REGION_NOISE, "star-rating", true),
        ("REGION_NOISE", &REGION_NOISE, "product-cross-sell", true),
        ("REGION_NOISE", &REGION_NOISE, "sorted-list", false),
        ("FILTER", &FILTER, "facet-row-container", true),
        ("FILTER", &FILTER, "filtered-list", false),
        ("TABLE_OF_CONTENTS", &TABLE_OF_CONTENTS, "tocbot", false),
        (
            "TABLE_OF_CONTENTS",
            &TABLE_OF_CONTENTS,
            "ez-toc-container",
            true,
        ),
        ("ACCORDION", &ACCORDION, "kt-accordion-pane", true),
        ("ACCORDION", &ACCORDION, "accordionlike", false),
        ("FAQ_ANSWER", &FAQ_ANSWER, "faq__answer", true),
        ("FAQ_ANSWER", &FAQ_ANSWER, "answered", false),
        ("FAQ_QUESTION", &FAQ_QUESTION, "faq-question", true),
        ("CARD", &CARD, "brwrvr__item-card__signals", true),
        ("CARD", &CARD, "scorecard", false),
        ("REGION_NOISE", &REGION_NOISE, "ast-quick-view-button", true),
        ("REGION_NOISE", &REGION_NOISE, "quick-viewer", false),
        (
            "RESULT_COUNT",
            &RESULT_COUNT,
            "woocommerce-result-count",
            true,
        ),
        ("RESULT_COUNT", &RESULT_COUNT, "result", false),
        ("EDIT_PAGE", &EDIT_PAGE, "theme-edit-this-page", true),
        ("EDIT_PAGE", &EDIT_PAGE, "edit", false),
        ("POST", &POST, "post bg2", true),
        ("POST", &POST, "post-body", false),
        ("POST", &POST, "post_wrapper", true),
        ("POST", &POST, "comment-meta", false),
        ("POST", &POST, "topic-post clearfix", true),
        ("POST_AUTHOR", &POST_AUTHOR, "postauthor", true),
        (
            "POST_TEXT",
            &POST_TEXT,
            "message-body js-selectToQuote",
            true,
        ),
        ("POST_TEXT", &POST_TEXT, "message-body-wrapper", false),
        ("POST_TEXT", &POST_TEXT, "cooked", true),
        (
            "POST_TEXT",
            &POST_TEXT,
            "messageText SelectQuoteContainer ugc",
            true,
        ),
        ("POST_TEXT", &POST_TEXT, "messageTextEndMarker", false),
        (
            "POST_QUOTE",
            &POST_QUOTE,
            "bbCodeBlock bbCodeBlock--quote",
            true,
        ),
        ("POST_QUOTE", &POST_QUOTE, "bbcode_quote", true),
        ("POST_QUOTE", &POST_QUOTE, "blockquote", false),
        ("CAPTION", &CAPTION, "wp-caption-text", true),
        ("META", &META, "article-tags", true),
        ("META", &META, "tag", false),
        ("TEASER", &TEASER, "right-rail", true),
        ("HIDDEN", &HIDDEN, "overflow-hidden", false),
        ("HIDDEN", &HIDDEN, "hidden-xs", false),
        ("HIDDEN", &HIDDEN, "text sr-only", true),
        ("HIDDEN", &HIDDEN, "flex md:hidden", false),
        (
            "SCREEN_READER",
            &SCREEN_READER,
            "wt-screen-reader-only",
            true,
        ),
        ("SCREEN_READER", &SCREEN_READER, "visually-hidden", true),
        ("SCREEN_READER", &SCREEN_READER, "u-visuallyhidden", true),
        ("USER_PANEL", &USER_PANEL, "userinfo_extra", true),
        ("AUTHOR_CARD", &AUTHOR_CARD, "post-signature owner", true),
        ("AUTHOR_BOX", &AUTHOR_BOX, "td-author-box", true),
        ("BADGE", &BADGE, "badger", false),
        ("BADGE", &BADGE, "ast-onsale-card", true),
        (
            "BUTTON_LINK",
            &BUTTON_LINK,
            "btn btn--secondary quick-add-view-btn",
            true,
        ),
        ("BUTTON_LINK", &BUTTON_LINK, "buttons-wrapper", false),
        ("REVIEW", &REVIEW, "qa-section", true),
        ("REVIEW", &REVIEW, "aqua", false),
        ("BUY_BOX", &BUY_BOX, "taxonomy", false),
        ("AD", &AD, "ad-slot", true),
        ("AD", &AD, "header", false),
        ("AD", &AD, "adaptive", false),
        (
            "ELEMENTOR_CTA",
            &ELEMENTOR_CTA,
            "elementor-cta__title",
            true,
        ),
        ("ELEMENTOR_CTA", &ELEMENTOR_CTA, "cta-elementor", false),
        (
            "ARCHIVE_DESCRIPTION",
            &ARCHIVE_DESCRIPTION,
            "archive-description taxonomy-archive-description",
            true,
        ),
        (
            "ARCHIVE_DESCRIPTION",
            &ARCHIVE_DESCRIPTION,
            "custom-archive-description",
            false,
        ),
        (
            "HIDDEN_ON_DESKTOP",
            &HIDDEN_ON_DESKTOP,
            "no-js-hidden",
            false,
        ),
        (
            "HIDDEN_BY_CLASS",
            &HIDDEN_BY_CLASS,
            "productView-info hide",
            true,
        ),
        ("HIDDEN_BY_CLASS", &HIDDEN_BY_CLASS, "hide-desktop", false),
        (
            "HIDDEN_BY_CLASS",
            &HIDDEN_BY_CLASS,
            "visually-hidden",
            false,
        ),
        ("PAYWALL", &PAYWALL, "c-paywall__overlay", true),
        (
            "NOTICE_FRAGMENTS",
            &NOTICE_FRAGMENTS,
            "CybotCookiebotDialog",
            true,
        ),
        ("NOTICE_TOKENS", &NOTICE_TOKENS, "cc-window cc-banner", true),
        ("NOTICE_TOKENS", &NOTICE_TOKENS, "cc-banner-wide", false),
        ("CMP_WORDS", &CMP_WORDS, "cmp-teaser", false),
        ("COOKIE", &COOKIE, "cookie-banner", true),
        ("COOKIE", &COOKIE, "cookiebanner", false),
        ("COOKIE_COMPANIONS", &COOKIE_COMPANIONS, "sidebar", false),
        ("BYLINE", &BYLINE, "c-byline__author", true),
        ("BYLINE", &BYLINE, "authority", false),
        ("NOT_A_BYLINE", &NOT_A_BYLINE, "boxed", false),
        ("COMMENT", &COMMENT, "commentlist", true),
    ];
    for (name, t, class, want) in cases {
        assert_eq!(class_matches(t, class), *want, "{name} on {class:?}");
    }
}

#[test]
fn class_and_id_are_read_apart() {
    // A hyphenated entry's parts in a row, not one in the class and the
    // next in the id.
    assert!(!NOISE.matches(&words_of("skip", "link")));
    assert!(NOISE.matches(&words_of("page", "skip-link")));
    // Nothing in either: an element without class or id.
    assert!(!NOISE.matches(&Words::default()));
}

#[test]
fn every_table_is_in_the_lexicon() {
    // Counted in the source: a table left out of `ALL` would read values
    // on its own (still right, but slow) and escape the tests above.
    let declared = include_str!("tables.rs")
        .lines()
        .filter(|l| l.starts_with("pub(crate) static ") && l.contains(": Table"))
        .count();
    assert_eq!(declared, ALL.len());
    assert!(ALL.len() <= 64, "one bit per table");
    for (name, t) in ALL {
        assert!(super::index::bit_of(t).is_some(), "{name}");
    }
}

/// The lexicon (every table read in one pass, for [`Words`]) answers as
/// each table reading the value on its own does, on values that mix
/// entries of many tables.
#[test]
fn the_lexicon_agrees_with_each_table() {
    let all: Vec<&str> = ALL.iter().flat_map(|(_, t)| t.entries()).copied().collect();
    let mut values: Vec<String> = Vec::new();
    for (i, e) in all.iter().enumerate() {
        let next = all[(i * 7 + 3) % all.len()];
        values.push(format!("{e} {next}"));
        values.push(format!("x-{e}_{next}y"));
        values.push(format!("{e}{next}"));
        values.push(e.replace('-', " "));
    }
    for v in &values {
        let w = Words::from_attrs(v, "");
        for (name, t) in ALL {
            assert_eq!(t.matches(&w), t.in_value(v), "{name} on {v:?}");
            assert_eq!(t.in_class(&w), t.in_value(v), "{name} on {v:?}");
        }
    }
}

/// A value as the page wrote it (any case) is read as its lower-cased copy
/// is, by every table: the fragment tables read it without the copy.
#[test]
fn raw_values_are_read_as_their_lower_case() {
    let all: Vec<&str> = ALL.iter().flat_map(|(_, t)| t.entries()).copied().collect();
    let mut values: Vec<String> = vec![String::new(), "A".into(), "é-Cookie".into()];
    for (i, e) in all.iter().enumerate() {
        let next = all[(i * 5 + 1) % all.len()];
        values.push(e.to_ascii_uppercase());
        values.push(format!("Xx{}{next}", e.to_ascii_uppercase()));
        values.push(format!("{e}Q"));
        // Cut short: an entry that would run past the end.
        values.push(e[..e.len() - 1].to_string());
        values.push(format!("ÀB{}", &e[1..]));
    }
    for v in &values {
        for (name, t) in ALL {
            let lower = v.to_ascii_lowercase();
            assert_eq!(t.in_raw_value(v), t.in_value(&lower), "{name} on {v:?}");
        }
    }
}

/// Adobe Experience Manager's component classes and generated ids name the
/// component an author placed: its teasers, promotion cards and banners
/// are not furniture there, and the same words still are elsewhere.
#[test]
fn aem_content_components_are_not_furniture() {
    for (class, id) in [
        (
            "promo cmp-promo__services aem-GridColumn aem-GridColumn--default--4",
            "",
        ),
        ("cta cmp-cta cmp-cta__banner cmp-cta__banner--bg-teal", ""),
        ("cmp-promo-container cmp-content-width", ""),
        ("sc-91c285dd-10", "teaser-8bd8b65ebf"),
        ("cmp-teaser", ""),
        ("cmp-promo-tracking", "promo-v3-1f484733"),
        ("", "teaser-v2-4139659"),
    ] {
        let w = words_of(class, id);
        assert!(!NOISE.matches(&w), "{class} {id}");
        assert!(!TEASER.matches(&w), "{class} {id}");
    }
    for (class, id) in [
        ("promo", ""),
        ("hero-banner", ""),
        ("promo-strip cmp-text", ""),
        ("", "teaser-list"),
        ("", "teaser-8bd8b65e"),
        ("", "promo-v3"),
        ("", "promo-v3-summer-sale"),
        ("", "promo-vip-1f484733"),
    ] {
        let w = words_of(class, id);
        assert!(NOISE.matches(&w) || TEASER.matches(&w), "{class} {id}");
    }
    // The navigation stays furniture on an AEM page.
    assert!(NOISE.matches(&words_of("cmp-navigation__nav aem-GridColumn", "")));
}

/// A tab widget's list of tabs (`w-tab-menu`, `faq_tabs-menu-link`) is
/// not the site's menu; a menu beside a tab widget's class, or a tab list
/// named as navigation, still is.
#[test]
fn tab_widget_menus_are_not_furniture() {
    for class in [
        "ent-tabs-menu w-tab-menu",
        "faq_tabs-menu",
        "faq_tabs-menu-link",
        "stack-tabs_menu-item is-active",
    ] {
        assert!(!NOISE.matches(&words_of(class, "")), "{class}");
    }
    for class in [
        "menu",
        "nav-menu w-nav-menu",
        "mega-nav-tabs-menu w-tab-menu",
        "tabs menu",
        "tab-content footer-menu",
    ] {
        assert!(NOISE.matches(&words_of(class, "")), "{class}");
    }
}

/// CSS Modules local names read at their camelCase words for a badge.
#[test]
fn css_module_badges() {
    for class in [
        "Products_productBadge__Prv_X Products_newArrival__ix_WM",
        "Products_productBadgeWr__ofesi",
        "ProductTile_collapsedBadges__O_wsp",
        "card flex Card_newBadge__a1b2",
    ] {
        assert!(super::is_css_module_badge(class), "{class}");
    }
    for class in [
        "productBadge",
        "Animals_honeyBadger__x1y2",
        "Products_badgeless__ab12",
        "Badge_root__k9",
        "",
    ] {
        assert!(!super::is_css_module_badge(class), "{class}");
    }
}

/// The fragment scan that skips windows (`Index::shifts`) finds what a
/// plain substring search finds: every entry, at every offset, in any
/// case, among other words; and nothing in entries cut short.
#[test]
fn fragment_skips_miss_nothing() {
    let fragment_tables: Vec<&Table> = ALL
        .iter()
        .map(|(_, t)| *t)
        .filter(|t| t.how() == How::Fragment)
        .collect();
    let all: Vec<&str> = fragment_tables
        .iter()
        .flat_map(|t| t.entries())
        .copied()
        .collect();
    let mut values: Vec<String> = Vec::new();
    for (i, e) in all.iter().enumerate() {
        let other = all[(i * 7 + 3) % all.len()];
        for pad in ["", "x", "ab", "q-r", "col-md-6 ", "Container_x "] {
            values.push(format!("{pad}{e}"));
            values.push(format!("{pad}{}-end", e.to_ascii_uppercase()));
            values.push(format!("{pad}{}{pad}{other}", &e[..e.len() - 1]));
            values.push(format!("{}{pad}", &e[1..]));
        }
    }
    for v in &values {
        let lower = v.to_ascii_lowercase();
        for t in &fragment_tables {
            let plain = t.entries().iter().any(|e| lower.contains(e));
            assert_eq!(t.in_raw_value(v), plain, "{:?} on {v:?}", t.entries());
        }
    }
}
