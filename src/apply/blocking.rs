//! The blocking directives: `stripmine` (a loop becomes a loop over tiles
//! and a loop inside each tile), `tile` (strip-mine, then move the tile
//! loop outward) and `tile_band` (a band of loops becomes its tile loops
//! around its point loops).

use super::dates::{insert_dates, swap_dates, with_date_row};
use super::tree::{under, PieceRef};
use super::{check_depth, rewrite_pieces, ApplyError};
use crate::scop::schedule::alpha_date;
use crate::scop::Schedule;

/// `α_depth` becomes the tile index `⌊α_depth / size⌋`, a new β = 0, then
/// `α_depth` itself, for the pieces under `beta` (Clay strip-mines the
/// scattering parts whose β matches). Another piece of the same statement
/// gets the two new dates as constants `0, 0`; it must lie in another loop
/// at depth `depth` (its β differs from `beta` before that depth), so
/// that its order with the strip-mined pieces is decided before the new
/// dates.
pub fn stripmine(
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
    size: i64,
) -> Result<Schedule, ApplyError> {
    let targets = under(schedule, beta)?;
    stripmine_pieces(schedule, &targets, beta, depth, size)
}

/// [`stripmine`] of the pieces `targets` (all under `beta`).
pub(super) fn stripmine_pieces(
    schedule: &Schedule,
    targets: &[PieceRef],
    beta: &[i64],
    depth: usize,
    size: i64,
) -> Result<Schedule, ApplyError> {
    stripmine_pieces_shifted(schedule, targets, beta, depth, size, 0)
}

/// [`stripmine_pieces`] with the strips shifted: strip `T` holds the
/// dates `α` with `size·T <= α + shift <= size·T + size - 1`.
pub(super) fn stripmine_pieces_shifted(
    schedule: &Schedule,
    targets: &[PieceRef],
    beta: &[i64],
    depth: usize,
    size: i64,
    shift: i64,
) -> Result<Schedule, ApplyError> {
    check_depth(schedule, targets, depth, "stripmine")?;
    if size < 1 {
        return Err(ApplyError::precondition(format!(
            "stripmine: the size must be at least 1, not {size}"
        )));
    }
    let (statements, others) = other_pieces(schedule, targets, beta, depth, "stripmine")?;
    let at = alpha_date(depth);
    let next = rewrite_pieces(schedule, targets, |p| {
        // New dates at α(depth): T, β = 0, then the old α_depth.
        let p = insert_dates(p, at, 2);
        let (tile, point) = (at, at + 2);
        // size·T <= α + shift  and  α + shift <= size·T + size − 1;  β = 0.
        let p = with_date_row(&p, &[(point, 1), (tile, -size)], shift, false);
        let p = with_date_row(&p, &[(point, -1), (tile, size)], size - 1 - shift, false);
        Ok(with_date_row(&p, &[(at + 1, 1)], 0, true))
    })?;
    let mut next = rewrite_pieces(&next, &others, |p| {
        let p = insert_dates(p, at, 2);
        let p = with_date_row(&p, &[(at, 1)], 0, true);
        Ok(with_date_row(&p, &[(at + 1, 1)], 0, true))
    })?;
    // The tile loop has no marks; the point loop keeps the old ones.
    for s in statements {
        next.statements[s].marks.insert(depth - 1, Vec::new());
    }
    Ok(next)
}

/// The statements of `targets`, and their other pieces: each must lie in
/// another loop at `depth` (its β differs from `beta` before that depth),
/// so that its order with the targets is decided before the dates a
/// blocking directive inserts there (it gets them as constants 0).
fn other_pieces(
    schedule: &Schedule,
    targets: &[PieceRef],
    beta: &[i64],
    depth: usize,
    what: &str,
) -> Result<(Vec<usize>, Vec<PieceRef>), ApplyError> {
    let mut statements: Vec<usize> = targets.iter().map(|t| t.statement).collect();
    statements.sort_unstable();
    statements.dedup();
    let mut others = Vec::new();
    for &s in &statements {
        let st = &schedule.statements[s];
        for piece in 0..st.pieces.len() {
            let r = PieceRef {
                statement: s,
                piece,
            };
            if targets.contains(&r) {
                continue;
            }
            let b = st.beta(piece).unwrap_or_default();
            let differs_at = b.iter().zip(beta).position(|(x, y)| x != y);
            if differs_at.is_none_or(|j| j >= depth) {
                return Err(ApplyError::precondition(format!(
                    "{what}: statement S{s} is split in pieces (iss) and its piece at {b:?} shares the loop at depth {depth} with the pieces under {beta:?}"
                ))
                .with_help(format!("apply `{what}` to a β-vector above the split, or to the loop at a depth where the pieces are in different loops")));
            }
            others.push(r);
        }
    }
    Ok((statements, others))
}

