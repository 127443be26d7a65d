//! Rational Fourier–Motzkin projection and the bounds of one dimension, as
//! code generation needs them.
//!
//! Fourier–Motzkin is exact over the rationals only, and the names say so:
//! [`BasicSet::project_out_rational`] may contain integer points with no
//! integer preimage. It is exact over the integers when every eliminated
//! column has a unit coefficient on one side, which
//! [`BasicSet::project_out_rational`] reports. [`fourier_motzkin`] is the one
//! elimination (projection and `farkas` share it): the cheapest column
//! first, with Chernikov's rule (Kohler's form) and the double description
//! method's adjacency test against the growth of rows.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

use super::omega::RowHasher;
use super::{checked_add, checked_mul, BasicSet, Constraint, ConstraintKind, Overflow, PolyError};

/// A bound `floor(expr / div)` (upper) or `ceil(expr / div)` (lower) of one
/// dimension: `expr` over parameters and the dimensions before it (columns of
/// the set, later ones zero), `div > 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    pub coeffs: Vec<i64>,
    pub constant: i64,
    pub div: i64,
}

/// The lower bounds (the dimension is at least their maximum) and upper
/// bounds (at most their minimum) of one dimension.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DimBounds {
    pub lower: Vec<Bound>,
    pub upper: Vec<Bound>,
}

/// Eliminate column `col` from `rows` (n columns) by Fourier–Motzkin.
/// Returns the rows and whether the step was exact over the integers.
pub(crate) fn eliminate_column(
    rows: Vec<Constraint>,
    col: usize,
) -> Result<(Vec<Constraint>, bool), Overflow> {
    // An equality with a non-zero coefficient substitutes exactly (rationally).
    if let Some(e) = rows
        .iter()
        .position(|c| c.kind == ConstraintKind::Eq && c.coeffs[col] != 0)
    {
        let eq = rows[e].clone();
        let a = eq.coeffs[col];
        let mut out = Vec::new();
        for (k, c) in rows.into_iter().enumerate() {
            if k == e {
                continue;
            }
            let b = c.coeffs[col];
            if b == 0 {
                out.push(c);
                continue;
            }
            // |a| c - sign(a) b eq keeps the direction of an inequality.
            let (m1, m2) = (a.abs(), -a.signum() * b);
            let mut coeffs = Vec::with_capacity(c.coeffs.len());
            for (x, y) in c.coeffs.iter().zip(&eq.coeffs) {
                coeffs.push(checked_add(checked_mul(m1, *x)?, checked_mul(m2, *y)?)?);
            }
            let constant =
                checked_add(checked_mul(m1, c.constant)?, checked_mul(m2, eq.constant)?)?;
            out.push(Constraint {
                kind: c.kind,
                coeffs,
                constant,
            });
        }
        return Ok((out, a.abs() == 1));
    }
    let (with, mut out): (Vec<Constraint>, Vec<Constraint>) =
        rows.into_iter().partition(|c| c.coeffs[col] != 0);
    let lowers: Vec<&Constraint> = with.iter().filter(|c| c.coeffs[col] > 0).collect();
    let uppers: Vec<&Constraint> = with.iter().filter(|c| c.coeffs[col] < 0).collect();
    let exact =
        lowers.iter().all(|c| c.coeffs[col] == 1) || uppers.iter().all(|c| c.coeffs[col] == -1);
    for l in &lowers {
        for u in &uppers {
            out.push(combine_bounds(l, u, col, 0)?);
        }
    }
    Ok((out, exact))
}

/// The Fourier–Motzkin combination of a lower bound `a x + L >= 0` and an
/// upper bound `-b x + U >= 0` of column `col` (`a, b > 0`): the row
/// `b L + a U - slack >= 0`, in which `x` no longer appears. `slack = 0`
/// gives the real shadow, `(a - 1)(b - 1)` the Omega test's dark shadow.
pub(crate) fn combine_bounds(
    l: &Constraint,
    u: &Constraint,
    col: usize,
    slack: i64,
) -> Result<Constraint, Overflow> {
    let (a, b) = (l.coeffs[col], -u.coeffs[col]);
    let mut coeffs = Vec::with_capacity(l.coeffs.len());
    for (x, y) in l.coeffs.iter().zip(&u.coeffs) {
        coeffs.push(checked_add(checked_mul(b, *x)?, checked_mul(a, *y)?)?);
    }
    let constant = checked_add(checked_mul(b, l.constant)?, checked_mul(a, u.constant)?)?;
    let mut row = Constraint::ineq(coeffs, checked_add(constant, -slack)?);
    row.coeffs[col] = 0;
    Ok(row)
}

