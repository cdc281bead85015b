//! The search engine: validation, the provider chain with retries and rate
//! limits, normalisation, and the cache.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::time::Instant;
use url::Url;

use crate::cache::SearchCache;
use crate::locale;
use crate::normalize::{
    DomainFilter, clean_text, cut_at_word, cut_snippet, dedupe_key, normalize_domain, parse_date,
    registrable_domain,
};
use crate::rate_limit::{ProviderLimiter, RateLimit};
use crate::registry;
use crate::request::{DEFAULT_MAX_RESULTS, MAX_QUERY_CHARS, MAX_RESULTS, MIN_QUERY_CHARS};
use crate::response::NO_RESULTS_SUGGESTION;
use crate::{
    Attempt, ErrorKind, ImageResult, Provider, ProviderAnswer, ProviderQuery, RetryPolicy,
    SearchError, SearchRequest, SearchResponse, SearchResult, SearchType,
};

/// Titles longer than this are cut at a word: a title is a label, not content.
const TITLE_MAX_CHARS: usize = 200;

/// Searches through a chain of providers. Cheap to clone (an `Arc` inside);
/// build one with [`SearchService::builder`].
#[derive(Clone)]
pub struct SearchService {
    inner: Arc<Inner>,
}

struct Inner {
    /// Every provider, in the order added.
    chain: Vec<Entry>,
    /// Indices into `chain`: the providers asked, in order, when a request
    /// names none.
    default_chain: Vec<usize>,
    default_safe_search: bool,
    /// `[search].country` and `.language`: used when a request gives none.
    default_country: Option<String>,
    default_language: Option<String>,
    cache: Option<Arc<dyn SearchCache>>,
    cache_ttl: Duration,
    timeout: Duration,
    /// Calls that queued for a provider's budget since the service was built.
    rate_limit_waits: Arc<AtomicU64>,
}

struct Entry {
    provider: Arc<dyn Provider>,
    limiter: Option<ProviderLimiter>,
    policy: RetryPolicy,
}

impl fmt::Debug for SearchService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchService")
            .field("providers", &self.provider_names())
            .field("default_chain", &self.default_chain())
            .field("default_safe_search", &self.inner.default_safe_search)
            .field("cache", &self.inner.cache.is_some())
            .field("cache_ttl", &self.inner.cache_ttl)
            .finish()
    }
}

/// Builds a [`SearchService`].
#[must_use]
pub struct SearchServiceBuilder {
    providers: Vec<Arc<dyn Provider>>,
    default_chain: Option<Vec<String>>,
    rate_limits: HashMap<String, RateLimit>,
    rate_limit_wait: Duration,
    shared_budgets: Option<farsight_net::RedisLink>,
    retry_policies: HashMap<String, RetryPolicy>,
    safe_search: bool,
    country: Option<String>,
    language: Option<String>,
    cache: Option<Arc<dyn SearchCache>>,
    cache_ttl: Duration,
    timeout: Duration,
    error: Option<SearchError>,
}

impl Default for SearchServiceBuilder {
    fn default() -> Self {
        Self {
            providers: Vec::new(),
            default_chain: None,
            rate_limits: HashMap::new(),
            // Long enough to ride out a burst of parallel searches at 1 rps,
            // short enough that an agent is not left waiting on a stuck queue.
            rate_limit_wait: Duration::from_secs(5),
            shared_budgets: None,
            retry_policies: HashMap::new(),
            safe_search: true,
            country: None,
            language: None,
            cache: None,
            // Search answers change slowly; an hour saves credits on repeated questions.
            cache_ttl: Duration::from_secs(3600),
            // Search APIs answer in 1-3 s; 15 s is a provider in trouble.
            timeout: Duration::from_secs(15),
            error: None,
        }
    }
}

impl SearchServiceBuilder {
    /// A builder with no providers, safe search on, no cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a provider to the fallback chain (the first added is asked
    /// first). A second provider with the same name is ignored. Default: none.
    pub fn provider(mut self, provider: Arc<dyn Provider>) -> Self {
        if !self.providers.iter().any(|p| p.name() == provider.name()) {
            self.providers.push(provider);
        }
        self
    }

