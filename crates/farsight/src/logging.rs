//! Logs go to stderr only: in `farsight mcp` stdout carries the protocol.

use tracing_subscriber::EnvFilter;

/// `RUST_LOG` when set, else warnings, `-v` debug for farsight, `-vv` trace.
pub(crate) fn init(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "warn,farsight=debug,farsight_net=debug,farsight_search=debug,farsight_extract=debug",
        _ => {
            "info,farsight=trace,farsight_net=trace,farsight_search=trace,farsight_extract=trace,rmcp=debug"
        }
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    // A second initialisation (tests calling `run` twice) is harmless; ignore it.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}
