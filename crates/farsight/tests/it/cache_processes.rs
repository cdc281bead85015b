//! Several `farsight` processes at once on one cache directory: they share
//! the disk cache without warnings or errors, nothing is lost, and a window
//! read by one process of a page fetched by another is neither downloaded nor
//! extracted again (issue 10, "One disk cache for many processes").

use std::collections::HashMap;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::support::{Canned, PageServer, write_config};

const BIN: &str = env!("CARGO_BIN_EXE_farsight");

/// An article of `n` paragraphs titled `title`: long enough for several windows.
fn article(title: &str, n: usize) -> String {
    let paragraphs: String = (0..n)
        .map(|i| {
            format!(
                "<p>Paragraph {i} of {title} tells one more thing about tides, harbours \
                 and the <a href=\"/ships/{}\">ships</a> that wait for the water.</p>\n",
                i % 5
            )
        })
        .collect();
    format!(
        "<!doctype html><html><head><title>{title}</title></head><body>\
         <nav><a href=\"/\">Home</a></nav><article><h1>{title}</h1>{paragraphs}</article>\
         <footer>Copyright</footer></body></html>"
    )
}

async fn server() -> PageServer {
    let mut pages = HashMap::new();
    pages.insert("/one", Canned::html(article("Tides one", 300)));
    pages.insert("/two", Canned::html(article("Tides two", 300)));
    pages.insert("/three", Canned::html(article("Tides three", 300)));
    pages.insert("/four", Canned::html(article("Tides four", 40)));
    PageServer::with_pages(pages).await
}

/// Runs `farsight --config CFG ARGS` as its own process.
async fn farsight(cfg: &Path, args: &[String]) -> Output {
    tokio::process::Command::new(BIN)
        .arg("--config")
        .arg(cfg)
        .args(args)
        .env_remove("FARSIGHT_CONFIG")
        .env_remove("FARSIGHT_CACHE_DIR")
        .env_remove("FARSIGHT_CACHE_ENABLED")
        .env_remove("WEB_FETCH_ENABLED")
        .env_remove("RUST_LOG")
        .output()
        .await
        .unwrap()
}

fn fetch_args(url: &str, extra: &[&str]) -> Vec<String> {
    let mut args = vec![
        "fetch".to_owned(),
        url.to_owned(),
        "--json".to_owned(),
        "--max-length".to_owned(),
        "3000".to_owned(),
    ];
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    args
}

/// Runs every command line at once and returns their outputs in order.
async fn all_at_once(cfg: &Path, runs: Vec<Vec<String>>) -> Vec<Output> {
    let tasks: Vec<_> = runs
        .into_iter()
        .map(|args| {
            let cfg = cfg.to_path_buf();
            tokio::spawn(async move { farsight(&cfg, &args).await })
        })
        .collect();
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.unwrap());
    }
    out
}

