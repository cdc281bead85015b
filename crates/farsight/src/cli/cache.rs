//! `farsight cache info` and `farsight cache clear`: where the shared disk
//! cache is, what it holds, and emptying it.

use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use farsight_net::{Cache, CacheError, CacheInfo, Cleared};

use super::commands::write_stdout;
use crate::config::{CacheConfig, Config};

/// `farsight cache`
#[derive(Debug, Args)]
pub struct CacheArgs {
    /// What to do with the cache.
    #[command(subcommand)]
    pub command: CacheCommand,
}

/// The `farsight cache` subcommands.
#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// Where the cache is, how big it is and how many entries it holds, per
    /// namespace (page, document, search).
    Info {
        /// Print JSON instead of text for a person.
        #[arg(long)]
        json: bool,
    },
    /// Remove every cached page, document and search answer. Other farsight
    /// processes see the cache empty at once; a running MCP server still
    /// remembers what it holds in memory until it restarts.
    Clear {
        /// Print JSON instead of text for a person.
        #[arg(long)]
        json: bool,
    },
}

/// Runs `farsight cache ...` against `[cache].dir`.
///
/// # Errors
///
/// When the cache file exists but cannot be opened, read or written (exit 1).
pub fn run(config: &Config, args: &CacheArgs) -> anyhow::Result<ExitCode> {
    let dir = &config.cache.dir;
    match args.command {
        CacheCommand::Info { json } => {
            let info = Cache::info_at(dir).map_err(explained)?;
            if json {
                let mut value = serde_json::to_value(&info).context("cannot encode the answer")?;
                if let Some(fields) = value.as_object_mut() {
                    fields.insert("enabled".to_owned(), config.cache.enabled.into());
                    fields.insert(
                        "maxDiskBytes".to_owned(),
                        config.cache.max_disk_bytes.into(),
                    );
                }
                print_json(&value)?;
            } else {
                write_stdout(&info_text(&info, &config.cache))?;
            }
        }
        CacheCommand::Clear { json } => {
            let cleared = Cache::clear_at(dir).map_err(explained)?;
            if json {
                print_json(&cleared)?;
            } else {
                write_stdout(&cleared_text(&cleared))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn explained(e: CacheError) -> anyhow::Error {
    anyhow::anyhow!("{e}. {}", e.suggestion())
}

fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut text = serde_json::to_string_pretty(value).context("cannot encode the answer")?;
    text.push('\n');
    write_stdout(&text)
}

fn info_text(info: &CacheInfo, config: &CacheConfig) -> String {
    let mut out = format!(
        "cache: {}\nlimit: {} ([cache].max_disk_bytes; past it the oldest entries go)\n",
        info.path.display(),
        bytes(config.max_disk_bytes)
    );
    if !config.enabled {
        out.push_str(
            "status: disabled ([cache].enabled = false or FARSIGHT_CACHE_ENABLED=false); \
             nothing is read or written\n",
        );
    }
    if !info.exists {
        out.push_str("size: 0 bytes (the file does not exist yet: nothing was cached here)\n");
        return out;
    }
    out.push_str(&format!(
        "size: {} on disk\nentries: {}",
        bytes(info.file_bytes),
        info.entries
    ));
    if info.expired > 0 {
        out.push_str(&format!(
            " ({} expired, dropped at the next write)",
            info.expired
        ));
    }
    out.push('\n');
    let width = info
        .namespaces
        .iter()
        .map(|n| n.name.len())
        .max()
        .unwrap_or(0);
    for n in &info.namespaces {
        out.push_str(&format!(
            "  {:<width$}  {:>6} entries  {}\n",
            n.name,
            n.entries,
            bytes(n.bytes)
        ));
    }
    out
}

fn cleared_text(c: &Cleared) -> String {
    let path = c.path.display();
    let mut out = if c.damaged {
        format!("Deleted {path}: it was damaged; farsight creates it again.\n")
    } else if c.existed {
        format!(
            "Removed {} entries ({}) from {path}; the file is now {}.\n",
            c.entries,
            bytes(c.bytes),
            bytes(c.file_bytes)
        )
    } else {
        format!("Nothing to clear: {path} does not exist.\n")
    };
    for f in &c.legacy_files {
        out.push_str(&format!(
            "Removed {} (a cache file of an earlier farsight).\n",
            f.display()
        ));
    }
    out
}

/// `1234567` → `1234567 bytes (1.2 MiB)`: exact for scripts, readable for people.
fn bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} bytes");
    }
    // Precision is not the point of the human part; f64 is exact to 2^53.
    #[allow(clippy::cast_precision_loss)]
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{n} bytes ({v:.1} {})", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_exact_and_readable() {
        assert_eq!(bytes(0), "0 bytes");
        assert_eq!(bytes(1023), "1023 bytes");
        assert_eq!(bytes(1536), "1536 bytes (1.5 KiB)");
        assert_eq!(bytes(5 * 1024 * 1024), "5242880 bytes (5.0 MiB)");
    }

    #[test]
    fn info_of_a_directory_never_used_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let info = Cache::info_at(dir.path()).unwrap();
        let mut config = CacheConfig::default();
        let text = info_text(&info, &config);
        assert!(text.starts_with("cache: "), "{text}");
        assert!(text.contains("does not exist yet"), "{text}");
        assert!(
            text.contains("limit: 536870912 bytes (512.0 MiB)"),
            "{text}"
        );
        config.enabled = false;
        assert!(info_text(&info, &config).contains("disabled"));
    }
}
