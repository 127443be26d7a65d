//! Whether a whole schedule is legal: every dependence respected
//! ([`crate::scop::validity::first_violation`]), no loop marked parallel
//! or vector carrying one ([`crate::scop::validity::carried_dependence`];
//! a parallel loop with a reduction may carry its updates',
//! [`super::reduction`]),
//! every loop marked `unroll_jam` jammable ([`jam_violation`]), and every
//! packed loop still packable ([`super::pack`]). The one
//! entry point for this question: [`super::apply`] asks it after each
//! directive (a later directive can break an earlier mark), the CLI for a
//! schedule loaded from JSON.
//!
//! Length: one question, asked of each kind of mark, and the jammed
//! schedules that the jam checks and the marks inside jams share; split,
//! the jam checks would reach back into the mark checks' helpers.

use super::affine::shift;
use super::blocking::stripmine_pieces_shifted;
use super::dates::swap_dates;
use super::pack::first_unsound_pack;
use super::proofs::{JamLoop, MarkedLoop, Proofs, ProvenJam, ProvenMark, NO_PROOFS};
use super::reduction::{deps_but_reduction, reduction_break};
use super::tree::under;
use super::ApplyError;
use crate::poly::{Constraint, Map, PolyError};
use crate::scop::reduction::ReductionOp;
use crate::scop::schedule::{alpha_date, Mark};
use crate::scop::validity::{
    carried_closer_than, carried_dependence, first_violation_after, first_violation_from, Violation,
};
use crate::scop::{Dependence, Schedule, Scop};

/// Why a schedule is not proven legal: a broken dependence or mark, with
/// a witness pair of instances, or a nest of jams polyc does not check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// A dependence whose target is not dated after its source.
    Violation(Violation),
    /// The loop at `depth` around `statement`, marked parallel or vector,
    /// carries a dependence. With `jammed`, the enclosing loops at those
    /// depths (one, or two jammed together), unrolled by those factors and
    /// jammed, put the pair's two instances in one iteration of them
    /// (`violation`'s dates are then the jammed schedule's).
    Carried {
        statement: usize,
        depth: usize,
        jammed: Vec<(usize, u32)>,
        violation: Violation,
    },
    /// The loop at `depth` around `statement`, marked to be unrolled by
    /// `factor` and jammed, cannot be: on the jammed schedule the
    /// dependence's target runs first (`violation`'s dates are that
    /// schedule's).
    Jam {
        statement: usize,
        depth: usize,
        factor: u32,
        /// The loop around it, at this depth and jammed by this factor,
        /// whose copies are jammed with this loop's (`None`: this loop's
        /// jam alone).
        with: Option<(usize, u32)>,
        violation: Violation,
    },
    /// The loop at `depth`, marked parallel with `reduction(op: x)`,
    /// cannot reduce `x`: `why` (a statement in it reads `x` other than as
    /// an update, as a later `fuse` can make; `x` is not a scalar of the
    /// region, as a loaded schedule can say).
    Reduction { depth: usize, why: String },
    /// The loop at `depth` packs `array`, and `why` it no longer may
    /// ([`super::pack::first_unsound_pack`]).
    Pack {
        depth: usize,
        array: String,
        why: String,
    },
    /// `statement` would be jammed at more than two depths (`outer` and
    /// `inner` are the outermost and innermost), as a later `fuse` can
    /// make it: polyc checks two jams together, not three.
    NestedJam {
        statement: usize,
        outer: usize,
        inner: usize,
    },
    /// `statement` lies in the loop at depth `jammed_at`, which another
    /// statement's mark jams, and is jammed at depth `own` without it (a
    /// later `fuse` can make this): code generation jams a loop with what
    /// it holds, so the two jams would compose unchecked.
    MixedJams {
        statement: usize,
        jammed_at: usize,
        own: usize,
    },
}

/// The first way `schedule` is illegal for `deps`, or `None` when it is
/// proven legal. Exact: a [`PolyError`] is returned, never read as legal.
pub fn first_illegality(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
) -> Result<Option<Illegal>, PolyError> {
    first_illegality_but_jams(scop, deps, schedule, &NO_PROOFS)
}

