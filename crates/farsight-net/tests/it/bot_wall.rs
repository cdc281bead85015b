//! Bot walls (issue 14): a challenge page is an error of its own kind,
//! never a page.

use axum::Router;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use farsight_net::{ErrorKind, FetchOptions};

use crate::support::{fetcher, serve};

const CHALLENGE: &str = r#"<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head>
<body><noscript>Enable JavaScript and cookies to continue</noscript>
<script>window._cf_chl_opt={cvId: '3',cType: 'managed'};</script></body></html>"#;

#[tokio::test]
async fn a_cloudflare_challenge_is_named_not_extracted() {
    let app = Router::new()
        .route(
            "/503",
            get(|| async { (StatusCode::SERVICE_UNAVAILABLE, Html(CHALLENGE)).into_response() }),
        )
        .route(
            "/header",
            get(|| async {
                (
                    StatusCode::FORBIDDEN,
                    [("cf-mitigated", "challenge")],
                    Html(""),
                )
                    .into_response()
            }),
        )
        .route("/200", get(|| async { Html(CHALLENGE) }))
        .route(
            "/plain403",
            get(|| async {
                (StatusCode::FORBIDDEN, Html("<h1>403 Forbidden</h1>")).into_response()
            }),
        );
    let addr = serve(app).await;
    let f = fetcher();
    for (path, status) in [("/503", 503), ("/header", 403), ("/200", 200)] {
        let url = format!("http://127.0.0.1:{}{path}", addr.port());
        let err = f.fetch(&url, &FetchOptions::default()).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BotChallenge, "{path}: {err:?}");
        assert_eq!(err.kind().as_str(), "botChallenge");
        assert_eq!(err.status(), Some(status));
        assert!(err.message().contains("Cloudflare"), "{err}");
        assert!(!err.is_retryable());
    }
    let url = format!("http://127.0.0.1:{}/plain403", addr.port());
    let err = f.fetch(&url, &FetchOptions::default()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::HttpStatus, "{err:?}");
}

/// A wall in front of the whole site answers robots.txt too: the fetch says
/// so, rather than that robots.txt disallows everything.
#[tokio::test]
async fn a_wall_on_robots_txt_is_named_not_a_disallow() {
    let challenge = || async { (StatusCode::SERVICE_UNAVAILABLE, Html(CHALLENGE)).into_response() };
    let app = Router::new()
        .route("/robots.txt", get(challenge))
        .route("/page", get(challenge));
    let addr = serve(app).await;
    let url = format!("http://127.0.0.1:{}/page", addr.port());
    let err = fetcher()
        .fetch(&url, &FetchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BotChallenge, "{err:?}");
    assert_eq!(err.status(), Some(503));
}
