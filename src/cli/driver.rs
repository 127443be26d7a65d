//! What the `polyc` binary does, as a library function the tests call
//! in-process: read the file, build the model, print what was asked.
//! Recipes and scripts are applied by [`recipes`], JSON schedules read and
//! checked by [`schedule_file`], and `--explain` printed by [`explain`].

mod explain;
mod recipes;
mod schedule_file;

use recipes::{apply_clay_comments, apply_recipe, apply_script, is_script, load_recipe};
use schedule_file::{load_schedules, schedules_from_json};

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::Path;

use crate::cli::{Cli, Emit, Target};
use crate::emit::cuda::{check_packs, cuda_region, kernel_text, Launches, Packed, CUDA_HELPERS};
use crate::emit::file_scope::declaration_start;
use crate::emit::locals::{self, local_arrays};
use crate::emit::loops::cuda::LaunchSizes;
use crate::emit::outline::FileScope;
use crate::emit::{pack, print_loops_in, scan, splice, PrintOptions, HELPERS};
use crate::lang::c::{read_source, SourceFile};
use crate::scop::deps_view::{deps_json, deps_text, DepsJson};
use crate::scop::schedule::ScheduleJson;
use crate::scop::{dependences, scops_json, DepOptions, Schedule};
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
    if cli.explain && cli.emit.is_some() {
        return Outcome::usage("--explain prints a recipe; it does not go with --emit");
    }
    if (cli.sizes.is_some() || cli.dump_sizes) && cli.target != Target::Cuda {
        return Outcome::usage("--sizes and --dump-sizes go with --target cuda");
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
    let original_scops = file.scops.clone();
    // The recipe as parsed (`--explain` keeps its data-layout calls).
    let mut loaded = None;
    // What each region's `auto(...)` calls chose, for `--emit schedule-text`.
    let mut chosen = vec![Vec::new(); file.scops.len()];
    if let Some(path) = cli.recipe.as_deref().filter(|p| is_script(p)) {
        match apply_script(&file, cli, path, &mut schedules, &mut chosen, &mut stderr) {
            Ok(narrowed) => file.scops = narrowed,
            Err(o) => return o,
        }
    } else if let Some(path) = &cli.recipe {
        let recipe = match load_recipe(path, &cli.set) {
            Ok(r) => r,
            Err(o) => return o,
        };
        let recipe = loaded.insert(recipe);
        match apply_recipe(
            &file,
            cli.scop,
            recipe,
            &mut schedules,
            &mut chosen,
            &mut stderr,
        ) {
            Ok(narrowed) => file.scops = narrowed,
            Err(o) => return o,
        }
    } else if cli.schedule.is_none() {
        match apply_clay_comments(&file, cli.scop, &mut schedules, &mut chosen, &mut stderr) {
            Ok(narrowed) => file.scops = narrowed,
            Err(o) => return o,
        }
    }
    let stdout = match cli.emit {
        _ if cli.explain => {
            match explain::explained(&file, &original_scops, cli, &schedules, loaded.as_ref()) {
                Ok(s) => s,
                Err(o) => return o,
            }
        }
        Some(Emit::Scop) => emit_scop(&file, cli.scop),
        Some(Emit::Schedule) => emit_schedule(&file, cli.scop, &schedules, &[], false),
        Some(Emit::ScheduleText) => emit_schedule(&file, cli.scop, &schedules, &chosen, true),
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
            let generated = match cli.target {
                Target::Cuda => generate_cuda(&file, &schedules, cli),
                _ => generate(&file, &schedules, opts),
            };
            match generated {
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
    chosen: &[Vec<String>],
    text: bool,
) -> String {
    let mut out = String::new();
    let mut scops = Vec::new();
    for (k, (scop, schedule)) in file.scops.iter().zip(schedules).enumerate() {
        if only.is_some_and(|n| scop.region != n) {
            continue;
        }
        if text {
            out.push_str(&format!("# scop region {}\n", scop.region));
            for line in chosen.get(k).into_iter().flatten() {
                out.push_str(&format!("# {line}\n"));
            }
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

/// `what` (code generation) of `scop`'s region failed, and why: a
/// diagnostic on the region.
fn generation_failed(
    file: &SourceFile,
    scop: &crate::scop::Scop,
    what: &str,
    why: String,
) -> Outcome {
    region_error(
        file,
        scop,
        format!("{what} for scop region {} failed: {why}", scop.region),
    )
}

/// The file for CUDA: every region's body replaced by host code, its
/// kernels before the function that holds it, the CUDA helpers on top
/// (docs/cuda.md); with `--dump-sizes`, each kernel's launch sizes as JSON
/// instead.
fn generate_cuda(file: &SourceFile, schedules: &[Schedule], cli: &Cli) -> Result<String, Outcome> {
    let given: HashMap<String, LaunchSizes> = match &cli.sizes {
        Some(path) => {
            let text = read_text(path)?;
            serde_json::from_str(&text).map_err(|e| {
                Outcome::usage(format!(
                    "{}: not a sizes file ({e}); `--dump-sizes` prints the form",
                    path.display()
                ))
            })?
        }
        None => HashMap::new(),
    };
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let mut dumped: BTreeMap<String, LaunchSizes> = BTreeMap::new();
    let mut kernels = 0;
    for ((r, scop), schedule) in file.regions.iter().zip(&file.scops).zip(schedules) {
        let failed = |why: String| generation_failed(file, scop, "CUDA code generation", why);
        check_packs(schedule).map_err(failed)?;
        let locals = local_arrays(scop).map_err(failed)?;
        // One copy statement per buffer and direction: the threads of a
        // block share it out, each cell copied once.
        let lowered =
            pack::lower(scop, schedule, pack::Copies::Whole).map_err(|e| failed(e.to_string()))?;
        let (scop, schedule, buffers) = pack::printed(&lowered, scop, schedule);
        let nodes = scan(scop, schedule).map_err(|e| failed(e.to_string()))?;
        let indent = splice::leading_indent(&file.text[r.body.clone()]);
        let packed = Packed { schedule, buffers };
        let launches = Launches {
            first: kernels,
            sizes: &given,
        };
        let region = cuda_region(scop, &nodes, &packed, &locals, indent, &file.text, launches)
            .map_err(failed)?;
        kernels += region.kernels.len();
        for k in &region.kernels {
            if let Some(sizes) = &k.sizes {
                dumped.insert(k.name.clone(), sizes.clone());
            }
        }
        let at = declaration_start(&file.text, r.open.start);
        let text: String = region
            .kernels
            .iter()
            .map(|k| format!("\n{}", kernel_text(k)))
            .collect();
        edits.push((at..at, text));
        edits.push((r.body.clone(), region.body));
    }
    if let Some(name) = given.keys().find(|k| !dumped.contains_key(*k)) {
        return Err(Outcome::usage(format!(
            "--sizes names `{name}`, which is not a kernel with blocks and threads here (`--dump-sizes` lists them)"
        )));
    }
    if cli.dump_sizes {
        // One kernel a line: the form `--sizes` reads.
        let lines: Vec<String> = dumped
            .iter()
            .map(|(name, sizes)| {
                let value = serde_json::to_string(sizes).unwrap_or_default();
                format!(
                    "  \"{name}\": {}",
                    value.replace(',', ", ").replace(':', ": ")
                )
            })
            .collect();
        if lines.is_empty() {
            return Ok("{}\n".into());
        }
        return Ok(format!("{{\n{}\n}}\n", lines.join(",\n")));
    }
    Ok(format!("{CUDA_HELPERS}{}", splice::edit(&file.text, edits)))
}

/// The file with every region generated from its schedule (one per region).
fn generate(
    file: &SourceFile,
    schedules: &[Schedule],
    opts: PrintOptions,
) -> Result<String, Outcome> {
    let mut edits = Vec::new();
    let mut printed = String::new();
    for ((r, scop), schedule) in file.regions.iter().zip(&file.scops).zip(schedules) {
        let failed = |why: String| generation_failed(file, scop, "code generation", why);
        let locals = local_arrays(scop).map_err(failed)?;
        let (lowered, nodes) =
            pack::lowered_and_scanned(scop, schedule).map_err(|e| failed(e.to_string()))?;
        let (scop, _, buffers) = pack::printed(&lowered, scop, schedule);
        let indent = splice::leading_indent(&file.text[r.body.clone()]);
        // Parallel constructs go into functions of their own, unless the
        // region declares arrays around them (`emit::outline`).
        let scope =
            (opts.pragmas && locals.is_empty()).then(|| FileScope::new(&file.text, r.open.start));
        let code = print_loops_in(&nodes, scop, indent, opts, buffers, scope.as_ref())
            .map_err(|e| failed(e.to_string()))?;
        let body = locals::wrap(&code.body, &locals, indent);
        printed.push_str(&body);
        printed.push_str(&code.functions);
        if let Some(scope) = scope.filter(|_| !code.functions.is_empty()) {
            let at = scope.insert_at();
            edits.push((at..at, code.functions));
        }
        edits.push((r.body.clone(), body));
    }
    let out = splice::edit(&file.text, edits);
    let helpers = ["polyc_floord", "polyc_ceild", "polyc_max", "polyc_min"];
    if helpers.iter().any(|h| printed.contains(h)) && !file.text.contains("#ifndef polyc_floord") {
        return Ok(format!("{HELPERS}{out}"));
    }
    Ok(out)
}
