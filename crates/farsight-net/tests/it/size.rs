use std::io::Write;
use std::sync::OnceLock;

use axum::Router;
use axum::body::Body;
use axum::http::header;
use axum::response::Response;
use axum::routing::get;
use farsight_net::{ErrorKind, FetchOptions, PageKind};
use flate2::Compression;
use flate2::write::GzEncoder;

use crate::support::{builder, serve};

const MIB: usize = 1024 * 1024;

/// `prefix` followed by 200 MB of zeros, gzip-compressed (about 200 KB).
fn bomb(prefix: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(prefix).unwrap();
    let zeros = vec![0u8; MIB];
    for _ in 0..200 {
        gz.write_all(&zeros).unwrap();
    }
    gz.finish().unwrap()
}

/// 200 MB of spaces, brotli-compressed.
fn brotli_bomb() -> &'static [u8] {
    static BOMB: OnceLock<Vec<u8>> = OnceLock::new();
    BOMB.get_or_init(|| {
        let mut out = Vec::new();
        {
            let mut w = brotli::CompressorWriter::new(&mut out, 64 * 1024, 5, 22);
            w.write_all(b"<html><body><p>brotli words first</p>")
                .unwrap();
            let spaces = vec![b' '; MIB];
            for _ in 0..200 {
                w.write_all(&spaces).unwrap();
            }
        }
        out
    })
}

fn bombs() -> &'static (Vec<u8>, Vec<u8>) {
    static BOMBS: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    BOMBS.get_or_init(|| {
        (
            bomb(b""),
            bomb(b"<html><head><title>bomb</title></head><body><p>Readable words first.</p>"),
        )
    })
}

fn gzip_response(body: &'static [u8]) -> Response {
    Response::builder()
        .header(header::CONTENT_TYPE, "text/html")
        .header(header::CONTENT_ENCODING, "gzip")
        .body(Body::from(body))
        .unwrap()
}

fn app() -> Router {
    Router::new()
        .route(
            "/brotli-bomb",
            get(|| async {
                Response::builder()
                    .header(header::CONTENT_TYPE, "text/html")
                    .header(header::CONTENT_ENCODING, "br")
                    .body(Body::from(brotli_bomb()))
                    .unwrap()
            }),
        )
        .route("/bomb", get(|| async { gzip_response(&bombs().0) }))
        .route(
            "/bomb-with-text",
            get(|| async { gzip_response(&bombs().1) }),
        )
        .route(
            "/big",
            get(|| async {
                Response::builder()
                    .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
                    .body(Body::from("abcdefghij\n".repeat(300_000)))
                    .unwrap()
            }),
        )
}

