//! Logs go to stderr only: in `farsight mcp` stdout carries the protocol.

use serde::{Deserialize, Serialize};
use tracing_subscriber::EnvFilter;

/// The target of the one line logged per tool call (see `mcp::call_log`).
pub(crate) const CALL_TARGET: &str = "farsight::call";

/// How log lines are written: for a person, or one JSON object per line for
/// a log collector (`--log-format json`, `[server].log_format`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line, the event's fields at its top level.
    Json,
}

/// `RUST_LOG` when set, else warnings, `-v` debug for farsight, `-vv` trace.
/// In JSON the per-call lines are on at every level: a collector asked for them.
pub(crate) fn init(verbose: u8, format: LogFormat) {
    let default = match verbose {
        0 => "warn",
        1 => "warn,farsight=debug,farsight_net=debug,farsight_search=debug,farsight_extract=debug",
        _ => {
            "info,farsight=trace,farsight_net=trace,farsight_search=trace,farsight_extract=trace,rmcp=debug"
        }
    };
    let default = match format {
        LogFormat::Text => default.to_owned(),
        LogFormat::Json => format!("{default},{CALL_TARGET}=info"),
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    // A second initialisation (tests calling `run` twice) is harmless; ignore it.
    let _ = match format {
        LogFormat::Text => tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .try_init(),
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            // `{"tool":"web_fetch","outcome":"success",...}`, not nested
            // under "fields": what collectors index without a mapping.
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .try_init(),
    };
}
