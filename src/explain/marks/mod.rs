//! The marks phase of the recovery: the target's marks, loop by loop, as
//! the directives that set them (`parallelize`, `vectorize`, `unroll`,
//! `unroll_jam`, `pack`, `gpu_block`, `gpu_thread`).
//!
//! A mark directive marks every statement of its loop, with one
//! exception: `pack` marks only the statements that access its array. So
//! the statements of one loop must carry the same marks but for packs,
//! and a pack of an array must be on every statement of the loop that
//! accesses the array. A loop whose statements differ otherwise (one
//! fused in after the loop was marked) is split between runs of
//! statements with the same marks, each loop marked, and the loops fused
//! back, where that gives the target's marks and nothing else; else it
//! is a [`Gap`].
//!
//! `vectorize` wants an innermost loop. A vector loop that `embed` made
//! outer is marked where it was innermost ([`outer_vectors`]).

mod outer_vectors;

use super::{difference_but_marks, precondition, print, ExplainError, Gap, Recovery};
use crate::apply::Directive;
use crate::scop::schedule::Mark;
use crate::scop::{Schedule, Scop};
use outer_vectors::push_mark;

/// The marks of `target`, loop by loop, as directives. A mark its
/// directive refuses to set is a gap.
pub(super) fn marks(r: &mut Recovery<'_>, target: &Schedule) -> Result<Option<Gap>, ExplainError> {
    r.adopt_rows(target)?;
    let betas: Vec<Vec<i64>> = target.statements.iter().filter_map(|s| s.beta(0)).collect();
    if betas.len() != target.statements.len() {
        return Err(ExplainError::NotReplayed(
            "meet a β date that is not a constant".to_string(),
        ));
    }
    if let Some(gap) = broken_collapse(r.scop, target) {
        return Ok(Some(gap));
    }
    let mut given: Vec<Vec<i64>> = Vec::new();
    for (s, st) in target.statements.iter().enumerate() {
        let name = &r.scop.statements[s].name;
        for k in 0..st.marks.len() {
            let loop_beta = &betas[s][..=k];
            if st.marks[k].is_empty() || given.iter().any(|g| g == loop_beta) {
                continue;
            }
            given.push(loop_beta.to_vec());
            let Some(marks) = loop_marks(r, target, &betas, loop_beta) else {
                if marked_apart(r, target, loop_beta)? {
                    continue;
                }
                return Ok(Some(Gap {
                    statement: name.clone(),
                    reason: format!(
                        "the statements of its loop at depth {} carry different marks \
                         (one fused in after the loop was marked); not recovered yet",
                        k + 1
                    ),
                }));
            };
            // A mark another directive set already (a `collapse`'s on
            // the loops inside the first) is not given again.
            let set_already = |m: &Mark| {
                (0..betas.len())
                    .filter(|&t| betas[t].starts_with(loop_beta))
                    .all(|t| {
                        r.current.statements[t]
                            .marks
                            .get(k)
                            .is_some_and(|c| c.contains(m))
                    })
            };
            // But a loop's own `schedule` (or `collapse`) is set with its
            // `parallel` mark: that mark is given again with it.
            let own_options = marks
                .iter()
                .any(|m| matches!(m, Mark::Schedule(..) | Mark::Collapse(_)) && !set_already(m));
            let marks: Vec<Mark> = marks
                .into_iter()
                .filter(|m| !set_already(m) || (*m == Mark::Parallel && own_options))
                .collect();
            let short = shortest_prefix(&betas, loop_beta);
            for d in print::mark_directives(&short, loop_beta, &marks) {
                let target_marks = |t: usize| {
                    target.statements[t]
                        .marks
                        .get(k)
                        .cloned()
                        .unwrap_or_default()
                };
                let refusal = match push_mark(r, d, &target_marks) {
                    Ok(()) => continue,
                    Err(ExplainError::Refused(refused)) if precondition(&refused.1).is_some() => {
                        refused
                    }
                    Err(e) => return Err(e),
                };
                let (d, e) = refusal.as_ref();
                let message = precondition(e).unwrap_or_default();
                return Ok(Some(Gap {
                    statement: name.clone(),
                    reason: format!(
                        "its mark set by `{}` is one that directive refuses to set now ({message})",
                        print::call(d)
                    ),
                }));
            }
        }
    }
    Ok(None)
}

