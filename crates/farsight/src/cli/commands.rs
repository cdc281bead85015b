//! What each subcommand does: load the configuration, call the service,
//! print the answer.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;

use super::UsageError;
use super::args::{Cli, Command, ExtractArgs, FetchArgs, FormatArg, McpArgs};
use crate::config::{self, ConfigSource, RawConfig, RawServer};
use crate::local_input::{MAX_EXTRACT_INPUT_BYTES, read_limited};
use crate::service::{CallOptions, FetchRequest, FetchResponse, Service};
use crate::{logging, mcp, render};
use farsight_search::ErrorKind;

/// Runs the parsed command line and returns the process's exit code.
///
/// # Errors
///
/// A [`UsageError`] (exit code 2) for a bad configuration or argument; any
/// other error (exit code 1) when the command could not do its work at all.
/// A tool that ran and failed is not an error here: its answer is printed and
/// the exit code is 1.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    // Completions depend on the command line's definition only: a broken
    // configuration file must not stop a shell from starting.
    if let Command::Completions(args) = &cli.command {
        let mut command = <Cli as clap::CommandFactory>::command();
        let mut script = Vec::new();
        clap_complete::generate(args.shell, &mut command, "farsight", &mut script);
        write_stdout(&String::from_utf8_lossy(&script))?;
        return Ok(ExitCode::SUCCESS);
    }
    let flags = match flag_layer(&cli) {
        Ok(flags) => flags,
        Err(e) => {
            logging::init(cli.verbose, logging::LogFormat::Text);
            return Err(e);
        }
    };
    let env = |k: &str| std::env::var(k).ok();
    // Logging starts once the configuration is read: it may ask for JSON.
    let (config, source) = match config::load(cli.config.as_deref(), &env, flags) {
        Ok(loaded) => loaded,
        Err(e) => {
            logging::init(cli.verbose, logging::LogFormat::Text);
            return Err(UsageError(format!("{e:#}")).into());
        }
    };
    logging::init(cli.verbose, config.server.log_format);
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
        // Printed above, before the configuration was read.
        Command::Completions(_) => Ok(ExitCode::SUCCESS),
        Command::Providers(args) => super::providers::providers(config, args.json),
        Command::Fetch(args) => {
            if !config.fetch.enabled {
                return Err(UsageError(
                    "web_fetch is disabled (WEB_FETCH_ENABLED=false or [fetch].enabled = false)"
                        .to_owned(),
                )
                .into());
            }
            on_runtime(fetch(config, args))
        }
        Command::Extract(args) => on_runtime(extract(args)),
        Command::Mcp(args) => on_runtime(serve(config, args)),
        Command::Cache(args) => super::cache::run(&config, &args),
        Command::Search(args) => {
            if !config.search.enabled {
                return Err(UsageError(
                    "web_search is disabled (WEB_SEARCH_ENABLED=false or [search].enabled = false)"
                        .to_owned(),
                )
                .into());
            }
            on_runtime(super::search::search(config, args))
        }
    }
}

/// Flags that override configuration settings.
fn flag_layer(cli: &Cli) -> anyhow::Result<RawConfig> {
    let mut raw = RawConfig::default();
    if let Command::Mcp(args) = &cli.command {
        let addr = args.http_addr().map_err(UsageError)?;
        if addr.is_some() || args.log_format.is_some() {
            raw.server = Some(RawServer {
                addr: addr.map(|a| a.to_string()),
                log_format: args.log_format,
                ..RawServer::default()
            });
        }
    }
    Ok(raw)
}

/// How long, once a command has its answer, work still running on the
/// blocking pool (an extraction past its call's deadline) may hold the exit.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// Runs a command on a fresh runtime. Dropping a runtime waits for every
/// blocking task to finish, so a server past its shutdown grace, or a CLI
/// call whose answer is ready, could hang on one slow extraction (issue 11);
/// the runtime is shut down with a short timeout instead.
fn on_runtime<F: std::future::Future<Output = anyhow::Result<ExitCode>>>(
    command: F,
) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let outcome = runtime.block_on(command);
    runtime.shutdown_timeout(EXIT_GRACE);
    outcome
}

