//! `auto(feautrier)` and `auto(pluto)` in a recipe: the scheduler's
//! schedule replaces the original one, and is then checked exactly like a
//! recipe's (dependences and marks), so that a scheduler bug is a
//! diagnostic naming the scheduler, never a miscompile.

use super::{RecipeError, RecipeState};
use crate::apply::legality::first_illegality;
use crate::auto::{schedule, Algorithm};
use crate::lang::recipe::{Call, Value};
use crate::scop::Schedule;
use crate::syntax::diagnostic::Diagnostic;

/// Apply an `auto(...)` call to `state`.
pub fn apply_auto(state: &mut RecipeState, call: &Call) -> Result<(), RecipeError> {
    let refuse = |message: String, label: &str| {
        RecipeError::Rejected(Diagnostic::error(message, call.span.clone()).with_label(label))
    };
    let Some(first) = call.args.first() else {
        return Err(refuse(
            "`auto` needs a scheduler: `auto(pluto)` or `auto(feautrier)`".into(),
            "no scheduler named",
        ));
    };
    let algorithm = match &first.value {
        Value::Ident(name) if name == "pluto" => Algorithm::Pluto,
        Value::Ident(name) if name == "feautrier" => Algorithm::Feautrier,
        Value::Ident(name) if name == "spatial" => {
            return Err(RecipeError::NotImplemented("`auto(spatial)`".into()))
        }
        _ => {
            return Err(RecipeError::Rejected(
                Diagnostic::error(
                    "the scheduler must be `pluto` or `feautrier`",
                    first.span.clone(),
                )
                .with_label("not a scheduler"),
            ))
        }
    };
    if let Some(extra) = call.args.get(1) {
        return Err(RecipeError::Rejected(
            Diagnostic::error(
                format!(
                    "`auto` takes no options yet, found `{}`",
                    extra.name.as_deref().unwrap_or("an argument")
                ),
                extra.span.clone(),
            )
            .with_label("not supported yet")
            .with_help("options (`tile`, `fuse`, `parallel`) are being built (issue 15)"),
        ));
    }
    if state.schedule != Schedule::original(&state.scop) {
        return Err(refuse(
            "`auto` schedules from the original program: it must come before any other directive"
                .into(),
            "after other directives",
        ));
    }
    let name = match algorithm {
        Algorithm::Pluto => "pluto",
        Algorithm::Feautrier => "feautrier",
    };
    let found = schedule(&state.scop, &state.deps, algorithm).map_err(|e| {
        refuse(
            format!("`auto({name})` found no schedule: {e}"),
            "the scheduler gave up",
        )
    })?;
    match first_illegality(&state.scop, &state.deps, &found) {
        Ok(None) => {
            state.schedule = found;
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
