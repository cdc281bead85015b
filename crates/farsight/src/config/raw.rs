//! The first stage of configuration: what the user wrote, in the file, the
//! environment or on the command line. Every field is optional; this stage only
//! checks that what was written is well formed.

// The fields are the file's keys, one for one; each is documented once, on
// the resolved `Config` field it sets and in the README's reference.
#![allow(missing_docs)]

use std::collections::BTreeMap;

use anyhow::{Context, bail};
use farsight_search::ProviderSettings;
use serde::{Deserialize, Serialize};

use super::server_ops::{LogFormat, RawOAuth};
use crate::service::RenderMode;

/// The configuration file's shape. Unknown keys are refused by name, so a typo
/// (`timout_seconds`) never silently falls back to a default.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fetch: Option<RawFetch>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache: Option<RawCache>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<RawServer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<RawSearch>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render: Option<RawRender>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub providers: Option<BTreeMap<String, ProviderSettings>>,
}

/// `[fetch]`
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFetch {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connect_timeout_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_redirects: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_document_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_document_pages: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_agent: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub respect_robots_txt: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_domains: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_private_networks: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_hosts: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_parallel: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proxy: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub use_env_proxy: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ca_file: Option<String>,
}

/// `[cache]`
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCache {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_ttl_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_ttl_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_disk_bytes: Option<u64>,
    /// Redis shared by several instances (`REDIS_URL`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redis_url: Option<String>,
}

/// `[server]`: the MCP server over Streamable HTTP.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawServer {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub addr: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_origins: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_hosts: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_in_flight: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shutdown_grace_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_connections: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header_read_timeout_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idle_timeout_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calls_per_minute: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metrics: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_format: Option<LogFormat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oauth: Option<RawOAuth>,
}

/// `[search]`: read here, used by the search service.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSearch {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallbacks: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_results: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub safe_search: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deep_concurrency: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deep_timeout_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_content_tokens: Option<usize>,
}

/// `[render]`: pages built by JavaScript.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRender {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<RenderMode>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tabs: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<u64>,
}

/// Takes `over` where it is set, `base` elsewhere.
fn pick<T>(base: Option<T>, over: Option<T>) -> Option<T> {
    over.or(base)
}

macro_rules! overlay_fields {
    ($base:expr, $over:expr, $ty:ident { $($field:ident),* $(,)? }) => {
        match ($base, $over) {
            (None, o) => o,
            (b, None) => b,
            (Some(b), Some(o)) => Some($ty { $($field: pick(b.$field, o.$field)),* }),
        }
    };
}

impl RawConfig {
    /// Parses a configuration file's text; the error names the offending key
    /// and line.
    pub fn from_toml(text: &str) -> anyhow::Result<Self> {
        toml::from_str(text).map_err(|e| anyhow::anyhow!("{}", e.to_string().trim_end()))
    }

    /// This layer with `over` laid on top: every value set in `over` wins.
    #[must_use]
    pub fn overlay(self, over: RawConfig) -> RawConfig {
        RawConfig {
            fetch: overlay_fields!(
                self.fetch,
                over.fetch,
                RawFetch {
                    enabled,
                    timeout_seconds,
                    connect_timeout_seconds,
                    max_redirects,
                    max_bytes,
                    max_document_bytes,
                    max_document_pages,
                    user_agent,
                    respect_robots_txt,
                    blocked_domains,
                    allow_private_networks,
                    allow_hosts,
                    max_parallel,
                    proxy,
                    use_env_proxy,
                    ca_file,
                }
            ),
            cache: overlay_fields!(
                self.cache,
                over.cache,
                RawCache {
                    enabled,
                    dir,
                    page_ttl_seconds,
                    search_ttl_seconds,
                    max_disk_bytes,
                    redis_url,
                }
            ),
            server: overlay_fields!(
                self.server,
                over.server,
                RawServer {
                    addr,
                    token,
                    allowed_origins,
                    allowed_hosts,
                    max_in_flight,
                    shutdown_grace_seconds,
                    max_connections,
                    header_read_timeout_seconds,
                    idle_timeout_seconds,
                    calls_per_minute,
                    metrics,
                    log_format,
                    // The whole table: an issuer from one layer and a
                    // resource from another would be no one's deployment.
                    oauth,
                }
            ),
            search: overlay_fields!(
                self.search,
                over.search,
                RawSearch {
                    enabled,
                    provider,
                    fallbacks,
                    max_results,
                    safe_search,
                    country,
                    language,
                    timeout_seconds,
                    deep_concurrency,
                    deep_timeout_seconds,
                    max_content_tokens,
                }
            ),
            render: overlay_fields!(
                self.render,
                over.render,
                RawRender {
                    enabled,
                    mode,
                    browser_path,
                    max_tabs,
                    timeout_seconds,
                }
            ),
            providers: match (self.providers, over.providers) {
                (None, o) => o,
                (b, None) => b,
                (Some(mut b), Some(o)) => {
                    for (name, s) in o {
                        let merged = match b.remove(&name) {
                            Some(old) => ProviderSettings {
                                api_key: s.api_key.or(old.api_key),
                                base_url: s.base_url.or(old.base_url),
                                engine_id: s.engine_id.or(old.engine_id),
                                requests_per_second: s
                                    .requests_per_second
                                    .or(old.requests_per_second),
                                burst: s.burst.or(old.burst),
                                safe_search: s.safe_search.or(old.safe_search),
                            },
                            None => s,
                        };
                        b.insert(name, merged);
                    }
                    Some(b)
                }
            },
        }
    }

