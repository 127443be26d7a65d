//! Exact rational lexicographic minimisation over the non-negative
//! orthant: the rational lexmin of `{ x ≥ 0 : rows }`, and the relaxation
//! the integer lexmin ([`super::integer_lexmin`]) branches on.
//!
//! This is the solver of the automatic schedulers' (I)LPs (the Verdoolaege
//! & Janssens report §6.4, §6.5): variables are non-negative by
//! construction there (coefficients split as `c⁺ − c⁻`), and the objective
//! is a cascade of variables in order, which is exactly a lexmin.
//!
//! The rational lexmin is the lexicographic dual simplex (Feautrier's PIP
//! without parameters). The tableau keeps one row per variable, then one
//! per constraint, each an affine function of the current non-basic
//! variables (the columns) over a positive denominator:
//!
//! ```text
//!   row = (constant + Σ coeff[j] · t[j]) / den,   every t[j] ≥ 0
//! ```
//!
//! Every column is kept lexicographically positive on the variable rows, so
//! the point where every `t[j]` is zero is the lexicographic minimum of the
//! cone at that basis; a dual simplex step pivots a negative row into the
//! basis with the column that keeps that property. With all rows
//! non-negative the point is the rational lexmin.
//!
//! A constraint joins the tableau only when the current point breaks it
//! (cutting planes, checked cheaply at the point), a few at a time
//! ([`ROWS_PER_ROUND`]); the duplicate and
//! dominated rows of the input are dropped first ([`reduced_nonneg_rows`]).
//! A scheduling system has thousands of Farkas rows of which a few dozen
//! bind.
//!
//! A [`Relaxation`] keeps its tableau: a clone restricted by more rows
//! goes on from the lexmin it had (the columns stay lexicographically
//! positive), which is how the integer lexmin's cases and branch and
//! bound's nodes are solved.
//!
//! Arithmetic is `i128`, checked; rows are divided by their content after
//! every pivot that changes them. An overflow, more than [`STEP_LIMIT`]
//! steps, or a pivot past the enclosing task's work budget
//! ([`super::with_work_limit`]) is an error, never an answer.
//!
//! Length: one solver (the tableau and the rows that join it, the
//! reduction of its input) and its tests.

use super::constraint::gcd_of;
use super::invariant_divisor::InvariantDivisor;
use super::omega::RowHasher;
use super::work;
use super::{Constraint, ConstraintKind, PolyError};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// The most pivots one minimisation may take before it gives up.
pub const STEP_LIMIT: usize = 50_000;

/// The most broken rows that join the tableau at once. Rows joining
/// one at a time would scan the waiting rows once per row; all of them at
/// once would grow the tableau with rows that the first few make hold
/// (adi's Pluto search: 17% more instructions in all with every broken
/// row, heat-3d's 70% more; 2 to 4 are equally good).
const ROWS_PER_ROUND: usize = 4;

/// A rational number `num / den`, `den > 0`, in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    pub num: i128,
    pub den: i128,
}

impl Ratio {
    /// The value as an integer when it is one.
    pub fn as_integer(self) -> Option<i128> {
        (self.num % self.den == 0).then(|| self.num / self.den)
    }
}

/// The rational lexicographic minimum of `{ x ∈ ℚⁿ : x ≥ 0, rows }`, rows over
/// `n` columns; `None` when the set is empty. Exact.
pub fn rational_lexmin_nonneg(
    n: usize,
    rows: &[Constraint],
) -> Result<Option<Vec<Ratio>>, PolyError> {
    rational_lexmin_of_reduced(n, &reduced_nonneg_rows(n, rows.to_vec())?, &[])
}

