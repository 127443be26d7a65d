//! Writing every local of a conjunction as an integer division.
//!
//! A local `q` is an *integer division* when two rows define it as
//! `floor(e / k)` of the dimensions and earlier locals:
//!
//! ```text
//!   e - k q >= 0   and   k q - e + k - 1 >= 0      (k > 0)
//! ```
//!
//! Such a local is a function of the point, so a constraint that mentions it
//! can be negated without a quantifier changing sides: this is what
//! complement and subtraction need. A local that only exists (`∃ e`, as
//! projection makes it) is rewritten, exactly, by
//! [`BasicSet::with_division_locals`]:
//!
//! * a local that no row mentions is dropped;
//! * a Fourier–Motzkin step removes it where that step is exact over the
//!   integers (a unit coefficient on one side, a unit equality, or no row
//!   mentioning it);
//! * an equality that mentions it defines it as a division: first a
//!   unimodular change of the undefined locals (existentials may be renamed)
//!   leaves one of them in the equality, `a e + f = 0`, and then
//!   `e = floor(-f / a)` (the two defining rows follow from the equality);
//! * when its rows mention only dimensions and locals already defined, the
//!   set splits into one disjunct per lower bound `c e >= L`, in which
//!   `e = ceil(L / c)`: if an integer `e` exists, the largest of these
//!   ceilings is one, so the union is exact;
//! * otherwise (locals bound only through each other), the Omega test's
//!   exact projection: the dark shadow, where an integer value surely
//!   exists, and the splinters `a e = L + k`, equalities handled as above.
//!
//! Each step removes a local or makes one a division, so the rewriting
//! terminates; the number of disjuncts can grow exponentially in the number
//! of locals that are neither (rare in loop nests).

use super::bounds::{combine_bounds, eliminate_column};
use super::constraint::permute;
use super::omega::integer_sample;
use super::{
    checked_add, checked_mul, gcd_of, BasicSet, Constraint, ConstraintKind, PolyError, Set,
};

/// Rows over `n_dims` dimension columns followed by `n_local` locals.
#[derive(Clone)]
struct Conjunction {
    n_dims: usize,
    n_local: usize,
    rows: Vec<Constraint>,
}

impl Conjunction {
    fn n_cols(&self) -> usize {
        self.n_dims + self.n_local
    }

    /// Whether every non-zero column of `row` other than `col` is a dimension
    /// or one of the first `defined` locals.
    fn uses_only_defined(&self, row: &Constraint, col: usize, defined: usize) -> bool {
        row.coeffs
            .iter()
            .enumerate()
            .all(|(k, &v)| v == 0 || k == col || k < self.n_dims + defined)
    }

    /// Whether local column `col` has two rows defining it as a division of
    /// dimensions and the first `defined` locals.
    fn is_division(&self, col: usize, defined: usize) -> bool {
        division_definition(&self.rows, col, |k| k < self.n_dims + defined).is_some()
    }

    /// Move local column `col` to position `to` among the locals (shifting
    /// the ones between).
    fn move_local(&mut self, col: usize, to: usize) {
        let target = self.n_dims + to;
        let mut order: Vec<usize> = (0..self.n_cols()).filter(|&k| k != col).collect();
        order.insert(target, col);
        self.rows = permute(&self.rows, &order);
    }

    /// Drop column `col` (all its coefficients must be zero).
    fn drop_column(&mut self, col: usize) {
        for r in &mut self.rows {
            r.coeffs.remove(col);
        }
        self.n_local -= 1;
    }

    /// Divide each row by the gcd of its coefficients (rounding an
    /// inequality's constant down, which keeps every integer point) and drop
    /// duplicates. Keeps coefficients small over repeated Fourier–Motzkin
    /// steps. A looser row parallel to a tighter one stays: it may be half
    /// of a division's definition. `false` if a row has no integer solution.
    fn tidy(&mut self) -> bool {
        let mut kept: Vec<Constraint> = Vec::with_capacity(self.rows.len());
        for mut r in std::mem::take(&mut self.rows) {
            // 2^63 does not fit: 1 then (no normalisation) is always sound.
            let g = gcd_of(r.coeffs.iter().copied()).unwrap_or(1);
            if g == 0 {
                let holds = match r.kind {
                    ConstraintKind::Eq => r.constant == 0,
                    ConstraintKind::Ineq => r.constant >= 0,
                };
                if !holds {
                    return false;
                }
                continue;
            }
            if g > 1 {
                if r.kind == ConstraintKind::Eq && r.constant % g != 0 {
                    return false;
                }
                r.coeffs.iter_mut().for_each(|c| *c /= g);
                r.constant = r.constant.div_euclid(g);
            }
            if !kept.contains(&r) {
                kept.push(r);
            }
        }
        self.rows = kept;
        true
    }

