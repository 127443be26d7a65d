//! The cut first: the original loops cut into the target's pieces by
//! `iss` directives, each an affine inequality of the iterators and
//! parameters read off the target's pieces that puts every target piece
//! of the piece it cuts on one side. It is given on the outermost loop at
//! or below the deepest iterator it uses whose pieces the target cuts the
//! same way, so that no `iss` makes a part the target does not have.
//! Where the parts of an earlier cut share the piece's loop, that loop is
//! `split` around the piece first.
//!
//! Must not know: the phases, recipe syntax.

use super::domains::{
    domain, domain_reading, equal, equal_on, oriented, separating, splits, trimmed, Domain,
};
use crate::apply::{self, Directive, SplitForm};
use crate::explain::shape::date_forms;
use crate::explain::{ExplainError, Gap};
use crate::poly::{Constraint, PolyError};
use crate::scop::{Dependence, Schedule, Scop};

/// A piece of the cut schedule, explained as a statement of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Unit {
    pub statement: usize,
    /// Its index among the statement's pieces, in the cut schedule.
    pub piece: usize,
    /// The index of the target's piece with the same domain.
    pub target: usize,
}

/// The `iss` directives that cut the original schedule into the target's
/// pieces, the schedule they give, and its pieces (statement, then
/// piece order).
pub(super) struct Cut {
    pub directives: Vec<Directive>,
    pub schedule: Schedule,
    pub units: Vec<Unit>,
    /// Whether the target's cuts on strip dates were read over the
    /// iterators ([`super::domains::domain_reading`]).
    pub strip_cuts: bool,
}

/// A piece to cut: its statement, its index, and the target pieces it
/// meets.
type ToCut = (usize, usize, Vec<usize>);

/// The cut of the original schedule into the target's pieces, or the
/// first statement whose pieces it does not give and why; with
/// `strip_cuts`, the target's cuts on strip dates read over the
/// iterators (a `peel` of a tile loop). Exact: every side and every match
/// is decided by emptiness tests.
pub(super) fn cut(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
    strip_cuts: bool,
) -> Result<Result<Cut, Gap>, ExplainError> {
    let gap = |s: usize, reason: &str| {
        Ok(Err(Gap {
            statement: scop.statements[s].name.clone(),
            reason: reason.to_string(),
        }))
    };
    let mut wanted: Vec<Vec<Domain>> = Vec::new();
    for (s, st) in target.statements.iter().enumerate() {
        let mut domains = Vec::new();
        for p in 0..st.pieces.len() {
            match domain_reading(scop, s, st, p, strip_cuts)? {
                Some(d) => domains.push(d),
                None => return gap(s, "a β date of one of its pieces is not a constant"),
            }
        }
        wanted.push(domains);
    }
    let mut current = Schedule::original(scop);
    let mut directives = Vec::new();
    // Each `iss` adds at least one piece that the target has, after at
    // most two `split`s.
    let most: usize = 3 * wanted.iter().map(Vec::len).sum::<usize>();
    for _ in 0..most {
        let Some((s, q, inside)) = to_cut(scop, &current, &wanted)? else {
            break;
        };
        let Some(row) = separating(&wanted[s], &inside)? else {
            return gap(
                s,
                "its pieces are not cut by one affine inequality of its iterators at a time",
            );
        };
        let row = oriented(&target.statements[s], &wanted[s], &inside, row)?;
        let Some(d) = iss_for(scop, &current, &wanted, (s, q), &row)? else {
            return gap(
                s,
                "no loop around it holds only pieces that one `iss` cuts as its target does",
            );
        };
        let Ok(next) = apply::rewrite(scop, deps, &current, &d) else {
            return gap(
                s,
                "the `iss` or `split` that would cut its pieces is refused",
            );
        };
        current = next;
        directives.push(d);
    }
    let mut units = Vec::new();
    for (s, st) in current.statements.iter().enumerate() {
        for q in 0..st.pieces.len() {
            let Some(have) = domain(scop, s, st, q)? else {
                return gap(s, "a β date of one of its pieces is not a constant");
            };
            // The same rows first, else the same points of the domain.
            let domain = &scop.statements[s].domain;
            let mut same = None;
            for on_domain in [false, true] {
                for (p, w) in wanted[s].iter().enumerate() {
                    let equal = match on_domain {
                        false => equal(&have, w)?,
                        true => equal_on(&have, w, domain)?,
                    };
                    if equal && same.is_none() {
                        same = Some(p);
                    }
                }
            }
            let Some(p) = same else {
                return gap(
                    s,
                    "its pieces are not the parts `iss` gives (one overlaps two of them)",
                );
            };
            units.push(Unit {
                statement: s,
                piece: q,
                target: p,
            });
        }
    }
    let mut matched: Vec<(usize, usize)> = units.iter().map(|u| (u.statement, u.target)).collect();
    matched.sort_unstable();
    matched.dedup();
    if matched.len() != wanted.iter().map(Vec::len).sum::<usize>() {
        let s = (0..wanted.len())
            .find(|&s| (0..wanted[s].len()).any(|p| !matched.contains(&(s, p))))
            .unwrap_or(0);
        return gap(s, "one of its pieces is empty or not a part `iss` gives");
    }
    Ok(Ok(Cut {
        directives,
        schedule: current,
        units,
        strip_cuts,
    }))
}

