//! The tile phase of the recovery: the target's tile dates, added to the
//! schedule the first phases built (the target without them).
//!
//! Each statement's current loops are tracked by the target depth each
//! stands for. For the target's tile dates, outermost first (a strip of
//! a tile loop after that tile loop, and so on down a chain), a tile whose
//! point loop is at current depth `d` is `stripmine` of the loop at `d`
//! (every statement in that loop gets it, and each must have a tile of
//! that loop in the target, at the same depth where it has one), then
//! moved outwards by `interchange`s with the loops before it until each
//! loop before it stands for an earlier target depth, or inwards past
//! its point loop where the target runs it inside (one `interchange`
//! per loop where its statements' loops part). A strip of the point
//! date plus an offset that is not whole tiles, plus a multiple of
//! another date, or negated has the point loop shifted, skewed or
//! reversed to what the strip reads around the `stripmine` ([`points`]).
//! Then each tile loop gets its `shift` by whole tiles, its `skew`s in a
//! wavefront (`T₀ + T₁`) and its `reverse`, each after the tile dates it
//! adds, and a point loop skewed by its tile loop that `skew`. Where the
//! statements of a loop do not agree, the phase gives up; the caller
//! keeps what came before it.

mod dates;
mod points;

use super::shape::StatementShape;
use super::strips::Tile;
use super::{ExplainError, Recovery};
use crate::apply::Directive;
use dates::tile_dates;
use points::{
    point_reshapes, point_reverse, point_shifts, point_skew, point_skews_by_tiles, rebased,
    skewing_loop,
};

/// A statement of a loop being stripped: the target depth of its tile,
/// the skew of its point loop after the strip, if any (the factor, and
/// the current position of the loop it skews by), and whether the point
/// loop was reversed after it.
struct Member {
    statement: usize,
    depth: usize,
    skew: Option<(i64, usize)>,
    /// Whether its strip reads its point date negated.
    reversed: bool,
    /// What its strip adds to its point date ([`Tile::offset`]).
    offset: Vec<i64>,
    /// What its strip adds on the iterators ([`Tile::point_reshape`]).
    reshape: Vec<i64>,
}

