//! Configuration, in two stages: [`RawConfig`] is what the user wrote (file,
//! environment, flags; all optional), [`Config`] is resolved once at start-up
//! with every default applied.

mod egress;
mod load;
mod provider_vars;
mod raw;
mod server_ops;
mod show;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
pub use farsight_search::ProviderSettings;
pub use load::{ConfigSource, default_config_path, load};
pub use provider_vars::{ProviderField, missing_settings};
pub use raw::{RawCache, RawConfig, RawFetch, RawRender, RawSearch, RawServer};
pub use server_ops::{LogFormat, OAuthConfig, RawOAuth};

use crate::service::RenderMode;

/// The smallest `[cache].max_disk_bytes` accepted: below it the file's own
/// tables and indexes leave no room for a page.
const MIN_CACHE_DISK_BYTES: u64 = 1024 * 1024;

/// The effective configuration: defaults, then the file, then the
/// environment, then command-line flags.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Config {
    /// `[fetch]`: how pages are downloaded.
    pub fetch: FetchConfig,
    /// `[cache]`: where and how long pages and answers are kept.
    pub cache: CacheConfig,
    /// `[server]`: the Streamable HTTP server.
    pub server: ServerConfig,
    /// `[search]`: the search tool.
    pub search: SearchConfig,
    /// `[render]`: pages built by JavaScript, run in a headless browser.
    pub render: RenderConfig,
    /// `[providers.NAME]`, with keys from the environment merged in.
    pub providers: BTreeMap<String, ProviderSettings>,
}

/// `[fetch]`
#[derive(Clone, PartialEq)]
#[non_exhaustive]
pub struct FetchConfig {
    /// Whether `web_fetch` is offered at all (`WEB_FETCH_ENABLED`).
    pub enabled: bool,
    /// The whole fetch, from connecting to the last byte; for `web_fetch`,
    /// the whole call, extraction included.
    pub timeout: Duration,
    /// Establishing the connection (TCP and TLS).
    pub connect_timeout: Duration,
    /// Redirects followed before giving up with `tooManyRedirects`.
    pub max_redirects: u32,
    /// Bytes read from a body, counted after decompression.
    pub max_bytes: u64,
    /// Bytes read of a document (PDF, DOCX, PPTX); a larger one is refused.
    pub max_document_bytes: u64,
    /// Pages of a document turned into text; the rest are counted only.
    pub max_document_pages: usize,
    /// The `User-Agent` header; its product token is also what robots.txt
    /// groups are matched against.
    pub user_agent: String,
    /// Whether robots.txt is obeyed.
    pub respect_robots_txt: bool,
    /// Domains (and their subdomains) never fetched.
    pub blocked_domains: Vec<String>,
    /// Lets every private, loopback and link-local address through the guard.
    pub allow_private_networks: bool,
    /// Hosts or CIDRs let through the private-network guard.
    pub allow_hosts: Vec<String>,
    /// Where GitHub's raw files are read from (`github.com/O/R/blob/...`
    /// and repository front pages, issue 13). Not a setting users write:
    /// tests point it at a local server, as they do providers' base URLs.
    pub github_raw_base: String,
    /// `web_fetch` with `urls`: pages fetched at once in one call (one host
    /// still gets one request at a time).
    pub max_parallel: usize,
    /// The user's proxy for every request farsight sends (pages, robots.txt,
    /// search providers), as written; may hold `user:password@`.
    pub proxy: Option<String>,
    /// Whether `HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY` and `NO_PROXY` are
    /// honoured (`proxy` still wins over the first three).
    pub use_env_proxy: bool,
    /// A PEM file of CAs trusted beside the built-in roots and the system
    /// store (a TLS-inspecting proxy's); `SSL_CERT_FILE` when unset.
    pub ca_file: Option<PathBuf>,
    /// The proxy variables of the environment, captured when the
    /// configuration was loaded; read only when `use_env_proxy` is true.
    pub proxy_env: BTreeMap<String, String>,
    /// `SSL_CERT_FILE`, captured when the configuration was loaded; used
    /// when `ca_file` is unset.
    pub ssl_cert_file: Option<PathBuf>,
}

