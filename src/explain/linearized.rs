//! Linearized strips: a target whose dates hold a strip that no loop
//! counts any more, read as the schedule before a `linearize`.
//!
//! `linearize(β, d)` makes the tile date at depth `d` a local (it is a
//! floor of the point loop's counter, so the set of points is the same)
//! and drops it with the β date after it. A date skewed by that tile loop
//! keeps it as an existential variable: `c = i − 64·⌊t/32⌋`. Or, for a
//! point loop skewed by its own tile loop once, as a floor of its own:
//! `i + ⌊i/4⌋ = ⌊5i/4⌋`, written without a local.
//!
//! The schedule before the `linearize` is the target with the local made
//! a date again, at a depth `d` no later than the first date that reads
//! it, and a β date 0 after it ([`unlinearized`]); a floor date of the
//! second kind is first written with its local ([`with_floor_locals`]).
//! That schedule is explained as any is (it may hold other linearized
//! strips), then `linearize` follows, and the whole is replayed on the
//! real schedule and checked as every explanation is. Each depth the
//! local may take is tried; the shortest complete explanation is given.
//!
//! Must not know: recipe syntax, code generation.

use super::{flattened, pieces, ExplainError, Explanation};
use crate::apply::dates::{insert_dates, with_date_row};
use crate::apply::Directive;
use crate::poly::{checked_mul, BasicMap, Constraint, ConstraintKind, PolyError};
use crate::scop::schedule::{alpha_date, beta_date, constant_date};
use crate::scop::{Dependence, Schedule, Scop};

/// How many `linearize`s one explanation undoes at most, one inside the
/// other: each tries every depth, so the work grows with their product.
pub(super) const MAX_LINEARIZES: usize = 2;

/// [`super::explain`] of a target with a linearized strip as the schedule
/// before its `linearize`, explained with `left − 1` more to undo, then
/// the `linearize`; `None` where the target has none or no depth gives a
/// complete explanation. Exact: the result is replayed and compared with
/// the target.
pub(super) fn explained(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
    left: usize,
) -> Result<Option<Explanation>, ExplainError> {
    if left == 0 {
        return Ok(None);
    }
    let Some(floored) = with_floor_locals(target)? else {
        return Ok(None);
    };
    let mut best: Option<Explanation> = None;
    for (before, linearize) in unlinearized(&floored)? {
        let Ok(explained) = super::explain_within(scop, deps, &before, left - 1) else {
            continue;
        };
        if explained.gap.is_some() {
            continue;
        }
        let mut found = flattened(explained.steps);
        found.push(linearize);
        if let Some(e) = pieces::replayed_on_pieces(scop, deps, target, &found, None)? {
            if best
                .as_ref()
                .is_none_or(|b| pieces::length(&e) < pieces::length(b))
            {
                best = Some(e);
            }
        }
    }
    Ok(best)
}

/// `target` with every floor date written with its local
/// ([`floor_with_local`]), or, in a piece with no local, the first
/// iterator that no date fixes made one ([`dropped_iterator_as_local`]);
/// `None` where no piece then has a local (no linearized strip to undo).
fn with_floor_locals(target: &Schedule) -> Result<Option<Schedule>, PolyError> {
    let mut out = target.clone();
    let mut any = false;
    for st in &mut out.statements {
        for piece in &mut st.pieces {
            for depth in 1..=piece.space().n_out() / 2 {
                if let Some(p) = floor_with_local(piece, alpha_date(depth))? {
                    *piece = p;
                }
            }
            // Only where no strip is left as a local: those are undone
            // first (an iterator dropped inside one is not read then).
            for k in 0..piece.space().n_in() {
                if piece.n_local() > 0 {
                    break;
                }
                if let Some(p) = dropped_iterator_as_local(piece, k) {
                    *piece = p;
                }
            }
            any |= piece.n_local() > 0;
        }
    }
    Ok(any.then_some(out))
}

