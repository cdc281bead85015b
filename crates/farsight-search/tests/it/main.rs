//! The integration tests of farsight-search: each provider against a local
//! mock server replaying its documented wire format.

mod duckduckgo;
mod exa;
mod jina;
mod kagi;
mod wikipedia;
