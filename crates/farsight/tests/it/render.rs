//! `render` (issue 14) without a browser: `[render].browser_path` names a
//! file that does not exist, so these run alike on machines with Chromium.
//! The flow that needs one (a page written by its script, rendered under
//! `auto`) builds its service with [`service_with_browser`] and a real path.

use std::collections::HashMap;
use std::path::Path;

use farsight::{
    CallOptions, ErrorKind, FetchRequest, FetchSource, FetchStatus, RenderMode, Service,
};

use crate::support::{Canned, PageServer, farsight, write_config};

/// A browser path that no machine has.
pub const NO_BROWSER: &str = "/nonexistent/farsight-test/chromium";

/// A service that reaches 127.0.0.1, caches in `dir`, and renders with the
/// browser at `browser` (`None`: looked for on PATH) under `[render]`'s
/// `extra` lines.
pub fn service_with_browser(dir: &Path, browser: Option<&str>, extra: &str) -> Service {
    let browser = browser
        .map(|b| format!("browser_path = {b:?}\n"))
        .unwrap_or_default();
    let toml = format!(
        "[fetch]\nallow_hosts = [\"127.0.0.1\"]\ntimeout_seconds = 10\n\n\
         [cache]\ndir = {:?}\n\n[render]\n{browser}{extra}",
        dir.join("cache").display().to_string()
    );
    let raw = farsight::config::RawConfig::from_toml(&toml).unwrap();
    Service::new(farsight::Config::resolve(raw).unwrap()).unwrap()
}

/// An application shell: a root, a bundle, nothing else.
const SHELL: &str = r#"<!doctype html><html><head><title>Tide App</title>
<script src="/static/js/main.3f2a.js"></script></head>
<body><div id="root"></div></body></html>"#;

fn next_shell() -> String {
    let body = "Slack water is the short time around high and low tide when the current stops \
        and turns. Divers and pilots plan around it, because the water is calm and clear then. ";
    format!(
        r#"<!doctype html><html><head><title>Slack water</title>
        <script src="/_next/static/chunks/main.js" defer></script></head>
        <body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">
        {{"props":{{"pageProps":{{"id":"p9","body":"{}"}}}},"page":"/[slug]","buildId":"x1"}}
        </script></body></html>"#,
        body.repeat(3).trim_end()
    )
}

fn article() -> String {
    let p: String = (0..8)
        .map(|i| {
            format!(
                "<p>Paragraph {i} of a server-rendered article about harbour walls and the sea.</p>"
            )
        })
        .collect();
    format!(
        "<html><head><title>Walls</title></head><body><article><h1>Walls</h1>{p}</article></body></html>"
    )
}

async fn pages() -> PageServer {
    let mut pages = HashMap::new();
    pages.insert("/shell", Canned::html(SHELL));
    pages.insert("/next", Canned::html(next_shell()));
    pages.insert("/article", Canned::html(article()));
    PageServer::with_pages(pages).await
}

fn asking(url: &str, render: Option<RenderMode>) -> FetchRequest {
    let mut r = FetchRequest::new(url);
    r.render = render;
    r
}

#[tokio::test]
async fn auto_without_a_browser_answers_the_static_page_and_says_how_to_render() {
    let dir = tempfile::tempdir().unwrap();
    let server = pages().await;
    let service = service_with_browser(dir.path(), Some(NO_BROWSER), "");
    // `auto` is the default: the request need not say it.
    for render in [None, Some(RenderMode::Auto)] {
        let r = service
            .web_fetch(
                &asking(&server.url("/shell"), render),
                CallOptions::default(),
            )
            .await;
        assert_eq!(r.status, FetchStatus::Partial, "{r:?}");
        assert_eq!(r.rendered, None, "{r:?}");
        assert_eq!(r.error_kind, None);
        let m = r.message.unwrap();
        assert!(m.contains("built by JavaScript"), "{m}");
        assert!(m.contains("unavailable"), "{m}");
        assert!(m.to_lowercase().contains("chromium"), "{m}");
    }
}

