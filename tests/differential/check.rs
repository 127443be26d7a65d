//! The differential checker: applies a directive sequence to one region of a
//! kernel in-process (`session::step`) and classifies the outcome.
//!
//! * accepted: the schedule is checked again from scratch
//!   (`first_violation`), checked to run every instance exactly once
//!   (`first_not_run_once`) and to read back from its JSON form, and
//!   explained (`explain::explain`; with
//!   data-layout calls, `polyc --explain`, which keeps them around the
//!   explanation; an explanation that fails is a failure, a partial one
//!   is counted), polyc's output (`driver::run`, as the CLI prints
//!   it) is compiled with gcc and clang (`-O1 -fopenmp -Wall -Wextra
//!   -Werror`) and run; its output must be byte-identical to the original
//!   kernel's under the same compiler (gcc's `-Wmaybe-uninitialized`
//!   alone is checked by a run under MemorySanitizer instead: see
//!   [`MSAN_FLAGS`]);
//! * refused for a dependence: the witness pair is in the dependence
//!   relation, each instance lies in a piece of its statement, and on the
//!   dates of the schedule that was refused (`apply::rewrite`, evaluated
//!   exactly at the witness point) the target is not after the source (for
//!   a mark: both run in the same iteration of the enclosing loops and in
//!   different iterations of the marked one; for `unroll_jam`, whose
//!   jammed schedule is built and checked inside its rewrite, the pair and
//!   its reported dates);
//! * refused for a precondition: the diagnostic's primary span lies in the
//!   call and it names the directive;
//! * refused by code generation for a reason only it sees: a constant
//!   beyond a C `int`, exact arithmetic past 64 bits, an Omega test past
//!   its work limit, or a `collapse` over loops that are not a perfect
//!   rectangular nest;
//! * anything else (a panic, a code generation error, a compiler warning or
//!   error, a different output, a crash, more than 10 s of processor time)
//!   is a failure.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::os::unix::process::CommandExt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use polyc::apply::{apply, rewrite, ApplyError};
use polyc::lang::c::{read_source, SourceFile};
use polyc::lang::recipe::{parse_recipe, Call};
use polyc::poly::{with_work_limit, BasicMap, Constraint, PolyError, Set};
use polyc::scop::exactly_once::first_not_run_once;
use polyc::scop::validity::{first_violation, Violation};
use polyc::scop::{dependences, DepOptions, Dependence, Schedule};
use polyc::session::table::to_data_directive;
use polyc::session::table::{directive_names, lookup};
use polyc::session::{step, step_group, to_directive, RecipeError, RecipeState, CALL_WORK_LIMIT};
use polyc::syntax::diagnostic::Diagnostic;

use super::generate::{random_directive, Rng};

/// A case whose in-process part (every step, every refusal's check and the
/// CLI's run) uses more processor time than this is a failure. Processor
/// time, not the wall clock: beside a build the testers, at `nice 19`, get
/// a few percent of a core, and `auto(pluto)` on adi (0.8 s alone) took
/// more than 10 s of wall time (seed 52).
pub const CASE_LIMIT: Duration = Duration::from_secs(10);

/// The wall-clock limit of a case's in-process part, for a thread that
/// waits without computing.
const CASE_WALL_LIMIT: Duration = Duration::from_secs(600);

/// How much processor time a compiled program may use. A timeout is there
/// to catch a loop that does not end; a legal recipe may still make the
/// program much slower than the original (`parallelize` on a 4-iteration
/// loop inside 250,000 others: 7 s on two loaded cores, against 0.1 s),
/// which is the recipe's cost, not a defect. The limit counts the
/// program's own processor time, not the wall clock: on cores shared with
/// other jobs, a program with a small parallel loop spends most of its
/// wall time waiting for its second thread to be scheduled (fusion3,
/// seeds 41 and 42: past 60 s of wall time beside a build; 0.1 s of
/// wall time alone, 1.5 to 3 s beside two testers, using at most 2 s of
/// processor time).
const RUN_CPU_LIMIT: Duration = Duration::from_secs(60);

/// The wall-clock limit, for a program that waits without computing.
const RUN_WALL_LIMIT: Duration = Duration::from_secs(600);

/// Compiler flags for the original kernels and polyc's output. Both
/// builds check accesses: a statement run outside its domain may read out
/// of bounds without changing what the program prints (seed 26 read past
/// a row of `A` and printed the same numbers under gcc). clang's
/// `-fsanitize=bounds` catches an index past an array dimension (`A[i][n]`
/// too, which stays inside `A`; it caught seed 26), gcc's
/// AddressSanitizer an access outside any array. Every original kernel
/// runs clean under both. The other pairings cost too much compile time:
/// gcc with ASan and bounds took 29 s on 36 KB of unrolled cholesky,
/// clang with ASan 17 s on 11 KB of unrolled doitgen; these take 3.6 s
/// and 2.8 s at most.
///
/// Both with `-ffp-contract=off`, as every build of the tests
/// (`common::GENERATED_FLAGS` says why).
const GCC_FLAGS: &[&str] = &[
    "-O1",
    "-ffp-contract=off",
    "-fopenmp",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-fsanitize=address",
];
/// clang's `-Wpass-failed` (an `omp simd` loop it did not vectorise) is a
/// missed optimisation, not invalid output; clang before 17 needs its
/// interleaved accesses off (LLVM issue 63602); `-Warray-bounds` flags
/// constant indices in branches for parameter values the arrays are not
/// sized for: see `common::CLANG_GENERATED_FLAGS`. The bounds checks
/// are built recoverable and stop the run at the first report at run time
/// (`UBSAN_OPTIONS=halt_on_error=1`, [`run_limited`]): clang 14 built
/// with `-fno-sanitize-recover` takes the trap for the loop's exit and
/// vectorises an `omp simd` loop of `j <= i` inside an `omp parallel for`
/// past `i` (seed 5151's syrk copy loop, `d0[i][j] = C[i][j]`, reported
/// index 24 of `C[24]`; the same loop with a recoverable check, under
/// clang 19 or gcc's ASan runs clean, and so does a manual check of `j`).
/// Loop strength reduction is off: with the bounds checks in, clang 14
/// spent 82 of its 88 s in that pass on 51 KB of register-tiled gemm that
/// it compiles in 1.9 s without them (seed 3535, `tests/regressions/s3535-timeout-1.poly`;
/// 2.9 s with the pass off). The pass only rewrites induction variables,
/// which no check here reads.
const CLANG_FLAGS: &[&str] = &[
    "-O1",
    "-ffp-contract=off",
    "-fopenmp",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wno-pass-failed",
    "-Wno-array-bounds",
    "-mllvm",
    "-enable-interleaved-mem-accesses=false",
    "-mllvm",
    "-disable-lsr",
    "-fsanitize=bounds",
];

/// The outcome of one check: a class name and what was seen.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub class: &'static str,
    pub detail: String,
}

/// The classes that are not failures.
pub const PASSING: &[&str] = &[
    "accepted-identical",
    "accepted-identical-recheck-gave-up",
    "refused-dependence-witness-ok",
    "refused-carried-witness-ok",
    "refused-precondition",
    "refused-unproven",
    "refused-jam-witness-pair-ok",
    "refused-jam-carried-witness-pair-ok",
    "refused-beyond-int",
    "refused-overflow",
    "refused-step-limit",
    "refused-collapse-nest",
    "refused-group-witness-ok",
    "refused-group-carried-witness-ok",
    "refused-group-jam-witness-pair-ok",
    "refused-group-jam-carried-witness-pair-ok",
    "refused-cuda-mapping",
    "refused-cuda-pack",
    "cuda-identical",
    "refused-data-changed",
    "refused-data-dependence",
    "refused-data-precondition",
    "accepted-not-run",
];

/// Whether `POLYC_DIFF_NO_RUN` is set: accepted programs are printed but
/// not compiled or run (`accepted-not-run`), so that a run finds polyc's
/// own failures (panics, timeouts, explanations, code generation
/// errors) several times faster; miscompiles and invalid output need
/// the full mode.
fn no_run() -> bool {
    std::env::var_os("POLYC_DIFF_NO_RUN").is_some()
}

impl Verdict {
    fn new(class: &'static str, detail: impl Into<String>) -> Verdict {
        Verdict {
            class,
            detail: detail.into(),
        }
    }

    pub fn is_failure(&self) -> bool {
        !PASSING.contains(&self.class)
    }
}

