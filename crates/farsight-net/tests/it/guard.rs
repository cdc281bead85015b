use farsight_net::{ErrorKind, FetchOptions, Fetcher, PageKind};

use crate::support::{CountingServer, builder, local_hostname};

/// Every notation of a non-public address is refused before any connection:
/// the server counts the connections it accepts, and sees none.
#[tokio::test]
async fn every_local_literal_form_is_refused_with_nothing_sent() {
    let server = CountingServer::start().await;
    let port = server.addr.port();
    let fetcher = Fetcher::builder()
        .respect_robots_txt(false)
        .build()
        .unwrap();
    let hosts = [
        "127.1",
        "0177.0.0.1",
        "0x7f000001",
        "2130706433",
        "127.0.0.1",
        "[::1]",
        "[::ffff:127.0.0.1]",
        "[::ffff:7f00:1]",
        "0.0.0.0",
        "169.254.169.254",
        "100.64.0.1",
        "[fd00::1]",
        "10.0.0.1",
        "172.16.0.1",
        "192.168.0.1",
        "[fe80::1]",
        "[2002:7f00:1::1]",
        "[64:ff9b::7f00:1]",
        "localhost",
        "localhost.",
        "LocalHost",
        "app.localhost",
    ];
    for host in hosts {
        let url = format!("http://{host}:{port}/");
        let err = fetcher
            .fetch(&url, &FetchOptions::default())
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BlockedUrl, "{url}: {err}");
        assert!(err.is_blocked());
        assert!(err.suggestion().unwrap().contains("allow_hosts"), "{url}");
    }
    assert_eq!(server.count(), 0, "a refused URL reached the server");

    // The control: the same server, explicitly allowed, is reached once.
    let allowed = builder().respect_robots_txt(false).build().unwrap();
    let page = allowed
        .fetch(
            &format!("http://127.0.0.1:{port}/"),
            &FetchOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(page.kind, PageKind::Html);
    assert!(page.text.contains("counted"));
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn allow_private_networks_lets_local_addresses_through() {
    let server = CountingServer::start().await;
    let fetcher = Fetcher::builder()
        .allow_private_networks(true)
        .respect_robots_txt(false)
        .build()
        .unwrap();
    let url = format!("http://localhost:{}/", server.addr.port());
    let page = fetcher.fetch(&url, &FetchOptions::default()).await.unwrap();
    assert!(page.text.contains("counted"));
}

/// A name that DNS resolves to a local address is refused by the resolver,
/// through reqwest's error chain, before a connection; allowing the name lets
/// the connection go to the checked address.
#[tokio::test]
async fn a_name_resolving_to_a_local_address_is_refused_by_the_resolver() {
    let (hostname, resolved) = local_hostname().await;
    if hostname.is_empty()
        || hostname == "localhost"
        || !resolved
            .iter()
            .any(|a| a.ip() == std::net::Ipv4Addr::LOCALHOST)
    {
        eprintln!("skipped: the host name {hostname:?} does not resolve to 127.0.0.1 here");
        return;
    }
    let server = CountingServer::start().await;
    let url = format!("http://{hostname}:{}/", server.addr.port());
    let fetcher = Fetcher::builder()
        .respect_robots_txt(false)
        .build()
        .unwrap();
    let err = fetcher
        .fetch(&url, &FetchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BlockedUrl, "{err}");
    assert!(err.message().contains("resolves to"), "{err}");
    assert_eq!(server.count(), 0);

    let allowed = Fetcher::builder()
        .allow_hosts(vec![hostname.clone()])
        .respect_robots_txt(false)
        .build()
        .unwrap();
    let page = allowed.fetch(&url, &FetchOptions::default()).await.unwrap();
    assert!(page.text.contains("counted"));
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn schemes_credentials_and_blocked_domains_are_refused_before_dns() {
    let fetcher = Fetcher::builder()
        .blocked_domains(vec!["blocked.test".into()])
        .build()
        .unwrap();
    for (url, kind) in [
        ("ftp://example.com/file", ErrorKind::InvalidUrl),
        ("file:///etc/passwd", ErrorKind::InvalidUrl),
        ("https://user:secret@example.com/", ErrorKind::InvalidUrl),
        ("example.com/no-scheme", ErrorKind::InvalidUrl),
        ("https://blocked.test/", ErrorKind::BlockedUrl),
        ("https://www.Blocked.Test./page", ErrorKind::BlockedUrl),
    ] {
        let err = fetcher
            .fetch(url, &FetchOptions::default())
            .await
            .unwrap_err();
        assert_eq!(err.kind(), kind, "{url}");
        assert!(err.suggestion().is_some(), "{url}");
        assert!(!format!("{err} {err:?}").contains("secret"), "{url}");
    }
}

#[test]
fn bad_allow_hosts_entries_fail_the_build() {
    for bad in ["10.0.0.0/33", "999.1.1.1", "fd00::/129"] {
        let err = Fetcher::builder()
            .allow_hosts(vec![bad.into()])
            .build()
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidConfig, "{bad}");
    }
}

/// The same proof for IPv6 loopback, when this machine has it: a server on
/// [::1] sees no connection.
#[tokio::test]
async fn ipv6_loopback_is_refused_with_nothing_sent() {
    let Ok(listener) = tokio::net::TcpListener::bind("[::1]:0").await else {
        eprintln!("skipped: no IPv6 loopback here");
        return;
    };
    let port = listener.local_addr().unwrap().port();
    let accepted = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = std::sync::Arc::clone(&accepted);
    tokio::spawn(async move {
        while listener.accept().await.is_ok() {
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    });
    let fetcher = Fetcher::builder()
        .respect_robots_txt(false)
        .build()
        .unwrap();
    for host in [
        "[::1]",
        "[0:0:0:0:0:0:0:1]",
        "[::ffff:127.0.0.1]",
        "localhost",
    ] {
        let err = fetcher
            .fetch(&format!("http://{host}:{port}/"), &FetchOptions::default())
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BlockedUrl, "{host}");
    }
    assert_eq!(accepted.load(std::sync::atomic::Ordering::SeqCst), 0);
}

/// A URL far longer than any page's address is `invalidUrl` before any
/// connection, not a retryable network error (issue 11).
#[tokio::test]
async fn an_overlong_url_is_invalid() {
    let url = format!("https://example.com/?q={}", "a".repeat(70_000));
    let e = crate::support::fetcher()
        .fetch(&url, &farsight_net::FetchOptions::new())
        .await
        .expect_err("too long");
    assert_eq!(e.kind(), farsight_net::ErrorKind::InvalidUrl);
    assert!(!e.is_retryable());
}
