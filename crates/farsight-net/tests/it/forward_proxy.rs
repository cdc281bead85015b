//! A tiny forward proxy for the tests: HTTP absolute-form requests and
//! CONNECT tunnels, counting what it is asked and with which
//! `Proxy-Authorization`. It resolves names itself from a table (as a
//! corporate proxy knows names this machine does not), so a test can prove
//! that a name with no local DNS answer is left to the proxy.
//!
//! Self-contained (std, tokio, url): farsight-render's tests include this
//! file too, to count what the browser sends through the user's proxy.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request the proxy got.
#[derive(Clone, Debug)]
pub struct Asked {
    /// `CONNECT` or the method of an absolute-form request.
    pub method: String,
    /// `host:port` for CONNECT, the absolute URL otherwise.
    pub target: String,
    pub proxy_authorization: Option<String>,
}

pub struct ForwardProxy {
    pub addr: SocketAddr,
    asked: Arc<Mutex<Vec<Asked>>>,
}

impl ForwardProxy {
    /// Starts the proxy; `names` maps `host:port` (as asked) to where it
    /// really connects. Other targets are connected to as written.
    pub async fn start(names: &[(&str, SocketAddr)]) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let asked: Arc<Mutex<Vec<Asked>>> = Arc::default();
        let names: Arc<HashMap<String, SocketAddr>> =
            Arc::new(names.iter().map(|(n, a)| ((*n).to_owned(), *a)).collect());
        let log = Arc::clone(&asked);
        tokio::spawn(async move {
            while let Ok((sock, _)) = listener.accept().await {
                let log = Arc::clone(&log);
                let names = Arc::clone(&names);
                tokio::spawn(async move {
                    let _ = serve(sock, &log, &names).await;
                });
            }
        });
        Self { addr, asked }
    }

    /// `http://127.0.0.1:PORT`, with `user:password@` when given.
    pub fn url(&self, login: Option<&str>) -> String {
        match login {
            Some(l) => format!("http://{l}@127.0.0.1:{}", self.addr.port()),
            None => format!("http://127.0.0.1:{}", self.addr.port()),
        }
    }

    pub fn asked(&self) -> Vec<Asked> {
        self.asked.lock().unwrap().clone()
    }
}

async fn serve(
    mut client: TcpStream,
    log: &Mutex<Vec<Asked>>,
    names: &HashMap<String, SocketAddr>,
) -> std::io::Result<()> {
    let head = read_head(&mut client).await?;
    let text = String::from_utf8_lossy(&head).into_owned();
    let mut lines = text.split("\r\n");
    let request_line = lines.next().unwrap_or_default().to_owned();
    let mut parts = request_line.split(' ');
    let method = parts.next().unwrap_or_default().to_owned();
    let target = parts.next().unwrap_or_default().to_owned();
    let proxy_authorization = lines.clone().find_map(|l| {
        l.split_once(':')
            .filter(|(k, _)| k.eq_ignore_ascii_case("proxy-authorization"))
            .map(|(_, v)| v.trim().to_owned())
    });
    log.lock().unwrap().push(Asked {
        method: method.clone(),
        target: target.clone(),
        proxy_authorization,
    });
    if method == "CONNECT" {
        let mut upstream = connect(&target, names).await?;
        client
            .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
            .await?;
        tokio::io::copy_bidirectional(&mut client, &mut upstream).await?;
        return Ok(());
    }
    // Absolute form: `GET http://host:port/path HTTP/1.1`.
    let Ok(url) = url::Url::parse(&target) else {
        client
            .write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            .await?;
        return Ok(());
    };
    let host_port = format!(
        "{}:{}",
        url.host_str().unwrap_or_default(),
        url.port_or_known_default().unwrap_or(80)
    );
    let mut upstream = connect(&host_port, names).await?;
    let path = match url.query() {
        Some(q) => format!("{}?{q}", url.path()),
        None => url.path().to_owned(),
    };
    // One request per connection: the next one may be for another host.
    let mut forwarded = format!("{method} {path} HTTP/1.1\r\n");
    for line in lines.filter(|l| !l.is_empty()) {
        let name = line
            .split(':')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if !matches!(
            name.as_str(),
            "proxy-authorization" | "connection" | "proxy-connection"
        ) {
            forwarded.push_str(line);
            forwarded.push_str("\r\n");
        }
    }
    forwarded.push_str("Connection: close\r\n\r\n");
    upstream.write_all(forwarded.as_bytes()).await?;
    let (mut from_upstream, _) = upstream.split();
    tokio::io::copy(&mut from_upstream, &mut client).await?;
    client.shutdown().await?;
    Ok(())
}

async fn connect(
    host_port: &str,
    names: &HashMap<String, SocketAddr>,
) -> std::io::Result<TcpStream> {
    match names.get(host_port) {
        Some(addr) => TcpStream::connect(addr).await,
        None => TcpStream::connect(host_port).await,
    }
}

/// Reads a request head (up to the blank line).
pub async fn read_head(sock: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1024];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = sock.read(&mut byte).await?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&byte[..n]);
    }
    Ok(buf)
}