/// Peak resident memory of this process, in bytes (Linux).
fn peak_rss() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// 200 MB of zeros behind `Content-Encoding: gzip`: decoding stops at the cap,
/// memory stays bounded, and since nothing readable arrived it is `TooLarge`.
/// With text in front, the page is kept and marked truncated; brotli too.
#[tokio::test]
async fn a_gzip_bomb_stops_at_the_cap_with_bounded_memory() {
    let compressed_len = bombs().0.len();
    assert!(
        compressed_len < 2 * MIB,
        "the bomb is {compressed_len} bytes compressed"
    );
    let addr = serve(app()).await;
    let fetcher = builder().max_bytes(MIB as u64).build().unwrap();
    let before = peak_rss();

    let err = fetcher
        .fetch(
            &format!("http://127.0.0.1:{}/bomb", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooLarge, "{err}");
    assert!(err.suggestion().is_some());

    let page = fetcher
        .fetch(
            &format!("http://127.0.0.1:{}/bomb-with-text", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap();
    assert!(page.truncated);
    assert_eq!(page.kind, PageKind::Html);
    assert!(page.text.starts_with("<html><head><title>bomb"));
    assert!(page.text.len() <= MIB);

    let page = fetcher
        .fetch(
            &format!("http://127.0.0.1:{}/brotli-bomb", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap();
    assert!(page.truncated);
    assert!(page.text.starts_with("<html><body><p>brotli words first"));
    assert_eq!(page.text.len(), MIB);

    if let (Some(before), Some(after)) = (before, peak_rss()) {
        // Reading the bomb whole would add 200 MB; the cap allows a few MiB
        // (the body, its decoded copy, the cached copy).
        let grew = after.saturating_sub(before);
        eprintln!("peak memory grew by {} MiB over three bombs", grew / MIB);
        assert!(grew < 64 * MIB, "peak memory grew by {} MiB", grew / MIB);
    }
}

#[tokio::test]
async fn a_large_plain_body_is_cut_at_max_bytes() {
    let addr = serve(app()).await;
    let fetcher = builder().max_bytes(MIB as u64).build().unwrap();
    let page = fetcher
        .fetch(
            &format!("http://127.0.0.1:{}/big", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap();
    assert!(page.truncated);
    assert_eq!(page.kind, PageKind::Text);
    assert_eq!(page.text.len(), MIB);

    let roomy = builder().max_bytes(8 * MIB as u64).build().unwrap();
    let page = roomy
        .fetch(
            &format!("http://127.0.0.1:{}/big", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap();
    assert!(!page.truncated);
    assert_eq!(page.text.len(), 3_300_000);
}

/// A body in an encoding reqwest does not decode (zstd, stacked gzip) is a
/// typed error, never binary bytes returned as a page (issue 11); the
/// encodings it decodes still work.
#[tokio::test]
async fn an_encoding_that_is_not_decoded_is_unsupported_content() {
    let gzipped = |text: &[u8]| {
        let mut w = GzEncoder::new(Vec::new(), Compression::fast());
        w.write_all(text).unwrap();
        w.finish().unwrap()
    };
    let page = b"<html><body><p>Plain words of a page.</p></body></html>";
    let once = gzipped(page);
    let twice = gzipped(&once);
    let encoded = |encoding: &'static str, body: Vec<u8>| {
        move || {
            let body = body.clone();
            async move {
                Response::builder()
                    .header(header::CONTENT_TYPE, "text/html")
                    .header(header::CONTENT_ENCODING, encoding)
                    .body(Body::from(body))
                    .unwrap()
            }
        }
    };
    let app = Router::new()
        .route("/zstd", get(encoded("zstd", b"(\xb5/\xfd binary".to_vec())))
        .route("/twice", get(encoded("gzip, gzip", twice)))
        .route("/once", get(encoded("gzip", once)));
    let addr = serve(app).await;
    let fetcher = builder().build().unwrap();
    for path in ["zstd", "twice"] {
        let e = fetcher
            .fetch(&format!("http://{addr}/{path}"), &FetchOptions::new())
            .await
            .expect_err(path);
        assert_eq!(e.kind(), ErrorKind::UnsupportedContent, "{path}: {e}");
        assert!(e.to_string().contains("encoding"), "{e}");
    }
    let page = fetcher
        .fetch(&format!("http://{addr}/once"), &FetchOptions::new())
        .await
        .unwrap();
    assert!(page.text.contains("Plain words"), "{}", page.text);
}

/// A response with more header lines than hyper's default 100 (CDNs and
/// cookie banners send that many) is read like any other (issue 11).
#[tokio::test]
async fn a_response_with_many_header_lines_is_read() {
    let app = Router::new().route(
        "/many",
        get(|| async {
            let mut r = Response::builder().header(header::CONTENT_TYPE, "text/html");
            for i in 0..300 {
                r = r.header(format!("x-extra-{i}"), "v");
            }
            r.body(Body::from(
                "<html><body><p>Read despite the headers.</p></body></html>",
            ))
            .unwrap()
        }),
    );
    let addr = serve(app).await;
    let page = builder()
        .build()
        .unwrap()
        .fetch(&format!("http://{addr}/many"), &FetchOptions::new())
        .await
        .expect("300 header lines are read");
    assert!(page.text.contains("Read despite the headers"));
}