/// [`first_illegality`] without the jam checks of `proven` that hold on
/// `schedule` (loops found jammable alone, as `unroll_jam` finds the loops
/// it marks, on the same pieces). Exact.
pub fn first_illegality_but_jams(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    proven: &Proofs,
) -> Result<Option<Illegal>, PolyError> {
    first_illegality_inside(scop, deps, schedule, proven, &[])
}

/// [`first_illegality_but_jams`] of a schedule whose dates differ from a
/// legal schedule's only for pairs of instances in one iteration of the
/// loop `prefix` (empty: the whole region), as a rewrite inside that loop
/// makes them: only those pairs are checked for order
/// ([`first_violation_from`]); every mark is checked. Exact under that
/// condition, which the caller must know.
pub fn first_illegality_inside(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    proven: &Proofs,
    prefix: &[i64],
) -> Result<Option<Illegal>, PolyError> {
    if let Some(v) = first_violation_from(scop, schedule, deps, prefix)? {
        return Ok(Some(Illegal::Violation(v)));
    }
    if let Some(i) = first_carried_mark(scop, deps, schedule, proven)? {
        return Ok(Some(i));
    }
    if let Some(i) = unsound_pack(scop, schedule)? {
        return Ok(Some(i));
    }
    first_unsound_jam(scop, deps, schedule, proven)
}

/// The first mark that `schedule` breaks: a parallel or vector loop that
/// carries a dependence, or a jammed loop that cannot be jammed (but the
/// jams of `proven` that hold on `schedule`). The check after a directive
/// that keeps every pair of instances in order. Exact.
pub fn first_unsound_mark(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    proven: &Proofs,
) -> Result<Option<Illegal>, PolyError> {
    if let Some(i) = first_carried_mark(scop, deps, schedule, proven)? {
        return Ok(Some(i));
    }
    if let Some(i) = unsound_pack(scop, schedule)? {
        return Ok(Some(i));
    }
    first_unsound_jam(scop, deps, schedule, proven)
}

/// The first packed loop that may no longer pack its array, as an
/// [`Illegal::Pack`]. Exact.
fn unsound_pack(scop: &Scop, schedule: &Schedule) -> Result<Option<Illegal>, PolyError> {
    Ok(
        first_unsound_pack(scop, schedule)?.map(|(depth, array, why)| Illegal::Pack {
            depth,
            array,
            why,
        }),
    )
}

/// [`first_illegality_inside`] of `schedule`, a rewrite of the legal
/// schedule `legal`: the pairs of pieces whose order the rewrite is shown
/// to keep are not tested ([`first_violation_after`]). Exact under the
/// same condition.
pub fn first_illegality_since(
    scop: &Scop,
    deps: &[Dependence],
    legal: &Schedule,
    schedule: &Schedule,
    proven: &Proofs,
    prefix: &[i64],
) -> Result<Option<Illegal>, PolyError> {
    if let Some(v) = first_violation_after(scop, legal, schedule, deps, prefix)? {
        return Ok(Some(Illegal::Violation(v)));
    }
    first_unsound_mark(scop, deps, schedule, proven)
}