/// [`rational_lexmin_nonneg`] of the rows `base` and `more`. Exact for
/// any rows; rows through [`reduced_nonneg_rows`] only save work (a
/// scheduler reduces a system once and solves it with a few more rows
/// many times).
///
/// Rows join the tableau only when the current point breaks them, at
/// most [`ROWS_PER_ROUND`] each time: the lexmin of fewer rows that
/// satisfies the others is the lexmin of all (the point is unique), and
/// the dual simplex goes on from where it stopped when rows are added
/// (the columns stay lexicographically positive, since variable rows are
/// unchanged). Most rows of a
/// scheduling system never bind, and the tableau stays small.
pub fn rational_lexmin_of_reduced(
    n: usize,
    base: &[Constraint],
    more: &[Constraint],
) -> Result<Option<Vec<Ratio>>, PolyError> {
    Relaxation::new(n, base.iter().chain(more)).lexmin()
}

/// The rational relaxation of `{ x ≥ 0 : rows }` being minimised: the
/// tableau and the rows that have not joined it. A clone goes on from
/// where its original stopped: the integer lexmin adds a branch's rows to
/// a clone of the case's relaxation, and branch and bound a bound to a
/// clone of its node's, instead of solving each from the start.
#[derive(Clone)]
pub(super) struct Relaxation<'a> {
    t: Tableau,
    waiting: Vec<&'a Constraint>,
}

impl<'a> Relaxation<'a> {
    /// The relaxation of `{ x ∈ ℚⁿ : x ≥ 0, rows }`; the rows join the
    /// tableau as [`Relaxation::lexmin`] finds them broken.
    pub(super) fn new(n: usize, rows: impl IntoIterator<Item = &'a Constraint>) -> Relaxation<'a> {
        Relaxation {
            t: Tableau::new(n),
            waiting: rows.into_iter().collect(),
        }
    }

    /// Adds `c` to the set, to the tableau at once (a branch's rows, a
    /// node's bound: few, and most of them broken at the point). The
    /// lexmin is found again on the next [`Relaxation::lexmin`].
    pub(super) fn restrict(&mut self, c: &Constraint) -> Result<(), PolyError> {
        self.t.add(c)
    }

    /// The rational lexmin of the set; `None` when it is empty. Exact.
    /// One minimisation: at most [`STEP_LIMIT`] pivots, however many its
    /// original took before it was cloned.
    pub(super) fn lexmin(&mut self) -> Result<Option<Vec<Ratio>>, PolyError> {
        let n = self.t.n_var;
        self.t.steps = 0;
        loop {
            if !self.t.restore_feasibility()? {
                return Ok(None);
            }
            let point = (0..n)
                .map(|i| self.t.value(i))
                .collect::<Result<Vec<_>, _>>()?;
            let scaled = ScaledPoint::of(&point);
            let mut broken = Vec::new();
            self.waiting.retain(|&c| {
                if broken.len() == ROWS_PER_ROUND {
                    return true;
                }
                let holds = scaled.as_ref().is_some_and(|p| p.satisfies(c));
                if !holds {
                    broken.push(c);
                }
                holds
            });
            if broken.is_empty() {
                return Ok(Some(point));
            }
            for c in broken {
                self.t.add(c)?;
            }
        }
    }
}

/// A rational point as integers over one common denominator, to check
/// rows at it cheaply.
struct ScaledPoint {
    /// The non-zero numerators over `den`, by coordinate: a lexmin over
    /// `x ≥ 0` is zero in most coordinates, and a row's value only needs
    /// the others.
    nonzero: Vec<(usize, i128)>,
    den: i128,
}

impl ScaledPoint {
    /// `None` when the common denominator or a numerator does not fit in
    /// 128 bits.
    fn of(point: &[Ratio]) -> Option<ScaledPoint> {
        let mut den: i128 = 1;
        for x in point {
            den = (den / gcd(den, x.den).ok()?).checked_mul(x.den)?;
        }
        let nonzero = point
            .iter()
            .enumerate()
            .filter(|(_, x)| x.num != 0)
            .map(|(j, x)| Some((j, x.num.checked_mul(den / x.den)?)))
            .collect::<Option<_>>()?;
        Some(ScaledPoint { nonzero, den })
    }

