//! The loops phase of the recovery: each statement's α dates.
//!
//! A statement's target dates `α = T·x + P·n + c` (iterators `x`,
//! parameters `n`) are reached from the original `α = x` by row
//! operations on `T`, each a directive on α rows: `interchange` swaps
//! two, `reverse` negates one, `skew(d, o, k)` subtracts `k` times row
//! `o` from row `d`. Integer Gaussian elimination (Euclid's steps on
//! each column) reduces a unimodular `T` to the identity; the inverses of
//! its steps, in reverse order, build `T` from the identity. A statement
//! with more dates than iterators first gets loops of one iteration
//! (`embed`); its first independent dates are built so, and each other is
//! a combination of them, made by `skew`s. Then `shift` adds `P·n + c`,
//! row by row.
//!
//! The directives are given once for the largest subtree whose
//! statements all need the same ones, and with a statement's own β
//! otherwise: a directive on a statement's β rewrites its dates only.

use super::shape::{date_forms, gcd, StatementShape};
use super::{ExplainError, Gap, Recovery};
use crate::apply::Directive;
use crate::poly::{BasicMap, PolyError};

/// One α row operation (depths 1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
enum RowOp {
    Interchange(usize, usize),
    Reverse(usize),
    /// `α_depth := α_depth − factor·α_other`.
    Skew {
        depth: usize,
        other: usize,
        factor: i64,
    },
    /// `α_depth := factor·α_depth`.
    Grain {
        depth: usize,
        factor: i64,
    },
    /// `α_depth := α_depth − params·n − constant`.
    Shift {
        depth: usize,
        params: Vec<i64>,
        constant: i64,
    },
}

impl RowOp {
    fn directive(&self, beta: &[i64]) -> Directive {
        let beta = beta.to_vec();
        match self.clone() {
            RowOp::Interchange(d1, d2) => Directive::Interchange { beta, d1, d2 },
            RowOp::Reverse(depth) => Directive::Reverse { beta, depth },
            RowOp::Grain { depth, factor } => Directive::Grain {
                beta,
                depth,
                factor,
            },
            RowOp::Skew {
                depth,
                other,
                factor,
            } => Directive::Skew {
                beta,
                depth,
                other,
                factor,
            },
            RowOp::Shift {
                depth,
                params,
                constant,
            } => Directive::Shift {
                beta,
                depth,
                params,
                constant,
            },
        }
    }
}

/// A statement's α dates as affine forms: per date, the coefficients of
/// the iterators, then of the parameters, then the constant.
type Rows = Vec<Vec<i64>>;

/// Gives each statement as many loops as the target has for it: one
/// `embed` (an innermost loop of one iteration, date 0) per date beyond
/// its iterators (isl's schedulers put constant dates between bands to
/// order statements; a date may also repeat another, negated).
pub(super) fn embed(r: &mut Recovery<'_>, target: &[StatementShape]) -> Result<(), ExplainError> {
    for (k, shape) in target.iter().enumerate() {
        let extra = shape
            .rows
            .len()
            .saturating_sub(r.current.statements[k].depth());
        for _ in 0..extra {
            let beta = r.beta(k)?;
            r.push(Directive::Embed { beta })?;
        }
    }
    Ok(())
}

/// Gives every statement its target α dates (the β-vectors are already
/// the target's): the row operations that reduce its current loops to
/// the iterators (the original's are the iterators, negated where a loop
/// counts down), then those that build the target's, then the shifts
/// that are left.
pub(super) fn recover(
    r: &mut Recovery<'_>,
    target: &[StatementShape],
) -> Result<Option<Gap>, ExplainError> {
    let n_param = r.scop.params.len();
    let mut ops: Vec<Vec<RowOp>> = Vec::new();
    let mut betas: Vec<Vec<i64>> = Vec::new();
    for (k, st) in r.scop.statements.iter().enumerate() {
        let n = st.iterators.len();
        let want = &target[k].rows;
        let Some(have) = alpha_rows(&r.current.statements[k].pieces[0], n_param, n)? else {
            return Ok(Some(not_affine(&st.name)));
        };
        let Some(statement_ops) = transformation(&have, want, n) else {
            return Ok(Some(not_affine(&st.name)));
        };
        ops.push(statement_ops);
        betas.push(r.beta(k)?);
    }
    give(r, &ops, &betas, &[])?;
    // The parameters and constants, now that the iterator parts agree.
    let mut shifts: Vec<Vec<RowOp>> = Vec::new();
    for (k, st) in r.scop.statements.iter().enumerate() {
        let n = st.iterators.len();
        let Some(have) = alpha_rows(&r.current.statements[k].pieces[0], n_param, n)? else {
            return Ok(Some(not_affine(&st.name)));
        };
        shifts.push(shift_ops(&have, &target[k].rows, n).ok_or(PolyError::Overflow)?);
    }
    give(r, &shifts, &betas, &[])?;
    Ok(None)
}

