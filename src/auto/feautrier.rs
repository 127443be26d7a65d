//! One Feautrier row: the affine schedule row that carries as many
//! dependence groups as it can (report §6.4, isl's formulation), then
//! made integral and unscaled (§7.1), self-dependences first (§7.6).
//!
//! The LP's variables, in priority order (its lexmin is the objective
//! cascade):
//!
//! ```text
//!   Σ (1 − e_i),  Σ c_n,  Σ (c⁺ + c⁻),  e_0 … e_{g−1},
//!   per node: (c⁻_j, c⁺_j) for j from the last iterator to the first, c_n, c_0
//! ```
//!
//! where `0 ≤ e_i ≤ 1` and every pair of group `i` has
//! `f_T(y) − f_S(x) ≥ e_i`. A group is one edge (a disjunct of a
//! dependence). The rational optimum is used when it is integral;
//! otherwise the same problem is solved over the integers, which avoids
//! the huge coefficients of a rational vertex (report (26) vs (27)).

use super::coalescing::coalesced_direction;
use super::graph::{Edge, Forms, Graph};
use super::ilp::{edge_rows, Ilp, Lin, Requirement, RowVars};
use crate::poly::{gcd_of, ConstraintKind, PolyError};

/// One node's schedule row with integer coefficients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AffineRow {
    pub iter: Vec<i64>,
    pub param: Vec<i64>,
    pub constant: i64,
}

/// A Feautrier row for every node, and which of the given edges it carries.
#[derive(Clone, Debug)]
pub(crate) struct FeautrierRow {
    pub rows: Vec<AffineRow>,
    pub carried: Vec<bool>,
}

/// The row that carries the most of `active` (indices into `graph.edges`,
/// validity edges only are considered), or `None` when the LP has no
/// solution. With `self_first`, only edges from a node to itself may be
/// carried at first; if that carries none, every edge may.
pub(crate) fn feautrier_row(
    graph: &Graph,
    active: &[usize],
    self_first: bool,
) -> Result<Option<FeautrierRow>, PolyError> {
    let validity: Vec<usize> = active
        .iter()
        .copied()
        .filter(|&e| graph.edges[e].validity)
        .collect();
    if self_first {
        let carryable = |e: &Edge| matches!(e.forms, Forms::Intra(_));
        if let Some(row) = solve_uncoalesced(graph, &validity, &carryable)? {
            if row.carried.iter().any(|&c| c) {
                return Ok(Some(row));
            }
        }
    }
    solve_uncoalesced(graph, &validity, &|_| true)
}

/// [`solve`], again with `c_j = 0` while some node's row coalesces
/// direction `j` with another (report §7.5.4); when that leaves no
/// solution, the last one (coalescing, but a row).
fn solve_uncoalesced(
    graph: &Graph,
    validity: &[usize],
    carryable: &dyn Fn(&Edge) -> bool,
) -> Result<Option<FeautrierRow>, PolyError> {
    let mut zero: Vec<(usize, usize)> = Vec::new();
    let mut last = None;
    while let Some(row) = solve(graph, validity, carryable, &zero)? {
        let coalesced = graph
            .nodes
            .iter()
            .zip(&row.rows)
            .enumerate()
            .find_map(|(n, (node, r))| Some((n, coalesced_direction(&r.iter, &node.extents)?)));
        match coalesced {
            Some(z) if !zero.contains(&z) => {
                zero.push(z);
                last = Some(row);
            }
            _ => return Ok(Some(row)),
        }
    }
    Ok(last)
}

