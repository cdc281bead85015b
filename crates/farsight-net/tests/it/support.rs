//! Servers and fetchers shared by the test modules.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use farsight_net::{Fetcher, FetcherBuilder};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;

/// Serves `router` on 127.0.0.1 on a free port until the test ends.
pub async fn serve(router: Router) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    addr
}

/// A builder that may reach the test servers (127.0.0.1 only), with short
/// limits so that failing tests fail fast.
pub fn builder() -> FetcherBuilder {
    Fetcher::builder()
        .allow_hosts(vec!["127.0.0.1".into()])
        .timeout(Duration::from_secs(10))
        .connect_timeout(Duration::from_secs(5))
}

pub fn fetcher() -> Fetcher {
    builder().build().unwrap()
}

/// A raw TCP server that counts the connections it accepts and answers each
/// with a small HTML page: proof of whether anything was sent at all.
pub struct CountingServer {
    pub addr: SocketAddr,
    pub connections: Arc<AtomicUsize>,
}

impl CountingServer {
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let connections = Arc::new(AtomicUsize::new(0));
        let count = Arc::clone(&connections);
        tokio::spawn(async move {
            while let Ok((mut sock, _)) = listener.accept().await {
                count.fetch_add(1, Ordering::SeqCst);
                tokio::spawn(async move {
                    let _ = read_head(&mut sock).await;
                    let body = "<html><body><p>counted</p></body></html>";
                    let resp = format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = sock.write_all(resp.as_bytes()).await;
                });
            }
        });
        Self { addr, connections }
    }

    pub fn count(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

/// Reads a request head; the test proxy's own, shared here.
pub use crate::forward_proxy::read_head;

/// A shared counter for axum handlers.
#[derive(Clone, Default)]
pub struct Hits(pub Arc<AtomicUsize>);

impl Hits {
    pub fn bump(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
    pub fn get(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// A page at `/page` that counts how often it is downloaded, and its URL.
pub async fn counted_site() -> (String, Hits) {
    let hits = Hits::default();
    let h = hits.clone();
    let app = Router::new().route(
        "/page",
        axum::routing::get(move || {
            h.bump();
            async { axum::response::Html("<html><body><p>cached content</p></body></html>") }
        }),
    );
    let addr = serve(app).await;
    (format!("http://127.0.0.1:{}/page", addr.port()), hits)
}

/// This machine's host name (lower-cased) and the addresses it resolves to,
/// for tests of names that DNS (not a literal) maps to loopback.
pub async fn local_hostname() -> (String, Vec<SocketAddr>) {
    let hostname = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let resolved = match tokio::net::lookup_host((hostname.as_str(), 0)).await {
        Ok(a) => a.collect(),
        Err(_) => Vec::new(),
    };
    (hostname, resolved)
}