fn not_affine(statement: &str) -> Gap {
    Gap {
        statement: statement.to_string(),
        reason: "a loop date is not an affine form of its iterators that `interchange`, \
                 `reverse`, `skew` and `grain` give"
            .to_string(),
    }
}

/// Whether a date depends on the iterators.
fn moves(row: &[i64], n: usize) -> bool {
    row[..n].iter().any(|&v| v != 0)
}

/// The row operations that turn the iterator parts of `have` into
/// `want`'s. `want`'s first rows that are linearly independent are its
/// basis (there must be as many as iterators). Interchanges put `have`'s
/// dates that depend on the iterators at the basis's positions (its
/// others are constant: loops of one iteration). Each other date of
/// `want` that depends on the iterators is a combination of `have`'s
/// basis dates, given first by skews; then the square part `T` with
/// `T·have = want` on the basis: `have` eliminated and `want` built where
/// both are unimodular (up to strides of `want`'s rows), else `T`
/// decomposed ([`product`]). `None` when `T` or a combination is not
/// integral.
fn transformation(have: &Rows, want: &Rows, n: usize) -> Option<Vec<RowOp>> {
    let basis = independent_rows(want, n);
    if basis.len() != n || have.iter().filter(|r| moves(r, n)).count() != n {
        return None;
    }
    let mut have = have.clone();
    let mut ops = Vec::new();
    for p in 0..want.len() {
        let wanted = basis.contains(&p);
        if moves(&have[p], n) != wanted {
            let q = (p + 1..have.len()).find(|&q| moves(&have[q], n) == wanted)?;
            have.swap(p, q);
            ops.push(RowOp::Interchange(p + 1, q + 1));
        }
    }
    let square =
        |rows: &Rows| -> Vec<Vec<i64>> { basis.iter().map(|&p| rows[p][..n].to_vec()).collect() };
    // Depth `k` of the square part is depth `basis[k - 1] + 1` of the loops.
    let depth = |k: usize| basis[k - 1] + 1;
    let placed = |op: RowOp| match op {
        RowOp::Interchange(a, b) => RowOp::Interchange(depth(a), depth(b)),
        RowOp::Reverse(a) => RowOp::Reverse(depth(a)),
        RowOp::Grain { depth: d, factor } => RowOp::Grain {
            depth: depth(d),
            factor,
        },
        RowOp::Skew {
            depth: d,
            other,
            factor,
        } => RowOp::Skew {
            depth: depth(d),
            other: depth(other),
            factor,
        },
        shift @ RowOp::Shift { .. } => shift,
    };
    let (h, w) = (square(&have), square(want));
    // Each other date of `want` that depends on the iterators combines
    // the basis dates as they are now (integrally where they are
    // unimodular): made first, by skews, it is left as it is by the
    // operations on the basis dates below.
    for (j, row) in want.iter().enumerate() {
        if basis.contains(&j) || !moves(row, n) {
            continue;
        }
        let c = left_solution(&h, &row[..n])?;
        for (&b, &c) in basis.iter().zip(&c) {
            if c != 0 {
                ops.push(RowOp::Skew {
                    depth: j + 1,
                    other: b + 1,
                    factor: c.checked_neg()?,
                });
            }
        }
    }
    let square_ops = unit_then_strides(&h, &w).or_else(|| product(&quotient(&w, &h)?))?;
    ops.extend(square_ops.into_iter().map(placed));
    simplified(ops)
}

