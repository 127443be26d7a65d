//! `context([e/i, p1, …, pn, c])`: the one directive that changes the
//! program's parameters rather than its schedule. The parameters' context
//! is narrowed and the dependences are computed again under it.

use super::{RecipeError, RecipeState};
use crate::lang::recipe::{Call, Value};
use crate::poly::{Constraint, ConstraintKind};
use crate::scop::{dependences, DepOptions, Scop};
use crate::syntax::diagnostic::Diagnostic;

/// Narrow `state`'s context by `call`; the dependences follow.
pub fn narrow(state: &mut RecipeState, call: &Call) -> Result<(), RecipeError> {
    let scop = narrowed(call, state.scop.clone())?;
    let deps = dependences(&scop, &DepOptions::default()).map_err(|e| {
        RecipeError::Rejected(
            Diagnostic::error(
                format!("dependence analysis failed under the new context: {e}"),
                call.span.clone(),
            )
            .with_label("after this context"),
        )
    })?;
    state.scop = scop;
    state.deps = deps;
    Ok(())
}

/// Clay's `context([e/i, p1, …, pn, c])`: the parameters satisfy
/// `p·params + c = 0` (flag 0) or `>= 0` (flag 1) from now on; the code
/// polyc prints may assume it. A context with no parameter values left is
/// refused.
fn narrowed(call: &Call, mut scop: Scop) -> Result<Scop, RecipeError> {
    let n = scop.params.len();
    let usage =
        || {
            RecipeError::Rejected(
                Diagnostic::error(
                    format!(
                    "`context` takes one list [e/i, one coefficient per parameter ({}), constant]",
                    if n == 0 { "none here".to_string() } else { scop.params.join(", ") }
                ),
                    call.span.clone(),
                )
                .with_label("in this call")
                .with_note("e/i is 0 for an equality, 1 for an inequality (OpenScop's flag)"),
            )
        };
    let [arg] = call.args.as_slice() else {
        return Err(usage());
    };
    let Value::Beta(list) = &arg.value else {
        return Err(usage());
    };
    if list.len() != n + 2 || !(0..=1).contains(&list[0]) {
        return Err(usage());
    }
    let row = Constraint {
        kind: if list[0] == 0 {
            ConstraintKind::Eq
        } else {
            ConstraintKind::Ineq
        },
        coeffs: list[1..=n].to_vec(),
        constant: list[n + 1],
    };
    let mut context = scop.context.clone();
    context.add(row);
    let empty = context.is_empty().map_err(|e| {
        RecipeError::Rejected(
            Diagnostic::error(
                format!("the new context could not be checked: {e}"),
                call.span.clone(),
            )
            .with_label("in this call"),
        )
    })?;
    if empty {
        return Err(RecipeError::Rejected(
            Diagnostic::error(
                "this context leaves no value of the parameters",
                call.span.clone(),
            )
            .with_label("contradicts the context so far"),
        ));
    }
    scop.context = context;
    Ok(scop)
}
