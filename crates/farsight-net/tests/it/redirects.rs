use axum::Router;
use axum::extract::Path;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use farsight_net::{ErrorKind, FetchOptions};

use crate::support::{CountingServer, builder, fetcher, serve};

/// `/chain/N` redirects to `/chain/N-1`; `/chain/0` is the page.
async fn chain(Path(n): Path<u32>) -> Response {
    if n == 0 {
        Html("<html><body><p>end of the chain</p></body></html>").into_response()
    } else {
        Redirect::temporary(&format!("/chain/{}", n - 1)).into_response()
    }
}

fn app(extra_target: String) -> Router {
    Router::new()
        .route("/chain/{n}", get(chain))
        .route("/loop/a", get(|| async { Redirect::to("/loop/b") }))
        .route(
            "/loop/b",
            get(|| async { Redirect::permanent("/loop/a#again") }),
        )
        .route("/self", get(|| async { Redirect::to("/self") }))
        .route(
            "/away",
            get(move || async move { Redirect::to(&extra_target) }),
        )
        .route(
            "/to-ftp",
            get(|| async { Redirect::to("ftp://example.com/") }),
        )
        .route(
            "/to-creds",
            get(|| async { Redirect::to("http://u:p@example.com/") }),
        )
}

#[tokio::test]
async fn five_redirects_are_followed_and_the_final_url_reported() {
    let addr = serve(app(String::new())).await;
    let url = format!("http://127.0.0.1:{}/chain/5", addr.port());
    let page = fetcher()
        .fetch(&url, &FetchOptions::default())
        .await
        .unwrap();
    assert_eq!(
        page.url,
        format!("http://127.0.0.1:{}/chain/0", addr.port())
    );
    assert_eq!(page.requested_url, url);
    assert!(page.text.contains("end of the chain"));
}

#[tokio::test]
async fn a_chain_of_six_is_refused() {
    let addr = serve(app(String::new())).await;
    let url = format!("http://127.0.0.1:{}/chain/6", addr.port());
    let err = fetcher()
        .fetch(&url, &FetchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooManyRedirects, "{err}");
    assert!(err.message().contains("more than 5"), "{err}");
    assert!(err.suggestion().is_some());

    // The limit is a setting.
    let strict = builder().max_redirects(2).build().unwrap();
    let url = format!("http://127.0.0.1:{}/chain/3", addr.port());
    let err = strict
        .fetch(&url, &FetchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooManyRedirects);
}

#[tokio::test]
async fn loops_are_caught_and_named() {
    let addr = serve(app(String::new())).await;
    for path in ["/loop/a", "/self"] {
        let url = format!("http://127.0.0.1:{}{path}", addr.port());
        let err = fetcher()
            .fetch(&url, &FetchOptions::default())
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TooManyRedirects, "{path}: {err}");
        assert!(err.message().contains("loop"), "{path}: {err}");
    }
}

/// The allowed test server redirects to addresses that are not allowed: each
/// hop is checked again and nothing reaches the second server.
#[tokio::test]
async fn a_redirect_to_a_private_address_is_refused() {
    let victim = CountingServer::start().await;
    let vport = victim.addr.port();
    for target in [
        format!("http://localhost:{vport}/admin"),
        // (The IPv4-mapped form of 127.0.0.1 is 127.0.0.1 itself, which this
        // test's allow list lets through; the guard tests refuse it by default.)
        format!("http://[::1]:{vport}/admin"),
        format!("http://127.0.0.2:{vport}/admin"),
        format!("http://0x7f000002:{vport}/"),
        format!("http://2130706434:{vport}/"),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        "http://10.0.0.1/".to_owned(),
    ] {
        let addr = serve(app(target.clone())).await;
        let url = format!("http://127.0.0.1:{}/away", addr.port());
        let err = fetcher()
            .fetch(&url, &FetchOptions::default())
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BlockedUrl, "{target}: {err}");
        assert!(
            err.url().is_some_and(|u| !u.contains("/away")),
            "{target}: {:?}",
            err.url()
        );
    }
    assert_eq!(victim.count(), 0);
}

#[tokio::test]
async fn redirects_to_other_schemes_or_credentials_are_invalid() {
    let addr = serve(app(String::new())).await;
    for path in ["/to-ftp", "/to-creds"] {
        let url = format!("http://127.0.0.1:{}{path}", addr.port());
        let err = fetcher()
            .fetch(&url, &FetchOptions::default())
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidUrl, "{path}: {err}");
    }
}
