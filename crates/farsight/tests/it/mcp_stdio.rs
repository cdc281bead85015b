//! `farsight mcp` over stdio, driven by rmcp's client as an agent would.

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};

use crate::support::{PageServer, write_config};

fn args(value: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    value.as_object().unwrap().clone()
}

#[tokio::test]
async fn an_agent_lists_and_calls_web_fetch_over_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    let server = PageServer::start().await;
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_farsight")).configure(|cmd| {
            cmd.arg("mcp")
                .env("FARSIGHT_CONFIG", &cfg)
                .env_remove("WEB_FETCH_ENABLED")
                .env_remove("RUST_LOG");
        }),
    )
    .unwrap();
    let client = ().serve(transport).await.unwrap();

    let info = client.peer_info().unwrap();
    assert!(
        info.instructions
            .as_deref()
            .unwrap_or("")
            .contains("web_fetch")
    );

    let tools = client.list_all_tools().await.unwrap();
    let fetch = tools
        .iter()
        .find(|t| t.name == "web_fetch")
        .expect("web_fetch listed");
    let input = serde_json::to_value(&fetch.input_schema).unwrap();
    // `url` or `urls`: the tool refuses a call with both or neither.
    assert!(input.get("required").is_none(), "{input}");
    for p in [
        "url",
        "urls",
        "selector",
        "format",
        "maxLength",
        "startIndex",
        "includeLinks",
        "includeImages",
    ] {
        assert!(input["properties"].get(p).is_some(), "{p} missing: {input}");
    }
    let output =
        serde_json::to_value(fetch.output_schema.as_ref().expect("output schema")).unwrap();
    assert!(
        output["properties"].get("nextStartIndex").is_some(),
        "{output}"
    );
    let ann = fetch.annotations.as_ref().expect("annotations");
    assert_eq!(ann.read_only_hint, Some(true));
    assert_eq!(ann.idempotent_hint, Some(true));
    assert_eq!(ann.open_world_hint, Some(true));
    assert_eq!(ann.destructive_hint, Some(false));
    assert!(
        fetch
            .description
            .as_deref()
            .unwrap_or("")
            .contains("startIndex")
    );

    let ok = client
        .call_tool(
            CallToolRequestParams::new("web_fetch")
                .with_arguments(args(serde_json::json!({"url": server.url("/short")}))),
        )
        .await
        .unwrap();
    assert_eq!(ok.is_error, Some(false), "{ok:?}");
    let structured = ok.structured_content.clone().unwrap();
    assert_eq!(structured["status"], "success");
    assert_eq!(structured["title"], "Short page");
    let text = ok.content[0].as_text().unwrap().text.clone();
    assert!(text.starts_with("# Short page"), "{text}");

    let failed = client
        .call_tool(
            CallToolRequestParams::new("web_fetch")
                .with_arguments(args(serde_json::json!({"url": server.url("/gone")}))),
        )
        .await
        .unwrap();
    assert_eq!(failed.is_error, Some(true), "{failed:?}");
    let err = failed.structured_content.clone().unwrap();
    assert_eq!(err["errorKind"], "httpStatus");
    assert_eq!(err["errorCode"], 404);
    let err_text: serde_json::Value =
        serde_json::from_str(&failed.content[0].as_text().unwrap().text).unwrap();
    assert_eq!(err_text, err);

    let bad = client
        .call_tool(
            CallToolRequestParams::new("web_fetch")
                .with_arguments(args(serde_json::json!({"url": 42}))),
        )
        .await;
    assert!(bad.is_err() || bad.unwrap().is_error == Some(true));

    client.cancel().await.unwrap();
}

#[tokio::test]
async fn web_fetch_disabled_removes_the_tool() {
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_farsight")).configure(|cmd| {
            cmd.arg("mcp")
                .env_remove("FARSIGHT_CONFIG")
                .env("FARSIGHT_CACHE_ENABLED", "false")
                .env("WEB_FETCH_ENABLED", "false");
        }),
    )
    .unwrap();
    let client = ().serve(transport).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    assert!(tools.iter().all(|t| t.name != "web_fetch"), "{tools:?}");
    client.cancel().await.unwrap();
}
