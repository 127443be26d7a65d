//! The target schedule read for the recovery: per statement, its loop
//! dates as affine forms of its iterators, and its tile dates as strips
//! of them ([`super::strips`]); the tile dates are dropped from the
//! schedule the first phases build and added back by the tile phase.

use super::strips::{read_tiles, Tile};
use super::Gap;
use crate::poly::{BasicMap, ConstraintKind, PolyError};
use crate::scop::schedule::alpha_date;
use crate::scop::{Schedule, Scop};

/// One statement of the target, its tile dates set apart.
#[derive(Clone, Debug)]
pub(super) struct StatementShape {
    /// The β-vector without the β dates after tile dates.
    pub beta: Vec<i64>,
    /// The target's whole β-vector.
    pub full_beta: Vec<i64>,
    /// The other α dates, in order: iterators', parameters' coefficients,
    /// constant.
    pub rows: Vec<Vec<i64>>,
    /// Their depths in the target (1-based).
    pub kept: Vec<usize>,
    pub tiles: Vec<Tile>,
    /// `(point, tile, λ)`: the date at depth `point` is its row plus `λ ×`
    /// the tile date at depth `tile` (target depths, 1-based): the point
    /// loop skewed by its tile loop after the tiles, or a loop by a tile
    /// loop inside it.
    pub tile_skews: Vec<(usize, usize, i64)>,
}

/// `shapes` with every tile that a skew of its tile loop by an outer
/// loop gives read that way ([`skewed_by_outer_loop`]); `None`
/// where no tile is such.
pub(super) fn with_tiles_skewed_by_outer_loops(
    shapes: &[StatementShape],
) -> Option<Vec<StatementShape>> {
    let mut any = false;
    let out = shapes
        .iter()
        .map(|s| StatementShape {
            tiles: s
                .tiles
                .iter()
                .map(|t| match skewed_by_outer_loop(t) {
                    Some(u) => {
                        any = true;
                        u
                    }
                    None => t.clone(),
                })
                .collect(),
            ..s.clone()
        })
        .collect();
    any.then_some(out)
}

/// `tile` read as a skew of its tile loop by an outer loop after the
/// tiling, where its strip reads the point date plus whole strips of a
/// date outside the tile loop (heat-3d's `⌊(k − 96t)/32⌋ = ⌊k/32⌋ −
/// 3t`): one `skew` of the tile loop rather than the point loop's around
/// the strip. `None` where it is not such a strip (or runs backwards).
fn skewed_by_outer_loop(tile: &Tile) -> Option<Tile> {
    let (other, factor) = tile.point_skew?;
    let plain = tile.sign == 1 && !tile.point_reversed && tile.point_reshape.is_empty();
    if !plain || other >= tile.depth || factor % tile.size != 0 {
        return None;
    }
    let mut skews = tile.skews.clone();
    skews.push((other, factor / tile.size));
    skews.sort_unstable();
    Some(Tile {
        point_skew: None,
        skews,
        ..tile.clone()
    })
}

