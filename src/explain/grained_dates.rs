//! Grained dates: a target whose tile date is a multiple of a strip, or
//! whose point date inside tiles is a multiple of an affine form, read
//! as the schedule before the `grain` of that loop.
//!
//! `grain(β, d, k)` multiplies the date at depth `d` by `k`. Where that
//! date is a tile date, `c = k·⌊p/s⌋` is no affine form: the schedule
//! writes it with a local, `k·e = c`, and `e` in the strip's rows
//! (doitgen's `auto(pluto); grain([0], 3, 4);`). The schedule before
//! the `grain` is the target with `e` made the date again; the dates of
//! the other statements of that loop, affine forms there, divided by
//! `k`. Where a date there is not divisible (a strip of a statement the
//! `grain` of one statement's β left alone: syr2k's
//! `stripmine([0], 1, 5); grain([0, 0, 1, 0], 1, 4);`), only the grained
//! statements' dates are made the strip again. Where no tile date is
//! grained, or that gives no explanation, a point date that is `k·f`
//! for an affine form `f` of the iterators is read the same way: the
//! tiles around it strip `f`, not `k·f` (gesummv's `auto(pluto, fuse =
//! max); grain([0, 0, 0], 3, 5);`). That schedule is explained as any
//! is, then one `grain` per such loop (or grained statement, on its own
//! β) follows, and the whole is replayed on the real schedule and
//! compared with the target, as every explanation is.
//!
//! Must not know: recipe syntax, code generation.

use super::pieces::replayed_on_pieces;
use super::{explain_within, flattened, linearized, ExplainError, Explanation};
use crate::apply::Directive;
use crate::poly::{gcd_of, BasicMap, Constraint, ConstraintKind, PolyError};
use crate::scop::schedule::{alpha_date, beta_date, beta_prefix, constant_date};
use crate::scop::{Dependence, Schedule, Scop};

/// A loop whose dates the target multiplies: its β-vector (of length
/// `depth`), its depth and the factor.
#[derive(Clone, Debug, PartialEq, Eq)]
struct GrainedLoop {
    beta: Vec<i64>,
    depth: usize,
    factor: i64,
}

/// The explanation of `target` through the schedule before the `grain`s
/// of its tile loops (module docs); `None` where no tile date is a
/// multiple of a strip, where a statement of such a loop has a date
/// there that the factor does not divide, or where the phases leave a
/// gap on the schedule before. Exact: replayed and compared with
/// `target`.
pub(super) fn explained(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
) -> Result<Option<Explanation>, ExplainError> {
    // Tile dates first, as before point dates were read; then with the
    // point dates a factor divides too.
    for with_point_dates in [false, true] {
        let loops = grained_loops(target, with_point_dates);
        if loops.is_empty() {
            continue;
        }
        if let Some(e) = explained_before(scop, deps, target, loops)? {
            return Ok(Some(e));
        }
    }
    Ok(None)
}

/// The explanation of `target` as the schedule before the `grain`s of
/// `loops`, then those `grain`s; `None` where a loop cannot be ungrained
/// or the phases leave a gap on the schedule before.
fn explained_before(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
    loops: Vec<GrainedLoop>,
) -> Result<Option<Explanation>, ExplainError> {
    let mut before = target.clone();
    let mut grains = Vec::new();
    for l in loops {
        // The loop grained for all its statements, else each grained
        // statement alone (`grain` of its own β).
        if let Some(whole) = ungrained_under(&before, &l, false)? {
            before = whole;
            grains.push(l);
        } else if let Some(alone) = ungrained_under(&before, &l, true)? {
            before = alone;
            grains.extend(grained_statements(target, &l));
        } else {
            return Ok(None);
        }
    }
    let explained = explain_within(scop, deps, &before, linearized::MAX_LINEARIZES)?;
    if explained.gap.is_some() {
        return Ok(None);
    }
    let mut found = flattened(explained.steps);
    found.extend(grains.into_iter().map(|l| Directive::Grain {
        beta: l.beta,
        depth: l.depth,
        factor: l.factor,
    }));
    replayed_on_pieces(scop, deps, target, &found, None)
}

