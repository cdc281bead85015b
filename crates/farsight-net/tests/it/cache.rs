use std::time::Duration;

use axum::Router;
use axum::response::Html;
use axum::routing::get;
use farsight_net::{Cache, FetchOptions, normalize_url};

use crate::support::{Hits, builder, counted_site, serve};

#[tokio::test]
async fn the_second_fetch_comes_from_the_cache() {
    let (url, hits) = counted_site().await;
    let f = builder().build().unwrap();
    let first = f.fetch(&url, &FetchOptions::default()).await.unwrap();
    assert!(!first.from_cache);
    // Another spelling of the same URL hits the same entry.
    let variant = url
        .replace("/page", "/page#part-2")
        .replace("http://", "HTTP://");
    let second = f.fetch(&variant, &FetchOptions::default()).await.unwrap();
    assert!(second.from_cache);
    assert_eq!(second.text, first.text);
    assert_eq!(second.requested_url, variant);
    assert_eq!(hits.get(), 1);

    // bypass_cache downloads again (and still writes).
    let fresh = f
        .fetch(&url, &FetchOptions { bypass_cache: true })
        .await
        .unwrap();
    assert!(!fresh.from_cache);
    assert_eq!(hits.get(), 2);
    assert!(
        f.fetch(&url, &FetchOptions::default())
            .await
            .unwrap()
            .from_cache
    );
    assert_eq!(hits.get(), 2);
}

#[tokio::test]
async fn a_disabled_cache_always_downloads() {
    let (url, hits) = counted_site().await;
    let f = builder().cache(Cache::disabled()).build().unwrap();
    f.fetch(&url, &FetchOptions::default()).await.unwrap();
    f.fetch(&url, &FetchOptions::default()).await.unwrap();
    assert_eq!(hits.get(), 2);
}

#[tokio::test]
async fn pages_survive_a_restart_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let (url, hits) = counted_site().await;
    {
        let cache = Cache::open(dir.path());
        assert!(cache.is_persistent());
        let f = builder().cache(cache).build().unwrap();
        f.fetch(&url, &FetchOptions::default()).await.unwrap();
    }
    // A new process opens the same directory.
    let cache = Cache::open(dir.path());
    assert!(cache.is_persistent());
    let f = builder().cache(cache).build().unwrap();
    let page = f.fetch(&url, &FetchOptions::default()).await.unwrap();
    assert!(page.from_cache);
    assert!(page.text.contains("cached content"));
    assert_eq!(hits.get(), 1);
}

/// Two handles on one directory stand for two farsight processes: both keep
/// the disk, and a page one downloaded is not downloaded by the other.
#[tokio::test]
async fn two_caches_on_one_directory_share_pages() {
    let dir = tempfile::tempdir().unwrap();
    let (url, hits) = counted_site().await;
    let first = Cache::open(dir.path());
    let second = Cache::open(dir.path());
    assert!(first.is_persistent());
    assert!(second.is_persistent());
    let a = builder().cache(first).build().unwrap();
    let b = builder().cache(second).build().unwrap();
    assert!(
        !a.fetch(&url, &FetchOptions::default())
            .await
            .unwrap()
            .from_cache
    );
    let page = b.fetch(&url, &FetchOptions::default()).await.unwrap();
    assert!(page.from_cache);
    assert!(page.text.contains("cached content"));
    assert_eq!(hits.get(), 1);
}

#[tokio::test]
async fn a_corrupt_store_file_is_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        Cache::file_in(dir.path()),
        b"this is not an SQLite file at all, not even close, and it goes on",
    )
    .unwrap();
    let cache = Cache::open(dir.path());
    // The damaged file is replaced, not given up on.
    assert!(cache.is_persistent());
    let (url, _) = counted_site().await;
    let f = builder().cache(cache).build().unwrap();
    assert!(f.fetch(&url, &FetchOptions::default()).await.is_ok());
    assert!(
        f.fetch(&url, &FetchOptions::default())
            .await
            .unwrap()
            .from_cache
    );
}

