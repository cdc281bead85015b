//! How much work one document may cause. A document is untrusted input: a
//! few kilobytes can name a million pages or inflate to gigabytes, so every
//! reader here checks these.

use std::time::Instant;

/// The bounds of one [`crate::read`] call. `Limits::default()` are the
/// defaults named on each field.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The most bytes accepted (default 20 MiB, `[fetch].max_document_bytes`):
    /// larger input is refused before any parsing.
    pub max_bytes: usize,
    /// The most pages (PDF) or slides (PPTX) turned into text (default 300):
    /// the rest are counted but not read, and the reading says so.
    pub max_pages: usize,
    /// The most characters of Markdown produced (default 8 million, far more
    /// than any agent reads; a bound on memory for text that repeats).
    pub max_chars: usize,
    /// Stop reading new pages at this instant (default none). A page already
    /// started is finished: the PDF crate cannot be interrupted inside one, so
    /// the caller also waits on its own deadline (see the crate docs).
    pub deadline: Option<Instant>,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bytes: 20 * 1024 * 1024,
            max_pages: 300,
            max_chars: 8_000_000,
            deadline: None,
        }
    }
}

impl Limits {
    pub(crate) fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}
