//! The marks `parallelize` and `vectorize`: they change no date, only the
//! marks on a loop. A parallel loop is legal iff it carries no dependence
//! among the statements it encloses (exact: [`carried_dependence`]); a
//! vector loop also when every dependence it carries spans at least two
//! dates, which its `safelen` mark records ([`vector_safelen`]). The GPU
//! mappings `gpu_block` and `gpu_thread` ([`map_gpu`]) are checked as a
//! parallel loop is.

use super::dates::date_factor;
use super::legality::{jam_marks, jam_violation, MAX_NESTED_JAMS};
use super::reduction::{deps_but_reduction, reduction_operator};
use super::tree::under;
use super::{check_depth, ApplyError};
use crate::poly::gcd_of;
use crate::scop::validity::{carried_closer_than, carried_dependence, Violation};
use crate::scop::{Dependence, Mark, Schedule, Scop, ThreadSchedule};

/// The clauses `parallelize` may give its loop.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParallelOptions {
    /// `schedule(kind[, chunk])`.
    pub schedule: Option<(ThreadSchedule, Option<u32>)>,
    /// `collapse(n)`, `n >= 2`: the loop and the `n - 1` loops inside it
    /// share their iterations as one.
    pub collapse: Option<u32>,
    /// `reduction(op: x)`: the scalar `x`, whose updates the loop may
    /// carry ([`super::reduction`]); the operator is the updates'.
    pub reduction: Option<String>,
}

/// Mark the loop at `depth` around the statements under `beta` parallel
/// (or, with `vector`, vector: it must also be innermost), with the
/// clauses of `options` (a vector loop takes only `reduction`).
pub fn parallelize(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
    vector: bool,
    options: &ParallelOptions,
) -> Result<Schedule, ApplyError> {
    let what = if vector { "vectorize" } else { "parallelize" };
    let n = options.collapse.filter(|_| !vector).unwrap_or(1);
    if n > 1 {
        let targets = under(schedule, beta)?;
        let last = depth + n as usize - 1;
        if let Some(t) = targets
            .iter()
            .find(|t| schedule.statements[t.statement].depth() < last)
        {
            return Err(ApplyError::precondition(format!(
                "parallelize: `collapse = {n}` needs the loops at depths {depth} to {last}, and statement S{} has {} loops",
                t.statement,
                schedule.statements[t.statement].depth()
            ))
            .with_help("collapse fewer loops"));
        }
    }
    let loops = loops_around(schedule, beta, depth, what)?;
    // With a reduction, the loops may carry the dependences between its
    // updates: the others are checked (indices kept for the witness).
    let reduction = match &options.reduction {
        Some(x) => Some((
            reduction_operator(scop, schedule, &loops, depth, x, what)?,
            x.clone(),
        )),
        None => None,
    };
    let reduced = reduction
        .as_ref()
        .map(|(op, x)| deps_but_reduction(scop, deps, x, *op));
    let (checked, index) = match &reduced {
        Some((kept, index)) => (kept.as_slice(), Some(index)),
        None => (deps, None),
    };
    let mark = if vector { Mark::Vector } else { Mark::Parallel };
    let mut next = schedule.clone();
    for k in 0..n as usize {
        if k > 0 {
            one_loop_inside_each(&next, beta, depth + k)?;
        }
        next = mark_loops(scop, checked, &next, beta, depth + k, mark.clone()).map_err(
            |e| match (e, index) {
                (
                    ApplyError::Carried {
                        depth,
                        jammed,
                        mut violation,
                    },
                    Some(index),
                ) => {
                    violation.dependence = index[violation.dependence];
                    ApplyError::Carried {
                        depth,
                        jammed,
                        violation,
                    }
                }
                (other, _) => other,
            },
        )?;
    }
    let clauses: Vec<Mark> = options
        .schedule
        .filter(|_| !vector)
        .map(|(kind, chunk)| Mark::Schedule(kind, chunk))
        .into_iter()
        .chain(options.collapse.filter(|_| !vector).map(Mark::Collapse))
        .collect();
    let reduction = reduction.map(|(op, x)| Mark::Reduction(op, x));
    for prefix in loops {
        for t in under(schedule, &prefix)? {
            let marks = &mut next.statements[t.statement].marks;
            if !vector {
                marks[depth - 1].retain(|m| !matches!(m, Mark::Schedule(..) | Mark::Collapse(_)));
                marks[depth - 1].extend(clauses.iter().cloned());
            }
            // Every collapsed loop carries the updates: each keeps the
            // reduction (only the outermost prints the clause).
            for k in 0..n as usize {
                let at = &mut marks[depth - 1 + k];
                at.retain(|m| !matches!(m, Mark::Reduction(..)));
                at.extend(reduction.clone());
            }
        }
    }
    Ok(next)
}

