//! The random differential tester (issue 13, item 19).
//!
//! Each case applies 1–6 random directives (every directive kind; βs,
//! depths and arguments read from the schedule after each step, mostly
//! plausible, sometimes not; a `context` only as a promise the kernel's
//! run keeps, from the parameter values a build of the original prints,
//! `differential/params.rs`) to one region of one kernel
//! (`tests/kernels/*.c`, `recipes/**/*.c`), and classifies the outcome
//! (see `differential/check.rs`): accepted → compiled with gcc and clang
//! (`-O1 -fopenmp -Wall -Wextra -Werror`, clang's build under
//! `-fsanitize=bounds`, gcc's under ASan), run, output byte-identical to the original; refused for a dependence → the witness pair really is out
//! of order on the refused schedule's dates; refused for a precondition →
//! the diagnostic sits on the call and names it. Anything else is a failure,
//! minimised (directives dropped one at a time while the class persists)
//! and written as a `.poly` reproducer.
//!
//! Modes:
//! * `cargo test differential::`: a seeded run of 100 cases (CI; about
//!   two and a half minutes in the dev profile on a loaded two-core
//!   machine), and one of 60 cases on 40 random kernels that
//!   `tools/random_kernels.py` writes (python3).
//! * `POLYC_DIFF_CASES=100000 POLYC_DIFF_SEED=7 cargo test --release --test
//!   integration differential::random -- --nocapture`: the long mode. `POLYC_DIFF_OUT=DIR`
//!   says where reproducers go (default: under `target/tmp`); use
//!   `tests/regressions/pending` to keep them. `POLYC_DIFF_VERBOSE=1`
//!   prints every verdict (with its last directive, a CUDA verdict with
//!   the whole sequence); `POLYC_DIFF_KERNEL=modulo` keeps the kernels
//!   whose path contains `modulo` (to aim a run at a new code shape),
//!   `POLYC_DIFF_KIND=context` draws that directive kind a third of the
//!   time (to aim it at a new directive); `POLYC_DIFF_KERNELS=DIR` takes
//!   the kernels from `DIR` instead (the random kernels that
//!   `tools/random_kernels.py` writes: shapes nobody wrote by hand);
//!   `POLYC_DIFF_PARTIAL=1` prints every partial explanation's reason
//!   and the directives it explains; `POLYC_DIFF_LONG=1` every complete
//!   explanation over 1.5× the sequence's length, beside the sequence.
//!   `POLYC_DIFF_FIRST=K` starts at case K: a case depends only on the
//!   seed, its number and the kernels (so on the commit), so shards
//!   `FIRST=0 CASES=50000` and `FIRST=50000 CASES=50000` of one seed on
//!   one commit are one run of 100,000 cases, split over cores or resumed
//!   after an interruption. `POLYC_DIFF_NO_RUN=1` prints each accepted
//!   program but neither compiles nor runs it (`accepted-not-run`): a
//!   hunt for polyc's own failures (panics, timeouts, explanations, code
//!   generation errors) at several times the speed, blind to
//!   miscompiles.
//! * `POLYC_DIFF_REGRESSIONS=tests/regressions/slow cargo test --release
//!   differential::every_regression`: the slow reproducers (not in CI).
//!
//! Counts by class are printed at the end, and each `refused-step-limit`
//! case as it comes (`limit: case …`): a right refusal, but one worth a
//! look on a small kernel. `tests/regressions/*.poly`
//! (reproducers of fixed bugs) are replayed and must pass the checker;
//! `tests/regressions/pending/` holds those whose fix has not landed.

use crate::common;
mod check;
mod generate;
mod params;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use check::{minimise, read_recipe_file, recipe_text, replay, run_case, Kernel};
use generate::Rng;