/// A kernel file, read once, with its regions' dependences and the
/// original program's output under each compiler (computed on first use).
pub struct Kernel {
    pub path: String,
    pub file: SourceFile,
    pub deps: Vec<Vec<Dependence>>,
    original: Mutex<Option<Result<[String; 2], String>>>,
    /// Hashes (and lengths) of generated programs already compiled, run
    /// and found identical: random sequences often print the same program
    /// (a `parallelize` mark, a shift undone), and a case's time is mostly
    /// the two compilers'.
    identical: Mutex<HashSet<(u64, usize)>>,
    /// Per region, the parameter vectors the original runs it with
    /// ([`super::params::observed`]), read when a `context` is first
    /// drawn on the kernel.
    params: Mutex<Option<Vec<Vec<Vec<i64>>>>>,
}

impl Kernel {
    pub fn load(path: &Path) -> Result<Kernel, String> {
        let name = path.to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
        let file = read_source(&name, text).map_err(|d| format!("{name}: {}", d.message))?;
        let deps = file
            .scops
            .iter()
            .map(|s| dependences(s, &DepOptions::default()).map_err(|e| format!("{name}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Kernel {
            path: name,
            file,
            deps,
            original: Mutex::new(None),
            identical: Mutex::new(HashSet::new()),
            params: Mutex::new(None),
        })
    }

    /// The parameter vectors the original runs region `region` (1-based)
    /// with; none where they could not be read (a `context` drawn then
    /// holds for any value).
    pub fn parameter_values(&self, region: usize) -> Vec<Vec<i64>> {
        let Ok(mut slot) = self.params.lock() else {
            return Vec::new();
        };
        if slot.is_none() {
            let read = tempfile::tempdir()
                .map_err(|e| e.to_string())
                .and_then(|dir| super::params::observed(&self.file, dir.path()));
            *slot = Some(read.unwrap_or_default());
        }
        let index = self.file.scops.iter().position(|s| s.region == region);
        slot.as_ref()
            .zip(index)
            .and_then(|(all, k)| all.get(k).cloned())
            .unwrap_or_default()
    }

    /// The original kernel's output under gcc and under clang.
    fn original_output(&self, dir: &Path) -> Result<[String; 2], String> {
        let mut slot = self
            .original
            .lock()
            .map_err(|_| "poisoned lock".to_string())?;
        if slot.is_none() {
            *slot = Some(build_and_run(
                Path::new(&self.path),
                dir,
                "orig",
                Complaints::Tolerated,
            ));
        }
        slot.clone().unwrap_or_else(|| Err("no output".to_string()))
    }
}

/// What the in-process part of a case did.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// The directives accepted, in order.
    pub accepted: Vec<String>,
    /// Each refused directive: the sequence that reproduces it (the
    /// accepted ones before it, then it) and its verdict.
    pub refusals: Vec<(Vec<String>, Verdict)>,
    /// A failure of the accepted sequence found in-process (the schedule
    /// is illegal, a directive panicked, the CLI disagrees).
    pub failure: Option<Verdict>,
    /// polyc's output file for the accepted sequence.
    pub generated: Option<String>,
    /// The processor time the case's thread used, where it could be read.
    pub processor_time: Option<Duration>,
    /// Whether the from-scratch check of the accepted schedule gave up at
    /// its work limit (the output is then the only check).
    pub recheck_gave_up: bool,
}

/// How the directives of a case are chosen.
#[derive(Clone, Debug)]
pub enum Plan {
    /// `count` random directives from this seed; a refused one is checked,
    /// then left out, and generation goes on.
    Random { seed: u64, count: usize },
    /// These directives in order, stopping at the first refusal (as the CLI).
    Fixed(Vec<String>),
}

/// The recipe file for `directives` on region `region` of `kernel`.
pub fn recipe_text(
    kernel: &str,
    region: usize,
    class: Option<&str>,
    directives: &[String],
) -> String {
    let mut s = format!("# kernel: {kernel}\n# scop: {region}\n");
    if let Some(c) = class {
        s.push_str(&format!("# class: {c}\n"));
    }
    for d in directives {
        s.push_str(d);
        s.push('\n');
    }
    s
}

/// Read a recipe file written by [`recipe_text`]: kernel, region, directives.
pub fn read_recipe_file(text: &str) -> Option<(String, usize, Vec<String>)> {
    let mut kernel = None;
    let mut region = 1;
    let mut directives = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(k) = line.strip_prefix("# kernel:") {
            kernel = Some(k.trim().to_string());
        } else if let Some(r) = line.strip_prefix("# scop:") {
            region = r.trim().parse().ok()?;
        } else if !line.is_empty() && !line.starts_with('#') {
            directives.push(line.to_string());
        }
    }
    Some((kernel?, region, directives))
}

/// The in-process part of a case, with the panic caught and the time
/// limited: a thread that uses more than `limit` of processor time (or runs
/// `CASE_WALL_LIMIT`; or `limit` of wall time where its processor time
/// cannot be read) is left behind and the case is a timeout.
pub fn in_process(kernel: Arc<Kernel>, region: usize, plan: Plan, limit: Duration) -> Trace {
    let (tx, rx) = mpsc::channel();
    // The thread's `/proc/…/stat`, published by the thread itself.
    let (stat_tx, stat_rx) = mpsc::channel::<Option<PathBuf>>();
    // The directives being tried, kept outside the thread: a panic or a
    // timeout still says which sequence caused it.
    let progress: Arc<Mutex<Vec<String>>> = Arc::default();
    let shared = Arc::clone(&progress);
    let spawned = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let stat = std::fs::read_link("/proc/thread-self")
                .ok()
                .map(|task| Path::new("/proc").join(task).join("stat"));
            let _ = stat_tx.send(stat.clone());
            let result = catch_unwind(AssertUnwindSafe(|| {
                let mut trace = run_plan(&kernel, region, &plan, &shared);
                trace.processor_time = stat.as_deref().and_then(processor_time);
                trace
            }));
            let _ = tx.send(result.map_err(|p| panic_text(p.as_ref())));
        });
    if let Err(e) = spawned {
        return Trace {
            failure: Some(Verdict::new("harness", format!("cannot spawn: {e}"))),
            ..Trace::default()
        };
    }
    let stat = stat_rx.recv_timeout(limit).ok().flatten();
    let start = Instant::now();
    let result = loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let wall = start.elapsed();
                let over = match stat.as_deref().and_then(processor_time) {
                    Some(cpu) => cpu > limit || wall > CASE_WALL_LIMIT,
                    None => wall > limit,
                };
                if over {
                    break Err(mpsc::RecvTimeoutError::Timeout);
                }
            }
            other => break other,
        }
    };
    let tried = progress.lock().map(|p| p.clone()).unwrap_or_default();
    let failed = |v: Verdict| Trace {
        accepted: tried.clone(),
        failure: Some(v),
        ..Trace::default()
    };
    match result {
        Ok(Ok(trace)) => trace,
        Ok(Err(message)) => failed(Verdict::new("panic", message)),
        Err(mpsc::RecvTimeoutError::Timeout) => failed(Verdict::new(
            "timeout",
            format!(
                "polyc used more than {} s of processor time (or ran {} s)",
                limit.as_secs(),
                CASE_WALL_LIMIT.as_secs()
            ),
        )),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            failed(Verdict::new("panic", "the case's thread died"))
        }
    }
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