/// `[cache]`
#[derive(Clone, PartialEq)]
#[non_exhaustive]
pub struct CacheConfig {
    /// Whether anything is cached (memory and disk).
    pub enabled: bool,
    /// The on-disk store's directory.
    pub dir: PathBuf,
    /// How long a fetched page is reused.
    pub page_ttl: Duration,
    /// How long a search answer is reused.
    pub search_ttl: Duration,
    /// The on-disk store's size limit: past it, the oldest entries go.
    pub max_disk_bytes: u64,
    /// Redis shared by several instances (`[cache].redis_url`,
    /// `REDIS_URL`): cache entries and provider budgets. May hold a password:
    /// show it only through `farsight_net::redact_redis_url`.
    pub redis_url: Option<String>,
}

/// `[server]`
#[derive(Clone, PartialEq)]
#[non_exhaustive]
pub struct ServerConfig {
    /// Where `farsight mcp --http` listens.
    pub addr: SocketAddr,
    /// The bearer token every HTTP request must carry, when set.
    pub token: Option<String>,
    /// Browser origins allowed besides the server's own loopback origins.
    pub allowed_origins: Vec<String>,
    /// `Host` header values accepted besides loopback names (for deployments
    /// behind a name).
    pub allowed_hosts: Vec<String>,
    /// Tool calls served at once; beyond it a call is refused as retryable.
    pub max_in_flight: usize,
    /// How long a shutdown waits for calls in flight.
    pub shutdown_grace: Duration,
    /// Connections open at once (also kept below the open-file limit); at
    /// the bound an idle one is closed to make room for a new one.
    pub max_connections: usize,
    /// Time for a complete request head, counted from the connection's
    /// opening or from the first byte after an answer.
    pub header_read_timeout: Duration,
    /// Time a connection may stay open between requests.
    pub idle_timeout: Duration,
    /// Tool calls a minute for one tenant (a token's subject, or the static
    /// token); `None`: no per-tenant bound.
    pub calls_per_minute: Option<u32>,
    /// Whether `GET /metrics` answers; `None`: only when bound to loopback.
    pub metrics: Option<bool>,
    /// How log lines are written.
    pub log_format: LogFormat,
    /// `[server.oauth]`: OAuth 2.1 access tokens instead of the static token.
    pub oauth: Option<OAuthConfig>,
}

/// Shown without the proxy logins (`proxy`, and the environment's proxy
/// variables, which may hold one too).
impl std::fmt::Debug for FetchConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let proxy_env: BTreeMap<&str, String> = self
            .proxy_env
            .iter()
            .map(|(k, v)| (k.as_str(), farsight_net::redact_proxy_url(v)))
            .collect();
        f.debug_struct("FetchConfig")
            .field("enabled", &self.enabled)
            .field("timeout", &self.timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("max_redirects", &self.max_redirects)
            .field("max_bytes", &self.max_bytes)
            .field("max_document_bytes", &self.max_document_bytes)
            .field("max_document_pages", &self.max_document_pages)
            .field("user_agent", &self.user_agent)
            .field("respect_robots_txt", &self.respect_robots_txt)
            .field("blocked_domains", &self.blocked_domains)
            .field("allow_private_networks", &self.allow_private_networks)
            .field("allow_hosts", &self.allow_hosts)
            .field("github_raw_base", &self.github_raw_base)
            .field("max_parallel", &self.max_parallel)
            .field(
                "proxy",
                &self.proxy.as_deref().map(farsight_net::redact_proxy_url),
            )
            .field("use_env_proxy", &self.use_env_proxy)
            .field("ca_file", &self.ca_file)
            .field("proxy_env", &proxy_env)
            .field("ssl_cert_file", &self.ssl_cert_file)
            .finish()
    }
}