    /// Appends several providers, in order.
    pub fn providers(mut self, providers: impl IntoIterator<Item = Arc<dyn Provider>>) -> Self {
        for p in providers {
            self = self.provider(p);
        }
        self
    }

    /// The providers asked, in order, when a request names none; any
    /// provider added can still be asked for by name. Names of providers not
    /// added are ignored (logged at debug); repeats count once. Default: every
    /// provider, in the order added.
    pub fn default_chain(mut self, names: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.default_chain = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// The request budget of the provider called `name`. Default:
    /// [`RateLimit::default_for`] (Brave and DuckDuckGo 1 per second, others
    /// unlimited). A rate that is not above zero is an error at `build()`.
    pub fn rate_limit(mut self, name: impl Into<String>, limit: RateLimit) -> Self {
        let name = name.into();
        if !(limit.requests_per_second.is_finite() && limit.requests_per_second > 0.0) {
            self.error.get_or_insert(
                SearchError::new(
                    ErrorKind::NotConfigured,
                    format!(
                        "requests_per_second for {name} must be above zero, not {}",
                        limit.requests_per_second
                    ),
                )
                .with_suggestion("Set a positive requests_per_second, e.g. 1 or 0.5."),
            );
        }
        self.rate_limits.insert(name, limit);
        self
    }

    /// How long a call over budget waits in the queue before failing as
    /// `rateLimited`. Default: 5 s.
    pub fn rate_limit_wait(mut self, wait: Duration) -> Self {
        self.rate_limit_wait = wait;
        self
    }

    /// Keeps the providers' budgets in this Redis, so every instance using it
    /// respects them together (see [`RateLimit`]). While Redis is unavailable
    /// each instance falls back to its own budget. Default: local budgets.
    pub fn shared_budgets(mut self, link: farsight_net::RedisLink) -> Self {
        self.shared_budgets = Some(link);
        self
    }

    /// Overrides the retry rules of the provider called `name`. Default: the
    /// provider's own [`Provider::retry_policy`].
    pub fn retry_policy(mut self, name: impl Into<String>, policy: RetryPolicy) -> Self {
        self.retry_policies.insert(name.into(), policy);
        self
    }

    /// Whether safe search is on when a request does not say. Default: true.
    pub fn safe_search(mut self, on: bool) -> Self {
        self.safe_search = on;
        self
    }

    /// The country (ISO 3166-1 alpha-2, "de") a request without one searches
    /// for. Default: none (each provider's own). A code that is not one is an
    /// error at `build()`.
    pub fn country(mut self, code: impl AsRef<str>) -> Self {
        let raw = code.as_ref();
        match locale::country_code(raw) {
            Some(c) => self.country = Some(c),
            None => {
                self.error.get_or_insert(
                    SearchError::new(
                        ErrorKind::NotConfigured,
                        format!("[search].country {raw:?} is not an ISO 3166-1 alpha-2 code"),
                    )
                    .with_suggestion("Give a two-letter country code such as \"de\" or \"us\"."),
                );
            }
        }
        self
    }

    /// The language (ISO 639-1, "fr") a request without one searches in.
    /// Default: none (each provider's own). A code that is not one is an
    /// error at `build()`.
    pub fn language(mut self, code: impl AsRef<str>) -> Self {
        let raw = code.as_ref();
        match locale::language_code(raw) {
            Some(l) => self.language = Some(l),
            None => {
                self.error.get_or_insert(
                    SearchError::new(
                        ErrorKind::NotConfigured,
                        format!("[search].language {raw:?} is not an ISO 639-1 code"),
                    )
                    .with_suggestion("Give a two-letter language code such as \"fr\" or \"en\"."),
                );
            }
        }
        self
    }

    /// Where answers are cached. Default: no cache.
    pub fn cache(mut self, cache: Arc<dyn SearchCache>) -> Self {
        self.cache = Some(cache);
        self
    }

    /// How long answers stay cached. Default: 1 hour.
    pub fn cache_ttl(mut self, ttl: Duration) -> Self {
        self.cache_ttl = ttl;
        self
    }

    /// How long one call to a provider may take; the retry after a timeout
    /// gets twice as long. Default: 15 s. Build the HTTP client given to the
    /// providers with a timeout of at least twice this, so the engine's limit
    /// is the one that applies.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        if timeout.is_zero() {
            self.error.get_or_insert(SearchError::new(
                ErrorKind::NotConfigured,
                "the search timeout must be above zero",
            ));
        }
        self.timeout = timeout;
        self
    }

    /// The service.
    ///
    /// # Errors
    ///
    /// `notConfigured` when a setter got a bad value (a rate limit not above zero).
    pub fn build(self) -> Result<SearchService, SearchError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let default_chain = match &self.default_chain {
            None => (0..self.providers.len()).collect(),
            Some(names) => {
                let mut picked: Vec<usize> = Vec::new();
                for name in names {
                    let name = name.trim().to_ascii_lowercase();
                    match self.providers.iter().position(|p| p.name() == name) {
                        Some(i) if !picked.contains(&i) => picked.push(i),
                        Some(_) => {}
                        None => tracing::debug!(
                            provider = name.as_str(),
                            "left out of the default chain: no such provider was added"
                        ),
                    }
                }
                picked
            }
        };
        let rate_limit_waits = Arc::new(AtomicU64::new(0));
        let chain = self
            .providers
            .into_iter()
            .map(|provider| {
                let name = provider.name();
                let limit = self
                    .rate_limits
                    .get(name)
                    .copied()
                    .or_else(|| RateLimit::default_for(name));
                let limiter = limit.and_then(|l| {
                    ProviderLimiter::new(
                        l,
                        self.rate_limit_wait,
                        self.shared_budgets.clone(),
                        rate_limit_waits.clone(),
                    )
                });
                let policy = self
                    .retry_policies
                    .get(name)
                    .copied()
                    .unwrap_or_else(|| provider.retry_policy());
                Entry {
                    provider,
                    limiter,
                    policy,
                }
            })
            .collect();
        Ok(SearchService {
            inner: Arc::new(Inner {
                chain,
                default_chain,
                default_safe_search: self.safe_search,
                default_country: self.country,
                default_language: self.language,
                cache: self.cache,
                cache_ttl: self.cache_ttl,
                timeout: self.timeout,
                rate_limit_waits,
            }),
        })
    }
}

