//! The `polyc` binary: parse the command line, run the driver, print, exit.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = polyc::cli::Cli::parse();
    let outcome = polyc::driver::run(&cli);
    let _ = std::io::stdout().write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    ExitCode::from(u8::try_from(outcome.status).unwrap_or(2))
}
