//! One system's unit equalities substituted once, for many questions that
//! add rows to it: [`Substituted`].
//!
//! A legality check asks the Omega test many questions that share most of
//! their rows: one dependence with one pair of schedule pieces, then one
//! comparison level's rows added. Most of the columns of such a system are
//! dates that an equality with a unit coefficient fixes (`c3 = 2t + i`,
//! `c0 = 0`), and the Omega test would substitute them again in every
//! question. [`Substituted::new`] does it once: each such column becomes an
//! affine form of the columns left, the other rows are rewritten over
//! those, and each question's rows are rewritten the same way before the
//! Omega test samples them.
//!
//! Exact: where `a·x_j + r = 0` is a row and `a = ±1`, the integer points
//! of the system are those of the rewritten rows over the other columns,
//! with `x_j = -a·r` (an integer wherever the others are). A contradiction
//! found while substituting (`0 = 3`, `0 >= 1`) is an empty system.
//! Coefficient arithmetic is checked: an overflow is an error, never
//! wrapped.

use super::{checked_add, checked_mul, omega, Constraint, ConstraintKind, PolyError};

/// How one column of the original system is found again.
#[derive(Clone, Debug)]
enum Column {
    /// It is still a column: its index among those left.
    Kept(usize),
    /// It was substituted: this affine form of the columns left.
    Defined { coeffs: Vec<i64>, constant: i64 },
}

/// A system over `n` columns with its unit equalities substituted away
/// (module docs). Built once, asked many times.
#[derive(Clone, Debug)]
pub struct Substituted {
    columns: Vec<Column>,
    /// Columns left.
    n_kept: usize,
    /// The other rows, over the columns left.
    rows: Vec<Constraint>,
    /// A row became a contradiction: no integer point, whatever is added.
    empty: bool,
}

impl Substituted {
    /// Substitute every equality of `rows` (over `n` columns) that has a
    /// unit coefficient, one after the other. Exact; linear in the rows for
    /// each equality substituted.
    pub fn new(n: usize, rows: Vec<Constraint>) -> Result<Substituted, PolyError> {
        let (mut eqs, mut ineqs): (Vec<Constraint>, Vec<Constraint>) =
            rows.into_iter().partition(|r| r.kind == ConstraintKind::Eq);
        for r in eqs.iter_mut().chain(ineqs.iter_mut()) {
            r.pad_to(n);
        }
        // Each substituted column's form, over all `n` columns (zero on the
        // substituted ones).
        let mut defined: Vec<Option<(Vec<i64>, i64)>> = vec![None; n];
        // Passes over the equalities until none has a unit coefficient (a
        // substitution may leave one with a unit where it had none).
        let mut progress = true;
        while progress {
            progress = false;
            let mut e = 0;
            while e < eqs.len() {
                let Some(j) = eqs[e].coeffs.iter().position(|a| a.unsigned_abs() == 1) else {
                    e += 1;
                    continue;
                };
                progress = true;
                let row = eqs.swap_remove(e);
                // a x_j + rest + c = 0 with a = ±1: x_j = -a (rest + c).
                let a = row.coeffs[j];
                let mut coeffs = Vec::with_capacity(n);
                for &c in &row.coeffs {
                    coeffs.push(checked_mul(-a, c)?);
                }
                coeffs[j] = 0;
                let constant = checked_mul(-a, row.constant)?;
                for r in eqs.iter_mut().chain(ineqs.iter_mut()) {
                    let b = r.coeffs[j];
                    if b != 0 {
                        r.coeffs[j] = 0;
                        add_scaled(&mut r.coeffs, &mut r.constant, b, &coeffs, constant)?;
                    }
                }
                for (form, k) in defined.iter_mut().flatten() {
                    let b = form[j];
                    if b != 0 {
                        form[j] = 0;
                        add_scaled(form, k, b, &coeffs, constant)?;
                    }
                }
                defined[j] = Some((coeffs, constant));
            }
        }
        let kept: Vec<usize> = (0..n).filter(|&j| defined[j].is_none()).collect();
        // Onto the columns left, in place (they come in order, so each
        // moves down or stays).
        let compact = |coeffs: &mut Vec<i64>| {
            for (w, &j) in kept.iter().enumerate() {
                coeffs[w] = coeffs[j];
            }
            coeffs.truncate(kept.len());
        };
        let mut columns = Vec::with_capacity(n);
        let mut next = 0;
        for d in defined {
            columns.push(match d {
                None => {
                    next += 1;
                    Column::Kept(next - 1)
                }
                Some((mut coeffs, constant)) => {
                    compact(&mut coeffs);
                    Column::Defined { coeffs, constant }
                }
            });
        }
        let mut out = Substituted {
            columns,
            n_kept: kept.len(),
            rows: Vec::with_capacity(eqs.len() + ineqs.len()),
            empty: false,
        };
        for mut row in eqs.into_iter().chain(ineqs) {
            compact(&mut row.coeffs);
            out.push_row(row);
        }
        Ok(out)
    }