/// A request after validation: what the cache key and the providers see.
#[derive(Debug, Clone, serde::Serialize)]
struct Normalized {
    query: String,
    count: u32,
    site: Option<String>,
    include: Vec<String>,
    exclude: Vec<String>,
    date_range: Option<crate::DateRange>,
    safe_search: bool,
    topic: crate::Topic,
    depth: crate::SearchDepth,
    search_type: SearchType,
    country: Option<String>,
    language: Option<String>,
    provider: Option<String>,
}

impl SearchService {
    /// A builder.
    pub fn builder() -> SearchServiceBuilder {
        SearchServiceBuilder::new()
    }

    /// How many calls have queued for a provider's request budget (and then
    /// went on, or answered `rateLimited`) since the service was built.
    pub fn rate_limit_waits(&self) -> u64 {
        self.inner.rate_limit_waits.load(Ordering::Relaxed)
    }

    /// Every provider the service was built with, in the order added.
    pub fn provider_names(&self) -> Vec<&'static str> {
        self.inner.chain.iter().map(|e| e.provider.name()).collect()
    }

    /// The providers asked in turn when a request names none.
    pub fn default_chain(&self) -> Vec<&'static str> {
        self.inner
            .default_chain
            .iter()
            .map(|&i| self.inner.chain[i].provider.name())
            .collect()
    }

    /// Runs a search: the default chain until one provider answers, the
    /// provider named in [`SearchRequest::provider`] alone, or several named
    /// providers (or `"all"`) at once, merged by reciprocal rank fusion.
    ///
    /// # Errors
    ///
    /// `invalidQuery` for a query or filter that cannot be searched (never
    /// passed on to another provider); `notConfigured` for an explicit
    /// provider that is not set up; otherwise the failure of the provider
    /// asked by name, or one error for all the providers asked (see
    /// [`SearchError::from_attempts`]), whose [`SearchError::attempts`] lists
    /// them. The error carries the query ([`SearchError::query`]).
    pub async fn search(&self, request: SearchRequest) -> Result<SearchResponse, SearchError> {
        let names = request.provider_names();
        let answer = match names.as_slice() {
            [] => self.search_chain(&request, None).await,
            [all] if all == "all" => {
                let every: Vec<String> = self
                    .provider_names()
                    .into_iter()
                    .map(str::to_owned)
                    .collect();
                self.search_fused(&request, &every).await
            }
            [one] => self.search_chain(&request, Some(one)).await,
            many => self.search_fused(&request, many).await,
        };
        answer.map_err(|e| e.with_query(request.query.clone()))
    }

    /// The default chain (`provider` `None`) or one provider alone.
    pub(crate) async fn search_chain(
        &self,
        request: &SearchRequest,
        provider: Option<&str>,
    ) -> Result<SearchResponse, SearchError> {
        let started = Instant::now();
        let normalized = self.normalize(request, provider)?;
        let explicit = normalized.provider.is_some();
        let chain = self.chain_for(normalized.provider.as_deref())?;

        let cache_key = self
            .inner
            .cache
            .as_ref()
            .and_then(|_| cache_key(&normalized, &chain));
        if !request.bypass_cache
            && let (Some(cache), Some(key)) = (&self.inner.cache, &cache_key)
            && let Some(bytes) = cache.get(key).await
        {
            match serde_json::from_slice::<SearchResponse>(&bytes) {
                Ok(mut hit) => {
                    let elapsed = started.elapsed();
                    hit.query = request.query.clone();
                    hit.response_time_ms = elapsed.as_millis() as u64;
                    hit.search_time = elapsed.as_secs_f64();
                    tracing::debug!(key, "search answered from the cache");
                    return Ok(hit);
                }
                Err(e) => tracing::warn!(key, error = %e, "ignoring an unreadable cached search"),
            }
        }

        let filter = DomainFilter {
            site: normalized.site.clone(),
            include: normalized.include.clone(),
            exclude: normalized.exclude.clone(),
        };
        let mut attempts: Vec<(Attempt, SearchError)> = Vec::new();
        for entry in chain {
            let name = entry.provider.name();
            if normalized.search_type == SearchType::Images && !entry.provider.supports_images() {
                let e = no_image_search(name);
                if explicit {
                    return Err(e);
                }
                tracing::debug!(provider = name, "skipped: no image search");
                attempts.push((Attempt::new(name, &e), e));
                continue;
            }
            let query = ProviderQuery {
                query: normalized.query.clone(),
                count: normalized.count.min(entry.provider.max_results()).max(1),
                site: normalized.site.clone(),
                include_domains: normalized.include.clone(),
                exclude_domains: normalized.exclude.clone(),
                date_range: normalized.date_range,
                safe_search: normalized.safe_search,
                topic: normalized.topic,
                depth: normalized.depth,
                search_type: normalized.search_type,
                country: normalized.country.clone(),
                language: normalized.language.clone(),
            };
            match call_with_retries(entry, &query, self.inner.timeout).await {
                Ok(answer) => {
                    let response = build_response(
                        &request.query,
                        name,
                        answer,
                        &filter,
                        query.count as usize,
                        attempts.into_iter().map(|(a, _)| a).collect(),
                        started,
                    );
                    if let (Some(cache), Some(key)) = (&self.inner.cache, &cache_key) {
                        match serde_json::to_vec(&response) {
                            Ok(bytes) => cache.put(key, bytes, self.inner.cache_ttl).await,
                            Err(e) => tracing::warn!(error = %e, "could not cache a search"),
                        }
                    }
                    return Ok(response);
                }
                Err(e) if e.kind() == ErrorKind::InvalidQuery => {
                    return Err(e.with_attempts(attempts.into_iter().map(|(a, _)| a).collect()));
                }
                Err(e) => {
                    tracing::info!(provider = name, error = %e, "search provider failed");
                    if explicit {
                        // A provider asked by name answers for itself.
                        return Err(e);
                    }
                    attempts.push((Attempt::new(name, &e), e));
                }
            }
        }
        Err(SearchError::from_attempts(attempts))
    }

    fn normalize(
        &self,
        request: &SearchRequest,
        provider: Option<&str>,
    ) -> Result<Normalized, SearchError> {
        let query = request
            .query
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let chars = query.chars().count();
        if chars < MIN_QUERY_CHARS {
            return Err(invalid(
                format!("the query must have at least {MIN_QUERY_CHARS} characters"),
                "Write a query of a few specific words.",
            ));
        }
        if chars > MAX_QUERY_CHARS {
            return Err(invalid(
                format!("the query has {chars} characters; the limit is {MAX_QUERY_CHARS}"),
                "Shorten the query to its key terms.",
            ));
        }
        let domain = |raw: &String, what: &str| {
            normalize_domain(raw).ok_or_else(|| {
                invalid(
                    format!("{what} {raw:?} is not a domain name"),
                    "Give domains like example.com.",
                )
            })
        };
        let site = request
            .site
            .as_ref()
            .filter(|s| !s.trim().is_empty())
            .map(|s| domain(s, "site"))
            .transpose()?;
        let mut include = Vec::new();
        for d in &request.include_domains {
            let d = domain(d, "includeDomains entry")?;
            if !include.contains(&d) {
                include.push(d);
            }
        }
        let mut exclude = Vec::new();
        for d in &request.exclude_domains {
            let d = domain(d, "excludeDomains entry")?;
            if !exclude.contains(&d) {
                exclude.push(d);
            }
        }
        let count = request
            .max_results
            .unwrap_or(DEFAULT_MAX_RESULTS)
            .clamp(1, MAX_RESULTS);
        let country = match request.country.as_deref().filter(|c| !c.trim().is_empty()) {
            None => self.inner.default_country.clone(),
            Some(raw) => Some(locale::country_code(raw).ok_or_else(|| {
                invalid_argument(
                    format!("country {raw:?} is not an ISO 3166-1 alpha-2 code"),
                    "Give a two-letter country code such as \"de\", \"us\" or \"jp\".",
                )
            })?),
        };
        let language = match request.language.as_deref().filter(|l| !l.trim().is_empty()) {
            None => self.inner.default_language.clone(),
            Some(raw) => Some(locale::language_code(raw).ok_or_else(|| {
                invalid_argument(
                    format!("language {raw:?} is not an ISO 639-1 code"),
                    "Give a two-letter language code such as \"fr\", \"en\" or \"ja\".",
                )
            })?),
        };
        Ok(Normalized {
            query,
            count,
            site,
            include,
            exclude,
            date_range: request.date_range,
            safe_search: request
                .safe_search
                .unwrap_or(self.inner.default_safe_search),
            topic: request.topic,
            depth: if request.wants_content() {
                crate::SearchDepth::Deep
            } else {
                request.depth
            },
            search_type: request.search_type,
            country,
            language,
            provider: provider
                .map(|p| p.trim().to_ascii_lowercase())
                .filter(|p| !p.is_empty()),
        })
    }

    fn chain_for(&self, provider: Option<&str>) -> Result<Vec<&Entry>, SearchError> {
        let chain = &self.inner.chain;
        let Some(name) = provider else {
            if chain.is_empty() {
                return Err(SearchError::new(
                    ErrorKind::NotConfigured,
                    "no search provider is configured",
                )
                .with_suggestion(
                    "Set an API key such as BRAVE_API_KEY or TAVILY_API_KEY, or enable the keyless duckduckgo and wikipedia providers.",
                ));
            }
            if self.inner.default_chain.is_empty() {
                return Err(SearchError::new(
                    ErrorKind::NotConfigured,
                    "no search provider is in the default chain",
                )
                .with_suggestion(format!(
                    "Name a provider; configured: {}.",
                    self.provider_names().join(", ")
                )));
            }
            return Ok(self
                .inner
                .default_chain
                .iter()
                .map(|&i| &chain[i])
                .collect());
        };
        if let Some(entry) = chain.iter().find(|e| e.provider.name() == name) {
            return Ok(vec![entry]);
        }
        let configured = self.provider_names().join(", ");
        if let Some(known) = registry::provider_names().iter().find(|&&n| n == name) {
            let e = if registry::provider_env_vars(known).is_empty() {
                // A keyless provider is missing only because the chain leaves it out.
                SearchError::new(
                    ErrorKind::NotConfigured,
                    format!("{known} is not in the configured provider chain"),
                )
                .with_provider(*known)
                .with_suggestion(format!("Add {known} to [search].providers."))
            } else {
                registry::not_configured(known, "its configuration")
            };
            let suggestion = format!(
                "{} Configured now: {}.",
                e.suggestion().unwrap_or(""),
                if configured.is_empty() {
                    "none"
                } else {
                    &configured
                }
            );
            return Err(e.with_suggestion(suggestion));
        }
        Err(SearchError::new(
            ErrorKind::NotConfigured,
            if name == "bing" {
                "Bing's Web Search API was retired by Microsoft in August 2025; farsight has no bing provider".to_owned()
            } else {
                format!("unknown search provider {name:?}")
            },
        )
        .with_suggestion(format!(
            "Use one of the configured providers: {}.",
            if configured.is_empty() { "none" } else { &configured }
        )))
    }
}

