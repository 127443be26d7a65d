//! Strips of dates that no program loop gives: a target date that is
//! only a strip of a later date, read as the schedule before the
//! `stripmine` (or `tile`) that made it.
//!
//! The tile phase reads a tile date as a strip of an affine form of the
//! iterators. A strip of a date that is itself a strip, or a wavefront of
//! strips (floyd-warshall's `auto(spatial); stripmine([0], 2, 5);`, a
//! `tile_band` over `auto(pluto, wavefront = true)`'s tile loops) is no
//! such form: the schedule writes it as `s·c_a ≤ c_{d+1} ≤ s·c_a + s − 1`
//! between two dates, and nothing else reads `c_a`. `tile(β, d, a, s)`
//! strip-mines the loop at depth `d` and swaps the strip with the loop at
//! depth `a` (`stripmine` where `a = d`). The schedule before it is the
//! target with those two dates swapped back and the strip dropped with
//! the β date 0 after it ([`unstripped`]). That schedule is explained as
//! any is (it may hold more such strips), then the `tile` or `stripmine`
//! follows, and the whole is replayed on the real schedule and compared
//! with the target, as every explanation is. The strips are tried
//! outermost first; the first that comes apart from the schedule is
//! undone (a tile loop read so may also hold a piece it does not strip).
//!
//! Must not know: recipe syntax, code generation.

use super::pieces::replayed_on_pieces;
use super::{flattened, ExplainError, Explanation};
use crate::apply::dates::{drop_dates, swap_dates};
use crate::apply::Directive;
use crate::poly::{BasicMap, ConstraintKind};
use crate::scop::schedule::{alpha_date, beta_date, beta_prefix, constant_date};
use crate::scop::{Dependence, Schedule, Scop};

/// How many strips of dates one explanation undoes at most, one inside
/// the other.
pub(super) const MAX_STRIPS: usize = 4;

/// A strip of a later date: the strip at depth `outer`, of the date at
/// depth `depth + 1`, by `size`, for the pieces under the loop `beta` (of
/// length `depth`) at depth `depth`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Strip {
    beta: Vec<i64>,
    depth: usize,
    outer: usize,
    size: i64,
}

/// [`super::explain`] of a target with a strip of a later date as the
/// schedule before its `stripmine` or `tile`, with `left − 1` more to
/// undo; `None` where it has none or that schedule is not explained
/// completely. Exact: the result is replayed and compared with the
/// target.
pub(super) fn explained(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
    left: usize,
) -> Result<Option<Explanation>, ExplainError> {
    if left == 0 {
        return Ok(None);
    }
    let Some((strip, before)) = strips(target)
        .into_iter()
        .find_map(|strip| Some((strip.clone(), unstripped(target, &strip)?)))
    else {
        return Ok(None);
    };
    let explained = super::explain_undoing_strips(scop, deps, &before, left - 1)?;
    if explained.gap.is_some() {
        return Ok(None);
    }
    let mut found = flattened(explained.steps);
    found.push(match strip.outer == strip.depth {
        true => Directive::Stripmine {
            beta: strip.beta,
            depth: strip.depth,
            size: strip.size,
        },
        false => Directive::Tile {
            beta: strip.beta,
            depth: strip.depth,
            outer: strip.outer,
            size: strip.size,
        },
    });
    replayed_on_pieces(scop, deps, target, &found, None)
}

/// The strips of later dates of the pieces of `target`, each once,
/// outermost first.
fn strips(target: &Schedule) -> Vec<Strip> {
    let mut out: Vec<Strip> = Vec::new();
    for piece in target.statements.iter().flat_map(|st| &st.pieces) {
        for outer in 1..=piece.space().n_out() / 2 {
            let Some((depth, size)) = strip_of_later_date(piece, outer) else {
                continue;
            };
            let beta = beta_prefix(piece, depth);
            if let Some(beta) = beta {
                let strip = Strip {
                    beta,
                    depth,
                    outer,
                    size,
                };
                if !out.contains(&strip) {
                    out.push(strip);
                }
            }
        }
    }
    out.sort_by_key(|s| s.outer);
    out
}