/// The first piece of the schedule (statement, piece) whose domain
/// meets two or more of its statement's target pieces, and those.
fn to_cut(
    scop: &Scop,
    current: &Schedule,
    wanted: &[Vec<Domain>],
) -> Result<Option<ToCut>, PolyError> {
    for (s, st) in current.statements.iter().enumerate() {
        for q in 0..st.pieces.len() {
            let inside = meeting(scop, current, wanted, (s, q))?;
            if inside.len() >= 2 {
                return Ok(Some((s, q, inside)));
            }
        }
    }
    Ok(None)
}

/// The target pieces of statement `s` that piece `q` of the current
/// schedule meets. Exact.
fn meeting(
    scop: &Scop,
    current: &Schedule,
    wanted: &[Vec<Domain>],
    (s, q): (usize, usize),
) -> Result<Vec<usize>, PolyError> {
    let Some(have) = domain(scop, s, &current.statements[s], q)? else {
        return Ok(Vec::new());
    };
    let mut inside = Vec::new();
    for (p, w) in wanted[s].iter().enumerate() {
        let mut both = have.clone();
        for c in w.constraints() {
            both.add(c.clone());
        }
        if !both.is_empty()? {
            inside.push(p);
        }
    }
    Ok(inside)
}

/// The next directive of the cut of piece `q` of statement `s` by `row`.
/// The `iss` is given on the outermost loop around the piece, no
/// shallower than the deepest iterator `row` uses, whose every piece the
/// target cuts by `row` (each of its target pieces on one side, some on
/// each). Where no loop is such (the parts of an earlier cut share the
/// piece's loop), the innermost loop where the piece's run of such
/// children is not all is `split` around that run first. `None` when
/// neither exists.
fn iss_for(
    scop: &Scop,
    current: &Schedule,
    wanted: &[Vec<Domain>],
    (s, q): (usize, usize),
    row: &Constraint,
) -> Result<Option<Directive>, ExplainError> {
    let np = scop.params.len();
    let iters = &row.coeffs[np..];
    let used = iters.iter().rposition(|&v| v != 0).map_or(0, |k| k + 1);
    let Some(beta) = current.statements[s].beta(q) else {
        return Ok(None);
    };
    let all = apply::tree::all_betas(current).map_err(|e| {
        ExplainError::NotReplayed(format!("meet a schedule without a loop tree ({e:?})"))
    })?;
    // Whether the target cuts each piece in the outermost candidate loop
    // by `row` (found once: the deeper loops hold some of the same).
    let outermost = &beta[..used.max(1).min(beta.len())];
    let mut in_loop: Vec<(&[i64], bool)> = Vec::new();
    for (piece, b) in all.iter().filter(|(_, b)| b.starts_with(outermost)) {
        let inside = meeting(scop, current, wanted, (piece.statement, piece.piece))?;
        let cut = inside.len() >= 2 && splits(&wanted[piece.statement], &inside, row)?;
        in_loop.push((b, cut));
    }
    // Per depth, each child of the piece's loop there and whether all of
    // its pieces are cut by `row` as the target cuts them.
    let mut children_by_depth = Vec::new();
    for depth in used.max(1)..beta.len() {
        let loop_beta = &beta[..depth];
        let mut children: Vec<(i64, bool)> = Vec::new();
        for &(b, cut) in in_loop.iter().filter(|(b, _)| b.starts_with(loop_beta)) {
            // A piece at the loop's own β would not be in a tree.
            let Some(&child) = b.get(depth) else {
                return Ok(None);
            };
            match children.iter_mut().find(|(c, _)| *c == child) {
                Some((_, all_cut)) => *all_cut &= cut,
                None => children.push((child, cut)),
            }
        }
        children.sort_unstable();
        if children.iter().all(|&(_, cut)| cut) {
            return Ok(Some(Directive::Iss {
                beta: loop_beta.to_vec(),
                form: split_form(scop, s, row, used)?,
            }));
        }
        children_by_depth.push((depth, children));
    }
    for (depth, children) in children_by_depth.iter().rev() {
        let (depth, loop_beta) = (*depth, &beta[..*depth]);
        let Some(at) = children.iter().position(|&(c, _)| c == beta[depth]) else {
            continue;
        };
        let first = (0..=at).rev().take_while(|&k| children[k].1).last();
        let last = (at..children.len()).take_while(|&k| children[k].1).last();
        let (Some(first), Some(last)) = (first, last) else {
            continue;
        };
        // Split after the child before the run, else after the run.
        let after = if first > 0 {
            children[first - 1].0
        } else if last + 1 < children.len() {
            children[last].0
        } else {
            continue;
        };
        let mut child = loop_beta.to_vec();
        child.push(after);
        return Ok(Some(Directive::Split { beta: child, depth }));
    }
    Ok(None)
}

