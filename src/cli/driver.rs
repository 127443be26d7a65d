//! What the `polyc` binary does, as a library function the tests call
//! in-process: read the file, build the model, print what was asked.

use std::fs;
use std::path::Path;

use crate::apply::legality::{first_illegality, Illegal};
use crate::cli::bench::{compare, BenchOptions};
use crate::cli::{Cli, Emit, Target};
use crate::emit::{print_loops, scan, splice, PrintOptions, HELPERS};
use crate::lang::c::{read_source, SourceFile};
use crate::lang::recipe::{clay_comment, parse_recipe, Recipe};
use crate::scop::deps_view::{deps_json, deps_text, DepsJson};
use crate::scop::schedule::ScheduleJson;
use crate::scop::{dependences, scops_json, DepOptions, Schedule};
use crate::session::script::{run_script, LogEntry, Measurement, Measurer, ScriptOptions};
use crate::session::{run_recipe, RecipeError, RecipeState};
use crate::syntax::diagnostic::Diagnostic;

/// What a run produced: its exit status and the bytes for stdout and stderr.
#[derive(Debug, Default)]
pub struct Outcome {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Outcome {
    fn usage(msg: impl AsRef<str>) -> Outcome {
        Outcome {
            status: 2,
            stdout: String::new(),
            stderr: format!("error: {}\n", msg.as_ref()),
        }
    }
}

fn not_implemented(what: &str) -> Outcome {
    Outcome::usage(format!("not implemented yet: {what}"))
}

/// Run the CLI on already-parsed arguments.
pub fn run(cli: &Cli) -> Outcome {
    if !cli.set.is_empty() && cli.recipe.is_none() {
        return Outcome::usage(
            "--set NAME=VALUE overrides a `let` of a recipe; give one with --recipe",
        );
    }
    if cli.explain {
        return not_implemented("--explain (lands with the automatic schedulers)");
    }
    if cli.target == Target::Cuda {
        return not_implemented("--target cuda");
    }
    let name = cli.file.display().to_string();
    let text = match fs::read(&cli.file) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(_) => return Outcome::usage(format!("{name}: not UTF-8 text")),
        },
        Err(e) => return Outcome::usage(format!("cannot read {name}: {e}")),
    };
    let mut file = match read_source(&name, text.clone()) {
        Ok(f) => f,
        Err(d) => {
            return Outcome {
                status: 1,
                stdout: String::new(),
                stderr: d.render(&name, &text),
            }
        }
    };
    let mut stderr = String::new();
    if file.regions.is_empty() {
        stderr.push_str(&format!(
            "warning: {name} has no `#pragma scop` region; the output is the input unchanged\n"
        ));
    }
    if let Some(n) = cli.scop {
        if n == 0 || n > file.scops.len() {
            return Outcome::usage(format!(
                "--scop {n}: {name} has {} scop region(s), numbered from 1",
                file.scops.len()
            ));
        }
    }
    // One schedule per region: the original, or `--schedule`'s, then the
    // recipe's for the selected regions.
    let mut schedules = match &cli.schedule {
        Some(path) => match load_schedules(path).and_then(|js| schedules_from_json(&file, &js)) {
            Ok(s) => s,
            Err(o) => return o,
        },
        None => file.scops.iter().map(Schedule::original).collect(),
    };
    if let Some(path) = cli.recipe.as_deref().filter(|p| is_script(p)) {
        match apply_script(&file, cli, path, &mut schedules, &mut stderr) {
            Ok(narrowed) => file.scops = narrowed,
            Err(o) => return o,
        }
    } else if let Some(path) = &cli.recipe {
        let recipe = match load_recipe(path, &cli.set) {
            Ok(r) => r,
            Err(o) => return o,
        };
        match apply_recipe(&file, cli.scop, &recipe, &mut schedules, &mut stderr) {
            Ok(narrowed) => file.scops = narrowed,
            Err(o) => return o,
        }
    } else if cli.schedule.is_none() {
        match apply_clay_comments(&file, cli.scop, &mut schedules, &mut stderr) {
            Ok(narrowed) => file.scops = narrowed,
            Err(o) => return o,
        }
    }
    let stdout = match cli.emit {
        Some(Emit::Scop) => emit_scop(&file, cli.scop),
        Some(Emit::Schedule) => emit_schedule(&file, cli.scop, &schedules, false),
        Some(Emit::ScheduleText) => emit_schedule(&file, cli.scop, &schedules, true),
        Some(Emit::Deps) => match emit_deps(&file, cli.scop, cli.rar, false) {
            Ok(s) => s,
            Err(o) => return o,
        },
        Some(Emit::DepsText) => match emit_deps(&file, cli.scop, cli.rar, true) {
            Ok(s) => s,
            Err(o) => return o,
        },
        None => {
            let opts = PrintOptions {
                pragmas: cli.target == Target::Openmp,
            };
            match generate(&file, &schedules, opts) {
                Ok(s) => s,
                Err(o) => return o,
            }
        }
    };
    if let Some(out) = &cli.output {
        if let Err(e) = fs::write(out, &stdout) {
            return Outcome::usage(format!("cannot write {}: {e}", out.display()));
        }
        return Outcome {
            status: 0,
            stdout: String::new(),
            stderr,
        };
    }
    Outcome {
        status: 0,
        stdout,
        stderr,
    }
}

