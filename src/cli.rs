//! The command line (DESIGN §8), parsed by clap.

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// C with OpenMP pragmas (the default)
    Openmp,
    /// plain C, no pragmas
    C,
    /// CUDA host and kernel code
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

const EXAMPLES: &str = "\
Examples:
  polyc recipes/gemm/gemm.c                        re-emit the kernel's scop regions
  polyc kernel.c --emit scop                       print the program model as JSON
  polyc kernel.c --emit deps-text                  list the dependences, one per line
  polyc kernel.c --recipe tune.poly -o out.c       apply a recipe, write OpenMP C
  polyc kernel.c --recipe tune.poly --set T=64     override a recipe variable
  polyc kernel.c --recipe search.rhai              run a scripted recipe (docs/scripting.md)";

/// polyc: a polyhedral loop-transformation compiler for C kernels.
#[derive(Clone, Debug, Parser)]
#[command(name = "polyc", version, about, after_help = EXAMPLES)]
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
    /// Print the final schedule as a recipe that replays it
    #[arg(long)]
    pub explain: bool,
    /// Load a schedule (JSON) instead of a recipe
    #[arg(long, value_name = "FILE.json")]
    pub schedule: Option<PathBuf>,
    /// Apply the recipe to scop region N only (1-based)
    #[arg(long = "scop", value_name = "N")]
    pub scop: Option<usize>,
    /// With a .rhai script: stop it after N operations (0: no limit)
    #[arg(
        long = "max-operations",
        value_name = "N",
        default_value_t = 100_000_000
    )]
    pub max_operations: u64,
    /// With a .rhai script: stop it after SECONDS of wall-clock time (0: no limit)
    #[arg(long = "time-limit", value_name = "SECONDS", default_value_t = 60.0)]
    pub time_limit: f64,
}
