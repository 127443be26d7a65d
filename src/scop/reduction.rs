//! Reduction updates: a statement `x op= e`, or `x = x op e1 op e2 …`, on a
//! scalar `x` whose other operands never read `x`. A loop whose carried
//! dependences on `x` all join such updates, with one operator, may run in
//! parallel under OpenMP's `reduction(op: x)`: each thread updates its own
//! copy of `x`, and the copies are combined into `x` at the end. That
//! reorders the updates, which is exact for integers and not for floating
//! point (the last digits may change); `parallelize` does it only when a
//! recipe asks (`reduction = x`).
//!
//! Cheap: reads the statement's syntax tree, never a set.

use serde::{Deserialize, Serialize};

use super::Statement;
use crate::syntax::c::{BinaryOp, Expr, ExprKind};

/// The operator of a reduction, as OpenMP's clause writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReductionOp {
    /// `+=`, `-=`, `x = x + e - f` (OpenMP's `+`: a copy starts at 0).
    #[serde(rename = "+")]
    Add,
    /// `*=`, `x = x * e` (a copy starts at 1).
    #[serde(rename = "*")]
    Mul,
}

impl ReductionOp {
    /// The operator in OpenMP's `reduction(op: x)`.
    pub fn symbol(self) -> &'static str {
        match self {
            ReductionOp::Add => "+",
            ReductionOp::Mul => "*",
        }
    }
}

/// The operator with which `statement` updates the scalar `variable`, or
/// `None` when it is not a reduction update of it: its assignment must
/// write `variable` and read it only as the accumulator.
pub fn update_operator(statement: &Statement, variable: &str) -> Option<ReductionOp> {
    let ExprKind::Assign(op, lhs, rhs) = &statement.body.kind else {
        return None;
    };
    if !is_variable(lhs, variable) {
        return None;
    }
    match op.as_str() {
        "+=" | "-=" if !mentions(rhs, variable) => Some(ReductionOp::Add),
        "*=" if !mentions(rhs, variable) => Some(ReductionOp::Mul),
        "=" => accumulated(rhs, variable),
        _ => None,
    }
}

/// `x + e1 - e2 …` or `x * e1 * e2 …` (left to right, as C groups them),
/// with `x` only first: the operator; else `None`.
fn accumulated(rhs: &Expr, variable: &str) -> Option<ReductionOp> {
    let mut e = strip_parens(rhs);
    let mut found: Option<ReductionOp> = None;
    loop {
        let ExprKind::Binary(op, left, right) = &e.kind else {
            // The leftmost operand: the accumulator, after one operator.
            return found.filter(|_| is_variable(e, variable));
        };
        let this = match op {
            BinaryOp::Add | BinaryOp::Sub => ReductionOp::Add,
            BinaryOp::Mul => ReductionOp::Mul,
            _ => return None,
        };
        if found.is_some_and(|f| f != this) || mentions(right, variable) {
            return None;
        }
        found = Some(this);
        e = strip_parens(left);
    }
}

fn strip_parens(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(inner) = &e.kind {
        e = inner;
    }
    e
}

fn is_variable(e: &Expr, variable: &str) -> bool {
    matches!(&strip_parens(e).kind, ExprKind::Var(n) if n == variable)
}

/// Whether `e` reads or writes `name` (as a variable or an array).
fn mentions(e: &Expr, name: &str) -> bool {
    match &e.kind {
        ExprKind::Var(n) => n == name,
        ExprKind::Int(..) | ExprKind::Float(_) | ExprKind::Str(_) => false,
        ExprKind::Index(base, subscripts) | ExprKind::Call(base, subscripts) => {
            mentions(base, name) || subscripts.iter().any(|s| mentions(s, name))
        }
        ExprKind::Member(base, _)
        | ExprKind::Unary(_, base)
        | ExprKind::Cast(_, base)
        | ExprKind::Paren(base) => mentions(base, name),
        ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
            mentions(a, name) || mentions(b, name)
        }
        ExprKind::Conditional(c, a, b) => {
            mentions(c, name) || mentions(a, name) || mentions(b, name)
        }
    }
}
