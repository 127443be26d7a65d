//! The tile phase of the recovery: the target's tile dates, added to the
//! schedule the first phases built (the target without them).
//!
//! Each statement's current loops are tracked by the target depth each
//! stands for. For the target's tile dates, outermost first, a tile whose
//! point loop is at current depth `d` is `stripmine` of the loop at `d`
//! (every statement in that loop gets it, and each must have a tile of
//! that loop in the target, at the same depth where it has one), then
//! moved outwards by `interchange`s with the loops before it until each
//! loop before it stands for an earlier target depth. Then the tiles of a wavefront (`T₀ + T₁`) get their `skew`s,
//! each after the skews of the tile dates it adds. Where the statements
//! of a loop do not agree, the phase gives up; the caller keeps what came
//! before it.

use super::shape::{StatementShape, Tile};
use super::{ExplainError, Recovery};
use crate::apply::Directive;

/// Adds the tiles; `Ok(false)` when they cannot be added this way. With
/// `bands`, the tiles of a band of consecutive loops whose tile loops go
/// just outside them are one `tile_band` (the readable directive);
/// without, each tile is a `stripmine` and `interchange`s.
pub(super) fn recover(
    r: &mut Recovery<'_>,
    target: &[StatementShape],
    bands: bool,
) -> Result<bool, ExplainError> {
    // Per statement, the target depth of each current loop.
    let mut stands: Vec<Vec<usize>> = target.iter().map(|s| s.kept.clone()).collect();
    // Per statement, the target depths of the point loops stripped.
    let mut stripped: Vec<Vec<usize>> = vec![Vec::new(); target.len()];
    if bands {
        for s in 0..target.len() {
            band(r, target, s, &mut stands, &mut stripped)?;
        }
    }
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
        let Some(&point) = tile.points.iter().find(|p| !stripped[s].contains(p)) else {
            return Ok(false);
        };
        let Some(at) = stands[s].iter().position(|&d| d == point) else {
            return Ok(false);
        };
        let beta = r.beta(s)?;
        let loop_beta = beta[..=at].to_vec();
        // The statements in the loop, and the tile each gets: the one at
        // the same target depth if it strips this loop, else another that
        // does.
        let mut members = Vec::new();
        for (m, shape) in target.iter().enumerate() {
            if !r.beta(m)?.starts_with(&loop_beta) {
                continue;
            }
            let Some(point) = stands[m].get(at).copied() else {
                return Ok(false);
            };
            let strips = |t: &&Tile| t.points.contains(&point) && !stands[m].contains(&t.depth);
            let same_depth = shape.tiles.iter().filter(strips).find(|t| t.depth == depth);
            let Some(t) = same_depth.or_else(|| shape.tiles.iter().find(strips)) else {
                return Ok(false);
            };
            if t.size != tile.size || stripped[m].contains(&point) {
                return Ok(false);
            }
            stripped[m].push(point);
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
    if !stands.iter().all(|d| d.windows(2).all(|w| w[0] < w[1])) {
        return Ok(false);
    }
    fuse_strip_loops(r, target)?;
    skews(r, target, &stands)
}

/// Fuses the loops the target shares but the strips left apart (a strip
/// loop over statements with point loops of their own comes from loops
/// strip-mined apart, [`super::shape`]): at each depth, outermost first,
/// two consecutive loops whose statements the target runs in one loop
/// there become one (`fuse`). The caller compares the result with the
/// target.
fn fuse_strip_loops(r: &mut Recovery<'_>, target: &[StatementShape]) -> Result<(), ExplainError> {
    let n = target.len();
    let deepest = target.iter().map(|s| s.full_beta.len()).max().unwrap_or(0);
    for d in 1..deepest {
        // Each fuse joins two loops: at most `n` of them at one depth.
        for _ in 0..n {
            let betas = (0..n).map(|s| r.beta(s)).collect::<Result<Vec<_>, _>>()?;
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| betas[a].cmp(&betas[b]));
            let apart = order.windows(2).find_map(|w| {
                let (now_s, now_t) = (&betas[w[0]], &betas[w[1]]);
                let (then_s, then_t) = (&target[w[0]].full_beta, &target[w[1]].full_beta);
                let deep_enough = [now_s, now_t, then_s, then_t].iter().all(|b| b.len() > d);
                let shared = deep_enough && then_s[..d] == then_t[..d];
                let neighbours = deep_enough
                    && now_s[..d - 1] == now_t[..d - 1]
                    && now_s[d - 1].checked_add(1) == Some(now_t[d - 1]);
                (shared && neighbours).then(|| now_s[..d].to_vec())
            });
            let Some(beta) = apart else {
                break;
            };
            r.push(Directive::Fuse { beta })?;
        }
    }
    Ok(())
}