/// `(d, s)` where the date at `outer` of `piece` is read by two rows only,
/// `c_{d+1} − s·c_outer ≥ 0` and `s·c_outer + s − 1 − c_{d+1} ≥ 0`, for a
/// later date `c_{d+1}` and `s ≥ 2`.
fn strip_of_later_date(piece: &BasicMap, outer: usize) -> Option<(usize, i64)> {
    let space = piece.space();
    let col = space.out_col(alpha_date(outer));
    let rows: Vec<_> = piece
        .constraints()
        .iter()
        .filter(|c| c.coeffs[col] != 0)
        .collect();
    let [a, b] = rows[..] else {
        return None;
    };
    let (low, high) = if a.coeffs[col] < 0 { (a, b) } else { (b, a) };
    let size = -low.coeffs[col];
    if low.kind != ConstraintKind::Ineq || high.kind != ConstraintKind::Ineq || size < 2 {
        return None;
    }
    let others: Vec<usize> = (0..low.coeffs.len())
        .filter(|&c| c != col && low.coeffs[c] != 0)
        .collect();
    let [later] = others[..] else {
        return None;
    };
    let depth = (outer + 1..=space.n_out() / 2)
        .find(|&d| space.out_col(alpha_date(d)) == later)?
        .checked_sub(1)?;
    let negated = low.coeffs.iter().zip(&high.coeffs).all(|(x, y)| *x == -*y);
    let is_strip =
        low.coeffs[later] == 1 && low.constant == 0 && negated && high.constant == size - 1;
    (is_strip && depth >= outer).then_some((depth, size))
}

/// The schedule before `strip`'s `tile`: in each piece under its loop,
/// the strip swapped back to depth `strip.depth` and dropped with the β
/// date 0 after it; in the other pieces of those statements, the two
/// dates 0 that `stripmine` gave them dropped, and so is the strip's
/// entry in the statements' marks. `None` where a piece there has
/// another strip or other dates, or the strip loop has marks.
fn unstripped(target: &Schedule, strip: &Strip) -> Option<Schedule> {
    let mut before = target.clone();
    let at = alpha_date(strip.depth);
    for st in &mut before.statements {
        let inside = |piece: &BasicMap| {
            piece.space().n_out() > beta_date(strip.depth)
                && (0..strip.depth)
                    .all(|k| constant_date(piece, beta_date(k)) == strip.beta.get(k).copied())
        };
        if !st.pieces.iter().any(inside) {
            continue;
        }
        if st.marks.get(strip.depth - 1).is_none_or(|m| !m.is_empty()) {
            return None;
        }
        for piece in &mut st.pieces {
            if piece.space().n_out() <= at + 1 {
                return None;
            }
            let zero_after = constant_date(piece, at + 1) == Some(0);
            if !inside(piece) {
                if constant_date(piece, at) != Some(0) || !zero_after {
                    return None;
                }
                *piece = drop_dates(piece, at, 2);
                continue;
            }
            let same = strip_of_later_date(piece, strip.outer) == Some((strip.depth, strip.size));
            if !same || !zero_after {
                return None;
            }
            let swapped = swap_dates(piece, alpha_date(strip.outer), at);
            *piece = drop_dates(&swapped, at, 2);
        }
        st.marks.remove(strip.depth - 1);
    }
    Some(before)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::{parse_basic_map, Map};

    fn map(text: &str) -> BasicMap {
        parse_basic_map(text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    /// floyd-warshall's wavefront of tiles strip-mined by 5: the strip
    /// reads the wavefront's date only, and dropping it gives the
    /// wavefront back.
    #[test]
    fn a_strip_of_a_wavefront_is_read_before_its_stripmine() {
        let target = map(
            "[n] -> { S[k, i, j] -> [0, k, 0, c3, 0, c5, 0, c7, 0, i, 0, j, 0] : \
             32c7 <= j and 32c7 >= j - 31 and 32c7 >= -i + 32c5 and \
             32c7 <= -i + 32c5 + 31 and c5 >= 5c3 and c5 <= 5c3 + 4 }",
        );
        assert_eq!(strip_of_later_date(&target, 2), Some((2, 5)));
        assert_eq!(strip_of_later_date(&target, 3), None, "the wavefront");
        assert_eq!(strip_of_later_date(&target, 1), None, "a program loop");
        let strip = Strip {
            beta: vec![0, 0],
            depth: 2,
            outer: 2,
            size: 5,
        };
        let before = unstripped(&one(target), &strip).expect("unstripped");
        let expected = map(
            "[n] -> { S[k, i, j] -> [0, k, 0, c5, 0, c7, 0, i, 0, j, 0] : \
             32c7 <= j and 32c7 >= j - 31 and 32c7 >= -i + 32c5 and \
             32c7 <= -i + 32c5 + 31 }",
        );
        let piece = &before.statements[0].pieces[0];
        let renamed = BasicMap::from_columns(
            expected.space().clone(),
            piece.n_local(),
            piece.constraints().to_vec(),
        );
        let same = Map::from_basic(renamed)
            .is_equal(&Map::from_basic(expected))
            .expect("decided");
        assert!(same, "{piece}");
    }

    fn one(piece: BasicMap) -> Schedule {
        let mut s = Schedule {
            statements: Vec::new(),
        };
        s.statements.push(crate::scop::schedule::StatementSchedule {
            pieces: vec![piece],
            marks: vec![Vec::new(); 6],
        });
        s
    }
}
