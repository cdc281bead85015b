//! Paywall detection.

use dom_query::{NodeData, TreeNode};

use crate::words::tables::PAYWALL;

/// Sentences that ask the reader to pay to go on.
const PROMPTS: [&str; 12] = [
    "subscribe to continue reading",
    "subscribe to read",
    "to continue reading",
    "continue reading with a subscription",
    "already a subscriber",
    "subscribers only",
    "for subscribers only",
    "this article is for subscribers",
    "this content is for subscribers",
    "become a member to read",
    "sign in to read the full",
    "unlock this article",
];

/// A teaser shorter than this, followed by a prompt, is a paywalled article.
const TEASER_CHARS: usize = 1500;

/// What the page shows of a paywall, read before the content is chosen.
pub(crate) struct Signals {
    /// A paywall vendor's or publisher's marker in the raw page.
    pub marker: bool,
    /// A prompt to subscribe in the visible text.
    pub prompt: bool,
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

/// Whether the visible text asks the reader to subscribe.
pub(crate) fn has_prompt(mut visible_text: String) -> bool {
    // The prompts are ASCII: lower-casing ASCII in place is enough.
    visible_text.make_ascii_lowercase();
    PROMPTS
        .iter()
        .any(|p| memchr::memmem::find(visible_text.as_bytes(), p.as_bytes()).is_some())
}

impl Signals {
    /// Whether the page looks paywalled. `not_free` is JSON-LD's
    /// `isAccessibleForFree: false`; `content_chars` the length of the
    /// extracted content.
    pub(crate) fn paywalled(&self, not_free: bool, content_chars: usize) -> bool {
        not_free
            || (self.marker && (self.prompt || content_chars < TEASER_CHARS * 2))
            || (self.prompt && content_chars < TEASER_CHARS)
    }
}
