//! The `polyc` binary: parse the command line, run the driver, print, exit.
//! `polyc bench …` is a subcommand with its own arguments; anything else is
//! `polyc FILE.c …` (a file named `bench` is `./bench`).

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

/// polyc's exact arithmetic makes and drops hundreds of thousands of
/// small rows a run (the Omega test's, the simplex's): with glibc's
/// allocator that was about 40% of a scheduling run's instructions.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let mut args = std::env::args_os();
    let first = args.nth(1);
    let outcome = if first.as_deref() == Some(std::ffi::OsStr::new("bench")) {
        // `polyc bench` is the program name for clap's usage and errors.
        let argv = std::iter::once("polyc bench".into()).chain(args);
        polyc::cli::bench_driver::run(&polyc::cli::BenchCli::parse_from(argv))
    } else {
        polyc::cli::driver::run(&polyc::cli::Cli::parse())
    };
    let _ = std::io::stdout().write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    ExitCode::from(u8::try_from(outcome.status).unwrap_or(2))
}