/// The process succeeded, said nothing on stderr, and answered with JSON.
fn answer(o: &Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(
        o.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

fn hits(server: &PageServer) -> [usize; 4] {
    ["/one", "/two", "/three", "/four"].map(|p| server.hits(p))
}

#[tokio::test]
async fn many_processes_share_one_cache_directory() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    let server = server().await;
    let url = |p: &str| server.url(p);

    // Six processes start at once on a directory that has no cache file yet:
    // they create it together. Two ask for the same page.
    let first = all_at_once(
        &cfg,
        vec![
            fetch_args(&url("/one"), &[]),
            fetch_args(&url("/two"), &[]),
            fetch_args(&url("/three"), &[]),
            fetch_args(&url("/four"), &[]),
            fetch_args(&url("/one"), &[]),
            fetch_args(&url("/two"), &["--format", "text"]),
        ],
    )
    .await;
    let answers: Vec<Value> = first.iter().map(answer).collect();
    for (a, title) in answers.iter().zip([
        "Tides one",
        "Tides two",
        "Tides three",
        "Tides four",
        "Tides one",
        "Tides two",
    ]) {
        assert_eq!(a["status"], "success", "{a}");
        assert_eq!(a["title"], title, "{a}");
        assert!(
            a["content"].as_str().unwrap().contains("Paragraph 0 of"),
            "{a}"
        );
    }
    assert_eq!(answers[0]["content"], answers[4]["content"]);
    // Each process downloaded what it did not find; nothing more. (Two
    // processes starting at the same instant may both miss the same page.)
    let after_first = hits(&server);
    assert!(
        after_first.iter().all(|&h| (1..=2).contains(&h)),
        "{after_first:?}"
    );

    // Nothing was lost: every page and every document is in the file.
    let info = answer(&farsight(&cfg, &["cache".into(), "info".into(), "--json".into()]).await);
    assert_eq!(info["enabled"], true, "{info}");
    let namespaces: HashMap<String, u64> = info["namespaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["name"].as_str().unwrap().to_owned(),
                n["entries"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(namespaces.get("page"), Some(&4), "{info}");
    // Four pages as Markdown, and /two as text too.
    assert_eq!(namespaces.get("document"), Some(&5), "{info}");

    // Other processes read on where the first ones stopped, all at once, and
    // one asks with a focus: nothing is downloaded again.
    let next = |a: &Value| a["nextStartIndex"].as_u64().unwrap().to_string();
    let second = all_at_once(
        &cfg,
        vec![
            fetch_args(&url("/one"), &["--start-index", &next(&answers[0])]),
            fetch_args(&url("/two"), &["--start-index", &next(&answers[1])]),
            fetch_args(&url("/three"), &["--start-index", &next(&answers[2])]),
            fetch_args(&url("/two"), &["--focus", "Paragraph 250 harbours"]),
            fetch_args(&url("/four"), &[]),
        ],
    )
    .await;
    let windows: Vec<Value> = second.iter().map(answer).collect();
    for (w, a) in windows.iter().zip(&answers).take(3) {
        assert_ne!(w["content"], a["content"]);
        assert_eq!(w["contentLength"], a["contentLength"]);
        assert!(
            !w["content"].as_str().unwrap().contains("Paragraph 0 of"),
            "{w}"
        );
    }
    assert!(
        windows[3]["content"]
            .as_str()
            .unwrap()
            .contains("Paragraph 250 of"),
        "{}",
        windows[3]
    );
    assert_eq!(
        hits(&server),
        after_first,
        "a cached page was downloaded again"
    );

    // And the window came from the cached document, not from the extractor.
    let verbose = farsight(&cfg, &{
        let mut a = vec!["-v".to_owned()];
        a.extend(fetch_args(
            &url("/three"),
            &["--start-index", &next(&windows[2])],
        ));
        a
    })
    .await;
    assert_eq!(verbose.status.code(), Some(0), "{verbose:?}");
    let log = String::from_utf8_lossy(&verbose.stderr);
    assert!(log.contains("extracted document from the cache"), "{log}");
    assert!(!log.contains("WARN") && !log.contains("ERROR"), "{log}");
    assert_eq!(hits(&server), after_first);
}

#[tokio::test]
async fn cache_clear_empties_the_shared_file_and_says_what_it_removed() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    let server = server().await;
    answer(&farsight(&cfg, &fetch_args(&server.url("/four"), &[])).await);
    let o = farsight(&cfg, &["cache".into(), "clear".into()]).await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    // The page, its document and the site's robots.txt decision.
    assert!(text.starts_with("Removed 3 entries ("), "{text}");
    let info = farsight(&cfg, &["cache".into(), "info".into()]).await;
    let text = String::from_utf8_lossy(&info.stdout);
    assert!(text.contains("entries: 0"), "{text}");
    // The page is downloaded again.
    answer(&farsight(&cfg, &fetch_args(&server.url("/four"), &[])).await);
    assert_eq!(server.hits("/four"), 2);
}

#[tokio::test]
async fn a_cache_command_that_fails_exits_1_and_a_bad_one_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    // A database farsight did not create, where the cache file goes.
    let cache_dir = dir.path().join("cache");
    std::fs::create_dir_all(&cache_dir).unwrap();
    std::fs::write(
        farsight_net::Cache::file_in(&cache_dir),
        b"not a database at all",
    )
    .unwrap();
    let o = farsight(&cfg, &["cache".into(), "info".into()]).await;
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("farsight cache clear"),
        "{o:?}"
    );
    // `clear` deletes the damaged file; then all is well again.
    let o = farsight(&cfg, &["cache".into(), "clear".into()]).await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("damaged"),
        "{o:?}"
    );
    let o = farsight(&cfg, &["cache".into(), "info".into()]).await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let o = farsight(&cfg, &["cache".into(), "shrink".into()]).await;
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}
