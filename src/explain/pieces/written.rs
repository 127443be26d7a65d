//! The last `iss` read off the rows it wrote: where a target's pieces
//! include empty ones (an `iss` whose inequality holds nowhere on some
//! piece: `iss` keeps the empty part, so the β dates after it count it),
//! no cut by domains gives them, yet `iss` wrote one row into each part,
//! `f >= 0` into the part it moved after the loop's children and
//! `-f - 1 >= 0` into the part that kept its β. So a loop whose children
//! come in pairs, `c` and `c + k` (`k` children before the split), every
//! pair of pieces alike but for those two rows (and the β date that
//! numbers them), was split last by `iss` on `f`; without the second
//! pieces and the first pieces' rows, it is the schedule before that
//! `iss`, which may itself have pieces. A `peel` is that `iss` on the
//! loop's own counter with the second parts split into a loop of their
//! own, right after it: pieces of two neighbouring loops pair up the same
//! way, and the loops after them count one more. The caller explains the
//! schedule before, then gives the `iss` or `peel`, and replays and
//! checks the whole.
//!
//! Must not know: the phases, recipe syntax.

use super::domains::trimmed;
use super::last::{without_rows, SplitLast};
use super::peel_of;
use crate::apply::tree::set_constant_date;
use crate::apply::{Directive, SplitForm};
use crate::poly::{BasicMap, Constraint, ConstraintKind, PolyError, Space};
use crate::scop::schedule::{alpha_date, beta_date};
use crate::scop::Schedule;

/// The last `iss` or `peel` of `target` read off its rows (see the
/// module doc), on the outermost loop where one is found (an `iss` of an
/// outer loop splits the pieces of the loops inside it, so their pairs
/// can be its as well); `None` where none is. Cheap: rows are compared
/// as written.
pub(super) fn split_by_rows(target: &Schedule) -> Result<Option<SplitLast>, PolyError> {
    let mut loops: Vec<Vec<i64>> = Vec::new();
    for st in target.statements.iter().filter(|st| st.pieces.len() > 1) {
        for q in 0..st.pieces.len() {
            let Some(beta) = st.beta(q) else {
                return Ok(None);
            };
            for level in 1..beta.len() {
                loops.push(beta[..level].to_vec());
            }
        }
    }
    loops.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
    loops.dedup();
    for loop_beta in &loops {
        if let Some(split) = split_of_loop(target, loop_beta)? {
            return Ok(Some(split));
        }
        if let Some(peel) = peel_of_loop(target, loop_beta)? {
            return Ok(Some(peel));
        }
    }
    Ok(None)
}

/// The `peel` of the loop `loop_beta` that `target` ends with, if the
/// pieces of the loop and of the loop right after it pair up as the
/// module doc says.
fn peel_of_loop(target: &Schedule, loop_beta: &[i64]) -> Result<Option<SplitLast>, PolyError> {
    let level = loop_beta.len();
    let (Some((&own, outer)), Some(next)) = (
        loop_beta.split_last(),
        loop_beta.last().and_then(|v| v.checked_add(1)),
    ) else {
        return Ok(None);
    };
    let mut peeled = outer.to_vec();
    peeled.push(next);
    let (Some(under), Some(moved)) = (
        pieces_under(target, loop_beta),
        pieces_under(target, &peeled),
    ) else {
        return Ok(None);
    };
    if moved.is_empty() || moved.len() != under.len() {
        return Ok(None);
    }
    let partner = |beta: &[i64]| {
        let mut kept = beta.to_vec();
        kept[level - 1] = own;
        kept
    };
    let Some(pairs) = paired(target, &under, &moved, partner, level - 1, level)? else {
        return Ok(None);
    };
    let iss = Directive::Iss {
        beta: loop_beta.to_vec(),
        form: pairs.form.clone(),
    };
    let Some(peel) = peel_of(&iss) else {
        return Ok(None);
    };
    // The loops after the peeled one count one fewer before it.
    let mut unsplit = without_seconds(target, &pairs);
    for st in &mut unsplit.statements {
        for q in 0..st.pieces.len() {
            let Some(beta) = st.beta(q) else {
                return Ok(None);
            };
            if beta.len() >= level && beta.starts_with(outer) && beta[level - 1] > next {
                st.pieces[q] =
                    set_constant_date(&st.pieces[q], beta_date(level - 1), beta[level - 1] - 1);
            }
        }
    }
    Ok(Some(SplitLast { unsplit, iss: peel }))
}

