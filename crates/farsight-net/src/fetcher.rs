//! The guarded page fetcher and its builder.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{self, HeaderMap, HeaderValue};
use url::Url;

use crate::bot_wall;
use crate::browser_proxy::BrowserProxy;
use crate::cache::Cache;
use crate::charset;
use crate::content_type;
use crate::error::{Error, ErrorKind};
use crate::guard::Guard;
use crate::inflate::{Inflated, Inflater};
use crate::normalize::normalize_url;
use crate::page::{FetchOptions, Page, PageKind};
use crate::page_entry::{Hop, PageEntry};
use crate::proxy_auth::ProxyCredentials;
use crate::proxy_budget::ProxyLimits;
use crate::resolver::Refused;
use crate::robots::RobotsCache;
use crate::route::Routes;
use crate::status::status_error;
use crate::tls::TlsTrust;
use crate::upstream_proxy::UpstreamProxy;

/// Header lines a response may have: far above real sites, still a bound.
const MAX_RESPONSE_HEADERS: usize = 512;

/// The `User-Agent` sent unless [`FetcherBuilder::user_agent`] says otherwise:
/// browser-compatible, and naming farsight so sites can tell who is asking.
pub const DEFAULT_USER_AGENT: &str = concat!(
    "Mozilla/5.0 (compatible; farsight/",
    env!("CARGO_PKG_VERSION"),
    "; +https://github.com/farsight-dev/farsight)"
);

/// reqwest decodes gzip and br; deflate is decoded here (`inflate.rs`),
/// since reqwest's decoder fails on the raw deflate some servers send.
const ACCEPT_ENCODING: &str = "gzip, deflate, br";

/// The client's default `Accept`, which robots.txt requests send: what
/// they always sent (a site may vary robots.txt on it).
const ACCEPT: &str =
    "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.9,*/*;q=0.8";
/// The `Accept` of page requests: Markdown first, because a site that keeps
/// its pages as Markdown (documentation sites increasingly do) then sends
/// the author's text instead of HTML to extract it from; HTML just below,
/// so every other site answers as it does for a browser (issue 13).
pub const PAGE_ACCEPT: &str =
    "text/markdown, text/html;q=0.9, application/xhtml+xml;q=0.9, */*;q=0.8";
const PAGE_NAMESPACE: &str = "page";

/// Downloads web pages safely: the URL policy and SSRF guard, robots.txt,
/// redirects checked hop by hop, byte caps after decompression, timeouts,
/// charset decoding, and a page cache.
///
/// Cheap to clone; clones share connections, robots.txt rules and the cache.
#[derive(Clone)]
pub struct Fetcher {
    inner: Arc<Inner>,
}

struct Inner {
    routes: Routes,
    guard: Arc<Guard>,
    proxy: Option<UpstreamProxy>,
    robots: Option<RobotsCache>,
    cache: Cache,
    timeout: Duration,
    /// Kept for the browser's egress, which opens its tunnels itself.
    connect_timeout: Duration,
    max_redirects: u32,
    max_bytes: u64,
    max_document_bytes: u64,
    page_ttl: Duration,
}

impl std::fmt::Debug for Fetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetcher")
            .field("timeout", &self.inner.timeout)
            .field("max_redirects", &self.inner.max_redirects)
            .field("max_bytes", &self.inner.max_bytes)
            .field("max_document_bytes", &self.inner.max_document_bytes)
            .field("respect_robots_txt", &self.inner.robots.is_some())
            .field("proxy", &self.inner.proxy)
            .field("cache", &self.inner.cache)
            .finish_non_exhaustive()
    }
}

/// Configures a [`Fetcher`]. Setters take and return the builder by value;
/// a setter given a bad value keeps the error for [`FetcherBuilder::build`].
#[must_use]
#[derive(Debug)]
pub struct FetcherBuilder {
    timeout: Duration,
    connect_timeout: Duration,
    max_redirects: u32,
    max_bytes: u64,
    max_document_bytes: u64,
    user_agent: String,
    respect_robots_txt: bool,
    blocked_domains: Vec<String>,
    allow_private_networks: bool,
    allow_hosts: Vec<String>,
    cache: Cache,
    page_ttl: Duration,
    proxy: Option<UpstreamProxy>,
    tls: Option<TlsTrust>,
    error: Option<Error>,
}

