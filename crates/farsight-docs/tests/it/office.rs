//! DOCX with a heading and a table.

use farsight_docs::testing::{docx, docx_paragraph, docx_table};
use farsight_docs::{DocKind, Limits, read, sniff};

#[test]
fn docx_heading_paragraph_and_table_as_markdown() {
    let body = [
        docx_paragraph(Some("Heading1"), "Quarterly Report"),
        docx_paragraph(None, "Sales rose in every region."),
        docx_table(&[&["Region", "Sales"], &["North", "120"], &["South", "95"]]),
    ]
    .concat();
    let bytes = docx(&body, "Q3 Report", "Grace Hopper");
    assert_eq!(sniff(&bytes), Some(DocKind::Docx));
    let r = read(&bytes, None, &Limits::default()).unwrap();
    assert_eq!(r.kind, DocKind::Docx);
    assert_eq!(r.pages, None);
    let md = &r.markdown;
    assert!(md.contains("# Quarterly Report"), "{md}");
    assert!(md.contains("Sales rose in every region."), "{md}");
    assert!(md.contains("| Region | Sales |"), "{md}");
    assert!(md.contains("| North | 120 |"), "{md}");
    assert_eq!(r.metadata.title.as_deref(), Some("Q3 Report"));
    assert_eq!(r.metadata.author.as_deref(), Some("Grace Hopper"));
    assert_eq!(r.metadata.date.as_deref(), Some("2024-03-05"));
}

#[test]
fn an_encrypted_office_file_says_so() {
    // An encrypted DOCX is an OLE compound file holding the encrypted package.
    let mut ole = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    ole.resize(4096, 0);
    let e = read(&ole, Some(DocKind::Docx), &Limits::default()).unwrap_err();
    assert_eq!(e.kind(), farsight_docs::ErrorKind::Encrypted);
    assert!(e.message().contains("encrypted"), "{e}");
}

#[test]
fn a_zip_of_another_kind_is_unsupported() {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip.start_file("notes.txt", zip::write::SimpleFileOptions::default())
        .unwrap();
    std::io::Write::write_all(&mut zip, b"hello").unwrap();
    let bytes = zip.finish().unwrap().into_inner();
    let e = read(&bytes, None, &Limits::default()).unwrap_err();
    assert_eq!(e.kind(), farsight_docs::ErrorKind::Unsupported);
}