/// Without `--recipe`, a region holding a `/* Clay … */` comment gets that
/// recipe (as Clay's own test files are written). Its diagnostics point
/// into the C file.
fn apply_clay_comments(
    file: &SourceFile,
    only: Option<usize>,
    schedules: &mut [Schedule],
    stderr: &mut String,
) -> Result<Vec<crate::scop::Scop>, Outcome> {
    let mut scops = file.scops.clone();
    for (k, region) in file.regions.iter().enumerate() {
        let Some(scop) = file.scops.get(k) else {
            continue;
        };
        if only.is_some_and(|n| scop.region != n) {
            continue;
        }
        let body = &file.text[region.body.clone()];
        let Some(range) = clay_comment(body) else {
            continue;
        };
        let offset = region.body.start + range.start;
        let text = &body[range];
        let recipe = parse_recipe(text, &[]).map_err(|d| Outcome {
            status: 1,
            stdout: String::new(),
            stderr: d.shifted(offset).render(&file.name, &file.text),
        })?;
        let loaded = LoadedRecipe {
            name: file.name.clone(),
            text: file.text.clone(),
            recipe: shift_recipe(recipe, offset),
        };
        let narrowed = apply_recipe(file, Some(scop.region), &loaded, schedules, stderr)?;
        scops[k] = narrowed[k].clone();
    }
    Ok(scops)
}

/// The recipe's spans moved `offset` bytes on, into the file around it.
fn shift_recipe(mut recipe: Recipe, offset: usize) -> Recipe {
    let shift = |r: &mut std::ops::Range<usize>| *r = r.start + offset..r.end + offset;
    for call in &mut recipe.calls {
        shift(&mut call.span);
        shift(&mut call.name_span);
        for a in &mut call.args {
            shift(&mut a.span);
        }
    }
    recipe
}

/// A `.rhai` recipe is a script (`session::script`), anything else a `.poly` recipe.
fn is_script(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "rhai")
}

/// `--set NAME=VALUE` as pairs; a usage error without `=`.
fn overrides(set: &[String]) -> Result<Vec<(String, String)>, Outcome> {
    set.iter()
        .map(|s| match s.split_once('=') {
            Some((n, v)) => Ok((n.trim().to_string(), v.trim().to_string())),
            None => Err(Outcome::usage(format!("--set {s}: expected NAME=VALUE"))),
        })
        .collect()
}

/// The text of a recipe or script file; an I/O error is a usage error.
fn read_text(path: &Path) -> Result<String, Outcome> {
    let name = path.display();
    match fs::read(path) {
        Ok(bytes) => {
            String::from_utf8(bytes).map_err(|_| Outcome::usage(format!("{name}: not UTF-8 text")))
        }
        Err(e) => Err(Outcome::usage(format!("cannot read {name}: {e}"))),
    }
}

/// Read and parse the recipe at `path` with the `--set` overrides; a parse
/// error is rendered against the recipe file (exit 1).
fn load_recipe(path: &Path, set: &[String]) -> Result<LoadedRecipe, Outcome> {
    let name = path.display().to_string();
    let overrides = overrides(set)?;
    let text = read_text(path)?;
    match parse_recipe(&text, &overrides) {
        Ok(recipe) => Ok(LoadedRecipe { name, text, recipe }),
        Err(d) => Err(Outcome {
            status: 1,
            stdout: String::new(),
            stderr: d.render(&name, &text),
        }),
    }
}

/// A parsed recipe with its file name and text, for diagnostics.
struct LoadedRecipe {
    name: String,
    text: String,
    recipe: Recipe,
}

fn selected(file: &SourceFile, only: Option<usize>) -> impl Iterator<Item = &crate::scop::Scop> {
    file.scops
        .iter()
        .filter(move |s| only.is_none_or(|n| s.region == n))
}