impl Default for FetcherBuilder {
    fn default() -> Self {
        Self {
            // The fetch specification's "30 second timeout for slow pages".
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            // The specification's "follow up to 5 redirects".
            max_redirects: 5,
            // Far above any article's text, far below what hurts memory.
            max_bytes: 5 * 1024 * 1024,
            // A PDF of a few hundred pages with figures; papers and
            // datasheets are far smaller.
            max_document_bytes: 20 * 1024 * 1024,
            user_agent: DEFAULT_USER_AGENT.to_owned(),
            respect_robots_txt: true,
            blocked_domains: Vec::new(),
            allow_private_networks: false,
            allow_hosts: Vec::new(),
            cache: Cache::memory_only(),
            // Pages are cached for a day, as the specification suggests.
            page_ttl: Duration::from_secs(24 * 60 * 60),
            proxy: None,
            tls: None,
            error: None,
        }
    }
}

impl FetcherBuilder {
    /// A builder with the defaults.
    pub fn new() -> Self {
        Self::default()
    }

    fn fail(mut self, message: String) -> Self {
        if self.error.is_none() {
            self.error = Some(Error::new(ErrorKind::InvalidConfig, message));
        }
        self
    }

    /// The limit for the whole fetch: robots.txt, every redirect hop and the
    /// body. Default 30 s. Zero is an error.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        if timeout.is_zero() {
            return self.fail("fetch timeout must be more than zero".into());
        }
        self.timeout = timeout;
        self
    }

    /// The limit for opening one connection (TCP and TLS). Default 10 s.
    /// Zero is an error.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        if timeout.is_zero() {
            return self.fail("connect timeout must be more than zero".into());
        }
        self.connect_timeout = timeout;
        self
    }

    /// How many redirects one fetch follows. Default 5.
    pub fn max_redirects(mut self, n: u32) -> Self {
        self.max_redirects = n;
        self
    }

    /// The most body bytes kept, counted after decompression; the rest is not
    /// read and the page is marked truncated. Default 5 MiB. Zero is an error.
    pub fn max_bytes(mut self, n: u64) -> Self {
        if n == 0 {
            return self.fail("max_bytes must be more than zero".into());
        }
        self.max_bytes = n;
        self
    }

    /// The most bytes of a document (PDF, DOCX, PPTX: [`PageKind::Document`])
    /// read, counted after decompression. A document is useless cut, so a
    /// larger one is a [`ErrorKind::TooLarge`] error. Default 20 MiB. Zero is
    /// an error.
    pub fn max_document_bytes(mut self, n: u64) -> Self {
        if n == 0 {
            return self.fail("max_document_bytes must be more than zero".into());
        }
        self.max_document_bytes = n;
        self
    }

    /// The `User-Agent` header. Default [`DEFAULT_USER_AGENT`]. A value that
    /// cannot be a header (control characters) is an error.
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> Self {
        let ua = user_agent.into();
        if HeaderValue::from_str(&ua).is_err() || ua.trim().is_empty() {
            return self.fail("the user agent must be printable text".into());
        }
        self.user_agent = ua;
        self
    }

    /// Whether robots.txt is obeyed (product token `farsight`). Default true.
    pub fn respect_robots_txt(mut self, yes: bool) -> Self {
        self.respect_robots_txt = yes;
        self
    }

    /// Domains never fetched; each also blocks its subdomains. Default none.
    pub fn blocked_domains(mut self, domains: Vec<String>) -> Self {
        self.blocked_domains = domains;
        self
    }

    /// Lets every address through the private-network guard (loopback,
    /// private, link-local...). Only for tests and trusted intranets.
    /// Default false.
    pub fn allow_private_networks(mut self, yes: bool) -> Self {
        self.allow_private_networks = yes;
        self
    }

    /// Host names, IP addresses or CIDR blocks (`10.0.0.0/8`) let through the
    /// private-network guard. `*.corp.example` allows the subdomains of
    /// `corp.example`. Default none. A malformed address or CIDR is an error.
    pub fn allow_hosts(mut self, hosts: Vec<String>) -> Self {
        if let Err(e) = Guard::new(&[], false, &hosts) {
            return self.fail(e);
        }
        self.allow_hosts = hosts;
        self
    }

    /// The page cache. Default [`Cache::memory_only`].
    pub fn cache(mut self, cache: Cache) -> Self {
        self.cache = cache;
        self
    }

    /// How long a fetched page stays in the cache. Default 24 h.
    pub fn page_ttl(mut self, ttl: Duration) -> Self {
        self.page_ttl = ttl;
        self
    }

    /// The user's upstream proxy, which [`UpstreamProxy::for_url`] says each
    /// request goes through (robots.txt and every redirect hop included).
    /// The guard still checks each URL as written, and each name this
    /// machine can resolve, before the proxy hears of it. Default none:
    /// every request connects directly to a checked address.
    pub fn proxy(mut self, proxy: impl Into<Option<UpstreamProxy>>) -> Self {
        self.proxy = proxy.into();
        self
    }

    /// The CAs trusted for HTTPS. Default [`TlsTrust::default`]: the
    /// built-in roots and the system store.
    pub fn tls_trust(mut self, trust: TlsTrust) -> Self {
        self.tls = Some(trust);
        self
    }

    /// Builds the fetcher.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidConfig`] error for a bad setting (the first one
    /// given), or if the HTTP client cannot be initialised.
    pub fn build(self) -> Result<Fetcher, Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let guard = Arc::new(
            Guard::new(
                &self.blocked_domains,
                self.allow_private_networks,
                &self.allow_hosts,
            )
            .map_err(|e| Error::new(ErrorKind::InvalidConfig, e))?,
        );
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT, HeaderValue::from_static(ACCEPT));
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static(ACCEPT_ENCODING),
        );
        let tls = self.tls.unwrap_or_default();
        let base = || {
            reqwest::Client::builder()
                .tls_backend_preconfigured(tls.client_config())
                // Redirects are followed by hand so that every hop is checked.
                .redirect(reqwest::redirect::Policy::none())
                .referer(false)
                .no_deflate()
                // hyper stops at 100 header lines; real sites (cookie banners,
                // CDNs, security headers) send more, and browsers read them.
                .http1_max_headers(MAX_RESPONSE_HEADERS)
                .connect_timeout(self.connect_timeout)
                .user_agent(self.user_agent.clone())
                .default_headers(headers.clone())
        };
        // The proxy and the resolver are the routes' (route.rs): the
        // system's proxy settings are never read behind the user's back.
        let routes = Routes::build(
            &base,
            Arc::clone(&guard),
            self.proxy.clone(),
            self.connect_timeout,
        )
        .map_err(|e| {
            Error::new(
                ErrorKind::InvalidConfig,
                format!("the HTTP client could not be built: {}", root_cause(&e)),
            )
        })?;
        Ok(Fetcher {
            inner: Arc::new(Inner {
                routes,
                guard,
                proxy: self.proxy,
                robots: self
                    .respect_robots_txt
                    .then(|| RobotsCache::new(self.cache.clone())),
                cache: self.cache,
                timeout: self.timeout,
                connect_timeout: self.connect_timeout,
                max_redirects: self.max_redirects,
                max_bytes: self.max_bytes,
                max_document_bytes: self.max_document_bytes,
                page_ttl: self.page_ttl,
            }),
        })
    }
}

