//! The data-layout directives in a recipe (`apply::data`): the program is
//! rewritten, its dependences computed again, and the rewrite kept only
//! when the program computes the same values and the schedule respects
//! the new dependences. `add_array` and `get_array_id` give the array's
//! name, which `v = add_array("name");` binds to `v` for later calls.

use super::refusal;
use super::table::to_data_directive;
use super::{RecipeError, RecipeState};
use crate::apply::data::{self, DataDirective};
use crate::apply::proofs::Proofs;
use crate::apply::{tree, ApplyError};
use crate::lang::recipe::{Arg, Call, Value};
use crate::scop::Scop;
use crate::syntax::diagnostic::Diagnostic;

/// Apply `call` when it is a data-layout directive: `Ok(Some(warning))`
/// then (the state moved on; a warning when nothing changed), `Ok(None)`
/// for another kind of directive.
pub fn step_data(
    state: &mut RecipeState,
    call: &Call,
) -> Result<Option<Option<Diagnostic>>, RecipeError> {
    let Some(directive) = to_data_directive(call, &state.scop, &state.schedule)? else {
        return Ok(None);
    };
    let (scop, schedule) = data::rewrite(&state.scop, &state.schedule, &directive)
        .map_err(|e| refused(call, state, &directive, e))?;
    let mut warning = None;
    if directive.rewrites_accesses() {
        if same_accesses(&state.scop, &scop) {
            warning = Some(super::unchanged(call));
        }
        let deps = data::dependences_of(&scop).map_err(|e| refused(call, state, &directive, e))?;
        let after = RecipeState {
            scop,
            deps,
            schedule,
            chosen: Vec::new(),
            array_names: Vec::new(),
            proofs: Proofs::default(),
        };
        data::check(
            &state.scop,
            &state.deps,
            &after.scop,
            &after.deps,
            &after.schedule,
        )
        .map_err(|e| refused(call, &after, &directive, e))?;
        state.scop = after.scop;
        state.deps = after.deps;
        state.schedule = after.schedule;
    } else {
        state.scop = scop;
        state.schedule = schedule;
    }
    bind_result(state, call, &directive);
    Ok(Some(warning))
}

/// Whether two programs have the same statements and accesses (a data
/// directive that changed nothing: `dimreorder` by the identity).
fn same_accesses(before: &Scop, after: &Scop) -> bool {
    before.statements.len() == after.statements.len()
        && before
            .statements
            .iter()
            .zip(&after.statements)
            .all(|(b, a)| {
                b.accesses.iter().zip(&a.accesses).all(|(x, y)| {
                    x.array == y.array && x.relation.to_string() == y.relation.to_string()
                })
            })
}

/// The array a call of `add_array` or `get_array_id` gives: its first
/// argument's name (the value a script's call returns).
pub fn array_named_by(call: &Call) -> Option<String> {
    if !matches!(call.name.as_str(), "add_array" | "get_array_id") {
        return None;
    }
    match &call.args.first()?.value {
        Value::Str(x) | Value::Ident(x) => Some(x.clone()),
        _ => None,
    }
}

/// The array name `add_array` and `get_array_id` give.
pub fn result_of(directive: &DataDirective) -> Option<&str> {
    match directive {
        DataDirective::AddArray { name } | DataDirective::GetArrayId { name } => Some(name),
        _ => None,
    }
}

/// `v = add_array("name");`: `v` names the array from now on.
pub fn bind_result(state: &mut RecipeState, call: &Call, directive: &DataDirective) {
    if let (Some((var, _)), Some(name)) = (&call.bind, result_of(directive)) {
        state.array_names.retain(|(v, _)| v != var);
        state.array_names.push((var.clone(), name.to_string()));
    }
}

/// `call` with each argument that is a variable bound to an array name
/// replaced by that name.
pub fn with_bound_names(state: &RecipeState, call: &Call) -> Call {
    let mut out = call.clone();
    for Arg { value, .. } in &mut out.args {
        if let Value::Ident(v) = value {
            if let Some((_, name)) = state.array_names.iter().find(|(n, _)| n == v) {
                *value = Value::Str(name.clone());
            }
        }
    }
    out
}

/// The diagnostic of a refused data directive, on the state it was
/// checked in (a violation indexes that state's dependences).
fn refused(
    call: &Call,
    state: &RecipeState,
    directive: &DataDirective,
    e: ApplyError,
) -> RecipeError {
    let beta: &[i64] = match directive {
        DataDirective::DimReorder { beta, .. }
        | DataDirective::DimPrivatize { beta, .. }
        | DataDirective::DimContract { beta, .. } => beta,
        _ => &[],
    };
    let mut targeted: Vec<usize> = tree::under(&state.schedule, beta)
        .map(|ps| ps.iter().map(|p| p.statement).collect())
        .unwrap_or_default();
    targeted.dedup();
    RecipeError::Rejected(refusal::diagnostic_for(call, state, &targeted, e))
}
