//! What `polyc bench` does, as a library function like [`crate::cli::driver::run`]:
//! read the file, get the transformed program from the driver (the same
//! code `polyc FILE --recipe R` prints), time both with [`crate::cli::bench`],
//! and print the result as text or JSON.

use std::fs;
use std::path::Path;

use crate::cli::bench::{compare, BenchError, BenchOptions, BenchReport, Program, Timing};
use crate::cli::driver::{self, Outcome};
use crate::cli::{BenchCli, Cli, Target};

/// Run `polyc bench` on already-parsed arguments.
pub fn run(cli: &BenchCli) -> Outcome {
    let name = cli.file.display().to_string();
    let original = match fs::read(&cli.file) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(_) => return usage(format!("{name}: not UTF-8 text")),
        },
        Err(e) => return usage(format!("cannot read {name}: {e}")),
    };
    let generated = driver::run(&Cli {
        file: cli.file.clone(),
        recipe: cli.recipe.clone(),
        target: Target::Openmp,
        output: None,
        set: cli.set.clone(),
        emit: None,
        rar: false,
        explain: false,
        schedule: cli.schedule.clone(),
        sizes: None,
        dump_sizes: false,
        scop: None,
        max_operations: crate::cli::DEFAULT_MAX_OPERATIONS,
        time_limit: crate::cli::DEFAULT_TIME_LIMIT_S,
    });
    if generated.status != 0 {
        return Outcome {
            status: generated.status,
            stdout: String::new(),
            stderr: generated.stderr,
        };
    }
    let opts = options(cli);
    // The sources are compiled from a temporary directory: the file's own
    // directory is searched for its `#include "…"` headers.
    let mut build = opts.clone();
    let dir = match cli.file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    build.cflags.insert(0, format!("-I{}", dir.display()));
    match compare(&original, &generated.stdout, &build) {
        Ok(report) => {
            let mut out = outcome(cli, &opts, &report);
            out.stderr.insert_str(0, &generated.stderr);
            out
        }
        Err(e) => Outcome {
            status: exit_status(&e),
            stdout: String::new(),
            stderr: format!("{}{}", generated.stderr, error_text(cli, &e)),
        },
    }
}

/// The options the arguments ask for: `--cc`, else `$CC`, else `cc`;
/// `--cflags` split at white space.
pub fn options(cli: &BenchCli) -> BenchOptions {
    let mut opts = BenchOptions::from_env();
    opts.runs = cli.runs;
    if let Some(cc) = cli.cc.as_ref().filter(|c| !c.trim().is_empty()) {
        opts.cc = cc.trim().to_string();
    }
    opts.cflags = cli.cflags.split_whitespace().map(str::to_string).collect();
    opts
}

fn usage(msg: String) -> Outcome {
    Outcome {
        status: 2,
        stdout: String::new(),
        stderr: format!("error: {msg}\n"),
    }
}

/// A missing compiler or an I/O error is the environment's (2); a program
/// that does not build or run is the input's (1).
fn exit_status(e: &BenchError) -> i32 {
    match e {
        BenchError::CompilerNotFound { .. } | BenchError::Io { .. } => 2,
        BenchError::CompileFailed { .. } | BenchError::RunFailed { .. } => 1,
    }
}

/// `polyc FILE [--recipe R] …`: the command that prints the transformed program.
fn transform_command(cli: &BenchCli) -> String {
    let mut words = vec!["polyc".to_string(), cli.file.display().to_string()];
    if let Some(r) = &cli.recipe {
        words.push(format!("--recipe {}", r.display()));
    }
    for s in &cli.set {
        words.push(format!("--set {s}"));
    }
    if let Some(s) = &cli.schedule {
        words.push(format!("--schedule {}", s.display()));
    }
    words.join(" ")
}

fn error_text(cli: &BenchCli, e: &BenchError) -> String {
    let mut s = format!("error: {e}\n");
    match e {
        BenchError::CompilerNotFound { .. } => {
            s.push_str("help: install a C compiler, set $CC, or pass --cc\n");
        }
        BenchError::CompileFailed {
            program: Program::Transformed,
            ..
        }
        | BenchError::RunFailed {
            program: Program::Transformed,
            ..
        } => s.push_str(&format!(
            "note: the transformed program is what `{}` prints\n",
            transform_command(cli)
        )),
        _ => {}
    }
    s
}

#[derive(serde::Serialize)]
struct ReportJson<'a> {
    file: String,
    recipe: Option<String>,
    set: &'a [String],
    schedule: Option<String>,
    runs: usize,
    cc: &'a str,
    cflags: &'a [String],
    original: &'a Timing,
    transformed: &'a Timing,
    speedup: f64,
    outputs_match: bool,
    mismatch: Option<&'a str>,
}

/// The printed result of a measurement: the timings (text or JSON) on
/// stdout; with a mismatch, also `error: outputs differ` and the first
/// differing lines on stderr, and status 1.
pub fn outcome(cli: &BenchCli, opts: &BenchOptions, report: &BenchReport) -> Outcome {
    let stdout = if cli.json {
        let json = ReportJson {
            file: cli.file.display().to_string(),
            recipe: cli.recipe.as_ref().map(|r| r.display().to_string()),
            set: &cli.set,
            schedule: cli.schedule.as_ref().map(|s| s.display().to_string()),
            runs: opts.runs,
            cc: &opts.cc,
            cflags: &opts.cflags,
            original: &report.original,
            transformed: &report.transformed,
            speedup: report.speedup,
            outputs_match: report.mismatch.is_none(),
            mismatch: report.mismatch.as_deref(),
        };
        let mut s = serde_json::to_string_pretty(&json).unwrap_or_default();
        s.push('\n');
        s
    } else {
        text(report)
    };
    match &report.mismatch {
        None => Outcome {
            status: 0,
            stdout,
            stderr: String::new(),
        },
        Some(lines) => Outcome {
            status: 1,
            stdout,
            stderr: format!(
                "error: outputs differ\n{lines}note: the transformed program is what `{}` prints\n",
                transform_command(cli)
            ),
        },
    }
}

fn text(report: &BenchReport) -> String {
    let time = |label: &str, t: &Timing| {
        format!(
            "{label:<11} {:>7.3} ms  (median of {})\n",
            t.median_s * 1e3,
            t.runs_s.len()
        )
    };
    let mut s = time("original", &report.original);
    s.push_str(&time("transformed", &report.transformed));
    s.push_str(&format!(
        "{:<11} {:>7}\n",
        "speedup",
        format!("{:.2}x", report.speedup)
    ));
    s.push_str(match report.mismatch {
        None => "outputs match\n",
        Some(_) => "outputs differ\n",
    });
    s
}
