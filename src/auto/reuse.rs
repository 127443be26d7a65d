//! The reuse the spatial scheduler keeps close (Zinenko et al., CC'18,
//! §4): per statement, one group per array and access pattern, with the
//! directions along which its instances touch the same element (temporal
//! reuse) or the next elements of one cache line (spatial reuse).
//!
//! The paper states the reuse as relations between instances, adjacent in
//! the original order, and bounds the schedule's distance along them by
//! Farkas' lemma. Only the directions of those relations matter to the
//! choice of a row, and they are linear algebra on the subscripts `F` of
//! the group's accesses:
//!
//! * **temporal**: the moves `d` with `F·d = 0` (an integer basis of the
//!   null space; a row `c` keeps the reuse inside one iteration when
//!   `c·d = 0` for every basis move);
//! * **spatial**: the one move `d` with every subscript but the last fixed
//!   and the last moving by less than a line (`0 < |f_last·d| < C`, `C`
//!   the line in elements), taken orthogonal to the temporal moves: that
//!   is the paper's *access completion*, which keeps `B[k][j]` in
//!   `i, j, k` from relating the end of one row to the start of the next
//!   `i`. The move is lexicographically positive: the direction in which
//!   the original program runs through the line (`B[i][n − 1 − j]` walks
//!   along `j`, backwards through memory).
//!
//! A group's accesses share their iterator coefficients; constants, and
//! the accesses' kinds, may differ (`A[i][j]`, `A[i][j + 2]`). Their
//! number is the group's multiplicity (a compound assignment counts
//! twice). Scalars, and accesses that are not affine functions of the
//! iterators, have no group.
//!
//! All of this is a cost model: exact integer arithmetic, but no answer
//! here decides legality (the validity edges and the final check do).

use super::independence::{independence_rows, rank};
use super::locality::subscript_rows;
use crate::poly::PolyError;
use crate::scop::{element_bytes, Scop};

/// One statement's accesses to one array with one pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ReuseGroup {
    /// The statement (a node of the scheduler's graph).
    pub node: usize,
    /// The subscripts' iterator coefficients, outermost subscript first.
    pub subscripts: Vec<Vec<i64>>,
    /// How many accesses of the statement have this pattern.
    pub multiplicity: usize,
    /// The temporal moves not yet carried: a basis of the null space of the
    /// subscripts and of the rows so far.
    pub temporal: Vec<Vec<i64>>,
    /// The spatial move, while no row so far carries it.
    pub spatial: Option<Vec<i64>>,
    /// How many subscripts the rows so far leave free (the paper's rank):
    /// `rank [rows; F] − rank rows`.
    pub rank: usize,
}

/// The reuse groups of statement `s` of `scop`, before any row, with a
/// cache line of `line` bytes (elements of unknown size count 8 bytes).
pub(crate) fn reuse_groups(scop: &Scop, s: usize, line: i64) -> Result<Vec<ReuseGroup>, PolyError> {
    let statement = &scop.statements[s];
    let n = statement.iterators.len();
    let mut groups: Vec<(String, ReuseGroup)> = Vec::new();
    for access in &statement.accesses {
        let Some(subscripts) = subscript_rows(&access.relation, n) else {
            continue;
        };
        if subscripts.is_empty() {
            continue; // a scalar: its place in memory is not known
        }
        if let Some((_, g)) = groups
            .iter_mut()
            .find(|(array, g)| *array == access.array && g.subscripts == subscripts)
        {
            g.multiplicity += 1;
            continue;
        }
        let bytes = scop
            .arrays
            .iter()
            .find(|a| a.name == access.array)
            .and_then(|a| a.element_type.as_deref())
            .and_then(element_bytes)
            .unwrap_or(8);
        let elements = line / i64::try_from(bytes).map_err(|_| PolyError::Overflow)?;
        let temporal = independence_rows(&subscripts, n)?;
        let spatial = spatial_move(&subscripts, &temporal, n, elements)?;
        let rank = rank(&subscripts, n)?;
        groups.push((
            access.array.clone(),
            ReuseGroup {
                node: s,
                subscripts,
                multiplicity: 1,
                temporal,
                spatial,
                rank,
            },
        ));
    }
    Ok(groups.into_iter().map(|(_, g)| g).collect())
}

