//! farsight: the web for AI agents. `web_fetch` downloads a page (or, with
//! `urls`, up to ten in parallel) safely and returns its readable content; `web_search` asks search providers (and, deep,
//! reads the top results for the passages that answer the query).
//!
//! One [`Service`] serves every surface: the MCP server ([`mcp`], stdio and
//! Streamable HTTP), the command line ([`cli`]) and Rust callers.
//!
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! use farsight::{CallOptions, Config, FetchRequest, Service};
//!
//! let service = Service::new(Config::default())?;
//! let answer = service.web_fetch(&FetchRequest::new("https://example.com"), CallOptions::default()).await;
//! println!("{}", answer.content.unwrap_or_default());
//! # Ok(()) }
//! ```
#![deny(missing_docs)]

pub mod cli;
pub mod config;
pub mod context;
mod local_input;
mod logging;
pub mod mcp;
pub mod render;
mod service;

pub use cli::{Cli, UsageError, run};
pub use config::Config;
/// The search model is the engine's own: `web_search` takes a
/// [`SearchRequest`] and answers a [`SearchResponse`] or a [`SearchError`];
/// every `errorKind` of both tools is an [`ErrorKind`].
pub use farsight_search::{
    Attempt, DateRange, ErrorKind, ProviderChoice, SearchDepth, SearchError, SearchRequest,
    SearchResponse, SearchResult, Topic,
};
pub use service::{
    CallOptions, DEFAULT_MAX_CONTENT_TOKENS, FetchFormat, FetchLink, FetchManyResponse,
    FetchMetadata, FetchRequest, FetchResponse, FetchSource, FetchStatus, MAX_TOTAL_LENGTH,
    MAX_URLS, RenderMode, Service, extract_document,
};
