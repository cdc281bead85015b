//! `Content-Encoding: deflate` in both forms servers send (issue #11): zlib
//! as HTTP specifies, and raw deflate, which reqwest's decoder failed on.

use std::io::Write;

use axum::Router;
use axum::body::Body;
use axum::http::header;
use axum::response::Response;
use axum::routing::get;
use farsight_net::{ErrorKind, FetchOptions};
use flate2::Compression;
use flate2::write::{DeflateEncoder, ZlibEncoder};

use crate::support::{builder, serve};

const PAGE: &[u8] = b"<html><body><p>Words that came deflated.</p></body></html>";

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn raw(data: &[u8]) -> Vec<u8> {
    let mut e = DeflateEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn deflated(body: Vec<u8>) -> impl Fn() -> std::future::Ready<Response> + Clone {
    move || {
        std::future::ready(
            Response::builder()
                .header(header::CONTENT_TYPE, "text/html")
                .header(header::CONTENT_ENCODING, "deflate")
                .body(Body::from(body.clone()))
                .unwrap(),
        )
    }
}

fn app() -> Router {
    Router::new()
        .route("/zlib", get(deflated(zlib(PAGE))))
        .route("/raw", get(deflated(raw(PAGE))))
        .route(
            "/bomb",
            get(deflated(raw(&[
                b"<p>first</p>".as_slice(),
                &[b' '; 20 << 20],
            ]
            .concat()))),
        )
        .route(
            "/damaged",
            get(deflated(vec![0x78, 0x9c, 0xff, 0xff, 0xff, 0xff])),
        )
        .route(
            "/echo",
            get(|headers: axum::http::HeaderMap| async move {
                let accept = headers
                    .get(header::ACCEPT_ENCODING)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
                    .to_owned();
                format!("accept-encoding: {accept}")
            }),
        )
}

#[tokio::test]
async fn zlib_and_raw_deflate_bodies_are_both_decoded() {
    let addr = serve(app()).await;
    let fetcher = builder().build().unwrap();
    for path in ["zlib", "raw"] {
        let page = fetcher
            .fetch(&format!("http://{addr}/{path}"), &FetchOptions::new())
            .await
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(page.text.as_bytes(), PAGE, "{path}");
        assert!(!page.truncated);
    }
    let echo = fetcher
        .fetch(&format!("http://{addr}/echo"), &FetchOptions::new())
        .await
        .unwrap();
    for encoding in ["gzip", "deflate", "br"] {
        assert!(echo.text.contains(encoding), "{}", echo.text);
    }
}

#[tokio::test]
async fn a_deflate_bomb_stops_at_the_cap_and_damage_is_an_error() {
    let addr = serve(app()).await;
    let fetcher = builder().max_bytes(1 << 20).build().unwrap();
    let page = fetcher
        .fetch(&format!("http://{addr}/bomb"), &FetchOptions::new())
        .await
        .unwrap();
    assert!(page.truncated);
    assert_eq!(page.text.len(), 1 << 20);
    assert!(page.text.starts_with("<p>first</p>"));

    let e = fetcher
        .fetch(&format!("http://{addr}/damaged"), &FetchOptions::new())
        .await
        .expect_err("damaged deflate");
    assert_eq!(e.kind(), ErrorKind::UnsupportedContent, "{e}");
    assert!(e.to_string().contains("deflate"), "{e}");
}