/// The row operations from the unimodular `h` to `w`, a unimodular
/// matrix whose rows may share a factor (a stride: `2i`): `h`
/// eliminated, `w`'s rows built without their factors, then `grain`ed by
/// them. `None` where `h` or `w` without its factors is not unimodular.
fn unit_then_strides(h: &[Vec<i64>], w: &[Vec<i64>]) -> Option<Vec<RowOp>> {
    let mut unit = w.to_vec();
    let mut grains = Vec::new();
    for (k, row) in unit.iter_mut().enumerate() {
        let g = row.iter().fold(0, |g, &v| gcd(g, v.into()));
        if g > 1 {
            let factor = i64::try_from(g).ok()?;
            row.iter_mut().for_each(|v| *v /= factor);
            grains.push(RowOp::Grain {
                depth: k + 1,
                factor,
            });
        }
    }
    let mut ops = elimination(h)?;
    ops.extend(build(&unit)?);
    ops.extend(grains);
    Some(ops)
}

/// `t` with `t·h = w`, when it is integral (`h` nonsingular).
fn quotient(w: &[Vec<i64>], h: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    w.iter().map(|row| left_solution(h, row)).collect()
}

/// The row operations whose product is the nonsingular `t`: with
/// `P·t·Q = D` ([`diagonalise`]), `t = P⁻¹·D·Q⁻¹`, so `Q⁻¹` built from the
/// identity, then each row `grain`ed by its diagonal entry, then the
/// inverses of `P`'s operations in reverse order. `None` on overflow.
fn product(t: &[Vec<i64>]) -> Option<Vec<RowOp>> {
    let d = diagonalise(t)?;
    let mut ops = build(&inverse(&d.columns)?)?;
    for (k, &factor) in d.diagonal.iter().enumerate() {
        if factor != 1 {
            ops.push(RowOp::Grain {
                depth: k + 1,
                factor,
            });
        }
    }
    ops.extend(inverted(d.row_ops)?);
    Some(ops)
}

/// The integral `c` with `c·m = row`, for a nonsingular `m`: with
/// `P·m·Q = D`, `(c·P⁻¹)·D = row·Q`, each entry divided by its diagonal
/// one. `None` where one does not divide (no integral solution), `m` is
/// singular, or a value overflows. Exact.
fn left_solution(m: &[Vec<i64>], row: &[i64]) -> Option<Vec<i64>> {
    let d = diagonalise(m)?;
    let n = m.len();
    let times = |v: &[i64], m: &[Vec<i64>]| -> Option<Vec<i64>> {
        (0..n)
            .map(|j| (0..n).try_fold(0i64, |acc, k| acc.checked_add(v[k].checked_mul(m[k][j])?)))
            .collect()
    };
    let y: Vec<i64> = times(row, &d.columns)?
        .iter()
        .zip(&d.diagonal)
        .map(|(&v, &g)| (v % g == 0).then(|| v / g))
        .collect::<Option<_>>()?;
    let mut p = identity(n);
    for op in &d.row_ops {
        row_op(&mut p, op)?;
    }
    times(&y, &p)
}

/// A square matrix made diagonal: `P·m·Q = D`, `P` the product of
/// `row_ops` (applied in order), `Q` unimodular.
struct Diagonalised {
    row_ops: Vec<RowOp>,
    /// `D`'s diagonal, every entry positive.
    diagonal: Vec<i64>,
    /// `Q`.
    columns: Vec<Vec<i64>>,
}

