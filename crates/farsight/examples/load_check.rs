//! Load check for `farsight mcp --http` (not a timed test): starts a local
//! page server and the farsight binary, warms the cache, then runs N MCP
//! clients calling `web_fetch` on the cached page for a fixed time, and prints
//! calls per second, p50/p99 latency and the error count (which must be 0).
//!
//! ```sh
//! cargo build --release -p farsight
//! cargo run --release -p farsight --example load_check -- --clients 16 --seconds 10
//! ```
//!
//! Options: `--clients N` (16), `--seconds S` (10), `--binary PATH`
//! (target/release/farsight, else target/debug/farsight).

// The report goes to stdout: this is a command-line tool, not the MCP server.
#![allow(clippy::print_stdout)]

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::routing::get;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use tokio::io::{AsyncBufReadExt, BufReader};

const PAGE: &str = "<html><head><title>Load</title></head><body><article><h1>Load</h1>\
<p>A page served from the cache to every client of the load check, long enough to be the \
main content of the page for the extractor.</p><p>A second paragraph, with a \
<a href=\"/x\">link</a>.</p></article></body></html>";

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

#[tokio::main]
async fn main() -> anyhow::Result<ExitCode> {
    let clients: usize = arg("--clients").map_or(Ok(16), |v| v.parse())?;
    let seconds: u64 = arg("--seconds").map_or(Ok(10), |v| v.parse())?;
    let binary = arg("--binary").unwrap_or_else(|| {
        ["target/release/farsight", "target/debug/farsight"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
            .unwrap_or("farsight")
            .to_owned()
    });

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let page_url = format!("http://{}/page", listener.local_addr()?);
    let app = Router::new().route("/page", get(|| async { axum::response::Html(PAGE) }));
    tokio::spawn(async move { axum::serve(listener, app).await });

    let dir = tempfile::tempdir()?;
    let cfg = dir.path().join("farsight.toml");
    std::fs::write(
        &cfg,
        format!(
            "[fetch]\nallow_hosts = [\"127.0.0.1\"]\n[cache]\ndir = {:?}\n[server]\nmax_in_flight = {}\n",
            dir.path().join("cache").display().to_string(),
            clients.max(64)
        ),
    )?;
    let mut child = tokio::process::Command::new(&binary)
        .args(["mcp", "--http", "127.0.0.1:0"])
        .env("FARSIGHT_CONFIG", &cfg)
        .env_remove("FARSIGHT_HTTP_TOKEN")
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()?;
    let mut lines = BufReader::new(child.stderr.take().expect("piped")).lines();
    let mut mcp_url = None;
    while let Some(line) = lines.next_line().await? {
        if let Some(rest) = line.split("serving MCP at ").nth(1) {
            mcp_url = Some(rest.trim().to_owned());
            break;
        }
    }
    let mcp_url = mcp_url.ok_or_else(|| anyhow::anyhow!("{binary} did not start"))?;
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });

    let call = CallToolRequestParams::new("web_fetch").with_arguments(
        serde_json::json!({"url": page_url})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    );
    let connect = || async {
        let http = farsight_net::api_client(
            "farsight-load-check",
            Duration::from_secs(30),
            None,
            &farsight_net::TlsTrust::default(),
        )?;
        let t = StreamableHttpClientTransport::with_client(
            http,
            StreamableHttpClientTransportConfig::with_uri(mcp_url.clone()),
        );
        anyhow::Ok(ClientConfig::default().serve(t).await?)
    };
    // Warm the cache so the check measures the server, not the page server.
    let warm = connect().await?;
    warm.call_tool(call.clone()).await?;

    let errors = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let client = connect().await?;
        let call = call.clone();
        let errors = errors.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                let started = Instant::now();
                match client.call_tool(call.clone()).await {
                    Ok(r) if r.is_error != Some(true) => latencies.push(started.elapsed()),
                    _ => {
                        errors.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            let _ = client.cancel().await;
            latencies
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await?);
    }
    all.sort();
    let pct = |p: f64| {
        all.get(((all.len() as f64 * p) as usize).min(all.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    let errors = errors.load(Ordering::Relaxed);
    println!(
        "clients {clients}, {seconds} s: {} calls, {:.0} calls/s, p50 {:.2} ms, p99 {:.2} ms, errors {errors}",
        all.len(),
        all.len() as f64 / seconds as f64,
        pct(0.50),
        pct(0.99),
    );
    let _ = warm.cancel().await;
    Ok(if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
