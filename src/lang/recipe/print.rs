//! Calls written back as recipe text: what `--explain` keeps of a
//! recipe as the user wrote it (its data-layout calls and the calls after
//! them). Parsing the text again gives the same calls, spans aside.

use super::{AffineConstraint, AffineExpr, Call, Value};

/// `calls` as recipe lines, each call with its binding (`t =
/// add_array("t");`), the calls of one `group` inside `group { … }`;
/// `None` where an argument has no plain spelling (a string holding a
/// quote or a backslash).
pub fn calls_text(calls: &[Call]) -> Option<Vec<String>> {
    let mut lines = Vec::new();
    let mut open = None;
    for c in calls {
        if c.group != open {
            if open.is_some() {
                lines.push("}".to_string());
            }
            if c.group.is_some() {
                lines.push("group {".to_string());
            }
            open.clone_from(&c.group);
        }
        let args: Option<Vec<String>> = c
            .args
            .iter()
            .map(|a| {
                let v = value_text(&a.value)?;
                Some(match &a.name {
                    Some(n) => format!("{n} = {v}"),
                    None => v,
                })
            })
            .collect();
        let bind = c
            .bind
            .as_ref()
            .map_or(String::new(), |(v, _)| format!("{v} = "));
        let indent = if open.is_some() { "  " } else { "" };
        lines.push(format!("{indent}{bind}{}({});", c.name, args?.join(", ")));
    }
    if open.is_some() {
        lines.push("}".to_string());
    }
    Some(lines)
}

/// An argument as the recipe language writes it.
fn value_text(v: &Value) -> Option<String> {
    let list = |xs: &[i64]| xs.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    Some(match v {
        Value::Int(n) => n.to_string(),
        Value::Beta(b) => format!("[{}]", list(b)),
        Value::Label(l) => format!("@{l}"),
        Value::Sections(s) => {
            let parts: Vec<String> = s.iter().map(|x| list(x)).collect();
            format!("{{{}}}", parts.join(" | "))
        }
        Value::Str(s) if !s.contains(['"', '\\']) => format!("\"{s}\""),
        Value::Str(_) => return None,
        Value::Ident(name) => name.clone(),
        Value::Constraint(c) => constraint_text(c),
    })
}

/// `c1 >= N / 2 + 1`, parenthesised only where the grammar needs it.
pub fn constraint_text(c: &AffineConstraint) -> String {
    let (lhs, rhs) = (expr_text(&c.lhs, 0), expr_text(&c.rhs, 0));
    format!("{lhs} {} {rhs}", c.op.text())
}

/// How tightly an expression binds: a sum, a product, a negation or an
/// atom.
fn precedence(e: &AffineExpr) -> u8 {
    match e {
        AffineExpr::Add(..) | AffineExpr::Sub(..) => 1,
        AffineExpr::Mul(..) | AffineExpr::Div(..) => 2,
        AffineExpr::Neg(_) => 3,
        AffineExpr::Int(n) if *n < 0 => 3,
        AffineExpr::Int(_) | AffineExpr::Name(..) => 4,
    }
}

/// `e` where the context binds at `at`: in parentheses where `e` binds
/// less tightly. Sums and products lean left, so a right operand of the
/// same precedence is parenthesised (`a - (b - c)`).
fn expr_text(e: &AffineExpr, at: u8) -> String {
    let text = match e {
        AffineExpr::Int(n) => n.to_string(),
        AffineExpr::Name(n, _) => n.clone(),
        AffineExpr::Neg(x) => format!("-{}", expr_text(x, 3)),
        AffineExpr::Add(a, b) => format!("{} + {}", expr_text(a, 1), expr_text(b, 2)),
        AffineExpr::Sub(a, b) => format!("{} - {}", expr_text(a, 1), expr_text(b, 2)),
        AffineExpr::Mul(a, b) => format!("{} * {}", expr_text(a, 2), expr_text(b, 3)),
        AffineExpr::Div(a, b) => format!("{} / {}", expr_text(a, 2), expr_text(b, 3)),
    };
    if precedence(e) < at {
        format!("({text})")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::recipe::{parse_recipe, Recipe};

    /// Whether two expressions are the same tree, spans aside.
    fn same(a: &AffineExpr, b: &AffineExpr) -> bool {
        use AffineExpr::*;
        match (a, b) {
            (Int(x), Int(y)) => x == y,
            (Name(x, _), Name(y, _)) => x == y,
            (Neg(x), Neg(y)) => same(x, y),
            (Add(p, q), Add(r, s))
            | (Sub(p, q), Sub(r, s))
            | (Mul(p, q), Mul(r, s))
            | (Div(p, q), Div(r, s)) => same(p, r) && same(q, s),
            _ => false,
        }
    }

    fn same_value(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Constraint(x), Value::Constraint(y)) => {
                x.op == y.op && same(&x.lhs, &y.lhs) && same(&x.rhs, &y.rhs)
            }
            _ => a == b,
        }
    }

    /// Each call written back parses to the same call, spans aside.
    #[test]
    fn calls_written_back_parse_to_the_same_calls() {
        let text = "t = add_array(\"t\");\n\
                    group { replace_array(\"B\", t); datacopy(t, \"B\", [0], true, [0, 1]); }\n\
                    iss([1], c1 - (N - 2) * 3 > -(N / 2) + 1 - -4 - (i + 1));\n\
                    iss([0], {1, 0 | | -3});\n\
                    auto(pluto, tile = 32, fuse = \"smart\");\n\
                    unroll(@init, 2);\n";
        let read = |t: &str| parse_recipe(t, &[]).map_err(|d| format!("{d:?}"));
        let first: Recipe = read(text).expect("the recipe parses");
        let lines = calls_text(&first.calls).expect("every argument has a spelling");
        let again = read(&lines.join("\n")).expect("the written calls parse");
        assert_eq!(first.calls.len(), again.calls.len());
        for (a, b) in first.calls.iter().zip(&again.calls) {
            let bind = |c: &Call| c.bind.as_ref().map(|b| b.0.clone());
            assert_eq!((&a.name, bind(a)), (&b.name, bind(b)));
            assert_eq!(a.group.is_some(), b.group.is_some(), "{}", a.name);
            assert_eq!(a.args.len(), b.args.len(), "{}", a.name);
            for (x, y) in a.args.iter().zip(&b.args) {
                assert_eq!(x.name, y.name);
                assert!(
                    same_value(&x.value, &y.value),
                    "{:?} / {:?}",
                    x.value,
                    y.value
                );
            }
        }
        let iss = "iss([1], c1 - (N - 2) * 3 > -(N / 2) + 1 - -4 - (i + 1));";
        assert!(lines.iter().any(|l| l == iss), "{}", lines.join("\n"));
    }
}