/// Every statement's shape, or the first statement the recovery cannot
/// express and why.
pub(super) fn shapes(
    scop: &Scop,
    target: &Schedule,
) -> Result<Result<Vec<StatementShape>, Gap>, PolyError> {
    let mut out = Vec::new();
    for (st, s) in scop.statements.iter().zip(&target.statements) {
        let gap = |reason: &str| {
            Ok(Err(Gap {
                statement: st.name.clone(),
                reason: reason.to_string(),
            }))
        };
        if s.pieces.len() != 1 {
            return gap(&format!(
                "its schedule has {} pieces (an index-set split); `iss` is not recovered yet",
                s.pieces.len()
            ));
        }
        let piece = &s.pieces[0];
        if piece.n_local() != 0 {
            return gap("its dates have existential variables; they are not recovered yet");
        }
        let Some(beta) = s.beta(0) else {
            return gap("a β date is not a constant");
        };
        let n = st.iterators.len();
        let mut forms = date_forms(piece, scop.params.len(), n)?;
        let parts = tile_parts(piece, scop.params.len(), n, &mut forms);
        let mut shape = StatementShape {
            beta: vec![beta[0]],
            full_beta: beta.clone(),
            rows: Vec::new(),
            kept: Vec::new(),
            tiles: Vec::new(),
            tile_skews: Vec::new(),
        };
        for (k, part) in parts.iter().enumerate() {
            for &(tile, factor) in part {
                shape.tile_skews.push((k + 1, tile, factor));
            }
        }
        for (k, form) in forms.iter().enumerate() {
            if let Some(f) = form {
                shape.rows.push(f.clone());
                shape.kept.push(k + 1);
                shape.beta.push(beta[k + 1]);
            }
        }
        if shape.kept.len() < forms.len() {
            match read_tiles(piece, scop.params.len(), n, &forms, &parts)? {
                Some(t) => shape.tiles = t,
                None => {
                    return gap(
                        "a loop date is neither an affine form of its iterators nor a strip \
                         of one",
                    )
                }
            }
        }
        out.push(shape);
    }
    // Without the β dates after the tile dates, the statements must still
    // form a tree; it is made dense again (the tile phase's `stripmine`
    // puts a 0 after each tile date, and the final comparison with the
    // target checks the rest). Where they do not (statements that share
    // tile loops but not their point loops: bicg's two sums in one band
    // of tiles, as `auto` tiles it), the β dates are read as strips made
    // first, then moved out, place them.
    let mut betas: Vec<Vec<i64>> = out.iter().map(|s| s.beta.clone()).collect();
    if let Err(s) = dense_tree(&mut betas) {
        let banded: Option<Vec<Vec<i64>>> = out
            .iter()
            .map(|shape| beta_before_strips(shape, &out))
            .collect();
        let banded = banded.filter(|b| {
            let mut dense = b.clone();
            dense_tree(&mut dense).is_ok()
        });
        match banded {
            Some(mut banded) => {
                // A tree (just checked): made dense the same way.
                let _ = dense_tree(&mut banded);
                betas = banded;
            }
            None => {
                return Ok(Err(Gap {
                    statement: scop.statements[s].name.clone(),
                    reason: "it shares tile loops with statements whose point loops are \
                             ordered inside them (not recovered yet)"
                        .to_string(),
                }))
            }
        }
    }
    for (shape, beta) in out.iter_mut().zip(betas) {
        shape.beta = beta;
    }
    Ok(Ok(out))
}

/// The β-vector of a statement without the β dates of its tile loops,
/// when its tiles were made as `auto` makes them: every loop stripped
/// first (`stripmine` gives the tile loop, a β date 0, then the loop with
/// its own β date), then the tile loops moved out by `interchange`s,
/// which move α dates only; and strip loops over statements with point
/// loops of their own (atax's strips of rows, each sum with its own rows)
/// fused from strips of loops that were apart. So, in the target's β
/// dates, the loops take one place each in order, two for a stripped
/// loop: its tile's, then its own. A tile's β date orders the point loops
/// of one strip loop: it joins the β date before the loop as a second key
/// (`β·STRIP_KEYS + the tile's`, 0 where the loop is not stripped, so
/// that every statement's dates compare as pairs; the tree is made dense
/// afterwards), and before the strips those loops are apart
/// ([`super::tiles`] fuses their strip loops). A tile loop that is
/// another statement's own loop (atax's `tile([1, 0], 1, 1, 4)` of the
/// first statement of a loop alone: its tile loop is the others' `i`) is
/// a strip of that loop for this statement only: its point loop, right
/// inside it, was that loop, so the point loop's children are the loop's
/// children where the point loop is among them (the β date after the tile
/// loop, then the one after the point loop, as two keys; the others' β
/// date after that loop with a second key 0). A tile right outside its
/// point loop, or right outside the tile loop it strips, where the loop
/// has another tile further out, was strip-mined after the others: its β
/// date is left out first. `None` where that does not fit. (`tile_band`
/// keeps each β date after its own loop.)
fn beta_before_strips(shape: &StatementShape, all: &[StatementShape]) -> Option<Vec<i64>> {
    /// More than any β date of a tile loop (its statements' point loops).
    const STRIP_KEYS: i64 = 1 << 16;
    let key = |before: i64, tile: i64| before.checked_mul(STRIP_KEYS)?.checked_add(tile);
    let fits = |b: i64| (0..STRIP_KEYS).contains(&b);
    // A tile right outside its point loop, another tile of that loop
    // further out (fold-types' `tile_band` of a point loop after
    // `auto`'s band), or right outside the tile loop it strips: a strip
    // made after the others, whose `stripmine` put its β date right
    // after it; without that date, the β dates are those before it.
    let mut full = shape.full_beta.clone();
    let mut used = vec![false; shape.tiles.len()];
    let mut inner: Vec<usize> = (0..shape.tiles.len())
        .filter(|&t| {
            let tile = &shape.tiles[t];
            let [point] = tile.points[..] else {
                return false;
            };
            let of_tile = shape.tiles.iter().any(|u| u.depth == point);
            tile.depth + 1 == point
                && (of_tile
                    || shape
                        .tiles
                        .iter()
                        .any(|u| u.depth < tile.depth && u.points.contains(&point)))
        })
        .collect();
    inner.sort_by_key(|&t| std::cmp::Reverse(shape.tiles[t].depth));
    for t in inner {
        used[t] = true;
        if shape.tiles[t].depth >= full.len() {
            return None;
        }
        full.remove(shape.tiles[t].depth);
    }
    let full = &full;
    // Whether the tile loop at `depth` is another statement's own loop.
    let fused = |depth: usize| {
        all.iter().any(|other| {
            other.kept.contains(&depth)
                && other.full_beta.get(..depth).is_some()
                && other.full_beta.get(..depth) == shape.full_beta.get(..depth)
        })
    };
    let mut beta = Vec::new();
    let mut before = *full.first()?;
    // After a fused tile's point loop: the β date after the tile loop,
    // the first key of the next place (the one after the point loop the
    // second).
    let mut outer: Option<i64> = None;
    let mut at = 0;
    for depth in &shape.kept {
        let strip =
            (0..shape.tiles.len()).find(|&t| !used[t] && shape.tiles[t].points.contains(depth));
        let mut tile = 0;
        let mut fused_tile = false;
        if let Some(t) = strip {
            used[t] = true;
            at += 1;
            tile = *full.get(at)?;
            if !fits(tile) {
                return None;
            }
            let own = &shape.tiles[t];
            fused_tile = own.points == [*depth] && own.depth + 1 == *depth && fused(own.depth);
        }
        match outer.take() {
            // Three keys would be needed.
            Some(_) if strip.is_some() => return None,
            Some(o) if fits(before) => beta.push(key(o, before)?),
            Some(_) => return None,
            None if fused_tile => {
                // The point loop is the other statements' loop: its
                // children come where it is among that loop's.
                beta.push(key(before, 0)?);
                outer = Some(tile);
            }
            None => beta.push(key(before, tile)?),
        }
        at += 1;
        before = *full.get(at)?;
    }
    match outer {
        Some(o) if fits(before) => beta.push(key(o, before)?),
        Some(_) => return None,
        None => beta.push(key(before, 0)?),
    }
    used.iter().all(|&u| u).then_some(beta)
}

