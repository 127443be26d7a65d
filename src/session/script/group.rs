//! `group(|| { … })`: the directives the function calls are applied in
//! order and checked together when it returns, as a recipe's
//! `group { … }` ([`crate::session::step_group`]). While it runs they are
//! only collected: a query sees the schedule before the group, a
//! `try_…` form has no answer yet (refused), and `measure` and a nested
//! `group` are refused.

use rhai::{Dynamic, Engine, EvalAltResult, FnPtr, NativeCallContext};

use crate::session::{step_group, RecipeError};
use crate::syntax::diagnostic::Diagnostic;

use super::directives::unwind;
use super::shared::Shared;
use super::span::call_spans;
use super::LogEntry;

/// Register `group`.
pub fn register(engine: &mut Engine, session: &Shared) {
    let s = session.clone();
    engine.register_fn("group", move |ctx: NativeCallContext, body: FnPtr| {
        group(&s, &ctx, body)
    });
}

fn group(session: &Shared, ctx: &NativeCallContext, body: FnPtr) -> Result<(), Box<EvalAltResult>> {
    let span = {
        let s = session.borrow();
        call_spans(&s.text, ctx.call_position(), "group", 1).call
    };
    let stop = |message: &str, label: &str| {
        let mut s = session.borrow_mut();
        let d = Diagnostic::error(message.to_string(), span.clone()).with_label(label.to_string());
        s.stop = Some(RecipeError::Rejected(d));
        unwind(ctx)
    };
    if session.borrow().group.is_some() {
        return Err(stop("groups do not nest", "a group inside a group"));
    }
    session.borrow_mut().group = Some(Vec::new());
    let ran: Result<Dynamic, _> = body.call_within_context(ctx, ());
    let calls = session.borrow_mut().group.take().unwrap_or_default();
    let _: Dynamic = ran?;
    if calls.is_empty() {
        return Err(stop("an empty group", "this group called no directive"));
    }
    let calls: Vec<_> = calls
        .into_iter()
        .map(|mut c| {
            c.group = Some(span.clone());
            c
        })
        .collect();
    let mut s = session.borrow_mut();
    let applied = step_group(&mut s.state, &calls, &span);
    match applied {
        Ok(warnings) => {
            // Variants are explorations: their no-op warnings are not shown.
            if s.variant.is_none() {
                s.log.extend(warnings.into_iter().map(LogEntry::Warning));
            }
            Ok(())
        }
        Err(e) => {
            s.refuse(e);
            Err(unwind(ctx))
        }
    }
}
