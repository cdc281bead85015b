//! Paywall detection.

use dom_query::{NodeData, NodeRef, TreeNode};

use crate::words::tables::PAYWALL;

/// Sentences that ask the reader to pay to go on. One that holds another
/// is left out ("subscribe to continue reading" holds "to continue
/// reading"): wherever it is found, so is the shorter one.
const PROMPTS: [&str; 10] = [
    "subscribe to read",
    "to continue reading",
    "already a subscriber",
    "subscribers only",
    "this article is for subscribers",
    "this content is for subscribers",
    "become a member to read",
    "sign in to read the full",
    "unlock this article",
    "continue reading with a subscription",
];

/// A teaser shorter than this, followed by a prompt, is a paywalled article.
const TEASER_CHARS: usize = 1500;

/// What the page shows of a paywall, read before the content is chosen
/// (the cleaning passes change the page).
pub(crate) struct Signals {
    /// A paywall vendor's or publisher's marker in the raw page.
    pub marker: bool,
    /// The visible text, searched for a prompt to subscribe only when the
    /// answer can change [`Signals::paywalled`]'s (on most pages it
    /// cannot: a long content without a marker). Empty when JSON-LD
    /// already says the page is not free.
    pub visible_text: String,
}

/// Whether an element of the raw page (overlays often start hidden) is a
/// paywall marker. Called on every element by `metadata::read`'s walk.
pub(crate) fn is_marker(node: &TreeNode) -> bool {
    let NodeData::Element(el) = &node.data else {
        return false;
    };
    // One look at the attributes, borrowed, not cloned.
    el.attrs.iter().any(|a| match &*a.name.local {
        "class" | "id" => PAYWALL.in_raw_value(&a.value),
        "data-paywall" => true,
        "data-testid" => a.value.contains("paywall"),
        _ => false,
    })
}

/// The text of `body` (what `NodeRef::text` gives) for the prompt's
/// search: each text node's contents pushed onto one `String`, not
/// gathered into a tendril that is then copied into one.
pub(crate) fn visible_text(body: &NodeRef<'_>) -> String {
    let mut out = String::new();
    for d in body.descendants_it() {
        d.query(|node| {
            if let NodeData::Text { contents } = &node.data {
                out.push_str(contents);
            }
        });
    }
    out
}

/// Whether the visible text asks the reader to subscribe.
fn has_prompt(visible_text: &str) -> bool {
    // The prompts are ASCII: lower-casing ASCII is enough.
    let lower = visible_text.to_ascii_lowercase();
    PROMPTS
        .iter()
        .any(|p| memchr::memmem::find(lower.as_bytes(), p.as_bytes()).is_some())
}

impl Signals {
    /// Whether the page looks paywalled. `not_free` is JSON-LD's
    /// `isAccessibleForFree: false`; `content_chars` the length of the
    /// extracted content. The text is searched for a prompt last, and only
    /// when the answer depends on it.
    pub(crate) fn paywalled(&self, not_free: bool, content_chars: usize) -> bool {
        let prompt = || has_prompt(&self.visible_text);
        not_free
            || (self.marker && (content_chars < TEASER_CHARS * 2 || prompt()))
            || (content_chars < TEASER_CHARS && prompt())
    }
}
