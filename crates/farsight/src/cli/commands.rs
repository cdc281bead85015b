//! What each subcommand does: load the configuration, call the service,
//! print the answer.

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::Context;

use super::UsageError;
use super::args::{Cli, Command, ExtractArgs, FetchArgs, McpArgs};
use crate::config::{self, ConfigSource, RawConfig, RawServer};
use crate::service::{CallOptions, FetchRequest, FetchResponse, Service};
use crate::{logging, mcp, render};

/// Runs the parsed command line and returns the process's exit code.
///
/// # Errors
///
/// A [`UsageError`] (exit code 2) for a bad configuration or argument; any
/// other error (exit code 1) when the command could not do its work at all.
/// A tool that ran and failed is not an error here: its answer is printed and
/// the exit code is 1.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    logging::init(cli.verbose);
    let flags = flag_layer(&cli)?;
    let env = |k: &str| std::env::var(k).ok();
    let (config, source) = config::load(cli.config.as_deref(), &env, flags)
        .map_err(|e| UsageError(format!("{e:#}")))?;
    tracing::debug!(?source, "configuration loaded");

    match cli.command {
        Command::Config => {
            let origin = match &source {
                ConfigSource::Flag(p) | ConfigSource::Env(p) | ConfigSource::Default(p) => {
                    format!("# from {} and the environment\n", p.display())
                }
                ConfigSource::None => "# defaults and the environment (no file)\n".to_owned(),
            };
            write_stdout(&format!("{origin}{}", config.to_toml_masked()))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Fetch(args) => {
            if !config.fetch.enabled {
                return Err(UsageError(
                    "web_fetch is disabled (WEB_FETCH_ENABLED=false or [fetch].enabled = false)"
                        .to_owned(),
                )
                .into());
            }
            runtime()?.block_on(fetch(config, args))
        }
        Command::Extract(args) => runtime()?.block_on(extract(args)),
        Command::Mcp(args) => runtime()?.block_on(serve(config, args)),
        Command::Cache(args) => super::cache::run(&config, &args),
        Command::Search(args) => {
            if !config.search.enabled {
                return Err(UsageError(
                    "web_search is disabled (WEB_SEARCH_ENABLED=false or [search].enabled = false)"
                        .to_owned(),
                )
                .into());
            }
            runtime()?.block_on(super::search::search(config, args))
        }
    }
}

/// Flags that override configuration settings.
fn flag_layer(cli: &Cli) -> anyhow::Result<RawConfig> {
    let mut raw = RawConfig::default();
    if let Command::Mcp(args) = &cli.command {
        let addr = args.http_addr().map_err(UsageError)?;
        if let Some(addr) = addr {
            raw.server = Some(RawServer {
                addr: Some(addr.to_string()),
                ..RawServer::default()
            });
        }
    }
    Ok(raw)
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

async fn fetch(config: config::Config, args: FetchArgs) -> anyhow::Result<ExitCode> {
    let service = Service::new(config).map_err(|e| UsageError(format!("{e:#}")))?;
    let request = FetchRequest {
        url: args.url,
        selector: args.selector,
        format: args.format.into(),
        max_length: usize::try_from(args.max_length).unwrap_or(usize::MAX),
        start_index: usize::try_from(args.start_index).unwrap_or(usize::MAX),
        include_links: !args.no_links,
        include_images: args.images,
        focus: args.focus,
    };
    let answer = service
        .web_fetch(&request, CallOptions::default().bypass_cache(args.no_cache))
        .await;
    print_answer(&answer, args.json)
}

async fn extract(args: ExtractArgs) -> anyhow::Result<ExitCode> {
    let mut bytes = Vec::new();
    if args.file == "-" {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
    } else {
        bytes = std::fs::read(&args.file)
            .map_err(|e| UsageError(format!("cannot read {}: {e}", args.file)))?;
    }
    let request = FetchRequest {
        url: args.url.clone().unwrap_or_default(),
        selector: args.selector,
        format: args.format.into(),
        max_length: usize::try_from(args.max_length).unwrap_or(usize::MAX),
        start_index: usize::try_from(args.start_index).unwrap_or(usize::MAX),
        include_links: true,
        include_images: false,
        focus: None,
    };
    let html = String::from_utf8_lossy(&bytes).into_owned();
    let answer = crate::service::html_response(html, args.url.as_deref(), &request).await;
    print_answer(&answer, args.json)
}

async fn serve(config: config::Config, args: McpArgs) -> anyhow::Result<ExitCode> {
    let service = Service::new(config).map_err(|e| UsageError(format!("{e:#}")))?;
    if args.http.is_some() {
        mcp::serve_http(service).await?;
    } else {
        mcp::serve_stdio(service).await?;
    }
    Ok(ExitCode::SUCCESS)
}

fn print_answer(answer: &FetchResponse, json: bool) -> anyhow::Result<ExitCode> {
    if json {
        let mut text = serde_json::to_string_pretty(answer).context("cannot encode the answer")?;
        text.push('\n');
        write_stdout(&text)?;
    } else if answer.is_error() {
        eprint!("{}", render::fetch_text(answer, "--start-index"));
    } else {
        write_stdout(&render::fetch_text(answer, "--start-index"))?;
    }
    Ok(if answer.is_error() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

pub(super) fn write_stdout(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        // `farsight fetch ... | head` closes the pipe early; that is not a failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.context("cannot write to standard output"),
    }
}