/// `m` made diagonal by Euclid's steps on rows and columns, the smallest
/// entry left first taken as the pivot; `None` where `m` is singular or a
/// value overflows. Exact.
fn diagonalise(m: &[Vec<i64>]) -> Option<Diagonalised> {
    let n = m.len();
    let mut m = m.to_vec();
    let mut q = identity(n);
    let mut row_ops = Vec::new();
    // `col_k −= factor·col_c`, in `m` and in `Q`.
    let column_skew = |x: &mut Vec<Vec<i64>>, k: usize, c: usize, factor: i64| -> Option<()> {
        for row in x.iter_mut() {
            row[k] = row[k].checked_sub(factor.checked_mul(row[c])?)?;
        }
        Some(())
    };
    for c in 0..n {
        loop {
            let (r, k) = (c..n)
                .flat_map(|r| (c..n).map(move |k| (r, k)))
                .filter(|&(r, k)| m[r][k] != 0)
                .min_by_key(|&(r, k)| m[r][k].unsigned_abs())?;
            if k != c {
                for x in [&mut m, &mut q] {
                    x.iter_mut().for_each(|row| row.swap(c, k));
                }
            }
            if r != c {
                let op = RowOp::Interchange(c + 1, r + 1);
                row_op(&mut m, &op)?;
                row_ops.push(op);
            }
            for r in c + 1..n {
                let factor = m[r][c] / m[c][c];
                if factor != 0 {
                    let op = RowOp::Skew {
                        depth: r + 1,
                        other: c + 1,
                        factor,
                    };
                    row_op(&mut m, &op)?;
                    row_ops.push(op);
                }
            }
            for k in c + 1..n {
                let factor = m[c][k] / m[c][c];
                if factor != 0 {
                    column_skew(&mut m, k, c, factor)?;
                    column_skew(&mut q, k, c, factor)?;
                }
            }
            if (c + 1..n).all(|x| m[x][c] == 0 && m[c][x] == 0) {
                break;
            }
        }
        if m[c][c] < 0 {
            let op = RowOp::Reverse(c + 1);
            row_op(&mut m, &op)?;
            row_ops.push(op);
        }
    }
    Some(Diagonalised {
        row_ops,
        diagonal: (0..n).map(|k| m[k][k]).collect(),
        columns: q,
    })
}

/// The `n × n` identity.
fn identity(n: usize) -> Vec<Vec<i64>> {
    (0..n)
        .map(|k| (0..n).map(|j| i64::from(j == k)).collect())
        .collect()
}

/// `ops` without the neighbours that undo each other (a `reverse` or an
/// `interchange` twice, where the elimination ends as the build starts),
/// and with neighbouring skews of one date by another merged; `None` on
/// overflow. Exact: each rewrite keeps the product of the operations.
fn simplified(ops: Vec<RowOp>) -> Option<Vec<RowOp>> {
    let mut out: Vec<RowOp> = Vec::new();
    for op in ops {
        match (out.last_mut(), &op) {
            (Some(RowOp::Reverse(a)), RowOp::Reverse(b)) if a == b => {
                out.pop();
            }
            (Some(RowOp::Interchange(a, b)), RowOp::Interchange(c, d))
                if (*a, *b) == (*c, *d) || (*a, *b) == (*d, *c) =>
            {
                out.pop();
            }
            (
                Some(RowOp::Skew {
                    depth,
                    other,
                    factor,
                }),
                RowOp::Skew {
                    depth: d,
                    other: o,
                    factor: f,
                },
            ) if (*depth, *other) == (*d, *o) => {
                *factor = factor.checked_add(*f)?;
                if *factor == 0 {
                    out.pop();
                }
            }
            _ => out.push(op),
        }
    }
    Some(out)
}

/// The positions of the first rows of `rows` (iterator parts) that are
/// linearly independent of the rows before them. Exact.
fn independent_rows(rows: &Rows, n: usize) -> Vec<usize> {
    let mut echelon: Vec<Vec<i128>> = Vec::new();
    let mut chosen = Vec::new();
    for (p, row) in rows.iter().enumerate() {
        let mut v: Vec<i128> = row[..n].iter().map(|&x| x.into()).collect();
        for e in &echelon {
            let Some(lead) = e.iter().position(|&x| x != 0) else {
                continue;
            };
            if v[lead] != 0 {
                let (a, b) = (e[lead], v[lead]);
                for (x, &y) in v.iter_mut().zip(e) {
                    *x = *x * a - y * b;
                }
                let g = v.iter().fold(0i128, |g, &x| gcd(g, x));
                if g > 1 {
                    v.iter_mut().for_each(|x| *x /= g);
                }
            }
        }
        if v.iter().any(|&x| x != 0) {
            echelon.push(v);
            echelon.sort_by_key(|e| e.iter().position(|&x| x != 0));
            chosen.push(p);
        }
    }
    chosen
}