/// `row` divided by the gcd of its coefficients and constant: the same
/// rational (and integer) set, with the smallest numbers. Fourier–Motzkin
/// multiplies rows together, and without this the numbers of a few
/// eliminations overflow.
pub(crate) fn divided_by_content(row: Constraint) -> Constraint {
    // 2^63 does not fit: 1 then (no division) is always sound.
    let g = super::gcd_of(row.coeffs.iter().copied().chain([row.constant])).unwrap_or(1);
    if g <= 1 {
        return row;
    }
    // g divides every entry, so each quotient is no larger than it was.
    Constraint {
        kind: row.kind,
        coeffs: row.coeffs.iter().map(|v| v / g).collect(),
        constant: row.constant / g,
    }
}

/// The most rows one Fourier–Motzkin step of [`fourier_motzkin`] may keep
/// before it gives up (an error, never a partial answer).
const ROW_LIMIT: usize = 20_000;

/// An inequality of the Fourier–Motzkin phase with the set of the phase's
/// first inequalities it was combined from, and the columns that any of
/// those names, as bit sets.
struct Tracked {
    row: Constraint,
    history: Vec<u64>,
    named: Vec<u64>,
}

impl Tracked {
    fn history_within(&self, other: &Tracked) -> bool {
        bits_within(&self.history, &other.history)
    }
}

/// Whether every bit set in `a` is set in `b` (bit sets of one length).
fn bits_within(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(a, b)| a & !b == 0)
}

/// Draw on the task's budget for reading `cells` entries: a row of work
/// per [`CELLS_PER_ROW`](super::work::CELLS_PER_ROW), and at least one.
fn draw_cells(cells: usize) -> Result<(), PolyError> {
    let rows = u64::try_from(cells).unwrap_or(u64::MAX) / super::work::CELLS_PER_ROW + 1;
    super::work::draw(rows, "Fourier–Motzkin elimination")
}

/// Whether the rows of histories `l` and `u` are adjacent, so that their
/// combination `h` (the union of the two) is kept: no other row of the
/// step, its history one of `histories` (`words` words each), has a
/// history within `h`. The combinatorial adjacency test of the double
/// description method, read on the multiplier cone of the rows: the rows
/// kept are its extreme rays, an extreme ray's history is a minimal one
/// (no other ray's is within it), and two extreme rays combine into an
/// extreme ray of the next cone exactly when no third lies in the face
/// their histories span. Exact, given that every row of the step is an
/// extreme ray, which this test and the rules below keep true. Histories
/// equal to `l`'s, `u`'s or `h` itself are not counted: a row equal to
/// one of them is a repeat, not a third ray.
fn adjacent(histories: &[u64], words: usize, h: &[u64], l: &[u64], u: &[u64]) -> bool {
    !histories
        .chunks(words.max(1))
        .any(|other| other != l && other != u && other != h && bits_within(other, h))
}

