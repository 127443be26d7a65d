//! Linear independence of a new schedule row from a node's earlier rows
//! (report §6.5.6): rows `K` with `K·c = 0` exactly when the iterator
//! coefficients `c` are a rational combination of the earlier rows.
//!
//! `K` is an integer basis of the null space of the earlier rows `C`: the
//! columns of a unimodular `U` with `C·U` in column Hermite form, past the
//! rank. It is then normalised as the report does, so that the search for a
//! non-trivial row tries the same cases in the same order: a Gaussian
//! elimination that clears the last columns first (rows keep as many
//! trailing zeros as they can), each row divided by its content and made
//! lexicographically positive.

use crate::poly::{gcd_of, PolyError};

/// The independence rows of a node with `d` iterators whose earlier rows
/// have the iterator coefficients `previous`. Empty when those already
/// have rank `d`. Exact.
pub(crate) fn independence_rows(
    previous: &[Vec<i64>],
    d: usize,
) -> Result<Vec<Vec<i64>>, PolyError> {
    let basis = null_space_basis(previous, d)?;
    normalised(basis, d)
}

/// The rank of `rows` over `n` columns. Exact.
pub(crate) fn rank(rows: &[Vec<i64>], n: usize) -> Result<usize, PolyError> {
    Ok(n - independence_rows(rows, n)?.len())
}

fn mul_sub(a: i64, x: i64, b: i64, y: i64) -> Result<i64, PolyError> {
    // a·x − b·y, checked.
    a.checked_mul(x)
        .zip(b.checked_mul(y))
        .and_then(|(p, q)| p.checked_sub(q))
        .ok_or(PolyError::Overflow)
}

/// `target −= q · source`, checked.
fn subtract_multiple(target: &mut [i64], q: i64, source: &[i64]) -> Result<(), PolyError> {
    for (t, &v) in target.iter_mut().zip(source) {
        *t = mul_sub(1, *t, q, v)?;
    }
    Ok(())
}

/// Columns `rank..d` of a unimodular `U` with `C·U` lower triangular
/// (column Hermite form, up to signs), as rows.
fn null_space_basis(c: &[Vec<i64>], d: usize) -> Result<Vec<Vec<i64>>, PolyError> {
    // u[k] is column k of U.
    let mut u: Vec<Vec<i64>> = (0..d)
        .map(|k| (0..d).map(|r| i64::from(r == k)).collect())
        .collect();
    // cu[k] = C · u[k], column k of C·U.
    let mut cu: Vec<Vec<i64>> = (0..d)
        .map(|k| c.iter().map(|row| row[k]).collect())
        .collect();
    let mut pivot = 0;
    for r in 0..c.len() {
        if pivot == d {
            break;
        }
        // Euclid on the columns pivot..d until only column `pivot` has a
        // non-zero entry in row r.
        loop {
            let nonzero: Vec<usize> = (pivot..d).filter(|&k| cu[k][r] != 0).collect();
            if nonzero.is_empty() {
                break;
            }
            let smallest = *nonzero
                .iter()
                .min_by_key(|&&k| cu[k][r].unsigned_abs())
                .unwrap_or(&pivot);
            u.swap(pivot, smallest);
            cu.swap(pivot, smallest);
            let mut done = true;
            for k in pivot + 1..d {
                let q = cu[k][r].div_euclid(cu[pivot][r]);
                if q != 0 {
                    let (cu_pivot, u_pivot) = (cu[pivot].clone(), u[pivot].clone());
                    subtract_multiple(&mut cu[k], q, &cu_pivot)?;
                    subtract_multiple(&mut u[k], q, &u_pivot)?;
                }
                done &= cu[k][r] == 0;
            }
            if done {
                pivot += 1;
                break;
            }
        }
    }
    Ok(u.split_off(pivot))
}

