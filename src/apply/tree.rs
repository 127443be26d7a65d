//! The loop tree as β-vectors: which schedule pieces a β-vector addresses,
//! and β normalisation (dense, 0-based at every level) as Clay does it
//! after each directive.

use std::collections::BTreeMap;

use super::ApplyError;
use crate::poly::{BasicMap, ConstraintKind};
use crate::scop::schedule::beta_date;
use crate::scop::schedule::constant_date;
use crate::scop::{Schedule, StatementSchedule};

/// One piece of one statement's schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PieceRef {
    pub statement: usize,
    pub piece: usize,
}

/// The β-vector of every piece, in statement then piece order. A β date
/// that is not a constant is a broken schedule (an internal error).
pub fn all_betas(schedule: &Schedule) -> Result<Vec<(PieceRef, Vec<i64>)>, ApplyError> {
    let mut out = Vec::new();
    for (s, st) in schedule.statements.iter().enumerate() {
        for p in 0..st.pieces.len() {
            let b = st.beta(p).ok_or_else(|| {
                ApplyError::precondition(format!(
                    "the schedule of statement {s} has a β date that is not a constant"
                ))
            })?;
            out.push((
                PieceRef {
                    statement: s,
                    piece: p,
                },
                b,
            ));
        }
    }
    Ok(out)
}

/// The pieces whose β-vector starts with `prefix`; an error naming the
/// β-vector when there is none.
pub fn under(schedule: &Schedule, prefix: &[i64]) -> Result<Vec<PieceRef>, ApplyError> {
    let found: Vec<PieceRef> = all_betas(schedule)?
        .into_iter()
        .filter(|(_, b)| b.starts_with(prefix))
        .map(|(r, _)| r)
        .collect();
    if found.is_empty() {
        return Err(
            ApplyError::precondition(format!("no statement or loop at β {prefix:?}")).with_help(
                "β-vectors are 0-based textual positions; `--emit schedule-text` shows them",
            ),
        );
    }
    Ok(found)
}

/// Renumber every β level densely from 0, keeping the order (Clay's
/// normalisation). Exact; cheap.
pub fn normalize(schedule: &mut Schedule) -> Result<(), ApplyError> {
    let betas = all_betas(schedule)?;
    let depth = betas.iter().map(|(_, b)| b.len()).max().unwrap_or(0);
    let mut renamed: Vec<(PieceRef, Vec<i64>)> = betas.clone();
    for k in 0..depth {
        // Group by the (already renumbered) prefix; rank the values at k.
        let mut groups: BTreeMap<Vec<i64>, Vec<i64>> = BTreeMap::new();
        for (_, b) in renamed.iter().filter(|(_, b)| b.len() > k) {
            groups.entry(b[..k].to_vec()).or_default().push(b[k]);
        }
        for values in groups.values_mut() {
            values.sort_unstable();
            values.dedup();
        }
        for (_, b) in renamed.iter_mut().filter(|(_, b)| b.len() > k) {
            let values = &groups[&b[..k]];
            let rank = values.iter().position(|&v| v == b[k]).unwrap_or(0);
            b[k] =
                i64::try_from(rank).map_err(|_| ApplyError::precondition("too many siblings"))?;
        }
    }
    for ((r, old), (_, new)) in betas.iter().zip(&renamed) {
        for (k, (&o, &n)) in old.iter().zip(new).enumerate() {
            if o != n {
                let st: &mut StatementSchedule = &mut schedule.statements[r.statement];
                st.pieces[r.piece] = set_constant_date(&st.pieces[r.piece], beta_date(k), n);
            }
        }
    }
    Ok(())
}

/// That the β-vectors form a tree: no piece's β-vector is a proper prefix
/// of another's (a statement where a loop is), and no two statements share
/// one (a piece of a statement split by `iss` may share its own
/// statement's). Exact; cheap: a sort of the β-vectors.
pub fn check_tree(schedule: &Schedule) -> Result<(), ApplyError> {
    let mut betas = all_betas(schedule)?;
    betas.sort_by(|(_, a), (_, b)| a.cmp(b));
    // Sorted, a β-vector that is a prefix of another is followed by one.
    for pair in betas.windows(2) {
        let ((r, a), (s, b)) = (&pair[0], &pair[1]);
        let clash = if a == b {
            r.statement != s.statement
        } else {
            b.starts_with(a)
        };
        if clash {
            return Err(ApplyError::precondition(format!(
                "statement S{} would sit at β {a:?}, where {} S{} is",
                r.statement,
                if a == b {
                    "statement"
                } else {
                    "a loop holding"
                },
                s.statement
            ))
            .with_help("each β-vector names one statement or one loop; move one of them first"));
        }
    }
    Ok(())
}

/// Clay's `clay_beta_shift_after(beta, depth)`: every piece whose β-vector
/// comes strictly after `beta` (compared on their common prefix; pieces
/// under `beta` are not after it) and has a β at position `depth - 1` gets
/// that β one higher. Everything after `beta` inside the loop at depth
/// `depth - 1` moves to a new loop at depth `depth` right after it; what
/// lies elsewhere keeps its order.
pub fn shift_after(
    schedule: &Schedule,
    reference: &[i64],
    depth: usize,
) -> Result<Schedule, ApplyError> {
    let mut next = schedule.clone();
    let Some(at) = depth.checked_sub(1) else {
        return Ok(next);
    };
    for (r, b) in all_betas(schedule)? {
        let after = reference
            .iter()
            .zip(&b)
            .find(|(x, y)| x != y)
            .is_some_and(|(x, y)| y > x);
        if after && b.len() > at {
            let value = b[at]
                .checked_add(1)
                .ok_or(crate::poly::PolyError::Overflow)?;
            let piece = &mut next.statements[r.statement].pieces[r.piece];
            *piece = set_constant_date(piece, beta_date(at), value);
        }
    }
    Ok(next)
}

/// `piece` with date `d`, fixed to a constant by an equality, fixed to
/// `value` instead.
pub fn set_constant_date(piece: &BasicMap, d: usize, value: i64) -> BasicMap {
    let col = piece.space().out_col(d);
    let mut rows = piece.constraints().to_vec();
    for r in &mut rows {
        let only = r.kind == ConstraintKind::Eq
            && r.coeffs[col].abs() == 1
            && r.coeffs
                .iter()
                .enumerate()
                .all(|(k, &v)| k == col || v == 0);
        if only {
            // ±(date) + c = 0 with date = value.
            r.constant = -r.coeffs[col] * value;
        }
    }
    debug_assert!(constant_date(piece, d).is_some());
    BasicMap::from_columns(piece.space().clone(), piece.n_local(), rows)
}
