//! A statement piece's rows in one canonical form, so that two schedules
//! that are the same relation written differently (a recipe and the
//! replay of its `--explain`: `t7 = k` against `t7 = t5, t5 = k`, rows in
//! another order, an equality's sides swapped) are scanned alike and print
//! the same code.
//!
//! The equalities are brought to reduced echelon form by exact,
//! fraction-free Gaussian elimination, pivoting on the columns in the
//! order given (a piece's dates first); each is divided by its content
//! and has a positive pivot, so equalities with the same span come out as
//! the same rows. The inequalities are rewritten without the pivot
//! columns (the same set of integer points) and divided by their content.
//! Then the rows are sorted and repeats dropped. Nothing here changes
//! which points the rows hold.

use crate::poly::{checked_add, checked_mul, gcd_of, Constraint, Overflow};

/// `rows` in canonical form, pivoting on the columns in `pivot_order`
/// (every column of the rows, each once). Exact; an overflow leaves the
/// caller's rows as they were.
pub(super) fn canonical_rows(
    rows: &[Constraint],
    pivot_order: &[usize],
) -> Result<Vec<Constraint>, Overflow> {
    let (mut eqs, mut ineqs): (Vec<Constraint>, Vec<Constraint>) =
        rows.iter().cloned().partition(|c| c.is_eq());
    let mut pivoted = 0;
    for &col in pivot_order {
        // The remaining equality with the least non-zero entry here
        // keeps the numbers small; the echelon form does not depend on it.
        let Some(r) = (pivoted..eqs.len())
            .filter(|&r| eqs[r].coeffs[col] != 0)
            .min_by_key(|&r| eqs[r].coeffs[col].unsigned_abs())
        else {
            continue;
        };
        eqs.swap(pivoted, r);
        if eqs[pivoted].coeffs[col] < 0 {
            eqs[pivoted] = eqs[pivoted].opposite()?;
        }
        let pivot = eqs[pivoted].clone();
        for (k, row) in eqs.iter_mut().enumerate() {
            if k != pivoted && row.coeffs[col] != 0 {
                *row = eliminated(row, &pivot, col)?;
            }
        }
        for row in &mut ineqs {
            if row.coeffs[col] != 0 {
                *row = eliminated(row, &pivot, col)?;
            }
        }
        pivoted += 1;
    }
    // Rows past the pivots are all zero (a repeated equality) or read
    // `constant = 0` with a non-zero constant (an empty piece, kept so).
    eqs.retain(|c| c.constant != 0 || c.coeffs.iter().any(|&a| a != 0));
    let mut out: Vec<Constraint> = eqs.into_iter().chain(ineqs).collect();
    out.sort_by(|a, b| {
        (!a.is_eq(), &a.coeffs, a.constant).cmp(&(!b.is_eq(), &b.coeffs, b.constant))
    });
    out.dedup();
    Ok(out)
}

/// `row` without column `col`: `p·row − c·pivot` for the pivot's positive
/// entry `p` and the row's entry `c` (an inequality keeps its direction),
/// divided by its content. Exact.
fn eliminated(row: &Constraint, pivot: &Constraint, col: usize) -> Result<Constraint, Overflow> {
    let (p, c) = (pivot.coeffs[col], row.coeffs[col]);
    let combine = |a: i64, b: i64| checked_add(checked_mul(p, a)?, checked_mul(-c, b)?);
    let coeffs = row
        .coeffs
        .iter()
        .zip(&pivot.coeffs)
        .map(|(&a, &b)| combine(a, b))
        .collect::<Result<Vec<i64>, Overflow>>()?;
    let constant = combine(row.constant, pivot.constant)?;
    let g = gcd_of(coeffs.iter().copied().chain([constant]))?;
    let divide = |v: i64| if g > 1 { v / g } else { v };
    Ok(Constraint {
        kind: row.kind,
        coeffs: coeffs.iter().map(|&v| divide(v)).collect(),
        constant: divide(constant),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eq(coeffs: &[i64], constant: i64) -> Constraint {
        Constraint::eq(coeffs.to_vec(), constant)
    }

    fn ineq(coeffs: &[i64], constant: i64) -> Constraint {
        Constraint::ineq(coeffs.to_vec(), constant)
    }

    /// Columns `[t0, t1, k]`: `t1 = k, t0 = t1` and `t0 = k, -t1 + k = 0`
    /// (the same span), with `t0 >= 0` written over `t0` or over `k`,
    /// give the same rows.
    #[test]
    fn equal_systems_written_differently_give_the_same_rows() {
        let order = [0, 1, 2];
        let a = canonical_rows(
            &[eq(&[0, 1, -1], 0), eq(&[1, -1, 0], 0), ineq(&[1, 0, 0], 0)],
            &order,
        )
        .expect("no overflow");
        let b = canonical_rows(
            &[ineq(&[0, 0, 1], 0), eq(&[0, -1, 1], 0), eq(&[1, 0, -1], 0)],
            &order,
        )
        .expect("no overflow");
        assert_eq!(a, b);
        assert_eq!(
            a,
            vec![eq(&[0, 1, -1], 0), eq(&[1, 0, -1], 0), ineq(&[0, 0, 1], 0)]
        );
    }

    /// A pivot of 2: `2·t0 = k + 1` and `4·t0 - 2·k - 2 = 0` are one
    /// equality, kept once; `k - 3 >= 0` reads no pivot column and stays.
    /// `t0 = 0` and `t0 = 1` leave the row `-1 = 0`.
    #[test]
    fn a_repeated_equality_is_dropped_and_a_contradiction_kept() {
        let out = canonical_rows(
            &[eq(&[2, -1], -1), eq(&[4, -2], -2), ineq(&[0, 1], -3)],
            &[0, 1],
        )
        .expect("no overflow");
        assert_eq!(out, vec![eq(&[2, -1], -1), ineq(&[0, 1], -3)]);
        let empty =
            canonical_rows(&[eq(&[1, 0], 0), eq(&[1, 0], -1)], &[0, 1]).expect("no overflow");
        assert!(empty.iter().any(|c| c.coeffs == [0, 0] && c.constant != 0));
    }
}
