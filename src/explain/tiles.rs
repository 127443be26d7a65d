//! The tile phase of the recovery: the target's tile dates, added to the
//! schedule the first phases built (the target without them).
//!
//! Each statement's current loops are tracked by the target depth each
//! stands for. For the target's tile dates, outermost first, a tile whose
//! point loop is at current depth `d` is `stripmine` of the loop at `d`
//! (every statement in that loop gets it, and each must have that tile
//! in the target), then moved outwards by `interchange`s with the loops
//! before it until each loop before it stands for an earlier target
//! depth. Where the statements of a loop do not agree, the phase gives
//! up; the caller keeps what came before it.

use super::shape::StatementShape;
use super::{ExplainError, Recovery};
use crate::apply::Directive;

/// Adds the tiles; `Ok(false)` when they cannot be added this way.
pub(super) fn recover(
    r: &mut Recovery<'_>,
    target: &[StatementShape],
) -> Result<bool, ExplainError> {
    // Per statement, the target depth of each current loop.
    let mut stands: Vec<Vec<usize>> = target.iter().map(|s| s.kept.clone()).collect();
    let mut pending: Vec<(usize, usize)> = target
        .iter()
        .enumerate()
        .flat_map(|(s, shape)| shape.tiles.iter().map(move |t| (t.depth, s)))
        .collect();
    pending.sort_unstable();
    for (depth, s) in pending {
        if stands[s].contains(&depth) {
            continue;
        }
        let Some(tile) = target[s].tiles.iter().find(|t| t.depth == depth) else {
            return Ok(false);
        };
        let Some(at) = stands[s].iter().position(|&d| d == tile.point) else {
            return Ok(false);
        };
        let beta = r.beta(s)?;
        let loop_beta = beta[..=at].to_vec();
        // The statements in the loop, and the tile each gets.
        let mut members = Vec::new();
        for (m, shape) in target.iter().enumerate() {
            if !r.beta(m)?.starts_with(&loop_beta) {
                continue;
            }
            let point = stands[m].get(at).copied();
            let Some(t) = shape.tiles.iter().find(|t| Some(t.point) == point) else {
                return Ok(false);
            };
            if t.size != tile.size || stands[m].contains(&t.depth) {
                return Ok(false);
            }
            members.push((m, t.depth));
        }
        r.push(Directive::Stripmine {
            beta: loop_beta.clone(),
            depth: at + 1,
            size: tile.size,
        })?;
        for &(m, d) in &members {
            stands[m].insert(at, d);
        }
        // Move the tile loop out while the loop before it stands for a
        // later target depth (in every member).
        let mut k = at;
        while k > 0
            && members
                .iter()
                .all(|&(m, _)| stands[m][k - 1] > stands[m][k])
        {
            let beta = r.beta(s)?;
            r.push(Directive::Interchange {
                beta: beta[..=at + 1].to_vec(),
                d1: k,
                d2: k + 1,
            })?;
            for &(m, _) in &members {
                stands[m].swap(k - 1, k);
            }
            k -= 1;
        }
    }
    Ok(stands.iter().all(|d| d.windows(2).all(|w| w[0] < w[1])))
}
