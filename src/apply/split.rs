//! Index-set splitting (`iss`): the iterations of a loop where an affine
//! form is non-negative become new children of the same loop, after its
//! existing ones (Clay's `clay_iss`); `peel` also splits the loop there.
//! A statement's schedule becomes a union of pieces.

use super::tree::{all_betas, set_constant_date, shift_after, under};
use super::{check_depth, ApplyError};
use crate::poly::{Constraint, PolyError};
use crate::scop::schedule::{alpha_date, beta_date};
use crate::scop::Schedule;

/// The split form `Σ alphas·α + Σ iters·iterators + Σ params·params +
/// constant`: Clay's list `{out | in | params | const}` with its sections
/// as written (a section longer than the statement's is refused, so the
/// lengths are kept), not an arithmetic form (that is `poly::Affine`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitForm {
    pub alphas: Vec<i64>,
    pub iters: Vec<i64>,
    pub params: Vec<i64>,
    pub constant: i64,
}

/// Split the pieces under `beta` (a loop at depth `beta.len()`) by `form`,
/// exactly as Clay's `clay_iss`: both parts stay inside the loop. The part
/// where `form < 0` keeps its β; the part where `form >= 0` gets
/// `β[len(beta)] += m + 1`, `m` the largest child position of the loop
/// before the split, so it comes after every existing child and `iss`
/// alone never reorders anything. Provably empty parts are kept (as Clay
/// keeps them), so later β-vectors number as Clay's do.
pub fn iss(schedule: &Schedule, beta: &[i64], form: &SplitForm) -> Result<Schedule, ApplyError> {
    Ok(iss_with_max(schedule, beta, form)?.0)
}

/// [`iss`], and the β-vector of the last piece under `beta` before the
/// split (Clay's `beta_max`, where `peel` splits the loop).
fn iss_with_max(
    schedule: &Schedule,
    beta: &[i64],
    form: &SplitForm,
) -> Result<(Schedule, Vec<i64>), ApplyError> {
    let targets = under(schedule, beta)?;
    let depth = beta.len();
    if depth == 0 {
        return Err(ApplyError::precondition("iss: name a loop, not the root")
            .with_help("`iss([0], …)` splits the first top-level loop"));
    }
    check_depth(schedule, &targets, depth, "iss")?;
    let n_param = schedule.statements[targets[0].statement].pieces[0]
        .space()
        .n_param();
    if form.params.len() > n_param {
        return Err(ApplyError::precondition(format!(
            "iss: {} parameter coefficients, but the region has {n_param} parameters",
            form.params.len()
        )));
    }
    let betas = all_betas(schedule)?;
    let beta_max = betas
        .iter()
        .filter(|(_, b)| b.starts_with(beta))
        .map(|(_, b)| b.clone())
        .max()
        .unwrap_or_else(|| beta.to_vec());
    let order = beta_max
        .get(depth)
        .and_then(|m| m.checked_add(1))
        .ok_or(PolyError::Overflow)?;
    let mut next = schedule.clone();
    // Split every target piece (in reverse, so indices stay valid).
    let mut targets = targets;
    targets.sort();
    for t in targets.iter().rev() {
        let st = &mut next.statements[t.statement];
        let piece = st.pieces[t.piece].clone();
        let space = piece.space().clone();
        if form.alphas.len() > st.depth() || form.iters.len() > space.n_in() {
            return Err(ApplyError::precondition(format!(
                "iss: statement S{} has {} loops and {} iterators; the form has {} and {} coefficients",
                t.statement,
                st.depth(),
                space.n_in(),
                form.alphas.len(),
                form.iters.len()
            )));
        }
        let mut row = vec![0; piece.n_cols()];
        for (k, &v) in form.alphas.iter().enumerate() {
            row[space.out_col(alpha_date(k + 1))] = v;
        }
        for (k, &v) in form.iters.iter().enumerate() {
            row[space.in_col(k)] = v;
        }
        row[..form.params.len()].copy_from_slice(&form.params);
        let second_row = Constraint::ineq(row.clone(), form.constant);
        // not (e >= 0): -e - 1 >= 0.
        let negated: Option<Vec<i64>> = row.iter().map(|v| v.checked_neg()).collect();
        let constant = form.constant.checked_neg().and_then(|c| c.checked_sub(1));
        let (Some(negated), Some(constant)) = (negated, constant) else {
            return Err(PolyError::Overflow.into());
        };
        let first_row = Constraint::ineq(negated, constant);
        let own = st.beta(t.piece).unwrap_or_default();
        let moved = own
            .get(depth)
            .and_then(|v| v.checked_add(order))
            .ok_or(PolyError::Overflow)?;
        let mut first = piece.clone();
        first.add(first_row);
        let mut second = piece;
        second.add(second_row);
        second = set_constant_date(&second, beta_date(depth), moved);
        st.pieces[t.piece] = first;
        st.pieces.insert(t.piece + 1, second);
    }
    Ok((next, beta_max))
}

