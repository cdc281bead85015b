//! The `farsight` binary: output and exit codes.

use std::process::Output;

use crate::support::{PageServer, farsight, write_config};

const BIN: &str = env!("CARGO_BIN_EXE_farsight");

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[tokio::test]
async fn fetch_prints_the_page_for_a_person_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    let server = PageServer::start().await;
    let url = server.url("/article");
    let o = farsight(
        &[
            "fetch",
            &url,
            "--max-length",
            "500",
            "--config",
            cfg.to_str().unwrap(),
        ],
        &[],
    )
    .await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let out = stdout(&o);
    assert!(out.starts_with("# Lighthouses"), "{out}");
    assert!(out.contains("--start-index"), "{out}");
}

#[tokio::test]
async fn fetch_json_is_the_tool_answer() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    let server = PageServer::start().await;
    let url = server.url("/short");
    let o = farsight(
        &["fetch", &url, "--json", "--format", "text"],
        &[("FARSIGHT_CONFIG", cfg.to_str().unwrap())],
    )
    .await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["status"], "success");
    assert_eq!(json["title"], "Short page");
}

#[tokio::test]
async fn a_tool_error_exits_1_and_still_prints_json() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    let server = PageServer::start().await;
    let url = server.url("/gone");
    let o = farsight(
        &["--config", cfg.to_str().unwrap(), "fetch", &url, "--json"],
        &[],
    )
    .await;
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["errorKind"], "httpStatus");
    assert_eq!(json["errorCode"], 404);

    // Without --json the error goes to stderr for a person.
    let o = farsight(&["--config", cfg.to_str().unwrap(), "fetch", &url], &[]).await;
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("HTTP 404"),
        "{o:?}"
    );
}

#[tokio::test]
async fn usage_and_configuration_errors_exit_2() {
    let o = farsight(&["fetch"], &[]).await;
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let o = farsight(&["fetch", "https://example.com", "--format", "pdf"], &[]).await;
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let o = farsight(&["--config", "/nonexistent/farsight.toml", "config"], &[]).await;
    assert_eq!(o.status.code(), Some(2), "{o:?}");

    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[fetch]\ntimout_seconds = 3\n").unwrap();
    let o = farsight(&["--config", bad.to_str().unwrap(), "config"], &[]).await;
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("timout_seconds"),
        "{o:?}"
    );

    let o = farsight(
        &["fetch", "https://example.com"],
        &[("WEB_FETCH_ENABLED", "false")],
    )
    .await;
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}

#[tokio::test]
async fn config_prints_effective_toml_with_secrets_masked() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    let o = farsight(
        &["config", "--config", cfg.to_str().unwrap()],
        &[
            ("FARSIGHT_HTTP_TOKEN", "tok-very-secret"),
            ("BRAVE_API_KEY", "brave-very-secret"),
            ("FARSIGHT_MAX_REDIRECTS", "3"),
        ],
    )
    .await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let out = stdout(&o);
    assert!(!out.contains("very-secret"), "{out}");
    assert!(out.contains("max_redirects = 3"), "{out}");
    assert!(out.contains("allow_hosts = [\"127.0.0.1\"]"), "{out}");
    assert!(out.contains("[providers.brave]"), "{out}");
}

#[tokio::test]
async fn extract_reads_standard_input_without_network() {
    let mut child = tokio::process::Command::new(BIN)
        .args(["extract", "-", "--url", "https://docs.example/a/", "--json"])
        .env_remove("FARSIGHT_CONFIG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut stdin, crate::support::long_article().as_bytes())
        .await
        .unwrap();
    drop(stdin);
    let o = child.wait_with_output().await.unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["truncated"], false);
    let links = json["links"].as_array().unwrap();
    assert!(
        links
            .iter()
            .any(|l| l["url"] == "https://docs.example/keepers/2"),
        "{links:?}"
    );
}

#[tokio::test]
async fn help_is_complete() {
    for sub in [
        &["--help"][..],
        &["fetch", "--help"],
        &["extract", "--help"],
        &["mcp", "--help"],
        &["config", "--help"],
    ] {
        let o = farsight(sub, &[]).await;
        assert_eq!(o.status.code(), Some(0), "{sub:?}");
        assert!(stdout(&o).contains("Usage: farsight"), "{sub:?}");
    }
}

/// An endless input (`/dev/zero`) as the page to extract or as the
/// configuration file is a clear usage error, not gigabytes of memory
/// (issue 11).
#[cfg(unix)]
#[tokio::test]
async fn endless_local_inputs_are_refused_at_a_limit() {
    let o = farsight(&["extract", "/dev/zero"], &[]).await;
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("larger than 32 MiB"), "{e}");
    let o = farsight(&["--config", "/dev/zero", "config"], &[]).await;
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("larger than 1 MiB"), "{e}");
}
