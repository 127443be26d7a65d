//! Timing a program against its transformed version: both C translation
//! units are compiled with the system C compiler in a temporary directory
//! (removed when [`compare`] returns, on error too), run alternately, timed
//! by the wall clock around each child process, and their standard outputs
//! compared byte for byte.
//!
//! This module knows C compilers and processes, nothing of the model,
//! recipes or the CLI: [`crate::cli::bench_driver`] turns a file and a recipe
//! into the two sources and prints the [`BenchReport`].

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// How to build and run the two programs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchOptions {
    /// How many times each program runs (at least once).
    pub runs: usize,
    /// The C compiler: a program name, optionally followed by arguments
    /// separated by white space (`ccache gcc`).
    pub cc: String,
    /// Flags given after the source file, so `-lm` links.
    pub cflags: Vec<String>,
}

/// The flags [`BenchOptions::from_env`] uses.
pub const DEFAULT_CFLAGS: [&str; 4] = ["-O3", "-march=native", "-fopenmp", "-lm"];

/// How many runs [`BenchOptions::from_env`] asks for.
pub const DEFAULT_RUNS: usize = 5;

impl BenchOptions {
    /// 5 runs; `cc` is `$CC` when set and not blank, else `cc`; the flags are
    /// `-O3 -march=native -fopenmp -lm`.
    pub fn from_env() -> BenchOptions {
        let cc = std::env::var("CC")
            .ok()
            .filter(|c| !c.trim().is_empty())
            .unwrap_or_else(|| "cc".to_string());
        BenchOptions {
            runs: DEFAULT_RUNS,
            cc,
            cflags: DEFAULT_CFLAGS.iter().map(|f| f.to_string()).collect(),
        }
    }
}

/// The wall-clock times of one program's runs, in seconds, in run order.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Timing {
    pub median_s: f64,
    pub runs_s: Vec<f64>,
}

/// What [`compare`] measured.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    pub original: Timing,
    pub transformed: Timing,
    /// original median / transformed median
    pub speedup: f64,
    /// None when outputs are byte-identical; else a readable excerpt of the first differing lines
    pub mismatch: Option<String>,
}

/// Which of the two programs an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Program {
    Original,
    Transformed,
}

impl Program {
    /// `original` or `transformed`, also the stem of its files.
    pub fn name(self) -> &'static str {
        match self {
            Program::Original => "original",
            Program::Transformed => "transformed",
        }
    }
}

/// Why [`compare`] could not measure.
#[derive(Debug)]
pub enum BenchError {
    /// The compiler could not be started (`cc` is the command as given).
    CompilerNotFound { cc: String, error: std::io::Error },
    /// The compiler rejected a program; `command` is the command line, with
    /// the files named `original.c` / `transformed.c`.
    CompileFailed {
        program: Program,
        command: String,
        stderr: String,
    },
    /// A program could not be started, crashed or exited non-zero;
    /// `status` says which, `stderr` is what it printed there.
    RunFailed {
        program: Program,
        run: usize,
        status: String,
        stderr: String,
    },
    /// The temporary directory or a file in it.
    Io { what: String, error: std::io::Error },
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::CompilerNotFound { cc, error } => {
                write!(f, "cannot run the C compiler `{cc}`: {error}")
            }
            BenchError::CompileFailed {
                program,
                command,
                stderr,
            } => {
                write!(
                    f,
                    "the {} program does not compile\n  command: {command}",
                    program.name()
                )?;
                write_excerpt(f, "compiler output", stderr)
            }
            BenchError::RunFailed {
                program,
                run,
                status,
                stderr,
            } => {
                write!(f, "the {} program {status} (run {run})", program.name())?;
                write_excerpt(f, "its stderr", stderr)
            }
            BenchError::Io { what, error } => write!(f, "cannot {what}: {error}"),
        }
    }
}

impl std::error::Error for BenchError {}

/// At most this many lines of a compiler's or program's stderr are shown.
const STDERR_LINES: usize = 20;

fn write_excerpt(f: &mut fmt::Formatter<'_>, title: &str, text: &str) -> fmt::Result {
    let text = text.trim_end();
    if text.is_empty() {
        return Ok(());
    }
    write!(f, "\n  {title}:")?;
    let lines: Vec<&str> = text.lines().collect();
    for line in lines.iter().take(STDERR_LINES) {
        write!(f, "\n    {line}")?;
    }
    if lines.len() > STDERR_LINES {
        write!(f, "\n    … {} more lines", lines.len() - STDERR_LINES)?;
    }
    Ok(())
}

/// Build both C sources (whole translation units with main), run them alternately opts.runs times, compare stdout.
///
/// Each round runs the original, then the transformed program; `runs` 0 is
/// taken as 1. The outputs of every round are compared, and the first
/// round whose outputs differ gives [`BenchReport::mismatch`]; timing goes
/// on to the end either way. A program that fails to compile, crashes or
/// exits non-zero is an error. The work files live in a temporary
/// directory that is removed before this returns.
pub fn compare(
    original_c: &str,
    transformed_c: &str,
    opts: &BenchOptions,
) -> Result<BenchReport, BenchError> {
    let dir = tempfile::Builder::new()
        .prefix("polyc-bench-")
        .tempdir()
        .map_err(|error| BenchError::Io {
            what: "create a temporary directory".to_string(),
            error,
        })?;
    let original = build(dir.path(), Program::Original, original_c, opts)?;
    let transformed = build(dir.path(), Program::Transformed, transformed_c, opts)?;
    let runs = opts.runs.max(1);
    let (mut t_orig, mut t_new) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    let mut mismatch = None;
    for run in 1..=runs {
        let (a, ta) = execute(&original, Program::Original, run)?;
        let (b, tb) = execute(&transformed, Program::Transformed, run)?;
        t_orig.push(ta);
        t_new.push(tb);
        if mismatch.is_none() {
            mismatch = first_differences(&a, &b).map(|d| {
                if run == 1 {
                    d
                } else {
                    format!("in run {run} (earlier runs matched):\n{d}")
                }
            });
        }
    }
    let original = timing(t_orig);
    let transformed = timing(t_new);
    let speedup = original.median_s / transformed.median_s;
    // Dropping `dir` removes the work files (as on the early returns above).
    drop(dir);
    Ok(BenchReport {
        original,
        transformed,
        speedup,
        mismatch,
    })
}