impl Fetcher {
    /// A builder with the defaults.
    pub fn builder() -> FetcherBuilder {
        FetcherBuilder::new()
    }

    /// The cache this fetcher uses (shared with the caller's clones).
    #[must_use]
    pub fn cache(&self) -> &Cache {
        &self.inner.cache
    }

    /// Fetches `url` and returns its body decoded to UTF-8, from the cache
    /// when a fresh copy is there.
    ///
    /// # Errors
    ///
    /// Whether the guard lets `url` through as written (scheme, blocked
    /// domains, addresses as written), without sending anything. A caller
    /// that reads a URL from somewhere else asks this first, so a blocked
    /// page is not read through another host (GitHub's raw files).
    pub fn check_url(&self, url: &str) -> Result<(), Error> {
        self.inner.guard.check_url(url).map(|_| ())
    }

    /// Starts a forward proxy on 127.0.0.1 for farsight's own browser: every
    /// request through it meets this fetcher's guard, and it lets through
    /// at most `limits` (see [`BrowserProxy`]). It stops when dropped.
    ///
    /// # Errors
    ///
    /// `InvalidConfig` for a zero limit, `Network` when it cannot listen.
    pub async fn browser_proxy(
        &self,
        limits: ProxyLimits,
        credentials: ProxyCredentials,
    ) -> Result<BrowserProxy, Error> {
        BrowserProxy::start(
            self.inner.routes.clone(),
            Arc::clone(&self.inner.guard),
            self.inner.connect_timeout,
            limits,
            credentials,
        )
        .await
    }