/// The move along a line of `elements` cells (module doc), if any.
fn spatial_move(
    subscripts: &[Vec<i64>],
    temporal: &[Vec<i64>],
    n: usize,
    elements: i64,
) -> Result<Option<Vec<i64>>, PolyError> {
    let Some((last, outer)) = subscripts.split_last() else {
        return Ok(None);
    };
    let fixed: Vec<Vec<i64>> = outer.iter().chain(temporal).cloned().collect();
    let moves = independence_rows(&fixed, n)?;
    let [d] = moves.as_slice() else {
        return Ok(None);
    };
    let step = dot(last, d)?;
    if step == 0 || step.abs() >= elements {
        return Ok(None);
    }
    Ok(Some(d.clone()))
}

/// `a · b`, checked.
pub(crate) fn dot(a: &[i64], b: &[i64]) -> Result<i64, PolyError> {
    a.iter().zip(b).try_fold(0i64, |acc, (&x, &y)| {
        x.checked_mul(y)
            .and_then(|p| acc.checked_add(p))
            .ok_or(PolyError::Overflow)
    })
}

impl ReuseGroup {
    /// The group once its statement has the rows `rows` (iterator
    /// coefficients, outermost first; every row so far, not only new
    /// ones): temporal moves within them, the spatial move while none
    /// carries it, the subscripts they leave free. Exact.
    pub fn after(&self, rows: &[Vec<i64>]) -> Result<ReuseGroup, PolyError> {
        let n = self.subscripts.first().map_or(0, Vec::len);
        let both: Vec<Vec<i64>> = self.subscripts.iter().chain(rows).cloned().collect();
        let temporal = independence_rows(&both, n)?;
        let mut spatial = self.spatial.clone();
        if let Some(d) = &spatial {
            for row in rows {
                if dot(row, d)? != 0 {
                    spatial = None;
                    break;
                }
            }
        }
        Ok(ReuseGroup {
            temporal,
            spatial,
            rank: rank(&both, n)? - rank(rows, n)?,
            ..self.clone()
        })
    }
}

/// The paper's register pressure of the statements `nodes` (§4.6): per
/// statement, each distinct access (array, subscripts and constants)
/// weighs the statement's number of loops.
pub(crate) fn register_pressure(scop: &Scop, nodes: &[usize]) -> usize {
    let mut h = 0;
    for &s in nodes {
        let statement = &scop.statements[s];
        let mut seen: Vec<(&str, String)> = Vec::new();
        for access in &statement.accesses {
            let key = (access.array.as_str(), access.relation.to_string());
            if !seen.contains(&key) {
                seen.push(key);
                h += statement.iterators.len();
            }
        }
    }
    h
}

