//! A throwaway `redis-server` for tests (here and in other crates' tests):
//! its own loopback port and directory, no persistence, stopped when
//! dropped, and able to stop and start again on the same port for the
//! outage tests. Behind the `testing` feature; not for production use.

use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One `redis-server` process on `127.0.0.1`.
pub struct RedisServer {
    port: u16,
    password: Option<String>,
    dir: PathBuf,
    child: Option<Child>,
}

impl RedisServer {
    /// Starts one on a free port; `None` (with a message on stderr, so the
    /// test says it was skipped) when `redis-server` is not installed.
    ///
    /// # Panics
    ///
    /// When it is installed but does not start: a broken test machine.
    #[must_use]
    pub fn start(test: &str) -> Option<RedisServer> {
        Self::start_inner(test, None)
    }

    /// Like [`RedisServer::start`], with `--requirepass password`.
    #[must_use]
    pub fn start_with_password(test: &str, password: &str) -> Option<RedisServer> {
        Self::start_inner(test, Some(password.to_owned()))
    }

    fn start_inner(test: &str, password: Option<String>) -> Option<RedisServer> {
        let installed = Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !installed {
            eprintln!("skipped {test}: redis-server is not installed (apt-get install redis-server)");
            return None;
        }
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let dir = std::env::temp_dir().join(format!("farsight-redis-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a directory for redis-server");
        let mut server = RedisServer {
            port,
            password,
            dir,
            child: None,
        };
        server.start_again();
        Some(server)
    }

    /// `redis://127.0.0.1:port`, with the password when there is one.
    #[must_use]
    pub fn url(&self) -> String {
        match &self.password {
            Some(p) => format!("redis://:{p}@127.0.0.1:{}", self.port),
            None => self.url_without_password(),
        }
    }

    /// `redis://127.0.0.1:port`, never with a password.
    #[must_use]
    pub fn url_without_password(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// The port it listens on.
    #[must_use]
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Stops the server (its data is lost: there is no persistence).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again on the same port (after [`RedisServer::stop`]), and
    /// returns once it accepts connections.
    ///
    /// # Panics
    ///
    /// When it does not start within 10 s.
    pub fn start_again(&mut self) {
        self.stop();
        let mut cmd = Command::new("redis-server");
        cmd.args(["--port", &self.port.to_string()])
            .args(["--bind", "127.0.0.1"])
            .args(["--save", ""])
            .args(["--appendonly", "no"])
            .args(["--loglevel", "warning"])
            .arg("--dir")
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Some(p) = &self.password {
            cmd.args(["--requirepass", p]);
        }
        self.child = Some(cmd.spawn().expect("redis-server starts"));
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, self.port));
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect_timeout(&addr, Duration::from_millis(100)).is_err() {
            assert!(
                Instant::now() < deadline,
                "redis-server did not listen on {addr} within 10 s"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