    /// Does `c` hold at the point? A cheap check: `false` also when the
    /// value (times the positive denominator) does not fit in 128 bits;
    /// the row then joins the tableau, which is always sound.
    fn satisfies(&self, c: &Constraint) -> bool {
        let Some(mut value) = i128::from(c.constant).checked_mul(self.den) else {
            return false;
        };
        for &(j, x) in &self.nonzero {
            let a = c.coeffs.get(j).copied().unwrap_or(0);
            if a == 0 {
                continue;
            }
            let Some(v) = i128::from(a)
                .checked_mul(x)
                .and_then(|term| value.checked_add(term))
            else {
                return false;
            };
            value = v;
        }
        match c.kind {
            ConstraintKind::Eq => value == 0,
            ConstraintKind::Ineq => value >= 0,
        }
    }
}

/// The rows of `{ x ≥ 0 : rows }` without what the same set needs no row
/// for. Exact: the set, rational and integer, is unchanged.
///
/// * A row is divided by the content of its coefficients and constant.
/// * An inequality whose coefficients and constant are all non-negative
///   holds on every `x ≥ 0`: dropped.
/// * Of inequalities with the same coefficients, the one with the least
///   constant implies the others: only it is kept. Equal equalities are
///   kept once.
///
/// The schedulers' systems need this: Farkas' lemma gives every
/// dependence edge its rows, and adi's Pluto band has 3,258 rows of which
/// 1,543 differ.
pub fn reduced_nonneg_rows(n: usize, rows: Vec<Constraint>) -> Result<Vec<Constraint>, PolyError> {
    let mut normal: Vec<Constraint> = Vec::with_capacity(rows.len());
    for mut row in rows {
        if row.coeffs.len() != n {
            return Err(PolyError::SpaceMismatch {
                op: "lexmin_nonneg",
            });
        }
        if row.kind == ConstraintKind::Ineq
            && row.constant >= 0
            && row.coeffs.iter().all(|&c| c >= 0)
        {
            continue;
        }
        let g = gcd_of(row.coeffs.iter().copied().chain([row.constant])).unwrap_or(1);
        if g > 1 {
            row.coeffs.iter_mut().for_each(|c| *c /= g);
            row.constant /= g;
        }
        normal.push(row);
    }
    // The first row of each kind and coefficients, with the least constant
    // of its inequalities; the index borrows the coefficients.
    let mut index: HashMap<(ConstraintKind, &[i64]), usize, BuildHasherDefault<RowHasher>> =
        HashMap::with_capacity_and_hasher(normal.len(), BuildHasherDefault::default());
    let mut constant: Vec<i64> = normal.iter().map(|r| r.constant).collect();
    let mut keep = vec![false; normal.len()];
    for (k, row) in normal.iter().enumerate() {
        match index.get(&(row.kind, row.coeffs.as_slice())) {
            Some(&first) if row.kind == ConstraintKind::Ineq => {
                constant[first] = constant[first].min(row.constant);
            }
            // An equation with the same coefficients and another constant
            // is kept: the set is empty.
            Some(&first) => keep[k] = normal[first].constant != row.constant,
            None => {
                index.insert((row.kind, &row.coeffs), k);
                keep[k] = true;
            }
        }
    }
    drop(index);
    Ok(normal
        .into_iter()
        .zip(constant)
        .zip(keep)
        .filter(|(_, keep)| *keep)
        .map(|((row, constant), _)| Constraint { constant, ..row })
        .collect())
}

/// One row: `(constant + Σ coeffs[j] · t[j]) / den`.
#[derive(Clone, Debug)]
struct Row {
    constant: i128,
    coeffs: Vec<i128>,
    den: i128,
}

#[derive(Clone)]
struct Tableau {
    /// How many leading rows are the variables `x`.
    n_var: usize,
    rows: Vec<Row>,
    /// Pivots of the minimisation under way.
    steps: usize,
}

fn mul(a: i128, b: i128) -> Result<i128, PolyError> {
    // Two factors that fit in 64 bits have a product under 2¹²⁶ in
    // magnitude: one widening multiply, no overflow check (tableau
    // entries mostly are small).
    if let (Ok(x), Ok(y)) = (i64::try_from(a), i64::try_from(b)) {
        return Ok(i128::from(x) * i128::from(y));
    }
    a.checked_mul(b).ok_or(PolyError::Overflow)
}

fn add(a: i128, b: i128) -> Result<i128, PolyError> {
    a.checked_add(b).ok_or(PolyError::Overflow)
}

fn sub(a: i128, b: i128) -> Result<i128, PolyError> {
    a.checked_sub(b).ok_or(PolyError::Overflow)
}

/// The greatest common divisor of `|a|` and `|b|`; an error only when it
/// is 2¹²⁷ (both are `i128::MIN` or zero), which has no `i128`.
fn gcd(a: i128, b: i128) -> Result<i128, PolyError> {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    // Tableau entries mostly fit in 64 bits, where division is a machine
    // instruction rather than a call.
    if let (Ok(mut x), Ok(mut y)) = (u64::try_from(a), u64::try_from(b)) {
        while y != 0 {
            (x, y) = (y, x % y);
        }
        return Ok(i128::from(x));
    }
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i128::try_from(a).map_err(|_| PolyError::Overflow)
}

/// `a / g` for `g > 0` (truncating, as `/`), by a 64-bit division when
/// `a` and `g` fit in 64 bits.
fn quotient(a: i128, g: i128) -> i128 {
    debug_assert!(g > 0);
    match (i64::try_from(a), i64::try_from(g)) {
        (Ok(x), Ok(y)) => i128::from(x / y),
        _ => a / g,
    }
}

impl Row {
    /// Divides the row by the content of its constant, coefficients and
    /// denominator. Exact.
    fn normalize(&mut self) -> Result<(), PolyError> {
        let g = self.content()?;
        if g == 1 {
            return Ok(());
        }
        let by = u64::try_from(g).ok().and_then(InvariantDivisor::new);
        let divide = |a: i128| -> i128 {
            if let (Some(by), Ok(m)) = (by, u64::try_from(a.unsigned_abs())) {
                if let Some(q) = by.exact_quotient(m) {
                    // `q ≤ m`, and `m` came from an `i128`.
                    let q = i128::from(q);
                    return if a < 0 { -q } else { q };
                }
            }
            a / g
        };
        self.constant = divide(self.constant);
        self.den = divide(self.den);
        for c in &mut self.coeffs {
            *c = divide(*c);
        }
        Ok(())
    }