/// `target` without the second pieces of `pairs`, and without the row
/// the split wrote into each first one.
fn without_seconds(target: &Schedule, pairs: &Pairs) -> Schedule {
    let mut unsplit = target.clone();
    for (s, st) in unsplit.statements.iter_mut().enumerate() {
        let original = &target.statements[s].pieces;
        st.pieces = (0..original.len())
            .filter(|&q| !pairs.seconds.contains(&(s, q)))
            .map(
                |q| match pairs.rows.iter().find(|&&(t, p, _)| (t, p) == (s, q)) {
                    Some(&(_, _, at)) => without_rows(&original[q], &[at]),
                    None => original[q].clone(),
                },
            )
            .collect();
    }
    unsplit
}

/// The `iss` of the loop `loop_beta` that `target` ends with, if its
/// pieces under the loop pair up as the module doc says.
fn split_of_loop(target: &Schedule, loop_beta: &[i64]) -> Result<Option<SplitLast>, PolyError> {
    let level = loop_beta.len();
    let Some(under) = pieces_under(target, loop_beta) else {
        return Ok(None);
    };
    let children = under.iter().map(|(_, _, b)| b[level]).max().unwrap_or(-1) + 1;
    if children < 2 || children % 2 != 0 {
        return Ok(None);
    }
    let k = children / 2;
    let (firsts, seconds): (Vec<_>, Vec<_>) = under.into_iter().partition(|(_, _, b)| b[level] < k);
    let partner = |beta: &[i64]| {
        let mut kept = beta.to_vec();
        kept[level] -= k;
        kept
    };
    // Every piece under the loop is half of a pair.
    if firsts.len() != seconds.len() {
        return Ok(None);
    }
    let Some(pairs) = paired(target, &firsts, &seconds, partner, level, level)? else {
        return Ok(None);
    };
    Ok(Some(SplitLast {
        unsplit: without_seconds(target, &pairs),
        iss: Directive::Iss {
            beta: loop_beta.to_vec(),
            form: pairs.form,
        },
    }))
}

/// A piece: its statement, its index, its β-vector.
type Piece = (usize, usize, Vec<i64>);

/// Every piece inside the loop `loop_beta`; `None` where a β date is not
/// a constant.
fn pieces_under(target: &Schedule, loop_beta: &[i64]) -> Option<Vec<Piece>> {
    let mut under = Vec::new();
    for (s, st) in target.statements.iter().enumerate() {
        for q in 0..st.pieces.len() {
            let beta = st.beta(q)?;
            if beta.len() > loop_beta.len() && beta.starts_with(loop_beta) {
                under.push((s, q, beta));
            }
        }
    }
    Some(under)
}

/// Pieces paired by one split: its form, each first piece's row that the
/// split wrote (statement, piece, row), and the second pieces (statement,
/// piece).
struct Pairs {
    form: SplitForm,
    rows: Vec<(usize, usize, usize)>,
    seconds: Vec<(usize, usize)>,
}