/// Shown without the Redis password (a `{:?}` of the configuration may
/// reach a log).
impl std::fmt::Debug for CacheConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CacheConfig")
            .field("enabled", &self.enabled)
            .field("dir", &self.dir)
            .field("page_ttl", &self.page_ttl)
            .field("search_ttl", &self.search_ttl)
            .field("max_disk_bytes", &self.max_disk_bytes)
            .field(
                "redis_url",
                &self
                    .redis_url
                    .as_deref()
                    .map(farsight_net::redact_redis_url),
            )
            .finish()
    }
}

/// Shown without the bearer token.
impl std::fmt::Debug for ServerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerConfig")
            .field("addr", &self.addr)
            .field("token", &self.token.as_ref().map(|_| "***"))
            .field("allowed_origins", &self.allowed_origins)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("max_in_flight", &self.max_in_flight)
            .field("shutdown_grace", &self.shutdown_grace)
            .field("max_connections", &self.max_connections)
            .field("header_read_timeout", &self.header_read_timeout)
            .field("idle_timeout", &self.idle_timeout)
            .field("calls_per_minute", &self.calls_per_minute)
            .field("metrics", &self.metrics)
            .field("log_format", &self.log_format)
            .field("oauth", &self.oauth)
            .finish()
    }
}

/// `[search]`
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SearchConfig {
    /// Whether `web_search` is offered at all (`WEB_SEARCH_ENABLED`).
    pub enabled: bool,
    /// The provider asked first; `None` means the first configured one.
    pub provider: Option<String>,
    /// The providers asked after it, in order; `None` means the default order.
    pub fallbacks: Option<Vec<String>>,
    /// Results returned when the request does not say.
    pub max_results: u32,
    /// Safe search when the request does not say.
    pub safe_search: bool,
    /// Country (ISO 3166-1 alpha-2) when the request does not say; `None`
    /// leaves each provider's own.
    pub country: Option<String>,
    /// Language (ISO 639-1) when the request does not say; `None` leaves
    /// each provider's own.
    pub language: Option<String>,
    /// Time allowed for one provider request.
    pub timeout: Duration,
    /// Deep search: pages fetched at once.
    pub deep_concurrency: usize,
    /// Deep search: the most time spent reading pages after the search;
    /// pages not read by then are dropped.
    pub deep_timeout: Duration,
    /// Deep search: tokens of page content per call when the request does not say.
    pub max_content_tokens: usize,
}

/// `[render]`
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RenderConfig {
    /// Whether pages may be rendered at all; off, `auto` reads pages as
    /// `never` does and `always` is refused.
    pub enabled: bool,
    /// `web_fetch`'s `render` when a call does not say.
    pub mode: RenderMode,
    /// The Chromium executable; `None` looks on `PATH` and in the usual
    /// places.
    pub browser_path: Option<PathBuf>,
    /// Pages rendered at once (browser tabs); more calls wait their turn.
    pub max_tabs: usize,
    /// The longest one page may take to render. A call still answers within
    /// `[fetch].timeout_seconds` as a whole, so a longer value is cut to
    /// what is left of it.
    pub timeout: Duration,
}

/// The default `User-Agent`: browser-compatible, naming farsight so that sites
/// can tell who is asking and robots.txt groups for `farsight` apply.
pub fn default_user_agent() -> String {
    format!(
        "Mozilla/5.0 (compatible; farsight/{}; +https://github.com/farsight-dev/farsight)",
        env!("CARGO_PKG_VERSION")
    )
}