#[tokio::test]
async fn always_without_a_browser_is_an_error_with_a_suggestion() {
    let dir = tempfile::tempdir().unwrap();
    let server = pages().await;
    let service = service_with_browser(dir.path(), Some(NO_BROWSER), "");
    let url = server.url("/article");
    let r = service
        .web_fetch(
            &asking(&url, Some(RenderMode::Always)),
            CallOptions::default(),
        )
        .await;
    assert_eq!(r.status, FetchStatus::Error, "{r:?}");
    assert_eq!(r.error_kind, Some(ErrorKind::NotConfigured), "{r:?}");
    assert_eq!(r.retryable, Some(false));
    assert_eq!(r.url, url);
    assert!(r.suggestion.unwrap().to_lowercase().contains("chromium"));
    // Refused before anything was downloaded.
    assert_eq!(server.hits("/article"), 0);

    // The configured default applies to calls that do not say.
    let service = service_with_browser(dir.path(), Some(NO_BROWSER), "mode = \"always\"\n");
    let r = service
        .web_fetch(&asking(&url, None), CallOptions::default())
        .await;
    assert_eq!(r.error_kind, Some(ErrorKind::NotConfigured), "{r:?}");
    // And a call's own `never` wins over it.
    let r = service
        .web_fetch(
            &asking(&url, Some(RenderMode::Never)),
            CallOptions::default(),
        )
        .await;
    assert_eq!(r.status, FetchStatus::Success, "{r:?}");
}

#[tokio::test]
async fn never_does_not_try_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let server = pages().await;
    let service = service_with_browser(dir.path(), Some(NO_BROWSER), "");
    let r = service
        .web_fetch(
            &asking(&server.url("/shell"), Some(RenderMode::Never)),
            CallOptions::default(),
        )
        .await;
    assert_eq!(r.status, FetchStatus::Partial, "{r:?}");
    assert_eq!(r.rendered, None);
    let m = r.message.unwrap();
    // Had a browser been looked for, the note would say it is unavailable.
    assert!(!m.contains("unavailable"), "{m}");
    assert!(m.contains("render: \"never\""), "{m}");
}

#[tokio::test]
async fn a_static_page_under_auto_is_not_rendered() {
    let dir = tempfile::tempdir().unwrap();
    let server = pages().await;
    let service = service_with_browser(dir.path(), Some(NO_BROWSER), "");
    let r = service
        .web_fetch(
            &asking(&server.url("/article"), None),
            CallOptions::default(),
        )
        .await;
    assert_eq!(r.status, FetchStatus::Success, "{r:?}");
    assert_eq!(r.rendered, None);
    assert_eq!(r.source, None);
    assert_eq!(r.message, None, "no note: no browser was tried");
    assert!(r.content.unwrap().contains("Paragraph 7"));
}

#[tokio::test]
async fn a_shell_with_its_text_in_embedded_state_needs_no_browser() {
    let dir = tempfile::tempdir().unwrap();
    let server = pages().await;
    let service = service_with_browser(dir.path(), Some(NO_BROWSER), "");
    for render in [None, Some(RenderMode::Never)] {
        let r = service
            .web_fetch(
                &asking(&server.url("/next"), render),
                CallOptions::default(),
            )
            .await;
        assert_eq!(r.status, FetchStatus::Success, "{r:?}");
        assert_eq!(r.source, Some(FetchSource::EmbeddedState));
        assert_eq!(r.rendered, None);
        assert_eq!(r.message, None, "{r:?}");
        let c = r.content.unwrap();
        assert!(c.contains("Slack water is the short time"), "{c}");
        assert!(!c.contains("p9") && !c.contains("x1"), "{c}");
    }
}

#[tokio::test]
async fn rendering_switched_off() {
    let dir = tempfile::tempdir().unwrap();
    let server = pages().await;
    let service = service_with_browser(dir.path(), None, "enabled = false\n");
    let r = service
        .web_fetch(&asking(&server.url("/shell"), None), CallOptions::default())
        .await;
    assert_eq!(r.status, FetchStatus::Partial, "{r:?}");
    let m = r.message.unwrap();
    assert!(m.contains("[render].enabled = false"), "{m}");
    assert!(!m.contains("unavailable"), "{m}");
    let r = service
        .web_fetch(
            &asking(&server.url("/shell"), Some(RenderMode::Always)),
            CallOptions::default(),
        )
        .await;
    assert_eq!(r.error_kind, Some(ErrorKind::Disabled), "{r:?}");
    assert!(r.suggestion.unwrap().contains("[render].enabled = true"));
}

#[tokio::test]
async fn several_urls_pass_render_to_each_page() {
    let dir = tempfile::tempdir().unwrap();
    let server = pages().await;
    let service = service_with_browser(dir.path(), Some(NO_BROWSER), "");
    let mut request = FetchRequest::new("");
    request.urls = vec![server.url("/article"), server.url("/shell")];
    request.render = Some(RenderMode::Always);
    let answers = service
        .web_fetch_many(&request, CallOptions::default())
        .await
        .unwrap();
    assert_eq!(answers.status, FetchStatus::Error);
    for r in &answers.results {
        assert_eq!(r.error_kind, Some(ErrorKind::NotConfigured), "{r:?}");
    }
    request.render = Some(RenderMode::Never);
    let answers = service
        .web_fetch_many(&request, CallOptions::default())
        .await
        .unwrap();
    assert_eq!(answers.results[0].status, FetchStatus::Success);
    assert!(
        answers.results[1]
            .message
            .as_deref()
            .unwrap()
            .contains("render: \"never\"")
    );
}