/// A `collapse(n)` mark whose loops inside are not each marked parallel
/// (a `stripmine` inside the collapsed nest put its strip loop there,
/// unmarked): `parallelize` marks every loop it collapses, so no
/// directive gives it now, and code generation refuses it. Cheap.
fn broken_collapse(scop: &Scop, target: &Schedule) -> Option<Gap> {
    for (st, schedule) in scop.statements.iter().zip(&target.statements) {
        for (k, marks) in schedule.marks.iter().enumerate() {
            for m in marks {
                let Mark::Collapse(n) = m else { continue };
                let inner = (k + 1..k + *n as usize).find(|&j| {
                    schedule
                        .marks
                        .get(j)
                        .is_none_or(|at| !at.contains(&Mark::Parallel))
                });
                if let Some(j) = inner {
                    return Some(Gap {
                        statement: st.name.clone(),
                        reason: format!(
                            "its `collapse({n})` at depth {} spans the loop at depth {}, \
                             which is not marked parallel (a loop moved into the collapsed \
                             nest after it was marked): no directive gives that mark, and \
                             code generation refuses it",
                            k + 1,
                            j + 1
                        ),
                    });
                }
            }
        }
    }
    None
}

/// The marks one directive each sets on the loop `loop_beta` (depth
/// `loop_beta.len()`) of `target`: the marks its statements share, and
/// the pack of each array packed there. `None` when no directives give
/// them: the statements differ in another mark, or one that accesses a
/// packed array does not pack it.
fn loop_marks(
    r: &Recovery<'_>,
    target: &Schedule,
    betas: &[Vec<i64>],
    loop_beta: &[i64],
) -> Option<Vec<Mark>> {
    let k = loop_beta.len() - 1;
    let inside: Vec<usize> = (0..betas.len())
        .filter(|&s| betas[s].starts_with(loop_beta))
        .collect();
    let at = |s: usize| {
        target.statements[s]
            .marks
            .get(k)
            .map_or(&[][..], |m| &m[..])
    };
    let not_pack = |s: usize| -> Vec<Mark> {
        at(s)
            .iter()
            .filter(|m| !matches!(m, Mark::Pack(_)))
            .cloned()
            .collect()
    };
    let first = *inside.first()?;
    let shared = not_pack(first);
    if inside
        .iter()
        .any(|&s| !super::same_mark_set(&not_pack(s), &shared))
    {
        return None;
    }
    let mut packs: Vec<String> = Vec::new();
    for &s in &inside {
        for m in at(s) {
            if let Mark::Pack(array) = m {
                if !packs.contains(array) {
                    packs.push(array.clone());
                }
            }
        }
    }
    let accesses = |s: usize, array: &str| {
        r.scop.statements[s]
            .accesses
            .iter()
            .any(|a| a.array == array)
    };
    for array in &packs {
        let mark = Mark::Pack(array.clone());
        if inside
            .iter()
            .any(|&s| accesses(s, array) != at(s).contains(&mark))
        {
            return None;
        }
    }
    let mut marks = shared;
    marks.extend(packs.into_iter().map(Mark::Pack));
    Some(marks)
}

