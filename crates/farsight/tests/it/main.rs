//! Integration tests of the farsight product: the service against local page
//! servers, the command line, and the MCP server driven by a real MCP client.
//! Nothing here reaches the internet.

mod cache_policy;
mod cache_processes;
mod cli;
mod documents;
mod fetch;
mod fetch_many;
mod first_run;
#[cfg(unix)]
mod http_abuse;
mod instances;
mod markdown_source;
mod mcp_http;
mod mcp_schemas;
mod mcp_stdio;
mod oauth;
mod operations;
mod proxy;
mod render;
mod search;
mod search_support;
mod search_surfaces;
mod shared_state;
mod support;
mod text_kinds;
