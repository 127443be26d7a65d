//! Rational Fourier–Motzkin projection and the bounds of one dimension, as
//! code generation needs them.
//!
//! Fourier–Motzkin is exact over the rationals only, and the names say so:
//! [`BasicSet::project_out_rational`] may contain integer points with no
//! integer preimage. It is exact over the integers when every eliminated
//! column has a unit coefficient on one side, which
//! [`BasicSet::project_out_rational`] reports.

use super::{checked_add, checked_mul, BasicSet, Constraint, ConstraintKind, Overflow, PolyError};

/// A bound `floor(expr / div)` (upper) or `ceil(expr / div)` (lower) of one
/// dimension: `expr` over parameters and the dimensions before it (columns of
/// the set, later ones zero), `div > 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    pub coeffs: Vec<i64>,
    pub constant: i64,
    pub div: i64,
}

/// The lower bounds (the dimension is at least their maximum) and upper
/// bounds (at most their minimum) of one dimension.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DimBounds {
    pub lower: Vec<Bound>,
    pub upper: Vec<Bound>,
}

/// Eliminate column `col` from `rows` (n columns) by Fourier–Motzkin.
/// Returns the rows and whether the step was exact over the integers.
pub(crate) fn eliminate_column(
    rows: Vec<Constraint>,
    col: usize,
) -> Result<(Vec<Constraint>, bool), Overflow> {
    // An equality with a non-zero coefficient substitutes exactly (rationally).
    if let Some(e) = rows
        .iter()
        .position(|c| c.kind == ConstraintKind::Eq && c.coeffs[col] != 0)
    {
        let eq = rows[e].clone();
        let a = eq.coeffs[col];
        let mut out = Vec::new();
        for (k, c) in rows.into_iter().enumerate() {
            if k == e {
                continue;
            }
            let b = c.coeffs[col];
            if b == 0 {
                out.push(c);
                continue;
            }
            // |a| c - sign(a) b eq keeps the direction of an inequality.
            let (m1, m2) = (a.abs(), -a.signum() * b);
            let mut coeffs = Vec::with_capacity(c.coeffs.len());
            for (x, y) in c.coeffs.iter().zip(&eq.coeffs) {
                coeffs.push(checked_add(checked_mul(m1, *x)?, checked_mul(m2, *y)?)?);
            }
            let constant =
                checked_add(checked_mul(m1, c.constant)?, checked_mul(m2, eq.constant)?)?;
            out.push(Constraint {
                kind: c.kind,
                coeffs,
                constant,
            });
        }
        return Ok((out, a.abs() == 1));
    }
    let (with, mut out): (Vec<Constraint>, Vec<Constraint>) =
        rows.into_iter().partition(|c| c.coeffs[col] != 0);
    let lowers: Vec<&Constraint> = with.iter().filter(|c| c.coeffs[col] > 0).collect();
    let uppers: Vec<&Constraint> = with.iter().filter(|c| c.coeffs[col] < 0).collect();
    let exact =
        lowers.iter().all(|c| c.coeffs[col] == 1) || uppers.iter().all(|c| c.coeffs[col] == -1);
    for l in &lowers {
        for u in &uppers {
            out.push(combine_bounds(l, u, col, 0)?);
        }
    }
    Ok((out, exact))
}

/// The Fourier–Motzkin combination of a lower bound `a x + L >= 0` and an
/// upper bound `-b x + U >= 0` of column `col` (`a, b > 0`): the row
/// `b L + a U - slack >= 0`, in which `x` no longer appears. `slack = 0`
/// gives the real shadow, `(a - 1)(b - 1)` the Omega test's dark shadow.
pub(crate) fn combine_bounds(
    l: &Constraint,
    u: &Constraint,
    col: usize,
    slack: i64,
) -> Result<Constraint, Overflow> {
    let (a, b) = (l.coeffs[col], -u.coeffs[col]);
    let mut coeffs = Vec::with_capacity(l.coeffs.len());
    for (x, y) in l.coeffs.iter().zip(&u.coeffs) {
        coeffs.push(checked_add(checked_mul(b, *x)?, checked_mul(a, *y)?)?);
    }
    let constant = checked_add(checked_mul(b, l.constant)?, checked_mul(a, u.constant)?)?;
    let mut row = Constraint::ineq(coeffs, checked_add(constant, -slack)?);
    row.coeffs[col] = 0;
    Ok(row)
}

