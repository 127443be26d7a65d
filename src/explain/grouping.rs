//! Directives found grouped where they are illegal alone: each step a
//! directive whose schedule is legal, or a `group` that runs from an
//! illegal schedule to the next legal one (a `split` before the `fuse`
//! that brings the statements back together), each schedule checked as a
//! recipe's replay checks it (`apply::illegality_after` after one
//! directive, `apply::legality::first_illegality_since` the last legal
//! schedule inside a group). A check that gives up is asked again on the
//! rows the directives write; where that gives up too, the steps end
//! there, with a gap.
//!
//! Must not know: recipe syntax, the recovery's phases.

use super::{print, refused, rewrites, ExplainError, Gap, Step};
use crate::apply::legality::{first_illegality_since, jammed_pairs, Illegal};
use crate::apply::proofs::{Proofs, ProvenJam, NO_PROOFS};
use crate::apply::{self, ApplyError, Directive};
use crate::poly::PolyError;
use crate::scop::validity::Violation;
use crate::scop::{Dependence, Schedule, Scop};

/// `found` as steps: each directive alone where the schedule after it
/// (`after`, from [`apply::rewrite`]) is legal, else in a group that runs
/// until the schedule is legal again; the schedule the steps give; and,
/// where a check gave up (the Omega test's step limit: not proven, so not
/// given), the gap that says so, the steps before it kept. When `partial`
/// (a gap stopped the recovery), directives after the last legal schedule
/// are left out.
pub(super) fn grouped(
    scop: &Scop,
    deps: &[Dependence],
    found: &[Directive],
    after: &[Schedule],
    partial: bool,
) -> Result<(Vec<Step>, Schedule, Option<Gap>), ExplainError> {
    let mut steps = Vec::new();
    let mut schedule = Schedule::original(scop);
    let mut legal = schedule.clone();
    let mut open: Vec<Directive> = Vec::new();
    // The violations found inside the open group, their dependences
    // numbered in `deps`: while a schedule still breaks one, that schedule
    // is illegal without a test of every dependence.
    let mut witnesses: Vec<Violation> = Vec::new();
    // The loops `unroll_jam` proved jammable (for every dependence), kept
    // for the checks after it.
    let mut proven = Proofs::default();
    // The schedules as the directives write them ([`rewrites`]), made
    // where a check on `after`'s rows gives up.
    let mut written: Option<Vec<Schedule>> = None;
    for (k, (d, next)) in found.iter().zip(after).enumerate() {
        let before = std::mem::replace(&mut schedule, next.clone());
        open.push(d.clone());
        proven
            .jams
            .extend(apply::proven_jams(&before, d).map_err(|e| refused(d, e))?);
        let mut broken = false;
        for w in &witnesses {
            if still_violated(&schedule, &deps[w.dependence], w)? {
                broken = true;
                break;
            }
        }
        if broken {
            continue;
        }
        // The dependences of the statements whose schedule changed since
        // the last legal one: the others are respected as they were.
        let changed: Vec<bool> = schedule
            .statements
            .iter()
            .zip(&legal.statements)
            .map(|(a, b)| a != b)
            .collect();
        let touched: Vec<usize> = (0..deps.len())
            .filter(|&k| changed[deps[k].source] || changed[deps[k].target])
            .collect();
        let near: Vec<Dependence> = touched.iter().map(|&k| deps[k].clone()).collect();
        // From a legal schedule, the check `apply` runs after the
        // directive (only the marks where no pair changes order).
        let checked = if open.len() == 1 {
            apply::illegality_after(scop, &near, &before, d, &schedule, &proven)
        } else {
            first_illegality_since(scop, &near, &legal, &schedule, &NO_PROOFS, &[])
                .map_err(ApplyError::Poly)
        };
        // Where the check gives up on `after`'s rows (the target's, taken
        // for the marks), the same check on the rows the directives
        // write: the same relations, and the Omega test's path depends on
        // how they are written (seed 7878).
        let checked = match checked {
            Err(ApplyError::Poly(PolyError::StepLimit(_))) if open.len() == 1 => {
                let written = written
                    .get_or_insert_with(|| rewrites(scop, deps, &Schedule::original(scop), found));
                match (
                    k.checked_sub(1).map_or(Some(&legal), |j| written.get(j)),
                    written.get(k),
                ) {
                    (Some(was), Some(now)) => {
                        apply::illegality_after(scop, &near, was, d, now, &proven)
                    }
                    _ => checked,
                }
            }
            checked => checked,
        };
        let illegal = match checked {
            Ok(illegal) => illegal,
            Err(ApplyError::Poly(e @ PolyError::StepLimit(_))) => {
                return Ok((steps, legal.clone(), Some(gave_up(scop, &legal, d, &e))));
            }
            Err(e) => return Err(refused(d, e)),
        };
        match illegal {
            None => {
                // The check after an `unroll_jam` proved the nests jammed
                // at two depths together as well.
                if matches!(d, Directive::UnrollJam { .. }) {
                    for pair in jammed_pairs(&schedule) {
                        if !proven
                            .jams
                            .iter()
                            .any(|p| p.jams == pair && p.holds_on(&schedule))
                        {
                            proven.jams.push(ProvenJam::on(&schedule, pair)?);
                        }
                    }
                }
                legal = schedule.clone();
                witnesses.clear();
                steps.push(if open.len() == 1 {
                    Step::One(open.remove(0))
                } else {
                    Step::Group(std::mem::take(&mut open))
                });
            }
            Some(Illegal::Violation(mut v)) => {
                v.dependence = touched[v.dependence];
                witnesses.push(v);
            }
            Some(_) => {}
        }
    }
    // After a gap the last steps may need the ones not found: they are
    // left out, and the prefix given is legal.
    if !open.is_empty() && !partial {
        return Err(ExplainError::NotReplayed(
            "end on an illegal schedule".to_string(),
        ));
    }
    Ok((steps, legal, None))
}

/// The gap where the check of `d` on the schedule after `legal` gave up
/// (`e`): on the first statement `d` addresses there.
fn gave_up(scop: &Scop, legal: &Schedule, d: &Directive, e: &PolyError) -> Gap {
    let under = legal.statements.iter().position(|st| {
        (0..st.pieces.len()).any(|p| st.beta(p).is_some_and(|b| b.starts_with(d.beta())))
    });
    Gap {
        statement: under.map_or_else(
            || "the region".to_string(),
            |s| scop.statements[s].name.clone(),
        ),
        reason: format!(
            "the check of `{}` after the directives above gave up ({e}), so it is not given",
            print::call(d)
        ),
    }
}

/// Whether `schedule` still dates `w`'s target instance before its
/// source's (at the first date where they differ, within both): then it
/// breaks `dependence`, exactly. `false` says nothing.
fn still_violated(
    schedule: &Schedule,
    dependence: &Dependence,
    w: &Violation,
) -> Result<bool, PolyError> {
    let (Some(source), Some(target)) = (
        schedule.statements.get(dependence.source),
        schedule.statements.get(dependence.target),
    ) else {
        return Ok(false);
    };
    let (Some(s), Some(t)) = (
        source.dates_at(&w.params, &w.source)?,
        target.dates_at(&w.params, &w.target)?,
    ) else {
        return Ok(false);
    };
    Ok(s.iter()
        .zip(&t)
        .find(|(a, b)| a != b)
        .is_some_and(|(a, b)| b < a))
}
