//! Which providers exist, which settings each needs, and how to build one by name.
//!
//! Each provider is one arm of [`build_provider`]; adding a provider means adding
//! its `mod` line in `provider.rs`, its name in [`provider_names`], its variables
//! in [`provider_env_vars`] and its arm here.

use std::sync::Arc;

use crate::provider::{self, Provider};
use crate::{ErrorKind, ProviderSettings, SearchError};

/// Every provider farsight knows, in the default fallback order: the keyed
/// providers first (the better results when a key is there), then the keyless
/// `duckduckgo` and `wikipedia`, so search works with no key at all.
pub fn provider_names() -> &'static [&'static str] {
    &[
        "brave",
        "tavily",
        "google",
        "serper",
        "exa",
        "kagi",
        "jina",
        "searxng",
        "duckduckgo",
        "wikipedia",
    ]
}

/// The environment variables that configure `name` (all of them are required);
/// empty for keyless providers and unknown names.
pub fn provider_env_vars(name: &str) -> &'static [&'static str] {
    match name {
        "brave" => &["BRAVE_API_KEY"],
        "tavily" => &["TAVILY_API_KEY"],
        "google" => &["GOOGLE_SEARCH_API_KEY", "GOOGLE_SEARCH_ENGINE_ID"],
        "serper" => &["SERPER_API_KEY"],
        "searxng" => &["SEARXNG_URL"],
        "exa" => &["EXA_API_KEY"],
        "kagi" => &["KAGI_API_KEY"],
        "jina" => &["JINA_API_KEY"],
        _ => &[],
    }
}

/// Builds the adapter called `name` from its settings, sending through `client`
/// (from `farsight_net::api_client`).
///
/// # Errors
///
/// `notConfigured` when a required key, engine id or URL is missing (the
/// message names the variables to set) or the name is unknown (the message lists
/// the known ones; `bing` says its API was retired).
pub fn build_provider(
    name: &str,
    settings: &ProviderSettings,
    client: reqwest::Client,
) -> Result<Arc<dyn Provider>, SearchError> {
    let name = name.trim().to_ascii_lowercase();
    match name.as_str() {
        "brave" => Ok(Arc::new(provider::brave::BraveProvider::new(settings, client)?)),
        "tavily" => Ok(Arc::new(provider::tavily::TavilyProvider::new(settings, client)?)),
        "google" => Ok(Arc::new(provider::google::GoogleProvider::new(settings, client)?)),
        "serper" => Ok(Arc::new(provider::serper::SerperProvider::new(settings, client)?)),
        "searxng" => Ok(Arc::new(provider::searxng::SearxngProvider::new(settings, client)?)),
        "duckduckgo" => Ok(Arc::new(provider::duckduckgo::DuckDuckGoProvider::new(settings, client)?)),
        "exa" => Ok(Arc::new(provider::exa::ExaProvider::new(settings, client)?)),
        "jina" => Ok(Arc::new(provider::jina::JinaProvider::new(settings, client)?)),
        "kagi" => Ok(Arc::new(provider::kagi::KagiProvider::new(settings, client)?)),
        "wikipedia" => Ok(Arc::new(provider::wikipedia::WikipediaProvider::new(settings, client)?)),
        "bing" => Err(SearchError::new(
            ErrorKind::NotConfigured,
            "Bing's Web Search API was retired by Microsoft in August 2025; farsight has no bing provider",
        )
        .with_provider("bing")
        .with_suggestion(known_list())),
        other if provider_names().contains(&other) => Err(SearchError::new(
            ErrorKind::NotConfigured,
            format!("the {other} provider is not available in this build"),
        )
        .with_provider(other.to_owned())
        .with_suggestion(known_list())),
        other => Err(SearchError::new(
            ErrorKind::NotConfigured,
            format!("unknown search provider {other:?}"),
        )
        .with_suggestion(known_list())),
    }
}

fn known_list() -> String {
    format!("Use one of: {}.", provider_names().join(", "))
}

/// The API key from `settings`, or `notConfigured` naming what to set.
pub(crate) fn require_key<'a>(
    provider: &'static str,
    value: Option<&'a str>,
    what: &str,
) -> Result<&'a str, SearchError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        Some(v) => Ok(v),
        None => Err(not_configured(provider, what)),
    }
}

/// `notConfigured` for `provider`, naming its variables and its table.
pub(crate) fn not_configured(provider: &'static str, what: &str) -> SearchError {
    let vars = provider_env_vars(provider);
    let message = format!(
        "{provider} is not configured: {what} is missing (set {})",
        vars.join(" and ")
    );
    SearchError::new(ErrorKind::NotConfigured, message)
        .with_provider(provider)
        .with_suggestion(format!(
            "Set {} in the environment, or in [providers.{provider}] of the configuration file, or use another provider.",
            vars.join(" and ")
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_variables_are_consistent() {
        assert_eq!(provider_names().len(), 10);
        assert_eq!(provider_env_vars("google").len(), 2);
        assert!(provider_env_vars("duckduckgo").is_empty());
        assert!(provider_env_vars("wikipedia").is_empty());
    }

    #[test]
    fn bing_and_unknown_names_are_explained() {
        let client = farsight_net::api_client(
            "farsight-test",
            std::time::Duration::from_secs(5),
            None,
            &farsight_net::TlsTrust::default(),
        )
        .unwrap();
        let e = build_provider("bing", &ProviderSettings::default(), client.clone()).unwrap_err();
        assert!(e.message().contains("retired"), "{e}");
        let e = build_provider("altavista", &ProviderSettings::default(), client).unwrap_err();
        assert!(e.suggestion().unwrap_or("").contains("brave"), "{e:?}");
    }
}