/// Cases of the seeded run in `cargo test` (about two minutes in the dev
/// profile on two cores).
const DEFAULT_CASES: usize = 100;
const DEFAULT_SEED: u64 = 13;
/// Random kernels written for CI's run on them, and its cases (about a
/// minute in the dev profile on two cores).
const RANDOM_KERNELS: usize = 40;
const RANDOM_KERNEL_CASES: usize = 60;
/// Reproducers written per failure class, at most.
const KEEP_PER_CLASS: usize = 12;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// The kernels of `paths` with a region, and why each of the others
/// could not be loaded (polyc's front end or dependence analysis failed
/// on it: a failure, reported once the cases on the rest have run).
fn load_kernels(paths: Vec<PathBuf>) -> (Vec<Arc<Kernel>>, Vec<String>) {
    let mut unloaded = Vec::new();
    let kernels = paths
        .into_iter()
        // A 1024³ gemm is a benchmark, not a test input.
        .filter(|k| !k.ends_with("gemm-1024.c"))
        .filter(|k| {
            std::env::var("POLYC_DIFF_KERNEL")
                .map_or(true, |only| k.to_string_lossy().contains(only.as_str()))
        })
        .filter_map(|k| match Kernel::load(&k) {
            Ok(kernel) => Some(Arc::new(kernel)),
            Err(e) => {
                unloaded.push(format!("cannot load {}: {e}", k.display()));
                None
            }
        })
        .filter(|k| !k.file.scops.is_empty())
        .collect();
    (kernels, unloaded)
}

#[test]
fn random_directive_sequences_are_accepted_identical_or_rightly_refused() {
    let paths = match std::env::var("POLYC_DIFF_KERNELS") {
        Ok(dir) => common::c_files_under(Path::new(&dir)),
        Err(_) => common::all_kernels(),
    };
    let cases = env_number("POLYC_DIFF_CASES", DEFAULT_CASES as u64) as usize;
    let seed = env_number("POLYC_DIFF_SEED", DEFAULT_SEED);
    let (kernels, unloaded) = load_kernels(paths);
    random_run(kernels, unloaded, cases, seed, "differential-found");
}

/// The same on kernels nobody wrote: `tools/random_kernels.py` (seed
/// [`DEFAULT_SEED`]) writes [`RANDOM_KERNELS`] of them, and
/// [`RANDOM_KERNEL_CASES`] cases run on them (CI; the long mode is
/// `POLYC_DIFF_KERNELS=DIR` on the main test). Needs `python3`.
#[test]
fn random_sequences_on_random_kernels_are_accepted_identical_or_rightly_refused() {
    let dir = common::scratch("random-kernels");
    let written = std::process::Command::new("python3")
        .args(["tools/random_kernels.py", "--seed"])
        .arg(DEFAULT_SEED.to_string())
        .arg("--count")
        .arg(RANDOM_KERNELS.to_string())
        .arg("--out")
        .arg(&dir)
        .status();
    match written {
        Ok(status) if status.success() => {}
        other => panic!("tools/random_kernels.py (python3) did not write the kernels: {other:?}"),
    }
    let (kernels, unloaded) = load_kernels(common::c_files_under(&dir));
    assert_eq!(
        kernels.len() + unloaded.len(),
        RANDOM_KERNELS,
        "every random kernel is a scop"
    );
    random_run(
        kernels,
        unloaded,
        RANDOM_KERNEL_CASES,
        DEFAULT_SEED,
        "random-kernels-found",
    );
}