/// Refuses `collapse` unless each loop at `depth - 1` around the
/// statements under `beta` holds exactly one loop at `depth` and nothing
/// else: OpenMP collapses a perfect nest.
fn one_loop_inside_each(schedule: &Schedule, beta: &[i64], depth: usize) -> Result<(), ApplyError> {
    for outer in loops_around(schedule, beta, depth - 1, "parallelize")? {
        let inner = loops_around(schedule, &outer, depth, "parallelize")?;
        if inner.len() != 1 {
            return Err(ApplyError::precondition(format!(
                "parallelize: the loop at depth {} holds {} loops at depth {depth}, and `collapse` needs a perfect nest",
                depth - 1,
                inner.len()
            ))
            .with_help("collapse fewer loops, or fuse the inner loops first"));
        }
    }
    Ok(())
}

/// Put `mark` on the loop at `depth` around the statements under `beta`,
/// once proven that it carries no dependence (a vector loop must also be
/// innermost).
fn mark_loops(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
    mark: Mark,
) -> Result<Schedule, ApplyError> {
    let vector = mark == Mark::Vector;
    let what = if vector { "vectorize" } else { "parallelize" };
    let loops = loops_around(schedule, beta, depth, what)?;
    let mut next = schedule.clone();
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
        let safelen = if vector {
            vector_safelen(scop, deps, schedule, prefix, depth)?
        } else {
            match carried_dependence(scop, schedule, deps, prefix, depth)? {
                Some(v) => return Err(carried(depth, v)),
                None => None,
            }
        };
        for t in &inside {
            let marks = &mut next.statements[t.statement].marks[depth - 1];
            if !marks.contains(&mark) {
                marks.push(mark.clone());
            }
            if vector {
                marks.retain(|m| !matches!(m, Mark::Safelen(_)));
                marks.extend(safelen.map(Mark::Safelen));
            }
        }
    }
    Ok(next)
}

/// Map the loop at `depth` around the statements under `beta` to CUDA
/// blocks (`thread`: to a block's threads) along `dim` (0 = x, 1 = y,
/// 2 = z), once proven that it carries no dependence: blocks and threads
/// run its iterations in any order, at once. A loop has one mapping: an
/// earlier one is replaced. How mapped loops may nest is checked where
/// kernels are made (`emit::cuda`).
pub fn map_gpu(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
    thread: bool,
    dim: u8,
) -> Result<Schedule, ApplyError> {
    let what = if thread { "gpu_thread" } else { "gpu_block" };
    if dim > 2 {
        return Err(ApplyError::precondition(format!(
            "{what}: the dimension must be 0 (x), 1 (y) or 2 (z), not {dim}"
        )));
    }
    let mark = if thread {
        Mark::GpuThread(dim)
    } else {
        Mark::GpuBlock(dim)
    };
    let loops = loops_around(schedule, beta, depth, what)?;
    let mut next = schedule.clone();
    for prefix in &loops {
        if let Some(v) = carried_dependence(scop, schedule, deps, prefix, depth)? {
            return Err(carried(depth, v));
        }
        for t in under(schedule, prefix)? {
            let marks = &mut next.statements[t.statement].marks[depth - 1];
            marks.retain(|m| !matches!(m, Mark::GpuBlock(_) | Mark::GpuThread(_)));
            marks.push(mark.clone());
        }
    }
    Ok(next)
}

fn carried(depth: usize, v: Violation) -> ApplyError {
    ApplyError::Carried {
        depth,
        jammed: Vec::new(),
        violation: Box::new(v),
    }
}

/// The largest `safelen` (in dates) that [`vector_safelen`] tries: wider
/// than any vector of `double`s, or of `float`s unrolled by four.
pub const MAX_SAFELEN: u32 = 64;