    /// The layer that the environment describes. `get` looks a variable up
    /// (the real environment, or a map in tests); empty values count as unset.
    pub fn from_env(get: &dyn Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let var = |name: &str| get(name).filter(|v| !v.trim().is_empty());
        let fetch = RawFetch {
            enabled: parse_bool(&var, "WEB_FETCH_ENABLED")?,
            timeout_seconds: parse_num(&var, "FARSIGHT_FETCH_TIMEOUT_SECONDS")?,
            connect_timeout_seconds: parse_num(&var, "FARSIGHT_CONNECT_TIMEOUT_SECONDS")?,
            max_redirects: parse_num(&var, "FARSIGHT_MAX_REDIRECTS")?,
            max_bytes: parse_num(&var, "FARSIGHT_MAX_BYTES")?,
            max_document_bytes: parse_num(&var, "FARSIGHT_MAX_DOCUMENT_BYTES")?,
            max_document_pages: parse_num(&var, "FARSIGHT_MAX_DOCUMENT_PAGES")?,
            user_agent: var("FARSIGHT_USER_AGENT"),
            respect_robots_txt: parse_bool(&var, "FARSIGHT_RESPECT_ROBOTS_TXT")?,
            blocked_domains: var("FARSIGHT_BLOCKED_DOMAINS").map(|v| split_list(&v)),
            allow_private_networks: parse_bool(&var, "FARSIGHT_ALLOW_PRIVATE_NETWORKS")?,
            allow_hosts: var("FARSIGHT_ALLOW_HOSTS").map(|v| split_list(&v)),
            max_parallel: parse_num(&var, "FARSIGHT_FETCH_MAX_PARALLEL")?,
            proxy: var("FARSIGHT_PROXY"),
            use_env_proxy: parse_bool(&var, "FARSIGHT_USE_ENV_PROXY")?,
            // Not SSL_CERT_FILE: that one only stands in when no layer sets
            // ca_file (see `Config::capture_environment`).
            ca_file: var("FARSIGHT_CA_FILE"),
        };
        let cache = RawCache {
            enabled: parse_bool(&var, "FARSIGHT_CACHE_ENABLED")?,
            dir: var("FARSIGHT_CACHE_DIR"),
            page_ttl_seconds: parse_num(&var, "FARSIGHT_PAGE_TTL_SECONDS")?,
            search_ttl_seconds: parse_num(&var, "FARSIGHT_SEARCH_TTL_SECONDS")?,
            max_disk_bytes: parse_num(&var, "FARSIGHT_CACHE_MAX_DISK_BYTES")?,
            // The name every Redis client and platform uses.
            redis_url: var("REDIS_URL"),
        };
        let server = RawServer {
            addr: var("FARSIGHT_HTTP_ADDR"),
            token: var("FARSIGHT_HTTP_TOKEN"),
            allowed_origins: var("FARSIGHT_HTTP_ALLOWED_ORIGINS").map(|v| split_list(&v)),
            allowed_hosts: var("FARSIGHT_HTTP_ALLOWED_HOSTS").map(|v| split_list(&v)),
            max_in_flight: parse_num(&var, "FARSIGHT_HTTP_MAX_IN_FLIGHT")?,
            shutdown_grace_seconds: None,
            max_connections: None,
            header_read_timeout_seconds: None,
            idle_timeout_seconds: None,
            calls_per_minute: parse_num(&var, "FARSIGHT_HTTP_CALLS_PER_MINUTE")?,
            metrics: parse_bool(&var, "FARSIGHT_METRICS")?,
            log_format: var("FARSIGHT_LOG_FORMAT")
                .map(|v| parse_log_format(&v))
                .transpose()?,
            oauth: None,
        };
        let search = RawSearch {
            enabled: parse_bool(&var, "WEB_SEARCH_ENABLED")?,
            provider: var("FARSIGHT_SEARCH_PROVIDER"),
            deep_concurrency: parse_num(&var, "FARSIGHT_DEEP_CONCURRENCY")?,
            deep_timeout_seconds: parse_num(&var, "FARSIGHT_DEEP_TIMEOUT_SECONDS")?,
            max_content_tokens: parse_num(&var, "FARSIGHT_MAX_CONTENT_TOKENS")?,
            ..RawSearch::default()
        };
        let render = RawRender {
            enabled: parse_bool(&var, "FARSIGHT_RENDER_ENABLED")?,
            mode: var("FARSIGHT_RENDER")
                .map(|v| parse_render_mode(&v))
                .transpose()?,
            browser_path: var("FARSIGHT_BROWSER_PATH"),
            ..RawRender::default()
        };
        let mut providers = BTreeMap::new();
        for &name in farsight_search::provider_names() {
            let mut settings = ProviderSettings::default();
            for &env in farsight_search::provider_env_vars(name) {
                let Some(value) = var(env) else { continue };
                super::ProviderField::of_var(env).set(&mut settings, value);
            }
            if settings != ProviderSettings::default() {
                providers.insert(name.to_owned(), settings);
            }
        }
        Ok(RawConfig {
            fetch: (fetch != RawFetch::default()).then_some(fetch),
            cache: (cache != RawCache::default()).then_some(cache),
            server: (server != RawServer::default()).then_some(server),
            search: (search != RawSearch::default()).then_some(search),
            render: (render != RawRender::default()).then_some(render),
            providers: (!providers.is_empty()).then_some(providers),
        })
    }
}

