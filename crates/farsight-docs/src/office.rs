//! DOCX and PPTX through `office_oxide`, which reads the Office Open XML
//! package with its own bounds on zip bombs (entry count, inflated size and
//! ratio, nesting of embedded packages, output text): the reason it is used
//! rather than `zip` + `quick-xml` by hand. Headings and tables come from its
//! Markdown renderer.

use std::io::Cursor;

use office_oxide::format::DocumentFormat;
use office_oxide::options::{OnIncomplete, ParseOptions};

use crate::error::Error;
use crate::kind::DocKind;
use crate::limits::Limits;
use crate::reading::{Metadata, Reading, Shortfall};
use crate::text::{tidy_markdown, truncate_chars};

/// Reads a DOCX or PPTX.
pub(crate) fn read(bytes: &[u8], kind: DocKind, limits: &Limits) -> Result<Reading, Error> {
    // An encrypted Office file is not a zip but a compound file (OLE) that
    // holds the encrypted package.
    if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
        return Err(Error::encrypted(kind.name()));
    }
    let format = match kind {
        DocKind::Docx => DocumentFormat::Docx,
        DocKind::Pptx => DocumentFormat::Pptx,
        DocKind::Pdf => return Err(Error::malformed("document", "not an Office file")),
    };
    let options = parse_options(limits);
    let doc =
        office_oxide::Document::from_reader_with(Cursor::new(bytes.to_vec()), format, &options)
            .map_err(|e| office_error(kind, &e))?;
    let metadata = match kind {
        DocKind::Docx => doc.as_docx().and_then(|d| d.core_properties.clone()),
        _ => doc.as_pptx().and_then(|d| d.core_properties.clone()),
    }
    .map(|p| Metadata {
        title: p.title,
        author: p.creator,
        date: p.created.map(|d| crate::pdf_date::iso_day(&d)),
    })
    .unwrap_or_default();
    let (markdown, pages, pages_read, shortfall) = match kind {
        DocKind::Pptx => slides(&doc, limits),
        _ => {
            let md = tidy_markdown(&doc.to_markdown());
            (md, None, 1, None)
        }
    };
    let (markdown, cut) = truncate_chars(markdown, limits.max_chars);
    Ok(Reading {
        kind,
        markdown,
        metadata: metadata.cleaned(),
        pages,
        pages_read,
        shortfall: if cut {
            Some(Shortfall::CharLimit)
        } else {
            shortfall
        },
    })
}

/// A presentation: office_oxide renders the slides in order within its
/// text budget (its per-slide renderer is private, so no page markers and no
/// page limit of ours here; the input bound and its budget hold the work).
fn slides(
    doc: &office_oxide::Document,
    limits: &Limits,
) -> (String, Option<usize>, usize, Option<Shortfall>) {
    let total = doc.as_pptx().map(|p| p.slides.len());
    let deadline = limits.past_deadline().then_some(Shortfall::Deadline);
    let md = tidy_markdown(&doc.to_markdown());
    (md, total, total.unwrap_or(1), deadline)
}

/// office_oxide's strict bounds (for input nobody vouches for), its text
/// budget no larger than ours, and an incomplete result (a budget spent)
/// reported rather than refused: a partial text is still worth reading.
fn parse_options(limits: &Limits) -> ParseOptions {
    let mut options = ParseOptions::strict();
    options.on_incomplete = OnIncomplete::Report;
    options.limits.text_chars = options
        .limits
        .text_chars
        .min(limits.max_chars.saturating_mul(2));
    options
}

fn office_error(kind: DocKind, e: &office_oxide::OfficeError) -> Error {
    let text = e.to_string();
    if text.to_ascii_lowercase().contains("encrypt") || text.contains("password") {
        Error::encrypted(kind.name())
    } else {
        Error::malformed(kind.name(), text)
    }
}
