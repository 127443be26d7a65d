//! `--schedule FILE.json`: schedules read from JSON, one per region, each
//! checked to run every instance exactly once (`scop::exactly_once`), then
//! by `apply::legality` as a recipe's would be.

use std::fs;

use super::{region_dependences, region_error, Outcome};
use crate::apply::legality::{first_illegality, Illegal};
use crate::lang::c::SourceFile;
use crate::scop::exactly_once::first_not_run_once;
use crate::scop::schedule::{Mark, ScheduleJson};
use crate::scop::Schedule;

#[derive(serde::Deserialize)]
pub(super) struct FileScheduleInput {
    scops: Vec<ScheduleJson>,
}

/// The schedule of every region: the one the file gives for it, else the
/// original one.
pub(super) fn schedules_from_json(
    file: &SourceFile,
    given: &[ScheduleJson],
) -> Result<Vec<Schedule>, Outcome> {
    file.scops
        .iter()
        .map(
            |scop| match given.iter().find(|j| j.region == scop.region) {
                Some(json) => {
                    let schedule = Schedule::from_json(json, scop).map_err(|e| {
                        region_error(
                            file,
                            scop,
                            format!(
                                "the schedule of scop region {} does not fit it: {e}",
                                scop.region
                            ),
                        )
                    })?;
                    check_loaded(file, scop, &schedule)?;
                    Ok(schedule)
                }
                None => Ok(Schedule::original(scop)),
            },
        )
        .collect()
}

/// A loaded schedule must respect every dependence and carry none on a
/// loop it marks parallel or vector, exactly as a recipe's must.
pub(super) fn check_loaded(
    file: &SourceFile,
    scop: &crate::scop::Scop,
    schedule: &Schedule,
) -> Result<(), Outcome> {
    let fail = |msg: String| region_error(file, scop, msg);
    let deps = region_dependences(file, scop)?;
    let unproven = |e| {
        fail(format!(
            "the schedule of scop region {} could not be checked: {e}",
            scop.region
        ))
    };
    // Dependences say nothing of an instance run twice or not at all.
    if let Some(bad) = first_not_run_once(scop, schedule).map_err(unproven)? {
        return Err(fail(format!(
            "the schedule of scop region {} must run every instance exactly once: {}",
            scop.region,
            bad.describe(scop)
        )));
    }
    match first_illegality(scop, &deps, schedule).map_err(unproven)? {
        None => Ok(()),
        Some(Illegal::Violation(v)) => {
            let dep = &deps[v.dependence];
            Err(fail(format!(
                "the schedule of scop region {} violates a dependence {} -> {} on `{}`: {}",
                scop.region,
                scop.statements[dep.source].name,
                scop.statements[dep.target].name,
                dep.array,
                v.describe(scop, &deps)
            )))
        }
        Some(Illegal::Carried {
            statement,
            depth,
            jammed,
            violation,
        }) => Err(fail(format!(
            "the schedule of scop region {} marks loop {depth} of {} {}, but it carries a dependence{}: {}",
            scop.region,
            scop.statements[statement].name,
            match schedule.statements[statement].marks.get(depth - 1) {
                Some(m) if !m.contains(&Mark::Parallel) => "vector",
                _ => "parallel",
            },
            match jammed.as_slice() {
                [] => String::new(),
                jams => format!(
                    " once {} jammed (dates of the jammed schedule)",
                    jams.iter()
                        .map(|(outer, factor)| format!("loop {outer} is unrolled by {factor}"))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
            },
            violation.describe(scop, &deps)
        ))),
        Some(Illegal::MixedJams {
            statement,
            jammed_at,
            own,
        }) => Err(fail(format!(
            "the schedule of scop region {} jams {} at depth {own} inside a loop jammed at depth {jammed_at} without it; polyc checks the jams of a nest together only when each of its statements has them all",
            scop.region, scop.statements[statement].name
        ))),
        Some(Illegal::Reduction { depth, why }) => Err(fail(format!(
            "the schedule of scop region {} marks loop {depth} parallel with a reduction, but {why}",
            scop.region
        ))),
        Some(Illegal::Pack { depth, array, why }) => Err(fail(format!(
            "the schedule of scop region {} packs `{array}` in loop {depth}, but {why}",
            scop.region
        ))),
        Some(Illegal::NestedJam {
            statement,
            outer,
            inner,
        }) => Err(fail(format!(
            "the schedule of scop region {} jams {} in three or more of its loops (depths {outer} to {inner}); polyc checks at most two jams in a nest",
            scop.region, scop.statements[statement].name
        ))),
        Some(Illegal::Jam {
            statement,
            depth,
            factor,
            with,
            violation,
        }) => Err(fail(format!(
            "the schedule of scop region {} marks loop {depth} of {} to be unrolled by {factor} and jammed{}, but jamming runs a dependence out of order: {}",
            scop.region,
            scop.statements[statement].name,
            match with {
                Some((outer, f)) => format!(" with loop {outer} (jammed by {f})"),
                None => String::new(),
            },
            violation.describe(scop, &deps)
        ))),
    }
}

pub(super) fn load_schedules(path: &std::path::Path) -> Result<Vec<ScheduleJson>, Outcome> {
    let name = path.display();
    let text =
        fs::read_to_string(path).map_err(|e| Outcome::usage(format!("cannot read {name}: {e}")))?;
    let input: FileScheduleInput = serde_json::from_str(&text)
        .map_err(|e| Outcome::usage(format!("{name}: not a schedule file: {e}")))?;
    Ok(input.scops)
}