#[tokio::test]
async fn a_corrupt_entry_is_a_miss() {
    let dir = tempfile::tempdir().unwrap();
    let (url, hits) = counted_site().await;
    let cache = Cache::open(dir.path());
    let key = normalize_url(&url).unwrap();
    cache
        .put("page", &key, b"{not json".to_vec(), Duration::from_secs(60))
        .await;
    let f = builder().cache(cache.clone()).build().unwrap();
    let page = f.fetch(&url, &FetchOptions::default()).await.unwrap();
    assert!(!page.from_cache);
    assert_eq!(hits.get(), 1);
    // The fresh page replaced the damaged entry.
    assert!(
        f.fetch(&url, &FetchOptions::default())
            .await
            .unwrap()
            .from_cache
    );
}

#[tokio::test]
async fn expired_pages_are_downloaded_again() {
    let dir = tempfile::tempdir().unwrap();
    let (url, hits) = counted_site().await;
    let f = builder()
        .cache(Cache::open(dir.path()))
        .page_ttl(Duration::from_millis(200))
        .build()
        .unwrap();
    f.fetch(&url, &FetchOptions::default()).await.unwrap();
    assert!(
        f.fetch(&url, &FetchOptions::default())
            .await
            .unwrap()
            .from_cache
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(
        !f.fetch(&url, &FetchOptions::default())
            .await
            .unwrap()
            .from_cache
    );
    assert_eq!(hits.get(), 2);
}

#[tokio::test]
async fn a_blocked_url_is_refused_even_when_cached() {
    let (url, _) = counted_site().await;
    let cache = Cache::memory_only();
    let f = builder().cache(cache.clone()).build().unwrap();
    f.fetch(&url, &FetchOptions::default()).await.unwrap();
    // The same cache under a stricter policy.
    let strict = farsight_net::Fetcher::builder()
        .cache(cache)
        .build()
        .unwrap();
    let err = strict
        .fetch(&url, &FetchOptions::default())
        .await
        .unwrap_err();
    assert!(err.is_blocked());
}

/// Prints the median time of a fetch from the local server and from the
/// cache. Run with
/// `cargo test -p farsight-net --test it -- --ignored --nocapture local_fetch_timings`.
#[tokio::test]
#[ignore = "a measurement, not a check"]
async fn local_fetch_timings() {
    let (url, _) = counted_site().await;
    let f = builder().build().unwrap();
    let no_cache = FetchOptions { bypass_cache: true };
    f.fetch(&url, &no_cache).await.unwrap();
    let mut network = Vec::new();
    let mut cached = Vec::new();
    for _ in 0..25 {
        let t = std::time::Instant::now();
        f.fetch(&url, &no_cache).await.unwrap();
        network.push(t.elapsed());
        let t = std::time::Instant::now();
        assert!(
            f.fetch(&url, &FetchOptions::default())
                .await
                .unwrap()
                .from_cache
        );
        cached.push(t.elapsed());
    }
    network.sort();
    cached.sort();
    eprintln!(
        "median over 25: network {:?}, cache {:?}",
        network[network.len() / 2],
        cached[cached.len() / 2]
    );
}

/// The page is also stored under its final URL, so reading on from the URL an
/// agent was given back does not download it again.
#[tokio::test]
async fn the_final_url_of_a_redirect_is_cached_too() {
    let hits = Hits::default();
    let h = hits.clone();
    let app = Router::new()
        .route(
            "/old",
            get(|| async { axum::response::Redirect::permanent("/new") }),
        )
        .route(
            "/new",
            get(move || {
                h.bump();
                async { Html("<p>moved here</p>") }
            }),
        );
    let addr = serve(app).await;
    let f = builder().build().unwrap();
    let page = f
        .fetch(
            &format!("http://127.0.0.1:{}/old", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap();
    assert!(page.url.ends_with("/new"));
    let again = f.fetch(&page.url, &FetchOptions::default()).await.unwrap();
    assert!(again.from_cache);
    assert_eq!(again.requested_url, page.url);
    assert_eq!(hits.get(), 1);
}
