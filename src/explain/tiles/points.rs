//! The point loops of the tile phase moved around their strips: a strip
//! that reads the point date shifted, skewed by another date, or negated
//! is made between a `shift`, `skew` or `reverse` of the point loop to
//! that date and the one back (each statement's own where the statements
//! of the loop differ: [`point_shifts`]); a statement may read the strip at another
//! date of its own ([`rebased`]); and a point loop skewed by its tile
//! loop gets that `skew` after the tiles.
//!
//! Must not know: recipe syntax, the other phases.

use super::Member;
use crate::apply::Directive;
use crate::explain::shape::StatementShape;
use crate::explain::shift;
use crate::explain::strips::{multiple, Tile};
use crate::explain::{ExplainError, Recovery};
use crate::poly::PolyError;

/// Each loop skewed by a tile loop (outside it: a point loop skewed by
/// its tile loop; or inside it), as the target's dates add their tile
/// dates ([`StatementShape::tile_skews`]): given once on the inner of
/// the two loops where every statement in it has the same skew, else on
/// the statement alone; `Ok(false)` when a loop is missing.
pub(super) fn point_skews_by_tiles(
    r: &mut Recovery<'_>,
    target: &[StatementShape],
    stands: &[Vec<usize>],
) -> Result<bool, ExplainError> {
    let mut given: Vec<Directive> = Vec::new();
    for (s, shape) in target.iter().enumerate() {
        for &(point, tile, factor) in &shape.tile_skews {
            let position = |depth: usize| stands[s].iter().position(|&d| d == depth);
            let (Some(at), Some(by)) = (position(point), position(tile)) else {
                return Ok(false);
            };
            let beta = r.beta(s)?;
            let loop_beta = beta[..=at.max(by)].to_vec();
            let mut shared = true;
            for (m, other) in target.iter().enumerate() {
                if r.beta(m)?.starts_with(&loop_beta) {
                    let same = stands[m].get(at) == Some(&point)
                        && stands[m].get(by) == Some(&tile)
                        && other.tile_skews.contains(&(point, tile, factor));
                    shared &= same;
                }
            }
            let d = Directive::Skew {
                beta: if shared { loop_beta } else { beta },
                depth: at + 1,
                other: by + 1,
                factor: factor.checked_neg().ok_or(PolyError::Overflow)?,
            };
            if !given.contains(&d) {
                given.push(d.clone());
                r.push(d)?;
            }
        }
    }
    Ok(true)
}

/// `tile` read at the date at depth `point` of `shape` (with `n`
/// iterators) instead of the date it reads, where the two differ only in
/// parameters and constant (the difference joins its offset), or on the
/// iterators by a multiple `λ` of another date of the statement (the
/// point loop skewed by that date after the strip: lu's `k` read at
/// `i + k` less the date `i`, where its statement that runs `j` there
/// also has `j` at the next depth). `None` where they differ otherwise,
/// the tile already skews, reverses or reshapes its point loop, or a
/// value overflows. Exact.
pub(super) fn rebased(tile: &Tile, shape: &StatementShape, point: usize, n: usize) -> Option<Tile> {
    let form = |depth: usize| {
        let k = shape.kept.iter().position(|&d| d == depth)?;
        shape.rows.get(k)
    };
    let (old, new) = (form(*tile.points.first()?)?, form(point)?);
    let moved = tile.point_skew.is_some() || tile.point_reversed || !tile.point_reshape.is_empty();
    if moved {
        return None;
    }
    // `old = new + λ·g` on the iterators, `g` the date at `skew`'s depth.
    let skew = match old[..n] == new[..n] {
        true => None,
        false => {
            let rest: Vec<i64> = old[..n]
                .iter()
                .zip(&new[..n])
                .map(|(a, b)| a.checked_sub(*b))
                .collect::<Option<_>>()?;
            shape
                .kept
                .iter()
                .filter(|&&d| d != point)
                .find_map(|&d| Some((d, multiple(&rest, &form(d)?[..n])?)))
        }
    };
    if old[..n] != new[..n] && skew.is_none() {
        return None;
    }
    let mut offset = tile
        .offset
        .iter()
        .zip(old[n..].iter().zip(&new[n..]))
        .map(|(&o, (&a, &b))| o.checked_add(a.checked_sub(b)?))
        .collect::<Option<Vec<i64>>>()?;
    if let Some((d, lambda)) = skew {
        for (o, g) in offset.iter_mut().zip(&form(d)?[n..]) {
            *o = o.checked_sub(g.checked_mul(lambda)?)?;
        }
    }
    Some(Tile {
        points: vec![point],
        offset,
        point_skew: skew,
        ..tile.clone()
    })
}