fn run_plan(kernel: &Kernel, region: usize, plan: &Plan, progress: &Mutex<Vec<String>>) -> Trace {
    let note = |sequence: &[String]| {
        if let Ok(mut p) = progress.lock() {
            *p = sequence.to_vec();
        }
    };
    let mut trace = Trace::default();
    let Some(k) = kernel.file.scops.iter().position(|s| s.region == region) else {
        trace.failure = Some(Verdict::new("harness", format!("no region {region}")));
        return trace;
    };
    let scop = &kernel.file.scops[k];
    let deps = &kernel.deps[k];
    let mut state = RecipeState::new(scop, deps, Schedule::original(scop));
    let (mut rng, count, fixed) = match plan {
        Plan::Random { seed, count } => (Rng::new(*seed), *count, None),
        Plan::Fixed(d) => (Rng::new(0), d.len(), Some(d)),
    };
    for n in 0..count {
        let text = match fixed {
            Some(d) => d[n].clone(),
            None => {
                let observed = || kernel.parameter_values(region);
                random_directive(
                    &mut rng,
                    &state.scop,
                    &state.schedule,
                    &trace.accepted,
                    &observed,
                )
            }
        };
        let mut sequence = trace.accepted.clone();
        sequence.push(text.clone());
        note(&sequence);
        let recipe = match parse_recipe(&sequence.join("\n"), &[]) {
            Ok(r) => r,
            Err(d) => {
                let v = Verdict::new("recipe-parse", format!("{text}: {}", d.message));
                trace.refusals.push((sequence, v));
                if fixed.is_some() {
                    return trace;
                }
                continue;
            }
        };
        let Some(call) = recipe.calls.last() else {
            continue;
        };
        let before = state.clone();
        if let Some(group) = &call.group {
            let calls: Vec<Call> = recipe
                .calls
                .iter()
                .filter(|c| c.group.as_ref() == Some(group))
                .cloned()
                .collect();
            match step_group(&mut state, &calls, group) {
                Ok(_) => trace.accepted.push(text),
                Err(e) => {
                    let v = check_group_refusal(&before, &calls, e);
                    trace.refusals.push((sequence, v));
                    if fixed.is_some() {
                        return trace;
                    }
                }
            }
            continue;
        }
        match step(&mut state, call) {
            Ok(_) => trace.accepted.push(text),
            Err(e) => {
                let v = check_refusal(&before, call, e);
                trace.refusals.push((sequence, v));
                if fixed.is_some() {
                    return trace;
                }
            }
        }
    }
    if trace.accepted.is_empty() {
        return trace;
    }
    note(&trace.accepted);
    // The accepted schedule, checked again from scratch.
    match first_violation(&state.scop, &state.schedule, &state.deps) {
        Ok(None) => {}
        Ok(Some(v)) => {
            trace.failure = Some(Verdict::new(
                "accepted-illegal",
                v.describe(&state.scop, &state.deps),
            ));
            return trace;
        }
        // The check from scratch gave up (the Omega test's work limit)
        // where polyc's own checks did not: a directive that keeps the
        // order (`stripmine` of a wavefront's loop) is not proven again
        // whole. The program's output is still compared.
        Err(PolyError::StepLimit(_)) => trace.recheck_gave_up = true,
        Err(e) => {
            trace.failure = Some(Verdict::new("accepted-unchecked", e.to_string()));
            return trace;
        }
    }
    // Every instance run exactly once (what a loaded schedule is checked
    // for; directives keep it by construction, and a rewrite that drops or
    // repeats an instance breaks no dependence the check above reads).
    match first_not_run_once(&state.scop, &state.schedule) {
        Ok(None) => {}
        Ok(Some(bad)) => {
            trace.failure = Some(Verdict::new("accepted-not-once", bad.describe(&state.scop)));
            return trace;
        }
        Err(PolyError::StepLimit(_)) => trace.recheck_gave_up = true,
        Err(e) => {
            trace.failure = Some(Verdict::new("accepted-unchecked", e.to_string()));
            return trace;
        }
    }
    // The schedule's JSON form (`--emit schedule`, `--schedule`) reads back
    // to the same schedule.
    let json = state.schedule.to_json(&state.scop);
    match Schedule::from_json(&json, &state.scop) {
        Ok(back) if same_schedule(&back, &state.schedule) => {}
        Ok(back) => {
            trace.failure = Some(Verdict::new(
                "json-round-trip",
                format!(
                    "wrote\n{}read back\n{}",
                    state.schedule.to_text(&state.scop),
                    back.to_text(&state.scop)
                ),
            ));
            return trace;
        }
        Err(e) => {
            trace.failure = Some(Verdict::new("json-round-trip", e.to_string()));
            return trace;
        }
    }
    // The accepted schedule explained (`--explain`'s recovery), the
    // explanation replayed and compared inside `explain`. With data-layout
    // calls, as `--explain` explains it: the calls kept around the
    // explanation of the others (docs/explain.md), where the program they
    // rewrote has no original order a recipe starts from.
    let with_layout = trace.accepted.iter().any(|t| {
        t.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(polyc::session::table::is_data_directive)
    });
    let explained = match with_layout {
        true => explained_by_cli(kernel, region, &trace.accepted),
        false => polyc::explain::explain(&state.scop, &state.deps, &state.schedule)
            .map(|e| explain_stats::record(&e, &kernel.path, &trace.accepted))
            .map_err(|e| e.to_string()),
    };
    if let Err(e) = explained {
        trace.failure = Some(Verdict::new("explain-failed", e));
        return trace;
    }
    // What the CLI prints for this recipe.
    match cli_output(kernel, region, &trace.accepted) {
        Ok(c) => trace.generated = Some(c),
        Err(v) => trace.failure = Some(v),
    }
    trace
}

/// Whether `a` and `b` are the same schedule: the same marks, and piece
/// for piece the same β-vector (which an empty piece keeps too) and,
/// exactly, the same relation (the text may differ: a row without
/// variables prints as `true` and reads back as nothing; dates read back
/// are named by position).
fn same_schedule(a: &Schedule, b: &Schedule) -> bool {
    a.statements.len() == b.statements.len()
        && a.statements.iter().zip(&b.statements).all(|(x, y)| {
            x.marks == y.marks
                && x.pieces.len() == y.pieces.len()
                && (0..x.pieces.len()).all(|p| {
                    let (xp, yp) = (Set::from_basic(x.pieces[p].wrap()), y.pieces[p].wrap());
                    x.beta(p) == y.beta(p)
                        && (x.pieces[p] == y.pieces[p]
                            || Set::from_basic(yp)
                                .renamed(xp.space())
                                .and_then(|yp| xp.is_equal(&yp))
                                .unwrap_or(false))
                })
        })
}

/// `polyc --explain` on the accepted `directives`, its explanation
/// counted ([`explain_stats::record_printed`]); the CLI's complaint where
/// it fails (it checks the explanation's replay before printing it).
fn explained_by_cli(kernel: &Kernel, region: usize, directives: &[String]) -> Result<(), String> {
    let out = polyc_on(kernel, region, directives, &["--explain"])?;
    if out.status != 0 {
        return Err(format!("polyc --explain: {}", out.stderr));
    }
    explain_stats::record_printed(&out.stdout, &kernel.path, directives);
    Ok(())
}

/// The CLI run on region `region` of `kernel` with `directives` as its
/// recipe, and `args` after; a scratch folder or file that fails is the
/// error.
fn polyc_on(
    kernel: &Kernel,
    region: usize,
    directives: &[String],
    args: &[&str],
) -> Result<polyc::cli::driver::Outcome, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let recipe = dir.path().join("case.poly");
    std::fs::write(&recipe, recipe_text(&kernel.path, region, None, directives))
        .map_err(|e| e.to_string())?;
    let (recipe, region) = (recipe.to_string_lossy(), region.to_string());
    let mut all = vec![kernel.path.as_str(), "--recipe", &recipe, "--scop", &region];
    all.extend_from_slice(args);
    Ok(crate::common::polyc(&all))
}

fn cli_output(kernel: &Kernel, region: usize, directives: &[String]) -> Result<String, Verdict> {
    cli_output_for(kernel, region, directives, "openmp")
}

/// What the CLI prints for `--target target`.
fn cli_output_for(
    kernel: &Kernel,
    region: usize,
    directives: &[String],
    target: &str,
) -> Result<String, Verdict> {
    let out = polyc_on(kernel, region, directives, &["--target", target])
        .map_err(|e| Verdict::new("harness", e))?;
    // A packed loop's buffer where no block or thread owns it, or shared
    // buffers past a block's 48 KiB (docs/cuda.md).
    if out.status == 1
        && out.stderr.contains("CUDA code generation for scop region")
        && (out.stderr.contains("is packed in the loop at depth")
            || out.stderr.contains("the shared buffers of"))
    {
        return Err(Verdict::new("refused-cuda-pack", out.stderr));
    }
    // Mapped loops that do not nest as CUDA runs them (docs/cuda.md).
    if out.status == 1 && out.stderr.contains("CUDA code generation for scop region") {
        return Err(Verdict::new("refused-cuda-mapping", out.stderr));
    }
    // Directives compose: factors each within `int` may multiply past
    // it, which code generation refuses (docs/recipe-language.md).
    if out.status == 1 && out.stderr.contains("outside the range of a C `int`") {
        return Err(Verdict::new("refused-beyond-int", out.stderr));
    }
    // Or past 64 bits inside scanning's exact arithmetic (a `reshape` by
    // -1000 of a tiled lu: Fourier–Motzkin multiplies its coefficients),
    // refused, never wrapped (the same section of the docs).
    if out.status == 1
        && out
            .stderr
            .contains("integer overflow in polyhedral arithmetic")
    {
        return Err(Verdict::new("refused-overflow", out.stderr));
    }
    // Or past the Omega test's work limit (`poly::WORK_LIMIT`, or a call's
    // `session::CALL_WORK_LIMIT`):
    // nothing decided, so no code rather than a guess.
    if out.status == 1 && out.stderr.contains("gave up at a step limit") {
        return Err(Verdict::new("refused-step-limit", out.stderr));
    }
    // `collapse` needs a perfect rectangular nest, which only code
    // generation sees (docs/recipe-language.md).
    if out.status == 1 && out.stderr.contains("`collapse(") {
        return Err(Verdict::new("refused-collapse-nest", out.stderr));
    }
    if out.status != 0 {
        return Err(Verdict::new(
            "codegen-error",
            format!("exit {}: {}", out.status, out.stderr),
        ));
    }
    Ok(out.stdout)
}

