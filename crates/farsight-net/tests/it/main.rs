//! Integration tests: every test runs its own server on 127.0.0.1 and reaches
//! it only through `allow_hosts`; nothing here touches the internet.

mod api_client;
mod bot_wall;
mod browser_proxy;
mod browser_upstream;
mod cache;
mod cache_policy;
mod charset;
mod content_type;
mod deflate;
mod errors;
mod forward_proxy;
mod guard;
mod proxy;
mod redirects;
mod redis_shared;
mod robots;
mod size;
mod socks_proxy;
mod support;
mod timeouts;
mod tls;
mod tls_server;