    /// Keep `row` (over the columns left), unless it is a constant: a
    /// true one goes, a false one makes the system empty.
    fn push_row(&mut self, row: Constraint) {
        if row.coeffs.iter().all(|&a| a == 0) {
            self.empty |= match row.kind {
                ConstraintKind::Eq => row.constant != 0,
                ConstraintKind::Ineq => row.constant < 0,
            };
        } else {
            self.rows.push(row);
        }
    }

    /// This system with `extra` (rows over the original columns) added,
    /// their unit equalities substituted too: the base of the questions
    /// that all share `extra` (a legality check's equal dates, one level
    /// more at each step). Exact, as [`Substituted::new`].
    pub fn with_rows(&self, extra: &[Constraint]) -> Result<Substituted, PolyError> {
        if self.empty {
            return Ok(self.clone());
        }
        if let Some(out) = self.with_one_unit_equality(extra)? {
            return Ok(out);
        }
        self.rebuilt_with_rows(extra)
    }

    /// [`Substituted::with_rows`] the general way: every row rewritten
    /// and the system substituted again.
    fn rebuilt_with_rows(&self, extra: &[Constraint]) -> Result<Substituted, PolyError> {
        let mut rows = self.rows.clone();
        for r in extra {
            rows.push(self.rewrite(r)?);
        }
        let inner = Substituted::new(self.n_kept, rows)?;
        let columns = self
            .columns
            .iter()
            .map(|c| {
                Ok(match c {
                    Column::Kept(p) => inner.columns[*p].clone(),
                    Column::Defined { coeffs, constant } => {
                        let form = inner.rewrite(&Constraint::eq(coeffs.clone(), *constant))?;
                        Column::Defined {
                            coeffs: form.coeffs,
                            constant: form.constant,
                        }
                    }
                })
            })
            .collect::<Result<Vec<Column>, PolyError>>()?;
        Ok(Substituted {
            columns,
            n_kept: inner.n_kept,
            rows: inner.rows,
            empty: inner.empty,
        })
    }