/// Where date `date` of `piece` is a floor `⌊H/s⌋` (two inequalities, no
/// equality) of `H = (s + 1)·p + s·q`, `p` an integral affine form of the
/// parameters and iterators and `q` one of the dates before: the same
/// piece with the date written `p + q + e`, `e = ⌊p/s⌋` a local. That is
/// what `linearize` leaves of a point loop skewed by its tile loop once
/// (`p + ⌊p/s⌋ = ⌊(s + 1)·p / s⌋`), and by outer loops `q`. (Skewed by
/// `−1` times its tile loop, a loop is not one-to-one, which `linearize`
/// refuses.) `None` where it is not such a floor.
fn floor_with_local(piece: &BasicMap, date: usize) -> Result<Option<BasicMap>, PolyError> {
    let space = piece.space();
    let col = space.out_col(date);
    let first_date = space.out_col(0);
    let rows: Vec<&Constraint> = piece
        .constraints()
        .iter()
        .filter(|r| r.coeffs[col] != 0)
        .collect();
    let [a, b] = rows[..] else {
        return Ok(None);
    };
    if a.kind == ConstraintKind::Eq || b.kind == ConstraintKind::Eq {
        return Ok(None);
    }
    // `lower`: H − s·D ≥ 0; `upper`: s·D − H + s − 1 ≥ 0.
    let (lower, upper) = if a.coeffs[col] < 0 { (a, b) } else { (b, a) };
    let s = upper.coeffs[col];
    let opposite = lower
        .coeffs
        .iter()
        .zip(&upper.coeffs)
        .enumerate()
        .all(|(c, (&x, &y))| c == col || x == -y);
    let width = lower.constant.checked_add(upper.constant);
    // Only the parameters, the iterators and the dates before.
    let outer = lower.coeffs[col..].iter().skip(1).all(|&v| v == 0);
    if s < 2 || lower.coeffs[col] != -s || !opposite || width != Some(s - 1) || !outer {
        return Ok(None);
    }
    let (divides_p, divides_q) = (|v: i64| v % (s + 1) == 0, |v: i64| v % s == 0);
    let (mut p, mut q) = (vec![0; piece.n_cols()], vec![0; piece.n_cols()]);
    for (c, &v) in lower.coeffs.iter().enumerate() {
        match c < first_date {
            true if divides_p(v) => p[c] = v / (s + 1),
            false if divides_q(v) => q[c] = v / s,
            _ => return Ok(None),
        }
    }
    let (p_constant, q_constant) = match lower.constant {
        k if divides_p(k) => (k / (s + 1), 0),
        k if divides_q(k) => (0, k / s),
        _ => return Ok(None),
    };
    let mut out = piece.clone();
    let e = out.add_local();
    let n = out.n_cols();
    let row = |form: &[i64], sign: i64| -> Result<Vec<i64>, PolyError> {
        let mut row = vec![0; n];
        for (x, &v) in row.iter_mut().zip(form) {
            *x = checked_mul(v, sign)?;
        }
        Ok(row)
    };
    let mut kept: Vec<Constraint> = out
        .constraints()
        .iter()
        .filter(|r| r.coeffs[col] == 0)
        .cloned()
        .collect();
    // p − s·e ≥ 0 and s·e + s − 1 − p ≥ 0: e = ⌊p/s⌋.
    let mut above = row(&p, 1)?;
    above[e] = -s;
    kept.push(Constraint::ineq(above, p_constant));
    let mut below = row(&p, -1)?;
    below[e] = s;
    let below_constant = (s - 1).checked_sub(p_constant).ok_or(PolyError::Overflow)?;
    kept.push(Constraint::ineq(below, below_constant));
    // D − p − q − e = 0.
    let mut def = row(&p, -1)?;
    for (x, &v) in def.iter_mut().zip(&q) {
        *x = x.checked_sub(v).ok_or(PolyError::Overflow)?;
    }
    def[e] = -1;
    def[col] = 1;
    let def_constant = p_constant
        .checked_add(q_constant)
        .and_then(i64::checked_neg)
        .ok_or(PolyError::Overflow)?;
    kept.push(Constraint::eq(def, def_constant));
    Ok(Some(BasicMap::from_columns(
        space.clone(),
        out.n_local(),
        kept,
    )))
}

/// Where iterator `k` of `piece` is in no equation but bounds a date, or
/// is in no row at all (a loop that runs once for each value of the
/// dates, such as the point loop of a strip whose loop runs once, which
/// `linearize` may drop: its date became a local equal to it, then left
/// with the equation): the same piece with that local again, `e = i`, in
/// every row that reads a date. `None` otherwise.
fn dropped_iterator_as_local(piece: &BasicMap, k: usize) -> Option<BasicMap> {
    let space = piece.space();
    let col = space.in_col(k);
    let dates = space.out_col(0)..space.out_col(0) + space.n_out();
    let reads_date = |r: &Constraint| dates.clone().any(|c| r.coeffs[c] != 0);
    let rows = piece.constraints();
    let fixed = rows
        .iter()
        .any(|r| r.kind == ConstraintKind::Eq && r.coeffs[col] != 0);
    let bounds_a_date = rows.iter().any(|r| r.coeffs[col] != 0 && reads_date(r));
    let free = rows.iter().all(|r| r.coeffs[col] == 0);
    if fixed || !(bounds_a_date || free) {
        return None;
    }
    let mut out = piece.clone();
    let e = out.add_local();
    let mut kept: Vec<Constraint> = out.constraints().to_vec();
    for r in &mut kept {
        if reads_date(r) {
            r.coeffs[e] = r.coeffs[col];
            r.coeffs[col] = 0;
        }
    }
    let mut def = vec![0; out.n_cols()];
    def[e] = 1;
    def[col] = -1;
    kept.push(Constraint::eq(def, 0));
    Some(BasicMap::from_columns(space.clone(), out.n_local(), kept))
}

