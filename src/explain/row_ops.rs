//! Row operations on the α dates of a statement, as integer matrices:
//! each [`RowOp`] is one directive (`interchange`, `reverse`, `skew`,
//! `grain`, `shift`) acting on the rows of the dates. Elimination by
//! Euclid's steps reduces a unimodular matrix to the identity (and its
//! inverse steps build one); any nonsingular integral matrix is made
//! diagonal by steps on rows and columns, so it is a product of the
//! directives with `grain`s for its diagonal. All exact, on `i64` with
//! overflow detected.
//!
//! Must not know: schedules, statements, the phases.

use super::shape::gcd;
use crate::apply::Directive;

/// One α row operation (depths 1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum RowOp {
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
    /// `α_depth := α_depth − amount·x_iterator` (iterators from 1).
    Reshape {
        depth: usize,
        iterator: usize,
        amount: i64,
    },
    /// `α_depth := α_depth − params·n − constant`.
    Shift {
        depth: usize,
        params: Vec<i64>,
        constant: i64,
    },
}

impl RowOp {
    pub(super) fn directive(&self, beta: &[i64]) -> Directive {
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
            RowOp::Reshape {
                depth,
                iterator,
                amount,
            } => Directive::Reshape {
                beta,
                depth,
                iterator,
                amount,
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

/// The row operations from the unimodular `h` to `w`, a unimodular
/// matrix whose rows may share a factor (a stride: `2i`): `h`
/// eliminated, `w`'s rows built without their factors, then `grain`ed by
/// them. `None` where `h` or `w` without its factors is not unimodular.
pub(super) fn unit_then_strides(h: &[Vec<i64>], w: &[Vec<i64>]) -> Option<Vec<RowOp>> {
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
pub(super) fn quotient(w: &[Vec<i64>], h: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    w.iter().map(|row| left_solution(h, row)).collect()
}

/// The row operations whose product is the nonsingular `t`: with
/// `P·t·Q = D` ([`diagonalise`]), `t = P⁻¹·D·Q⁻¹`, so `Q⁻¹` built from the
/// identity, then each row `grain`ed by its diagonal entry, then the
/// inverses of `P`'s operations in reverse order. `None` on overflow.
pub(super) fn product(t: &[Vec<i64>]) -> Option<Vec<RowOp>> {
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
pub(super) fn left_solution(m: &[Vec<i64>], row: &[i64]) -> Option<Vec<i64>> {
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
pub(super) fn identity(n: usize) -> Vec<Vec<i64>> {
    (0..n)
        .map(|k| (0..n).map(|j| i64::from(j == k)).collect())
        .collect()
}

/// `ops` without the neighbours that undo each other (a `reverse` or an
/// `interchange` twice, where the elimination ends as the build starts),
/// and with neighbouring skews of one date by another merged; `None` on
/// overflow. Exact: each rewrite keeps the product of the operations.
pub(super) fn simplified(ops: Vec<RowOp>) -> Option<Vec<RowOp>> {
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

/// The inverse of the unimodular square matrix `t`: its elimination's
/// row operations applied to the identity. `None` when `t` is not
/// unimodular or a value overflows.
pub(super) fn inverse(t: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    let mut m = identity(t.len());
    for op in elimination(t)? {
        row_op(&mut m, &op)?;
    }
    Some(m)
}

/// `op` applied to the rows of `m`, as its directive applies it to α
/// rows; `None` on an overflow or a shift (no parameters here).
pub(super) fn row_op(m: &mut [Vec<i64>], op: &RowOp) -> Option<()> {
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
        RowOp::Reshape {
            depth,
            iterator,
            amount,
        } => {
            let v = m.get_mut(depth - 1)?.get_mut(iterator - 1)?;
            *v = v.checked_sub(amount)?;
        }
        RowOp::Shift { .. } => return None,
    }
    Some(())
}

/// The row operations that build the square matrix `t` from the
/// identity: the inverses of its elimination's, in reverse order.
pub(super) fn build(t: &[Vec<i64>]) -> Option<Vec<RowOp>> {
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
            RowOp::Reshape {
                depth,
                iterator,
                amount,
            } => Some(RowOp::Reshape {
                depth,
                iterator,
                amount: amount.checked_neg()?,
            }),
            RowOp::Grain { .. } | RowOp::Shift { .. } => None,
        })
        .collect()
}

/// The row operations that reduce the square matrix `t` to the identity,
/// in the order applied; `None` when `t` is not unimodular (or a value
/// overflows). Exact.
pub(super) fn elimination(t: &[Vec<i64>]) -> Option<Vec<RowOp>> {
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

/// `ops` applied to the rows of `m`, as the directives apply them.
#[cfg(test)]
pub(super) fn applied(ops: &[RowOp], mut m: Vec<Vec<i64>>) -> Vec<Vec<i64>> {
    for op in ops {
        row_op(&mut m, op).expect("no overflow");
    }
    m
}

#[cfg(test)]
mod tests {
    use super::applied as apply;
    use super::*;
    use crate::poly::test_rng::Lcg;

    #[test]
    fn random_nonsingular_matrices_are_products_of_row_operations() {
        let mut rng = Lcg(0xd1a6);
        let mut next = |m: u64| rng.next(m as i64) as u64;
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
        let mut rng = Lcg(0x5eed);
        let mut next = |m: u64| rng.next(m as i64) as u64;
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
}