    /// The gcd of the constant, the coefficients and the denominator
    /// (positive, as the denominator is). Exact.
    fn content(&self) -> Result<i128, PolyError> {
        let mut g = gcd(self.constant, self.den)?;
        let mut by = u64::try_from(g).ok().and_then(InvariantDivisor::new);
        // A zero entry leaves the gcd as it is, and so does a multiple of
        // it: after a pivot most entries are multiples of the row's old
        // content, and one multiplication tells.
        for &c in self.coeffs.iter().filter(|&&c| c != 0) {
            if g == 1 {
                break;
            }
            let divides = match (by, u64::try_from(c.unsigned_abs())) {
                (Some(by), Ok(m)) => by.exact_quotient(m).is_some(),
                _ => c % g == 0,
            };
            if !divides {
                g = gcd(g, c)?;
                by = u64::try_from(g).ok().and_then(InvariantDivisor::new);
            }
        }
        Ok(g)
    }
}

impl Tableau {
    /// The tableau of `{ x ≥ 0 }`: one row per variable, at its lexmin 0.
    fn new(n: usize) -> Tableau {
        let rows: Vec<Row> = (0..n)
            .map(|i| {
                let mut coeffs = vec![0; n];
                coeffs[i] = 1;
                Row {
                    constant: 0,
                    coeffs,
                    den: 1,
                }
            })
            .collect();
        Tableau {
            n_var: n,
            rows,
            steps: 0,
        }
    }

