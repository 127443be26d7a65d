//! Index-set splits made last: where the cut first ([`super::cut`])
//! does not give the target (the pieces were tiled alike before they were
//! split, and a tile of one piece pads the others instead), a target
//! whose split statements each have two pieces that one inequality of
//! the iterators separates, the same for all of them, split in the same
//! loop, is explained as the schedule without the split (each statement
//! its piece on the inequality's negative side, without the rows that
//! cut its domain), then one `iss` of that loop written on the iterators,
//! then the `reorder` that puts the parts where the target has them.
//! Where no inequality of the iterators separates two pieces (an `iss`
//! on a tile loop's date, which has no form in the iterators), a row of
//! one piece over the α dates that the other breaks on every point
//! ([`date_cut`]) is the `iss`, written on the dates. A piece that one
//! `reshape` or `shift` changed alone after the split gets it after the
//! `iss` ([`after_split`]). The caller replays and checks it.
//!
//! Must not know: the phases, recipe syntax.

use super::domains::{domain, domain_rows, equal, oriented, separating, side, trimmed};
use crate::apply::{Directive, SplitForm};
use crate::explain::shape::date_forms;
use crate::poly::{BasicMap, ConstraintKind, PolyError};
use crate::scop::schedule::StatementSchedule;
use crate::scop::{Schedule, Scop};

/// The target without its split, and the `iss` that splits it.
pub(super) struct SplitLast {
    pub unsplit: Schedule,
    pub iss: Directive,
}

/// The split of `target` as one last `iss`, when it is one (see the
/// module doc); `None` otherwise. Exact: sides are decided by emptiness
/// tests.
pub(super) fn split_last(scop: &Scop, target: &Schedule) -> Result<Option<SplitLast>, PolyError> {
    let np = scop.params.len();
    let mut unsplit = target.clone();
    // The loop and the inequality.
    let mut split: Option<(Vec<i64>, SplitForm)> = None;
    let mut statements = Vec::new();
    for (s, st) in target.statements.iter().enumerate() {
        if st.pieces.len() == 1 {
            continue;
        }
        let (2, Some(first), Some(second)) = (st.pieces.len(), st.beta(0), st.beta(1)) else {
            return Ok(None);
        };
        let Some(level) = first.iter().zip(&second).position(|(x, y)| x != y) else {
            return Ok(None);
        };
        let (Some(a), Some(b)) = (domain(scop, s, st, 0)?, domain(scop, s, st, 1)?) else {
            return Ok(None);
        };
        let domains = [a, b];
        let (base, form, mut cutting) = match separating(&domains, &[0, 1])? {
            Some(row) => {
                let row = oriented(st, &domains, &[0, 1], row)?;
                // The part on the negative side keeps its β under `iss`.
                let base = usize::from(side(&domains[0], &row)? != Some(false));
                let form = SplitForm {
                    alphas: Vec::new(),
                    iters: trimmed(&row.coeffs[np..]),
                    params: trimmed(&row.coeffs[..np]),
                    constant: row.constant,
                };
                (base, form, Vec::new())
            }
            None => match date_cut(scop, s, st)? {
                Some(cut) => cut,
                None => return Ok(None),
            },
        };
        let Some(rows) = domain_rows(scop, s, st, base)? else {
            return Ok(None);
        };
        cutting.extend(rows.iter().map(|(k, _)| *k));
        unsplit.statements[s] = StatementSchedule {
            pieces: vec![without_rows(&st.pieces[base], &cutting)],
            marks: st.marks.clone(),
        };
        let this = (first[..level].to_vec(), form);
        match &split {
            Some(other) if *other != this => return Ok(None),
            _ => split = Some(this),
        }
        statements.push(s);
    }
    let Some((loop_beta, form)) = split else {
        return Ok(None);
    };
    // `iss` splits every statement in the loop.
    let outside = |(s, st): (usize, &StatementSchedule)| {
        statements.contains(&s) || !st.beta(0).is_some_and(|b| b.starts_with(&loop_beta))
    };
    if loop_beta.is_empty() || !unsplit.statements.iter().enumerate().all(outside) {
        return Ok(None);
    }
    Ok(Some(SplitLast {
        unsplit,
        iss: Directive::Iss {
            beta: loop_beta,
            form,
        },
    }))
}

