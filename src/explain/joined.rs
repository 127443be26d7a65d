//! Directives of a recovery that one directive makes: a `stripmine`
//! followed by the `interchange` that swaps its new tile loop with a loop
//! outside it is Clay's `tile` (`stripmine`, then that one swap), the
//! readable form the issue asks for (`tile([1], 2, 1, 8)`, not
//! `stripmine([1, 0], 2, 8); interchange([1, 0, 0], 1, 2);`). Exact: a
//! join is kept only where the schedule after it is the one the two gave
//! (equal relations and marks).

use super::{ExplainError, Recovery};
use crate::apply::Directive;

impl Recovery<'_> {
    /// Joins each `stripmine` and the `interchange` right after it that
    /// moves its tile loop out into one `tile`, where that gives the same
    /// schedule.
    pub(super) fn join_tiles(&mut self) -> Result<(), ExplainError> {
        let mut k = 0;
        while k + 1 < self.found.len() {
            if let Some(tile) = tile_of(&self.found[k], &self.found[k + 1]) {
                self.replace_if_same(k, k + 2, vec![tile])?;
            }
            k += 1;
        }
        Ok(())
    }
}

/// The `tile` that makes `strip` (a `stripmine`) and `swap` (an
/// `interchange` of the new tile loop with a loop outside it), if they
/// are such a pair; whether it gives their schedule is the caller's check.
fn tile_of(strip: &Directive, swap: &Directive) -> Option<Directive> {
    let Directive::Stripmine { beta, depth, size } = strip else {
        return None;
    };
    let Directive::Interchange { d1, d2, .. } = swap else {
        return None;
    };
    let (outer, inner) = (*d1.min(d2), *d1.max(d2));
    (inner == *depth && outer < *depth).then(|| Directive::Tile {
        beta: beta.clone(),
        depth: *depth,
        outer,
        size: *size,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strip of depth 2 and the swap of depths 1 and 2 are `tile(β, 2,
    /// 1, s)`; a swap of other depths, or one inside the tile loop, is
    /// not.
    #[test]
    fn a_strip_and_the_swap_of_its_tile_loop_outwards_are_one_tile() {
        let strip = Directive::Stripmine {
            beta: vec![1, 0],
            depth: 2,
            size: 8,
        };
        let swap = |d1, d2| Directive::Interchange {
            beta: vec![1, 0, 0],
            d1,
            d2,
        };
        let tile = Directive::Tile {
            beta: vec![1, 0],
            depth: 2,
            outer: 1,
            size: 8,
        };
        assert_eq!(tile_of(&strip, &swap(1, 2)), Some(tile.clone()));
        assert_eq!(tile_of(&strip, &swap(2, 1)), Some(tile));
        assert_eq!(tile_of(&strip, &swap(2, 3)), None);
        assert_eq!(tile_of(&strip, &swap(1, 3)), None);
    }
}