    /// [`Substituted::with_rows`] where `extra` comes to one equality with
    /// a unit coefficient over the columns left (the others rewrite to
    /// `0 = 0`: a legality check's β dates), and substituting it leaves
    /// no other: that column substituted in place, the same system as the
    /// general path gives, without building it again. `None` otherwise.
    fn with_one_unit_equality(
        &self,
        extra: &[Constraint],
    ) -> Result<Option<Substituted>, PolyError> {
        let mut found = None;
        for r in extra {
            let row = self.rewrite(r)?;
            let trivial = row.coeffs.iter().all(|&a| a == 0);
            match (trivial, row.kind) {
                (true, ConstraintKind::Eq) if row.constant == 0 => continue,
                (false, ConstraintKind::Eq) if found.is_none() => found = Some(row),
                _ => return Ok(None),
            }
        }
        let Some(row) = found else {
            return Ok(Some(self.clone()));
        };
        let Some(j) = row.coeffs.iter().position(|a| a.unsigned_abs() == 1) else {
            return Ok(None);
        };
        // a x_j + rest + c = 0 with a = ±1: x_j = -a (rest + c).
        let a = row.coeffs[j];
        let mut form = Vec::with_capacity(row.coeffs.len());
        for &c in &row.coeffs {
            form.push(checked_mul(-a, c)?);
        }
        form[j] = 0;
        let k = checked_mul(-a, row.constant)?;
        let mut rows = Vec::with_capacity(self.rows.len());
        let mut empty = false;
        for r in &self.rows {
            let mut r = r.clone();
            let b = r.coeffs[j];
            if b != 0 {
                r.coeffs[j] = 0;
                add_scaled(&mut r.coeffs, &mut r.constant, b, &form, k)?;
                if r.kind == ConstraintKind::Eq && r.coeffs.iter().any(|c| c.unsigned_abs() == 1) {
                    return Ok(None);
                }
            }
            r.coeffs.remove(j);
            if r.coeffs.iter().all(|&c| c == 0) {
                empty |= match r.kind {
                    ConstraintKind::Eq => r.constant != 0,
                    ConstraintKind::Ineq => r.constant < 0,
                };
            } else {
                rows.push(r);
            }
        }
        let mut columns = Vec::with_capacity(self.columns.len());
        for c in &self.columns {
            columns.push(match c {
                Column::Kept(p) if *p == j => {
                    let mut coeffs = form.clone();
                    coeffs.remove(j);
                    Column::Defined {
                        coeffs,
                        constant: k,
                    }
                }
                Column::Kept(p) => Column::Kept(if *p > j { p - 1 } else { *p }),
                Column::Defined { coeffs, constant } => {
                    let (mut coeffs, mut constant) = (coeffs.clone(), *constant);
                    let b = coeffs[j];
                    if b != 0 {
                        coeffs[j] = 0;
                        add_scaled(&mut coeffs, &mut constant, b, &form, k)?;
                    }
                    coeffs.remove(j);
                    Column::Defined { coeffs, constant }
                }
            });
        }
        Ok(Some(Substituted {
            columns,
            n_kept: self.n_kept - 1,
            rows,
            empty,
        }))
    }

    /// The coefficients it holds: its rows' and its substituted columns'
    /// forms (what a memo of systems counts).
    pub fn size(&self) -> usize {
        let forms: usize = self
            .columns
            .iter()
            .map(|c| match c {
                Column::Kept(_) => 1,
                Column::Defined { coeffs, .. } => coeffs.len() + 1,
            })
            .sum();
        forms + self.rows.len() * (self.n_kept + 1)
    }

    /// The columns the questions are asked over.
    pub fn n_kept(&self) -> usize {
        self.n_kept
    }

    /// `row` (over the original columns) rewritten over the columns left.
    fn rewrite(&self, row: &Constraint) -> Result<Constraint, PolyError> {
        let mut coeffs = vec![0; self.n_kept];
        let mut constant = row.constant;
        for (j, &a) in row.coeffs.iter().enumerate() {
            if a == 0 {
                continue;
            }
            match self.columns.get(j) {
                Some(Column::Kept(p)) => coeffs[*p] = checked_add(coeffs[*p], a)?,
                Some(Column::Defined {
                    coeffs: form,
                    constant: k,
                }) => add_scaled(&mut coeffs, &mut constant, a, form, *k)?,
                None => return Err(PolyError::SpaceMismatch { op: "substituted" }),
            }
        }
        Ok(Constraint {
            kind: row.kind,
            coeffs,
            constant,
        })
    }

    /// `rows` (over the original columns) rewritten over the columns left:
    /// rows for [`Substituted::sample_with_rewritten`], rewritten once for
    /// many questions.
    pub fn rewrite_all(&self, rows: &[Constraint]) -> Result<Vec<Constraint>, PolyError> {
        rows.iter().map(|r| self.rewrite(r)).collect()
    }

