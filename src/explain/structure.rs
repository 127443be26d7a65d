//! The structure phase of the recovery: the β-vectors, the loop tree.
//!
//! From the root down, per loop (or the root): a child that holds
//! statements the target puts in different children is split where they
//! change (`split` after the last statement of each run), the children
//! are put in the order of the target's children they belong to
//! (`reorder`), and the children that make one target child are fused
//! (`fuse` of the first, once per other). Then the same inside each
//! target child. β-vectors are dense after every directive, so at the end
//! each statement's β is the target's; where they are already grouped as
//! the target's, nothing is given.

use super::{ExplainError, Recovery};
use crate::apply::Directive;
use crate::scop::Schedule;

/// Each statement's β-vector (its first piece's), or `None` when one is
/// not constant.
fn betas(schedule: &Schedule) -> Option<Vec<Vec<i64>>> {
    schedule.statements.iter().map(|s| s.beta(0)).collect()
}

/// The statements in textual order of `betas`.
fn textual_order(betas: &[Vec<i64>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..betas.len()).collect();
    order.sort_by(|&a, &b| betas[a].cmp(&betas[b]));
    order
}

/// Rewrites the current schedule's tree into the target's (`wanted`: each
/// statement's β-vector).
pub(super) fn recover(r: &mut Recovery<'_>, wanted: &[Vec<i64>]) -> Result<(), ExplainError> {
    rebuild(r, wanted, &[])?;
    if betas(&r.current).as_deref() != Some(wanted) {
        return Err(ExplainError::NotReplayed(
            "give another loop tree than the target's".to_string(),
        ));
    }
    Ok(())
}

fn not_constant(which: &str) -> ExplainError {
    ExplainError::NotReplayed(format!("meet a {which} β date that is not a constant"))
}

/// The statements under `prefix` grouped by their child of it, in the
/// children's order.
fn children(betas: &[Vec<i64>], prefix: &[i64]) -> Vec<Vec<usize>> {
    let level = prefix.len();
    let mut groups: Vec<(i64, Vec<usize>)> = Vec::new();
    for s in textual_order(betas) {
        let b = &betas[s];
        if b.len() <= level || !b.starts_with(prefix) {
            continue;
        }
        match groups.iter_mut().find(|(c, _)| *c == b[level]) {
            Some((_, members)) => members.push(s),
            None => groups.push((b[level], vec![s])),
        }
    }
    groups.sort_unstable();
    groups.into_iter().map(|(_, members)| members).collect()
}

/// Makes the subtree `prefix` (the same in the current tree and the
/// target's) the target's, level by level: the children that hold
/// statements of different target children are split where those change,
/// the children put in the target's order (`reorder`), the ones that
/// make one target child fused, and the same inside each.
fn rebuild(r: &mut Recovery<'_>, wanted: &[Vec<i64>], prefix: &[i64]) -> Result<(), ExplainError> {
    let want = children(wanted, prefix);
    let group_of = |s: usize| want.iter().position(|g| g.contains(&s));
    // Split each child where its next statement goes to another group.
    loop {
        let now = betas(&r.current).ok_or_else(|| not_constant("current"))?;
        let cut = children(&now, prefix).into_iter().find_map(|members| {
            members
                .windows(2)
                .find(|w| group_of(w[0]) != group_of(w[1]))
                .map(|w| w[0])
        });
        let Some(s) = cut else { break };
        r.push(Directive::Split {
            beta: now[s].clone(),
            depth: prefix.len() + 1,
        })?;
    }
    // Each child now holds statements of one group: order the children by
    // group (stably), then fuse each group's.
    let now = betas(&r.current).ok_or_else(|| not_constant("current"))?;
    let have = children(&now, prefix);
    let mut by_group: Vec<(usize, usize)> = have
        .iter()
        .enumerate()
        .map(|(x, members)| (group_of(members[0]).unwrap_or(usize::MAX), x))
        .collect();
    by_group.sort_unstable();
    let mut order = vec![0i64; have.len()];
    for (position, &(_, x)) in by_group.iter().enumerate() {
        order[x] = i64::try_from(position).unwrap_or(i64::MAX);
    }
    if order.iter().enumerate().any(|(x, &o)| o != x as i64) {
        r.push(Directive::Reorder {
            beta: prefix.to_vec(),
            order,
        })?;
    }
    for (j, members) in want.iter().enumerate() {
        let mut child = prefix.to_vec();
        child.push(i64::try_from(j).unwrap_or(i64::MAX));
        let parts = by_group.iter().filter(|(g, _)| *g == j).count();
        for _ in 1..parts {
            r.push(Directive::Fuse {
                beta: child.clone(),
            })?;
        }
        if members.len() > 1 {
            rebuild(r, wanted, &child)?;
        }
    }
    Ok(())
}