fn parse_bool(var: &dyn Fn(&str) -> Option<String>, name: &str) -> anyhow::Result<Option<bool>> {
    let Some(v) = var(name) else { return Ok(None) };
    match v.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(Some(true)),
        "0" | "false" | "no" | "off" => Ok(Some(false)),
        _ => bail!("environment variable {name}={v:?} is not a boolean (use true or false)"),
    }
}

fn parse_render_mode(v: &str) -> anyhow::Result<RenderMode> {
    match v.trim().to_ascii_lowercase().as_str() {
        "auto" => Ok(RenderMode::Auto),
        "never" => Ok(RenderMode::Never),
        "always" => Ok(RenderMode::Always),
        _ => bail!("environment variable FARSIGHT_RENDER={v:?} is not auto, never or always"),
    }
}

fn parse_log_format(v: &str) -> anyhow::Result<LogFormat> {
    match v.trim().to_ascii_lowercase().as_str() {
        "text" => Ok(LogFormat::Text),
        "json" => Ok(LogFormat::Json),
        _ => bail!("environment variable FARSIGHT_LOG_FORMAT={v:?} is not text or json"),
    }
}

fn parse_num<T: std::str::FromStr>(
    var: &dyn Fn(&str) -> Option<String>,
    name: &str,
) -> anyhow::Result<Option<T>>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    var(name)
        .map(|v| {
            v.trim()
                .parse::<T>()
                .with_context(|| format!("environment variable {name}={v:?} is not a valid number"))
        })
        .transpose()
}

fn split_list(v: &str) -> Vec<String> {
    v.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn unknown_keys_are_named() {
        let err = RawConfig::from_toml("[fetch]\ntimout_seconds = 3\n").unwrap_err();
        assert!(err.to_string().contains("timout_seconds"), "{err}");
        let err = RawConfig::from_toml("[fetsh]\n").unwrap_err();
        assert!(err.to_string().contains("fetsh"), "{err}");
    }

    #[test]
    fn later_layers_win_field_by_field() {
        let file =
            RawConfig::from_toml("[fetch]\ntimeout_seconds = 3\nmax_redirects = 2\n").unwrap();
        let env = RawConfig::from_env(&env(&[("FARSIGHT_FETCH_TIMEOUT_SECONDS", "7")])).unwrap();
        let merged = file.overlay(env);
        let fetch = merged.fetch.unwrap();
        assert_eq!(fetch.timeout_seconds, Some(7));
        assert_eq!(fetch.max_redirects, Some(2));
    }

    #[test]
    fn environment_values_are_checked_and_named() {
        let err = RawConfig::from_env(&env(&[("FARSIGHT_MAX_BYTES", "lots")])).unwrap_err();
        assert!(format!("{err:#}").contains("FARSIGHT_MAX_BYTES"), "{err:#}");
        let err = RawConfig::from_env(&env(&[("WEB_FETCH_ENABLED", "maybe")])).unwrap_err();
        assert!(err.to_string().contains("WEB_FETCH_ENABLED"), "{err}");
        let raw = RawConfig::from_env(&env(&[("WEB_FETCH_ENABLED", "false")])).unwrap();
        assert_eq!(raw.fetch.unwrap().enabled, Some(false));
    }

    #[test]
    fn provider_keys_come_from_the_environment() {
        let raw = RawConfig::from_env(&env(&[
            ("GOOGLE_SEARCH_API_KEY", "k"),
            ("GOOGLE_SEARCH_ENGINE_ID", "cx"),
            ("SEARXNG_URL", "http://10.0.0.2:8080"),
        ]))
        .unwrap();
        let p = raw.providers.unwrap();
        assert_eq!(p["google"].api_key.as_deref(), Some("k"));
        assert_eq!(p["google"].engine_id.as_deref(), Some("cx"));
        assert_eq!(
            p["searxng"].base_url.as_deref(),
            Some("http://10.0.0.2:8080")
        );
    }
}
