//! Directives of a recovery that one directive makes: a `stripmine`
//! followed by the `interchange` that swaps its new tile loop with a loop
//! outside it is Clay's `tile` (`stripmine`, then that one swap), the
//! readable form the issue asks for (`tile([1], 2, 1, 8)`, not
//! `stripmine([1, 0], 2, 8); interchange([1, 0, 0], 1, 2);`); and a
//! statement `split` from the rest of its loop, that loop strip-mined
//! and the rest `fuse`d back is `tile` of the statement alone with no
//! swap (`tile([0, 0, 0], 1, 1, 4)` on gemm's first statement, not
//! `split([0, 0, 0], 1); stripmine([0], 1, 4); fuse([0]);`); and the
//! same swap of two outer loops before and after a `tile` whose swap
//! takes one of them is that `tile` swapped with the other. Exact: a
//! join is kept only where the schedule after it is the one the
//! directives it replaces gave (equal relations and marks).

use super::{ExplainError, Recovery};
use crate::apply::Directive;

impl Recovery<'_> {
    /// Joins each `stripmine` and the `interchange` right after it that
    /// moves its tile loop out into one `tile`, and each `split`,
    /// `stripmine` and `fuse` (and the `fuse`s of the loops inside, one
    /// level deeper each) that strip one statement's loop into that
    /// statement's `tile`, where that gives the same schedule.
    pub(super) fn join_tiles(&mut self) -> Result<(), ExplainError> {
        let mut k = 0;
        while k + 1 < self.found.len() {
            if let Some(tile) = self
                .found
                .get(k..k + 3)
                .and_then(|ds| statement_tile_of(&ds[0], &ds[1], &ds[2]))
            {
                // The loops inside fused back one level deeper each
                // (`fuse([0]); fuse([0, 0]);`), as many as give the tile's
                // schedule.
                let loop_beta = tile.beta().get(..self.found[k + 1].beta().len());
                let deeper = self.found[k + 3..]
                    .iter()
                    .zip(1..)
                    .take_while(|(d, j)| match (d, loop_beta) {
                        (Directive::Fuse { beta }, Some(l)) => {
                            beta.len() == l.len() + j
                                && beta.starts_with(l)
                                && beta[l.len()..].iter().all(|&x| x == 0)
                        }
                        _ => false,
                    })
                    .count();
                for m in (0..=deeper).rev() {
                    let before = self.found.len();
                    self.replace_if_same(k, k + 3 + m, vec![tile.clone()])?;
                    if self.found.len() < before {
                        break;
                    }
                }
            }
            if let Some(tile) = self
                .found
                .get(k..k + 2)
                .and_then(|ds| tile_of(&ds[0], &ds[1]))
            {
                self.replace_if_same(k, k + 2, vec![tile])?;
            }
            k += 1;
        }
        // The tiles joined above, swapped further.
        let mut k = 0;
        while k + 2 < self.found.len() {
            if let Some(tile) =
                tile_swapped_further(&self.found[k], &self.found[k + 1], &self.found[k + 2])
            {
                self.replace_if_same(k, k + 3, vec![tile])?;
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

/// The `tile` that the same `interchange` of two loops outside the strip
/// before and after a `tile` whose swap takes one of them makes: the
/// tile loop swapped with the other one instead (syr2k's `interchange(1,
/// 2); tile(β, 3, 2, 8); interchange(1, 2);` is `tile(β, 3, 1, 8)`), if
/// they are such a triple; whether it gives their schedule is the
/// caller's check.
fn tile_swapped_further(
    before: &Directive,
    tile: &Directive,
    after: &Directive,
) -> Option<Directive> {
    let Directive::Interchange { d1, d2, .. } = before else {
        return None;
    };
    let Directive::Interchange { d1: e1, d2: e2, .. } = after else {
        return None;
    };
    let Directive::Tile {
        beta,
        depth,
        outer,
        size,
    } = tile
    else {
        return None;
    };
    let (a, b) = (*d1.min(d2), *d1.max(d2));
    if (a, b) != (*e1.min(e2), *e1.max(e2)) || b >= *depth || a == b {
        return None;
    }
    let other = match *outer {
        o if o == a => b,
        o if o == b => a,
        _ => return None,
    };
    Some(Directive::Tile {
        beta: beta.clone(),
        depth: *depth,
        outer: other,
        size: *size,
    })
}

/// The `tile` of one statement that makes `split` (the statement at `β`
/// split from what follows it in its loop at depth `d`), `strip` (a
/// `stripmine` of that loop at `d`) and `fuse` (of that loop with the
/// next), if they are such a triple; whether it gives their schedule is
/// the caller's check.
fn statement_tile_of(split: &Directive, strip: &Directive, fuse: &Directive) -> Option<Directive> {
    let Directive::Split { beta, depth } = split else {
        return None;
    };
    let Directive::Stripmine {
        beta: strip_beta,
        depth: strip_depth,
        size,
    } = strip
    else {
        return None;
    };
    let Directive::Fuse { beta: fused } = fuse else {
        return None;
    };
    let loop_beta = beta.get(..*depth)?;
    (strip_beta == loop_beta && fused == loop_beta && strip_depth == depth).then(|| {
        Directive::Tile {
            beta: beta.clone(),
            depth: *depth,
            outer: *depth,
            size: *size,
        }
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

    /// The swap of depths 1 and 2 around `tile(β, 3, 2, s)` is `tile(β,
    /// 3, 1, s)`; around a tile whose swap takes neither, or of a loop
    /// not outside the strip, it is no tile.
    #[test]
    fn a_swap_around_a_tile_moves_its_tile_loop_further() {
        let swap = |d1, d2| Directive::Interchange {
            beta: vec![0, 1],
            d1,
            d2,
        };
        let tile = |outer| Directive::Tile {
            beta: vec![0, 1, 0],
            depth: 3,
            outer,
            size: 8,
        };
        assert_eq!(
            tile_swapped_further(&swap(1, 2), &tile(2), &swap(2, 1)),
            Some(tile(1))
        );
        assert_eq!(
            tile_swapped_further(&swap(1, 2), &tile(3), &swap(1, 2)),
            None
        );
        assert_eq!(
            tile_swapped_further(&swap(2, 3), &tile(2), &swap(2, 3)),
            None
        );
        assert_eq!(
            tile_swapped_further(&swap(1, 2), &tile(2), &swap(1, 3)),
            None
        );
    }

    /// gemm's first statement split from the update at depth 1, its loop
    /// strip-mined and the update fused back: `tile([0, 0, 0], 1, 1, 4)`;
    /// a strip of another loop or depth is not.
    #[test]
    fn a_split_strip_and_fuse_of_one_statement_are_its_tile() {
        let split = Directive::Split {
            beta: vec![0, 0, 0],
            depth: 1,
        };
        let strip = |beta: Vec<i64>, depth| Directive::Stripmine {
            beta,
            depth,
            size: 4,
        };
        let fuse = Directive::Fuse { beta: vec![0] };
        let tile = Directive::Tile {
            beta: vec![0, 0, 0],
            depth: 1,
            outer: 1,
            size: 4,
        };
        assert_eq!(
            statement_tile_of(&split, &strip(vec![0], 1), &fuse),
            Some(tile)
        );
        assert_eq!(statement_tile_of(&split, &strip(vec![1], 1), &fuse), None);
        assert_eq!(statement_tile_of(&split, &strip(vec![0], 2), &fuse), None);
    }
}