    /// An integer point of the system with `extra` (rows over the original
    /// columns) added, over the original columns, or `None`. Exact (the
    /// Omega test); its errors (a give-up, an overflow) decide nothing.
    pub fn sample_with(&self, extra: &[Constraint]) -> Result<Option<Vec<i64>>, PolyError> {
        if self.empty {
            return Ok(None);
        }
        self.sample_with_rewritten(self.rewrite_all(extra)?)
    }

    /// [`Substituted::sample_with`] of rows already rewritten over the
    /// columns left ([`Substituted::rewrite_all`]).
    pub fn sample_with_rewritten(
        &self,
        extra: Vec<Constraint>,
    ) -> Result<Option<Vec<i64>>, PolyError> {
        if self.empty {
            return Ok(None);
        }
        let mut rows = Vec::with_capacity(self.rows.len() + extra.len());
        rows.extend_from_slice(&self.rows);
        for r in extra {
            if r.coeffs.iter().all(|&a| a == 0) {
                match r.kind {
                    ConstraintKind::Eq if r.constant != 0 => return Ok(None),
                    ConstraintKind::Ineq if r.constant < 0 => return Ok(None),
                    _ => continue,
                }
            }
            rows.push(r);
        }
        let Some(point) = omega::integer_sample_of(self.n_kept, rows)? else {
            return Ok(None);
        };
        let mut full = Vec::with_capacity(self.columns.len());
        for c in &self.columns {
            full.push(match c {
                Column::Kept(p) => point[*p],
                Column::Defined { coeffs, constant } => {
                    let mut v = *constant;
                    for (a, x) in coeffs.iter().zip(&point) {
                        v = checked_add(v, checked_mul(*a, *x)?)?;
                    }
                    v
                }
            });
        }
        Ok(Some(full))
    }
}