/// How far apart SIMD lanes must stay on the loop at `depth` around
/// `prefix`: `None` when it carries no dependence; `Some(n)` when every
/// dependence it carries joins dates at least `n` apart, source first, with
/// `n` the largest power of two up to [`MAX_SAFELEN`] iterations that is
/// so (OpenMP runs no two iterations `n` or more apart at once under
/// `safelen(n)`). An iteration is the loop's date unit: the factor all its
/// dates share (after `grain` by 2, two dates). A carried dependence
/// closer than two iterations, or backwards, is refused with its witness:
/// OpenMP 5 keeps lexically forward dependences inside a SIMD chunk, but
/// clang marks the accesses of an `omp simd` loop as independent, so
/// polyc does not rely on it. Exact: at most seven carried-dependence
/// tests.
fn vector_safelen(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    prefix: &[i64],
    depth: usize,
) -> Result<Option<u32>, ApplyError> {
    if carried_dependence(scop, schedule, deps, prefix, depth)?.is_none() {
        return Ok(None);
    }
    let unit = date_unit(schedule, prefix, depth)?;
    let iterations = |n: u32| n * unit;
    if let Some(v) = carried_closer_than(scop, schedule, deps, prefix, depth, Some(iterations(2)))?
    {
        return Err(carried(depth, v));
    }
    let mut n = 2;
    while n < MAX_SAFELEN {
        let closer = Some(iterations(2 * n));
        if carried_closer_than(scop, schedule, deps, prefix, depth, closer)?.is_some() {
            return Ok(Some(iterations(n)));
        }
        n *= 2;
    }
    Ok(Some(iterations(MAX_SAFELEN)))
}

/// The factor every date of the loop at `depth` around `prefix` is a
/// multiple of ([`date_factor`] of each piece), where [`MAX_SAFELEN`]
/// times it fits a `u32`; else 1. Cheap.
fn date_unit(schedule: &Schedule, prefix: &[i64], depth: usize) -> Result<u32, ApplyError> {
    let mut unit = 0;
    for t in under(schedule, prefix)? {
        let piece = &schedule.statements[t.statement].pieces[t.piece];
        match date_factor(piece, depth) {
            f if f <= 1 => return Ok(1),
            f => unit = gcd_of([unit, f]).unwrap_or(1),
        }
    }
    Ok(u32::try_from(unit)
        .ok()
        .filter(|&u| u >= 1 && u.checked_mul(MAX_SAFELEN).is_some())
        .unwrap_or(1))
}

/// The loops that `unroll_jam(beta, depth, …)` marks and checks, by their
/// β prefixes.
pub(super) fn jammed_loops(
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
) -> Result<Vec<Vec<i64>>, ApplyError> {
    loops_around(schedule, beta, depth, "unroll_jam")
}

/// The loops at `depth` around the statements under `beta`, by their β
/// prefixes, closed over statements: marks belong to statements, not
/// pieces, so a statement split by `iss` gets a mark in every part, and
/// every loop holding a part (with all it holds) is marked and checked.
pub(super) fn loops_around(
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
    what: &str,
) -> Result<Vec<Vec<i64>>, ApplyError> {
    let targets = under(schedule, beta)?;
    check_depth(schedule, &targets, depth, what)?;
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
    let mut k = 0;
    while k < loops.len() {
        let inside = under(schedule, &loops[k])?;
        // A statement whose whole β is the prefix has no loop at `depth`
        // (a tree that `tile` of a statement β can leave): a diagnostic,
        // not a slice past its dates.
        check_depth(schedule, &inside, depth, what)?;
        for t in inside {
            let st = &schedule.statements[t.statement];
            for p in 0..st.pieces.len() {
                if let Some(b) = st.beta(p) {
                    let prefix = b[..depth].to_vec();
                    if !loops.contains(&prefix) {
                        loops.push(prefix);
                    }
                }
            }
        }
        k += 1;
    }
    Ok(loops)
}

/// Mark the loop `beta` (at depth `beta.len()`) to be unrolled by `factor`,
/// with a remainder loop unless `epilog` is false. Always legal: unrolling
/// keeps the order of the iterations.
pub fn unroll(
    schedule: &Schedule,
    beta: &[i64],
    factor: u32,
    epilog: bool,
) -> Result<Schedule, ApplyError> {
    let what = if epilog { "unroll" } else { "unroll_noepilog" };
    let targets = under(schedule, beta)?;
    let depth = beta.len();
    check_depth(schedule, &targets, depth, what)?;
    if factor == 1 {
        // Unrolling by 1 changes nothing (a warning, as in Clay).
        return Ok(schedule.clone());
    }
    if factor < 2 {
        return Err(ApplyError::precondition(format!(
            "{what}: the factor must be at least 1, not {factor}"
        )));
    }
    let mark = if epilog {
        Mark::Unroll(factor)
    } else {
        Mark::UnrollNoEpilog(factor)
    };
    let mut next = schedule.clone();
    for t in &targets {
        let marks = &mut next.statements[t.statement].marks[depth - 1];
        marks.retain(|m| !matches!(m, Mark::Unroll(_) | Mark::UnrollNoEpilog(_)));
        marks.push(mark.clone());
    }
    check_unroll_copies(&next, what)?;
    Ok(next)
}