/// Renumbers `betas` so that the children of every loop are numbered
/// from 0 in their order; `Err(statement)` when two statements have the
/// same β-vector or one's is a prefix of another's (no tree).
fn dense_tree(betas: &mut [Vec<i64>]) -> Result<(), usize> {
    let mut order: Vec<usize> = (0..betas.len()).collect();
    order.sort_by(|&a, &b| betas[a].cmp(&betas[b]));
    for w in order.windows(2) {
        if betas[w[1]].starts_with(&betas[w[0]]) {
            return Err(w[1]);
        }
    }
    let original: Vec<Vec<i64>> = betas.to_vec();
    for &s in &order {
        for level in 0..original[s].len() {
            // The position among the distinct children of the loop
            // `original[s][..level]`.
            let prefix = &original[s][..level];
            let mut values: Vec<i64> = original
                .iter()
                .filter(|b| b.len() > level && b.starts_with(prefix))
                .map(|b| b[level])
                .collect();
            values.sort_unstable();
            values.dedup();
            let rank = values
                .iter()
                .position(|&v| v == original[s][level])
                .unwrap_or(0);
            betas[s][level] = i64::try_from(rank).unwrap_or(i64::MAX);
        }
    }
    Ok(())
}

/// The dates of `piece` that are an affine form plus a combination of
/// tile dates (a point loop skewed by its tile loop after the strip:
/// `c11 = j - c5`; or a loop skewed by a tile loop inside it), each read
/// off an equality that sets it (its coefficient dividing the rest) and
/// reads, of the dates, only it and other dates without a form: their forms put into `forms`, and per
/// date the tile dates' depths (1-based) with their factors (empty for
/// the other dates). The deepest date is read first. Exact, cheap.
fn tile_parts(
    piece: &BasicMap,
    n_param: usize,
    n: usize,
    forms: &mut [Option<Vec<i64>>],
) -> Vec<Vec<(usize, i64)>> {
    let mut parts = vec![Vec::new(); forms.len()];
    let out = n_param + n;
    for d in (0..forms.len()).rev() {
        if forms[d].is_some() {
            continue;
        }
        let col = out + alpha_date(d + 1);
        let found = piece.constraints().iter().find_map(|c| {
            let a = c.coeffs[col];
            if c.kind != ConstraintKind::Eq
                || a == 0
                || c.coeffs[out + piece.space().n_out()..]
                    .iter()
                    .any(|&v| v != 0)
            {
                return None;
            }
            let mut part = Vec::new();
            for (k, &v) in c.coeffs[out..out + piece.space().n_out()]
                .iter()
                .enumerate()
            {
                if v == 0 || k == alpha_date(d + 1) {
                    continue;
                }
                // Only other α dates without a form (nor a part): tile
                // dates outside it, or inside it (a loop skewed by a tile
                // loop inside it after the tiling).
                let depth = k.div_ceil(2);
                let tile = k % 2 == 1 && depth != d + 1 && forms[depth - 1].is_none();
                if !tile || v % a != 0 {
                    return None;
                }
                part.push((depth, v.checked_neg()? / a));
            }
            let rest = c.coeffs[n_param..out]
                .iter()
                .chain(&c.coeffs[..n_param])
                .chain(std::iter::once(&c.constant));
            let form = rest
                .map(|&v| {
                    (v % a == 0)
                        .then(|| v.checked_neg()?.checked_div(a))
                        .flatten()
                })
                .collect::<Option<Vec<i64>>>()?;
            (!part.is_empty()).then_some((form, part))
        });
        if let Some((form, part)) = found {
            forms[d] = Some(form);
            parts[d] = part;
        }
    }
    parts
}

