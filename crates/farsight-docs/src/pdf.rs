//! PDF through `pdf_oxide`: chosen by measuring it against `pdf-extract` and
//! `lopdf` on real documents (tools/pdf-bench/README.md): the best text on
//! papers, slides, forms and manuals, headings from font sizes, a parser
//! with its own bounds (nesting depth, decompressed size and ratio), and no
//! panic on the 18.5 MB test file that `pdf-extract` panicked on.
//!
//! Work is bounded by the input size (checked by the caller), the page limit,
//! and the deadline, checked before each page: one page is not interruptible.

use pdf_oxide::PdfDocument;
use pdf_oxide::converters::ConversionOptions;
use pdf_oxide::object::Object;

use crate::error::Error;
use crate::kind::DocKind;
use crate::limits::Limits;
use crate::pdf_date::iso_day;
use crate::reading::{Metadata, Reading, Shortfall};
use crate::text::{page_marker, reflow, tidy_markdown};

/// Reads a PDF.
pub(crate) fn read(bytes: &[u8], limits: &Limits) -> Result<Reading, Error> {
    // Junk before the header is allowed by readers (and by `sniff`).
    let start = crate::kind::pdf_start(bytes).unwrap_or(0);
    // The parser would overflow its stack on deep nesting: refused first.
    // So would its page-tree reading run for hours on a huge /Kids array.
    if let Err(why) = crate::nesting::check(&bytes[start..]) {
        return Err(Error::malformed("PDF", why));
    }
    let doc =
        PdfDocument::from_bytes(bytes[start..].to_vec()).map_err(|e| classify(&e.to_string()))?;
    // Most "encrypted" PDFs on the web only restrict printing or copying and
    // open with the empty user password; those are read.
    if doc.is_encrypted() && !doc.authenticate(b"").unwrap_or(false) {
        return Err(Error::encrypted("PDF"));
    }
    let total = doc.page_count().map_err(|e| classify(&e.to_string()))?;
    let options = ConversionOptions {
        // Its table detection makes tables of slide and title-page layouts
        // (measured on the Beamer slides); paragraphs read better.
        extract_tables: false,
        // Not strip_running_headers_footers: it is a pass over the whole
        // document, and called page by page it ran for minutes on 516 pages
        // (tools/pdf-bench); the page count bound would not hold the work.
        include_images: false,
        ..ConversionOptions::default()
    };
    let mut markdown = String::new();
    let mut pages_read = 0;
    let mut pages_with_text = 0;
    let mut shortfall = None;
    for index in 0..total {
        if pages_read == limits.max_pages {
            shortfall = Some(Shortfall::PageLimit);
            break;
        }
        if limits.past_deadline() {
            shortfall = Some(Shortfall::Deadline);
            break;
        }
        // A page that fails is skipped, not the document: damaged files
        // often have one bad content stream.
        let page = doc.to_markdown(index, &options).unwrap_or_default();
        let page = reflow(&page);
        markdown.push_str(&page_marker(index + 1));
        if !page.trim().is_empty() {
            pages_with_text += 1;
            markdown.push_str(&page);
        }
        pages_read += 1;
        if markdown.len() >= limits.max_chars {
            shortfall = Some(Shortfall::CharLimit);
            break;
        }
    }
    if pages_read > 0 && pages_with_text == 0 && shortfall.is_none() {
        shortfall = Some(Shortfall::NoTextLayer);
    }
    if pages_read == 0 && total > 0 && shortfall == Some(Shortfall::Deadline) {
        return Err(Error::new(
            crate::ErrorKind::Timeout,
            "the PDF took longer than the time allowed before its first page was read",
            "Try again with a longer timeout ([fetch].timeout_seconds), or find a smaller copy.",
        ));
    }
    let (markdown, cut) = crate::text::truncate_chars(tidy_markdown(&markdown), limits.max_chars);
    if cut {
        shortfall = Some(Shortfall::CharLimit);
    }
    Ok(Reading {
        kind: DocKind::Pdf,
        markdown,
        metadata: metadata(&doc).cleaned(),
        pages: Some(total),
        pages_read,
        shortfall,
    })
}

/// Title, author and creation date from the document information dictionary.
fn metadata(doc: &PdfDocument) -> Metadata {
    let info = doc
        .trailer()
        .as_dict()
        .and_then(|t| t.get("Info"))
        .and_then(|o| resolve(doc, o));
    let Some(Object::Dictionary(info)) = info else {
        return Metadata::default();
    };
    let text = |key: &str| {
        let value = resolve(doc, info.get(key)?)?;
        let bytes = value.as_string()?;
        Some(pdf_oxide::optional_content::decode_pdf_text_string(bytes))
    };
    Metadata {
        title: text("Title"),
        author: text("Author"),
        date: text("CreationDate").map(|d| iso_day(&d)),
    }
}

fn resolve(doc: &PdfDocument, object: &Object) -> Option<Object> {
    match object.as_reference() {
        Some(r) => doc.load_object(r).ok(),
        None => Some(object.clone()),
    }
}

/// A parser error as ours: encryption it met while parsing, else malformed.
fn classify(message: &str) -> Error {
    if message.to_ascii_lowercase().contains("encrypt") {
        Error::encrypted("PDF")
    } else {
        Error::malformed("PDF", message)
    }
}
