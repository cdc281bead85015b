//! The user's upstream proxy (issue 14): pages, robots.txt and provider
//! calls go through it; NO_PROXY hosts go direct; credentials reach the
//! proxy and nothing else; and the guard still refuses what it can see.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use farsight_net::{ErrorKind, FetchOptions, Fetcher, UpstreamProxy};

use crate::forward_proxy::ForwardProxy;
use crate::support::{Hits, local_hostname, serve};

/// A site with a robots.txt allowing everything, a page, and a redirect to
/// wherever `?to=` says; the page counts its downloads.
async fn site() -> (std::net::SocketAddr, Hits) {
    let hits = Hits::default();
    let h = hits.clone();
    let app = Router::new()
        .route("/robots.txt", get(|| async { "User-agent: *\nAllow: /\n" }))
        .route(
            "/page",
            get(move || {
                h.bump();
                async { axum::response::Html("<html><body><p>through the proxy</p></body></html>") }
            }),
        )
        .route(
            "/redirect",
            get(
                |axum::extract::Query(q): axum::extract::Query<BTreeMap<String, String>>| async move {
                    let to = q.get("to").cloned().unwrap_or_default();
                    (StatusCode::FOUND, [(header::LOCATION, to)]).into_response()
                },
            ),
        );
    (serve(app).await, hits)
}

/// A name this machine cannot resolve (RFC 6761) that the test proxy maps.
const PROXY_ONLY: &str = "only-the-proxy.invalid";

fn fetcher(proxy: UpstreamProxy) -> Fetcher {
    Fetcher::builder()
        .proxy(proxy)
        .timeout(Duration::from_secs(10))
        .connect_timeout(Duration::from_secs(5))
        .build()
        .unwrap()
}

#[tokio::test]
async fn pages_and_robots_txt_go_through_the_proxy() {
    let (addr, hits) = site().await;
    let name = format!("{PROXY_ONLY}:80");
    let proxy = ForwardProxy::start(&[(name.as_str(), addr)]).await;
    let f = fetcher(UpstreamProxy::all(&proxy.url(None)).unwrap());
    // The name has no local DNS answer: only the proxy knows it, so the
    // request goes to the proxy (a corporate network without outside DNS).
    let page = f
        .fetch(
            &format!("http://{PROXY_ONLY}/page"),
            &FetchOptions::default(),
        )
        .await
        .unwrap();
    assert!(page.text.contains("through the proxy"), "{}", page.text);
    assert_eq!(hits.get(), 1);
    let asked: Vec<String> = proxy.asked().into_iter().map(|a| a.target).collect();
    assert_eq!(
        asked,
        vec![
            format!("http://{PROXY_ONLY}/robots.txt"),
            format!("http://{PROXY_ONLY}/page"),
        ]
    );
    // A page fetched through the proxy is served from the cache again.
    let again = f
        .fetch(
            &format!("http://{PROXY_ONLY}/page"),
            &FetchOptions::default(),
        )
        .await
        .unwrap();
    assert!(again.from_cache);
}

#[tokio::test]
async fn credentials_reach_the_proxy_and_no_message() {
    let (addr, _) = site().await;
    let name = format!("{PROXY_ONLY}:80");
    let proxy = ForwardProxy::start(&[(name.as_str(), addr)]).await;
    let with_login = UpstreamProxy::all(&proxy.url(Some("alice:s3cret-pw"))).unwrap();
    let f = fetcher(with_login.clone());
    f.fetch(
        &format!("http://{PROXY_ONLY}/page"),
        &FetchOptions::default(),
    )
    .await
    .unwrap();
    let asked = proxy.asked();
    assert!(!asked.is_empty());
    for a in &asked {
        // base64("alice:s3cret-pw")
        assert_eq!(
            a.proxy_authorization.as_deref(),
            Some("Basic YWxpY2U6czNjcmV0LXB3"),
            "{a:?}"
        );
    }
    // A proxy that is down: the error names it, without the login.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let down = UpstreamProxy::all(&format!("http://alice:s3cret-pw@127.0.0.1:{port}")).unwrap();
    let err = fetcher(down)
        .fetch(
            &format!("http://{PROXY_ONLY}/page"),
            &FetchOptions::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Network, "{err:?}");
    let shown = format!("{err} {err:?} {:?} {:?}", err.suggestion(), err.url());
    assert!(
        !shown.contains("s3cret") && !shown.contains("alice"),
        "{shown}"
    );
    assert!(
        shown.contains("proxy") && shown.contains(&format!("127.0.0.1:{port}")),
        "{shown}"
    );
    let shown = format!("{with_login} {with_login:?} {f:?}");
    assert!(!shown.contains("s3cret"), "{shown}");
}

