//! A tiny SOCKS5 server for the tests (RFC 1928, with the user name and
//! password method of RFC 1929): `CONNECT` only, recording each target as
//! asked (`name:port` or `address:port`) and the login. Like the forward
//! proxy it resolves names from a table, as a proxy knows names this
//! machine does not.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One tunnel the server was asked for.
#[derive(Clone, Debug)]
pub struct SocksAsked {
    pub target: String,
    /// `user:password` when the client logged in.
    pub login: Option<String>,
}

pub struct SocksProxy {
    pub addr: SocketAddr,
    asked: Arc<Mutex<Vec<SocksAsked>>>,
}

impl SocksProxy {
    pub async fn start(names: &[(&str, SocketAddr)]) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let asked: Arc<Mutex<Vec<SocksAsked>>> = Arc::default();
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

    /// `scheme://[login@]127.0.0.1:PORT`.
    pub fn url(&self, scheme: &str, login: Option<&str>) -> String {
        let login = login.map(|l| format!("{l}@")).unwrap_or_default();
        format!("{scheme}://{login}127.0.0.1:{}", self.addr.port())
    }

    pub fn asked(&self) -> Vec<SocksAsked> {
        self.asked.lock().unwrap().clone()
    }
}

async fn serve(
    mut client: TcpStream,
    log: &Mutex<Vec<SocksAsked>>,
    names: &HashMap<String, SocketAddr>,
) -> std::io::Result<()> {
    let mut head = [0u8; 2];
    client.read_exact(&mut head).await?;
    let mut methods = vec![0u8; usize::from(head[1])];
    client.read_exact(&mut methods).await?;
    let mut login = None;
    if methods.contains(&2) {
        client.write_all(&[5, 2]).await?;
        let mut ver = [0u8; 2];
        client.read_exact(&mut ver).await?;
        let mut user = vec![0u8; usize::from(ver[1])];
        client.read_exact(&mut user).await?;
        let mut plen = [0u8; 1];
        client.read_exact(&mut plen).await?;
        let mut pass = vec![0u8; usize::from(plen[0])];
        client.read_exact(&mut pass).await?;
        login = Some(format!(
            "{}:{}",
            String::from_utf8_lossy(&user),
            String::from_utf8_lossy(&pass)
        ));
        client.write_all(&[1, 0]).await?;
    } else {
        client.write_all(&[5, 0]).await?;
    }
    let mut req = [0u8; 4];
    client.read_exact(&mut req).await?;
    let host = match req[3] {
        1 => {
            let mut a = [0u8; 4];
            client.read_exact(&mut a).await?;
            IpAddr::V4(Ipv4Addr::from(a)).to_string()
        }
        4 => {
            let mut a = [0u8; 16];
            client.read_exact(&mut a).await?;
            format!("[{}]", Ipv6Addr::from(a))
        }
        _ => {
            let mut len = [0u8; 1];
            client.read_exact(&mut len).await?;
            let mut name = vec![0u8; usize::from(len[0])];
            client.read_exact(&mut name).await?;
            String::from_utf8_lossy(&name).into_owned()
        }
    };
    let mut port = [0u8; 2];
    client.read_exact(&mut port).await?;
    let target = format!("{host}:{}", u16::from_be_bytes(port));
    log.lock().unwrap().push(SocksAsked {
        target: target.clone(),
        login,
    });
    let upstream = match names.get(&target) {
        Some(addr) => TcpStream::connect(addr).await,
        None => TcpStream::connect(target.as_str()).await,
    };
    let Ok(mut upstream) = upstream else {
        // General failure.
        client.write_all(&[5, 1, 0, 1, 0, 0, 0, 0, 0, 0]).await?;
        return Ok(());
    };
    client.write_all(&[5, 0, 0, 1, 0, 0, 0, 0, 0, 0]).await?;
    tokio::io::copy_bidirectional(&mut client, &mut upstream).await?;
    Ok(())
}
