//! `auto(feautrier)` and `auto(pluto)` in a recipe: the scheduler's
//! schedule replaces the original one, and is then checked exactly like a
//! recipe's (dependences and marks), so that a scheduler bug is a
//! diagnostic naming the scheduler, never a miscompile.

use super::args::Args;
use super::{RecipeError, RecipeState, CALL_WORK_LIMIT};
use crate::apply::legality::{first_illegality_but_jams, Illegal};
use crate::apply::proofs::Proofs;
use crate::apply::tree::set_constant_date;
use crate::auto::{
    schedule, schedule_nest, Algorithm, AutoFailure, AutoOptions, Fusion, SpatialOptions, TileSize,
    Wavefront,
};
use crate::lang::recipe::{Call, Value};
use crate::poly::{with_work_limit, BasicSet};
use crate::scop::{dependences, narrowed_to_context, DepOptions, Dependence, Schedule, Scop};
use crate::syntax::diagnostic::Diagnostic;

/// The largest tile size `auto` accepts (a tile loop's coefficient).
pub const MAX_AUTO_TILE: i64 = 1 << 20;

/// Apply an `auto(...)` call to `state`.
pub fn apply_auto(state: &mut RecipeState, call: &Call) -> Result<(), RecipeError> {
    let refuse = |message: String, label: &str| {
        RecipeError::Rejected(Diagnostic::error(message, call.span.clone()).with_label(label))
    };
    let Some(first) = call.args.first() else {
        return Err(refuse(
            "`auto` needs a scheduler: `auto(pluto)`, `auto(feautrier)` or `auto(spatial)`".into(),
            "no scheduler named",
        ));
    };
    let mut algorithm = match &first.value {
        // A bare word in a recipe, a string in a script (`try_auto("pluto")`).
        Value::Ident(name) | Value::Str(name) if name == "pluto" => Algorithm::Pluto,
        Value::Ident(name) | Value::Str(name) if name == "feautrier" => Algorithm::Feautrier,
        Value::Ident(name) | Value::Str(name) if name == "spatial" => {
            Algorithm::Spatial(SpatialOptions::default())
        }
        _ => {
            return Err(RecipeError::Rejected(
                Diagnostic::error(
                    "the scheduler must be `pluto`, `feautrier` or `spatial`",
                    first.span.clone(),
                )
                .with_label("not a scheduler"),
            ))
        }
    };
    let mut options = AutoOptions::default();
    if let Algorithm::Spatial(_) = algorithm {
        // CC'18's CPU schedules: a band with no coincident member (below
        // the register-pressure limit) is parallel by a wavefront of tiles.
        options.wavefront = Wavefront::Always;
    }
    let mut nest: Option<(Vec<i64>, usize)> = None;
    for (k, arg) in call.args.iter().enumerate().skip(1) {
        let bad = |expected: &str| {
            RecipeError::Rejected(
                Diagnostic::error(
                    format!(
                        "`{}` must be {expected}",
                        arg.name.as_deref().unwrap_or("this option")
                    ),
                    arg.span.clone(),
                )
                .with_label("out of range"),
            )
        };
        match (arg.name.as_deref(), &arg.value) {
            (Some("tile"), Value::Int(0)) => options.tile = TileSize::Off,
            (Some("tile"), &Value::Int(n)) if (2..=MAX_AUTO_TILE).contains(&n) => {
                options.tile = TileSize::Fixed(n)
            }
            (Some("tile"), _) => {
                return Err(bad(&format!("`false` or a size from 2 to {MAX_AUTO_TILE}")))
            }
            (Some("parallel"), &Value::Int(b)) if b == 0 || b == 1 => options.parallel = b == 1,
            (Some("parallel"), _) => return Err(bad("`true` or `false`")),
            (Some("wavefront"), &Value::Int(b)) if b == 0 || b == 1 => {
                options.wavefront = if b == 1 {
                    Wavefront::Always
                } else {
                    Wavefront::Never
                }
            }
            (Some("wavefront"), _) => return Err(bad("`true` or `false`")),
            (Some("unroll_jam"), &Value::Int(b)) if b == 0 || b == 1 => {
                options.unroll_jam = b == 1
            }
            (Some("unroll_jam"), _) => return Err(bad("`true` or `false`")),
            (Some("register_tile"), &Value::Int(b)) if b == 0 || b == 1 => {
                options.register_tile = b == 1
            }
            (Some("register_tile"), _) => return Err(bad("`true` or `false`")),
            (Some("target"), Value::Ident(t) | Value::Str(t)) if t == "cpu" || t == "gpu" => {
                options.gpu = t == "gpu"
            }
            (Some("target"), _) => return Err(bad("`cpu` or `gpu`")),
            (Some("line"), &Value::Int(n)) if is_spatial(algorithm) && (1..=MAX_LINE).contains(&n) => {
                set_spatial(&mut algorithm, |o| o.line = n)
            }
            (Some("line"), _) if is_spatial(algorithm) => {
                return Err(bad(&format!("a size in bytes from 1 to {MAX_LINE}")))
            }
            (Some("hlim"), &Value::Int(n)) if is_spatial(algorithm) && (0..=MAX_HLIM).contains(&n) => {
                set_spatial(&mut algorithm, |o| o.hlim = n as usize)
            }
            (Some("hlim"), _) if is_spatial(algorithm) => {
                return Err(bad(&format!("a number from 0 to {MAX_HLIM}")))
            }
            (Some(name @ ("line" | "hlim")), _) => {
                return Err(RecipeError::Rejected(
                    Diagnostic::error(
                        format!("`{name}` is an option of `auto(spatial)` only"),
                        arg.span.clone(),
                    )
                    .with_label("not an option of this scheduler"),
                ))
            }
            (Some("fuse"), value) => {
                options.fusion = match value {
                    Value::Ident(f) | Value::Str(f) => fusion(f),
                    _ => None,
                }
                .ok_or_else(|| bad("`no`, `smart` or `max`"))?
            }
            (None, Value::Beta(_) | Value::Label(_)) if nest.is_none() => {
                let args = Args {
                    call,
                    scop: &state.scop,
                    schedule: &state.schedule,
                };
                nest = Some((args.beta(k)?, k));
            }
            (Some(name @ "vectorize"), _) => {
                return Err(RecipeError::NotImplemented(format!(
                    "the `{name}` option of `auto`"
                )))
            }
            _ => {
                return Err(RecipeError::Rejected(
                    Diagnostic::error(
                        format!(
                            "`auto` has no option {}",
                            arg.name
                                .as_deref()
                                .map_or("without a name".to_string(), |n| format!("`{n}`"))
                        ),
                        arg.span.clone(),
                    )
                    .with_label("unknown option")
                    .with_help(
                        "options: `tile = SIZE | false`, `parallel = true | false`, `fuse = no | smart | max`, `wavefront = true | false`, `unroll_jam = true | false`, `register_tile = true | false`, `target = cpu | gpu`; for `spatial`, also `line = BYTES`, `hlim = N`",
                    ),
                ))
            }
        }
    }
    if options.gpu {
        set_spatial(&mut algorithm, |o| o.gpu = true);
    }
    let name = match algorithm {
        Algorithm::Pluto => "pluto",
        Algorithm::Feautrier => "feautrier",
        Algorithm::Spatial(_) => "spatial",
    };
    let call_text = match &nest {
        None => format!("auto({name})"),
        Some((beta, _)) => format!(
            "auto({name}, [{}])",
            beta.iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let members = match &nest {
        None => None,
        Some((beta, k)) => Some(original_nest(state, call, beta, *k)?),
    };
    if nest.is_none() && state.schedule != Schedule::original(&state.scop) {
        return Err(refuse(
            "`auto` schedules from the original program: it must come before any other directive"
                .into(),
            "after other directives",
        ));
    }
    let find_under = |deps: &[Dependence], options: AutoOptions| match (&nest, &members) {
        (Some((beta, _)), Some(members)) => schedule_nest(
            &state.scop,
            deps,
            &state.schedule,
            members,
            beta,
            algorithm,
            options,
        ),
        _ => schedule(&state.scop, deps, algorithm, options),
    };
    // Under the recipe's context first, else under none (see
    // [`without_context`]); under none at once where the context fixes a
    // parameter.
    let computed = std::cell::OnceCell::new();
    let open_deps = || {
        computed
            .get_or_init(|| without_context(&state.scop))
            .as_deref()
    };
    let fixed = state.scop.context.constraints().iter().any(|c| c.is_eq());
    let find_unreserved = |options: AutoOptions| {
        let (first_deps, retry) = match fixed.then(open_deps).flatten() {
            Some(deps) => (deps, false),
            None => (state.deps.as_slice(), true),
        };
        let first = match find_under(first_deps, options) {
            Err(AutoFailure::Schedule(e)) => e,
            other => return other.map_err(|e| failure(e, name, &refuse)),
        };
        match retry
            .then(open_deps)
            .flatten()
            .map(|deps| find_under(deps, options))
        {
            Some(Ok(found)) => Ok(found),
            Some(Err(AutoFailure::Directive(e))) => {
                Err(failure(AutoFailure::Directive(e), name, &refuse))
            }
            _ => Err(failure(AutoFailure::Schedule(first), name, &refuse)),
        }
    };
    // The search leaves the check of its schedule its share of the call.
    let find = |options: AutoOptions| {
        with_work_limit(CALL_WORK_LIMIT - CHECK_RESERVE, || find_unreserved(options)).0
    };
    let mut found = find(options)?;
    let mut checked = first_illegality_but_jams(
        &state.scop,
        &state.deps,
        &found.schedule,
        &Proofs::of_jams(found.proven_jams.clone()),
    );
    // A register tile (two jams of one nest) is offered unproven: where
    // the two jams together, or a mark inside them, fail, the bands are
    // scheduled again with one jam each, each proven when offered.
    let jams_failed = matches!(
        &checked,
        Ok(Some(
            Illegal::Jam { .. } | Illegal::MixedJams { .. } | Illegal::Carried { .. }
        ))
    );
    if jams_failed && options.register_tile {
        found = find(AutoOptions {
            register_tile: false,
            ..options
        })?;
        checked = first_illegality_but_jams(
            &state.scop,
            &state.deps,
            &found.schedule,
            &Proofs::of_jams(found.proven_jams.clone()),
        );
    }
    match checked {
        Ok(None) => {
            state.schedule = found.schedule;
            state.chosen.push(format!("{call_text} chose, outermost band first:"));
            state.chosen.extend(
                found
                    .bands
                    .iter()
                    .map(|b| format!("  {}", b.describe(&state.scop))),
            );
            Ok(())
        }
        Ok(Some(illegal)) => Err(refuse(
            format!("`auto({name})` built a schedule that fails polyc's check (a scheduler bug): {illegal:?}"),
            "refused: the schedule is not proven legal",
        )),
        Err(e) => Err(refuse(
            format!("`auto({name})`: its schedule could not be checked: {e}"),
            "refused: the schedule is not proven legal",
        )),
    }
}

/// The work of a call ([`CALL_WORK_LIMIT`]) that scheduling leaves to the
/// check of its schedule. Scheduling that spent the whole call left the
/// check nothing: 28 of 2,400 `auto` runs on random kernels (seeds 33 and
/// 34) were refused as "could not be checked". The checks of the rest
/// took 295 rows at the median and 466 thousand at most; with this
/// reserve 36 more runs are scheduled and none is lost (docs/performance.md).
const CHECK_RESERVE: u64 = 500_000;

/// The largest cache line `auto(spatial)` accepts, in bytes.
const MAX_LINE: i64 = 1 << 16;

/// The largest register-pressure limit `auto(spatial)` accepts.
const MAX_HLIM: i64 = 1 << 20;

fn is_spatial(algorithm: Algorithm) -> bool {
    matches!(algorithm, Algorithm::Spatial(_))
}

/// Change `auto(spatial)`'s own options (nothing for other schedulers).
fn set_spatial(algorithm: &mut Algorithm, change: impl FnOnce(&mut SpatialOptions)) {
    if let Algorithm::Spatial(options) = algorithm {
        change(options);
    }
}

/// The dependences of `scop` under no context, narrowed by its context
/// (see [`narrowed_to_context`]), where a recipe's `context` narrowed it
/// (else `None`): a superset of its dependences, so a schedule that
/// respects them respects those too, for every parameter value. A
/// context that fixes a parameter puts its value into every Farkas row
/// of the scheduler's search, whose integer steps (the Omega test)
/// exhaust their budget there (`context([0, 1, -20]); auto(pluto);` on
/// trisolv, cholesky, lu, durbin and guards; on adi, with both parameters
/// fixed, after 1.3 s): the scheduler runs on these at once under such a
/// context, and again on these where its search under another context
/// gives up. What it finds is checked under the context, as any schedule
/// is.
fn without_context(scop: &Scop) -> Option<Vec<Dependence>> {
    if scop.context.constraints().is_empty() {
        return None;
    }
    let mut open = scop.clone();
    open.context = BasicSet::universe(scop.context.space().clone());
    let open = dependences(&open, &DepOptions::default()).ok()?;
    narrowed_to_context(&open, &scop.context).ok()
}

/// The diagnostic for a scheduler that gave no schedule.
fn failure(
    e: AutoFailure,
    name: &str,
    refuse: &dyn Fn(String, &str) -> RecipeError,
) -> RecipeError {
    match e {
        AutoFailure::Schedule(e) => refuse(
            format!("`auto({name})` found no schedule: {e}"),
            "the scheduler gave up",
        ),
        AutoFailure::Directive(e) => refuse(
            format!(
                "`auto({name})`: tiling or marking its bands was refused (a scheduler bug): {e:?}"
            ),
            "refused: the schedule is not proven legal",
        ),
    }
}

/// The statements under the loop or position `beta` (argument `k` of
/// `call`): a top-level nest (`[b]`) or a subtree inside loops
/// (`[b₀, …, b_k]`: the statements whose β starts so, each inside the
/// `k` loops around; its β is at least that long). Each must
/// still have its original dates, but for its top-level position, which
/// earlier directives on other nests may have moved.
fn original_nest(
    state: &RecipeState,
    call: &Call,
    beta: &[i64],
    k: usize,
) -> Result<Vec<usize>, RecipeError> {
    let on_arg = |message: String, label: &str| {
        RecipeError::Rejected(
            Diagnostic::error(message, call.args[k].span.clone()).with_label(label),
        )
    };
    let shown = beta
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let original = Schedule::original(&state.scop);
    let mut members = Vec::new();
    for (s, st) in state.schedule.statements.iter().enumerate() {
        let under: Vec<bool> = (0..st.pieces.len())
            .map(|p| st.beta(p).is_some_and(|v| v.starts_with(beta)))
            .collect();
        if !under.contains(&true) {
            continue;
        }
        let first = st.beta(0).and_then(|v| v.first().copied()).unwrap_or(0);
        let untouched = st.pieces.len() == 1
            && st.marks == original.statements[s].marks
            && st.pieces[0] == set_constant_date(&original.statements[s].pieces[0], 0, first);
        if !untouched {
            let refusal = on_arg(
                format!(
                    "`auto` schedules a subtree from the original program: {} under [{shown}] has been changed by an earlier directive",
                    state.scop.statements[s].name
                ),
                "a transformed subtree",
            );
            return Err(match refusal {
                RecipeError::Rejected(d) => RecipeError::Rejected(
                    d.with_help("put `auto` on this subtree before the directives that change it"),
                ),
                other => other,
            });
        }
        members.push(s);
    }
    if members.is_empty() {
        return Err(on_arg(
            format!("no statement is under [{shown}]"),
            "no such loop or nest",
        ));
    }
    Ok(members)
}

/// The fusion a `fuse = …` value names (a bare word in a recipe, a string
/// in a script).
fn fusion(name: &str) -> Option<Fusion> {
    match name {
        "no" => Some(Fusion::No),
        "smart" => Some(Fusion::Smart),
        "max" => Some(Fusion::Max),
        _ => None,
    }
}
