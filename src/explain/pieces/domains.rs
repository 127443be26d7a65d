//! A piece's domain, read off its rows over the parameters and
//! iterators, and the exact tests on domains the cuts are decided by:
//! which side of an inequality a piece lies on, which inequality
//! separates pieces, whether two pieces hold the same points.
//!
//! Must not know: the directives.

use crate::explain::shape::date_forms;
use crate::poly::{BasicMap, BasicSet, Constraint, ConstraintKind, PolyError, Set, Space};
use crate::scop::schedule::{alpha_date, StatementSchedule};
use crate::scop::Scop;

/// A domain over the parameters and a statement's iterators, as rows
/// (columns: parameters, iterators).
pub(super) type Domain = BasicSet;

/// A row of a piece that cuts its domain: its index among the piece's
/// rows, and the row over the parameters and iterators.
pub(super) type IndexedRow = (usize, Constraint);

/// Piece `p` of statement `s`'s schedule `st` as a domain over the
/// parameters and iterators: its [`domain_rows`]. `None` when a β date is
/// not a constant. Exact for the pieces `iss` makes.
pub(super) fn domain(
    scop: &Scop,
    s: usize,
    st: &StatementSchedule,
    p: usize,
) -> Result<Option<Domain>, PolyError> {
    domain_reading(scop, s, st, p, false)
}

/// [`domain`], with `strip_cuts` the rows that cut the piece on a strip
/// date read over the iterators ([`strip_cut`]).
pub(super) fn domain_reading(
    scop: &Scop,
    s: usize,
    st: &StatementSchedule,
    p: usize,
    strip_cuts: bool,
) -> Result<Option<Domain>, PolyError> {
    let Some(rows) = rows_reading(scop, s, st, p, strip_cuts)? else {
        return Ok(None);
    };
    let space = Space::set(
        scop.params.clone(),
        None,
        scop.statements[s].iterators.clone(),
    );
    Ok(Some(BasicSet::from_parts(
        space,
        0,
        rows.into_iter().map(|(_, row)| row).collect(),
    )))
}

/// The rows of piece `p` of statement `s`'s schedule `st` that restrict
/// its domain, each with its index among the piece's rows and as a row
/// over the parameters and iterators: its rows with each date replaced by
/// its value (a β date by its constant, an α date by its affine form),
/// where every date a row uses has one. A row on a date without a form (a
/// tile's strip: every point has a tile) or on a local is left out, and
/// so is a row left with no column and a true constant (a date's
/// definition). `None` when a β date is not a constant.
pub(super) fn domain_rows(
    scop: &Scop,
    s: usize,
    st: &StatementSchedule,
    p: usize,
) -> Result<Option<Vec<IndexedRow>>, PolyError> {
    rows_reading(scop, s, st, p, false)
}

/// [`domain_rows`], with `strip_cuts` a row on a strip date alone read
/// through its strip ([`strip_cut`]) rather than left out.
fn rows_reading(
    scop: &Scop,
    s: usize,
    st: &StatementSchedule,
    p: usize,
    strip_cuts: bool,
) -> Result<Option<Vec<IndexedRow>>, PolyError> {
    let Some(beta) = st.beta(p) else {
        return Ok(None);
    };
    let piece = &st.pieces[p];
    let (np, n) = (scop.params.len(), scop.statements[s].iterators.len());
    let forms = date_forms(piece, np, n)?;
    let n_out = piece.space().n_out();
    let over = Over {
        beta: &beta,
        forms: &forms,
        np,
        n,
        n_out,
    };
    let mut rows = Vec::new();
    for (index, c) in piece.constraints().iter().enumerate() {
        if c.coeffs[np + n + n_out..].iter().any(|&v| v != 0) {
            continue;
        }
        let substituted = match over.substituted(&c.coeffs, c.constant)? {
            Some(row) => Some(row),
            None if strip_cuts => strip_cut(piece, c, &over)?,
            None => None,
        };
        let Some((coeffs, constant)) = substituted else {
            continue;
        };
        let trivial = coeffs.iter().all(|&v| v == 0)
            && match c.kind {
                ConstraintKind::Eq => constant == 0,
                ConstraintKind::Ineq => constant >= 0,
            };
        if !trivial {
            let row = Constraint {
                kind: c.kind,
                coeffs,
                constant,
            };
            rows.push((index, row));
        }
    }
    Ok(Some(rows))
}

/// What a piece's rows are read over: its β dates, its α dates' affine
/// forms (iterators', parameters' coefficients, constant; `None` for a
/// strip), and the counts of parameters, iterators and dates.
struct Over<'a> {
    beta: &'a [i64],
    forms: &'a [Option<Vec<i64>>],
    np: usize,
    n: usize,
    n_out: usize,
}

