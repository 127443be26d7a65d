//! One Pluto band (report §6.5, as isl implements it): members found one
//! ILP at a time, every member under the same validity constraints (so
//! the band is permutable), with distances bounded by one uniform
//! `u = m·n + m₀` made small, coincidence (distance zero) asked of every
//! member until it fails once, and each member linearly independent of the
//! node's earlier rows.
//!
//! The ILP's variables, in priority order:
//!
//! ```text
//!   Σ (m⁺_p + m⁻_p),  m₀,  Σ c_n,  Σ (c⁺ + c⁻),  (m⁻_p, m⁺_p) per parameter,
//!   per node: (c⁻_j, c⁺_j) from the last iterator to the first, c_n, c_0
//! ```
//!
//! A trivial (zero) row is excluded outside the ILP, by the report's
//! search (§6.5.7): when the lexmin is trivial for some node, the cases
//! "independence row `r_j ≥ 1`" and "`r_j ≤ −1`" (earlier rows zero) are
//! tried in turn; a non-trivial solution is kept, and later ones must make
//! its first non-zero bound term zero, until both bound terms are zero.

use super::coalescing::coefficient_bounds;
use super::feautrier::{node_vars, read_row, AffineRow};
use super::graph::Graph;
use super::ilp::{edge_rows, Ilp, Lin, Requirement, RowVars};
use super::independence::independence_rows;
use super::Wavefront;
use crate::poly::{ConstraintKind, PolyError};

/// The most ILPs one member's search may solve.
const SEARCH_LIMIT: usize = 2_000;

/// One member of a band: a row per node, and whether it was found with
/// coincidence required (every active dependence at distance zero).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Member {
    pub rows: Vec<AffineRow>,
    pub coincident: bool,
}

/// Whether `band`, found without a coincident first member, is worth
/// tiling as a wavefront: two members or more, none skewed (no row of a
/// statement with two iterators or more), so that its point loops are
/// loops of the program, which gcc vectorises (a skewed one it does not:
/// seidel-2d's `(t, t + i, 2t + i + j)` ran 0.6× as fast as with isl's
/// Feautrier row; lu's `(i, k, j)` 2× faster; docs/performance.md).
pub(crate) fn worth_a_wavefront(band: &[Member]) -> bool {
    band.len() >= 2 && !band.iter().any(is_skewed)
}

/// Whether some statement's row of `member` moves with two iterators or
/// more.
fn is_skewed(member: &Member) -> bool {
    member
        .rows
        .iter()
        .any(|r| r.iter.iter().filter(|&&c| c != 0).count() > 1)
}

/// A Pluto band over the `active` edges (indices into `graph.edges`),
/// given each node's earlier rows' iterator coefficients (`earlier[node]`,
/// from outer bands). When no first member is coincident, `wavefront`
/// says what is returned: nothing ([`Wavefront::Never`], isl's forced
/// outer coincidence), the band without coincidence
/// ([`Wavefront::Always`], Pluto's), or that band only if
/// [`worth_a_wavefront`] ([`Wavefront::Unskewed`]: its search stops at
/// the first skewed member). Empty also when no member exists.
pub(crate) fn pluto_band(
    graph: &Graph,
    active: &[usize],
    earlier: &[Vec<Vec<i64>>],
    wavefront: Wavefront,
) -> Result<Vec<Member>, PolyError> {
    let mut earlier = earlier.to_vec();
    let mut band: Vec<Member> = Vec::new();
    let mut coincidence = true;
    // No first member was coincident, and only an unskewed band is kept.
    let mut unskewed_only = false;
    loop {
        let regions = regions(graph, &earlier)?;
        if regions.is_empty() {
            // Complete: every node has full rank.
            return Ok(if unskewed_only && !worth_a_wavefront(&band) {
                Vec::new()
            } else {
                band
            });
        }
        match member(graph, active, &regions, coincidence)? {
            Some(rows) => {
                let found = Member {
                    rows,
                    coincident: coincidence,
                };
                if unskewed_only && is_skewed(&found) {
                    return Ok(Vec::new());
                }
                for (node, row) in found.rows.iter().enumerate() {
                    earlier[node].push(row.iter.clone());
                }
                band.push(found);
            }
            None if coincidence && band.is_empty() && wavefront == Wavefront::Never => {
                return Ok(band);
            }
            None if coincidence => {
                unskewed_only = band.is_empty() && wavefront == Wavefront::Unskewed;
                coincidence = false;
            }
            None if unskewed_only && !worth_a_wavefront(&band) => return Ok(Vec::new()),
            None => return Ok(band),
        }
    }
}

