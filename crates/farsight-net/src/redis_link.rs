//! The one connection to Redis, the state shared between farsight instances
//! (issue 15): the cache's middle level and the providers' rate budgets go
//! through it, and `/healthz` reads its [`RedisHealth`].
//!
//! Redis is a helper, never a point of failure: every command has a short
//! timeout, a failure makes the link `degraded` (one warning, then debug
//! lines) and callers carry on with their local state, and for a second after
//! a failure no command is even tried, so a dead or blackholed Redis costs a
//! call nothing. A heartbeat (and the next command after that second)
//! reconnects; the way back up is logged once at info level.
//!
//! The URL is never logged or shown with its password: [`redact_redis_url`].

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{FromRedisValue, RedisError};

use crate::error::{Error, ErrorKind};
use crate::tls::TlsTrust;

/// Connecting (TCP, TLS and AUTH) may take this long.
const CONNECT_TIMEOUT: Duration = Duration::from_millis(250);
/// One command (or one pipeline, or one script run) may take this long.
const COMMAND_TIMEOUT: Duration = Duration::from_millis(250);
/// After a failure, commands skip Redis this long before one tries again.
const BACKOFF: Duration = Duration::from_secs(1);
/// The heartbeat checks the link this often, so `/healthz` and the way back
/// up do not wait for traffic.
const HEARTBEAT: Duration = Duration::from_secs(2);

/// A cheap, cloneable handle to one Redis (`[cache].redis_url` or
/// `REDIS_URL`). Clones share the connection and the state.
#[derive(Clone)]
pub struct RedisLink {
    inner: Arc<LinkInner>,
}

struct LinkInner {
    client: redis::Client,
    /// The URL with its password replaced, for messages.
    shown: String,
    /// The live connection; `None` until the first connect and after a
    /// failure (the next attempt builds a new one).
    conn: Mutex<Option<ConnectionManager>>,
    /// Held while connecting: other callers skip Redis instead of queueing.
    connecting: tokio::sync::Mutex<()>,
    /// No command is tried before this instant (set after a failure).
    quiet_until: Mutex<Option<Instant>>,
    health: RedisHealth,
}

/// Whether Redis is usable: what `/healthz`, metrics and per-tenant limits
/// read. Cheap to clone; clones see the same state.
#[derive(Clone, Default)]
pub struct RedisHealth {
    state: Arc<HealthState>,
}

#[derive(Default)]
struct HealthState {
    /// `None` until the first command or heartbeat has answered or failed.
    status: Mutex<Option<RedisStatus>>,
    /// How many times the link went from up (or not yet reached) to degraded.
    outages: AtomicU64,
}

/// The state of the link to Redis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RedisStatus {
    /// The last command succeeded.
    Up,
    /// Redis is not reached, too slow, or refuses; instances use their local
    /// cache and budgets meanwhile.
    Degraded {
        /// Why, for `/healthz` and logs: `redis: connection refused`.
        reason: String,
    },
}

/// What the shared GCRA budget said to one request: go now, or not before a
/// wait (the caller sleeps and asks again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GcraVerdict {
    /// The request is counted against the budget: go.
    Allowed,
    /// The budget is used up: ask again after this long.
    Wait(Duration),
}

impl std::fmt::Debug for RedisLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisLink")
            .field("url", &self.inner.shown)
            .field("status", &self.inner.health.status())
            .finish()
    }
}

impl std::fmt::Debug for RedisHealth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("RedisHealth").field(&self.status()).finish()
    }
}

impl RedisLink {
    /// A link to the Redis at `url` (`redis://[user:password@]host:port[/db]`
    /// or `rediss://` for TLS, which trusts the system's CA store). Connects
    /// lazily; when called inside a tokio runtime it also starts the
    /// heartbeat, which makes the first attempt at once.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidConfig`] error when the URL is not a Redis URL.
    pub fn open(url: &str) -> Result<RedisLink, Error> {
        Self::build(url, None)
    }

    /// Like [`RedisLink::open`], with `rediss://` also trusting the extra CA
    /// file of `trust` (`[fetch].ca_file` or `SSL_CERT_FILE`), beside the
    /// system store. The compiled-in webpki roots are not used for Redis:
    /// redis-rs takes trusted CAs as PEM, not farsight's rustls settings.
    ///
    /// # Errors
    ///
    /// As [`RedisLink::open`].
    pub fn open_trusting(url: &str, trust: &TlsTrust) -> Result<RedisLink, Error> {
        Self::build(url, trust.pem_bundle())
    }

