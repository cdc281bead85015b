//! What an operator reads: `/metrics`, the JSON log line of each call, the
//! static token's per-tenant limit, and the registry's `server.json`.

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig};

use crate::mcp_http::{HttpServer, args, http, transport};
use crate::support::PageServer;

const TOKEN: &str = "tok-operations-7f3a9c";

async fn fetch_once(server: &HttpServer, token: Option<&str>, url: &str) -> serde_json::Value {
    let client = ClientConfig::default()
        .serve(transport(&server.mcp_url(), token, &[]))
        .await
        .unwrap();
    let answer = client
        .call_tool(
            CallToolRequestParams::new("web_fetch")
                .with_arguments(args(serde_json::json!({"url": url}))),
        )
        .await
        .unwrap();
    let _ = client.cancel().await;
    answer.structured_content.unwrap()
}

async fn metrics(server: &HttpServer) -> (u16, String) {
    let response = http()
        .get(format!("{}/metrics", server.base))
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

#[tokio::test]
async fn metrics_count_a_call_on_loopback_and_can_be_turned_off() {
    let pages = PageServer::start().await;
    let server = HttpServer::start(None, &[]).await;
    let (status, before) = metrics(&server).await;
    assert_eq!(status, 200);
    assert!(before.contains("farsight_calls_in_flight 0"), "{before}");
    assert!(
        before.contains("farsight_redis_state{state=\"disabled\"} 1"),
        "{before}"
    );
    assert!(!before.contains("farsight_tool_calls_total{"), "{before}");

    let answer = fetch_once(&server, None, &pages.url("/article")).await;
    assert_eq!(answer["status"], "success", "{answer}");
    let (_, after) = metrics(&server).await;
    for line in [
        "farsight_tool_calls_total{tool=\"web_fetch\",outcome=\"success\"} 1",
        "farsight_tool_call_duration_seconds_count{tool=\"web_fetch\"} 1",
        "farsight_calls_in_flight 0",
    ] {
        assert!(after.contains(line), "{line} not in:\n{after}");
    }

    let off = HttpServer::start_with_config(None, &[], "\n[server]\nmetrics = false\n").await;
    assert_eq!(metrics(&off).await.0, 404);
}

#[tokio::test]
async fn a_json_log_line_per_call_without_the_token_or_the_query() {
    let pages = PageServer::start().await;
    let server = HttpServer::start(Some(TOKEN), &[("FARSIGHT_LOG_FORMAT", "json")]).await;
    let url = format!("{}?secret-query=1", pages.url("/article"));
    let answer = fetch_once(&server, Some(TOKEN), &url).await;
    assert_eq!(answer["status"], "success", "{answer}");

    let calls = server.stderr_lines(|l| l.contains("\"tool\"")).await;
    assert_eq!(calls.len(), 1, "{calls:?}");
    let line: serde_json::Value = serde_json::from_str(&calls[0]).unwrap();
    assert_eq!(line["tool"], "web_fetch", "{line}");
    assert_eq!(line["outcome"], "success", "{line}");
    assert_eq!(line["providers"], "http", "{line}");
    assert_eq!(line["target"], "farsight::call", "{line}");
    assert!(line["duration_ms"].is_u64(), "{line}");
    let all = server.stderr_lines(|_| true).await.join("\n");
    assert!(!all.contains(TOKEN), "the token is logged:\n{all}");
    assert!(
        !all.contains("secret-query"),
        "the URL's query is logged:\n{all}"
    );
}

#[tokio::test]
async fn the_static_token_has_its_calls_per_minute() {
    let pages = PageServer::start().await;
    let server = HttpServer::start(Some(TOKEN), &[("FARSIGHT_HTTP_CALLS_PER_MINUTE", "1")]).await;
    let first = fetch_once(&server, Some(TOKEN), &pages.url("/short")).await;
    assert_eq!(first["status"], "success", "{first}");
    let second = fetch_once(&server, Some(TOKEN), &pages.url("/short")).await;
    assert_eq!(second["errorKind"], "rateLimited", "{second}");
    assert!(second["retryAfterMs"].as_u64().unwrap() > 0, "{second}");
    let (_, text) = metrics(&server).await;
    assert!(
        text.contains("farsight_rate_limited_total{scope=\"tenant\"} 1"),
        "{text}"
    );
    assert!(
        text.contains("farsight_tool_calls_total{tool=\"web_fetch\",outcome=\"rateLimited\"} 1"),
        "{text}"
    );
}

#[test]
fn server_json_names_the_cargo_package_at_cargos_version() {
    let text = include_str!("../../../../server.json");
    let doc: serde_json::Value = serde_json::from_str(text).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    // The registry's required fields (server.schema.json: name, description, version).
    let name = doc["name"].as_str().unwrap();
    let (namespace, server) = name.split_once('/').unwrap();
    assert!(
        !namespace.is_empty()
            && !server.is_empty()
            && !server.contains('/')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "./_-".contains(c)),
        "{name}"
    );
    let description = doc["description"].as_str().unwrap();
    assert!(
        (1..=100).contains(&description.chars().count()),
        "{description}"
    );
    assert_eq!(doc["version"], version);
    assert!(
        doc["$schema"]
            .as_str()
            .unwrap()
            .ends_with("/server.schema.json")
    );
    let package = &doc["packages"][0];
    for field in ["registryType", "identifier", "version", "transport"] {
        assert!(!package[field].is_null(), "packages[0].{field} is missing");
    }
    assert_eq!(package["registryType"], "cargo");
    assert_eq!(package["registryBaseUrl"], "https://crates.io");
    assert_eq!(package["identifier"], "farsight");
    // The package's README (the project's, see crates/farsight/Cargo.toml)
    // names the server: how the registry checks who owns the package.
    let readme = include_str!("../../../../README.md");
    assert!(
        readme.contains(&format!("\nmcp-name: {name}\n")),
        "README.md lacks the line `mcp-name: {name}`"
    );
    assert_eq!(package["version"], version);
    assert_eq!(package["transport"]["type"], "stdio");
    assert_eq!(
        doc["repository"]["url"],
        "https://github.com/farsight-dev/farsight"
    );
}

