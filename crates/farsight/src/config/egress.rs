//! How farsight's traffic leaves the machine, as the configuration says:
//! the user's upstream proxy and the trusted CAs. The settings are read here;
//! what they mean is `farsight_net`'s ([`UpstreamProxy`], [`TlsTrust`]).

use std::collections::BTreeMap;
use std::path::PathBuf;

use farsight_net::{PROXY_ENV_VARS, TlsTrust, UpstreamProxy};

use super::{Config, FetchConfig};

impl Config {
    /// Keeps what the environment says about proxies and CAs that is not a
    /// layer of the configuration: the standard proxy variables (used only
    /// with `[fetch].use_env_proxy = true`) and `SSL_CERT_FILE` (used only
    /// when `[fetch].ca_file` is unset). `get` looks a variable up.
    pub fn capture_environment(&mut self, get: &dyn Fn(&str) -> Option<String>) {
        self.fetch.proxy_env = PROXY_ENV_VARS
            .iter()
            .filter_map(|&name| {
                get(name)
                    .filter(|v| !v.trim().is_empty())
                    .map(|v| (name.to_owned(), v))
            })
            .collect::<BTreeMap<_, _>>();
        self.fetch.ssl_cert_file = get("SSL_CERT_FILE")
            .filter(|v| !v.trim().is_empty())
            .map(PathBuf::from);
    }
}

impl FetchConfig {
    /// The upstream proxy these settings describe, if any.
    ///
    /// # Errors
    ///
    /// A proxy URL or `NO_PROXY` entry that cannot be used, named by its
    /// setting or variable (credentials masked).
    pub fn upstream_proxy(&self) -> anyhow::Result<Option<UpstreamProxy>> {
        let env = self.use_env_proxy.then_some(&self.proxy_env);
        UpstreamProxy::from_settings(self.proxy.as_deref(), env).map_err(config_error)
    }

    /// The CAs to trust: the built-in roots, the system store, and
    /// `ca_file` (or `SSL_CERT_FILE`).
    ///
    /// # Errors
    ///
    /// The CA file is missing, unreadable or holds no certificate; the
    /// message names the file and the setting it came from.
    pub fn tls_trust(&self) -> anyhow::Result<TlsTrust> {
        let (file, setting) = match (&self.ca_file, &self.ssl_cert_file) {
            (Some(f), _) => (Some(f), "fetch.ca_file"),
            (None, Some(f)) => (Some(f), "SSL_CERT_FILE"),
            (None, None) => (None, ""),
        };
        TlsTrust::load(file.map(PathBuf::as_path))
            .map_err(|e| anyhow::anyhow!("{setting}: {}", config_error(e)))
    }
}

/// A `farsight_net` configuration error as a message with its advice.
pub(super) fn config_error(e: farsight_net::Error) -> anyhow::Error {
    match e.suggestion() {
        Some(s) => anyhow::anyhow!("{} ({s})", e.message()),
        None => anyhow::anyhow!("{}", e.message()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::RawConfig;
    use super::*;

    fn config(toml: &str, env: &[(&str, &str)]) -> anyhow::Result<Config> {
        let mut c = Config::resolve(RawConfig::from_toml(toml)?)?;
        let env: BTreeMap<String, String> = env
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        c.capture_environment(&|k| env.get(k).cloned());
        Ok(c)
    }

    #[test]
    fn the_environment_proxy_needs_the_opt_in() {
        let env = [("HTTPS_PROXY", "http://envproxy:3128")];
        let off = config("", &env).unwrap();
        assert!(off.fetch.upstream_proxy().unwrap().is_none());
        let on = config("[fetch]\nuse_env_proxy = true\n", &env).unwrap();
        let proxy = on.fetch.upstream_proxy().unwrap().unwrap();
        let target = url::Url::parse("https://example.com/").unwrap();
        assert_eq!(proxy.for_url(&target).unwrap().host_str(), Some("envproxy"));
        let explicit = config(
            "[fetch]\nuse_env_proxy = true\nproxy = \"http://mine:8080\"\n",
            &env,
        )
        .unwrap();
        let proxy = explicit.fetch.upstream_proxy().unwrap().unwrap();
        assert_eq!(proxy.for_url(&target).unwrap().host_str(), Some("mine"));
    }

    #[test]
    fn bad_settings_are_named_without_credentials() {
        let err = config("[fetch]\nproxy = \"gopher://u:hunter2@p:70\"\n", &[]).unwrap_err();
        let shown = format!("{err:#}");
        assert!(
            shown.contains("fetch.proxy") && !shown.contains("hunter2"),
            "{shown}"
        );
        let c = config(
            "[fetch]\nuse_env_proxy = true\n",
            &[("https_proxy", "http://u:hunter2@p:3128/path")],
        )
        .unwrap();
        let shown = format!("{:#}", c.fetch.upstream_proxy().unwrap_err());
        assert!(
            shown.contains("https_proxy") && !shown.contains("hunter2"),
            "{shown}"
        );
    }

    #[test]
    fn ca_file_wins_over_ssl_cert_file_and_a_bad_one_is_named() {
        let err = config(
            "[fetch]\nca_file = \"/nonexistent/corp.pem\"\n",
            &[("SSL_CERT_FILE", "/nonexistent/env.pem")],
        )
        .unwrap()
        .fetch
        .tls_trust()
        .unwrap_err();
        let shown = format!("{err:#}");
        assert!(
            shown.contains("fetch.ca_file") && shown.contains("/nonexistent/corp.pem"),
            "{shown}"
        );
        let err = config("", &[("SSL_CERT_FILE", "/nonexistent/env.pem")])
            .unwrap()
            .fetch
            .tls_trust()
            .unwrap_err();
        let shown = format!("{err:#}");
        assert!(
            shown.contains("SSL_CERT_FILE") && shown.contains("/nonexistent/env.pem"),
            "{shown}"
        );
        assert!(config("", &[]).unwrap().fetch.tls_trust().is_ok());
    }
}
