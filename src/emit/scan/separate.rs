//! Separation (Quilleré–Rajopadhye–Wilde): the ranges that several items
//! give one loop date are split into disjoint pieces, each tagged with the
//! items active on all of it, and the pieces are ordered along the date,
//! so that each becomes its own loop with no guard on the date inside.
//!
//! The pieces are exact integer sets: a piece is the intersection of some
//! ranges minus the others, the differences written as disjoint
//! conjunctions (`¬r1`, `r1 ∧ ¬r2`, …). Two pieces are ordered when no
//! integer point of one comes at or after a point of the other under the
//! same enclosing dates; an order that is not proven gives no separation.
//!
//! This module knows `poly` sets only, not items or the loop AST.

use super::{proven_empty, ScanError};
use crate::poly::{gcd_of, BasicSet, Constraint, ConstraintKind, Space};

/// More pieces than this and the loop is left unseparated (guards inside
/// one loop instead of code that grows with every combination).
const MAX_PIECES: usize = 12;

/// One piece of the separated union.
#[derive(Clone, Debug)]
pub struct Piece {
    /// The date points of the piece (no locals).
    pub set: BasicSet,
    /// The indices (into the ranges given) active on every point of it.
    pub members: Vec<usize>,
}

/// The union of `ranges` (sets without locals over the space of `ctx`)
/// within `ctx`, as disjoint pieces in increasing order of the date at
/// column `col`; `None` when two pieces interleave along the date, when a
/// range has locals, or when there would be more than [`MAX_PIECES`].
/// Exact.
pub fn separate(
    ranges: &[BasicSet],
    col: usize,
    ctx: &BasicSet,
) -> Result<Option<Vec<Piece>>, ScanError> {
    if ranges.iter().any(|r| r.n_local() != 0) {
        return Ok(None);
    }
    let mut pieces: Vec<Piece> = Vec::new();
    for (k, range) in ranges.iter().enumerate() {
        let mut next = Vec::new();
        // The parts of `range` that no piece so far covers.
        let mut rest = vec![range.clone()];
        for piece in pieces {
            let both = deduped(piece.set.intersect(range)?);
            if meets(&both, ctx)? {
                let mut members = piece.members.clone();
                members.push(k);
                next.push(Piece { set: both, members });
            }
            for part in difference(&piece.set, range)? {
                if meets(&part, ctx)? {
                    next.push(Piece {
                        set: part,
                        members: piece.members.clone(),
                    });
                }
            }
            let mut left = Vec::new();
            for r in rest {
                for part in difference(&r, &piece.set)? {
                    if meets(&part, ctx)? {
                        left.push(part);
                    }
                }
            }
            rest = left;
            if next.len() + rest.len() > MAX_PIECES {
                return Ok(None);
            }
        }
        next.extend(rest.into_iter().map(|set| Piece {
            set,
            members: vec![k],
        }));
        pieces = next;
    }
    order(pieces, col, ctx)
}

/// `set` without repeated rows (the differences repeat the rows that
/// several ranges share).
fn deduped(set: BasicSet) -> BasicSet {
    let mut rows: Vec<Constraint> = Vec::with_capacity(set.constraints().len());
    for c in set.constraints() {
        if !rows.contains(c) {
            rows.push(c.clone());
        }
    }
    BasicSet::from_parts(set.space().clone(), set.n_local(), rows)
}

/// Whether `set` has an integer point within `ctx`.
fn meets(set: &BasicSet, ctx: &BasicSet) -> Result<bool, ScanError> {
    Ok(!proven_empty(&set.intersect(ctx)?)?)
}

/// `a ∖ b` as disjoint conjunctions (`b` without locals): the points of
/// `a` that violate the first row of `b`, then those that satisfy it and
/// violate the second, and so on.
fn difference(a: &BasicSet, b: &BasicSet) -> Result<Vec<BasicSet>, ScanError> {
    let mut out = Vec::new();
    let mut kept = a.clone();
    for row in b.constraints() {
        for neg in negations(row)? {
            let mut part = kept.clone();
            part.add(neg);
            out.push(deduped(part));
        }
        kept.add(row.clone());
    }
    Ok(out)
}

