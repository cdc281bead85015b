//! Finding the configuration file and laying the layers on each other.

use crate::local_input::{MAX_CONFIG_BYTES, read_limited};
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::{Config, RawConfig};

/// Where the configuration file came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigSource {
    /// `--config PATH`.
    Flag(PathBuf),
    /// `$FARSIGHT_CONFIG`.
    Env(PathBuf),
    /// The user configuration directory, and the file was there.
    Default(PathBuf),
    /// No file: defaults, the environment and flags only.
    None,
}

/// `~/.config/farsight/config.toml` (or the platform's equivalent).
pub fn default_config_path() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("farsight").join("config.toml"))
}

/// Reads the file named by `explicit` (`--config`), else `$FARSIGHT_CONFIG`,
/// else the default path; lays the environment over it, then `flags`.
///
/// # Errors
///
/// An explicit file that is missing or unreadable, a file that is not valid
/// TOML or has unknown keys, an environment variable with a bad value, or a
/// value out of range. Each message names the file, key or variable.
pub fn load(
    explicit: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
    flags: RawConfig,
) -> anyhow::Result<(Config, ConfigSource)> {
    let source = match (explicit, env("FARSIGHT_CONFIG").filter(|v| !v.is_empty())) {
        (Some(p), _) => ConfigSource::Flag(p.to_owned()),
        (None, Some(p)) => ConfigSource::Env(PathBuf::from(p)),
        (None, None) => match default_config_path() {
            Some(p) if p.is_file() => ConfigSource::Default(p),
            _ => ConfigSource::None,
        },
    };
    let file = match &source {
        ConfigSource::Flag(p) | ConfigSource::Env(p) | ConfigSource::Default(p) => {
            let what = format!("the configuration file {}", p.display());
            let file = std::fs::File::open(p).with_context(|| format!("cannot read {what}"))?;
            let bytes = read_limited(file, MAX_CONFIG_BYTES, &what).map_err(anyhow::Error::msg)?;
            let text = String::from_utf8(bytes)
                .map_err(|_| anyhow::anyhow!("{what} is not UTF-8 text"))?;
            RawConfig::from_toml(&text)
                .with_context(|| format!("invalid configuration file {}", p.display()))?
        }
        ConfigSource::None => RawConfig::default(),
    };
    let env_layer = RawConfig::from_env(env)?;
    let mut config = Config::resolve(file.overlay(env_layer).overlay(flags))?;
    config.capture_environment(env);
    Ok((config, source))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_explicit_file_is_an_error() {
        let err = load(
            Some(Path::new("/nonexistent/farsight.toml")),
            &|_| None,
            RawConfig::default(),
        )
        .unwrap_err();
        assert!(
            format!("{err:#}").contains("/nonexistent/farsight.toml"),
            "{err:#}"
        );
    }

    #[test]
    fn file_then_environment_then_flags() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        std::fs::write(
            &path,
            "[fetch]\ntimeout_seconds = 3\nmax_redirects = 1\nmax_bytes = 100\n",
        )
        .unwrap();
        let env = |k: &str| match k {
            "FARSIGHT_CONFIG" => Some(path.display().to_string()),
            "FARSIGHT_MAX_REDIRECTS" => Some("2".to_owned()),
            "FARSIGHT_MAX_BYTES" => Some("200".to_owned()),
            _ => None,
        };
        let flags = RawConfig::from_toml("[fetch]\nmax_bytes = 300\n").unwrap();
        let (c, source) = load(None, &env, flags).unwrap();
        assert_eq!(source, ConfigSource::Env(path.clone()));
        assert_eq!(c.fetch.timeout.as_secs(), 3);
        assert_eq!(c.fetch.max_redirects, 2);
        assert_eq!(c.fetch.max_bytes, 300);
    }
}