/// `schedule` with the pieces inside `l` ungrained ([`ungrained`]): all
/// of them, or with `alone` only those whose date there is `l`'s grained
/// tile date; `None` where one cannot be.
fn ungrained_under(
    schedule: &Schedule,
    l: &GrainedLoop,
    alone: bool,
) -> Result<Option<Schedule>, PolyError> {
    let mut out = schedule.clone();
    for piece in out.statements.iter_mut().flat_map(|st| &mut st.pieces) {
        let inside =
            (0..l.depth).all(|k| constant_date(piece, beta_date(k)) == l.beta.get(k).copied());
        let grained = grain_factor(piece, l.depth) == Some(l.factor);
        if !inside || (alone && !grained) {
            continue;
        }
        let Some(p) = ungrained(piece, l.depth, l.factor)? else {
            return Ok(None);
        };
        *piece = p;
    }
    Ok(Some(out))
}

/// One `grain` per statement of `target` whose tile date inside `l` is
/// grained: on the statement's own β-vector, which selects its pieces.
fn grained_statements(target: &Schedule, l: &GrainedLoop) -> Vec<GrainedLoop> {
    let mut out: Vec<GrainedLoop> = Vec::new();
    for piece in target.statements.iter().flat_map(|st| &st.pieces) {
        let inside =
            (0..l.depth).all(|k| constant_date(piece, beta_date(k)) == l.beta.get(k).copied());
        if !inside || grain_factor(piece, l.depth) != Some(l.factor) {
            continue;
        }
        if let Some(beta) = beta_prefix(piece, piece.space().n_out() / 2 + 1) {
            let g = GrainedLoop {
                beta,
                depth: l.depth,
                factor: l.factor,
            };
            if !out.contains(&g) {
                out.push(g);
            }
        }
    }
    out
}

/// The loops whose date is `k·e` for a local `e` of one of their pieces
/// ([`grained_local`]), and with `point_dates` those where it is `k·f`
/// for an affine form `f` of the iterators ([`grained_affine`]), each
/// once, outermost first.
fn grained_loops(target: &Schedule, point_dates: bool) -> Vec<GrainedLoop> {
    let mut out: Vec<GrainedLoop> = Vec::new();
    for st in &target.statements {
        for piece in &st.pieces {
            for depth in 1..=piece.space().n_out() / 2 {
                let factor = match grained_local(piece, depth) {
                    Some((_, k)) => Some(k),
                    None if point_dates => grained_affine(piece, depth, true),
                    None => None,
                };
                let Some(factor) = factor else {
                    continue;
                };
                let beta = beta_prefix(piece, depth);
                let Some(beta) = beta else {
                    continue;
                };
                let l = GrainedLoop {
                    beta,
                    depth,
                    factor,
                };
                if !out.contains(&l) {
                    out.push(l);
                }
            }
        }
    }
    out.sort_by_key(|l| l.depth);
    out
}

/// The factor by which the date at `depth` of `piece` is grained: a tile
/// date's ([`grained_local`]) or an affine date's ([`grained_affine`]).
fn grain_factor(piece: &BasicMap, depth: usize) -> Option<i64> {
    grained_local(piece, depth)
        .map(|(_, k)| k)
        .or_else(|| grained_affine(piece, depth, false))
}