/// The split of statement `s`'s two pieces in `st` by a row on its loop
/// dates, as an `iss` after a tiling writes it (`iss([0], c1 >= N / 2)`
/// on a tile loop: the dates have no form in the iterators, so no row of
/// the domains separates the pieces): a row of one piece, over the
/// parameters, iterators and α dates, that the other piece wholly
/// breaks. `(base, form, rows)`: the piece that keeps its β (the other
/// is the part the target puts last), the `iss` form (the part where it
/// holds goes last), and the base's rows that break the form (its side
/// of the cut). `None` where no such row is found. Exact: each side is an
/// emptiness test.
fn date_cut(
    scop: &Scop,
    s: usize,
    st: &StatementSchedule,
) -> Result<Option<(usize, SplitForm, Vec<usize>)>, PolyError> {
    let (np, n) = (scop.params.len(), scop.statements[s].iterators.len());
    let (Some(first), Some(second)) = (st.beta(0), st.beta(1)) else {
        return Ok(None);
    };
    // The part the target puts last holds the form.
    let last = usize::from(second > first);
    for q in 0..2 {
        let other = &st.pieces[1 - q];
        let n_out = other.space().n_out();
        for c in st.pieces[q].constraints() {
            let dates = &c.coeffs[np + n..np + n + n_out];
            let on_alphas = dates.iter().enumerate().any(|(t, &v)| t % 2 == 1 && v != 0);
            let on_betas = dates.iter().enumerate().any(|(t, &v)| t % 2 == 0 && v != 0);
            let on_locals = c.coeffs[np + n + n_out..].iter().any(|&v| v != 0);
            if c.kind != ConstraintKind::Ineq || !on_alphas || on_betas || on_locals {
                continue;
            }
            let mut probe = other.clone();
            probe.add(c.clone());
            if !probe.is_empty()? {
                continue;
            }
            // `c` holds on piece `q` and on no point of the other.
            let row = if q == last { c.clone() } else { c.negation()? };
            let alphas: Vec<i64> = row.coeffs[np + n..np + n + n_out]
                .iter()
                .skip(1)
                .step_by(2)
                .copied()
                .collect();
            let form = SplitForm {
                alphas: trimmed(&alphas),
                iters: trimmed(&row.coeffs[np..np + n]),
                params: trimmed(&row.coeffs[..np]),
                constant: row.constant,
            };
            let base = 1 - last;
            // The base's own side of the cut: its rows opposite to `row`.
            let opposite = row.opposite()?;
            let rows = st.pieces[base]
                .constraints()
                .iter()
                .enumerate()
                .filter(|(_, r)| r.coeffs == opposite.coeffs)
                .map(|(k, _)| k)
                .collect();
            return Ok(Some((base, form, rows)));
        }
    }
    Ok(None)
}

/// `piece` without the rows `gone` (indices). Exact, cheap.
pub(super) fn without_rows(piece: &BasicMap, gone: &[usize]) -> BasicMap {
    let rows = piece
        .constraints()
        .iter()
        .enumerate()
        .filter(|(k, _)| !gone.contains(k))
        .map(|(_, r)| r.clone())
        .collect();
    BasicMap::from_columns(piece.space().clone(), piece.n_local(), rows)
}

