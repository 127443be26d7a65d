//! Loop nests that share the reads of an array: which of a level's
//! statements walk one array in the same way, so that one band over them
//! reads it once instead of once per nest.
//!
//! Two nests that each read a large array (bicg's `s[j] += r[i] * A[i][j]`
//! and `q[i] += A[i][j] * p[j]`, mvt's `A[i][j]` and `A[j][i]`, atax's row
//! sums and the column sums that read them) bring it from memory twice
//! when they run one after the other, as the scheduler leaves independent
//! components, and as clustering leaves clusters whose merged band would
//! lose a member. Fused in one band, each element is read once for both,
//! at the price of the band's parallelism: its members are coincident only
//! where they are for every statement, usually nowhere (bicg's `i` carries
//! the sum into `s[j]`, its `j` the sum into `q[i]`). Measured on the
//! Intel Xeon, 2 cores: bicg 0.74× → 1.51× of gcc on one thread, mvt 1.61×
//! → 3.13×, atax 0.8× → 2×, and on two threads no slower than the parallel
//! nests were (each kernel streams its matrix from memory, and two cores
//! share that bandwidth); a wavefront of the fused band's tiles, which
//! walks the matrix across its rows, ran 6× slower (docs/performance.md).
//! So the fused band runs in order.
//!
//! This module finds the statements and the order of their loops (the
//! array's subscripts, outermost first); the driver ([`super::scheduler`])
//! checks that each statement's own band allows that order and how many
//! members the dependences between them allow.

use super::locality::subscript_rows;
use crate::scop::{AccessKind, Scop};

/// How a statement reads an array with every one of its loops: subscript
/// `m` is the statement's iterator `order[m]` (plus a constant), and each
/// iterator is one subscript (`A[i][j]`: `[0, 1]`; `A[j][i]`: `[1, 0]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WholeRead {
    pub array: String,
    pub order: Vec<usize>,
}

/// The reads of statement `s` that use each of its iterators once, as one
/// subscript of its own, in access order; none for a statement of fewer
/// than two loops (one loop: no order to share). Cheap: a scan of the
/// accesses' equalities.
pub(crate) fn whole_reads(scop: &Scop, s: usize) -> Vec<WholeRead> {
    let statement = &scop.statements[s];
    let n = statement.iterators.len();
    if n < 2 {
        return Vec::new();
    }
    let mut reads = Vec::new();
    for access in &statement.accesses {
        if access.kind != AccessKind::Read {
            continue;
        }
        let Some(rows) = subscript_rows(&access.relation, n) else {
            continue;
        };
        if rows.len() != n {
            continue;
        }
        let order: Option<Vec<usize>> = rows.iter().map(|r| unit_index(r)).collect();
        let Some(order) = order else {
            continue;
        };
        let mut seen = vec![false; n];
        if order
            .iter()
            .all(|&k| !std::mem::replace(&mut seen[k], true))
        {
            let read = WholeRead {
                array: access.array.clone(),
                order,
            };
            if !reads.contains(&read) {
                reads.push(read);
            }
        }
    }
    reads
}

/// The index of the only non-zero entry of `row`, when it is 1.
pub(crate) fn unit_index(row: &[i64]) -> Option<usize> {
    let mut nonzero = row.iter().enumerate().filter(|(_, &c)| c != 0);
    match (nonzero.next(), nonzero.next()) {
        (Some((k, 1)), None) => Some(k),
        _ => None,
    }
}

/// Among `candidates` (statements, each alone in its component, with
/// their whole reads), the largest set of two or more with the same
/// number of loops that read one array, each with its order of loops for
/// it; the first array found on a tie. `None` when no two share one.
pub(crate) fn largest_sharing(
    candidates: &[(usize, usize, Vec<WholeRead>)],
) -> Option<Vec<(usize, Vec<usize>)>> {
    let mut best: Option<Vec<(usize, Vec<usize>)>> = None;
    for (_, loops, reads) in candidates {
        for read in reads {
            let group: Vec<(usize, Vec<usize>)> = candidates
                .iter()
                .filter(|(_, l, _)| l == loops)
                .filter_map(|(t, _, rs)| {
                    let r = rs.iter().find(|r| r.array == read.array)?;
                    Some((*t, r.order.clone()))
                })
                .collect();
            if group.len() >= 2 && best.as_ref().is_none_or(|b| group.len() > b.len()) {
                best = Some(group);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::c::read_source;

    fn scop(name: &str) -> Scop {
        let path = format!("tests/kernels/{name}.c");
        let file = read_source(&path, std::fs::read_to_string(&path).unwrap()).unwrap();
        file.scops[0].clone()
    }

    #[test]
    fn a_read_with_every_loop_as_a_subscript_is_whole() {
        let mvt = scop("mvt");
        let whole = |s| whole_reads(&mvt, s);
        assert_eq!(
            whole(0),
            vec![WholeRead {
                array: "A".into(),
                order: vec![0, 1]
            }]
        );
        assert_eq!(
            whole(1),
            vec![WholeRead {
                array: "A".into(),
                order: vec![1, 0]
            }]
        );
        // gemm's update reads `A[i][k]` and `B[k][j]` with two of its
        // three loops: no read is whole.
        let gemm = scop("gemm");
        assert!(whole_reads(&gemm, 1).is_empty());
    }

    #[test]
    fn the_largest_set_reading_one_array_is_kept() {
        let read = |array: &str, order: Vec<usize>| WholeRead {
            array: array.into(),
            order,
        };
        let candidates = vec![
            (0, 2, vec![read("B", vec![0, 1])]),
            (1, 2, vec![read("A", vec![0, 1]), read("B", vec![1, 0])]),
            (2, 2, vec![read("A", vec![1, 0])]),
            (3, 2, vec![read("A", vec![0, 1])]),
            (4, 3, vec![read("A", vec![0, 1, 2])]),
        ];
        assert_eq!(
            largest_sharing(&candidates),
            Some(vec![(1, vec![0, 1]), (2, vec![1, 0]), (3, vec![0, 1])])
        );
        assert_eq!(largest_sharing(&candidates[..1]), None);
    }
}
