//! What the command line accepts. The doc comments are the `--help` texts.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::service::FetchFormat;

/// farsight gives AI agents the web: it fetches pages safely and returns
/// their readable content (and, soon, searches the web).
///
/// Run `farsight mcp` to serve the tools to an agent over MCP, or use the
/// subcommands directly.
#[derive(Debug, Parser)]
#[command(
    name = "farsight",
    version,
    propagate_version = true,
    max_term_width = 100
)]
#[command(after_help = "\
Configuration: --config PATH, else $FARSIGHT_CONFIG, else ~/.config/farsight/config.toml.
Environment variables override the file, flags override both. See `farsight config`.

Exit codes: 0 success (or a partial answer), 1 the tool failed, 2 usage or configuration error.")]
pub struct Cli {
    /// The configuration file (TOML). A missing file given here is an error.
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Log more to stderr: -v debug, -vv trace. RUST_LOG overrides it.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Fetch a web page and print its readable content.
    ///
    /// The page is checked before any connection (http/https only, no
    /// credentials, no private addresses, robots.txt), downloaded with size
    /// and time limits, and its main content extracted. Long pages are cut
    /// into windows: read on with --start-index.
    Fetch(FetchArgs),
    /// Extract the readable content of a local HTML file (no network).
    Extract(ExtractArgs),
    /// Print the effective configuration as TOML, secrets masked.
    Config,
    /// Serve the tools to an agent over MCP (stdio by default).
    ///
    /// Over stdio, stdout carries only the protocol and logs go to stderr.
    Mcp(McpArgs),
    // `Search(SearchArgs)` joins here with the search service.
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Markdown: headings, lists, tables and links kept.
    Markdown,
    /// Plain text.
    Text,
    /// Sanitised HTML.
    Html,
}

impl From<FormatArg> for FetchFormat {
    fn from(f: FormatArg) -> Self {
        match f {
            FormatArg::Markdown => FetchFormat::Markdown,
            FormatArg::Text => FetchFormat::Text,
            FormatArg::Html => FetchFormat::Html,
        }
    }
}

/// `farsight fetch`
#[derive(Debug, Args)]
pub struct FetchArgs {
    /// The page to fetch (http:// or https://).
    pub url: String,

    /// Output format of the content.
    #[arg(long, value_enum, default_value_t = FormatArg::Markdown)]
    pub format: FormatArg,

    /// Return only the elements matching this CSS selector (e.g. ".infobox").
    #[arg(long, value_name = "CSS")]
    pub selector: Option<String>,

    /// Characters of content to print at most.
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_length: u64,

    /// Character offset to start from (the nextStartIndex of a previous call).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub start_index: u64,

    /// Leave the page's links out of the answer.
    #[arg(long)]
    pub no_links: bool,

    /// Include images (alt text and captions).
    #[arg(long)]
    pub images: bool,

    /// Download again even if the page is in the cache.
    #[arg(long)]
    pub no_cache: bool,

    /// Print the tool's JSON answer instead of text for a person.
    #[arg(long)]
    pub json: bool,

    /// Print only the passages that best answer this question, within
    /// --max-length (instead of the page's beginning).
    #[arg(long, value_name = "QUERY")]
    pub focus: Option<String>,
}

/// `farsight extract`
#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// The HTML file to read; `-` or nothing reads standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: String,

    /// The page's URL, to make links absolute.
    #[arg(long)]
    pub url: Option<String>,

    /// Output format of the content.
    #[arg(long, value_enum, default_value_t = FormatArg::Markdown)]
    pub format: FormatArg,

    /// Return only the elements matching this CSS selector.
    #[arg(long, value_name = "CSS")]
    pub selector: Option<String>,

    /// Characters of content to print at most.
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_length: u64,

    /// Character offset to start from.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub start_index: u64,

    /// Print the tool's JSON answer instead of text for a person.
    #[arg(long)]
    pub json: bool,
}

/// `farsight mcp`
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Serve MCP over Streamable HTTP at http://ADDR/mcp instead of stdio
    /// [default address: 127.0.0.1:8787, or [server].addr].
    ///
    /// A non-loopback address needs a bearer token (FARSIGHT_HTTP_TOKEN or
    /// [server].token). GET /healthz answers for load balancers.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "")]
    pub http: Option<String>,
}

impl McpArgs {
    /// The address given with `--http ADDR`, if one was.
    ///
    /// # Errors
    ///
    /// When the value is not a socket address.
    pub fn http_addr(&self) -> Result<Option<SocketAddr>, String> {
        match self.http.as_deref() {
            None | Some("") => Ok(None),
            Some(a) => a
                .parse()
                .map(Some)
                .map_err(|_| format!("--http {a:?} is not an address like 127.0.0.1:8787")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
