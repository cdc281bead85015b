//! The one way the browser's egress opens a TCP connection: resolve the name
//! once, check every address it resolves to, connect to a checked address.
//! There is no second lookup a rebinding DNS server could answer differently.
//!
//! [`open_tunnel`] is the one place where "connect to host:port" is decided
//! for the browser's tunnels: through the user's upstream proxy when
//! [`crate::UpstreamProxy::for_url`] says so ([`crate::upstream_tunnel`]),
//! otherwise [`connect_checked`].

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use tokio::net::TcpStream;
use url::{Host, Url};

use crate::error::{Error, ErrorKind};
use crate::guard::Guard;
use crate::resolver::lookup;
use crate::route::Routes;
use crate::upstream_tunnel::connect_through;

/// Opens the browser's tunnel to `url`'s `host:port` (`url` passed the URL
/// policy): through the upstream proxy when it applies (after the name was
/// checked as this machine resolves it), else direct to a checked address.
pub(crate) async fn open_tunnel(
    routes: &Routes,
    guard: &Guard,
    url: &Url,
    port: u16,
    connect_timeout: Duration,
) -> Result<TcpStream, Error> {
    let Some(host) = url.host() else {
        return Err(Error::new(ErrorKind::InvalidUrl, "a tunnel needs a host"));
    };
    match routes.tunnel(url).await? {
        Some(route) => connect_through(&route, &host, port, connect_timeout).await,
        None => connect_checked(guard, &host, port, connect_timeout).await,
    }
}

/// Opens a connection to `host:port` (a host as the URL parser wrote it:
/// IPv4/IPv6 literals already normalised) after the guard checked every
/// address it stands for.
async fn connect_checked(
    guard: &Guard,
    host: &Host<&str>,
    port: u16,
    connect_timeout: Duration,
) -> Result<TcpStream, Error> {
    let addrs: Vec<SocketAddr> = match host {
        Host::Ipv4(v4) => {
            guard.check_ip(None, IpAddr::V4(*v4))?;
            vec![SocketAddr::new(IpAddr::V4(*v4), port)]
        }
        Host::Ipv6(v6) => {
            guard.check_ip(None, IpAddr::V6(*v6))?;
            vec![SocketAddr::new(IpAddr::V6(*v6), port)]
        }
        Host::Domain(name) => {
            let found = lookup(name)
                .await
                .map_err(|e| Error::new(ErrorKind::Network, e.to_string()))?;
            // One bad address refuses the name, as in the fetcher's resolver:
            // a public name that also points inside is an attack.
            for addr in &found {
                guard.check_ip(Some(name), addr.ip())?;
            }
            found
                .into_iter()
                .map(|a| SocketAddr::new(a.ip(), port))
                .collect()
        }
    };
    let mut last = None;
    for addr in addrs {
        match tokio::time::timeout(connect_timeout, TcpStream::connect(addr)).await {
            Ok(Ok(stream)) => return Ok(stream),
            Ok(Err(e)) => last = Some(e.to_string()),
            Err(_) => last = Some("the connection timed out".to_owned()),
        }
    }
    Err(Error::new(
        ErrorKind::Network,
        format!(
            "could not connect to {host}:{port}: {}",
            last.unwrap_or_else(|| "no address".to_owned())
        ),
    ))
}