/// `coeffs += b·form` and `constant += b·k`, checked.
fn add_scaled(
    coeffs: &mut [i64],
    constant: &mut i64,
    b: i64,
    form: &[i64],
    k: i64,
) -> Result<(), PolyError> {
    for (c, &f) in coeffs.iter_mut().zip(form) {
        if f != 0 {
            *c = checked_add(*c, checked_mul(b, f)?)?;
        }
    }
    *constant = checked_add(*constant, checked_mul(b, k)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::test_rng::Lcg;

    /// Every integer point of `rows` with coordinates in `-r..=r`.
    fn points(n: usize, rows: &[Constraint], r: i64) -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        let mut p = vec![-r; n];
        loop {
            if rows.iter().all(|c| satisfied(c, &p)) {
                out.push(p.clone());
            }
            let mut k = 0;
            while k < n && p[k] == r {
                p[k] = -r;
                k += 1;
            }
            if k == n {
                return out;
            }
            p[k] += 1;
        }
    }

    fn satisfied(c: &Constraint, p: &[i64]) -> bool {
        let v: i64 = c.constant + c.coeffs.iter().zip(p).map(|(a, x)| a * x).sum::<i64>();
        match c.kind {
            ConstraintKind::Eq => v == 0,
            ConstraintKind::Ineq => v >= 0,
        }
    }

    /// A row over `n` columns, coefficients in `-c..=c`, its constant in
    /// `-c - 1..=c + 1`; an equality one time in `eq_one_in`.
    fn random_row(rng: &mut Lcg, n: usize, c: i64, eq_one_in: i64) -> Constraint {
        let coeffs: Vec<i64> = (0..n).map(|_| rng.next(2 * c + 1) - c).collect();
        let k = rng.next(2 * c + 3) - c - 1;
        if rng.next(eq_one_in) == 0 {
            Constraint::eq(coeffs, k)
        } else {
            Constraint::ineq(coeffs, k)
        }
    }

    #[test]
    fn questions_get_the_answers_of_the_whole_system_by_enumeration() {
        let mut rng = Lcg(7);
        let n = 4;
        for _ in 0..400 {
            // A box keeps every point within enumeration's reach.
            let mut rows = Vec::new();
            for j in 0..n {
                let mut lo = vec![0; n];
                lo[j] = 1;
                rows.push(Constraint::ineq(lo.clone(), 3));
                lo[j] = -1;
                rows.push(Constraint::ineq(lo, 3));
            }
            for _ in 0..rng.next(4) {
                rows.push(random_row(&mut rng, n, 2, 2));
            }
            let base = Substituted::new(n, rows.clone()).unwrap();
            let extra: Vec<Constraint> = (0..rng.next(3))
                .map(|_| {
                    let coeffs: Vec<i64> = (0..n).map(|_| rng.next(5) - 2).collect();
                    let c = rng.next(7) - 3;
                    if rng.next(3) == 0 {
                        Constraint::eq(coeffs, c)
                    } else {
                        Constraint::ineq(coeffs, c)
                    }
                })
                .collect();
            let all: Vec<Constraint> = rows.iter().chain(&extra).cloned().collect();
            let expected = points(n, &all, 3);
            match base.sample_with(&extra).unwrap() {
                Some(p) => assert!(all.iter().all(|c| satisfied(c, &p)), "{p:?} of {all:?}"),
                None => assert!(expected.is_empty(), "missed {:?} of {all:?}", expected[0]),
            }
        }
    }

    /// One equality added the quick way gives the very system (rows in
    /// the same order, the same forms) that rebuilding gives: a question
    /// asked of it, and so its witness, does not depend on the way.
    #[test]
    fn one_unit_equality_added_in_place_is_the_rebuilt_system() {
        let mut rng = Lcg(11);
        let n = 6;
        let mut quick = 0;
        for _ in 0..2000 {
            let rows = (0..rng.next(8))
                .map(|_| random_row(&mut rng, n, 3, 4))
                .collect();
            let base = Substituted::new(n, rows).unwrap();
            // Rows that rewrite to `0 = 0` (a difference of one form and
            // itself), and at most one other equality, sometimes not unit.
            let mut extra = Vec::new();
            for _ in 0..rng.next(3) {
                extra.push(Constraint::eq(vec![0; n], 0));
            }
            if rng.next(5) > 0 {
                let coeffs: Vec<i64> = (0..n).map(|_| rng.next(5) - 2).collect();
                extra.insert(
                    rng.next(extra.len() as i64 + 1) as usize,
                    Constraint::eq(coeffs, rng.next(5) - 2),
                );
            }
            let rebuilt = base.rebuilt_with_rows(&extra).unwrap();
            if let Some(fast) = base.with_one_unit_equality(&extra).unwrap() {
                quick += 1;
                assert_eq!(
                    format!("{fast:?}"),
                    format!("{rebuilt:?}"),
                    "{base:?} with {extra:?}"
                );
            }
        }
        assert!(quick > 1000, "only {quick} cases took the quick way");
    }

    #[test]
    fn dates_fixed_by_equalities_leave_the_columns() {
        // x0 = 2, x1 = x0 + x2, 0 <= x2 <= 5.
        let rows = [
            Constraint::eq(vec![1, 0, 0], -2),
            Constraint::eq(vec![1, -1, 1], 0),
            Constraint::ineq(vec![0, 0, 1], 0),
            Constraint::ineq(vec![0, 0, -1], 5),
        ];
        let s = Substituted::new(3, rows.to_vec()).unwrap();
        assert_eq!(s.n_kept(), 1);
        // x1 >= 6: x2 >= 4.
        let p = s
            .sample_with(&[Constraint::ineq(vec![0, 1, 0], -6)])
            .unwrap();
        let p = p.unwrap();
        assert_eq!((p[0], p[1] - p[2]), (2, 2));
        assert!(p[1] >= 6);
        // x1 >= 8: none.
        let none = s
            .sample_with(&[Constraint::ineq(vec![0, 1, 0], -8)])
            .unwrap();
        assert_eq!(none, None);
        // A contradiction among the equalities: empty whatever is asked.
        let bad = Substituted::new(
            2,
            vec![
                Constraint::eq(vec![1, 0], -1),
                Constraint::eq(vec![1, 0], -2),
            ],
        )
        .unwrap();
        assert_eq!(bad.sample_with(&[]).unwrap(), None);
    }
}