/// Each of `seconds` paired with the piece of its statement among
/// `firsts` at `partner(β)`, the two alike but for the rows [`pair_rows`]
/// finds (the β date at `numbering` apart); the form those rows share
/// (read on the loop at `level`), each first piece's row to drop
/// (statement, piece, row) and the second pieces. `None` where a piece
/// has no partner or the forms differ.
fn paired(
    target: &Schedule,
    firsts: &[Piece],
    seconds: &[Piece],
    partner: impl Fn(&[i64]) -> Vec<i64>,
    numbering: usize,
    level: usize,
) -> Result<Option<Pairs>, PolyError> {
    let mut form: Option<SplitForm> = None;
    let mut drop = Vec::new();
    let mut second = Vec::new();
    for (s, q, beta) in seconds {
        let kept = partner(beta);
        let first: Vec<usize> = firsts
            .iter()
            .filter(|(t, _, b)| t == s && *b == kept)
            .map(|&(_, p, _)| p)
            .collect();
        let [p] = first[..] else {
            return Ok(None);
        };
        let st = &target.statements[*s];
        let Some((f, at)) = pair_rows(&st.pieces[p], &st.pieces[*q], numbering)? else {
            return Ok(None);
        };
        let Some(this) = form_of(&f, st.pieces[*q].space(), level) else {
            return Ok(None);
        };
        match &form {
            Some(other) if *other != this => return Ok(None),
            _ => form = Some(this),
        }
        drop.push((*s, p, at));
        second.push((*s, *q));
    }
    Ok(form.map(|form| Pairs {
        form,
        rows: drop,
        seconds: second,
    }))
}

/// The row `f >= 0` that `second` has where `first` has `-f - 1 >= 0`
/// (and the position of that row in `first`), when those are the only
/// rows that differ but the β date at `level` that numbers them (the
/// loop's child for an `iss`, the loop's own for a `peel`). Cheap.
fn pair_rows(
    first: &BasicMap,
    second: &BasicMap,
    level: usize,
) -> Result<Option<(Constraint, usize)>, PolyError> {
    if first.space() != second.space() || first.n_local() != second.n_local() {
        return Ok(None);
    }
    let numbering = first.space().out_col(beta_date(level));
    let counted = |c: &Constraint| !(c.is_eq() && c.coeffs[numbering] != 0);
    // The rows of `a` that `b` lacks, as multisets (a row may be written
    // twice: two `iss` on one inequality).
    let only = |a: &BasicMap, b: &BasicMap| -> Vec<(usize, Constraint)> {
        let mut unmatched: Vec<&Constraint> = b.constraints().iter().collect();
        let mut rows = Vec::new();
        for (k, c) in a
            .constraints()
            .iter()
            .enumerate()
            .filter(|(_, c)| counted(c))
        {
            match unmatched.iter().position(|u| *u == c) {
                Some(at) => {
                    unmatched.swap_remove(at);
                }
                None => rows.push((k, c.clone())),
            }
        }
        rows
    };
    let (a, b) = (only(first, second), only(second, first));
    let ([(at, negated)], [(_, f)]) = (&a[..], &b[..]) else {
        return Ok(None);
    };
    let same = f.kind == ConstraintKind::Ineq && f.negation()? == *negated;
    Ok(same.then(|| (f.clone(), *at)))
}

/// The `iss` form of the row `f` of a piece in `space` (parameters,
/// iterators, α dates), when it reads no β date, no local and no α date
/// deeper than the loop at `level`.
fn form_of(f: &Constraint, space: &Space, level: usize) -> Option<SplitForm> {
    let alpha_cols: Vec<usize> = (1..=level).map(|d| space.out_col(alpha_date(d))).collect();
    let in_cols: Vec<usize> = (0..space.n_in()).map(|k| space.in_col(k)).collect();
    let np = space.n_param();
    let elsewhere = (np..f.coeffs.len())
        .filter(|c| !alpha_cols.contains(c) && !in_cols.contains(c))
        .any(|c| f.coeffs[c] != 0);
    if elsewhere {
        return None;
    }
    let read = |cols: &[usize]| trimmed(&cols.iter().map(|&c| f.coeffs[c]).collect::<Vec<_>>());
    Some(SplitForm {
        alphas: read(&alpha_cols),
        iters: read(&in_cols),
        params: trimmed(&f.coeffs[..np]),
        constant: f.constant,
    })
}