impl Default for FetchConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            // The specification's 30 s: slow pages finish, hung ones do not block an agent.
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            max_redirects: 5,
            // 5 MiB of decoded HTML is far more than any article; beyond it is
            // usually a data dump or an attack.
            max_bytes: 5 * 1024 * 1024,
            // A PDF of a few hundred pages with figures; papers and datasheets
            // are far smaller. Reading 18.5 MB (516 pages) took 5.5 s and
            // 150 MB of memory in the measurements (tools/pdf-bench).
            max_document_bytes: 20 * 1024 * 1024,
            // A long report or a book's worth of text, far past what an agent
            // reads in windows; bounds the work on a page-tree that lies.
            max_document_pages: 300,
            user_agent: default_user_agent(),
            respect_robots_txt: true,
            blocked_domains: Vec::new(),
            allow_private_networks: false,
            allow_hosts: Vec::new(),
            github_raw_base: "https://raw.githubusercontent.com".to_owned(),
            // As deep search reads pages: ten URLs in about three pages' time,
            // without a burst of connections from one call.
            max_parallel: 4,
            proxy: None,
            // A proxy resolves names out of the guard's sight: using the
            // environment's is the user's explicit choice.
            use_env_proxy: false,
            ca_file: None,
            proxy_env: BTreeMap::new(),
            ssl_cert_file: None,
        }
    }
}

impl Default for CacheConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            dir: dirs::cache_dir()
                .unwrap_or_else(std::env::temp_dir)
                .join("farsight"),
            page_ttl: Duration::from_secs(86_400),
            search_ttl: Duration::from_secs(3_600),
            max_disk_bytes: farsight_net::Cache::DEFAULT_MAX_DISK_BYTES,
            redis_url: None,
        }
    }
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 8787)),
            token: None,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            // Each call holds at most one page (max_bytes) plus its extraction;
            // 64 keeps a busy server well under a gigabyte.
            max_in_flight: 64,
            shutdown_grace: Duration::from_secs(30),
            // Far above what agents open (a handful each), low enough that
            // idle connections cost little memory.
            max_connections: 1_024,
            // A request head is one packet for any real client; ten seconds
            // covers a slow link, and a connection dribbling a head lets go.
            header_read_timeout: Duration::from_secs(10),
            // Agents call every few seconds to minutes; a minute keeps their
            // connection warm between calls (nginx keeps 75 s).
            idle_timeout: Duration::from_secs(60),
            calls_per_minute: None,
            metrics: None,
            log_format: LogFormat::Text,
            oauth: None,
        }
    }
}

impl Default for RenderConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            mode: RenderMode::Auto,
            browser_path: None,
            // Each tab of a rendered page holds tens to hundreds of MB; two
            // keep a busy agent moving without the browser outgrowing the
            // server.
            max_tabs: 2,
            // The fetch timeout (a call answers within it anyway).
            timeout: FetchConfig::default().timeout,
        }
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            provider: None,
            fallbacks: None,
            max_results: 5,
            safe_search: true,
            country: None,
            language: None,
            timeout: Duration::from_secs(15),
            // Four pages at once reads five results in about one page's time
            // without opening a burst of connections to one slow host.
            deep_concurrency: 4,
            // An agent waiting longer than this for context is worse off than
            // one that gets the snippets of the slow pages.
            deep_timeout: Duration::from_secs(10),
            // The search specification's "200-500 tokens per result" for full
            // format, at five to ten results.
            max_content_tokens: 4_000,
        }
    }
}

