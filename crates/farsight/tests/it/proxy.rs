//! Issue 14 through the service: `[fetch].proxy` carries page fetches,
//! robots.txt and search provider calls; a bad `ca_file` stops the start;
//! a bot wall answers `botChallenge`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use farsight::{CallOptions, FetchRequest, ProviderChoice, SearchRequest, Service};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::search_support::{searxng, searxng_body};
use crate::support::{Canned, PageServer};

/// Each request line the proxy got, with its `Proxy-Authorization`.
type Seen = Arc<Mutex<Vec<(String, Option<String>)>>>;

/// A forward proxy for absolute-form HTTP requests that records each
/// request line and its `Proxy-Authorization`, one request per connection.
async fn counting_proxy() -> (String, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen: Seen = Arc::default();
    let log = Arc::clone(&seen);
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let log = Arc::clone(&log);
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut byte = [0u8; 1024];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match client.read(&mut byte).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&byte[..n]),
                    }
                }
                let text = String::from_utf8_lossy(&head).into_owned();
                let mut lines = text.split("\r\n");
                let first = lines.next().unwrap_or_default().to_owned();
                let auth = lines.clone().find_map(|l| {
                    l.strip_prefix("proxy-authorization: ")
                        .or_else(|| l.strip_prefix("Proxy-Authorization: "))
                        .map(str::to_owned)
                });
                log.lock().unwrap().push((first.clone(), auth));
                let mut parts = first.split(' ');
                let (method, target) = (
                    parts.next().unwrap_or_default(),
                    parts.next().unwrap_or_default(),
                );
                let Ok(url) = url::Url::parse(target) else {
                    return;
                };
                let Ok(mut upstream) = TcpStream::connect(format!(
                    "{}:{}",
                    url.host_str().unwrap_or_default(),
                    url.port_or_known_default().unwrap_or(80)
                ))
                .await
                else {
                    return;
                };
                let path = match url.query() {
                    Some(q) => format!("{}?{q}", url.path()),
                    None => url.path().to_owned(),
                };
                let mut out = format!("{method} {path} HTTP/1.1\r\n");
                for l in lines.filter(|l| !l.is_empty()) {
                    let name = l.split(':').next().unwrap_or_default().to_ascii_lowercase();
                    if !matches!(name.as_str(), "proxy-authorization" | "connection") {
                        out.push_str(l);
                        out.push_str("\r\n");
                    }
                }
                out.push_str("Connection: close\r\n\r\n");
                if upstream.write_all(out.as_bytes()).await.is_ok() {
                    let _ = tokio::io::copy(&mut upstream, &mut client).await;
                }
            });
        }
    });
    (format!("http://farsight:proxy-pw@127.0.0.1:{port}"), seen)
}

fn config(dir: &std::path::Path, fetch_extra: &str, providers: &str) -> farsight::Config {
    let text = format!(
        "[fetch]\nallow_hosts = [\"127.0.0.1\"]\ntimeout_seconds = 10\n{fetch_extra}\n\
         [cache]\ndir = {:?}\n{providers}",
        dir.join("cache").display().to_string()
    );
    farsight::Config::resolve(farsight::config::RawConfig::from_toml(&text).unwrap()).unwrap()
}

#[tokio::test]
async fn pages_robots_and_providers_go_through_the_configured_proxy() {
    let dir = tempfile::tempdir().unwrap();
    let pages = PageServer::start().await;
    let searx = searxng(
        200,
        searxng_body(&[("Tides", "https://tides.example/", "About tides")]),
    )
    .await;
    let (proxy, seen) = counting_proxy().await;
    let service = Service::new(config(
        dir.path(),
        &format!("proxy = {proxy:?}"),
        &format!("[providers.searxng]\nbase_url = {:?}\n", searx.uri()),
    ))
    .unwrap();

    let page = service
        .web_fetch(
            &FetchRequest::new(pages.url("/article")),
            CallOptions::default(),
        )
        .await;
    assert_eq!(page.status, farsight::FetchStatus::Success, "{page:?}");
    let mut search = SearchRequest::new("tides");
    search.provider = Some(ProviderChoice::One("searxng".into()));
    let answer = service
        .web_search(&search, CallOptions::default())
        .await
        .unwrap();
    assert_eq!(answer.results.len(), 1);

    let seen = seen.lock().unwrap().clone();
    let lines: Vec<&str> = seen.iter().map(|(l, _)| l.as_str()).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("GET {}", pages.url("/robots.txt")))),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("GET {}", pages.url("/article")))),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains(&format!("{}/search?", searx.uri()))),
        "{lines:?}"
    );
    // base64("farsight:proxy-pw") on every request.
    assert!(
        seen.iter()
            .all(|(_, a)| a.as_deref() == Some("Basic ZmFyc2lnaHQ6cHJveHktcHc=")),
        "{seen:?}"
    );
    assert_eq!(pages.hits("/article"), 1);
}

#[test]
fn a_missing_ca_file_stops_the_start_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("corp-ca.pem");
    let Err(err) = Service::new(config(
        dir.path(),
        &format!("ca_file = {:?}", missing.display().to_string()),
        "",
    )) else {
        panic!("a missing ca_file must stop the start");
    };
    let shown = format!("{err:#}");
    assert!(
        shown.contains("corp-ca.pem") && shown.contains("fetch.ca_file"),
        "{shown}"
    );
}

#[tokio::test]
async fn a_bot_wall_is_answered_as_bot_challenge() {
    let dir = tempfile::tempdir().unwrap();
    let mut challenge = Canned::html(
        "<html><head><title>Just a moment...</title></head><body>\
         <script>window._cf_chl_opt={cType:'managed'};</script></body></html>",
    );
    challenge.status = 403;
    let pages = PageServer::with_pages(HashMap::from([("/wall", challenge)])).await;
    let service = Service::new(config(dir.path(), "", "")).unwrap();
    let r = service
        .web_fetch(
            &FetchRequest::new(pages.url("/wall")),
            CallOptions::default(),
        )
        .await;
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["errorKind"], "botChallenge", "{json}");
    assert_eq!(json["errorCode"], 403);
    assert!(
        json["message"].as_str().unwrap().contains("Cloudflare"),
        "{json}"
    );
    assert!(json.get("content").is_none(), "{json}");
}