/// `row` as the form of an `iss` on the original loops, which are the
/// iterators (`-i` for a loop that counts down): written on the loops,
/// `c1 …`, as a person writes it, where they are.
fn split_form(
    scop: &Scop,
    s: usize,
    row: &Constraint,
    used: usize,
) -> Result<SplitForm, PolyError> {
    let np = scop.params.len();
    let iters = &row.coeffs[np..np + used];
    let params = trimmed(&row.coeffs[..np]);
    Ok(match loop_signs(scop, s, used)? {
        Some(signs) => SplitForm {
            alphas: iters
                .iter()
                .zip(&signs)
                .map(|(&a, &sign)| if sign < 0 { a.checked_neg() } else { Some(a) })
                .collect::<Option<_>>()
                .ok_or(PolyError::Overflow)?,
            iters: Vec::new(),
            params,
            constant: row.constant,
        },
        None => SplitForm {
            alphas: Vec::new(),
            iters: iters.to_vec(),
            params,
            constant: row.constant,
        },
    })
}

/// For each of statement `s`'s first `n` original loops, `1` when its
/// date is its iterator and `-1` when it is the iterator negated (a loop
/// that counts down); `None` when one is neither.
fn loop_signs(scop: &Scop, s: usize, n: usize) -> Result<Option<Vec<i64>>, PolyError> {
    let st = &scop.statements[s];
    let n_iter = st.iterators.len();
    let forms = date_forms(&st.schedule, scop.params.len(), n_iter)?;
    let mut signs = Vec::new();
    for (k, form) in forms.iter().take(n).enumerate() {
        let Some(form) = form else {
            return Ok(None);
        };
        let unit = |sign: i64| {
            form.iter()
                .enumerate()
                .all(|(j, &v)| v == if j == k { sign } else { 0 })
        };
        match (unit(1), unit(-1)) {
            (true, _) => signs.push(1),
            (_, true) => signs.push(-1),
            _ => return Ok(None),
        }
    }
    Ok((signs.len() == n).then_some(signs))
}
