//! `--recipe`: a `.poly` recipe (with `--set` overrides) or a `.rhai`
//! script, and the recipes written in `/* Clay … */` comments of a region,
//! applied region by region through `session`.

use std::path::Path;

use super::{generate, in_region, not_implemented, read_text, region_dependences, Outcome};
use crate::cli::bench::{compare, BenchOptions};
use crate::cli::{Cli, Target};
use crate::emit::PrintOptions;
use crate::lang::c::SourceFile;
use crate::lang::recipe::{clay_comment, parse_recipe, Recipe};
use crate::scop::Schedule;
use crate::session::script::{run_script, LogEntry, Measurement, Measurer, ScriptOptions};
use crate::session::{run_recipe, RecipeError, RecipeState};
use crate::syntax::diagnostic::Diagnostic;

/// Without `--recipe`, a region holding a `/* Clay … */` comment gets that
/// recipe (as Clay's own test files are written). Its diagnostics point
/// into the C file.
pub(super) fn apply_clay_comments(
    file: &SourceFile,
    only: Option<usize>,
    schedules: &mut [Schedule],
    chosen: &mut [Vec<String>],
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
        let narrowed = apply_recipe(file, Some(scop.region), &loaded, schedules, chosen, stderr)?;
        scops[k] = narrowed[k].clone();
    }
    Ok(scops)
}

/// The recipe's spans moved `offset` bytes on, into the file around it.
pub(super) fn shift_recipe(mut recipe: Recipe, offset: usize) -> Recipe {
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
pub(super) fn is_script(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "rhai")
}

/// `--set NAME=VALUE` as pairs; a usage error without `=`.
pub(super) fn overrides(set: &[String]) -> Result<Vec<(String, String)>, Outcome> {
    set.iter()
        .map(|s| match s.split_once('=') {
            Some((n, v)) => Ok((n.trim().to_string(), v.trim().to_string())),
            None => Err(Outcome::usage(format!("--set {s}: expected NAME=VALUE"))),
        })
        .collect()
}

/// Read and parse the recipe at `path` with the `--set` overrides; a parse
/// error is rendered against the recipe file (exit 1).
pub(super) fn load_recipe(path: &Path, set: &[String]) -> Result<LoadedRecipe, Outcome> {
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
pub(super) struct LoadedRecipe {
    pub(super) name: String,
    pub(super) text: String,
    pub(super) recipe: Recipe,
}

/// Apply `recipe` to each selected region: its dependences, then the
/// directives in order. A refusal is rendered against the recipe (exit 1;
/// the region is named when the file has several); warnings go to `stderr`.
pub(super) fn apply_recipe(
    file: &SourceFile,
    only: Option<usize>,
    recipe: &LoadedRecipe,
    schedules: &mut [Schedule],
    chosen: &mut [Vec<String>],
    stderr: &mut String,
) -> Result<Vec<crate::scop::Scop>, Outcome> {
    let mut scops = file.scops.clone();
    let regions = file.scops.iter().zip(schedules.iter_mut()).zip(chosen);
    for ((scop, schedule), chosen) in regions {
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
                *chosen = done.chosen;
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
pub(super) fn apply_script(
    file: &SourceFile,
    cli: &Cli,
    path: &Path,
    schedules: &mut [Schedule],
    chosen: &mut [Vec<String>],
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
                chosen[k] = done.state.chosen;
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
pub(super) fn measurer(
    file: SourceFile,
    schedules: Vec<Schedule>,
    k: usize,
    pragmas: bool,
) -> Box<Measurer> {
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
