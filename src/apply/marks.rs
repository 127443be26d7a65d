//! The marks `parallelize` and `vectorize`: they change no date, only the
//! marks on a loop, and are legal iff the loop carries no dependence among
//! the statements it encloses (exact: [`carried_dependence`]).

use super::tree::under;
use super::{check_depth, ApplyError};
use crate::scop::validity::carried_dependence;
use crate::scop::{Dependence, Mark, Schedule, Scop};

/// Mark the loop at `depth` around the statements under `beta` parallel
/// (or, with `vector`, vector: it must also be innermost).
pub fn parallelize(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
    vector: bool,
) -> Result<Schedule, ApplyError> {
    let what = if vector { "vectorize" } else { "parallelize" };
    let targets = under(schedule, beta)?;
    check_depth(schedule, &targets, depth, what)?;
    // The loops at `depth` around the targets, by their β prefix.
    let mut loops: Vec<Vec<i64>> = Vec::new();
    for t in &targets {
        let b = schedule.statements[t.statement]
            .beta(t.piece)
            .ok_or_else(|| {
                ApplyError::precondition(format!("{what}: a β date is not a constant"))
            })?;
        let prefix = b[..depth].to_vec();
        if !loops.contains(&prefix) {
            loops.push(prefix);
        }
    }
    let mut next = schedule.clone();
    let mark = if vector { Mark::Vector } else { Mark::Parallel };
    for prefix in &loops {
        let inside = under(schedule, prefix)?;
        if vector {
            if let Some(t) = inside
                .iter()
                .find(|t| schedule.statements[t.statement].depth() > depth)
            {
                return Err(ApplyError::precondition(format!(
                    "vectorize: the loop at depth {depth} is not innermost: statement S{} has {} loops",
                    t.statement,
                    schedule.statements[t.statement].depth()
                ))
                .with_help("only an innermost loop can be vectorized; interchange it inward first"));
            }
        }
        if let Some(v) = carried_dependence(scop, schedule, deps, prefix, depth)? {
            return Err(ApplyError::Carried {
                depth,
                violation: Box::new(v),
            });
        }
        for t in &inside {
            let marks = &mut next.statements[t.statement].marks[depth - 1];
            if !marks.contains(&mark) {
                marks.push(mark.clone());
            }
        }
    }
    Ok(next)
}
