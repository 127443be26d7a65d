//! Loop-coalescing avoidance (report §7.5). A row such as `10000i + j` over
//! `0 ≤ j < 10000` runs two loops as one (`i` and `j` are its quotient and
//! remainder by 10000): it carries every dependence of a nest at once, so
//! Feautrier's scheduler likes it, and it looks close to Pluto's, but it
//! hides the nest's dimensions and its coefficients are large.
//!
//! The test is on a statement's *extents*: `S_j`, the largest distance
//! between two points of its domain that differ only in iterator `j`
//! (report (98)), finite only when the domain bounds `j` by constants (or
//! the context fixes the parameters: `context(n == 10000)`). Then:
//!
//! * Pluto (§7.5.3): every iterator coefficient is bounded,
//!   `|c_i| ≤ ⌈S_j / 2⌉` for every other direction `j` (104);
//! * Feautrier (§7.5.4): a row with `|c_i| > ⌈S_j / 2⌉·|c_j|` for some pair
//!   (105) is solved again with `c_j = 0`, until no pair coalesces (or no
//!   row is left: the last one is kept).
//!
//! One deviation: a direction of extent 0 (a single value) bounds nothing,
//! where isl's (104) would force every other coefficient to 0; nothing is
//! coalesced with a constant.

use crate::poly::{BasicSet, Constraint, LexOpt, PolyError, Set, Space};

/// The extent `S_j` of each iterator direction of `domain` under the
/// parameters' `context`; `None` when unbounded (or the domain is empty).
/// Exact: one integer maximisation per direction and pair of disjuncts.
pub(crate) fn extents(
    domain: &Set,
    context: &BasicSet,
    n_iter: usize,
) -> Result<Vec<Option<i64>>, PolyError> {
    let mut out = Vec::with_capacity(n_iter);
    for j in 0..n_iter {
        let mut extent: Option<i64> = None;
        for a in domain.basics() {
            for b in domain.basics() {
                match direction_extent(a, b, context, j)? {
                    LexOpt::Point(p) => {
                        let d = p.first().copied().unwrap_or(0);
                        extent = Some(extent.map_or(d, |e| e.max(d)));
                    }
                    LexOpt::Unbounded => {
                        extent = None;
                        break;
                    }
                    LexOpt::Empty => {}
                }
            }
        }
        out.push(extent);
    }
    Ok(out)
}

/// The maximum of `y − x_j` over `x ∈ a`, and `x` with `x_j := y` in `b`,
/// the parameters in `context`: a set over `[δ, params, x, y]` with every
/// dimension but `δ` existential.
fn direction_extent(
    a: &BasicSet,
    b: &BasicSet,
    context: &BasicSet,
    j: usize,
) -> Result<LexOpt, PolyError> {
    let np = a.space().n_param();
    let n = a.space().n_out();
    let (la, lb) = (a.n_local(), b.n_local());
    let n_dim = 1 + np + n + 1;
    let y = 1 + np + n;
    let n_cols = n_dim + la + lb;
    // Column `c` of a row of `set` (parameters, dimensions, locals), with
    // dimension `j` at `j_col` and the locals from `local_base`.
    let place = |set: &BasicSet, j_col: usize, local_base: usize| -> Vec<Constraint> {
        set.constraints()
            .iter()
            .map(|c| {
                let mut coeffs = vec![0; n_cols];
                for (k, &v) in c.coeffs.iter().enumerate() {
                    let col = if k < np {
                        1 + k
                    } else if k < np + n {
                        if k - np == j {
                            j_col
                        } else {
                            1 + k
                        }
                    } else {
                        local_base + (k - np - n)
                    };
                    coeffs[col] = v;
                }
                Constraint {
                    coeffs,
                    ..c.clone()
                }
            })
            .collect()
    };
    let mut rows = place(a, 1 + np + j, n_dim);
    rows.extend(place(b, y, n_dim + la));
    for c in context.constraints() {
        let mut coeffs = vec![0; n_cols];
        coeffs[1..1 + np].copy_from_slice(&c.coeffs[..np]);
        rows.push(Constraint {
            coeffs,
            ..c.clone()
        });
    }
    // δ − y + x_j = 0.
    let mut delta = vec![0; n_cols];
    delta[0] = 1;
    delta[y] = -1;
    delta[1 + np + j] = 1;
    rows.push(Constraint::eq(delta, 0));
    let names = (0..n_dim).map(|k| format!("d{k}")).collect();
    let set = BasicSet::from_parts(Space::set(Vec::new(), None, names), la + lb, rows);
    set.project_out(1, n_dim - 1).lexmax()
}