    /// Every failure is an [`Error`] with a kind, a message and usually a
    /// suggestion: a refused URL (`InvalidUrl`, `BlockedUrl`), robots.txt
    /// (`RobotsDisallowed`), an HTTP error status (`HttpStatus`, with
    /// [`Error::status`]), redirects (`TooManyRedirects`), size (`TooLarge`),
    /// type (`UnsupportedContent`), time (`Timeout`) or transport (`Network`).
    pub async fn fetch(&self, url: &str, options: &FetchOptions) -> Result<Page, Error> {
        let inner = &self.inner;
        // The policy comes before the cache: a domain blocked since the page
        // was cached stays blocked.
        let start = inner.guard.check_url(url)?;
        let key = normalize_url(start.as_str()).unwrap_or_else(|| start.to_string());
        if !options.bypass_cache
            && let Some(mut page) = self.cached(&key).await
        {
            // The entry may have been stored for another spelling, or for the
            // URL that redirected here.
            url.clone_into(&mut page.requested_url);
            return Ok(page);
        }
        let entry =
            match tokio::time::timeout(inner.timeout, self.download(start.clone(), url)).await {
                Ok(result) => result?,
                Err(_) => {
                    return Err(Error::new(
                        ErrorKind::Timeout,
                        format!(
                            "the fetch took longer than {} s and was stopped",
                            inner.timeout.as_secs_f64()
                        ),
                    )
                    .with_suggestion("The site is slow or not answering; try again later.")
                    .with_url(start.as_str()));
                }
            };
        self.store(&key, &entry).await;
        Ok(entry.page)
    }

    /// Keeps a fresh page under the URL asked for, with the whole chain, and
    /// under its final URL, with the final request only.
    async fn store(&self, key: &str, entry: &PageEntry) {
        let inner = &self.inner;
        // Also under the final URL: agents read on from the URL they were
        // given back.
        if let Some(final_key) = normalize_url(&entry.page.url).filter(|k| k != key)
            && let Some(last) = entry.final_hop_only()
        {
            match serde_json::to_vec(&last) {
                Ok(bytes) => {
                    inner
                        .cache
                        .put(PAGE_NAMESPACE, &final_key, bytes, inner.page_ttl)
                        .await;
                }
                Err(e) => tracing::debug!("page not cached: {e}"),
            }
        }
        match serde_json::to_vec(entry) {
            Ok(bytes) => {
                inner
                    .cache
                    .put(PAGE_NAMESPACE, key, bytes, inner.page_ttl)
                    .await;
            }
            Err(e) => tracing::debug!("page not cached: {e}"),
        }
    }

    /// The cached page under `key`, if the current policy would fetch it the
    /// way it was fetched (see [`PageEntry::refusal`]). Anything else is a
    /// miss: the page is fetched again, and the guard refuses it there with
    /// the usual error if it must.
    async fn cached(&self, key: &str) -> Option<Page> {
        let bytes = self.inner.cache.get(PAGE_NAMESPACE, key).await?;
        let entry = match serde_json::from_slice::<PageEntry>(&bytes) {
            Ok(entry) => entry,
            Err(e) => {
                // A damaged entry is a miss; the fresh page will replace it.
                tracing::debug!("unreadable page cache entry: {e}");
                return None;
            }
        };
        if let Some(why) = entry.refusal(&self.inner.guard, self.inner.robots.is_some()) {
            tracing::debug!(key, "cached page not served: {why}");
            return None;
        }
        let mut page = entry.page;
        if page.kind == PageKind::Document && page.bytes.is_none() {
            tracing::debug!(key, "cached document without its bytes");
            return None;
        }
        page.from_cache = true;
        Some(page)
    }