/// The inverse of the unimodular square matrix `t`: its elimination's
/// row operations applied to the identity. `None` when `t` is not
/// unimodular or a value overflows.
fn inverse(t: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    let mut m = identity(t.len());
    for op in elimination(t)? {
        row_op(&mut m, &op)?;
    }
    Some(m)
}

/// `op` applied to the rows of `m`, as its directive applies it to α
/// rows; `None` on an overflow or a shift (no parameters here).
fn row_op(m: &mut [Vec<i64>], op: &RowOp) -> Option<()> {
    match *op {
        RowOp::Interchange(a, b) => m.swap(a - 1, b - 1),
        RowOp::Reverse(a) => {
            for v in &mut m[a - 1] {
                *v = v.checked_neg()?;
            }
        }
        RowOp::Skew {
            depth,
            other,
            factor,
        } => {
            let source = m[other - 1].clone();
            for (x, &y) in m[depth - 1].iter_mut().zip(&source) {
                *x = x.checked_sub(factor.checked_mul(y)?)?;
            }
        }
        RowOp::Grain { depth, factor } => {
            for v in &mut m[depth - 1] {
                *v = v.checked_mul(factor)?;
            }
        }
        RowOp::Shift { .. } => return None,
    }
    Some(())
}

/// The row operations that build the square matrix `t` from the
/// identity: the inverses of its elimination's, in reverse order.
fn build(t: &[Vec<i64>]) -> Option<Vec<RowOp>> {
    inverted(elimination(t)?)
}

/// The row operations that undo `ops`: each one's inverse, in reverse
/// order; `None` for a `grain` or `shift` (neither is a unimodular row
/// operation) or on overflow.
fn inverted(ops: Vec<RowOp>) -> Option<Vec<RowOp>> {
    ops.into_iter()
        .rev()
        .map(|op| match op {
            // Self-inverse.
            RowOp::Interchange(..) | RowOp::Reverse(_) => Some(op),
            RowOp::Skew {
                depth,
                other,
                factor,
            } => Some(RowOp::Skew {
                depth,
                other,
                factor: factor.checked_neg()?,
            }),
            RowOp::Grain { .. } | RowOp::Shift { .. } => None,
        })
        .collect()
}

/// The shifts that turn the parameter and constant parts of `have` into
/// `want`'s, row by row (`shift` subtracts).
fn shift_ops(have: &Rows, want: &Rows, n: usize) -> Option<Vec<RowOp>> {
    let mut ops = Vec::new();
    for (k, (h, w)) in have.iter().zip(want).enumerate() {
        let diff: Vec<i64> = h[n..]
            .iter()
            .zip(&w[n..])
            .map(|(a, b)| a.checked_sub(*b))
            .collect::<Option<_>>()?;
        if let Some((&constant, params)) = diff.split_last() {
            if constant != 0 || params.iter().any(|&p| p != 0) {
                ops.push(RowOp::Shift {
                    depth: k + 1,
                    params: params.to_vec(),
                    constant,
                });
            }
        }
    }
    Some(ops)
}

/// The directives of `ops` for the statements under `prefix`: once with
/// `prefix` when they all need the same (and `prefix` is a loop or a
/// statement), else per child.
fn give(
    r: &mut Recovery<'_>,
    ops: &[Vec<RowOp>],
    betas: &[Vec<i64>],
    prefix: &[i64],
) -> Result<(), ExplainError> {
    let under: Vec<usize> = (0..betas.len())
        .filter(|&s| betas[s].starts_with(prefix))
        .collect();
    let Some(&first) = under.first() else {
        return Ok(());
    };
    if !prefix.is_empty() && under.iter().all(|&s| ops[s] == ops[first]) {
        for op in &ops[first] {
            r.push(op.directive(prefix))?;
        }
        return Ok(());
    }
    let mut children: Vec<i64> = under
        .iter()
        .filter_map(|&s| betas[s].get(prefix.len()).copied())
        .collect();
    children.sort_unstable();
    children.dedup();
    for child in children {
        let mut beta = prefix.to_vec();
        beta.push(child);
        give(r, ops, betas, &beta)?;
    }
    Ok(())
}

