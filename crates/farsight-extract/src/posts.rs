//! A thread's posts by their schema.org microdata: each post is an item
//! (`itemscope`) of a posting type whose text is marked
//! `itemprop="text"`. XenForo (`Comment`, `DiscussionForumPosting`), Stack
//! Exchange (`Question`, `Answer`), Invision Community and many themes of
//! other engines write it, as Google's guidance for forum and Q&A pages
//! asks. Those texts are the thread; what sits around them in each post
//! (the author's card, join date and post count, vote counts, reaction
//! bars, signatures, "Click to expand…", share links) is not: people
//! marking threads keep the posts' text.
//!
//! Some engines mark only some posts: XenForo gives its thread starter no
//! microdata and its replies `Comment` items. Their class for a post's
//! text ([`POST_TEXT`]: XenForo's `message-body`, Discourse's `cooked`)
//! names the rest; vBulletin 3 and 4, which write no microdata, number
//! each post's text with an id ([`VBULLETIN_TEXT_ID`]); Invision
//! Community, which writes none either, names it by its role
//! ([`INVISION_TEXT_ROLE`]).
//!
//! Who wrote each post and when, which people marking threads keep, go
//! before its text (see [`attribution`]).
//!
//! On a Q&A page (a `Question` item with `Answer` items) the `Comment`
//! items are remarks under a question or an answer, which people marking
//! such pages leave out, as they leave out the votes; on any other thread
//! a `Comment` is a reply, a post like the others.

use dom_query::{Document, NodeId, NodeRef};

use crate::render::is_block;
use crate::words::Words;
use crate::words::tables::{POST, POST_AUTHOR, POST_TEXT};

/// The schema.org types of an item that is a post of a thread.
const POSTING_TYPES: [&str; 5] = [
    "DiscussionForumPosting",
    "SocialMediaPosting",
    "Comment",
    "Question",
    "Answer",
];

/// Types of a Q&A page's own posts: with one of them on the page, its
/// `Comment` items are remarks, not posts.
const QA_TYPES: [&str; 2] = ["Question", "Answer"];

/// Post texts needed for the page to be read by its microdata: one would
/// be a page that marks a single comment box, not its thread.
const MIN_POSTS: usize = 2;

/// Invision Community (4 and 5) names each post's text by its role
/// (`<div data-role="commentContent" class="ipsRichText">`); the author's
/// signature (`data-role="memberSignature"`), the topic's overview of
/// followers, views and top posters lie outside it.
const INVISION_TEXT_ROLE: &str = "commentContent";

/// The id prefix of a post's text in vBulletin 3 and 4
/// (`<div id="post_message_2017066">`), followed by the post's number.
const VBULLETIN_TEXT_ID: &str = "post_message_";

/// What a post's text found by its class only is, for the Q&A rule: a
/// post like any other.
const BY_CLASS: &str = "Posting";

/// The texts of the posts of `doc`, outermost only and in page order, when
/// it marks at least [`MIN_POSTS`] with microdata or engine classes.
pub(crate) fn texts(doc: &Document) -> Option<Vec<NodeId>> {
    let mut found: Vec<(NodeRef<'_>, &'static str)> = Vec::new();
    for n in doc.root().descendants_it() {
        if !n.is_element() {
            continue;
        }
        let by_microdata = n.attr("itemprop").is_some_and(|p| has_word(&p, "text"));
        if !by_microdata
            && !POST_TEXT.in_class(&Words::of_class(&n))
            && !is_vbulletin_text(&n)
            && !is_invision_text(&n)
        {
            continue;
        }
        // A text inside a post text already found (a quote of an earlier
        // post) is read with it.
        if found
            .last()
            .is_some_and(|(last, _)| n.ancestors_it(None).any(|a| a.id == last.id))
        {
            continue;
        }
        // A post's microdata text inside its engine-named text (XenForo's
        // `message-body` around `itemprop="text"`) is the same post.
        let kind = if by_microdata {
            item_type(&n)
        } else {
            Some(BY_CLASS)
        };
        if let Some(kind) = kind {
            found.push((n, kind));
        }
    }
    let qa = found.iter().any(|(_, k)| QA_TYPES.contains(k));
    let posts: Vec<NodeRef<'_>> = found
        .into_iter()
        .filter(|(_, k)| !(qa && *k == "Comment"))
        .map(|(n, _)| n)
        .collect();
    if posts.len() < MIN_POSTS {
        return None;
    }
    // Each post's author and date, then its text, in page order.
    Some(
        posts
            .iter()
            .flat_map(|p| attribution(p).into_iter().chain(std::iter::once(*p)))
            .map(|n| n.id)
            .collect(),
    )
}