/// Marks the loop `loop_beta` whose statements carry different marks
/// (statements fused in after the loop was marked): the loop split
/// between runs of statements with the same marks, each loop marked, and
/// the loops fused back. Whether that gave the statements the target's
/// marks there and left everything else as it was; else nothing is done.
fn marked_apart(
    r: &mut Recovery<'_>,
    target: &Schedule,
    loop_beta: &[i64],
) -> Result<bool, ExplainError> {
    let k = loop_beta.len() - 1;
    let mut inside: Vec<(Vec<i64>, usize)> = Vec::new();
    for s in 0..target.statements.len() {
        let beta = r.beta(s)?;
        if beta.starts_with(loop_beta) {
            inside.push((beta, s));
        }
    }
    inside.sort();
    let marks_of = |s: usize| {
        target.statements[s]
            .marks
            .get(k)
            .cloned()
            .unwrap_or_default()
    };
    // Runs of statements with the same marks, in β order.
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for &(_, s) in &inside {
        match runs.last_mut() {
            Some(run) if super::same_mark_set(&marks_of(run[0]), &marks_of(s)) => run.push(s),
            _ => runs.push(vec![s]),
        }
    }
    if runs.len() < 2 {
        return Ok(false);
    }
    let (before, found) = (r.current.clone(), r.found.len());
    let done = mark_runs(r, &runs, loop_beta, &marks_of)?;
    let statements: Vec<usize> = inside.iter().map(|&(_, s)| s).collect();
    let as_target = marks_but_at(&before, &r.current, &statements, k, marks_of);
    if done && as_target && difference_but_marks(r.scop, &before, &r.current)?.is_none() {
        return Ok(true);
    }
    r.current = before;
    r.found.truncate(found);
    r.after.truncate(found);
    Ok(false)
}

/// The `split`s that give each of `runs` its own loop (the last first,
/// so the earlier β-vectors hold), each loop's marks, and the `fuse`s
/// that join the loops again; `false` where a directive is refused.
fn mark_runs(
    r: &mut Recovery<'_>,
    runs: &[Vec<usize>],
    loop_beta: &[i64],
    marks_of: &dyn Fn(usize) -> Vec<Mark>,
) -> Result<bool, ExplainError> {
    let depth = loop_beta.len();
    for run in runs[..runs.len() - 1].iter().rev() {
        let Some(&last) = run.last() else {
            return Ok(false);
        };
        let split = Directive::Split {
            beta: r.beta(last)?,
            depth,
        };
        if r.push(split).is_err() {
            return Ok(false);
        }
    }
    for run in runs {
        let beta = r.beta(run[0])?;
        let Some(run_loop) = beta.get(..depth) else {
            return Ok(false);
        };
        for d in print::mark_directives(run_loop, run_loop, &marks_of(run[0])) {
            if push_mark(r, d, marks_of).is_err() {
                return Ok(false);
            }
        }
    }
    for _ in 1..runs.len() {
        let fuse = Directive::Fuse {
            beta: loop_beta.to_vec(),
        };
        if r.push(fuse).is_err() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether `statements` have the same loops in `now` as in `was`, with
/// the same marks on each, but at position `k`, where they have `at_k`'s.
pub(super) fn marks_but_at(
    was: &Schedule,
    now: &Schedule,
    statements: &[usize],
    k: usize,
    at_k: impl Fn(usize) -> Vec<Mark>,
) -> bool {
    statements.iter().all(|&s| {
        let (now, was) = (&now.statements[s].marks, &was.statements[s].marks);
        now.len() == was.len()
            && now
                .iter()
                .zip(was)
                .enumerate()
                .all(|(d, (n, w))| match d == k {
                    true => super::same_mark_set(n, &at_k(s)),
                    false => super::same_mark_set(n, w),
                })
    })
}

/// The shortest prefix (at least one element) of the loop `loop_beta`
/// that addresses the same statements: those under the loop, and no
/// other (a mark directive wants every statement it addresses inside
/// the loop).
pub(super) fn shortest_prefix(betas: &[Vec<i64>], loop_beta: &[i64]) -> Vec<i64> {
    let depth = loop_beta.len();
    let set = |prefix: &[i64]| -> Vec<usize> {
        (0..betas.len())
            .filter(|&s| betas[s].starts_with(prefix))
            .collect()
    };
    let exact = set(loop_beta);
    (1..depth)
        .find(|&l| set(&loop_beta[..l]) == exact)
        .map_or_else(|| loop_beta.to_vec(), |l| loop_beta[..l].to_vec())
}
