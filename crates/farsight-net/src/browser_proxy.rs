//! The browser's egress: a forward proxy on loopback that farsight runs for
//! its own headless browser only. Every request the browser makes (the page,
//! its scripts, each redirect hop, which the browser follows itself) comes
//! through here and meets the same guard as the fetcher: blocked domains,
//! the URL policy, non-public addresses, `allow_hosts`.
//!
//! - Plain HTTP (absolute-form requests) goes the fetcher's way for that URL
//!   ([`crate::route`]): direct, its resolver checks every address and pins
//!   the connection to a checked one; through the user's upstream proxy when
//!   one applies, after the checks the fetcher runs for proxied requests.
//!   It follows no redirects, so each hop returns here.
//! - HTTPS and WebSockets come as `CONNECT host:port` tunnels, opened by
//!   [`crate::egress::open_tunnel`]: direct, the name is resolved once, every
//!   address checked, and the tunnel opened to a checked address; through the
//!   user's upstream proxy (its own `CONNECT`, or SOCKS5) when one applies to
//!   the target, after the same checks as the fetcher's. Tunnels go to
//!   ports 443 and 80 only, or to any port of a host named in `allow_hosts`:
//!   a tunnel is opaque bytes, and to an arbitrary port of a public host it
//!   could speak SMTP or SSH; a host the user vouched for may run its web
//!   server anywhere (intranets, development servers).
//! - Per-run random credentials (Basic): anything else on the machine that
//!   finds the port gets 407.
//! - Bounds: bytes through (both directions), wall time, open connections.
//!   Refusals are counted and logged at debug by host only (never a URL with
//!   its query, never the credentials).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt as _;
use http::{HeaderMap, HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt as _, Empty, Full, Limited, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::time::Instant;
use url::Url;

use crate::egress::open_tunnel;
use crate::error::{Error, ErrorKind};
use crate::fetcher::send_error;
use crate::guard::Guard;
use crate::proxy_auth::ProxyCredentials;
use crate::proxy_budget::{Budget, Metered, ProxyLimits, ProxyStats, Refusal};
use crate::route::Routes;

type ProxyBody = UnsyncBoxBody<Bytes, std::io::Error>;

/// The header on a response the proxy wrote itself because it refused the
/// request, so the browser's driver can tell a refusal from a site's 403.
pub const REFUSED_HEADER: &str = "x-farsight-egress";

/// A running egress proxy on 127.0.0.1. Stops (every connection closed)
/// when dropped.
pub struct BrowserProxy {
    addr: SocketAddr,
    credentials: ProxyCredentials,
    budget: Arc<Budget>,
    // Dropping the sender ends the accept loop and every connection task.
    _stop: watch::Sender<()>,
}

impl std::fmt::Debug for BrowserProxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BrowserProxy")
            .field("addr", &self.addr)
            .field("stats", &self.budget.stats())
            .finish_non_exhaustive()
    }
}

/// What the connection tasks share.
struct State {
    /// The fetcher's ways out (direct, or through the user's proxy).
    routes: Routes,
    guard: Arc<Guard>,
    connect_timeout: Duration,
    credentials: ProxyCredentials,
    budget: Arc<Budget>,
    deadline: Instant,
    stop: watch::Receiver<()>,
}

impl BrowserProxy {
    pub(crate) async fn start(
        routes: Routes,
        guard: Arc<Guard>,
        connect_timeout: Duration,
        limits: ProxyLimits,
        credentials: ProxyCredentials,
    ) -> Result<Self, Error> {
        if limits.max_connections == 0 || limits.max_bytes == 0 || limits.wall_time.is_zero() {
            return Err(Error::new(
                ErrorKind::InvalidConfig,
                "the browser proxy's limits must all be more than zero",
            ));
        }
        let listener = TcpListener::bind("127.0.0.1:0").await.map_err(|e| {
            Error::new(
                ErrorKind::Network,
                format!("the browser proxy could not listen on 127.0.0.1: {e}"),
            )
        })?;
        let addr = listener.local_addr().map_err(|e| {
            Error::new(
                ErrorKind::Network,
                format!("the browser proxy has no address: {e}"),
            )
        })?;
        let (stop_tx, stop_rx) = watch::channel(());
        let budget = Arc::new(Budget::new(limits.max_bytes));
        let state = Arc::new(State {
            routes,
            guard,
            connect_timeout,
            credentials: credentials.clone(),
            budget: Arc::clone(&budget),
            deadline: Instant::now() + limits.wall_time,
            stop: stop_rx,
        });
        tokio::spawn(accept_loop(
            listener,
            state,
            Arc::new(Semaphore::new(limits.max_connections)),
        ));
        Ok(Self {
            addr,
            credentials,
            budget,
            _stop: stop_tx,
        })
    }

