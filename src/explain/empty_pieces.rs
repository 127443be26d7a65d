//! Pieces that hold no instance of their statement: an `iss` or `peel`
//! whose side is empty on the domain (a random recipe's `peel` of the
//! first `-2n - 3` iterations) still gives a piece, and a β date for it
//! among its loop's children.
//!
//! Such a piece says nothing of when any instance runs, so its rows need
//! no explaining; what it leaves behind is a hole in the β dates of the
//! pieces that do hold instances (seidel-2d's only real piece at β date 1
//! in the time loop, under a split-off piece of nothing at 0). Where the
//! phases leave a gap on the target as it is, the target without its
//! empty pieces, its β dates made dense, is explained instead, then each
//! hole is made again: `iss` on the constant form `0 ≥ 0` (every instance
//! goes to the second part, after the loop's children, the first part is
//! empty) until the loop has enough children, then one `reorder` puts
//! the children that hold instances at the target's β dates. A hole among
//! the outermost dates (mirror's `peel([0], {2 | -2})`, which peels
//! nothing and moves the loop to 1) is the `peel` of the whole of the
//! loop after it: `iss` on `0 ≥ 0`, then the `split` after the loop's
//! last child. The whole is
//! replayed on the real schedule and compared with the target on the
//! domains, as every explanation is.
//!
//! Must not know: recipe syntax, code generation.

use std::collections::BTreeMap;

use super::pieces::replayed_on_pieces;
use super::{explain_within, flattened, linearized, ExplainError, Explanation};
use crate::apply::tree::{all_betas, normalize, PieceRef};
use crate::apply::{Directive, SplitForm};
use crate::poly::Map;
use crate::scop::{Dependence, Schedule, Scop};

/// The explanation of `target` through its pieces that hold instances
/// (module docs); `None` where it has no empty piece, where the phases
/// leave a gap on the rest, or where the holes are not made again (a hole
/// among the outermost β dates before a statement that is no loop).
/// Exact: replayed and compared with `target`.
pub(super) fn explained(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
) -> Result<Option<Explanation>, ExplainError> {
    let Some(populated) = without_empty_pieces(scop, target)? else {
        return Ok(None);
    };
    let Some(holes) = holes_made_again(&populated)? else {
        return Ok(None);
    };
    let mut dense = populated;
    normalize(&mut dense).map_err(|e| ExplainError::NotReplayed(format!("{e:?}")))?;
    let before = explain_within(scop, deps, &dense, linearized::MAX_LINEARIZES)?;
    if before.gap.is_some() {
        return Ok(None);
    }
    let mut found = flattened(before.steps);
    found.extend(holes);
    replayed_on_pieces(scop, deps, target, &found, None)
}

/// `target` without the pieces that hold no instance of their statement,
/// at least one piece kept per statement; `None` where every piece holds
/// one. Exact (each piece's emptiness on the domain is an Omega test).
fn without_empty_pieces(scop: &Scop, target: &Schedule) -> Result<Option<Schedule>, ExplainError> {
    let mut out = target.clone();
    let mut dropped = false;
    for (st, schedule) in scop.statements.iter().zip(&mut out.statements) {
        let mut kept = Vec::new();
        for piece in &schedule.pieces {
            let on_domain = Map::from_basic(piece.clone()).intersect_domain(&st.domain)?;
            if !on_domain.is_empty()? {
                kept.push(piece.clone());
            }
        }
        if kept.is_empty() {
            continue;
        }
        dropped |= kept.len() < schedule.pieces.len();
        schedule.pieces = kept;
    }
    Ok(dropped.then_some(out))
}

