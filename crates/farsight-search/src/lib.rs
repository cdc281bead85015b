//! The search half of farsight: one request model, one result model, one error
//! model, and an adapter per search provider that speaks its real wire format.
//!
//! The [`Provider`] trait is what every adapter implements; the engine around it
//! (normalisation, deduplication, domain filters, retries, rate limits, the
//! fallback chain and the cache) lives beside it in this crate.
#![deny(missing_docs)]

mod cache;
mod error;
mod model;
mod normalize;
mod provider;
mod rate_limit;
mod registry;
mod request;
mod response;
mod retry;
mod service;
pub mod testing;

pub use error::{SearchError, SearchErrorKind};
pub use model::{
    DateRange, ProviderAnswer, ProviderQuery, ProviderSettings, RawResult, SearchDepth, Topic,
};
pub use cache::SearchCache;
pub use provider::Provider;
pub use provider::brave::BraveProvider;
pub use provider::google::GoogleProvider;
pub use provider::searxng::SearxngProvider;
pub use provider::serper::SerperProvider;
pub use provider::tavily::TavilyProvider;
pub use rate_limit::RateLimit;
pub use request::{
    DEFAULT_MAX_RESULTS, MAX_QUERY_CHARS, MAX_RESULTS, MIN_QUERY_CHARS, SearchRequest,
};
pub use response::{Attempt, NO_RESULTS_SUGGESTION, SearchResponse, SearchResult};
pub use retry::RetryPolicy;
pub use service::{SearchService, SearchServiceBuilder};
pub use registry::{build_provider, provider_env_vars, provider_names};

// Long-lived handles are shared across tasks.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<SearchService>();
    assert_send_sync::<SearchError>();
};
