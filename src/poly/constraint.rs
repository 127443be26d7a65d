//! Affine constraints with checked integer coefficients.

use std::fmt;

/// An integer overflow in coefficient arithmetic: the operation was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

impl fmt::Display for Overflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("integer overflow in polyhedral arithmetic")
    }
}

impl std::error::Error for Overflow {}

/// `a + b`, or [`Overflow`].
pub fn checked_add(a: i64, b: i64) -> Result<i64, Overflow> {
    a.checked_add(b).ok_or(Overflow)
}

/// `a * b`, or [`Overflow`].
pub fn checked_mul(a: i64, b: i64) -> Result<i64, Overflow> {
    a.checked_mul(b).ok_or(Overflow)
}

/// `gcd(|a|, |b|)` (0 when both are 0), or [`Overflow`] when it is 2^63
/// (both are `i64::MIN` or 0): no `i64` holds it.
pub fn gcd(a: i64, b: i64) -> Result<i64, Overflow> {
    gcd_of([a, b])
}

/// The gcd of the magnitudes of `values` (0 when there are none or all
/// are 0), or [`Overflow`] when it is 2^63. A caller that only divides by
/// it to normalise may read [`Overflow`] as 1.
pub fn gcd_of(values: impl IntoIterator<Item = i64>) -> Result<i64, Overflow> {
    let mut g = 0u64;
    for v in values {
        let (mut a, mut b) = (g, v.unsigned_abs());
        while b != 0 {
            (a, b) = (b, a % b);
        }
        g = a;
        // Nothing divides 1 further: the rest need not be read (rows with
        // a unit coefficient are most rows).
        if g == 1 {
            return Ok(1);
        }
    }
    i64::try_from(g).map_err(|_| Overflow)
}

