//! The crate's one integration test binary: the engine against the mock
//! provider, and each adapter against a local server replaying its wire format.

mod support;

mod brave;
mod chain;
mod engine;
mod google;
mod live;
mod searxng;
mod serper;
mod tavily;

mod duckduckgo;
mod exa;
mod jina;
mod kagi;
mod wikipedia;
