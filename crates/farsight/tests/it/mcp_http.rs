//! `farsight mcp --http` driven by rmcp's Streamable HTTP client, and by
//! plain HTTP requests for what a client library hides (status codes).

use std::collections::HashMap;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig, ProtocolVersion};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use tokio::io::{AsyncBufReadExt, BufReader};

use crate::support::{PageServer, write_config};

/// A running `farsight mcp --http`, killed when dropped.
pub struct HttpServer {
    pub base: String,
    child: tokio::process::Child,
    /// Every line the server wrote to stderr so far.
    stderr: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    _dir: tempfile::TempDir,
}

impl HttpServer {
    pub async fn start(token: Option<&str>, extra_env: &[(&str, &str)]) -> HttpServer {
        Self::start_with_config(token, extra_env, "").await
    }

    /// Starts with `extra_toml` appended to the test configuration (which
    /// has no `[server]` table of its own).
    pub async fn start_with_config(
        token: Option<&str>,
        extra_env: &[(&str, &str)],
        extra_toml: &str,
    ) -> HttpServer {
        Self::launch(token, extra_env, extra_toml, None).await
    }

    /// Starts with both open-file limits (soft and hard) set to `limit`,
    /// through the shell's `ulimit`.
    pub async fn start_with_open_file_limit(
        token: Option<&str>,
        extra_toml: &str,
        limit: u32,
    ) -> HttpServer {
        Self::launch(token, &[], extra_toml, Some(limit)).await
    }

    async fn launch(
        token: Option<&str>,
        extra_env: &[(&str, &str)],
        extra_toml: &str,
        open_file_limit: Option<u32>,
    ) -> HttpServer {
        let dir = tempfile::tempdir().unwrap();
        let cfg = write_config(dir.path());
        let mut toml = std::fs::read_to_string(&cfg).unwrap();
        toml.push_str(extra_toml);
        std::fs::write(&cfg, toml).unwrap();
        // The load figures of tests/it/instances.rs are measured with a
        // release build named here; every other run uses the test build.
        let bin = std::env::var("FARSIGHT_TEST_BIN")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_farsight").to_owned());
        let bin = bin.as_str();
        let mut cmd = match open_file_limit {
            None => tokio::process::Command::new(bin),
            Some(limit) => {
                let mut sh = tokio::process::Command::new("sh");
                sh.args([
                    "-c",
                    &format!("ulimit -n {limit} && exec \"$0\" \"$@\""),
                    bin,
                ]);
                sh
            }
        };
        cmd.args(["mcp", "--http", "127.0.0.1:0"])
            .env("FARSIGHT_CONFIG", &cfg)
            .env_remove("FARSIGHT_HTTP_TOKEN")
            .env_remove("WEB_FETCH_ENABLED")
            .env_remove("RUST_LOG")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true);
        if let Some(t) = token {
            cmd.env("FARSIGHT_HTTP_TOKEN", t);
        }
        for (k, v) in extra_env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let base = tokio::time::timeout(Duration::from_secs(30), async {
            while let Some(line) = lines.next_line().await.unwrap() {
                if let Some(rest) = line.split("serving MCP at ").nth(1) {
                    return rest.trim_end_matches("/mcp").to_owned();
                }
            }
            panic!("farsight exited before listening");
        })
        .await
        .unwrap();
        // Keep draining stderr so the child never blocks on a full pipe.
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let kept = stderr.clone();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                kept.lock().unwrap().push(line);
            }
        });
        HttpServer {
            base,
            child,
            stderr,
            _dir: dir,
        }
    }

    /// The server's `host:port`.
    pub fn addr(&self) -> &str {
        self.base.trim_start_matches("http://")
    }

    /// The server's process id, to signal it.
    pub fn pid(&self) -> u32 {
        self.child.id().expect("the server is running")
    }

    /// Waits for the server to exit, at most `bound`; `None` if it has not.
    pub async fn exited_within(&mut self, bound: Duration) -> Option<std::process::ExitStatus> {
        tokio::time::timeout(bound, self.child.wait())
            .await
            .ok()
            .map(Result::unwrap)
    }

    /// The stderr lines written so far that `keep` accepts, waiting up to
    /// ten seconds for the first one (a line is written as a call ends).
    pub async fn stderr_lines(&self, keep: impl Fn(&str) -> bool) -> Vec<String> {
        for _ in 0..100 {
            let found: Vec<String> = self
                .stderr
                .lock()
                .unwrap()
                .iter()
                .filter(|l| keep(l))
                .cloned()
                .collect();
            if !found.is_empty() {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Vec::new()
    }

    pub fn mcp_url(&self) -> String {
        format!("{}/mcp", self.base)
    }
}

pub fn http() -> reqwest::Client {
    farsight_net::api_client(
        "farsight-tests",
        Duration::from_secs(30),
        None,
        &farsight_net::TlsTrust::default(),
    )
    .unwrap()
}

pub fn transport(
    url: &str,
    token: Option<&str>,
    headers: &[(&'static str, &'static str)],
) -> StreamableHttpClientTransport<reqwest::Client> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
    if let Some(t) = token {
        config = config.auth_header(t.to_owned());
    }
    let custom: HashMap<http::HeaderName, http::HeaderValue> = headers
        .iter()
        .map(|(k, v)| {
            (
                http::HeaderName::from_static(k),
                http::HeaderValue::from_static(v),
            )
        })
        .collect();
    config = config.custom_headers(custom);
    StreamableHttpClientTransport::with_client(http(), config)
}