/// `k ≥ 2` where the date at `depth` of `piece` appears in one row only,
/// an equality `date = k·f` for an affine form `f` of the iterators and
/// parameters that is not constant (and, with `on_iterators`, reads an
/// iterator): `k` the greatest common divisor of `f`'s coefficients and
/// constant.
fn grained_affine(piece: &BasicMap, depth: usize, on_iterators: bool) -> Option<i64> {
    let space = piece.space();
    let col = space.out_col(alpha_date(depth));
    let row = only_row(piece, depth)?;
    if row.kind != ConstraintKind::Eq || row.coeffs[col].abs() != 1 {
        return None;
    }
    let first_local = space.n_dim_total();
    let reads_local = row.coeffs[first_local..].iter().any(|&v| v != 0);
    let reads_date =
        (0..space.n_out()).any(|d| d != alpha_date(depth) && row.coeffs[space.out_col(d)] != 0);
    let reads_iterator = (0..space.n_in()).any(|d| row.coeffs[space.in_col(d)] != 0);
    let constant = row
        .coeffs
        .iter()
        .enumerate()
        .all(|(c, &v)| c == col || v == 0);
    if reads_local || reads_date || constant || (on_iterators && !reads_iterator) {
        return None;
    }
    let form = row.coeffs.iter().enumerate().filter(|&(c, _)| c != col);
    let factor = gcd_of(form.map(|(_, &v)| v).chain([row.constant])).ok()?;
    (factor >= 2).then_some(factor)
}

/// `(e, k)` where the date at `depth` of `piece` appears in one row only,
/// `k·e = date` for a local `e` and `k ≥ 2`: the tile date grained by `k`.
fn grained_local(piece: &BasicMap, depth: usize) -> Option<(usize, i64)> {
    let col = piece.space().out_col(alpha_date(depth));
    let first_local = piece.space().n_dim_total();
    let row = only_row(piece, depth)?;
    if row.kind != ConstraintKind::Eq || row.constant != 0 {
        return None;
    }
    let others: Vec<usize> = (0..row.coeffs.len())
        .filter(|&c| c != col && row.coeffs[c] != 0)
        .collect();
    let [e] = others[..] else {
        return None;
    };
    // `sign·date + a·e = 0`, so `date = −sign·a·e`.
    let factor = row.coeffs[e].checked_mul(-row.coeffs[col].signum())?;
    (e >= first_local && row.coeffs[col].abs() == 1 && factor >= 2).then_some((e, factor))
}

/// The one row of `piece` that reads its date at `depth`; `None` where
/// none or several do, or `piece` has no date there (a statement with
/// fewer loops, under another β). Cheap.
fn only_row(piece: &BasicMap, depth: usize) -> Option<&Constraint> {
    if alpha_date(depth) >= piece.space().n_out() {
        return None;
    }
    let col = piece.space().out_col(alpha_date(depth));
    let mut rows = piece.constraints().iter().filter(|c| c.coeffs[col] != 0);
    match (rows.next(), rows.next()) {
        (Some(row), None) => Some(row),
        _ => None,
    }
}

