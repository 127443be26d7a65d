//! Applying a recipe or a script: the layer that knows both the recipe
//! language ([`crate::lang::recipe`]) and the directives
//! ([`crate::apply`]).
//!
//! [`step`] applies one [`Call`] to a [`RecipeState`]: the call is looked
//! up in the one directive table ([`table`]: names, aliases, prototypes,
//! summaries, handlers), its arguments are read with their types
//! ([`args`]; readable `iss` constraints through [`iss`]), `apply` rewrites
//! and checks the schedule, and a refusal becomes a diagnostic on the call
//! ([`refusal`]). `context(…)` narrows the parameters instead
//! ([`context`]). `.poly` recipes ([`run_recipe`]) and `.rhai` scripts
//! ([`script`]) both go through [`step`]; the calls of a recipe's
//! `group { … }` go through [`group`] together, checked at its end.
//!
//! Must not know: how a directive rewrites a schedule (that is `apply`'s),
//! code generation, compilers, the CLI.

mod args;
mod auto;
mod context;
mod data;
mod group;
mod iss;
mod refusal;
pub mod script;
pub mod table;

use crate::apply::legality::proofs_of_legal;
use crate::apply::proofs::Proofs;
use crate::apply::{apply_knowing, Directive};
use crate::lang::recipe::{Call, Recipe};
use crate::poly::with_work_limit;
use crate::scop::{Dependence, Schedule, Scop};
use crate::syntax::diagnostic::Diagnostic;

pub use args::{MAX_DATE_COEFFICIENT, MAX_UNROLL_FACTOR};
pub use data::array_named_by;
pub use group::step_group;
pub use table::{directive_names, to_directive};

/// The schedule after a recipe, the warnings it gave, and the scop (whose
/// context `context(...)` may have narrowed).
pub struct RecipeOutcome {
    pub schedule: Schedule,
    /// What each `auto(...)` chose (`--emit schedule-text` shows it).
    pub chosen: Vec<String>,
    pub warnings: Vec<Diagnostic>,
    pub scop: Scop,
}

/// Why a recipe stopped.
pub enum RecipeError {
    /// A diagnostic on the recipe text (exit 1).
    Rejected(Diagnostic),
    /// A directive polyc knows but does not implement yet (exit 2).
    NotImplemented(String),
}

/// Apply every call of `recipe` in order, starting from `schedule`.
/// `context(...)` narrows the parameters' context; the dependences are then
/// computed again under it.
pub fn run_recipe(
    scop: &Scop,
    deps: &[Dependence],
    schedule: Schedule,
    recipe: &Recipe,
) -> Result<RecipeOutcome, RecipeError> {
    let mut state = RecipeState::new(scop, deps, schedule);
    let warnings = apply_calls(&mut state, &recipe.calls)?;
    Ok(RecipeOutcome {
        schedule: state.schedule,
        chosen: state.chosen,
        warnings,
        scop: state.scop,
    })
}

/// Apply `calls` (a recipe's) to `state` in order: each call by [`step`],
/// each `group { … }`'s calls together by [`step_group`]. The warnings of
/// calls that changed nothing; the first refusal stops.
pub fn apply_calls(
    state: &mut RecipeState,
    calls: &[Call],
) -> Result<Vec<Diagnostic>, RecipeError> {
    let mut warnings = Vec::new();
    let mut k = 0;
    while k < calls.len() {
        match &calls[k].group {
            None => {
                warnings.extend(step(state, &calls[k])?);
                k += 1;
            }
            Some(g) => {
                let end = calls[k..]
                    .iter()
                    .position(|c| c.group.as_ref() != Some(g))
                    .map_or(calls.len(), |n| k + n);
                warnings.extend(step_group(state, &calls[k..end], g)?);
                k = end;
            }
        }
    }
    Ok(warnings)
}

/// What a recipe has done so far: the schedule, and the scop and
/// dependences (which `context(...)` may have narrowed). Every front end
/// (`.poly` recipes, `.rhai` scripts) applies its calls to one of these
/// with [`step`].
#[derive(Clone, Debug)]
pub struct RecipeState {
    pub scop: Scop,
    pub deps: Vec<Dependence>,
    pub schedule: Schedule,
    /// What each `auto(...)` chose, one line per band after a line naming
    /// the call.
    pub chosen: Vec<String>,
    /// Recipe variables bound to an array by `v = add_array("name");` or
    /// `v = get_array_id("name");`, and the array's name.
    pub array_names: Vec<(String, String)>,
    /// What the last check proved of `schedule` for `deps` (its jams and
    /// marked loops, [`crate::apply::legality::proofs_of_legal`]), which
    /// the next directive's check need not prove again where it holds.
    /// Emptied by every call that is not a schedule directive.
    pub proofs: Proofs,
}

