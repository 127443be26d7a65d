//! The affine directives: `interchange`, `reverse`, `skew`, `shift`. Each
//! rewrites the α dates of the pieces under a β-vector by a unimodular
//! (or translating) change of the dates; none changes the loop structure.

use super::dates::{negate_date, substitute_date, swap_dates};
use super::tree::under;
use super::{check_depth, rewrite_pieces, ApplyError};
use crate::scop::schedule::alpha_date;
use crate::scop::{Schedule, Scop};

/// Swap `α_d1` and `α_d2` of the statements under `beta`.
pub fn interchange(
    schedule: &Schedule,
    beta: &[i64],
    d1: usize,
    d2: usize,
) -> Result<Schedule, ApplyError> {
    let targets = under(schedule, beta)?;
    check_depth(schedule, &targets, d1.max(d2), "interchange")?;
    check_depth(schedule, &targets, d1.min(d2), "interchange")?;
    rewrite_pieces(schedule, &targets, |p| {
        Ok(swap_dates(p, alpha_date(d1), alpha_date(d2)))
    })
}

/// `α_depth := −α_depth` under `beta`.
pub fn reverse(schedule: &Schedule, beta: &[i64], depth: usize) -> Result<Schedule, ApplyError> {
    let targets = under(schedule, beta)?;
    check_depth(schedule, &targets, depth, "reverse")?;
    rewrite_pieces(schedule, &targets, |p| {
        Ok(negate_date(p, alpha_date(depth))?)
    })
}

/// `α_depth := α_depth − factor·α_other` under `beta` (Clay's sign: its
/// golden `skew([0,0],1,2,2)` gives `i − 2j`).
pub fn skew(
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
    other: usize,
    factor: i64,
) -> Result<Schedule, ApplyError> {
    let targets = under(schedule, beta)?;
    check_depth(schedule, &targets, depth.max(other), "skew")?;
    check_depth(schedule, &targets, depth.min(other), "skew")?;
    if depth == other {
        return Err(ApplyError::precondition(format!(
            "skew: a loop cannot be skewed by itself (both depths are {depth})"
        ))
        .with_help("to scale a loop, use `grain`; to reverse it, `reverse`"));
    }
    // Old α_depth = new α_depth + factor·α_other.
    rewrite_pieces(schedule, &targets, |p| {
        Ok(substitute_date(
            p,
            alpha_date(depth),
            &[(alpha_date(other), factor)],
            &[],
            0,
        )?)
    })
}

/// `α_depth := α_depth − Σ params_i·p_i − constant` under `beta` (Clay's
/// sign: its golden `shift([0],1,[],-1)` gives `i + 1`).
pub fn shift(
    schedule: &Schedule,
    scop: &Scop,
    beta: &[i64],
    depth: usize,
    params: &[i64],
    constant: i64,
) -> Result<Schedule, ApplyError> {
    let targets = under(schedule, beta)?;
    check_depth(schedule, &targets, depth, "shift")?;
    if !params.is_empty() && params.len() != scop.params.len() {
        return Err(ApplyError::precondition(format!(
            "shift: {} parameter coefficients given, the region has {} parameters ({})",
            params.len(),
            scop.params.len(),
            scop.params.join(", ")
        ))
        .with_help("give one coefficient per parameter, in that order, or `[]`"));
    }
    let coeffs: Vec<(usize, i64)> = params.iter().copied().enumerate().collect();
    rewrite_pieces(schedule, &targets, |p| {
        Ok(substitute_date(
            p,
            alpha_date(depth),
            &[],
            &coeffs,
            constant,
        )?)
    })
}
