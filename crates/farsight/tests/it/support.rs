//! A local page server that counts the requests it serves, and a
//! configuration that lets farsight reach it.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

/// One canned response.
#[derive(Clone)]
pub struct Canned {
    pub status: u16,
    pub content_type: &'static str,
    /// Bytes, so documents (PDF, DOCX) are served as they are.
    pub body: Vec<u8>,
    pub headers: Vec<(&'static str, &'static str)>,
}

impl Canned {
    pub fn html(body: impl Into<String>) -> Self {
        Self {
            status: 200,
            content_type: "text/html; charset=utf-8",
            body: body.into().into_bytes(),
            headers: Vec::new(),
        }
    }

    /// `body` as it is, with its content type.
    pub fn bytes(content_type: &'static str, body: Vec<u8>) -> Self {
        Self {
            status: 200,
            content_type,
            body,
            headers: Vec::new(),
        }
    }
}

pub struct PageServer {
    pub addr: SocketAddr,
    hits: Arc<Mutex<HashMap<String, usize>>>,
}

impl PageServer {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Requests served for `path` so far.
    pub fn hits(&self, path: &str) -> usize {
        self.hits.lock().unwrap().get(path).copied().unwrap_or(0)
    }

    /// Serves the standard test pages.
    pub async fn start() -> PageServer {
        Self::with_pages(standard_pages()).await
    }

    pub async fn with_pages(pages: HashMap<&'static str, Canned>) -> PageServer {
        Self::with_delay(pages, "", std::time::Duration::ZERO).await
    }

    /// Serves `pages`, answering `slow_path` only after `delay`.
    pub async fn with_delay(
        pages: HashMap<&'static str, Canned>,
        slow_path: &'static str,
        delay: std::time::Duration,
    ) -> PageServer {
        let hits: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
        let pages = Arc::new(pages);
        let counter = hits.clone();
        let app = Router::new().fallback(move |uri: Uri| {
            let pages = pages.clone();
            let counter = counter.clone();
            async move {
                *counter
                    .lock()
                    .unwrap()
                    .entry(uri.path().to_owned())
                    .or_default() += 1;
                if uri.path() == slow_path {
                    tokio::time::sleep(delay).await;
                }
                match pages.get(uri.path()) {
                    Some(c) => respond(c),
                    None => (StatusCode::NOT_FOUND, "no such page").into_response(),
                }
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        PageServer { addr, hits }
    }
}

fn respond(c: &Canned) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(c.content_type),
    );
    for (k, v) in &c.headers {
        headers.insert(*k, HeaderValue::from_static(v));
    }
    (
        StatusCode::from_u16(c.status).unwrap(),
        headers,
        c.body.clone(),
    )
        .into_response()
}

/// A long article: 60 paragraphs of about 120 characters each.
pub fn long_article() -> String {
    let paragraphs: String = (0..60)
        .map(|i| {
            format!(
                "<p>Paragraph {i} of the long article explains one more thing about lighthouses, \
                 their <a href=\"/keepers/{}\">keepers</a> and the ships they guided home.</p>\n",
                i % 3
            )
        })
        .collect();
    format!(
        "<!doctype html><html lang=\"en\"><head><title>Lighthouses | Coast Site</title>\
         <meta name=\"description\" content=\"All about lighthouses\">\
         <meta property=\"og:site_name\" content=\"Coast Site\">\
         <meta name=\"author\" content=\"Ada Keeper\"></head><body>\
         <nav><a href=\"/\">Home</a> <a href=\"/about\">About</a></nav>\
         <article><h1>Lighthouses</h1>\
         <table class=\"infobox\"><tr><th>Tallest</th><td>Jeddah Light</td></tr></table>\
         {paragraphs}<p>Read <a href=\"/more\">more about keepers</a>.</p></article>\
         <footer>Copyright</footer></body></html>"
    )
}

pub fn standard_pages() -> HashMap<&'static str, Canned> {
    let mut pages = HashMap::new();
    pages.insert("/article", Canned::html(long_article()));
    pages.insert(
        "/short",
        Canned::html(
            "<html><head><title>Short page</title></head><body><main><h1>Short page</h1>\
             <p>A short page with one paragraph of text, long enough to be taken as the \
             main content by the extractor, and <a href=\"/article\">a link</a>.</p>\
             <p>It has a second paragraph, with <strong>bold</strong> words in it, for \
             good measure and a little more length.</p></main></body></html>",
        ),
    );
    pages.insert(
        "/data.json",
        Canned {
            status: 200,
            content_type: "application/json",
            body: "{\"name\": \"farsight\", \"tools\": [\"web_fetch\"]}".into(),
            headers: Vec::new(),
        },
    );
    pages.insert(
        "/app",
        Canned::html(
            "<html><head><title>App</title><script src=\"/app.js\"></script></head>\
             <body><div id=\"root\"></div><noscript></noscript></body></html>",
        ),
    );
    pages.insert(
        "/busy",
        Canned {
            status: 503,
            content_type: "text/plain",
            body: "busy".into(),
            headers: vec![("retry-after", "7")],
        },
    );
    pages.insert(
        "/private",
        Canned {
            status: 403,
            content_type: "text/html",
            body: "<h1>Forbidden</h1>".into(),
            headers: Vec::new(),
        },
    );
    pages
}

/// A configuration file that lets farsight reach 127.0.0.1 and caches in `dir`.
/// The binary run as a user would run it, with nothing of the caller's
/// farsight or provider settings in its environment, plus `env`.
pub async fn farsight(args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_farsight"));
    cmd.args(args)
        .env_remove("FARSIGHT_CONFIG")
        .env_remove("WEB_FETCH_ENABLED")
        .env_remove("WEB_SEARCH_ENABLED")
        .env_remove("RUST_LOG");
    for v in crate::search_support::PROVIDER_VARS {
        cmd.env_remove(v);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().await.unwrap()
}

pub fn write_config(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("farsight.toml");
    let cache = dir.join("cache");
    std::fs::write(
        &path,
        format!(
            "[fetch]\nallow_hosts = [\"127.0.0.1\"]\ntimeout_seconds = 10\n\n\
             [cache]\ndir = {:?}\n",
            cache.display().to_string()
        ),
    )
    .unwrap();
    path
}

/// The same configuration, resolved, for in-process service tests.
pub fn config(dir: &Path) -> farsight::Config {
    let raw = farsight::config::RawConfig::from_toml(
        &std::fs::read_to_string(write_config(dir)).unwrap(),
    )
    .unwrap();
    farsight::Config::resolve(raw).unwrap()
}