/// The pieces sorted along column `col`, or `None` when some piece is not
/// before every later one.
fn order(
    mut pieces: Vec<Piece>,
    col: usize,
    ctx: &BasicSet,
) -> Result<Option<Vec<Piece>>, ScanError> {
    let n = pieces.len();
    let mut before = vec![vec![false; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j {
                before[i][j] = precedes(&pieces[i].set, &pieces[j].set, col, ctx)?;
            }
        }
    }
    let mut left: Vec<usize> = (0..n).collect();
    let mut sorted = Vec::with_capacity(n);
    while !left.is_empty() {
        let Some(pos) = left
            .iter()
            .position(|&i| left.iter().all(|&j| i == j || before[i][j]))
        else {
            return Ok(None);
        };
        sorted.push(left.remove(pos));
    }
    let mut slots: Vec<Option<Piece>> = pieces.drain(..).map(Some).collect();
    Ok(Some(
        sorted.into_iter().filter_map(|i| slots[i].take()).collect(),
    ))
}

/// Whether every integer point of `a` comes strictly before, at column
/// `col`, every point of `b` with the same earlier columns (parameters and
/// enclosing dates), within `ctx`: the pairs with `a`'s date at or after
/// `b`'s are none. Exact.
fn precedes(a: &BasicSet, b: &BasicSet, col: usize, ctx: &BasicSet) -> Result<bool, ScanError> {
    let space = ctx.space();
    let dims = space.n_dim_total();
    let mut names = space.output.dims.clone();
    names.push("later".into());
    let wide = Space::set(space.params.clone(), None, names);
    let extra = dims;
    let n_cols = dims + 1 + ctx.n_local();
    // Columns past the dimensions (locals) move one to the right.
    let shift = |k: usize| if k < dims { k } else { k + 1 };
    let mut rows = Vec::new();
    for c in ctx.constraints() {
        rows.push(c.remapped(n_cols, shift));
    }
    for c in a.constraints() {
        rows.push(c.remapped(n_cols, shift));
    }
    for c in b.constraints() {
        rows.push(c.remapped(n_cols, |k| if k == col { extra } else { shift(k) }));
    }
    let mut at_or_after = vec![0; n_cols];
    at_or_after[col] = 1;
    at_or_after[extra] = -1;
    rows.push(Constraint::ineq(at_or_after, 0));
    proven_empty(&BasicSet::from_parts(wide, ctx.n_local(), rows))
}

/// Rows whose union is the complement of `r`, pairwise disjoint
/// ([`Constraint::complement`]), each divided by its gcd.
pub(super) fn negations(r: &Constraint) -> Result<Vec<Constraint>, ScanError> {
    Ok(r.complement()?.into_iter().map(tightened).collect())
}

/// The row divided by the gcd `g` of its coefficients, over the integers:
/// `a·x + k >= 0` becomes `(a/g)·x + floor(k/g) >= 0`; an equation whose
/// constant `g` does not divide is left as it is (it has no integer point).
pub(super) fn tightened(mut c: Constraint) -> Constraint {
    let Ok(g) = gcd_of(c.coeffs.iter().copied()) else {
        return c;
    };
    if g <= 1 || (c.kind == ConstraintKind::Eq && c.constant % g != 0) {
        return c;
    }
    for v in &mut c.coeffs {
        *v /= g;
    }
    c.constant = c.constant.div_euclid(g);
    c
}

#[cfg(test)]
mod tests {
    //! `separate` against enumeration: for every parameter value in a
    //! range, the pieces are disjoint, cover exactly the union, tag each
    //! point with exactly the ranges that hold it, and come in increasing
    //! order of the date.

    use super::*;
    use crate::poly::parse_basic_set;

