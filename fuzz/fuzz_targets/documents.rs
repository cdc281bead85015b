//! Arbitrary bytes as a document (PDF, DOCX, PPTX): reading must never
//! panic or run unbounded, and a reading must keep to its limits.
#![no_main]

use farsight_docs::{DocKind, Limits, read};
use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // libfuzzer-sys aborts on every panic, caught or not. `read` catches
        // its parsers' panics by design (pdf_oxide slices strings inside
        // characters on damaged files; farsight-docs' lib.rs answers those
        // "malformed"), so with the default hook back only a panic that
        // escapes `read` aborts: libfuzzer-sys catches any unwinding out of
        // this closure and aborts there.
        drop(std::panic::take_hook());
    },
    |data: &[u8]| {
        // The first byte picks the caller's hint (the bytes' own signature wins).
        let hint = match data.first().map(|b| b % 4) {
            Some(0) => Some(DocKind::Pdf),
            Some(1) => Some(DocKind::Docx),
            Some(2) => Some(DocKind::Pptx),
            _ => None,
        };
        let limits = Limits {
            max_pages: 20,
            max_chars: 200_000,
            ..Limits::default()
        };
        if let Ok(reading) = read(data.get(1..).unwrap_or_default(), hint, &limits) {
            assert!(reading.pages_read <= limits.max_pages);
            assert!(reading.markdown.chars().count() <= limits.max_chars);
        }
    }
);
