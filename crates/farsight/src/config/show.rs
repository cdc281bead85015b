//! `farsight config`: the effective configuration as TOML, secrets masked.

use super::{Config, RawCache, RawConfig, RawFetch, RawRender, RawSearch, RawServer};

const MASK: &str = "********";

fn mask(secret: Option<&String>) -> Option<String> {
    secret.map(|_| MASK.to_owned())
}

pub(super) fn to_toml_masked(c: &Config) -> String {
    let providers = c
        .providers
        .iter()
        .map(|(name, s)| {
            let mut s = s.clone();
            s.api_key = mask(s.api_key.as_ref());
            (name.clone(), s)
        })
        .collect();
    let raw = RawConfig {
        fetch: Some(RawFetch {
            enabled: Some(c.fetch.enabled),
            timeout_seconds: Some(c.fetch.timeout.as_secs()),
            connect_timeout_seconds: Some(c.fetch.connect_timeout.as_secs()),
            max_redirects: Some(c.fetch.max_redirects),
            max_bytes: Some(c.fetch.max_bytes),
            max_document_bytes: Some(c.fetch.max_document_bytes),
            max_document_pages: Some(c.fetch.max_document_pages),
            user_agent: Some(c.fetch.user_agent.clone()),
            respect_robots_txt: Some(c.fetch.respect_robots_txt),
            blocked_domains: Some(c.fetch.blocked_domains.clone()),
            allow_private_networks: Some(c.fetch.allow_private_networks),
            allow_hosts: Some(c.fetch.allow_hosts.clone()),
            max_parallel: Some(c.fetch.max_parallel),
            // The proxy's login is a secret: shown as http://***@proxy:3128.
            proxy: c.fetch.proxy.as_deref().map(farsight_net::redact_proxy_url),
            use_env_proxy: Some(c.fetch.use_env_proxy),
            ca_file: c.fetch.ca_file.as_ref().map(|p| p.display().to_string()),
        }),
        cache: Some(RawCache {
            enabled: Some(c.cache.enabled),
            dir: Some(c.cache.dir.display().to_string()),
            page_ttl_seconds: Some(c.cache.page_ttl.as_secs()),
            search_ttl_seconds: Some(c.cache.search_ttl.as_secs()),
            max_disk_bytes: Some(c.cache.max_disk_bytes),
            redis_url: c
                .cache
                .redis_url
                .as_deref()
                .map(farsight_net::redact_redis_url),
        }),
        server: Some(RawServer {
            addr: Some(c.server.addr.to_string()),
            token: mask(c.server.token.as_ref()),
            allowed_origins: Some(c.server.allowed_origins.clone()),
            allowed_hosts: Some(c.server.allowed_hosts.clone()),
            max_in_flight: Some(c.server.max_in_flight),
            shutdown_grace_seconds: Some(c.server.shutdown_grace.as_secs()),
            max_connections: Some(c.server.max_connections),
            header_read_timeout_seconds: Some(c.server.header_read_timeout.as_secs()),
            idle_timeout_seconds: Some(c.server.idle_timeout.as_secs()),
            calls_per_minute: c.server.calls_per_minute,
            metrics: c.server.metrics,
            log_format: Some(c.server.log_format),
            oauth: c.server.oauth.as_ref().map(super::OAuthConfig::to_raw),
        }),
        search: Some(RawSearch {
            enabled: Some(c.search.enabled),
            provider: c.search.provider.clone(),
            fallbacks: c.search.fallbacks.clone(),
            max_results: Some(c.search.max_results),
            safe_search: Some(c.search.safe_search),
            country: c.search.country.clone(),
            language: c.search.language.clone(),
            timeout_seconds: Some(c.search.timeout.as_secs()),
            deep_concurrency: Some(c.search.deep_concurrency),
            deep_timeout_seconds: Some(c.search.deep_timeout.as_secs()),
            max_content_tokens: Some(c.search.max_content_tokens),
        }),
        render: Some(RawRender {
            enabled: Some(c.render.enabled),
            mode: Some(c.render.mode),
            browser_path: c
                .render
                .browser_path
                .as_ref()
                .map(|p| p.display().to_string()),
            max_tabs: Some(c.render.max_tabs),
            timeout_seconds: Some(c.render.timeout.as_secs()),
        }),
        providers: Some(providers),
    };
    // Serialising plain strings, numbers and tables cannot fail; should it
    // ever, say so rather than print half a file.
    toml::to_string(&raw).unwrap_or_else(|e| format!("# cannot render the configuration: {e}\n"))
}

#[cfg(test)]
mod tests {
    use super::super::RawConfig;
    use super::*;

    #[test]
    fn secrets_are_masked_and_the_output_reads_back() {
        let raw = RawConfig::from_toml(
            "[fetch]\nproxy = \"http://alice:px-secret@proxy.corp:3128\"\n[cache]\nredis_url = \"redis://:redis-secret@cache.corp:6379/0\"\n[server]\ntoken = \"tok-secret\"\n[providers.brave]\napi_key = \"sk-secret\"\n",
        )
        .unwrap();
        let c = Config::resolve(raw).unwrap();
        let shown = c.to_toml_masked();
        assert!(
            !shown.contains("tok-secret")
                && !shown.contains("sk-secret")
                && !shown.contains("px-secret")
                && !shown.contains("redis-secret")
                && !shown.contains("alice"),
            "{shown}"
        );
        assert!(shown.contains(MASK), "{shown}");
        assert!(
            shown.contains("proxy = \"http://***@proxy.corp:3128\""),
            "{shown}"
        );
        assert!(
            shown.contains("redis_url = \"redis://:***@cache.corp:6379/0\""),
            "{shown}"
        );
        assert!(shown.contains("timeout_seconds = 30"), "{shown}");
        assert!(
            shown.contains(
                "[render]\nenabled = true\nmode = \"auto\"\nmax_tabs = 2\ntimeout_seconds = 30\n"
            ),
            "{shown}"
        );
        RawConfig::from_toml(&shown).unwrap();
    }
}