#[tokio::test]
async fn the_cli_takes_render_and_the_environment_names_the_browser() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path());
    let cfg = cfg.to_str().unwrap();
    let server = pages().await;
    let url = server.url("/shell");
    let env = [("FARSIGHT_BROWSER_PATH", NO_BROWSER)];
    let o = farsight(
        &[
            "fetch", &url, "--render", "always", "--json", "--config", cfg,
        ],
        &env,
    )
    .await;
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["errorKind"], "notConfigured", "{json}");
    let o = farsight(&["fetch", &url, "--json", "--config", cfg], &env).await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["status"], "partial", "{json}");
    assert!(json.get("rendered").is_none(), "{json}");
    assert!(
        json["message"].as_str().unwrap().contains("unavailable"),
        "{json}"
    );
    // FARSIGHT_RENDER sets the default; --render wins over it.
    let env = [
        ("FARSIGHT_BROWSER_PATH", NO_BROWSER),
        ("FARSIGHT_RENDER", "always"),
    ];
    let o = farsight(&["fetch", &url, "--json", "--config", cfg], &env).await;
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let o = farsight(&["fetch", &url, "--render", "never", "--config", cfg], &env).await;
    assert_eq!(o.status.code(), Some(0), "{o:?}");

    let o = farsight(&["fetch", &url, "--render", "sometimes"], &[]).await;
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let o = farsight(&["fetch", "--help"], &[]).await;
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(help.contains("--render <WHEN>"), "{help}");
    assert!(help.contains("apt-get install chromium"), "{help}");
    let o = farsight(&["config", "--config", cfg], &env).await;
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(shown.contains("[render]"), "{shown}");
    assert!(shown.contains("mode = \"always\""), "{shown}");
    assert!(
        shown.contains(&format!("browser_path = \"{NO_BROWSER}\"")),
        "{shown}"
    );
}

/// A shell whose bundle writes the article after load: what `auto` is for.
const SCRIPT_WRITTEN: &str = r#"<!doctype html><html><head><title>Tide tables</title>
<script src="/app.js" defer></script></head><body><div id="root"></div></body></html>"#;

const APP_JS: &str = r#"
const root = document.getElementById('root');
const a = document.createElement('article');
for (let i = 0; i < 6; i++) {
  const p = document.createElement('p');
  p.textContent = 'Paragraph ' + i + ': the rendered tide table explains spring and neap tides along the harbour wall.';
  a.appendChild(p);
}
root.appendChild(a);
"#;

/// With a real Chromium (skipped with a message where none is installed):
/// under `auto` a script-built shell is rendered, its content extracted like
/// any page, and the answer says so; a second window starts no browser.
#[tokio::test]
async fn auto_renders_a_page_its_script_writes_with_a_real_browser() {
    let dir = tempfile::tempdir().unwrap();
    let service = service_with_browser(dir.path(), None, "");
    let mut pages = HashMap::new();
    pages.insert("/app", Canned::html(SCRIPT_WRITTEN));
    pages.insert(
        "/app.js",
        Canned::bytes("text/javascript", APP_JS.as_bytes().to_vec()),
    );
    let server = PageServer::with_pages(pages).await;
    let url = server.url("/app");
    let mut first = asking(&url, None);
    first.max_length = 200;
    let r = service.web_fetch(&first, CallOptions::default()).await;
    if r.rendered != Some(true) && r.status != FetchStatus::Success {
        let note = format!("{:?} {:?}", r.message, r.suggestion);
        if note.contains("Chromium") || note.contains("browser") {
            eprintln!("skipped: no browser to render with ({note})");
            return;
        }
    }
    assert_eq!(r.status, FetchStatus::Success, "{r:?}");
    assert_eq!(r.rendered, Some(true), "{r:?}");
    let content = r.content.clone().unwrap_or_default();
    assert!(content.contains("spring and neap tides"), "{content}");
    assert_eq!(server.hits("/app.js"), 1, "the browser ran the bundle");
    let next = r.next_start_index.expect("a second window");
    let mut second = asking(&url, None);
    second.max_length = 200;
    second.start_index = next;
    let r2 = service.web_fetch(&second, CallOptions::default()).await;
    assert_eq!(r2.rendered, Some(true), "{r2:?}");
    assert_eq!(
        server.hits("/app.js"),
        1,
        "the second window starts no browser"
    );
}
