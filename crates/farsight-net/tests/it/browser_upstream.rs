//! The browser's egress through the user's upstream proxy (issue 14): its
//! tunnels and plain-HTTP requests take the fetcher's way for each target
//! (the upstream, with its login, or direct for NO_PROXY hosts), and what
//! the guard can see is refused before the upstream hears of it.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::Router;
use base64::Engine as _;
use farsight_net::{BrowserProxy, Fetcher, ProxyCredentials, ProxyLimits, UpstreamProxy};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::forward_proxy::{ForwardProxy, read_head};
use crate::socks_proxy::SocksProxy;
use crate::support::local_hostname;

/// A name this machine cannot resolve (RFC 6761) that the test proxy maps.
const PROXY_ONLY: &str = "only-the-proxy.invalid";

/// base64("alice:s3cret-pw")
const ALICE: &str = "Basic YWxpY2U6czNjcmV0LXB3";

/// A page server on 127.0.0.2, let through by `allow_hosts`.
async fn page_server() -> std::net::SocketAddr {
    let app = Router::new().route(
        "/page",
        axum::routing::get(|| async { axum::response::Html("<p>hello via the upstream</p>") }),
    );
    let listener = TcpListener::bind("127.0.0.2:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    addr
}

async fn egress(upstream: UpstreamProxy) -> BrowserProxy {
    Fetcher::builder()
        .proxy(upstream)
        .allow_hosts(vec!["127.0.0.2".into()])
        .connect_timeout(Duration::from_secs(5))
        .build()
        .unwrap()
        .browser_proxy(ProxyLimits::default(), ProxyCredentials::random().unwrap())
        .await
        .unwrap()
}

/// The browser's side: a client of the egress (plain HTTP only).
fn browser(proxy: &BrowserProxy) -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let c = proxy.credentials();
    reqwest::Client::builder()
        .proxy(
            reqwest::Proxy::all(proxy.server())
                .unwrap()
                .basic_auth(c.username(), c.password()),
        )
        .build()
        .unwrap()
}

/// `CONNECT target` with the egress's credentials and `extra` header lines.
fn connect_request(proxy: &BrowserProxy, target: &str, extra: &str) -> String {
    let c = proxy.credentials();
    let token = base64::engine::general_purpose::STANDARD.encode(format!(
        "{}:{}",
        c.username(),
        c.password()
    ));
    format!(
        "CONNECT {target} HTTP/1.1\r\nHost: {target}\r\nProxy-Authorization: Basic {token}\r\n{extra}\r\n"
    )
}

/// `CONNECT target` to the egress; the answer's head and the open socket.
async fn connect(proxy: &BrowserProxy, target: &str) -> (String, TcpStream) {
    let mut sock = TcpStream::connect(proxy.addr()).await.unwrap();
    let req = connect_request(proxy, target, "");
    sock.write_all(req.as_bytes()).await.unwrap();
    let head = read_head(&mut sock).await.unwrap();
    (String::from_utf8_lossy(&head).into_owned(), sock)
}

/// A `CONNECT` the egress answers with an error: the whole answer (the
/// egress closes the connection, as asked).
async fn refused_connect(proxy: &BrowserProxy, target: &str) -> String {
    let mut sock = TcpStream::connect(proxy.addr()).await.unwrap();
    let req = connect_request(proxy, target, "Connection: close\r\n");
    sock.write_all(req.as_bytes()).await.unwrap();
    let mut answer = String::new();
    let _ = sock.read_to_string(&mut answer).await;
    answer
}

