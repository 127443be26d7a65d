//! The distance of an edge's pairs on schedule rows, `f_T(y) − f_S(x)`,
//! exactly: as a row over the edge's relation, whether it is zero on
//! every pair (the row is coincident for the edge), and whether it is
//! zero or more on every pair (the row respects the edge).

use super::feautrier::AffineRow;
use super::graph::Edge;
use crate::poly::{Constraint, PolyError};

/// The distance `tgt(y) − src(x)` of the rows `src` (of its source)
/// and `tgt` (of its target) on the pairs `x → y`, as the row
/// `distance = 0` over the relation's columns. Exact.
pub(crate) fn distance(
    edge: &Edge,
    src: &AffineRow,
    tgt: &AffineRow,
) -> Result<Constraint, PolyError> {
    let space = edge.relation.space().clone();
    let mut coeffs = vec![0; edge.relation.n_cols()];
    for (slot, (t, s)) in coeffs.iter_mut().zip(tgt.param.iter().zip(&src.param)) {
        *slot = t.checked_sub(*s).ok_or(PolyError::Overflow)?;
    }
    for (j, &c) in src.iter.iter().enumerate() {
        coeffs[space.in_col(j)] = c.checked_neg().ok_or(PolyError::Overflow)?;
    }
    for (j, &c) in tgt.iter.iter().enumerate() {
        coeffs[space.out_col(j)] = c;
    }
    let constant = tgt
        .constant
        .checked_sub(src.constant)
        .ok_or(PolyError::Overflow)?;
    Ok(Constraint::eq(coeffs, constant))
}

/// Whether every pair is at distance zero on the rows `src` and `tgt`
/// (the member is coincident for this edge). Exact.
pub(crate) fn is_at_distance_zero(
    edge: &Edge,
    src: &AffineRow,
    tgt: &AffineRow,
) -> Result<bool, PolyError> {
    let nonzero = distance(edge, src, tgt)?.complement()?;
    for row in nonzero {
        let mut relation = edge.relation.clone();
        relation.add(row);
        if !relation.is_empty()? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether every pair is at distance zero or more on the rows `src` and
/// `tgt` (the member respects this edge). Exact.
pub(crate) fn is_at_nonnegative_distance(
    edge: &Edge,
    src: &AffineRow,
    tgt: &AffineRow,
) -> Result<bool, PolyError> {
    let mut relation = edge.relation.clone();
    relation.add(distance(edge, src, tgt)?.negation()?);
    relation.is_empty()
}
