//! Subscripts folded into one sum of the loop counters before printing.
//!
//! A statement's subscript with its iterators replaced often carries
//! terms that cancel: the source's `B[i + 1]` at `i = c4 - 1` reads
//! `B[c4 - 1 + 1]`, and `A[i - 1]` at `i = 1` reads `A[1 - 1]`. Such a
//! subscript prints folded, `B[c4]` and `A[0]`, where the fold has fewer
//! terms than the substituted form; one that folds to as many terms keeps
//! the form the file wrote (`A[1 + i]` stays `A[1 + c1]`, not `A[c1 + 1]`).
//!
//! A pack buffer's subscripts always fold. A buffer's subscript is the
//! array's minus the buffer's offset (`emit::pack`), `i - 32 * polyc_at2
//! + 1`, which the file never wrote: `polyc_pack_C[c4 - c4][c5 - c5]`
//! reads `polyc_pack_C[0][0]` and `polyc_pack_A[1 + j - 32 * 0 + 1]`
//! reads `polyc_pack_A[j + 2]`.
//!
//! The fold is exact (checked arithmetic on integers): C evaluates a
//! subscript of `int` values, and an in-bounds cell's subscript does not
//! overflow, so the sum has the substituted form's value. (A `long`
//! parameter that cancels leaves the sum in `int`: the same value for a
//! subscript within `int`, which the loops' `int` counters already
//! assume.) Only literals without a suffix or a base prefix fold (`1u`
//! would make the subscript unsigned); a quotient or a remainder only of
//! two constants, as C truncates them (`(0 - 1) / 2` is `0`); a choice
//! `c ? a : b` only on a comparison of two constants
//! (`(2 == 0 ? n - 1 : 2 - 1)` is `1`). A subscript that is not affine in
//! plain values (an iterator with a floor or a divisor, a product of two
//! names, a quotient of a counter), or whose fold overflows, keeps its
//! substituted form.

use std::collections::HashMap;

use super::super::scan::POLYC_PREFIX;
use super::Sum;
use crate::scop::Scop;
use crate::syntax::c::{BinaryOp, Expr as CExpr, ExprKind, UnaryOp};

/// What an iterator of the statement stands for: a sum of counters and
/// parameters (`Some`), or a value with a floor or a divisor, which is
/// not folded (`None`). A name that is no iterator is a parameter.
pub(super) type Values<'a> = HashMap<&'a str, Option<Sum>>;

/// The name of the `k`-th folded subscript in the body [`fold`] returns:
/// not a C identifier, so it never meets an iterator's name.
pub(super) fn placeholder(k: usize) -> String {
    format!("#folded{k}")
}

/// `body` with each subscript that folds (module docs) replaced by a
/// variable named [`placeholder`]`(k)`, and the folded sums, in `k` order.
pub(super) fn fold(body: &CExpr, scop: &Scop, values: &Values) -> (CExpr, Vec<Sum>) {
    let mut out = body.clone();
    let mut sums = Vec::new();
    fold_in(&mut out, scop, values, &mut sums);
    (out, sums)
}

/// Whether `name` is a buffer: of the scop's arrays, those `emit::pack`
/// adds are the only local ones named with polyc's prefix (the OpenMP
/// and the CUDA printers both see them there).
fn is_buffer(scop: &Scop, name: &str) -> bool {
    name.starts_with(POLYC_PREFIX) && scop.arrays.iter().any(|a| a.local && a.name == name)
}