    /// Follows redirects by hand, checking the guard and robots.txt on every hop.
    async fn download(&self, start: Url, requested: &str) -> Result<PageEntry, Error> {
        let inner = &self.inner;
        let mut url = start;
        // Every request and who answered it, kept with the cached page.
        let mut hops: Vec<Hop> = Vec::new();
        let mut visited: HashSet<String> = HashSet::new();
        visited.insert(visit_key(&url));
        let mut redirects: u32 = 0;
        loop {
            if let Some(robots) = &inner.robots {
                robots
                    .check(&inner.routes, &inner.guard, &url, inner.timeout)
                    .await?;
            }
            let route = inner.routes.route(&url).await?;
            let resp = route
                .client
                .get(url.clone())
                .header(header::ACCEPT, PAGE_ACCEPT)
                .send()
                .await
                .map_err(|e| send_error(&e, &url, route.proxy))?;
            hops.push(Hop {
                url: url.to_string(),
                // Through a proxy the peer is the proxy; the address the
                // name resolved to here (if it did) stands in for it.
                peer: match route.proxy {
                    Some(_) => route.local_peer,
                    None => resp.remote_addr().map(|a| a.ip().to_canonical()),
                },
                via_proxy: route.proxy.is_some(),
            });
            let status = resp.status();
            let location = status
                .is_redirection()
                .then(|| resp.headers().get(header::LOCATION))
                .flatten()
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            let Some(location) = location else {
                let page = self.read_page(resp, url, requested).await?;
                return Ok(PageEntry {
                    page,
                    hops,
                    robots_obeyed: inner.robots.is_some(),
                });
            };
            drop(resp);
            let next = url.join(location.trim()).map_err(|e| {
                Error::new(
                    ErrorKind::InvalidUrl,
                    format!("the server redirected to an invalid URL ({e})"),
                )
                .with_suggestion(
                    "The site's redirect is broken; try its home page or search for the content.",
                )
                .with_url(url.as_str())
            })?;
            if !visited.insert(visit_key(&next)) {
                return Err(Error::new(
                    ErrorKind::TooManyRedirects,
                    format!(
                        "redirect loop: {} on {} redirects back to a URL already visited",
                        url.path(),
                        url.host_str().unwrap_or("the site"),
                    ),
                )
                .with_suggestion("The site's redirects go in a circle (often a cookie or login wall); use another source.")
                .with_url(url.as_str()));
            }
            redirects += 1;
            if redirects > inner.max_redirects {
                return Err(Error::new(
                    ErrorKind::TooManyRedirects,
                    format!("more than {} redirects", inner.max_redirects),
                )
                .with_suggestion(
                    "Try the last URL of the chain directly, or search for the content.",
                )
                .with_url(next.as_str()));
            }
            inner.guard.check_parsed(&next)?;
            url = next;
        }
    }

