//! Tiles of one date spread over its shifted copies: a statement whose
//! dates repeat a form (fdtd-2d's first statement, `t` at two depths)
//! has both tiles read off the date it equals, until a `shift` of a
//! point loop after the tiles moves one copy (`t + 1`); its loop's other
//! statements then read one tile off the shifted date. The tile phase
//! tries this reading last: the tiles read the copies in order, each the
//! date plus the difference.
//!
//! Must not know: recipe syntax, the other phases.

use super::shape::StatementShape;
use super::strips::{less_times, Tile};
use crate::poly::PolyError;

/// `shapes` with the tiles of each statement that strip one date at two
/// depths or more spread over that date's shifted copies
/// ([`spread_over_shifted_copies`]); `None` where no tile is such.
/// Exact.
pub(super) fn with_tiles_spread_over_shifted_copies(
    shapes: &[StatementShape],
) -> Result<Option<Vec<StatementShape>>, PolyError> {
    let mut any = false;
    let mut out = shapes.to_vec();
    for s in &mut out {
        // A row holds the iterators, then what an offset holds.
        let Some((row, tile)) = s.rows.first().zip(s.tiles.first()) else {
            continue;
        };
        let Some(n) = row.len().checked_sub(tile.offset.len()) else {
            continue;
        };
        let depths = s.kept.iter().chain(s.tiles.iter().map(|t| &t.depth));
        let mut forms: Vec<Option<Vec<i64>>> = vec![None; depths.max().copied().unwrap_or(0)];
        for (row, &k) in s.rows.iter().zip(&s.kept) {
            forms[k - 1] = Some(row.clone());
        }
        any |= spread_over_shifted_copies(&mut s.tiles, &forms, n)?;
    }
    Ok(any.then_some(out))
}

/// Where several tiles strip the same dates and other dates have their
/// form shifted by parameters and constant, which no tile strips, and
/// there are as many of those dates as tiles, the tiles read them in
/// order, each the date plus the difference: a point loop `shift`ed after
/// the tiles of a band whose dates repeat a form (fdtd-2d's first
/// statement, `t` at two depths until a `shift` made one of them `t + 1`,
/// reads both tiles off the other `t`, while its loop's other statements
/// read one tile off the shifted date). Whether a tile changed. Exact:
/// each offset is the difference of the two forms.
fn spread_over_shifted_copies(
    tiles: &mut [Tile],
    forms: &[Option<Vec<i64>>],
    n: usize,
) -> Result<bool, PolyError> {
    let mut changed = false;
    let plain =
        |u: &Tile| u.point_skew.is_none() && !u.point_reversed && u.point_reshape.is_empty();
    for t in 0..tiles.len() {
        let points = tiles[t].points.clone();
        let first_of_group = !tiles[..t].iter().any(|u| u.points == points);
        let group: Vec<usize> = (t..tiles.len())
            .filter(|&u| tiles[u].points == points && plain(&tiles[u]))
            .collect();
        let Some(f) = points.first().and_then(|&p| forms.get(p - 1)?.as_ref()) else {
            continue;
        };
        if !first_of_group || group.len() < 2 || f.len() != tiles[t].offset.len() + n {
            continue;
        }
        // The stripped form, and the dates with its iterators.
        let mut e = f.clone();
        for (a, b) in e[n..].iter_mut().zip(&tiles[t].offset) {
            *a = a.checked_add(*b).ok_or(PolyError::Overflow)?;
        }
        let same_form = |k: usize| {
            forms
                .get(k - 1)
                .and_then(Option::as_ref)
                .filter(|g| g.len() == e.len() && g[..n] == e[..n])
        };
        let unread: Vec<usize> = (1..=forms.len())
            .filter(|&k| same_form(k).is_some() && !tiles.iter().any(|u| u.points.contains(&k)))
            .collect();
        let mut dates: Vec<usize> = points
            .iter()
            .copied()
            .chain(unread.iter().copied())
            .collect();
        dates.sort_unstable();
        if unread.is_empty() || dates.len() != group.len() {
            continue;
        }
        for (&u, &k) in group.iter().zip(&dates) {
            let Some(g) = same_form(k) else {
                continue;
            };
            let offset = less_times(&e[n..], &g[n..], 1)?;
            changed |= tiles[u].points != [k] || tiles[u].offset != offset;
            tiles[u].offset = offset;
            tiles[u].points = vec![k];
        }
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// fdtd-2d's first statement after a `shift` of its second point
    /// loop: dates (t, n, 1) `t` and `t + 1`; both tiles read `t` exactly
    /// until spread, then the inner reads `t + 1` less 1. With the dates
    /// the other way round, the outer reads the shifted one.
    #[test]
    fn tiles_of_one_date_spread_over_its_shifted_copies_in_order() {
        let tile = Tile::plain;
        let forms = vec![None, None, Some(vec![1, 0, 0]), Some(vec![1, 0, 1])];
        let mut tiles = vec![tile(1, vec![3], vec![0, 0]), tile(2, vec![3], vec![0, 0])];
        assert!(spread_over_shifted_copies(&mut tiles, &forms, 1).expect("exact"));
        assert_eq!(
            tiles,
            vec![tile(1, vec![3], vec![0, 0]), tile(2, vec![4], vec![0, -1])]
        );
        let forms = vec![None, None, Some(vec![1, 0, 1]), Some(vec![1, 0, 0])];
        let mut tiles = vec![tile(1, vec![4], vec![0, 0]), tile(2, vec![4], vec![0, 0])];
        spread_over_shifted_copies(&mut tiles, &forms, 1).expect("exact");
        assert_eq!(
            tiles,
            vec![tile(1, vec![3], vec![0, -1]), tile(2, vec![4], vec![0, 0])]
        );
        // No unread copy: left as it is (the tile phase picks among them).
        let forms = vec![None, None, Some(vec![1, 0, 0]), Some(vec![1, 0, 0])];
        let mut tiles = vec![
            tile(1, vec![3, 4], vec![0, 0]),
            tile(2, vec![3, 4], vec![0, 0]),
        ];
        let before = tiles.clone();
        assert!(!spread_over_shifted_copies(&mut tiles, &forms, 1).expect("exact"));
        assert_eq!(tiles, before);
    }
}