#[tokio::test]
async fn the_environment_is_read_from_a_map_and_no_proxy_goes_direct() {
    let (addr, hits) = site().await;
    let name = format!("{PROXY_ONLY}:80");
    let proxy = ForwardProxy::start(&[(name.as_str(), addr)]).await;
    let env: BTreeMap<String, String> = [
        ("http_proxy", proxy.url(None)),
        ("NO_PROXY", "localhost,127.0.0.1".to_owned()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let upstream = UpstreamProxy::from_settings(None, Some(&env))
        .unwrap()
        .unwrap();
    let f = Fetcher::builder()
        .proxy(upstream)
        .allow_hosts(vec!["127.0.0.1".into()])
        .build()
        .unwrap();
    // NO_PROXY: straight to the site, the proxy hears nothing.
    let page = f
        .fetch(
            &format!("http://127.0.0.1:{}/page", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap();
    assert!(page.text.contains("through the proxy"));
    assert_eq!(hits.get(), 1);
    assert!(proxy.asked().is_empty(), "{:?}", proxy.asked());
    // Any other host: through the proxy named by http_proxy.
    f.fetch(
        &format!("http://{PROXY_ONLY}/page"),
        &FetchOptions::default(),
    )
    .await
    .unwrap();
    assert_eq!(hits.get(), 2);
    assert_eq!(proxy.asked().len(), 2, "robots.txt and the page");
}

#[tokio::test]
async fn what_the_guard_can_see_is_refused_even_through_the_proxy() {
    let (addr, hits) = site().await;
    let name = format!("{PROXY_ONLY}:80");
    let proxy = ForwardProxy::start(&[(name.as_str(), addr)]).await;
    let f = fetcher(UpstreamProxy::all(&proxy.url(None)).unwrap());
    // Literal non-public addresses, as written.
    for url in [
        "http://10.0.0.1/",
        "http://[::1]:8080/",
        "http://169.254.169.254/latest",
    ] {
        let err = f.fetch(url, &FetchOptions::default()).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BlockedUrl, "{url}: {err}");
    }
    assert!(proxy.asked().is_empty(), "{:?}", proxy.asked());

    // A name that resolves here to a loopback address.
    let (hostname, resolved) = local_hostname().await;
    if resolved.is_empty() || !resolved.iter().all(|a| a.ip().is_loopback()) {
        eprintln!("skipped the name part: {hostname:?} does not resolve to loopback only here");
        return;
    }
    let err = f
        .fetch(
            &format!("http://{hostname}:{}/page", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BlockedUrl, "{err}");
    assert!(err.message().contains(&hostname), "{err}");
    assert!(proxy.asked().is_empty(), "{:?}", proxy.asked());

    // A redirect to it, from a page that is fine: the proxy sees the first
    // hop only.
    let start = format!(
        "http://{PROXY_ONLY}/redirect?to=http://{hostname}:{}/page",
        addr.port()
    );
    let err = f.fetch(&start, &FetchOptions::default()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BlockedUrl, "{err}");
    let asked: Vec<String> = proxy.asked().into_iter().map(|a| a.target).collect();
    assert!(
        asked.iter().all(|t| t.contains(PROXY_ONLY)),
        "the refused hop reached the proxy: {asked:?}"
    );
    assert_eq!(hits.get(), 0);
}

#[tokio::test]
async fn provider_calls_go_through_the_proxy() {
    let app = Router::new().route("/search", get(|| async { "{\"results\": []}" }));
    let addr = serve(app).await;
    let name = format!("{PROXY_ONLY}:80");
    let proxy = ForwardProxy::start(&[(name.as_str(), addr)]).await;
    let upstream = UpstreamProxy::all(&proxy.url(Some("bob:pw"))).unwrap();
    let client = farsight_net::api_client(
        "farsight-test",
        Duration::from_secs(5),
        Some(&upstream),
        &farsight_net::TlsTrust::default(),
    )
    .unwrap();
    let body = client
        .get(format!("http://{PROXY_ONLY}/search?q=tides"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(body, "{\"results\": []}");
    let asked = proxy.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(
        asked[0].target,
        format!("http://{PROXY_ONLY}/search?q=tides")
    );
    assert_eq!(
        asked[0].proxy_authorization.as_deref(),
        Some("Basic Ym9iOnB3")
    );
}
