//! Strides and congruences: the step of a loop whose dates run on a
//! lattice (after `grain`, `stripmine`), what an equation over
//! existentials says of a date modulo its divisor, and the congruence
//! guards for a strided statement in a unit-step loop.

use super::{combine, unsupported, Scanner, Val};
use crate::emit::scan::ast::{Cond, Sum};
use crate::emit::scan::items::Item;
use crate::emit::scan::ScanError;
use crate::poly::{checked_add, checked_mul, gcd_of, BasicSet, Constraint, ConstraintKind};
use crate::scop::schedule::Mark;

impl Scanner<'_> {
    /// The stride of date `d` that the equations of the items impose, with
    /// its offset, when every item has the same one; `None` (a unit-step
    /// loop) otherwise: a strided item then gets a congruence guard at its
    /// leaf ([`Self::leaves`]).
    pub(super) fn stride(
        &self,
        kept: &[usize],
        d: usize,
        vals: &[Val],
    ) -> Result<Option<(i64, Sum)>, ScanError> {
        // A jammed loop steps through every date: `unroll_jam` proved
        // groups of consecutive dates legal (apply::marks::unroll_jam).
        if kept.iter().any(|&i| {
            self.items[i].marks[d]
                .iter()
                .any(|m| matches!(m, Mark::UnrollJam(_)))
        }) {
            return Ok(None);
        }
        let mut found: Option<(i64, Vec<i64>, i64)> = None;
        for (k, &i) in kept.iter().enumerate() {
            let s = self.item_stride(&self.items[i], d)?;
            if k == 0 {
                found = s;
            } else if s != found {
                return Ok(None);
            }
        }
        match found {
            None => Ok(None),
            Some((g, coeffs, c)) => Ok(Some((g, self.resolve(&coeffs, c, vals)?))),
        }
    }

    /// `Some((g, offset))`: an equation of `item` makes date `d` congruent
    /// to `offset` (over parameters and earlier dates) modulo `g > 1`, a
    /// stride a loop can step by. `None` also when the congruence has a
    /// date coefficient not invertible modulo `g` (`2·t ≡ f (mod 4)`):
    /// that one is only a guard ([`Self::item_congruence`]).
    pub(super) fn item_stride(
        &self,
        item: &Item,
        d: usize,
    ) -> Result<Option<(i64, Vec<i64>, i64)>, ScanError> {
        Ok(self
            .item_congruence(item, d)?
            .filter(|c| c.date_coeff == 1)
            .map(|c| (c.modulus, c.coeffs, c.constant)))
    }

    /// The congruence an equation of `item` imposes on date `d`, if any:
    /// `a·t + f + Σ b·x = 0` with `g = gcd(b) > 1` over the existentials
    /// `x` gives `a·t ≡ -f (mod g)`, and, when `a` is invertible modulo
    /// `g`, `t ≡ -a⁻¹·f (mod g)` (then `date_coeff` is 1).
    pub(super) fn item_congruence(
        &self,
        item: &Item,
        d: usize,
    ) -> Result<Option<Congruence>, ScanError> {
        let (p, _) = item.set.project_out_rational(d + 1, self.n - d - 1)?;
        let col = self.np + d;
        let rest = col + 1;
        let mut rows: Vec<Constraint> = p.constraints().to_vec();
        // Substitute away the later columns that a unit equation defines.
        while let Some((r, c)) = rows.iter().enumerate().find_map(|(r, row)| {
            (row.kind == ConstraintKind::Eq)
                .then(|| (rest..row.coeffs.len()).find(|&c| row.coeffs[c].abs() == 1))
                .flatten()
                .map(|c| (r, c))
        }) {
            let eq = rows.remove(r);
            let u = eq.coeffs[c];
            let mut next = Vec::with_capacity(rows.len());
            for row in rows {
                let b = row.coeffs[c];
                next.push(if b == 0 {
                    row
                } else {
                    combine(1, &row, checked_mul(b, u)?, &eq)?
                });
            }
            rows = next;
        }
        for row in &rows {
            if row.kind != ConstraintKind::Eq {
                continue;
            }
            let g = gcd_of(row.coeffs[rest..].iter().copied()).unwrap_or(1);
            let a = row.coeffs[col].rem_euclid(g.max(1));
            if g <= 1 || a == 0 {
                continue;
            }
            // a·t ≡ -f (mod g); times a⁻¹ when there is one. Every
            // coefficient is reduced modulo g, so none can overflow.
            let (scale, date_coeff) = match inverse_modulo(a, g) {
                Some(inv) => (-inv, 1),
                None => (-1, a),
            };
            let reduce = |v: i64| -> i64 {
                let m = i128::from(scale) * i128::from(v);
                // |m mod g| < g, which is an i64.
                i64::try_from(m.rem_euclid(i128::from(g))).unwrap_or(0)
            };
            let mut coeffs = vec![0; self.np + self.n];
            for (k, v) in row.coeffs[..col].iter().enumerate() {
                coeffs[k] = reduce(*v);
            }
            return Ok(Some(Congruence {
                modulus: g,
                date_coeff,
                coeffs,
                constant: reduce(row.constant),
            }));
        }
        Ok(None)
    }

    /// The congruence guards (`date ≡ offset (mod g)`) that make the
    /// rational guard of `item` exact under `ctx`: one per α date whose
    /// stride the enclosing loop does not step by (a strided statement
    /// sharing a unit-step loop), added until the guard is exact. An
    /// error when even all of them do not make it exact.
    pub(super) fn congruences(
        &self,
        item: &Item,
        guard: &BasicSet,
        ctx: &BasicSet,
        vals: &[Val],
    ) -> Result<Vec<Cond>, ScanError> {
        let mut conds = Vec::new();
        let mut narrowed = ctx.clone();
        for d in (1..self.n).step_by(2) {
            let Some(Congruence {
                modulus: g,
                date_coeff,
                coeffs,
                constant: c,
            }) = self.item_congruence(item, d)?
            else {
                continue;
            };
            // a·date_d - coeffs · [params | dates] - c ≡ 0 (mod g).
            let mut row = vec![0; self.np + self.n];
            for (k, v) in coeffs.iter().enumerate().take(row.len()) {
                row[k] = v.checked_neg().ok_or(crate::poly::PolyError::Overflow)?;
            }
            let col = self.np + d;
            row[col] = checked_add(row[col], date_coeff)?;
            let constant = c.checked_neg().ok_or(crate::poly::PolyError::Overflow)?;
            let mut aff = self.resolve(&row, constant, vals)?;
            aff.constant = aff.constant.rem_euclid(g);
            conds.push(Cond {
                aff,
                eq: true,
                modulo: Some(g),
                floors: Vec::new(),
                sides: None,
            });
            let e = narrowed.add_local();
            let mut with_local = vec![0; narrowed.n_cols()];
            with_local[..row.len()].copy_from_slice(&row);
            with_local[e] = -g;
            narrowed.add(Constraint::eq(with_local, constant));
            if self.guard_is_exact(item, guard, &narrowed)? {
                return Ok(conds);
            }
        }
        if let Some(conds) = self.division_guards(item, vals)? {
            return Ok(conds);
        }
        Err(unsupported(format!(
            "the dates of {} do not determine its instances exactly (an exact guard is not generated yet)",
            self.scop.statements[item.statement].name
        )))
    }
}

/// `a⁻¹ mod g` for `0 < a < g`, when `gcd(a, g) = 1`.
pub(super) fn inverse_modulo(a: i64, g: i64) -> Option<i64> {
    // Extended Euclid on (g, a): invariant r_k ≡ s_k · a (mod g).
    let (mut r0, mut r1) = (i128::from(g), i128::from(a));
    let (mut s0, mut s1) = (0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    if r0 != 1 {
        return None;
    }
    i64::try_from(s0.rem_euclid(i128::from(g))).ok()
}

/// `date_coeff · date ≡ coeffs · [params | dates] + constant (mod
/// modulus)`: what an equation over existentials says of one date.
pub(super) struct Congruence {
    modulus: i64,
    date_coeff: i64,
    coeffs: Vec<i64>,
    constant: i64,
}

#[cfg(test)]
mod tests {
    use super::inverse_modulo;

    #[test]
    fn inverse_modulo_agrees_with_search() {
        for g in 2..40i64 {
            for a in 1..g {
                let by_search = (1..g).find(|x| a * x % g == 1);
                assert_eq!(inverse_modulo(a, g), by_search, "{a} mod {g}");
            }
        }
    }
}
