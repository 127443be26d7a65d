//! A piece's domain, read off its rows over the parameters and
//! iterators, and the exact tests on domains the cuts are decided by:
//! which side of an inequality a piece lies on, which inequality
//! separates pieces, whether two pieces hold the same points.
//!
//! Must not know: the directives.

use crate::explain::shape::date_forms;
use crate::poly::{BasicSet, Constraint, ConstraintKind, PolyError, Space};
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
    let Some(rows) = domain_rows(scop, s, st, p)? else {
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
    let Some(beta) = st.beta(p) else {
        return Ok(None);
    };
    let piece = &st.pieces[p];
    let (np, n) = (scop.params.len(), scop.statements[s].iterators.len());
    let forms = date_forms(piece, np, n)?;
    let n_out = piece.space().n_out();
    let mut rows = Vec::new();
    'rows: for (index, c) in piece.constraints().iter().enumerate() {
        if c.coeffs[np + n + n_out..].iter().any(|&v| v != 0) {
            continue;
        }
        let mut coeffs = c.coeffs[..np + n].to_vec();
        let mut constant = c.constant;
        for (t, &a) in c.coeffs[np + n..np + n + n_out].iter().enumerate() {
            if a == 0 {
                continue;
            }
            if t % 2 == 0 {
                let b = beta.get(t / 2).copied().ok_or(PolyError::Overflow)?;
                constant = a
                    .checked_mul(b)
                    .and_then(|v| v.checked_add(constant))
                    .ok_or(PolyError::Overflow)?;
                continue;
            }
            let depth = t.div_ceil(2);
            debug_assert_eq!(alpha_date(depth), t);
            let Some(Some(form)) = forms.get(depth - 1) else {
                continue 'rows;
            };
            // The form: iterators', parameters' coefficients, constant.
            for (k, &v) in form[..n].iter().enumerate() {
                coeffs[np + k] = a
                    .checked_mul(v)
                    .and_then(|x| x.checked_add(coeffs[np + k]))
                    .ok_or(PolyError::Overflow)?;
            }
            for (k, &v) in form[n..n + np].iter().enumerate() {
                coeffs[k] = a
                    .checked_mul(v)
                    .and_then(|x| x.checked_add(coeffs[k]))
                    .ok_or(PolyError::Overflow)?;
            }
            constant = a
                .checked_mul(form[n + np])
                .and_then(|x| x.checked_add(constant))
                .ok_or(PolyError::Overflow)?;
        }
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
