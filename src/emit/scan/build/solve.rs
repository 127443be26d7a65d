//! Iterators and existential variables as functions of the dates, exactly:
//! the values the leaves print and the divisions that exact guards need.
//!
//! An iterator is usually fixed by the equations of its item once the
//! existentials are projected out (Gauss–Jordan on the iterator columns):
//! `i = (A · [params | dates] + k) / a`. An existential is a *floor* of
//! solved values when two rows `k·e ≥ B - (k - 1)` and `k·e ≤ B` bound it
//! (`e = floor(B / k)`), or an *exact quotient* under an equation `k·e = B`.
//! An iterator that no projected equation fixes may still be fixed by an
//! equation of the item through such existentials: it gets their floors
//! as terms (`i = c3 + 64 · floor(t / 32)` after `stripmine`, a `skew` by
//! the tile loop and `linearize`). Floors are never nested: a floor's
//! numerator is affine in the dates.

use super::{combine, unsupported, Scanner, Val};
use crate::emit::scan::ast::Cond;
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

/// An existential variable as a floor of the dates.
struct Definition {
    floor: Floor,
    /// An equation `k·e = B` defines it: `B` is a multiple of `k`.
    exact: bool,
    /// The rows of the item that define it.
    rows: Vec<usize>,
}

/// `scale · row` with the iterators replaced by their solutions and the
/// existentials left out, over `[params | dates]`, plus the floors the
/// solutions bring.
struct Substituted {
    coeffs: Vec<i64>,
    constant: i64,
    floors: Vec<(i64, Floor)>,
}