#[derive(serde::Serialize)]
struct FileJson<'a> {
    file: &'a str,
    scops: Vec<crate::scop::ScopJson>,
}

#[derive(serde::Serialize)]
struct FileScheduleJson<'a> {
    file: &'a str,
    scops: Vec<ScheduleJson>,
}

fn emit_scop(file: &SourceFile, only: Option<usize>) -> String {
    let scops: Vec<_> = selected(file, only).cloned().collect();
    let json = FileJson {
        file: &file.name,
        scops: scops_json(&file.text, &scops),
    };
    let mut s = serde_json::to_string_pretty(&json).unwrap_or_default();
    s.push('\n');
    s
}

fn emit_schedule(
    file: &SourceFile,
    only: Option<usize>,
    schedules: &[Schedule],
    text: bool,
) -> String {
    let mut out = String::new();
    let mut scops = Vec::new();
    for (scop, schedule) in file.scops.iter().zip(schedules) {
        if only.is_some_and(|n| scop.region != n) {
            continue;
        }
        if text {
            out.push_str(&format!("# scop region {}\n", scop.region));
            out.push_str(&schedule.to_text(scop));
        } else {
            scops.push(schedule.to_json(scop));
        }
    }
    if text {
        return out;
    }
    let json = FileScheduleJson {
        file: &file.name,
        scops,
    };
    let mut s = serde_json::to_string_pretty(&json).unwrap_or_default();
    s.push('\n');
    s
}

/// Apply `recipe` to each selected region: its dependences, then the
/// directives in order. A refusal is rendered against the recipe (exit 1;
/// the region is named when the file has several); warnings go to `stderr`.
fn apply_recipe(
    file: &SourceFile,
    only: Option<usize>,
    recipe: &LoadedRecipe,
    schedules: &mut [Schedule],
    stderr: &mut String,
) -> Result<Vec<crate::scop::Scop>, Outcome> {
    let mut scops = file.scops.clone();
    for (scop, schedule) in file.scops.iter().zip(schedules.iter_mut()) {
        if only.is_some_and(|n| scop.region != n) {
            continue;
        }
        let deps = region_dependences(file, scop)?;
        let name_region = |d: Diagnostic| in_region(d, file, scop);
        match run_recipe(scop, &deps, schedule.clone(), &recipe.recipe) {
            Ok(done) => {
                for w in done.warnings {
                    stderr.push_str(&name_region(w).render(&recipe.name, &recipe.text));
                }
                *schedule = done.schedule;
                if let Some(slot) = scops.iter_mut().find(|s| s.region == scop.region) {
                    *slot = done.scop;
                }
            }
            Err(RecipeError::Rejected(d)) => {
                return Err(Outcome {
                    status: 1,
                    stdout: String::new(),
                    stderr: name_region(d).render(&recipe.name, &recipe.text),
                })
            }
            Err(RecipeError::NotImplemented(what)) => return Err(not_implemented(&what)),
        }
    }
    Ok(scops)
}

/// Run the script at `path` on each selected region in turn (its queries
/// and β-vectors relative to that region), as `apply_recipe` runs a
/// recipe. What the script prints and its warnings go to `stderr`; a
/// refusal or a sandbox limit is a diagnostic on the script (exit 1).
fn apply_script(
    file: &SourceFile,
    cli: &Cli,
    path: &Path,
    schedules: &mut [Schedule],
    stderr: &mut String,
) -> Result<Vec<crate::scop::Scop>, Outcome> {
    let name = path.display().to_string();
    let time_limit = if cli.time_limit == 0.0 {
        None
    } else {
        let t = cli.time_limit;
        Some(std::time::Duration::try_from_secs_f64(t).map_err(|_| {
            Outcome::usage(format!(
                "--time-limit {t}: expected a number of seconds, 0 or more"
            ))
        })?)
    };
    let opts = ScriptOptions {
        max_operations: cli.max_operations,
        time_limit,
        constants: overrides(&cli.set)?,
    };
    let text = read_text(path)?;
    let mut scops = file.scops.clone();
    for k in 0..file.scops.len() {
        let scop = &file.scops[k];
        if cli.scop.is_some_and(|n| scop.region != n) {
            continue;
        }
        let deps = region_dependences(file, scop)?;
        let name_region = |d: Diagnostic| in_region(d, file, scop);
        let write_log = |log: Vec<LogEntry>, stderr: &mut String| {
            for entry in log {
                match entry {
                    LogEntry::Print(p) => {
                        stderr.push_str(&p);
                        stderr.push('\n');
                    }
                    LogEntry::Warning(w) => stderr.push_str(&name_region(w).render(&name, &text)),
                }
            }
        };
        let mut context = file.clone();
        context.scops = scops.clone();
        let measurer = measurer(context, schedules.to_vec(), k, cli.target == Target::Openmp);
        let start = RecipeState::new(scop, &deps, schedules[k].clone());
        match run_script(&name, &text, start, Some(measurer), &opts) {
            Ok(done) => {
                write_log(done.log, stderr);
                schedules[k] = done.state.schedule;
                scops[k] = done.state.scop;
            }
            Err(failure) => {
                let mut out = std::mem::take(stderr);
                write_log(failure.log, &mut out);
                let status = match failure.error {
                    RecipeError::Rejected(d) => {
                        out.push_str(&name_region(d).render(&name, &text));
                        1
                    }
                    RecipeError::NotImplemented(what) => {
                        out.push_str(&format!("error: not implemented yet: {what}\n"));
                        2
                    }
                };
                return Err(Outcome {
                    status,
                    stdout: String::new(),
                    stderr: out,
                });
            }
        }
    }
    Ok(scops)
}

