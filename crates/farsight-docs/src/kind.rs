//! Which document formats this crate reads, recognised by media type or by
//! the bytes themselves (servers often send PDFs as
//! `application/octet-stream`, and `farsight extract FILE` has no type at all).

use std::io::Cursor;

/// A document format this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DocKind {
    /// PDF.
    Pdf,
    /// Word (Office Open XML, `.docx`).
    Docx,
    /// PowerPoint (Office Open XML, `.pptx`).
    Pptx,
}

impl DocKind {
    /// A short name for messages: "PDF", "DOCX", "PPTX".
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Pdf => "PDF",
            Self::Docx => "DOCX",
            Self::Pptx => "PPTX",
        }
    }
}

/// The media types of the formats read here, lower-case essences. The one
/// list: the fetcher asks [`is_document_media_type`] before it downloads.
const MEDIA_TYPES: &[(&str, DocKind)] = &[
    ("application/pdf", DocKind::Pdf),
    ("application/x-pdf", DocKind::Pdf),
    (
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        DocKind::Docx,
    ),
    (
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        DocKind::Pptx,
    ),
];

/// The format a media type essence (`application/pdf`) names, if read here.
#[must_use]
pub fn kind_of_media_type(essence: &str) -> Option<DocKind> {
    let essence = essence.trim().to_ascii_lowercase();
    MEDIA_TYPES
        .iter()
        .find(|(t, _)| *t == essence)
        .map(|(_, k)| *k)
}

/// Whether the fetcher should keep a response of this media type as a
/// document (raw bytes) rather than decode it as text.
#[must_use]
pub fn is_document_media_type(essence: &str) -> bool {
    kind_of_media_type(essence).is_some()
}

/// Whether the first bytes of a body look like a document read here: `%PDF-`
/// (within the first KiB, as readers allow junk before it) or a zip archive
/// (an Office file is one; which one is known only from its parts).
#[must_use]
pub fn looks_like_document(head: &[u8]) -> bool {
    pdf_start(head).is_some() || head.starts_with(b"PK\x03\x04")
}

/// Where `%PDF-` starts within the first KiB.
pub(crate) fn pdf_start(bytes: &[u8]) -> Option<usize> {
    let head = &bytes[..bytes.len().min(1024)];
    memchr::memmem::find(head, b"%PDF-")
}

/// The format of `bytes`, from their content: `%PDF-`, or a zip archive whose
/// parts name it (`word/document.xml`, `ppt/presentation.xml`). `None` for
/// anything else, a zip of another kind included.
#[must_use]
pub fn sniff(bytes: &[u8]) -> Option<DocKind> {
    if pdf_start(bytes).is_some() {
        return Some(DocKind::Pdf);
    }
    if !bytes.starts_with(b"PK\x03\x04") {
        return None;
    }
    // Reading the central directory only: no part is inflated here.
    let archive = zip::ZipArchive::new(Cursor::new(bytes)).ok()?;
    let has = |name: &str| archive.file_names().any(|n| n == name);
    if has("word/document.xml") {
        Some(DocKind::Docx)
    } else if has("ppt/presentation.xml") {
        Some(DocKind::Pptx)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types_and_magic_bytes() {
        assert_eq!(kind_of_media_type("Application/PDF"), Some(DocKind::Pdf));
        assert!(is_document_media_type(
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        ));
        assert!(!is_document_media_type("text/html"));
        assert!(!is_document_media_type("application/zip"));
        assert!(looks_like_document(b"%PDF-1.7\n"));
        assert!(looks_like_document(b"\r\n%PDF-1.4"));
        assert!(looks_like_document(b"PK\x03\x04rest"));
        assert!(!looks_like_document(b"<html>"));
        assert_eq!(sniff(b"%PDF-1.4 whatever"), Some(DocKind::Pdf));
        assert_eq!(sniff(b"PK\x03\x04 not really a zip"), None);
        assert_eq!(sniff(b"plain text"), None);
    }
}
