//! Rewrites of the dates (output dimensions) of one schedule piece: the
//! relation algebra every directive is written in.
//!
//! A piece is a `BasicMap` `[params | iterators | dates | locals]`. Each
//! rewrite is exact and cheap (a pass over the rows); coefficient arithmetic
//! is checked. Dates are renamed `c0, c1, …` after every change of their
//! number, as Clay names them.

use crate::poly::{
    checked_add, checked_mul, gcd_of, BasicMap, Constraint, ConstraintKind, PolyError, Space, Tuple,
};
use crate::scop::schedule::alpha_date;

/// Replace date `d` by `d' + Σ k_j·date_j + Σ a_c·column_c + c`: the new
/// date is the old one minus that affine form (`α_d := α_d − form`).
/// `dates` lists `(date index, coefficient)`; `columns` lists `(column,
/// coefficient)` for parameters and iterators (raw row columns).
pub fn substitute_date(
    piece: &BasicMap,
    d: usize,
    dates: &[(usize, i64)],
    columns: &[(usize, i64)],
    c: i64,
) -> Result<BasicMap, PolyError> {
    let space = piece.space();
    let col = space.out_col(d);
    let mut rows = Vec::with_capacity(piece.constraints().len());
    for r in piece.constraints() {
        let a = r.coeffs[col];
        let mut r = r.clone();
        if a != 0 {
            for &(j, k) in dates {
                let cj = space.out_col(j);
                r.coeffs[cj] = checked_add(r.coeffs[cj], checked_mul(a, k)?)?;
            }
            for &(p, k) in columns {
                r.coeffs[p] = checked_add(r.coeffs[p], checked_mul(a, k)?)?;
            }
            r.constant = checked_add(r.constant, checked_mul(a, c)?)?;
        }
        rows.push(r);
    }
    Ok(BasicMap::from_columns(space.clone(), piece.n_local(), rows))
}

/// Negate date `d`.
pub fn negate_date(piece: &BasicMap, d: usize) -> Result<BasicMap, PolyError> {
    let col = piece.space().out_col(d);
    let mut rows = piece.constraints().to_vec();
    for r in &mut rows {
        r.coeffs[col] = r.coeffs[col].checked_neg().ok_or(PolyError::Overflow)?;
    }
    Ok(BasicMap::from_columns(
        piece.space().clone(),
        piece.n_local(),
        rows,
    ))
}

/// Swap dates `a` and `b`.
pub fn swap_dates(piece: &BasicMap, a: usize, b: usize) -> BasicMap {
    let (ca, cb) = (piece.space().out_col(a), piece.space().out_col(b));
    let rows = piece
        .constraints()
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.coeffs.swap(ca, cb);
            r
        })
        .collect();
    BasicMap::from_columns(piece.space().clone(), piece.n_local(), rows)
}

/// Insert `count` unconstrained dates before date `at`.
pub fn insert_dates(piece: &BasicMap, at: usize, count: usize) -> BasicMap {
    let space = piece.space();
    let n_out = space.n_out() + count;
    let new_space = dated_space(space, n_out);
    let first = space.out_col(at);
    let n = piece.n_cols() + count;
    let rows = piece
        .constraints()
        .iter()
        .map(|r| r.remapped(n, |k| if k < first { k } else { k + count }))
        .collect();
    BasicMap::from_columns(new_space, piece.n_local(), rows)
}

/// `piece` without dates `at..at + count`, whose columns must be zero in
/// every row but constant definitions (those rows are dropped).
pub fn drop_dates(piece: &BasicMap, at: usize, count: usize) -> BasicMap {
    let space = piece.space();
    let first = space.out_col(at);
    let gone = first..first + count;
    let new_space = dated_space(space, space.n_out() - count);
    let n = piece.n_cols() - count;
    let rows = piece
        .constraints()
        .iter()
        .filter(|r| gone.clone().all(|c| r.coeffs[c] == 0))
        .map(|r| {
            let mut r = r.clone();
            r.coeffs.drain(gone.clone());
            debug_assert_eq!(r.coeffs.len(), n);
            r
        })
        .collect();
    BasicMap::from_columns(new_space, piece.n_local(), rows)
}

/// `space` with `n_out` dates named `c0, c1, …`.
fn dated_space(space: &Space, n_out: usize) -> Space {
    let input = space
        .input
        .clone()
        .unwrap_or_else(|| Tuple::new(None, Vec::new()));
    let dates = (0..n_out).map(|k| format!("c{k}")).collect();
    Space::map(space.params.clone(), input, Tuple::new(None, dates))
}

/// `piece` with the row `Σ coeffs[date]·date + constant (>= | =) 0` added,
/// `coeffs` given as `(date, coefficient)`.
pub fn with_date_row(
    piece: &BasicMap,
    coeffs: &[(usize, i64)],
    constant: i64,
    eq: bool,
) -> BasicMap {
    let mut row = vec![0; piece.n_cols()];
    for &(d, k) in coeffs {
        row[piece.space().out_col(d)] = k;
    }
    let mut out = piece.clone();
    out.add(if eq {
        Constraint::eq(row, constant)
    } else {
        Constraint::ineq(row, constant)
    });
    out
}

/// `piece` without the locals that an equality with a ±1 coefficient
/// defines: each is substituted into the other rows and dropped. Exact;
/// keeps the printed schedules free of needless `exists`.
pub fn without_unit_locals(piece: &BasicMap) -> Result<BasicMap, PolyError> {
    let n_dims = piece.space().n_dim_total();
    let mut rows = piece.constraints().to_vec();
    let mut n_local = piece.n_local();
    'next: loop {
        for l in (n_dims..n_dims + n_local).rev() {
            let Some(pos) = rows
                .iter()
                .position(|r| r.kind == crate::poly::ConstraintKind::Eq && r.coeffs[l].abs() == 1)
            else {
                continue;
            };
            let eq = rows.remove(pos);
            let unit = eq.coeffs[l];
            for r in &mut rows {
                // r - (r_l · unit) eq removes column l (unit = ±1).
                let f = checked_mul(r.coeffs[l], unit)?;
                if f != 0 {
                    for (x, y) in r.coeffs.iter_mut().zip(&eq.coeffs) {
                        *x = checked_add(*x, checked_mul(-f, *y)?)?;
                    }
                    r.constant = checked_add(r.constant, checked_mul(-f, eq.constant)?)?;
                }
            }
            for r in &mut rows {
                r.coeffs.remove(l);
            }
            n_local -= 1;
            continue 'next;
        }
        break;
    }
    Ok(BasicMap::from_columns(piece.space().clone(), n_local, rows))
}

/// The factor every value of the date of the loop at `depth` in `piece`
/// is a multiple of, read from the date's defining equality (the gcd of
/// its other terms): 0 or 1 where there is none. Cheap.
pub fn date_factor(piece: &BasicMap, depth: usize) -> i64 {
    let col = piece.space().out_col(alpha_date(depth));
    piece
        .constraints()
        .iter()
        .filter(|r| r.kind == ConstraintKind::Eq && r.coeffs[col].abs() == 1)
        .map(|r| {
            let others = r
                .coeffs
                .iter()
                .enumerate()
                .filter(|&(c, _)| c != col)
                .map(|(_, &v)| v);
            // 2^63 does not fit: 0 then (no factor).
            gcd_of(others.chain([r.constant])).unwrap_or(0)
        })
        .max()
        .unwrap_or(0)
}
