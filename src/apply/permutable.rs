//! A sufficient proof that a directive acting inside a permutable band
//! keeps every pair of instances in order, so that only the marks are
//! checked after it ([`super::illegality_after`]). It costs one test per
//! dependence and loop of the band, on the schedule before the directive;
//! the exact check it spares tests every date level of the schedule after
//! it, tiles included (lu's three tile-level steps: about 7 ms each).
//!
//! The proof. Let the directive act on the loops at depths `lo` to `hi`
//! around the pieces under `β`, and let the schedule before it be legal.
//! Suppose that
//!
//! 1. every piece not under `β` differs from each piece under it at a β
//!    date before `α_lo`, which the directive does not touch, and is not
//!    a piece of a statement under `β` (`tile_band` and `tile` give those
//!    pieces constant dates, which can reorder them with their
//!    neighbours);
//! 2. every dependence pair under `β` with equal dates before `α_lo` has
//!    a non-negative distance on each of `α_lo … α_hi`
//!    ([`backward_in_band`], exact).
//!
//! Then, for such a pair, the new dates of the band are each non-negative
//! combinations (or floors of them) of the old ones: an `interchange`
//! permutes them, a `skew` by a factor `f <= 0` adds `−f` times one to
//! another, `tile_band` puts `⌊α_k / s_k⌋` before them and `tile` moves
//! one such floor out. The first new date that differs is therefore
//! later for the target, and where none differs the old dates decide, as
//! before. The β dates between the band's loops do not move (α dates
//! only); where they sit between dates that move (all but `tile_band`,
//! whose tile dates all come first), they must be the same for every
//! piece, so that no pair is decided by one of them. Pairs that differ
//! before `α_lo` keep those dates. Every pair keeps its order.
//!
//! Must not know: recipes, code generation; which directives produced the
//! schedule.

use super::tree::all_betas;
use super::Directive;
use crate::scop::validity::backward_in_band;
use crate::scop::{Dependence, Schedule, Scop};

/// The loops a directive rewrites as a band: the loops at depths `lo` to
/// `hi` around the pieces under `beta`.
struct Band<'a> {
    beta: &'a [i64],
    lo: usize,
    hi: usize,
    /// Whether the β dates between the band's loops must agree (they sit
    /// between dates the directive moves).
    same_betas: bool,
}

impl<'a> Band<'a> {
    /// The band `directive` rewrites, where the proof covers it.
    fn of(directive: &'a Directive) -> Option<Band<'a>> {
        let (beta, lo, hi, same_betas) = match directive {
            Directive::Interchange { beta, d1, d2 } => (beta, *d1.min(d2), *d1.max(d2), true),
            Directive::Skew {
                beta,
                depth,
                other,
                factor,
            } if *factor <= 0 => (beta, *depth.min(other), *depth.max(other), true),
            Directive::TileBand { beta, depth, sizes } => {
                (beta, *depth, (depth + sizes.len()).checked_sub(1)?, false)
            }
            Directive::Tile {
                beta, depth, outer, ..
            } => (beta, *outer, *depth, true),
            _ => return None,
        };
        (lo >= 1 && lo <= hi).then_some(Band {
            beta,
            lo,
            hi,
            same_betas,
        })
    }

    /// Condition 1 of the proof, the β dates between the loops, and a
    /// loop at depth `hi` around every piece under `beta`. Cheap.
    fn fits(&self, schedule: &Schedule) -> bool {
        let Ok(all) = all_betas(schedule) else {
            return false;
        };
        let (under, others): (Vec<_>, Vec<_>) =
            all.iter().partition(|(_, b)| b.starts_with(self.beta));
        let Some((_, first)) = under.first() else {
            return false;
        };
        // A piece that is not rewritten differs from each rewritten one at
        // a β date before `α_lo`, and is not a piece of a rewritten
        // statement (`tile_band` and `tile` pad those with dates).
        let apart = others.iter().all(|(piece, b)| {
            under.iter().all(|(p, u)| {
                p.statement != piece.statement
                    && b.iter().zip(u.iter()).take(self.lo).any(|(x, y)| x != y)
            })
        });
        apart
            && under.iter().all(|(_, b)| b.len() > self.hi)
            && (!self.same_betas
                || under
                    .iter()
                    .all(|(_, b)| b[self.lo..self.hi] == first[self.lo..self.hi]))
    }
}

/// Whether the proof above shows that `directive`, applied to the legal
/// `schedule`, keeps every pair of instances of `deps` in order. `false`
/// says nothing (the exact check decides), and so does a `poly` error.
pub(super) fn keeps_order(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    directive: &Directive,
) -> bool {
    let Some(band) = Band::of(directive) else {
        return false;
    };
    band.fits(schedule)
        && matches!(
            backward_in_band(scop, schedule, deps, band.beta, band.lo, band.hi),
            Ok(None)
        )
}