/// The first loop marked parallel or vector, or mapped to CUDA blocks or
/// threads, that carries a dependence (a
/// directive may have moved statements into a marked loop, or changed its
/// dates), on the schedule or, inside a loop marked `unroll_jam`, on the
/// jammed schedule ([`jam_carried`]); the loops of `proven` that hold on
/// `schedule` aside. Exact; one carried-dependence test per marked loop
/// and per jam around it.
pub fn first_carried_mark(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    proven: &Proofs,
) -> Result<Option<Illegal>, PolyError> {
    for check in mark_checks(schedule) {
        let MarkCheck {
            statement,
            prefix,
            distance,
            reduction,
        } = check;
        let marked = MarkedLoop {
            jams_around: jams_around(schedule, &prefix)?,
            prefix,
            distance,
        };
        if reduction.is_none()
            && proven
                .marks
                .iter()
                .any(|p| p.marked == marked && p.holds_on(schedule))
        {
            continue;
        }
        let MarkedLoop {
            prefix,
            distance,
            jams_around,
        } = &marked;
        let depth = prefix.len();
        // A parallel or vector loop with a reduction may carry the
        // dependences between its updates, as long as only updates touch
        // the scalar.
        let reduced = reduction.map(|(op, x)| deps_but_reduction(scop, deps, x, op));
        let (deps, index) = match &reduced {
            Some((kept, index)) => (kept.as_slice(), Some(index)),
            None => (deps, None),
        };
        let original = |mut v: Violation| {
            if let Some(index) = index {
                v.dependence = index[v.dependence];
            }
            v
        };
        if let Some((op, x)) = reduction {
            if let Some(why) =
                reduction_break(scop, schedule, prefix, depth, x, op).map_err(unproven)?
            {
                return Ok(Some(Illegal::Reduction { depth, why }));
            }
        }
        if let Some(violation) =
            carried_closer_than(scop, schedule, deps, prefix, depth, *distance)?
        {
            return Ok(Some(Illegal::Carried {
                statement,
                depth,
                jammed: Vec::new(),
                violation: original(violation),
            }));
        }
        let mut sets: Vec<Vec<(usize, u32)>> = jams_around.iter().map(|&j| vec![j]).collect();
        if jams_around.len() == 2 {
            sets.push(jams_around.clone());
        }
        for set in sets {
            if let Some(violation) = jam_carried(scop, deps, schedule, prefix, &set)? {
                return Ok(Some(Illegal::Carried {
                    statement,
                    depth,
                    jammed: set,
                    violation: original(violation),
                }));
            }
        }
    }
    Ok(None)
}

/// One check of [`first_carried_mark`]: a marked loop (its β prefix and
/// the distance its `safelen` allows), the statement whose marks ask for
/// it, and the scalar its loop reduces, if any.
struct MarkCheck<'a> {
    statement: usize,
    prefix: Vec<i64>,
    distance: Option<u32>,
    reduction: Option<(ReductionOp, &'a String)>,
}

/// The checks of the marked loops of `schedule`, in statement order. A
/// loop is checked once per set of marks that decide the check:
/// statements of one loop may disagree (a later `fuse` merges loops
/// marked apart), and code generation prints one statement's. Cheap.
fn mark_checks(schedule: &Schedule) -> Vec<MarkCheck<'_>> {
    let mut checks: Vec<MarkCheck> = Vec::new();
    for (statement, st) in schedule.statements.iter().enumerate() {
        for (k, marks) in st.marks.iter().enumerate() {
            if !marks.iter().any(|m| unordered(m) || *m == Mark::Vector) {
                continue;
            }
            let depth = k + 1;
            // A vector loop with `safelen(n)` may carry dependences whose
            // dates are at least `n` apart; a parallel loop carries none.
            let distance = match marks.iter().find_map(|m| match m {
                Mark::Safelen(n) => Some(*n),
                _ => None,
            }) {
                Some(n) if !marks.iter().any(unordered) => Some(n),
                _ => None,
            };
            let reduction = marks.iter().find_map(|m| match m {
                Mark::Reduction(op, x) => Some((*op, x)),
                _ => None,
            });
            for p in 0..st.pieces.len() {
                let Some(beta) = st.beta(p) else { continue };
                let prefix = beta[..depth].to_vec();
                if checks.iter().any(|c| {
                    c.prefix == prefix && c.distance == distance && c.reduction == reduction
                }) {
                    continue;
                }
                checks.push(MarkCheck {
                    statement,
                    prefix,
                    distance,
                    reduction,
                });
            }
        }
    }
    checks
}

/// Whether the mark runs its loop's iterations in no order (threads, CUDA
/// blocks or threads): such a loop may carry no dependence at all.
fn unordered(m: &Mark) -> bool {
    matches!(m, Mark::Parallel | Mark::GpuBlock(_) | Mark::GpuThread(_))
}

