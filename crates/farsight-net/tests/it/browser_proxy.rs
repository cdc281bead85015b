//! The browser's egress proxy: reachable only with its credentials, every
//! target through the fetcher's guard (and a refused target never sees a
//! connection), bounded in bytes.

use std::time::Duration;

use axum::Router;
use base64::Engine as _;
use farsight_net::{BrowserProxy, Fetcher, ProxyCredentials, ProxyLimits, REFUSED_HEADER};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::support::{CountingServer, local_hostname, read_head};

/// A page server on 127.0.0.2: public-looking to the test, since only
/// `allow_hosts = ["127.0.0.2"]` lets it through.
async fn page_server() -> u16 {
    let big = "x".repeat(2 * 1024 * 1024);
    let app = Router::new()
        .route(
            "/page",
            axum::routing::get(|| async {
                axum::response::Html("<p>hello through the egress</p>")
            }),
        )
        .route("/big", axum::routing::get(move || async move { big }));
    let listener = TcpListener::bind("127.0.0.2:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    port
}

fn fetcher() -> Fetcher {
    Fetcher::builder()
        .allow_hosts(vec!["127.0.0.2".into()])
        .connect_timeout(Duration::from_secs(5))
        .build()
        .unwrap()
}

async fn proxy(limits: ProxyLimits) -> BrowserProxy {
    fetcher()
        .browser_proxy(limits, ProxyCredentials::random().unwrap())
        .await
        .unwrap()
}

/// A client of the proxy; plain HTTP only, but reqwest wants a TLS provider.
fn builder() -> reqwest::ClientBuilder {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
}

fn client(proxy: &BrowserProxy) -> reqwest::Client {
    let c = proxy.credentials();
    builder()
        .proxy(
            reqwest::Proxy::all(proxy.server())
                .unwrap()
                .basic_auth(c.username(), c.password()),
        )
        .build()
        .unwrap()
}

fn basic(c: &ProxyCredentials) -> String {
    let token = base64::engine::general_purpose::STANDARD.encode(format!(
        "{}:{}",
        c.username(),
        c.password()
    ));
    format!("Basic {token}")
}

/// Sends `CONNECT target` with `auth` and returns the status line and the
/// open socket.
async fn connect(proxy: &BrowserProxy, target: &str, auth: Option<&str>) -> (String, TcpStream) {
    let mut sock = TcpStream::connect(proxy.addr()).await.unwrap();
    let auth = auth.map_or(String::new(), |a| format!("Proxy-Authorization: {a}\r\n"));
    let req = format!("CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n{auth}\r\n");
    sock.write_all(req.as_bytes()).await.unwrap();
    let head = read_head(&mut sock).await.unwrap();
    let head = String::from_utf8_lossy(&head).to_string();
    (head.lines().next().unwrap_or("").to_owned(), sock)
}

#[tokio::test]
async fn an_allowed_host_is_served_over_http_and_connect() {
    let port = page_server().await;
    let proxy = proxy(ProxyLimits::default()).await;

    let body = client(&proxy)
        .get(format!("http://127.0.0.2:{port}/page"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(body.contains("hello through the egress"), "{body}");

    let auth = basic(proxy.credentials());
    let (status, mut sock) = connect(&proxy, &format!("127.0.0.2:{port}"), Some(&auth)).await;
    assert!(status.contains(" 200"), "{status}");
    sock.write_all(b"GET /page HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = String::new();
    sock.read_to_string(&mut answer).await.unwrap();
    assert!(answer.contains("hello through the egress"), "{answer}");

    let stats = proxy.stats();
    assert!(stats.bytes > 0 && stats.connections >= 2, "{stats:?}");
    assert_eq!(stats.refused, 0);
}

#[tokio::test]
async fn refused_targets_never_see_a_connection() {
    let server = CountingServer::start().await;
    let port = server.addr.port();
    let proxy = proxy(ProxyLimits::default()).await;
    let client = client(&proxy);
    for url in [
        format!("http://127.0.0.1:{port}/"),
        format!("http://localhost:{port}/"),
        format!("http://2130706433:{port}/"),
        format!("http://[::ffff:127.0.0.1]:{port}/"),
        "http://10.0.0.1/".to_owned(),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
    ] {
        let resp = client.get(&url).send().await.unwrap();
        assert_eq!(resp.status(), 403, "{url}");
        assert!(resp.headers().contains_key(REFUSED_HEADER), "{url}");
    }
    let auth = basic(proxy.credentials());
    for target in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        "10.1.2.3:443".to_owned(),
        // A public-looking address, but a port that is not a web port:
        // refused before any connection (nothing here reaches the internet).
        "93.184.215.14:25".to_owned(),
    ] {
        let (status, _) = connect(&proxy, &target, Some(&auth)).await;
        assert!(status.contains(" 403"), "{target}: {status}");
    }
    // A name that DNS (here /etc/hosts) maps inward is refused by address.
    let (hostname, resolved) = local_hostname().await;
    let inward = resolved.iter().any(|a| {
        farsight_net::Fetcher::builder()
            .build()
            .unwrap()
            .check_url(&format!("http://{}/", a.ip()))
            .is_err()
    });
    if !hostname.is_empty() && inward {
        // Port 443: past the port rule, refused by the address it resolves to.
        let (status, _) = connect(&proxy, &format!("{hostname}:443"), Some(&auth)).await;
        assert!(status.contains(" 403"), "{hostname}: {status}");
        let resp = client
            .get(format!("http://{hostname}:{port}/"))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 403, "{hostname}");
        let refusals = proxy.refusals();
        let by_dns = refusals
            .iter()
            .filter(|r| r.host == hostname && r.message.contains("resolves to"))
            .count();
        assert_eq!(by_dns, 2, "{refusals:?}");
    } else {
        eprintln!("skipped the DNS case: the host name {hostname:?} does not resolve inward here");
    }
    assert_eq!(server.count(), 0, "a refused target was connected to");
    let stats = proxy.stats();
    assert!(stats.refused >= 11, "{stats:?}");
    // Refusals name hosts, never URLs with their paths or queries.
    assert!(proxy.refusals().iter().all(|r| !r.host.contains('/')));
}

#[tokio::test]
async fn missing_or_wrong_credentials_get_407() {
    let port = page_server().await;
    let proxy = proxy(ProxyLimits::default()).await;
    let anonymous = builder()
        .proxy(reqwest::Proxy::all(proxy.server()).unwrap())
        .build()
        .unwrap();
    let resp = anonymous
        .get(format!("http://127.0.0.2:{port}/page"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 407);
    assert!(
        resp.headers()
            .get("proxy-authenticate")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("Basic")),
        "{:?}",
        resp.headers()
    );
    let other = ProxyCredentials::random().unwrap();
    let (status, _) = connect(&proxy, &format!("127.0.0.2:{port}"), Some(&basic(&other))).await;
    assert!(status.contains(" 407"), "{status}");
    let (status, _) = connect(&proxy, &format!("127.0.0.2:{port}"), None).await;
    assert!(status.contains(" 407"), "{status}");
    assert_eq!(proxy.stats().unauthenticated, 3);
    assert_eq!(proxy.stats().refused, 0);
}

#[tokio::test]
async fn the_byte_cap_stops_a_large_body() {
    let port = page_server().await;
    let limits = ProxyLimits {
        max_bytes: 64 * 1024,
        ..ProxyLimits::default()
    };
    let proxy = proxy(limits).await;
    let got = client(&proxy)
        .get(format!("http://127.0.0.2:{port}/big"))
        .send()
        .await
        .unwrap()
        .bytes()
        .await;
    // The body is cut: the read fails or comes back short.
    assert!(
        got.as_ref().map_or(true, |b| b.len() < 2 * 1024 * 1024),
        "{got:?}"
    );
    assert!(proxy.stats().over_budget);

    // Through a tunnel too: the counted bytes stop the copy.
    let proxy = self::proxy(limits).await;
    let auth = basic(proxy.credentials());
    let (status, mut sock) = connect(&proxy, &format!("127.0.0.2:{port}"), Some(&auth)).await;
    assert!(status.contains(" 200"), "{status}");
    sock.write_all(b"GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let _ = sock.read_to_end(&mut answer).await;
    assert!(answer.len() < 2 * 1024 * 1024, "{}", answer.len());
    assert!(proxy.stats().over_budget);
}