/// Adds the tiles; `Ok(false)` when they cannot be added this way. With
/// `bands`, the tiles of a band of consecutive loops whose tile loops go
/// just outside them are one `tile_band` (the readable directive);
/// without, each tile is a `stripmine` and `interchange`s. With
/// `own_tiles`, one statement stripped where the others keep the loop is
/// its own `tile` in the loop (its point loop joins the loop's first
/// child); without, it is split apart, stripped, and fused back (its
/// point loop a child of its own: mvt's `stripmine([1], 1, 16);
/// fuse([0]);`).
pub(super) fn recover(
    r: &mut Recovery<'_>,
    target: &[StatementShape],
    bands: bool,
    own_tiles: bool,
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
    // A tile of a tile loop after the tile it strips, which may be a
    // tile of a tile loop itself (mvt's tiles of tiles of tiles).
    pending.sort_by_key(|&(depth, s)| (strip_level(&target[s].tiles, depth), depth, s));
    for (depth, s) in pending {
        if stands[s].contains(&depth) {
            continue;
        }
        let Some(tile) = target[s].tiles.iter().find(|t| t.depth == depth) else {
            return Ok(false);
        };
        // A date not stripped yet where the form repeats; else a strip
        // of a loop stripped already (a tile of a tile: the inner strip
        // of the same date, made after the outer one).
        let fresh = tile.points.iter().find(|p| !stripped[s].contains(p));
        let Some(&point) = fresh.or(tile.points.first()) else {
            return Ok(false);
        };
        let restrip = stripped[s].contains(&point);
        let Some(at) = stands[s].iter().position(|&d| d == point) else {
            return Ok(false);
        };
        let beta = r.beta(s)?;
        let mut loop_beta = beta[..=at].to_vec();
        // The statements in the loop, and the tile each gets: the one at
        // the same target depth if it strips this loop, else another that
        // does. Those with no strip of it are split apart (the target
        // fuses a tile loop with their loop).
        let mut members = Vec::new();
        let mut apart = Vec::new();
        for (m, shape) in target.iter().enumerate() {
            if !r.beta(m)?.starts_with(&loop_beta) {
                continue;
            }
            let Some(point) = stands[m].get(at).copied() else {
                return Ok(false);
            };
            let strips = |t: &&Tile| t.points.contains(&point) && !stands[m].contains(&t.depth);
            let same_depth = shape.tiles.iter().filter(strips).find(|t| t.depth == depth);
            let n = r.scop.statements[m].iterators.len();
            // Else its tile at this depth, read at this loop's date where
            // the date it reads differs only in parameters and constant.
            let rebased = || {
                let t = shape.tiles.iter().find(|t| t.depth == depth)?;
                rebased(t, shape, point, n)
            };
            let found = same_depth
                .or_else(|| shape.tiles.iter().find(strips))
                .cloned()
                .or_else(rebased);
            let Some(t) = found else {
                apart.push(m);
                continue;
            };
            // The statements of the loop share its strip; the point
            // loop of each may have been skewed or shifted after it on
            // its own (a shift that moves no tile loop: bicg's
            // `shift([1, 0, 1, 0], 2, [0, 0], 1)` of one statement).
            let offsets_fit = t.offset == tile.offset
                || (t.tile_shift().is_none() && tile.tile_shift().is_none());
            let same = t.size == tile.size && offsets_fit && t.point_reshape == tile.point_reshape;
            if stripped[m].contains(&point) != restrip {
                return Ok(false);
            }
            if !same {
                // Its own strip of the loop, made apart (atax's two
                // statements of one loop tiled by 4 and by 3).
                apart.push(m);
                continue;
            }
            let Some(by) = skewing_loop(&t, &stands[m]) else {
                return Ok(false);
            };
            stripped[m].push(point);
            members.push(Member {
                statement: m,
                depth: t.depth,
                skew: t.point_skew.zip(by).map(|((_, factor), by)| (factor, by)),
                reversed: t.point_reversed,
                offset: t.offset.clone(),
                reshape: t.point_reshape.clone(),
            });
        }
        // One statement stripped where the others keep the loop, its
        // strip plain: that statement's own `tile`, in the loop.
        let alone = match members.as_slice() {
            [m] if own_tiles && !apart.is_empty() => {
                m.skew.is_none()
                    && !m.reversed
                    && m.reshape.iter().all(|&v| v == 0)
                    && !tile.shifts_point()
            }
            _ => false,
        };
        if !apart.is_empty() && !alone {
            let Some(split) = split_apart(r, &members, &apart, at)? else {
                return Ok(false);
            };
            r.push(split)?;
            loop_beta = r.beta(s)?[..=at].to_vec();
        }
        // A strip of the point date plus an offset, or plus a multiple
        // of another date: the point loop moved to what the strip reads
        // for the strip, and back after it. The skews address the loop
        // where its statements share them, else each statement alone.
        let shared_skew = members.iter().all(|m| m.skew == members[0].skew);
        let take = if shared_skew { 1 } else { members.len() };
        let skewed: Vec<(usize, bool, (i64, usize))> = members[..take]
            .iter()
            .filter_map(|m| Some((m.statement, !shared_skew, m.skew?)))
            .collect();
        for &(m, alone, (factor, by)) in &skewed {
            point_skew(r, m, alone, at, (factor, by), true)?;
        }
        point_reshapes(r, &members, at, true)?;
        point_reverse(r, &members, &loop_beta, at)?;
        point_shifts(r, tile, &members, &loop_beta, at, true)?;
        r.push(if alone {
            Directive::Tile {
                beta: r.beta(s)?,
                depth: at + 1,
                outer: at + 1,
                size: tile.size,
            }
        } else {
            Directive::Stripmine {
                beta: loop_beta.clone(),
                depth: at + 1,
                size: tile.size,
            }
        })?;
        // The strip put a loop at `at`.
        point_shifts(r, tile, &members, &loop_beta, at + 1, false)?;
        point_reverse(r, &members, &loop_beta, at + 1)?;
        point_reshapes(r, &members, at + 1, false)?;
        for &(m, alone, (factor, by)) in &skewed {
            let by = if by >= at { by + 1 } else { by };
            point_skew(r, m, alone, at + 1, (factor, by), false)?;
        }
        for m in &members {
            stands[m.statement].insert(at, m.depth);
        }
        // Move the tile loop out while the loop before it stands for a
        // later target depth (in every member).
        let mut k = at;
        while k > 0
            && members
                .iter()
                .all(|m| stands[m.statement][k - 1] > stands[m.statement][k])
        {
            let beta = r.beta(s)?;
            r.push(Directive::Interchange {
                beta: beta[..=at + 1].to_vec(),
                d1: k,
                d2: k + 1,
            })?;
            for m in &members {
                stands[m.statement].swap(k - 1, k);
            }
            k -= 1;
        }
        // Or in, while the loop after it stands for an earlier target
        // depth in every member (a tile loop inside its point loop): one
        // `interchange` per loop after it, where the members' loops part
        // there (bicg's tile of `j` inside each statement's own `i`).
        let mut k = if k == at { Some(at) } else { None };
        while let Some(t) = k {
            let mut inners: Vec<Vec<i64>> = Vec::new();
            let mut inward = true;
            for m in &members {
                let st = &stands[m.statement];
                let earlier = st.get(t + 1).is_some_and(|&d| d < st[t]);
                let beta = r.beta(m.statement)?;
                match beta.get(..=t + 1) {
                    Some(inner) if earlier => {
                        if !inners.iter().any(|b| b == inner) {
                            inners.push(inner.to_vec());
                        }
                    }
                    _ => inward = false,
                }
            }
            if !inward {
                break;
            }
            for inner in inners {
                r.push(Directive::Interchange {
                    beta: inner,
                    d1: t + 1,
                    d2: t + 2,
                })?;
            }
            for m in &members {
                stands[m.statement].swap(t, t + 1);
            }
            k = Some(t + 1);
        }
    }
    if !stands.iter().all(|d| d.windows(2).all(|w| w[0] < w[1])) {
        return Ok(false);
    }
    fuse_strip_loops(r, target)?;
    Ok(tile_dates(r, target, &stands)? && point_skews_by_tiles(r, target, &stands)?)
}

