//! Issue 13: `web_fetch` and `farsight extract` on documents (PDF, DOCX)
//! made by the tests and served from 127.0.0.1.

use crate::support::{Canned, PageServer};
use farsight::ErrorKind;
use farsight::{CallOptions, FetchRequest, FetchStatus, Service};
use farsight_docs::testing::{
    TextPage, docx, docx_paragraph, docx_table, encrypted_pdf, image_only_pdf, text_pdf,
};

const PDF: &str = "application/pdf";
const DOCX: &str = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/// A page server serving `docs` (path, content type, bytes).
async fn doc_server(docs: Vec<(&'static str, &'static str, Vec<u8>)>) -> PageServer {
    let pages = docs
        .into_iter()
        .map(|(path, content_type, bytes)| (path, Canned::bytes(content_type, bytes)))
        .collect();
    PageServer::with_pages(pages).await
}

fn report() -> Vec<u8> {
    let body: Vec<String> = (0..40)
        .map(|i| format!("Line {i} of the survey describes the harbour and its tides."))
        .collect();
    text_pdf(
        &[
            TextPage {
                heading: Some("Harbour Survey".into()),
                lines: body[..20].to_vec(),
            },
            TextPage {
                heading: Some("Findings".into()),
                lines: body[20..].to_vec(),
            },
        ],
        "Harbour Survey 2024",
        "Port Authority",
    )
}

fn service(dir: &std::path::Path, extra: &str) -> Service {
    let toml = format!(
        "[fetch]\nallow_hosts = [\"127.0.0.1\"]\ntimeout_seconds = 20\n{extra}\n[cache]\ndir = {:?}\n",
        dir.join("cache").display().to_string()
    );
    let raw = farsight::config::RawConfig::from_toml(&toml).unwrap();
    Service::new(farsight::Config::resolve(raw).unwrap()).unwrap()
}