/// The most loops of one nest that may be jammed: two (a register tile);
/// [`jam_violation`] checks them together.
pub const MAX_NESTED_JAMS: usize = 2;

/// The first loop marked `unroll_jam` that cannot be jammed
/// ([`jam_violation`] on the pieces in it), `proven` ones aside: each
/// jammed loop alone (code generation runs the other's remainder
/// iterations unjammed) and, where a statement is jammed at two depths,
/// both together. Exact; one dependence check per jammed loop and per
/// pair.
fn first_unsound_jam(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    proven: &Proofs,
) -> Result<Option<Illegal>, PolyError> {
    let mut checked: Vec<Vec<JamLoop>> = proven
        .jams
        .iter()
        .filter(|p| p.holds_on(schedule))
        .map(|p| p.jams.clone())
        .collect();
    for (statement, st) in schedule.statements.iter().enumerate() {
        let jams = jam_marks(&st.marks);
        if jams.len() > MAX_NESTED_JAMS {
            return Ok(Some(Illegal::NestedJam {
                statement,
                outer: jams[0].0,
                inner: jams[jams.len() - 1].0,
            }));
        }
        for p in 0..st.pieces.len() {
            for set in jam_sets(st, &jams, p) {
                if checked.contains(&set) {
                    continue;
                }
                if let Some(mixed) = mixed_jams(schedule, &set)? {
                    return Ok(Some(mixed));
                }
                if let Some(violation) = jam_violation(scop, deps, schedule, &set)? {
                    let (prefix, factor) = &set[set.len() - 1];
                    return Ok(Some(Illegal::Jam {
                        statement,
                        depth: prefix.len(),
                        factor: *factor,
                        with: (set.len() == 2).then(|| (set[0].0.len(), set[0].1)),
                        violation,
                    }));
                }
                checked.push(set);
            }
        }
    }
    Ok(None)
}

/// The jammed loops around piece `p` of `st` (its `jams`, from
/// [`jam_marks`]) that a jam check proves: each alone and, where there are
/// two, both together. Cheap.
fn jam_sets(
    st: &crate::scop::StatementSchedule,
    jams: &[(usize, u32)],
    p: usize,
) -> Vec<Vec<JamLoop>> {
    let Some(beta) = st.beta(p) else {
        return Vec::new();
    };
    let loops: Vec<JamLoop> = jams
        .iter()
        .filter(|(d, _)| *d <= beta.len())
        .map(|&(d, f)| (beta[..d].to_vec(), f))
        .collect();
    let mut sets: Vec<Vec<JamLoop>> = loops.iter().map(|j| vec![j.clone()]).collect();
    if loops.len() == 2 {
        sets.push(loops);
    }
    sets
}

/// The nests of `schedule` jammed at two depths: the pairs of loops
/// ([`first_unsound_jam`] proves them together), each once. Cheap.
pub fn jammed_pairs(schedule: &Schedule) -> Vec<Vec<JamLoop>> {
    let mut pairs: Vec<Vec<JamLoop>> = Vec::new();
    for st in &schedule.statements {
        let jams = jam_marks(&st.marks);
        for p in 0..st.pieces.len() {
            for set in jam_sets(st, &jams, p) {
                if set.len() == 2 && !pairs.contains(&set) {
                    pairs.push(set);
                }
            }
        }
    }
    pairs
}

/// The proofs a check that found `schedule` legal made (each check
/// inside proves every one): every jammed loop alone and every nest's
/// two together, and every marked loop that reduces nothing; so that
/// later checks on the same pieces need not ([`ProvenJam::holds_on`],
/// [`ProvenMark::holds_on`]). Cheap; a loop whose pieces cannot be read
/// is left out, which only makes a later check prove it again.
pub fn proofs_of_legal(schedule: &Schedule) -> Proofs {
    let mut sets: Vec<Vec<JamLoop>> = Vec::new();
    for st in &schedule.statements {
        let jams = jam_marks(&st.marks);
        for p in 0..st.pieces.len() {
            for set in jam_sets(st, &jams, p) {
                if !sets.contains(&set) {
                    sets.push(set);
                }
            }
        }
    }
    let jams = sets
        .into_iter()
        .filter_map(|set| ProvenJam::on(schedule, set).ok())
        .collect();
    let marks = mark_checks(schedule)
        .into_iter()
        .filter(|c| c.reduction.is_none())
        .filter_map(|c| {
            let marked = MarkedLoop {
                jams_around: jams_around(schedule, &c.prefix).ok()?,
                prefix: c.prefix,
                distance: c.distance,
            };
            ProvenMark::on(schedule, marked).ok()
        })
        .collect();
    Proofs { jams, marks }
}

