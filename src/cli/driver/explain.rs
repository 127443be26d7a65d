//! `--explain`: the final schedule of the selected region as a recipe
//! that replays it ([`crate::explain`]).

use super::recipes::LoadedRecipe;
use super::{region_dependences, region_error, Outcome};
use crate::cli::Cli;
use crate::explain::{explain, print};
use crate::lang::c::SourceFile;
use crate::lang::recipe::{Call, Recipe, Value};
use crate::scop::{Schedule, Scop};
use crate::session::run_recipe;
use crate::session::table::is_data_directive;

/// The recipe that gives `schedules`' schedule of the one selected region
/// from its original one. `original` is the region list before the
/// recipe (data-layout directives change it).
pub(super) fn explained(
    file: &SourceFile,
    original: &[Scop],
    cli: &Cli,
    schedules: &[Schedule],
    recipe: Option<&LoadedRecipe>,
) -> Result<String, Outcome> {
    let chosen: Vec<usize> = (0..file.scops.len())
        .filter(|&k| cli.scop.is_none_or(|n| file.scops[k].region == n))
        .collect();
    let k = match chosen[..] {
        [k] => k,
        [] => {
            return Err(Outcome::usage(format!(
                "{}: no scop region to explain",
                file.name
            )))
        }
        _ => {
            return Err(Outcome::usage(format!(
                "--explain explains one region and {} has {}; choose one with --scop N",
                file.name,
                chosen.len()
            )))
        }
    };
    let scop = &file.scops[k];
    let file_name = |p: &std::path::Path| {
        p.file_name().map_or_else(
            || p.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    let source = match (&cli.recipe, &cli.schedule) {
        (Some(r), _) => format!("the recipe {}", file_name(r)),
        (None, Some(s)) => format!("the schedule {}", file_name(s)),
        (None, None) => "its original schedule".to_string(),
    };
    let header = vec![
        format!(
            "polyc --explain: region {} of {}, scheduled by {source},",
            scop.region, file.name
        ),
        "as directives from the original program. Replay with".to_string(),
        format!("  polyc {} --recipe THIS_FILE", file.name),
        "Each directive is checked as it is replayed; a group's together.".to_string(),
    ];
    if let Some(o) = original.get(k).filter(|o| !same_accesses(o, scop)) {
        // The schedule is one of the rewritten program, which a recipe
        // replayed on the original does not start from: where the
        // recipe's data-layout calls come first and last, they are kept
        // around the explanation of the others.
        let layout = match (recipe, &cli.schedule) {
            (Some(r), None) => layout_around(file, o, r)?,
            _ => None,
        };
        if let Some(layout) = layout {
            let deps = region_dependences(file, &layout.scop)?;
            let e = explain(&layout.scop, &deps, &layout.target).map_err(|e| {
                region_error(
                    file,
                    scop,
                    format!("polyc could not explain the schedule: {e}"),
                )
            })?;
            return Ok(print::recipe_between(
                &e,
                &header,
                &layout.before,
                &layout.after,
            ));
        }
        let e = crate::explain::Explanation {
            steps: Vec::new(),
            gap: Some(crate::explain::Gap {
                statement: "the region".to_string(),
                reason: "data-layout directives changed its arrays or accesses, and not \
                         only before and after the recipe's other calls; they are not \
                         recovered"
                    .to_string(),
            }),
        };
        return Ok(print::recipe(&e, &header));
    }
    let deps = region_dependences(file, scop)?;
    let e = explain(scop, &deps, &schedules[k]).map_err(|e| {
        region_error(
            file,
            scop,
            format!("polyc could not explain the schedule: {e}"),
        )
    })?;
    Ok(print::recipe(&e, &header))
}

/// Whether `a` and `b` have the same arrays, statements and accesses (by
/// array and kind): what data-layout directives change.
fn same_accesses(a: &Scop, b: &Scop) -> bool {
    let shape = |s: &Scop| -> Vec<Vec<(String, bool)>> {
        s.statements
            .iter()
            .map(|st| {
                st.accesses
                    .iter()
                    .map(|x| (x.array.clone(), x.kind == crate::scop::AccessKind::Read))
                    .collect()
            })
            .collect()
    };
    a.arrays.len() == b.arrays.len() && shape(a) == shape(b)
}

/// A recipe's data-layout calls kept around the explanation: the ones
/// before its first other call, written as calls (`before`), make the
/// program the schedule is explained on (`scop`, starting from its
/// original order); the schedule the other calls give it (`target`) is
/// explained; the ones after its last other call (`after`) rewrite the
/// program on that schedule, as they did in the recipe.
struct LayoutAround {
    before: Vec<String>,
    after: Vec<String>,
    scop: Scop,
    target: Schedule,
}

/// [`LayoutAround`] of `recipe` on the region `original`; `None` where a
/// data-layout call sits among the other calls, a `group` holds calls of
/// both kinds, a call's arguments are not plain values, or the program
/// the first calls make does not start from its own original order.
fn layout_around(
    file: &SourceFile,
    original: &Scop,
    recipe: &LoadedRecipe,
) -> Result<Option<LayoutAround>, Outcome> {
    let calls = &recipe.recipe.calls;
    let data = |c: &Call| is_data_directive(&c.name);
    let first = calls.iter().position(|c| !data(c)).unwrap_or(calls.len());
    let last = calls
        .iter()
        .rposition(|c| !data(c))
        .map_or(first, |p| p + 1);
    let across = |cut: usize| {
        cut > 0
            && cut < calls.len()
            && calls[cut - 1].group.is_some()
            && calls[cut - 1].group == calls[cut].group
    };
    if calls[first..last].iter().any(data) || across(first) || across(last) {
        return Ok(None);
    }
    let (Some(before), Some(after)) = (written(&calls[..first]), written(&calls[last..])) else {
        return Ok(None);
    };
    let deps = region_dependences(file, original)?;
    let run = |upto: usize| {
        let prefix = Recipe {
            calls: calls[..upto].to_vec(),
        };
        run_recipe(original, &deps, Schedule::original(original), &prefix).ok()
    };
    let (Some(made), Some(scheduled)) = (run(first), run(last)) else {
        return Ok(None);
    };
    if made.schedule != Schedule::original(&made.scop) {
        return Ok(None);
    }
    Ok(Some(LayoutAround {
        before,
        after,
        scop: made.scop,
        target: scheduled.schedule,
    }))
}

/// `calls` as recipe lines, each call with its binding (`t =
/// add_array("t");`), the calls of one `group` inside `group { … }`;
/// `None` where an argument is not a plain value (an affine constraint).
fn written(calls: &[Call]) -> Option<Vec<String>> {
    let mut lines = Vec::new();
    let mut open = None;
    for c in calls {
        if c.group != open {
            if open.is_some() {
                lines.push("}".to_string());
            }
            if c.group.is_some() {
                lines.push("group {".to_string());
            }
            open.clone_from(&c.group);
        }
        let args: Option<Vec<String>> = c
            .args
            .iter()
            .map(|a| {
                let v = value_text(&a.value)?;
                Some(match &a.name {
                    Some(n) => format!("{n} = {v}"),
                    None => v,
                })
            })
            .collect();
        let bind = c
            .bind
            .as_ref()
            .map_or(String::new(), |(v, _)| format!("{v} = "));
        let indent = if open.is_some() { "  " } else { "" };
        lines.push(format!("{indent}{bind}{}({});", c.name, args?.join(", ")));
    }
    if open.is_some() {
        lines.push("}".to_string());
    }
    Some(lines)
}

/// A plain argument as the recipe language writes it.
fn value_text(v: &Value) -> Option<String> {
    let list = |xs: &[i64]| xs.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    Some(match v {
        Value::Int(n) => n.to_string(),
        Value::Beta(b) => format!("[{}]", list(b)),
        Value::Label(l) => format!("@{l}"),
        Value::Sections(s) => {
            let parts: Vec<String> = s.iter().map(|x| list(x)).collect();
            format!("{{{}}}", parts.join(" | "))
        }
        Value::Str(s) if !s.contains(['"', '\\']) => format!("\"{s}\""),
        Value::Ident(name) => name.clone(),
        Value::Str(_) | Value::Constraint(_) => return None,
    })
}
