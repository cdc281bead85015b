//! The tools as a client sees them in `tools/list`: schemas that any JSON
//! Schema 2020-12 validator accepts, answers that validate against their
//! tool's output schema (success, partial and every error kind reachable
//! locally), and the token cost of the whole list.

use std::collections::HashMap;
use std::path::Path;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, Tool};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::{Value, json};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::mcp_http::HttpServer;
use crate::search_support::{PROVIDER_VARS, brave_body};
use crate::support::{Canned, PageServer, standard_pages};

use farsight::mcp::STANDARD_FORMATS;

const BIN: &str = env!("CARGO_BIN_EXE_farsight");

/// What `tools/list` may cost, both tools together (characters / 4).
const TOKEN_BUDGET: usize = 1_500;

/// A page server with what each fetch case needs besides the standard pages.
async fn pages() -> PageServer {
    let mut pages = standard_pages();
    pages.insert(
        "/robots.txt",
        Canned {
            status: 200,
            content_type: "text/plain",
            body: "User-agent: *\nDisallow: /private/\n".into(),
            headers: Vec::new(),
        },
    );
    pages.insert("/private/page", Canned::html("<p>secret</p>"));
    pages.insert(
        "/image.png",
        Canned {
            status: 200,
            content_type: "image/png",
            body: "\u{89}PNG fake image".into(),
            headers: Vec::new(),
        },
    );
    // Nothing readable before the download cap of the configuration below.
    pages.insert("/huge", Canned::html(" ".repeat(300_000)));
    PageServer::with_pages(pages).await
}

/// Brave at a mock server: results for any query, and the 401 of a wrong
/// subscription token for the query "wrong key check".
async fn brave() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/res/v1/web/search"))
        .and(query_param("q", "wrong key check"))
        .respond_with(ResponseTemplate::new(401).set_body_json(json!({
            "type": "ErrorResponse",
            "error": {"id": "x", "status": 401, "code": "SUBSCRIPTION_TOKEN_INVALID",
                      "detail": "The provided subscription token is invalid."}
        })))
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/res/v1/web/search"))
        .respond_with(ResponseTemplate::new(200).set_body_json(brave_body(&[
            ("Schema check", "https://example.org/a", "A result"),
            ("Second", "https://example.net/b", "Another result"),
        ])))
        .mount(&server)
        .await;
    server
}

/// Pages on 127.0.0.1 reachable, a small download cap, Brave alone, and no
/// browser (the same answers whether Chromium is installed or not).
fn write_config(dir: &Path, brave: &str) -> std::path::PathBuf {
    let file = dir.join("farsight.toml");
    std::fs::write(
        &file,
        format!(
            "[fetch]\nallow_hosts = [\"127.0.0.1\"]\ntimeout_seconds = 10\nmax_bytes = 100000\n\n\
             [cache]\ndir = {:?}\n\n[search]\nprovider = \"brave\"\nfallbacks = []\n\n\
             [render]\nbrowser_path = {:?}\n\n\
             [providers.brave]\napi_key = \"test\"\nbase_url = {brave:?}\n",
            dir.join("cache").display().to_string(),
            crate::render::NO_BROWSER,
        ),
    )
    .unwrap();
    file
}

async fn stdio_client(cfg: &Path) -> RunningService<RoleClient, ()> {
    let transport = TokioChildProcess::new(tokio::process::Command::new(BIN).configure(|cmd| {
        cmd.env_remove("WEB_FETCH_ENABLED")
            .env_remove("WEB_SEARCH_ENABLED")
            .env_remove("RUST_LOG")
            .env("FARSIGHT_CONFIG", cfg);
        for v in PROVIDER_VARS {
            cmd.env_remove(v);
        }
        cmd.arg("mcp");
    }))
    .unwrap();
    ().serve(transport).await.unwrap()
}

fn schema(tool: &Tool, output: bool) -> Value {
    if output {
        serde_json::to_value(tool.output_schema.as_ref().expect("an output schema")).unwrap()
    } else {
        serde_json::to_value(&tool.input_schema).unwrap()
    }
}

/// Every `format` in a schema, and every property name.
fn collect(v: &Value, formats: &mut Vec<String>, names: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            if let Some(Value::String(f)) = o.get("format") {
                formats.push(f.clone());
            }
            if let Some(Value::Object(props)) = o.get("properties") {
                names.extend(props.keys().cloned());
            }
            o.values().for_each(|x| collect(x, formats, names));
        }
        Value::Array(a) => a.iter().for_each(|x| collect(x, formats, names)),
        _ => {}
    }
}

fn json_chars(v: &impl serde::Serialize) -> usize {
    serde_json::to_string(v).unwrap().chars().count()
}

