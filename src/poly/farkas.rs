//! The affine form of Farkas' lemma: which affine functions are
//! non-negative on every (rational) point of a polyhedron.
//!
//! For a non-empty `P = { z : A z + b ≥ 0, E z + f = 0 }`, the function
//! `c·z + d` is non-negative on `P` if and only if
//!
//! ```text
//!   c·z + d ≡ λ₀ + λᵀ(A z + b) + μᵀ(E z + f)     with λ₀ ≥ 0, λ ≥ 0
//! ```
//!
//! (an identity of affine forms). Equating the coefficients of `z` and the
//! constants gives a system over `(c, d, λ, μ)`; [`nonnegative_forms`]
//! eliminates the multipliers exactly (rational Gaussian elimination for the
//! equalities and `μ`, Fourier–Motzkin with Chernikov's rule for `λ`) and
//! returns the constraints left on `(c, d)`. This is how the automatic
//! schedulers turn "this dependence is respected" into linear constraints
//! on schedule coefficients (Verdoolaege & Janssens, §6.3).
//!
//! The lemma is about rational points: locals (existential dimensions) are
//! projected out by Fourier–Motzkin first, which can only enlarge `P` and
//! so only strengthen the constraints on `(c, d)`. Every answer is sound
//! for the integer points; it may exclude a form that is non-negative on
//! the integer points only.

use super::bounds::fourier_motzkin;
use super::{BasicSet, Constraint, ConstraintKind, PolyError};

/// The constraints on `(c, d)` under which `c·z + d ≥ 0` on every rational
/// point of `set`: rows over `n + 1` columns, `[c₀ … c_{n−1}, d]`, where
/// `z` is the set's parameters then dimensions (`n` of them). Exact over the
/// rationals, given a non-empty set; for an empty set the answer is still
/// sound (every form is non-negative there) but may be stronger than
/// needed.
///
/// Where the elimination gives up, it is tried once more on the set
/// without the rows that the others imply over the integers
/// ([`BasicSet::remove_redundancies`]): projecting locals out leaves many
/// (`n >= 2` beside `n >= 3`, and rows that a combination of others
/// gives), each a multiplier to eliminate. The rational set may grow
/// then, never the integer one: the forms found are non-negative on
/// every integer point of `set`, and may be fewer than the rational
/// answer.
pub fn nonnegative_forms(set: &BasicSet) -> Result<Vec<Constraint>, PolyError> {
    let n = set.space().n_dim_total();
    let (rational, _) = set.project_out_rational(0, 0)?;
    match forms_over(n, rational.constraints()) {
        Err(PolyError::StepLimit(_)) => {
            forms_over(n, rational.remove_redundancies()?.constraints())
        }
        forms => forms,
    }
}

