//! `measure(variant)` and `measure(variant, runs)`: build a variant of the
//! program, run it and the original, and say how fast it ran and whether
//! it printed what the original prints.
//!
//! A variant is a function (`|| { tile(…); … }`, or `Fn("name")`) whose
//! directives are applied to a fresh copy of the program, or a recipe
//! string in `.poly` syntax. The script's own schedule is untouched. The
//! result is `#{ok: true, time, original, speedup, matched, mismatch,
//! reason: "", diagnostic: ""}` (seconds, medians of `runs` runs, default
//! [`DEFAULT_RUNS`]) or, when a directive of the variant is refused or the
//! variant cannot be built or run, `#{ok: false, reason, diagnostic}`; the
//! script goes on either way.

use rhai::{Dynamic, Engine, EvalAltResult, FnPtr, Map, NativeCallContext, INT};

use crate::lang::recipe::parse_recipe;
use crate::session::{apply_calls, RecipeError};
use crate::syntax::diagnostic::Diagnostic;

use super::directives::unwind;
use super::shared::{reason, Shared};
use super::span::call_spans;

/// Runs of each program when the script does not say.
pub const DEFAULT_RUNS: usize = 3;

/// Register `measure`.
pub fn register(engine: &mut Engine, session: &Shared) {
    let s = session.clone();
    engine.register_fn(
        "measure",
        move |ctx: NativeCallContext, variant: Dynamic| measure(&s, &ctx, variant, None),
    );
    let s = session.clone();
    engine.register_fn(
        "measure",
        move |ctx: NativeCallContext, variant: Dynamic, runs: INT| {
            measure(&s, &ctx, variant, Some(runs))
        },
    );
}

/// Stop the script with a diagnostic on the `measure` call.
fn misuse(
    session: &Shared,
    ctx: &NativeCallContext,
    message: String,
    label: &str,
) -> Box<EvalAltResult> {
    let mut s = session.borrow_mut();
    let spans = call_spans(&s.text, ctx.call_position(), "measure", 0);
    let d = Diagnostic::error(message, spans.call).with_label(label.to_string());
    s.stop = Some(RecipeError::Rejected(d));
    unwind(ctx)
}

fn measure(
    session: &Shared,
    ctx: &NativeCallContext,
    variant: Dynamic,
    runs: Option<INT>,
) -> Result<Map, Box<EvalAltResult>> {
    let runs = match runs.map(usize::try_from) {
        None => DEFAULT_RUNS,
        Some(Ok(r)) if r >= 1 => r,
        Some(_) => {
            return Err(misuse(
                session,
                ctx,
                "`measure` needs at least one run".into(),
                "the number of runs must be 1 or more",
            ))
        }
    };
    if session.borrow().variant.is_some() {
        return Err(misuse(
            session,
            ctx,
            "`measure` cannot be called inside a variant".into(),
            "called while another variant is being built",
        ));
    }
    if session.borrow().group.is_some() {
        return Err(misuse(
            session,
            ctx,
            "`measure` cannot be called inside a group".into(),
            "called while a group's directives are being collected",
        ));
    }
    // The variant starts from a fresh copy of the program.
    let saved = {
        let mut s = session.borrow_mut();
        let fresh = s.original.clone();
        s.variant = Some(None);
        std::mem::replace(&mut s.state, fresh)
    };
    let built = build(session, ctx, variant);
    let (variant_state, refused) = {
        let mut s = session.borrow_mut();
        let refused = s.variant.take().flatten();
        (std::mem::replace(&mut s.state, saved), refused)
    };
    let refused = match built {
        // A script error that is not a refusal (a limit, a type error) stops the script.
        Err(e) if refused.is_none() => return Err(e),
        Err(_) | Ok(None) => refused.map(|e| {
            let s = session.borrow();
            let diagnostic = match &e {
                RecipeError::Rejected(d) => s.render(d),
                RecipeError::NotImplemented(_) => reason(&e),
            };
            (reason(&e), diagnostic)
        }),
        Ok(Some(r)) => Some(r),
    };
    if let Some((why, diagnostic)) = refused {
        return Ok(failure(why, diagnostic));
    }
    let result = {
        let s = session.borrow();
        match &s.measurer {
            Some(m) => m(&variant_state.scop, &variant_state.schedule, runs),
            None => Err("measuring is not available here".to_string()),
        }
    };
    Ok(match result {
        Ok(m) => {
            let mut map = Map::new();
            map.insert("ok".into(), true.into());
            map.insert("time".into(), Dynamic::from_float(m.transformed_s));
            map.insert("original".into(), Dynamic::from_float(m.original_s));
            map.insert("speedup".into(), Dynamic::from_float(m.speedup));
            map.insert("matched".into(), m.mismatch.is_none().into());
            map.insert("mismatch".into(), m.mismatch.unwrap_or_default().into());
            map.insert("reason".into(), "".into());
            map.insert("diagnostic".into(), "".into());
            map
        }
        Err(why) => failure(why.clone(), why),
    })
}

fn failure(reason: String, diagnostic: String) -> Map {
    let mut map = Map::new();
    map.insert("ok".into(), false.into());
    map.insert("reason".into(), reason.into());
    map.insert("diagnostic".into(), diagnostic.into());
    map
}

/// Apply the variant to the session's (fresh) state. `Ok(Some((reason,
/// diagnostic)))`: a `.poly` variant was refused (the diagnostic rendered
/// against the recipe string). A refused directive of a function variant
/// is recorded in the session and unwinds the function (`Err`).
fn build(
    session: &Shared,
    ctx: &NativeCallContext,
    variant: Dynamic,
) -> Result<Option<(String, String)>, Box<EvalAltResult>> {
    if let Some(f) = variant.clone().try_cast::<FnPtr>() {
        let _: Dynamic = f.call_within_context(ctx, ())?;
        return Ok(None);
    }
    if variant.is_string() {
        let text = variant.into_immutable_string().unwrap_or_default();
        let refused = |d: Diagnostic| Some((d.message.clone(), d.render("<variant>", &text)));
        let recipe = match parse_recipe(&text, &[]) {
            Ok(r) => r,
            Err(d) => return Ok(refused(d)),
        };
        let mut s = session.borrow_mut();
        return Ok(match apply_calls(&mut s.state, &recipe.calls) {
            Ok(_) => None,
            Err(RecipeError::Rejected(d)) => refused(d),
            Err(e) => Some((reason(&e), reason(&e))),
        });
    }
    let what = variant.type_name().to_string();
    Err(misuse(
        session,
        ctx,
        format!("`measure` takes a function or a recipe string, not a value of type `{what}`"),
        "the variant to measure",
    ))
}