/// The row that carries the most of `validity` (those `carryable` may be
/// carried), with the iterator coefficients `zero` (`(node, iterator)`)
/// fixed to 0.
fn solve(
    graph: &Graph,
    validity: &[usize],
    carryable: &dyn Fn(&Edge) -> bool,
    zero: &[(usize, usize)],
) -> Result<Option<FeautrierRow>, PolyError> {
    let mut ilp = Ilp::default();
    let uncarried = ilp.var();
    let param_sum = ilp.var();
    let coeff_sum = ilp.var();
    let groups: Vec<usize> = validity
        .iter()
        .copied()
        .filter(|&e| carryable(&graph.edges[e]))
        .collect();
    let carry: Vec<usize> = groups.iter().map(|_| ilp.var()).collect();
    let vars = node_vars(&mut ilp, graph);
    for &(n, j) in zero {
        let (minus, plus) = vars[n].iter[j];
        for var in [minus, plus] {
            ilp.require(ConstraintKind::Eq, Lin::var(var));
        }
    }
    // Σ (1 − e_i) = g − Σ e_i; e_i ≤ 1.
    let mut e = Lin::var(uncarried)
        .with_constant(-i64::try_from(carry.len()).map_err(|_| PolyError::Overflow)?);
    for &c in &carry {
        e = e.add(&Lin::var(c))?;
        ilp.require(ConstraintKind::Ineq, Lin::constant(1).sub(&Lin::var(c))?);
    }
    ilp.require(ConstraintKind::Eq, e);
    let params: Vec<usize> = vars.iter().flat_map(|v| v.param.iter().copied()).collect();
    ilp.define_sum(param_sum, &params)?;
    let coeffs: Vec<usize> = vars
        .iter()
        .flat_map(|v| v.iter.iter().flat_map(|&(m, p)| [m, p]))
        .collect();
    ilp.define_sum(coeff_sum, &coeffs)?;
    for &e in validity {
        let constant_extra = match groups.iter().position(|&g| g == e) {
            Some(k) => Lin::term(-1, carry[k]),
            None => Lin::constant(0),
        };
        let req = Requirement {
            sign: 1,
            param_extra: &[],
            constant_extra,
        };
        for row in edge_rows(&graph.edges[e], &vars, &req)? {
            ilp.require_row(row);
        }
    }
    let values = match ilp.rational_lexmin()? {
        None => return Ok(None),
        Some(r) if r.iter().all(|v| v.as_integer().is_some()) => r
            .iter()
            .map(|v| i64::try_from(v.num).map_err(|_| PolyError::Overflow))
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => match ilp.integer_lexmin()? {
            None => return Ok(None),
            Some(v) => v,
        },
    };
    let mut carried = vec![false; graph.edges.len()];
    for (&g, &c) in groups.iter().zip(&carry) {
        carried[g] = values[c] == 1;
    }
    let rows = vars
        .iter()
        .map(|v| read_row(v, &values))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(FeautrierRow {
        rows: unscaled(rows)?,
        carried,
    }))
}

/// New variables for every node's row, in the report's order.
pub(crate) fn node_vars(ilp: &mut Ilp, graph: &Graph) -> Vec<RowVars> {
    graph
        .nodes
        .iter()
        .map(|node| {
            let mut iter = vec![(0, 0); node.n_iter];
            for slot in iter.iter_mut().rev() {
                let minus = ilp.var();
                let plus = ilp.var();
                *slot = (minus, plus);
            }
            let param = (0..graph.n_param).map(|_| ilp.var()).collect();
            let constant = ilp.var();
            RowVars {
                iter,
                param,
                constant,
            }
        })
        .collect()
}

/// A node's row read from a solution.
pub(crate) fn read_row(v: &RowVars, values: &[i64]) -> Result<AffineRow, PolyError> {
    Ok(AffineRow {
        iter: v
            .iter
            .iter()
            .map(|&(m, p)| values[p].checked_sub(values[m]).ok_or(PolyError::Overflow))
            .collect::<Result<_, _>>()?,
        param: v.param.iter().map(|&p| values[p]).collect(),
        constant: values[v.constant],
    })
}