/// Classify a refusal of the group `calls` on the state `before` it: at
/// one of its directives (checked as that directive's refusal on the
/// schedule the ones before it made), or at its end (the witness checked
/// on the schedule the whole group made).
fn check_group_refusal(before: &RecipeState, calls: &[Call], e: RecipeError) -> Verdict {
    let data = calls.iter().any(|c| {
        matches!(
            to_data_directive(c, &before.scop, &before.schedule),
            Ok(Some(_))
        )
    });
    if data {
        let span = calls[0].span.start..calls[calls.len() - 1].span.end;
        return data_refusal(&span, e);
    }
    let (inner, end) = with_work_limit(CALL_WORK_LIMIT, || {
        let mut inner = before.clone();
        for call in calls {
            let rewritten = to_directive(call, &inner.scop, &inner.schedule)
                .ok()
                .and_then(|d| rewrite(&inner.scop, &inner.deps, &inner.schedule, &d).ok());
            match rewritten {
                Some(next) => inner.schedule = next,
                None => return (inner, Some(call.clone())),
            }
        }
        (inner, None)
    })
    .0;
    if let Some(call) = end {
        return check_refusal(&inner, &call, e);
    }
    let diagnostic = match e {
        RecipeError::Rejected(d) => d,
        RecipeError::NotImplemented(what) => return Verdict::new("not-implemented", what),
    };
    let checked = with_work_limit(CALL_WORK_LIMIT, || {
        polyc::apply::check(&inner.scop, &inner.deps, &inner.schedule)
    })
    .0;
    match checked {
        Ok(()) => Verdict::new(
            "inconsistent",
            format!(
                "the group was refused, its schedule is legal: {}",
                diagnostic.message
            ),
        ),
        Err(ApplyError::Violation(v)) => match check_witness(before, &inner.schedule, &v, None) {
            Ok(()) => Verdict::new("refused-group-witness-ok", ""),
            Err(why) => Verdict::new("bad-witness", why),
        },
        Err(ApplyError::Carried {
            depth,
            jammed,
            violation,
        }) if jammed.is_empty() => {
            match check_witness(before, &inner.schedule, &violation, Some(depth)) {
                Ok(()) => Verdict::new("refused-group-carried-witness-ok", ""),
                Err(why) => Verdict::new("bad-witness", format!("carried at {depth}: {why}")),
            }
        }
        // Carried once an enclosing loop is jammed: the dates are the
        // jammed schedule's, checked as for one directive's refusal.
        Err(ApplyError::Carried {
            depth, violation, ..
        }) => match check_pair_carried(before, &violation, depth) {
            Ok(()) => Verdict::new("refused-group-jam-carried-witness-pair-ok", ""),
            Err(why) => Verdict::new("bad-witness", why),
        },
        Err(ApplyError::Jam { violation, .. }) => match check_pair(before, &violation) {
            Ok(()) => Verdict::new("refused-group-jam-witness-pair-ok", ""),
            Err(why) => Verdict::new("bad-witness", why),
        },
        Err(ApplyError::Precondition { .. }) => {
            Verdict::new("refused-precondition", diagnostic.message)
        }
        Err(ApplyError::Poly(e)) => Verdict::new("refused-unproven", e.to_string()),
        Err(ApplyError::Changed(_)) => Verdict::new(
            "inconsistent",
            "a group without data-layout directives was refused for what it computes".to_string(),
        ),
    }
}

/// Classify a refusal of `call` on the state `before` it.
fn check_refusal(before: &RecipeState, call: &Call, e: RecipeError) -> Verdict {
    if let Ok(Some(_)) = to_data_directive(call, &before.scop, &before.schedule) {
        return data_refusal(&call.span, e);
    }
    let diagnostic = match e {
        RecipeError::Rejected(d) => d,
        RecipeError::NotImplemented(what) => {
            return Verdict::new("not-implemented", what);
        }
    };
    // The same work limit as `step`'s, shared the same way, so that a
    // call it refused as unproven is refused here too.
    let (applied, _) = with_work_limit(CALL_WORK_LIMIT, || {
        to_directive(call, &before.scop, &before.schedule).map(|directive| {
            let applied = apply(&before.scop, &before.deps, &before.schedule, &directive);
            (directive, applied)
        })
    });
    let (directive, applied) = match applied {
        Ok(d) => d,
        // An argument refused before any rewrite: a precondition.
        Err(_) => return check_precondition(call, &diagnostic),
    };
    let error = match applied {
        Ok(_) => {
            return Verdict::new(
                "inconsistent",
                "step refused what apply accepts".to_string(),
            )
        }
        Err(e) => e,
    };
    match error {
        ApplyError::Changed(_) => Verdict::new(
            "inconsistent",
            "a schedule directive was refused for what the program computes".to_string(),
        ),
        ApplyError::Precondition { .. } => check_precondition(call, &diagnostic),
        ApplyError::Poly(e) => {
            if diagnostic.span != call.span {
                return Verdict::new("bad-diagnostic", format!("unproven, span elsewhere: {e}"));
            }
            Verdict::new("refused-unproven", e.to_string())
        }
        ApplyError::Violation(v) => {
            let refused = match rewrite(&before.scop, &before.deps, &before.schedule, &directive) {
                Ok(s) => s,
                // `unroll_jam` checks the schedule it would jam (strip-mined,
                // the point loop innermost) inside the rewrite: that schedule
                // is not public, so the pair and the reported dates are checked.
                Err(ApplyError::Violation(w)) if w == v => {
                    return match check_pair(before, &v) {
                        Ok(()) => Verdict::new("refused-jam-witness-pair-ok", ""),
                        Err(why) => Verdict::new("bad-witness", why),
                    };
                }
                Err(e) => {
                    return Verdict::new("inconsistent", format!("the rewrite now fails: {e:?}"))
                }
            };
            match check_witness(before, &refused, &v, None) {
                Ok(()) => Verdict::new("refused-dependence-witness-ok", ""),
                Err(why) => Verdict::new("bad-witness", why),
            }
        }
        // A later directive that breaks an earlier jam: the dates are the
        // jammed schedule's, which is not public, as for `unroll_jam` itself.
        ApplyError::Jam { violation, .. } => match check_pair(before, &violation) {
            Ok(()) => Verdict::new("refused-jam-witness-pair-ok", ""),
            Err(why) => Verdict::new("bad-witness", why),
        },
        // Carried once an enclosing loop is jammed: the dates are the jammed
        // schedule's, as for a jam.
        ApplyError::Carried {
            depth,
            jammed,
            violation,
        } if !jammed.is_empty() => match check_pair_carried(before, &violation, depth) {
            Ok(()) => Verdict::new("refused-jam-carried-witness-pair-ok", ""),
            Err(why) => Verdict::new("bad-witness", why),
        },
        ApplyError::Carried {
            depth, violation, ..
        } => {
            // A mark is checked on the rewritten schedule when there is
            // one, else (the mark's own check) on the schedule before.
            let schedule = rewrite(&before.scop, &before.deps, &before.schedule, &directive)
                .unwrap_or_else(|_| before.schedule.clone());
            match check_witness(before, &schedule, &violation, Some(depth)) {
                Ok(()) => Verdict::new("refused-carried-witness-ok", ""),
                Err(why) => Verdict::new("bad-witness", format!("carried at {depth}: {why}")),
            }
        }
    }
}