/// A node that must take an independent row, and its independence rows.
pub(super) type Region = (usize, Vec<Vec<i64>>);

/// The nodes that must take a row independent of their `earlier` rows,
/// each with its independence rows: those with the most rows left to
/// find. Empty when every node has full rank. Exact.
pub(super) fn regions(graph: &Graph, earlier: &[Vec<Vec<i64>>]) -> Result<Vec<Region>, PolyError> {
    let independence: Vec<Vec<Vec<i64>>> = graph
        .nodes
        .iter()
        .zip(earlier)
        .map(|(node, rows)| independence_rows(rows, node.n_iter))
        .collect::<Result<_, _>>()?;
    let free = independence.iter().map(Vec::len).max().unwrap_or(0);
    Ok(independence
        .into_iter()
        .enumerate()
        .filter(|(_, k)| free > 0 && k.len() == free)
        .collect())
}

/// The ILP of one member, its non-trivial lexmin by the report's search.
pub(super) fn member(
    graph: &Graph,
    active: &[usize],
    regions: &[Region],
    coincidence: bool,
) -> Result<Option<Vec<AffineRow>>, PolyError> {
    let (mut m, _) = member_ilp(graph, active, coincidence, 0)?;
    m.ilp.settle()?;
    let significant = m.bound.to_vec();
    nontrivial_lexmin(&m.ilp, &m.vars, regions, &significant, Better::ZeroFirst)?
        .map(|values| m.vars.iter().map(|v| read_row(v, &values)).collect())
        .transpose()
}

/// A band member's ILP, unsettled: `n_head` variables first, for the
/// caller to define (the spatial scheduler's reuse terms; they come
/// before everything else in priority), then Pluto's (module doc), under
/// validity on every active edge, coincidence when asked, the proximity
/// bound and no coalescing.
pub(super) struct MemberIlp {
    pub ilp: Ilp,
    pub vars: Vec<RowVars>,
    /// The bound terms, `Σ (m⁺_p + m⁻_p)` and `m₀`.
    pub bound: [usize; 2],
}

/// [`MemberIlp`] and its head variables.
pub(super) fn member_ilp(
    graph: &Graph,
    active: &[usize],
    coincidence: bool,
    n_head: usize,
) -> Result<(MemberIlp, Vec<usize>), PolyError> {
    let mut ilp = Ilp::default();
    let head: Vec<usize> = (0..n_head).map(|_| ilp.var()).collect();
    let bound_sum = ilp.var();
    let bound_constant = ilp.var();
    let param_sum = ilp.var();
    let coeff_sum = ilp.var();
    let bound_params: Vec<(usize, usize)> = (0..graph.n_param)
        .map(|_| {
            let minus = ilp.var();
            let plus = ilp.var();
            (minus, plus)
        })
        .collect();
    let vars = node_vars(&mut ilp, graph);
    // No coalescing (report §7.5.3): `c⁺_i, c⁻_i ≤ ⌈S_j / 2⌉`.
    for (node, v) in graph.nodes.iter().zip(&vars) {
        for (&(minus, plus), bound) in v.iter.iter().zip(coefficient_bounds(&node.extents)) {
            if let Some(b) = bound {
                for var in [minus, plus] {
                    ilp.require(ConstraintKind::Ineq, Lin::term(-1, var).with_constant(b));
                }
            }
        }
    }
    let bound_terms: Vec<usize> = bound_params.iter().flat_map(|&(m, p)| [m, p]).collect();
    ilp.define_sum(bound_sum, &bound_terms)?;
    let params: Vec<usize> = vars.iter().flat_map(|v| v.param.iter().copied()).collect();
    ilp.define_sum(param_sum, &params)?;
    let coeffs: Vec<usize> = vars
        .iter()
        .flat_map(|v| v.iter.iter().flat_map(|&(m, p)| [m, p]))
        .collect();
    ilp.define_sum(coeff_sum, &coeffs)?;
    let bound: Vec<Lin> = bound_params
        .iter()
        .map(|&(m, p)| Lin::var(p).sub(&Lin::var(m)))
        .collect::<Result<_, _>>()?;
    for &e in active {
        let edge = &graph.edges[e];
        let mut require = |req: Requirement<'_>| -> Result<(), PolyError> {
            for row in edge_rows(edge, &vars, &req)? {
                ilp.require_row(row);
            }
            Ok(())
        };
        if edge.validity {
            require(Requirement {
                sign: 1,
                param_extra: &[],
                constant_extra: Lin::constant(0),
            })?;
            if coincidence {
                require(Requirement {
                    sign: -1,
                    param_extra: &[],
                    constant_extra: Lin::constant(0),
                })?;
            }
        }
        // Proximity: the distance is at most u; a read-after-read pair has
        // no order, so its distance is bounded from both sides.
        require(Requirement {
            sign: -1,
            param_extra: &bound,
            constant_extra: Lin::var(bound_constant),
        })?;
        if !edge.validity {
            require(Requirement {
                sign: 1,
                param_extra: &bound,
                constant_extra: Lin::var(bound_constant),
            })?;
        }
    }
    Ok((
        MemberIlp {
            ilp,
            vars,
            bound: [bound_sum, bound_constant],
        },
        head,
    ))
}