/// The row operations that reduce the square matrix `t` to the identity,
/// in the order applied; `None` when `t` is not unimodular (or a value
/// overflows). Exact.
fn elimination(t: &[Vec<i64>]) -> Option<Vec<RowOp>> {
    let n = t.len();
    let mut m: Vec<Vec<i64>> = t.to_vec();
    let mut ops = Vec::new();
    // Apply `op` to `m` and record it.
    let mut step = |m: &mut Vec<Vec<i64>>, op: RowOp| -> Option<()> {
        row_op(m, &op)?;
        ops.push(op);
        Some(())
    };
    let skew = |r: usize, c: usize, q: i64| RowOp::Skew {
        depth: r + 1,
        other: c + 1,
        factor: q,
    };
    for c in 0..n {
        loop {
            let pivot = (c..n)
                .filter(|&r| m[r][c] != 0)
                .min_by_key(|&r| m[r][c].unsigned_abs())?;
            if pivot != c {
                step(&mut m, RowOp::Interchange(c + 1, pivot + 1))?;
            }
            for r in c + 1..n {
                let q = m[r][c] / m[c][c];
                if q != 0 {
                    step(&mut m, skew(r, c, q))?;
                }
            }
            if (c + 1..n).all(|r| m[r][c] == 0) {
                break;
            }
        }
        if m[c][c] < 0 {
            step(&mut m, RowOp::Reverse(c + 1))?;
        }
        if m[c][c] != 1 {
            return None;
        }
    }
    for c in (0..n).rev() {
        for r in 0..c {
            let q = m[r][c];
            if q != 0 {
                step(&mut m, skew(r, c, q))?;
            }
        }
    }
    Some(ops)
}

