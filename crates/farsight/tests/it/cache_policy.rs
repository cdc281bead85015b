//! The cache under hostile conditions (issue 11): a page cached under one
//! policy is not served under a stricter one, `--no-cache` leaves nothing
//! behind, the file has a size limit, and a damaged file is a quiet miss.

use std::collections::HashMap;
use std::path::Path;

use farsight::{CallOptions, Config, ErrorKind, FetchRequest, FetchStatus, Service};
use serde_json::Value;

use crate::support::{Canned, PageServer, farsight};

/// A service whose `[fetch]` table holds `fetch` and whose cache is `cache_dir`.
fn service(fetch: &str, cache_dir: &Path) -> Service {
    let toml = format!(
        "[fetch]\n{fetch}\nrespect_robots_txt = false\ntimeout_seconds = 10\n\
         [cache]\ndir = {:?}\n",
        cache_dir.display().to_string()
    );
    let raw = farsight::config::RawConfig::from_toml(&toml).unwrap();
    Service::new(Config::resolve(raw).unwrap()).unwrap()
}

/// A long article on one server, and on another a `/start` on 127.0.0.1 that
/// redirects to it by the name `localhost`.
async fn chain() -> (PageServer, PageServer, String, String) {
    let target = PageServer::start().await;
    let final_url = format!("http://localhost:{}/article", target.addr.port());
    // The canned headers are 'static; one short string per test.
    let location: &'static str = Box::leak(final_url.clone().into_boxed_str());
    let mut pages = HashMap::new();
    pages.insert(
        "/start",
        Canned {
            status: 302,
            content_type: "text/plain",
            body: Vec::new(),
            headers: vec![("location", location)],
        },
    );
    let origin = PageServer::with_pages(pages).await;
    let start = origin.url("/start");
    (origin, target, start, final_url)
}

fn window(url: &str, start_index: usize) -> FetchRequest {
    let mut r = FetchRequest::new(url);
    r.max_length = 1500;
    r.start_index = start_index;
    r
}

#[tokio::test]
async fn a_page_and_its_document_are_not_served_once_their_permission_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let (origin, target, start, final_url) = chain().await;

    let open = service("allow_private_networks = true", &cache);
    let first = open
        .web_fetch(&window(&start, 0), CallOptions::default())
        .await;
    assert_eq!(first.status, FetchStatus::Success, "{first:?}");
    assert_eq!(first.url, final_url);
    let next = first.next_start_index.unwrap();
    // The second window comes from the cached page and document.
    let second = open
        .web_fetch(&window(&start, next), CallOptions::default())
        .await;
    assert_eq!(second.status, FetchStatus::Success, "{second:?}");
    assert_eq!((origin.hits("/start"), target.hits("/article")), (1, 1));

    // Another configuration on the same cache directory: 127.0.0.1 is
    // allowed, the name `localhost` is not; and one that allows neither.
    for fetch in ["allow_hosts = [\"127.0.0.1\"]", ""] {
        let strict = service(fetch, &cache);
        for url in [&start, &final_url] {
            for index in [0, next] {
                let r = strict
                    .web_fetch(&window(url, index), CallOptions::default())
                    .await;
                assert_eq!(r.status, FetchStatus::Error, "{fetch} {url} {index}: {r:?}");
                assert_eq!(r.error_kind, Some(ErrorKind::BlockedUrl), "{r:?}");
                assert!(r.content.is_none());
            }
        }
    }
    // The page behind the redirect was never downloaded again: every refusal
    // came from the policy (the start URL, allowed by the first strict
    // configuration, was asked again and its redirect refused).
    assert_eq!(target.hits("/article"), 1);
    assert_eq!(origin.hits("/start"), 3);

    // The first configuration is still served from the cache.
    let again = service("allow_private_networks = true", &cache);
    let r = again
        .web_fetch(&window(&final_url, next), CallOptions::default())
        .await;
    assert_eq!(r.content, second.content);
    assert_eq!(target.hits("/article"), 1);
}

/// Runs `farsight ARGS` with its cache in `cache_dir` and 127.0.0.1 allowed.
async fn run(cache_dir: &Path, args: &[&str]) -> std::process::Output {
    let cache_dir = cache_dir.display().to_string();
    farsight(
        args,
        &[
            ("FARSIGHT_CACHE_DIR", cache_dir.as_str()),
            ("FARSIGHT_ALLOW_HOSTS", "127.0.0.1"),
            ("FARSIGHT_RESPECT_ROBOTS_TXT", "false"),
        ],
    )
    .await
}