    /// Adds `c` (an equality as two opposite rows), written over the
    /// current columns through the variable rows.
    fn add(&mut self, c: &Constraint) -> Result<(), PolyError> {
        let n = self.n_var;
        if c.coeffs.len() != n {
            return Err(PolyError::SpaceMismatch {
                op: "lexmin_nonneg",
            });
        }
        // The common denominator of the variables `c` reads.
        let mut den: i128 = 1;
        for (i, &a) in c.coeffs.iter().enumerate() {
            if a != 0 {
                let d = self.rows[i].den;
                den = mul(quotient(den, gcd(den, d)?), d)?;
            }
        }
        let mut row = Row {
            constant: mul(c.constant.into(), den)?,
            coeffs: vec![0; n],
            den,
        };
        for (i, &a) in c.coeffs.iter().enumerate() {
            if a == 0 {
                continue;
            }
            let var = &self.rows[i];
            let scale = mul(a.into(), quotient(den, var.den))?;
            row.constant = add(row.constant, mul(scale, var.constant)?)?;
            for (r, &v) in row.coeffs.iter_mut().zip(&var.coeffs) {
                if v != 0 {
                    *r = add(*r, mul(scale, v)?)?;
                }
            }
        }
        row.normalize()?;
        if c.kind == ConstraintKind::Eq {
            self.rows.push(Row {
                constant: row.constant.checked_neg().ok_or(PolyError::Overflow)?,
                coeffs: row
                    .coeffs
                    .iter()
                    .map(|v| v.checked_neg().ok_or(PolyError::Overflow))
                    .collect::<Result<_, _>>()?,
                den: row.den,
            });
        }
        self.rows.push(row);
        Ok(())
    }

    /// The value of row `r` at the current basic solution.
    fn value(&self, r: usize) -> Result<Ratio, PolyError> {
        let row = &self.rows[r];
        let g = gcd(row.constant, row.den)?.max(1);
        Ok(Ratio {
            num: quotient(row.constant, g),
            den: quotient(row.den, g),
        })
    }

    /// Dual simplex steps until every row is non-negative: `false` when a
    /// row can never become so (the set is empty).
    fn restore_feasibility(&mut self) -> Result<bool, PolyError> {
        while let Some(r) = self.rows.iter().position(|row| row.constant < 0) {
            let Some(c) = self.entering_column(r)? else {
                return Ok(false);
            };
            self.steps += 1;
            if self.steps > STEP_LIMIT {
                return Err(PolyError::StepLimit("lexicographic simplex"));
            }
            self.pivot(r, c)?;
        }
        Ok(true)
    }

    /// Among the columns with a positive entry in row `r`, the one whose
    /// column divided by that entry is lexicographically least on the
    /// variable rows: the pivot keeps every column lexicographically
    /// positive. `None` when no entry is positive.
    fn entering_column(&self, r: usize) -> Result<Option<usize>, PolyError> {
        let pivot_row = &self.rows[r];
        let mut best: Option<usize> = None;
        for j in 0..pivot_row.coeffs.len() {
            if pivot_row.coeffs[j] <= 0 {
                continue;
            }
            best = match best {
                None => Some(j),
                Some(b) if self.column_ratio_less(r, j, b)? => Some(j),
                keep => keep,
            };
        }
        Ok(best)
    }

    /// Is column `j` over its entry in row `r` lexicographically less than
    /// column `b` over its entry (both entries positive)?
    fn column_ratio_less(&self, r: usize, j: usize, b: usize) -> Result<bool, PolyError> {
        let (pj, pb) = (self.rows[r].coeffs[j], self.rows[r].coeffs[b]);
        for row in &self.rows[..self.n_var] {
            let lhs = mul(row.coeffs[j], pb)?;
            let rhs = mul(row.coeffs[b], pj)?;
            if lhs != rhs {
                return Ok(lhs < rhs);
            }
        }
        Ok(false)
    }