    async fn read_page(
        &self,
        mut resp: reqwest::Response,
        url: Url,
        requested: &str,
    ) -> Result<Page, Error> {
        let status = resp.status().as_u16();
        if let Some(vendor) = bot_wall::detect(status, resp.headers(), &[]) {
            return Err(bot_wall::wall_error(vendor, status, url.as_str()));
        }
        if !resp.status().is_success() {
            let retry_after = resp
                .headers()
                .get(header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            // A wall answers with an error status and a small page that
            // names it; only such a page is read.
            if let Some(vendor) = bot_wall::detect_in_error_body(&mut resp, status).await {
                return Err(bot_wall::wall_error(vendor, status, url.as_str()));
            }
            return Err(status_error(status, retry_after.as_deref(), url.as_str()));
        }
        // reqwest decodes gzip and br and then drops the header; one still
        // here other than a single deflate (decoded below) is an encoding it
        // did not decode (zstd, stacked "gzip, gzip"), whose bytes would pass
        // for text (issue 11).
        let encoding = undecoded_encoding(resp.headers());
        let mut inflater = (encoding.as_deref() == Some("deflate")).then(Inflater::new);
        if let Some(encoding) = encoding
            && inflater.is_none()
        {
            return Err(Error::new(
                ErrorKind::UnsupportedContent,
                format!(
                    "the server sent the page in an encoding farsight cannot decode ({encoding})"
                ),
            )
            .with_suggestion(
                "Try again later or another source; farsight asks for gzip, br or deflate.",
            )
            .with_url(url.as_str()));
        }
        let media = resp
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(content_type::parse);
        // Decided before the body is read: a video is not downloaded. A
        // generic binary type may still be a document (servers send PDFs as
        // application/octet-stream): its first bytes decide.
        let declared_kind = match &media {
            Some(m) if content_type::is_generic_binary(&m.essence) => None,
            Some(m) => Some(
                content_type::classify(&m.essence).ok_or_else(|| unsupported(&m.essence, &url))?,
            ),
            None => None,
        };

        let text_cap = usize::try_from(self.inner.max_bytes).unwrap_or(usize::MAX);
        let document_cap = usize::try_from(self.inner.max_document_bytes).unwrap_or(usize::MAX);
        let mut cap = if declared_kind == Some(PageKind::Document) {
            document_cap
        } else {
            text_cap
        };
        // Whether the first bytes were looked at for a document signature.
        let mut sniffed = declared_kind.is_some();
        let mut body: Vec<u8> = Vec::new();
        let mut truncated = false;
        // reqwest decompresses as it streams, so these chunks are decoded
        // bytes: a gzip bomb stops here at the cap.
        while let Some(chunk) = resp.chunk().await.map_err(|e| body_error(&e, &url))? {
            if let Some(inflater) = inflater.as_mut() {
                // Decoded as it streams too, so a deflate bomb stops at the cap.
                match inflater
                    .push(&chunk, &mut body, cap)
                    .map_err(|e| damaged(&e, &url))?
                {
                    Inflated::More => continue,
                    Inflated::Full => truncated = true,
                    Inflated::End => {}
                }
                break;
            }
            if !sniffed {
                // An undeclared document gets the document cap, decided on
                // its first bytes (a signature is at the very start).
                sniffed = true;
                if content_type::sniff_document(&chunk) {
                    cap = document_cap;
                }
            }
            let room = cap - body.len();
            if chunk.len() > room {
                body.extend_from_slice(&chunk[..room]);
                truncated = true;
                break;
            }
            body.extend_from_slice(&chunk);
        }
        drop(resp);
        if let Some(inflater) = inflater.as_mut()
            && !truncated
            && inflater
                .finish(&mut body, cap)
                .map_err(|e| damaged(&e, &url))?
                == Inflated::Full
        {
            truncated = true;
        }

        if !truncated
            && body.len() <= bot_wall::MAX_WALL_BYTES
            && let Some(vendor) = bot_wall::detect(status, &header::HeaderMap::new(), &body)
        {
            // A challenge served with a success status: never the page.
            return Err(bot_wall::wall_error(vendor, status, url.as_str()));
        }
        let head = &body[..body.len().min(1024)];
        let kind = match declared_kind {
            Some(k) => k,
            None if content_type::sniff_document(head) => PageKind::Document,
            None if media.is_some() => {
                let essence = media
                    .as_ref()
                    .map(|m| m.essence.as_str())
                    .unwrap_or_default();
                return Err(unsupported(essence, &url));
            }
            None => content_type::sniff(head)
                .ok_or_else(|| unsupported("binary data without a Content-Type", &url))?,
        };
        if kind == PageKind::Document {
            if truncated {
                return Err(Error::new(
                    ErrorKind::TooLarge,
                    format!(
                        "the document is larger than {} bytes, the most farsight reads of a document",
                        self.inner.max_document_bytes
                    ),
                )
                .with_suggestion(
                    "Look for a smaller version (an HTML page, a chapter, a summary), or raise [fetch].max_document_bytes.",
                )
                .with_url(url.as_str()));
            }
            return Ok(Page {
                url: url.to_string(),
                requested_url: requested.to_owned(),
                status,
                content_type: media.map(|m| m.essence).unwrap_or_default(),
                kind,
                charset: String::new(),
                text: String::new(),
                bytes: Some(body),
                truncated: false,
                from_cache: false,
            });
        }
        let (mut text, encoding) = charset::decode(
            &body,
            media.as_ref().and_then(|m| m.charset.as_deref()),
            kind == PageKind::Html,
        );
        if truncated {
            // A cut through a multi-byte character decodes as U+FFFD at the end.
            let keep = text.trim_end_matches('\u{FFFD}').len();
            text.truncate(keep);
            if text.chars().all(|c| c.is_whitespace() || c.is_control()) {
                return Err(Error::new(
                    ErrorKind::TooLarge,
                    format!(
                        "the response is larger than {} bytes and nothing readable arrived before that limit",
                        self.inner.max_bytes
                    ),
                )
                .with_suggestion("This resource is too large to read; look for a smaller page or a text version.")
                .with_url(url.as_str()));
            }
        }
        Ok(Page {
            url: url.to_string(),
            requested_url: requested.to_owned(),
            status,
            content_type: media.map(|m| m.essence).unwrap_or_default(),
            kind,
            charset: encoding.name().to_owned(),
            text,
            bytes: None,
            truncated,
            from_cache: false,
        })
    }
}

/// Redirect loops compare URLs without their fragment.
fn visit_key(url: &Url) -> String {
    let mut u = url.clone();
    u.set_fragment(None);
    u.into()
}

/// The `Content-Encoding` the response still declares, other than `identity`.
fn undecoded_encoding(headers: &header::HeaderMap) -> Option<String> {
    let values: Vec<String> = headers
        .get_all(header::CONTENT_ENCODING)
        .iter()
        .map(|v| {
            String::from_utf8_lossy(v.as_bytes())
                .trim()
                .to_ascii_lowercase()
        })
        .filter(|v| !v.is_empty() && v != "identity")
        .collect();
    (!values.is_empty()).then(|| values.join(", "))
}

fn unsupported(what: &str, url: &Url) -> Error {
    let suggestion = "farsight reads web pages, text files and documents (PDF, DOCX, PPTX); \
         look for one of those versions of this content.";
    Error::new(
        ErrorKind::UnsupportedContent,
        format!("unsupported content type: {what}"),
    )
    .with_suggestion(suggestion)
    .with_url(url.as_str())
}

pub(crate) fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cur = e;
    while let Some(next) = cur.source() {
        cur = next;
    }
    cur.to_string()
}

