//! The directives that change only β-vectors (the textual order and the
//! loop structure): `reorder`, `split` (fission), `fuse`.

use super::dates::beta as beta_date;
use super::tree::{all_betas, set_constant_date, under};
use super::ApplyError;
use crate::scop::Schedule;

/// `schedule` with each piece's β-vector replaced by `f(β)` where it gives one.
fn rewrite_betas(
    schedule: &Schedule,
    f: impl Fn(&[i64]) -> Option<Vec<i64>>,
) -> Result<Schedule, ApplyError> {
    let mut next = schedule.clone();
    for (r, old) in all_betas(schedule)? {
        if let Some(new) = f(&old) {
            let piece = &mut next.statements[r.statement].pieces[r.piece];
            for (k, (&o, &n)) in old.iter().zip(&new).enumerate() {
                if o != n {
                    *piece = set_constant_date(piece, beta_date(k), n);
                }
            }
        }
    }
    Ok(next)
}

/// The number of children of the loop (or root) `beta`: the distinct
/// values of `β[len]` under it.
fn children(schedule: &Schedule, beta: &[i64]) -> Result<Vec<i64>, ApplyError> {
    let mut values: Vec<i64> = all_betas(schedule)?
        .into_iter()
        .filter(|(_, b)| b.len() > beta.len() && b.starts_with(beta))
        .map(|(_, b)| b[beta.len()])
        .collect();
    values.sort_unstable();
    values.dedup();
    Ok(values)
}

/// Child `x` of loop `beta` moves to position `order[x]`.
pub fn reorder(schedule: &Schedule, beta: &[i64], order: &[i64]) -> Result<Schedule, ApplyError> {
    if !beta.is_empty() {
        under(schedule, beta)?;
    }
    let kids = children(schedule, beta)?;
    if kids.is_empty() {
        return Err(ApplyError::precondition(format!(
            "reorder: {beta:?} is a statement, not a loop; it has no children to reorder"
        )));
    }
    let mut sorted = order.to_vec();
    sorted.sort_unstable();
    let n = i64::try_from(kids.len()).unwrap_or(i64::MAX);
    if sorted != (0..n).collect::<Vec<_>>() {
        return Err(ApplyError::precondition(format!(
            "reorder: the new order must be a permutation of 0..{} (the loop has {} children), not {order:?}",
            n - 1,
            kids.len()
        )));
    }
    let at = beta.len();
    rewrite_betas(schedule, |b| {
        if b.len() > at && b.starts_with(beta) {
            let x = kids.iter().position(|&v| v == b[at])?;
            let mut new = b.to_vec();
            new[at] = order[x];
            Some(new)
        } else {
            None
        }
    })
}

/// Split the loop at `depth` enclosing `beta` after `beta`: the children
/// after it move to a new loop right after this one.
pub fn split(schedule: &Schedule, beta: &[i64], depth: usize) -> Result<Schedule, ApplyError> {
    under(schedule, beta)?;
    if depth == 0 || beta.len() <= depth {
        return Err(ApplyError::precondition(format!(
            "split: {beta:?} is not inside a loop at depth {depth}"
        ))
        .with_help("the β-vector must be longer than the depth: it names a child of that loop"));
    }
    let (parent, loop_pos, child) = (&beta[..depth - 1], beta[depth - 1], beta[depth]);
    let last = children(schedule, &beta[..depth])?
        .last()
        .copied()
        .unwrap_or(child);
    if child == last {
        return Err(ApplyError::precondition(format!(
            "split: nothing follows {beta:?} in the loop at depth {depth}; there is nothing to split off"
        )));
    }
    rewrite_betas(schedule, |b| {
        if b.len() < depth || !b.starts_with(parent) {
            return None;
        }
        let mut new = b.to_vec();
        if b[depth - 1] > loop_pos {
            // Later siblings of the loop make room for the new one.
            new[depth - 1] += 1;
        } else if b[depth - 1] == loop_pos && b.len() > depth && b[depth] > child {
            new[depth - 1] += 1;
        } else {
            return None;
        }
        Some(new)
    })
}

/// Merge the loop after `beta` into loop `beta`; its children come after
/// `beta`'s.
pub fn fuse(schedule: &Schedule, beta: &[i64]) -> Result<Schedule, ApplyError> {
    under(schedule, beta)?;
    let Some((&pos, parent)) = beta.split_last() else {
        return Err(ApplyError::precondition(
            "fuse: the root is not a loop; name a loop",
        ));
    };
    let depth = beta.len();
    let own = children(schedule, beta)?;
    if own.is_empty() {
        return Err(ApplyError::precondition(format!(
            "fuse: {beta:?} is a statement, not a loop"
        )));
    }
    let mut next_beta = parent.to_vec();
    next_beta.push(pos + 1);
    let theirs = children(schedule, &next_beta)?;
    if theirs.is_empty() {
        return Err(ApplyError::precondition(format!(
            "fuse: no loop follows {beta:?} at depth {depth}"
        ))
        .with_help("fuse merges a loop with the next loop at the same depth"));
    }
    let offset = own.last().copied().unwrap_or(0) + 1;
    rewrite_betas(schedule, |b| {
        if b.len() <= depth || !b.starts_with(&next_beta) {
            return None;
        }
        let mut new = b.to_vec();
        new[depth - 1] = pos;
        new[depth] += offset;
        Some(new)
    })
}
