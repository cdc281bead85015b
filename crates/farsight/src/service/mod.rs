//! The service every surface calls: the MCP tools, the CLI subcommands and
//! library users all go through [`Service`], so they answer alike.

mod deep;
mod document;
mod extract;
mod extracted;
mod fetch;
mod fetch_many;
mod focus;
mod github;
mod markdown_source;
mod model;
mod render_page;
mod search;
mod window;

use std::sync::Arc;

use anyhow::Context;
use farsight_net::{Cache, Fetcher, RedisHealth, RedisLink};
use farsight_render::Renderer;

use crate::config::Config;

pub(crate) use document::is_document;
pub use extract::extract_document;
pub(crate) use fetch::{html_response, local_document_response};
pub use fetch_many::{MAX_TOTAL_LENGTH, MAX_URLS};
pub use model::{
    FetchFormat, FetchLink, FetchManyResponse, FetchMetadata, FetchRequest, FetchResponse,
    FetchSource, FetchStatus, RenderMode,
};
pub use search::DEFAULT_MAX_CONTENT_TOKENS;

/// The long-lived handle behind every tool: cheap to clone (an `Arc` inside),
/// shared by all calls.
#[derive(Clone)]
pub struct Service {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    cache: Cache,
    /// Redis shared with other instances, when configured.
    redis: Option<RedisLink>,
    /// `None` when `web_fetch` is switched off.
    fetcher: Option<Fetcher>,
    /// The headless browser behind `render`, sending everything through the
    /// fetcher's egress; started on first need. `None` with the fetcher.
    renderer: Option<Renderer>,
    /// `None` when `web_search` is switched off.
    search: Option<search::SearchSetup>,
}

/// Per-call options that are not part of the tool's input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallOptions {
    /// Skip the cache when reading (the fresh answer is still stored).
    pub bypass_cache: bool,
}

impl CallOptions {
    /// Sets [`CallOptions::bypass_cache`].
    #[must_use]
    pub fn bypass_cache(mut self, yes: bool) -> Self {
        self.bypass_cache = yes;
        self
    }
}

impl Service {
    /// Builds the service: opens the cache (memory, then the on-disk store
    /// under `[cache].dir`), the page fetcher and the renderer (which starts
    /// no browser until a page needs one).
    ///
    /// # Errors
    ///
    /// When the fetcher cannot be built from the configuration (a malformed
    /// `allow_hosts` entry, for instance).
    pub fn new(config: Config) -> anyhow::Result<Self> {
        // One proxy and one set of trusted CAs for pages, robots.txt, search
        // providers and Redis; a bad proxy or CA file stops the start here.
        let proxy = config.fetch.upstream_proxy()?;
        let trust = config.fetch.tls_trust()?;
        // Redis, when configured, is shared by every instance: the cache's
        // middle level and the providers' budgets. It connects lazily; a
        // malformed URL stops the start here.
        let redis = config
            .cache
            .redis_url
            .as_deref()
            .map(|url| RedisLink::open_trusting(url, &trust))
            .transpose()
            .context("cannot use [cache].redis_url (REDIS_URL)")?;
        let mut cache = if !config.cache.enabled {
            Cache::disabled()
        } else {
            Cache::open_limited(&config.cache.dir, config.cache.max_disk_bytes)
        };
        if let Some(link) = &redis {
            cache = cache.with_redis(link.clone());
        }
        let fetcher = if config.fetch.enabled {
            let f = &config.fetch;
            let fetcher = Fetcher::builder()
                .proxy(proxy.clone())
                .tls_trust(trust.clone())
                .timeout(f.timeout)
                .connect_timeout(f.connect_timeout)
                .max_redirects(f.max_redirects)
                .max_bytes(f.max_bytes)
                .max_document_bytes(f.max_document_bytes)
                .user_agent(f.user_agent.clone())
                .respect_robots_txt(f.respect_robots_txt)
                .blocked_domains(f.blocked_domains.clone())
                .allow_private_networks(f.allow_private_networks)
                .allow_hosts(f.allow_hosts.clone())
                .cache(cache.clone())
                .page_ttl(config.cache.page_ttl)
                .build()
                .context("cannot set up the page fetcher from [fetch]")?;
            Some(fetcher)
        } else {
            None
        };
        let renderer = fetcher.as_ref().map(|f| render_page::renderer(&config, f));
        let search = search::SearchSetup::from_config(
            &config,
            &cache,
            redis.as_ref(),
            proxy.as_ref(),
            &trust,
        )?;
        Ok(Self {
            inner: Arc::new(Inner {
                config,
                cache,
                redis,
                fetcher,
                renderer,
                search,
            }),
        })
    }

    /// The configuration the service was built from.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The shared cache (pages under `"page"`; other tools add their own
    /// namespaces, e.g. search answers for `[cache].search_ttl_seconds`).
    pub fn cache(&self) -> &Cache {
        &self.inner.cache
    }

    /// The Redis shared with other instances (`None` without
    /// `[cache].redis_url`), for other shared budgets: see
    /// [`RedisLink::gcra`].
    pub fn redis(&self) -> Option<&RedisLink> {
        self.inner.redis.as_ref()
    }

    /// The state of the Redis shared with other instances (`None` when no
    /// `[cache].redis_url` is set): what `/healthz` reports.
    pub fn redis_health(&self) -> Option<RedisHealth> {
        self.inner.redis.as_ref().map(RedisLink::health)
    }

    /// Whether `web_fetch` is offered (`WEB_FETCH_ENABLED` / `[fetch].enabled`).
    pub fn fetch_enabled(&self) -> bool {
        self.inner.fetcher.is_some()
    }
}

#[allow(dead_code)]
fn _assert_impls() {
    fn assert_send_sync<T: Send + Sync + Clone>() {}
    assert_send_sync::<Service>();
}
