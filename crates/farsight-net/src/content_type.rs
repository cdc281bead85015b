//! Which responses farsight turns into text, decided from the `Content-Type`
//! header before the body is read (or, when it is missing or a generic binary
//! type, from the first bytes). Documents (PDF, Office Open XML) are kept as
//! bytes for `farsight-docs`; which format one is, is that crate's to say.

use crate::page::PageKind;

/// A parsed `Content-Type`: the lower-case essence and the charset parameter.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct MediaType {
    pub(crate) essence: String,
    pub(crate) charset: Option<String>,
}

pub(crate) fn parse(header: &str) -> Option<MediaType> {
    let mut parts = header.split(';');
    let essence = parts.next()?.trim().to_ascii_lowercase();
    if essence.is_empty() || !essence.contains('/') {
        return None;
    }
    let charset = parts.find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches(|c| c == '"' || c == '\'').to_owned())
            .filter(|v| !v.is_empty())
    });
    Some(MediaType { essence, charset })
}

/// `Some(kind)` when farsight can read this type, `None` when it cannot.
pub(crate) fn classify(essence: &str) -> Option<PageKind> {
    let (top, sub) = essence.split_once('/')?;
    match (top, sub) {
        // PDF, and the Office Open XML family (.docx, .pptx, .xlsx...):
        // farsight-docs says which of them it reads.
        ("application", "pdf" | "x-pdf") => Some(PageKind::Document),
        ("application", s) if s.starts_with("vnd.openxmlformats-officedocument.") => {
            Some(PageKind::Document)
        }
        ("text", "html") | ("application", "xhtml+xml") => Some(PageKind::Html),
        // Every text/* type is text by definition (plain, markdown, csv, xml,
        // css, javascript...).
        ("text", _) => Some(PageKind::Text),
        ("application", s)
            if s.ends_with("+json")
                || s.ends_with("+xml")
                || matches!(
                    s,
                    "json"
                        | "xml"
                        | "ld+json"
                        | "javascript"
                        | "ecmascript"
                        | "x-javascript"
                        | "yaml"
                        | "x-yaml"
                        | "toml"
                        | "x-sh"
                        | "x-ndjson"
                        | "ndjson"
                        | "rtf"
                ) =>
        {
            Some(PageKind::Text)
        }
        _ => None,
    }
}

/// Types that say only "bytes": what they hold is decided by the bytes
/// (servers send PDFs as these).
pub(crate) fn is_generic_binary(essence: &str) -> bool {
    matches!(
        essence,
        "application/octet-stream"
            | "binary/octet-stream"
            | "application/download"
            | "application/force-download"
    )
}

/// Whether a body starts like a document: `%PDF-` (readers allow a little
/// junk before it) or a zip archive (an Office Open XML file is one).
pub(crate) fn sniff_document(head: &[u8]) -> bool {
    let head = &head[..head.len().min(1024)];
    head.starts_with(b"PK\x03\x04") || memchr_pdf(head)
}

fn memchr_pdf(head: &[u8]) -> bool {
    head.windows(5).any(|w| w == b"%PDF-")
}

/// For a response without `Content-Type`: HTML if it starts like HTML, text
/// if it looks like text, `None` if it looks binary.
pub(crate) fn sniff(head: &[u8]) -> Option<PageKind> {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let lead = &head[start..head.len().min(start + 64)];
    let lower: Vec<u8> = lead.iter().map(u8::to_ascii_lowercase).collect();
    if [
        &b"<!doctype html"[..],
        b"<html",
        b"<head",
        b"<body",
        b"<!--",
        b"<meta",
        b"<title",
        b"<div",
        b"<p>",
        b"<h1",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
    {
        return Some(PageKind::Html);
    }
    // UTF-16 text has NULs but starts with a byte order mark.
    if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        return Some(PageKind::Text);
    }
    let sample = &head[..head.len().min(1024)];
    // The WHATWG "binary data byte" set: control bytes that text never contains.
    let binary = sample
        .iter()
        .any(|&b| matches!(b, 0x00..=0x08 | 0x0B | 0x0E..=0x1A | 0x1C..=0x1F));
    (!binary).then_some(PageKind::Text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn parse_and_sniff_never_panic(header in ".*", bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
            if let Some(m) = parse(&header) {
                let _ = classify(&m.essence);
            }
            let _ = sniff(&bytes);
        }
    }

    #[test]
    fn parses_essence_and_charset() {
        assert_eq!(
            parse("Text/HTML; Charset=\"Shift_JIS\""),
            Some(MediaType {
                essence: "text/html".into(),
                charset: Some("Shift_JIS".into())
            })
        );
        assert_eq!(parse("application/json").map(|m| m.charset), Some(None));
        assert_eq!(parse(""), None);
        assert_eq!(parse("garbage"), None);
    }

    #[test]
    fn classifies_readable_and_binary_types() {
        for t in ["text/html", "application/xhtml+xml"] {
            assert_eq!(classify(t), Some(PageKind::Html), "{t}");
        }
        for t in [
            "text/plain",
            "text/markdown",
            "text/x-markdown",
            "application/json",
            "application/problem+json",
            "application/xml",
            "text/xml",
            "application/atom+xml",
            "text/csv",
        ] {
            assert_eq!(classify(t), Some(PageKind::Text), "{t}");
        }
        for t in [
            "application/pdf",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        ] {
            assert_eq!(classify(t), Some(PageKind::Document), "{t}");
        }
        for t in [
            "image/png",
            "image/svg",
            "audio/mpeg",
            "video/mp4",
            "application/octet-stream",
            "application/zip",
            "font/woff2",
        ] {
            assert_eq!(classify(t), None, "{t}");
        }
    }

    #[test]
    fn sniffs_html_text_and_binary() {
        assert_eq!(sniff(b"\n  <!DOCTYPE html><html>"), Some(PageKind::Html));
        assert_eq!(sniff(b"<html lang=en>"), Some(PageKind::Html));
        assert_eq!(sniff(b"\xEF\xBB\xBF<!doctype html>"), Some(PageKind::Html));
        assert_eq!(sniff(b"just some words"), Some(PageKind::Text));
        assert_eq!(sniff(b"%PDF-1.7\n\x00\x01\x02"), None);
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n"), None);
    }

    #[test]
    fn sniffs_documents_and_generic_types() {
        assert!(sniff_document(b"%PDF-1.7\n"));
        assert!(sniff_document(b"\r\n%PDF-1.4"));
        assert!(sniff_document(b"PK\x03\x04\x14\x00"));
        assert!(!sniff_document(b"<html>"));
        assert!(!sniff_document(b"\x89PNG"));
        assert!(is_generic_binary("application/octet-stream"));
        assert!(!is_generic_binary("application/pdf"));
    }
}
