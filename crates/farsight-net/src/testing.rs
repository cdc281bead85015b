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
    /// Serves TLS only (`rediss://`) with the certificate and key files
    /// written in `dir`.
    tls: bool,
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

    /// Like [`RedisServer::start`], serving only TLS with `cert_pem` and
    /// `key_pem` (its chain up to `ca_pem`); clients are not asked for a
    /// certificate.
    #[must_use]
    pub fn start_tls(
        test: &str,
        ca_pem: &str,
        cert_pem: &str,
        key_pem: &str,
    ) -> Option<RedisServer> {
        let files = [
            ("ca.pem", ca_pem),
            ("cert.pem", cert_pem),
            ("key.pem", key_pem),
        ];
        Self::start_inner_with(test, None, &files)
    }

    fn start_inner(test: &str, password: Option<String>) -> Option<RedisServer> {
        Self::start_inner_with(test, password, &[])
    }

    fn start_inner_with(
        test: &str,
        password: Option<String>,
        tls_files: &[(&str, &str)],
    ) -> Option<RedisServer> {
        let installed = Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !installed {
            eprintln!(
                "skipped {test}: redis-server is not installed (apt-get install redis-server)"
            );
            return None;
        }
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let dir =
            std::env::temp_dir().join(format!("farsight-redis-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a directory for redis-server");
        for (name, pem) in tls_files {
            std::fs::write(dir.join(name), pem).expect("the TLS files of redis-server");
        }
        let mut server = RedisServer {
            port,
            password,
            tls: !tls_files.is_empty(),
            dir,
            child: None,
        };
        server.start_again();
        Some(server)
    }

    /// `redis://127.0.0.1:port` (`rediss://` for TLS), with the password
    /// when there is one.
    #[must_use]
    pub fn url(&self) -> String {
        match &self.password {
            Some(p) => format!("{}://:{p}@127.0.0.1:{}", self.scheme(), self.port),
            None => self.url_without_password(),
        }
    }

    /// `redis://127.0.0.1:port` (`rediss://` for TLS), never with a password.
    #[must_use]
    pub fn url_without_password(&self) -> String {
        format!("{}://127.0.0.1:{}", self.scheme(), self.port)
    }

    fn scheme(&self) -> &'static str {
        if self.tls { "rediss" } else { "redis" }
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
        if self.tls {
            let file = |name: &str| self.dir.join(name).display().to_string();
            cmd.args(["--port", "0", "--tls-port", &self.port.to_string()])
                .args(["--tls-cert-file", &file("cert.pem")])
                .args(["--tls-key-file", &file("key.pem")])
                .args(["--tls-ca-cert-file", &file("ca.pem")])
                .args(["--tls-auth-clients", "no"]);
        } else {
            cmd.args(["--port", &self.port.to_string()]);
        }
        cmd.args(["--bind", "127.0.0.1"])
            .args(["--save", ""])
            .args(["--appendonly", "no"])
            .args(["--loglevel", "warning"])
            // DEBUG SLEEP makes a slow Redis for the timeout tests.
            .args(["--enable-debug-command", "local"])
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

/// A `redis://` URL on a loopback port nothing listens on (bound, noted,
/// closed): Redis as an instance sees it when it is down.
///
/// # Panics
///
/// When no loopback port can be bound.
#[must_use]
pub fn unreachable_redis_url() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port();
    format!("redis://127.0.0.1:{port}")
}