#[tokio::test]
async fn metrics_count_each_provider_attempt_by_outcome() {
    use crate::search_support::{brave, searxng, searxng_body};
    let failing = brave(401, serde_json::json!({"error": "bad key"})).await;
    let answering = searxng(
        200,
        searxng_body(&[("Lighthouses", "https://example.com/l", "About lighthouses")]),
    )
    .await;
    let extra = format!(
        "\n[search]\nprovider = \"brave\"\nfallbacks = [\"searxng\"]\n\
         \n[providers.brave]\napi_key = \"test\"\nbase_url = {:?}\n\
         \n[providers.searxng]\nbase_url = {:?}\n",
        failing.uri(),
        answering.uri()
    );
    let server = HttpServer::start_with_config(None, &[], &extra).await;
    let client = ClientConfig::default()
        .serve(transport(&server.mcp_url(), None, &[]))
        .await
        .unwrap();
    let answer = client
        .call_tool(
            CallToolRequestParams::new("web_search")
                .with_arguments(args(serde_json::json!({"query": "lighthouses"}))),
        )
        .await
        .unwrap();
    let _ = client.cancel().await;
    assert_eq!(answer.is_error, Some(false), "{answer:?}");
    let (_, text) = metrics(&server).await;
    for line in [
        "farsight_provider_attempts_total{provider=\"brave\",outcome=\"authenticationFailed\"} 1",
        "farsight_provider_attempts_total{provider=\"searxng\",outcome=\"ok\"} 1",
        "farsight_tool_calls_total{tool=\"web_search\",outcome=\"success\"} 1",
    ] {
        assert!(text.contains(line), "{line} not in:\n{text}");
    }
}
