//! The command line (DESIGN §8): its arguments, parsed by clap (here);
//! the binary's logic as library functions that return status, stdout and
//! stderr, so that tests run it in-process ([`driver`] for `polyc FILE`,
//! [`bench_driver`] for `polyc bench`); and compiling and timing C
//! programs ([`bench`]). `main.rs` only prints and exits.
//!
//! The top layer: it may use every other module; none uses it.

pub mod bench;
pub mod bench_driver;
pub mod driver;

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// C with OpenMP pragmas (the default)
    Openmp,
    /// plain C, no pragmas
    C,
    /// CUDA host and kernel code (docs/cuda.md)
    Cuda,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Emit {
    /// the program model as JSON
    Scop,
    /// the dependences as JSON
    Deps,
    /// the dependences, readably
    DepsText,
    /// the schedule as JSON
    Schedule,
    /// the schedule, readably
    ScheduleText,
}

/// A script's operation limit when `--max-operations` is not given.
pub const DEFAULT_MAX_OPERATIONS: u64 = 100_000_000;

/// A script's time limit (seconds) when `--time-limit` is not given.
pub const DEFAULT_TIME_LIMIT_S: f64 = 60.0;

const EXAMPLES: &str = "\
Examples:
  polyc recipes/gemm/gemm.c                        re-emit the kernel's scop regions
  polyc kernel.c --emit scop                       print the program model as JSON
  polyc kernel.c --emit deps-text                  list the dependences, one per line
  polyc kernel.c --recipe tune.poly -o out.c       apply a recipe, write OpenMP C
  polyc kernel.c --recipe tune.poly --set T=64     override a recipe variable
  polyc kernel.c --recipe search.rhai              run a scripted recipe (docs/scripting.md)
  polyc bench kernel.c --recipe tune.poly          compare speed and output with the original";

/// polyc: a polyhedral loop-transformation compiler for C kernels.
#[derive(Clone, Debug, Parser)]
#[command(
    name = "polyc",
    version,
    about,
    after_help = EXAMPLES,
    override_usage = "polyc [OPTIONS] <FILE>\n       polyc bench [OPTIONS] <FILE>   (see `polyc bench --help`)"
)]
pub struct Cli {
    /// The C file; its `#pragma scop` … `#pragma endscop` regions are transformed
    pub file: PathBuf,
    /// A recipe of loop directives (.poly) or a script (.rhai)
    #[arg(long, value_name = "R")]
    pub recipe: Option<PathBuf>,
    /// What to print
    #[arg(long, value_enum, default_value = "openmp")]
    pub target: Target,
    /// Write the output here instead of stdout (nothing is written on error)
    #[arg(short = 'o', value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Override a recipe variable
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Print the model instead of code
    #[arg(long, value_enum)]
    pub emit: Option<Emit>,
    /// With `--emit deps` or `--emit deps-text`: also read-after-read dependences
    #[arg(long)]
    pub rar: bool,
    /// Print the final schedule as a recipe that replays it (docs/explain.md)
    #[arg(long)]
    pub explain: bool,
    /// Load a schedule (JSON) instead of a recipe
    #[arg(long, value_name = "FILE.json")]
    pub schedule: Option<PathBuf>,
    /// With `--target cuda`: each kernel's block and grid sizes from this
    /// file, in the form `--dump-sizes` prints
    #[arg(long, value_name = "FILE.json")]
    pub sizes: Option<PathBuf>,
    /// With `--target cuda`: print each kernel's block and grid sizes (JSON)
    /// instead of code
    #[arg(long = "dump-sizes")]
    pub dump_sizes: bool,
    /// Apply the recipe to scop region N only (1-based)
    #[arg(long = "scop", value_name = "N")]
    pub scop: Option<usize>,
    /// With a .rhai script: stop it after N operations (0: no limit)
    #[arg(
        long = "max-operations",
        value_name = "N",
        default_value_t = DEFAULT_MAX_OPERATIONS
    )]
    pub max_operations: u64,
    /// With a .rhai script: stop it after SECONDS of wall-clock time (0: no limit)
    #[arg(long = "time-limit", value_name = "SECONDS", default_value_t = DEFAULT_TIME_LIMIT_S)]
    pub time_limit: f64,
}

const BENCH_EXAMPLES: &str = "\
Examples:
  polyc bench recipes/gemm/gemm.c --recipe recipes/gemm/gemm.poly
  polyc bench kernel.c --recipe tune.poly --set T=64 --runs 11 --json
  polyc bench kernel.c --cc clang --cflags \"-O2 -fopenmp -lm\"

Exit status: 0 the outputs match; 1 they differ (the first differing lines on
stderr), a program does not compile, crashes or exits non-zero, or polyc
rejects the input or the recipe; 2 a usage or I/O error, or no C compiler.";

/// polyc bench: build the original program and the transformed one with the
/// system C compiler, run both alternately, check that they print the same
/// thing, and print the median time of each and the speedup.
///
/// Without --recipe (or --schedule) the transformed program is polyc's
/// identity code: each region regenerated from its original schedule.
#[derive(Clone, Debug, Parser)]
#[command(name = "polyc bench", version, after_help = BENCH_EXAMPLES)]
pub struct BenchCli {
    /// The C program (a whole translation unit with `main`) whose scop regions are transformed
    pub file: PathBuf,
    /// A recipe of loop directives (.poly); without one, the original schedule is regenerated
    #[arg(long, value_name = "R")]
    pub recipe: Option<PathBuf>,
    /// Override a recipe variable
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Load a schedule (JSON) instead of a recipe
    #[arg(long, value_name = "FILE.json")]
    pub schedule: Option<PathBuf>,
    /// How many times each program runs
    #[arg(
        long,
        value_name = "N",
        default_value_t = crate::cli::bench::DEFAULT_RUNS,
        value_parser = parse_runs
    )]
    pub runs: usize,
    /// The C compiler [default: $CC, else cc]
    #[arg(long, value_name = "CC")]
    pub cc: Option<String>,
    /// Compiler flags, separated by white space; they replace the default
    /// (keep -fopenmp for the parallel loops, and -lm if the program needs it)
    #[arg(
        long,
        value_name = "FLAGS",
        allow_hyphen_values = true,
        default_value_t = crate::cli::bench::DEFAULT_CFLAGS.join(" ")
    )]
    pub cflags: String,
    /// Print the result as JSON
    #[arg(long)]
    pub json: bool,
}

/// `--runs N`: a whole number, at least 1.
fn parse_runs(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a whole number of runs, at least 1".to_string()),
    }
}
