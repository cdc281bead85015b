//! Documents as Markdown for farsight: PDF, DOCX and PPTX bytes in, a
//! [`Reading`] out (Markdown with headings and page markers, title, author,
//! date, page count), or an [`Error`] with a kind, a message and a
//! suggestion. Synchronous and pure, like `farsight-extract`; it is a crate of
//! its own so that the PDF and zip stacks stay out of the HTML extractor.
//!
//! # Overview
//!
//! - [`read`] reads a document of any supported [`DocKind`], recognised from
//!   its bytes ([`sniff`]) or from the caller's hint (the media type,
//!   [`kind_of_media_type`]).
//! - [`Limits`] bound the work: input bytes, pages, output characters and a
//!   deadline checked before every page. A page in progress cannot be
//!   interrupted (the PDF crate has no cancellation), so callers on an async
//!   runtime run [`read`] on a blocking thread and stop waiting at their own
//!   deadline; the input bound keeps that one page small.
//! - A panic inside a parser is caught and returned as a
//!   [`ErrorKind::Malformed`] error: a hostile file never takes the process
//!   down.
//!
//! # Cargo features
//!
//! - `testing`: the `testing` module, writers of the documents the tests read.
//!
//! # Example
//!
//! ```no_run
//! let bytes = std::fs::read("paper.pdf").unwrap();
//! match farsight_docs::read(&bytes, None, &farsight_docs::Limits::default()) {
//!     Ok(reading) => println!("{} pages\n{}", reading.pages.unwrap_or(0), reading.markdown),
//!     Err(e) => eprintln!("{}: {} ({})", e.kind(), e, e.suggestion()),
//! }
//! ```
#![deny(missing_docs)]

mod error;
mod kind;
mod limits;
mod nesting;
mod office;
mod pdf;
mod pdf_date;
mod reading;
#[cfg(feature = "testing")]
pub mod testing;
mod text;

pub use error::{Error, ErrorKind};
pub use kind::{DocKind, kind_of_media_type, sniff};
pub use limits::Limits;
pub use reading::{Metadata, Reading, Shortfall};

/// Reads `bytes` as a document. The format is taken from the bytes when they
/// show it, else from `hint` (e.g. the response's media type).
///
/// # Errors
///
/// [`ErrorKind::TooLarge`] over [`Limits::max_bytes`],
/// [`ErrorKind::Unsupported`] for bytes of no format read here,
/// [`ErrorKind::Encrypted`] for a document that needs a password,
/// [`ErrorKind::Malformed`] for one that cannot be parsed (a parser panic
/// included), [`ErrorKind::Timeout`] when the deadline passed before the
/// first page.
pub fn read(bytes: &[u8], hint: Option<DocKind>, limits: &Limits) -> Result<Reading, Error> {
    if bytes.len() > limits.max_bytes {
        return Err(Error::new(
            ErrorKind::TooLarge,
            format!(
                "the document is {} bytes, more than the {} bytes farsight reads",
                bytes.len(),
                limits.max_bytes
            ),
            "Look for a smaller version of the document, or raise [fetch].max_document_bytes.",
        ));
    }
    let Some(kind) = sniff(bytes).or(hint) else {
        return Err(Error::new(
            ErrorKind::Unsupported,
            "the file is not a PDF, DOCX or PPTX document",
            "farsight reads web pages, text, PDF, DOCX and PPTX; look for one of those.",
        ));
    };
    // The parsers read untrusted bytes and some panic on damaged input;
    // nothing they share with the caller outlives the call.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match kind {
        DocKind::Pdf => pdf::read(bytes, limits),
        DocKind::Docx | DocKind::Pptx => office::read(bytes, kind, limits),
    }));
    result.unwrap_or_else(|_| {
        Err(Error::malformed(
            kind.name(),
            "the parser failed on this file",
        ))
    })
}
