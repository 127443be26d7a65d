//! Unrolled copies of one update folded into one assignment: the copies
//! `C[i][j] += e(k); C[i][j] += e(k + 1);` that an `unroll_jam` of a
//! reduction loop puts side by side print as
//! `C[i][j] = C[i][j] + e(k) + e(k + 1);`.
//!
//! The compiler cannot do this itself: it must assume that the array an
//! `e` reads may overlap `C`, so it stores `C[i][j]` after every copy and
//! loads it again. polyc's dependences already assume that distinct
//! arrays do not overlap; the fold relies on nothing more.
//!
//! The fold computes exactly what the copies compute, operation for
//! operation, when (checked by [`fold_copies`] on the statement as
//! written):
//!
//! * the statement is `L op= e` or `L = L op e`, with `op` one of `+`,
//!   `-`, `*`, `/`; C's `+` and `-` group to the left, so
//!   `L + e0 + e1` is `(L + e0) + e1`, the copies' order;
//! * every copy writes the same `L` (its subscripts do not read the
//!   unrolled loop's variable);
//! * no `e` reads `L`'s array, nor calls a function, nor has a side
//!   effect (`e1` reads what it read before the fold);
//! * `L` is a `double`, and nothing in `e` is a `long double`: each
//!   partial sum is then a `double` and storing it converts nothing, so
//!   keeping it in a register instead rounds nothing. (A `float` or an
//!   integer `L` with a wider `e` would be rounded or truncated by each
//!   store; those are not folded.)
//!
//! This assumes that `double` arithmetic is evaluated in `double`
//! (`FLT_EVAL_METHOD == 0`, as on x86-64 with SSE and on AArch64): with
//! x87 excess precision a stored partial sum is rounded and a register one
//! is not. Each `e` keeps its own parentheses where its operator binds no
//! tighter than `op`.

use crate::scop::{Scop, Statement};
use crate::syntax::c::{BinaryOp, Expr as CExpr, ExprKind, UnaryOp};
use crate::syntax::print::expr_text;

/// The one assignment that does what `copies` (the bodies of consecutive
/// copies of `st`, iterators replaced, in order) do, or `None` when there
/// are fewer than two or they cannot be folded exactly (module docs).
pub(super) fn fold_copies(scop: &Scop, st: &Statement, copies: &[CExpr]) -> Option<CExpr> {
    if copies.len() < 2 {
        return None;
    }
    let (op, _, e) = update(&st.body)?;
    let target = written_array(&st.body)?;
    if element_type(scop, target)? != "double" || !reads_only_other_values(scop, st, target, e) {
        return None;
    }
    let mut parts = copies.iter().map(update);
    let (_, first_lhs, first_e) = parts.next()??;
    let lhs_text = expr_text(first_lhs);
    let mut chain = binary(op, first_lhs.clone(), operand(op, first_e));
    for part in parts {
        let (o, lhs, e) = part?;
        if o != op || expr_text(lhs) != lhs_text {
            return None;
        }
        chain = binary(op, chain, operand(op, e));
    }
    Some(CExpr {
        kind: ExprKind::Assign("=".into(), Box::new(first_lhs.clone()), Box::new(chain)),
        span: first_lhs.span.clone(),
    })
}

/// The cell a copy writes, as printed (`C[i + 1][j]`), when it is an
/// update `L op= e` or `L = L op e`: copies that write the same cell one
/// after the other are what [`fold_copies`] may fold (a run of copies of
/// two jammed loops holds one such run per cell).
pub(super) fn updated_cell(copy: &CExpr) -> Option<String> {
    update(copy).map(|(_, lhs, _)| expr_text(lhs))
}