/// The most copies of one statement that nested unroll marks may print
/// (the product of the factors around it): each copy is printed C, so
/// `unroll` by 1024 inside `unroll` by 1024 would print a million.
pub const MAX_UNROLL_COPIES: u64 = 1024;

/// Every statement's unroll factors (`unroll`, `unroll_noepilog`,
/// `unroll_jam`, over all its loops) multiply to at most
/// [`MAX_UNROLL_COPIES`].
fn check_unroll_copies(schedule: &Schedule, what: &str) -> Result<(), ApplyError> {
    for (s, st) in schedule.statements.iter().enumerate() {
        let mut copies: u64 = 1;
        for m in st.marks.iter().flatten() {
            if let Mark::Unroll(k) | Mark::UnrollNoEpilog(k) | Mark::UnrollJam(k) = m {
                copies = copies.saturating_mul(u64::from(*k));
            }
        }
        if copies > MAX_UNROLL_COPIES {
            return Err(ApplyError::precondition(format!(
                "{what}: the unroll factors around statement S{s} multiply to {copies} copies of it, \
                 beyond polyc's limit of {MAX_UNROLL_COPIES}"
            ))
            .with_help("unroll fewer loops, or by smaller factors (\"Limits\" in docs/recipe-language.md)"));
        }
    }
    Ok(())
}

/// Mark the loop at `depth` around the statements under `beta` to be
/// unrolled by `factor` and jammed: its copies of the inner loops are
/// fused. Code generation jams a loop with everything in it, so every
/// statement in the loops at `depth` around `beta` gets the mark (closed
/// over the pieces of `iss`-split statements, as `parallelize`'s); a
/// statement may be jammed at two depths (a register tile, both jams
/// checked together by `apply`'s legality check), not three. Code generation
/// jams `factor` consecutive dates of the loop
/// (a unit-step loop, whatever the dates' stride), in groups that start at
/// the loop's lower bound, which is not known here. So the jam is legal
/// iff, for every alignment of the groups (strip-mining the loop by
/// `factor` with each shift `0..factor`) and the point loop moved
/// innermost, every dependence is respected (checked exactly on each of
/// those schedules: [`jam_violation`]). The schedule itself only gets the
/// marks.
pub fn unroll_jam(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
    factor: u32,
) -> Result<Schedule, ApplyError> {
    if factor < 2 {
        let targets = under(schedule, beta)?;
        check_depth(schedule, &targets, depth, "unroll_jam")?;
        return Err(ApplyError::precondition(format!(
            "unroll_jam: the factor must be at least 2, not {factor}"
        )));
    }
    // Code generation jams a loop with everything in it, so every
    // statement in the loops at `depth` around `beta` gets the mark and
    // every one of those loops is checked, each as it will be jammed.
    let loops = loops_around(schedule, beta, depth, "unroll_jam")?;
    let mut next = schedule.clone();
    for prefix in &loops {
        for t in under(schedule, prefix)? {
            let st = &mut next.statements[t.statement];
            let others: Vec<usize> = jam_marks(&st.marks)
                .into_iter()
                .map(|(d, _)| d)
                .filter(|&d| d != depth)
                .collect();
            if others.len() >= MAX_NESTED_JAMS {
                return Err(ApplyError::precondition(format!(
                    "unroll_jam: statement S{} is already jammed at depths {} and {}; polyc checks \
                     at most {MAX_NESTED_JAMS} jams in a nest",
                    t.statement, others[0], others[1]
                ))
                .with_help("jam at most two loops of a nest (a register tile)"));
            }
            let marks = &mut st.marks[depth - 1];
            marks.retain(|m| !matches!(m, Mark::UnrollJam(_)));
            marks.push(Mark::UnrollJam(factor));
        }
        // This loop's jam alone; with another jam in the nest, both
        // together are checked on the marked schedule (`apply`).
        if let Some(v) = jam_violation(scop, deps, schedule, &[(prefix.clone(), factor)])? {
            return Err(ApplyError::Violation(Box::new(v)));
        }
    }
    check_unroll_copies(&next, "unroll_jam")?;
    Ok(next)
}
