//! The adapter trait; one file per provider lives under `provider/`.

use crate::{ProviderAnswer, ProviderQuery, RetryPolicy, SearchError};

/// A search provider adapter: maps a [`ProviderQuery`] to the provider's wire
/// format, sends it, and maps the answer (or the error) back.
///
/// Adapters do not retry, rate-limit, cache or normalise; the engine does that
/// the same way for all of them.
#[async_trait::async_trait]
pub trait Provider: Send + Sync + std::fmt::Debug {
    /// The provider's name as used in configuration and output (`brave`, ...).
    fn name(&self) -> &'static str;

    /// The most results one request can return.
    fn max_results(&self) -> u32;

    /// Runs one query.
    ///
    /// # Errors
    ///
    /// A [`SearchError`] whose kind says what went wrong and whether to retry.
    async fn search(&self, query: &ProviderQuery) -> Result<ProviderAnswer, SearchError>;

    /// Whether the provider has an image search (`searchType: "images"`); the
    /// engine skips the others in the chain and says so in `attempts`.
    fn supports_images(&self) -> bool {
        false
    }

    /// How the engine retries this provider's failures (the design's rules
    /// unless the provider documents others, as Google does).
    fn retry_policy(&self) -> RetryPolicy {
        RetryPolicy::default()
    }
}

pub(crate) mod brave;
pub(crate) mod duckduckgo;
pub(crate) mod exa;
pub(crate) mod google;
pub(crate) mod http;
pub(crate) mod jina;
pub(crate) mod kagi;
pub(crate) mod operators;
pub(crate) mod searxng;
pub(crate) mod serper;
pub(crate) mod tavily;
pub(crate) mod wikipedia;