/// The schedules before a `linearize` that gives `target`, each with that
/// `linearize`: for a statement's local and a depth `d` no later than the
/// first date that reads it (or just after it, for a dropped iterator:
/// the point loop of its strip), every piece in the target's loop at
/// depth `d` with its own first such local made the tile date at `d` (a
/// β date 0 after it, no marks). Pieces that have none leave the
/// candidate out.
fn unlinearized(target: &Schedule) -> Result<Vec<(Schedule, Directive)>, PolyError> {
    let mut out = Vec::new();
    let Some((s, first_use)) = target.statements.iter().enumerate().find_map(|(s, st)| {
        let piece = st.pieces.first()?;
        (0..piece.n_local())
            .filter_map(|l| latest_depth(piece, l))
            .min()
            .map(|d| (s, d))
    }) else {
        return Ok(out);
    };
    let Some(beta) = target.statements[s].beta(0) else {
        return Ok(out);
    };
    'depths: for depth in 1..=first_use {
        let loop_beta = &beta[..depth];
        let mut before = target.clone();
        for st in &mut before.statements {
            let within = |piece: &BasicMap| {
                (0..depth).all(|k| constant_date(piece, beta_date(k)) == Some(loop_beta[k]))
            };
            let inside = st.pieces.iter().any(within);
            // A statement with pieces outside the loop too would need
            // them padded with the tile date: not read here.
            if inside && !st.pieces.iter().all(within) {
                continue 'depths;
            }
            for piece in &mut st.pieces {
                if !within(piece) {
                    continue;
                }
                let local = (0..piece.n_local())
                    .find(|&l| latest_depth(piece, l).is_some_and(|d| d >= depth));
                let Some(local) = local else {
                    continue 'depths;
                };
                *piece = local_as_tile_date(piece, local, depth)?;
            }
            if inside {
                st.marks.insert(depth - 1, Vec::new());
            }
        }
        out.push((
            before,
            Directive::Linearize {
                beta: loop_beta.to_vec(),
                depth,
            },
        ));
    }
    Ok(out)
}

/// The shallowest loop depth whose α date reads local `l` of `piece`: the
/// deepest α date of a row that reads it (a row defines its deepest
/// date from the ones before); `None` where no date reads it.
fn first_reading_depth(piece: &BasicMap, l: usize) -> Option<usize> {
    let space = piece.space();
    let local = space.n_dim_total() + l;
    piece
        .constraints()
        .iter()
        .filter(|r| r.coeffs[local] != 0)
        .filter_map(|r| {
            (1..=space.n_out() / 2)
                .rev()
                .find(|&d| r.coeffs[space.out_col(alpha_date(d))] != 0)
        })
        .min()
}

/// The deepest depth at which local `l` of `piece` may become a date
/// again: the first date that reads it ([`first_reading_depth`]), or the
/// one after it for an iterator that `linearize` dropped
/// ([`dropped_iterator_as_local`]: `e = i`), which the dates reading it
/// bound as a strip bounds its point loop.
fn latest_depth(piece: &BasicMap, l: usize) -> Option<usize> {
    let space = piece.space();
    let local = space.n_dim_total() + l;
    let iterators = space.in_col(0)..space.in_col(0) + space.n_in();
    let is_iterator = piece.constraints().iter().any(|r| {
        r.kind == ConstraintKind::Eq
            && r.coeffs[local].abs() == 1
            && r.constant == 0
            && r.coeffs.iter().enumerate().all(|(c, &v)| {
                c == local || v == 0 || (iterators.contains(&c) && v == -r.coeffs[local])
            })
    });
    match (first_reading_depth(piece, l), is_iterator) {
        (Some(first), true) => Some(first + 1),
        (first, false) => first,
        // Read by no date (its loop held no strip: `linearize` of a loop
        // that ran once around its only child): any depth of the dates.
        (None, true) => Some(space.n_out() / 2),
    }
}