/// Eliminate `cols` from `rows` over the rationals: every equality that
/// mentions a column substitutes it first (Gaussian elimination), then
/// Fourier–Motzkin on the inequalities, the column that adds the fewest
/// rows first, with Chernikov's rule as Kohler sharpened it: a row
/// combined from more than `k + 1` of the phase's first inequalities,
/// where `k` counts the columns eliminated so far that those inequalities
/// name, is implied by the others and is not kept (an extreme ray of the
/// multiplier cone has at most one entry more than the rank of the
/// eliminated columns on its rows, and a column its rows never name adds
/// nothing to that rank). Counting every column eliminated so far, as
/// Chernikov's rule does, kept 10,192 rows of a Farkas system whose
/// rows each name a few of its 30 multipliers (random kernel r34_357),
/// past the step limit. Rows are divided by their content.
///
/// A pair that passes that count is combined only when its two rows are
/// adjacent ([`adjacent`]): then the rows kept are exactly the extreme
/// rays of the multiplier cone, none implied by the others. The count
/// alone let the rows of a Farkas system of 42 multipliers grow to
/// 14,212 and more before the last columns (random kernel r33_121,
/// `auto(feautrier)`); with the test, they stay under 60 there.
///
/// A row equal to one already kept is dropped only when its history
/// contains the kept row's (then it is no extreme ray); a kept row is
/// replaced by an equal one with a smaller history. Dropping an equal row
/// with an unrelated history could lose an extreme ray whose descendants
/// the rule then prunes; such repeats are removed at the end.
///
/// The boolean says whether every step was exact over the integers: a
/// unit coefficient in each substituted equality, and in every lower or
/// every upper bound of each Fourier–Motzkin column (on the rows kept,
/// which define the same set).
pub(crate) fn fourier_motzkin(
    rows: Vec<Constraint>,
    cols: &[usize],
) -> Result<(Vec<Constraint>, bool), PolyError> {
    let mut rows = rows;
    let mut exact = true;
    let mut remaining: Vec<usize> = cols.to_vec();
    while let Some(pos) = remaining.iter().position(|&col| {
        rows.iter()
            .any(|r| r.kind == ConstraintKind::Eq && r.coeffs[col] != 0)
    }) {
        let col = remaining.remove(pos);
        let (next, e) = eliminate_column(rows, col)?;
        rows = next.into_iter().map(divided_by_content).collect();
        exact &= e;
    }
    let (eqs, ineqs): (Vec<Constraint>, Vec<Constraint>) =
        rows.into_iter().partition(|r| r.kind == ConstraintKind::Eq);
    let words = ineqs.len().div_ceil(64);
    let n_cols = ineqs.first().map_or(0, |r| r.coeffs.len());
    let column_words = n_cols.div_ceil(64);
    let mut tracked: Vec<Tracked> = ineqs
        .into_iter()
        .enumerate()
        .map(|(k, row)| {
            let mut history = vec![0; words];
            history[k / 64] |= 1 << (k % 64);
            let mut named = vec![0; column_words];
            for (c, &v) in row.coeffs.iter().enumerate() {
                if v != 0 {
                    named[c / 64] |= 1 << (c % 64);
                }
            }
            Tracked {
                row,
                history,
                named,
            }
        })
        .collect();
    // The columns eliminated so far, as a bit set over the columns.
    let mut eliminated = vec![0u64; column_words];
    while !remaining.is_empty() {
        // Choosing the column reads each row's sign in each remaining
        // column: work of the task too (Farkas systems of 2,400 rows and
        // columns spent minutes here uncharged; random kernel r30_198),
        // a row per `CELLS_PER_ROW` cells read.
        let scan = tracked.len().saturating_mul(remaining.len());
        draw_cells(scan)?;
        let cost = |col: usize| {
            let lower = tracked.iter().filter(|t| t.row.coeffs[col] > 0).count();
            let upper = tracked.iter().filter(|t| t.row.coeffs[col] < 0).count();
            (lower * upper) as i64 - (lower + upper) as i64
        };
        let pos = (0..remaining.len())
            .min_by_key(|&k| cost(remaining[k]))
            .unwrap_or(0);
        let col = remaining.remove(pos);
        eliminated[col / 64] |= 1 << (col % 64);
        let (with, mut next): (Vec<Tracked>, Vec<Tracked>) =
            tracked.into_iter().partition(|t| t.row.coeffs[col] != 0);
        // The first kept row equal to each row: a hashed lookup, not a
        // scan of `next` per new row (quadratic: 13 s of `memcmp` on a
        // random kernel's `auto(pluto, fuse = max)`).
        let mut first: HashMap<Constraint, usize, BuildHasherDefault<RowHasher>> =
            HashMap::default();
        for (k, t) in next.iter().enumerate() {
            first.entry(t.row.clone()).or_insert(k);
        }
        // The histories of this step's rows, for the adjacency test.
        let histories: Vec<u64> = with
            .iter()
            .chain(&next)
            .flat_map(|t| t.history.iter().copied())
            .collect();
        let lowers: Vec<&Tracked> = with.iter().filter(|t| t.row.coeffs[col] > 0).collect();
        let uppers: Vec<&Tracked> = with.iter().filter(|t| t.row.coeffs[col] < 0).collect();
        exact &= lowers.iter().all(|t| t.row.coeffs[col] == 1)
            || uppers.iter().all(|t| t.row.coeffs[col] == -1);
        // Each pair is a step of the task's work, kept or not.
        let pairs = u64::try_from(lowers.len().saturating_mul(uppers.len())).unwrap_or(u64::MAX);
        super::work::draw(pairs, "Fourier–Motzkin elimination")?;
        for l in &lowers {
            for u in &uppers {
                let history: Vec<u64> = l
                    .history
                    .iter()
                    .zip(&u.history)
                    .map(|(a, b)| a | b)
                    .collect();
                let combined: usize = history.iter().map(|w| w.count_ones() as usize).sum();
                let named: Vec<u64> = l.named.iter().zip(&u.named).map(|(a, b)| a | b).collect();
                let named_eliminated: usize = named
                    .iter()
                    .zip(&eliminated)
                    .map(|(a, b)| (a & b).count_ones() as usize)
                    .sum();
                if combined > named_eliminated + 1 {
                    continue;
                }
                draw_cells(histories.len())?;
                if !adjacent(&histories, words, &history, &l.history, &u.history) {
                    continue;
                }
                let new = Tracked {
                    row: divided_by_content(combine_bounds(&l.row, &u.row, col, 0)?),
                    history,
                    named,
                };
                match first.get(&new.row).copied() {
                    Some(k) if next[k].history_within(&new) => continue,
                    Some(k) if new.history_within(&next[k]) => next[k] = new,
                    Some(_) => next.push(new),
                    None => {
                        first.insert(new.row.clone(), next.len());
                        next.push(new);
                    }
                }
                if next.len() > ROW_LIMIT {
                    return Err(PolyError::StepLimit("Fourier–Motzkin elimination"));
                }
            }
        }
        tracked = next;
    }
    let mut seen: HashSet<Constraint, BuildHasherDefault<RowHasher>> = HashSet::default();
    let rows = eqs
        .into_iter()
        .chain(tracked.into_iter().map(|t| t.row))
        .filter(|r| seen.insert(r.clone()))
        .collect();
    Ok((rows, exact))
}

