use axum::Router;
use axum::body::Body;
use axum::extract::Query;
use axum::http::header;
use axum::response::Response;
use axum::routing::get;
use farsight_net::{ErrorKind, FetchOptions, PageKind};

use crate::support::{fetcher, serve};

#[derive(serde::Deserialize)]
struct Q {
    ct: Option<String>,
    body: Option<String>,
}

/// `/?ct=TYPE&body=TEXT` answers with that type (none when `ct` is absent).
async fn typed(Query(q): Query<Q>) -> Response {
    let mut b = Response::builder();
    if let Some(ct) = q.ct {
        b = b.header(header::CONTENT_TYPE, ct);
    }
    let body = q.body.unwrap_or_else(|| "hello".into()).into_bytes();
    b.body(Body::from(body)).unwrap()
}

async fn base() -> String {
    let app = Router::new().route("/", get(typed)).route(
        "/binary",
        get(|| async {
            Response::new(Body::from(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR".to_vec()))
        }),
    );
    let addr = serve(app).await;
    format!("http://127.0.0.1:{}", addr.port())
}

fn q(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

#[tokio::test]
async fn readable_types_become_html_or_text() {
    let base = base().await;
    let f = fetcher();
    for (ct, kind, essence) in [
        ("text/html; charset=utf-8", PageKind::Html, "text/html"),
        (
            "application/xhtml+xml",
            PageKind::Html,
            "application/xhtml+xml",
        ),
        ("text/plain", PageKind::Text, "text/plain"),
        ("text/markdown", PageKind::Text, "text/markdown"),
        ("text/x-markdown", PageKind::Text, "text/x-markdown"),
        ("application/json", PageKind::Text, "application/json"),
        ("application/ld+json", PageKind::Text, "application/ld+json"),
        ("application/xml", PageKind::Text, "application/xml"),
        ("text/xml", PageKind::Text, "text/xml"),
        ("application/rss+xml", PageKind::Text, "application/rss+xml"),
        ("text/csv", PageKind::Text, "text/csv"),
        ("TEXT/PLAIN; Charset=UTF-8", PageKind::Text, "text/plain"),
    ] {
        let url = format!("{base}/?ct={}", q(ct));
        let page = f.fetch(&url, &FetchOptions::default()).await.unwrap();
        assert_eq!(page.kind, kind, "{ct}");
        assert_eq!(page.content_type, essence, "{ct}");
        assert_eq!(page.text, "hello");
        assert_eq!(page.status, 200);
    }
}

#[tokio::test]
async fn binary_types_are_unsupported_and_named() {
    let base = base().await;
    let f = fetcher();
    for ct in [
        "image/png",
        "image/svg+xml",
        "audio/mpeg",
        "video/mp4",
        "application/octet-stream",
        "application/zip",
    ] {
        let url = format!("{base}/?ct={}", q(ct));
        let err = f.fetch(&url, &FetchOptions::default()).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnsupportedContent, "{ct}");
        assert!(err.message().contains(ct), "{ct}: {err}");
        assert!(err.suggestion().is_some());
    }
}

#[tokio::test]
async fn a_missing_content_type_is_sniffed() {
    let base = base().await;
    let f = fetcher();
    let page = f
        .fetch(
            &format!("{base}/?body={}", q("<!DOCTYPE html><html><p>x</p></html>")),
            &FetchOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(page.kind, PageKind::Html);
    assert_eq!(page.content_type, "");

    let page = f
        .fetch(
            &format!("{base}/?body=plain%20words"),
            &FetchOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(page.kind, PageKind::Text);

    let err = f
        .fetch(&format!("{base}/binary"), &FetchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnsupportedContent);
}

/// The type is judged from the headers before the body is read: a video that
/// would take minutes to arrive is refused at once, not timed out.
#[tokio::test]
async fn unsupported_types_are_refused_before_the_body_is_read() {
    use tokio::io::AsyncWriteExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            tokio::spawn(async move {
                let _ = crate::support::read_head(&mut sock).await;
                let head = "HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\nContent-Length: 100000000\r\n\r\n\x00\x00\x00\x18ftypmp42";
                if sock.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                for _ in 0..60 {
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                    if sock.write_all(b"x").await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    let f = crate::support::builder()
        .respect_robots_txt(false)
        .timeout(std::time::Duration::from_secs(5))
        .build()
        .unwrap();
    let started = std::time::Instant::now();
    let err = f
        .fetch(
            &format!("http://127.0.0.1:{}/film.mp4", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnsupportedContent, "{err}");
    assert!(
        err.suggestion().unwrap().contains("PDF"),
        "names what is read"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(4));
}

/// Issue 13: documents (by type, or by their first bytes under a generic or
/// missing type) are kept as bytes for the document reader, with their own
/// size cap; a cut document is an error, not a partial page.
#[tokio::test]
async fn documents_are_kept_as_bytes_with_their_own_cap() {
    let pdf = "%PDF-1.7\n% a small document body that is longer than forty bytes\n%%EOF";
    let base = base().await;
    let f = crate::support::builder()
        .respect_robots_txt(false)
        .max_bytes(40)
        .max_document_bytes(4096)
        .build()
        .unwrap();
    for ct in [
        Some("application/pdf"),
        Some("application/octet-stream"),
        Some("application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        None,
    ] {
        let url = match ct {
            Some(ct) => format!("{base}/?ct={}&body={}", q(ct), q(pdf)),
            None => format!("{base}/?body={}", q(pdf)),
        };
        let page = f.fetch(&url, &FetchOptions::default()).await.unwrap();
        assert_eq!(page.kind, PageKind::Document, "{ct:?}");
        assert_eq!(page.bytes.as_deref(), Some(pdf.as_bytes()), "{ct:?}");
        assert_eq!(page.text, "");
        assert!(!page.truncated);
        // The cache keeps the bytes.
        let again = f.fetch(&url, &FetchOptions::default()).await.unwrap();
        assert!(again.from_cache);
        assert_eq!(again.bytes, page.bytes);
    }
    let small = crate::support::builder()
        .respect_robots_txt(false)
        .max_document_bytes(20)
        .build()
        .unwrap();
    let url = format!("{base}/?ct={}&body={}", q("application/pdf"), q(pdf));
    let err = small
        .fetch(&url, &FetchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooLarge, "{err}");
    assert!(err.suggestion().unwrap().contains("max_document_bytes"));
    // A generic type whose bytes are no document stays unsupported.
    let url = format!("{base}/?ct={}&body=hello", q("application/octet-stream"));
    let err = f.fetch(&url, &FetchOptions::default()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnsupportedContent);
}
