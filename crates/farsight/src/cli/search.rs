//! `farsight search`: the flags (or a `→ search` directive) as a request,
//! the answer in the chosen format.

use std::process::ExitCode;

use anyhow::Context;

use super::UsageError;
use super::args::{DateRangeArg, DepthArg, OnOffArg, SearchArgs, SearchOutputArg, TopicArg};
use super::commands::write_stdout;
use crate::config::Config;
use crate::context::{
    looks_like_directive, parse_directive, render_compact, render_directive_answer, render_full,
    render_search_error,
};
use crate::service::{CallOptions, Service};
use farsight_search::{
    DateRange, ErrorKind, ProviderChoice, SearchDepth, SearchRequest, SearchType, Topic,
};

/// How the answer is printed.
enum Output {
    Compact,
    Full,
    Json,
    /// The `→ search` directive's return format.
    Directive,
}

pub(super) async fn search(mut config: Config, args: SearchArgs) -> anyhow::Result<ExitCode> {
    super::commands::without_cache_if(&mut config, args.no_cache);
    let directive = looks_like_directive(&args.query);
    let (request, output) = request_of(&args, directive)?;
    let service = Service::new(config).map_err(|e| UsageError(format!("{e:#}")))?;
    let outcome = service
        .web_search(&request, CallOptions::default().bypass_cache(args.no_cache))
        .await;
    let output = output.unwrap_or(if directive {
        Output::Directive
    } else if request.wants_content() {
        Output::Full
    } else {
        Output::Compact
    });
    match outcome {
        Ok(answer) => {
            let text = match output {
                Output::Json => {
                    serde_json::to_string_pretty(&answer).context("cannot encode the answer")?
                        + "\n"
                }
                Output::Compact => render_compact(&answer),
                Output::Full => render_full(&answer),
                Output::Directive => {
                    let depth = if request.wants_content() {
                        SearchDepth::Deep
                    } else {
                        SearchDepth::Basic
                    };
                    render_directive_answer(&answer, depth)
                }
            };
            write_stdout(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            if matches!(output, Output::Json) {
                write_stdout(
                    &(serde_json::to_string_pretty(&error).context("cannot encode the answer")?
                        + "\n"),
                )?;
            } else {
                eprint!("{}", render_search_error(&error));
            }
            // A query that cannot be searched is the caller's to fix, like a
            // bad flag (2); a search that failed is the tool's failure (1).
            Ok(if error.kind() == ErrorKind::InvalidQuery {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            })
        }
    }
}

/// The request the command line describes: the directive's options (when
/// QUERY is one), with the flags laid over them.
fn request_of(
    args: &SearchArgs,
    directive: bool,
) -> Result<(SearchRequest, Option<Output>), UsageError> {
    let mut r = if directive {
        parse_directive(&args.query).map_err(|e| UsageError(e.to_string()))?
    } else {
        SearchRequest::new(args.query.clone())
    };
    if args.max_results.is_some() {
        r.max_results = args.max_results;
    }
    if args.site.is_some() {
        r.site.clone_from(&args.site);
    }
    r.include_domains
        .extend(args.include_domains.iter().cloned());
    r.exclude_domains
        .extend(args.exclude_domains.iter().cloned());
    if let Some(d) = args.date_range {
        r.date_range = Some(match d {
            DateRangeArg::Day => DateRange::Day,
            DateRangeArg::Week => DateRange::Week,
            DateRangeArg::Month => DateRange::Month,
            DateRangeArg::Year => DateRange::Year,
        });
    }
    if let Some(s) = args.safe_search {
        r.safe_search = Some(s == OnOffArg::On);
    }
    if let Some(t) = args.topic {
        r.topic = match t {
            TopicArg::General => Topic::General,
            TopicArg::News => Topic::News,
        };
    }
    if let Some(p) = &args.provider {
        r.provider = Some(ProviderChoice::One(p.clone()));
    }
    if args.images {
        r.search_type = SearchType::Images;
    }
    if args.country.is_some() {
        r.country.clone_from(&args.country);
    }
    if args.language.is_some() {
        r.language.clone_from(&args.language);
    }
    if let Some(d) = args.depth {
        r.depth = match d {
            DepthArg::Basic => SearchDepth::Basic,
            DepthArg::Deep => SearchDepth::Deep,
        };
    }
    if let Some(n) = args.max_content_tokens {
        r.max_content_tokens = Some(usize::try_from(n).unwrap_or(usize::MAX));
    }
    let output = if args.json {
        Some(Output::Json)
    } else {
        args.output.map(|o| match o {
            SearchOutputArg::Compact => Output::Compact,
            SearchOutputArg::Full => Output::Full,
            SearchOutputArg::Json => Output::Json,
        })
    };
    Ok((r, output))
}