impl Config {
    /// Resolves the layered raw configuration, applying defaults and checking
    /// values that are well formed but meaningless (a zero timeout).
    ///
    /// # Errors
    ///
    /// A message naming the setting and what is wrong with it.
    pub fn resolve(raw: RawConfig) -> anyhow::Result<Self> {
        let mut c = Config::default();
        if let Some(f) = raw.fetch {
            set(&mut c.fetch.enabled, f.enabled);
            set(
                &mut c.fetch.timeout,
                secs(f.timeout_seconds, "fetch.timeout_seconds")?,
            );
            set(
                &mut c.fetch.connect_timeout,
                secs(f.connect_timeout_seconds, "fetch.connect_timeout_seconds")?,
            );
            set(&mut c.fetch.max_redirects, f.max_redirects);
            if f.max_bytes == Some(0) {
                bail!("fetch.max_bytes must be at least 1");
            }
            set(&mut c.fetch.max_bytes, f.max_bytes);
            if f.max_document_bytes == Some(0) {
                bail!("fetch.max_document_bytes must be at least 1");
            }
            set(&mut c.fetch.max_document_bytes, f.max_document_bytes);
            if f.max_document_pages == Some(0) {
                bail!("fetch.max_document_pages must be at least 1");
            }
            set(&mut c.fetch.max_document_pages, f.max_document_pages);
            set(&mut c.fetch.user_agent, f.user_agent);
            set(&mut c.fetch.respect_robots_txt, f.respect_robots_txt);
            set(&mut c.fetch.blocked_domains, f.blocked_domains);
            set(
                &mut c.fetch.allow_private_networks,
                f.allow_private_networks,
            );
            set(&mut c.fetch.allow_hosts, f.allow_hosts);
            if f.max_parallel == Some(0) {
                bail!("fetch.max_parallel must be at least 1");
            }
            set(&mut c.fetch.max_parallel, f.max_parallel);
            if let Some(proxy) = f.proxy.filter(|p| !p.trim().is_empty()) {
                // Checked now so a typo is named at start-up; the message
                // never quotes the credentials.
                farsight_net::UpstreamProxy::from_settings(Some(&proxy), None)
                    .map_err(egress::config_error)?;
                c.fetch.proxy = Some(proxy);
            }
            set(&mut c.fetch.use_env_proxy, f.use_env_proxy);
            if f.ca_file.as_deref().is_some_and(|p| p.trim().is_empty()) {
                bail!("fetch.ca_file is empty: name a PEM file, or remove the line");
            }
            if let Some(p) = f.ca_file {
                c.fetch.ca_file = Some(expand_home(&p));
            }
        }
        if let Some(k) = raw.cache {
            set(&mut c.cache.enabled, k.enabled);
            set(&mut c.cache.dir, k.dir.map(|d| expand_home(&d)));
            set(
                &mut c.cache.page_ttl,
                k.page_ttl_seconds.map(Duration::from_secs),
            );
            set(
                &mut c.cache.search_ttl,
                k.search_ttl_seconds.map(Duration::from_secs),
            );
            if k.max_disk_bytes.is_some_and(|n| n < MIN_CACHE_DISK_BYTES) {
                bail!(
                    "cache.max_disk_bytes must be at least {MIN_CACHE_DISK_BYTES} (1 MiB); to cache nothing, set [cache].enabled = false"
                );
            }
            set(&mut c.cache.max_disk_bytes, k.max_disk_bytes);
            // An empty REDIS_URL (a template left blank) means no Redis.
            if let Some(url) = k.redis_url {
                c.cache.redis_url = Some(url.trim().to_owned()).filter(|u| !u.is_empty());
            }
        }
        if let Some(s) = raw.server {
            if let Some(addr) = s.addr {
                c.server.addr = addr.parse().with_context(|| {
                    format!("server.addr {addr:?} is not an address like 127.0.0.1:8787")
                })?;
            }
            if s.token.as_deref().is_some_and(|t| t.trim().is_empty()) {
                // An empty token would let any request that says "Bearer "
                // in: refused, as an empty FARSIGHT_HTTP_TOKEN is.
                bail!(
                    "server.token is empty: set a long random token, or remove the line to serve on loopback without one"
                );
            }
            set(&mut c.server.token, s.token.map(Some));
            set(&mut c.server.allowed_origins, s.allowed_origins);
            set(&mut c.server.allowed_hosts, s.allowed_hosts);
            if s.max_in_flight == Some(0) {
                bail!("server.max_in_flight must be at least 1");
            }
            set(&mut c.server.max_in_flight, s.max_in_flight);
            set(
                &mut c.server.shutdown_grace,
                s.shutdown_grace_seconds.map(Duration::from_secs),
            );
            if s.max_connections == Some(0) {
                bail!("server.max_connections must be at least 1");
            }
            set(&mut c.server.max_connections, s.max_connections);
            set(
                &mut c.server.header_read_timeout,
                secs(
                    s.header_read_timeout_seconds,
                    "server.header_read_timeout_seconds",
                )?,
            );
            set(
                &mut c.server.idle_timeout,
                secs(s.idle_timeout_seconds, "server.idle_timeout_seconds")?,
            );
            if s.calls_per_minute == Some(0) {
                bail!(
                    "server.calls_per_minute must be at least 1; remove the line for no per-tenant bound"
                );
            }
            set(&mut c.server.calls_per_minute, s.calls_per_minute.map(Some));
            set(&mut c.server.metrics, s.metrics.map(Some));
            set(&mut c.server.log_format, s.log_format);
            if let Some(o) = s.oauth {
                c.server.oauth = Some(OAuthConfig::resolve(o)?);
            }
            if c.server.oauth.is_some() && c.server.token.is_some() {
                // Either one way in or the other: a static token beside OAuth
                // would be a key that never expires and names no one.
                bail!(
                    "both [server].token (or FARSIGHT_HTTP_TOKEN) and [server.oauth] are set: \
                     keep [server.oauth] for OAuth clients, or the token for a simple setup, not both"
                );
            }
        }
        if let Some(s) = raw.search {
            set(&mut c.search.enabled, s.enabled);
            set(&mut c.search.provider, s.provider.map(Some));
            set(&mut c.search.fallbacks, s.fallbacks.map(Some));
            set(&mut c.search.max_results, s.max_results);
            set(&mut c.search.safe_search, s.safe_search);
            // Checked (and lower-cased) when the search service is built.
            set(&mut c.search.country, s.country.map(Some));
            set(&mut c.search.language, s.language.map(Some));
            set(
                &mut c.search.timeout,
                secs(s.timeout_seconds, "search.timeout_seconds")?,
            );
            if s.deep_concurrency == Some(0) {
                bail!("search.deep_concurrency must be at least 1");
            }
            set(&mut c.search.deep_concurrency, s.deep_concurrency);
            set(
                &mut c.search.deep_timeout,
                secs(s.deep_timeout_seconds, "search.deep_timeout_seconds")?,
            );
            if s.max_content_tokens == Some(0) {
                bail!("search.max_content_tokens must be at least 1");
            }
            set(&mut c.search.max_content_tokens, s.max_content_tokens);
        }
        // After [fetch]: the render timeout defaults to the fetch timeout.
        c.render.timeout = c.fetch.timeout;
        if let Some(r) = raw.render {
            set(&mut c.render.enabled, r.enabled);
            set(&mut c.render.mode, r.mode);
            if r.browser_path
                .as_deref()
                .is_some_and(|p| p.trim().is_empty())
            {
                bail!(
                    "render.browser_path is empty: give the path of a Chromium executable, or remove the line to look for one on PATH"
                );
            }
            set(
                &mut c.render.browser_path,
                r.browser_path.map(|p| Some(expand_home(&p))),
            );
            if r.max_tabs == Some(0) {
                bail!(
                    "render.max_tabs must be at least 1; to render nothing, set [render].enabled = false"
                );
            }
            set(&mut c.render.max_tabs, r.max_tabs);
            set(
                &mut c.render.timeout,
                secs(r.timeout_seconds, "render.timeout_seconds")?,
            );
        }
        if let Some(p) = raw.providers {
            // A table for a provider that does not exist is a typo
            // (`[providers.brvae]`) whose key would otherwise be ignored
            // without a word.
            if let Some(unknown) = p
                .keys()
                .find(|name| !farsight_search::provider_names().contains(&name.as_str()))
            {
                bail!(
                    "[providers.{unknown}] names no known search provider; the known ones are {}",
                    farsight_search::provider_names().join(", ")
                );
            }
            c.providers = p;
        }
        Ok(c)
    }