async fn fetch(mut config: config::Config, args: FetchArgs) -> anyhow::Result<ExitCode> {
    check_selector(args.selector.as_deref())?;
    without_cache_if(&mut config, args.no_cache);
    let service = Service::new(config).map_err(|e| UsageError(format!("{e:#}")))?;
    let targets: Vec<(String, bool)> = args.urls.iter().map(|u| with_scheme(u)).collect();
    let mut request = FetchRequest {
        url: String::new(),
        urls: Vec::new(),
        selector: args.selector,
        format: args.format.into(),
        max_length: usize::try_from(args.max_length).unwrap_or(usize::MAX),
        start_index: usize::try_from(args.start_index).unwrap_or(usize::MAX),
        include_links: !args.no_links,
        include_images: args.images,
        focus: args.focus,
        include_structured_data: args.structured_data,
        render: args.render.map(Into::into),
    };
    let options = CallOptions::default().bypass_cache(args.no_cache);
    if let [(url, assumed_https)] = targets.as_slice() {
        request.url.clone_from(url);
        let mut answer = service.web_fetch(&request, options).await;
        if *assumed_https {
            note_assumed_https(&mut answer, url);
        }
        return print_answer(&answer, args.format, args.json);
    }
    request.urls = targets.iter().map(|(u, _)| u.clone()).collect();
    match service.web_fetch_many(&request, options).await {
        Ok(mut answers) => {
            for (answer, (url, assumed_https)) in answers.results.iter_mut().zip(&targets) {
                if *assumed_https {
                    note_assumed_https(answer, url);
                }
            }
            super::fetch_many::print_answers(&answers, args.format, args.json)
        }
        Err(refused) => print_answer(&refused, args.format, args.json),
    }
}

/// Says in the answer itself (its `message`, the field for notes) that
/// https:// was assumed, so that it shows with --json as well as on the
/// terminal.
fn note_assumed_https(answer: &mut FetchResponse, url: &str) {
    let note = format!("No scheme was given: fetched {url} (https:// assumed).");
    answer.message = Some(match answer.message.take() {
        Some(m) => format!("{note} {m}"),
        None => note,
    });
}

/// `--no-cache` neither reads nor writes the cache: no directory, no file,
/// no entry is created (issue 11), so the call leaves nothing behind.
pub(super) fn without_cache_if(config: &mut config::Config, no_cache: bool) {
    if no_cache {
        config.cache.enabled = false;
    }
}

/// `example.com/page` → `https://example.com/page`, and whether https was
/// assumed. A URL with `://` is left as it is, and so is another scheme
/// (`mailto:x`, `file:/x`), which the fetcher then refuses by name;
/// `localhost:8080` is a host and port, not a scheme.
fn with_scheme(url: &str) -> (String, bool) {
    let url = url.trim();
    if url.contains("://") {
        return (url.to_owned(), false);
    }
    let has_scheme = url.split_once(':').is_some_and(|(scheme, rest)| {
        !scheme.is_empty()
            && !scheme.contains('.')
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-".contains(c))
            && !rest.starts_with(|c: char| c.is_ascii_digit())
    });
    if has_scheme {
        (url.to_owned(), false)
    } else {
        (format!("https://{url}"), true)
    }
}

/// An unparseable `--selector` is a usage error, found before anything is
/// downloaded.
fn check_selector(selector: Option<&str>) -> Result<(), UsageError> {
    match selector.filter(|s| !s.trim().is_empty()) {
        Some(s) => farsight_extract::check_selector(s)
            .map_err(|e| UsageError(format!("invalid --selector: {e}"))),
        None => Ok(()),
    }
}

