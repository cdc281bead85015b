//! The author as the page's markup names them, for pages without JSON-LD or
//! `<meta>` authors: microdata (`itemprop="author"`, with a nested
//! `itemprop="name"` or as text), `rel="author"` links, and byline classes
//! (`byline`, `author-name`, `by-author`, WordPress's `author vcard`).
//!
//! A byline holds more than the name ("By Jane Doe on 3 March 2024 · 4 min
//! read"), and an author box holds a biography: a name is cut at the
//! byline's separators, loses a leading "By", and must look like a name
//! (a few words, no sentence) or it is not taken.

use dom_query::NodeRef;

use crate::render::collapse_ws;
use crate::words::Words;
use crate::words::tables::{BYLINE, BYLINE_HINTS, COMMENT, NOT_A_BYLINE};

/// How the markup names the author, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Mark {
    /// `itemprop="author"` (or `creator`).
    Microdata,
    /// `<a rel="author">`.
    RelAuthor,
    /// A byline's class.
    Class,
}

/// The longest name kept, in characters: two or three people's names.
const MAX_NAME_CHARS: usize = 80;

/// The most words in a byline a name is read from ("By Jane Doe and John
/// Roe on 3 March 2024 at 10:00 am · 4 min read · Share" has 18).
const MAX_BYLINE_WORDS: usize = 24;

/// The longest byline read, in bytes: a name, a date, a reading time.
const MAX_BYLINE_CHARS: usize = 300;

/// The most words in the part of a byline a name is read from ("By Jane
/// Doe and John Roe on 3 March 2024 at 10:00 am" has 13).
const MAX_PART_WORDS: usize = 16;

/// The most words in a kept name.
const MAX_NAME_WORDS: usize = 10;

/// How the element `el` marks the author, if it does.
pub(crate) fn mark_in(el: &dom_query::Element) -> Option<Mark> {
    let mut mark = None;
    for a in &el.attrs {
        let v = &a.value;
        let m = match &*a.name.local {
            "itemprop" if has_word(v, &["author", "creator"]) => Mark::Microdata,
            "rel" if &*el.name.local == "a" && has_word(v, &["author"]) => Mark::RelAuthor,
            "class" if is_byline_class(v) => Mark::Class,
            _ => continue,
        };
        mark = Some(mark.map_or(m, |old: Mark| old.min(m)));
    }
    mark
}

/// The author's name that `n` (marked as `mark`) gives, if it looks like one.
pub(crate) fn name_of(n: &NodeRef<'_>, mark: Mark) -> Option<String> {
    if in_comment(n) {
        return None;
    }
    let raw = match mark {
        Mark::Microdata => microdata_name(n)?,
        Mark::RelAuthor => text_parts(n)?,
        // A byline's links are its names ("By <a>Jane Doe</a> and <a>John
        // Roe</a> on ..."); without links, its text.
        Mark::Class => {
            let text = text_parts(n)?;
            let links: Vec<String> = n
                .descendants_it()
                .filter(|d| d.node_name().as_deref() == Some("a"))
                .filter_map(|a| clean_name(&a.text()))
                .collect();
            if links.is_empty() {
                text
            } else {
                dedup_join(links)
            }
        }
    };
    clean_name(&raw)
}

/// A microdata author's name: its `itemprop="name"` (text or `content`),
/// its own `content`, or its text.
fn microdata_name(n: &NodeRef<'_>) -> Option<String> {
    let named = n
        .descendants_it()
        .find(|d| d.attr("itemprop").is_some_and(|p| has_word(&p, &["name"])));
    if let Some(p) = named {
        return Some(
            p.attr("content")
                .map_or_else(|| p.text().to_string(), |c| c.to_string()),
        );
    }
    if let Some(content) = n.attr("content") {
        return Some(content.to_string());
    }
    // `<link itemprop="author" href>`: a URL, not a name.
    match n.node_name().as_deref() {
        Some("link" | "meta") => None,
        _ => text_parts(n),
    }
}

