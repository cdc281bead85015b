//! The only farsight code that opens sockets: a guarded HTTP client for web
//! pages (SSRF guard, redirects, byte caps, timeouts, charsets), robots.txt,
//! and the page/answer cache.
#![deny(missing_docs)]

mod api_client;
mod tls;

pub use api_client::api_client;
