//! `web_search`: the providers the configuration enables, the fallback chain,
//! several providers at once, and deep search on top.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use farsight_net::Cache;
use farsight_search::{
    ErrorKind, RateLimit, SearchCache, SearchError, SearchRequest, SearchResponse, SearchService,
    build_provider, provider_env_vars, provider_names,
};

use super::deep::{DeepLimits, add_content};
use super::{CallOptions, Service};
use crate::config::Config;

/// Tokens of page content a deep search returns when `maxContentTokens` is not
/// given (the `[search].max_content_tokens` default).
pub const DEFAULT_MAX_CONTENT_TOKENS: usize = 4_000;

/// The cache namespace of search answers (pages live under `"page"`).
const CACHE_NAMESPACE: &str = "search";

/// The search side of the service.
pub(crate) struct SearchSetup {
    /// The engine, its default chain set to `chain`.
    engine: SearchService,
    /// The default chain: `[search].provider`, then `[search].fallbacks` (or
    /// the default order), configured providers only.
    chain: Vec<String>,
}

/// The page cache seen as the engine's cache, under its own namespace.
struct NetSearchCache(Cache);

#[async_trait::async_trait]
impl SearchCache for NetSearchCache {
    async fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.0.get(CACHE_NAMESPACE, key).await
    }

    async fn put(&self, key: &str, value: Vec<u8>, ttl: Duration) {
        self.0.put(CACHE_NAMESPACE, key, value, ttl).await;
    }
}

impl SearchSetup {
    /// The search engine the configuration describes, or `None` when
    /// `web_search` is switched off. A provider is offered only when its
    /// settings are complete (key, engine id, URL); keyless `duckduckgo` and
    /// `wikipedia` always are.
    pub(crate) fn from_config(
        config: &Config,
        cache: &Cache,
        redis: Option<&farsight_net::RedisLink>,
        proxy: Option<&farsight_net::UpstreamProxy>,
        trust: &farsight_net::TlsTrust,
    ) -> anyhow::Result<Option<Self>> {
        if !config.search.enabled {
            return Ok(None);
        }
        // The engine bounds each call (and doubles it for the retry after a
        // timeout); the client's own limit must not cut in first.
        let client = farsight_net::api_client(
            &config.fetch.user_agent,
            config.search.timeout.saturating_mul(2) + Duration::from_secs(1),
            proxy,
            trust,
        )
        .context("cannot build the HTTP client for search providers")?;
        let mut providers = Vec::new();
        let mut builder = SearchService::builder()
            .safe_search(config.search.safe_search)
            .timeout(config.search.timeout)
            .cache_ttl(config.cache.search_ttl);
        if config.cache.enabled {
            builder = builder.cache(Arc::new(NetSearchCache(cache.clone())));
        }
        if let Some(link) = redis {
            // All instances on this Redis share each provider's budget.
            builder = builder.shared_budgets(link.clone());
        }
        if let Some(country) = &config.search.country {
            builder = builder.country(country);
        }
        if let Some(language) = &config.search.language {
            builder = builder.language(language);
        }
        for &name in provider_names() {
            let settings = config.providers.get(name).cloned().unwrap_or_default();
            match build_provider(name, &settings, client.clone()) {
                Ok(p) => {
                    providers.push(p);
                    if let Some(rps) = settings.requests_per_second {
                        builder = builder
                            .rate_limit(name, RateLimit::new(rps, settings.burst.unwrap_or(1)));
                    }
                }
                Err(e) => tracing::debug!(provider = name, "not offered: {e}"),
            }
        }
        let configured: Vec<String> = providers.iter().map(|p| p.name().to_owned()).collect();

        let wanted: Vec<String> =
            config
                .search
                .provider
                .iter()
                .cloned()
                .chain(
                    config.search.fallbacks.clone().unwrap_or_else(|| {
                        provider_names().iter().map(|&n| n.to_owned()).collect()
                    }),
                )
                .map(|n| n.trim().to_ascii_lowercase())
                .collect();
        let mut chain: Vec<String> = Vec::new();
        for name in wanted {
            if chain.contains(&name) {
                continue;
            }
            if configured.contains(&name) {
                chain.push(name);
            } else if config.search.provider.as_deref() == Some(name.as_str())
                || config
                    .search
                    .fallbacks
                    .as_ref()
                    .is_some_and(|f| f.contains(&name))
            {
                tracing::warn!(
                    provider = name.as_str(),
                    "[search] names {name}, which is not configured (set {}); it is skipped",
                    provider_env_vars(&name).join(" and ")
                );
            }
        }
        tracing::debug!(?chain, ?configured, "search providers");
        builder = builder.providers(providers);
        // With no usable name in the chain, every configured provider is asked.
        if !chain.is_empty() {
            builder = builder.default_chain(&chain);
        }
        let engine = builder
            .build()
            .map_err(|e| anyhow::anyhow!("{e}"))
            .context("invalid [search] or [providers] settings")?;
        Ok(Some(Self { engine, chain }))
    }
}

impl Service {
    /// Whether `web_search` is offered (`WEB_SEARCH_ENABLED` / `[search].enabled`).
    pub fn search_enabled(&self) -> bool {
        self.inner.search.is_some()
    }

    /// Calls that queued for a provider's request budget since start
    /// (`/metrics`); 0 without search.
    pub fn search_rate_limit_waits(&self) -> u64 {
        self.inner
            .search
            .as_ref()
            .map_or(0, |setup| setup.engine.rate_limit_waits())
    }

    /// The providers asked in turn when a request names none.
    pub fn search_chain(&self) -> Vec<String> {
        self.inner
            .search
            .as_ref()
            .map(|s| s.chain.clone())
            .unwrap_or_default()
    }

    /// Searches the web: the configured chain with fallback, one provider, or
    /// several merged by reciprocal rank fusion (the engine's choice, by
    /// `provider`); then, for a deep search, the top pages' most relevant
    /// passages.
    ///
    /// # Errors
    ///
    /// A [`SearchError`] when no provider answered (every attempt is listed),
    /// the query is invalid, or the provider asked for is not configured.
    /// A deep search never fails because a page could not be read.
    pub async fn web_search(
        &self,
        request: &SearchRequest,
        options: CallOptions,
    ) -> Result<SearchResponse, SearchError> {
        let started = Instant::now();
        let Some(setup) = &self.inner.search else {
            return Err(SearchError::new(
                ErrorKind::Disabled,
                "web_search is disabled in this farsight configuration",
            )
            .with_query(request.query.clone())
            .with_suggestion("Unset WEB_SEARCH_ENABLED=false or set [search].enabled = true"));
        };
        let mut request = request.clone();
        if request.max_results.is_none() {
            request.max_results = Some(self.inner.config.search.max_results);
        }
        request.bypass_cache |= options.bypass_cache;
        let mut response = setup.engine.search(request.clone()).await?;
        if request.wants_content() {
            let search = &self.inner.config.search;
            let limits = DeepLimits {
                concurrency: search.deep_concurrency,
                deadline: search.deep_timeout,
                max_tokens: request
                    .max_content_tokens
                    .unwrap_or(search.max_content_tokens),
                bypass_cache: request.bypass_cache,
                document_ttl: self.inner.config.cache.page_ttl,
            };
            let tokens = add_content(
                self.inner.fetcher.as_ref(),
                &self.inner.cache,
                &request.query,
                &mut response.results,
                limits,
            )
            .await;
            response.content_tokens = Some(tokens);
        }
        let elapsed = started.elapsed();
        response.query.clone_from(&request.query);
        response.search_time = elapsed.as_secs_f64();
        response.response_time_ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
        Ok(response)
    }
}
