use axum::Router;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect};
use axum::routing::get;
use farsight_net::{ErrorKind, FetchOptions};

use crate::support::{Hits, builder, fetcher, serve};

/// A site whose robots.txt answer is `robots` (status, body), counting how
/// often robots.txt is asked for.
async fn site(status: StatusCode, robots: &'static str) -> (String, Hits) {
    let hits = Hits::default();
    let h = hits.clone();
    let app = Router::new()
        .route(
            "/robots.txt",
            get(move || {
                h.bump();
                async move { (status, robots) }
            }),
        )
        .route(
            "/robots-moved.txt",
            get(|| async { Redirect::permanent("/real-robots.txt") }),
        )
        .route(
            "/real-robots.txt",
            get(|| async { "User-agent: *\nDisallow: /secret\n" }),
        )
        .route(
            "/go-private",
            get(|| async { Redirect::to("/private/page") }),
        )
        .fallback(|| async { Html("<html><body><p>content</p></body></html>").into_response() });
    let addr = serve(app).await;
    (format!("http://127.0.0.1:{}", addr.port()), hits)
}

const RULES: &str =
    "User-agent: *\nDisallow: /\n\nUser-agent: farsight\nAllow: /\nDisallow: /private\n";

#[tokio::test]
async fn the_farsight_group_applies_and_is_fetched_once_per_origin() {
    let (base, hits) = site(StatusCode::OK, RULES).await;
    let f = fetcher();
    let opts = FetchOptions { bypass_cache: true };
    f.fetch(&format!("{base}/public"), &opts).await.unwrap();
    f.fetch(&format!("{base}/other"), &opts).await.unwrap();
    let err = f
        .fetch(&format!("{base}/private/x"), &opts)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RobotsDisallowed, "{err}");
    assert!(err.suggestion().is_some());
    assert!(!err.is_retryable());
    assert_eq!(hits.get(), 1, "robots.txt must be fetched once per origin");
}

#[tokio::test]
async fn a_redirect_into_a_disallowed_path_is_refused() {
    let (base, _) = site(StatusCode::OK, RULES).await;
    let err = fetcher()
        .fetch(&format!("{base}/go-private"), &FetchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RobotsDisallowed, "{err}");
}

#[tokio::test]
async fn disallow_all_for_star_applies_to_farsight() {
    let (base, _) = site(StatusCode::OK, "User-agent: *\nDisallow: /\n").await;
    let err = fetcher()
        .fetch(&format!("{base}/page"), &FetchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RobotsDisallowed);

    // ... unless robots.txt is switched off.
    let ignoring = builder().respect_robots_txt(false).build().unwrap();
    ignoring
        .fetch(&format!("{base}/page"), &FetchOptions::default())
        .await
        .unwrap();
}

#[tokio::test]
async fn a_4xx_robots_txt_allows_everything() {
    for status in [
        StatusCode::NOT_FOUND,
        StatusCode::FORBIDDEN,
        StatusCode::GONE,
    ] {
        let (base, _) = site(status, "User-agent: *\nDisallow: /\n").await;
        let page = fetcher()
            .fetch(&format!("{base}/page"), &FetchOptions::default())
            .await;
        assert!(page.is_ok(), "{status}: {:?}", page.err());
    }
}

#[tokio::test]
async fn a_5xx_robots_txt_disallows_everything() {
    for status in [
        StatusCode::INTERNAL_SERVER_ERROR,
        StatusCode::SERVICE_UNAVAILABLE,
    ] {
        let (base, _) = site(status, "").await;
        let err = fetcher()
            .fetch(&format!("{base}/page"), &FetchOptions::default())
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::RobotsDisallowed, "{status}: {err}");
        assert!(err.message().contains("could not be read"), "{err}");
    }
}

#[tokio::test]
async fn robots_txt_redirects_are_followed() {
    let hits = Hits::default();
    let app = Router::new()
        .route(
            "/robots.txt",
            get(|| async { Redirect::permanent("/robots-moved.txt") }),
        )
        .route(
            "/robots-moved.txt",
            get(|| async { Redirect::permanent("/real-robots.txt") }),
        )
        .route(
            "/real-robots.txt",
            get(|| async { "User-agent: farsight\nDisallow: /secret\n" }),
        )
        .fallback(move || {
            hits.bump();
            async { Html("<p>ok</p>") }
        });
    let addr = serve(app).await;
    let base = format!("http://127.0.0.1:{}", addr.port());
    let f = fetcher();
    let err = f
        .fetch(&format!("{base}/secret/x"), &FetchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RobotsDisallowed);
    f.fetch(&format!("{base}/open"), &FetchOptions::default())
        .await
        .unwrap();
}

/// RFC 9309 says an unreachable robots.txt disallows; when the whole site is
/// unreachable the page cannot be fetched either, and the network error is
/// what the agent can act on (it is retryable).
#[tokio::test]
async fn an_unreachable_site_is_a_network_error() {
    // A port with nothing listening: neither robots.txt nor the page can be fetched.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let err = fetcher()
        .fetch(
            &format!("http://127.0.0.1:{port}/page"),
            &FetchOptions::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Network, "{err}");
    assert!(err.is_retryable());
}

/// The robots.txt fetch goes through the same guard: a robots.txt that
/// redirects into a private network is not followed, and the site counts as
/// disallowed.
#[tokio::test]
async fn a_robots_txt_redirect_into_a_private_network_is_not_followed() {
    let app = Router::new()
        .route(
            "/robots.txt",
            get(|| async { Redirect::temporary("http://10.0.0.1/robots.txt") }),
        )
        .fallback(|| async { Html("<p>ok</p>") });
    let addr = serve(app).await;
    let err = fetcher()
        .fetch(
            &format!("http://127.0.0.1:{}/page", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RobotsDisallowed, "{err}");
    assert!(err.message().contains("refused"), "{err}");
}

/// Concurrent fetches from one origin share one robots.txt download.
#[tokio::test]
async fn concurrent_fetches_share_one_robots_download() {
    let (base, hits) = site(StatusCode::OK, RULES).await;
    let f = fetcher();
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let f = f.clone();
            let url = format!("{base}/page/{i}");
            tokio::spawn(async move { f.fetch(&url, &FetchOptions::default()).await })
        })
        .collect();
    for t in tasks {
        assert!(t.await.unwrap().is_ok());
    }
    assert_eq!(hits.get(), 1);
}

/// Only the first 500 KiB of robots.txt are read (RFC 9309 §2.5): a rule
/// beyond that is not seen.
#[tokio::test]
async fn robots_txt_is_read_up_to_500_kib() {
    let mut big = String::from("User-agent: farsight\nDisallow: /early\n");
    while big.len() < 600 * 1024 {
        big.push_str("# padding padding padding padding padding padding padding\n");
    }
    big.push_str("Disallow: /late\n");
    let big: &'static str = Box::leak(big.into_boxed_str());
    let (base, _) = site(StatusCode::OK, big).await;
    let f = fetcher();
    let err = f
        .fetch(&format!("{base}/early"), &FetchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RobotsDisallowed);
    f.fetch(&format!("{base}/late"), &FetchOptions::default())
        .await
        .unwrap();
}
