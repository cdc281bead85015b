//! A tunnel to `host:port` through the user's upstream proxy, for the
//! browser's `CONNECT` requests: HTTP `CONNECT` to an `http://` proxy, the
//! SOCKS5 handshake to a `socks5://` or `socks5h://` one. The handshakes are
//! hyper-util's (the code reqwest's proxied client runs too); this file picks
//! one, bounds it in time, and says what failed without the proxy's login.
//!
//! - `socks5h://` and `http://`: the proxy resolves the name (it was checked
//!   here first when it resolves here, see [`crate::route`]).
//! - `socks5://` means "resolve on this machine": the tunnel goes to the
//!   address the guard checked, so the proxy is told an address, never a
//!   name it could resolve elsewhere.
//! - An `https://` proxy (TLS to the proxy itself) is refused for tunnels,
//!   clearly, not bypassed: a TLS layer under the CONNECT (tokio-rustls with
//!   the fetcher's trust store) is not written yet. Plain-HTTP requests of
//!   the browser do go through such a proxy (reqwest's client speaks it).

use std::fmt::Write as _;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use base64::Engine as _;
use http::{HeaderValue, Uri};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::connect::proxy::{SocksV5, Tunnel};
use hyper_util::rt::TokioIo;
use percent_encoding::percent_decode_str;
use tokio::net::TcpStream;
use tower_service::Service;
use url::{Host, Url};

use crate::error::{Error, ErrorKind};
use crate::route::TunnelRoute;
use crate::upstream_proxy::redact_proxy_url;

/// SOCKS servers listen here unless told otherwise (RFC 1928).
const SOCKS_PORT: u16 = 1080;

/// Opens a tunnel to `host:port` through `route`'s proxy; the whole
/// handshake (connecting to the proxy included) takes at most `timeout`.
pub(crate) async fn connect_through(
    route: &TunnelRoute<'_>,
    host: &Host<&str>,
    port: u16,
    timeout: Duration,
) -> Result<TcpStream, Error> {
    let proxy = route.proxy_url;
    let shown = redact_proxy_url(proxy.as_str());
    let failed = |why: &str| {
        Error::new(
            ErrorKind::Network,
            format!(
                "could not open a tunnel to {host}:{port} through the proxy {shown}: {}",
                route.proxy.scrub(why)
            ),
        )
        .with_suggestion(
            "Check that the proxy is up, allows CONNECT to this port, and accepts farsight's \
             login ([fetch].proxy, or HTTPS_PROXY with [fetch].use_env_proxy).",
        )
    };
    let handshake = async {
        match proxy.scheme() {
            "http" => http_connect(proxy, host, port, timeout).await,
            "socks5" | "socks5h" => socks5(proxy, host, port, route.local_peer, timeout).await,
            other => Err(format!(
                "tunnels through a {other}:// proxy are not supported; name the proxy as \
                 http:// (it still carries HTTPS end to end) or socks5h://"
            )),
        }
    };
    match tokio::time::timeout(timeout, handshake).await {
        Ok(Ok(io)) => Ok(io.into_inner()),
        Ok(Err(why)) => Err(failed(&why)),
        Err(_) => Err(Error::new(
            ErrorKind::Timeout,
            format!("opening a tunnel to {host}:{port} through the proxy {shown} timed out"),
        )
        .with_suggestion("The proxy is slow or unreachable; try again later.")),
    }
}

/// `CONNECT host:port` to an HTTP proxy, with `Proxy-Authorization: Basic`
/// when its URL carries a login. hyper-util reads the answer's head (at most
/// 8 KiB) and hands the stream back on 200 only.
async fn http_connect(
    proxy: &Url,
    host: &Host<&str>,
    port: u16,
    timeout: Duration,
) -> Result<TokioIo<TcpStream>, String> {
    let mut svc = Tunnel::new(proxy_uri(proxy, 80)?, connector(timeout));
    if let Some((user, password)) = login(proxy) {
        let token = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
        let mut value = HeaderValue::try_from(format!("Basic {token}"))
            .map_err(|_| "the proxy's login cannot be sent in a header".to_owned())?;
        value.set_sensitive(true);
        svc = svc.with_auth(value);
    }
    let target = uri(&format!("https://{host}:{port}"))?;
    std::future::poll_fn(|cx| svc.poll_ready(cx))
        .await
        .map_err(|e| chain(&e))?;
    svc.call(target).await.map_err(|e| chain(&e))
}

/// The SOCKS5 handshake, with the user name/password method when the URL
/// carries a login.
async fn socks5(
    proxy: &Url,
    host: &Host<&str>,
    port: u16,
    local_peer: Option<IpAddr>,
    timeout: Duration,
) -> Result<TokioIo<TcpStream>, String> {
    let target = match (proxy.scheme(), host) {
        // The proxy resolves the name.
        ("socks5h", _) | (_, Host::Ipv4(_) | Host::Ipv6(_)) => format!("http://{host}:{port}"),
        (_, Host::Domain(name)) => match local_peer {
            Some(ip) => format!("http://{}", SocketAddr::new(ip, port)),
            None => {
                return Err(format!(
                    "{name} does not resolve on this machine, and socks5:// resolves names here; \
                     socks5h:// lets the proxy resolve them"
                ));
            }
        },
    };
    // hyper-util resolves a name itself only with `local_dns`, which stays off.
    let mut svc = SocksV5::new(proxy_uri(proxy, SOCKS_PORT)?, connector(timeout));
    if let Some((user, password)) = login(proxy) {
        svc = svc.with_auth(user, password);
    }
    let target = uri(&target)?;
    std::future::poll_fn(|cx| svc.poll_ready(cx))
        .await
        .map_err(|e| e.to_string())?;
    svc.call(target).await.map_err(|e| e.to_string())
}

/// Connects to the proxy itself: the user's own host, not a target, so the
/// guard does not judge it (as the fetcher's resolver lets it by).
fn connector(timeout: Duration) -> HttpConnector {
    let mut http = HttpConnector::new();
    // The proxy URL's scheme is socks5 or http; the connector only dials.
    http.enforce_http(false);
    http.set_nodelay(true);
    http.set_connect_timeout(Some(timeout));
    http
}

/// The proxy's `scheme://host:port`, without its login (the handshakes get
/// the login separately, and nothing can then quote it).
fn proxy_uri(proxy: &Url, default_port: u16) -> Result<Uri, String> {
    let host = proxy.host_str().unwrap_or_default();
    let port = proxy.port_or_known_default().unwrap_or(default_port);
    uri(&format!("{}://{host}:{port}", proxy.scheme()))
}

fn uri(text: &str) -> Result<Uri, String> {
    text.parse::<Uri>()
        .map_err(|e| format!("{text} is not a usable address: {e}"))
}

/// The login of a proxy URL, percent-decoded as written in the URL.
fn login(proxy: &Url) -> Option<(String, String)> {
    if proxy.username().is_empty() && proxy.password().is_none() {
        return None;
    }
    let decode = |s: &str| percent_decode_str(s).decode_utf8_lossy().into_owned();
    Some((
        decode(proxy.username()),
        decode(proxy.password().unwrap_or_default()),
    ))
}

/// An error and its causes on one line.
fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let _ = write!(text, ": {s}");
        source = s.source();
    }
    text
}