fn fold_in(e: &mut CExpr, scop: &Scop, values: &Values, sums: &mut Vec<Sum>) {
    match &mut e.kind {
        ExprKind::Index(base, subs) => {
            let buffer = matches!(&base.kind, ExprKind::Var(n) if is_buffer(scop, n));
            for s in subs.iter_mut() {
                let folds =
                    |sum: &Linear| buffer || sum.printed_terms() < substituted_terms(s, values);
                match linear(s, values).filter(folds) {
                    Some(sum) => {
                        s.kind = ExprKind::Var(placeholder(sums.len()));
                        sums.push(sum.printed());
                    }
                    None => fold_in(s, scop, values, sums),
                }
            }
            fold_in(base, scop, values, sums);
        }
        ExprKind::Call(_, args) => {
            for a in args {
                fold_in(a, scop, values, sums);
            }
        }
        ExprKind::Member(b, _)
        | ExprKind::Unary(_, b)
        | ExprKind::Cast(_, b)
        | ExprKind::Paren(b) => fold_in(b, scop, values, sums),
        ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
            fold_in(a, scop, values, sums);
            fold_in(b, scop, values, sums);
        }
        ExprKind::Conditional(c, a, b) => {
            fold_in(c, scop, values, sums);
            fold_in(a, scop, values, sums);
            fold_in(b, scop, values, sums);
        }
        ExprKind::Int(..) | ExprKind::Float(_) | ExprKind::Str(_) | ExprKind::Var(_) => {}
    }
}

/// A sum of names in the order they first appear, and a constant; a
/// name's coefficient may be zero until [`Linear::printed`].
#[derive(Default)]
struct Linear {
    terms: Vec<(String, i64)>,
    constant: i64,
}

impl Linear {
    fn constant(k: i64) -> Linear {
        Linear {
            terms: Vec::new(),
            constant: k,
        }
    }

    /// `self + k · other`; `None` on overflow.
    fn add_scaled(mut self, k: i64, other: &Linear) -> Option<Linear> {
        for (name, c) in &other.terms {
            let add = k.checked_mul(*c)?;
            match self.terms.iter_mut().find(|(n, _)| n == name) {
                Some((_, have)) => *have = have.checked_add(add)?,
                None => self.terms.push((name.clone(), add)),
            }
        }
        self.constant = self.constant.checked_add(k.checked_mul(other.constant)?)?;
        Some(self)
    }

    fn of_sum(s: &Sum) -> Linear {
        Linear {
            terms: s.terms.iter().map(|(c, n)| (n.clone(), *c)).collect(),
            constant: s.constant,
        }
    }

    /// How many terms the sum prints: its names with a coefficient, its
    /// constant if not zero, and at least one (`0`).
    fn printed_terms(&self) -> usize {
        let names = self.terms.iter().filter(|(_, c)| *c != 0).count();
        (names + usize::from(self.constant != 0)).max(1)
    }

    /// The sum to print: zero terms dropped, the order kept.
    fn printed(self) -> Sum {
        Sum {
            terms: self
                .terms
                .into_iter()
                .filter(|(_, c)| *c != 0)
                .map(|(n, c)| (c, n))
                .collect(),
            constant: self.constant,
        }
    }
}

/// How many terms `e` prints with its iterators replaced: a literal or a
/// name one, an iterator those of its value.
fn substituted_terms(e: &CExpr, values: &Values) -> usize {
    match &e.kind {
        ExprKind::Var(n) => match values.get(n.as_str()) {
            Some(Some(value)) => (value.terms.len() + usize::from(value.constant != 0)).max(1),
            _ => 1,
        },
        ExprKind::Paren(x) | ExprKind::Unary(_, x) => substituted_terms(x, values),
        ExprKind::Binary(_, a, b) => substituted_terms(a, values) + substituted_terms(b, values),
        ExprKind::Conditional(c, a, b) => {
            substituted_terms(c, values)
                + substituted_terms(a, values)
                + substituted_terms(b, values)
        }
        _ => 1,
    }
}

