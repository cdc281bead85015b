//! A real `redis-server` for tests: started on a free loopback port in a
//! temporary directory, with no persistence, stopped when dropped, and able
//! to stop and start again on the same port (the outage tests).
//!
//! Where `redis-server` is not installed, `start` prints why and returns
//! `None`, and the test that asked returns early: CI installs Debian's
//! `redis-server`, so the tests run there.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

pub struct RedisServer {
    pub port: u16,
    dir: tempfile::TempDir,
    password: Option<String>,
    child: Option<Child>,
}

impl RedisServer {
    /// A server with no password, or `None` (with a message) where
    /// `redis-server` is missing.
    pub async fn start(test: &str) -> Option<RedisServer> {
        Self::start_with_password(test, None).await
    }

    /// A server that requires `password` (`--requirepass`).
    pub async fn start_with_password(test: &str, password: Option<&str>) -> Option<RedisServer> {
        if Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_err()
        {
            eprintln!(
                "skipping {test}: redis-server is not installed (apt-get install redis-server)"
            );
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let mut server = RedisServer {
            port,
            dir: tempfile::tempdir().expect("a temporary directory"),
            password: password.map(str::to_owned),
            child: None,
        };
        server.start_again().await;
        Some(server)
    }

    /// `redis://` URL of this server, with the password when it has one.
    pub fn url(&self) -> String {
        match &self.password {
            Some(p) => format!("redis://:{p}@127.0.0.1:{}", self.port),
            None => format!("redis://127.0.0.1:{}", self.port),
        }
    }

    /// Kills the server (as a crash or an operator would) and waits for it.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server (again) on the same port, empty, and waits until it
    /// answers `PING`.
    pub async fn start_again(&mut self) {
        self.stop();
        let mut cmd = Command::new("redis-server");
        cmd.args(["--port", &self.port.to_string()])
            .args(["--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(self.dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Some(p) = &self.password {
            cmd.args(["--requirepass", p]);
        }
        self.child = Some(cmd.spawn().expect("redis-server starts"));
        let deadline = Instant::now() + Duration::from_secs(10);
        while !self.answers().await {
            assert!(
                Instant::now() < deadline,
                "redis-server did not answer on port {} within 10 s",
                self.port
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The server answers `PING` (after `AUTH` when it has a password).
    async fn answers(&self) -> bool {
        let Ok(mut s) = tokio::net::TcpStream::connect(("127.0.0.1", self.port)).await else {
            return false;
        };
        let mut command = String::new();
        if let Some(p) = &self.password {
            command.push_str(&format!("AUTH {p}\r\n"));
        }
        command.push_str("PING\r\n");
        if s.write_all(command.as_bytes()).await.is_err() {
            return false;
        }
        let mut reply = Vec::new();
        let mut buf = [0u8; 256];
        let read = tokio::time::timeout(Duration::from_secs(1), async {
            while !String::from_utf8_lossy(&reply).contains("PONG") {
                match s.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => reply.extend_from_slice(&buf[..n]),
                }
            }
        })
        .await;
        read.is_ok() && String::from_utf8_lossy(&reply).contains("PONG")
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}