/// A refused data-layout directive (or a group holding one): by its
/// message, a changed result, a violated dependence of the rewritten
/// program, or a precondition; the diagnostic must lie on the calls or
/// their group (`span`: from the first call's start to the last's end, or
/// one call's). Accepted ones are what matters: they are compiled and run.
fn data_refusal(span: &std::ops::Range<usize>, e: RecipeError) -> Verdict {
    let d = match e {
        RecipeError::Rejected(d) => d,
        RecipeError::NotImplemented(what) => return Verdict::new("not-implemented", what),
    };
    // A group's diagnostic is on the group, which holds the calls.
    let near = d.span.start <= span.start && d.span.end >= span.end
        || d.span.start >= span.start && d.span.end <= span.end;
    if !near || d.message.is_empty() {
        return Verdict::new(
            "bad-diagnostic",
            format!(
                "span {:?} (calls {span:?}), message {:?}",
                d.span, d.message
            ),
        );
    }
    if d.message.contains("would change what the program computes") {
        Verdict::new("refused-data-changed", d.message)
    } else if d.message.contains("would violate") {
        Verdict::new("refused-data-dependence", d.message)
    } else {
        Verdict::new("refused-data-precondition", d.message)
    }
}

fn check_precondition(call: &Call, d: &Diagnostic) -> Verdict {
    // The primary span lies in the call (on it, or on one of its
    // arguments): the diagnostic points at the user's directive.
    let inside = d.span.start >= call.span.start && d.span.end <= call.span.end;
    // A message that starts with a directive's name (`stripmine: …`)
    // names the directive written (or its canonical name), not one it is
    // built on (`tile` on `stripmine`, `peel` on `iss`).
    let written = lookup(&call.name).map(|spec| spec.name);
    let named = d.message.split_once(": ").map(|(head, _)| head);
    let other = named
        .filter(|h| directive_names().any(|n| n == *h) && *h != call.name && Some(*h) != written);
    if let Some(other) = other {
        return Verdict::new(
            "bad-diagnostic",
            format!(
                "`{}` refused in the name of `{other}`: {}",
                call.name, d.message
            ),
        );
    }
    if inside && !d.message.is_empty() {
        Verdict::new("refused-precondition", d.message.clone())
    } else {
        Verdict::new(
            "bad-diagnostic",
            format!(
                "span {:?} (call {:?}), message {:?}, label {:?}",
                d.span, call.span, d.message, d.details.label
            ),
        )
    }
}

/// The witness is a pair of the dependence, each instance is dated by the
/// schedule `refused`, and the dates are out of order (`carried`: equal
/// outside the loop at that depth, different on it).
fn check_witness(
    before: &RecipeState,
    refused: &Schedule,
    v: &Violation,
    carried: Option<usize>,
) -> Result<(), String> {
    let dep = in_dependence(before, v)?;
    let ds = date_of(&refused.statements[dep.source].pieces, &v.params, &v.source)?;
    let dt = date_of(&refused.statements[dep.target].pieces, &v.params, &v.target)?;
    let len = ds.len().max(dt.len());
    let pad = |d: &[i64]| {
        let mut d = d.to_vec();
        d.resize(len, 0);
        d
    };
    let (ds, dt) = (pad(&ds), pad(&dt));
    match carried {
        None => {
            // date(target) <=lex date(source).
            if dt > ds {
                return Err(format!(
                    "in order after all: source date {ds:?}, target date {dt:?}"
                ));
            }
        }
        Some(depth) => {
            let alpha = 2 * depth - 1;
            if alpha >= len || ds[..alpha] != dt[..alpha] || ds[alpha] == dt[alpha] {
                return Err(format!(
                    "not carried at depth {depth}: source date {ds:?}, target date {dt:?}"
                ));
            }
        }
    }
    if pad(&v.source_date) != ds || pad(&v.target_date) != dt {
        return Err(format!(
            "reported dates {:?} / {:?}, evaluated {ds:?} / {dt:?}",
            v.source_date, v.target_date
        ));
    }
    Ok(())
}

/// The witness pair is in the dependence relation and its reported dates
/// are out of order (for a refusal whose schedule is not public).
fn check_pair(before: &RecipeState, v: &Violation) -> Result<(), String> {
    in_dependence(before, v)?;
    let len = v.source_date.len().max(v.target_date.len());
    let (mut ds, mut dt) = (v.source_date.clone(), v.target_date.clone());
    ds.resize(len, 0);
    dt.resize(len, 0);
    if dt > ds {
        return Err(format!("reported dates in order: {ds:?} before {dt:?}"));
    }
    Ok(())
}

/// The witness pair is in the dependence relation and its reported dates
/// are equal outside the loop at `depth` and different on it (for a
/// carried dependence found on a jammed schedule, which is not public).
fn check_pair_carried(before: &RecipeState, v: &Violation, depth: usize) -> Result<(), String> {
    in_dependence(before, v)?;
    let alpha = 2 * depth - 1;
    let (ds, dt) = (&v.source_date, &v.target_date);
    if alpha >= ds.len().min(dt.len()) || ds[..alpha] != dt[..alpha] || ds[alpha] == dt[alpha] {
        return Err(format!(
            "reported dates not carried at depth {depth}: {ds:?} / {dt:?}"
        ));
    }
    Ok(())
}

/// The witness's dependence, when the pair is one of its pairs.
fn in_dependence<'a>(before: &'a RecipeState, v: &Violation) -> Result<&'a Dependence, String> {
    let dep = before
        .deps
        .get(v.dependence)
        .ok_or_else(|| format!("dependence {} does not exist", v.dependence))?;
    let mut pair = v.source.clone();
    pair.extend_from_slice(&v.target);
    let mut in_relation = false;
    for b in dep.relation.basics() {
        if fixed_sample(b, &v.params, &pair)?.is_some() {
            in_relation = true;
            break;
        }
    }
    if !in_relation {
        return Err(format!(
            "({:?}, {:?}) at params {:?} is not a pair of the dependence",
            v.source, v.target, v.params
        ));
    }
    Ok(dep)
}

/// An integer point of `b` with its parameters and first dimensions fixed
/// to `params` and `dims` (the point's other columns after them), if any.
fn fixed_sample(b: &BasicMap, params: &[i64], dims: &[i64]) -> Result<Option<Vec<i64>>, String> {
    let n = b.n_cols();
    let mut fixed = b.clone();
    let values = params.iter().chain(dims);
    for (col, &value) in values.enumerate() {
        if col >= b.space().n_dim_total() {
            return Err("too many values for the relation".to_string());
        }
        let mut coeffs = vec![0; n];
        coeffs[col] = 1;
        fixed.add(Constraint::eq(coeffs, -value));
    }
    fixed.sample().map_err(|e| e.to_string())
}

/// The date of instance `iters` (at `params`) under a statement's pieces:
/// exactly one date, from every piece whose domain holds the instance.
fn date_of(pieces: &[BasicMap], params: &[i64], iters: &[i64]) -> Result<Vec<i64>, String> {
    let mut found: Option<Vec<i64>> = None;
    for piece in pieces {
        let Some(point) = fixed_sample(piece, params, iters)? else {
            continue;
        };
        let first = piece.space().n_param() + piece.space().n_in();
        let n_out = piece.space().n_out();
        let date = point[first..first + n_out].to_vec();
        // The date is a function of the instance: no other value of any
        // date dimension.
        for k in 0..n_out {
            for side in [1, -1] {
                let mut other = piece.clone();
                let mut coeffs = vec![0; piece.n_cols()];
                coeffs[piece.space().out_col(k)] = side;
                // side·(date_k − value) − 1 >= 0.
                other.add(Constraint::ineq(coeffs, -side * date[k] - 1));
                if fixed_sample(&other, params, iters)?.is_some() {
                    return Err(format!(
                        "instance {iters:?} has several dates in one piece (dimension {k})"
                    ));
                }
            }
        }
        match &found {
            Some(d) if *d != date => {
                return Err(format!(
                    "instance {iters:?} is in two pieces with dates {d:?} and {date:?}"
                ))
            }
            _ => found = Some(date),
        }
    }
    found.ok_or_else(|| format!("instance {iters:?} is in no piece of its statement"))
}

/// Which compiler complaints fail a build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Complaints {
    /// None: the original kernel, whose warnings are not polyc's.
    Tolerated,
    /// Every one: polyc's output.
    Fatal,
    /// Every one but gcc's `-Wmaybe-uninitialized`, which
    /// [`MSAN_FLAGS`] then checks.
    FatalButUninitialisedGuess,
}