impl BasicSet {
    /// Project out dimensions `first..first + count` and every local by
    /// Fourier–Motzkin ([`fourier_motzkin`]): exact over the **rationals**;
    /// the boolean says whether every step was also exact over the
    /// integers. Cost: each step multiplies lower by upper bounds, which
    /// Chernikov's rule keeps in check.
    pub fn project_out_rational(
        &self,
        first: usize,
        count: usize,
    ) -> Result<(BasicSet, bool), PolyError> {
        let np = self.space.n_param();
        let nd = self.space.n_out();
        let mut cols: Vec<usize> = (np + nd..self.n_cols()).rev().collect();
        cols.extend((np + first..np + first + count).rev());
        let (rows, exact) = fourier_motzkin(self.constraints.clone(), &cols)?;
        // Rows now have zeros in the eliminated columns; drop those columns.
        let keep: Vec<usize> = (0..np + nd)
            .filter(|&k| k < np + first || k >= np + first + count)
            .collect();
        let space = self.space.without_dims(first, count);
        let rows: Vec<Constraint> = rows
            .into_iter()
            .map(|c| Constraint {
                kind: c.kind,
                coeffs: keep.iter().map(|&k| c.coeffs[k]).collect(),
                constant: c.constant,
            })
            .filter(|c| {
                c.coeffs.iter().any(|&v| v != 0)
                    || (c.kind == ConstraintKind::Ineq && c.constant < 0)
                    || (c.kind == ConstraintKind::Eq && c.constant != 0)
            })
            .collect();
        Ok((BasicSet::from_parts(space, 0, rows), exact))
    }