/// The directives that make the holes of `target`'s β dates again, after
/// the schedule with those dates made dense: per loop with a hole, the
/// innermost first (a loop's `iss` copies the loops inside it, their
/// holes made already), `iss(loop, {0})` until the loop has as many
/// children as its largest β date needs (each doubles them, the children
/// that hold instances last), then a `reorder` of those to their dates,
/// the empty copies to the places left, in order; the outermost holes
/// last ([`outermost_holes`]). `None` where those are not made. Exact;
/// cheap.
fn holes_made_again(target: &Schedule) -> Result<Option<Vec<Directive>>, ExplainError> {
    let betas = all_betas(target).map_err(|e| ExplainError::NotReplayed(format!("{e:?}")))?;
    // Per loop (its β-vector in the target), its children's β dates.
    let mut children: BTreeMap<Vec<i64>, Vec<i64>> = BTreeMap::new();
    for (_, beta) in &betas {
        for k in 0..beta.len() {
            children
                .entry(beta[..k].to_vec())
                .or_default()
                .push(beta[k]);
        }
    }
    for dates in children.values_mut() {
        dates.sort_unstable();
        dates.dedup();
    }
    // A loop's β-vector once the dates are dense: each date its rank.
    let dense = |beta: &[i64]| -> Vec<i64> {
        (0..beta.len())
            .map(|k| {
                let rank = children
                    .get(&beta[..k])
                    .and_then(|dates| dates.iter().position(|&d| d == beta[k]));
                rank.and_then(|r| i64::try_from(r).ok()).unwrap_or(0)
            })
            .collect()
    };
    let mut loops: Vec<(&Vec<i64>, &Vec<i64>)> = children
        .iter()
        .filter(|(_, dates)| dates.iter().zip(0..).any(|(&d, r)| d != r))
        .collect();
    loops.sort_by_key(|(beta, _)| std::cmp::Reverse(beta.len()));
    let mut out = Vec::new();
    for (beta, dates) in loops {
        if beta.is_empty() {
            let Some(peels) = outermost_holes(&betas, dates) else {
                return Ok(None);
            };
            out.extend(peels);
            continue;
        }
        let at = dense(beta);
        let Some(&last) = dates.last() else {
            continue;
        };
        let k = i64::try_from(dates.len()).map_err(|_| overflow())?;
        let mut n = k;
        while n <= last {
            out.push(Directive::Iss {
                beta: at.clone(),
                form: SplitForm {
                    alphas: Vec::new(),
                    iters: Vec::new(),
                    params: Vec::new(),
                    constant: 0,
                },
            });
            n = n.checked_mul(2).ok_or_else(overflow)?;
        }
        // The children that hold instances are the last `k`, in order.
        let mut order = vec![-1; usize::try_from(n).map_err(|_| overflow())?];
        let first_real = order.len() - dates.len();
        for (x, &d) in dates.iter().enumerate() {
            order[first_real + x] = d;
        }
        let mut free = (0..n).filter(|p| !dates.contains(p));
        for slot in order.iter_mut().filter(|o| **o < 0) {
            *slot = free.next().ok_or_else(overflow)?;
        }
        if order.iter().zip(0..).any(|(&o, p)| o != p) {
            out.push(Directive::Reorder { beta: at, order });
        }
    }
    Ok(Some(out))
}

/// The directives that make the holes among the outermost β `dates`
/// (each child of the root that holds instances, by its target date),
/// after their loops' own holes: the `peel` of the whole of a loop,
/// `iss([p], {0})` then the `split` after its last child, leaves an empty
/// copy of the loop at `p` and moves the loop to `p + 1`. The last child
/// first, so that the earlier ones keep their places. `None` where a
/// child that needs a hole before it is no loop (a statement at the
/// root) or the dates overflow. Cheap.
fn outermost_holes(betas: &[(PieceRef, Vec<i64>)], dates: &[i64]) -> Option<Vec<Directive>> {
    let mut out = Vec::new();
    for (x, &date) in dates.iter().enumerate().rev() {
        let before = match x {
            0 => -1,
            _ => dates[x - 1],
        };
        let holes = date.checked_sub(before)?.checked_sub(1)?;
        // The loop's last child, by its β after the first date.
        let last = betas
            .iter()
            .filter(|(_, b)| b.first() == Some(&date))
            .map(|(_, b)| b[1..].to_vec())
            .max()?;
        if holes > 0 && last.is_empty() {
            return None;
        }
        let mut at = i64::try_from(x).ok()?;
        for _ in 0..holes {
            out.push(Directive::Iss {
                beta: vec![at],
                form: SplitForm {
                    alphas: Vec::new(),
                    iters: Vec::new(),
                    params: Vec::new(),
                    constant: 0,
                },
            });
            out.push(Directive::Split {
                beta: std::iter::once(at).chain(last.iter().copied()).collect(),
                depth: 1,
            });
            at = at.checked_add(1)?;
        }
    }
    Some(out)
}

/// More children than the arithmetic holds.
fn overflow() -> ExplainError {
    ExplainError::NotReplayed("meet more β dates than fit a machine integer".to_string())
}