fn invalid(message: String, suggestion: &str) -> SearchError {
    SearchError::new(ErrorKind::InvalidQuery, message).with_suggestion(suggestion)
}

fn invalid_argument(message: String, suggestion: &str) -> SearchError {
    SearchError::new(ErrorKind::InvalidArgument, message).with_suggestion(suggestion)
}

/// The attempt of a provider without an image search, asked for images.
fn no_image_search(name: &'static str) -> SearchError {
    SearchError::new(
        ErrorKind::NotConfigured,
        format!("{name} has no image search"),
    )
    .with_provider(name)
    .with_suggestion(
        "Image search needs brave, serper, searxng, google or tavily; configure one of them or search the web.",
    )
}

fn cache_key(normalized: &Normalized, chain: &[&Entry]) -> Option<String> {
    let mut n = normalized.clone();
    // Search engines ignore case; two spellings of one question share an answer.
    n.query = n.query.to_lowercase();
    n.include.sort();
    n.exclude.sort();
    // The providers asked are part of the question: a cache kept across a
    // change of the default chain must not answer from the old one.
    let asked: Vec<&str> = chain.iter().map(|e| e.provider.name()).collect();
    serde_json::to_string(&(n, asked))
        .ok()
        .map(|json| format!("search:v3:{json}"))
}