/// A statement in the loops of `set` that is jammed, but not at each of
/// their depths: every statement of a jammed nest must carry the same
/// jams for [`jam_violation`]'s checks to be those of the printed code.
fn mixed_jams(schedule: &Schedule, set: &[JamLoop]) -> Result<Option<Illegal>, PolyError> {
    for (prefix, _) in set {
        let jammed_at = prefix.len();
        for t in under(schedule, prefix).map_err(unproven)? {
            let own = jam_marks(&schedule.statements[t.statement].marks);
            if let Some(&(d, _)) = own.first() {
                if !own.iter().any(|(o, _)| *o == jammed_at) {
                    return Ok(Some(Illegal::MixedJams {
                        statement: t.statement,
                        jammed_at,
                        own: d,
                    }));
                }
            }
        }
    }
    Ok(None)
}

/// The depths (1-based, outermost first) and factors of a statement's
/// `unroll_jam` marks. Cheap.
pub(super) fn jam_marks(marks: &[Vec<Mark>]) -> Vec<(usize, u32)> {
    marks
        .iter()
        .enumerate()
        .flat_map(|(k, at)| {
            at.iter().filter_map(move |m| match m {
                Mark::UnrollJam(f) => Some((k + 1, *f)),
                _ => None,
            })
        })
        .collect()
}

/// Whether the loop `prefix` (at depth `prefix.len()`) can be unrolled by
/// `factor` and jammed: code generation jams `factor` consecutive dates of
/// the loop, in groups that start at its lower bound, which is not known
/// here; so for every alignment of the groups (the pieces in the loop
/// strip-mined by `factor`, shifted by `0..factor`) with the point loop
/// moved innermost, every dependence must be respected. The first pair
/// out of order, with its dates on that jammed schedule, or `None`. Exact.
///
/// The alignment is one more parameter `s`, `0 ≤ s < factor`, shared by
/// the two instances of every pair: the loop's dates become `α + s` and
/// are strip-mined from 0, so that one dependence check covers every
/// alignment (the point dates move by the same `s` for every instance,
/// which keeps their order). The witness's parameters leave `s` out; its
/// dates are those of the jammed schedule for the alignment found.
///
/// With two loops (`jams`, the outer first, the inner nested in it), both
/// are jammed at once, each with its own alignment: the outer loop's copies
/// first, each holding the inner loop's copies in order (code generation
/// prints them so), so the outer point loop goes innermost, then the inner
/// one after it.
///
/// `schedule` must respect every dependence (each caller has checked it,
/// or it is a directive's legal input): jamming changes only the dates
/// from the outer jammed loop's on, of the instances in it, so only the
/// pairs in one iteration of every loop around it are checked again
/// ([`first_violation_from`]).
pub fn jam_violation(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    jams: &[JamLoop],
) -> Result<Option<Violation>, PolyError> {
    let np = scop.params.len();
    let prefixes: Vec<&[i64]> = jams.iter().map(|(p, _)| p.as_slice()).collect();
    let touched = deps_inside(schedule, deps, &prefixes)?;
    if touched.is_empty() {
        return Ok(None);
    }
    let near: Vec<Dependence> = touched.iter().map(|&k| deps[k].clone()).collect();
    let (scop, near, jammed) = jammed_schedule(scop, &near, schedule, jams)?;
    let outer = jams
        .first()
        .map_or(&[][..], |(prefix, _)| prefix.as_slice());
    Ok(
        first_violation_from(&scop, &jammed, &near, outer)?.map(|mut v| {
            v.params.truncate(np);
            v.dependence = touched[v.dependence];
            v
        }),
    )
}

