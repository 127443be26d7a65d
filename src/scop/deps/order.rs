//! The original execution order, read off each statement's 2d+1 schedule
//! `[β0, α1, β1, …, αd, βd]`.
//!
//! Two statements share loop `k` (1-based) iff their `β0 … β(k-1)` are equal.
//! An instance of `S` runs before an instance of `T` *at depth `k`* (a common
//! loop) iff `α1 … α(k-1)` are equal and `αk(S) < αk(T)`; at depth
//! `n_common + 1` (loop-independent) iff every common `α` is equal and `S`
//! comes first in the text: `β_{n_common}(S) < β_{n_common}(T)`. The `α` are
//! the iterators, negated for a loop that counts down, so comparing them is
//! comparing execution order.

use super::polyhedron::Layout;
use crate::poly::{checked_add, Affine, BasicMap, Constraint, ConstraintKind, PolyError};
use crate::scop::schedule::date_count;

/// An affine form over the columns `[params | iterators]`.
type Aff = Affine<usize>;

/// One statement's place in the original order.
#[derive(Clone, Debug)]
pub(super) struct Position {
    n_param: usize,
    /// `β0 … βd`: textual positions.
    betas: Vec<i64>,
    /// `α1 … αd` as affine forms of the parameters and iterators.
    alphas: Vec<Aff>,
}

const NOT_2D1: &str = "dependence analysis of a schedule that is not in 2d+1 form";

impl Position {
    /// Read a 2d+1 schedule: every output is defined by an equality with a
    /// unit coefficient on it (β: a constant; α: a form of the inputs).
    pub(super) fn read(schedule: &BasicMap) -> Result<Position, PolyError> {
        let space = schedule.space();
        let (np, d) = (space.n_param(), space.n_in());
        if space.n_out() != date_count(d) || schedule.n_local() != 0 {
            return Err(PolyError::Unsupported(NOT_2D1));
        }
        let mut betas = Vec::with_capacity(d + 1);
        let mut alphas = Vec::with_capacity(d);
        for o in 0..date_count(d) {
            let aff = defining_form(schedule, o)?;
            if o % 2 == 0 {
                let beta = aff.as_constant();
                betas.push(beta.ok_or(PolyError::Unsupported(NOT_2D1))?);
            } else {
                alphas.push(aff);
            }
        }
        Ok(Position {
            n_param: np,
            betas,
            alphas,
        })
    }

    fn depth(&self) -> usize {
        self.alphas.len()
    }
}

/// Output `o` of `schedule` as a form of the parameters and inputs, from an
/// equality with coefficient ±1 on it and no other output.
fn defining_form(schedule: &BasicMap, o: usize) -> Result<Aff, PolyError> {
    let space = schedule.space();
    let first_out = space.out_col(0);
    let col = space.out_col(o);
    let row = schedule
        .constraints()
        .iter()
        .find(|c| {
            c.kind == ConstraintKind::Eq
                && c.coeffs[col].abs() == 1
                && c.coeffs[first_out..]
                    .iter()
                    .enumerate()
                    .all(|(k, &v)| k + first_out == col || v == 0)
        })
        .ok_or(PolyError::Unsupported(NOT_2D1))?;
    // u·x_o + rest = 0 with u = ±1, so x_o = -u·rest.
    let u = row.coeffs[col];
    let negate = |v: i64| v.checked_mul(-u).ok_or(PolyError::Overflow);
    let coeffs = row.coeffs[..first_out]
        .iter()
        .map(|&v| negate(v))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Aff::from_row(&coeffs, negate(row.constant)?))
}

/// Number of loops enclosing both statements.
pub(super) fn common_loops(src: &Position, tgt: &Position) -> usize {
    let max = src.depth().min(tgt.depth());
    (0..max)
        .take_while(|&k| src.betas[k] == tgt.betas[k])
        .count()
}

/// The depths at which an instance of `src` may run before one of `tgt`:
/// every common loop, and `n_common + 1` when `src` comes first in the text.
pub(super) fn depths(src: &Position, tgt: &Position, n_common: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (1..=n_common).collect();
    if let (Some(a), Some(b)) = (src.betas.get(n_common), tgt.betas.get(n_common)) {
        if a < b {
            v.push(n_common + 1);
        }
    }
    v
}

/// The rows saying "source instance before target instance at `depth`"
/// (1-based; `n_common + 1` is loop-independent) over `layout`'s columns.
pub(super) fn before_at(
    src: &Position,
    tgt: &Position,
    depth: usize,
    n_common: usize,
    layout: &Layout,
) -> Result<Vec<Constraint>, PolyError> {
    let mut rows = Vec::with_capacity(depth);
    let equal_up_to = depth.min(n_common + 1) - 1;
    for k in 0..equal_up_to {
        let (coeffs, constant) = difference(src, tgt, k, layout)?;
        rows.push(Constraint::eq(coeffs, constant));
    }
    if depth <= n_common {
        // α(t) - α(s) - 1 >= 0
        let (coeffs, constant) = difference(src, tgt, depth - 1, layout)?;
        rows.push(Constraint::ineq(coeffs, checked_add(constant, -1)?));
    }
    Ok(rows)
}

/// `α_k(t) - α_k(s)` (0-based `k`) as a row over `layout`'s columns.
fn difference(
    src: &Position,
    tgt: &Position,
    k: usize,
    layout: &Layout,
) -> Result<(Vec<i64>, i64), PolyError> {
    let mut coeffs = vec![0; layout.n_dims()];
    let (a_s, a_t) = (&src.alphas[k], &tgt.alphas[k]);
    for (&c, v) in a_t.terms() {
        let col = if c < tgt.n_param {
            c
        } else {
            layout.tgt_col(c - tgt.n_param)
        };
        coeffs[col] = checked_add(coeffs[col], v)?;
    }
    for (&c, v) in a_s.terms() {
        let col = if c < src.n_param {
            c
        } else {
            layout.src_col(c - src.n_param)
        };
        coeffs[col] = checked_add(coeffs[col], v.checked_neg().ok_or(PolyError::Overflow)?)?;
    }
    let constant = a_t
        .constant_term()
        .checked_sub(a_s.constant_term())
        .ok_or(PolyError::Overflow)?;
    Ok((coeffs, constant))
}