/// Asks one provider, waiting for its rate limit and retrying per its policy.
async fn call_with_retries(
    entry: &Entry,
    query: &ProviderQuery,
    timeout: Duration,
) -> Result<ProviderAnswer, SearchError> {
    let name = entry.provider.name();
    let policy = entry.policy;
    let mut rate_limited = 0;
    let mut unavailable = 1;
    let mut timeouts = 0;
    let mut backoff = policy.backoff;
    loop {
        if let Some(limiter) = &entry.limiter {
            limiter.acquire(name).await?;
        }
        // The retry after a timeout gets twice as long, as the design asks.
        let limit = if timeouts == 0 {
            timeout
        } else {
            timeout.saturating_mul(2)
        };
        let outcome = match tokio::time::timeout(limit, entry.provider.search(query)).await {
            Ok(outcome) => outcome,
            Err(_) => Err(SearchError::new(
                ErrorKind::Timeout,
                format!("{name} did not answer within {} ms", limit.as_millis()),
            )
            .with_suggestion("Try again; the provider may be slow right now.")),
        };
        let error = match outcome {
            Ok(answer) => return Ok(answer),
            Err(e) if e.provider().is_none() => e.with_provider(name),
            Err(e) => e,
        };
        let wait = match error.kind() {
            ErrorKind::RateLimited if rate_limited < policy.rate_limited_retries => {
                let wait = Duration::from_millis(error.retry_after_ms().unwrap_or(1000));
                if wait > policy.max_rate_limit_wait {
                    return Err(error);
                }
                rate_limited += 1;
                wait
            }
            ErrorKind::ServiceUnavailable if unavailable < policy.service_unavailable_attempts => {
                unavailable += 1;
                let wait = error
                    .retry_after_ms()
                    .map(Duration::from_millis)
                    .filter(|w| *w <= policy.max_rate_limit_wait)
                    .unwrap_or(backoff);
                backoff = backoff.saturating_mul(2);
                wait
            }
            ErrorKind::Timeout if timeouts < policy.timeout_retries => {
                timeouts += 1;
                Duration::ZERO
            }
            _ => return Err(error),
        };
        tracing::debug!(provider = name, kind = %error.kind(), wait_ms = wait.as_millis() as u64, "retrying search provider");
        tokio::time::sleep(wait).await;
    }
}