/// `L op= e` or `L = L op e` as `(op, L, e)`.
fn update(body: &CExpr) -> Option<(BinaryOp, &CExpr, &CExpr)> {
    let ExprKind::Assign(assign, lhs, rhs) = &body.kind else {
        return None;
    };
    let op = match assign.as_str() {
        "+=" => BinaryOp::Add,
        "-=" => BinaryOp::Sub,
        "*=" => BinaryOp::Mul,
        "/=" => BinaryOp::Div,
        "=" => {
            let ExprKind::Binary(op, l, e) = &rhs.kind else {
                return None;
            };
            let folds = matches!(
                op,
                BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div
            );
            return (folds && expr_text(l) == expr_text(lhs)).then_some((*op, &**lhs, &**e));
        }
        _ => return None,
    };
    Some((op, &**lhs, &**rhs))
}

/// The name of the array (or scalar) `L` of `L op= e`.
fn written_array(body: &CExpr) -> Option<&str> {
    let ExprKind::Assign(_, lhs, _) = &body.kind else {
        return None;
    };
    match &lhs.kind {
        ExprKind::Var(name) => Some(name),
        ExprKind::Index(base, _) => match &base.kind {
            ExprKind::Var(name) => Some(name),
            _ => None,
        },
        _ => None,
    }
}

/// The declared element type of array or scalar `name`, whitespace
/// normalised (`long double`).
fn element_type(scop: &Scop, name: &str) -> Option<String> {
    let a = scop.arrays.iter().find(|a| a.name == name)?;
    let t = a.element_type.as_deref()?;
    Some(t.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Whether `e` (as written) only reads, calls nothing, reads no element
/// of `target`, and has no `long double` in it: every name is an iterator
/// of `st`, a parameter, or an array or scalar of known type other than
/// `long double`.
fn reads_only_other_values(scop: &Scop, st: &Statement, target: &str, e: &CExpr) -> bool {
    let name_ok = |name: &str| {
        name != target
            && (st.iterators.iter().any(|i| i == name)
                || scop.params.iter().any(|p| p == name)
                || element_type(scop, name).is_some_and(|t| t != "long double"))
    };
    match &e.kind {
        ExprKind::Int(..) => true,
        ExprKind::Float(text) => !text.ends_with(['l', 'L']),
        ExprKind::Var(name) => name_ok(name),
        ExprKind::Index(base, subs) => {
            matches!(&base.kind, ExprKind::Var(name) if name_ok(name))
                && subs
                    .iter()
                    .all(|s| reads_only_other_values(scop, st, target, s))
        }
        ExprKind::Unary(op, x) => {
            matches!(
                op,
                UnaryOp::Neg | UnaryOp::Plus | UnaryOp::Not | UnaryOp::BitNot
            ) && reads_only_other_values(scop, st, target, x)
        }
        ExprKind::Cast(ty, x) => {
            !ty.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains("long double")
                && reads_only_other_values(scop, st, target, x)
        }
        ExprKind::Binary(_, a, b) => {
            reads_only_other_values(scop, st, target, a)
                && reads_only_other_values(scop, st, target, b)
        }
        ExprKind::Conditional(c, a, b) => [c, a, b]
            .iter()
            .all(|x| reads_only_other_values(scop, st, target, x)),
        ExprKind::Paren(x) => reads_only_other_values(scop, st, target, x),
        ExprKind::Str(_) | ExprKind::Call(..) | ExprKind::Member(..) | ExprKind::Assign(..) => {
            false
        }
    }
}

/// `e` as the right operand of `op`: parenthesised unless its own
/// operator binds tighter (a product in a sum) or it is atomic.
fn operand(op: BinaryOp, e: &CExpr) -> CExpr {
    let tight = match &e.kind {
        ExprKind::Binary(inner, ..) => {
            matches!(op, BinaryOp::Add | BinaryOp::Sub)
                && matches!(inner, BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem)
        }
        ExprKind::Conditional(..) | ExprKind::Assign(..) => false,
        // A replaced iterator prints as its own (parenthesised) text.
        _ => true,
    };
    if tight {
        return e.clone();
    }
    CExpr {
        kind: ExprKind::Paren(Box::new(e.clone())),
        span: e.span.clone(),
    }
}

fn binary(op: BinaryOp, a: CExpr, b: CExpr) -> CExpr {
    let span = a.span.clone();
    CExpr {
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        span,
    }
}