    /// The configuration as TOML, secrets (API keys, the HTTP token) masked.
    pub fn to_toml_masked(&self) -> String {
        show::to_toml_masked(self)
    }
}

fn set<T>(slot: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *slot = v;
    }
}

fn secs(value: Option<u64>, name: &str) -> anyhow::Result<Option<Duration>> {
    match value {
        Some(0) => bail!("{name} must be at least 1 second"),
        v => Ok(v.map(Duration::from_secs)),
    }
}

fn expand_home(dir: &str) -> PathBuf {
    match dir.strip_prefix("~/") {
        Some(rest) => dirs::home_dir().map_or_else(|| PathBuf::from(dir), |h| h.join(rest)),
        None => PathBuf::from(dir),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_documented_ones() {
        let c = Config::resolve(RawConfig::default()).unwrap();
        assert_eq!(c.fetch.timeout, Duration::from_secs(30));
        assert_eq!(c.fetch.connect_timeout, Duration::from_secs(10));
        assert_eq!(c.fetch.max_redirects, 5);
        assert_eq!(c.fetch.max_bytes, 5 * 1024 * 1024);
        assert!(c.fetch.respect_robots_txt && !c.fetch.allow_private_networks);
        assert!(c.fetch.user_agent.contains("farsight/"));
        assert_eq!(c.cache.page_ttl, Duration::from_secs(86_400));
        assert_eq!(c.cache.search_ttl, Duration::from_secs(3_600));
        assert!(c.cache.dir.ends_with("farsight"));
        assert_eq!(c.cache.max_disk_bytes, 512 * 1024 * 1024);
        assert_eq!(c.server.addr.to_string(), "127.0.0.1:8787");
    }

    #[test]
    fn debug_shows_no_secret() {
        let raw = RawConfig::from_toml(
            "[fetch]\nproxy = \"http://me:pr0xy-pass@proxy.internal:3128\"\n\
             [cache]\nredis_url = \"redis://:hunter2@cache.internal:6379\"\n\
             [server]\ntoken = \"tok-s3cret\"\n\
             [providers.brave]\napi_key = \"brave-k3y\"\n",
        )
        .unwrap();
        let shown = format!("{:?}", Config::resolve(raw).unwrap());
        for secret in ["pr0xy-pass", "hunter2", "tok-s3cret", "brave-k3y"] {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
        assert!(shown.contains("cache.internal"), "{shown}");
    }

    #[test]
    fn a_table_for_an_unknown_provider_is_an_error_naming_the_known_ones() {
        let raw = RawConfig::from_toml("[providers.brvae]\napi_key = \"k\"\n").unwrap();
        let err = Config::resolve(raw).unwrap_err().to_string();
        assert!(err.contains("[providers.brvae]"), "{err}");
        assert!(err.contains("brave") && err.contains("wikipedia"), "{err}");
        let raw = RawConfig::from_toml("[providers.brave]\napi_key = \"k\"\n").unwrap();
        assert!(Config::resolve(raw).is_ok());
    }

    #[test]
    fn meaningless_values_are_refused_by_name() {
        let raw = RawConfig::from_toml("[fetch]\ntimeout_seconds = 0\n").unwrap();
        let err = Config::resolve(raw).unwrap_err();
        assert!(err.to_string().contains("fetch.timeout_seconds"), "{err}");
        let raw = RawConfig::from_toml("[cache]\nmax_disk_bytes = 1000\n").unwrap();
        let err = Config::resolve(raw).unwrap_err();
        assert!(err.to_string().contains("cache.max_disk_bytes"), "{err}");
        let raw = RawConfig::from_toml("[cache]\nmax_disk_bytes = 1048576\n").unwrap();
        assert_eq!(Config::resolve(raw).unwrap().cache.max_disk_bytes, 1 << 20);
        let raw = RawConfig::from_toml("[server]\naddr = \"nowhere\"\n").unwrap();
        assert!(format!("{:#}", Config::resolve(raw).unwrap_err()).contains("server.addr"));
    }

    #[test]
    fn render_defaults_follow_the_fetch_timeout_and_values_are_checked() {
        let c = Config::resolve(RawConfig::default()).unwrap();
        assert!(c.render.enabled);
        assert_eq!(c.render.mode, RenderMode::Auto);
        assert_eq!(c.render.max_tabs, 2);
        assert_eq!(c.render.browser_path, None);
        assert_eq!(c.render.timeout, Duration::from_secs(30));
        let raw = RawConfig::from_toml("[fetch]\ntimeout_seconds = 12\n").unwrap();
        assert_eq!(
            Config::resolve(raw).unwrap().render.timeout,
            Duration::from_secs(12)
        );
        let raw = RawConfig::from_toml(
            "[render]\nenabled = false\nmode = \"always\"\nbrowser_path = \"/opt/chromium/chrome\"\n\
             max_tabs = 4\ntimeout_seconds = 9\n",
        )
        .unwrap();
        let r = Config::resolve(raw).unwrap().render;
        assert!(!r.enabled);
        assert_eq!(r.mode, RenderMode::Always);
        assert_eq!(r.browser_path, Some(PathBuf::from("/opt/chromium/chrome")));
        assert_eq!(r.max_tabs, 4);
        assert_eq!(r.timeout, Duration::from_secs(9));
        for (toml, named) in [
            ("max_tabs = 0", "render.max_tabs"),
            ("timeout_seconds = 0", "render.timeout_seconds"),
            ("browser_path = \" \"", "render.browser_path"),
        ] {
            let raw = RawConfig::from_toml(&format!("[render]\n{toml}\n")).unwrap();
            let err = Config::resolve(raw).unwrap_err().to_string();
            assert!(err.contains(named), "{toml}: {err}");
        }
        // A mode that does not exist, a key that does not: named at parse time.
        let err = RawConfig::from_toml("[render]\nmode = \"sometimes\"\n").unwrap_err();
        assert!(err.to_string().contains("sometimes"), "{err}");
        let err = RawConfig::from_toml("[render]\nmax_tab = 3\n").unwrap_err();
        assert!(err.to_string().contains("max_tab"), "{err}");
    }

    #[test]
    fn an_empty_or_blank_token_is_refused() {
        for token in ["", "   "] {
            let raw = RawConfig::from_toml(&format!("[server]\ntoken = {token:?}\n")).unwrap();
            let err = Config::resolve(raw).unwrap_err().to_string();
            assert!(err.contains("server.token is empty"), "{err}");
        }
        let raw = RawConfig::from_toml("[server]\ntoken = \"s3cret-token\"\n").unwrap();
        assert!(Config::resolve(raw).is_ok());
    }

    #[test]
    fn server_operations_settings_and_oauth_beside_a_token_is_refused() {
        let oauth = "[server.oauth]\nissuer = \"https://auth.example.com\"\n\
                     resource = \"https://farsight.example.com/mcp\"\n";
        let raw = RawConfig::from_toml(&format!(
            "[server]\ncalls_per_minute = 30\nmetrics = true\nlog_format = \"json\"\n{oauth}"
        ))
        .unwrap();
        let s = Config::resolve(raw).unwrap().server;
        assert_eq!(s.calls_per_minute, Some(30));
        assert_eq!(s.metrics, Some(true));
        assert_eq!(s.log_format, LogFormat::Json);
        assert_eq!(
            s.oauth.unwrap().audience,
            "https://farsight.example.com/mcp"
        );
        let raw =
            RawConfig::from_toml(&format!("[server]\ntoken = \"t0ken-value\"\n{oauth}")).unwrap();
        let err = format!("{:#}", Config::resolve(raw).unwrap_err());
        assert!(err.contains("not both"), "{err}");
        let raw = RawConfig::from_toml("[server]\ncalls_per_minute = 0\n").unwrap();
        let err = format!("{:#}", Config::resolve(raw).unwrap_err());
        assert!(err.contains("server.calls_per_minute"), "{err}");
    }
}
