//! Uniform dependence distances, decided exactly.
//!
//! The distance on common loop `k` is `t_k - s_k` (target minus source
//! iterator). It is uniform when it takes one value `c` over every pair of
//! the relation: take `c` from one sample pair; then a piece with a row
//! `t_k - s_k = c'` settles it at once (uniform on that piece iff `c' = c`),
//! and in any other piece both `t_k - s_k >= c + 1` and `t_k - s_k <= c - 1`
//! must be empty: at most two emptiness tests per common loop and piece.

use super::polyhedron::{Layout, Polyhedron};
use crate::poly::{checked_add, Constraint, PolyError};

/// The distance vector over the `n_common` common loops when every pair of
/// `pieces` has the same one; else `None`. `point` is a pair of one piece
/// (parameters, source and target iterators).
pub(super) fn uniform_distance(
    pieces: &[Polyhedron],
    point: &[i64],
    layout: &Layout,
    n_common: usize,
) -> Result<Option<Vec<i64>>, PolyError> {
    let mut distance = Vec::with_capacity(n_common);
    for k in 0..n_common {
        let (s, t) = (layout.src_col(k), layout.tgt_col(k));
        let c = point[t].checked_sub(point[s]).ok_or(PolyError::Overflow)?;
        // t - s - (c + 1) >= 0, and (c - 1) - (t - s) >= 0.
        let mut above = vec![0; layout.n_dims()];
        above[t] = 1;
        above[s] = -1;
        let below: Vec<i64> = above.iter().map(|v| -v).collect();
        let above_c = checked_add(c, 1)?
            .checked_neg()
            .ok_or(PolyError::Overflow)?;
        let more = Constraint::ineq(above, above_c);
        let less = Constraint::ineq(below, checked_add(c, -1)?);
        for p in pieces {
            match p.plain_difference(s, t) {
                Some(d) if d == c => continue,
                Some(_) => return Ok(None),
                None => {}
            }
            if !p.with_rows(std::slice::from_ref(&more)).is_empty()?
                || !p.with_rows(std::slice::from_ref(&less)).is_empty()?
            {
                return Ok(None);
            }
        }
        distance.push(c);
    }
    Ok(Some(distance))
}
