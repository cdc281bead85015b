//! Telling a forum thread by its markup, for forum software that says
//! nothing about itself in JSON-LD and sits at addresses of no known shape.

use dom_query::{Document, NodeRef};

/// Posts that name their author, for a page to be a thread.
const MIN_POSTS: usize = 3;

/// Class words of a post of a thread.
const POST_WORDS: [&str; 6] = [
    "post",
    "message",
    "reply",
    "comment",
    "answer",
    "topic-post",
];

/// Class fragments of a post's author.
const AUTHOR_FRAGMENTS: [&str; 4] = ["author", "username", "user-name", "poster"];

/// Whether `doc` holds at least three posts (elements whose class names a
/// post) that each name their author, with no post inside another.
pub(crate) fn looks_like_thread(doc: &Document) -> bool {
    let mut posts = 0;
    let mut last: Option<NodeRef<'_>> = None;
    for n in doc.root().descendants_it() {
        if !n.is_element() || !has_word(&n, &POST_WORDS) {
            continue;
        }
        // The outermost post only: a post's body often names the post too.
        if last.is_some_and(|l| n.ancestors_it(None).any(|a| a.id == l.id)) {
            continue;
        }
        last = Some(n);
        if n.descendants_it()
            .any(|d| d.is_element() && has_fragment(&d, &AUTHOR_FRAGMENTS))
        {
            posts += 1;
            if posts >= MIN_POSTS {
                return true;
            }
        }
    }
    false
}

fn has_word(n: &NodeRef<'_>, words: &[&str]) -> bool {
    n.attr("class").is_some_and(|c| {
        c.to_ascii_lowercase()
            .split(|ch: char| !ch.is_ascii_alphanumeric() && ch != '-')
            .any(|w| words.contains(&w))
    })
}

fn has_fragment(n: &NodeRef<'_>, fragments: &[&str]) -> bool {
    n.attr("class").is_some_and(|c| {
        let c = c.to_ascii_lowercase();
        fragments.iter().any(|f| c.contains(f))
    })
}
