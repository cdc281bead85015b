//! What the command line accepts. The doc comments are the `--help` texts.

// In `--help`, `[search].max_results` names a section of the configuration
// file; rustdoc would read `[search]` as a link to an item.
#![allow(rustdoc::broken_intra_doc_links)]

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::service::{FetchFormat, RenderMode};

/// farsight gives AI agents the web: it searches the web through many
/// providers and fetches pages safely, returning their readable content.
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
    /// Fetch web pages and print their readable content.
    ///
    /// The page is checked before any connection (http/https only, no
    /// credentials, no private addresses, robots.txt), downloaded with size
    /// and time limits, and its main content extracted. Long pages are cut
    /// into windows: read on with --start-index. Several URLs (at most 10)
    /// are fetched in parallel, one request at a time per host, and printed
    /// in order, each under a `==> [1/3] URL <==` header.
    Fetch(FetchArgs),
    /// Extract the readable content of a local HTML file (no network).
    Extract(ExtractArgs),
    /// Print the effective configuration as TOML, secrets masked.
    Config,
    /// Show the search chain, and for each provider whether it is configured
    /// and, if not, which variable or setting is missing.
    Providers(ProvidersArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    ///
    /// bash: `farsight completions bash > ~/.local/share/bash-completion/completions/farsight`;
    /// zsh: `farsight completions zsh > "${fpath[1]}/_farsight"`;
    /// fish: `farsight completions fish > ~/.config/fish/completions/farsight.fish`.
    Completions(CompletionsArgs),
    /// Serve the tools to an agent over MCP (stdio by default).
    ///
    /// Over stdio, stdout carries only the protocol and logs go to stderr.
    Mcp(McpArgs),
    /// Search the web and print the results (with --depth deep, also the
    /// passages of the top pages that answer the query).
    ///
    /// QUERY may also be a `→ search "query" depth:deep max:3 ...` directive
    /// line; it is then answered in the directive's return format.
    Search(SearchArgs),
    /// Show or clear the disk cache that every farsight process shares.
    Cache(super::cache::CacheArgs),
}

/// Search output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SearchOutputArg {
    /// `1. Title — domain: snippet` lines and the Sources list.
    Compact,
    /// One section per result with its passages (deep search).
    Full,
    /// The tool's JSON answer.
    Json,
}

/// `farsight search`
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// What to search for (at least 2 characters), or a `→ search "..."` directive.
    // Hyphen values let `-> search "..."` through as the query.
    #[arg(allow_hyphen_values = true)]
    pub query: String,

    /// How many results (1-20) [default: 5, or [search].max_results].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=20))]
    pub max_results: Option<u32>,

    /// Only results from this site (a domain).
    #[arg(long, value_name = "DOMAIN")]
    pub site: Option<String>,

    /// Only results from this domain (repeatable).
    #[arg(long = "include-domain", value_name = "DOMAIN")]
    pub include_domains: Vec<String>,

    /// No results from this domain (repeatable).
    #[arg(long = "exclude-domain", value_name = "DOMAIN")]
    pub exclude_domains: Vec<String>,

    /// Only results from the last day, week, month or year.
    #[arg(long, value_enum, value_name = "RANGE")]
    pub date_range: Option<DateRangeArg>,

    /// Safe search on or off [default: on, or [search].safe_search].
    #[arg(long, value_enum, value_name = "ON|OFF")]
    pub safe_search: Option<OnOffArg>,

    /// General web results or news.
    #[arg(long, value_enum)]
    pub topic: Option<TopicArg>,

    /// Search for images (brave, serper, searxng, google, tavily).
    #[arg(long)]
    pub images: bool,

    /// Results from or for this country: ISO 3166-1 alpha-2 (de, us, jp)
    /// [default: [search].country].
    #[arg(long, value_name = "CODE")]
    pub country: Option<String>,

    /// Results in this language: ISO 639-1 (fr, en, ja) [default: [search].language].
    #[arg(long, value_name = "CODE")]
    pub language: Option<String>,

    /// A provider, several separated by commas (merged by rank fusion), or "all".
    #[arg(long, value_name = "NAME")]
    pub provider: Option<String>,

    /// basic: snippets only; deep: also read the top pages and keep the
    /// passages that answer the query.
    #[arg(long, value_enum)]
    pub depth: Option<DepthArg>,

    /// Deep search: tokens of page content for the whole answer
    /// [default: 4000, or [search].max_content_tokens].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_content_tokens: Option<u64>,

    /// Output format [default: full for a deep search, else compact; a
    /// directive is answered in its own format].
    #[arg(long, value_enum, conflicts_with = "json")]
    pub output: Option<SearchOutputArg>,

    /// Same as --output json.
    #[arg(long)]
    pub json: bool,

    /// Ask the providers (and read the pages) again, and keep nothing in the
    /// cache.
    #[arg(long)]
    pub no_cache: bool,
}

