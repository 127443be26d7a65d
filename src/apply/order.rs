//! The directives that change only β-vectors (the textual order and the
//! loop structure): `reorder`, `split` (fission), `fuse`, and `block` (a
//! statement joins another one's loops).

use super::tree::{all_betas, set_constant_date, shift_after, under};
use super::ApplyError;
use crate::scop::schedule::beta_date;
use crate::scop::{Schedule, Scop};

/// `schedule` with each piece's β-vector replaced by `f(β)` where it gives one.
fn rewrite_betas(
    schedule: &Schedule,
    f: impl Fn(&[i64]) -> Option<Vec<i64>>,
) -> Result<Schedule, ApplyError> {
    let mut next = schedule.clone();
    for (r, old) in all_betas(schedule)? {
        if let Some(new) = f(&old) {
            let piece = &mut next.statements[r.statement].pieces[r.piece];
            for (k, (&o, &n)) in old.iter().zip(&new).enumerate() {
                if o != n {
                    *piece = set_constant_date(piece, beta_date(k), n);
                }
            }
        }
    }
    Ok(next)
}

/// The number of children of the loop (or root) `beta`: the distinct
/// values of `β[len]` under it.
fn children(schedule: &Schedule, beta: &[i64]) -> Result<Vec<i64>, ApplyError> {
    let mut values: Vec<i64> = all_betas(schedule)?
        .into_iter()
        .filter(|(_, b)| b.len() > beta.len() && b.starts_with(beta))
        .map(|(_, b)| b[beta.len()])
        .collect();
    values.sort_unstable();
    values.dedup();
    Ok(values)
}

/// Child `x` of loop `beta` moves to position `order[x]`.
pub fn reorder(schedule: &Schedule, beta: &[i64], order: &[i64]) -> Result<Schedule, ApplyError> {
    if beta.is_empty() && schedule.statements.is_empty() {
        // An empty region: nothing to reorder (Clay: a warning).
        return Ok(schedule.clone());
    }
    if !beta.is_empty() {
        under(schedule, beta)?;
    }
    let kids = children(schedule, beta)?;
    if kids.is_empty() {
        return Err(ApplyError::precondition(format!(
            "reorder: {beta:?} is a statement, not a loop; it has no children to reorder"
        )));
    }
    let mut sorted = order.to_vec();
    sorted.sort_unstable();
    let n = i64::try_from(kids.len()).unwrap_or(i64::MAX);
    if sorted != (0..n).collect::<Vec<_>>() {
        return Err(ApplyError::precondition(format!(
            "reorder: the new order must be a permutation of 0..{} (the loop has {} children), not {order:?}",
            n - 1,
            kids.len()
        )));
    }
    let at = beta.len();
    rewrite_betas(schedule, |b| {
        if b.len() > at && b.starts_with(beta) {
            let x = kids.iter().position(|&v| v == b[at])?;
            let mut new = b.to_vec();
            new[at] = order[x];
            Some(new)
        } else {
            None
        }
    })
}

/// Split the loop at `depth` enclosing `beta` after `beta`, as Clay's
/// `clay_split` (`clay_beta_shift_after`): everything after `beta` in that
/// loop, at any nesting level, moves to a new loop right after it. When
/// nothing follows, the schedule is unchanged (a warning, as in Clay).
pub fn split(schedule: &Schedule, beta: &[i64], depth: usize) -> Result<Schedule, ApplyError> {
    under(schedule, beta)?;
    if depth == 0 || beta.len() <= depth {
        return Err(ApplyError::precondition(format!(
            "split: {beta:?} is not inside a loop at depth {depth}"
        ))
        .with_help("the β-vector must be longer than the depth: it names a child of that loop"));
    }
    shift_after(schedule, beta, depth)
}

