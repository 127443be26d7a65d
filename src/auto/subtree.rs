//! `auto(…, [b])` and `auto(…, [b₀, …, b_k])`: one subtree scheduled on
//! its own. Its statements and the dependences among them form a smaller
//! scop, which the scheduler schedules, tiles and marks as it would a
//! whole region; the result takes the subtree's place, its parts at
//! `b_k`, `b_k + 1`, … among the children of the loops around it (the
//! whole region for a top-level nest), and the children after it move
//! along.
//!
//! Inside loops, the `k` loops around the subtree stay as the statements'
//! dates give them (`i`, or `-i` for a loop that counts down): the
//! scheduler schedules the rest from the pairs of each dependence within
//! one iteration of them (the others those loops carry).
//! Only the dependences among the subtree's statements constrain the
//! scheduler: one to or from a statement outside it is carried by the
//! order of the children (or by the loops around), which the splice keeps.
//! The caller checks the whole schedule from scratch, like any recipe's.

use super::feautrier::AffineRow;
use super::{schedule_below, AutoFailure, AutoOptions, AutoSchedule, ScheduleFailure};
use crate::apply::tree::{all_betas, set_constant_date};
use crate::apply::ApplyError;
use crate::auto::Algorithm;
use crate::poly::{BasicMap, ConstraintKind, PolyError};
use crate::scop::schedule::constant_date;
use crate::scop::{sub_region, Dependence, Schedule, Scop};

/// `current` with the statements `members` (every statement under the
/// loop or position `beta`, in their original form) scheduled by
/// `algorithm` as `options` ask.
pub fn schedule_nest(
    scop: &Scop,
    deps: &[Dependence],
    current: &Schedule,
    members: &[usize],
    beta: &[i64],
    algorithm: Algorithm,
    options: AutoOptions,
) -> Result<AutoSchedule, AutoFailure> {
    let overflow = || AutoFailure::Directive(ApplyError::Poly(PolyError::Overflow));
    let Some((&b, prefix)) = beta.split_last() else {
        return Err(AutoFailure::Schedule(ScheduleFailure::Stuck(
            members.to_vec(),
        )));
    };
    let outer = prefix.len();
    let (sub, sub_deps) = sub_region(scop, deps, members);
    // The loops around, as each statement's dates give them (a loop that
    // counts down is `-i`).
    let around = members
        .iter()
        .map(|&s| {
            let piece = current.statements[s].pieces.first();
            (0..outer)
                .map(|k| piece.and_then(|p| date_row(p, 2 * k + 1)))
                .collect::<Option<Vec<AffineRow>>>()
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            AutoFailure::Directive(ApplyError::precondition(
                "a loop around the subtree is not an affine date of its statements",
            ))
        })?;
    let found =
        schedule_below(&sub, &sub_deps, algorithm, options, &around).map_err(|e| match e {
            // Name the statements as the region numbers them.
            AutoFailure::Schedule(ScheduleFailure::Stuck(nodes)) => AutoFailure::Schedule(
                ScheduleFailure::Stuck(nodes.iter().map(|&n| members[n]).collect()),
            ),
            other => other,
        })?;
    // Its proven jams are left behind: they name the sub-region's
    // statements and pieces, and the caller proves every jam again.
    let AutoSchedule {
        schedule: found,
        mut bands,
        ..
    } = found;
    for band in &mut bands {
        band.renumber(members);
    }
    let directive = AutoFailure::Directive;
    // The subtree's position among its siblings: date `2·outer`.
    let position = 2 * outer;
    let parts = all_betas(&found)
        .map_err(directive)?
        .iter()
        .filter_map(|(_, v)| v.get(outer).copied())
        .max()
        .map_or(1, |last| last + 1);
    let mut next = current.clone();
    // The siblings after `b` move along by the parts the subtree became,
    // less one.
    for (r, v) in all_betas(current).map_err(directive)? {
        if v.len() > outer && v[..outer] == *prefix && v[outer] > b {
            let moved = v[outer].checked_add(parts - 1).ok_or_else(overflow)?;
            let piece = &mut next.statements[r.statement].pieces[r.piece];
            *piece = set_constant_date(piece, position, moved);
        }
    }
    for (m, &s) in members.iter().enumerate() {
        let mut st = found.statements[m].clone();
        for piece in &mut st.pieces {
            for (k, &value) in prefix.iter().enumerate() {
                *piece = set_constant_date(piece, 2 * k, value);
            }
            let at = constant_date(piece, position)
                .and_then(|v| v.checked_add(b))
                .ok_or_else(overflow)?;
            *piece = set_constant_date(piece, position, at);
        }
        next.statements[s] = st;
    }
    Ok(AutoSchedule {
        schedule: next,
        bands,
        proven_jams: Vec::new(),
    })
}

/// The affine row that date `d` of `piece` equals, from the equality that
/// fixes it over the parameters and iterators; `None` when none does.
/// Cheap: a scan of the rows.
fn date_row(piece: &BasicMap, d: usize) -> Option<AffineRow> {
    let space = piece.space();
    let (np, n_in) = (space.n_param(), space.n_in());
    let col = space.out_col(d);
    piece.constraints().iter().find_map(|c| {
        let a = c.coeffs[col];
        let only = c.kind == ConstraintKind::Eq
            && a.abs() == 1
            && c.coeffs
                .iter()
                .enumerate()
                .all(|(k, &v)| k == col || k < np + n_in || v == 0);
        if !only {
            return None;
        }
        // a·date + p·n + q·x + c = 0, a = ±1: date = −a·(p·n + q·x + c).
        let neg = |v: i64| v.checked_mul(-a);
        Some(AffineRow {
            param: c.coeffs[..np]
                .iter()
                .map(|&v| neg(v))
                .collect::<Option<_>>()?,
            iter: (0..n_in)
                .map(|j| neg(c.coeffs[space.in_col(j)]))
                .collect::<Option<_>>()?,
            constant: neg(c.constant)?,
        })
    })
}