/// What `measure` in a script on region `k` of `file` runs: the file with
/// region `k` generated from the variant's schedule (the other regions from
/// `schedules`), compiled and timed against the input file as it is.
fn measurer(file: SourceFile, schedules: Vec<Schedule>, k: usize, pragmas: bool) -> Box<Measurer> {
    Box::new(move |scop, schedule, runs| {
        let mut variant = file.clone();
        variant.scops[k] = scop.clone();
        let mut all = schedules.clone();
        all[k] = schedule.clone();
        let c = generate(&variant, &all, PrintOptions { pragmas })
            .map_err(|o| format!("code generation failed: {}", o.stderr.trim_end()))?;
        let mut opts = BenchOptions::from_env();
        opts.runs = runs;
        let report = compare(&file.text, &c, &opts).map_err(|e| e.to_string())?;
        Ok(Measurement {
            original_s: report.original.median_s,
            transformed_s: report.transformed.median_s,
            speedup: report.speedup,
            mismatch: report.mismatch,
        })
    })
}

#[derive(serde::Serialize)]
struct FileDepsJson<'a> {
    file: &'a str,
    scops: Vec<DepsJson>,
}

/// `--emit deps` (JSON) or `--emit deps-text`; a `poly` error (the analysis
/// could not decide) is an exit-1 diagnostic on the region.
fn emit_deps(
    file: &SourceFile,
    only: Option<usize>,
    rar: bool,
    text: bool,
) -> Result<String, Outcome> {
    let opts = DepOptions { rar };
    let mut out = String::new();
    let mut json = Vec::new();
    for scop in selected(file, only) {
        let deps = dependences(scop, &opts).map_err(|e| {
            let d = Diagnostic::error(
                format!(
                    "dependence analysis of scop region {} failed: {e}",
                    scop.region
                ),
                trimmed(&file.text, &scop.span),
            )
            .with_label("in this region")
            .with_note("polyc computes dependences exactly or not at all");
            Outcome {
                status: 1,
                stdout: String::new(),
                stderr: d.render(&file.name, &file.text),
            }
        })?;
        if text {
            out.push_str(&format!("# scop region {}\n", scop.region));
            out.push_str(&deps_text(&file.text, scop, &deps));
        } else {
            json.push(deps_json(scop, &deps));
        }
    }
    if text {
        return Ok(out);
    }
    let mut s = serde_json::to_string_pretty(&FileDepsJson {
        file: &file.name,
        scops: json,
    })
    .unwrap_or_default();
    s.push('\n');
    Ok(s)
}

/// `span` without its leading and trailing white space.
fn trimmed(text: &str, span: &std::ops::Range<usize>) -> std::ops::Range<usize> {
    let body = text.get(span.clone()).unwrap_or("");
    let start = span.start + (body.len() - body.trim_start().len());
    start..start + body.trim().len()
}

#[derive(serde::Deserialize)]
struct FileScheduleInput {
    scops: Vec<ScheduleJson>,
}

/// The schedules of `--schedule FILE.json` (the form `--emit schedule` prints).
/// An exit-1 diagnostic on a whole region.
/// The dependences of `scop`, or a diagnostic on its region.
fn region_dependences(
    file: &SourceFile,
    scop: &crate::scop::Scop,
) -> Result<Vec<crate::scop::Dependence>, Outcome> {
    dependences(scop, &DepOptions::default()).map_err(|e| {
        region_error(
            file,
            scop,
            format!(
                "dependence analysis of scop region {} failed: {e}",
                scop.region
            ),
        )
    })
}

