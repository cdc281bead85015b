//! Corporate TLS (issue 14): a CA that is in no trust store is trusted once
//! `ca_file` names it, directly and through a proxy's CONNECT tunnel.

use std::time::Duration;

use farsight_net::{ErrorKind, FetchOptions, Fetcher, TlsTrust, UpstreamProxy};

use crate::forward_proxy::ForwardProxy;
use crate::tls_server::TlsServer;

const PAGE: &str = "<html><body><p>behind the company CA</p></body></html>";

fn write_ca(server: &TlsServer) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("company-ca.pem");
    std::fs::write(&path, &server.ca_pem).unwrap();
    (dir, path)
}

#[tokio::test]
async fn ca_file_makes_a_private_ca_trusted() {
    let server = TlsServer::start(&["127.0.0.1"], PAGE);
    let url = format!("https://127.0.0.1:{}/", server.addr.port());
    let builder = || {
        Fetcher::builder()
            .allow_hosts(vec!["127.0.0.1".into()])
            .respect_robots_txt(false)
            .timeout(Duration::from_secs(10))
    };
    let err = builder()
        .build()
        .unwrap()
        .fetch(&url, &FetchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Network, "{err:?}");
    assert!(
        err.message().to_ascii_lowercase().contains("certificate"),
        "{err}"
    );

    let (_dir, path) = write_ca(&server);
    let trust = TlsTrust::load(Some(&path)).unwrap();
    let page = builder()
        .tls_trust(trust)
        .build()
        .unwrap()
        .fetch(&url, &FetchOptions::default())
        .await
        .unwrap();
    assert!(page.text.contains("behind the company CA"), "{}", page.text);
}

#[tokio::test]
async fn https_goes_through_the_proxy_in_a_connect_tunnel() {
    let server = TlsServer::start(&["secure.invalid"], PAGE);
    let proxy = ForwardProxy::start(&[("secure.invalid:443", server.addr)]).await;
    let (_dir, path) = write_ca(&server);
    let fetcher = Fetcher::builder()
        .proxy(UpstreamProxy::all(&proxy.url(Some("carol:tunnel-pw"))).unwrap())
        .tls_trust(TlsTrust::load(Some(&path)).unwrap())
        .respect_robots_txt(false)
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let page = fetcher
        .fetch("https://secure.invalid/", &FetchOptions::default())
        .await
        .unwrap();
    assert!(page.text.contains("behind the company CA"));
    let asked = proxy.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0].method, "CONNECT");
    assert_eq!(asked[0].target, "secure.invalid:443");
    // base64("carol:tunnel-pw")
    assert_eq!(
        asked[0].proxy_authorization.as_deref(),
        Some("Basic Y2Fyb2w6dHVubmVsLXB3")
    );
}
