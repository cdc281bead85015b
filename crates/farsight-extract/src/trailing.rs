//! Related-post teasers after the article: a run of alike blocks (same tag,
//! same first class) at the end of the content, short excerpts, at least
//! half of them cut off with an ellipsis or headed by a link to another
//! page (story cards). Readability-style engines take
//! them in when they share the article's container.
//!
//! Only removed when text that is not part of the run comes before it: a
//! listing, whose cards are the content, has nothing else; and not when
//! the run holds over ten times that text: a guide's entries under its
//! short lead.

use dom_query::{Document, NodeData, NodeId, NodeRef};

use crate::char_count::non_space;

/// Fewer cut-off teasers than this are not a run.
const MIN_RUN: usize = 2;
/// A teaser is an excerpt: longer blocks are content.
const MAX_TEASER: usize = 1500;
/// Characters of the article before the run for it to count as appended.
const MIN_BEFORE: usize = 400;
/// A run holding more than this many times the text before it is the
/// content, not teasers appended to it.
const RUN_OUTWEIGHS: usize = 10;
/// Short trailing blocks (ads, empty wrappers) do not end the run.
const TINY: usize = 20;

/// Removes a trailing run of teasers from each of `roots`. The roots are
/// one content: the text of earlier roots counts as coming before a run in
/// a later one (a "You may also like" block that Readability kept beside
/// the article). Returns the characters of the roots' text when it removed
/// nothing: what [`strip_headings`] counts next on the same page.
pub(crate) fn strip(doc: &Document, roots: &[NodeId]) -> Option<usize> {
    let (gone, chars) = teasers_read(doc, roots, None);
    if gone.is_empty() {
        return Some(chars);
    }
    for id in gone {
        if let Some(n) = doc.tree.get(&id) {
            n.remove_from_parent();
        }
    }
    None
}

/// The teasers [`strip`] removes, without changing the page. `counted`,
/// when given, is the characters of the one root's text (its
/// `density::Stats::text` read on this very page): not counted again.
pub(crate) fn teasers(doc: &Document, roots: &[NodeId], counted: Option<usize>) -> Vec<NodeId> {
    teasers_read(doc, roots, counted).0
}

/// [`teasers`], and the characters of the roots' text outside them.
fn teasers_read(doc: &Document, roots: &[NodeId], counted: Option<usize>) -> (Vec<NodeId>, usize) {
    // A count given is of a single root.
    let counted = counted.filter(|_| roots.len() == 1);
    let mut out = Vec::new();
    let mut before = 0;
    for root in roots.iter().filter_map(|r| doc.tree.get(r)) {
        // Counted once: the run's look and the roots after it read it.
        let its = counted.unwrap_or_else(|| chars(&root));
        let run = find_run(&root, before + its).unwrap_or_default();
        let in_run: usize = run.iter().map(chars).sum();
        out.extend(run.iter().map(|n| n.id));
        before += its.saturating_sub(in_run);
    }
    (out, before)
}

/// Removes headings that end the content with nothing under them ("You may
/// also like" whose cards were pruned, "Comments" without comments): a
/// heading heads something. Not a heading that is all the content holds:
/// then it is the content (a link post's title on a forum or news
/// aggregator, whose body is the link), and removing it leaves nothing.
///
/// With `cards` (a page that lists things), a linked heading that titles
/// one card of a row stays too: see [`titles_a_card`]. `counted`, when
/// given, is the characters of the roots' text on the page as it is (see
/// [`strip`]).
pub(crate) fn strip_headings(
    doc: &Document,
    roots: &[NodeId],
    cards: bool,
    counted: Option<usize>,
) {
    let roots: Vec<NodeRef<'_>> = roots.iter().filter_map(|r| doc.tree.get(r)).collect();
    // The text left in all the roots, kept up to date as headings go: one
    // count of the roots, then one of each heading removed.
    let mut left: usize = counted.unwrap_or_else(|| roots.iter().map(chars).sum());
    for root in &roots {
        // Each pass removes one heading; a few at most end a page.
        for _ in 0..4 {
            let last_text = last_text(root);
            let heading = last_text.and_then(|t| {
                t.ancestors_it(None)
                    .take_while(|a| a.id != root.id)
                    .find(|a| {
                        matches!(
                            a.node_name().as_deref(),
                            Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6")
                        )
                    })
            });
            let Some(h) = heading else { break };
            if cards && titles_a_card(&h, root) {
                break;
            }
            let its = chars(&h);
            if its >= left {
                return;
            }
            left -= its;
            h.remove_from_parent();
        }
    }
}