/// `piece` with local `l` made a date before the α date at `depth`, and
/// a β date 0 after it: the inverse of `linearize`'s rewrite.
fn local_as_tile_date(piece: &BasicMap, l: usize, depth: usize) -> Result<BasicMap, PolyError> {
    let at = alpha_date(depth);
    let wider = insert_dates(piece, at, 2);
    let space = wider.space().clone();
    let (tile, local) = (space.out_col(at), space.n_dim_total() + l);
    let rows: Vec<Constraint> = wider
        .constraints()
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.coeffs[tile] = r.coeffs[local];
            r.coeffs.remove(local);
            r
        })
        .collect();
    let moved = BasicMap::from_columns(space, wider.n_local() - 1, rows);
    Ok(with_date_row(&moved, &[(beta_date(depth), 1)], 0, true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::{parse_basic_map, Map};

    fn map(text: &str) -> BasicMap {
        parse_basic_map(text).expect("parses")
    }

    /// Equal relations, `b`'s columns read in `a`'s space (the names of
    /// the dates differ).
    fn same(a: &BasicMap, b: &BasicMap) -> bool {
        let b = BasicMap::from_columns(a.space().clone(), b.n_local(), b.constraints().to_vec());
        Map::from_basic(a.clone())
            .is_equal(&Map::from_basic(b))
            .expect("exact")
    }

    /// `i + ⌊i/4⌋ = ⌊5i/4⌋` and, with an outer date, `i + ⌊i/8⌋ − 64·c1`
    /// are written with their local, the same relation; a strip of a
    /// form (`⌊i/4⌋`) and a floor of no such form (`⌊3i/4⌋`) are not.
    #[test]
    fn floors_left_by_linearize_are_written_with_their_local() {
        let cases = [
            (
                "[n] -> { S[i] -> [0, c1, 0] : 4c1 <= 5i and 4c1 >= 5i - 3 }",
                1,
            ),
            (
                "[n] -> { S[t, i] -> [0, c1, 0, c3, 0] : 32c1 <= t <= 32c1 + 31 and \
                 8c3 <= 9i - 512c1 and 8c3 >= 9i - 512c1 - 7 }",
                2,
            ),
        ];
        for (text, depth) in cases {
            let piece = map(text);
            let floored = floor_with_local(&piece, alpha_date(depth))
                .expect("exact")
                .expect("a floor left by linearize");
            assert_eq!(floored.n_local(), 1, "{text}");
            assert!(same(&piece, &floored), "{text}");
            assert_eq!(first_reading_depth(&floored, 0), Some(depth), "{text}");
        }
        for text in [
            "[n] -> { S[i] -> [0, c1, 0] : 4c1 <= i and 4c1 >= i - 3 }",
            "[n] -> { S[i] -> [0, c1, 0] : 4c1 <= 3i and 4c1 >= 3i - 3 }",
        ] {
            let piece = map(text);
            assert!(
                floor_with_local(&piece, alpha_date(1))
                    .expect("exact")
                    .is_none(),
                "{text}"
            );
        }
    }

    /// The local becomes the tile date again, before the date that reads
    /// it, with a β date 0 after it: `linearize` of that is the target.
    #[test]
    fn a_local_made_a_tile_date_is_linearized_back() {
        let piece = map(
            "[n] -> { S[t, i] -> [0, t, 0, c3, 0] : exists (e0: 64e0 = i - c3 and \
             32e0 <= t and 32e0 >= t - 31) }",
        );
        let tiled = local_as_tile_date(&piece, 0, 1).expect("exact");
        let expected = map(
            "[n] -> { S[t, i] -> [0, c1, 0, t, 0, i - 64c1, 0] : 32c1 <= t and 32c1 >= t - 31 }",
        );
        assert!(same(&tiled, &expected));
    }

    /// An iterator that only bounds a date (`linearize` dropped its loop,
    /// which ran once) is written as a local, the same relation, read
    /// first at the date it bounds and made a date again just after it;
    /// one that a date equals is left.
    #[test]
    fn an_iterator_no_date_fixes_is_read_as_a_local() {
        let piece = map("[n] -> { S[i, j] -> [0, c1, 0, j, 0] : 2c1 <= i and 2c1 >= i - 1 }");
        let local = dropped_iterator_as_local(&piece, 0).expect("a dropped iterator");
        assert_eq!(local.n_local(), 1);
        assert!(same(&piece, &local));
        assert_eq!(first_reading_depth(&local, 0), Some(1));
        assert_eq!(latest_depth(&local, 0), Some(2), "after its strip");
        assert!(dropped_iterator_as_local(&piece, 1).is_none());
        // Free in the schedule (its loop held no strip): any depth.
        let free = map("[n] -> { S[i, j] -> [0, j, 0] }");
        let local = dropped_iterator_as_local(&free, 0).expect("a dropped iterator");
        assert!(same(&free, &local));
        assert_eq!(latest_depth(&local, 0), Some(1));
    }
}
