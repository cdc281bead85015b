//! Which way a request of the page fetcher leaves: direct, or through the
//! user's upstream proxy. [`UpstreamProxy::for_url`] decides; this module
//! keeps the guard's promises on either way.
//!
//! Direct requests are today's: the [`GuardedResolver`] checks every address
//! and reqwest connects to exactly those, so the connection is pinned.
//!
//! Through a proxy the proxy resolves the name, out of the guard's sight.
//! What can still be checked is: the URL as written (the caller's
//! `check_url`/`check_parsed`: scheme, blocklist, literal addresses), and the
//! name as this machine resolves it. When it resolves here, every address
//! must pass, or the request is refused before the proxy hears of it; when
//! it does not (a corporate network without outside DNS) the request goes to
//! the proxy, whose resolution is its own responsibility. That check is not
//! pinned (the proxy looks the name up again); the README says so.
//!
//! Two clients, not one with a per-request proxy: the direct client never
//! lets the proxy's host through its resolver, and the proxied client's
//! resolver lets only the proxy's host by (see [`GuardedResolver::for_proxy`]).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use url::{Host, Url};

use crate::error::{Error, ErrorKind};
use crate::guard::Guard;
use crate::resolver::GuardedResolver;
use crate::upstream_proxy::{UpstreamProxy, redact_proxy_url};

/// The clients of a [`crate::Fetcher`] and the proxy decision. Cheap to
/// clone (the clients share their pools): the browser's forward proxy keeps
/// a copy, so that its requests and tunnels take the same ways.
#[derive(Clone)]
pub(crate) struct Routes {
    direct: reqwest::Client,
    proxied: Option<Proxied>,
    guard: Arc<Guard>,
    /// How long the local look-up of a proxied name may take before the
    /// name counts as one only the proxy can resolve.
    lookup_timeout: Duration,
}

#[derive(Clone)]
struct Proxied {
    client: reqwest::Client,
    proxy: UpstreamProxy,
}

/// How one request leaves.
pub(crate) struct Route<'a> {
    pub(crate) client: &'a reqwest::Client,
    /// The proxy it goes through, if any.
    pub(crate) proxy: Option<&'a UpstreamProxy>,
    /// Through a proxy: an address the name resolved to here (all of them
    /// passed the guard), kept with a cached page in place of the peer,
    /// which is the proxy. `None` when the name did not resolve here.
    pub(crate) local_peer: Option<IpAddr>,
}

impl Routes {
    /// `base` gives a client builder with everything but the proxy and the
    /// resolver; it is called once per client.
    pub(crate) fn build(
        base: &dyn Fn() -> reqwest::ClientBuilder,
        guard: Arc<Guard>,
        proxy: Option<UpstreamProxy>,
        lookup_timeout: Duration,
    ) -> Result<Self, reqwest::Error> {
        let direct = base()
            .no_proxy()
            .dns_resolver(GuardedResolver::new(Arc::clone(&guard)))
            .build()?;
        let proxied = match proxy {
            Some(proxy) => {
                let decide = proxy.clone();
                let client = base()
                    .proxy(reqwest::Proxy::custom(move |url| {
                        decide.for_url(url).cloned()
                    }))
                    .dns_resolver(GuardedResolver::for_proxy(
                        Arc::clone(&guard),
                        proxy.proxy_hosts(),
                    ))
                    .build()?;
                Some(Proxied { client, proxy })
            }
            None => None,
        };
        Ok(Self {
            direct,
            proxied,
            guard,
            lookup_timeout,
        })
    }

