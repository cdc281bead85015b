//! Local stand-ins for search providers (wiremock speaking Brave's, SearXNG's
//! and Jina's JSON) and for the pages a deep search reads (an axum server with
//! one page that never answers), and a configuration that points farsight at
//! them. Nothing reaches the internet: the keyless providers point at a
//! closed local port.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// The question every test page answers in exactly one paragraph.
pub const QUESTION: &str = "when does the lighthouse keeper light the lamp";
/// The words of that paragraph a test looks for.
pub const ANSWER: &str = "lights the lamp at dusk";

/// A page of 40 filler paragraphs about `topic` with the answer paragraph at
/// position `at`.
pub fn page_html(topic: &str, at: usize) -> String {
    let mut paragraphs: Vec<String> = (0..40)
        .map(|i| {
            format!(
                "<p>Paragraph {i} about {topic}: the harbour market sells fresh bread, \
                 the ferry timetable changes in winter, and the museum opens on weekdays.</p>"
            )
        })
        .collect();
    paragraphs.insert(
        at.min(40),
        "<p>Every evening the lighthouse keeper climbs the tower and lights the lamp at dusk, \
         then winds the clockwork that turns the lens until dawn.</p>"
            .to_owned(),
    );
    format!(
        "<!doctype html><html><head><title>{topic} guide</title></head><body><article>\
         <h1>{topic} guide</h1>{}</article></body></html>",
        paragraphs.join("\n")
    )
}

/// The page server: `/p1` .. `/p5` (answer pages), `/missing` (404),
/// `/hang` (never answers), robots.txt absent.
pub struct Pages {
    pub addr: SocketAddr,
    hits: Arc<Mutex<HashMap<String, usize>>>,
}

impl Pages {
    pub async fn start() -> Pages {
        let hits: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
        let counter = hits.clone();
        let app = Router::new().fallback(move |uri: Uri| {
            let counter = counter.clone();
            async move {
                let p = uri.path().to_owned();
                *counter.lock().unwrap().entry(p.clone()).or_default() += 1;
                serve(&p).await
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Pages { addr, hits }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn hits(&self, path: &str) -> usize {
        self.hits.lock().unwrap().get(path).copied().unwrap_or(0)
    }
}

async fn serve(p: &str) -> Response {
    let topics = ["Harbour", "Ferries", "Markets", "Museums", "Weather"];
    if p == "/hang" {
        tokio::time::sleep(Duration::from_secs(120)).await;
    }
    match p.strip_prefix("/p").and_then(|n| n.parse::<usize>().ok()) {
        Some(n) if (1..=5).contains(&n) => (
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            page_html(topics[n - 1], n * 7),
        )
            .into_response(),
        _ => (StatusCode::NOT_FOUND, "no such page").into_response(),
    }
}

/// A Brave Web Search answer with these `(title, url, description)` results.
pub fn brave_body(results: &[(&str, &str, &str)]) -> serde_json::Value {
    let items: Vec<_> = results
        .iter()
        .map(|(t, u, d)| json!({"title": t, "url": u, "description": d, "page_age": "2025-01-15T10:00:00"}))
        .collect();
    json!({"type": "search", "web": {"type": "search", "results": items}})
}

/// A SearXNG JSON answer.
pub fn searxng_body(results: &[(&str, &str, &str)]) -> serde_json::Value {
    let items: Vec<_> = results
        .iter()
        .map(|(t, u, c)| json!({"title": t, "url": u, "content": c}))
        .collect();
    json!({"query": "q", "number_of_results": items.len(), "results": items})
}

/// Brave at a mock server answering every web search with `body`.
pub async fn brave(status: u16, body: serde_json::Value) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/res/v1/web/search"))
        .respond_with(ResponseTemplate::new(status).set_body_json(body))
        .mount(&server)
        .await;
    server
}

/// SearXNG at a mock server.
pub async fn searxng(status: u16, body: serde_json::Value) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/search"))
        .respond_with(ResponseTemplate::new(status).set_body_json(body))
        .mount(&server)
        .await;
    server
}

/// Jina at a mock server, with page content in each result.
pub async fn jina(results: &[(&str, &str, &str, &str)]) -> MockServer {
    let items: Vec<_> = results
        .iter()
        .map(|(t, u, d, c)| json!({"title": t, "url": u, "description": d, "content": c}))
        .collect();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"code": 200, "status": 20000, "data": items})),
        )
        .mount(&server)
        .await;
    server
}

/// A configuration file: pages on 127.0.0.1 reachable, cache in `dir`, the
/// given providers (`(name, base_url)`, keys set to "test"), the keyless
/// providers pointed at a closed port, and `extra` TOML for `[search]`.
pub fn write_search_config(dir: &Path, providers: &[(&str, &str)], search: &str) -> PathBuf {
    let path = dir.join("farsight.toml");
    let mut text = format!(
        "[fetch]\nallow_hosts = [\"127.0.0.1\"]\ntimeout_seconds = 10\n\n\
         [cache]\ndir = {:?}\n\n[search]\n{search}\n\n\
         [providers.duckduckgo]\nbase_url = \"http://127.0.0.1:9\"\n\n\
         [providers.wikipedia]\nbase_url = \"http://127.0.0.1:9\"\n",
        dir.join("cache").display().to_string()
    );
    for (name, url) in providers {
        let key = if *name == "searxng" {
            String::new()
        } else {
            "api_key = \"test\"\n".to_owned()
        };
        text.push_str(&format!(
            "\n[providers.{name}]\n{key}base_url = {url:?}\nrequests_per_second = 100\nburst = 10\n"
        ));
    }
    std::fs::write(&path, text).unwrap();
    path
}

/// The same configuration, resolved, for in-process service tests.
pub fn search_config(dir: &Path, providers: &[(&str, &str)], search: &str) -> farsight::Config {
    let text = std::fs::read_to_string(write_search_config(dir, providers, search)).unwrap();
    farsight::Config::resolve(farsight::config::RawConfig::from_toml(&text).unwrap()).unwrap()
}

/// Environment variables that would add real providers to a child process.
pub const PROVIDER_VARS: [&str; 10] = [
    "BRAVE_API_KEY",
    "TAVILY_API_KEY",
    "GOOGLE_SEARCH_API_KEY",
    "GOOGLE_SEARCH_ENGINE_ID",
    "SERPER_API_KEY",
    "EXA_API_KEY",
    "KAGI_API_KEY",
    "JINA_API_KEY",
    "SEARXNG_URL",
    "FARSIGHT_SEARCH_PROVIDER",
];