fn timing(runs_s: Vec<f64>) -> Timing {
    Timing {
        median_s: median(&runs_s),
        runs_s,
    }
}

/// The median (the mean of the middle two for an even count); 0 when empty.
pub fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The compiler command: `cc`'s words, the source, `-o exe`, the flags.
fn compile_command(opts: &BenchOptions, src: &Path, exe: &Path) -> (String, Command) {
    let mut words = opts.cc.split_whitespace();
    let program = words.next().unwrap_or("cc");
    let mut cmd = Command::new(program);
    cmd.args(words)
        .arg(src)
        .arg("-o")
        .arg(exe)
        .args(&opts.cflags);
    let shown = std::iter::once(opts.cc.trim().to_string())
        .chain([file_name(src), "-o".to_string(), file_name(exe)])
        .chain(opts.cflags.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    (shown, cmd)
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Write `<name>.c` into `dir` and compile it to `<name>`.
fn build(
    dir: &Path,
    program: Program,
    text: &str,
    opts: &BenchOptions,
) -> Result<PathBuf, BenchError> {
    let src = dir.join(format!("{}.c", program.name()));
    let exe = dir.join(program.name());
    std::fs::write(&src, text).map_err(|error| BenchError::Io {
        what: format!("write {}", src.display()),
        error,
    })?;
    let (shown, mut cmd) = compile_command(opts, &src, &exe);
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|error| BenchError::CompilerNotFound {
            cc: opts.cc.trim().to_string(),
            error,
        })?;
    if !out.status.success() {
        return Err(BenchError::CompileFailed {
            program,
            command: shown,
            // The files are gone when this is read: name them as `shown` does.
            stderr: String::from_utf8_lossy(&out.stderr)
                .replace(&format!("{}/", dir.display()), ""),
        });
    }
    Ok(exe)
}

/// Run `exe` once: its stdout and the wall-clock seconds it took.
fn execute(exe: &Path, program: Program, run: usize) -> Result<(Vec<u8>, f64), BenchError> {
    let mut cmd = Command::new(exe);
    cmd.stdin(Stdio::null());
    let start = Instant::now();
    let out = cmd.output();
    let seconds = start.elapsed().as_secs_f64();
    let out = out.map_err(|e| BenchError::RunFailed {
        program,
        run,
        status: format!("could not be started: {e}"),
        stderr: String::new(),
    })?;
    if !out.status.success() {
        return Err(BenchError::RunFailed {
            program,
            run,
            status: describe_exit(&out.status),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    Ok((out.stdout, seconds))
}

fn describe_exit(status: &std::process::ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exited with status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("was killed by signal {sig}");
        }
    }
    format!("ended abnormally ({status})")
}

/// At most this many differing lines are shown by [`first_differences`].
pub const SHOWN_DIFFERENCES: usize = 3;

/// At most this many characters of a line are shown.
const LINE_CHARS: usize = 120;

/// `None` when the two outputs are byte-identical; else the first
/// differing lines (1-based numbers, the original's text, then the
/// transformed one's; a missing line reads `(end of output)`), at most
/// [`SHOWN_DIFFERENCES`] of them, and how many more there are.
pub fn first_differences(original: &[u8], transformed: &[u8]) -> Option<String> {
    if original == transformed {
        return None;
    }
    let a: Vec<&[u8]> = split_lines(original);
    let b: Vec<&[u8]> = split_lines(transformed);
    let mut out = String::new();
    let mut differing = 0usize;
    for k in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(k), b.get(k));
        if x == y {
            continue;
        }
        differing += 1;
        if differing <= SHOWN_DIFFERENCES {
            out.push_str(&format!(
                "line {}:\n  original:    {}\n  transformed: {}\n",
                k + 1,
                shown_line(x),
                shown_line(y)
            ));
        }
    }
    if differing == 0 {
        // Same lines, different bytes: only the final newline differs.
        out.push_str("the outputs differ only in the newline at the end\n");
    } else if differing > SHOWN_DIFFERENCES {
        let more = differing - SHOWN_DIFFERENCES;
        out.push_str(&format!(
            "… and {more} more differing line{}\n",
            if more == 1 { "" } else { "s" }
        ));
    }
    Some(out)
}

/// Lines without their `\n`; a final newline ends the last line rather
/// than starting an empty one.
fn split_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    if bytes.is_empty() {
        return Vec::new();
    }
    body.split(|&c| c == b'\n').collect()
}

fn shown_line(line: Option<&&[u8]>) -> String {
    let Some(line) = line else {
        return "(end of output)".to_string();
    };
    // A carriage return is shown, or two lines could read the same.
    let text = String::from_utf8_lossy(line).replace('\r', "\\r");
    if text.chars().count() > LINE_CHARS {
        let cut: String = text.chars().take(LINE_CHARS).collect();
        format!("{cut}…")
    } else {
        text.to_string()
    }
}