/// Speaks HTTP through an open tunnel and returns all it answers.
async fn get_through(mut sock: TcpStream) -> String {
    sock.write_all(b"GET /page HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = String::new();
    let _ = sock.read_to_string(&mut answer).await;
    answer
}

#[tokio::test]
async fn tunnels_and_plain_requests_go_through_the_upstream_with_its_login() {
    let site = page_server().await;
    let mapped = format!("{PROXY_ONLY}:443");
    let upstream = ForwardProxy::start(&[(mapped.as_str(), site)]).await;
    let proxy = egress(UpstreamProxy::all(&upstream.url(Some("alice:s3cret-pw"))).unwrap()).await;

    // Plain HTTP: the upstream gets the absolute-form request.
    let body = browser(&proxy)
        .get(format!("http://{site}/page"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(body.contains("hello via the upstream"), "{body}");
    // A tunnel to an allowed address.
    let (head, sock) = connect(&proxy, &site.to_string()).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let answer = get_through(sock).await;
    assert!(answer.contains("hello via the upstream"), "{answer}");
    // A tunnel to a name only the upstream resolves (a corporate network).
    let (head, sock) = connect(&proxy, &mapped).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let answer = get_through(sock).await;
    assert!(answer.contains("hello via the upstream"), "{answer}");

    let asked = upstream.asked();
    let seen: Vec<(String, String)> = asked
        .iter()
        .map(|a| (a.method.clone(), a.target.clone()))
        .collect();
    assert_eq!(
        seen,
        vec![
            ("GET".to_owned(), format!("http://{site}/page")),
            ("CONNECT".to_owned(), site.to_string()),
            ("CONNECT".to_owned(), mapped.clone()),
        ]
    );
    for a in &asked {
        assert_eq!(a.proxy_authorization.as_deref(), Some(ALICE), "{a:?}");
    }
    assert_eq!(proxy.stats().refused, 0);

    // The upstream cannot reach the target: a 502 that names the proxy and
    // never its login.
    let shown = refused_connect(&proxy, "nowhere.invalid:443").await;
    assert!(shown.starts_with("HTTP/1.1 502"), "{shown}");
    assert!(shown.contains("through the proxy"), "{shown}");
    assert!(
        !shown.contains("s3cret") && !shown.contains("alice"),
        "{shown}"
    );
}

#[tokio::test]
async fn what_resolves_here_to_a_refused_address_never_reaches_the_upstream() {
    let upstream = ForwardProxy::start(&[]).await;
    let proxy = egress(UpstreamProxy::all(&upstream.url(None)).unwrap()).await;
    let (head, _) = connect(&proxy, "10.1.2.3:443").await;
    assert!(head.starts_with("HTTP/1.1 403"), "{head}");
    let resp = browser(&proxy)
        .get("http://169.254.169.254/latest/meta-data/")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 403);

    let (hostname, resolved) = local_hostname().await;
    let check = Fetcher::builder().build().unwrap();
    let inward = !resolved.is_empty()
        && resolved
            .iter()
            .all(|a| check.check_url(&format!("http://{}/", a.ip())).is_err());
    if inward {
        // Past the URL policy (a plain name): refused by the addresses it
        // resolves to here, as the fetcher refuses proxied requests.
        let (head, _) = connect(&proxy, &format!("{hostname}:443")).await;
        assert!(head.starts_with("HTTP/1.1 403"), "{hostname}: {head}");
        let resp = browser(&proxy)
            .get(format!("http://{hostname}/page"))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 403, "{hostname}");
        let by_dns = proxy
            .refusals()
            .iter()
            .filter(|r| r.host == hostname && r.message.contains("resolves to"))
            .count();
        assert_eq!(by_dns, 2, "{:?}", proxy.refusals());
    } else {
        eprintln!("skipped the name part: {hostname:?} does not resolve inward here");
    }
    assert!(upstream.asked().is_empty(), "{:?}", upstream.asked());
}

#[tokio::test]
async fn no_proxy_hosts_go_direct() {
    let site = page_server().await;
    let upstream = ForwardProxy::start(&[]).await;
    let env: BTreeMap<String, String> = [
        ("https_proxy", upstream.url(None)),
        ("http_proxy", upstream.url(None)),
        ("NO_PROXY", "127.0.0.2".to_owned()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let proxy = egress(
        UpstreamProxy::from_settings(None, Some(&env))
            .unwrap()
            .unwrap(),
    )
    .await;
    let body = browser(&proxy)
        .get(format!("http://{site}/page"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(body.contains("hello via the upstream"), "{body}");
    let (head, sock) = connect(&proxy, &site.to_string()).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(get_through(sock).await.contains("hello via the upstream"));
    assert!(upstream.asked().is_empty(), "{:?}", upstream.asked());
}

#[tokio::test]
async fn socks5_tunnels_carry_the_login_and_resolve_where_the_scheme_says() {
    let site = page_server().await;
    let mapped = format!("{PROXY_ONLY}:443");
    let socks = SocksProxy::start(&[(mapped.as_str(), site)]).await;

    // socks5h: the proxy resolves the name.
    let url = socks.url("socks5h", Some("alice:s3cret-pw"));
    let proxy = egress(UpstreamProxy::all(&url).unwrap()).await;
    let (head, sock) = connect(&proxy, &mapped).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(get_through(sock).await.contains("hello via the upstream"));

    // socks5: names are resolved here, so one without a local answer is
    // not handed to the proxy; an address is.
    let proxy = egress(UpstreamProxy::all(&socks.url("socks5", None)).unwrap()).await;
    let shown = refused_connect(&proxy, &mapped).await;
    assert!(shown.starts_with("HTTP/1.1 502"), "{shown}");
    assert!(shown.contains("socks5h://"), "{shown}");
    let (head, sock) = connect(&proxy, &site.to_string()).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(get_through(sock).await.contains("hello via the upstream"));

    let asked: Vec<(String, Option<String>)> = socks
        .asked()
        .into_iter()
        .map(|a| (a.target, a.login))
        .collect();
    assert_eq!(
        asked,
        vec![
            (mapped.clone(), Some("alice:s3cret-pw".to_owned())),
            (site.to_string(), None),
        ]
    );
}