/// The loops marked `unroll_jam` around the statements of the loop
/// `prefix` (at depth `prefix.len()`), outside it: their depths and
/// factors. Cheap.
fn jams_around(schedule: &Schedule, prefix: &[i64]) -> Result<Vec<(usize, u32)>, PolyError> {
    let depth = prefix.len();
    let mut out = Vec::new();
    for t in under(schedule, prefix).map_err(unproven)? {
        let marks = &schedule.statements[t.statement].marks;
        for (k, at) in marks.iter().enumerate().take(depth - 1) {
            for m in at {
                if let Mark::UnrollJam(f) = m {
                    if !out.contains(&(k + 1, *f)) {
                        out.push((k + 1, *f));
                    }
                }
            }
        }
    }
    out.sort_unstable();
    Ok(out)
}

/// A dependence carried by the loop `prefix` (marked parallel or vector,
/// at depth `prefix.len()`) once the loop around it at depth `outer` is
/// unrolled by `factor` and jammed: the copies of `factor` consecutive
/// iterations of the outer loop then share each iteration of this one, so
/// a pair from two of them on different iterations of this loop is
/// carried by it (`clay-comment.c` with `unroll_jam([0], 1, 8);
/// parallelize([0], 2)`: `A[i + 1][j]` reads `A[i][j + 1]` of the next
/// `j`). Checked on [`jam_violation`]'s jammed schedule, for every
/// alignment; where code generation does not jam the copies through this
/// loop (a loop between them holds two loops), each copy is a loop of its
/// own and the check is stricter than the code needs. Exact otherwise.
///
/// `jams` (depths and factors, outermost first) holds one loop around it,
/// or two checked together (as [`jam_violation`] jams them).
fn jam_carried(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    prefix: &[i64],
    jams: &[(usize, u32)],
) -> Result<Option<Violation>, PolyError> {
    let np = scop.params.len();
    let depth = prefix.len();
    // Only a pair of instances in the loop can be carried by it (the
    // jams move loops inside the jammed ones, and none in or out).
    let index = deps_inside(schedule, deps, &[prefix])?;
    if index.is_empty() {
        return Ok(None);
    }
    let near: Vec<Dependence> = index.iter().map(|&k| deps[k].clone()).collect();
    let loops: Vec<JamLoop> = jams
        .iter()
        .map(|&(d, f)| (prefix[..d].to_vec(), f))
        .collect();
    let (scop, deps, jammed) = jammed_schedule(scop, &near, schedule, &loops)?;
    let inner = jams
        .iter()
        .fold(prefix.to_vec(), |p, &(d, _)| moved_by_jam(&p, d));
    Ok(
        carried_dependence(&scop, &jammed, &deps, &inner, depth)?.map(|mut v| {
            v.params.truncate(np);
            v.dependence = index[v.dependence];
            v
        }),
    )
}

/// The positions in `deps` of the dependences between statements with
/// pieces in the loops `prefixes`. Cheap.
fn deps_inside(
    schedule: &Schedule,
    deps: &[Dependence],
    prefixes: &[&[i64]],
) -> Result<Vec<usize>, PolyError> {
    let mut inside = vec![false; schedule.statements.len()];
    for prefix in prefixes {
        for t in under(schedule, prefix).map_err(unproven)? {
            inside[t.statement] = true;
        }
    }
    Ok((0..deps.len())
        .filter(|&k| inside[deps[k].source] && inside[deps[k].target])
        .collect())
}

/// The β prefix of a loop inside a loop jammed at depth `at`, on the jammed
/// schedule: strip-mining adds the β 0 after the tile loop, and with the
/// point loop moved innermost the loops in between keep their depths.
fn moved_by_jam(prefix: &[i64], at: usize) -> Vec<i64> {
    if prefix.len() <= at {
        return prefix.to_vec();
    }
    let mut moved = prefix[..at].to_vec();
    moved.push(0);
    moved.extend_from_slice(&prefix[at..prefix.len() - 1]);
    moved
}

