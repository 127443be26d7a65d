//! Helpers shared by the integration tests: run polyc in-process, compile and
//! run C with the system compiler.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Parser;
use polyc::cli::Cli;
use polyc::driver::{run, Outcome};

/// Run polyc with these arguments (without the program name).
pub fn polyc(args: &[&str]) -> Outcome {
    let mut all = vec!["polyc"];
    all.extend_from_slice(args);
    match Cli::try_parse_from(all) {
        Ok(cli) => run(&cli),
        Err(e) => Outcome {
            status: 2,
            stdout: String::new(),
            stderr: e.to_string(),
        },
    }
}

/// The kernels under `tests/kernels`, sorted.
pub fn kernels() -> Vec<PathBuf> {
    c_files_under(Path::new("tests/kernels"))
}

/// Every kernel polyc must handle: `tests/kernels` and the recipe library.
pub fn all_kernels() -> Vec<PathBuf> {
    let mut v = kernels();
    v.extend(c_files_under(Path::new("recipes")));
    v
}

/// The `.c` files under `dir`, recursively, sorted.
fn c_files_under(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return v;
    };
    for p in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if p.is_dir() {
            v.extend(c_files_under(&p));
        } else if p.extension().is_some_and(|x| x == "c") {
            v.push(p);
        }
    }
    v.sort();
    v
}

/// A scratch directory for one test, emptied first.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Compile `src` with `gcc -O2 -Wall -Werror` into `exe`; the compiler's
/// complaint on failure.
pub fn compile(src: &Path, exe: &Path) -> Result<(), String> {
    let out = Command::new("gcc")
        .args(["-O2", "-Wall", "-Werror", "-o"])
        .arg(exe)
        .arg(src)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run gcc: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Run a compiled program, returning its stdout.
pub fn execute(exe: &Path) -> Result<String, String> {
    let out = Command::new(exe)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if !out.status.success() {
        return Err(format!("{} exited with {}", exe.display(), out.status));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