/// `raw` as a name: white space collapsed, cut at a byline's separators,
/// without a leading "By"; `None` when what is left is not a name.
pub(crate) fn clean_name(raw: &str) -> Option<String> {
    // A byline is a name and a date or two; longer is a biography.
    if raw.split_whitespace().count() > MAX_BYLINE_WORDS {
        return None;
    }
    // The first part that is more than a lead ("By", "Author") or a date.
    let name = raw
        .split(['|', '·', '•', '—', '–', '\n', '/'])
        .map(|part| collapse_ws(strip_by(part.trim())))
        .find_map(|part| {
            // One part of a byline that long is a sentence about someone.
            if part.split_whitespace().count() > MAX_PART_WORDS {
                return Some(None);
            }
            let name = before_the_rest(&part)
                .trim_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ':' | '-'));
            (!name.is_empty() && !is_label(name)).then(|| Some(name.to_owned()))
        })??;
    let words = name.split_whitespace().count();
    // A full stop after a word (not an initial, "J. R.", "Jr.") ends a
    // sentence.
    let sentence = name.contains(['!', '?', '@', '“', '"'])
        || name.match_indices(". ").any(|(at, _)| {
            name[..at]
                .rsplit(' ')
                .next()
                .is_some_and(|w| w.chars().count() >= 3)
        });
    let looks = !name.is_empty()
        && words <= MAX_NAME_WORDS
        && name.chars().count() <= MAX_NAME_CHARS
        && !sentence
        && !name.starts_with("http")
        && name.chars().any(char::is_alphabetic);
    looks.then(|| name.to_owned())
}

/// The text of the element `n`, one line for each of its text nodes: a
/// byline's parts are elements ("Written by" `<span>Jane Doe</span>`
/// `<span>3 March</span>`), and joined without a break they run together
/// ("Written ByJane Doe3 March").
///
/// `None` past [`MAX_BYLINE_CHARS`]: a class that says `author` may be on a
/// whole page (WordPress's `<body class="author-jane">`), whose text is
/// not read for a name.
fn text_parts(n: &NodeRef<'_>) -> Option<String> {
    let mut out = String::new();
    for d in n.descendants_it().filter(|d| d.is_text()) {
        let t = d.text();
        if !t.trim().is_empty() {
            out.push_str(t.trim());
            out.push('\n');
            if out.len() > MAX_BYLINE_CHARS {
                return None;
            }
        }
    }
    Some(out)
}

/// Words that label a byline or date it, not name anyone: "The Author",
/// "Sat", "August".
fn is_label(part: &str) -> bool {
    const LABELS: [&str; 4] = ["author", "the author", "authors", "about the author"];
    let lower = part.to_lowercase();
    LABELS.contains(&lower.as_str())
        || lower
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .all(crate::date::is_calendar_word)
}

/// `text` without a leading "By", "Written by", "Posted by", "Author:".
fn strip_by(text: &str) -> &str {
    const LEADS: [&str; 6] = [
        "written by",
        "posted by",
        "story by",
        "words by",
        "author:",
        "by",
    ];
    for lead in LEADS {
        let Some(rest) = text
            .get(..lead.len())
            .filter(|head| head.eq_ignore_ascii_case(lead))
            .map(|_| &text[lead.len()..])
        else {
            continue;
        };
        if lead.ends_with(':') || rest.is_empty() || rest.starts_with([' ', ':']) {
            return rest.trim_start_matches([':', ' ']);
        }
    }
    text
}

/// `name` up to what follows a name in a byline: a date or a time ("on 3
/// March", "Updated 2 hours ago"), a place ("in Paris"). A user name's
/// digits (`jsmith42`) stay.
fn before_the_rest(name: &str) -> &str {
    const AFTER: [&str; 6] = [" on ", " at ", " in ", " for ", " published", " updated"];
    let digit = name
        .char_indices()
        .find(|&(i, c)| c.is_ascii_digit() && (i == 0 || name[..i].ends_with([' ', ','])))
        .map(|(i, _)| i);
    let word = AFTER.iter().filter_map(|w| name.find(w)).min();
    match digit.into_iter().chain(word).min() {
        Some(at) => &name[..at],
        None => name,
    }
}