/// The bound on `|c_i|` for each direction `i` (report (104)): `⌈S_j /
/// 2⌉` for the smallest positive extent `S_j` of the other directions;
/// `None` when every other extent is unbounded or 0.
pub(crate) fn coefficient_bounds(extents: &[Option<i64>]) -> Vec<Option<i64>> {
    (0..extents.len())
        .map(|i| {
            extents
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .filter_map(|(_, &s)| s.filter(|&s| s > 0))
                .min()
                .map(half_up)
        })
        .collect()
}

/// A direction `j` that the coefficients `iter` coalesce with another
/// (report (105): `|c_i| > ⌈S_j / 2⌉·|c_j|`, `c_j ≠ 0`, `S_j > 0`), to be
/// forced to 0; `None` when no pair coalesces. Exact (i128).
pub(crate) fn coalesced_direction(iter: &[i64], extents: &[Option<i64>]) -> Option<usize> {
    (0..iter.len()).find(|&j| {
        let Some(s) = extents.get(j).copied().flatten().filter(|&s| s > 0) else {
            return false;
        };
        let limit = i128::from(half_up(s)) * i128::from(iter[j]).abs();
        iter[j] != 0
            && iter
                .iter()
                .enumerate()
                .any(|(i, &c)| i != j && i128::from(c).abs() > limit)
    })
}

/// `⌈s / 2⌉` for `s ≥ 0`.
fn half_up(s: i64) -> i64 {
    s / 2 + s % 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::c::read_source;

    fn extents_of(body: &str, params: &str) -> Vec<Option<i64>> {
        let src = format!("void f({params}) {{\n#pragma scop\n{body}\n#pragma endscop\n}}\n");
        let file = read_source("f.c", src).unwrap();
        let scop = &file.scops[0];
        let st = &scop.statements[0];
        extents(&st.domain, &scop.context, st.iterators.len()).unwrap()
    }

    /// Report Example 29, with its erratum (the digest): `0 ≤ x ≤ y`,
    /// `x + y ≤ 100` has `S_x = 50` and `S_y = 100`.
    #[test]
    fn extents_of_the_reports_triangle() {
        let body = "for (x = 0; x <= 50; x++)\n  for (y = x; y <= 100 - x; y++)\n    A[x][y] = 0;";
        assert_eq!(
            extents_of(body, "double A[51][101]"),
            vec![Some(50), Some(100)]
        );
    }

    /// Brute force on small boxes and triangles: the extent is the largest
    /// distance along the direction between two points of the domain.
    #[test]
    fn extents_agree_with_enumeration() {
        for (lo, hi, skew) in [(0, 5, 0), (2, 9, 1), (0, 3, 2), (1, 1, 0)] {
            let body = format!(
                "for (i = {lo}; i <= {hi}; i++)\n  for (j = {skew} * i; j <= {hi} + i; j++)\n    A[i][j] = 0;"
            );
            let got = extents_of(&body, "double A[100][100]");
            let points: Vec<(i64, i64)> = (lo..=hi)
                .flat_map(|i| (skew * i..=hi + i).map(move |j| (i, j)))
                .collect();
            let along = |dir: usize| {
                let mut best: Option<i64> = None;
                for p in &points {
                    for q in &points {
                        let same = if dir == 0 { p.1 == q.1 } else { p.0 == q.0 };
                        if same {
                            let d = if dir == 0 { q.0 - p.0 } else { q.1 - p.1 };
                            best = Some(best.map_or(d, |b| b.max(d)));
                        }
                    }
                }
                best
            };
            assert_eq!(got, vec![along(0), along(1)], "{body}");
        }
    }

    #[test]
    fn a_parametric_loop_has_no_extent() {
        let body = "for (i = 0; i < n; i++)\n  for (j = 0; j < 8; j++)\n    A[i][j] = 0;";
        assert_eq!(
            extents_of(body, "int n, double A[100][8]"),
            vec![None, Some(7)]
        );
    }

    /// Report Example 30: `10000i + j` with `S_j = 10000` coalesces `j`;
    /// `i + j` (a skew) and `2i + j` do not.
    #[test]
    fn the_reports_coalescing_row_is_detected() {
        let extents = [Some(9999), Some(9999)];
        assert_eq!(coalesced_direction(&[10000, 1], &extents), Some(1));
        assert_eq!(coalesced_direction(&[1, 1], &extents), None);
        assert_eq!(coalesced_direction(&[2, 1], &extents), None);
        assert_eq!(coalesced_direction(&[10000, 1], &[None, None]), None);
        assert_eq!(coefficient_bounds(&extents), vec![Some(5000), Some(5000)]);
        assert_eq!(coefficient_bounds(&[Some(0), Some(7)]), vec![Some(4), None]);
    }
}