    fn build(url: &str, roots_pem: Option<&[u8]>) -> Result<RedisLink, Error> {
        let shown = redact_redis_url(url);
        let bad_url = |e: RedisError| {
            Error::new(
                ErrorKind::InvalidConfig,
                format!("[cache].redis_url {shown} is not a Redis URL: {e}"),
            )
            .with_suggestion(
                "Write redis://[:password@]host:6379[/db], or rediss://... for TLS (REDIS_URL or [cache].redis_url).",
            )
        };
        let client = match roots_pem {
            Some(pem) if url.starts_with("rediss:") => redis::Client::build_with_tls(
                url,
                redis::TlsCertificates {
                    client_tls: None,
                    root_cert: Some(pem.to_vec()),
                },
            ),
            _ => redis::Client::open(url),
        }
        .map_err(bad_url)?;
        let link = RedisLink {
            inner: Arc::new(LinkInner {
                client,
                shown,
                conn: Mutex::new(None),
                connecting: tokio::sync::Mutex::new(()),
                quiet_until: Mutex::new(None),
                health: RedisHealth::default(),
            }),
        };
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(heartbeat(Arc::downgrade(&link.inner)));
        }
        Ok(link)
    }

    /// The URL with its password hidden.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.inner.shown
    }

    /// The link's state, as a handle that outlives this one.
    #[must_use]
    pub fn health(&self) -> RedisHealth {
        self.inner.health.clone()
    }

    /// Checks the link now (a `PING`); `true` when Redis answered.
    pub async fn ping(&self) -> bool {
        self.query::<String>(&redis::cmd("PING")).await.is_some()
    }

    /// Counts one request against the budget stored under
    /// `farsight:gcra:{key}`: at most `burst` back to back, then one per
    /// `period`, for every instance sharing this Redis. The state lives in
    /// Redis and is updated atomically by a Lua script on Redis' own clock,
    /// so the instances' clocks do not matter. Providers use
    /// `provider:{name}` as `key`.
    ///
    /// `None` when Redis is unavailable (or the arguments cannot be
    /// expressed, a zero period): the caller uses its local limiter.
    pub async fn gcra(&self, key: &str, period: Duration, burst: u32) -> Option<GcraVerdict> {
        let period_us = u64::try_from(period.as_micros()).ok().filter(|p| *p > 0)?;
        let script = crate::gcra::script();
        let mut invocation = script.key(format!("farsight:gcra:{key}"));
        invocation.arg(period_us).arg(burst.max(1));
        let invocation = &invocation;
        let wait_us: u64 = self
            .run(|mut conn| async move { invocation.invoke_async(&mut conn).await })
            .await?;
        Some(if wait_us == 0 {
            GcraVerdict::Allowed
        } else {
            GcraVerdict::Wait(Duration::from_micros(wait_us))
        })
    }

    /// Runs one command; `None` when Redis is unavailable or failed it.
    pub(crate) async fn query<T: FromRedisValue + Send + 'static>(
        &self,
        cmd: &redis::Cmd,
    ) -> Option<T> {
        self.run(|mut conn| async move { cmd.query_async(&mut conn).await })
            .await
    }

    /// Runs a pipeline; `None` when Redis is unavailable or failed it.
    pub(crate) async fn query_pipe<T: FromRedisValue + Send + 'static>(
        &self,
        pipe: &redis::Pipeline,
    ) -> Option<T> {
        self.run(|mut conn| async move { pipe.query_async(&mut conn).await })
            .await
    }

    /// Gets a connection, runs `op` on it within the command timeout, and
    /// records the outcome in the health state. A connection found dropped
    /// (Redis restarted, or closed an idle client) is replaced and `op` run
    /// once more on the new one, so that alone neither fails the call nor
    /// counts as an outage.
    async fn run<T, F, Fut>(&self, op: F) -> Option<T>
    where
        F: Fn(ConnectionManager) -> Fut,
        Fut: std::future::Future<Output = Result<T, RedisError>>,
    {
        let conn = self.connection().await?;
        let outcome = match tokio::time::timeout(COMMAND_TIMEOUT, op(conn)).await {
            // Not after a timeout: a slow Redis would then hold the call twice.
            Ok(Err(e)) if (e.is_connection_dropped() || e.is_io_error()) && !e.is_timeout() => {
                *lock(&self.inner.conn) = None;
                let conn = self.connection().await?;
                tokio::time::timeout(COMMAND_TIMEOUT, op(conn)).await
            }
            first => first,
        };
        match outcome {
            Ok(Ok(value)) => {
                self.inner.health.record_up(&self.inner.shown);
                Some(value)
            }
            Ok(Err(e)) => {
                self.failed(describe(&e));
                None
            }
            Err(_) => {
                self.failed("redis: no answer within 250 ms".to_owned());
                None
            }
        }
    }

    /// The live connection, or a new one; `None` while in the quiet second
    /// after a failure, while another task is connecting, or when
    /// connecting fails.
    async fn connection(&self) -> Option<ConnectionManager> {
        if let Some(conn) = lock(&self.inner.conn).clone() {
            return Some(conn);
        }
        if lock(&self.inner.quiet_until).is_some_and(|t| Instant::now() < t) {
            return None;
        }
        let _connecting = self.inner.connecting.try_lock().ok()?;
        // Another task may have connected while this one waited for the lock.
        if let Some(conn) = lock(&self.inner.conn).clone() {
            return Some(conn);
        }
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CONNECT_TIMEOUT))
            .set_response_timeout(Some(COMMAND_TIMEOUT))
            // Retrying inside the manager would hold the caller; the quiet
            // second and the heartbeat do the retrying here.
            .set_number_of_retries(0);
        let attempt = ConnectionManager::new_with_config(self.inner.client.clone(), config);
        match tokio::time::timeout(CONNECT_TIMEOUT * 2, attempt).await {
            Ok(Ok(conn)) => {
                *lock(&self.inner.conn) = Some(conn.clone());
                Some(conn)
            }
            Ok(Err(e)) => {
                self.failed(describe(&e));
                None
            }
            Err(_) => {
                self.failed("redis: could not connect within 500 ms".to_owned());
                None
            }
        }
    }

    /// Drops the connection (the next attempt builds a new one, whatever
    /// state the old one was left in) and keeps quiet for a moment.
    fn failed(&self, reason: String) {
        *lock(&self.inner.conn) = None;
        *lock(&self.inner.quiet_until) = Some(Instant::now() + BACKOFF);
        self.inner.health.record_down(reason, &self.inner.shown);
    }
}