#[tokio::test]
async fn tools_list_fits_the_token_budget() {
    let dir = tempfile::tempdir().unwrap();
    let b = brave().await;
    let client = stdio_client(&write_config(dir.path(), &b.uri())).await;
    let tools = client.list_all_tools().await.unwrap();
    client.cancel().await.unwrap();
    assert_eq!(tools.len(), 2, "{tools:?}");
    if std::env::var_os("FARSIGHT_PRINT_TOOLS").is_some() {
        eprintln!("{}", serde_json::to_string_pretty(&tools).unwrap());
    }

    let total = json_chars(&tools) / 4;
    eprintln!("tools/list: {total} tokens (characters / 4), budget {TOKEN_BUDGET}");
    for tool in &tools {
        let input = serde_json::to_value(&tool.input_schema).unwrap();
        let prose: usize = input["properties"]
            .as_object()
            .map(|p| {
                p.values()
                    .filter_map(|v| v.get("description"))
                    .map(json_chars)
                    .sum()
            })
            .unwrap_or(0);
        let description = tool.description.as_deref().map_or(0, |d| json_chars(&d));
        let output = tool.output_schema.as_ref().map_or(0, json_chars);
        let all = json_chars(tool);
        let schema = json_chars(&tool.input_schema);
        eprintln!(
            "  {:<10} {:>5} = description {:>4} + input schema {:>4} (parameter descriptions {:>4}) \
             + output schema {:>4} + name and annotations {:>3}",
            tool.name,
            all / 4,
            description / 4,
            schema / 4,
            prose / 4,
            output / 4,
            (all - description - schema - output) / 4,
        );
    }
    assert!(
        total <= TOKEN_BUDGET,
        "tools/list costs {total} tokens, more than {TOKEN_BUDGET}"
    );
}