/// gcc's `-Wmaybe-uninitialized` is a guess of its flow analysis, which
/// guarded code defeats: trisolv after `auto(pluto)` and an `iss` writes
/// `sum` under `if (c1 >= n + 1)` and reads it in loops that only run
/// then (seed 56), and gcc cannot relate the two. polyc's output that
/// draws only this complaint is built again with it as a warning, and
/// run under MemorySanitizer, which reports a read of a value never
/// written where the program makes one (with `param-retval`, also one
/// passed to `printf`). clang, and no OpenMP: its runtime is not
/// instrumented; the parallel builds are checked by the runs of the gcc
/// and clang builds as usual. `-O0`: at `-O1` LLVM folds a value that is
/// either unwritten or `x` to `x` (the read is undefined behaviour), and
/// the run then has no unwritten read to report.
const MSAN_FLAGS: &[&str] = &[
    "-O0",
    "-ffp-contract=off",
    "-Wno-unknown-pragmas",
    "-fsanitize=memory",
    "-fsanitize-memory-param-retval",
    "-fno-sanitize-recover=all",
];

/// Whether a compile error is gcc's `-Wmaybe-uninitialized` and nothing
/// else (clang accepted the file).
fn only_uninitialised_guess(error: &str) -> bool {
    let Some(gcc) = error.strip_prefix("compile: gcc: ") else {
        return false;
    };
    let mut guesses = 0;
    for line in gcc.lines() {
        if line.starts_with("clang: ") {
            return false;
        }
        if !line.contains("error:") || line.ends_with("all warnings being treated as errors") {
            continue;
        }
        if !line.ends_with("[-Werror=maybe-uninitialized]") {
            return false;
        }
        guesses += 1;
    }
    guesses > 0
}

/// Compile `src` with gcc and clang (at once) in `dir`, run both, and
/// return their outputs.
fn build_and_run(
    src: &Path,
    dir: &Path,
    stem: &str,
    complaints: Complaints,
) -> Result<[String; 2], String> {
    let exes = [
        dir.join(format!("{stem}.gcc")),
        dir.join(format!("{stem}.clang")),
    ];
    let flags = |cc_flags: &[&'static str], guess_allowed: bool| -> Vec<&'static str> {
        let mut f: Vec<&str> = cc_flags
            .iter()
            .copied()
            .filter(|f| complaints != Complaints::Tolerated || *f != "-Werror")
            .collect();
        if guess_allowed && complaints == Complaints::FatalButUninitialisedGuess {
            f.push("-Wno-error=maybe-uninitialized");
        }
        f
    };
    compile(
        src,
        &[
            ("gcc", flags(GCC_FLAGS, true), exes[0].clone()),
            ("clang", flags(CLANG_FLAGS, false), exes[1].clone()),
        ],
    )?;
    let mut outputs = [String::new(), String::new()];
    for (k, exe) in exes.iter().enumerate() {
        outputs[k] = run_limited(exe)?;
    }
    Ok(outputs)
}

/// Compile `src` with each `(compiler, flags, executable)` at once; the
/// complaints of those that fail, or a timeout.
fn compile(src: &Path, jobs: &[(&str, Vec<&str>, PathBuf)]) -> Result<(), String> {
    let limit = compile_limit(std::fs::metadata(src).map_or(0, |m| m.len()));
    let mut children = Vec::new();
    for (cc, flags, exe) in jobs {
        // In a process group of its own, which a timeout kills whole.
        let child = Command::new(cc)
            .args(flags)
            .arg("-o")
            .arg(exe)
            .arg(src)
            .arg("-lm")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot run {cc}: {e}"))?;
        children.push((cc, child));
    }
    let mut complaints = Vec::new();
    let start = Instant::now();
    let mut pending = children.into_iter();
    while let Some((cc, mut child)) = pending.next() {
        // The complaint is read while the compiler runs (a full pipe would
        // stop it); a compiler that runs past its limit makes the case a
        // timeout.
        let reader = read_in_thread(child.stderr.take());
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if past_compile_limit(child.id(), start.elapsed(), limit) => {
                    kill_group(&mut child);
                    for (_, mut other) in pending {
                        kill_group(&mut other);
                    }
                    return Err(format!(
                        "timeout: {cc} used more than {} s of processor time (or ran {} s)",
                        limit.as_secs(),
                        RUN_WALL_LIMIT.as_secs()
                    ));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => return Err(format!("{cc}: {e}")),
            }
        };
        let text = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
        if !status.success() {
            complaints.push(format!("{cc}: {text}"));
        }
    }
    if !complaints.is_empty() {
        return Err(format!("compile: {}", complaints.join("\n")));
    }
    Ok(())
}

/// Kills `child` and every process it started, which share its process
/// group: killing a compiler's driver alone leaves its `cc1` running (one
/// ran on for 40 minutes after a timeout, seed 2525).
fn kill_group(child: &mut Child) {
    let group = format!("-{}", child.id());
    let _ = Command::new("kill")
        .args(["-KILL", "--", &group])
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
    let _ = child.wait();
}

/// How much processor time gcc and clang may use on a generated file of
/// `bytes` bytes: 30 s plus one second per 2 KB. A C compiler's time
/// grows with the code it is given, and a recipe may legally ask for 1,024
/// unrolled copies of a statement (gcc -O1 takes 12 s on 300 KB of adi;
/// clang `-O1 -fsanitize=bounds` 66 s on 314 KB of unrolled lu, about
/// 0.2 s per KB, seed 305): that is the user's request, not a polyc
/// hang. Processor time, not the wall clock, which a loaded machine
/// stretches: clang took over 10 s on 7 KB of unrolled doitgen that it
/// compiles in 1.4 s alone (seed 30, beside a CI run), and gcc passed
/// 46 s on 160 KB of unrolled symm beside a build (seed 54).
fn compile_limit(bytes: u64) -> Duration {
    Duration::from_secs(30 + bytes / 2_000)
}

/// Everything `pipe` gives until it closes, read on a thread of its own
/// (a full pipe would stop the child).
fn read_in_thread<R: std::io::Read + Send + 'static>(
    pipe: Option<R>,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut s = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut s);
        }
        s
    })
}

/// The processor time (user and system) that a process (all its threads:
/// `/proc/PID/stat`) or a thread (`/proc/PID/task/TID/stat`) has used so
/// far, from its `stat` file (in units of 1/100 s, Linux's fixed
/// `USER_HZ`); `None` where that file cannot be read.
fn processor_time(stat: &Path) -> Option<Duration> {
    stat_time(stat, 14..=15)
}

/// The sum of the time fields `fields` (numbered as in proc(5): 14 utime,
/// 15 stime, 16 cutime, 17 cstime) of a `stat` file, in units of 1/100 s
/// (Linux's fixed `USER_HZ`); `None` where the file cannot be read.
fn stat_time(stat: &Path, fields: std::ops::RangeInclusive<usize>) -> Option<Duration> {
    let stat = std::fs::read_to_string(stat).ok()?;
    // The command name, field 2, is in parentheses and may hold spaces;
    // what follows it starts at field 3.
    let after_name: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let mut ticks = 0u64;
    for field in fields {
        ticks += after_name.get(field - 3)?.parse::<u64>().ok()?;
    }
    Some(Duration::from_millis(ticks * 10))
}

/// Whether a compiler driver running for `wall` has used up `limit`: the
/// processor time of the driver and every process under it (`cc1`, `as`,
/// `ld`: [`tree_processor_time`]), or `RUN_WALL_LIMIT` of wall time (or
/// `limit` of wall time where `/proc` cannot be read).
fn past_compile_limit(pid: u32, wall: Duration, limit: Duration) -> bool {
    match tree_processor_time(pid) {
        Some(cpu) => cpu > limit || wall > RUN_WALL_LIMIT,
        None => wall > limit,
    }
}

/// The processor time process `pid` and its descendants have used so far:
/// its own and its waited-for children's (`/proc/PID/stat` fields 14–17)
/// and, for each child still running (`/proc/PID/task/TID/children`), the
/// same recursively. `None` where `pid`'s `stat` cannot be read.
fn tree_processor_time(pid: u32) -> Option<Duration> {
    let mut total = stat_time(Path::new(&format!("/proc/{pid}/stat")), 14..=17)?;
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    for task in tasks.filter_map(|t| t.ok()) {
        let children = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        for child in children.split_whitespace().filter_map(|c| c.parse().ok()) {
            total += tree_processor_time(child).unwrap_or_default();
        }
    }
    Some(total)
}