fn dedup_join(names: Vec<String>) -> String {
    let mut kept: Vec<String> = Vec::new();
    for n in names {
        if !kept.contains(&n) {
            kept.push(n);
        }
    }
    kept.join(", ")
}

fn has_word(value: &str, words: &[&str]) -> bool {
    value
        .split_ascii_whitespace()
        .any(|w| words.iter().any(|x| w.eq_ignore_ascii_case(x)))
}

fn is_byline_class(class: &str) -> bool {
    // Most classes say neither word: one scan and no copy for them.
    if !BYLINE_HINTS.in_raw_value(class) {
        return false;
    }
    let words = Words::from_attrs(class, "");
    BYLINE.in_class(&words) && !NOT_A_BYLINE.in_class(&words)
}

/// A comment's author is not the page's.
fn in_comment(n: &NodeRef<'_>) -> bool {
    n.ancestors_it(Some(12)).any(|a| {
        COMMENT.in_class(&Words::of_class(&a))
            || a.attr("itemprop").is_some_and(|p| p.contains("comment"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_bylines() {
        let name = |s: &str| clean_name(s);
        assert_eq!(name("By Jane Doe").as_deref(), Some("Jane Doe"));
        assert_eq!(name("  BY  Jane   Doe ").as_deref(), Some("Jane Doe"));
        assert_eq!(name("Written by: Jane Doe").as_deref(), Some("Jane Doe"));
        assert_eq!(name("Author: J. R. Smith").as_deref(), Some("J. R. Smith"));
        assert_eq!(
            name("By Jane Doe on March 3, 2024").as_deref(),
            Some("Jane Doe")
        );
        assert_eq!(name("Jane Doe | 4 min read").as_deref(), Some("Jane Doe"));
        assert_eq!(name("Byron Lee").as_deref(), Some("Byron Lee"));
        assert_eq!(
            name("Jane Doe and John Roe").as_deref(),
            Some("Jane Doe and John Roe")
        );
        // Not names: a sentence, a paragraph, a link, nothing.
        assert_eq!(name("Jane wrote this. She likes tides."), None);
        assert_eq!(
            name(
                "Jane Doe is a reporter who has covered harbours, ships and the sea for the paper since the storm"
            ),
            None
        );
        assert_eq!(name("https://example.com/jane"), None);
        assert_eq!(name("By"), None);
        assert_eq!(name(" | "), None);
        // A byline's parts, one a line (see `text_parts`).
        assert_eq!(
            name("Written By\nStephen Jones\nAI Writer").as_deref(),
            Some("Stephen Jones")
        );
        assert_eq!(
            name("Author\nIsaiah Shelton").as_deref(),
            Some("Isaiah Shelton")
        );
        assert_eq!(
            name("Sat\nLuke Kim\nDecember 3").as_deref(),
            Some("Luke Kim")
        );
        assert_eq!(name("Sun Dec"), None);
        assert_eq!(name("The Author"), None);
        assert_eq!(name("Mayfield").as_deref(), Some("Mayfield"));
        assert_eq!(name("Sat, Nov 02, 04:33 AM"), None);
        assert_eq!(name("jsmith42").as_deref(), Some("jsmith42"));
    }

    #[test]
    fn byline_classes() {
        for yes in [
            "byline",
            "c-byline__author",
            "author-name",
            "post-author",
            "by-author",
            "author vcard",
            "authorName",
        ] {
            assert!(is_byline_class(yes), "{yes}");
        }
        for no in [
            "author-bio",
            "author-box",
            "comment-author",
            "authority",
            "content",
            "about-author",
        ] {
            assert!(!is_byline_class(no), "{no}");
        }
    }
}