/// `piece` with its date at `depth` divided by `factor`: a grained tile
/// date's local made the date, or an affine date whose form `factor`
/// divides, divided. `None` where the date is neither, or where another
/// row reads an affine date (it would need scaling too).
fn ungrained(piece: &BasicMap, depth: usize, factor: i64) -> Result<Option<BasicMap>, PolyError> {
    let col = piece.space().out_col(alpha_date(depth));
    if let Some((e, k)) = grained_local(piece, depth) {
        if k != factor {
            return Ok(None);
        }
        // The local's column becomes the date's; the equality goes.
        let rows: Vec<Constraint> = piece
            .constraints()
            .iter()
            .filter(|c| c.coeffs[col] == 0)
            .map(|c| {
                let mut coeffs = c.coeffs.clone();
                coeffs[col] = coeffs.remove(e);
                Constraint {
                    kind: c.kind,
                    coeffs,
                    constant: c.constant,
                }
            })
            .collect();
        return Ok(Some(BasicMap::from_columns(
            piece.space().clone(),
            piece.n_local() - 1,
            rows,
        )));
    }
    let Some(def) = only_row(piece, depth) else {
        return Ok(None);
    };
    let divides = def
        .coeffs
        .iter()
        .enumerate()
        .all(|(c, &v)| c == col || v % factor == 0)
        && def.constant % factor == 0;
    if def.kind != ConstraintKind::Eq || def.coeffs[col].abs() != 1 || !divides {
        return Ok(None);
    }
    // No overflow: quotients by a factor of 2 or more.
    let coeffs: Vec<i64> = def
        .coeffs
        .iter()
        .enumerate()
        .map(|(c, &v)| if c == col { v } else { v / factor })
        .collect();
    let divided = Constraint::eq(coeffs, def.constant / factor);
    let rows: Vec<Constraint> = piece
        .constraints()
        .iter()
        .map(|c| {
            if c.coeffs[col] != 0 {
                divided.clone()
            } else {
                c.clone()
            }
        })
        .collect();
    Ok(Some(BasicMap::from_columns(
        piece.space().clone(),
        piece.n_local(),
        rows,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::{parse_basic_map, Map};

    fn map(text: &str) -> BasicMap {
        parse_basic_map(text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    fn same(a: &BasicMap, b: &BasicMap) -> bool {
        Map::from_basic(a.clone())
            .is_equal(&Map::from_basic(b.clone()))
            .expect("decided")
    }

    #[test]
    fn a_tile_date_four_times_a_strip_is_read_before_its_grain() {
        let grained = map("[n] -> { S[p] -> [0, c1, 0, p, 0] : \
             exists (e: 32e <= p and 32e >= p - 31 and 4e = c1) }");
        assert!(grained_local(&grained, 1).is_some_and(|(_, k)| k == 4));
        assert_eq!(grained_local(&grained, 2), None, "a point date");
        let before = ungrained(&grained, 1, 4)
            .expect("exact")
            .expect("ungrained");
        let strip = map("[n] -> { S[p] -> [0, c1, 0, p, 0] : 32c1 <= p and 32c1 >= p - 31 }");
        assert_eq!(before.n_local(), 0);
        assert!(same(&before, &strip), "{before}");
        // Another factor, or a date the factor does not divide, is not.
        assert_eq!(ungrained(&grained, 1, 2).expect("exact"), None);
        let affine = map("[n] -> { T[p] -> [0, 4p + 2, 0] }");
        assert_eq!(ungrained(&affine, 1, 4).expect("exact"), None);
        let divided = ungrained(&affine, 1, 2).expect("exact").expect("divided");
        assert!(same(&divided, &map("[n] -> { T[p] -> [0, 2p + 1, 0] }")));
    }

    #[test]
    fn a_point_date_is_grained_by_the_gcd_of_its_form() {
        let affine = map("[n] -> { T[p] -> [0, 4p + 2, 0] }");
        assert_eq!(grained_affine(&affine, 1, true), Some(2));
        assert_eq!(grain_factor(&affine, 1), Some(2));
        let on_parameter = map("[n] -> { T[p] -> [0, 5n, 0] }");
        assert_eq!(grained_affine(&on_parameter, 1, true), None, "no iterator");
        assert_eq!(grained_affine(&on_parameter, 1, false), Some(5));
        let constant = map("[n] -> { T[p] -> [0, 6, 0] }");
        assert_eq!(grained_affine(&constant, 1, false), None, "a constant");
        let unit = map("[n] -> { T[p] -> [0, 2p + 1, 0] }");
        assert_eq!(grained_affine(&unit, 1, false), None);
        let strip = map("[n] -> { T[p] -> [0, c1, 0, p, 0] : 32c1 <= p and 32c1 >= p - 31 }");
        assert_eq!(grained_affine(&strip, 1, false), None, "a tile date");
        // A piece with fewer loops has no date at that depth.
        assert_eq!(grain_factor(&affine, 2), None);
        assert_eq!(grain_factor(&affine, 7), None);
    }
}
