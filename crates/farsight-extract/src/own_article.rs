//! The page's own article, when the page holds several: infinite-scroll
//! blogs and news sites append the next (or previous) post as another
//! `<article>` to the same page, and the engines chose whichever was longest.
//!
//! Run before the engines. When the body holds two or more article blocks
//! (`<article>`, or microdata `itemtype` of an `Article` or `BlogPosting`)
//! of substantial text, the one that is this page's is found by its
//! permalink (`data-url`, `data-permalink`, `itemid`, the link in its
//! heading, microdata `url`/`mainEntityOfPage`) matching the page's URL or
//! canonical link, or else by its heading matching the page's title; the
//! other posts are removed. With no single match (a blog's front page of
//! whole posts, a listing of cards) nothing changes.

use dom_query::{Document, NodeRef};

use crate::metadata::PageFacts;
use crate::url_util::Resolver;

/// Characters of text that make an article block a post rather than a card
/// of a listing (a title, a date, a sentence of teaser).
const MIN_POST_CHARS: usize = 500;

/// A heading this short matches a title only whole: "Part 1" is in many
/// titles.
const MIN_PARTIAL_HEADING: usize = 16;

/// Removes the article blocks of other posts when one block is this
/// page's (see the module's documentation): the page at `page_url` says
/// its canonical URL and title in `facts`. Returns how many were removed.
pub(crate) fn keep_own(
    doc: &Document,
    facts: &PageFacts,
    page_url: Option<&str>,
    resolver: &Resolver,
) -> usize {
    let Some(body) = doc.body() else {
        return 0;
    };
    let blocks = outermost_articles(&body);
    // Most pages hold one article or none: nothing to measure.
    if blocks.len() < 2 {
        return 0;
    }
    let posts: Vec<NodeRef<'_>> = blocks
        .into_iter()
        .filter(|a| a.normalized_char_count() >= MIN_POST_CHARS)
        .collect();
    if posts.len() < 2 {
        return 0;
    }
    let page_keys: Vec<String> = [page_url, facts.metadata.canonical_url.as_deref()]
        .into_iter()
        .flatten()
        .filter_map(|u| resolver.link(u))
        .filter_map(|u| url_key(&u))
        .collect();
    let by_url: Vec<bool> = posts
        .iter()
        .map(|p| {
            permalinks(p)
                .iter()
                .filter_map(|href| resolver.link(href))
                .filter_map(|u| url_key(&u))
                .any(|k| page_keys.contains(&k))
        })
        .collect();
    let title = facts.title.as_deref().map(words_key).unwrap_or_default();
    let by_title: Vec<bool> = posts
        .iter()
        .map(|p| heading_of(p).is_some_and(|h| heading_matches(&words_key(&h), &title)))
        .collect();
    let only = |hits: &[bool]| {
        let mut found = hits.iter().enumerate().filter(|(_, hit)| **hit);
        match (found.next(), found.next()) {
            (Some((i, _)), None) => Some(i),
            _ => None,
        }
    };
    let Some(keep) = only(&by_url).or_else(|| only(&by_title)) else {
        return 0;
    };
    // Only blocks that are posts themselves go: each has a heading of its
    // own (a section of one long document need not).
    let doomed: Vec<NodeRef<'_>> = posts
        .iter()
        .enumerate()
        .filter(|(i, p)| *i != keep && heading_of(p).is_some())
        .map(|(_, p)| *p)
        .collect();
    for p in &doomed {
        p.remove_from_parent();
    }
    doomed.len()
}

/// The article blocks below `body` that are not inside another one.
fn outermost_articles<'a>(body: &NodeRef<'a>) -> Vec<NodeRef<'a>> {
    let mut found: Vec<NodeRef<'a>> = Vec::new();
    // Explicit stack: a block's inside is not searched for more blocks.
    let mut stack: Vec<NodeRef<'a>> = body.children_it(true).filter(|c| c.is_element()).collect();
    while let Some(n) = stack.pop() {
        if is_article_block(&n) {
            found.push(n);
            continue;
        }
        stack.extend(n.children_it(true).filter(|c| c.is_element()));
    }
    found
}

fn is_article_block(n: &NodeRef<'_>) -> bool {
    n.node_name().as_deref() == Some("article")
        || n.attr("itemtype")
            .is_some_and(|t| t.contains("Article") || t.contains("BlogPosting"))
}

/// The first `h1` or `h2` of a post, or its microdata `headline`.
fn heading_of(post: &NodeRef<'_>) -> Option<String> {
    post.descendants_it()
        .find(|d| {
            matches!(d.node_name().as_deref(), Some("h1" | "h2"))
                || d.attr("itemprop").is_some_and(|p| &*p == "headline")
        })
        .map(|h| h.text().to_string())
        .filter(|t| !t.trim().is_empty())
}

/// The URLs a post gives as its own.
fn permalinks(post: &NodeRef<'_>) -> Vec<String> {
    let mut urls: Vec<String> = ["data-url", "data-permalink", "itemid"]
        .iter()
        .filter_map(|a| post.attr(a).map(|v| v.to_string()))
        .collect();
    let mut heading_seen = false;
    for d in post.descendants_it() {
        let Some(name) = d.node_name() else {
            continue;
        };
        if let Some(prop) = d.attr("itemprop")
            && prop
                .split_ascii_whitespace()
                .any(|p| p == "url" || p == "mainEntityOfPage")
            && let Some(u) = d.attr("href").or_else(|| d.attr("content"))
        {
            urls.push(u.to_string());
        }
        // The link in the post's heading: its title links to its page.
        if !heading_seen && matches!(&*name, "h1" | "h2") {
            heading_seen = true;
            urls.extend(
                d.descendants_it()
                    .filter(|a| a.node_name().as_deref() == Some("a"))
                    .filter_map(|a| a.attr("href").map(|h| h.to_string())),
            );
        }
    }
    urls
}

/// A URL without what does not change the page: scheme, `www.`, query,
/// fragment, a trailing slash, letter case of the host.
fn url_key(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    let host = u.host_str()?.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_owned();
    Some(format!("{host}{}", u.path().trim_end_matches('/')))
}

/// Lower-cased letters and digits only.
fn words_key(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A heading is the title, or the title with more around it ("Heading |
/// Site" when the site's name was not known).
fn heading_matches(heading: &str, title: &str) -> bool {
    !heading.is_empty()
        && (heading == title || (heading.len() >= MIN_PARTIAL_HEADING && title.contains(heading)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_keys_ignore_what_does_not_change_the_page() {
        assert_eq!(
            url_key("https://www.Example.com/2024/tides/?utm=x#top"),
            url_key("http://example.com/2024/tides")
        );
        assert_ne!(
            url_key("https://example.com/2024/tides"),
            url_key("https://example.com/2024/ships")
        );
    }

    #[test]
    fn headings_match_whole_or_inside_a_longer_title() {
        let m = |h: &str, t: &str| heading_matches(&words_key(h), &words_key(t));
        assert!(m("Tides", "Tides"));
        assert!(m(
            "Tides of the estuary",
            "Tides of the estuary | Coast Journal"
        ));
        assert!(!m("Part 1", "Part 10 of the series"));
        assert!(!m("", "Tides"));
    }
}
