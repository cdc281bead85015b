//! `farsight fetch URL URL...`: several pages printed in order, each under
//! a header naming its URL.

use std::process::ExitCode;

use anyhow::Context;

use super::args::FormatArg;
use super::commands::write_stdout;
use crate::render;
use crate::service::FetchManyResponse;

/// Prints the answers of several pages: the JSON of the whole answer, or for
/// a person each page under its header, all on stdout so that the order
/// holds (a failed page's error too). Exit code 1 only when every page
/// failed, as the tool's `isError`.
pub(super) fn print_answers(
    answers: &FetchManyResponse,
    format: FormatArg,
    json: bool,
) -> anyhow::Result<ExitCode> {
    if json {
        let mut text = serde_json::to_string_pretty(answers).context("cannot encode the answer")?;
        text.push('\n');
        write_stdout(&text)?;
    } else if format == FormatArg::Markdown {
        write_stdout(&render::fetch_many_text(answers, |_| {
            "--start-index".to_owned()
        }))?;
    } else {
        // Text and HTML: each page's content as extracted, its notes after it.
        let mut out = String::new();
        if let Some(message) = &answers.message {
            out.push_str(&format!("Note: {message}\n\n"));
        }
        let n = answers.results.len();
        for (i, page) in answers.results.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&render::page_header(i, n, &page.url));
            if page.is_error() {
                out.push_str(&render::fetch_text(page, "--start-index"));
            } else {
                out.push_str(&render::fetch_content(page));
                out.push_str(&render::fetch_notes(page, "--start-index"));
            }
        }
        write_stdout(&out)?;
    }
    Ok(if answers.is_error() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
