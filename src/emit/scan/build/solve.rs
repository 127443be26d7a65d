//! Iterators as functions of the dates, exactly: the values the leaves
//! print, and the floors that exact guards ([`super::division`]) need.
//!
//! An iterator is usually fixed by the equations of its item once the
//! existentials are projected out (Gauss–Jordan on the iterator columns):
//! `i = (A · [params | dates] + k) / a`. An iterator that no projected
//! equation fixes may still be fixed by an equation of the item through
//! existentials that are floors or exact quotients of solved values
//! ([`super::existential`]): it gets their floors as terms (`i = c3 + 64
//! · floor(t / 32)` after `stripmine`, a `skew` by the tile loop and
//! `linearize`), or by such a pair of rows itself (`i = floor((4·c1 + 3) /
//! 5)` after a `linearize` that leaves no existential). Before floors are
//! looked for, an unsolved iterator that a unit equation fixes is
//! substituted out of the other rows. Floors are never nested: a floor's
//! numerator is affine in the dates (`floor(floor(X / a) / k)` is written
//! `floor(X / (a·k))`).

use super::{combine, unsupported, Scanner};
use crate::emit::scan::items::Item;
use crate::emit::scan::ScanError;
use crate::poly::{checked_add, checked_mul, gcd_of, lcm, BasicSet, Constraint, ConstraintKind};

/// `floor((coeffs · [params | dates] + constant) / div)`, `div > 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Floor {
    pub coeffs: Vec<i64>,
    pub constant: i64,
    pub div: i64,
}

/// `(coeffs · [params | dates] + constant + Σ c · floor) / a` over
/// `floors` `(c, floor)`, `a > 0`: an iterator's value, an exact division
/// wherever the item has an instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Solution {
    pub coeffs: Vec<i64>,
    pub constant: i64,
    pub floors: Vec<(i64, Floor)>,
    pub a: i64,
    /// Whether the solution holds on the rational relaxation of the item
    /// too (it comes from the equations the item states): then the
    /// rational guard implies every row it satisfies. One drawn from
    /// equations that only the integer points imply, or through floors,
    /// holds on the instances alone.
    pub rational: bool,
}

/// An existential variable as a floor of the dates
/// ([`super::existential`] finds them).
pub(super) struct Definition {
    pub floor: Floor,
    /// The floors in the numerator of an exact quotient `e = (B + Σ c ·
    /// floor) / k` (`floor` holds `B / k`), whose equation reads other
    /// existentials (`(i + j / 2) % 3 == 0`); empty for every other
    /// definition. Floors are never nested: a guard reads such an
    /// existential as its numerator, in a row scaled by `k`, and no
    /// iterator is solved through one.
    pub floors: Vec<(i64, Floor)>,
    /// An equation `k·e = B` defines it: `B` is a multiple of `k`.
    pub exact: bool,
    /// The rows of the item that define it.
    pub rows: Vec<usize>,
}

/// `scale · row` with the iterators replaced by their solutions and the
/// existentials left out, over `[params | dates]`, plus the floors the
/// solutions bring.
pub(super) struct Substituted {
    pub coeffs: Vec<i64>,
    pub constant: i64,
    pub floors: Vec<(i64, Floor)>,
}

/// Column `col` substituted out of every row of `rows` but `rows[p]`, an
/// equation with a unit coefficient there. Exact.
fn substitute_out(rows: &mut [Constraint], p: usize, col: usize) -> Result<(), ScanError> {
    let pivot = rows[p].clone();
    for (y, row) in rows.iter_mut().enumerate() {
        if y != p && row.coeffs[col] != 0 {
            // row - (b / a)·pivot, a = ±1: a positive multiple of the
            // row, so an inequality keeps its direction.
            let f = checked_mul(row.coeffs[col], pivot.coeffs[col])?;
            *row = combine(1, row, f, &pivot)?;
        }
    }
    Ok(())
}

