//! Dependences computed under no context, narrowed by what a context
//! proves of them, without the context's values: what the schedulers read
//! where a context fixes a parameter (`session/auto.rs`).
//!
//! A context that fixes a size (`n = 24`, or a macro a region reads as its
//! value: `C[i * NJ + j]` with `NJ` fixed at 24) puts that value into every
//! row of a scheduler's Farkas search, whose integer steps then give up.
//! Under no context the search runs, but the dependences lose what the
//! value proves: with `j < NJ` and `NJ` free, row `i` of `C` overlaps row
//! `i + 1`, and the loop over rows looks carried. Narrowed, each piece of
//! a dependence under no context is
//!
//! * dropped where it is empty under the context (a dependence with no
//!   piece left is dropped);
//! * cut by `t_k - s_k = c` for each common loop `k` whose distance takes
//!   the one value `c` on the piece under the context.
//!
//! Each piece still holds every pair of the dependence under the context
//! that it held (a superset: a schedule that respects the narrowed
//! dependences respects those), and gains no row of the context. Exact:
//! one sample and at most two emptiness tests per common loop and piece.

use super::Dependence;
use crate::poly::{checked_add, BasicMap, BasicSet, Constraint, Map, PolyError};

/// `deps` (under no context) narrowed by `context`, as the module says.
/// A context with local dimensions narrows nothing.
pub fn narrowed_to_context(
    deps: &[Dependence],
    context: &BasicSet,
) -> Result<Vec<Dependence>, PolyError> {
    if context.n_local() > 0 || context.constraints().is_empty() {
        return Ok(deps.to_vec());
    }
    let mut out = Vec::with_capacity(deps.len());
    for d in deps {
        let mut relation = Map::empty(d.relation.space().clone());
        let mut distances = Vec::new();
        for piece in d.relation.basics() {
            if let Some((narrowed, distance)) = narrowed_piece(piece, context, d.n_common)? {
                relation.push(narrowed);
                distances.push(distance);
            }
        }
        if relation.basics().is_empty() {
            continue;
        }
        // Uniform when every piece has the same value on every common loop.
        let uniform = distances
            .iter()
            .all(|v| *v == distances[0] && v.iter().all(Option::is_some))
            .then(|| distances[0].iter().flatten().copied().collect());
        out.push(Dependence {
            relation,
            distance: d.distance.clone().or(uniform),
            ..d.clone()
        });
    }
    Ok(out)
}

/// A piece cut by its distances under a context, and those distances
/// over the common loops (`None` where a loop's takes several values).
type NarrowedPiece = (BasicMap, Vec<Option<i64>>);

/// `piece` narrowed by `context`; `None` where it is empty under it.
fn narrowed_piece(
    piece: &BasicMap,
    context: &BasicSet,
    n_common: usize,
) -> Result<Option<NarrowedPiece>, PolyError> {
    let mut under = piece.clone();
    for c in context.constraints() {
        // The context's columns are the parameters, every map's first.
        under.add(c.clone());
    }
    let Some(point) = under.sample()? else {
        return Ok(None);
    };
    let space = piece.space();
    let mut narrowed = piece.clone();
    let mut distances = Vec::with_capacity(n_common);
    for k in 0..n_common {
        let (s, t) = (space.in_col(k), space.out_col(k));
        let c = point[t].checked_sub(point[s]).ok_or(PolyError::Overflow)?;
        // `t - s - c`, and the rows `t - s >= c + 1` and `t - s <= c - 1`.
        let mut row = vec![0; narrowed.n_cols()];
        row[t] = 1;
        row[s] = -1;
        let minus_c = c.checked_neg().ok_or(PolyError::Overflow)?;
        let above = Constraint::ineq(row.clone(), checked_add(minus_c, -1)?);
        let below = Constraint::ineq(row.iter().map(|v| -v).collect(), checked_add(c, -1)?);
        let mut one_value = true;
        for bound in [above, below] {
            let mut beyond = under.clone();
            beyond.add(bound);
            if !beyond.is_empty()? {
                one_value = false;
                break;
            }
        }
        if one_value {
            narrowed.add(Constraint::eq(row, minus_c));
        }
        distances.push(one_value.then_some(c));
    }
    Ok(Some((narrowed, distances)))
}