/// The current position (0-based) of the date whose multiple `tile`'s
/// strip adds to the point date, in a statement whose loops stand for
/// the target depths `stands`: `Some(None)` where it adds none, `None`
/// where the statement has no such loop.
pub(super) fn skewing_loop(tile: &Tile, stands: &[usize]) -> Option<Option<usize>> {
    match tile.point_skew {
        Some((other, _)) => stands.iter().position(|&d| d == other).map(Some),
        None => Some(None),
    }
}

/// Skews the point loop at position `at` of statement `s` (with the
/// statements under the loop, or `alone`) to the date its strip reads
/// (`to_strip`: minus `factor ×` the loop at position `by`), or back.
pub(super) fn point_skew(
    r: &mut Recovery<'_>,
    s: usize,
    alone: bool,
    at: usize,
    (factor, by): (i64, usize),
    to_strip: bool,
) -> Result<(), ExplainError> {
    let factor = match to_strip {
        true => factor.checked_neg().ok_or(PolyError::Overflow)?,
        false => factor,
    };
    let beta = r.beta(s)?;
    let beta = match alone {
        true => beta,
        false => beta[..=at.max(by)].to_vec(),
    };
    r.push(Directive::Skew {
        beta,
        depth: at + 1,
        other: by + 1,
        factor,
    })
}

/// Reverses the point loop at position `at` of the `members` whose
/// strips read their point dates negated (to the strip, or back after
/// it): once on `loop_beta` where every member's does, else on each
/// such statement alone.
pub(super) fn point_reverse(
    r: &mut Recovery<'_>,
    members: &[Member],
    loop_beta: &[i64],
    at: usize,
) -> Result<(), ExplainError> {
    let reversed: Vec<usize> = members
        .iter()
        .filter(|m| m.reversed)
        .map(|m| m.statement)
        .collect();
    if reversed.len() == members.len() {
        return r.push(Directive::Reverse {
            beta: loop_beta.to_vec(),
            depth: at + 1,
        });
    }
    for s in reversed {
        let beta = r.beta(s)?;
        r.push(Directive::Reverse {
            beta,
            depth: at + 1,
        })?;
    }
    Ok(())
}

/// Shifts the point loop at position `at` of the statements under
/// `loop_beta` to the date `tile`'s strip reads (`to_strip`), or back,
/// where the strip adds an offset that is not whole tiles.
pub(super) fn point_shift(
    r: &mut Recovery<'_>,
    tile: &Tile,
    loop_beta: &[i64],
    at: usize,
    to_strip: bool,
) -> Result<(), ExplainError> {
    if !tile.shifts_point() {
        return Ok(());
    }
    let by = toward(&tile.offset, to_strip)?;
    r.push(shift(loop_beta.to_vec(), at + 1, &by))
}

/// The `shift` amounts that move a point date by `offset` to what its
/// strip reads (`to_strip`: `α := α + offset`), else back.
fn toward(offset: &[i64], to_strip: bool) -> Result<Vec<i64>, PolyError> {
    offset
        .iter()
        .map(|&v| match to_strip {
            true => v.checked_neg().ok_or(PolyError::Overflow),
            false => Ok(v),
        })
        .collect()
}

/// [`point_shift`] of the loop at `at` under `loop_beta`, where its
/// `members` strip it with `tile`'s offset; else each member's point loop
/// shifted on its own by its offset (to what its strip reads when
/// `to_strip`, else back).
pub(super) fn point_shifts(
    r: &mut Recovery<'_>,
    tile: &Tile,
    members: &[Member],
    loop_beta: &[i64],
    at: usize,
    to_strip: bool,
) -> Result<(), ExplainError> {
    if members.iter().all(|m| m.offset == tile.offset) {
        return point_shift(r, tile, loop_beta, at, to_strip);
    }
    for m in members.iter().filter(|m| m.offset.iter().any(|&v| v != 0)) {
        let by = toward(&m.offset, to_strip)?;
        let beta = r.beta(m.statement)?;
        r.push(shift(beta, at + 1, &by))?;
    }
    Ok(())
}

/// The `reshape`s of each member's point loop at `at` by the iterators
/// its strip adds ([`Member::reshape`]): to what the strip reads when
/// `to_strip`, else back; each statement alone (its iterators).
pub(super) fn point_reshapes(
    r: &mut Recovery<'_>,
    members: &[Member],
    at: usize,
    to_strip: bool,
) -> Result<(), ExplainError> {
    for m in members {
        for (k, &c) in m.reshape.iter().enumerate().filter(|(_, &c)| c != 0) {
            // `reshape` subtracts `amount` times the iterator.
            let amount = match to_strip {
                true => c.checked_neg().ok_or(PolyError::Overflow)?,
                false => c,
            };
            let beta = r.beta(m.statement)?;
            r.push(Directive::Reshape {
                beta,
                depth: at + 1,
                iterator: k + 1,
                amount,
            })?;
        }
    }
    Ok(())
}
