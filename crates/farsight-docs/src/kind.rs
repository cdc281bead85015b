//! Which document formats this crate reads, recognised by media type or by
//! the bytes themselves (servers often send PDFs as
//! `application/octet-stream`, and `farsight extract FILE` has no type at all).

use std::io::Cursor;

/// A document format this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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

/// The media types of the formats read here, lower-case essences: the format
/// a caller's hint names when the bytes do not show it (an encrypted Office
/// file is no zip). Which responses are kept as documents at all is
/// `farsight-net`'s rule (PDF and the whole Office Open XML family).
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
    let has = |name: &str| archive.index_for_name(name).is_some();
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
        assert_eq!(
            kind_of_media_type(
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
            ),
            Some(DocKind::Docx)
        );
        assert_eq!(kind_of_media_type("text/html"), None);
        assert_eq!(kind_of_media_type("application/zip"), None);
        assert_eq!(sniff(b"%PDF-1.4 whatever"), Some(DocKind::Pdf));
        assert_eq!(sniff(b"PK\x03\x04 not really a zip"), None);
        assert_eq!(sniff(b"plain text"), None);
    }
}