/// Divide every row by the gcd `m` of all iterator and parameter
/// coefficients, constants rounded down (report (80)–(81)): `2t`, `2t + 1`
/// become `t`, `t`. The order between nodes that only the constants
/// decided is left to the sequence that follows.
fn unscaled(rows: Vec<AffineRow>) -> Result<Vec<AffineRow>, PolyError> {
    let m = gcd_of(
        rows.iter()
            .flat_map(|r| r.iter.iter().chain(&r.param).copied()),
    )?;
    if m <= 1 {
        return Ok(rows);
    }
    Ok(rows
        .into_iter()
        .map(|r| AffineRow {
            iter: r.iter.iter().map(|c| c / m).collect(),
            param: r.param.iter().map(|c| c / m).collect(),
            constant: r.constant.div_euclid(m),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auto::graph::{graph_of, SEIDEL_2D};

    fn first_row(graph: &Graph) -> FeautrierRow {
        let active: Vec<usize> = (0..graph.edges.len()).collect();
        feautrier_row(graph, &active, true).unwrap().unwrap()
    }

    #[test]
    fn a_sequential_reduction_is_scheduled_by_its_outer_loop() {
        // Report Example 10: s += f(i, j) gives S[i, j] -> i.
        let g = graph_of(
            "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    s = s + A[i][j];",
            "int n, double s, double A[n][n]",
        );
        let row = first_row(&g);
        assert_eq!(row.rows[0].iter, vec![1, 0]);
    }

    #[test]
    fn jacobi_2d_is_carried_by_its_time_loop_after_unscaling() {
        // Report Example 19: 2t and 2t + 1 become t and t.
        let g = graph_of(
            "for (t = 0; t < T; t++) {\n\
               for (i = 1; i < n - 1; i++)\n  for (j = 1; j < n - 1; j++)\n\
                 B[i][j] = A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j];\n\
               for (i = 1; i < n - 1; i++)\n  for (j = 1; j < n - 1; j++)\n\
                 A[i][j] = B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j];\n\
             }",
            "int T, int n, double A[n][n], double B[n][n]",
        );
        let row = first_row(&g);
        assert_eq!(row.rows[0].iter, vec![1, 0, 0]);
        assert_eq!(row.rows[1].iter, vec![1, 0, 0]);
        assert_eq!(row.rows[0].constant, row.rows[1].constant);
    }

    #[test]
    fn cholesky_carries_its_self_dependences_first() {
        // Report Listing 14, Example 34: with self-dependences first the
        // row is (129), not the scaled (27) `i + j + k; i + 2j; 2i + k; 3i`.
        let g = graph_of(
            "for (i = 0; i < n; i++) {\n\
               for (j = 0; j < i; j++) {\n\
                 for (k = 0; k < j; k++)\n\
                   A[i][j] -= A[i][k] * A[j][k];\n\
                 A[i][j] /= A[j][j];\n\
               }\n\
               for (k = 0; k < i; k++)\n\
                 A[i][i] -= A[i][k] * A[i][k];\n\
               A[i][i] = sqrt(A[i][i]);\n\
             }",
            "int n, double A[n][n]",
        );
        let row = first_row(&g);
        let iters: Vec<&[i64]> = row.rows.iter().map(|r| r.iter.as_slice()).collect();
        assert_eq!(iters, [&[0, 0, 1][..], &[0, 1], &[0, 1], &[1]]);
        assert!(row.rows.iter().all(|r| r.constant == 0));
        // Carrying every group at once, the integral (27), never the huge
        // rational vertex (26).
        let active: Vec<usize> = (0..g.edges.len()).collect();
        let all = feautrier_row(&g, &active, false).unwrap().unwrap();
        let iters: Vec<&[i64]> = all.rows.iter().map(|r| r.iter.as_slice()).collect();
        assert_eq!(iters, [&[1, 1, 1][..], &[1, 2], &[2, 1], &[3]]);
    }

    #[test]
    fn seidel_2d_is_skewed_to_carry_every_dependence() {
        // Report Example 11: S[t, i, j] -> 4t + 2i + j.
        let g = graph_of(SEIDEL_2D.0, SEIDEL_2D.1);
        let row = first_row(&g);
        assert_eq!(row.rows[0].iter, vec![4, 2, 1]);
        assert!(row.carried.iter().all(|&c| c));
    }
}