pub fn args(value: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    value.as_object().unwrap().clone()
}

#[tokio::test]
async fn list_and_call_over_http_with_current_and_older_clients() {
    let pages = PageServer::start().await;
    let server = HttpServer::start(None, &[]).await;

    let health = http()
        .get(format!("{}/healthz", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status().as_u16(), 200);

    for version in [
        None,
        Some(ProtocolVersion::V_2025_11_25),
        Some(ProtocolVersion::V_2025_06_18),
    ] {
        let t = transport(&server.mcp_url(), None, &[]);
        let client = match &version {
            None => ClientConfig::default().serve(t).await,
            Some(v) => {
                ClientConfig::default()
                    .with_protocol_version(v.clone())
                    .serve(t)
                    .await
            }
        }
        .unwrap_or_else(|e| panic!("{version:?}: {e}"));

        let tools = client.list_all_tools().await.unwrap();
        let names: Vec<_> = tools.iter().map(|t| t.name.to_string()).collect();
        assert_eq!(names, ["web_search", "web_fetch"], "{version:?}");
        assert!(tools[0].output_schema.is_some());
        assert_eq!(
            tools[0].annotations.as_ref().unwrap().read_only_hint,
            Some(true)
        );

        let ok = client
            .call_tool(
                CallToolRequestParams::new("web_fetch")
                    .with_arguments(args(serde_json::json!({"url": pages.url("/short")}))),
            )
            .await
            .unwrap();
        assert_eq!(ok.is_error, Some(false), "{version:?}: {ok:?}");
        assert_eq!(
            ok.structured_content.as_ref().unwrap()["title"],
            "Short page"
        );

        let failed = client
            .call_tool(
                CallToolRequestParams::new("web_fetch")
                    .with_arguments(args(serde_json::json!({"url": pages.url("/gone")}))),
            )
            .await
            .unwrap();
        assert_eq!(failed.is_error, Some(true));
        assert_eq!(
            failed.structured_content.as_ref().unwrap()["errorCode"],
            404
        );

        let bad = client
            .call_tool(
                CallToolRequestParams::new("web_fetch")
                    .with_arguments(args(serde_json::json!({"maxLength": "lots"}))),
            )
            .await;
        assert!(
            bad.as_ref().is_err() || bad.as_ref().unwrap().is_error == Some(true),
            "{bad:?}"
        );
        let unknown = client
            .call_tool(CallToolRequestParams::new("web_teleport"))
            .await;
        assert!(
            unknown.as_ref().is_err() || unknown.as_ref().unwrap().is_error == Some(true),
            "{unknown:?}"
        );
        let _ = client.cancel().await;
    }
    // One download served every client's call: the cache is shared.
    assert_eq!(pages.hits("/short"), 1);
}

#[tokio::test]
async fn a_token_is_required_when_set() {
    let server = HttpServer::start(Some("s3cret-token"), &[]).await;
    let init = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}
    });
    let post = |token: Option<&'static str>| {
        let mut r = http()
            .post(server.mcp_url())
            .header("accept", "application/json, text/event-stream")
            .json(&init);
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        r.send()
    };
    assert_eq!(post(None).await.unwrap().status().as_u16(), 401);
    assert_eq!(post(Some("wrong")).await.unwrap().status().as_u16(), 401);
    assert_eq!(
        post(Some("s3cret-token")).await.unwrap().status().as_u16(),
        200
    );
    // Health checks need no token.
    let health = http()
        .get(format!("{}/healthz", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status().as_u16(), 200);

    assert!(
        ClientConfig::default()
            .serve(transport(&server.mcp_url(), None, &[]))
            .await
            .is_err()
    );
    assert!(
        ClientConfig::default()
            .serve(transport(&server.mcp_url(), Some("wrong"), &[]))
            .await
            .is_err()
    );
    let client = ClientConfig::default()
        .serve(transport(&server.mcp_url(), Some("s3cret-token"), &[]))
        .await
        .unwrap();
    assert_eq!(client.list_all_tools().await.unwrap().len(), 2);
    let _ = client.cancel().await;
}