/// Each α date of `piece` (with `n` iterators) as an affine form (the
/// iterators' coefficients, the parameters', the constant), solved from
/// its equalities; `None` for one they do not determine (a tile date,
/// only bounded) or determine with a fraction. Exact.
pub(super) fn date_forms(
    piece: &BasicMap,
    n_param: usize,
    n: usize,
) -> Result<Vec<Option<Vec<i64>>>, PolyError> {
    let n_out = piece.space().n_out();
    let out = n_param + n;
    let n_cols = piece.n_cols();
    // Equalities over [params | in | out], locals absent.
    let mut rows: Vec<Vec<i128>> = piece
        .constraints()
        .iter()
        .filter(|c| {
            c.kind == ConstraintKind::Eq && c.coeffs[out + n_out..n_cols].iter().all(|&v| v == 0)
        })
        .map(|c| {
            let mut row: Vec<i128> = c.coeffs[..out + n_out].iter().map(|&v| v.into()).collect();
            row.push(c.constant.into());
            row
        })
        .collect();
    let mut pivot_of: Vec<Option<usize>> = vec![None; n_out];
    let mut used = vec![false; rows.len()];
    for (d, pivot) in pivot_of.iter_mut().enumerate() {
        let col = out + d;
        let Some(p) = (0..rows.len()).find(|&r| !used[r] && rows[r][col] != 0) else {
            continue;
        };
        used[p] = true;
        *pivot = Some(p);
        for r in 0..rows.len() {
            if r == p || rows[r][col] == 0 {
                continue;
            }
            let (a, b) = (rows[p][col], rows[r][col]);
            for j in 0..rows[r].len() {
                let v = rows[r][j]
                    .checked_mul(a)
                    .zip(rows[p][j].checked_mul(b))
                    .and_then(|(x, y)| x.checked_sub(y))
                    .ok_or(PolyError::Overflow)?;
                rows[r][j] = v;
            }
            let g = rows[r].iter().fold(0i128, |g, &v| gcd(g, v));
            if g > 1 {
                rows[r].iter_mut().for_each(|v| *v /= g);
            }
        }
    }
    let mut result = Vec::new();
    for depth in 1..=n_out / 2 {
        let date = alpha_date(depth);
        let Some(p) = pivot_of.get(date).copied().flatten() else {
            result.push(None);
            continue;
        };
        let row = &rows[p];
        let a = row[out + date];
        // a·α + (other dates: zero after elimination) + rest = 0.
        if (0..n_out).any(|d| d != date && row[out + d] != 0) {
            result.push(None);
            continue;
        }
        let rest = row[n_param..out]
            .iter()
            .chain(&row[..n_param])
            .chain(std::iter::once(&row[out + n_out]));
        let mut form = Some(Vec::with_capacity(n + n_param + 1));
        for &v in rest {
            let q = if v % a == 0 {
                Some(i64::try_from(-(v / a)).map_err(|_| PolyError::Overflow)?)
            } else {
                None
            };
            form = form.zip(q).map(|(mut f, q)| {
                f.push(q);
                f
            });
        }
        result.push(form);
    }
    Ok(result)
}

/// The greatest common divisor of `|a|` and `|b|`, saturated at
/// `i128::MAX` (only `i128::MIN` reaches it; dividing by it then leaves
/// the row as it is).
pub(super) fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i128::try_from(a).unwrap_or(i128::MAX)
}
