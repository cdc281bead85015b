//! Documents made byte by byte for tests (here and in `farsight`'s): a PDF
//! writer small enough to make hostile files (nesting, bombs, lies in the
//! page tree) that a PDF library would refuse to write, and a DOCX writer.
//! Behind the `testing` feature; not for production use.

use std::io::Write;

/// A PDF of the given objects (numbered from 1; object 1 must be the
/// catalog), with a correct cross-reference table and `info` as the
/// trailer's `/Info` reference when given.
#[must_use]
pub fn pdf_from_objects(objects: &[Vec<u8>], info: Option<usize>) -> Vec<u8> {
    let mut out = b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n".to_vec();
    let mut offsets = Vec::with_capacity(objects.len());
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    let info = info.map(|n| format!(" /Info {n} 0 R")).unwrap_or_default();
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R{info} >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

/// A stream object holding `data` (uncompressed).
#[must_use]
pub fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut s = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
    s.extend_from_slice(data);
    s.extend_from_slice(b"\nendstream");
    s
}

/// One page of a text PDF: a heading line in large type, then body lines.
#[derive(Clone, Debug, Default)]
pub struct TextPage {
    /// The heading (24 pt), if any.
    pub heading: Option<String>,
    /// Body lines (11 pt), top to bottom.
    pub lines: Vec<String>,
}

/// A PDF of text pages in Helvetica with Info title, author and date.
#[must_use]
pub fn text_pdf(pages: &[TextPage], title: &str, author: &str) -> Vec<u8> {
    // 1 catalog, 2 pages, 3 font, 4 info, then page + content per page.
    let n = pages.len();
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", 5 + 2 * i)).collect();
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        format!("<< /Type /Pages /Kids [{}] /Count {n} >>", kids.join(" ")).into_bytes(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
            .to_vec(),
        format!(
            "<< /Title ({}) /Author ({}) /CreationDate (D:20240305120000Z) >>",
            escape(title),
            escape(author)
        )
        .into_bytes(),
    ];
    for (i, page) in pages.iter().enumerate() {
        let mut content = String::from("BT\n");
        let mut y = 760;
        if let Some(h) = &page.heading {
            content.push_str(&format!("/F1 24 Tf 1 0 0 1 72 {y} Tm ({}) Tj\n", escape(h)));
            y -= 40;
        }
        for line in &page.lines {
            content.push_str(&format!(
                "/F1 11 Tf 1 0 0 1 72 {y} Tm ({}) Tj\n",
                escape(line)
            ));
            y -= 14;
        }
        content.push_str("ET");
        objects.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {} 0 R >>",
                6 + 2 * i
            )
            .into_bytes(),
        );
        objects.push(stream("", content.as_bytes()));
    }
    pdf_from_objects(&objects, Some(4))
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('(', "\\(")
        .replace(')', "\\)")
}

/// A DOCX whose body is `body_xml` (the children of `<w:body>`), with a
/// title and creator in its core properties.
#[must_use]
pub fn docx(body_xml: &str, title: &str, creator: &str) -> Vec<u8> {
    let parts: [(&str, String); 6] = [
        (
            "[Content_Types].xml",
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>"#.to_owned(),
        ),
        (
            "_rels/.rels",
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>"#.to_owned(),
        ),
        (
            "word/_rels/document.xml.rels",
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#.to_owned(),
        ),
        (
            // The style names that say which paragraphs are headings, as a
            // word processor writes them.
            "word/styles.xml",
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style></w:styles>"#.to_owned(),
        ),
        (
            "word/document.xml",
            format!(
                r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body_xml}</w:body></w:document>"#
            ),
        ),
        (
            "docProps/core.xml",
            format!(
                r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>{title}</dc:title><dc:creator>{creator}</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">2024-03-05T10:00:00Z</dcterms:created></cp:coreProperties>"#
            ),
        ),
    ];
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, body) in parts {
        // Writing to memory does not fail; a failure would leave a damaged
        // file, which the tests would then report.
        if zip.start_file(name, options).is_ok() {
            let _ = zip.write_all(body.as_bytes());
        }
    }
    zip.finish()
        .map(std::io::Cursor::into_inner)
        .unwrap_or_default()
}

/// A DOCX paragraph, with a style (`Heading1`...) when given.
#[must_use]
pub fn docx_paragraph(style: Option<&str>, text: &str) -> String {
    let style = style
        .map(|s| format!(r#"<w:pPr><w:pStyle w:val="{s}"/></w:pPr>"#))
        .unwrap_or_default();
    format!("<w:p>{style}<w:r><w:t>{text}</w:t></w:r></w:p>")
}

/// A DOCX table of the given rows of cells.
#[must_use]
pub fn docx_table(rows: &[&[&str]]) -> String {
    let mut t = String::from("<w:tbl>");
    for row in rows {
        t.push_str("<w:tr>");
        for cell in *row {
            t.push_str(&format!("<w:tc>{}</w:tc>", docx_paragraph(None, cell)));
        }
        t.push_str("</w:tr>");
    }
    t.push_str("</w:tbl>");
    t
}

const CATALOG: &[u8] = b"<< /Type /Catalog /Pages 2 0 R >>";

/// A one-page PDF encrypted with the standard security handler (AES-128)
/// under a user password, so that it cannot be opened without one.
#[must_use]
pub fn encrypted_pdf() -> Vec<u8> {
    let objects = vec![
        CATALOG.to_vec(),
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>".to_vec(),
        stream("", b"BT /F1 12 Tf 72 700 Td (secret) Tj ET"),
        // The O and U entries are not those of the empty password.
        format!(
            "<< /Filter /Standard /V 4 /R 4 /Length 128 /CF << /StdCF << /CFM /AESV2 /AuthEvent /DocOpen /Length 16 >> >> /StmF /StdCF /StrF /StdCF /O <{}> /U <{}> /P -1028 >>",
            "3f".repeat(32),
            "a7".repeat(32)
        )
        .into_bytes(),
    ];
    let mut bytes = pdf_from_objects(&objects, None);
    // The trailer names the encryption dictionary and the file ID it needs.
    if let Some(at) = bytes.windows(7).rposition(|w| w == b"/Root 1") {
        bytes.splice(
            at..at,
            b"/Encrypt 6 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] "
                .iter()
                .copied(),
        );
    }
    bytes
}

/// A one-page PDF that paints an 8x8 grey image and has no text: a scan.
#[must_use]
pub fn image_only_pdf() -> Vec<u8> {
    let objects = vec![
        CATALOG.to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>".to_vec(),
        stream("", b"q 612 0 0 792 0 0 cm /Im1 Do Q"),
        stream(
            "/Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8",
            &[128u8; 64],
        ),
    ];
    pdf_from_objects(&objects, None)
}