#[tokio::test]
async fn a_foreign_origin_is_refused() {
    let server = HttpServer::start(None, &[]).await;
    let list = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let r = http()
        .post(server.mcp_url())
        .header("accept", "application/json, text/event-stream")
        .header("origin", "https://evil.example")
        .json(&list)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 403);
    assert!(
        ClientConfig::default()
            .serve(transport(
                &server.mcp_url(),
                None,
                &[("origin", "https://evil.example")]
            ))
            .await
            .is_err()
    );
    // The server's own loopback origin is fine.
    let client = ClientConfig::default()
        .serve(transport(
            &server.mcp_url(),
            None,
            &[("origin", "http://localhost:3000")],
        ))
        .await
        .unwrap();
    let _ = client.cancel().await;
}

#[tokio::test]
async fn several_different_origins_are_refused() {
    let server = HttpServer::start(None, &[]).await;
    let list = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let send = |origins: &'static [&'static str]| {
        let mut r = http()
            .post(server.mcp_url())
            .header("accept", "application/json, text/event-stream")
            .json(&list);
        for o in origins {
            r = r.header("origin", *o);
        }
        r.send()
    };
    // An allowed origin first, a foreign one after it.
    let r = send(&["http://localhost:3000", "https://evil.example"])
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 403);
    assert!(r.text().await.unwrap().contains("several different Origin"));
    // The same allowed origin twice is that origin.
    let r = send(&["http://localhost:3000", "http://localhost:3000"])
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
}

#[tokio::test]
async fn a_public_address_without_a_token_refuses_to_start() {
    let dir = tempfile::tempdir().unwrap();
    let o = tokio::process::Command::new(env!("CARGO_BIN_EXE_farsight"))
        .args(["mcp", "--http", "0.0.0.0:0"])
        .env("FARSIGHT_CONFIG", write_config(dir.path()))
        .env_remove("FARSIGHT_HTTP_TOKEN")
        .output()
        .await
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("FARSIGHT_HTTP_TOKEN"),
        "{o:?}"
    );
}

#[tokio::test]
async fn calls_beyond_the_bound_get_a_retryable_error() {
    use crate::support::Canned;
    // A page that takes a while, so that calls pile up.
    let mut pages_map = crate::support::standard_pages();
    pages_map.insert("/slow", Canned::html("slow"));
    let pages = PageServer::with_delay(pages_map, "/slow", Duration::from_millis(1500)).await;
    let server = HttpServer::start(None, &[("FARSIGHT_HTTP_MAX_IN_FLIGHT", "1")]).await;
    let client = ClientConfig::default()
        .serve(transport(&server.mcp_url(), None, &[]))
        .await
        .unwrap();
    let call = |url: String| {
        client.call_tool(
            CallToolRequestParams::new("web_fetch")
                .with_arguments(args(serde_json::json!({"url": url}))),
        )
    };
    let (slow, refused) = tokio::join!(call(pages.url("/slow")), async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        call(pages.url("/short")).await
    });
    assert_eq!(slow.unwrap().is_error, Some(false));
    let refused = refused.unwrap();
    assert_eq!(refused.is_error, Some(true));
    let json = refused.structured_content.unwrap();
    assert_eq!(json["errorKind"], "overloaded", "{json}");
    assert_eq!(json["retryable"], true);
    let _ = client.cancel().await;
}
