//! `--explain`: the final schedule of the selected region as a recipe
//! that replays it ([`crate::explain`]).

use super::recipes::LoadedRecipe;
use super::{region_dependences, region_error, Outcome};
use crate::cli::Cli;
use crate::explain::nest::explained_from;
use crate::explain::{difference, explain, print};
use crate::lang::c::SourceFile;
use crate::lang::recipe::print::calls_text;
use crate::lang::recipe::{parse_recipe, Call, Recipe};
use crate::scop::{Schedule, Scop};
use crate::session::run_recipe;
use crate::session::table::{is_auto, is_context, is_data_directive, lookup};
use crate::syntax::print::expr_text;

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
    // A data-layout call that changed no access (`dimreorder` by the
    // identity) may still have made the schedule of its moment the
    // program's original order.
    let data_calls =
        recipe.is_some_and(|r| r.recipe.calls.iter().any(|c| is_data_directive(&c.name)));
    if let Some(o) = original
        .get(k)
        .filter(|o| data_calls || !same_accesses(o, scop))
    {
        // The schedule is one of the rewritten program, which a recipe
        // replayed on the original does not start from: the recipe's
        // data-layout calls are kept around the explanation of the others.
        let layout = match (recipe, &cli.schedule) {
            (Some(r), None) => layout_around(file, o, r, (scop, &schedules[k]))?,
            _ => Err(NOT_A_RECIPE),
        };
        let reason = match layout {
            Ok(layout) => {
                let deps = region_dependences(file, &layout.scop)?;
                let e = explain(&layout.scop, &deps, &layout.target).map_err(|e| {
                    region_error(
                        file,
                        scop,
                        format!("polyc could not explain the schedule: {e}"),
                    )
                })?;
                let tail = match &layout.tail {
                    Some(tail) => {
                        let deps = region_dependences(file, &tail.scop)?;
                        let explained = match tail.start == Schedule::original(&tail.scop) {
                            true => explain(&tail.scop, &deps, &tail.target).map(Some),
                            false => explained_from(&tail.scop, &deps, &tail.start, &tail.target),
                        };
                        let e = explained.map_err(|e| {
                            region_error(
                                file,
                                scop,
                                format!("polyc could not explain the schedule: {e}"),
                            )
                        })?;
                        let Some(e) = e else {
                            let reason = format!(
                                "data-layout directives changed its arrays or accesses, and \
                                 {TAIL_NOT_FROM_ORIGINAL}"
                            );
                            return Ok(print::recipe(&not_kept(reason), &header));
                        };
                        Some(e)
                    }
                    None => None,
                };
                let text =
                    print::recipe_around(&e, &header, &layout.before, &layout.after, tail.as_ref());
                let gap = e.gap.is_some() || tail.as_ref().is_some_and(|t| t.gap.is_some());
                if gap || replays_to(file, o, &text, scop, &schedules[k])? {
                    return Ok(text);
                }
                NOT_REPLAYED
            }
            Err(reason) => reason,
        };
        let reason = format!("data-layout directives changed its arrays or accesses, and {reason}");
        return Ok(print::recipe(&not_kept(reason), &header));
    }
    let deps = region_dependences(file, scop)?;
    let e = explain(scop, &deps, &schedules[k]).map_err(|e| {
        region_error(
            file,
            scop,
            format!("polyc could not explain the schedule: {e}"),
        )
    })?;
    // A recipe's `context(…)` calls: the directives found may be legal
    // only under the parameters' values they allow.
    let contexts: Vec<Call> = recipe
        .map(|r| {
            let calls = r.recipe.calls.iter().filter(|c| is_context(&c.name));
            calls
                .map(|c| Call {
                    group: None,
                    ..c.clone()
                })
                .collect()
        })
        .unwrap_or_default();
    let Some(before) = calls_text(&contexts) else {
        return Ok(print::recipe(&not_kept(NO_SPELLING.to_string()), &header));
    };
    let text = print::recipe_between(&e, &header, &before, &[]);
    let o = original.get(k).unwrap_or(scop);
    if e.gap.is_some() || replays_to(file, o, &text, scop, &schedules[k])? {
        return Ok(text);
    }
    Ok(print::recipe(
        &not_kept(NOT_REPLAYED_AS_A_RECIPE.to_string()),
        &header,
    ))
}