/// [`nonnegative_forms`] of the rational set `{ z : rows }`, `z` of `n`
/// columns.
fn forms_over(n: usize, rows: &[Constraint]) -> Result<Vec<Constraint>, PolyError> {
    // Columns of the multiplier system: [c (n) | d | λ (one per inequality)
    // | μ (one per equality)]; λ₀ is folded into the `d` row, which
    // becomes an inequality.
    let n_ineq = rows
        .iter()
        .filter(|r| r.kind == ConstraintKind::Ineq)
        .count();
    let n_eq = rows.len() - n_ineq;
    let width = n + 1 + n_ineq + n_eq;
    let mut system = Vec::with_capacity(n + 1 + n_ineq);
    let multiplier_col: Vec<usize> = {
        let (mut next_ineq, mut next_eq) = (n + 1, n + 1 + n_ineq);
        rows.iter()
            .map(|r| {
                let slot = if r.kind == ConstraintKind::Ineq {
                    &mut next_ineq
                } else {
                    &mut next_eq
                };
                *slot += 1;
                *slot - 1
            })
            .collect()
    };
    // c_j − Σ_k mult_k · row_k[j] = 0, for every column j of z.
    for j in 0..n {
        let mut coeffs = vec![0; width];
        coeffs[j] = 1;
        for (r, &m) in rows.iter().zip(&multiplier_col) {
            coeffs[m] = r.coeffs[j].checked_neg().ok_or(PolyError::Overflow)?;
        }
        system.push(Constraint::eq(coeffs, 0));
    }
    // d − Σ_k mult_k · row_k.constant = λ₀ ≥ 0.
    let mut coeffs = vec![0; width];
    coeffs[n] = 1;
    for (r, &m) in rows.iter().zip(&multiplier_col) {
        coeffs[m] = r.constant.checked_neg().ok_or(PolyError::Overflow)?;
    }
    system.push(Constraint::ineq(coeffs, 0));
    // λ ≥ 0.
    for m in n + 1..n + 1 + n_ineq {
        let mut coeffs = vec![0; width];
        coeffs[m] = 1;
        system.push(Constraint::ineq(coeffs, 0));
    }
    let multipliers: Vec<usize> = (n + 1..width).collect();
    let (eliminated, _) = fourier_motzkin(system, &multipliers)?;
    Ok(eliminated
        .into_iter()
        .map(|r| Constraint {
            kind: r.kind,
            coeffs: r.coeffs[..=n].to_vec(),
            constant: r.constant,
        })
        .filter(|r| r.coeffs.iter().any(|&v| v != 0) || r.constant != 0)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::parse_basic_set;

    fn forms(text: &str) -> Vec<Constraint> {
        let set = parse_basic_set(text).unwrap();
        nonnegative_forms(&set).unwrap()
    }

    /// Does the point `cd` satisfy `rows` (read as: is `c·z + d ≥ 0`
    /// allowed, for rows over `[c, d]`)?
    fn allowed(rows: &[Constraint], cd: &[i64]) -> bool {
        rows.iter().all(|r| {
            let v: i64 = r.coeffs.iter().zip(cd).map(|(a, b)| a * b).sum::<i64>() + r.constant;
            if r.is_eq() {
                v == 0
            } else {
                v >= 0
            }
        })
    }

    /// Is `c·z + d ≥ 0` on every point of `points`?
    fn holds(points: &[Vec<i64>], cd: &[i64]) -> bool {
        let (c, d) = cd.split_at(cd.len() - 1);
        points
            .iter()
            .all(|z| c.iter().zip(z).map(|(a, b)| a * b).sum::<i64>() + d[0] >= 0)
    }

    #[test]
    fn a_segment_admits_exactly_the_forms_non_negative_at_its_ends() {
        // 0 <= x <= 6: c x + d >= 0 iff d >= 0 and 6 c + d >= 0.
        let rows = forms("{ [x] : 0 <= x <= 6 }");
        for c in -4..=4 {
            for d in -30..=30 {
                assert_eq!(allowed(&rows, &[c, d]), d >= 0 && 6 * c + d >= 0, "{c} {d}");
            }
        }
    }

    #[test]
    fn the_report_example_31_gives_its_constraints() {
        // Difference set { [1, b] : 0 <= b <= 6 } (report (110)) gives (111):
        // d + c0 >= 0 and d + c0 + 6 c1 >= 0.
        let rows = forms("{ [a, b] : a = 1 and 0 <= b <= 6 }");
        for c0 in -8..=8 {
            for c1 in -3..=3 {
                for d in -20..=20 {
                    let expect = d + c0 >= 0 && d + c0 + 6 * c1 >= 0;
                    assert_eq!(allowed(&rows, &[c0, c1, d]), expect, "{c0} {c1} {d}");
                }
            }
        }
        // Without the upper bound (report (112)): c1 >= 0 instead (113).
        let rows = forms("{ [a, b] : a = 1 and 0 <= b }");
        for c0 in -8..=8 {
            for c1 in -3..=3 {
                for d in -20..=20 {
                    let expect = d + c0 >= 0 && c1 >= 0;
                    assert_eq!(allowed(&rows, &[c0, c1, d]), expect, "{c0} {c1} {d}");
                }
            }
        }
    }

    #[test]
    fn the_report_example_10_gives_its_constraints() {
        // Difference set (29) of the reduction's flow dependence, one
        // disjunct at a time, over [n, di, dj]: (30) and (31).
        let first = forms("[n] -> { [a, b] : a = 0 and b = 1 and n >= 2 }");
        let second = forms("[n] -> { [a, b] : a = 1 and b = 1 - n and n >= 2 }");
        for cn in -3..=3 {
            for c0 in -3..=3 {
                for c1 in -3..=3 {
                    for d in -8..=8 {
                        let v = [cn, c0, c1, d];
                        assert_eq!(allowed(&first, &v), cn >= 0 && c1 + 2 * cn + d >= 0);
                        assert_eq!(
                            allowed(&second, &v),
                            c1 <= cn && c1 <= c0 + 2 * cn + d,
                            "{v:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn on_bounded_polygons_the_forms_are_those_non_negative_on_every_point() {
        // Integer polygons whose vertices are integer points, so that the
        // rational and integer answers agree.
        for text in [
            "{ [x, y] : 0 <= x <= 4 and 0 <= y <= x }",
            "{ [x, y] : x + y <= 5 and x >= 1 and y >= -1 and y <= x + 3 }",
            "{ [x, y] : x = y and -2 <= x <= 3 }",
            "{ [x, y, z] : 0 <= z <= x and x <= 3 and 0 <= y <= 2 and y <= z + 1 }",
        ] {
            let set = parse_basic_set(text).unwrap();
            let rows = nonnegative_forms(&set).unwrap();
            let n = set.space().n_dim_total();
            let mut points = Vec::new();
            let mut z = vec![-6; n];
            'enumerate: loop {
                if set.n_local() == 0 && allowed(set.constraints(), &z) {
                    points.push(z.clone());
                }
                for k in (0..n).rev() {
                    if z[k] < 6 {
                        z[k] += 1;
                        continue 'enumerate;
                    }
                    z[k] = -6;
                }
                break;
            }
            let mut cd = vec![-2; n + 1];
            *cd.last_mut().unwrap() = -10;
            'forms: loop {
                assert_eq!(allowed(&rows, &cd), holds(&points, &cd), "{text}: {cd:?}");
                for k in (0..=n).rev() {
                    let top = if k == n { 10 } else { 2 };
                    if cd[k] < top {
                        cd[k] += 1;
                        continue 'forms;
                    }
                    cd[k] = if k == n { -10 } else { -2 };
                }
                break;
            }
        }
    }
}