/// The schedule [`jam_violation`] checks: for each of `jams` in turn
/// (outermost first), the pieces in the loop strip-mined by its factor at
/// every alignment (one more parameter each, after the scop's), its point
/// loop moved innermost; and the scop and dependences with those
/// parameters.
fn jammed_schedule(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    jams: &[JamLoop],
) -> Result<(Scop, Vec<Dependence>, Schedule), PolyError> {
    let mut jammed = (scop.clone(), deps.to_vec(), schedule.clone());
    for (n, (prefix, factor)) in jams.iter().enumerate() {
        let prefix = jams[..n].iter().fold(prefix.clone(), |p, (outer, _)| {
            moved_by_jam(&p, outer.len())
        });
        let (scop, deps, schedule) = &jammed;
        jammed = jam_once(scop, deps, schedule, &prefix, *factor, n)?;
    }
    Ok(jammed)
}

/// One jam of [`jammed_schedule`]: the loop `prefix` strip-mined by
/// `factor` at every alignment (the `n`-th alignment parameter), its point
/// loop innermost.
fn jam_once(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    prefix: &[i64],
    factor: u32,
    n: usize,
) -> Result<(Scop, Vec<Dependence>, Schedule), PolyError> {
    let depth = prefix.len();
    let size = i64::from(factor);
    let np = scop.params.len();
    let (scop, deps, schedule) = with_alignment_parameter(scop, deps, schedule, n);
    let mut by_alignment = vec![0; np + 1];
    by_alignment[np] = -1; // α := α − (−1)·s
    let aligned = shift(&schedule, &scop, prefix, depth, &by_alignment, 0).map_err(unproven)?;
    let targets = under(&aligned, prefix).map_err(unproven)?;
    let mut jammed =
        stripmine_pieces_shifted(&aligned, &targets, prefix, depth, size, 0).map_err(unproven)?;
    for t in &targets {
        let st = &mut jammed.statements[t.statement];
        let innermost = st.depth();
        let piece = &mut st.pieces[t.piece];
        // 0 <= s <= factor - 1.
        let mut lower = vec![0; piece.n_cols()];
        lower[np] = 1;
        let mut upper = vec![0; piece.n_cols()];
        upper[np] = -1;
        piece.add(Constraint::ineq(lower, 0));
        piece.add(Constraint::ineq(upper, size - 1));
        for d in depth + 1..innermost {
            *piece = swap_dates(piece, alpha_date(d), alpha_date(d + 1));
        }
    }
    Ok((scop, deps, jammed))
}

/// The name of the alignment parameters of [`jam_violation`], numbered
/// (never a C name a kernel uses: they are not printed).
const ALIGNMENT: &str = "polyc_jam_alignment";

/// `scop`, `deps` and `schedule` with one more parameter, the `n`-th
/// alignment, after the others: no constraint mentions it yet. Cheap.
fn with_alignment_parameter(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    n: usize,
) -> (Scop, Vec<Dependence>, Schedule) {
    let name = format!("{ALIGNMENT}{n}");
    let name = name.as_str();
    let mut scop = scop.clone();
    scop.params.push(name.to_string());
    scop.context = scop.context.with_param_appended(name);
    let deps = deps
        .iter()
        .map(|d| {
            let mut space = d.relation.space().clone();
            space.params.push(name.to_string());
            let mut relation = Map::empty(space);
            for b in d.relation.basics() {
                relation.push(b.with_param_appended(name));
            }
            Dependence {
                relation,
                ..d.clone()
            }
        })
        .collect();
    let mut schedule = schedule.clone();
    for st in &mut schedule.statements {
        for piece in &mut st.pieces {
            *piece = piece.with_param_appended(name);
        }
    }
    (scop, deps, schedule)
}

/// A jam check that could not build its schedule is not a proof.
fn unproven(e: ApplyError) -> PolyError {
    match e {
        ApplyError::Poly(e) => e,
        _ => PolyError::Unsupported("a jammed loop whose pieces cannot be strip-mined"),
    }
}
