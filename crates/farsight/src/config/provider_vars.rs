//! Which `[providers.NAME]` setting each provider variable fills
//! (`BRAVE_API_KEY` → `api_key`, `GOOGLE_SEARCH_ENGINE_ID` → `engine_id`,
//! `SEARXNG_URL` → `base_url`). The variables themselves are
//! `farsight_search::provider_env_vars`; this is only the naming rule, used
//! when reading the environment and when saying what is missing.

use farsight_search::ProviderSettings;

/// A setting of a provider's table that a variable can fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProviderField {
    /// `api_key`
    ApiKey,
    /// `engine_id` (Google's `cx`)
    EngineId,
    /// `base_url` (SearXNG: the instance)
    BaseUrl,
}

impl ProviderField {
    /// The setting `var` fills, by the variable's suffix.
    pub fn of_var(var: &str) -> Self {
        if var.ends_with("_ENGINE_ID") {
            Self::EngineId
        } else if var.ends_with("_URL") {
            Self::BaseUrl
        } else {
            Self::ApiKey
        }
    }

    /// The key's name in the configuration file.
    pub fn key(self) -> &'static str {
        match self {
            Self::ApiKey => "api_key",
            Self::EngineId => "engine_id",
            Self::BaseUrl => "base_url",
        }
    }

    /// The value in `settings`, when set and not blank.
    pub fn get(self, settings: &ProviderSettings) -> Option<&str> {
        let value = match self {
            Self::ApiKey => &settings.api_key,
            Self::EngineId => &settings.engine_id,
            Self::BaseUrl => &settings.base_url,
        };
        value.as_deref().filter(|v| !v.trim().is_empty())
    }

    /// Sets the value in `settings`.
    pub fn set(self, settings: &mut ProviderSettings, value: String) {
        let slot = match self {
            Self::ApiKey => &mut settings.api_key,
            Self::EngineId => &mut settings.engine_id,
            Self::BaseUrl => &mut settings.base_url,
        };
        *slot = Some(value);
    }
}

/// The variables of provider `name` that are not set, in `settings` or the
/// environment (the environment is already merged into `settings`), with the
/// setting each one fills.
pub fn missing_settings(
    name: &str,
    settings: Option<&ProviderSettings>,
) -> Vec<(&'static str, ProviderField)> {
    farsight_search::provider_env_vars(name)
        .iter()
        .map(|&var| (var, ProviderField::of_var(var)))
        .filter(|(_, field)| settings.and_then(|s| field.get(s)).is_none())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_provider_variable_names_a_setting() {
        assert_eq!(
            ProviderField::of_var("BRAVE_API_KEY"),
            ProviderField::ApiKey
        );
        assert_eq!(
            ProviderField::of_var("GOOGLE_SEARCH_ENGINE_ID"),
            ProviderField::EngineId
        );
        assert_eq!(ProviderField::of_var("SEARXNG_URL"), ProviderField::BaseUrl);
    }

    #[test]
    fn missing_lists_only_what_is_unset() {
        let google = ProviderSettings {
            api_key: Some("k".into()),
            engine_id: Some("  ".into()),
            ..ProviderSettings::default()
        };
        let missing = missing_settings("google", Some(&google));
        assert_eq!(
            missing,
            [("GOOGLE_SEARCH_ENGINE_ID", ProviderField::EngineId)]
        );
        assert_eq!(missing_settings("brave", None).len(), 1);
        assert!(missing_settings("duckduckgo", None).is_empty());
    }
}