/// `row` divided by the gcd of its coefficients and constant: the same
/// rational (and integer) set, with the smallest numbers. Fourier–Motzkin
/// multiplies rows together, and without this the numbers of a few
/// eliminations overflow.
pub(crate) fn divided_by_content(row: Constraint) -> Constraint {
    // 2^63 does not fit: 1 then (no division) is always sound.
    let g = super::gcd_of(row.coeffs.iter().copied().chain([row.constant])).unwrap_or(1);
    if g <= 1 {
        return row;
    }
    // g divides every entry, so each quotient is no larger than it was.
    Constraint {
        kind: row.kind,
        coeffs: row.coeffs.iter().map(|v| v / g).collect(),
        constant: row.constant / g,
    }
}

/// `rows` without repeats, first occurrence kept.
fn without_duplicates(rows: Vec<Constraint>) -> Vec<Constraint> {
    let mut seen = std::collections::HashSet::new();
    rows.into_iter()
        .filter(|r| seen.insert(r.clone()))
        .collect()
}

impl BasicSet {
    /// Project out dimensions `first..first + count` and every local by
    /// Fourier–Motzkin: exact over the **rationals**; the boolean says
    /// whether every step was also exact over the integers. Cost: each step
    /// multiplies lower by upper bounds (quadratic growth per column).
    pub fn project_out_rational(
        &self,
        first: usize,
        count: usize,
    ) -> Result<(BasicSet, bool), PolyError> {
        let np = self.space.n_param();
        let nd = self.space.n_out();
        let mut rows = self.constraints.clone();
        let mut exact = true;
        let mut cols: Vec<usize> = (np + nd..self.n_cols()).rev().collect();
        cols.extend((np + first..np + first + count).rev());
        for col in cols {
            let (r, e) = eliminate_column(rows, col)?;
            rows = without_duplicates(r.into_iter().map(divided_by_content).collect());
            exact &= e;
        }
        // Rows now have zeros in the eliminated columns; drop those columns.
        let keep: Vec<usize> = (0..np + nd)
            .filter(|&k| k < np + first || k >= np + first + count)
            .collect();
        let space = self.space.without_dims(first, count);
        let rows: Vec<Constraint> = rows
            .into_iter()
            .map(|c| Constraint {
                kind: c.kind,
                coeffs: keep.iter().map(|&k| c.coeffs[k]).collect(),
                constant: c.constant,
            })
            .filter(|c| {
                c.coeffs.iter().any(|&v| v != 0)
                    || (c.kind == ConstraintKind::Ineq && c.constant < 0)
                    || (c.kind == ConstraintKind::Eq && c.constant != 0)
            })
            .collect();
        Ok((BasicSet::from_parts(space, 0, rows), exact))
    }

    /// The bounds of dimension `d` in terms of the parameters and dimensions
    /// before it, from the rational projection of the later dimensions and
    /// the locals (so they may admit values with no integer completion; a
    /// code generator guards or re-checks those). Every integer point of the
    /// set satisfies them.
    pub fn dim_bounds(&self, d: usize) -> Result<DimBounds, PolyError> {
        let nd = self.space.n_out();
        if d >= nd {
            return Err(PolyError::SpaceMismatch { op: "dim_bounds" });
        }
        let (proj, _) = self.project_out_rational(d + 1, nd - d - 1)?;
        let col = self.space.n_param() + d;
        let mut out = DimBounds::default();
        for c in proj.constraints() {
            let a = c.coeffs[col];
            if a == 0 {
                continue;
            }
            let mut rest = c.coeffs.clone();
            rest[col] = 0;
            // a x + rest + k >= 0.
            let as_lower = |rest: &[i64], k: i64, a: i64| Bound {
                coeffs: rest.iter().map(|v| -v).collect(),
                constant: -k,
                div: a,
            };
            let as_upper = |rest: &[i64], k: i64, a: i64| Bound {
                coeffs: rest.to_vec(),
                constant: k,
                div: a,
            };
            match (c.kind, a > 0) {
                (ConstraintKind::Ineq, true) => out.lower.push(as_lower(&rest, c.constant, a)),
                (ConstraintKind::Ineq, false) => out.upper.push(as_upper(&rest, c.constant, -a)),
                (ConstraintKind::Eq, _) => {
                    // x = -(rest + k) / a: the same expression is both bounds.
                    let (rest, k, a) = if a > 0 {
                        (rest, c.constant, a)
                    } else {
                        (rest.iter().map(|v| -v).collect(), -c.constant, -a)
                    };
                    let b = as_lower(&rest, k, a);
                    out.lower.push(b.clone());
                    out.upper.push(b);
                }
            }
        }
        Ok(out)
    }
}