#[tokio::test]
async fn a_pdf_is_markdown_with_metadata_pages_windows_and_focus() {
    let server = doc_server(vec![
        ("/survey.pdf", PDF, report()),
        ("/download", "application/octet-stream", report()),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let service = service(dir.path(), "");
    let r = service
        .web_fetch(
            &FetchRequest::new(server.url("/survey.pdf")),
            CallOptions::default(),
        )
        .await;
    assert_eq!(r.status, FetchStatus::Success, "{r:?}");
    assert_eq!(r.title.as_deref(), Some("Harbour Survey 2024"));
    assert_eq!(r.pages, Some(2));
    let meta = r.metadata.as_ref().unwrap();
    assert_eq!(meta.author.as_deref(), Some("Port Authority"));
    assert_eq!(meta.date_published.as_deref(), Some("2024-03-05"));
    let content = r.content.as_deref().unwrap();
    assert!(content.contains("<!-- page 2 -->"), "{content}");
    assert!(content.contains("# Findings"), "{content}");
    assert!(content.contains("Line 33 of the survey"), "{content}");
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["pages"], 2, "{json}");

    // Windows and focus read the cached page and the cached reading.
    let mut req = FetchRequest::new(server.url("/survey.pdf"));
    req.max_length = 500;
    let first = service.web_fetch(&req, CallOptions::default()).await;
    assert_eq!(first.truncated, Some(true), "{first:?}");
    req.start_index = first.next_start_index.unwrap();
    let second = service.web_fetch(&req, CallOptions::default()).await;
    assert_ne!(second.content, first.content);
    req.start_index = 0;
    req.focus = Some("Line 37".into());
    let focused = service.web_fetch(&req, CallOptions::default()).await;
    assert!(
        focused.content.as_deref().unwrap().contains("Line 37 "),
        "{focused:?}"
    );
    assert_eq!(server.hits("/survey.pdf"), 1);

    // By its first bytes under a generic type.
    let r = service
        .web_fetch(
            &FetchRequest::new(server.url("/download")),
            CallOptions::default(),
        )
        .await;
    assert_eq!(r.status, FetchStatus::Success, "{r:?}");
    assert_eq!(r.pages, Some(2));
}

#[tokio::test]
async fn broken_encrypted_scanned_and_oversized_documents_say_what_they_are() {
    let mut truncated = report();
    truncated.truncate(truncated.len() / 3);
    let server = doc_server(vec![
        ("/locked.pdf", PDF, encrypted_pdf()),
        ("/scan.pdf", PDF, image_only_pdf()),
        (
            "/broken.pdf",
            PDF,
            b"%PDF-1.7\nthis is not a PDF at all".to_vec(),
        ),
        ("/cut.pdf", PDF, truncated),
        ("/big.pdf", PDF, report()),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let service = service(dir.path(), "");
    let fetch = |path: &'static str| {
        let service = service.clone();
        let url = server.url(path);
        async move {
            service
                .web_fetch(&FetchRequest::new(url), CallOptions::default())
                .await
        }
    };

    let r = fetch("/locked.pdf").await;
    assert_eq!(r.status, FetchStatus::Error, "{r:?}");
    assert_eq!(r.error_kind, Some(ErrorKind::UnsupportedContent));
    assert!(r.message.as_deref().unwrap().contains("encrypted"), "{r:?}");

    let r = fetch("/scan.pdf").await;
    assert_eq!(r.status, FetchStatus::Partial, "{r:?}");
    assert!(
        r.message
            .as_deref()
            .unwrap()
            .contains("Scanned document without a text layer"),
        "{r:?}"
    );

    for path in ["/broken.pdf", "/cut.pdf"] {
        let r = fetch(path).await;
        // A reader may recover some text from a damaged file; otherwise the
        // answer names the damage.
        if r.status == FetchStatus::Error {
            assert_eq!(
                r.error_kind,
                Some(ErrorKind::UnsupportedContent),
                "{path}: {r:?}"
            );
            assert!(r.suggestion.is_some());
        }
    }

    let small = service_with_cap(dir.path());
    let r = small
        .web_fetch(
            &FetchRequest::new(server.url("/big.pdf")),
            CallOptions::default(),
        )
        .await;
    assert_eq!(r.status, FetchStatus::Error, "{r:?}");
    assert_eq!(r.error_kind, Some(ErrorKind::TooLarge));
    assert!(
        r.suggestion
            .as_deref()
            .unwrap()
            .contains("max_document_bytes")
    );
}

fn service_with_cap(dir: &std::path::Path) -> Service {
    service(&dir.join("small"), "max_document_bytes = 200\n")
}

#[tokio::test]
async fn a_docx_has_its_heading_and_table() {
    let body = [
        docx_paragraph(Some("Heading1"), "Tide Tables"),
        docx_paragraph(None, "High water times for the week."),
        docx_table(&[
            &["Day", "High water"],
            &["Monday", "06:12"],
            &["Tuesday", "06:58"],
        ]),
    ]
    .concat();
    let server = doc_server(vec![(
        "/tides.docx",
        DOCX,
        docx(&body, "Tides", "Harbour Master"),
    )])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let r = service(dir.path(), "")
        .web_fetch(
            &FetchRequest::new(server.url("/tides.docx")),
            CallOptions::default(),
        )
        .await;
    assert_eq!(r.status, FetchStatus::Success, "{r:?}");
    assert_eq!(r.title.as_deref(), Some("Tides"));
    let content = r.content.as_deref().unwrap();
    assert!(content.contains("# Tide Tables"), "{content}");
    assert!(content.contains("| Monday | 06:12 |"), "{content}");
}

#[tokio::test]
async fn farsight_extract_reads_a_local_pdf() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("survey.pdf");
    std::fs::write(&path, report()).unwrap();
    let o = crate::support::farsight(&["extract", path.to_str().unwrap(), "--json"], &[]).await;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["title"], "Harbour Survey 2024", "{json}");
    assert_eq!(json["pages"], 2, "{json}");
    assert!(
        json["content"]
            .as_str()
            .unwrap()
            .contains("# Harbour Survey"),
        "{json}"
    );
}