/// Run `exe`, its stdout; killed after `RUN_CPU_LIMIT` of processor time
/// or `RUN_WALL_LIMIT` of wall time (or `RUN_CPU_LIMIT` of wall time
/// where the processor time cannot be read).
pub(super) fn run_limited(exe: &Path) -> Result<String, String> {
    // Two threads that spin briefly, then sleep, when idle. Threads that
    // spin without end make a small parallel loop on a loaded machine look
    // like a hang; threads that sleep at once pay a wake-up per parallel
    // region: fusion3 with a 2-iteration parallel loop inside 500,000
    // others (seed 29) ran 49 s under gcc's libgomp and 100 s under
    // clang's libomp, against 5.7 s and 19 s with these settings.
    // A sanitizer's report goes to stderr and fails the run (UBSan's
    // too: its checks are built recoverable, [`CLANG_FLAGS`]); leak checks
    // are off (the kernels exit without freeing, and LeakSanitizer does
    // not run under every tracer).
    let mut child: Child = Command::new(exe)
        .env("OMP_NUM_THREADS", "2")
        .env("GOMP_SPINCOUNT", "10000")
        .env("KMP_BLOCKTIME", "1")
        .env("ASAN_OPTIONS", "detect_leaks=0")
        .env("UBSAN_OPTIONS", "halt_on_error=1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("run: cannot start {}: {e}", exe.display()))?;
    let reader = read_in_thread(child.stdout.take());
    let err_reader = read_in_thread(child.stderr.take());
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let bytes = reader.join().unwrap_or_default();
                let err = err_reader.join().unwrap_or_default();
                if !status.success() {
                    let report: String = String::from_utf8_lossy(&err).chars().take(600).collect();
                    return Err(format!(
                        "run: {} exited with {status}\n{report}",
                        exe.display()
                    ));
                }
                return Ok(String::from_utf8_lossy(&bytes).into_owned());
            }
            Ok(None) if past_limit(child.id(), start.elapsed()) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "timeout: {} used more than {} s of processor time (or ran {} s)",
                    exe.display(),
                    RUN_CPU_LIMIT.as_secs(),
                    RUN_WALL_LIMIT.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("run: {e}")),
        }
    }
}

/// Whether a program running for `wall` has used up its time.
fn past_limit(pid: u32, wall: Duration) -> bool {
    match processor_time(Path::new(&format!("/proc/{pid}/stat"))) {
        Some(cpu) => cpu > RUN_CPU_LIMIT || wall > RUN_WALL_LIMIT,
        None => wall > RUN_CPU_LIMIT,
    }
}

/// Compile and run polyc's output for an accepted sequence and compare it
/// with the original's.
pub fn check_generated(kernel: &Kernel, generated: &str) -> Verdict {
    let key = {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        generated.hash(&mut h);
        (h.finish(), generated.len())
    };
    let seen = |k| kernel.identical.lock().is_ok_and(|set| set.contains(&k));
    if seen(key) {
        return Verdict::new(
            "accepted-identical",
            "(the same program as an earlier case)",
        );
    }
    let verdict = compile_and_compare(kernel, generated);
    if verdict.class == "accepted-identical" {
        if let Ok(mut set) = kernel.identical.lock() {
            set.insert(key);
        }
    }
    verdict
}

/// A scratch folder and the original program's outputs (gcc, clang).
fn scratch_and_original(kernel: &Kernel) -> Result<(tempfile::TempDir, [String; 2]), Verdict> {
    let dir = tempfile::tempdir().map_err(|e| Verdict::new("harness", e.to_string()))?;
    let original = kernel
        .original_output(dir.path())
        .map_err(|e| Verdict::new("harness", format!("the original: {e}")))?;
    Ok((dir, original))
}

/// How many distinct programs compiled and run had parallel constructs
/// outlined into functions (`emit::outline`).
pub static OUTLINED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn compile_and_compare(kernel: &Kernel, generated: &str) -> Verdict {
    let (dir, original) = match scratch_and_original(kernel) {
        Ok(d) => d,
        Err(v) => return v,
    };
    let src: PathBuf = dir.path().join("case.c");
    if let Err(e) = std::fs::write(&src, generated) {
        return Verdict::new("harness", e.to_string());
    }
    let mut note = "";
    let outputs = match build_and_run(&src, dir.path(), "case", Complaints::Fatal) {
        Err(e) if e.starts_with("compile") && only_uninitialised_guess(&e) => {
            note = "gcc's -Wmaybe-uninitialized was a guess: MemorySanitizer saw no such read";
            uninitialised_guess_checked(&src, dir.path(), &original[1]).and_then(|()| {
                build_and_run(
                    &src,
                    dir.path(),
                    "case",
                    Complaints::FatalButUninitialisedGuess,
                )
            })
        }
        other => other,
    };
    if generated.contains("\nstatic inline __attribute__((always_inline)) void polyc_parallel_") {
        OUTLINED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    match outputs {
        Ok(new) => {
            for (k, cc) in ["gcc", "clang"].iter().enumerate() {
                if new[k] != original[k] {
                    return Verdict::new(
                        "miscompile",
                        format!("{cc}: {}", first_difference(&original[k], &new[k])),
                    );
                }
            }
            if original[0].is_empty() {
                return Verdict::new("harness", "the kernel prints nothing");
            }
            Verdict::new("accepted-identical", note)
        }
        Err(e) if e.starts_with("compile") => Verdict::new("invalid-output", e),
        Err(e) if e.starts_with("timeout") => Verdict::new("timeout", e),
        Err(e) if e.starts_with("miscompile") => Verdict::new("miscompile", e),
        Err(e) => Verdict::new("runtime-error", e),
    }
}

/// The CUDA output of an accepted sequence with GPU mappings (directives
/// or `auto(…, target = gpu)`), run on the
/// CPU shim (`tests/cuda.rs`): it must print what the original prints
/// under gcc, or be refused as a mapping CUDA cannot run.
fn check_cuda(kernel: &Kernel, region: usize, directives: &[String]) -> Verdict {
    let cu = match cli_output_for(kernel, region, directives, "cuda") {
        Ok(cu) => cu,
        Err(v) => return v,
    };
    let (dir, original) = match scratch_and_original(kernel) {
        Ok(d) => d,
        Err(v) => return v,
    };
    let exe = match crate::cuda::build_for_shim(&cu, dir.path(), "case") {
        Ok(exe) => exe,
        Err(e) => return Verdict::new("cuda-invalid-output", e),
    };
    match run_limited(&exe) {
        Ok(out) if out == original[0] => Verdict::new("cuda-identical", ""),
        Ok(out) => Verdict::new(
            "miscompile-cuda",
            format!("gcc: {}", first_difference(&original[0], &out)),
        ),
        Err(e) if e.starts_with("timeout") => Verdict::new("timeout", e),
        Err(e) => Verdict::new("runtime-error", e),
    }
}

/// Build `src` under MemorySanitizer ([`MSAN_FLAGS`]) and run it: it must
/// read no value it never wrote and print what the original printed under
/// clang (`expected`).
fn uninitialised_guess_checked(src: &Path, dir: &Path, expected: &str) -> Result<(), String> {
    let exe = dir.join("case.msan");
    compile(src, &[("clang", MSAN_FLAGS.to_vec(), exe.clone())])?;
    let out = run_limited(&exe)?;
    if out != expected {
        return Err(format!(
            "miscompile: clang, under MemorySanitizer: {}",
            first_difference(expected, &out)
        ));
    }
    Ok(())
}

fn first_difference(a: &str, b: &str) -> String {
    for (k, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}: {x:?} became {y:?}", k + 1);
        }
    }
    format!("{} lines became {}", a.lines().count(), b.lines().count())
}

/// The verdicts of one case: each refusal's, then the accepted sequence's.
/// Each comes with the directives that reproduce it.
pub fn run_case(kernel: &Arc<Kernel>, region: usize, plan: Plan) -> Vec<(Vec<String>, Verdict)> {
    let start = Instant::now();
    let trace = in_process(Arc::clone(kernel), region, plan.clone(), CASE_LIMIT);
    // polyc's own time: compiling and running the output have their limits.
    let polyc_time = trace.processor_time.unwrap_or_else(|| start.elapsed());
    let mut out = trace.refusals;
    let whole = match &plan {
        Plan::Fixed(d) => d.clone(),
        Plan::Random { .. } => trace.accepted.clone(),
    };
    let slow = whole.clone();
    if let Some(f) = trace.failure {
        out.push((whole, f));
    } else if let (Some(_), true) = (&trace.generated, no_run()) {
        out.push((
            trace.accepted,
            Verdict::new("accepted-not-run", "printed; POLYC_DIFF_NO_RUN"),
        ));
    } else if let Some(c) = trace.generated {
        let mut v = check_generated(kernel, &c);
        if trace.recheck_gave_up && v.class == "accepted-identical" {
            v.class = "accepted-identical-recheck-gave-up";
        }
        // With GPU mappings, the CUDA output too, on the CPU shim.
        let mapped = trace
            .accepted
            .iter()
            .any(|d| d.starts_with("gpu_") || d.contains("target = gpu"));
        let cuda = (!v.is_failure() && mapped).then(|| check_cuda(kernel, region, &trace.accepted));
        out.push((trace.accepted.clone(), v));
        out.extend(cuda.map(|v| (trace.accepted, v)));
    }
    if polyc_time > CASE_LIMIT && !out.iter().any(|(_, v)| v.is_failure()) {
        out.push((
            slow,
            Verdict::new("timeout", format!("polyc took {polyc_time:?}")),
        ));
    }
    out
}