/// An explanation that gives nothing, and says why.
fn not_kept(reason: String) -> crate::explain::Explanation {
    crate::explain::Explanation {
        steps: Vec::new(),
        gap: Some(crate::explain::Gap {
            statement: "the region".to_string(),
            reason,
        }),
    }
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

/// Why a recipe's data-layout calls cannot be kept around an
/// explanation (each completes "data-layout directives changed its
/// arrays or accesses, and …").
const NOT_A_RECIPE: &str = "only a recipe's data-layout calls are kept around an explanation";
const AUTO_AFTER: &str = "`auto` runs between two data-layout calls that the recipe's other \
                          calls precede; a schedule is explained only from the original \
                          order of the program it schedules, and the calls between are kept \
                          as written";
const TAIL_NOT_FROM_ORIGINAL: &str = "`auto` runs after its last data-layout call, which leaves \
                                      a schedule that is not the original order of the program \
                                      it makes, and differs from it in more than one nest left \
                                      at its original dates";
const NO_SPELLING: &str = "a call kept as written has an argument with no plain spelling";
const NOT_FROM_ORIGINAL: &str = "the program the recipe's first calls make does not start from \
                                 its original order";
const NOT_REPLAYED: &str = "the calls kept as written do not replay to the same program on \
                            the explanation";
/// Why an explanation is not printed: it does not replay through the
/// recipe language as it did through `apply` (a polyc bug).
const NOT_REPLAYED_AS_A_RECIPE: &str = "the directives found do not replay as a recipe to its \
                                        schedule (a polyc bug)";

/// A recipe's data-layout calls kept around the explanation. The calls
/// before its first other call (`before`; `add_array` and `get_array_id`
/// outside a group are moved there, as they read and change neither the
/// schedule nor an access) make the program the schedule is explained on
/// (`scop`, starting from its original order). The schedule the other
/// calls give it up to the next data-layout call (`target`) is
/// explained. From that call on, the calls are kept as written
/// (`after`): their β-vectors and checks read the schedule of that
/// moment, which the explanation gives again. A `group` is cut at its
/// start. Where an `auto` follows the last data-layout call, the calls
/// are kept as written up to the end of that call only, and the schedule
/// the rest give is explained too ([`Tail`]).
struct LayoutAround {
    before: Vec<String>,
    after: Vec<String>,
    scop: Scop,
    target: Schedule,
    tail: Option<Tail>,
}

/// The calls after a recipe's last data-layout call, where an `auto` is
/// among them: the program that call makes, its schedule then (`start`:
/// its original order, or one whose nests the `auto` leaves alone but
/// one at its original dates, [`explained_from`]), and the final
/// schedule.
struct Tail {
    scop: Scop,
    start: Schedule,
    target: Schedule,
}

/// [`LayoutAround`] of `recipe` on the region `original`, or why there is
/// none: an `auto` between two data-layout calls kept as written, or
/// after the last one where that leaves a schedule other than the
/// original order of the program it makes; an argument with no plain
/// spelling; or a program from the first calls that does not start from
/// its own original order. `last` is the program and schedule the whole
/// recipe gave: where calls that end the recipe would be run again to
/// reach it (an `auto` among them is the costly part), it is taken
/// instead, on the same program.
fn layout_around(
    file: &SourceFile,
    original: &Scop,
    recipe: &LoadedRecipe,
    last: (&Scop, &Schedule),
) -> Result<Result<LayoutAround, &'static str>, Outcome> {
    let calls = declarations_first(&recipe.recipe.calls);
    let data = |c: &Call| is_data_directive(&c.name) || is_context(&c.name);
    // The start of the group that holds `cut` and a call before it.
    let group_start = |mut cut: usize| {
        while cut > 0
            && cut < calls.len()
            && calls[cut - 1].group.is_some()
            && calls[cut - 1].group == calls[cut].group
        {
            cut -= 1;
        }
        cut
    };
    let first = group_start(calls.iter().position(|c| !data(c)).unwrap_or(calls.len()));
    let kept = calls[first..]
        .iter()
        .position(data)
        .map_or(calls.len(), |p| group_start(first + p).max(first));
    // The end of the last data-layout call (of its group), and whether
    // an `auto` comes after it: the calls from there on are explained.
    let last_end = match calls[kept..].iter().rposition(data) {
        Some(p) => {
            let mut end = kept + p + 1;
            while end < calls.len()
                && calls[end].group.is_some()
                && calls[end].group == calls[end - 1].group
            {
                end += 1;
            }
            end
        }
        None => kept,
    };
    if calls[kept..last_end].iter().any(|c| is_auto(&c.name)) {
        return Ok(Err(AUTO_AFTER));
    }
    let auto_after = calls[last_end..].iter().any(|c| is_auto(&c.name));
    let as_written = if auto_after { last_end } else { calls.len() };
    let (Some(before), Some(after)) = (
        calls_text(&calls[..first]),
        calls_text(&calls[kept..as_written]),
    ) else {
        return Ok(Err(NO_SPELLING));
    };
    let deps = region_dependences(file, original)?;
    let run = |upto: usize| {
        let prefix = Recipe {
            calls: calls[..upto].to_vec(),
        };
        run_recipe(original, &deps, Schedule::original(original), &prefix).ok()
    };
    // The schedule the calls up to `upto` give the program `from`: the
    // whole recipe's where they are all of it on that program.
    let until = |upto: usize, from: &Scop| match upto == calls.len() && same_program(from, last.0) {
        true => Some(last.1.clone()),
        false => run(upto).map(|r| r.schedule),
    };
    let Some(made) = run(first) else {
        return Ok(Err(NOT_FROM_ORIGINAL));
    };
    if made.schedule != Schedule::original(&made.scop) {
        return Ok(Err(NOT_FROM_ORIGINAL));
    }
    let Some(target) = until(kept, &made.scop) else {
        return Ok(Err(NOT_FROM_ORIGINAL));
    };
    let tail = match auto_after {
        true => {
            let Some(start) = run(last_end) else {
                return Ok(Err(TAIL_NOT_FROM_ORIGINAL));
            };
            let Some(whole) = until(calls.len(), &start.scop) else {
                return Ok(Err(TAIL_NOT_FROM_ORIGINAL));
            };
            Some(Tail {
                scop: start.scop,
                start: start.schedule,
                target: whole,
            })
        }
        false => None,
    };
    Ok(Ok(LayoutAround {
        before,
        after,
        scop: made.scop,
        target,
        tail,
    }))
}

