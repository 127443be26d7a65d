//! `auto(…, [b])`: one top-level nest scheduled on its own. Its statements
//! and the dependences among them form a smaller scop, which the scheduler
//! schedules, tiles and marks as it would a whole region; the result takes
//! the nest's place, its top-level parts at `b`, `b + 1`, …, and the nests
//! after it move along.
//!
//! Only the dependences among the nest's statements constrain the
//! scheduler: one to or from another nest is carried by the top-level
//! order, which the splice keeps. The caller checks the whole schedule
//! from scratch, like any recipe's.

use super::{schedule, AutoFailure, AutoOptions, ScheduleFailure};
use crate::apply::tree::{all_betas, set_constant_date};
use crate::apply::ApplyError;
use crate::auto::Algorithm;
use crate::poly::PolyError;
use crate::scop::schedule::constant_date;
use crate::scop::{Dependence, Schedule, Scop};

/// `current` with the statements `members` (every statement of the
/// top-level nest `b`, in their original form) scheduled by `algorithm`
/// as `options` ask.
pub fn schedule_nest(
    scop: &Scop,
    deps: &[Dependence],
    current: &Schedule,
    members: &[usize],
    b: i64,
    algorithm: Algorithm,
    options: AutoOptions,
) -> Result<Schedule, AutoFailure> {
    let index = |s: usize| members.iter().position(|&m| m == s);
    let sub = Scop {
        statements: members
            .iter()
            .map(|&s| scop.statements[s].clone())
            .collect(),
        ..scop.clone()
    };
    let sub_deps: Vec<Dependence> = deps
        .iter()
        .filter_map(|d| {
            Some(Dependence {
                source: index(d.source)?,
                target: index(d.target)?,
                ..d.clone()
            })
        })
        .collect();
    let found = schedule(&sub, &sub_deps, algorithm, options).map_err(|e| match e {
        // Name the statements as the region numbers them.
        AutoFailure::Schedule(ScheduleFailure::Stuck(nodes)) => AutoFailure::Schedule(
            ScheduleFailure::Stuck(nodes.iter().map(|&n| members[n]).collect()),
        ),
        other => other,
    })?;
    let directive = AutoFailure::Directive;
    let parts = all_betas(&found)
        .map_err(directive)?
        .iter()
        .filter_map(|(_, beta)| beta.first().copied())
        .max()
        .map_or(1, |last| last + 1);
    let mut next = current.clone();
    // The nests after `b` move along by the parts the nest became, less one.
    for (r, beta) in all_betas(current).map_err(directive)? {
        let Some(&first) = beta.first() else {
            continue;
        };
        if first > b {
            let moved =
                first
                    .checked_add(parts - 1)
                    .ok_or(AutoFailure::Directive(ApplyError::Poly(
                        PolyError::Overflow,
                    )))?;
            let piece = &mut next.statements[r.statement].pieces[r.piece];
            *piece = set_constant_date(piece, 0, moved);
        }
    }
    for (m, &s) in members.iter().enumerate() {
        let mut st = found.statements[m].clone();
        for piece in &mut st.pieces {
            let first = constant_date(piece, 0)
                .and_then(|v| v.checked_add(b))
                .ok_or(AutoFailure::Directive(ApplyError::Poly(
                    PolyError::Overflow,
                )))?;
            *piece = set_constant_date(piece, 0, first);
        }
        next.statements[s] = st;
    }
    Ok(next)
}
