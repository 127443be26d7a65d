//! Script values as recipe arguments: a directive called from rhai becomes
//! the same [`Call`] the `.poly` parser would give, with the script's
//! spans.
//!
//! | rhai | recipe [`Value`] |
//! |---|---|
//! | `32`, `true` / `false` | `Int` (`1` / `0`, as in Clay) |
//! | `[0, 1]`, `[]` | `Beta` (β-vectors and coefficient lists) |
//! | `[[1, 0], [0], [], [-1]]` | `Sections` (Clay's `{1, 0 \| 0 \| \| -1}`) |
//! | `"@init"` | `Label` |
//! | `"{1 \| 0 \| 0 \| -1}"` | `Sections`, read by the recipe grammar |
//! | `"c1 <= N / 2"` (a string with `<`, `>` or `=`) | `Constraint`, read by the recipe grammar |
//! | any other string | `Str` |
//! | `#{tile: 32}` | named arguments, one per key (`tile = 32`), in key order |

use rhai::{Array, Dynamic, Map};

use crate::lang::recipe::{parse_recipe, AffineConstraint, AffineExpr, Arg, Value};
use crate::syntax::diagnostic::Diagnostic;
use crate::syntax::Span;

/// The recipe arguments for `value`, the `k`-th argument (0-based) of a
/// call to `name`, written at `span` in `text`. A map gives one argument
/// per key; anything else gives one.
pub fn to_args(
    text: &str,
    name: &str,
    k: usize,
    value: &Dynamic,
    span: &Span,
) -> Result<Vec<Arg>, Diagnostic> {
    if value.is_map() {
        let map = value
            .read_lock::<Map>()
            .map(|m| m.clone())
            .unwrap_or_default();
        return map
            .iter()
            .map(|(key, v)| {
                Ok(Arg {
                    value: to_value(text, name, k, v, span)?,
                    span: span.clone(),
                    name: Some(key.to_string()),
                })
            })
            .collect();
    }
    Ok(vec![Arg {
        value: to_value(text, name, k, value, span)?,
        span: span.clone(),
        name: None,
    }])
}

fn to_value(
    text: &str,
    name: &str,
    k: usize,
    value: &Dynamic,
    span: &Span,
) -> Result<Value, Diagnostic> {
    let wrong = |what: &str| {
        Diagnostic::error(
            format!("argument {} of `{name}` cannot be {what}", k + 1),
            span.clone(),
        )
        .with_label(format!("this is {what}"))
        .with_note(
            "directives take integers, arrays of integers (β-vectors), \
             arrays of arrays (Clay's `{… | …}` lists) and strings (`\"@label\"`, constraints)",
        )
    };
    if let Ok(v) = value.as_int() {
        return Ok(Value::Int(v));
    }
    if let Ok(b) = value.as_bool() {
        return Ok(Value::Int(i64::from(b)));
    }
    if value.is_string() {
        let s = value.clone().into_immutable_string().unwrap_or_default();
        return from_string(text, name, k, s.as_str(), span);
    }
    if value.is_array() {
        let array = value
            .read_lock::<Array>()
            .map(|a| a.clone())
            .unwrap_or_default();
        if let Some(ints) = ints(&array) {
            return Ok(Value::Beta(ints));
        }
        let sections: Option<Vec<Vec<i64>>> = array
            .iter()
            .map(|x| x.read_lock::<Array>().and_then(|inner| ints(&inner)))
            .collect();
        return sections
            .map(Value::Sections)
            .ok_or_else(|| wrong("an array of anything but integers or arrays of integers"));
    }
    Err(wrong(&format!("a value of type `{}`", value.type_name())))
}

fn ints(array: &Array) -> Option<Vec<i64>> {
    array.iter().map(|x| x.as_int().ok()).collect()
}

/// `"@label"`, a Clay list or a constraint (read by the recipe grammar), or
/// a plain string.
fn from_string(
    text: &str,
    name: &str,
    k: usize,
    s: &str,
    span: &Span,
) -> Result<Value, Diagnostic> {
    if let Some(label) = s.strip_prefix('@') {
        return Ok(Value::Label(label.to_string()));
    }
    let recipe_value = s.trim_start().starts_with('{') || s.contains(['<', '>', '=']);
    if !recipe_value {
        return Ok(Value::Str(s.to_string()));
    }
    // The string is read as the argument of a recipe call, `x(…)`: at `- 2`
    // in that text is the string's first character.
    let wrapped = format!("x({s})");
    // Where the string's characters sit in the script: inside the literal
    // when the argument is written as one, else the whole argument.
    let inner =
        (text.get(span.clone()) == Some(format!("\"{s}\"").as_str())).then_some(span.start + 1);
    let place = |r: &Span| match inner {
        Some(at) => {
            let a = r.start.saturating_sub(2).min(s.len());
            let b = r.end.saturating_sub(2).min(s.len());
            at + a..at + b
        }
        None => span.clone(),
    };
    let parsed = parse_recipe(&wrapped, &[]).map_err(|d| {
        Diagnostic::error(
            format!(
                "argument {} of `{name}` is not a recipe value: {}",
                k + 1,
                d.message
            ),
            place(&d.span),
        )
        .with_label(d.details.label.clone())
        .with_note(
            "a string argument is read as in a .poly recipe: `c1 <= N / 2`, `{1 | 0 | 0 | -1}`",
        )
    })?;
    let value = match parsed.calls.as_slice() {
        [call] if call.args.len() == 1 && call.args[0].name.is_none() => call.args[0].value.clone(),
        _ => {
            return Err(Diagnostic::error(
                format!("argument {} of `{name}` must be one recipe value", k + 1),
                span.clone(),
            )
            .with_label("this string holds more than one"))
        }
    };
    Ok(match value {
        Value::Constraint(c) => Value::Constraint(AffineConstraint {
            lhs: moved(c.lhs, &place),
            op: c.op,
            rhs: moved(c.rhs, &place),
        }),
        other => other,
    })
}

/// The expression with its names' spans moved into the script.
fn moved(e: AffineExpr, place: &impl Fn(&Span) -> Span) -> AffineExpr {
    let b = |x: Box<AffineExpr>| Box::new(moved(*x, place));
    match e {
        AffineExpr::Int(v) => AffineExpr::Int(v),
        AffineExpr::Name(n, s) => AffineExpr::Name(n, place(&s)),
        AffineExpr::Neg(x) => AffineExpr::Neg(b(x)),
        AffineExpr::Add(x, y) => AffineExpr::Add(b(x), b(y)),
        AffineExpr::Sub(x, y) => AffineExpr::Sub(b(x), b(y)),
        AffineExpr::Mul(x, y) => AffineExpr::Mul(b(x), b(y)),
        AffineExpr::Div(x, y) => AffineExpr::Div(b(x), b(y)),
    }
}