    /// Bring the locals that are divisions (of dimensions and earlier
    /// divisions) to the front, in definition order; returns how many.
    fn order_divisions(&mut self) -> usize {
        let mut defined = 0;
        while let Some(l) =
            (defined..self.n_local).find(|&l| self.is_division(self.n_dims + l, defined))
        {
            self.move_local(self.n_dims + l, defined);
            defined += 1;
        }
        defined
    }

    /// One exact rewriting step on a local that is not yet a division: the
    /// conjunction is replaced by the returned disjuncts, whose union is
    /// equal to it. Each step removes a local or makes one a division, so
    /// repeating it terminates.
    fn step(mut self, defined: usize) -> Result<Vec<Conjunction>, PolyError> {
        let locals = self.n_dims + defined..self.n_cols();
        for col in locals.clone() {
            // Also drops a local that no row mentions.
            let (rows, exact) = eliminate_column(self.rows.clone(), col)?;
            if exact {
                self.rows = rows;
                self.drop_column(col);
                return Ok(vec![self]);
            }
        }
        let eq = self
            .rows
            .iter()
            .position(|r| r.kind == ConstraintKind::Eq && locals.clone().any(|k| r.coeffs[k] != 0));
        if let Some(e) = eq {
            let col = self.reduce_to_one_local(e, defined)?;
            self.define_by_equality(e, col)?;
            return Ok(vec![self]);
        }
        for col in locals.clone() {
            let closed = self
                .rows
                .iter()
                .filter(|r| r.coeffs[col] != 0)
                .all(|r| self.uses_only_defined(r, col, defined));
            if closed {
                return self.split_on_lower_bounds(col);
            }
        }
        // Locals bound only through each other: the Omega test's exact
        // projection of the first one.
        self.dark_shadow_and_splinters(locals.start)
    }

    /// Make row `e` (an equality) mention exactly one undefined local, by a
    /// unimodular change of the undefined locals (Euclid on their
    /// coefficients); existentials may be renamed freely. Returns its column.
    fn reduce_to_one_local(&mut self, e: usize, defined: usize) -> Result<usize, PolyError> {
        let locals = self.n_dims + defined..self.n_cols();
        loop {
            let row = &self.rows[e].coeffs;
            let mut nonzero = locals.clone().filter(|&k| row[k] != 0);
            let Some(first) = nonzero.next() else {
                return Err(PolyError::Unsupported("equality without a local"));
            };
            if nonzero.next().is_none() {
                return Ok(first);
            }
            // p: the smallest coefficient; every other q: col_q -= t col_p,
            // i.e. e_p' = e_p + t e_q, with t = a_q / a_p (truncated).
            let p = locals
                .clone()
                .filter(|&k| row[k] != 0)
                .min_by_key(|&k| row[k].unsigned_abs())
                .ok_or(PolyError::Unsupported("equality without a local"))?;
            let a_p = row[p];
            let factors: Vec<(usize, i64)> = locals
                .clone()
                .filter(|&k| k != p && row[k] != 0)
                .map(|k| (k, row[k] / a_p))
                .collect();
            for r in &mut self.rows {
                for &(q, t) in &factors {
                    r.coeffs[q] = checked_add(r.coeffs[q], checked_mul(-t, r.coeffs[p])?)?;
                }
            }
        }
    }

    /// Add the two rows defining local `col` as a division by the equality
    /// `a e + f = 0` of row `e` (they follow from it): `e = floor(-f / a)`.
    fn define_by_equality(&mut self, e: usize, col: usize) -> Result<(), PolyError> {
        let eq = &self.rows[e];
        let sign = eq.coeffs[col].signum();
        let a = eq.coeffs[col].abs();
        // -sign (a_signed e + f) >= 0 is -f' - a e >= 0.
        let lo = Constraint::ineq(
            eq.coeffs.iter().map(|v| -sign * v).collect(),
            -sign * eq.constant,
        );
        self.rows.push(division_partner(&lo, a)?);
        self.rows.push(lo);
        Ok(())
    }