/// `--date-range`
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DateRangeArg {
    /// The last 24 hours.
    Day,
    /// The last 7 days.
    Week,
    /// The last month.
    Month,
    /// The last year.
    Year,
}

/// `--safe-search`
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OnOffArg {
    /// Filter adult content.
    On,
    /// Do not filter.
    Off,
}

/// `--topic`
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TopicArg {
    /// Ordinary web results.
    General,
    /// News articles.
    News,
}

/// `--depth`
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DepthArg {
    /// Snippets only.
    Basic,
    /// Read the top pages too.
    Deep,
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

/// `--render`
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RenderArg {
    /// Only when the page is an empty shell that scripts build and the text
    /// is not in its embedded state.
    Auto,
    /// Never: the HTML as it came.
    Never,
    /// Every HTML page.
    Always,
}

impl From<RenderArg> for RenderMode {
    fn from(r: RenderArg) -> Self {
        match r {
            RenderArg::Auto => RenderMode::Auto,
            RenderArg::Never => RenderMode::Never,
            RenderArg::Always => RenderMode::Always,
        }
    }
}

/// `farsight fetch`
#[derive(Debug, Args)]
pub struct FetchArgs {
    /// The page to fetch (http:// or https://; without a scheme, https:// is
    /// assumed); several pages: several URLs.
    #[arg(value_name = "URL", required = true, num_args = 1..)]
    pub urls: Vec<String>,

    /// Output format of the content.
    #[arg(long, value_enum, default_value_t = FormatArg::Markdown)]
    pub format: FormatArg,

    /// Return only the elements matching this CSS selector (e.g. ".infobox").
    #[arg(long, value_name = "CSS")]
    pub selector: Option<String>,

    /// Characters of content to print at most (per page; several pages share
    /// at most 40000).
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

    /// Add the page's structured data: JSON-LD objects (products and their
    /// prices, articles, recipes, events, FAQs...) and OpenGraph.
    #[arg(long)]
    pub structured_data: bool,

    /// Download again, and keep nothing in the cache.
    #[arg(long)]
    pub no_cache: bool,

    /// Print the tool's JSON answer instead of text for a person.
    #[arg(long)]
    pub json: bool,

    /// Print only the passages that best answer this question, within
    /// --max-length (instead of the page's beginning).
    #[arg(long, value_name = "QUERY")]
    pub focus: Option<String>,

    /// Run the page's JavaScript in a headless Chromium: auto (only when the
    /// page is an empty shell built by scripts), always, or never
    /// [default: auto, or [render].mode]. Needs Chromium installed
    /// (`apt-get install chromium`); without it, auto prints the page as it
    /// came with a note.
    #[arg(long, value_enum, value_name = "WHEN")]
    pub render: Option<RenderArg>,
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

    /// Add the page's structured data (JSON-LD and OpenGraph).
    #[arg(long)]
    pub structured_data: bool,

    /// Print the tool's JSON answer instead of text for a person.
    #[arg(long)]
    pub json: bool,
}

/// `farsight providers`
#[derive(Debug, Args)]
pub struct ProvidersArgs {
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `farsight completions`
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
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

    /// How log lines on stderr are written: text, or json (one object per
    /// line, and one line per tool call) [default: [server].log_format or text].
    #[arg(long, value_name = "FORMAT", value_enum)]
    pub log_format: Option<crate::logging::LogFormat>,
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

    #[test]
    fn render_is_read_and_unknown_values_are_refused() {
        let render = |args: &[&str]| match Cli::try_parse_from(args).map(|c| c.command) {
            Ok(Command::Fetch(f)) => Ok(f.render),
            Ok(other) => panic!("{other:?}"),
            Err(e) => Err(e.kind()),
        };
        assert_eq!(render(&["farsight", "fetch", "u"]), Ok(None));
        for (word, want) in [
            ("auto", RenderArg::Auto),
            ("never", RenderArg::Never),
            ("always", RenderArg::Always),
        ] {
            assert_eq!(
                render(&["farsight", "fetch", "--render", word, "u"]),
                Ok(Some(want))
            );
            assert_eq!(RenderMode::from(want).as_str(), word);
        }
        assert_eq!(
            render(&["farsight", "fetch", "--render", "sometimes", "u"]),
            Err(clap::error::ErrorKind::InvalidValue)
        );
    }
}
