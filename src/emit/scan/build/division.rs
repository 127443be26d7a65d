//! Exact guards through floors: where the rational guard of an item
//! admits dates with no instance and no stride says which, the rows of the
//! item with its iterators and existentials replaced by their floors
//! ([`super::solve`]) are the guards (`i % 4 < 2` gives `4 *
//! polyc_floord(i, 4) >= i - 1`).

use super::solve::{add_floor, Floor, Solution, Substituted};
use super::{Scanner, Val};
use crate::emit::scan::ast::Cond;
use crate::emit::scan::items::Item;
use crate::emit::scan::ScanError;
use crate::poly::{checked_add, checked_mul, lcm, ConstraintKind};

impl Scanner<'_> {
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
        let (solutions, rows) = self.solutions_and_rows(item)?;
        let mut l = 1;
        for s in &solutions {
            l = lcm(l, s.a)?;
        }
        let mut conds = Vec::new();
        for s in &solutions {
            if s.a > 1 {
                conds.push(self.modulo_cond(&s.coeffs, s.constant, &s.floors, s.a, vals)?);
            }
        }
        let solved: Vec<Option<Solution>> = solutions.iter().cloned().map(Some).collect();
        let defs = self.existential_floors(item, &solved, &rows)?;
        for d in defs.iter().flatten() {
            if d.exact && d.floor.div > 1 {
                let f = &d.floor;
                conds.push(self.modulo_cond(&f.coeffs, f.constant, &d.floors, f.div, vals)?);
            }
        }
        for row in &rows {
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
                && existentials.iter().all(|&e| {
                    defs[e]
                        .as_ref()
                        .is_some_and(|d| d.exact && d.floors.is_empty())
                });
            if defining || implied {
                continue;
            }
            // A quotient over floors, `e = (B + Σ c · floor) / k`, is
            // substituted whole in the row scaled by `k`: its floors stay
            // flat.
            let mut scale = l;
            for &e in &existentials {
                match &defs[e] {
                    Some(d) if !d.floors.is_empty() => {
                        scale = lcm(scale, checked_mul(l, d.floor.div)?)?
                    }
                    Some(_) => {}
                    None => return Ok(None),
                }
            }
            let Some(mut sub) = self.substituted(row, &solved, scale)? else {
                return Ok(None);
            };
            for &e in &existentials {
                let Some(d) = &defs[e] else {
                    return Ok(None);
                };
                let c = checked_mul(row.coeffs[first_e + e], scale)?;
                if d.floors.is_empty() {
                    add_floor(&mut sub.floors, c, &d.floor)?;
                    continue;
                }
                let t = c / d.floor.div;
                for (k, v) in d.floor.coeffs.iter().enumerate() {
                    sub.coeffs[k] = checked_add(sub.coeffs[k], checked_mul(t, *v)?)?;
                }
                sub.constant = checked_add(sub.constant, checked_mul(t, d.floor.constant)?)?;
                for (k, f) in &d.floors {
                    add_floor(&mut sub.floors, checked_mul(t, *k)?, f)?;
                }
            }
            let eq = row.kind == ConstraintKind::Eq;
            if !eq && remainder_bound_holds(&sub) {
                continue;
            }
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
                sides: None,
            };
            // A domain made disjoint repeats rows.
            if !conds.contains(&cond) {
                conds.push(cond);
            }
        }
        Ok(Some(conds))
    }

    /// `coeffs · [params | dates] + constant + Σ c · floor ≡ 0 (mod m)`
    /// as a guard.
    fn modulo_cond(
        &self,
        coeffs: &[i64],
        constant: i64,
        floors: &[(i64, Floor)],
        m: i64,
        vals: &[Val],
    ) -> Result<Cond, ScanError> {
        Ok(Cond {
            aff: self.resolve(coeffs, constant, vals)?,
            eq: true,
            modulo: Some(m),
            floors: floors
                .iter()
                .map(|(c, f)| Ok((*c, self.resolve(&f.coeffs, f.constant, vals)?, f.div)))
                .collect::<Result<_, ScanError>>()?,
            sides: None,
        })
    }
}

/// Whether `sub >= 0` holds everywhere because it is `t·(X - k·floor(X /
/// k)) + c` for its one floor `floor(X / k)`: a remainder, in `[0, k - 1]`,
/// scaled by `t` and shifted by `c`, never negative (the upper row that
/// defined an iterator as a floor, substituted).
fn remainder_bound_holds(sub: &Substituted) -> bool {
    let [(c, f)] = sub.floors.as_slice() else {
        return false;
    };
    if *c == 0 || c % f.div != 0 {
        return false;
    }
    let t = -(c / f.div);
    let scaled = |v: i64| v.checked_mul(t);
    if sub.coeffs.len() != f.coeffs.len()
        || sub
            .coeffs
            .iter()
            .zip(&f.coeffs)
            .any(|(a, b)| scaled(*b) != Some(*a))
    {
        return false;
    }
    // value = t·(X - k·floor(X / k)) + (constant - t·f.constant).
    let shift = scaled(f.constant).and_then(|v| sub.constant.checked_sub(v));
    let least = if t > 0 {
        shift
    } else {
        shift.and_then(|v| v.checked_add(t.checked_mul(f.div - 1)?))
    };
    least.is_some_and(|v| v >= 0)
}