/// `peel(beta, {params | const})`, as Clay's `clay_peel`: `iss` on the
/// loop's own counter (`α + params·p + const >= 0` is the second part),
/// then the loop is split after its last child before the split, so the
/// second part is a new loop right after it (Clay's `peel([0], {-15})`
/// peels the first 15 iterations off loop `[0]`).
pub fn peel(
    schedule: &Schedule,
    beta: &[i64],
    params: &[i64],
    constant: i64,
) -> Result<Schedule, ApplyError> {
    let depth = beta.len();
    let mut alphas = vec![0; depth];
    if let Some(last) = alphas.last_mut() {
        *last = 1;
    }
    let (split, beta_max) = iss_with_max(
        schedule,
        beta,
        &SplitForm {
            alphas,
            iters: Vec::new(),
            params: params.to_vec(),
            constant,
        },
    )?;
    shift_after(&split, &beta_max, depth)
}

/// Undo `iss`, as Clay's `clay_collapse`: the children of loop `beta` are
/// `2n` pieces in pairs, child `x` and child `x + n` (the two parts `iss`
/// made of one piece); each pair becomes one piece again, with the first
/// one's β.
pub fn collapse(schedule: &Schedule, beta: &[i64]) -> Result<Schedule, ApplyError> {
    if beta.is_empty() {
        return Err(ApplyError::precondition(
            "collapse: name a loop, not the root",
        ));
    }
    let pos = beta.len();
    let mut matching: Vec<(super::tree::PieceRef, Vec<i64>)> = all_betas(schedule)?
        .into_iter()
        .filter(|(_, b)| b.starts_with(beta))
        .collect();
    if matching.is_empty() || !matching.len().is_multiple_of(2) {
        return Err(ApplyError::precondition(format!(
            "collapse: the loop {beta:?} does not hold pairs of parts (it has {} pieces)",
            matching.len()
        ))
        .with_help("collapse undoes iss: the loop holds both parts of each split piece"));
    }
    if matching.iter().any(|(_, b)| b.len() <= pos) {
        return Err(ApplyError::precondition(format!(
            "collapse: {beta:?} is a statement, not a loop"
        )));
    }
    matching.sort_by(|x, y| x.1.cmp(&y.1));
    let max_child = matching.iter().map(|(_, b)| b[pos]).max().unwrap_or(0);
    let pairs = (max_child + 1) / 2;
    let mut next = schedule.clone();
    let mut drop: Vec<(usize, usize)> = Vec::new();
    for (first, first_beta) in &matching[..matching.len() / 2] {
        let mut second_beta = first_beta.clone();
        second_beta[pos] += pairs;
        let second = matching
            .iter()
            .find(|(r, b)| *b == second_beta && r.statement == first.statement);
        let st = &schedule.statements[first.statement];
        let merged_piece = second.and_then(|(r, _)| {
            let moved = set_constant_date(&st.pieces[r.piece], beta_date(pos), first_beta[pos]);
            merged(&st.pieces[first.piece], &moved).map(|m| (r.piece, m))
        });
        let Some((second_piece, m)) = merged_piece else {
            return Err(ApplyError::precondition(format!(
                "collapse: the part of statement S{} at {first_beta:?} has no complement at {second_beta:?}",
                first.statement
            ))
            .with_help("collapse undoes iss; both parts must come from one index-set split"));
        };
        next.statements[first.statement].pieces[first.piece] = m;
        drop.push((first.statement, second_piece));
    }
    drop.sort();
    drop.dedup();
    for (st, piece) in drop.into_iter().rev() {
        next.statements[st].pieces.remove(piece);
    }
    Ok(next)
}

/// `a ∪ b` as one piece when they have the same rows but one, `r` in `a`
/// and its negation `-r - 1` in `b`: the common rows. A cheap syntactic
/// check.
fn merged(a: &crate::poly::BasicMap, b: &crate::poly::BasicMap) -> Option<crate::poly::BasicMap> {
    if a.space() != b.space() || a.n_local() != b.n_local() {
        return None;
    }
    let only_a: Vec<&Constraint> = a
        .constraints()
        .iter()
        .filter(|r| !b.constraints().contains(r))
        .collect();
    let only_b: Vec<&Constraint> = b
        .constraints()
        .iter()
        .filter(|r| !a.constraints().contains(r))
        .collect();
    let ([ra], [rb]) = (only_a.as_slice(), only_b.as_slice()) else {
        return None;
    };
    let negation = ra
        .coeffs
        .iter()
        .zip(&rb.coeffs)
        .all(|(x, y)| x.checked_neg() == Some(*y))
        && ra.constant.checked_neg().and_then(|c| c.checked_sub(1)) == Some(rb.constant);
    if ra.kind != crate::poly::ConstraintKind::Ineq || rb.kind != ra.kind || !negation {
        return None;
    }
    let rows = a
        .constraints()
        .iter()
        .filter(|r| r != ra)
        .cloned()
        .collect();
    Some(crate::poly::BasicMap::from_columns(
        a.space().clone(),
        a.n_local(),
        rows,
    ))
}
