//! The diagnostic of a refused directive: a precondition's message, or for
//! a dependence its type, statements, how the original program carries
//! it, a witness pair of instances and a help line that suggests a way
//! around it.

use super::RecipeState;
use crate::apply::{tree, ApplyError, Directive};
use crate::lang::recipe::Call;
use crate::poly::PolyError;
use crate::scop::reduction::update_operator;
use crate::scop::validity::Violation;
use crate::scop::{DepKind, Dependence, Schedule, Scop};
use crate::syntax::diagnostic::Diagnostic;

/// The diagnostic for `directive`, refused by `apply` with `e` on `state`.
pub fn diagnostic(
    call: &Call,
    state: &RecipeState,
    directive: &Directive,
    e: ApplyError,
) -> Diagnostic {
    let targeted = targeted_statements(directive, &state.schedule);
    diagnostic_for(call, state, &targeted, e)
}

/// The diagnostic for `call`, which addresses the statements `targeted`,
/// refused with `e` on `state` (whose dependences a violation indexes).
pub fn diagnostic_for(
    call: &Call,
    state: &RecipeState,
    targeted: &[usize],
    e: ApplyError,
) -> Diagnostic {
    let (scop, deps) = (&state.scop, state.deps.as_slice());
    let at = call.span.clone();
    match e {
        ApplyError::Precondition { message, help } => {
            let d = Diagnostic::error(message, at).with_label(format!("`{}` refused", call.name));
            match help {
                Some(h) => d.with_help(h),
                None => d,
            }
        }
        ApplyError::Violation(v) => {
            let dep = &deps[v.dependence];
            Diagnostic::error(
                format!(
                    "`{}` would violate a {} dependence {}",
                    call.name,
                    kind(dep.kind),
                    dep_text(scop, dep)
                ),
                at,
            )
            .with_label(if call.name == "group" {
                "at the end of this group, the dependence's target runs first"
            } else {
                "after this directive, the dependence's target runs first"
            })
            .with_note(dep_details(dep))
            .with_note(format!("for example: {}", v.describe(scop, deps)))
            .with_help(violation_help(&call.name, dep, targeted))
        }
        ApplyError::Carried {
            depth,
            jammed,
            violation,
        } => carried(call, scop, deps, depth, jammed, &violation),
        ApplyError::Jam {
            depth,
            factor,
            with,
            violation,
        } => {
            let dep = &deps[violation.dependence];
            let together = match with {
                Some((outer, f)) => {
                    format!(" together with the loop at depth {outer} (jammed by {f})")
                }
                None => String::new(),
            };
            let message = match (call.name.as_str(), with) {
                ("unroll_jam", Some(_)) => format!(
                    "the loop at depth {depth} cannot be unrolled by {factor} and jammed{together}: their copies would run a {} dependence {} out of order",
                    kind(dep.kind),
                    dep_text(scop, dep)
                ),
                _ => format!(
                    "after `{}`, the loop at depth {depth}, marked earlier to be unrolled by {factor} and jammed, could not be jammed{together}: its copies would run a {} dependence {} out of order",
                    call.name,
                    kind(dep.kind),
                    dep_text(scop, dep)
                ),
            };
            Diagnostic::error(message, at)
                .with_label(if with.is_some() {
                    "jammed together, the two loops' copies reorder this dependence"
                } else {
                    "this directive changes the jammed loop's dependences"
                })
                .with_note(dep_details(dep))
                .with_note(format!(
                    "for example, on the jammed schedule: {}",
                    violation.describe(scop, deps)
                ))
                .with_help(if with.is_some() {
                    "jam only one of the two loops: each alone keeps this dependence in order"
                } else {
                    "apply `unroll_jam` after the directives that reorder its loop"
                })
        }
        ApplyError::Changed(difference) => Diagnostic::error(
            format!("`{}` would change what the program computes", call.name),
            at,
        )
        .with_label(if call.name == "group" {
            "at the end of this group"
        } else {
            "after this directive"
        })
        .with_note(crate::apply::data::describe(scop, &difference))
        .with_help(crate::apply::data::changed_help(&call.name)),
        ApplyError::Poly(e) => {
            let d = Diagnostic::error(format!("`{}` could not be checked: {e}", call.name), at)
                .with_label("legality not proven")
                .with_note("polyc applies a directive only when it can prove it legal");
            match e {
                PolyError::StepLimit(_) => d.with_help(
                    "the exact tests stop after a fixed amount of work (docs/recipe-language.md, \
                     \"Limits\"); a smaller factor, or the directive applied before the tiling, \
                     is cheaper to prove",
                ),
                _ => d,
            }
        }
    }
}

