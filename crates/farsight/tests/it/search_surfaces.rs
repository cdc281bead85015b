//! `web_search` on the surfaces: MCP over stdio (rmcp's client, as an agent)
//! and `farsight search` (output formats, directives, exit codes).

use std::path::Path;
use std::process::Output;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};

use crate::search_support::*;

const BIN: &str = env!("CARGO_BIN_EXE_farsight");

fn clean_env(cmd: &mut tokio::process::Command) {
    cmd.env_remove("FARSIGHT_CONFIG")
        .env_remove("WEB_FETCH_ENABLED")
        .env_remove("WEB_SEARCH_ENABLED")
        .env_remove("RUST_LOG");
    for v in PROVIDER_VARS {
        cmd.env_remove(v);
    }
}

async fn farsight(cfg: &Path, args: &[&str]) -> Output {
    let mut cmd = tokio::process::Command::new(BIN);
    clean_env(&mut cmd);
    cmd.args(args).arg("--config").arg(cfg);
    cmd.output().await.unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

async fn brave_with_pages(pages: &Pages) -> wiremock::MockServer {
    let (p1, p2) = (pages.url("/p1"), pages.url("/p2"));
    brave(
        200,
        brave_body(&[
            ("Harbour guide", &p1, "All about the harbour"),
            ("Ferries guide", &p2, "All about the ferries"),
        ]),
    )
    .await
}

#[tokio::test]
async fn an_agent_lists_and_calls_web_search_over_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let pages = Pages::start().await;
    let b = brave_with_pages(&pages).await;
    let cfg = write_search_config(dir.path(), &[("brave", &b.uri())], "");
    let transport = TokioChildProcess::new(tokio::process::Command::new(BIN).configure(|cmd| {
        clean_env(cmd);
        cmd.arg("mcp").env("FARSIGHT_CONFIG", &cfg);
    }))
    .unwrap();
    let client = ().serve(transport).await.unwrap();

    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["web_search", "web_fetch"]);
    let search = &tools[0];
    let input = serde_json::to_value(&search.input_schema).unwrap();
    assert_eq!(input["required"], serde_json::json!(["query"]), "{input}");
    for p in [
        "query",
        "maxResults",
        "site",
        "includeDomains",
        "excludeDomains",
        "dateRange",
        "safeSearch",
        "topic",
        "searchDepth",
        "maxContentTokens",
        "provider",
    ] {
        assert!(input["properties"].get(p).is_some(), "{p} missing: {input}");
    }
    // Accepted, never listed: the model needs one way to ask for content.
    for alias in [
        "includeContent",
        "max_results",
        "num",
        "depth",
        "bypassCache",
    ] {
        assert!(
            input["properties"].get(alias).is_none(),
            "{alias} listed: {input}"
        );
    }
    let output = serde_json::to_value(search.output_schema.as_ref().unwrap()).unwrap();
    for p in ["results", "searchEngine", "responseTimeMs"] {
        assert!(output["properties"].get(p).is_some(), "{p}: {output}");
    }
    let ann = search.annotations.as_ref().unwrap();
    assert_eq!(ann.read_only_hint, Some(true));
    assert_eq!(ann.idempotent_hint, Some(true));
    assert_eq!(ann.open_world_hint, Some(true));
    assert_eq!(ann.destructive_hint, Some(false));
    let description = search.description.as_deref().unwrap_or("");
    assert!(description.contains("Sources:") && description.contains("site"));

    let args = |v: serde_json::Value| v.as_object().unwrap().clone();
    let ok = client
        .call_tool(
            CallToolRequestParams::new("web_search").with_arguments(args(
                serde_json::json!({"query": "harbour guide", "max_results": 2}),
            )),
        )
        .await
        .unwrap();
    assert_eq!(ok.is_error, Some(false), "{ok:?}");
    let structured = ok.structured_content.clone().unwrap();
    assert_eq!(structured["searchEngine"], "brave");
    assert_eq!(structured["results"][0]["title"], "Harbour guide");
    let text = ok.content[0].as_text().unwrap().text.clone();
    assert!(
        text.starts_with("[Web Search: \"harbour guide\"]\n1. Harbour guide — "),
        "{text}"
    );
    assert!(
        text.contains("Sources:\n- [Harbour guide](http://127.0.0.1:"),
        "{text}"
    );

    let deep = client
        .call_tool(CallToolRequestParams::new("web_search").with_arguments(args(
            serde_json::json!({"query": QUESTION, "searchDepth": "deep", "maxContentTokens": 400}),
        )))
        .await
        .unwrap();
    assert_eq!(deep.is_error, Some(false), "{deep:?}");
    let text = deep.content[0].as_text().unwrap().text.clone();
    assert!(text.contains("## Result 1: Harbour guide"), "{text}");
    assert!(text.contains(ANSWER), "{text}");

    let failed = client
        .call_tool(
            CallToolRequestParams::new("web_search").with_arguments(args(
                serde_json::json!({"query": "rust", "provider": "tavily"}),
            )),
        )
        .await
        .unwrap();
    assert_eq!(failed.is_error, Some(true), "{failed:?}");
    let err = failed.structured_content.clone().unwrap();
    assert_eq!(err["errorKind"], "notConfigured");
    assert_eq!(err["retryable"], false);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn web_search_disabled_removes_the_tool() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_search_config(dir.path(), &[], "");
    let transport = TokioChildProcess::new(tokio::process::Command::new(BIN).configure(|cmd| {
        clean_env(cmd);
        cmd.arg("mcp")
            .env("FARSIGHT_CONFIG", &cfg)
            .env("WEB_SEARCH_ENABLED", "false");
    }))
    .unwrap();
    let client = ().serve(transport).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["web_fetch"]);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn cli_search_formats_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let pages = Pages::start().await;
    let b = brave_with_pages(&pages).await;
    let cfg = write_search_config(dir.path(), &[("brave", &b.uri())], "");

    let o = farsight(&cfg, &["search", "harbour guide"]).await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let out = stdout(&o);
    assert!(
        out.starts_with("[Web Search: \"harbour guide\"]\n1. Harbour guide"),
        "{out}"
    );
    assert!(out.contains("\nSources:\n"), "{out}");

    for flag in [&["--json"][..], &["--output", "json"][..]] {
        let mut a = vec!["search", "harbour guide", "--max-results", "1"];
        a.extend_from_slice(flag);
        let o = farsight(&cfg, &a).await;
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["searchEngine"], "brave");
        assert_eq!(v["results"].as_array().unwrap().len(), 1);
    }

    let o = farsight(
        &cfg,
        &[
            "search",
            QUESTION,
            "--depth",
            "deep",
            "--max-content-tokens",
            "300",
        ],
    )
    .await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let out = stdout(&o);
    assert!(
        out.contains("## Result 1: Harbour guide\nSource: http://127.0.0.1:"),
        "{out}"
    );
    assert!(out.contains("Published: 2025-01-15"), "{out}");
    assert!(out.contains(ANSWER) && out.contains("\n---\n"), "{out}");

    let o = farsight(&cfg, &["search", "harbour guide", "--output", "full"]).await;
    assert!(stdout(&o).contains("## Result 2: Ferries guide"), "{o:?}");

    // A tool error: exit 1, the JSON error with --json.
    let o = farsight(&cfg, &["search", "harbour", "--provider", "kagi", "--json"]).await;
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["errorKind"], "notConfigured");
    assert!(
        v["message"].as_str().unwrap().contains("KAGI_API_KEY"),
        "{v}"
    );
    // A query that cannot be searched is a validation error (issue 10): exit 2.
    let o = farsight(&cfg, &["search", "x"]).await;
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("invalidQuery"),
        "{o:?}"
    );

    // Usage errors: exit 2.
    let o = farsight(&cfg, &["search", "harbour", "--date-range", "decade"]).await;
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let o = farsight(&cfg, &["search", "→ search \"harbour guide\" depth:huge"]).await;
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("Syntax: → search"),
        "{o:?}"
    );
}

