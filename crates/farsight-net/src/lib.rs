//! The only farsight code that opens sockets: a guarded HTTP client for web
//! pages, robots.txt, and the page/answer cache.
//!
//! # Overview
//!
//! - [`Fetcher`] (built with [`Fetcher::builder`]) downloads one page safely and
//!   returns a [`Page`]: the body decoded to UTF-8, its [`PageKind`] (HTML for
//!   the extractor, plain text, or a document kept as bytes), the final URL and whether it was cut at the
//!   byte cap. Before any connection the URL policy runs (http/https only, no
//!   credentials, the domain blocklist, no loopback/private/link-local/...
//!   addresses in any notation); every address a name resolves to is checked
//!   and the connection goes to the checked address; each redirect hop is
//!   checked again, and robots.txt (RFC 9309, product token `farsight`) is
//!   obeyed. Bodies are streamed and capped after decompression; one timeout
//!   covers the whole fetch.
//! - [`Error`] says what went wrong as an [`ErrorKind`] with a message and a
//!   suggestion an agent can act on; HTTP statuses, `Retry-After` and
//!   retryability are on it too.
//! - [`Cache`] keeps byte values in memory and in one SQLite file (WAL mode)
//!   that many farsight processes share at once; the fetcher stores pages
//!   under the namespace `"page"` keyed by [`normalize_url`], and other crates
//!   can use other namespaces. [`Cache::info_at`] and [`Cache::clear_at`]
//!   report and empty the file.
//! - [`RedisLink`] is the one connection to Redis (`[cache].redis_url`),
//!   the state several instances share: [`Cache::with_redis`] puts it
//!   between memory and disk, [`RedisLink::gcra`] runs a shared rate budget
//!   on any key, and [`RedisHealth`] says whether it is up or degraded (and
//!   why) for `/healthz` and metrics. Redis down or slow never fails a call.
//! - [`Fetcher::browser_proxy`] starts the egress of farsight's own headless
//!   browser: a forward proxy on loopback ([`BrowserProxy`], HTTP and
//!   CONNECT, per-run [`ProxyCredentials`]) whose every request meets the
//!   same guard, within [`ProxyLimits`].
//! - [`api_client`] builds the plain client for search provider APIs.
//! - [`UpstreamProxy`] is the user's own proxy (`[fetch].proxy`, or the
//!   standard `HTTPS_PROXY`/`HTTP_PROXY`/`ALL_PROXY`/`NO_PROXY` when opted
//!   in); [`UpstreamProxy::for_url`] says which target goes through it. Through
//!   a proxy the proxy resolves names: the guard still checks each URL as
//!   written and every address a name resolves to on this machine, and a
//!   name only the proxy can resolve is the proxy's responsibility.
//! - [`TlsTrust`] is the set of trusted CAs: the built-in webpki roots, the
//!   system store, and an optional PEM file for TLS-inspecting proxies.
//! - A bot-management wall (a Cloudflare challenge and the like) answering
//!   instead of the page is an [`ErrorKind::BotChallenge`] error naming the
//!   vendor, never a page.
//! - [`normalize_domain`] and [`domain_matches`] say what a configured domain
//!   entry means and whether a host is in it (the blocklist here, the search
//!   filters in `farsight-search`); [`parse_retry_after`] reads `Retry-After`.
//!
//! # Example
//!
//! ```no_run
//! use std::time::Duration;
//! use farsight_net::{Cache, FetchOptions, Fetcher, PageKind};
//!
//! # async fn run() -> Result<(), farsight_net::Error> {
//! let fetcher = Fetcher::builder()
//!     .timeout(Duration::from_secs(20))
//!     .blocked_domains(vec!["tracker.example".into()])
//!     .cache(Cache::open(std::path::Path::new("/tmp/farsight-cache")))
//!     .build()?;
//! match fetcher.fetch("https://example.com/", &FetchOptions::default()).await {
//!     Ok(page) => {
//!         assert_eq!(page.kind, PageKind::Html);
//!         println!("{} ({}, {} chars)", page.url, page.charset, page.text.len());
//!     }
//!     Err(e) => eprintln!("{}: {} ({:?})", e.kind(), e, e.suggestion()),
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # Cargo features
//!
//! - `testing`: the `testing` module, a throwaway `redis-server` for tests.
//!
//! TLS is rustls with the `ring` provider, trusting the webpki roots
//! and the system store. The system's proxy variables are read only when the
//! caller passes them to [`UpstreamProxy::from_settings`] (farsight does when
//! `[fetch].use_env_proxy = true`): a proxy resolves names out of the guard's
//! sight, so using one is the user's explicit choice.
#![deny(missing_docs)]

mod api_client;
mod base64_bytes;
mod bot_wall;
mod browser_proxy;
mod cache;
mod cache_error;
mod cache_lookups;
mod cache_shared;
mod cache_store;
mod charset;
mod content_type;
mod domain;
mod egress;
mod error;
mod fetcher;
mod gcra;
mod guard;
mod inflate;
mod normalize;
mod page;
mod page_entry;
mod proxy_auth;
mod proxy_budget;
mod redis_link;
mod resolver;
mod robots;
mod robots_shared;
mod route;
mod status;
#[cfg(feature = "testing")]
pub mod testing;
mod tls;
mod upstream_proxy;
mod upstream_tunnel;

pub use api_client::api_client;
pub use browser_proxy::{BrowserProxy, REFUSED_HEADER};
pub use cache::Cache;
pub use cache_error::{CacheError, CacheErrorKind};
pub use cache_lookups::{CacheLevel, CacheLookups, HitsMisses};
pub use cache_store::{CacheInfo, Cleared, NamespaceInfo};
pub use domain::{domain_matches, normalize_domain};
pub use error::{Error, ErrorKind};
pub use fetcher::{DEFAULT_USER_AGENT, Fetcher, FetcherBuilder, PAGE_ACCEPT};
pub use normalize::normalize_url;
pub use page::{FetchOptions, Page, PageKind};
pub use proxy_auth::ProxyCredentials;
pub use proxy_budget::{ProxyLimits, ProxyStats, Refusal};
pub use redis_link::{GcraVerdict, RedisHealth, RedisLink, RedisStatus, redact_redis_url};
pub use resolver::unresolved_host;
pub use status::parse_retry_after;
pub use tls::TlsTrust;
pub use upstream_proxy::{PROXY_ENV_VARS, UpstreamProxy, redact_proxy_url};

/// Long-lived handles are shared across tasks; this fails to compile if one
/// stops being `Send + Sync`.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Fetcher>();
    assert_send_sync::<Cache>();
    assert_send_sync::<Error>();
    assert_send_sync::<Page>();
    assert_send_sync::<RedisLink>();
    assert_send_sync::<RedisHealth>();
};