/// The least common multiple of `|a|` and `|b|` (0 when one is 0), or
/// [`Overflow`].
pub fn lcm(a: i64, b: i64) -> Result<i64, Overflow> {
    let g = gcd(a, b)?;
    if g == 0 {
        return Ok(0);
    }
    checked_mul(
        (a / g).checked_abs().ok_or(Overflow)?,
        b.checked_abs().ok_or(Overflow)?,
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConstraintKind {
    /// `coeffs · x + constant = 0`
    Eq,
    /// `coeffs · x + constant >= 0`
    Ineq,
}

/// One row `coeffs · x + constant (= | >=) 0`; columns as documented in [`crate::poly`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constraint {
    pub kind: ConstraintKind,
    pub coeffs: Vec<i64>,
    pub constant: i64,
}

impl Constraint {
    pub fn eq(coeffs: Vec<i64>, constant: i64) -> Constraint {
        Constraint {
            kind: ConstraintKind::Eq,
            coeffs,
            constant,
        }
    }

    pub fn ineq(coeffs: Vec<i64>, constant: i64) -> Constraint {
        Constraint {
            kind: ConstraintKind::Ineq,
            coeffs,
            constant,
        }
    }

    /// The row's affine value at `point` (all its columns), in `i128`:
    /// each product fits, and so does the sum of a few hundred of them;
    /// `None` for an absurd row whose sum does not.
    fn value_at(&self, point: &[i64]) -> Option<i128> {
        let mut value = i128::from(self.constant);
        for (&a, &x) in self.coeffs.iter().zip(point) {
            value = value.checked_add(i128::from(a) * i128::from(x))?;
        }
        Some(value)
    }

    /// Whether the row holds at `point` (`= 0` or `>= 0`). A cheap check:
    /// `false` also when the value overflows.
    pub fn holds_at(&self, point: &[i64]) -> bool {
        self.value_at(point).is_some_and(|v| match self.kind {
            ConstraintKind::Eq => v == 0,
            ConstraintKind::Ineq => v >= 0,
        })
    }

    /// Is the row's affine value strictly positive at `point` (all its
    /// columns)? A cheap check: `false` also when the value overflows.
    pub fn is_positive_at(&self, point: &[i64]) -> bool {
        self.value_at(point).is_some_and(|v| v > 0)
    }

    pub fn is_eq(&self) -> bool {
        self.kind == ConstraintKind::Eq
    }

    /// The row times -1, of the same kind: `-e (= | >=) 0`. Exact.
    pub fn opposite(&self) -> Result<Constraint, Overflow> {
        Ok(Constraint {
            kind: self.kind,
            coeffs: self
                .coeffs
                .iter()
                .map(|&v| v.checked_neg().ok_or(Overflow))
                .collect::<Result<_, _>>()?,
            constant: self.constant.checked_neg().ok_or(Overflow)?,
        })
    }

    /// The integer complement of the inequality `e >= 0` (an equation's
    /// row read as one): `-e - 1 >= 0`. Exact.
    pub fn negation(&self) -> Result<Constraint, Overflow> {
        let mut row = self.opposite()?;
        row.kind = ConstraintKind::Ineq;
        row.constant = checked_add(row.constant, -1)?;
        Ok(row)
    }

    /// Rows whose union is the integer complement of this row, pairwise
    /// disjoint: `-e - 1 >= 0` for `e >= 0`; `e - 1 >= 0`, then `-e - 1 >=
    /// 0`, for `e = 0`. Exact.
    pub fn complement(&self) -> Result<Vec<Constraint>, Overflow> {
        Ok(match self.kind {
            ConstraintKind::Ineq => vec![self.negation()?],
            ConstraintKind::Eq => vec![self.opposite()?.negation()?, self.negation()?],
        })
    }

    /// The same row over `n` columns, column `k` moved to `col(k)` (every
    /// `col(k) < n`, distinct); the other columns are zero. Cheap.
    pub fn remapped(&self, n: usize, col: impl Fn(usize) -> usize) -> Constraint {
        let mut coeffs = vec![0; n];
        for (k, &v) in self.coeffs.iter().enumerate() {
            coeffs[col(k)] = v;
        }
        Constraint {
            kind: self.kind,
            coeffs,
            constant: self.constant,
        }
    }

    /// Extend the row with zero columns up to `n` columns (before the constant).
    pub(crate) fn pad_to(&mut self, n: usize) {
        if self.coeffs.len() < n {
            self.coeffs.resize(n, 0);
        }
    }

    /// A copy over at least `n` columns, zeros after its own ([`pad_to`]
    /// on a clone, in one allocation: the schedulers copy systems of tens
    /// of thousands of rows).
    ///
    /// [`pad_to`]: Constraint::pad_to
    pub(crate) fn padded(&self, n: usize) -> Constraint {
        let mut coeffs = Vec::with_capacity(n.max(self.coeffs.len()));
        coeffs.extend_from_slice(&self.coeffs);
        coeffs.resize(n.max(self.coeffs.len()), 0);
        Constraint {
            kind: self.kind,
            coeffs,
            constant: self.constant,
        }
    }
}

/// Rows with every column index `k` sent to `map[k]` in a row of `n` columns.
pub(crate) fn embed(constraints: &[Constraint], map: &[usize], n: usize) -> Vec<Constraint> {
    constraints
        .iter()
        .map(|c| c.remapped(n, |k| map[k]))
        .collect()
}

/// The rows with their columns reordered: column `k` of each new row is
/// column `order[k]` of the old one. Used to turn dims into locals. Cheap.
pub(crate) fn permute(constraints: &[Constraint], order: &[usize]) -> Vec<Constraint> {
    constraints
        .iter()
        .map(|c| Constraint {
            kind: c.kind,
            coeffs: order.iter().map(|&k| c.coeffs[k]).collect(),
            constant: c.constant,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holds(c: &Constraint, x: &[i64]) -> bool {
        let v: i64 = c.coeffs.iter().zip(x).map(|(a, b)| a * b).sum::<i64>() + c.constant;
        match c.kind {
            ConstraintKind::Eq => v == 0,
            ConstraintKind::Ineq => v >= 0,
        }
    }

    #[test]
    fn complement_is_exact_and_disjoint_on_a_grid() {
        for kind in [ConstraintKind::Eq, ConstraintKind::Ineq] {
            for (a, b, k) in [(1, 0, 0), (2, -3, 1), (-1, 1, -4), (3, 3, 2)] {
                let row = Constraint {
                    kind,
                    coeffs: vec![a, b],
                    constant: k,
                };
                let pieces = row.complement().expect("small numbers");
                for x in -6..=6 {
                    for y in -6..=6 {
                        let inside = pieces.iter().filter(|p| holds(p, &[x, y])).count();
                        assert_eq!(
                            inside,
                            usize::from(!holds(&row, &[x, y])),
                            "{row:?} at {x},{y}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn negation_and_gcd_refuse_what_an_i64_cannot_hold() {
        assert_eq!(
            Constraint::ineq(vec![i64::MIN], 0).negation(),
            Err(Overflow)
        );
        assert_eq!(
            Constraint::ineq(vec![1], i64::MIN).negation(),
            Err(Overflow)
        );
        assert_eq!(gcd_of([i64::MIN, 0]), Err(Overflow));
        assert_eq!(gcd_of([i64::MIN, 6]), Ok(2));
        assert_eq!(gcd_of([]), Ok(0));
        assert_eq!(gcd(-12, 18), Ok(6));
        assert_eq!(lcm(-4, 6), Ok(12));
        assert_eq!(lcm(0, 6), Ok(0));
        assert_eq!(lcm(i64::MAX, 2), Err(Overflow));
    }
}
