//! Every directive as a script function, `tile(beta, depth, outer, size)`,
//! and its `try_tile(…)` form. A call becomes the [`Call`] a `.poly`
//! recipe would give (its spans in the script) and goes through
//! [`crate::session::step`], the path `.poly` recipes take: same
//! directive table, same checks, same diagnostics.
//!
//! A refused directive stops the script with its diagnostic (inside a
//! `measure` variant: ends the variant). `try_…` returns
//! `#{ok, changed, reason, diagnostic}` instead and leaves the schedule as
//! it was when `ok` is false.

use std::any::TypeId;

use rhai::{Dynamic, Engine, EvalAltResult, Map, NativeCallContext};

use crate::lang::recipe::Call;
use crate::session::{directive_names, step, RecipeError};
use crate::syntax::diagnostic::Diagnostic;

use super::shared::{reason, Shared};
use super::span::call_spans;
use super::values::to_args;
use super::LogEntry;

/// The most arguments a directive function accepts; more is an arity error
/// from the directive, as in a recipe.
const MAX_ARGS: usize = 6;

/// The error that unwinds a script (or a variant) after a refusal; the
/// refusal itself is in the session. Scripts cannot catch it.
pub fn unwind(ctx: &NativeCallContext) -> Box<EvalAltResult> {
    EvalAltResult::ErrorTerminated(Dynamic::UNIT, ctx.call_position()).into()
}

/// Register `name` and `try_name` for every directive and arity.
///
/// rhai's standard library has `split(array, index)` and `split(string,
/// index)`, which rhai would prefer to an any-typed `split` for exactly
/// those types; they are shadowed so that `split([0, 1], 2)` and
/// `split("@init", 1)` are the directive. (`reverse(array)` and
/// `shift(array)` with one argument stay rhai's: the directives take more.)
pub fn register(engine: &mut Engine, session: &Shared) {
    let any = TypeId::of::<Dynamic>();
    let shadowed = [
        (
            "split",
            vec![TypeId::of::<rhai::Array>(), TypeId::of::<rhai::INT>()],
        ),
        (
            "split",
            vec![
                TypeId::of::<rhai::ImmutableString>(),
                TypeId::of::<rhai::INT>(),
            ],
        ),
    ];
    let signatures = directive_names()
        .flat_map(|name| (0..=MAX_ARGS).map(move |arity| (name, vec![any; arity])))
        .chain(shadowed);
    for (name, types) in signatures {
        let s = session.clone();
        engine.register_raw_fn(name, &types, move |ctx, args| plain(&s, &ctx, name, args));
        let s = session.clone();
        engine.register_raw_fn(format!("try_{name}"), &types, move |ctx, args| {
            attempt(&s, &ctx, name, args)
        });
    }
}

/// The call as a recipe `Call`, spans in the script.
pub fn to_call(
    session: &Shared,
    ctx: &NativeCallContext,
    name: &str,
    args: &[&mut Dynamic],
) -> Result<Call, RecipeError> {
    let s = session.borrow();
    let spans = call_spans(&s.text, ctx.call_position(), ctx.fn_name(), args.len());
    let mut out = Vec::new();
    for (k, (value, span)) in args.iter().zip(&spans.args).enumerate() {
        out.extend(to_args(&s.text, name, k, value, span).map_err(RecipeError::Rejected)?);
    }
    Ok(Call {
        name: name.to_string(),
        name_span: spans.name,
        args: out,
        span: spans.call,
        bind: None,
        group: None,
    })
}

/// `name(…)`: apply, or stop.
fn plain(
    session: &Shared,
    ctx: &NativeCallContext,
    name: &str,
    args: &mut [&mut Dynamic],
) -> Result<Dynamic, Box<EvalAltResult>> {
    let mut given = Dynamic::UNIT;
    let result = to_call(session, ctx, name, args).and_then(|call| {
        // `add_array("t")` and `get_array_id("t")` give the array's name.
        if let Some(array) = crate::session::array_named_by(&call) {
            given = array.into();
        }
        let mut s = session.borrow_mut();
        match &mut s.group {
            // Inside a `group`: kept, applied with the others at its end.
            Some(calls) => {
                calls.push(call);
                Ok(None)
            }
            None => step(&mut s.state, &call),
        }
    });
    let mut s = session.borrow_mut();
    match result {
        Ok(warning) => {
            // Variants are explorations: their no-op warnings are not shown.
            if let (Some(w), None) = (warning, &s.variant) {
                s.log.push(LogEntry::Warning(w));
            }
            Ok(given)
        }
        Err(e) => {
            s.refuse(e);
            Err(unwind(ctx))
        }
    }
}

/// `try_name(…)`: apply if legal; say what happened.
fn attempt(
    session: &Shared,
    ctx: &NativeCallContext,
    name: &str,
    args: &mut [&mut Dynamic],
) -> Result<Map, Box<EvalAltResult>> {
    if session.borrow().group.is_some() {
        let mut s = session.borrow_mut();
        let spans = call_spans(&s.text, ctx.call_position(), &format!("try_{name}"), 0);
        let d = Diagnostic::error(format!("`try_{name}` cannot be inside a group"), spans.call)
            .with_label("its answer would be known only at the group's end")
            .with_help(format!(
                "write `{name}(…)`: the group is checked as a whole"
            ));
        s.stop = Some(RecipeError::Rejected(d));
        return Err(unwind(ctx));
    }
    let result = to_call(session, ctx, name, args).and_then(|call| {
        let mut s = session.borrow_mut();
        step(&mut s.state, &call)
    });
    let s = session.borrow();
    let mut map = Map::new();
    let (ok, changed, why, diagnostic) = match &result {
        Ok(warning) => (true, warning.is_none(), String::new(), String::new()),
        Err(e) => (
            false,
            false,
            reason(e),
            match e {
                RecipeError::Rejected(d) => s.render(d),
                RecipeError::NotImplemented(_) => reason(e),
            },
        ),
    };
    map.insert("ok".into(), ok.into());
    map.insert("changed".into(), changed.into());
    map.insert("reason".into(), why.into());
    map.insert("diagnostic".into(), diagnostic.into());
    Ok(map)
}
