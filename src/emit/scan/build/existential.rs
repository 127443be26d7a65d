//! Existential variables as functions of the dates, exactly: a floor
//! `e = floor(B / k)` that two rows `B - w <= k·e <= B` (`0 <= w < k`)
//! bound, an exact quotient `e = B / k` under an equation `k·e = B`, and
//! an exact quotient over other existentials' floors, `e = (B + Σ c ·
//! floor) / k` (a strided loop that starts at `ceild(i, 2)`, a guard `(i
//! + j / 2) % 3 == 0`). Exact guards ([`super::division`]) and iterators
//! solved through floors ([`super::solve`]) read them.

use super::solve::{add_floor, Definition, Floor, Solution};
use super::Scanner;
use crate::emit::scan::items::Item;
use crate::emit::scan::ScanError;
use crate::poly::{checked_add, checked_mul, gcd_of, lcm, Constraint, ConstraintKind};

impl Scanner<'_> {
    /// Each existential of `item` (whose rows are `rows`) that is a floor
    /// (or an exact quotient) of an affine form of the dates, given the
    /// iterators solved so far without floors. Equations first (`k·e =
    /// B`: `e = B / k`), then pairs of inequalities `B - w <= k·e <= B`
    /// with `0 <= w < k` (`e = floor(B / k)`; the lower row defines it
    /// too when `w = k - 1`, else it stays a guard: `5e >= c1 - 3` says
    /// `c1 mod 5 <= 3`).
    pub(super) fn existential_floors(
        &self,
        item: &Item,
        solved: &[Option<Solution>],
        rows: &[Constraint],
    ) -> Result<Vec<Option<Definition>>, ScanError> {
        let first_e = self.np + self.n + item.n_iter;
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
                // The upper row is the lower one negated, plus the width
                // `w` (the two constants' sum), `0 <= w <= k - 1`.
                let Some(y) = rows.iter().position(|u| {
                    u.kind == ConstraintKind::Ineq
                        && u.coeffs.iter().zip(&row.coeffs).all(|(a, b)| *a == -*b)
                        && row
                            .constant
                            .checked_add(u.constant)
                            .is_some_and(|w| (0..k).contains(&w))
                }) else {
                    continue;
                };
                let whole = checked_add(row.constant, rows[y].constant)? == k - 1;
                (rows[y].clone(), Some((y, whole)))
            } else {
                continue;
            };
            // e = floor(B / |k|) = floor(L·B / (L·|k|)), L·B over dates.
            let Some(sub) = self.substituted(&b_row, solved, scale)? else {
                continue;
            };
            let (mut b, mut bk, mut div) = match sub.floors.as_slice() {
                [] => (sub.coeffs, sub.constant, checked_mul(k.abs(), scale)?),
                // B = floor(X / a) + M (M affine): floor(B / k) = floor((X +
                // a·M) / (a·k)), one floor again. Not for an exact
                // quotient, whose divisibility guard is on B itself.
                [(1, f)] if scale == 1 && upper.is_some() => {
                    let mut b = Vec::with_capacity(f.coeffs.len());
                    for (x, m) in f.coeffs.iter().zip(&sub.coeffs) {
                        b.push(checked_add(*x, checked_mul(f.div, *m)?)?);
                    }
                    let bk = checked_add(f.constant, checked_mul(f.div, sub.constant)?)?;
                    (b, bk, checked_mul(f.div, k.abs())?)
                }
                _ => continue,
            };
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
                floors: Vec::new(),
                exact: upper.is_none(),
                rows: match upper {
                    None | Some((_, true)) => {
                        std::iter::once(x).chain(upper.map(|u| u.0)).collect()
                    }
                    Some((y, false)) => vec![y],
                },
            });
        }
        self.quotients_over_floors(solved, rows, first_e, scale, &mut defs)?;
        Ok(defs)
    }

    /// Adds to `defs` each existential `e` that an equation `k·e = B + Σ
    /// c·q` defines once its other existentials `q` are floors (a strided
    /// loop that starts at `ceild(i, 2)`, a guard `(i + j / 2) % 3 ==
    /// 0`): an exact quotient whose numerator has floors; repeated while
    /// that defines more.
    fn quotients_over_floors(
        &self,
        solved: &[Option<Solution>],
        rows: &[Constraint],
        first_e: usize,
        scale: i64,
        defs: &mut [Option<Definition>],
    ) -> Result<(), ScanError> {
        let mut progress = true;
        while progress {
            progress = false;
            for (x, row) in rows.iter().enumerate() {
                // An equation, or a pair of rows that says one (`3e <= i
                // + q` and `3e >= i + q`, as `%` extracts it).
                let pair = (row.kind == ConstraintKind::Ineq)
                    .then(|| {
                        rows.iter().position(|u| {
                            u.kind == ConstraintKind::Ineq
                                && u.coeffs.iter().zip(&row.coeffs).all(|(a, b)| *a == -*b)
                                && row.constant.checked_add(u.constant) == Some(0)
                        })
                    })
                    .flatten();
                if row.kind != ConstraintKind::Eq && pair.is_none() {
                    continue;
                }
                let read: Vec<usize> = (first_e..row.coeffs.len())
                    .filter(|&c| row.coeffs[c] != 0)
                    .collect();
                let mut undefined = read.iter().filter(|&&c| defs[c - first_e].is_none());
                let (Some(&e), None) = (undefined.next(), undefined.next()) else {
                    continue;
                };
                // Floors of floors are not printed: every other one must
                // be a plain floor.
                if read.iter().any(|&c| {
                    c != e
                        && defs[c - first_e]
                            .as_ref()
                            .is_some_and(|d| !d.floors.is_empty())
                }) {
                    continue;
                }
                // k·e + R = 0: B = -sign(k)·R over |k|, existentials left
                // out of `substituted` and added as their floors.
                let k = row.coeffs[e];
                let sign = if k > 0 { -1 } else { 1 };
                let Some(sub) = self.substituted(row, solved, scale)? else {
                    continue;
                };
                let mut floors = Vec::new();
                for &c in read.iter().filter(|&&c| c != e) {
                    if let Some(d) = &defs[c - first_e] {
                        add_floor(&mut floors, checked_mul(row.coeffs[c], scale)?, &d.floor)?;
                    }
                }
                for (c, f) in &sub.floors {
                    add_floor(&mut floors, *c, f)?;
                }
                let flip = |v: i64| checked_mul(v, sign);
                let mut b: Vec<i64> = sub
                    .coeffs
                    .iter()
                    .map(|&v| flip(v))
                    .collect::<Result<_, _>>()?;
                let mut bk = flip(sub.constant)?;
                let mut div = checked_mul(k.abs(), scale)?;
                for f in &mut floors {
                    f.0 = flip(f.0)?;
                }
                let g = gcd_of(
                    b.iter()
                        .chain(floors.iter().map(|f| &f.0))
                        .copied()
                        .chain([bk, div]),
                )
                .unwrap_or(1)
                .max(1);
                b.iter_mut().for_each(|v| *v /= g);
                bk /= g;
                div /= g;
                floors.iter_mut().for_each(|f| f.0 /= g);
                defs[e - first_e] = Some(Definition {
                    floor: Floor {
                        coeffs: b,
                        constant: bk,
                        div,
                    },
                    floors,
                    exact: true,
                    rows: std::iter::once(x).chain(pair).collect(),
                });
                progress = true;
            }
        }
        Ok(())
    }
}