/// The groups of `groups` in the order the spatial scheduler weighs them:
/// more free subscripts first, then more accesses, then as given.
pub(crate) fn weighing_order(groups: &[ReuseGroup]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&g| {
        (
            std::cmp::Reverse(groups[g].rank),
            std::cmp::Reverse(groups[g].multiplicity),
        )
    });
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::c::read_source;

    fn scop_of(body: &str, params: &str) -> Scop {
        let src = format!("void f({params}) {{\n#pragma scop\n{body}\n#pragma endscop\n}}\n");
        read_source("f.c", src).unwrap().scops.remove(0)
    }

    const MATMUL: (&str, &str) = (
        "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    for (k = 0; k < n; k++)\n\
           C[i][j] = C[i][j] + A[i][k] * B[k][j];",
        "int n, double A[n][n], double B[n][n], double C[n][n]",
    );

    #[test]
    fn matmul_has_three_groups_with_the_papers_ranks_and_multiplicities() {
        let scop = scop_of(MATMUL.0, MATMUL.1);
        let groups = reuse_groups(&scop, 0, 64).unwrap();
        let group = |subscripts: Vec<Vec<i64>>, multiplicity, temporal, spatial| ReuseGroup {
            node: 0,
            subscripts,
            multiplicity,
            temporal,
            spatial,
            rank: 2,
        };
        assert_eq!(
            groups,
            vec![
                // C[i][j], read and written: temporal along k, spatial along j.
                group(
                    vec![vec![1, 0, 0], vec![0, 1, 0]],
                    2,
                    vec![vec![0, 0, 1]],
                    Some(vec![0, 1, 0])
                ),
                // A[i][k]: temporal along j, spatial along k.
                group(
                    vec![vec![1, 0, 0], vec![0, 0, 1]],
                    1,
                    vec![vec![0, 1, 0]],
                    Some(vec![0, 0, 1])
                ),
                // B[k][j]: temporal along i, spatial along j only (completion).
                group(
                    vec![vec![0, 0, 1], vec![0, 1, 0]],
                    1,
                    vec![vec![1, 0, 0]],
                    Some(vec![0, 1, 0])
                ),
            ]
        );
        // The paper's order: C (multiplicity 2) first, then A and B.
        assert_eq!(weighing_order(&groups), vec![0, 1, 2]);
        // After row `i`: ranks (1, 1, 2) for C, A, B; order B, C, A.
        let after: Vec<ReuseGroup> = groups
            .iter()
            .map(|g| g.after(&[vec![1, 0, 0]]).unwrap())
            .collect();
        let ranks: Vec<usize> = after.iter().map(|g| g.rank).collect();
        assert_eq!(ranks, vec![1, 1, 2]);
        assert_eq!(weighing_order(&after), vec![2, 0, 1]);
    }

    #[test]
    fn accesses_of_one_pattern_share_a_group_and_others_are_apart() {
        // CC'18 §4.2's separation: B[i][j] and B[i - 1][j] are one group
        // (the constants differ); D[i][k] and D[i][j] two (the patterns).
        let scop = scop_of(
            "for (i = 1; i < n; i++)\n  for (j = 0; j < n; j++)\n\
               A[i][j] = A[i][j] + B[i][j] + B[i - 1][j];\n\
             for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    for (k = 0; k < n; k++)\n\
               C[i][j] = C[i][j] + D[i][k] * D[i][j];",
            "int n, double A[n][n], double B[n][n], double C[n][n], double D[n][n]",
        );
        let counts = |s: usize| -> Vec<usize> {
            reuse_groups(&scop, s, 64)
                .unwrap()
                .iter()
                .map(|g| g.multiplicity)
                .collect()
        };
        assert_eq!(counts(0), vec![2, 2]); // A; B
        assert_eq!(counts(1), vec![2, 1, 1]); // C; D[i][k]; D[i][j]
    }

    #[test]
    fn a_stride_of_a_line_or_more_has_no_spatial_reuse() {
        // CC'18 §4.1: with lines of 4 elements, A[5i] has none; A[2i] has.
        let scop = scop_of(
            "for (i = 0; i < n; i++)\n  B[i] = A[5 * i] + A[2 * i];",
            "int n, double A[5 * n], double B[n]",
        );
        let groups = reuse_groups(&scop, 0, 32).unwrap();
        let spatial: Vec<Option<Vec<i64>>> = groups.iter().map(|g| g.spatial.clone()).collect();
        assert_eq!(spatial, vec![Some(vec![1]), None, Some(vec![1])]);
    }

    #[test]
    fn a_carried_spatial_move_is_gone_and_temporal_moves_shrink() {
        let scop = scop_of(MATMUL.0, MATMUL.1);
        let groups = reuse_groups(&scop, 0, 64).unwrap();
        let a = groups[1].after(&[vec![1, 0, 0], vec![0, 0, 1]]).unwrap();
        assert_eq!(a.spatial, None);
        assert_eq!(a.temporal, vec![vec![0, 1, 0]]);
        let c = groups[0].after(&[vec![0, 0, 1]]).unwrap();
        assert!(c.temporal.is_empty());
        assert_eq!(c.spatial, Some(vec![0, 1, 0]));
    }

    #[test]
    fn register_pressure_counts_distinct_accesses_by_their_depth() {
        let scop = scop_of(MATMUL.0, MATMUL.1);
        // C[i][j] twice (one access), A, B: three accesses of depth 3.
        assert_eq!(register_pressure(&scop, &[0]), 9);
    }
}