/// Statement `s`'s tiles as one `tile_band`, then `interchange`s of its
/// tile loops, where they fit: tiles at consecutive target depths, of
/// loops at consecutive current depths, the tile loops going just outside
/// them; and every statement of the band's outer loop has the same tiles
/// of the same loops. Else nothing is done (the caller strips them one
/// by one).
fn band(
    r: &mut Recovery<'_>,
    target: &[StatementShape],
    s: usize,
    stands: &mut [Vec<usize>],
    stripped: &mut [Vec<usize>],
) -> Result<(), ExplainError> {
    let tiles = &target[s].tiles;
    let Some(first) = tiles.first() else {
        return Ok(());
    };
    if tiles.iter().any(|t| stands[s].contains(&t.depth))
        || tiles.windows(2).any(|w| w[1].depth != w[0].depth + 1)
    {
        return Ok(());
    }
    // Each tile's point loop (current depth), the first candidate not
    // taken by an earlier tile.
    let mut at_of: Vec<usize> = Vec::new();
    for t in tiles {
        let found = t.points.iter().find_map(|p| {
            let position = stands[s].iter().position(|d| d == p)?;
            (!at_of.contains(&position)).then_some(position)
        });
        let Some(position) = found else {
            return Ok(());
        };
        at_of.push(position);
    }
    let n = tiles.len();
    let at = at_of.iter().copied().min().unwrap_or(0);
    if at_of.iter().any(|&p| p >= at + n) || (at > 0 && stands[s][at - 1] > first.depth) {
        return Ok(());
    }
    // The tile of each loop of the band, in the loops' order.
    let mut by_loop: Vec<&Tile> = Vec::new();
    for k in 0..n {
        let Some(i) = at_of.iter().position(|&p| p == at + k) else {
            return Ok(());
        };
        by_loop.push(&tiles[i]);
    }
    let loop_beta = r.beta(s)?[..=at].to_vec();
    let mut members = Vec::new();
    for (m, shape) in target.iter().enumerate() {
        if !r.beta(m)?.starts_with(&loop_beta) {
            continue;
        }
        let Some(points) = stands[m].get(at..at + n) else {
            return Ok(());
        };
        let same = by_loop.iter().zip(points).all(|(t, p)| {
            shape
                .tiles
                .iter()
                .any(|u| u.depth == t.depth && u.size == t.size && u.points.contains(p))
                && !stripped[m].contains(p)
        });
        if !same {
            return Ok(());
        }
        members.push(m);
    }
    r.push(Directive::TileBand {
        beta: loop_beta.clone(),
        depth: at + 1,
        sizes: by_loop.iter().map(|t| t.size).collect(),
    })?;
    for &m in &members {
        let points = stands[m][at..at + n].to_vec();
        stripped[m].extend(points);
        for (k, t) in by_loop.iter().enumerate() {
            stands[m].insert(at + k, t.depth);
        }
    }
    // The tile loops into the target's order (a bubble sort).
    let mut order: Vec<usize> = by_loop.iter().map(|t| t.depth).collect();
    for pass in 0..n {
        for k in 0..n - 1 - pass {
            if order[k] > order[k + 1] {
                order.swap(k, k + 1);
                r.push(Directive::Interchange {
                    beta: loop_beta.clone(),
                    d1: at + k + 1,
                    d2: at + k + 2,
                })?;
                for &m in &members {
                    stands[m].swap(at + k, at + k + 1);
                }
            }
        }
    }
    Ok(())
}

/// The `skew`s of the tile dates that add others (a wavefront), given
/// once per loop; `Ok(false)` when they cannot be ordered (each must
/// come after those of the dates it adds) or a date is missing.
fn skews(
    r: &mut Recovery<'_>,
    target: &[StatementShape],
    stands: &[Vec<usize>],
) -> Result<bool, ExplainError> {
    let mut given: Vec<Directive> = Vec::new();
    for (s, shape) in target.iter().enumerate() {
        let mut done: Vec<usize> = shape
            .tiles
            .iter()
            .filter(|t| t.skews.is_empty())
            .map(|t| t.depth)
            .collect();
        while done.len() < shape.tiles.len() {
            let Some(tile) = shape.tiles.iter().find(|t| {
                !done.contains(&t.depth) && t.skews.iter().all(|(d, _)| done.contains(d))
            }) else {
                return Ok(false);
            };
            done.push(tile.depth);
            let position = |depth: usize| stands[s].iter().position(|&d| d == depth);
            let Some(at) = position(tile.depth) else {
                return Ok(false);
            };
            for &(other, factor) in &tile.skews {
                let Some(by) = position(other) else {
                    return Ok(false);
                };
                let beta = r.beta(s)?;
                let d = Directive::Skew {
                    beta: beta[..=at.max(by)].to_vec(),
                    depth: at + 1,
                    other: by + 1,
                    factor: -factor,
                };
                // A statement sharing both loops gave it already.
                if !given.contains(&d) {
                    given.push(d.clone());
                    r.push(d)?;
                }
            }
        }
    }
    Ok(true)
}