    /// The way `url` leaves, after the checks that way needs. The URL policy
    /// (`Guard::check_parsed`) is the caller's, run before.
    pub(crate) async fn route(&self, url: &Url) -> Result<Route<'_>, Error> {
        let Some(p) = self.proxied_for(url) else {
            return Ok(Route {
                client: &self.direct,
                proxy: None,
                local_peer: None,
            });
        };
        let local_peer = self.check_proxied_name(url).await?;
        Ok(Route {
            client: &p.client,
            proxy: Some(&p.proxy),
            local_peer,
        })
    }

    /// The way a tunnel (the browser's `CONNECT`) to `url` leaves: `None`
    /// when direct ([`crate::egress`] connects to a checked address), or the
    /// upstream proxy after the same checks as [`Routes::route`]. The URL
    /// policy is the caller's, run before.
    pub(crate) async fn tunnel(&self, url: &Url) -> Result<Option<TunnelRoute<'_>>, Error> {
        let Some(p) = self.proxied_for(url) else {
            return Ok(None);
        };
        let Some(proxy_url) = p.proxy.for_url(url) else {
            return Ok(None);
        };
        let local_peer = self.check_proxied_name(url).await?;
        Ok(Some(TunnelRoute {
            proxy: &p.proxy,
            proxy_url,
            local_peer,
        }))
    }

    /// The proxied way, when the upstream proxy applies to `url`: the one
    /// routing decision is [`UpstreamProxy::for_url`].
    fn proxied_for(&self, url: &Url) -> Option<&Proxied> {
        self.proxied
            .as_ref()
            .filter(|p| p.proxy.for_url(url).is_some())
    }

    /// A name about to go to the proxy, checked as this machine resolves it.
    async fn check_proxied_name(&self, url: &Url) -> Result<Option<IpAddr>, Error> {
        match url.host() {
            Some(Host::Domain(name)) => check_name_locally(&self.guard, name, self.lookup_timeout)
                .await
                .map_err(|e| e.with_url(url.as_str())),
            // Literal addresses were checked with the URL.
            _ => Ok(None),
        }
    }
}

/// A tunnel through the user's proxy.
pub(crate) struct TunnelRoute<'a> {
    /// The whole setting, to scrub messages with.
    pub(crate) proxy: &'a UpstreamProxy,
    /// The proxy this tunnel goes through (with its login, for the
    /// handshake only).
    pub(crate) proxy_url: &'a Url,
    /// An address the target's name resolved to here (all passed the
    /// guard), `None` when it did not resolve here.
    pub(crate) local_peer: Option<IpAddr>,
}

/// The guard's check of a name that is about to go to the user's proxy (the
/// page fetcher's here; the browser's forward proxy asks it too): resolves
/// `name` on this machine and every address must pass. A name without an
/// answer (or without one within `lookup_timeout`) is the proxy's to
/// resolve: `Ok(None)`. Otherwise an address that passed, to record.
pub(crate) async fn check_name_locally(
    guard: &Guard,
    name: &str,
    lookup_timeout: Duration,
) -> Result<Option<IpAddr>, Error> {
    let addrs = match tokio::time::timeout(lookup_timeout, crate::resolver::lookup(name)).await {
        Ok(Ok(addrs)) => addrs,
        Ok(Err(_)) | Err(_) => {
            tracing::debug!(
                host = name,
                "no local DNS answer; the proxy resolves this name"
            );
            return Ok(None);
        }
    };
    for addr in &addrs {
        guard.check_ip(Some(name), addr.ip())?;
    }
    Ok(addrs.first().map(|a| a.ip().to_canonical()))
}

/// A failed request through the proxy: the message names the proxy (its
/// credentials masked) so that a person looks there first.
pub(crate) fn proxy_send_error(e: &reqwest::Error, url: &Url, proxy: &UpstreamProxy) -> Error {
    let host = url.host_str().unwrap_or("the server");
    let shown_proxy = proxy
        .for_url(url)
        .map(|p| redact_proxy_url(p.as_str()))
        .unwrap_or_else(|| proxy.to_string());
    let cause = proxy.scrub(&crate::fetcher::root_cause(e));
    if e.is_timeout() {
        return Error::new(
            ErrorKind::Timeout,
            format!("reaching {host} through the proxy {shown_proxy} timed out"),
        )
        .with_suggestion("The proxy or the site is slow; try again later.")
        .with_url(url.as_str());
    }
    Error::new(
        ErrorKind::Network,
        format!("could not reach {host} through the proxy {shown_proxy}: {cause}"),
    )
    .with_suggestion(
        "Check that the proxy is up and accepts farsight ([fetch].proxy, or HTTPS_PROXY/HTTP_PROXY \
         with [fetch].use_env_proxy), and that the URL is right.",
    )
    .with_url(url.as_str())
}
