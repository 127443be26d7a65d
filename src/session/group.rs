//! `group { d1; d2; … }`: directives applied in order, each with its
//! preconditions and rewrite, and checked together at the end: one exact
//! legality check of the schedule the group leaves ([`apply::check`]).
//! So a compound step whose intermediate schedule is illegal (lu's
//! right-looking interchange, legal once the next directive moves another
//! statement) is accepted when the result is legal. A directive whose
//! precondition fails is refused at that directive; an illegal result is
//! refused at the group, with the witness and every directive of it
//! labelled. Data-layout directives in a group rewrite the program one
//! after the other; at its end, the program is checked to compute what it
//! computed before the group (`apply::data::check`), so a copy in and a
//! copy back may come with the directive that needs them. The group is
//! one call for the work limit. `auto` and
//! `context` replace the schedule or the parameters and cannot be in a
//! group.

use super::data;
use super::refusal;
use super::table::{is_auto, is_context, to_data_directive, to_directive};
use super::{inexact_reduction, unchanged, RecipeError, RecipeState, CALL_WORK_LIMIT};
use crate::apply::legality::proofs_of_legal;
use crate::apply::proofs::{Proofs, NO_PROOFS};
use crate::apply::{self, Directive};
use crate::lang::recipe::Call;
use crate::poly::with_work_limit;
use crate::syntax::diagnostic::Diagnostic;
use crate::syntax::Span;

/// Apply the calls of one group (`group` is its span) to `state`. On
/// success the state moves on and the result is the warnings of calls
/// that changed nothing; on a refusal the state is left as it was.
pub fn step_group(
    state: &mut RecipeState,
    calls: &[Call],
    group: &Span,
) -> Result<Vec<Diagnostic>, RecipeError> {
    with_work_limit(CALL_WORK_LIMIT, || group_unlimited(state, calls, group)).0
}

fn group_unlimited(
    state: &mut RecipeState,
    calls: &[Call],
    group: &Span,
) -> Result<Vec<Diagnostic>, RecipeError> {
    let in_group = |d: Diagnostic| d.with_secondary(group.clone(), "in this group");
    let mut inner = state.clone();
    let mut warnings = Vec::new();
    let mut last: Option<Directive> = None;
    let mut rewrote_data = false;
    // The proofs made before the group hold for its program only where no
    // data-layout call changed that program.
    let mut same_program = true;
    for call in calls {
        if is_auto(&call.name) || is_context(&call.name) {
            return Err(RecipeError::Rejected(in_group(
                Diagnostic::error(
                    format!("`{}` cannot be inside a group", call.name),
                    call.span.clone(),
                )
                .with_label("not a schedule rewrite")
                .with_help("apply it before the group"),
            )));
        }
        let call = &data::with_bound_names(&inner, call);
        if let Some(d) = to_data_directive(call, &inner.scop, &inner.schedule)? {
            same_program = false;
            let refused = |inner: &RecipeState, e| {
                RecipeError::Rejected(in_group(refusal::diagnostic_for(call, inner, &[], e)))
            };
            let (scop, schedule) = apply::data::rewrite(&inner.scop, &inner.schedule, &d)
                .map_err(|e| refused(&inner, e))?;
            if d.rewrites_accesses() {
                inner.deps = apply::data::dependences_of(&scop).map_err(|e| refused(&inner, e))?;
                rewrote_data = true;
            }
            inner.scop = scop;
            inner.schedule = schedule;
            data::bind_result(&mut inner, call, &d);
            continue;
        }
        let directive = to_directive(call, &inner.scop, &inner.schedule)?;
        match apply::rewrite(&inner.scop, &inner.deps, &inner.schedule, &directive) {
            Ok(next) => {
                if next == inner.schedule {
                    warnings.push(unchanged(call));
                } else if let Some(w) = inexact_reduction(&inner.scop, &directive, call) {
                    warnings.push(in_group(w));
                }
                inner.schedule = next;
            }
            Err(e) => {
                return Err(RecipeError::Rejected(in_group(refusal::diagnostic(
                    call, &inner, &directive, e,
                ))))
            }
        }
        last = Some(directive);
    }
    let checked = if rewrote_data {
        apply::data::check(
            &state.scop,
            &state.deps,
            &inner.scop,
            &inner.deps,
            &inner.schedule,
        )
    } else {
        apply::check_knowing(
            &inner.scop,
            &inner.deps,
            &inner.schedule,
            if same_program {
                &state.proofs
            } else {
                &NO_PROOFS
            },
        )
    };
    if let Err(e) = checked {
        if calls.is_empty() {
            return Err(RecipeError::Rejected(Diagnostic::error(
                "an empty group",
                group.clone(),
            )));
        }
        let whole = Call {
            name: "group".into(),
            name_span: group.start..group.start + "group".len(),
            args: Vec::new(),
            span: group.clone(),
            bind: None,
            group: None,
        };
        // A violation indexes the dependences of the group's program.
        let checked_in = RecipeState {
            scop: inner.scop.clone(),
            deps: inner.deps.clone(),
            schedule: state.schedule.clone(),
            chosen: Vec::new(),
            array_names: Vec::new(),
            proofs: Proofs::default(),
        };
        let mut d = match &last {
            Some(directive) => refusal::diagnostic(&whole, &checked_in, directive, e),
            None => refusal::diagnostic_for(&whole, &checked_in, &[], e),
        }
        .with_note("the directives of a group are checked together, once, at its end");
        for call in calls {
            d = d.with_secondary(call.span.clone(), "applied in this group");
        }
        return Err(RecipeError::Rejected(d));
    }
    state.proofs = match same_program {
        true => proofs_of_legal(&inner.schedule),
        false => Proofs::default(),
    };
    state.scop = inner.scop;
    state.deps = inner.deps;
    state.schedule = inner.schedule;
    state.array_names = inner.array_names;
    Ok(warnings)
}