fn json(o: &std::process::Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    serde_json::from_slice(&o.stdout).unwrap()
}

#[tokio::test]
async fn no_cache_creates_no_directory_no_file_and_no_entry() {
    let dir = tempfile::tempdir().unwrap();
    let server = PageServer::start().await;
    let cache = dir.path().join("never");
    let o = run(
        &cache,
        &["fetch", &server.url("/short"), "--no-cache", "--json"],
    )
    .await;
    assert_eq!(json(&o)["status"], "success");
    assert!(!cache.exists(), "--no-cache created {}", cache.display());

    // With a cache that exists: nothing is added to it.
    let used = dir.path().join("used");
    json(&run(&used, &["fetch", &server.url("/article"), "--json"]).await);
    let before = json(&run(&used, &["cache", "info", "--json"]).await);
    json(
        &run(
            &used,
            &["fetch", &server.url("/short"), "--no-cache", "--json"],
        )
        .await,
    );
    let after = json(&run(&used, &["cache", "info", "--json"]).await);
    assert_eq!(before["entries"], after["entries"], "{after}");
    assert_eq!(server.hits("/short"), 2);

    // [cache].enabled = false is the same for every call.
    let off = dir.path().join("off");
    let o = farsight(
        &["fetch", &server.url("/short"), "--json"],
        &[
            ("FARSIGHT_CACHE_DIR", &off.display().to_string()),
            ("FARSIGHT_CACHE_ENABLED", "false"),
            ("FARSIGHT_ALLOW_HOSTS", "127.0.0.1"),
        ],
    )
    .await;
    assert_eq!(json(&o)["status"], "success");
    assert!(!off.exists());
}

#[tokio::test]
async fn cache_info_and_config_show_the_size_limit() {
    let dir = tempfile::tempdir().unwrap();
    let o = farsight(
        &["cache", "info", "--json"],
        &[
            ("FARSIGHT_CACHE_DIR", &dir.path().display().to_string()),
            ("FARSIGHT_CACHE_MAX_DISK_BYTES", "2097152"),
        ],
    )
    .await;
    assert_eq!(json(&o)["maxDiskBytes"], 2_097_152);
    let o = farsight(&["config"], &[("FARSIGHT_CACHE_MAX_DISK_BYTES", "2097152")]).await;
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("max_disk_bytes = 2097152"), "{text}");
}

/// One warning line at most, and nothing that looks like a crash.
fn quiet(o: &std::process::Output) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.lines().count() <= 1, "{err}");
    for crash in ["panicked", "backtrace", "RUST_BACKTRACE", "stack"] {
        assert!(!err.contains(crash), "{err}");
    }
}

#[tokio::test]
async fn a_damaged_cache_file_or_entry_is_a_quiet_miss() {
    let dir = tempfile::tempdir().unwrap();
    let server = PageServer::start().await;
    let cache = dir.path().join("cache");
    let file = farsight_net::Cache::file_in(&cache);
    let url = server.url("/article");
    let fetch = |cache: &Path| {
        let cache = cache.to_path_buf();
        let url = url.clone();
        async move { run(&cache, &["fetch", &url, "--json"]).await }
    };

    // Garbage where the file goes.
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::write(&file, vec![0xA5; 64 * 1024]).unwrap();
    let o = fetch(&cache).await;
    quiet(&o);
    let a = json(&o);
    assert_eq!(a["status"], "success");
    assert!(
        a["title"].as_str().unwrap().starts_with("Lighthouses"),
        "{a}"
    );

    // Garbage inside every stored value: read as a miss, downloaded again.
    let hits = server.hits("/article");
    let conn = rusqlite::Connection::open(&file).unwrap();
    let changed = conn
        .execute("UPDATE entries SET value = randomblob(length(value))", [])
        .unwrap();
    assert!(changed >= 2, "the page and its document");
    drop(conn);
    let o = fetch(&cache).await;
    quiet(&o);
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let b = json(&o);
    assert_eq!(b["content"], a["content"]);
    assert_eq!(server.hits("/article"), hits + 1);

    // Garbage over the middle of the file, where the rows are.
    let mut bytes = std::fs::read(&file).unwrap();
    let len = bytes.len();
    assert!(len > 16 * 1024, "{len}");
    for b in &mut bytes[4096..len - 1024] {
        *b = 0x5A;
    }
    std::fs::write(&file, &bytes).unwrap();
    for _ in 0..2 {
        let o = fetch(&cache).await;
        quiet(&o);
        assert_eq!(json(&o)["content"], a["content"]);
    }
}