/// Merge the loop after `beta` into loop `beta`; its children come after
/// `beta`'s.
pub fn fuse(schedule: &Schedule, beta: &[i64]) -> Result<Schedule, ApplyError> {
    under(schedule, beta)?;
    let Some((&pos, parent)) = beta.split_last() else {
        return Err(ApplyError::precondition(
            "fuse: the root is not a loop; name a loop",
        ));
    };
    let depth = beta.len();
    let own = children(schedule, beta)?;
    if own.is_empty() {
        return Err(ApplyError::precondition(format!(
            "fuse: {beta:?} is a statement, not a loop"
        )));
    }
    let mut next_beta = parent.to_vec();
    next_beta.push(pos + 1);
    let theirs = children(schedule, &next_beta)?;
    if theirs.is_empty() {
        // Nothing after the loop, or a statement: Clay leaves the schedule
        // as it was (a warning).
        return Ok(schedule.clone());
    }
    let offset = own.last().copied().unwrap_or(0) + 1;
    rewrite_betas(schedule, |b| {
        if b.len() <= depth || !b.starts_with(&next_beta) {
            return None;
        }
        let mut new = b.to_vec();
        new[depth - 1] = pos;
        new[depth] += offset;
        Some(new)
    })
}

/// Clay's `block(beta1, beta2)`: the second statement joins the first,
/// right after it in the same loops (one block per iteration). Both must be
/// single statements (not loops, not split by `iss`) with the same number
/// of iterators and the same domain (exact).
pub fn block(
    schedule: &Schedule,
    scop: &Scop,
    b1: &[i64],
    b2: &[i64],
) -> Result<Schedule, ApplyError> {
    let one = |b: &[i64]| -> Result<usize, ApplyError> {
        let t = under(schedule, b)?;
        match t.as_slice() {
            [only]
                if schedule.statements[only.statement].pieces.len() == 1
                    && schedule.statements[only.statement].beta(0).as_deref() == Some(b) =>
            {
                Ok(only.statement)
            }
            _ => Err(ApplyError::precondition(format!(
                "block: {b:?} is not a single statement (a loop, or a statement split by iss)"
            ))
            .with_help(
                "block takes the β-vectors of two statements, as `--emit schedule-text` shows them",
            )),
        }
    };
    let (s1, s2) = (one(b1)?, one(b2)?);
    if s1 == s2 {
        return Err(ApplyError::precondition(
            "block: both β-vectors name the same statement",
        ));
    }
    let (st1, st2) = (&scop.statements[s1], &scop.statements[s2]);
    if st1.iterators.len() != st2.iterators.len() {
        return Err(ApplyError::precondition(format!(
            "block: {} has {} iterators and {} has {}; a block needs the same loops",
            st1.name,
            st1.iterators.len(),
            st2.name,
            st2.iterators.len()
        )));
    }
    // The same domain, compared in one space.
    let respaced = |set: &crate::poly::Set| {
        let mut out = crate::poly::Set::empty(st1.domain.space().clone());
        for b in set.basics() {
            out.push(crate::poly::BasicSet::from_parts(
                st1.domain.space().clone(),
                b.n_local(),
                b.constraints().to_vec(),
            ));
        }
        out
    };
    if !respaced(&st2.domain).is_equal(&st1.domain)? {
        return Err(ApplyError::precondition(format!(
            "block: {} and {} do not have the same domain",
            st1.name, st2.name
        ))
        .with_help("iss or peel one of them first so that their iteration domains match"));
    }
    // S2 takes S1's dates, one place after it at the innermost level.
    let p1 = &schedule.statements[s1].pieces[0];
    let last = p1.space().n_out() - 1;
    let beta1 = schedule.statements[s1].beta(0).unwrap_or_default();
    let x = beta1.last().copied().unwrap_or(0);
    let prefix = &beta1[..beta1.len() - 1];
    let mut next = rewrite_betas(schedule, |b| {
        // Every later sibling moves, loops as well as statements.
        let at = prefix.len();
        (b.len() > at && b.starts_with(prefix) && b[at] > x).then(|| {
            let mut n = b.to_vec();
            n[at] += 1;
            n
        })
    })?;
    let space2 = schedule.statements[s2].pieces[0].space().clone();
    let joined = crate::poly::BasicMap::from_columns(
        crate::poly::Space::map(
            space2.params.clone(),
            space2
                .input
                .clone()
                .unwrap_or_else(|| crate::poly::Tuple::new(None, Vec::new())),
            p1.space().output.clone(),
        ),
        p1.n_local(),
        p1.constraints().to_vec(),
    );
    next.statements[s2].pieces = vec![set_constant_date(&joined, last, x + 1)];
    next.statements[s2].marks = next.statements[s1].marks.clone();
    Ok(next)
}