#[tokio::test]
async fn schemas_are_standard_and_every_answer_validates() {
    let dir = tempfile::tempdir().unwrap();
    let pages = pages().await;
    let b = brave().await;
    let client = stdio_client(&write_config(dir.path(), &b.uri())).await;
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 2, "{tools:?}");

    let mut validators = HashMap::new();
    for tool in &tools {
        for output in [false, true] {
            let s = schema(tool, output);
            let which = format!("{} {}", tool.name, if output { "output" } else { "input" });
            if let Err(e) = jsonschema::draft202012::meta::validate(&s) {
                panic!("{which} schema is not valid JSON Schema 2020-12: {e}\n{s}");
            }
            assert_eq!(s["type"], "object", "{which}: root type");
            let (mut formats, mut names) = (Vec::new(), Vec::new());
            collect(&s, &mut formats, &mut names);
            let odd: Vec<_> = formats
                .iter()
                .filter(|f| !STANDARD_FORMATS.contains(&f.as_str()))
                .collect();
            assert!(odd.is_empty(), "{which}: non-standard formats {odd:?}");
            // serde aliases (max_results, num, allowed_domains...) are accepted,
            // never listed: every name a client sees is camelCase.
            let snake: Vec<_> = names.iter().filter(|n| n.contains('_')).collect();
            assert!(snake.is_empty(), "{which}: aliases listed {snake:?}");
            assert!(
                !s.to_string().contains("\"$schema\""),
                "{which}: $schema costs tokens"
            );
        }
        let validator = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&schema(tool, true))
            .unwrap();
        validators.insert(tool.name.to_string(), validator);
    }

    // (tool, arguments, is an error, the answer's status or errorKind)
    let cases: Vec<(&str, Value, bool, &str)> = vec![
        (
            "web_fetch",
            json!({"url": pages.url("/short")}),
            false,
            "success",
        ),
        (
            "web_fetch",
            json!({"url": pages.url("/article"), "maxLength": 2000}),
            false,
            "success",
        ),
        (
            "web_fetch",
            json!({"url": pages.url("/article"), "focus": "keepers"}),
            false,
            "success",
        ),
        (
            "web_fetch",
            json!({"url": pages.url("/short"), "selector": "#nothing"}),
            false,
            "success",
        ),
        (
            "web_fetch",
            json!({"url": pages.url("/app")}),
            false,
            "partial",
        ),
        (
            "web_fetch",
            json!({"url": pages.url("/app"), "render": "never"}),
            false,
            "partial",
        ),
        (
            "web_fetch",
            json!({"url": pages.url("/short"), "render": "always"}),
            true,
            "notConfigured",
        ),
        (
            "web_fetch",
            json!({"url": pages.url("/short"), "render": "sometimes"}),
            true,
            "invalidArgument",
        ),
        ("web_fetch", json!({"url": "not a url"}), true, "invalidUrl"),
        (
            "web_fetch",
            json!({"url": "http://10.1.2.3/"}),
            true,
            "blockedUrl",
        ),
        (
            "web_fetch",
            json!({"url": pages.url("/gone")}),
            true,
            "httpStatus",
        ),
        (
            "web_fetch",
            json!({"url": pages.url("/private/page")}),
            true,
            "robotsDisallowed",
        ),
        (
            "web_fetch",
            json!({"url": pages.url("/image.png")}),
            true,
            "unsupportedContent",
        ),
        (
            "web_fetch",
            json!({"url": pages.url("/huge")}),
            true,
            "tooLarge",
        ),
        // Several pages: `results` holds each page's own answer, and the
        // whole validates against the same output schema.
        (
            "web_fetch",
            json!({"urls": [pages.url("/short"), pages.url("/article")]}),
            false,
            "success",
        ),
        (
            "web_fetch",
            json!({"urls": [pages.url("/short"), pages.url("/gone"), pages.url("/huge")]}),
            false,
            "partial",
        ),
        (
            "web_fetch",
            json!({"urls": [pages.url("/gone"), "http://10.1.2.3/"]}),
            true,
            "",
        ),
        (
            "web_fetch",
            json!({"urls": (0..11).map(|i| pages.url(&format!("/p{i}"))).collect::<Vec<_>>()}),
            true,
            "invalidArgument",
        ),
        (
            "web_fetch",
            json!({"url": pages.url("/short"), "urls": [pages.url("/short")]}),
            true,
            "invalidArgument",
        ),
        ("web_fetch", json!({}), true, "invalidArgument"),
        (
            "web_fetch",
            json!({"urls": [pages.url("/short"), "not a url"]}),
            true,
            "invalidUrl",
        ),
        ("web_search", json!({"query": "schema check"}), false, ""),
        ("web_search", json!({"query": "x"}), true, "invalidQuery"),
        // Arguments as the Inspector sends them are read; what cannot be read
        // is an error result that matches the schema, never a protocol error.
        (
            "web_search",
            json!({"query": "schema check", "maxResults": "2", "safeSearch": "false"}),
            false,
            "",
        ),
        (
            "web_search",
            json!({"query": "schema check", "maxResults": "many"}),
            true,
            "invalidArgument",
        ),
        (
            "web_fetch",
            json!({"url": pages.url("/page"), "includeLinks": "perhaps"}),
            true,
            "invalidArgument",
        ),
        (
            "web_fetch",
            json!({"url": pages.url("/page"), "selector": "p["}),
            true,
            "invalidArgument",
        ),
        // A window of nothing is refused, as the CLI refuses it.
        (
            "web_fetch",
            json!({"url": pages.url("/page"), "maxLength": 0}),
            true,
            "invalidArgument",
        ),
        (
            "web_fetch",
            json!({"url": format!("https://example.com/?q={}", "a".repeat(20_000))}),
            true,
            "invalidUrl",
        ),
        (
            "web_search",
            json!({"query": "wrong key check"}),
            true,
            "authenticationFailed",
        ),
        (
            "web_search",
            json!({"query": "schema check", "provider": "tavily"}),
            true,
            "notConfigured",
        ),
    ];
    for (tool, args, is_error, expected) in cases {
        let params =
            CallToolRequestParams::new(tool).with_arguments(args.as_object().unwrap().clone());
        let answer = client.call_tool(params).await.unwrap();
        let sc = answer
            .structured_content
            .clone()
            .expect("structuredContent");
        assert_eq!(answer.is_error, Some(is_error), "{tool} {args}: {sc}");
        let got = if is_error {
            &sc["errorKind"]
        } else {
            &sc["status"]
        };
        if !expected.is_empty() {
            assert_eq!(got, expected, "{tool} {args}: {sc}");
        }
        if let Some(results) = sc.get("results").filter(|_| tool == "web_fetch") {
            assert!(
                results.as_array().is_some_and(|r| r.len() > 1
                    && r.iter().all(|page| page["status"].is_string())),
                "{tool} {args}: {sc}"
            );
        }
        let errors: Vec<String> = validators[tool]
            .iter_errors(&sc)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{tool} {args}: the answer does not match the output schema: {errors:?}\n{sc}"
        );
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_overloaded_refusal_matches_the_output_schemas() {
    // One call holds the only slot on a page that never answers; the next
    // calls are refused at once.
    let pages = crate::search_support::Pages::start().await;
    let server = HttpServer::start(None, &[("FARSIGHT_HTTP_MAX_IN_FLIGHT", "1")]).await;
    let transport = crate::mcp_http::transport(&server.mcp_url(), None, &[]);
    let client = ().serve(transport).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    let holder = {
        let peer = client.peer().clone();
        let url = pages.url("/hang");
        tokio::spawn(async move {
            let params = CallToolRequestParams::new("web_fetch")
                .with_arguments(json!({"url": url}).as_object().unwrap().clone());
            peer.call_tool(params).await
        })
    };
    // Wait until the first call is at the page (it holds the slot); bounded
    // so that a server that never fetches fails the test instead of hanging it.
    let reached = tokio::time::timeout(std::time::Duration::from_secs(60), async {
        while pages.hits("/hang") == 0 {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(reached.is_ok(), "the first call never reached the page");
    for tool in &tools {
        let args = if tool.name == "web_fetch" {
            json!({"url": pages.url("/p1")})
        } else {
            json!({"query": "overloaded check"})
        };
        let params = CallToolRequestParams::new(tool.name.clone())
            .with_arguments(args.as_object().unwrap().clone());
        let answer = client.call_tool(params).await.unwrap();
        let sc = answer
            .structured_content
            .clone()
            .expect("structuredContent");
        assert_eq!(answer.is_error, Some(true), "{sc}");
        assert_eq!(sc["errorKind"], "overloaded", "{sc}");
        let validator = jsonschema::draft202012::new(&schema(tool, true)).unwrap();
        let errors: Vec<String> = validator.iter_errors(&sc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}\n{sc}", tool.name);
    }
    holder.abort();
}
