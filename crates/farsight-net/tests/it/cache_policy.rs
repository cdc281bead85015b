//! A cached page is served only if the current policy would have fetched it
//! (issue 11): two fetchers with different policies over one cache directory
//! stand for two configurations, or a configuration before and after a reload.

use std::time::Duration;

use axum::Router;
use axum::response::{Html, Redirect};
use axum::routing::get;
use farsight_net::{Cache, ErrorKind, FetchOptions, Fetcher, normalize_url};

use crate::support::{CountingServer, Hits, builder, counted_site, local_hostname};

/// `/start` on 127.0.0.1 redirects to `/final` on `localhost`, which counts
/// its downloads. Returns both URLs.
async fn chain_through_localhost() -> (String, String, Hits, Hits) {
    let (start_hits, final_hits) = (Hits::default(), Hits::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let final_url = format!("http://localhost:{port}/final");
    let (s, f, target) = (start_hits.clone(), final_hits.clone(), final_url.clone());
    let app = Router::new()
        .route(
            "/start",
            get(move || {
                s.bump();
                let target = target.clone();
                async move { Redirect::temporary(&target) }
            }),
        )
        .route(
            "/final",
            get(move || {
                f.bump();
                async { Html("<html><body><p>behind the redirect</p></body></html>") }
            }),
        );
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let start = format!("http://127.0.0.1:{port}/start");
    (start, final_url, start_hits, final_hits)
}

fn permissive(cache: Cache) -> Fetcher {
    Fetcher::builder()
        .allow_private_networks(true)
        .respect_robots_txt(false)
        .timeout(Duration::from_secs(10))
        .cache(cache)
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_chain_through_a_host_no_longer_allowed_is_not_served_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let (start, final_url, start_hits, final_hits) = chain_through_localhost().await;
    let first = permissive(Cache::open(dir.path()));
    let page = first.fetch(&start, &FetchOptions::default()).await.unwrap();
    assert_eq!(page.url, final_url);
    assert_eq!((start_hits.get(), final_hits.get()), (1, 1));

    // Another process, whose policy allows 127.0.0.1 but not `localhost`.
    let strict = builder()
        .respect_robots_txt(false)
        .cache(Cache::open(dir.path()))
        .build()
        .unwrap();
    let err = strict
        .fetch(&start, &FetchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BlockedUrl, "{err}");
    assert!(err.message().contains("localhost"), "{err}");
    // It asked again (the start is allowed) and was refused at the redirect.
    assert_eq!((start_hits.get(), final_hits.get()), (2, 1));
    let err = strict
        .fetch(&final_url, &FetchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BlockedUrl, "{err}");

    // The first policy is still served from the cache, under both URLs.
    let again = permissive(Cache::open(dir.path()));
    for url in [&start, &final_url] {
        let page = again.fetch(url, &FetchOptions::default()).await.unwrap();
        assert!(page.from_cache, "{url}");
    }
    assert_eq!((start_hits.get(), final_hits.get()), (2, 1));
}

/// An entry as the fetcher writes it: the page and how it was reached.
fn entry_json(url: &str, peer: &str, robots_obeyed: bool) -> Vec<u8> {
    serde_json::json!({
        "page": {
            "url": url, "requestedUrl": url, "status": 200,
            "contentType": "text/html", "kind": "html", "charset": "UTF-8",
            "text": "<p>intranet page</p>", "truncated": false, "fromCache": false
        },
        "hops": [{ "url": url, "peer": peer }],
        "robotsObeyed": robots_obeyed,
    })
    .to_string()
    .into_bytes()
}

/// The stored address is checked against the current policy with no lookup
/// and no connection: the name used here resolves nowhere, so any attempt
/// to reach it would fail with a network error, not succeed.
#[tokio::test]
async fn the_address_a_page_came_from_is_checked_on_every_hit() {
    let dir = tempfile::tempdir().unwrap();
    let url = "http://intranet.invalid/handbook";
    let cache = Cache::open(dir.path());
    cache
        .put(
            "page",
            &normalize_url(url).unwrap(),
            entry_json(url, "10.0.0.7", true),
            Duration::from_secs(600),
        )
        .await;
    let with = |hosts: &[&str]| {
        Fetcher::builder()
            .allow_hosts(hosts.iter().map(|h| (*h).to_owned()).collect())
            .cache(Cache::open(dir.path()))
            .build()
            .unwrap()
    };
    for allowed in [&["intranet.invalid"][..], &["10.0.0.0/8"], &["10.0.0.7"]] {
        let page = with(allowed)
            .fetch(url, &FetchOptions::default())
            .await
            .unwrap();
        assert!(page.from_cache, "{allowed:?}");
        assert!(page.text.contains("intranet page"));
    }
    let nothing: &[&str] = &[];
    for refused in [nothing, &["other.invalid"], &["10.0.0.8"]] {
        let outcome = with(refused).fetch(url, &FetchOptions::default()).await;
        let err = outcome.expect_err("served from the cache against the policy");
        assert_ne!(err.kind(), ErrorKind::BlockedUrl, "the URL itself is fine");
    }
}

/// When this machine's name resolves to 127.0.0.1, the same through real
/// lookups: a page fetched while the name was allowed is refused, before any
/// connection, once it is not.
#[tokio::test]
async fn a_name_no_longer_allowed_is_refused_before_any_connection() {
    let (hostname, resolved) = local_hostname().await;
    if hostname.is_empty()
        || hostname == "localhost"
        || resolved.is_empty()
        || !resolved
            .iter()
            .all(|a| a.ip() == std::net::Ipv4Addr::LOCALHOST)
    {
        eprintln!("skipped: the host name {hostname:?} does not resolve to 127.0.0.1 only here");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = CountingServer::start().await;
    let url = format!("http://{hostname}:{}/", server.addr.port());
    let allowed = Fetcher::builder()
        .allow_hosts(vec![hostname.clone()])
        .respect_robots_txt(false)
        .cache(Cache::open(dir.path()))
        .build()
        .unwrap();
    allowed.fetch(&url, &FetchOptions::default()).await.unwrap();
    assert_eq!(server.count(), 1);
    let strict = Fetcher::builder()
        .respect_robots_txt(false)
        .cache(Cache::open(dir.path()))
        .build()
        .unwrap();
    let err = strict
        .fetch(&url, &FetchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BlockedUrl, "{err}");
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn a_page_fetched_ignoring_robots_txt_is_not_served_to_a_policy_that_obeys_it() {
    let (url, hits) = counted_site().await;
    let cache = Cache::memory_only();
    let ignoring = builder()
        .respect_robots_txt(false)
        .cache(cache.clone())
        .build()
        .unwrap();
    ignoring
        .fetch(&url, &FetchOptions::default())
        .await
        .unwrap();
    let obeying = builder().cache(cache.clone()).build().unwrap();
    let page = obeying.fetch(&url, &FetchOptions::default()).await.unwrap();
    assert!(!page.from_cache);
    assert_eq!(hits.get(), 2);
    // Fetched obeying robots.txt, it serves both.
    assert!(
        ignoring
            .fetch(&url, &FetchOptions::default())
            .await
            .unwrap()
            .from_cache
    );
    assert_eq!(hits.get(), 2);
}