/// `Σ floors + c · f`, equal floors merged, zero terms dropped.
fn add_floor(floors: &mut Vec<(i64, Floor)>, c: i64, f: &Floor) -> Result<(), ScanError> {
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
        let mut solved = self.projected_solutions(item, &item.set)?;
        if solved.iter().any(Option::is_none) {
            // An equation that the rows imply only together (`0 <= i <=
            // 0` after a `peel`) fixes an iterator too.
            let explicit = item.set.detect_equalities()?;
            for (old, new) in solved
                .iter_mut()
                .zip(self.projected_solutions(item, &explicit)?)
            {
                if old.is_none() {
                    *old = new.map(|s| Solution {
                        rational: false,
                        ..s
                    });
                }
            }
        }
        if solved.iter().any(Option::is_none) {
            let defs = self.existential_floors(item, &solved)?;
            self.solve_through_floors(item, &mut solved, &defs)?;
        }
        solved
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
            .collect()
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
    ) -> Result<(), ScanError> {
        let base = self.np + self.n;
        let first_e = base + item.n_iter;
        let rows = item.set.constraints();
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
                        && row.coeffs[first_e..]
                            .iter()
                            .zip(defs)
                            .all(|(&c, d)| c == 0 || d.is_some())
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

    /// `scale · row` over `[params | dates]` with each iterator replaced by
    /// its solution (`scale` a multiple of the solutions' divisors) and
    /// the existentials left out; `None` when the row has an unsolved
    /// iterator.
    fn substituted(
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

    /// Each existential of `item` that is a floor (or an exact quotient)
    /// of an affine form of the dates, given the iterators solved so far
    /// without floors. Equations first (`k·e = B`: `e = B / k`), then
    /// pairs of inequalities (`e = floor(B / k)`).
    fn existential_floors(
        &self,
        item: &Item,
        solved: &[Option<Solution>],
    ) -> Result<Vec<Option<Definition>>, ScanError> {
        let first_e = self.np + self.n + item.n_iter;
        let rows = item.set.constraints();
        let mut scale = 1;
        for s in solved.iter().flatten() {
            scale = lcm(scale, s.a)?;
        }
        let mut defs: Vec<Option<Definition>> = Vec::new();
        defs.resize_with(item.set.n_cols() - first_e, || None);
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_by_key(|&x| rows[x].kind != ConstraintKind::Eq);
        for x in order {
            let row = &rows[x];
            let mut existentials = (first_e..row.coeffs.len()).filter(|&c| row.coeffs[c] != 0);
            let (Some(e), None) = (existentials.next(), existentials.next()) else {
                continue;
            };
            let k = row.coeffs[e];
            if defs[e - first_e].is_some() {
                continue;
            }
            let (b_row, upper) = if row.kind == ConstraintKind::Eq {
                // k·e + R = 0: B = -sign(k)·R over |k|.
                let sign = if k > 0 { -1 } else { 1 };
                let negated = Constraint {
                    kind: row.kind,
                    coeffs: row
                        .coeffs
                        .iter()
                        .map(|v| checked_mul(*v, sign))
                        .collect::<Result<_, _>>()?,
                    constant: checked_mul(row.constant, sign)?,
                };
                (negated, None)
            } else if k > 0 {
                // The upper row is the lower one negated, plus k - 1.
                let upper_constant = checked_add(k - 1, -row.constant)?;
                let Some(y) = rows.iter().position(|u| {
                    u.kind == ConstraintKind::Ineq
                        && u.constant == upper_constant
                        && u.coeffs.iter().zip(&row.coeffs).all(|(a, b)| *a == -*b)
                }) else {
                    continue;
                };
                (rows[y].clone(), Some(y))
            } else {
                continue;
            };
            // e = floor(B / |k|) = floor(L·B / (L·|k|)), L·B over dates.
            let Some(sub) = self.substituted(&b_row, solved, scale)? else {
                continue;
            };
            if !sub.floors.is_empty() {
                continue;
            }
            let (mut b, mut bk) = (sub.coeffs, sub.constant);
            let mut div = checked_mul(k.abs(), scale)?;
            // floor(g·x / (g·d)) = floor(x / d), and g·x ≡ 0 (mod g·d)
            // when x ≡ 0 (mod d).
            let g = gcd_of(b.iter().copied().chain([bk, div]))
                .unwrap_or(1)
                .max(1);
            b.iter_mut().for_each(|v| *v /= g);
            bk /= g;
            div /= g;
            defs[e - first_e] = Some(Definition {
                floor: Floor {
                    coeffs: b,
                    constant: bk,
                    div,
                },
                exact: upper.is_none(),
                rows: std::iter::once(x).chain(upper).collect(),
            });
        }
        Ok(defs)
    }

    /// Guards that make the rational guard of `item` exact when each of
    /// its existentials is a floor (or an exact quotient): every row with
    /// a floor existential, or with an iterator whose solution has
    /// floors, becomes a guard with those floors (`i % 4 < 2` gives `4 *
    /// polyc_floord(i, 4) >= i - 1`), rows scaled by the lcm `L` of the
    /// solutions' divisors; a guard `A ≡ 0 (mod a)` says a division is
    /// exact. With the rational guard (which holds every other row: an
    /// equation is substituted exactly) these are exact; `None` when an
    /// existential is not such a floor.
    pub(super) fn division_guards(
        &self,
        item: &Item,
        vals: &[Val],
    ) -> Result<Option<Vec<Cond>>, ScanError> {
        let base = self.np + self.n;
        let first_e = base + item.n_iter;
        let solutions = self.iterator_solutions(item)?;
        let mut l = 1;
        for s in &solutions {
            l = lcm(l, s.a)?;
        }
        let mut conds = Vec::new();
        for s in &solutions {
            if s.a > 1 {
                if !s.floors.is_empty() {
                    return Ok(None);
                }
                conds.push(self.modulo_cond(&s.coeffs, s.constant, s.a, vals)?);
            }
        }
        let solved: Vec<Option<Solution>> = solutions.iter().cloned().map(Some).collect();
        let defs = self.existential_floors(item, &solved)?;
        for d in defs.iter().flatten() {
            if d.exact && d.floor.div > 1 {
                let f = &d.floor;
                conds.push(self.modulo_cond(&f.coeffs, f.constant, f.div, vals)?);
            }
        }
        let rows = item.set.constraints();
        for row in rows {
            let existentials: Vec<usize> = (0..defs.len())
                .filter(|&e| row.coeffs[first_e + e] != 0)
                .collect();
            let integer_only =
                (0..item.n_iter).any(|j| row.coeffs[base + j] != 0 && !solutions[j].rational);
            // A row equal to a defining one (a domain made disjoint
            // repeats rows) is defining too.
            let defining = defs
                .iter()
                .flatten()
                .any(|d| d.rows.iter().any(|&y| rows[y] == *row));
            // A row whose existentials are all exact quotients and whose
            // iterators are solved on the rational relaxation too is
            // implied by the rational guard: projecting substitutes an
            // equation exactly, and the quotients' guards make them
            // integers.
            let implied = !integer_only
                && existentials
                    .iter()
                    .all(|&e| defs[e].as_ref().is_some_and(|d| d.exact));
            if defining || implied {
                continue;
            }
            let Some(mut sub) = self.substituted(row, &solved, l)? else {
                return Ok(None);
            };
            for &e in &existentials {
                let Some(d) = &defs[e] else {
                    return Ok(None);
                };
                add_floor(
                    &mut sub.floors,
                    checked_mul(row.coeffs[first_e + e], l)?,
                    &d.floor,
                )?;
            }
            let eq = row.kind == ConstraintKind::Eq;
            // The equation that fixed an iterator through floors is now
            // `0 = 0`.
            if sub.floors.is_empty() && sub.coeffs.iter().all(|&v| v == 0) {
                let holds = if eq {
                    sub.constant == 0
                } else {
                    sub.constant >= 0
                };
                if holds {
                    continue;
                }
            }
            let cond = Cond {
                aff: self.resolve(&sub.coeffs, sub.constant, vals)?,
                eq,
                modulo: None,
                floors: sub
                    .floors
                    .iter()
                    .map(|(c, f)| Ok((*c, self.resolve(&f.coeffs, f.constant, vals)?, f.div)))
                    .collect::<Result<_, ScanError>>()?,
            };
            // A domain made disjoint repeats rows.
            if !conds.contains(&cond) {
                conds.push(cond);
            }
        }
        Ok(Some(conds))
    }

    /// `coeffs · [params | dates] + constant ≡ 0 (mod m)` as a guard.
    fn modulo_cond(
        &self,
        coeffs: &[i64],
        constant: i64,
        m: i64,
        vals: &[Val],
    ) -> Result<Cond, ScanError> {
        Ok(Cond {
            aff: self.resolve(coeffs, constant, vals)?,
            eq: true,
            modulo: Some(m),
            floors: Vec::new(),
        })
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