/// Whether the literal `text` is plain decimal: no suffix (`1u`, `1L`),
/// no base prefix.
fn plain_decimal(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// `e`'s value where it is a constant ([`linear`] with no name).
fn constant(e: &CExpr, values: &Values) -> Option<i64> {
    let sum = linear(e, values)?;
    sum.terms
        .iter()
        .all(|(_, c)| *c == 0)
        .then_some(sum.constant)
}

/// `e` as a sum of counters and parameters, each iterator replaced by its
/// value; `None` when `e` is not affine in names with plain values, or
/// on overflow.
fn linear(e: &CExpr, values: &Values) -> Option<Linear> {
    match &e.kind {
        ExprKind::Int(k, text) if plain_decimal(text) => Some(Linear::constant(*k)),
        ExprKind::Var(n) => match values.get(n.as_str()) {
            Some(value) => value.as_ref().map(Linear::of_sum),
            None => Some(Linear {
                terms: vec![(n.clone(), 1)],
                constant: 0,
            }),
        },
        ExprKind::Paren(x) | ExprKind::Unary(UnaryOp::Plus, x) => linear(x, values),
        ExprKind::Unary(UnaryOp::Neg, x) => Linear::default().add_scaled(-1, &linear(x, values)?),
        ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) => {
            let k = if *op == BinaryOp::Add { 1 } else { -1 };
            linear(a, values)?.add_scaled(k, &linear(b, values)?)
        }
        // C's quotient and remainder of two constants: truncated, as
        // Rust's (an `int` operand pair past `int`'s range is left alone).
        ExprKind::Binary(op @ (BinaryOp::Div | BinaryOp::Rem), a, b) => {
            let (n, d) = (constant(a, values)?, constant(b, values)?);
            let int = |k: i64| i32::try_from(k).is_ok();
            if !int(n) || !int(d) {
                return None;
            }
            let k = match op {
                BinaryOp::Div => n.checked_div(d)?,
                _ => n.checked_rem(d)?,
            };
            int(k).then(|| Linear::constant(k))
        }
        // A choice on a comparison of constants: the branch it takes.
        ExprKind::Conditional(c, a, b) => match &c.kind {
            ExprKind::Binary(op, x, y) => {
                let (x, y) = (constant(x, values)?, constant(y, values)?);
                let holds = match op {
                    BinaryOp::Eq => x == y,
                    BinaryOp::Ne => x != y,
                    BinaryOp::Lt => x < y,
                    BinaryOp::Le => x <= y,
                    BinaryOp::Gt => x > y,
                    BinaryOp::Ge => x >= y,
                    _ => return None,
                };
                linear(if holds { a } else { b }, values)
            }
            _ => None,
        },
        ExprKind::Binary(BinaryOp::Mul, a, b) => {
            let (a, b) = (linear(a, values)?, linear(b, values)?);
            let (k, x) = match (a.terms.is_empty(), b.terms.is_empty()) {
                (true, _) => (a.constant, b),
                (_, true) => (b.constant, a),
                _ => return None,
            };
            Linear::default().add_scaled(k, &x)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::c::parse::parse_expr;
    use crate::lang::c::read_source;
    use crate::syntax::print::expr_text;

    /// A scop with one local array named as polyc names its buffers.
    fn scop() -> Scop {
        let kernel = "void f(int n, double A[9][9]) {\n\
            int i, j;\n\
            #pragma scop\n\
            for (i = 0; i < n; i++)\n\
              for (j = 0; j < n; j++)\n\
                A[i][j] = A[i][j] + 1;\n\
            #pragma endscop\n\
            }\n";
        let file = read_source("k.c", kernel.to_string()).expect("the kernel parses");
        let mut scop = file.scops.into_iter().next().expect("one scop");
        let mut buffer = scop.arrays[0].clone();
        buffer.name = "polyc_pack_A".to_string();
        buffer.local = true;
        scop.arrays.push(buffer);
        scop
    }

    fn sum(terms: &[(i64, &str)], constant: i64) -> Option<Sum> {
        Some(Sum {
            terms: terms.iter().map(|(c, n)| (*c, n.to_string())).collect(),
            constant,
        })
    }

    /// The body with each folded subscript printed as its sum.
    fn folded(text: &str, values: &Values) -> String {
        let body = parse_expr(text, 0).expect("an expression");
        let (body, sums) = fold(&body, &scop(), values);
        let mut out = expr_text(&body);
        for (k, s) in sums.iter().enumerate() {
            out = out.replace(&placeholder(k), &super::super::aff_text(s));
        }
        out
    }

    /// A buffer's subscripts always fold, in the order the names first
    /// appear; the kernel's own where terms cancel, else as written.
    #[test]
    fn buffer_subscripts_fold_and_array_subscripts_where_terms_cancel() {
        let values: Values = [
            ("i", sum(&[(1, "c4")], 0)),
            ("j", sum(&[(1, "c5")], 2)),
            ("k", sum(&[(1, "c6")], -1)),
            ("polyc_at2", sum(&[], 0)),
            ("polyc_at3", sum(&[(1, "c4")], 0)),
        ]
        .into_iter()
        .collect();
        assert_eq!(
            folded(
                "polyc_pack_A[i - polyc_at3][1 + j - 32 * polyc_at2 + 1] = A[i - i][1 + j]",
                &values
            ),
            "polyc_pack_A[0][c5 + 4] = A[0][c5 + 3]"
        );
        assert_eq!(
            folded("polyc_pack_A[-(n - i) * 2][(j)]", &values),
            "polyc_pack_A[-2 * n + 2 * c4][c5 + 2]"
        );
        // As many terms folded: the file's form, iterators replaced later.
        assert_eq!(
            folded("A[1 + i][n - 2 - i]", &values),
            "A[1 + i][n - 2 - i]"
        );
        assert_eq!(
            folded("B[k + 1] + B[n - 2 - k]", &values),
            "B[c6] + B[n - c6 - 1]"
        );
        // A literal with a suffix makes the subscript unsigned or long.
        assert_eq!(folded("B[k + 1u]", &values), "B[k + 1u]");
    }

    /// A product of two names, a division, an iterator with a floor, and
    /// a coefficient past 64 bits: each subscript keeps its form.
    #[test]
    fn what_is_not_plainly_affine_is_left_alone() {
        let values: Values = [
            ("i", sum(&[(1, "c4")], 0)),
            ("j", None),
            ("k", sum(&[(i64::MAX, "c6")], 0)),
        ]
        .into_iter()
        .collect();
        for text in ["polyc_pack_A[i * n][i / 2]", "polyc_pack_A[j - 1][k + k]"] {
            assert_eq!(folded(text, &values), text);
        }
    }

    /// A quotient and a remainder of constants fold as C truncates them
    /// (toward zero, the remainder of the dividend's sign); by zero, or of
    /// a counter, they do not.
    #[test]
    fn quotients_of_constants_fold_truncated() {
        let values: Values = [("i", sum(&[], -1)), ("j", sum(&[(1, "c5")], 0))]
            .into_iter()
            .collect();
        assert_eq!(
            folded("A[(i - 3) / 3 + 64][(i - 2) % 2]", &values),
            "A[63][-1]"
        );
        assert_eq!(folded("A[(0 - i) / 2][7 / -2]", &values), "A[0][-3]");
        assert_eq!(
            folded("A[i / 0 + 1][(j - 3) / 3 + 64]", &values),
            "A[i / 0 + 1][(j - 3) / 3 + 64]"
        );
    }

    /// A choice on a comparison of constants is the branch it takes; one
    /// on a counter is left alone.
    #[test]
    fn choices_on_constants_fold_to_their_branch() {
        let values: Values = [("i", sum(&[], 0)), ("j", sum(&[(1, "c5")], 0))]
            .into_iter()
            .collect();
        assert_eq!(
            folded(
                "A[(i == 0 ? n - 1 : i - 1) + 64][(i + 1 < 0 ? 3 : i + 2)]",
                &values
            ),
            "A[n + 63][2]"
        );
        let kept = "A[(j == 0 ? n - 1 : j - 1) + 64]";
        assert_eq!(folded(kept, &values), kept);
    }
}
