//! Prints how long `web_fetch` takes for the first window of a large page and
//! for reading on (issue 10: reading on must not extract the page again).
//!
//! Run in a release build:
//! `cargo run --release -p farsight --example window_timing`
//!
//! The page (about 1.6 MB of HTML) is served on 127.0.0.1; nothing reaches the
//! internet. Figures are medians over a few rounds, each on a fresh cache.
#![allow(clippy::print_stdout)]

use std::time::{Duration, Instant};

use farsight::{CallOptions, Config, FetchRequest, Service, extract_document};

const ROUNDS: usize = 5;

fn large_page() -> String {
    let mut body = String::new();
    for section in 0..360 {
        body.push_str(&format!("<h2>Section {section}</h2>\n"));
        for p in 0..20 {
            body.push_str(&format!(
                "<p>Paragraph {p} of section {section} explains how tides move harbours, \
                 with <a href=\"/ref/{section}/{p}\">a reference</a>, <em>some emphasis</em> \
                 and enough words to look like a real article body in a long document.</p>\n"
            ));
        }
        body.push_str(
            "<table><tr><th>Port</th><th>Range</th></tr><tr><td>Brest</td><td>7 m</td></tr></table>\n",
        );
    }
    let nav: String = (0..400)
        .map(|i| format!("<li><a href=\"/nav/{i}\">Navigation {i}</a></li>"))
        .collect();
    format!(
        "<!doctype html><html><head><title>Tides, a long page</title></head><body>\
         <nav><ul>{nav}</ul></nav><article><h1>Tides</h1>{body}</article>\
         <footer>Copyright</footer></body></html>"
    )
}

fn service(cache_dir: &std::path::Path) -> Service {
    let toml = format!(
        "[fetch]\nallow_hosts = [\"127.0.0.1\"]\n[cache]\ndir = {:?}\n",
        cache_dir.display().to_string()
    );
    let raw = farsight::config::RawConfig::from_toml(&toml).expect("config");
    Service::new(Config::resolve(raw).expect("config")).expect("service")
}

async fn timed(service: &Service, req: &FetchRequest) -> (Duration, farsight::FetchResponse) {
    let t = Instant::now();
    let r = service.web_fetch(req, CallOptions::default()).await;
    (t.elapsed(), r)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

#[tokio::main]
async fn main() {
    let html = large_page();
    let page_bytes = html.len();
    let served = html.clone();
    let app = axum::Router::new().route(
        "/large",
        axum::routing::get(move || {
            let h = served.clone();
            async move { axum::response::Html(h) }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}/large", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, app).await });

    let (mut first, mut same, mut other, mut focus, mut extract) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut content_length = 0;
    for _ in 0..ROUNDS {
        let dir = tempfile::tempdir().expect("tempdir");
        let a = service(dir.path());
        let mut req = FetchRequest::new(&url);
        // Window 1: download, extract, store page and document.
        let (t, r) = timed(&a, &req).await;
        first.push(t);
        content_length = r.content_length.unwrap_or(0);
        // Window 2 in the same process (an MCP session reading on).
        req.start_index = r.next_start_index.expect("a second window");
        let (t, _) = timed(&a, &req).await;
        same.push(t);
        // Window 3 in another process: a new service has nothing in memory
        // and reads the shared file.
        let b = service(dir.path());
        req.start_index *= 2;
        let (t, _) = timed(&b, &req).await;
        other.push(t);
        // A focus call on the same page.
        req.start_index = 0;
        req.focus = Some("section 297 harbours".to_owned());
        let (t, _) = timed(&b, &req).await;
        focus.push(t);
        // What each of those would cost if it extracted again.
        let options = farsight_extract::ExtractOptions::new(farsight_extract::Format::Markdown)
            .base_url(&url)
            .include_links(true);
        let t = Instant::now();
        extract_document(html.clone(), options).await;
        extract.push(t.elapsed());
    }
    println!(
        "page: {page_bytes} bytes of HTML, {content_length} characters of Markdown; median of {ROUNDS}"
    );
    println!(
        "first window (download + extract + store):  {:?}",
        median(first)
    );
    println!(
        "second window, same process:                {:?}",
        median(same)
    );
    println!(
        "third window, another process (disk):       {:?}",
        median(other)
    );
    println!(
        "focus call, another process (disk):         {:?}",
        median(focus)
    );
    println!(
        "extraction alone (what reading on cost before): {:?}",
        median(extract)
    );
}
