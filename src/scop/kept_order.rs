//! Which pairs of schedule pieces a rewrite of a legal schedule provably
//! keeps in order, so that the legality check of the rewritten schedule
//! ([`super::validity::first_violation_after`]) tests only the others.
//! The directives that move statements between loops (`split`, `fuse`,
//! `reorder`) change β dates only, and most pairs of pieces keep their
//! order: every pair inside one part of a split, every pair of statements
//! renumbered alike.
//!
//! The rule, for a dependence from a piece `p` to a piece `q` of a legal
//! schedule, both keeping their α dates (their rows other than the β
//! dates' are the same, [`same_loops`]). Dates compare as `β0, α1, β1,
//! …`. Let `j` be the first index where the old β-vectors of `p` and `q`
//! differ and `j'` the new one's. Every pair of instances keeps a correct
//! order when
//!
//! * `j' = j` and the new β dates at `j'` compare as the old ones did: the
//!   dates up to `β_j` compare as before, and the later ones never
//!   decide; or
//! * `j' <= j` (or `p`, `q` had the same β-vector) and the new `β_j'` of
//!   `p` is the smaller: a pair that differs on an α date before `β_j'`
//!   compares as before (the β dates before it are equal, old and new),
//!   and any other is decided by `β_j'`, source first.
//!
//! Two pieces with the same new β-vector keep their order when they had
//! the same old one. Anything else is not shown kept (the check runs).
//!
//! Must not know: directives; this is a property of two schedules.

use super::schedule::{beta_date, Schedule};
use crate::poly::{BasicMap, ConstraintKind};

/// For each statement and piece of a rewritten schedule, its old and new
/// β-vectors when the piece keeps its loops ([`same_loops`]); `None`
/// where it does not, or where the statement's pieces changed in number.
pub struct KeptLoops {
    betas: Vec<Vec<Option<Betas>>>,
}

/// A piece's β-vector before a rewrite and after it.
type Betas = (Vec<i64>, Vec<i64>);

impl KeptLoops {
    /// The pieces of `after` that keep the loops of `before`'s. Cheap.
    pub fn between(before: &Schedule, after: &Schedule) -> KeptLoops {
        let betas = after
            .statements
            .iter()
            .enumerate()
            .map(|(s, new)| {
                let old = before
                    .statements
                    .get(s)
                    .filter(|old| old.pieces.len() == new.pieces.len());
                (0..new.pieces.len())
                    .map(|p| {
                        let old = old?;
                        if !same_loops(&old.pieces[p], &new.pieces[p]) {
                            return None;
                        }
                        Some((old.beta(p)?, new.beta(p)?))
                    })
                    .collect()
            })
            .collect();
        KeptLoops { betas }
    }

    /// Whether every pair of instances from piece `source.1` of statement
    /// `source.0` to piece `target.1` of `target.0` keeps its order (the
    /// rule above). `false` says nothing.
    pub fn keeps(&self, source: (usize, usize), target: (usize, usize)) -> bool {
        let piece = |(s, p): (usize, usize)| self.betas.get(s).and_then(|v| v.get(p)?.as_ref());
        let (Some((old_p, new_p)), Some((old_q, new_q))) = (piece(source), piece(target)) else {
            return false;
        };
        if old_p == old_q && new_p == new_q {
            return true;
        }
        // Where one β-vector is a prefix of the other, nothing is shown.
        let first_difference = |a: &[i64], b: &[i64]| a.iter().zip(b).position(|(x, y)| x != y);
        let Some(j2) = first_difference(new_p, new_q) else {
            return false;
        };
        let old = if old_p == old_q {
            None
        } else {
            match first_difference(old_p, old_q) {
                Some(j) => Some(j),
                None => return false,
            }
        };
        let source_first = new_p[j2] < new_q[j2];
        let same_decision = old == Some(j2) && (old_p[j2] < old_q[j2]) == source_first;
        same_decision || (source_first && old.is_none_or(|j| j2 <= j))
    }
}