/// Levels above a heading searched for the card it titles.
const CARD_DEPTH: usize = 3;

/// A heading that titles one card of a row: a blog archive whose posts
/// show their titles only (WordPress's `article.post` holding just its
/// `h2.entry-title`) ends with a heading that heads a post, not nothing.
/// The heading links to another page (the post it titles), or sits in the
/// link that is the whole card (a stretched card: `<a>` around image and
/// heading), and its card
/// is an ancestor a few levels up whose three previous siblings have the
/// same tag and first class and hold a heading too. A FAQ's questions whose
/// answers went are not links; they still go.
fn titles_a_card(h: &NodeRef<'_>, root: &NodeRef<'_>) -> bool {
    let in_link = || {
        h.ancestors_it(Some(CARD_DEPTH))
            .take_while(|a| a.id != root.id)
            .any(|a| a.node_name().as_deref() == Some("a") && links_away(&a))
    };
    if !heading_links_away(h) && !in_link() {
        return false;
    }
    h.ancestors_it(Some(CARD_DEPTH))
        .take_while(|a| a.id != root.id)
        .any(|card| {
            // A row: the cards before it are alike and titled too (not a
            // post's "next" and "previous" pair, a staff box's two names).
            let mut prev = prev_element(&card);
            for _ in 0..MIN_ROW_BEFORE {
                let Some(p) = prev.filter(|p| alike(p, &card) && has_heading(p)) else {
                    return false;
                };
                prev = prev_element(&p);
            }
            true
        })
}

/// Cards before the last one for a row of title cards.
const MIN_ROW_BEFORE: usize = 3;

fn has_heading(n: &NodeRef<'_>) -> bool {
    n.descendants_it().any(|d| {
        matches!(
            d.node_name().as_deref(),
            Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6")
        )
    })
}

/// The element before `n` among its siblings.
fn prev_element<'a>(n: &NodeRef<'a>) -> Option<NodeRef<'a>> {
    let mut p = n.prev_sibling();
    while let Some(s) = p {
        if s.is_element() {
            return Some(s);
        }
        p = s.prev_sibling();
    }
    None
}

/// The last text node below `root` with something in it, found walking
/// backwards from the end (the whole tree is not visited).
fn last_text<'a>(root: &NodeRef<'a>) -> Option<NodeRef<'a>> {
    let mut stack: Vec<NodeRef<'a>> = root.children_it(false).collect();
    while let Some(n) = stack.pop() {
        if n.is_text() {
            if !n.text().trim().is_empty() {
                return Some(n);
            }
        } else if n.is_element() {
            stack.extend(n.children_it(false));
        }
    }
    None
}