    /// The bounds of dimension `d` in terms of the parameters and dimensions
    /// before it, from the rational projection of the later dimensions and
    /// the locals (so they may admit values with no integer completion; a
    /// code generator guards or re-checks those). Every integer point of the
    /// set satisfies them.
    pub fn dim_bounds(&self, d: usize) -> Result<DimBounds, PolyError> {
        let nd = self.space.n_out();
        if d >= nd {
            return Err(PolyError::SpaceMismatch { op: "dim_bounds" });
        }
        let (proj, _) = self.project_out_rational(d + 1, nd - d - 1)?;
        let col = self.space.n_param() + d;
        let mut out = DimBounds::default();
        for c in proj.constraints() {
            let a = c.coeffs[col];
            if a == 0 {
                continue;
            }
            let mut rest = c.coeffs.clone();
            rest[col] = 0;
            // a x + rest + k >= 0.
            let as_lower = |rest: &[i64], k: i64, a: i64| Bound {
                coeffs: rest.iter().map(|v| -v).collect(),
                constant: -k,
                div: a,
            };
            let as_upper = |rest: &[i64], k: i64, a: i64| Bound {
                coeffs: rest.to_vec(),
                constant: k,
                div: a,
            };
            match (c.kind, a > 0) {
                (ConstraintKind::Ineq, true) => out.lower.push(as_lower(&rest, c.constant, a)),
                (ConstraintKind::Ineq, false) => out.upper.push(as_upper(&rest, c.constant, -a)),
                (ConstraintKind::Eq, _) => {
                    // x = -(rest + k) / a: the same expression is both bounds.
                    let (rest, k, a) = if a > 0 {
                        (rest, c.constant, a)
                    } else {
                        (rest.iter().map(|v| -v).collect(), -c.constant, -a)
                    };
                    let b = as_lower(&rest, k, a);
                    out.lower.push(b.clone());
                    out.upper.push(b);
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Does `row` hold at the rational point `num / den`?
    fn holds_at(row: &Constraint, num: &[i64], den: i64) -> bool {
        let v: i64 =
            row.coeffs.iter().zip(num).map(|(a, x)| a * x).sum::<i64>() + row.constant * den;
        match row.kind {
            ConstraintKind::Eq => v == 0,
            ConstraintKind::Ineq => v >= 0,
        }
    }

    /// Is `num / den`, a point of the first two columns, in the rational
    /// projection of `{ x : rows }`? An oracle independent of
    /// Fourier–Motzkin: the rows with those two columns fixed, every
    /// other column split as `y⁺ − y⁻` (scaled by `den`), solved by the
    /// rational simplex.
    fn in_projection(rows: &[Constraint], num: [i64; 2], den: i64) -> bool {
        let free = rows[0].coeffs.len() - 2;
        let split: Vec<Constraint> = rows
            .iter()
            .map(|r| {
                let coeffs: Vec<i64> = r.coeffs[2..]
                    .iter()
                    .copied()
                    .chain(r.coeffs[2..].iter().map(|&a| -a))
                    .collect();
                let constant = r.coeffs[0] * num[0] + r.coeffs[1] * num[1] + r.constant * den;
                Constraint {
                    kind: r.kind,
                    coeffs,
                    constant,
                }
            })
            .collect();
        super::super::simplex::rational_lexmin_nonneg(2 * free, &split)
            .expect("small numbers")
            .is_some()
    }

    /// The history rules (Kohler's count and the adjacency test) and the
    /// cheapest-column order drop only implied rows: the result is the
    /// rational projection, compared at rational points of a box
    /// (denominators 1 to 3) against the simplex. Rows that leave out
    /// some of the eliminated columns (a third of the entries are zero)
    /// are where a row's own columns count, not every column eliminated
    /// so far; the shapes with more rows are where rows are not adjacent.
    #[test]
    fn history_pruned_projection_is_the_rational_projection() {
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |m: i64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) % (2 * m as u64 + 1)) as i64 - m
        };
        // (rows, columns): every column but the first two is eliminated.
        for (n_rows, n) in [(7, 5); 150]
            .into_iter()
            .chain([(10, 6); 150])
            .chain([(14, 6); 150])
        {
            let rows: Vec<Constraint> = (0..n_rows)
                .map(|k| {
                    let coeffs: Vec<i64> = (0..n)
                        .map(|_| if next(1) == 0 { 0 } else { next(3) })
                        .collect();
                    let constant = next(6) + 4;
                    if k == 0 && next(1) == 0 {
                        Constraint::eq(coeffs, constant - 4)
                    } else {
                        Constraint::ineq(coeffs, constant)
                    }
                })
                .collect();
            let cols: Vec<usize> = (2..n).rev().collect();
            let (fast, _) = fourier_motzkin(rows.clone(), &cols).expect("small numbers");
            for den in 1..=3 {
                for a in -5..=5 {
                    for b in -5..=5 {
                        let mut p = vec![0; n];
                        p[..2].copy_from_slice(&[a, b]);
                        assert_eq!(
                            fast.iter().all(|r| holds_at(r, &p, den)),
                            in_projection(&rows, [a, b], den),
                            "at {p:?}/{den}: {fast:?} from {rows:?}"
                        );
                    }
                }
            }
        }
    }
}
