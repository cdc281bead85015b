//! The command line: its definition (clap) and what each subcommand does.

mod args;
mod cache;
mod commands;
mod fetch_many;
mod providers;
mod search;

pub use args::{
    Cli, Command, CompletionsArgs, DateRangeArg, DepthArg, ExtractArgs, FetchArgs, FormatArg,
    McpArgs, OnOffArg, ProvidersArgs, SearchArgs, SearchOutputArg, TopicArg,
};
pub use cache::{CacheArgs, CacheCommand};
pub use commands::run;

/// An error in how farsight was called or configured (exit code 2), as
/// opposed to a tool that ran and failed (exit code 1).
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}