fn carried(
    call: &Call,
    scop: &Scop,
    deps: &[Dependence],
    depth: usize,
    jammed: Vec<(usize, u32)>,
    v: &Violation,
) -> Diagnostic {
    let dep = &deps[v.dependence];
    if !jammed.is_empty() {
        let jam = match jammed.as_slice() {
            [(outer, factor)] => format!(
                "once the loop at depth {outer} around it is unrolled by {factor} and jammed"
            ),
            _ => format!(
                "once the loops at depths {} around it are unrolled by {} and jammed together",
                and_list(jammed.iter().map(|(d, _)| d)),
                and_list(jammed.iter().map(|(_, f)| f))
            ),
        };
        let message = match call.name.as_str() {
            "parallelize" | "vectorize" => format!(
                "the loop at depth {depth} would carry a {} dependence {} {jam}: it cannot be marked {}",
                kind(dep.kind),
                dep_text(scop, dep),
                if call.name == "vectorize" { "vector" } else { "parallel" }
            ),
            _ => format!(
                "after `{}`, the loop at depth {depth}, marked parallel or vector, would carry a {} dependence {} {jam}",
                call.name,
                kind(dep.kind),
                dep_text(scop, dep)
            ),
        };
        return Diagnostic::error(
            message,
            call.span.clone(),
        )
        .with_label("the jammed copies would share this loop's iterations")
        .with_note(dep_details(dep))
        .with_note(format!(
            "for example, on the jammed schedule: {}",
            v.describe(scop, deps)
        ))
        .with_help("jam a loop whose copies are independent along the marked loop, or mark a loop outside the jammed one");
    }
    if call.name == "vectorize" {
        return Diagnostic::error(
            format!(
                "the loop at depth {depth} carries a {} dependence {} between iterations less than two apart: it cannot be marked vector",
                kind(dep.kind),
                dep_text(scop, dep),
            ),
            call.span.clone(),
        )
        .with_label("SIMD lanes would run this dependence's two ends at once")
        .with_note(dep_details(dep))
        .with_note(format!("for example: {}", v.describe(scop, deps)))
        .with_help("a vector loop may carry dependences whose ends are at least two iterations apart (`safelen`); skewing or interchanging can move this one outward");
    }
    let message = if call.name == "parallelize" {
        format!(
            "the loop at depth {depth} carries a {} dependence {}: it cannot be marked parallel",
            kind(dep.kind),
            dep_text(scop, dep),
        )
    } else if call.name == "gpu_block" || call.name == "gpu_thread" {
        format!(
            "the loop at depth {depth} carries a {} dependence {}: its iterations cannot run on different CUDA {}",
            kind(dep.kind),
            dep_text(scop, dep),
            if call.name == "gpu_block" { "blocks" } else { "threads" }
        )
    } else {
        format!(
            "after `{}`, the loop at depth {depth}, marked parallel or vector earlier, would carry a {} dependence {}",
            call.name,
            kind(dep.kind),
            dep_text(scop, dep)
        )
    };
    // A dependence between two updates of one scalar, by one operator:
    // a reduction the user may ask for.
    let asked = call
        .args
        .iter()
        .any(|a| a.name.as_deref() == Some("reduction"));
    let reduction = if call.name == "parallelize" && !asked {
        let update = |s: usize| update_operator(&scop.statements[s], &dep.array);
        let scalar = scop
            .arrays
            .iter()
            .any(|a| a.name == dep.array && a.n_dims == 0);
        match (update(dep.source), update(dep.target)) {
            (Some(a), Some(b)) if scalar && a == b => Some(a),
            _ => None,
        }
    } else {
        None
    };
    let help = match reduction {
        Some(op) => format!(
            "both ends update `{x}` with `{}`: `parallelize(…, reduction = {x})` lets the loop carry them (each thread updates its own copy; floating-point sums may then differ in the last digits)",
            op.symbol(),
            x = dep.array
        ),
        None => "a loop that carries no dependence may be parallel; skewing or interchanging can move the dependence outward".to_string(),
    };
    Diagnostic::error(message, call.span.clone())
        .with_label("this loop's iterations are not independent")
        .with_note(dep_details(dep))
        .with_note(format!("for example: {}", v.describe(scop, deps)))
        .with_help(help)
}

