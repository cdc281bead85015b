//! `farsight providers`: the search chain this configuration gives, and for
//! each provider farsight knows whether it is configured and, if not, what
//! to set.

use std::process::ExitCode;

use anyhow::Context;
use serde::Serialize;

use super::UsageError;
use super::commands::write_stdout;
use crate::config::{Config, missing_settings};
use crate::service::Service;

/// The answer of `farsight providers --json`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    /// Whether `web_search` is switched on.
    search_enabled: bool,
    /// The providers asked in turn when a request names none.
    chain: Vec<String>,
    /// Every known provider, in the default order.
    providers: Vec<ProviderStatus>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ProviderStatus {
    name: &'static str,
    /// It would be offered (its settings are complete and valid).
    configured: bool,
    /// It is in the chain.
    in_chain: bool,
    /// Needs no key at all.
    keyless: bool,
    /// What is missing: each variable and the `[providers.NAME]` key it fills.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    missing: Vec<Missing>,
    /// Why it is not offered although nothing is missing (a bad `base_url`).
    #[serde(skip_serializing_if = "Option::is_none")]
    problem: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Missing {
    variable: &'static str,
    setting: String,
}

pub(super) fn providers(config: Config, json: bool) -> anyhow::Result<ExitCode> {
    let report = report(config)?;
    let text = if json {
        serde_json::to_string_pretty(&report).context("cannot encode the answer")? + "\n"
    } else {
        render(&report)
    };
    write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn report(config: Config) -> anyhow::Result<Report> {
    // The chain is computed where searches use it, by the service; without a
    // cache (nothing is fetched here, and no store needs opening).
    let mut quiet = config.clone();
    quiet.cache.enabled = false;
    let service = Service::new(quiet).map_err(|e| UsageError(format!("{e:#}")))?;
    let chain = service.search_chain();
    let proxy = config.fetch.upstream_proxy()?;
    let trust = config.fetch.tls_trust()?;
    let client = farsight_net::api_client(
        &config.fetch.user_agent,
        config.search.timeout,
        proxy.as_ref(),
        &trust,
    )
    .context("cannot build the HTTP client for search providers")?;
    let providers = farsight_search::provider_names()
        .iter()
        .map(|&name| {
            let settings = config.providers.get(name);
            let built = farsight_search::build_provider(
                name,
                &settings.cloned().unwrap_or_default(),
                client.clone(),
            );
            let missing: Vec<Missing> = missing_settings(name, settings)
                .into_iter()
                .map(|(variable, field)| Missing {
                    variable,
                    setting: format!("[providers.{name}].{}", field.key()),
                })
                .collect();
            let problem = match &built {
                Err(e) if missing.is_empty() => Some(e.message().to_owned()),
                _ => None,
            };
            ProviderStatus {
                name,
                configured: built.is_ok(),
                in_chain: chain.iter().any(|c| c == name),
                keyless: farsight_search::provider_env_vars(name).is_empty(),
                missing,
                problem,
            }
        })
        .collect();
    Ok(Report {
        search_enabled: service.search_enabled(),
        chain,
        providers,
    })
}

fn render(report: &Report) -> String {
    let mut out = String::new();
    if report.search_enabled {
        out.push_str(&format!("Search chain: {}\n\n", report.chain.join(" → ")));
    } else {
        out.push_str(
            "Search chain: none (web_search is disabled: WEB_SEARCH_ENABLED=false or [search].enabled = false)\n\n",
        );
    }
    let width = report
        .providers
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0);
    for p in &report.providers {
        let state = if p.configured {
            match (p.in_chain, p.keyless) {
                (true, true) => "configured (no key needed), in the chain".to_owned(),
                (true, false) => "configured, in the chain".to_owned(),
                (false, true) => "configured (no key needed), not in the chain".to_owned(),
                (false, false) => "configured, not in the chain".to_owned(),
            }
        } else if let Some(problem) = &p.problem {
            format!("not usable: {problem}")
        } else {
            let set: Vec<String> = p
                .missing
                .iter()
                .map(|m| format!("{} (or {})", m.variable, m.setting))
                .collect();
            format!("not configured: set {}", set.join(" and "))
        };
        out.push_str(&format!("{:width$}  {state}\n", p.name));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RawConfig;

    fn config(toml: &str) -> Config {
        Config::resolve(RawConfig::from_toml(toml).unwrap()).unwrap()
    }

    #[test]
    fn keyless_providers_make_the_chain_and_keyed_ones_say_what_to_set() {
        let r = report(config("[cache]\nenabled = false\n")).unwrap();
        assert_eq!(r.chain, ["duckduckgo", "wikipedia"]);
        let brave = &r.providers[0];
        assert_eq!(brave.name, "brave");
        assert!(!brave.configured && !brave.in_chain);
        assert_eq!(brave.missing[0].variable, "BRAVE_API_KEY");
        assert_eq!(brave.missing[0].setting, "[providers.brave].api_key");
        let text = render(&r);
        assert!(
            text.starts_with("Search chain: duckduckgo → wikipedia\n"),
            "{text}"
        );
        assert!(
            text.contains("google      not configured: set GOOGLE_SEARCH_API_KEY (or [providers.google].api_key) and GOOGLE_SEARCH_ENGINE_ID"),
            "{text}"
        );
        assert!(
            text.contains("duckduckgo  configured (no key needed), in the chain"),
            "{text}"
        );
    }

    #[test]
    fn a_configured_provider_leads_the_chain_and_half_a_google_is_named() {
        let r = report(config(
            "[providers.brave]\napi_key = \"k\"\n[providers.google]\napi_key = \"g\"\n",
        ))
        .unwrap();
        assert_eq!(r.chain, ["brave", "duckduckgo", "wikipedia"]);
        assert!(r.providers[0].configured && r.providers[0].in_chain);
        let google = r.providers.iter().find(|p| p.name == "google").unwrap();
        assert!(!google.configured);
        let missing: Vec<&str> = google.missing.iter().map(|m| m.variable).collect();
        assert_eq!(missing, ["GOOGLE_SEARCH_ENGINE_ID"]);
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["providers"][0]["inChain"], true);
        assert!(json["providers"][0].get("missing").is_none());
    }

    #[test]
    fn a_bad_base_url_is_a_problem_not_a_missing_key() {
        let r = report(config("[providers.searxng]\nbase_url = \"ftp://x\"\n")).unwrap();
        let searxng = r.providers.iter().find(|p| p.name == "searxng").unwrap();
        assert!(!searxng.configured && searxng.missing.is_empty());
        assert!(searxng.problem.is_some(), "{searxng:?}");
    }
}
