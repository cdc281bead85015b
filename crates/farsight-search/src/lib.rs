//! The search half of farsight: one request model, one result model, one error
//! model, and an adapter per search provider that speaks its real wire format.
//!
//! The [`Provider`] trait is what every adapter implements; the engine around it
//! (normalisation, deduplication, domain filters, retries, rate limits, the
//! fallback chain and the cache) lives beside it in this crate.
#![deny(missing_docs)]

mod error;
mod model;
mod provider;
mod registry;

pub use error::{SearchError, SearchErrorKind};
pub use model::{
    DateRange, ProviderAnswer, ProviderQuery, ProviderSettings, RawResult, SearchDepth, Topic,
};
pub use provider::Provider;
pub use registry::{build_provider, provider_env_vars, provider_names};
