//! The search half of farsight: one request model, one result model, one error
//! model, and an adapter per search provider that speaks its real wire format.
//!
//! A [`SearchService`] holds a chain of [`Provider`]s and answers a
//! [`SearchRequest`] with a [`SearchResponse`]: it validates the request, asks
//! the providers in order (waiting for each one's [`RateLimit`], retrying per its
//! [`RetryPolicy`], moving on when one gives up), then cleans the results (plain
//! text, snippets of at most ~200 characters, registrable domains, `YYYY-MM-DD`
//! dates, duplicates removed, domain filters applied again) and caches the
//! answer in a [`SearchCache`]. Failures are [`SearchError`]s with a
//! [`ErrorKind`] an agent can act on.
//!
//! Adapters are built by name with [`build_provider`]; [`provider_names`] lists
//! them in the default fallback order and [`provider_env_vars`] says what each
//! one needs. Bing's Web Search API was retired in August 2025 and has no
//! adapter. Google's Custom Search JSON API is closed to new customers and ends
//! on 2027-01-01.
//!
//! [`testing::MockProvider`] stands in for a provider in tests.
//!
//! ```
//! use std::sync::Arc;
//! use farsight_search::testing::{MockProvider, raw_result};
//! use farsight_search::{ErrorKind, SearchRequest, SearchService};
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let primary = Arc::new(MockProvider::new("primary").fail_with("rust async", ErrorKind::QuotaExceeded));
//! let fallback = Arc::new(MockProvider::new("fallback").respond(
//!     "rust async",
//!     vec![raw_result("<b>Tokio</b>", "https://tokio.rs/?utm_source=x", "An async runtime")],
//! ));
//! let service = SearchService::builder().provider(primary).provider(fallback).build()?;
//! let answer = service.search(SearchRequest::new("rust async")).await?;
//! assert_eq!(answer.search_engine, "fallback");
//! assert_eq!(answer.attempts[0].error_kind, ErrorKind::QuotaExceeded);
//! assert_eq!(answer.results[0].title, "Tokio");
//! assert_eq!(answer.results[0].domain, "tokio.rs");
//! # Ok::<(), farsight_search::SearchError>(())
//! # }).unwrap();
//! ```
#![deny(missing_docs)]

mod cache;
mod error;
mod fusion;
mod kind;
pub mod lenient;
mod locale;
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

pub use cache::SearchCache;
pub use error::SearchError;
pub use kind::ErrorKind;
pub use model::{
    DateRange, ProviderAnswer, ProviderQuery, ProviderSettings, RawImage, RawResult, SearchDepth,
    SearchType, Topic,
};
pub use provider::Provider;
pub use provider::brave::BraveProvider;
pub use provider::duckduckgo::DuckDuckGoProvider;
pub use provider::exa::ExaProvider;
pub use provider::google::GoogleProvider;
pub use provider::jina::JinaProvider;
pub use provider::kagi::KagiProvider;
pub use provider::searxng::SearxngProvider;
pub use provider::serper::SerperProvider;
pub use provider::tavily::TavilyProvider;
pub use provider::wikipedia::WikipediaProvider;
pub use rate_limit::RateLimit;
pub use registry::{build_provider, provider_env_vars, provider_names};
pub use request::{
    DEFAULT_MAX_RESULTS, MAX_QUERY_CHARS, MAX_RESULTS, MIN_QUERY_CHARS, ProviderChoice,
    SearchRequest,
};
pub use response::{Attempt, ImageResult, NO_RESULTS_SUGGESTION, SearchResponse, SearchResult};
pub use retry::RetryPolicy;
pub use service::{SearchService, SearchServiceBuilder};

// Long-lived handles are shared across tasks.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<SearchService>();
    assert_send_sync::<SearchError>();
};
