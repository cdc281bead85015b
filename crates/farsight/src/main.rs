//! The `farsight` binary: parse, run, turn the outcome into an exit code.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // clap prints usage errors itself and exits with 2.
    let cli = farsight::Cli::parse();
    match farsight::run(cli) {
        Ok(code) => code,
        Err(err) => {
            // `{:#}` prints the whole cause chain on one line.
            eprintln!("farsight: {err:#}");
            if err.downcast_ref::<farsight::UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