impl Over<'_> {
    /// The row `coeffs · (parameters, iterators, dates) + constant` with
    /// each date replaced by its value, over the parameters and
    /// iterators; `None` where it reads a date without a form.
    fn substituted(
        &self,
        coeffs: &[i64],
        constant: i64,
    ) -> Result<Option<(Vec<i64>, i64)>, PolyError> {
        let (np, n) = (self.np, self.n);
        let mut out = coeffs[..np + n].to_vec();
        let mut constant = constant;
        let add = |x: &mut i64, a: i64, v: i64| -> Result<(), PolyError> {
            *x = a
                .checked_mul(v)
                .and_then(|p| p.checked_add(*x))
                .ok_or(PolyError::Overflow)?;
            Ok(())
        };
        for (t, &a) in coeffs[np + n..np + n + self.n_out].iter().enumerate() {
            if a == 0 {
                continue;
            }
            if t % 2 == 0 {
                let b = self.beta.get(t / 2).copied().ok_or(PolyError::Overflow)?;
                add(&mut constant, a, b)?;
                continue;
            }
            let depth = t.div_ceil(2);
            debug_assert_eq!(alpha_date(depth), t);
            let Some(Some(form)) = self.forms.get(depth - 1) else {
                return Ok(None);
            };
            for (k, &v) in form[..n].iter().enumerate() {
                add(&mut out[np + k], a, v)?;
            }
            for (k, &v) in form[n..n + np].iter().enumerate() {
                add(&mut out[k], a, v)?;
            }
            add(&mut constant, a, form[n + np])?;
        }
        Ok(Some((out, constant)))
    }
}

/// An inequality `±c + r ≥ 0` on a strip date `c` (rows `e − s·c ≥ 0`
/// and `s·c + s − 1 − e ≥ 0` of the piece, `e` and `r` with forms) as the
/// inequality it means over the parameters and iterators: `c ≤ r` is
/// `e ≤ s·r + s − 1`, `c ≥ −r` is `e ≥ −s·r` (mvt's `peel` of a tile
/// loop, `c ≤ 4`). `None` for any other row.
fn strip_cut(
    piece: &BasicMap,
    row: &Constraint,
    over: &Over<'_>,
) -> Result<Option<(Vec<i64>, i64)>, PolyError> {
    let first_date = over.np + over.n;
    let formless: Vec<usize> = (1..=over.n_out / 2)
        .filter(|&d| row.coeffs[first_date + alpha_date(d)] != 0)
        .filter(|&d| over.forms.get(d - 1).is_some_and(Option::is_none))
        .collect();
    let [depth] = formless[..] else {
        return Ok(None);
    };
    let col = first_date + alpha_date(depth);
    let a = row.coeffs[col];
    if row.kind != ConstraintKind::Ineq || a.abs() != 1 {
        return Ok(None);
    }
    let no_locals = |c: &Constraint| c.coeffs[first_date + over.n_out..].iter().all(|&v| v == 0);
    let strip = piece.constraints().iter().find_map(|low| {
        let size = -low.coeffs[col];
        let high = piece.constraints().iter().find(|high| {
            high.coeffs.iter().zip(&low.coeffs).all(|(x, y)| *x == -*y)
                && low.constant.checked_add(high.constant) == size.checked_sub(1)
        })?;
        let reads_more = low
            .coeffs
            .iter()
            .enumerate()
            .any(|(k, &v)| k != col && v != 0);
        (size >= 1
            && reads_more
            && low.kind == ConstraintKind::Ineq
            && high.kind == ConstraintKind::Ineq)
            .then_some((low, size))
            .filter(|(low, _)| no_locals(low))
    });
    let Some((low, size)) = strip else {
        return Ok(None);
    };
    // e: `low` without its strip term; r: `row` without its own.
    let mut e = low.coeffs.clone();
    e[col] = 0;
    let mut r = row.coeffs.clone();
    r[col] = 0;
    let (Some((e, e0)), Some((r, r0))) = (
        over.substituted(&e, low.constant)?,
        over.substituted(&r, row.constant)?,
    ) else {
        return Ok(None);
    };
    // a = −1: s·r + s − 1 − e ≥ 0;  a = 1: e + s·r ≥ 0.
    let combine = |x: i64, y: i64| -> Result<i64, PolyError> {
        size.checked_mul(y)
            .and_then(|p| {
                if a < 0 {
                    p.checked_sub(x)
                } else {
                    p.checked_add(x)
                }
            })
            .ok_or(PolyError::Overflow)
    };
    let coeffs = e
        .iter()
        .zip(&r)
        .map(|(&x, &y)| combine(x, y))
        .collect::<Result<Vec<i64>, PolyError>>()?;
    let mut constant = combine(e0, r0)?;
    if a < 0 {
        constant = constant.checked_add(size - 1).ok_or(PolyError::Overflow)?;
    }
    Ok(Some((coeffs, constant)))
}