/// What makes a later non-trivial solution of the search better than the
/// best so far, in its `significant` terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Better {
    /// The report's rule (§6.5.7), for Pluto's two bound terms: it makes
    /// zero the first term the best left non-zero (required of the ILP,
    /// so each later case is solved under it).
    ZeroFirst,
    /// Its terms are lexicographically smaller (branch and bound: a case
    /// whose lexmin is not smaller is not explored further). The terms
    /// must be the ILP's leading variables, so that a case's lexmin bounds
    /// every solution below it. For objectives whose first term cannot be
    /// zero (the spatial scheduler's sum of coefficients).
    Smaller,
}

/// The lexmin of `ilp` (settled) that is non-trivial for every node of
/// `regions` (`(node, independence rows)`), by the report's search, later
/// solutions replacing the best so far when `better`. `None` when there
/// is none.
pub(super) fn nontrivial_lexmin(
    ilp: &Ilp,
    vars: &[RowVars],
    regions: &[Region],
    significant: &[usize],
    better: Better,
) -> Result<Option<Vec<i64>>, PolyError> {
    let mut search = Search {
        vars,
        regions,
        significant,
        better,
        best: None,
        steps: 0,
    };
    search.run(ilp)?;
    Ok(search.best)
}

/// The state of the non-trivial search.
struct Search<'a> {
    vars: &'a [RowVars],
    regions: &'a [Region],
    /// The terms that rank solutions, in order.
    significant: &'a [usize],
    better: Better,
    best: Option<Vec<i64>>,
    steps: usize,
}

/// Whether the search is over.
enum Flow {
    Go,
    Stop,
}