/// `Σ floors + c · f`, equal floors merged, zero terms dropped.
pub(super) fn add_floor(
    floors: &mut Vec<(i64, Floor)>,
    c: i64,
    f: &Floor,
) -> Result<(), ScanError> {
    if let Some(t) = floors.iter_mut().find(|t| t.1 == *f) {
        t.0 = checked_add(t.0, c)?;
    } else {
        floors.push((c, f.clone()));
    }
    floors.retain(|t| t.0 != 0);
    Ok(())
}

impl Scanner<'_> {
    /// Each iterator of `item`, exactly wherever the item has an
    /// instance; an error when the dates do not fix one.
    pub(super) fn iterator_solutions(&self, item: &Item) -> Result<Vec<Solution>, ScanError> {
        Ok(self.solutions_and_rows(item)?.0)
    }

    /// The iterators' solutions, and the rows of `item` they were read
    /// from: its own, or, where an iterator needed floors, the same
    /// conjunction with each such iterator that a unit equation fixes
    /// substituted out of every other row (linearize after a skew by the
    /// tile loop: `c1 = i + e`, `4e <= i <= 4e + 3` becomes `5e <= c1 <=
    /// 5e + 3`, which defines `e = floor(c1 / 5)`).
    pub(super) fn solutions_and_rows(
        &self,
        item: &Item,
    ) -> Result<(Vec<Solution>, Vec<Constraint>), ScanError> {
        let mut solved = self.projected_solutions(item, &item.set)?;
        if solved.iter().any(Option::is_none) {
            // An equation that the rows imply only together (`0 <= i <=
            // 0` after a `peel`) fixes an iterator too.
            let explicit = item.set.detect_equalities()?;
            self.solve_implied(item, &explicit, &mut solved)?;
        }
        let mut rows = item.set.constraints().to_vec();
        if solved.iter().any(Option::is_none) {
            rows = self.unsolved_substituted(item, &solved, rows)?;
            let defs = self.existential_floors(item, &solved, &rows)?;
            loop {
                self.solve_through_floors(item, &mut solved, &defs, &rows)?;
                if !self.solve_by_pairs(item, &mut solved, &rows)? {
                    break;
                }
            }
        }
        if solved.iter().any(Option::is_none) {
            // The recipe's context may fix it: `n - 3 <= i <= (n - 1) / 3`
            // holds one instance, `i = 1`, under `n >= 4` only (a
            // `reshape` that dates every instance 0 was legal there; the
            // code runs under the context alone).
            let within = self.under_context(&item.set)?;
            self.solve_implied(item, &within, &mut solved)?;
        }
        let solutions = solved
            .into_iter()
            .enumerate()
            .map(|(j, s)| {
                s.ok_or_else(|| {
                    let st = &self.scop.statements[item.statement];
                    unsupported(format!(
                        "the schedule of {} does not determine its iterator {}",
                        st.name, st.iterators[j]
                    ))
                })
            })
            .collect::<Result<_, _>>()?;
        Ok((solutions, rows))
    }

    /// Each iterator `solved` leaves free, solved from the equations of
    /// `set` (the item's rows, with equations they imply made explicit):
    /// the solution holds on the instances, not on the rational
    /// relaxation of the item's own rows.
    fn solve_implied(
        &self,
        item: &Item,
        set: &BasicSet,
        solved: &mut [Option<Solution>],
    ) -> Result<(), ScanError> {
        for (old, new) in solved.iter_mut().zip(self.projected_solutions(item, set)?) {
            if old.is_none() {
                *old = new.map(|s| Solution {
                    rational: false,
                    ..s
                });
            }
        }
        Ok(())
    }

    /// `set` and the scop's context (rows over the parameters), its
    /// equalities made explicit.
    fn under_context(&self, set: &BasicSet) -> Result<BasicSet, ScanError> {
        let mut within = set.clone();
        let context = &self.scop.context;
        if context.n_local() == 0 && context.space().n_param() == self.np {
            for c in context.constraints() {
                within.add(c.clone());
            }
        }
        Ok(within.detect_equalities()?)
    }

    /// `rows` with each parameter that an equation of them fixes alone
    /// (`BS = 4`: a macro the file fixes, or a recipe's `context`), then
    /// each unsolved iterator that an equation fixes with a unit
    /// coefficient (and no other unsolved iterator), substituted out of
    /// every other row. Exact: the rows have the same integer points. A
    /// fixed parameter's value lets a pair of rows define a floor
    /// (`jj <= j <= jj + BS - 1`, `jj` a multiple of 4: `jj = 4 ·
    /// floor(j / 4)` after `linearize` of a loop strip-mined by hand with
    /// a macro step; seed 3232).
    fn unsolved_substituted(
        &self,
        item: &Item,
        solved: &[Option<Solution>],
        mut rows: Vec<Constraint>,
    ) -> Result<Vec<Constraint>, ScanError> {
        for col in 0..self.np {
            let Some(p) = rows.iter().position(|r| {
                r.kind == ConstraintKind::Eq
                    && r.coeffs[col].abs() == 1
                    && r.coeffs
                        .iter()
                        .enumerate()
                        .all(|(c, &v)| c == col || v == 0)
            }) else {
                continue;
            };
            substitute_out(&mut rows, p, col)?;
        }
        let base = self.np + self.n;
        for j in 0..item.n_iter {
            if solved[j].is_some() {
                continue;
            }
            let col = base + j;
            let Some(p) = rows.iter().position(|r| {
                r.kind == ConstraintKind::Eq
                    && r.coeffs[col].abs() == 1
                    && (0..item.n_iter)
                        .all(|k| k == j || solved[k].is_some() || r.coeffs[base + k] == 0)
            }) else {
                continue;
            };
            substitute_out(&mut rows, p, col)?;
        }
        Ok(rows)
    }

    /// The iterators that the equations of `set` (the set of `item`, or
    /// the same set with more of its equations explicit) fix once its
    /// existentials are projected out (rationally; an equation is
    /// substituted exactly), by Gauss–Jordan on the iterator columns.
    fn projected_solutions(
        &self,
        item: &Item,
        set: &BasicSet,
    ) -> Result<Vec<Option<Solution>>, ScanError> {
        let m = item.n_iter;
        let (p, _) = set.project_out_rational(self.n + m, self.total(item) - self.n - m)?;
        let mut rows: Vec<Constraint> = p
            .constraints()
            .iter()
            .filter(|c| c.kind == ConstraintKind::Eq)
            .cloned()
            .collect();
        let base = self.np + self.n;
        let mut pivots: Vec<Option<usize>> = vec![None; m];
        for j in 0..m {
            let c = base + j;
            let Some(r) =
                (0..rows.len()).find(|r| !pivots.contains(&Some(*r)) && rows[*r].coeffs[c] != 0)
            else {
                continue;
            };
            let p = rows[r].clone();
            for (k, row) in rows.iter_mut().enumerate() {
                if k != r && row.coeffs[c] != 0 {
                    *row = combine(p.coeffs[c], row, row.coeffs[c], &p)?;
                }
            }
            pivots[j] = Some(r);
        }
        let mut out = Vec::with_capacity(m);
        for (j, pivot) in pivots.iter().enumerate() {
            // A pivot row that still has an unfixed iterator fixes nothing.
            let solution = match pivot {
                Some(r) if (0..m).all(|k| k == j || rows[*r].coeffs[base + k] == 0) => {
                    let row = &rows[*r];
                    let sub = Substituted {
                        coeffs: row.coeffs[..base].to_vec(),
                        constant: row.constant,
                        floors: Vec::new(),
                    };
                    Some(solved_for(sub, row.coeffs[base + j])?)
                }
                _ => None,
            };
            out.push(solution);
        }
        Ok(out)
    }

    /// Iterators still unsolved, each from an equation of `item` whose
    /// other iterators are solved and whose existentials are floors;
    /// repeated while that solves more.
    fn solve_through_floors(
        &self,
        item: &Item,
        solved: &mut [Option<Solution>],
        defs: &[Option<Definition>],
        rows: &[Constraint],
    ) -> Result<(), ScanError> {
        let base = self.np + self.n;
        let first_e = base + item.n_iter;
        let mut progress = true;
        while progress {
            progress = false;
            for j in 0..item.n_iter {
                if solved[j].is_some() {
                    continue;
                }
                let usable = |row: &&Constraint| {
                    row.kind == ConstraintKind::Eq
                        && row.coeffs[base + j] != 0
                        && (0..item.n_iter)
                            .all(|k| k == j || row.coeffs[base + k] == 0 || solved[k].is_some())
                        && row.coeffs[first_e..].iter().zip(defs).all(|(&c, d)| {
                            c == 0 || d.as_ref().is_some_and(|d| d.floors.is_empty())
                        })
                };
                let Some(row) = rows.iter().find(usable) else {
                    continue;
                };
                // The row without iterator j: a·i_j + rest = 0.
                let mut rest = row.clone();
                rest.coeffs[base + j] = 0;
                let mut scale = 1;
                for (k, s) in solved.iter().enumerate() {
                    if let Some(s) = s {
                        if rest.coeffs[base + k] != 0 {
                            scale = lcm(scale, s.a)?;
                        }
                    }
                }
                let Some(mut sub) = self.substituted(&rest, solved, scale)? else {
                    continue;
                };
                for (e, &c) in row.coeffs[first_e..].iter().enumerate() {
                    if let (true, Some(d)) = (c != 0, &defs[e]) {
                        add_floor(&mut sub.floors, checked_mul(c, scale)?, &d.floor)?;
                    }
                }
                let a = checked_mul(row.coeffs[base + j], scale)?;
                // Through floors (or iterators solved on the integer
                // points only), a solution holds on the instances alone.
                solved[j] = Some(Solution {
                    rational: false,
                    ..solved_for(sub, a)?
                });
                progress = true;
            }
        }
        Ok(())
    }

    /// Iterators still unsolved that a pair of rows `B - w <= k·i <= B`
    /// (`0 <= w < k`, no existential, every other iterator solved
    /// without floors) fixes: `i = floor(B / k)` (linearize after a skew
    /// by the tile loop: `4·c1 <= 5·i <= 4·c1 + 3`, `i = floor((4·c1 +
    /// 3) / 5)`). The lower row stays a guard (`division_guards`).
    /// Whether one was solved.
    fn solve_by_pairs(
        &self,
        item: &Item,
        solved: &mut [Option<Solution>],
        rows: &[Constraint],
    ) -> Result<bool, ScanError> {
        let base = self.np + self.n;
        let first_e = base + item.n_iter;
        let mut progress = false;
        for j in 0..item.n_iter {
            if solved[j].is_some() {
                continue;
            }
            let col = base + j;
            let plain = |r: &Constraint| {
                r.kind == ConstraintKind::Ineq
                    && r.coeffs[first_e..].iter().all(|&v| v == 0)
                    && (0..item.n_iter).all(|k| {
                        k == j
                            || r.coeffs[base + k] == 0
                            || solved[k].as_ref().is_some_and(|s| s.floors.is_empty())
                    })
            };
            let pair = rows.iter().find_map(|lower| {
                let k = lower.coeffs[col];
                if k <= 0 || !plain(lower) {
                    return None;
                }
                rows.iter().find(|u| {
                    plain(u)
                        && u.coeffs.iter().zip(&lower.coeffs).all(|(a, b)| *a == -*b)
                        && lower
                            .constant
                            .checked_add(u.constant)
                            .is_some_and(|w| (0..k).contains(&w))
                })
            });
            let Some(upper) = pair else {
                continue;
            };
            // upper: -k·i + B >= 0.
            let k = upper.coeffs[col]
                .checked_neg()
                .ok_or(crate::poly::PolyError::Overflow)?;
            let mut rest = upper.clone();
            rest.coeffs[col] = 0;
            let mut scale = 1;
            for s in solved.iter().flatten() {
                scale = lcm(scale, s.a)?;
            }
            let Some(sub) = self.substituted(&rest, solved, scale)? else {
                continue;
            };
            if !sub.floors.is_empty() {
                continue;
            }
            let div = checked_mul(k, scale)?;
            let g = gcd_of(sub.coeffs.iter().copied().chain([sub.constant, div]))
                .unwrap_or(1)
                .max(1);
            let floor = Floor {
                coeffs: sub.coeffs.iter().map(|v| v / g).collect(),
                constant: sub.constant / g,
                div: div / g,
            };
            solved[j] = Some(Solution {
                coeffs: vec![0; base],
                constant: 0,
                floors: vec![(1, floor)],
                a: 1,
                rational: false,
            });
            progress = true;
        }
        Ok(progress)
    }

    /// `scale · row` over `[params | dates]` with each iterator replaced by
    /// its solution (`scale` a multiple of the solutions' divisors) and
    /// the existentials left out; `None` when the row has an unsolved
    /// iterator.
    pub(super) fn substituted(
        &self,
        row: &Constraint,
        solved: &[Option<Solution>],
        scale: i64,
    ) -> Result<Option<Substituted>, ScanError> {
        let base = self.np + self.n;
        let mut out = Substituted {
            coeffs: row.coeffs[..base]
                .iter()
                .map(|v| checked_mul(*v, scale))
                .collect::<Result<_, _>>()?,
            constant: checked_mul(row.constant, scale)?,
            floors: Vec::new(),
        };
        for (j, s) in solved.iter().enumerate() {
            let c = row.coeffs[base + j];
            if c == 0 {
                continue;
            }
            let Some(s) = s else {
                return Ok(None);
            };
            let f = checked_mul(c, scale / s.a)?;
            for (k, v) in s.coeffs.iter().enumerate() {
                out.coeffs[k] = checked_add(out.coeffs[k], checked_mul(f, *v)?)?;
            }
            out.constant = checked_add(out.constant, checked_mul(f, s.constant)?)?;
            for (c, floor) in &s.floors {
                add_floor(&mut out.floors, checked_mul(f, *c)?, floor)?;
            }
        }
        Ok(Some(out))
    }
}

/// `a·i + sub = 0` solved for `i`: `i = -sub / a`, reduced by the gcd of
/// every coefficient, the divisor positive; marked as holding on the
/// rational relaxation (a caller with an integer-only equation says
/// otherwise).
fn solved_for(sub: Substituted, a: i64) -> Result<Solution, ScanError> {
    let values = sub
        .coeffs
        .iter()
        .chain(sub.floors.iter().map(|(c, _)| c))
        .copied()
        .chain([sub.constant, a]);
    let g = gcd_of(values).unwrap_or(1).max(1);
    // a·i + rest = 0  ⇒  i = -rest / a.
    let s = if a > 0 { -1 } else { 1 };
    let scaled = |v: i64| checked_mul(v / g, s);
    Ok(Solution {
        coeffs: sub
            .coeffs
            .iter()
            .map(|&v| scaled(v))
            .collect::<Result<_, _>>()?,
        constant: scaled(sub.constant)?,
        floors: sub
            .floors
            .iter()
            .map(|(c, f)| Ok((scaled(*c)?, f.clone())))
            .collect::<Result<_, ScanError>>()?,
        a: (a / g)
            .checked_abs()
            .ok_or(crate::poly::PolyError::Overflow)?,
        rational: true,
    })
}