fn kind(k: DepKind) -> &'static str {
    match k {
        DepKind::Raw => "RAW",
        DepKind::War => "WAR",
        DepKind::Waw => "WAW",
        DepKind::Rar => "RAR",
    }
}

fn dep_text(scop: &Scop, dep: &Dependence) -> String {
    format!(
        "{} -> {} on `{}`",
        scop.statements[dep.source].name, scop.statements[dep.target].name, dep.array
    )
}

fn dep_details(dep: &Dependence) -> String {
    let distance = match &dep.distance {
        Some(d) if d.is_empty() => "no common loop".to_string(),
        Some(d) => format!(
            "distance ({})",
            d.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => "non-uniform distance".to_string(),
    };
    if dep.is_loop_independent() {
        format!("in the original program the dependence is loop-independent (textual order), {distance}")
    } else {
        format!(
            "in the original program the loop at depth {} carries the dependence, {distance}",
            dep.depth
        )
    }
}

fn violation_help(name: &str, dep: &Dependence, targeted: &[usize]) -> String {
    let between = targeted.contains(&dep.source) != targeted.contains(&dep.target);
    match name {
        "interchange" | "tile" | "tile_band" | "stripmine" | "skew" | "shift" | "reverse"
            if between =>
        {
            "the directive changes the loops of only one of the two statements; apply it to the \
             loop around both, or `split` them into separate loops first"
                .to_string()
        }
        "group" => "a group is checked at its end only: add the directive that puts these two \
                    instances back in order, or apply the group's directives one at a time to see \
                    which one reorders them"
            .to_string(),
        "tile_band" => "tile loops run outside every point loop, so the band must be permutable: \
                        skew so that each dependence in it has no negative component, or `split` \
                        statements whose loops differ into nests of their own first"
            .to_string(),
        "interchange" | "tile" => format!(
            "skew first so that the dependence carried at depth {} has no negative component, then interchange",
            dep.depth
        ),
        "fuse" | "merge" | "fuse_next" => {
            "shift the second loop first so that its iterations read what the first has written".to_string()
        }
        "reverse" => format!(
            "the loop at depth {} carries the dependence; reversing it runs the target first",
            dep.depth
        ),
        _ => "the directive reorders these two instances; see the example above".to_string(),
    }
}

/// The statements the directive's β-vector addresses.
fn targeted_statements(directive: &Directive, schedule: &Schedule) -> Vec<usize> {
    let mut out: Vec<usize> = tree::under(schedule, directive.beta())
        .map(|ts| ts.iter().map(|t| t.statement).collect())
        .unwrap_or_default();
    out.dedup();
    out
}

/// `a and b`, `a, b and c`: the items of a short list in a sentence.
fn and_list<T: std::fmt::Display>(items: impl Iterator<Item = T>) -> String {
    let items: Vec<String> = items.map(|i| i.to_string()).collect();
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => items.concat(),
    }
}