    /// One disjunct per lower bound `c e + R >= 0` of local `col`, in which
    /// `e = ceil(-R / c)`. Exact when the bounds mention only dimensions and
    /// defined locals: the largest of these ceilings is a value of `e` if
    /// any is.
    fn split_on_lower_bounds(self, col: usize) -> Result<Vec<Conjunction>, PolyError> {
        let mut parts = Vec::new();
        for r in self.rows.iter().filter(|r| r.coeffs[col] > 0) {
            let c = r.coeffs[col];
            let mut part = self.clone();
            // -(c e + R) + c - 1 >= 0.
            let upper = Constraint::ineq(
                r.coeffs.iter().map(|v| -v).collect(),
                checked_add(-r.constant, c - 1)?,
            );
            part.rows.push(upper);
            parts.push(part);
        }
        Ok(parts)
    }

    /// Pugh's exact projection of local `col`: the dark shadow (where an
    /// integer value surely exists; the column is dropped) and the splinters
    /// `a e = L + k` for each lower bound `a e >= L` and each
    /// `0 <= k <= (m a - a - m) / m`, `m` the largest upper coefficient.
    fn dark_shadow_and_splinters(self, col: usize) -> Result<Vec<Conjunction>, PolyError> {
        let lowers: Vec<&Constraint> = self.rows.iter().filter(|r| r.coeffs[col] > 0).collect();
        let uppers: Vec<&Constraint> = self.rows.iter().filter(|r| r.coeffs[col] < 0).collect();
        let m = uppers.iter().map(|r| -r.coeffs[col]).max().unwrap_or(1);
        let mut dark = Conjunction {
            rows: self
                .rows
                .iter()
                .filter(|r| r.coeffs[col] == 0)
                .cloned()
                .collect(),
            ..self.clone()
        };
        for l in &lowers {
            for u in &uppers {
                let (a, b) = (l.coeffs[col], -u.coeffs[col]);
                let slack = checked_mul(a - 1, b - 1)?;
                dark.rows.push(combine_bounds(l, u, col, slack)?);
            }
        }
        dark.drop_column(col);
        let mut parts = vec![dark];
        for l in &lowers {
            let a = l.coeffs[col];
            let last = (checked_mul(m, a)? - a - m).div_euclid(m);
            for k in 0..=last {
                let mut part = self.clone();
                part.rows.push(Constraint::eq(
                    l.coeffs.clone(),
                    checked_add(l.constant, -k)?,
                ));
                parts.push(part);
            }
        }
        Ok(parts)
    }
}

/// The rows `(lo, hi)` defining column `col` as the integer division
/// `floor(e / k)`: `lo` is `e - k q >= 0`, `hi` is `k q - e + k - 1 >= 0`,
/// and every other column that `e` mentions passes `allowed`. A cheap
/// syntactic check.
pub(crate) fn division_definition(
    rows: &[Constraint],
    col: usize,
    allowed: impl Fn(usize) -> bool,
) -> Option<(usize, usize)> {
    rows.iter().enumerate().find_map(|(a, lo)| {
        let k = -lo.coeffs[col];
        let shape = lo.kind == ConstraintKind::Ineq
            && k > 0
            && lo
                .coeffs
                .iter()
                .enumerate()
                .all(|(j, &v)| v == 0 || j == col || allowed(j));
        if !shape {
            return None;
        }
        rows.iter().enumerate().find_map(|(b, hi)| {
            let mirrored = hi.kind == ConstraintKind::Ineq
                && hi.coeffs.iter().zip(&lo.coeffs).all(|(x, y)| *x == -*y)
                && Some(hi.constant)
                    == lo.constant.checked_neg().and_then(|c| c.checked_add(k - 1));
            mirrored.then_some((a, b))
        })
    })
}

