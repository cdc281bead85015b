//! Telling a forum thread by its markup, for forum software that says
//! nothing about itself in JSON-LD and sits at addresses of no known shape.

use dom_query::{Document, NodeRef};

use crate::words::Words;
use crate::words::tables::{POST, POST_AUTHOR};

/// Posts that name their author, for a page to be a thread.
const MIN_POSTS: usize = 3;

/// Whether `doc` holds at least three posts (elements whose class names a
/// post) that each name their author, with no post inside another.
pub(crate) fn looks_like_thread(doc: &Document) -> bool {
    let mut posts = 0;
    let mut last: Option<NodeRef<'_>> = None;
    for n in doc.root().descendants_it() {
        if !n.is_element() || !POST.in_class(&Words::of_class(&n)) {
            continue;
        }
        // The outermost post only: a post's body often names the post too.
        if last.is_some_and(|l| n.ancestors_it(None).any(|a| a.id == l.id)) {
            continue;
        }
        last = Some(n);
        if n.descendants_it()
            .any(|d| d.is_element() && POST_AUTHOR.in_class(&Words::of_class(&d)))
        {
            posts += 1;
            if posts >= MIN_POSTS {
                return true;
            }
        }
    }
    false
}