fn build_response(
    query: &str,
    provider: &str,
    answer: ProviderAnswer,
    filter: &DomainFilter,
    count: usize,
    attempts: Vec<Attempt>,
    started: Instant,
) -> SearchResponse {
    let mut seen = HashSet::new();
    let mut results = Vec::new();
    for raw in answer.results {
        let Ok(url) = Url::parse(raw.url.trim()) else {
            continue;
        };
        if !matches!(url.scheme(), "http" | "https") || !filter.allows(&url) {
            continue;
        }
        if !seen.insert(dedupe_key(&url)) {
            continue;
        }
        let domain = registrable_domain(&url);
        let title = cut_at_word(&clean_text(&raw.title), TITLE_MAX_CHARS);
        results.push(SearchResult {
            title: if title.is_empty() {
                domain.clone()
            } else {
                title
            },
            url: url.to_string(),
            snippet: cut_snippet(&clean_text(&raw.snippet)),
            domain,
            date_published: raw.date.as_deref().and_then(parse_date),
            score: raw.score.filter(|s| s.is_finite()),
            content: raw
                .content
                .map(|c| c.trim().to_owned())
                .filter(|c| !c.is_empty()),
            content_error: None,
            providers: Vec::new(),
        });
        if results.len() >= count {
            break;
        }
    }
    let images = clean_images(answer.images, filter, count);
    let elapsed = started.elapsed();
    let returned = (results.len() + images.len()) as u64;
    SearchResponse {
        query: query.to_owned(),
        total_results: answer.total_results.unwrap_or(returned).max(returned),
        suggestion: (results.is_empty() && images.is_empty())
            .then(|| NO_RESULTS_SUGGESTION.to_owned()),
        results,
        images,
        search_engine: provider.to_owned(),
        search_time: elapsed.as_secs_f64(),
        response_time_ms: elapsed.as_millis() as u64,
        attempts,
        unapplied_filters: answer
            .unapplied_filters
            .iter()
            .map(|f| (*f).to_owned())
            .collect(),
        content_tokens: None,
    }
}