impl Search<'_> {
    fn run(&mut self, ilp: &Ilp) -> Result<(), PolyError> {
        self.visit(ilp).map(|_| ())
    }

    fn visit(&mut self, ilp: &Ilp) -> Result<Flow, PolyError> {
        self.steps += 1;
        if self.steps > SEARCH_LIMIT {
            return Err(PolyError::StepLimit("the Pluto non-trivial search"));
        }
        let mut with_extra = ilp.clone();
        if let (Some(best), Better::ZeroFirst) = (&self.best, self.better) {
            // A later solution must zero the first bound term `best` left
            // non-zero (and so every one before it).
            for &s in self.significant {
                with_extra.require(ConstraintKind::Eq, Lin::var(s));
                if best[s] != 0 {
                    break;
                }
            }
        }
        let Some(sol) = with_extra.integer_lexmin()? else {
            return Ok(Flow::Go);
        };
        if let (Some(best), Better::Smaller) = (&self.best, self.better) {
            let terms = |v: &[i64]| self.significant.iter().map(|&s| v[s]).collect::<Vec<_>>();
            if terms(&sol) >= terms(best) {
                return Ok(Flow::Go); // nothing below this case is better
            }
        }
        let trivial = self.regions.iter().find(|(node, rows)| {
            rows.iter().all(|row| {
                let v: i128 = row
                    .iter()
                    .enumerate()
                    .map(|(j, &a)| {
                        let (m, p) = self.vars[*node].iter[j];
                        i128::from(a) * (i128::from(sol[p]) - i128::from(sol[m]))
                    })
                    .sum();
                v == 0
            })
        });
        let Some((node, rows)) = trivial else {
            let done = self.significant.iter().all(|&s| sol[s] == 0);
            self.best = Some(sol);
            return Ok(if done { Flow::Stop } else { Flow::Go });
        };
        let mut prefix = ilp.clone();
        for row in rows {
            let value = self.vars[*node].along(row)?;
            for sign in [1, -1] {
                let mut case = prefix.clone();
                case.require(ConstraintKind::Ineq, value.scale(sign)?.with_constant(-1));
                if let Flow::Stop = self.visit(&case)? {
                    return Ok(Flow::Stop);
                }
            }
            prefix.require(ConstraintKind::Eq, value);
        }
        Ok(Flow::Go)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auto::graph::{graph_of, graph_with_rar_of, SEIDEL_2D};

    #[test]
    fn matrix_multiplication_is_one_band_with_two_coincident_members() {
        let g = graph_of(
            "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    for (k = 0; k < n; k++)\n\
               C[i][j] = C[i][j] + A[i][k] * B[k][j];",
            "int n, double A[n][n], double B[n][n], double C[n][n]",
        );
        let active: Vec<usize> = (0..g.edges.len()).collect();
        let band = pluto_band(&g, &active, &[vec![]], Wavefront::Never).unwrap();
        let rows: Vec<(Vec<i64>, bool)> = band
            .iter()
            .map(|m| (m.rows[0].iter.clone(), m.coincident))
            .collect();
        assert_eq!(
            rows,
            vec![
                (vec![1, 0, 0], true),
                (vec![0, 1, 0], true),
                (vec![0, 0, 1], false)
            ]
        );
    }

    #[test]
    fn proximity_alone_gives_the_reports_example_12() {
        // Report Example 12: only the proximity pairs S[i, j] -> S[1 + i, j]
        // (read after read). The search finds `i` (m = 1) first, then,
        // asked for m = 0, `j`: the first member is `j`, then `i`.
        let g = graph_with_rar_of(
            "for (i = 0; i < 10; i++)\n  for (j = 0; j <= 10; j++)\n\
               B[i][j] = A[i][j] + A[i + 1][j];",
            "double A[11][11], double B[10][11]",
        );
        assert!(g.edges.iter().all(|e| !e.validity));
        let active: Vec<usize> = (0..g.edges.len()).collect();
        let band = pluto_band(&g, &active, &[vec![]], Wavefront::Never).unwrap();
        let rows: Vec<Vec<i64>> = band.iter().map(|m| m.rows[0].iter.clone()).collect();
        assert_eq!(rows, vec![vec![0, 1], vec![1, 0]]);
    }

    #[test]
    fn seidel_after_its_feautrier_row_has_a_coincident_band_t_i() {
        // Report Example 11: after 4t + 2i + j carried everything, the
        // band is [t, i], both coincident.
        let g = graph_of(SEIDEL_2D.0, SEIDEL_2D.1);
        let band = pluto_band(&g, &[], &[vec![vec![4, 2, 1]]], Wavefront::Never).unwrap();
        let rows: Vec<(Vec<i64>, bool)> = band
            .iter()
            .map(|m| (m.rows[0].iter.clone(), m.coincident))
            .collect();
        assert_eq!(rows, vec![(vec![1, 0, 0], true), (vec![0, 1, 0], true)]);
    }

    #[test]
    fn a_stencil_with_no_outer_coincidence_gives_an_empty_forced_band() {
        let g = graph_of(SEIDEL_2D.0, SEIDEL_2D.1);
        let active: Vec<usize> = (0..g.edges.len()).collect();
        assert!(pluto_band(&g, &active, &[vec![]], Wavefront::Never)
            .unwrap()
            .is_empty());
        // Unforced, plain Pluto skews: a permutable band of three members.
        let band = pluto_band(&g, &active, &[vec![]], Wavefront::Always).unwrap();
        assert_eq!(band.len(), 3);
        assert!(band.iter().all(|m| !m.coincident));
    }
}