/// `tile_band(beta, depth, [s1, …, sn])`: the `n` loops from `depth` down
/// around the pieces under `beta` become `n` tile loops, then the `n`
/// original loops as point loops (Pluto's and Halide's order). The dates
/// `T1, 0, …, Tn, 0` are inserted before `α_depth`, with
/// `s_k·T_k <= α_(depth+k-1) <= s_k·T_k + s_k - 1`; the point loops keep
/// their dates, βs and marks, the tile loops have none. Another piece of
/// a tiled statement gets the new dates as constants 0 (as `stripmine`'s).
/// With one size this is `stripmine`; with more it moves loops, and the
/// dependence check decides (the band must be permutable).
pub fn tile_band(
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
    sizes: &[i64],
) -> Result<Schedule, ApplyError> {
    let targets = under(schedule, beta)?;
    is_loop(schedule, &targets, beta, "tile_band")?;
    check_depth(schedule, &targets, depth, "tile_band")?;
    let n = sizes.len();
    if n == 0 {
        return Err(ApplyError::precondition(
            "tile_band: give at least one tile size, as in `[32, 32]`",
        ));
    }
    check_depth(schedule, &targets, depth + n - 1, "tile_band")?;
    if let Some(&size) = sizes.iter().find(|&&s| s < 1) {
        return Err(ApplyError::precondition(format!(
            "tile_band: each size must be at least 1, not {size}"
        )));
    }
    let (statements, others) = other_pieces(schedule, &targets, beta, depth, "tile_band")?;
    let at = alpha_date(depth);
    let next = rewrite_pieces(schedule, &targets, |p| {
        let mut p = insert_dates(p, at, 2 * n);
        for (k, &size) in sizes.iter().enumerate() {
            let tile = at + 2 * k;
            // The k-th loop of the band, now after the 2n new dates.
            let point = alpha_date(depth + k) + 2 * n;
            p = with_date_row(&p, &[(point, 1), (tile, -size)], 0, false);
            p = with_date_row(&p, &[(point, -1), (tile, size)], size - 1, false);
            p = with_date_row(&p, &[(tile + 1, 1)], 0, true);
        }
        Ok(p)
    })?;
    let mut next = rewrite_pieces(&next, &others, |p| {
        let mut p = insert_dates(p, at, 2 * n);
        for d in at..at + 2 * n {
            p = with_date_row(&p, &[(d, 1)], 0, true);
        }
        Ok(p)
    })?;
    for s in statements {
        for _ in 0..n {
            next.statements[s].marks.insert(depth - 1, Vec::new());
        }
    }
    Ok(next)
}

/// `stripmine(beta, depth, size)`, then swap the new tile loop (at
/// `depth`) with the loop at `outer` (`outer <= depth`).
pub fn tile(
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
    outer: usize,
    size: i64,
) -> Result<Schedule, ApplyError> {
    if outer == 0 || outer > depth {
        return Err(ApplyError::precondition(format!(
            "tile: the tile loop goes to depth {outer}, which must be between 1 and the tiled depth {depth}"
        )));
    }
    let next = stripmine(schedule, beta, depth, size)?;
    // Strip-mining inserted a β = 0 after position `depth - 1`.
    let mut moved = beta.to_vec();
    if moved.len() >= depth {
        moved.insert(depth, 0);
    }
    let targets = under(&next, &moved)?;
    rewrite_pieces(&next, &targets, |p| {
        Ok(swap_dates(p, alpha_date(depth), alpha_date(outer)))
    })
}

/// Clay's `CLAY_BETA_IS_LOOP`: `beta` must name a loop (every piece under
/// it has a longer β-vector), not a statement.
pub(super) fn is_loop(
    schedule: &Schedule,
    targets: &[super::tree::PieceRef],
    beta: &[i64],
    what: &str,
) -> Result<(), ApplyError> {
    let statement = targets.iter().any(|t| {
        schedule.statements[t.statement]
            .beta(t.piece)
            .is_some_and(|b| b.len() <= beta.len())
    });
    if statement {
        return Err(ApplyError::precondition(format!(
            "{what}: the β-vector {beta:?} is not a loop: it names a statement"
        ))
        .with_help("give the β-vector of the loop around it (drop its last entry)"));
    }
    Ok(())
}