/// The trailing run of teasers below `root`; `total` is the text of the
/// content up to the end of `root`.
fn find_run<'a>(root: &NodeRef<'a>, total: usize) -> Option<Vec<NodeRef<'a>>> {
    // The run sits at the end of the content: descend through the last
    // substantial element child until a run of alike blocks ends a parent.
    let mut parent = *root;
    loop {
        let kids: Vec<NodeRef<'a>> = parent
            .children_it(false)
            .filter(|c| c.is_element())
            .collect();
        // Counts stop at the bound each test needs: a full count of every
        // level's subtree costs depth × size on deeply nested pages.
        let mut end = kids.len();
        while end > 0 && chars_below(&kids[end - 1], TINY) < TINY {
            end -= 1;
        }
        let last = *kids.get(end.checked_sub(1)?)?;
        let mut start = end - 1;
        while start > 0 && alike(&kids[start - 1], &last) {
            start -= 1;
        }
        let run = &kids[start..end];
        if run.len() >= MIN_RUN && is_block(&last) {
            let excerpts = run
                .iter()
                .all(|n| chars_below(n, MAX_TEASER + 1) <= MAX_TEASER);
            // Teasers are excerpts, at least half of them cut off; some
            // are whole quotes or one-line posts.
            if excerpts {
                let cut = run
                    .iter()
                    .filter(|n| ends_cut(n) || linked_heading(n))
                    .count();
                if cut >= MIN_RUN && cut * 2 >= run.len() {
                    let in_run: usize = run.iter().map(chars).sum();
                    let before = total.saturating_sub(in_run);
                    // Appended teasers follow an article; a run holding
                    // many times its text is the article (a guide's list of
                    // entries, each titled by a link to the place).
                    return (before >= MIN_BEFORE && in_run <= before * RUN_OUTWEIGHS)
                        .then(|| run.to_vec());
                }
            }
        }
        parent = last;
    }
}

fn is_block(n: &NodeRef<'_>) -> bool {
    matches!(
        n.node_name().as_deref(),
        Some("article" | "div" | "li" | "section")
    )
}

fn alike(a: &NodeRef<'_>, b: &NodeRef<'_>) -> bool {
    let first_class = |n: &NodeRef<'_>| {
        n.attr("class")
            .and_then(|c| c.split_ascii_whitespace().next().map(str::to_owned))
    };
    a.node_name() == b.node_name() && first_class(a) == first_class(b)
}

/// Text that ends in an ellipsis, or in one followed by a few words
/// ("… Read more", "[…]").
fn ends_cut(n: &NodeRef<'_>) -> bool {
    let text = n.text();
    let text = text.trim_end();
    let cut = text.rfind('…').or_else(|| text.rfind("...").map(|i| i + 2));
    cut.is_some_and(|i| text[i..].chars().count() <= 25)
}

/// A story card: its heading is a link to another page.
fn linked_heading(n: &NodeRef<'_>) -> bool {
    n.descendants_it()
        .find(|d| matches!(d.node_name().as_deref(), Some("h2" | "h3" | "h4")))
        .is_some_and(|h| heading_links_away(&h))
}

/// A heading that is one link to another page (not a permalink anchor),
/// or nearly all of one.
fn heading_links_away(h: &NodeRef<'_>) -> bool {
    let links: Vec<_> = h
        .descendants_it()
        .filter(|d| d.node_name().as_deref() == Some("a"))
        .collect();
    links.len() == 1 && links_away(&links[0]) && chars(&links[0]) * 10 >= chars(h) * 9
}

/// A link to another page, not an anchor on this one.
fn links_away(a: &NodeRef<'_>) -> bool {
    a.attr("href")
        .is_some_and(|r| !r.trim_start().starts_with('#'))
}

/// Non-space characters of text below `n`: counted in each text node
/// (a sum over the pieces of the text), without copying the text out; a
/// root's whole text was copied for each look, a visible share of the
/// clean stage.
fn chars(n: &NodeRef<'_>) -> usize {
    std::iter::once(*n)
        .chain(n.descendants_it())
        .map(|d| {
            d.query_or(0, |node| match &node.data {
                NodeData::Text { contents } => non_space(contents),
                _ => 0,
            })
        })
        .sum()
}

