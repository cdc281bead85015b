use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::routing::get;
use farsight_net::{ErrorKind, FetchOptions, Fetcher};

use crate::support::{fetcher, serve};

/// `/status/N` answers with status N; 429 and 503 add a `Retry-After`.
async fn status(Path(code): Path<u16>) -> (StatusCode, HeaderMap, &'static str) {
    let mut headers = HeaderMap::new();
    match code {
        429 => {
            headers.insert(header::RETRY_AFTER, HeaderValue::from_static("7"));
        }
        503 => {
            let at = httpdate::fmt_http_date(
                std::time::SystemTime::now() + std::time::Duration::from_secs(120),
            );
            headers.insert(header::RETRY_AFTER, HeaderValue::from_str(&at).unwrap());
        }
        _ => {}
    }
    (
        StatusCode::from_u16(code).unwrap(),
        headers,
        "<html><body>error page</body></html>",
    )
}

async fn base() -> String {
    let addr = serve(Router::new().route("/status/{code}", get(status))).await;
    format!("http://127.0.0.1:{}", addr.port())
}

#[tokio::test]
async fn http_statuses_follow_the_specification_table() {
    let base = base().await;
    let f = fetcher();
    let get = |code: u16| {
        let f = f.clone();
        let url = format!("{base}/status/{code}");
        async move { f.fetch(&url, &FetchOptions::default()).await.unwrap_err() }
    };

    let e = get(404).await;
    assert_eq!((e.kind(), e.status()), (ErrorKind::HttpStatus, Some(404)));
    assert!(e.suggestion().unwrap().contains("search"));
    assert!(!e.is_retryable());
    assert!(e.url().unwrap().ends_with("/status/404"));

    let e = get(403).await;
    assert!(e.message().contains("Access denied"), "{e}");
    assert!(!e.is_retryable());

    let e = get(401).await;
    assert!(e.message().contains("Authentication"), "{e}");

    let e = get(410).await;
    assert!(e.message().contains("gone"), "{e}");

    let e = get(429).await;
    assert!(e.is_retryable() && e.is_rate_limited());
    assert_eq!(e.retry_after_ms(), Some(7000));

    let e = get(503).await;
    assert_eq!(e.status(), Some(503));
    assert!(e.is_retryable());
    let ms = e.retry_after_ms().unwrap();
    assert!((100_000..=121_000).contains(&ms), "{ms}");

    for code in [500, 502, 504] {
        let e = get(code).await;
        assert!(e.is_retryable(), "{code}");
        assert_eq!(e.retry_after_ms(), None);
    }
    let e = get(418).await;
    assert_eq!(e.status(), Some(418));
    assert!(!e.is_retryable());
}

#[tokio::test]
async fn a_refused_connection_is_a_retryable_network_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let f = crate::support::builder()
        .respect_robots_txt(false)
        .build()
        .unwrap();
    let err = f
        .fetch(
            &format!("http://127.0.0.1:{port}/"),
            &FetchOptions::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Network, "{err}");
    assert!(err.is_retryable());
    assert!(err.suggestion().is_some());
}

#[test]
fn bad_settings_fail_the_build() {
    use std::time::Duration;
    assert_eq!(
        Fetcher::builder()
            .timeout(Duration::ZERO)
            .build()
            .unwrap_err()
            .kind(),
        ErrorKind::InvalidConfig
    );
    assert_eq!(
        Fetcher::builder().max_bytes(0).build().unwrap_err().kind(),
        ErrorKind::InvalidConfig
    );
    assert_eq!(
        Fetcher::builder()
            .user_agent("bad\nagent")
            .build()
            .unwrap_err()
            .kind(),
        ErrorKind::InvalidConfig
    );
}

/// Pages are asked for as Markdown first, HTML just below (issue 13);
/// robots.txt keeps the `Accept` it always had.
#[tokio::test]
async fn the_user_agent_and_accept_headers_are_sent() {
    let robots_accept: std::sync::Arc<std::sync::Mutex<Option<String>>> = Default::default();
    let seen = robots_accept.clone();
    let app = Router::new().route(
        "/robots.txt",
        get(move |headers: HeaderMap| async move {
            *seen.lock().unwrap() = headers
                .get(header::ACCEPT)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            (StatusCode::NOT_FOUND, "")
        }),
    );
    let app = app.route(
        "/",
        get(|headers: HeaderMap| async move {
            let h = |n: header::HeaderName| {
                headers
                    .get(n)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
                    .to_owned()
            };
            format!(
                "{}\n{}\n{}",
                h(header::USER_AGENT),
                h(header::ACCEPT),
                h(header::ACCEPT_ENCODING)
            )
        }),
    );
    let addr = serve(app).await;
    let page = fetcher()
        .fetch(
            &format!("http://127.0.0.1:{}/", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap();
    let lines: Vec<&str> = page.text.lines().collect();
    assert_eq!(lines[0], farsight_net::DEFAULT_USER_AGENT);
    assert!(lines[0].contains("farsight/"));
    assert_eq!(lines[1], farsight_net::PAGE_ACCEPT);
    assert!(lines[1].starts_with("text/markdown, text/html;q=0.9"));
    let robots = robots_accept
        .lock()
        .unwrap()
        .clone()
        .expect("robots.txt asked for");
    assert!(
        robots.starts_with("text/html,application/xhtml+xml"),
        "{robots}"
    );
    assert!(
        lines[2].contains("gzip") && lines[2].contains("br"),
        "{}",
        lines[2]
    );
}

/// Issue 10: a name that does not resolve says so in plain words, for the
/// page fetcher (robots.txt comes first and fails the same way) and for the
/// provider API client. RFC 6761 guarantees `.invalid` never resolves.
#[tokio::test]
async fn issue_10_a_name_without_dns_answer_is_said_plainly() {
    let e = fetcher()
        .fetch(
            "https://no-such-host.invalid/page",
            &FetchOptions::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Network, "{e:?}");
    assert_eq!(
        e.message(),
        "could not resolve no-such-host.invalid (no DNS answer)"
    );
    assert!(e.suggestion().unwrap_or("").contains("online"), "{e:?}");

    let client = farsight_net::api_client(
        "farsight-test",
        std::time::Duration::from_secs(10),
        None,
        &farsight_net::TlsTrust::default(),
    )
    .unwrap();
    let err = client
        .get("https://api.no-such-host.invalid/search")
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        farsight_net::unresolved_host(&err),
        Some("api.no-such-host.invalid")
    );
}
