//! Hostile and broken documents: each ends in a clear error or a bounded
//! reading, never a panic, a hang or gigabytes of memory.

use std::io::Write;

use farsight_docs::testing::{
    TextPage, encrypted_pdf, image_only_pdf, pdf_from_objects, stream, text_pdf,
};
use farsight_docs::{ErrorKind, Limits, Reading, Shortfall, read};

const CATALOG: &[u8] = b"<< /Type /Catalog /Pages 2 0 R >>";
const FONT: &[u8] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";

fn page(contents: usize) -> Vec<u8> {
    format!(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {contents} 0 R >>"
    )
    .into_bytes()
}

/// Peak resident memory of this test process so far, in MiB (Linux).
fn peak_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

/// What a hostile file may produce: an error of a named kind, or a reading
/// within the limits.
fn bounded(result: &Result<Reading, farsight_docs::Error>, limits: &Limits) {
    match result {
        Ok(r) => {
            assert!(r.markdown.chars().count() <= limits.max_chars);
            assert!(r.pages_read <= limits.max_pages);
        }
        Err(e) => assert!(
            matches!(e.kind(), ErrorKind::Malformed | ErrorKind::Timeout),
            "{e:?}"
        ),
    }
}

#[test]
fn an_encrypted_pdf_is_a_clear_error() {
    let e = read(&encrypted_pdf(), None, &Limits::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Encrypted, "{e:?}");
    assert!(e.message().contains("encrypted"), "{e}");
    assert!(!e.suggestion().is_empty());
}

#[test]
fn a_scanned_pdf_without_a_text_layer_is_partial() {
    let r = read(&image_only_pdf(), None, &Limits::default()).unwrap();
    assert_eq!(r.pages, Some(1));
    assert_eq!(r.shortfall, Some(Shortfall::NoTextLayer));
    assert!(
        r.shortfall_note()
            .unwrap()
            .contains("Scanned document without a text layer")
    );
}

#[test]
fn malformed_bytes_are_errors_not_panics() {
    let good = text_pdf(
        &[TextPage {
            heading: None,
            lines: vec!["Some words on a page.".into()],
        }],
        "T",
        "A",
    );
    let inputs: Vec<Vec<u8>> = vec![
        b"%PDF-1.7\n".to_vec(),
        b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF".to_vec(),
        good[..good.len() / 2].to_vec(),
        [b"%PDF-1.5\n".as_slice(), &[0xFFu8; 5000]].concat(),
    ];
    for bytes in inputs {
        let result = read(&bytes, None, &Limits::default());
        match &result {
            Ok(r) => assert!(r.markdown.len() < 10_000),
            Err(e) => assert!(
                matches!(e.kind(), ErrorKind::Malformed),
                "{e:?} for {:?}",
                String::from_utf8_lossy(&bytes[..bytes.len().min(40)])
            ),
        }
    }
    let e = read(b"just text", None, &Limits::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
}

#[test]
fn a_deeply_nested_pdf_ends_in_bounds() {
    let depth = 100_000;
    let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let content = format!("BT /F1 12 Tf 72 700 Td {nested} TJ (after) Tj ET");
    let objects = vec![
        CATALOG.to_vec(),
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>".to_vec(),
        FONT.to_vec(),
        page(5),
        stream("", content.as_bytes()),
        format!("<< /Title 7 0 R /Author {nested} >>").into_bytes(),
        nested.into_bytes(),
    ];
    let limits = Limits::default();
    bounded(
        &read(&pdf_from_objects(&objects, Some(6)), None, &limits),
        &limits,
    );
}

#[test]
fn a_decompression_bomb_ends_in_bounds_and_memory() {
    // 512 MiB of zeros in a Flate content stream of well under 1 MiB.
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..512 {
        z.write_all(&chunk).unwrap();
    }
    let bomb = z.finish().unwrap();
    assert!(bomb.len() < 1 << 20);
    let objects = vec![
        CATALOG.to_vec(),
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>".to_vec(),
        FONT.to_vec(),
        page(5),
        stream("/Filter /FlateDecode", &bomb),
    ];
    let limits = Limits::default();
    bounded(
        &read(&pdf_from_objects(&objects, None), None, &limits),
        &limits,
    );
    if let Some(peak) = peak_mib() {
        assert!(peak < 1024, "peak memory {peak} MiB");
    }
}

#[test]
fn a_page_tree_that_lies_is_read_to_the_page_limit() {
    // 5,000 references to one page (more than 10,000 in one array are
    // refused before parsing: see the next test).
    let kids = vec!["4 0 R"; 5_000].join(" ");
    let objects = vec![
        CATALOG.to_vec(),
        format!("<< /Type /Pages /Kids [{kids}] /Count 99999999 >>").into_bytes(),
        FONT.to_vec(),
        page(5),
        stream("", b"BT /F1 12 Tf 72 700 Td (again) Tj ET"),
    ];
    let limits = Limits {
        max_pages: 20,
        ..Limits::default()
    };
    let result = read(&pdf_from_objects(&objects, None), None, &limits);
    bounded(&result, &limits);
}

#[test]
fn a_page_tree_of_a_million_references_is_refused_before_parsing() {
    let kids = vec!["4 0 R"; 1_000_000].join(" ");
    let objects = vec![
        CATALOG.to_vec(),
        format!("<< /Type /Pages /Kids [{kids}] /Count 1000000 >>").into_bytes(),
        FONT.to_vec(),
        page(5),
        stream("", b"BT /F1 12 Tf 72 700 Td (again) Tj ET"),
    ];
    let e = read(&pdf_from_objects(&objects, None), None, &Limits::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Malformed);
    assert!(e.message().contains("references"), "{e}");
}