/// `cases` random cases from case `POLYC_DIFF_FIRST` on `kernels`; a
/// failure's reproducer goes to `POLYC_DIFF_OUT`, else to `found` under
/// the target's scratch folder. The kernels polyc could not load
/// (`unloaded`) are failures too.
fn random_run(
    kernels: Vec<Arc<Kernel>>,
    unloaded: Vec<String>,
    cases: usize,
    seed: u64,
    found: &str,
) {
    for line in &unloaded {
        eprintln!("{line}");
    }
    let first = env_number("POLYC_DIFF_FIRST", 0) as usize;
    let out_dir = std::env::var("POLYC_DIFF_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_TARGET_TMPDIR")).join(found));
    let verbose = std::env::var_os("POLYC_DIFF_VERBOSE").is_some();
    assert!(!kernels.is_empty(), "no kernel to test");
    let started = std::time::Instant::now();
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut kept: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut failures = unloaded;
    for case in first..first + cases {
        let mut rng = Rng::new(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ case as u64);
        let kernel = &kernels[rng.below(kernels.len())];
        let region = kernel.file.scops[rng.below(kernel.file.scops.len())].region;
        let count = rng.range(1, 6) as usize;
        let plan = check::Plan::Random {
            seed: rng.next_u64(),
            count,
        };
        for (directives, verdict) in run_case(kernel, region, plan) {
            *counts.entry(verdict.class).or_default() += 1;
            if verbose {
                // A CUDA verdict judges the whole sequence (its mappings,
                // its packs): all of it; others their last directive.
                let shown = match verdict.class.contains("cuda") {
                    true => directives.join(" "),
                    false => directives.last().cloned().unwrap_or_default(),
                };
                eprintln!(
                    "case {case} {}: {shown}: {}",
                    verdict.class,
                    verdict.detail.lines().next().unwrap_or_default()
                );
            }
            // A step limit is a right refusal (nothing decided, no code),
            // but on a small kernel it may hide an analysis or a scan
            // that grows without need (seed 102's empty pieces): shown so
            // that a run names what to look at.
            if verdict.class == "refused-step-limit" {
                eprintln!(
                    "limit: case {case} on {} (scop {region}): {}\n    {}",
                    kernel.path,
                    directives.join(" "),
                    verdict.detail.lines().next().unwrap_or_default()
                );
            }
            if !verdict.is_failure() {
                continue;
            }
            let minimal = if verdict.class == "timeout" {
                directives.clone()
            } else {
                minimise(kernel, region, &directives, verdict.class)
            };
            let text = recipe_text(&kernel.path, region, Some(verdict.class), &minimal);
            let seen = kept.entry(verdict.class.to_string()).or_default();
            let body = recipe_text(&kernel.path, region, None, &minimal);
            if seen.contains(&body) {
                continue;
            }
            seen.push(body);
            let n = seen.len();
            let mut line = format!(
                "case {case}: {} on {} (scop {region}): {}\n    {}",
                verdict.class,
                kernel.path,
                minimal.join(" "),
                verdict
                    .detail
                    .lines()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join("\n    ")
            );
            if n <= KEEP_PER_CLASS {
                let file = out_dir.join(format!("{}-{n}.poly", verdict.class));
                let written =
                    std::fs::create_dir_all(&out_dir).and_then(|_| std::fs::write(&file, &text));
                match written {
                    Ok(()) => line.push_str(&format!("\n    kept as {}", file.display())),
                    Err(e) => line.push_str(&format!("\n    cannot write {}: {e}", file.display())),
                }
            }
            eprintln!("{line}");
            failures.push(line);
        }
        if (case + 1 - first).is_multiple_of(100) {
            eprintln!(
                "{} cases in {:.0?} (cases {first}..={case}): {counts:?}",
                case + 1 - first,
                started.elapsed()
            );
        }
    }
    let mut summary = format!(
        "differential: {cases} cases (seed {seed}, from case {first}) in {:.1?}\n",
        started.elapsed()
    );
    for (class, n) in &counts {
        let tag = if check::PASSING.contains(class) {
            ""
        } else {
            "  FAILURE"
        };
        summary.push_str(&format!("  {class:32} {n}{tag}\n"));
    }
    summary.push_str(&format!("  {}\n", check::explain_stats::summary()));
    summary.push_str(&format!(
        "  programs run with parallel constructs as functions: {}\n",
        check::OUTLINED.load(std::sync::atomic::Ordering::Relaxed)
    ));
    println!("{summary}");
    eprintln!("{summary}");
    assert!(
        failures.is_empty(),
        "{} distinct failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every reproducer under `tests/regressions/` (not `pending/`) now passes
/// the checker: accepted and identical, or rightly refused.
/// `tests/regressions/*.poly`, or those of `POLYC_DIFF_REGRESSIONS=DIR`
/// (`tests/regressions/slow`: reproducers whose programs run for seconds
/// or compile for minutes and, on a loaded machine, past the tester's
/// limit).
#[test]
fn every_regression_passes_the_checker() {
    let dir =
        std::env::var("POLYC_DIFF_REGRESSIONS").unwrap_or_else(|_| "tests/regressions".to_string());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "poly"))
                .collect()
        })
        .unwrap_or_else(|e| panic!("{dir}: {e}"));
    files.sort();
    assert!(!files.is_empty(), "no reproducer under {dir}");
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let Some((kernel, region, directives)) = read_recipe_file(&text) else {
            failures.push(format!("{}: no `# kernel:` line", f.display()));
            continue;
        };
        let kernel = match Kernel::load(Path::new(&kernel)) {
            Ok(k) => Arc::new(k),
            Err(e) => {
                failures.push(format!("{}: {e}", f.display()));
                continue;
            }
        };
        if let Some(v) = replay(&kernel, region, &directives) {
            failures.push(format!("{}: {}: {}", f.display(), v.class, v.detail));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