/// Whether two pieces have the same rows once the rows fixing their β
/// dates are set aside: the same loops, dated alike. Plain (a sort of the
/// rows); `false` says nothing.
pub fn same_loops(a: &BasicMap, b: &BasicMap) -> bool {
    // The rows other than those fixing a β date; `None` where one of them
    // reads a β date (then the loops' dates depend on the β values).
    let loops = |m: &BasicMap| -> Option<BasicMap> {
        let n_out = m.space().n_out();
        let beta_cols: Vec<usize> = (0..)
            .map(beta_date)
            .take_while(|&d| d < n_out)
            .map(|d| m.space().out_col(d))
            .collect();
        let mut rows = Vec::new();
        for c in m.constraints() {
            let on_beta: Vec<usize> = beta_cols
                .iter()
                .copied()
                .filter(|&col| c.coeffs[col] != 0)
                .collect();
            if on_beta.is_empty() {
                rows.push(c.clone());
                continue;
            }
            let nonzero = c.coeffs.iter().filter(|&&v| v != 0).count();
            if c.kind != ConstraintKind::Eq || on_beta.len() != 1 || nonzero != 1 {
                return None;
            }
        }
        Some(BasicMap::from_columns(m.space().clone(), m.n_local(), rows))
    };
    match (loops(a), loops(b)) {
        (Some(x), Some(y)) => x.plain_is_equal(&y),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::parse_basic_map;

    /// Pieces whose old and new β-vectors are given, every loop kept.
    fn kept(betas: &[(&[i64], &[i64])]) -> KeptLoops {
        KeptLoops {
            betas: betas
                .iter()
                .map(|(old, new)| vec![Some((old.to_vec(), new.to_vec()))])
                .collect(),
        }
    }

    #[test]
    fn the_rule_on_beta_vectors() {
        // `split`: S0 stays in the loop, S1 leaves it for a new one after.
        let split = kept(&[(&[0, 0], &[0, 0]), (&[0, 1], &[1, 0])]);
        // S0 → S1: decided earlier now, source first.
        assert!(split.keeps((0, 0), (1, 0)));
        // S1 → S0: was decided by α (same loop), now by β, target first.
        assert!(!split.keeps((1, 0), (0, 0)));
        // A statement with itself.
        assert!(split.keeps((1, 0), (1, 0)));
        // `fuse`: the two loops become one; pairs decided later now.
        let fuse = kept(&[(&[0, 0], &[0, 0]), (&[1, 0], &[0, 1])]);
        assert!(!fuse.keeps((0, 0), (1, 0)));
        // Renumbered alike: the same decision at the same index.
        let renumbered = kept(&[(&[1, 0], &[2, 0]), (&[1, 1], &[2, 1])]);
        assert!(renumbered.keeps((0, 0), (1, 0)));
        assert!(renumbered.keeps((1, 0), (0, 0)));
        // `reorder`: the same index, the other decision. S0 → S1 may now
        // run backward; S1 → S0 is now decided by β, source first.
        let reorder = kept(&[(&[0, 0], &[0, 1]), (&[0, 1], &[0, 0])]);
        assert!(!reorder.keeps((0, 0), (1, 0)));
        assert!(reorder.keeps((1, 0), (0, 0)));
        // A β-vector that is a prefix of the other says nothing.
        let prefix = kept(&[(&[0], &[0]), (&[0, 1], &[0, 1])]);
        assert!(!prefix.keeps((0, 0), (1, 0)));
        // A piece whose loops changed says nothing.
        let changed = KeptLoops {
            betas: vec![vec![None], vec![Some((vec![0, 1], vec![0, 1]))]],
        };
        assert!(!changed.keeps((0, 0), (1, 0)));
        assert!(!changed.keeps((2, 0), (1, 0)));
    }

    #[test]
    fn same_loops_sets_the_beta_dates_aside() {
        let a = parse_basic_map("[n] -> { S0[i] -> [0, i, 0] }").expect("parses");
        let b = parse_basic_map("[n] -> { S0[i] -> [3, i, 1] }").expect("parses");
        let c = parse_basic_map("[n] -> { S0[i] -> [0, i + 1, 0] }").expect("parses");
        assert!(same_loops(&a, &b));
        assert!(!same_loops(&a, &c));
        // A row that reads a β date: its loop's dates depend on the β.
        let d =
            parse_basic_map("[n] -> { S0[i] -> [b, t, 0] : b = 0 and t = i + b }").expect("parses");
        assert!(!same_loops(&d, &d));
    }
}