/// The report's normal form of a null-space basis (see the module doc).
fn normalised(mut rows: Vec<Vec<i64>>, d: usize) -> Result<Vec<Vec<i64>>, PolyError> {
    let mut done = vec![false; rows.len()];
    for col in (0..d).rev() {
        let Some(p) = (0..rows.len())
            .rev()
            .find(|&k| !done[k] && rows[k][col] != 0)
        else {
            continue;
        };
        done[p] = true;
        let pivot = rows[p].clone();
        for (k, row) in rows.iter_mut().enumerate() {
            if k == p || done[k] || row[col] == 0 {
                continue;
            }
            let (a, b) = (pivot[col], row[col]);
            for j in 0..d {
                row[j] = mul_sub(a, row[j], b, pivot[j])?;
            }
        }
    }
    rows.into_iter()
        .map(|row| {
            let g = gcd_of(row.iter().copied())?.max(1);
            let sign = row.iter().find(|&&v| v != 0).map_or(1, |v| v.signum());
            Ok(row.iter().map(|v| sign * (v / g)).collect())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dot(a: &[i64], b: &[i64]) -> i64 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    /// The rank of `rows`, by fraction-free elimination.
    fn rank(rows: &[Vec<i64>]) -> usize {
        let mut m: Vec<Vec<i128>> = rows
            .iter()
            .map(|r| r.iter().map(|&v| v.into()).collect())
            .collect();
        let mut rank = 0;
        for col in 0..m.first().map_or(0, Vec::len) {
            let Some(p) = (rank..m.len()).find(|&k| m[k][col] != 0) else {
                continue;
            };
            m.swap(rank, p);
            for k in rank + 1..m.len() {
                let (a, b) = (m[rank][col], m[k][col]);
                for j in 0..m[k].len() {
                    m[k][j] = m[k][j] * a - m[rank][j] * b;
                }
            }
            rank += 1;
        }
        rank
    }

    /// Is `c` a rational combination of `rows`?
    fn in_row_space(rows: &[Vec<i64>], c: &[i64]) -> bool {
        let mut with = rows.to_vec();
        with.push(c.to_vec());
        rank(&with) == rank(rows)
    }

    #[test]
    fn seidel_after_its_feautrier_row_has_the_reports_rows() {
        // Report (51): [1 -2 0] and [1 0 -4], up to the order the
        // elimination leaves them in.
        let k = independence_rows(&[vec![4, 2, 1]], 3).unwrap();
        assert_eq!(k.len(), 2);
        for row in &k {
            assert_eq!(dot(row, &[4, 2, 1]), 0);
        }
        assert!(k.contains(&vec![1, -2, 0]), "{k:?}");
        // Then (56): one row, [0 1 -2].
        let k = independence_rows(&[vec![4, 2, 1], vec![1, 0, 0]], 3).unwrap();
        assert_eq!(k, vec![vec![0, 1, -2]]);
        // Full rank: nothing left.
        let k = independence_rows(&[vec![4, 2, 1], vec![1, 0, 0], vec![0, 1, 0]], 3).unwrap();
        assert!(k.is_empty());
    }

    #[test]
    fn the_rows_vanish_exactly_on_the_row_space() {
        let cases: Vec<Vec<Vec<i64>>> = vec![
            vec![],
            vec![vec![1, 1, 0]],
            vec![vec![2, 0, 4], vec![0, 3, 3]],
            vec![vec![1, -1, 2], vec![2, -2, 4]],
            vec![vec![0, 0, 5]],
        ];
        for prev in cases {
            let k = independence_rows(&prev, 3).unwrap();
            for a in -2..=2 {
                for b in -2..=2 {
                    for c in -2..=2 {
                        let v = [a, b, c];
                        let vanish = k.iter().all(|row| dot(row, &v) == 0);
                        assert_eq!(vanish, in_row_space(&prev, &v), "{prev:?} {v:?} {k:?}");
                    }
                }
            }
        }
    }
}