    fn holds(set: &BasicSet, point: &[i64]) -> bool {
        set.constraints().iter().all(|c| {
            let v: i64 = c.coeffs.iter().zip(point).map(|(a, x)| a * x).sum::<i64>() + c.constant;
            if c.kind == ConstraintKind::Eq {
                v == 0
            } else {
                v >= 0
            }
        })
    }

    /// Ranges over `[n] -> [t]`, the date `t` at column 1.
    fn check(ranges: &[&str]) {
        let ranges: Vec<BasicSet> = ranges
            .iter()
            .map(|r| parse_basic_set(r).expect("a range"))
            .collect();
        let ctx = BasicSet::universe(ranges[0].space().clone());
        let pieces = separate(&ranges, 1, &ctx)
            .expect("no overflow")
            .expect("separable");
        for n in -3..12 {
            let mut last_piece = None;
            for t in -5..20 {
                let p = [n, t];
                let inside: Vec<usize> = (0..ranges.len())
                    .filter(|&k| holds(&ranges[k], &p))
                    .collect();
                let hits: Vec<usize> = (0..pieces.len())
                    .filter(|&k| holds(&pieces[k].set, &p))
                    .collect();
                if inside.is_empty() {
                    assert!(hits.is_empty(), "n={n} t={t}: a piece outside the union");
                    continue;
                }
                assert_eq!(hits.len(), 1, "n={n} t={t}: pieces {hits:?}");
                let mut members = pieces[hits[0]].members.clone();
                members.sort();
                assert_eq!(members, inside, "n={n} t={t}");
                // Increasing t visits the pieces in their order.
                if let Some(last) = last_piece {
                    assert!(
                        hits[0] >= last,
                        "n={n} t={t}: piece {} after {last}",
                        hits[0]
                    );
                }
                last_piece = Some(hits[0]);
            }
        }
    }

    #[test]
    fn shifted_ranges_give_a_prologue_a_shared_part_and_an_epilogue() {
        check(&[
            "[n] -> { [t] : 1 <= t <= n - 2 }",
            "[n] -> { [t] : 2 <= t <= n - 1 }",
        ]);
    }

    #[test]
    fn a_range_inside_another_splits_it_in_three() {
        check(&[
            "[n] -> { [t] : 0 <= t <= n }",
            "[n] -> { [t] : 3 <= t <= 5 }",
        ]);
    }

    #[test]
    fn three_ranges_and_a_point() {
        check(&[
            "[n] -> { [t] : 0 <= t <= n }",
            "[n] -> { [t] : 1 <= t <= n + 2 }",
            "[n] -> { [t] : t = 4 }",
        ]);
    }

    #[test]
    fn ranges_whose_order_flips_with_the_parameter_are_ordered_piecewise() {
        // t = 0 comes first when n > 0, last when n < 0: the differences
        // split both at the sign of n, and each part has its place.
        check(&["[n] -> { [t] : t = 0 }", "[n] -> { [t] : t = n }"]);
    }

    #[test]
    fn pieces_that_cross_are_not_ordered() {
        let piece = |text: &str, k: usize| Piece {
            set: parse_basic_set(text).expect("a piece"),
            members: vec![k],
        };
        let a = piece("[n] -> { [t] : t = 0 and 0 <= n <= 10 }", 0);
        let b = piece("[n] -> { [t] : t = n - 5 and 0 <= n <= 10 }", 1);
        let ctx = BasicSet::universe(a.set.space().clone());
        assert!(order(vec![a, b], 1, &ctx).expect("no overflow").is_none());
    }

    #[test]
    fn tightened_rows_round_towards_the_integer_points() {
        // 2t - 3 >= 0 is t - 2 >= 0 over the integers.
        let c = tightened(Constraint::ineq(vec![0, 2], -3));
        assert_eq!((c.coeffs, c.constant), (vec![0, 1], -2));
        // 2t - 3 = 0 has no integer point: left alone.
        let c = tightened(Constraint::eq(vec![0, 2], -3));
        assert_eq!((c.coeffs, c.constant), (vec![0, 2], -3));
    }
}