impl RecipeState {
    /// The state before any directive.
    pub fn new(scop: &Scop, deps: &[Dependence], schedule: Schedule) -> RecipeState {
        RecipeState {
            scop: scop.clone(),
            deps: deps.to_vec(),
            schedule,
            chosen: Vec::new(),
            array_names: Vec::new(),
            proofs: Proofs::default(),
        }
    }
}

/// Apply one call to `state`: the directive's arguments and preconditions,
/// the rewrite, the dependence check. On success the state moves on and the
/// result is the call's warning, if any (a directive that changes
/// nothing); on a refusal the state is left as it was.
pub fn step(state: &mut RecipeState, call: &Call) -> Result<Option<Diagnostic>, RecipeError> {
    with_work_limit(CALL_WORK_LIMIT, || step_unlimited(state, call)).0
}

/// The most exact work one call may do, in rows of the Omega test summed
/// over every test it makes (its legality check, and the checks of the
/// marks it must keep) and rows of the simplex's tableaux at each pivot
/// (an `auto` call's searches): past it the call is refused as not proven
/// (`poly::with_work_limit`). Each test alone stops at
/// [`crate::poly::WORK_LIMIT`]; a call makes hundreds, and after a jam
/// inside a wavefront's tiles each later directive proved the jam again
/// for 13 to 29 million rows (5 to 10 s, `tests/regressions`, seeds
/// 83/84). Measured (Xeon, 2026-12-07, each unit-coefficient substitution
/// of the Omega test charged its rows): the test suite's costliest call
/// that is not refused is an `auto` of 5.3 million rows (0.4 s); every
/// other stays under 4.7 million.
pub const CALL_WORK_LIMIT: u64 = 10_000_000;

/// The warning on a call that left the schedule as it was.
fn unchanged(call: &Call) -> Diagnostic {
    Diagnostic::warning(
        format!("`{}` changes nothing", call.name),
        call.span.clone(),
    )
    .with_label("this directive leaves the schedule as it was")
}

/// The warning on a `directive` that reduces a scalar not declared with
/// an integer type: OpenMP combines the threads' copies in an unspecified
/// order, which rounds floating-point sums and products differently.
fn inexact_reduction(scop: &Scop, directive: &Directive, call: &Call) -> Option<Diagnostic> {
    let variable = match directive {
        Directive::Parallelize { options, .. } => options.reduction.as_deref()?,
        Directive::Vectorize { reduction, .. } => reduction.as_deref()?,
        _ => return None,
    };
    let declared = scop
        .arrays
        .iter()
        .find(|a| a.name == variable)
        .and_then(|a| a.element_type.as_deref());
    let integer = declared.is_some_and(|t| {
        t.split_whitespace().all(|w| {
            matches!(
                w,
                "char" | "short" | "int" | "long" | "unsigned" | "signed" | "const"
            )
        })
    });
    if integer {
        return None;
    }
    let what = match declared {
        Some(t) => format!("a `{t}`"),
        None => "of a type polyc does not see".to_string(),
    };
    Some(
        Diagnostic::warning(
            format!("the reduction reorders the updates of `{variable}`, {what}"),
            call.span.clone(),
        )
        .with_label("each thread or SIMD lane updates its own copy, combined in no fixed order")
        .with_note("floating-point results may differ in the last digits from the original's"),
    )
}

/// [`step`] without its work limit.
fn step_unlimited(state: &mut RecipeState, call: &Call) -> Result<Option<Diagnostic>, RecipeError> {
    let call = &data::with_bound_names(state, call);
    // The proofs are kept only across schedule directives, whose
    // checks read the same program and dependences.
    if let Some(warning) = data::step_data(state, call)? {
        state.proofs = Proofs::default();
        return Ok(warning);
    }
    if table::is_context(&call.name) {
        context::narrow(state, call)?;
        state.proofs = Proofs::default();
        return Ok(None);
    }
    if table::is_auto(&call.name) {
        auto::apply_auto(state, call)?;
        // Its check proved every jam and marked loop of the whole schedule.
        state.proofs = proofs_of_legal(&state.schedule);
        return Ok(None);
    }
    let directive = to_directive(call, &state.scop, &state.schedule)?;
    let known = &state.proofs;
    match apply_knowing(&state.scop, &state.deps, &state.schedule, &directive, known) {
        Ok(applied) => {
            let warning = if applied.changed {
                inexact_reduction(&state.scop, &directive, call)
            } else {
                Some(unchanged(call))
            };
            state.schedule = applied.schedule;
            state.proofs = proofs_of_legal(&state.schedule);
            Ok(warning)
        }
        Err(e) => Err(RecipeError::Rejected(refusal::diagnostic(
            call, state, &directive, e,
        ))),
    }
}