/// The second defining row `k q - e + k - 1 >= 0` of the division whose
/// first row `lo` is `e - k q >= 0`.
fn division_partner(lo: &Constraint, k: i64) -> Result<Constraint, PolyError> {
    let constant = lo
        .constant
        .checked_neg()
        .and_then(|c| c.checked_add(k - 1))
        .ok_or(PolyError::Overflow)?;
    Ok(Constraint::ineq(
        lo.coeffs.iter().map(|v| -v).collect(),
        constant,
    ))
}

impl BasicSet {
    /// An equal union of basic sets in each of which every local is an
    /// integer division of the dimensions and earlier locals, defined by its
    /// two rows (see the module docs). Exact. Cheap when the locals already
    /// are divisions (one pass over the rows); otherwise each split
    /// multiplies the disjuncts by the number of lower bounds of a local.
    /// [`PolyError::Unsupported`] when locals are defined only through each
    /// other and no exact elimination applies.
    pub fn with_division_locals(&self) -> Result<Set, PolyError> {
        let mut out = Set::empty(self.space.clone());
        let mut work = vec![Conjunction {
            n_dims: self.space.n_dim_total(),
            n_local: self.n_local,
            rows: self.constraints.clone(),
        }];
        while let Some(mut c) = work.pop() {
            let defined = c.order_divisions();
            if defined == c.n_local {
                out.push(BasicSet::from_parts(self.space.clone(), c.n_local, c.rows));
                continue;
            }
            for mut part in c.step(defined)? {
                // Splinters and splits are often empty: drop them early.
                if part.tidy() && integer_sample(part.n_cols(), &part.rows)?.is_some() {
                    work.push(part);
                }
            }
        }
        Ok(out)
    }

    /// The same set with duplicate divisions merged (two locals with the
    /// same definition) and unused divisions dropped (a local mentioned only
    /// by its own defining rows). Exact; a cheap syntactic pass, quadratic in
    /// the number of locals. Keeps intersections of complements from
    /// accumulating copies of one division.
    pub(crate) fn without_redundant_divisions(&self) -> BasicSet {
        let mut c = Conjunction {
            n_dims: self.space.n_dim_total(),
            n_local: self.n_local,
            rows: self.constraints.clone(),
        };
        while c.merge_one_division() {}
        BasicSet::from_parts(self.space.clone(), c.n_local, c.rows)
    }
}

impl Conjunction {
    /// The defining rows `(lo, hi)` of local column `col` if it is a
    /// division (of any other columns).
    fn definition(&self, col: usize) -> Option<(usize, usize)> {
        division_definition(&self.rows, col, |_| true)
    }

    /// Merge one duplicate division or drop one unused one; false if none.
    fn merge_one_division(&mut self) -> bool {
        let first = self.n_dims;
        let defs: Vec<(usize, (usize, usize))> = (first..self.n_cols())
            .filter_map(|col| self.definition(col).map(|d| (col, d)))
            .collect();
        for &(col, (lo, hi)) in &defs {
            let used = self
                .rows
                .iter()
                .enumerate()
                .any(|(r, row)| r != lo && r != hi && row.coeffs[col] != 0);
            if !used {
                let (a, b) = (lo.max(hi), lo.min(hi));
                self.rows.remove(a);
                self.rows.remove(b);
                self.drop_column(col);
                return true;
            }
        }
        for (x, &(c1, (lo1, _))) in defs.iter().enumerate() {
            for &(c2, (lo2, hi2)) in &defs[x + 1..] {
                let (r1, r2) = (&self.rows[lo1], &self.rows[lo2]);
                let same = r1.constant == r2.constant
                    && r1.coeffs[c1] == r2.coeffs[c2]
                    && r1.coeffs[c2] == 0
                    && r2.coeffs[c1] == 0
                    && (0..self.n_cols())
                        .all(|k| k == c1 || k == c2 || r1.coeffs[k] == r2.coeffs[k]);
                if !same {
                    continue;
                }
                // c2 = c1 everywhere else; its definition rows go with it.
                let (a, b) = (lo2.max(hi2), lo2.min(hi2));
                self.rows.remove(a);
                self.rows.remove(b);
                for row in &mut self.rows {
                    let v = row.coeffs[c2];
                    row.coeffs[c1] = match row.coeffs[c1].checked_add(v) {
                        Some(sum) => sum,
                        None => return false,
                    };
                    row.coeffs[c2] = 0;
                }
                self.drop_column(c2);
                return true;
            }
        }
        false
    }
}