/// The first failure of a fixed sequence, if any.
pub fn replay(kernel: &Arc<Kernel>, region: usize, directives: &[String]) -> Option<Verdict> {
    run_case(kernel, region, Plan::Fixed(directives.to_vec()))
        .into_iter()
        .map(|(_, v)| v)
        .find(Verdict::is_failure)
}

/// Drop directives one at a time while the failure keeps its class.
pub fn minimise(
    kernel: &Arc<Kernel>,
    region: usize,
    directives: &[String],
    class: &str,
) -> Vec<String> {
    let mut current = directives.to_vec();
    let mut changed = true;
    while changed && current.len() > 1 {
        changed = false;
        for k in (0..current.len()).rev() {
            let mut fewer = current.clone();
            fewer.remove(k);
            if replay(kernel, region, &fewer).is_some_and(|v| v.class == class) {
                current = fewer;
                changed = true;
                break;
            }
        }
    }
    current
}

/// A program that really reads `sum` before writing it (when `n` is odd)
/// draws gcc's guess and fails the MemorySanitizer run; one that always
/// writes first passes it.
#[test]
fn memory_sanitizer_tells_a_real_unwritten_read_from_gcc_guess() {
    let program = |guard: &str| {
        format!(
            "#include <stdio.h>\n\
             static double f(int n, double *y) {{\n\
             \x20 double sum;\n\
             \x20 if ({guard}) sum = 1.0;\n\
             \x20 for (int i = 0; i < n; i++) sum += y[i];\n\
             \x20 return sum;\n\
             }}\n\
             int main(int argc, char **argv) {{\n\
             \x20 (void)argv;\n\
             \x20 double y[4] = {{1, 2, 3, 4}};\n\
             \x20 printf(\"%.1f\\n\", f(argc + 2, y));\n\
             \x20 return 0;\n\
             }}\n"
        )
    };
    let Ok(dir) = tempfile::tempdir() else {
        panic!("no temporary directory");
    };
    let src = dir.path().join("case.c");
    std::fs::write(&src, program("n % 2 == 0")).unwrap_or_else(|e| panic!("{e}"));
    let e = uninitialised_guess_checked(&src, dir.path(), "7.0\n")
        .expect_err("an unwritten read must fail");
    assert!(e.contains("MemorySanitizer"), "{e}");
    std::fs::write(&src, program("n >= 0")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        uninitialised_guess_checked(&src, dir.path(), "7.0\n"),
        Ok(())
    );
}

#[test]
fn only_gcc_uninitialised_guesses_are_checked_again() {
    let guess = "compile: gcc: case.c:47:11: error: 'sum' may be used uninitialized [-Werror=maybe-uninitialized]\ncc1: all warnings being treated as errors\n";
    assert!(only_uninitialised_guess(guess));
    let other = format!("{guess}case.c:3:1: error: unused variable 'x' [-Werror=unused-variable]");
    assert!(!only_uninitialised_guess(&other));
    let clang_too = format!("{guess}\nclang: case.c:1:1: error: oops");
    assert!(!only_uninitialised_guess(&clang_too));
    assert!(!only_uninitialised_guess("compile: clang: x"));
}

/// What the explanations of accepted sequences gave, over a run: how many
/// were complete, and their lengths against the sequences'.
pub mod explain_stats {
    use polyc::explain::{Explanation, Step};
    use std::collections::BTreeMap;
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    use std::sync::Mutex;

    /// Partial explanations by the gap's reason (its words before the
    /// first `(` or `;`).
    static REASONS: Mutex<BTreeMap<String, usize>> = Mutex::new(BTreeMap::new());

    static COMPLETE: AtomicUsize = AtomicUsize::new(0);
    static COMPLETE_AUTO: AtomicUsize = AtomicUsize::new(0);
    static PARTIAL: AtomicUsize = AtomicUsize::new(0);
    static EXPLAINED: AtomicUsize = AtomicUsize::new(0);
    static GIVEN: AtomicUsize = AtomicUsize::new(0);
    static LONGER: AtomicUsize = AtomicUsize::new(0);

    /// Count one explanation of the sequence `accepted` (its directives
    /// counted by their `;`, a group's each). Lengths are compared for
    /// sequences without `auto(...)`, whose one call stands for many.
    pub fn record(e: &Explanation, kernel: &str, accepted: &[String]) {
        let gap = e
            .gap
            .as_ref()
            .map(|g| (g.statement.clone(), g.reason.clone()));
        let calls: Vec<String> = e
            .steps
            .iter()
            .flat_map(|s| match s {
                Step::One(d) => vec![d.clone()],
                Step::Group(ds) => ds.clone(),
            })
            .map(|d| polyc::explain::print::call(&d))
            .collect();
        tally(gap, &calls, kernel, accepted);
    }

    /// [`record`] of an explanation as `--explain` prints it: its calls
    /// (the lines that are not comments and hold one), and the gap its
    /// `# not expressed: S: reason.` line names.
    pub fn record_printed(text: &str, kernel: &str, accepted: &[String]) {
        let gap = text
            .lines()
            .find_map(|l| l.strip_prefix("# not expressed: "))
            .map(|g| {
                let g =
                    g.trim_end_matches(" The directives above are what was recovered before it.");
                let (statement, reason) = g.split_once(": ").unwrap_or(("", g));
                (statement.to_string(), reason.to_string())
            });
        let calls: Vec<String> = text
            .lines()
            .map(|l| l.split("  #").next().unwrap_or("").trim())
            .filter(|l| !l.starts_with('#') && l.contains(");"))
            .map(|l| l.trim_end_matches(';').to_string())
            .collect();
        tally(gap, &calls, kernel, accepted);
    }

    /// The counts of one explanation: `gap` (statement, reason) where it
    /// is partial, else its `calls`.
    fn tally(gap: Option<(String, String)>, calls: &[String], kernel: &str, accepted: &[String]) {
        if let Some((statement, reason)) = gap {
            PARTIAL.fetch_add(1, Relaxed);
            let key = reason.split(['(', ';']).next().unwrap_or("").trim();
            if let Ok(mut reasons) = REASONS.lock() {
                *reasons.entry(key.to_string()).or_default() += 1;
            }
            if std::env::var_os("POLYC_DIFF_PARTIAL").is_some() {
                eprintln!(
                    "partial: {kernel}: {statement}: {reason}\n  {}",
                    accepted.join("\n  ")
                );
            }
            return;
        }
        if accepted.iter().any(|t| t.contains("auto(")) {
            COMPLETE_AUTO.fetch_add(1, Relaxed);
            return;
        }
        let explained = calls.len();
        let given: usize = accepted.iter().map(|t| t.matches(';').count().max(1)).sum();
        COMPLETE.fetch_add(1, Relaxed);
        EXPLAINED.fetch_add(explained, Relaxed);
        GIVEN.fetch_add(given, Relaxed);
        if 2 * explained > 3 * given {
            LONGER.fetch_add(1, Relaxed);
            if std::env::var_os("POLYC_DIFF_LONG").is_some() {
                eprintln!(
                    "long: {kernel}: {explained} for {given}\n  {}\n  as\n  {}",
                    accepted.join("\n  "),
                    calls.join(";\n  ")
                );
            }
        }
    }

    /// The run's summary: one line, then one per reason of the partial
    /// explanations.
    pub fn summary() -> String {
        let reasons: String = REASONS
            .lock()
            .map(|r| {
                r.iter()
                    .map(|(why, n)| format!("\n    partial {n:>4}: {why}"))
                    .collect()
            })
            .unwrap_or_default();
        let line = format!(
            "explained: {} complete after auto(...), {} complete without ({} directives \
             for {} given; {} over 1.5x), {} partial",
            COMPLETE_AUTO.load(Relaxed),
            COMPLETE.load(Relaxed),
            EXPLAINED.load(Relaxed),
            GIVEN.load(Relaxed),
            LONGER.load(Relaxed),
            PARTIAL.load(Relaxed)
        );
        format!("{line}{reasons}")
    }
}