fn find_refusal<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a Refused> {
    let mut cur: Option<&'a (dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = cur {
        if let Some(r) = err.downcast_ref::<Refused>() {
            return Some(r);
        }
        cur = err.source();
    }
    None
}

/// A request that got no answer; `proxy` is the one it went through.
pub(crate) fn send_error(e: &reqwest::Error, url: &Url, proxy: Option<&UpstreamProxy>) -> Error {
    if let Some(Refused(refusal)) = find_refusal(e) {
        return Error::new(ErrorKind::BlockedUrl, refusal.message())
            .with_suggestion(refusal.suggestion().unwrap_or_default())
            .with_url(url.as_str());
    }
    if let Some(proxy) = proxy {
        return crate::route::proxy_send_error(e, url, proxy);
    }
    if let Some(host) = crate::resolver::unresolved_host(e) {
        return Error::new(
            ErrorKind::Network,
            format!("could not resolve {host} (no DNS answer)"),
        )
        .with_suggestion("Check the host name for typos, and that this machine is online.")
        .with_url(url.as_str());
    }
    let host = url.host_str().unwrap_or("the server");
    if e.is_timeout() {
        return Error::new(
            ErrorKind::Timeout,
            format!("connecting to {host} timed out"),
        )
        .with_suggestion("The site is slow or not answering; try again later.")
        .with_url(url.as_str());
    }
    Error::new(
        ErrorKind::Network,
        format!("could not reach {host}: {}", root_cause(e)),
    )
    .with_suggestion("Check that the URL is right and the site is up; try again later.")
    .with_url(url.as_str())
}

/// A deflate body that does not decode.
fn damaged(e: &flate2::DecompressError, url: &Url) -> Error {
    Error::new(
        ErrorKind::UnsupportedContent,
        format!("the page's deflate-compressed body is damaged ({e})"),
    )
    .with_suggestion("The server sent a broken response; try again later or another source.")
    .with_url(url.as_str())
}

fn body_error(e: &reqwest::Error, url: &Url) -> Error {
    if e.is_timeout() {
        return Error::new(ErrorKind::Timeout, "reading the page timed out")
            .with_suggestion("The site is slow or not answering; try again later.")
            .with_url(url.as_str());
    }
    Error::new(
        ErrorKind::Network,
        format!(
            "the connection failed while reading the page: {}",
            root_cause(e)
        ),
    )
    .with_suggestion("Try again; the connection broke off.")
    .with_url(url.as_str())
}