/// Image results cleaned like web results: http(s) only, the domain filters
/// applied to the page (or to the image without one), duplicates of one image
/// dropped, plain-text titles, at most `count`.
fn clean_images(
    raw: Vec<crate::RawImage>,
    filter: &DomainFilter,
    count: usize,
) -> Vec<ImageResult> {
    let web = |s: &str| {
        Url::parse(s.trim())
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https"))
    };
    let mut seen = HashSet::new();
    let mut images = Vec::new();
    for raw in raw {
        let Some(image) = web(&raw.image_url) else {
            continue;
        };
        let page = raw.page_url.as_deref().and_then(web);
        let origin = page.as_ref().unwrap_or(&image);
        if !filter.allows(origin) || !seen.insert(dedupe_key(&image)) {
            continue;
        }
        images.push(ImageResult {
            title: cut_at_word(&clean_text(&raw.title), TITLE_MAX_CHARS),
            image_url: image.to_string(),
            thumbnail_url: raw.thumbnail_url.as_deref().and_then(web).map(String::from),
            width: raw.width.filter(|w| *w > 0),
            height: raw.height.filter(|h| *h > 0),
            domain: registrable_domain(origin),
            page_url: page.map(String::from),
        });
        if images.len() >= count {
            break;
        }
    }
    images
}
