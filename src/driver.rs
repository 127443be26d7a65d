//! What the `polyc` binary does, as a library function the tests call
//! in-process: read the file, build the model, print what was asked.

use std::fs;

use crate::cli::{Cli, Emit, Target};
use crate::emit::{print_loops, scan, splice, PrintOptions, HELPERS};
use crate::lang::c::{read_source, SourceFile};
use crate::lang::diagnostic::Diagnostic;
use crate::scop::deps_view::{deps_json, deps_text, DepsJson};
use crate::scop::schedule::ScheduleJson;
use crate::scop::{dependences, scops_json, DepOptions, Schedule};

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
    if cli.recipe.is_some() {
        return not_implemented("--recipe (recipes land with the directives)");
    }
    if !cli.set.is_empty() {
        return not_implemented("--set (recipe variables land with the recipe language)");
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
    let file = match read_source(&name, text.clone()) {
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
    let schedules = match &cli.schedule {
        Some(path) => match load_schedules(path) {
            Ok(s) => Some(s),
            Err(o) => return o,
        },
        None => None,
    };
    let stdout = match cli.emit {
        Some(Emit::Scop) => emit_scop(&file, cli.scop),
        Some(Emit::Schedule) => emit_schedule(&file, cli.scop, false),
        Some(Emit::ScheduleText) => emit_schedule(&file, cli.scop, true),
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
            match generate(&file, schedules.as_deref(), opts) {
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

fn emit_schedule(file: &SourceFile, only: Option<usize>, text: bool) -> String {
    let mut out = String::new();
    let mut scops = Vec::new();
    for scop in selected(file, only) {
        let schedule = Schedule::original(scop);
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
fn load_schedules(path: &std::path::Path) -> Result<Vec<ScheduleJson>, Outcome> {
    let name = path.display();
    let text =
        fs::read_to_string(path).map_err(|e| Outcome::usage(format!("cannot read {name}: {e}")))?;
    let input: FileScheduleInput = serde_json::from_str(&text)
        .map_err(|e| Outcome::usage(format!("{name}: not a schedule file: {e}")))?;
    Ok(input.scops)
}

/// The file with every region generated from its schedule: the one
/// `--schedule` gives for that region, else the original one.
fn generate(
    file: &SourceFile,
    schedules: Option<&[ScheduleJson]>,
    opts: PrintOptions,
) -> Result<String, Outcome> {
    let fail = |scop: &crate::scop::Scop, msg: String| {
        let d =
            Diagnostic::error(msg, trimmed(&file.text, &scop.span)).with_label("in this region");
        Outcome {
            status: 1,
            stdout: String::new(),
            stderr: d.render(&file.name, &file.text),
        }
    };
    let mut bodies = Vec::new();
    for (r, scop) in file.regions.iter().zip(&file.scops) {
        let given = schedules.and_then(|s| s.iter().find(|j| j.region == scop.region));
        let schedule = match given {
            Some(json) => Schedule::from_json(json, scop).map_err(|e| {
                fail(
                    scop,
                    format!(
                        "the schedule of scop region {} does not fit it: {e}",
                        scop.region
                    ),
                )
            })?,
            None => Schedule::original(scop),
        };
        let nodes = scan(scop, &schedule).map_err(|e| {
            fail(
                scop,
                format!(
                    "code generation for scop region {} failed: {e}",
                    scop.region
                ),
            )
        })?;
        let indent = splice::leading_indent(&file.text[r.body.clone()]);
        bodies.push(print_loops(&nodes, scop, indent, opts));
    }
    let out = splice::splice(&file.text, &file.regions, &bodies);
    if bodies.iter().any(|b| b.contains("polyc_")) && !file.text.contains("#ifndef polyc_floord") {
        return Ok(format!("{HELPERS}{out}"));
    }
    Ok(out)
}