    /// Exchange the basic quantity of row `r` with the non-basic one of
    /// column `c`: every row is rewritten over the new non-basic variables.
    /// A row with no entry in column `c` does not change (it would only be
    /// multiplied by the pivot and divided back), so it is left alone.
    fn pivot(&mut self, r: usize, c: usize) -> Result<(), PolyError> {
        // One row of work per row the pivot may change, or per
        // `work::CELLS_PER_ROW` of its cells, from the enclosing task's
        // budget.
        let rows = u64::try_from(self.rows.len()).unwrap_or(u64::MAX);
        let width = u64::try_from(self.rows[r].coeffs.len() + 1).unwrap_or(u64::MAX);
        let cells = rows.saturating_mul(width) / work::CELLS_PER_ROW;
        work::draw(rows.max(cells), "lexicographic simplex")?;
        let p = self.rows[r].clone();
        let a = p.coeffs[c];
        // With a pivot of 1, the columns where the pivot row has an entry
        // (but the pivot's): the only ones a row changes in.
        let support: Vec<usize> = if a == 1 {
            (0..p.coeffs.len())
                .filter(|&j| j != c && p.coeffs[j] != 0)
                .collect()
        } else {
            Vec::new()
        };
        debug_assert!(a > 0, "pivot on a non-positive entry");
        for row in &mut self.rows {
            let e = row.coeffs[c];
            if e == 0 {
                continue;
            }
            row.constant = sub(mul(row.constant, a)?, mul(e, p.constant)?)?;
            if a == 1 {
                // `v·1 − e·0 = v`: only the pivot row's entries change it.
                for &j in &support {
                    row.coeffs[j] = sub(row.coeffs[j], mul(e, p.coeffs[j])?)?;
                }
            } else {
                row.den = mul(row.den, a)?;
                for (v, &pv) in row.coeffs.iter_mut().zip(&p.coeffs) {
                    *v = sub(mul(*v, a)?, mul(e, pv)?)?;
                }
            }
            row.coeffs[c] = mul(e, p.den)?;
            row.normalize()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::test_rng::Lcg;

    fn ineq(coeffs: &[i64], constant: i64) -> Constraint {
        Constraint::ineq(coeffs.to_vec(), constant)
    }

    #[test]
    fn the_rational_lexmin_of_a_triangle_is_its_first_vertex() {
        // x + y >= 3/2 scaled: 2x + 2y - 3 >= 0; the lexmin is (0, 3/2).
        let p = rational_lexmin_nonneg(2, &[ineq(&[2, 2], -3)])
            .unwrap()
            .unwrap();
        assert_eq!(p[0], Ratio { num: 0, den: 1 });
        assert_eq!(p[1], Ratio { num: 3, den: 2 });
    }

    #[test]
    fn an_empty_set_has_no_rational_lexmin() {
        let rows = [ineq(&[1, 1], -5), ineq(&[-1, -1], 4)];
        assert_eq!(rational_lexmin_nonneg(2, &rows).unwrap(), None);
    }

    /// A relaxation solved, cloned and restricted by more rows has the
    /// lexmin of all the rows solved from the start.
    #[test]
    fn a_restricted_clone_goes_on_to_the_lexmin_of_all_its_rows() {
        let mut rng = Lcg(11);
        for case in 0..2000 {
            let n = 1 + rng.next(4) as usize;
            let mut random_rows = |extra: i64| -> Vec<Constraint> {
                (0..1 + rng.next(extra))
                    .map(|_| {
                        let coeffs: Vec<i64> = (0..n).map(|_| rng.next(11) - 5).collect();
                        let constant = rng.next(31) - 15;
                        if rng.next(6) == 0 {
                            Constraint::eq(coeffs, constant)
                        } else {
                            ineq(&coeffs, constant)
                        }
                    })
                    .collect()
            };
            let first = random_rows(4);
            let then = random_rows(3);
            let mut relaxation = Relaxation::new(n, &first);
            let before = relaxation.lexmin().unwrap();
            assert_eq!(before, rational_lexmin_of_reduced(n, &first, &[]).unwrap());
            let mut restricted = relaxation.clone();
            for c in &then {
                restricted.restrict(c).unwrap();
            }
            assert_eq!(
                restricted.lexmin().unwrap(),
                rational_lexmin_of_reduced(n, &first, &then).unwrap(),
                "case {case}: {first:?} then {then:?}"
            );
            // The original is unchanged by its clone's rows.
            assert_eq!(relaxation.lexmin().unwrap(), before, "case {case}");
        }
    }
}