/// The posting type of the item whose text `n` is: the nearest element
/// with `itemscope`, `n` itself included (`<div itemprop="text"
/// itemscope>` is not the post's text but an item of its own).
fn item_type(n: &NodeRef<'_>) -> Option<&'static str> {
    let item = n
        .ancestors_it(None)
        .find(|a| a.is_element() && a.has_attr("itemscope"))?;
    let types = item.attr("itemtype")?;
    // `https://schema.org/Answer`; several types are separated by spaces.
    types.split_ascii_whitespace().find_map(|t| {
        let name = t.rsplit('/').next().unwrap_or(t);
        POSTING_TYPES.iter().copied().find(|p| *p == name)
    })
}

/// How far above a post's text its post may start: XenForo's
/// `article.message` is five levels above `div.bbWrapper`.
const POST_DEPTH: usize = 8;

/// The longest text of a post's author name or date line.
const ATTRIBUTION_MAX: usize = 60;

/// The author's name and the date of the post whose text is `text`: who
/// wrote and when, which people marking threads keep above each post
/// (the author card's rank, join date and post count they leave out).
/// The post is the nearest schema.org item or element whose class names
/// a post ([`POST`]) at most [`POST_DEPTH`] levels up, else the nearest
/// `<article>`; its
/// name is the first element outside the text whose class names an
/// author ([`POST_AUTHOR`]: XenForo's `username`, phpBB's `username`) or
/// that is marked `itemprop="author"`, holding no block (a whole author
/// column is not a name), its date the first `<time>` outside the text;
/// each at most [`ATTRIBUTION_MAX`] characters.
fn attribution<'a>(text: &NodeRef<'a>) -> Vec<NodeRef<'a>> {
    // A post's item or class first: XenForo 1 wraps the text alone in an
    // `<article>` inside its `li.message`.
    let named = |a: &NodeRef<'_>| {
        a.is_element() && (a.has_attr("itemscope") || POST.in_class(&Words::of_class(a)))
    };
    let article = |a: &NodeRef<'_>| crate::tag::of(a).as_deref() == Some("article");
    let Some(post) = text
        .ancestors_it(Some(POST_DEPTH))
        .find(named)
        .or_else(|| text.ancestors_it(Some(POST_DEPTH)).find(article))
    else {
        return Vec::new();
    };
    let short = |e: &NodeRef<'_>| {
        let t = e.text();
        let t = t.trim();
        !t.is_empty() && t.chars().count() <= ATTRIBUTION_MAX
    };
    let is_name = |d: &NodeRef<'_>| {
        (POST_AUTHOR.in_class(&Words::of_class(d))
            || d.attr("itemprop").is_some_and(|p| has_word(&p, "author")))
            && short(d)
            && !holds_blocks(d)
    };
    let mut name: Option<NodeRef<'a>> = None;
    let mut date: Option<NodeRef<'a>> = None;
    for d in post.descendants_it().take(SCAN_MAX) {
        if d.id == text.id {
            break;
        }
        if !d.is_element() {
            continue;
        }
        if name.is_none() && is_name(&d) {
            name = Some(d);
        } else if date.is_none()
            && crate::tag::of(&d).as_deref() == Some("time")
            && short(&d)
            && !name.is_some_and(|n| d.ancestors_it(Some(POST_DEPTH)).any(|a| a.id == n.id))
        {
            date = Some(d);
        }
        if name.is_some() && date.is_some() {
            break;
        }
    }
    if name.is_none() && !article(&post) {
        name = beside(&post, &named, &is_name);
    }
    name.into_iter().chain(date).collect()
}

/// The most elements of a post read before its text for its author and
/// date, and of a post's `<article>` before the post for its author's
/// name: an author card is a few dozen elements, and a wrapper holding a
/// whole thread (every post's text within its reach) is not read from its
/// start again for each post.
const SCAN_MAX: usize = 400;

/// The author's name beside `post` in the `<article>` around it, when
/// the element whose class names the post holds only its text and date:
/// Invision Community 5's `ipsEntry__post` beside its
/// `ipsEntry__author-column` (`h3.ipsEntry__username`), both in
/// `article.ipsEntry`. The name must come before the post with no other
/// post (`named`) between: an `<article>` around a whole thread names
/// none.
fn beside<'a>(
    post: &NodeRef<'a>,
    named: &dyn Fn(&NodeRef<'_>) -> bool,
    is_name: &dyn Fn(&NodeRef<'_>) -> bool,
) -> Option<NodeRef<'a>> {
    let around: Vec<NodeRef<'a>> = post.ancestors_it(Some(POST_DEPTH)).collect();
    let outer = around
        .iter()
        .find(|a| crate::tag::of(a).as_deref() == Some("article"))?;
    let mut name = None;
    for d in outer.descendants_it().take(SCAN_MAX) {
        if d.id == post.id {
            return name;
        }
        if !d.is_element() || around.iter().any(|a| a.id == d.id) {
            continue;
        }
        if named(&d) {
            return None;
        }
        if name.is_none() && is_name(&d) {
            name = Some(d);
        }
    }
    None
}

/// Whether `n` holds a block: an author column (Invision's
/// `ipsEntry__author-column`, the name, group and post count as
/// paragraphs), not the name.
fn holds_blocks(n: &NodeRef<'_>) -> bool {
    n.descendants_it()
        .any(|d| crate::tag::of(&d).is_some_and(|t| is_block(&t)))
}

/// `id="post_message_"` and the post's number.
fn is_vbulletin_text(n: &NodeRef<'_>) -> bool {
    n.attr("id").is_some_and(|id| {
        id.strip_prefix(VBULLETIN_TEXT_ID)
            .is_some_and(|num| !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// `data-role="commentContent"`.
fn is_invision_text(n: &NodeRef<'_>) -> bool {
    n.attr("data-role")
        .is_some_and(|r| &*r == INVISION_TEXT_ROLE)
}

fn has_word(list: &str, word: &str) -> bool {
    list.split_ascii_whitespace().any(|w| w == word)
}
