//! What reading a document produces.

use serde::{Deserialize, Serialize};

use crate::kind::DocKind;

/// The document's own description of itself (PDF document information, the
/// Office core properties). Empty strings are `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    /// The title.
    pub title: Option<String>,
    /// The author.
    pub author: Option<String>,
    /// When it was created, `YYYY-MM-DD` when the date is readable, else as
    /// the document writes it.
    pub date: Option<String>,
}

/// Why a reading holds less than the whole document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shortfall {
    /// No page has a text layer: a scanned document (images of pages).
    NoTextLayer,
    /// Only [`crate::Limits::max_pages`] pages were read.
    PageLimit,
    /// The deadline came before the last page.
    Deadline,
    /// The Markdown reached [`crate::Limits::max_chars`].
    CharLimit,
}

/// A document read as Markdown.
/// Serializable so that callers can cache it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reading {
    /// The format read.
    pub kind: DocKind,
    /// The text as Markdown: headings, re-flowed paragraphs, tables (Office
    /// formats), and a `<!-- page N -->` line before each PDF page and
    /// PPTX slide, where a reading window can cut.
    pub markdown: String,
    /// Title, author, date.
    pub metadata: Metadata,
    /// Pages (PDF) or slides (PPTX) in the document; `None` for a DOCX, whose
    /// pages exist only when a word processor lays it out.
    pub pages: Option<usize>,
    /// Pages turned into text (less than `pages` on a shortfall).
    pub pages_read: usize,
    /// Why this is less than the whole document, if it is.
    pub shortfall: Option<Shortfall>,
}

impl Reading {
    /// A sentence for the reader of the answer about the shortfall.
    #[must_use]
    pub fn shortfall_note(&self) -> Option<String> {
        let pages = self.pages.unwrap_or(self.pages_read);
        Some(match self.shortfall? {
            Shortfall::NoTextLayer => {
                "Scanned document without a text layer: its pages are images, and farsight \
                 does not read text from images (no OCR). Look for a text version of the \
                 document."
                    .to_owned()
            }
            Shortfall::PageLimit => format!(
                "Only the first {} of {pages} pages were read (the page limit).",
                self.pages_read
            ),
            Shortfall::Deadline => format!(
                "Reading the document ran out of time after {} of {pages} pages.",
                self.pages_read
            ),
            Shortfall::CharLimit => format!(
                "The document's text is longer than farsight keeps; this is the text of its \
                 first {} pages.",
                self.pages_read
            ),
        })
    }
}

impl Metadata {
    /// Empty and whitespace-only values made `None`, the rest trimmed.
    pub(crate) fn cleaned(self) -> Self {
        let clean = |v: Option<String>| v.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
        Self {
            title: clean(self.title),
            author: clean(self.author),
            date: clean(self.date),
        }
    }
}
