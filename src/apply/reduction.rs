//! `parallelize(…, reduction = x)` and `vectorize(…, reduction = x)`: a
//! parallel or vector loop that carries the dependences between the
//! updates of the scalar `x` (each thread, or SIMD lane, updates its own
//! copy: OpenMP's `reduction(op: x)`). Legal when every statement
//! in the loop that reads or writes `x` is an update of it with one
//! operator ([`crate::scop::reduction`]) and the loop carries no other
//! dependence. Both halves are checked when the mark is set and again
//! after every later directive ([`super::legality`]): a `fuse` may bring a
//! statement that reads `x` into the loop.

use super::tree::under;
use super::ApplyError;
use crate::scop::reduction::{update_operator, ReductionOp};
use crate::scop::{Dependence, Schedule, Scop};

/// The operator of the reduction of `variable` in the loops `prefixes`
/// (at depth `depth`): `variable` must be a scalar of the region, some
/// statement in the loops must update it, and every statement there that
/// reads or writes it must be an update with that one operator. Cheap.
pub(super) fn reduction_operator(
    scop: &Scop,
    schedule: &Schedule,
    prefixes: &[Vec<i64>],
    depth: usize,
    variable: &str,
    what: &str,
) -> Result<ReductionOp, ApplyError> {
    let refuse = |why: String, help: &str| {
        Err(ApplyError::precondition(format!("{what}: {why}")).with_help(help))
    };
    if let Some(why) = not_a_scalar(scop, variable) {
        return refuse(
            why,
            "`reduction = x` names a scalar that the loop's statements update",
        );
    }
    let mut op = None;
    for prefix in prefixes {
        for t in under(schedule, prefix)? {
            if let Some(found) = update_operator(&scop.statements[t.statement], variable) {
                op.get_or_insert(found);
            }
        }
    }
    let Some(op) = op else {
        return refuse(
            format!(
                "no statement in the loop at depth {depth} updates `{variable}` \
                 (`{variable} += e`, `{variable} = {variable} * e`, …)"
            ),
            "a reduction needs an update of the variable in the loop",
        );
    };
    for prefix in prefixes {
        if let Some(why) = reduction_break(scop, schedule, prefix, depth, variable, op)? {
            return refuse(
                why,
                "reduce in a loop whose only accesses to the variable are its updates",
            );
        }
    }
    Ok(op)
}

/// Why the loop `prefix` (at depth `depth`) cannot reduce `variable` with
/// `op`: it is not a scalar of the region, or a statement in the loop
/// reads or writes it other than as an update with `op` (it would see
/// one thread's partial value); `None` when it can. Cheap.
pub(super) fn reduction_break(
    scop: &Scop,
    schedule: &Schedule,
    prefix: &[i64],
    depth: usize,
    variable: &str,
    op: ReductionOp,
) -> Result<Option<String>, ApplyError> {
    if let Some(why) = not_a_scalar(scop, variable) {
        return Ok(Some(why));
    }
    let other = under(schedule, prefix)?
        .into_iter()
        .map(|t| t.statement)
        .find(|&s| {
            let st = &scop.statements[s];
            st.accesses.iter().any(|a| a.array == variable)
                && update_operator(st, variable) != Some(op)
        });
    Ok(other.map(|s| {
        format!(
            "statement S{s} in the loop at depth {depth} reads or writes `{variable}` and is not \
             an update of it with `{0}`; under `reduction({0}: {variable})` it would see one \
             thread's partial value",
            op.symbol()
        )
    }))
}

/// Why `variable` is not a scalar of the region, if it is not.
fn not_a_scalar(scop: &Scop, variable: &str) -> Option<String> {
    match scop.arrays.iter().find(|a| a.name == variable) {
        None => Some(format!(
            "the region neither reads nor writes a variable `{variable}`"
        )),
        Some(a) if a.n_dims > 0 => Some(format!(
            "`{variable}` is an array, and polyc reduces scalars only (OpenMP would keep a \
             private copy of an array section per thread)"
        )),
        Some(_) => None,
    }
}

/// `deps` without those a reduction of `variable` by `op` lets a parallel
/// loop carry (on `variable`, between two of its updates by `op`), with
/// the index in `deps` of each one kept. Cheap.
pub(super) fn deps_but_reduction(
    scop: &Scop,
    deps: &[Dependence],
    variable: &str,
    op: ReductionOp,
) -> (Vec<Dependence>, Vec<usize>) {
    let update = |s: usize| update_operator(&scop.statements[s], variable) == Some(op);
    deps.iter()
        .enumerate()
        .filter(|(_, d)| !(d.array == variable && update(d.source) && update(d.target)))
        .map(|(k, d)| (d.clone(), k))
        .unzip()
}