/// The directives that take each piece of `split` (the schedule after the
/// `iss` and its `reorder`) to the target's piece at its β-vector where
/// they differ in one α date, as one `reshape` (by a multiple of one
/// iterator) or one `shift` (by parameters and a constant) of that piece
/// alone: two-regions' `iss(…); reshape([1, 0, 0, 1, 0], 4, 2, 3);`.
/// `None` where another difference is left. Exact: the dates are compared
/// as the affine forms their equalities solve.
pub(super) fn after_split(
    scop: &Scop,
    split: &Schedule,
    target: &Schedule,
) -> Result<Option<Vec<Directive>>, PolyError> {
    let np = scop.params.len();
    let mut out = Vec::new();
    for (s, (have, want)) in split.statements.iter().zip(&target.statements).enumerate() {
        if have.pieces.len() < 2 {
            continue;
        }
        let n = scop.statements[s].iterators.len();
        for (q, piece) in have.pieces.iter().enumerate() {
            let Some(beta) = have.beta(q) else {
                return Ok(None);
            };
            let Some(p) = (0..want.pieces.len()).find(|&p| want.beta(p).as_ref() == Some(&beta))
            else {
                return Ok(None);
            };
            let (a, b) = (
                date_forms(piece, np, n)?,
                date_forms(&want.pieces[p], np, n)?,
            );
            if a.len() != b.len() {
                return Ok(None);
            }
            let mut differing = a.iter().zip(&b).enumerate().filter(|(_, (x, y))| x != y);
            let (k, x, y) = match differing.next() {
                None => continue,
                Some((k, (Some(x), Some(y)))) => (k, x, y),
                // A tile date differs.
                Some(_) => return Ok(None),
            };
            if differing.next().is_some() {
                return Ok(None);
            }
            let columns: Vec<usize> = (0..x.len()).filter(|&c| x[c] != y[c]).collect();
            let depth = k + 1;
            let by = |c: usize| x[c].checked_sub(y[c]);
            let step = match columns[..] {
                [c] if c < n => Directive::Reshape {
                    beta: beta.clone(),
                    depth,
                    iterator: c + 1,
                    amount: by(c).ok_or(PolyError::Overflow)?,
                },
                _ if columns.iter().all(|&c| c >= n) => Directive::Shift {
                    beta: beta.clone(),
                    depth,
                    params: (n..n + np)
                        .map(|c| by(c).ok_or(PolyError::Overflow))
                        .collect::<Result<_, _>>()?,
                    constant: by(n + np).ok_or(PolyError::Overflow)?,
                },
                _ => return Ok(None),
            };
            out.push(step);
        }
    }
    Ok(Some(out))
}

/// The `reorder` of the children of `loop_beta` in `split` that puts each
/// where the target has the pieces it holds (matched by their domains);
/// `None` where none is needed or none gives it (the caller's check then
/// finds the difference). Exact.
pub(super) fn reorder(
    scop: &Scop,
    split: &Schedule,
    target: &Schedule,
    loop_beta: &[i64],
) -> Result<Option<Directive>, PolyError> {
    let level = loop_beta.len();
    let mut moves: Vec<(i64, i64)> = Vec::new();
    for (s, st) in split.statements.iter().enumerate() {
        for q in 0..st.pieces.len() {
            let Some(b) = st.beta(q) else {
                return Ok(None);
            };
            if b.len() <= level || !b.starts_with(loop_beta) {
                continue;
            }
            let Some(have) = domain(scop, s, st, q)? else {
                return Ok(None);
            };
            let wanted = &target.statements[s];
            let mut to = None;
            for p in 0..wanted.pieces.len() {
                if let Some(w) = domain(scop, s, wanted, p)? {
                    if equal(&have, &w)? {
                        to = wanted.beta(p).and_then(|t| t.get(level).copied());
                        break;
                    }
                }
            }
            let Some(to) = to else {
                return Ok(None);
            };
            match moves.iter().find(|(from, _)| *from == b[level]) {
                Some(&(_, other)) if other != to => return Ok(None),
                Some(_) => {}
                None => moves.push((b[level], to)),
            }
        }
    }
    moves.sort_unstable();
    let dense = |v: &mut Vec<i64>| {
        v.sort_unstable();
        v.iter().zip(0..).all(|(&x, k)| x == k)
    };
    let order: Vec<i64> = moves.iter().map(|&(_, to)| to).collect();
    let identity = order.iter().zip(0..).all(|(&x, k)| x == k);
    let mut from: Vec<i64> = moves.iter().map(|&(from, _)| from).collect();
    if identity || !dense(&mut from) || !dense(&mut order.clone()) {
        return Ok(None);
    }
    Ok(Some(Directive::Reorder {
        beta: loop_beta.to_vec(),
        order,
    }))
}