async fn extract(args: ExtractArgs) -> anyhow::Result<ExitCode> {
    check_selector(args.selector.as_deref())?;
    let limit = MAX_EXTRACT_INPUT_BYTES;
    let bytes = if args.file == "-" {
        read_limited(std::io::stdin().lock(), limit, "standard input").map_err(UsageError)?
    } else {
        let file = std::fs::File::open(&args.file)
            .map_err(|e| UsageError(format!("cannot read {}: {e}", args.file)))?;
        read_limited(file, limit, &args.file).map_err(UsageError)?
    };
    let request = FetchRequest {
        url: args.url.clone().unwrap_or_default(),
        urls: Vec::new(),
        selector: args.selector,
        format: args.format.into(),
        max_length: usize::try_from(args.max_length).unwrap_or(usize::MAX),
        start_index: usize::try_from(args.start_index).unwrap_or(usize::MAX),
        include_links: true,
        include_images: false,
        focus: None,
        include_structured_data: args.structured_data,
        // A local file is read as it is: there is no page to run.
        render: Some(crate::service::RenderMode::Never),
    };
    // A PDF, DOCX or PPTX is read as a document (its own size bound applies).
    if crate::service::is_document(&bytes) {
        let answer = crate::service::local_document_response(bytes, &request).await;
        return print_answer(&answer, args.format, args.json);
    }
    let html = String::from_utf8_lossy(&bytes).into_owned();
    let answer = crate::service::html_response(html, args.url.as_deref(), &request).await;
    print_answer(&answer, args.format, args.json)
}

async fn serve(config: config::Config, args: McpArgs) -> anyhow::Result<ExitCode> {
    let service = Service::new(config).map_err(|e| UsageError(format!("{e:#}")))?;
    if args.http.is_some() {
        mcp::serve_http(service).await?;
    } else {
        if std::io::stdin().is_terminal() {
            // Started by hand: without this line the terminal just hangs.
            eprintln!(
                "farsight: waiting for an MCP client on stdin (an MCP client starts this command itself; Ctrl-C to stop)"
            );
        }
        mcp::serve_stdio(service).await?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints a fetch answer: its JSON, or for a person the page (Markdown with
/// its title and URL; text and HTML exactly as extracted, notes on stderr) or
/// the error on stderr. Exit code 2 for a URL that is not one (a validation
/// error), 1 for any other failure.
fn print_answer(answer: &FetchResponse, format: FormatArg, json: bool) -> anyhow::Result<ExitCode> {
    if json {
        let mut text = serde_json::to_string_pretty(answer).context("cannot encode the answer")?;
        text.push('\n');
        write_stdout(&text)?;
    } else if answer.is_error() {
        eprint!("{}", render::fetch_text(answer, "--start-index"));
    } else if format == FormatArg::Markdown {
        write_stdout(&render::fetch_text(answer, "--start-index"))?;
    } else {
        write_stdout(&render::fetch_content(answer))?;
        eprint!("{}", render::fetch_notes(answer, "--start-index"));
    }
    Ok(if !answer.is_error() {
        ExitCode::SUCCESS
    } else if matches!(
        answer.error_kind,
        Some(ErrorKind::InvalidUrl | ErrorKind::InvalidArgument)
    ) {
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A command whose answer is ready returns although a blocking task it
    /// started (an extraction past its deadline) is still running. The wait
    /// below is a liveness bound two orders of magnitude above the grace, not
    /// a timing measure: before the fix the call never returned.
    #[test]
    fn a_command_returns_while_blocking_work_still_runs() {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let outcome = on_runtime(async {
                tokio::task::spawn_blocking(|| std::thread::sleep(Duration::from_secs(600)));
                Ok(ExitCode::SUCCESS)
            });
            let _ = done.send(outcome.is_ok());
        });
        assert_eq!(finished.recv_timeout(Duration::from_secs(60)), Ok(true));
    }

    #[test]
    fn a_bare_host_gets_https_and_schemes_are_kept() {
        assert_eq!(
            with_scheme("example.com"),
            ("https://example.com".to_owned(), true)
        );
        assert_eq!(
            with_scheme("example.com/a?b=c:d"),
            ("https://example.com/a?b=c:d".to_owned(), true)
        );
        assert_eq!(
            with_scheme("localhost:8080/x"),
            ("https://localhost:8080/x".to_owned(), true)
        );
        assert_eq!(
            with_scheme("http://example.com"),
            ("http://example.com".to_owned(), false)
        );
        assert_eq!(
            with_scheme("mailto:someone@example.com"),
            ("mailto:someone@example.com".to_owned(), false)
        );
    }

    #[test]
    fn an_invalid_selector_is_a_usage_error_naming_it() {
        let e = check_selector(Some("div >")).unwrap_err();
        assert!(
            e.0.starts_with("invalid --selector: \"div >\" is not a valid CSS selector"),
            "{e}"
        );
        assert!(check_selector(Some(".infobox")).is_ok());
        assert!(check_selector(None).is_ok());
    }
}
