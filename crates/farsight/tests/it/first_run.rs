//! Issue 10, "a first run that explains itself": what a new user sees from
//! the binary: the providers report, plain words for network failures,
//! exit codes, formats printed as they are, completions.

use std::path::Path;
use std::process::Output;

use crate::search_support::write_search_config;
use crate::support::{PageServer, farsight, write_config};

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn cfg_arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[tokio::test]
async fn providers_shows_the_chain_and_what_each_provider_needs() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    let o = farsight(
        &["providers", "--config", cfg_arg(&cfg)],
        &[("BRAVE_API_KEY", "brave-secret")],
    )
    .await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = out(&o);
    assert!(
        text.starts_with("Search chain: brave → duckduckgo → wikipedia\n"),
        "{text}"
    );
    assert!(
        text.contains("brave       configured, in the chain"),
        "{text}"
    );
    assert!(
        text.contains(
            "tavily      not configured: set TAVILY_API_KEY (or [providers.tavily].api_key)"
        ),
        "{text}"
    );
    assert!(!text.contains("brave-secret"), "{text}");

    let o = farsight(&["providers", "--json", "--config", cfg_arg(&cfg)], &[]).await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        json["chain"],
        serde_json::json!(["duckduckgo", "wikipedia"])
    );
    let google = &json["providers"][2];
    assert_eq!(google["name"], "google");
    assert_eq!(google["configured"], false);
    assert_eq!(google["missing"][1]["variable"], "GOOGLE_SEARCH_ENGINE_ID");
    assert_eq!(
        google["missing"][1]["setting"],
        "[providers.google].engine_id"
    );
}

#[tokio::test]
async fn a_table_for_an_unknown_provider_exits_2_naming_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    std::fs::write(&cfg, "[providers.bravo]\napi_key = \"k\"\n").unwrap();
    for sub in ["providers", "config"] {
        let o = farsight(&[sub, "--config", cfg_arg(&cfg)], &[]).await;
        assert_eq!(o.status.code(), Some(2), "{o:?}");
        let e = err(&o);
        assert!(e.contains("[providers.bravo]"), "{e}");
        assert!(e.contains("brave, tavily, google"), "{e}");
    }
}

#[tokio::test]
async fn an_invalid_selector_exits_2_naming_it_before_any_download() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    let server = PageServer::start().await;
    let url = server.url("/article");
    for args in [
        vec!["fetch", url.as_str(), "--selector", "div >"],
        vec!["fetch", url.as_str(), "--selector", "div >", "--json"],
        vec!["extract", "/dev/null", "--selector", "div >"],
    ] {
        let mut args = args.clone();
        args.extend(["--config", cfg_arg(&cfg)]);
        let o = farsight(&args, &[]).await;
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        let e = err(&o);
        assert!(
            e.contains("invalid --selector: \"div >\" is not a valid CSS selector"),
            "{e}"
        );
        assert!(!e.contains("ParseError") && !e.contains("Custom("), "{e}");
        assert!(out(&o).is_empty(), "{o:?}");
    }
}

#[tokio::test]
async fn text_and_html_formats_print_exactly_the_content() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    let server = PageServer::start().await;
    let url = server.url("/article");
    for format in ["text", "html"] {
        let json = farsight(
            &[
                "fetch",
                &url,
                "--format",
                format,
                "--json",
                "--max-length",
                "800",
            ],
            &[("FARSIGHT_CONFIG", cfg_arg(&cfg))],
        )
        .await;
        let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        let content = json["content"].as_str().unwrap().to_owned();
        let o = farsight(
            &["fetch", &url, "--format", format, "--max-length", "800"],
            &[("FARSIGHT_CONFIG", cfg_arg(&cfg))],
        )
        .await;
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        assert_eq!(out(&o), format!("{content}\n"), "{format}");
        // How to read on is said on stderr.
        assert!(err(&o).contains("--start-index"), "{o:?}");
    }
}

#[tokio::test]
async fn markdown_prints_the_title_once() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    let server = PageServer::start().await;
    let url = server.url("/article");
    let o = farsight(&["fetch", &url, "--config", cfg_arg(&cfg)], &[]).await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = out(&o);
    assert!(text.starts_with("# Lighthouses\n\nURL: "), "{text}");
    assert_eq!(text.matches("# Lighthouses").count(), 1, "{text}");
}

#[tokio::test]
async fn a_bare_host_gets_https_and_an_unresolvable_one_is_said_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    let o = farsight(
        &[
            "fetch",
            "no-such-host.invalid/page",
            "--json",
            "--config",
            cfg_arg(&cfg),
        ],
        &[],
    )
    .await;
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["url"], "https://no-such-host.invalid/page");
    assert_eq!(json["errorKind"], "network");
    assert_eq!(
        json["message"],
        "No scheme was given: fetched https://no-such-host.invalid/page (https:// assumed). \
         could not resolve no-such-host.invalid (no DNS answer)"
    );
}

#[tokio::test]
async fn a_url_that_is_not_one_exits_2() {
    let o = farsight(&["fetch", "http://exa mple.com/"], &[]).await;
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(err(&o).contains("invalidUrl"), "{o:?}");
}

#[tokio::test]
async fn a_search_where_every_provider_failed_is_one_line_each() {
    let dir = tempfile::tempdir().unwrap();
    // duckduckgo and wikipedia point at a closed port; searxng at a name
    // that never resolves.
    let cfg = write_search_config(
        dir.path(),
        &[("searxng", "http://searx.no-such-host.invalid")],
        "",
    );
    let o = farsight(
        &["search", "lighthouse keepers", "--config", cfg_arg(&cfg)],
        &[],
    )
    .await;
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let e = err(&o);
    let lines: Vec<&str> = e.lines().collect();
    assert!(
        lines[0].starts_with("Error (serviceUnavailable): every search provider failed:"),
        "{e}"
    );
    assert_eq!(
        lines[1], "- searxng: could not resolve searx.no-such-host.invalid (no DNS answer)",
        "{e}"
    );
    assert!(
        lines[2].starts_with("- duckduckgo: could not connect to duckduckgo: "),
        "{e}"
    );
    assert!(
        lines[3].starts_with("- wikipedia: could not connect to wikipedia: "),
        "{e}"
    );
    for line in &lines[1..4] {
        assert!(line.chars().count() < 160, "{line}");
        assert!(
            !line.contains("client error") && !line.contains("dns error"),
            "{line}"
        );
    }
    assert!(
        !e.contains("base_url"),
        "no advice about settings nobody set: {e}"
    );
}

#[tokio::test]
async fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        // A broken configuration does not stop completions.
        let o = farsight(
            &["completions", shell],
            &[("FARSIGHT_CONFIG", "/nonexistent/farsight.toml")],
        )
        .await;
        assert_eq!(o.status.code(), Some(0), "{shell}: {o:?}");
        let script = out(&o);
        assert!(
            script.contains("farsight") && script.contains("providers"),
            "{shell}"
        );
    }
    let o = farsight(&["completions", "tcsh"], &[]).await;
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}