/// `d` with a note naming the region, when the file has several.
fn in_region(d: Diagnostic, file: &SourceFile, scop: &crate::scop::Scop) -> Diagnostic {
    if file.scops.len() > 1 {
        d.with_note(format!("in scop region {} of {}", scop.region, file.name))
    } else {
        d
    }
}

fn region_error(file: &SourceFile, scop: &crate::scop::Scop, msg: String) -> Outcome {
    let d = Diagnostic::error(msg, trimmed(&file.text, &scop.span)).with_label("in this region");
    Outcome {
        status: 1,
        stdout: String::new(),
        stderr: d.render(&file.name, &file.text),
    }
}

/// The schedule of every region: the one the file gives for it, else the
/// original one.
fn schedules_from_json(
    file: &SourceFile,
    given: &[ScheduleJson],
) -> Result<Vec<Schedule>, Outcome> {
    file.scops
        .iter()
        .map(
            |scop| match given.iter().find(|j| j.region == scop.region) {
                Some(json) => {
                    let schedule = Schedule::from_json(json, scop).map_err(|e| {
                        region_error(
                            file,
                            scop,
                            format!(
                                "the schedule of scop region {} does not fit it: {e}",
                                scop.region
                            ),
                        )
                    })?;
                    check_loaded(file, scop, &schedule)?;
                    Ok(schedule)
                }
                None => Ok(Schedule::original(scop)),
            },
        )
        .collect()
}

/// A loaded schedule must respect every dependence and carry none on a
/// loop it marks parallel or vector, exactly as a recipe's must.
fn check_loaded(
    file: &SourceFile,
    scop: &crate::scop::Scop,
    schedule: &Schedule,
) -> Result<(), Outcome> {
    let fail = |msg: String| region_error(file, scop, msg);
    let deps = region_dependences(file, scop)?;
    let unproven = |e| {
        fail(format!(
            "the schedule of scop region {} could not be checked: {e}",
            scop.region
        ))
    };
    match first_illegality(scop, &deps, schedule).map_err(unproven)? {
        None => Ok(()),
        Some(Illegal::Violation(v)) => {
            let dep = &deps[v.dependence];
            Err(fail(format!(
                "the schedule of scop region {} violates a dependence {} -> {} on `{}`: {}",
                scop.region,
                scop.statements[dep.source].name,
                scop.statements[dep.target].name,
                dep.array,
                v.describe(scop, &deps)
            )))
        }
        Some(Illegal::Carried {
            statement,
            depth,
            violation,
        }) => Err(fail(format!(
            "the schedule of scop region {} marks loop {depth} of {} parallel, but it carries a dependence: {}",
            scop.region,
            scop.statements[statement].name,
            violation.describe(scop, &deps)
        ))),
    }
}

fn load_schedules(path: &std::path::Path) -> Result<Vec<ScheduleJson>, Outcome> {
    let name = path.display();
    let text =
        fs::read_to_string(path).map_err(|e| Outcome::usage(format!("cannot read {name}: {e}")))?;
    let input: FileScheduleInput = serde_json::from_str(&text)
        .map_err(|e| Outcome::usage(format!("{name}: not a schedule file: {e}")))?;
    Ok(input.scops)
}

/// The file with every region generated from its schedule (one per region).
fn generate(
    file: &SourceFile,
    schedules: &[Schedule],
    opts: PrintOptions,
) -> Result<String, Outcome> {
    let mut bodies = Vec::new();
    for ((r, scop), schedule) in file.regions.iter().zip(&file.scops).zip(schedules) {
        let failed = |why: String| {
            region_error(
                file,
                scop,
                format!(
                    "code generation for scop region {} failed: {why}",
                    scop.region
                ),
            )
        };
        let nodes = scan(scop, schedule).map_err(|e| failed(e.to_string()))?;
        let indent = splice::leading_indent(&file.text[r.body.clone()]);
        let body = print_loops(&nodes, scop, indent, opts).map_err(|e| failed(e.to_string()))?;
        bodies.push(body);
    }
    let out = splice::splice(&file.text, &file.regions, &bodies);
    if bodies.iter().any(|b| b.contains("polyc_")) && !file.text.contains("#ifndef polyc_floord") {
        return Ok(format!("{HELPERS}{out}"));
    }
    Ok(out)
}
