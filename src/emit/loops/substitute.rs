//! A statement body with its iterators replaced by the expressions the
//! loops give them, on the syntax tree: a replacement is parenthesised by
//! precedence, never pasted as text (an unrolled copy of `X[n - 2 - j]`
//! reads `X[n - 2 - (j + 1)]`).

use std::collections::HashMap;

use crate::syntax::c::{BinaryOp, Expr as CExpr, ExprKind};

/// The text that replaces an iterator: `bare` where the iterator is a
/// whole subscript or argument, `operand` (parenthesized unless atomic)
/// inside a larger expression.
pub(super) struct Substitute {
    pub(super) bare: String,
    pub(super) operand: String,
}

/// `e` with the iterators replaced; a subscript, an argument or the left
/// operand of `+`/`-` that is just an iterator gets the bare text
/// (`A[k + 1]`, not `A[(k + 1)]`).
pub(super) fn substitute(e: &CExpr, map: &HashMap<String, Substitute>) -> CExpr {
    let whole = |x: &CExpr| match &x.kind {
        ExprKind::Var(n) => match map.get(n) {
            Some(t) => CExpr {
                kind: ExprKind::Var(t.bare.clone()),
                span: x.span.clone(),
            },
            None => x.clone(),
        },
        _ => substitute(x, map),
    };
    let kind = match &e.kind {
        ExprKind::Var(n) => match map.get(n) {
            Some(t) => ExprKind::Var(t.operand.clone()),
            None => ExprKind::Var(n.clone()),
        },
        ExprKind::Index(b, subs) => ExprKind::Index(
            Box::new(substitute(b, map)),
            subs.iter().map(whole).collect(),
        ),
        ExprKind::Call(f, args) => ExprKind::Call(f.clone(), args.iter().map(whole).collect()),
        ExprKind::Member(b, f) => ExprKind::Member(Box::new(substitute(b, map)), f.clone()),
        ExprKind::Unary(op, x) => ExprKind::Unary(*op, Box::new(substitute(x, map))),
        ExprKind::Cast(t, x) => ExprKind::Cast(t.clone(), Box::new(substitute(x, map))),
        // A sum needs no parentheses as the left operand of `+` or `-`.
        ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) => {
            ExprKind::Binary(*op, Box::new(whole(a)), Box::new(substitute(b, map)))
        }
        ExprKind::Binary(op, a, b) => ExprKind::Binary(
            *op,
            Box::new(substitute(a, map)),
            Box::new(substitute(b, map)),
        ),
        ExprKind::Conditional(c, a, b) => ExprKind::Conditional(
            Box::new(substitute(c, map)),
            Box::new(substitute(a, map)),
            Box::new(substitute(b, map)),
        ),
        ExprKind::Assign(op, a, b) => ExprKind::Assign(
            op.clone(),
            Box::new(substitute(a, map)),
            Box::new(substitute(b, map)),
        ),
        ExprKind::Paren(x) => ExprKind::Paren(Box::new(substitute(x, map))),
        k => k.clone(),
    };
    CExpr {
        kind,
        span: e.span.clone(),
    }
}