#[tokio::test]
async fn cli_answers_a_directive_in_its_format() {
    let dir = tempfile::tempdir().unwrap();
    let pages = Pages::start().await;
    let b = brave_with_pages(&pages).await;
    let cfg = write_search_config(dir.path(), &[("brave", &b.uri())], "");
    let o = farsight(
        &cfg,
        &["search", "→ search \"harbour guide\" max:2 topic:general"],
    )
    .await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let out = stdout(&o);
    assert!(
        out.starts_with("Search: \"harbour guide\"\n2 results ("),
        "{out}"
    );
    assert!(out.contains("[1] \"Harbour guide\" — "), "{out}");
    assert!(out.contains("    \"All about the harbour\""), "{out}");
    assert!(
        out.contains("depth:deep for full content extraction"),
        "{out}"
    );

    let o = farsight(
        &cfg,
        &[
            "search",
            &format!("-> search \"{QUESTION}\" depth:deep max:2"),
        ],
    )
    .await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let out = stdout(&o);
    assert!(out.contains(ANSWER), "{out}");
    assert!(!out.contains("depth:deep for full"), "{out}");

    let o = farsight(
        &cfg,
        &["search", "→ search \"harbour guide\"", "--output", "json"],
    )
    .await;
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["query"], "harbour guide");
}