    /// Where the proxy listens (always 127.0.0.1).
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The proxy as a browser's `--proxy-server` value: `http://127.0.0.1:PORT`.
    #[must_use]
    pub fn server(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The credentials the proxy asks for.
    #[must_use]
    pub fn credentials(&self) -> &ProxyCredentials {
        &self.credentials
    }

    /// What it counted so far.
    #[must_use]
    pub fn stats(&self) -> ProxyStats {
        self.budget.stats()
    }

    /// The guard's refusals so far (the first few, by host).
    #[must_use]
    pub fn refusals(&self) -> Vec<Refusal> {
        self.budget.refusals()
    }
}

async fn accept_loop(listener: TcpListener, state: Arc<State>, slots: Arc<Semaphore>) {
    let mut stop = state.stop.clone();
    loop {
        let permit = tokio::select! {
            p = Arc::clone(&slots).acquire_owned() => match p { Ok(p) => p, Err(_) => return },
            _ = stop.changed() => return,
            () = tokio::time::sleep_until(state.deadline) => return,
        };
        let sock = tokio::select! {
            r = listener.accept() => match r {
                Ok((sock, _)) => sock,
                Err(e) => {
                    tracing::debug!("browser proxy accept failed: {e}");
                    continue;
                }
            },
            _ = stop.changed() => return,
            () = tokio::time::sleep_until(state.deadline) => return,
        };
        state.budget.connection();
        tokio::spawn(serve_connection(Arc::clone(&state), sock, permit));
    }
}

async fn serve_connection(state: Arc<State>, sock: TcpStream, permit: OwnedSemaphorePermit) {
    // Tunnels outlive the HTTP connection that opened them; they keep the
    // connection's slot until they end.
    let permit = Arc::new(permit);
    let mut stop = state.stop.clone();
    let deadline = state.deadline;
    let svc_state = Arc::clone(&state);
    let svc = service_fn(move |req| {
        let state = Arc::clone(&svc_state);
        let permit = Arc::clone(&permit);
        async move { Ok::<_, Infallible>(handle(state, req, permit).await) }
    });
    let conn = http1::Builder::new()
        .serve_connection(TokioIo::new(sock), svc)
        .with_upgrades();
    tokio::select! {
        r = conn => if let Err(e) = r { tracing::debug!("browser proxy connection: {e}") },
        _ = stop.changed() => {}
        () = tokio::time::sleep_until(deadline) => {}
    }
}

async fn handle(
    state: Arc<State>,
    req: Request<Incoming>,
    permit: Arc<OwnedSemaphorePermit>,
) -> Response<ProxyBody> {
    let auth = req
        .headers()
        .get(header::PROXY_AUTHORIZATION)
        .map(HeaderValue::as_bytes);
    if !state.credentials.accepts(auth) {
        state.budget.unauthenticated();
        let mut resp = text(
            StatusCode::PROXY_AUTHENTICATION_REQUIRED,
            "proxy credentials required",
        );
        resp.headers_mut().insert(
            header::PROXY_AUTHENTICATE,
            HeaderValue::from_static("Basic realm=\"farsight\""),
        );
        return resp;
    }
    if req.method() == Method::CONNECT {
        tunnel(state, req, permit).await
    } else {
        forward(state, req).await
    }
}

/// `CONNECT host:port`: check, connect to a checked address, answer 200 and
/// copy bytes both ways (counted) until either side closes or a bound hits.
async fn tunnel(
    state: Arc<State>,
    mut req: Request<Incoming>,
    permit: Arc<OwnedSemaphorePermit>,
) -> Response<ProxyBody> {
    let Some(authority) = req.uri().authority().cloned() else {
        return text(StatusCode::BAD_REQUEST, "CONNECT needs host:port");
    };
    let Some(port) = authority.port_u16() else {
        return text(StatusCode::BAD_REQUEST, "CONNECT needs host:port");
    };
    let url = match state.guard.check_url(&format!("https://{authority}/")) {
        Ok(url) => url,
        Err(e) => return refused(&state, authority.host(), &e),
    };
    let Some(host) = url.host() else {
        return text(StatusCode::BAD_REQUEST, "CONNECT needs a host");
    };
    if !matches!(port, 443 | 80) && !state.guard.explicitly_allowed(&host) {
        let e = Error::new(
            ErrorKind::BlockedUrl,
            format!("tunnels go to ports 443 and 80 only, not {port}"),
        );
        return refused(&state, authority.host(), &e);
    }
    let server = match open_tunnel(
        &state.routes,
        &state.guard,
        &url,
        port,
        state.connect_timeout,
    )
    .await
    {
        Ok(s) => s,
        Err(e) if e.kind() == ErrorKind::BlockedUrl => {
            return refused(&state, authority.host(), &e);
        }
        Err(e) => return text(StatusCode::BAD_GATEWAY, e.message()),
    };
    let on_upgrade = hyper::upgrade::on(&mut req);
    let budget = Arc::clone(&state.budget);
    let mut stop = state.stop.clone();
    let deadline = state.deadline;
    tokio::spawn(async move {
        let _slot = permit;
        let upgraded = match on_upgrade.await {
            Ok(u) => u,
            Err(e) => {
                tracing::debug!("browser proxy tunnel not upgraded: {e}");
                return;
            }
        };
        let mut client = TokioIo::new(upgraded);
        let mut server = Metered::new(server, budget);
        tokio::select! {
            r = tokio::io::copy_bidirectional(&mut client, &mut server) => {
                if let Err(e) = r { tracing::debug!("browser proxy tunnel ended: {e}") }
            }
            _ = stop.changed() => {}
            () = tokio::time::sleep_until(deadline) => {}
        }
    });
    Response::new(empty())
}

/// An absolute-form `GET http://host/path` (or any method): checked, sent
/// through the fetcher's guarded client, the answer streamed back counted.
async fn forward(state: Arc<State>, req: Request<Incoming>) -> Response<ProxyBody> {
    let raw = req.uri().to_string();
    let host_for_log = req.uri().host().unwrap_or("").to_owned();
    let url: Url = match state.guard.check_url(&raw) {
        Ok(url) => url,
        Err(e) if e.kind() == ErrorKind::BlockedUrl => {
            return refused(&state, &host_for_log, &e);
        }
        Err(e) => return text(StatusCode::BAD_REQUEST, e.message()),
    };
    if url.scheme() != "http" {
        return text(
            StatusCode::BAD_REQUEST,
            "only http:// URLs are forwarded; https goes through CONNECT",
        );
    }
    let (parts, body) = req.into_parts();
    let left = usize::try_from(state.budget.left()).unwrap_or(usize::MAX);
    let body = match Limited::new(body, left).collect().await {
        Ok(b) => b.to_bytes(),
        Err(_) => {
            state.budget.take(left.saturating_add(1));
            return text(
                StatusCode::PAYLOAD_TOO_LARGE,
                "the request body passes the page's byte budget",
            );
        }
    };
    if !state.budget.take(body.len()) {
        return text(
            StatusCode::PAYLOAD_TOO_LARGE,
            "the page's byte budget is spent",
        );
    }
    let route = match state.routes.route(&url).await {
        Ok(route) => route,
        Err(e) if e.kind() == ErrorKind::BlockedUrl => {
            return refused(&state, &host_for_log, &e);
        }
        Err(e) => return text(StatusCode::BAD_GATEWAY, e.message()),
    };
    let resp = match route
        .client
        .request(parts.method, url.clone())
        .headers(end_to_end(parts.headers))
        .body(body)
        .send()
        .await
    {
        Ok(r) => r,
        Err(e) => {
            let err = send_error(&e, &url, route.proxy);
            if err.kind() == ErrorKind::BlockedUrl {
                return refused(&state, &host_for_log, &err);
            }
            return text(StatusCode::BAD_GATEWAY, err.message());
        }
    };
    let mut out = Response::builder().status(resp.status());
    if let Some(h) = out.headers_mut() {
        *h = end_to_end(resp.headers().clone());
    }
    let budget = Arc::clone(&state.budget);
    let stream = resp.bytes_stream().map(move |chunk| match chunk {
        Ok(bytes) if budget.take(bytes.len()) => Ok(Frame::data(bytes)),
        Ok(_) => Err(std::io::Error::other(
            "the page's byte budget through the browser proxy is spent",
        )),
        Err(e) => Err(std::io::Error::other(e)),
    });
    out.body(StreamBody::new(stream).boxed_unsync())
        .unwrap_or_else(|_| text(StatusCode::BAD_GATEWAY, "the response could not be relayed"))
}

/// The headers that belong to the whole request or response, without the
/// hop-by-hop ones (RFC 9110 7.6.1) and the proxy's own.
fn end_to_end(mut headers: HeaderMap) -> HeaderMap {
    let named: Vec<String> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|s| s.trim().to_ascii_lowercase())
        .filter(|s| !s.is_empty())
        .collect();
    for name in named {
        headers.remove(name.as_str());
    }
    for name in [
        header::CONNECTION,
        header::PROXY_AUTHORIZATION,
        header::PROXY_AUTHENTICATE,
        header::TE,
        header::TRAILER,
        header::TRANSFER_ENCODING,
        header::UPGRADE,
        header::HOST,
    ] {
        headers.remove(name);
    }
    headers.remove("proxy-connection");
    headers.remove("keep-alive");
    headers
}

/// Counts and logs a refusal (host only) and answers 403 with the marker
/// header.
fn refused(state: &State, host: &str, e: &Error) -> Response<ProxyBody> {
    state.budget.refuse(Refusal {
        host: host.to_owned(),
        message: e.message().to_owned(),
    });
    let mut resp = text(
        StatusCode::FORBIDDEN,
        &format!("refused by farsight's egress: {}", e.message()),
    );
    resp.headers_mut()
        .insert(REFUSED_HEADER, HeaderValue::from_static("refused"));
    resp
}

fn text(status: StatusCode, message: &str) -> Response<ProxyBody> {
    let mut resp = Response::new(
        Full::new(Bytes::from(message.to_owned()))
            .map_err(|never| match never {})
            .boxed_unsync(),
    );
    *resp.status_mut() = status;
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    resp
}

fn empty() -> ProxyBody {
    Empty::new().map_err(|never| match never {}).boxed_unsync()
}