/// Statement `s`'s schedule `st` with each row that cuts a piece on a
/// strip date ([`strip_cut`]) written over the iterators instead, which
/// the strip rows make equivalent: the phases then read the strip as a
/// strip, and the cut as the `iss` that made it. Exact.
pub(super) fn with_strip_cuts_over_iterators(
    scop: &Scop,
    s: usize,
    st: &StatementSchedule,
) -> Result<StatementSchedule, PolyError> {
    let mut out = st.clone();
    for (p, piece) in out.pieces.iter_mut().enumerate() {
        let Some(beta) = st.beta(p) else {
            continue;
        };
        let (np, n) = (scop.params.len(), scop.statements[s].iterators.len());
        let forms = date_forms(piece, np, n)?;
        let over = Over {
            beta: &beta,
            forms: &forms,
            np,
            n,
            n_out: piece.space().n_out(),
        };
        let width = piece.n_cols();
        let mut rows = Vec::new();
        for c in piece.constraints() {
            let read = match over.substituted(&c.coeffs, c.constant)? {
                Some(_) => None,
                None => strip_cut(piece, c, &over)?,
            };
            rows.push(match read {
                Some((coeffs, constant)) => {
                    let mut wide = coeffs;
                    wide.resize(width, 0);
                    Constraint::ineq(wide, constant)
                }
                None => c.clone(),
            });
        }
        *piece = BasicMap::from_columns(piece.space().clone(), piece.n_local(), rows);
    }
    Ok(out)
}

/// Whether `d` with `row` added is empty. Exact.
fn empty_with(d: &Domain, row: Constraint) -> Result<bool, PolyError> {
    let mut d = d.clone();
    d.add(row);
    d.is_empty()
}

/// Whether every point of `d` satisfies `row`. Exact.
pub(super) fn implies(d: &Domain, row: &Constraint) -> Result<bool, PolyError> {
    for part in row.complement()? {
        if !empty_with(d, part)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether `a` and `b` hold the same points. Exact.
pub(super) fn equal(a: &Domain, b: &Domain) -> Result<bool, PolyError> {
    for (x, y) in [(a, b), (b, a)] {
        for row in y.constraints() {
            if !implies(x, row)? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Whether `a` and `b` hold the same points of `domain` (a statement's
/// domain, whose rows a piece need not repeat: a cut the domain implies,
/// `i >= 1` on a loop from 1). Exact.
pub(super) fn equal_on(a: &Domain, b: &Domain, domain: &Set) -> Result<bool, PolyError> {
    let on = |d: &Domain| Set::from_basic(d.clone()).intersect(&domain.renamed(d.space())?);
    on(a)?.is_equal(&on(b)?)
}

/// Which side of `row >= 0` all of `d` lies on: `Some(true)` inside,
/// `Some(false)` outside, `None` both. Exact.
pub(super) fn side(d: &Domain, row: &Constraint) -> Result<Option<bool>, PolyError> {
    if implies(d, row)? {
        return Ok(Some(true));
    }
    Ok(if empty_with(d, row.clone())? {
        Some(false)
    } else {
        None
    })
}

/// A row `e >= 0`, one of the pieces' own (an equation read as either of
/// its two inequalities), with each of `inside` on one side of it and
/// some on each. Exact.
pub(super) fn separating(
    pieces: &[Domain],
    inside: &[usize],
) -> Result<Option<Constraint>, PolyError> {
    for &p in inside {
        for c in pieces[p].constraints() {
            let mut candidates = vec![Constraint::ineq(c.coeffs.clone(), c.constant)];
            if c.is_eq() {
                candidates.push(candidates[0].opposite()?);
            }
            for row in candidates {
                if splits(pieces, inside, &row)? {
                    return Ok(Some(row));
                }
            }
        }
    }
    Ok(None)
}

/// `row`, or its complement `-row - 1 >= 0`: the one whose side (the
/// part `iss` puts after the other) holds the piece that the target puts
/// last, so that the split alone gives the target's order where it can.
pub(super) fn oriented(
    target: &StatementSchedule,
    pieces: &[Domain],
    inside: &[usize],
    row: Constraint,
) -> Result<Constraint, PolyError> {
    let mut last: Option<(Vec<i64>, usize)> = None;
    for &p in inside {
        let beta = target.beta(p).unwrap_or_default();
        if last.as_ref().is_none_or(|(b, _)| beta > *b) {
            last = Some((beta, p));
        }
    }
    match last {
        Some((_, p)) if side(&pieces[p], &row)? == Some(false) => Ok(row.negation()?),
        _ => Ok(row),
    }
}

/// Whether every piece of `inside` lies on one side of `row` and some
/// lie on each. Exact.
pub(super) fn splits(
    pieces: &[Domain],
    inside: &[usize],
    row: &Constraint,
) -> Result<bool, PolyError> {
    let (mut yes, mut no) = (false, false);
    for &p in inside {
        match side(&pieces[p], row)? {
            Some(true) => yes = true,
            Some(false) => no = true,
            None => return Ok(false),
        }
    }
    Ok(yes && no)
}

/// `v` without its trailing zeros.
pub(super) fn trimmed(v: &[i64]) -> Vec<i64> {
    let n = v.iter().rposition(|&x| x != 0).map_or(0, |k| k + 1);
    v[..n].to_vec()
}