/// `calls` with the `add_array`s, `get_array_id`s and `context`s outside a
/// group moved first, in their order: the first ones only name arrays,
/// and a narrower context earlier only drops dependences from the checks
/// before it. The first one that must stay (in a group, binding a
/// variable the recipe binds again, or a `context` after an `auto`,
/// whose scheduler reads the dependences it narrows) keeps the later
/// ones where they are, so that the arrays are added in the recipe's
/// order.
fn declarations_first(calls: &[Call]) -> Vec<Call> {
    let declares = |c: &Call| {
        is_context(&c.name)
            || lookup(&c.name).is_some_and(|d| matches!(d.name, "add_array" | "get_array_id"))
    };
    let first_auto = calls.iter().position(|c| is_auto(&c.name));
    let after_auto = |k: usize, c: &Call| is_context(&c.name) && first_auto.is_some_and(|a| a < k);
    let bound_once = |c: &Call| {
        c.bind.as_ref().is_none_or(|(v, _)| {
            calls
                .iter()
                .filter(|d| d.bind.as_ref().is_some_and(|(w, _)| w == v))
                .count()
                == 1
        })
    };
    let stays = calls
        .iter()
        .enumerate()
        .position(|(k, c)| declares(c) && (c.group.is_some() || !bound_once(c) || after_auto(k, c)))
        .unwrap_or(calls.len());
    let (mut first, rest): (Vec<Call>, Vec<Call>) =
        calls[..stays].iter().cloned().partition(|c| declares(c));
    first.extend(rest);
    first.extend_from_slice(&calls[stays..]);
    first
}

/// Whether the recipe `text` (an explanation) gives, replayed on the
/// region `original`, the program `scop` and its schedule `schedule`.
fn replays_to(
    file: &SourceFile,
    original: &Scop,
    text: &str,
    scop: &Scop,
    schedule: &Schedule,
) -> Result<bool, Outcome> {
    let Ok(recipe) = parse_recipe(text, &[]) else {
        return Ok(false);
    };
    let deps = region_dependences(file, original)?;
    let Ok(replayed) = run_recipe(original, &deps, Schedule::original(original), &recipe) else {
        return Ok(false);
    };
    Ok(same_program(scop, &replayed.scop)
        && matches!(difference(scop, schedule, &replayed.schedule), Ok(None)))
}

/// Whether `a` and `b` are the same program: arrays, context, and each
/// statement's domain, body and accesses.
fn same_program(a: &Scop, b: &Scop) -> bool {
    let statement = |s: &crate::scop::Statement| {
        let accesses: Vec<String> = s
            .accesses
            .iter()
            .map(|x| format!("{:?} {} {}", x.kind, x.array, x.relation))
            .collect();
        (
            s.name.clone(),
            s.domain.to_string(),
            expr_text(&s.body),
            accesses,
        )
    };
    a.arrays == b.arrays
        && a.context.to_string() == b.context.to_string()
        && a.statements.len() == b.statements.len()
        && a.statements
            .iter()
            .zip(&b.statements)
            .all(|(x, y)| statement(x) == statement(y))
}