/// The α dates of `piece` as affine forms, when every one is one.
pub(super) fn alpha_rows(
    piece: &BasicMap,
    n_param: usize,
    n: usize,
) -> Result<Option<Rows>, PolyError> {
    Ok(date_forms(piece, n_param, n)?.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ops` applied to the rows of `m`, as the directives apply them.
    fn apply(ops: &[RowOp], mut m: Vec<Vec<i64>>) -> Vec<Vec<i64>> {
        for op in ops {
            row_op(&mut m, op).expect("no overflow");
        }
        m
    }

    #[test]
    fn a_date_with_a_stride_is_built_then_grained() {
        // From (i, j) to (2i, i + j, 2i + 2j): the last date combines the
        // others, the first has a stride of 2.
        let have: Rows = vec![vec![1, 0, 0], vec![0, 1, 0], vec![0, 0, 0]];
        let want: Rows = vec![vec![2, 0, 0], vec![1, 1, 0], vec![2, 2, 0]];
        let ops = transformation(&have, &want, 2).expect("a transformation");
        assert!(ops.contains(&RowOp::Grain {
            depth: 1,
            factor: 2
        }));
        let square =
            |rows: &Rows| -> Vec<Vec<i64>> { rows.iter().map(|r| r[..2].to_vec()).collect() };
        assert_eq!(apply(&ops, square(&have)), square(&want));
        // (i + j) beside (2i, j): made from (i, j) before the grain.
        let odd: Rows = vec![vec![2, 0, 0], vec![0, 1, 0], vec![1, 1, 0]];
        let ops = transformation(&have, &odd, 2).expect("a transformation");
        assert_eq!(apply(&ops, square(&have)), square(&odd));
        // (i, j) from (2i, j): no integral row operation halves a date.
        let strided: Rows = vec![vec![2, 0, 0], vec![0, 1, 0]];
        assert!(transformation(&strided, &have[..2].to_vec(), 2).is_none());
    }

    #[test]
    fn a_date_with_a_stride_under_a_skew_is_grained_before_it() {
        // (i, j) to (i, 2j − i): no row has a common factor, the
        // determinant is 2: `grain` the second date, then skew it.
        let have: Rows = vec![vec![1, 0, 0], vec![0, 1, 0]];
        let want: Rows = vec![vec![1, 0, 0], vec![-1, 2, 0]];
        let ops = transformation(&have, &want, 2).expect("a transformation");
        assert_eq!(apply(&ops, have.clone()), want);
        // A strided start that is already the target needs nothing.
        let strided: Rows = vec![vec![1, 0, 0], vec![0, 4, 0]];
        assert_eq!(transformation(&strided, &strided, 2), Some(vec![]));
    }

    #[test]
    fn random_nonsingular_matrices_are_products_of_row_operations() {
        let mut seed: u64 = 0xd1a6;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        let mut tried = 0;
        while tried < 500 {
            let n = 1 + next(4) as usize;
            let t: Vec<Vec<i64>> = (0..n)
                .map(|_| (0..n).map(|_| next(9) as i64 - 4).collect())
                .collect();
            let Some(d) = diagonalise(&t) else {
                continue;
            };
            tried += 1;
            let ops = product(&t).expect("nonsingular");
            assert_eq!(apply(&ops, identity(n)), t, "{t:?}");
            // Each row of `t` solved against `t` is its unit vector.
            for (k, row) in t.iter().enumerate() {
                let unit: Vec<i64> = (0..n).map(|j| i64::from(j == k)).collect();
                assert_eq!(left_solution(&t, row), Some(unit), "{t:?}");
            }
            assert!(d.diagonal.iter().all(|&v| v > 0));
        }
    }

    #[test]
    fn neighbours_that_undo_each_other_are_dropped_and_skews_merged() {
        let skew = |depth, other, factor| RowOp::Skew {
            depth,
            other,
            factor,
        };
        let ops = vec![
            RowOp::Interchange(1, 2),
            RowOp::Reverse(3),
            RowOp::Reverse(3),
            RowOp::Interchange(2, 1),
            skew(2, 1, 1),
            skew(2, 1, 2),
            skew(3, 1, 1),
            skew(3, 1, -1),
            RowOp::Reverse(2),
        ];
        let short = simplified(ops.clone()).expect("no overflow");
        assert_eq!(short, vec![skew(2, 1, 3), RowOp::Reverse(2)]);
        let m = vec![vec![1, 2, 3], vec![0, 1, 4], vec![5, 6, 0]];
        assert_eq!(apply(&short, m.clone()), apply(&ops, m));
    }

    #[test]
    fn random_unimodular_matrices_are_built_from_the_identity_and_inverted() {
        let mut seed: u64 = 0x5eed;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for _ in 0..500 {
            let n = 1 + next(4) as usize;
            let mut ops = Vec::new();
            for _ in 0..next(8) {
                let (a, b) = (1 + next(n as u64) as usize, 1 + next(n as u64) as usize);
                ops.push(match next(3) {
                    0 => RowOp::Interchange(a, b),
                    1 => RowOp::Reverse(a),
                    _ if a != b => RowOp::Skew {
                        depth: a,
                        other: b,
                        factor: next(7) as i64 - 3,
                    },
                    _ => RowOp::Reverse(a),
                });
            }
            let t = apply(&ops, identity(n));
            let built = build(&t).expect("unimodular");
            assert_eq!(apply(&built, identity(n)), t, "{ops:?}");
            let inv = inverse(&t).expect("unimodular");
            let product: Vec<Vec<i64>> = (0..n)
                .map(|i| {
                    (0..n)
                        .map(|j| (0..n).map(|k| inv[i][k] * t[k][j]).sum())
                        .collect()
                })
                .collect();
            assert_eq!(product, identity(n), "{t:?}");
        }
    }

    #[test]
    fn a_matrix_that_is_not_unimodular_has_no_elimination() {
        assert!(elimination(&[vec![2, 0], vec![0, 1]]).is_none());
        assert!(elimination(&[vec![1, 1], vec![1, 1]]).is_none());
    }

    #[test]
    fn a_date_that_combines_others_is_made_by_skews() {
        // (k) to (k, −k): one loop of one iteration, then −1 times the first.
        let have = vec![vec![1, 0], vec![0, 0]];
        let want = vec![vec![1, 0], vec![-1, 0]];
        let ops = transformation(&have, &want, 1).expect("expressible");
        assert_eq!(
            ops,
            [RowOp::Skew {
                depth: 2,
                other: 1,
                factor: 1
            }]
        );
    }
}