/// [`chars`] up to `limit`: the count stops once it reaches the limit, so
/// a test against a bound costs at most the bound's worth of text nodes'
/// reading, not the whole subtree's.
fn chars_below(n: &NodeRef<'_>, limit: usize) -> usize {
    let mut seen = 0;
    for d in std::iter::once(*n).chain(n.descendants_it()) {
        seen += d.query_or(0, |node| match &node.data {
            NodeData::Text { contents } => non_space(contents),
            _ => 0,
        });
        if seen >= limit {
            break;
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(html: &str) -> String {
        let doc = Document::from(html);
        let Some(root) = doc.select("#root").nodes().first().map(|n| n.id) else {
            return String::new();
        };
        strip(&doc, &[root]);
        doc.select("#root").text().to_string()
    }

    #[test]
    fn chars_are_the_non_space_characters_of_the_text() {
        let doc = Document::from(
            "<div id=root> a\u{0b}b\u{0c}<p>c d\u{a0}é\u{2003}f<b> g </b></p>\t\r\n<!-- x y --></div>",
        );
        let root = doc.select("#root");
        let n = root.nodes().first().copied();
        let n = n.expect("the page has a root");
        let by_text = n.text().chars().filter(|c| !c.is_whitespace()).count();
        assert_eq!(chars(&n), by_text);
        assert_eq!(by_text, 7);
        let text = n.first_child().expect("a text node");
        assert_eq!(chars(&text), 2);
    }

    const ARTICLE: &str = "<p>The whole article, long enough to be the reason for the page. \
        It goes on for a while, with several sentences of its own, and it ends \
        properly. It says what it has to say about the subject at hand, gives \
        the figures, quotes two people and closes with a last word on what \
        happens next, with two of it, over four hundred characters in all.</p>";

    fn teaser(text: &str) -> String {
        format!("<article class=\"box post-1\"><a href=\"/x\">Title</a><p>{text}</p></article>")
    }

    #[test]
    fn a_trailing_run_of_cut_off_teasers_goes() {
        let html = format!(
            "<div id=root>{ARTICLE}{ARTICLE}<section>{}{}{}</section><ins></ins></div>",
            teaser("First related post begins and then is cut …"),
            teaser("A whole short quote."),
            teaser("Third related post begins and then is cut..."),
        );
        let text = run(&html);
        assert!(text.contains("The whole article"), "{text}");
        assert!(!text.contains("related post"), "{text}");
        assert!(!text.contains("short quote"), "{text}");
    }

    #[test]
    fn a_trailing_row_of_story_cards_goes() {
        let card = |title: &str| {
            format!(
                "<div class=col><article><h2><a href=/story>{title}</a></h2>\
                 <p>A whole summary of the story.</p></article></div>"
            )
        };
        let html = format!(
            "<div id=root>{ARTICLE}{ARTICLE}<div class=row>{}{}{}</div></div>",
            card("First story"),
            card("Second story"),
            card("Third story"),
        );
        let text = run(&html);
        assert!(text.contains("The whole article"), "{text}");
        assert!(!text.contains("story"), "{text}");
        // Permalink anchors in section headings are not story cards.
        let html = html.replace("href=/story", "href=#story");
        assert!(run(&html).contains("Second story"));
    }

    #[test]
    fn a_listing_of_teasers_alone_stays() {
        let html = format!(
            "<div id=root>{}{}</div>",
            teaser("First post begins and then is cut …"),
            teaser("Second post begins and then is cut …"),
        );
        assert!(run(&html).contains("Second post"));
    }

    #[test]
    fn blocks_that_are_not_cut_off_stay() {
        let html = format!(
            "<div id=root>{ARTICLE}{ARTICLE}{}{}{}</div>",
            teaser("One whole block."),
            teaser("Another whole block."),
            teaser("Only this one is cut …"),
        );
        assert!(run(&html).contains("Another whole block"));
    }

    #[test]
    fn headings_with_nothing_under_them_end_nothing() {
        let html = "<div id=root><h2>Details</h2><p>Stoneware, 15 cm.</p>\
                    <section><h2>You may also like</h2><div></div></section><h3>More</h3></div>";
        let doc = Document::from(html);
        let root = doc.select("#root").nodes().first().map(|n| n.id);
        strip_headings(&doc, &root.into_iter().collect::<Vec<_>>(), true, None);
        let text = doc.select("#root").text().to_string();
        assert!(
            text.contains("Details") && text.contains("Stoneware"),
            "{text}"
        );
        assert!(
            !text.contains("You may also like") && !text.contains("More"),
            "{text}"
        );
    }
}
