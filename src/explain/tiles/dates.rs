//! The tile loops' own dates, after the strips and the moves of the
//! tile phase ([`super`]): each tile loop's `shift` by whole tiles, its
//! wavefront `skew`s and its `reverse`, given on the loop where every
//! statement in it has them, else on each statement.
//!
//! Must not know: recipe syntax, the other phases.

use crate::apply::Directive;
use crate::explain::shape::StatementShape;
use crate::explain::strips::Tile;
use crate::explain::{shift, ExplainError, Recovery};

/// Each tile date made the target's from the strip's: its `shift` by
/// whole tiles, its `skew`s by the tile dates it adds (a wavefront; each
/// after the dates it adds are done) and its `reverse`, each given once
/// per loop; `Ok(false)` when they cannot be ordered or a date is
/// missing.
pub(super) fn tile_dates(
    r: &mut Recovery<'_>,
    target: &[StatementShape],
    stands: &[Vec<usize>],
) -> Result<bool, ExplainError> {
    let mut given: Vec<Directive> = Vec::new();
    let mut give = |r: &mut Recovery<'_>, d: Directive| -> Result<(), ExplainError> {
        // A statement sharing the loop gave it already.
        if !given.contains(&d) {
            given.push(d.clone());
            r.push(d)?;
        }
        Ok(())
    };
    for (s, shape) in target.iter().enumerate() {
        let mut done: Vec<usize> = Vec::new();
        while done.len() < shape.tiles.len() {
            // A skew by a date that is no tile (a loop inside the tile
            // loop) waits for nothing.
            let waits = |d: usize| !done.contains(&d) && shape.tiles.iter().any(|t| t.depth == d);
            let Some(tile) = shape
                .tiles
                .iter()
                .find(|t| !done.contains(&t.depth) && !t.skews.iter().any(|&(d, _)| waits(d)))
            else {
                return Ok(false);
            };
            done.push(tile.depth);
            let position = |depth: usize| stands[s].iter().position(|&d| d == depth);
            let Some(at) = position(tile.depth) else {
                return Ok(false);
            };
            if let Some(by) = tile.tile_shift() {
                let same = |u: &Tile| u.tile_shift().as_ref() == Some(&by);
                let beta = sharing_beta(r, target, stands, s, at, same)?;
                give(r, shift(beta, at + 1, &by))?;
            }
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
                give(r, d)?;
            }
            if tile.sign < 0 {
                let beta = sharing_beta(r, target, stands, s, at, |u| u.sign < 0)?;
                give(
                    r,
                    Directive::Reverse {
                        beta,
                        depth: at + 1,
                    },
                )?;
            }
        }
    }
    Ok(true)
}

/// The β a rewrite of statement `s`'s tile loop at position `at` is given
/// on: the loop's, where every statement in it has a tile there that
/// `alike` holds of (its tile's shift or direction); else the
/// statement's own (a statement's own `tile` in a loop it shares with
/// statements that keep it, then shifted with the loop: syrk's
/// `tile([0, 0], 1, 1, 32); shift([0], 1, [], -3);`).
fn sharing_beta(
    r: &Recovery<'_>,
    target: &[StatementShape],
    stands: &[Vec<usize>],
    s: usize,
    at: usize,
    alike: impl Fn(&Tile) -> bool,
) -> Result<Vec<i64>, ExplainError> {
    let beta = r.beta(s)?;
    let loop_beta = beta[..=at].to_vec();
    for (m, other) in target.iter().enumerate() {
        if m != s && r.beta(m)?.starts_with(&loop_beta) {
            let at_m = stands[m].get(at).copied();
            if !other
                .tiles
                .iter()
                .any(|u| Some(u.depth) == at_m && alike(u))
            {
                return Ok(beta);
            }
        }
    }
    Ok(loop_beta)
}