/// Pings every [`HEARTBEAT`] until the last handle is dropped.
async fn heartbeat(link: Weak<LinkInner>) {
    loop {
        let Some(inner) = link.upgrade() else {
            return;
        };
        RedisLink { inner }.ping().await;
        tokio::time::sleep(HEARTBEAT).await;
    }
}

impl RedisHealth {
    /// The current state. Before Redis was first reached, degraded with
    /// `redis: not reached yet`.
    #[must_use]
    pub fn status(&self) -> RedisStatus {
        lock(&self.state.status)
            .clone()
            .unwrap_or_else(|| RedisStatus::Degraded {
                reason: "redis: not reached yet".to_owned(),
            })
    }

    /// Whether the last command succeeded.
    #[must_use]
    pub fn is_up(&self) -> bool {
        self.status() == RedisStatus::Up
    }

    /// How many times Redis went away since the start (each logged once).
    #[must_use]
    pub fn outages(&self) -> u64 {
        self.state.outages.load(Ordering::Relaxed)
    }

    fn record_up(&self, shown: &str) {
        let mut status = lock(&self.state.status);
        if *status != Some(RedisStatus::Up) {
            tracing::info!("redis at {shown} is up: shared cache and rate budgets in use");
            *status = Some(RedisStatus::Up);
        }
    }

    fn record_down(&self, reason: String, shown: &str) {
        let mut status = lock(&self.state.status);
        match &*status {
            Some(RedisStatus::Degraded { .. }) => {
                tracing::debug!("redis at {shown} still unavailable: {reason}");
            }
            _ => {
                self.state.outages.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(
                    "redis at {shown} unavailable ({reason}): using the local cache and rate budgets until it is back"
                );
            }
        }
        *status = Some(RedisStatus::Degraded { reason });
    }
}

/// A short reason for `/healthz`: `redis: connection refused`.
fn describe(e: &RedisError) -> String {
    if e.is_connection_refusal() {
        "redis: connection refused".to_owned()
    } else if e.is_timeout() {
        "redis: timed out".to_owned()
    } else if e.is_connection_dropped() {
        "redis: connection lost".to_owned()
    } else {
        // Server replies (NOAUTH, WRONGPASS, READONLY...) and TLS failures;
        // none of them carries the URL.
        format!("redis: {e}")
    }
}

/// `url` with its password replaced by `***` (the user name stays), for
/// logs and `farsight config`. A URL that does not parse is hidden whole
/// after its scheme, since it may still hold a password.
#[must_use]
pub fn redact_redis_url(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) => {
            if parsed.password().is_some() {
                // Only fails for URLs that cannot have a password.
                let _ = parsed.set_password(Some("***"));
            }
            parsed.to_string()
        }
        Err(_) => match url.split_once("://") {
            Some((scheme, _)) => format!("{scheme}://***"),
            None => "***".to_owned(),
        },
    }
}

/// A poisoned lock still holds usable state here (plain values).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(
            redact_redis_url("redis://:s3cret@cache.internal:6379/2"),
            "redis://:***@cache.internal:6379/2"
        );
        assert_eq!(
            redact_redis_url("rediss://app:s3cret@cache.internal"),
            "rediss://app:***@cache.internal"
        );
        assert_eq!(
            redact_redis_url("redis://127.0.0.1:6379"),
            "redis://127.0.0.1:6379"
        );
        assert_eq!(redact_redis_url("redis://:s3cret@[bad"), "redis://***");
    }

    #[test]
    fn a_bad_url_is_a_config_error_without_the_password() {
        let e = RedisLink::open("http://:s3cret@host").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidConfig);
        assert!(!e.to_string().contains("s3cret"), "{e}");
    }

    #[tokio::test]
    async fn nothing_listening_is_degraded_once_and_fast() {
        // A port nothing listens on: bind one, note it, close it.
        let link = RedisLink::open(&crate::testing::unreachable_redis_url()).unwrap();
        for _ in 0..5 {
            assert!(!link.ping().await);
        }
        let health = link.health();
        assert_eq!(
            health.status(),
            RedisStatus::Degraded {
                reason: "redis: connection refused".into()
            }
        );
        assert_eq!(health.outages(), 1);
    }
}