/// How many tile loops lie between the tile at `depth` and the loop of
/// the program it strips in the end: 0 for a strip of a point loop, 1
/// for a strip of such a tile loop, and so on. A tile strips a tile loop
/// where each date it may strip is a tile's.
fn strip_level(tiles: &[Tile], depth: usize) -> usize {
    let mut level = 0;
    let mut at = depth;
    // A chain visits each tile at most once.
    while level < tiles.len() {
        let Some(t) = tiles.iter().find(|t| t.depth == at) else {
            break;
        };
        let of_tile = |p: &usize| tiles.iter().any(|u| u.depth == *p);
        match t.points.as_slice() {
            [first, ..] if t.points.iter().all(of_tile) => {
                level += 1;
                at = *first;
            }
            _ => break,
        }
    }
    level
}

/// The `split` of the loop at position `at` that puts the statements
/// `members` (whose tiles strip it) and `apart` (which have none) in
/// loops of their own, where the ones come all before the others.
fn split_apart(
    r: &Recovery<'_>,
    members: &[Member],
    apart: &[usize],
    at: usize,
) -> Result<Option<Directive>, ExplainError> {
    let mut under: Vec<(Vec<i64>, bool)> = Vec::new();
    for m in members {
        under.push((r.beta(m.statement)?, true));
    }
    for &m in apart {
        under.push((r.beta(m)?, false));
    }
    under.sort();
    let changes = under.windows(2).filter(|w| w[0].1 != w[1].1).count();
    if changes != 1 {
        return Ok(None);
    }
    let last_first = under
        .iter()
        .take_while(|(_, member)| *member == under[0].1)
        .last();
    Ok(last_first.map(|(beta, _)| Directive::Split {
        beta: beta.clone(),
        depth: at + 1,
    }))
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
    // Per loop of the band, each member and whether its strip reads its
    // point date negated (the point loop reversed after the strip, for
    // some statements only: heat-3d's under `auto(spatial)`).
    let mut reversals: Vec<Vec<Member>> = (0..n).map(|_| Vec::new()).collect();
    for (m, shape) in target.iter().enumerate() {
        if !r.beta(m)?.starts_with(&loop_beta) {
            continue;
        }
        let Some(points) = stands[m].get(at..at + n) else {
            return Ok(());
        };
        for (k, (t, p)) in by_loop.iter().zip(points).enumerate() {
            // Its point loop may be shifted after the band on its own.
            let same = shape.tiles.iter().find(|u| {
                let offsets_fit =
                    u.offset == t.offset || (u.tile_shift().is_none() && t.tile_shift().is_none());
                u.depth == t.depth
                    && (u.size, u.point_skew, &u.point_reshape)
                        == (t.size, t.point_skew, &t.point_reshape)
                    && offsets_fit
                    && u.points.contains(p)
            });
            let Some(u) = same.filter(|_| !stripped[m].contains(p)) else {
                return Ok(());
            };
            reversals[k].push(Member {
                statement: m,
                depth: u.depth,
                skew: None,
                reversed: u.point_reversed,
                offset: u.offset.clone(),
                reshape: u.point_reshape.clone(),
            });
        }
        members.push(m);
    }
    // Point loops whose strips read their dates plus a multiple of
    // another date, or plus an offset that is not whole tiles: moved to
    // what the strips read around the band's strips.
    let mut skewing: Vec<Option<usize>> = Vec::new();
    for t in &by_loop {
        let Some(by) = skewing_loop(t, &stands[s]) else {
            return Ok(());
        };
        skewing.push(by);
    }
    for (k, t) in by_loop.iter().enumerate() {
        if let (Some((_, factor)), Some(by)) = (t.point_skew, skewing[k]) {
            point_skew(r, s, false, at + k, (factor, by), true)?;
        }
        point_reshapes(r, &reversals[k], at + k, true)?;
        point_reverse(r, &reversals[k], &loop_beta, at + k)?;
        point_shifts(r, t, &reversals[k], &loop_beta, at + k, true)?;
    }
    r.push(Directive::TileBand {
        beta: loop_beta.clone(),
        depth: at + 1,
        sizes: by_loop.iter().map(|t| t.size).collect(),
    })?;
    for (k, t) in by_loop.iter().enumerate() {
        // The band put `n` tile loops at `at`.
        point_shifts(r, t, &reversals[k], &loop_beta, at + n + k, false)?;
        point_reverse(r, &reversals[k], &loop_beta, at + n + k)?;
        point_reshapes(r, &reversals[k], at + n + k, false)?;
        if let (Some((_, factor)), Some(by)) = (t.point_skew, skewing[k]) {
            let by = if by >= at { by + n } else { by };
            point_skew(r, s, false, at + n + k, (factor, by), false)?;
        }
    }
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
