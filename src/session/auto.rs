//! `auto(feautrier)` and `auto(pluto)` in a recipe: the scheduler's
//! schedule replaces the original one, and is then checked exactly like a
//! recipe's (dependences and marks), so that a scheduler bug is a
//! diagnostic naming the scheduler, never a miscompile.

use super::{RecipeError, RecipeState};
use crate::apply::legality::first_illegality;
use crate::auto::{schedule, Algorithm, AutoFailure, AutoOptions, Fusion};
use crate::lang::recipe::{Call, Value};
use crate::scop::Schedule;
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
            "`auto` needs a scheduler: `auto(pluto)` or `auto(feautrier)`".into(),
            "no scheduler named",
        ));
    };
    let algorithm = match &first.value {
        // A bare word in a recipe, a string in a script (`try_auto("pluto")`).
        Value::Ident(name) | Value::Str(name) if name == "pluto" => Algorithm::Pluto,
        Value::Ident(name) | Value::Str(name) if name == "feautrier" => Algorithm::Feautrier,
        Value::Ident(name) | Value::Str(name) if name == "spatial" => {
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
    let mut options = AutoOptions::default();
    for arg in &call.args[1..] {
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
            (Some("tile"), Value::Int(0)) => options.tile = None,
            (Some("tile"), &Value::Int(n)) if (2..=MAX_AUTO_TILE).contains(&n) => {
                options.tile = Some(n)
            }
            (Some("tile"), _) => {
                return Err(bad(&format!("`false` or a size from 2 to {MAX_AUTO_TILE}")))
            }
            (Some("parallel"), &Value::Int(b)) if b == 0 || b == 1 => options.parallel = b == 1,
            (Some("parallel"), _) => return Err(bad("`true` or `false`")),
            (Some("fuse"), value) => {
                options.fusion = match value {
                    Value::Ident(f) | Value::Str(f) => fusion(f),
                    _ => None,
                }
                .ok_or_else(|| bad("`no`, `smart` or `max`"))?
            }
            (None, Value::Beta(_) | Value::Label(_)) => {
                return Err(RecipeError::NotImplemented(
                    "`auto` on one subtree (`auto(pluto, [β])`); `auto(pluto)` schedules the whole region"
                        .into(),
                ))
            }
            (Some(name @ ("wavefront" | "vectorize")), _) => {
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
                        "options: `tile = SIZE | false`, `parallel = true | false`, `fuse = no | smart | max`",
                    ),
                ))
            }
        }
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
    let found = schedule(&state.scop, &state.deps, algorithm, options).map_err(|e| match e {
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
