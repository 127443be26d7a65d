//! Index-set splits: a target whose statements have several pieces
//! (`iss`, `peel`).
//!
//! The pieces are cut first ([`cut`]), on the original loops, by `iss`
//! directives: each an affine inequality of the iterators and parameters
//! read off the target's pieces, that puts every target piece of the
//! piece it cuts on one side. It is given on the outermost loop at or
//! below the deepest iterator it uses whose pieces the target cuts the
//! same way, so that no `iss` makes a part the target does not have.
//! Where the parts of an earlier cut share the piece's loop, that loop is
//! `split` around the piece first.
//!
//! Then each piece is explained as a statement of its own
//! ([`super::view`]): the
//! phases after this one address statements by β-vector, and after the
//! cut each piece has its own. A piece's directive can act otherwise on a
//! statement with other pieces (`embed` refuses part of a statement,
//! `stripmine` pads the pieces in other loops with constant dates), so
//! the caller replays the directives on the real schedule and checks
//! them there, as any explanation is checked.
//!
//! Must not know: the other phases (it uses only [`date_forms`] of the
//! shape phase), recipe syntax.

use super::shape::date_forms;
use super::{refused, ExplainError, Gap};
use crate::apply::{self, Directive, SplitForm};
use crate::poly::{BasicSet, Constraint, ConstraintKind, PolyError, Space};
use crate::scop::schedule::{alpha_date, StatementSchedule};
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
}

/// A domain over the parameters and a statement's iterators, as rows
/// (columns: parameters, iterators).
pub(super) type Domain = BasicSet;

/// A row of a piece that cuts its domain: its index among the piece's
/// rows, and the row over the parameters and iterators.
pub(super) type IndexedRow = (usize, Constraint);

/// A piece to cut: its statement, its index, and the target pieces it
/// meets.
type ToCut = (usize, usize, Vec<usize>);

/// The cut of the original schedule into the target's pieces, or the
/// first statement whose pieces it does not give and why. Exact: every
/// side and every match is decided by emptiness tests.
pub(super) fn cut(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
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
            match domain(scop, s, st, p)? {
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
        current = apply::rewrite(scop, deps, &current, &d).map_err(|e| refused(&d, e))?;
        directives.push(d);
    }
    let mut units = Vec::new();
    for (s, st) in current.statements.iter().enumerate() {
        for q in 0..st.pieces.len() {
            let Some(have) = domain(scop, s, st, q)? else {
                return gap(s, "a β date of one of its pieces is not a constant");
            };
            let same = wanted[s]
                .iter()
                .enumerate()
                .map(|(p, w)| Ok(equal(&have, w)?.then_some(p)))
                .collect::<Result<Vec<_>, PolyError>>()?;
            let Some(p) = same.into_iter().flatten().next() else {
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
    }))
}

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
fn implies(d: &Domain, row: &Constraint) -> Result<bool, PolyError> {
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
fn splits(pieces: &[Domain], inside: &[usize], row: &Constraint) -> Result<bool, PolyError> {
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
    // Per depth, each child of the piece's loop there and whether all of
    // its pieces are cut by `row` as the target cuts them.
    let mut children_by_depth = Vec::new();
    for depth in used.max(1)..beta.len() {
        let loop_beta = &beta[..depth];
        let mut children: Vec<(i64, bool)> = Vec::new();
        for (piece, b) in all.iter().filter(|(_, b)| b.starts_with(loop_beta)) {
            let inside = meeting(scop, current, wanted, (piece.statement, piece.piece))?;
            let cut = b.len() > depth
                && inside.len() >= 2
                && splits(&wanted[piece.statement], &inside, row)?;
            match children.iter_mut().find(|(c, _)| *c == b[depth]) {
                Some((_, all_cut)) => *all_cut &= cut,
                None => children.push((b[depth], cut)),
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

/// The `peel` whose split is `d`'s, when `d` is an `iss` on the loop's
/// own counter (`α + params·p + const >= 0`). Cheap.
pub(super) fn peel_of(d: &Directive) -> Option<Directive> {
    let Directive::Iss { beta, form } = d else {
        return None;
    };
    let (last, outer) = form.alphas.split_last()?;
    let own = *last == 1 && outer.iter().all(|&a| a == 0) && form.alphas.len() == beta.len();
    (own && form.iters.iter().all(|&a| a == 0)).then(|| Directive::Peel {
        beta: beta.clone(),
        params: form.params.clone(),
        constant: form.constant,
    })
}

/// `v` without its trailing zeros.
pub(super) fn trimmed(v: &[i64]) -> Vec<i64> {
    let n = v.iter().rposition(|&x| x != 0).map_or(0, |k| k + 1);
    v[..n].to_vec()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::explain;
    use crate::lang::c::read_source;
    use crate::scop::{dependences, DepOptions};

    fn scop_of(name: &str) -> (Scop, Vec<Dependence>) {
        let path = format!("tests/kernels/{name}.c");
        let text = std::fs::read_to_string(&path).expect("a test kernel");
        let file = read_source(&path, text).expect("a scop");
        let scop = file.scops[0].clone();
        let deps = dependences(&scop, &DepOptions::default()).expect("dependences");
        (scop, deps)
    }

    /// The original schedule after `directives`.
    fn after(scop: &Scop, deps: &[Dependence], directives: &[Directive]) -> Schedule {
        let mut schedule = Schedule::original(scop);
        for d in directives {
            schedule = apply::rewrite(scop, deps, &schedule, d).expect("a legal directive");
        }
        schedule
    }

    fn iss(beta: &[i64], alphas: &[i64], params: &[i64], constant: i64) -> Directive {
        Directive::Iss {
            beta: beta.to_vec(),
            form: SplitForm {
                alphas: alphas.to_vec(),
                iters: Vec::new(),
                params: params.to_vec(),
                constant,
            },
        }
    }

    /// trisolv's first nest split at `i < 10` (every statement of the `i`
    /// loop, `c1 <= 9` second): the cut is the same `iss`, read off the
    /// pieces, the inequality turned so that it needs no `reorder`.
    #[test]
    fn a_split_of_a_loop_is_cut_by_the_same_iss() {
        let (scop, deps) = scop_of("trisolv");
        let split = iss(&[0], &[-1], &[], 9);
        let target = after(&scop, &deps, std::slice::from_ref(&split));
        let cut = cut(&scop, &deps, &target)
            .expect("no error")
            .expect("a cut");
        assert_eq!(cut.directives, vec![split]);
        assert_eq!(cut.schedule, target);
        let pieces: usize = target.statements.iter().map(|s| s.pieces.len()).sum();
        assert_eq!(cut.units.len(), pieces);
    }

    /// jacobi-1d's first inner loop with its first two iterations and its
    /// last one peeled (three pieces: two cuts, the second after a
    /// `split`, each an `iss` and a `split` that print as the `peel`),
    /// then the middle loop reversed: the explanation is the recipe.
    #[test]
    fn three_pieces_take_two_cuts_and_each_piece_its_own_directives() {
        let (scop, deps) = scop_of("jacobi-1d");
        let recipe = [
            Directive::Peel {
                beta: vec![0, 0],
                params: Vec::new(),
                constant: -3,
            },
            Directive::Peel {
                beta: vec![0, 1],
                params: vec![0, -1],
                constant: 2,
            },
            Directive::Reverse {
                beta: vec![0, 1],
                depth: 2,
            },
        ];
        let target = after(&scop, &deps, &recipe);
        assert_eq!(target.statements[0].pieces.len(), 3);
        let explained = explain(&scop, &deps, &target).expect("an explanation");
        assert_eq!(explained.gap, None, "{:?}", explained.steps);
        let steps: Vec<crate::explain::Step> =
            recipe.into_iter().map(crate::explain::Step::One).collect();
        assert_eq!(explained.steps, steps);
    }

    /// jacobi-1d split at `t >= 5`, the first sweep's second part alone
    /// strip-mined (its first part padded with the constant loop `0`):
    /// the piece is tiled alone, and the replay pads the other.
    #[test]
    fn a_piece_tiled_alone_pads_the_others_as_the_target_does() {
        let (scop, deps) = scop_of("jacobi-1d");
        let split = iss(&[0], &[1], &[], -5);
        let strip = Directive::Stripmine {
            beta: vec![0, 2],
            depth: 2,
            size: 4,
        };
        let target = after(&scop, &deps, &[split.clone(), strip]);
        let explained = explain(&scop, &deps, &target).expect("an explanation");
        assert_eq!(explained.gap, None, "{:?}", explained.steps);
        let band = Directive::TileBand {
            beta: vec![0, 2],
            depth: 2,
            sizes: vec![4],
        };
        let steps: Vec<crate::explain::Step> = [split, band]
            .into_iter()
            .map(crate::explain::Step::One)
            .collect();
        assert_eq!(explained.steps, steps);
    }

    /// jacobi-1d's first sweep strip-mined, then the time loop split at
    /// `t >= 5`: the cut first would tile one piece and pad the other, so
    /// the split is explained last, on the iterators.
    #[test]
    fn pieces_tiled_alike_before_the_split_are_split_last() {
        let (scop, deps) = scop_of("jacobi-1d");
        let strip = Directive::Stripmine {
            beta: vec![0, 0],
            depth: 2,
            size: 4,
        };
        let target = after(&scop, &deps, &[strip, iss(&[0], &[1], &[], -5)]);
        let explained = explain(&scop, &deps, &target).expect("an explanation");
        assert_eq!(explained.gap, None, "{:?}", explained.steps);
        let last = Directive::Iss {
            beta: vec![0],
            form: SplitForm {
                alphas: Vec::new(),
                iters: vec![1],
                params: Vec::new(),
                constant: -5,
            },
        };
        assert_eq!(
            explained.steps.last(),
            Some(&crate::explain::Step::One(last))
        );
    }

    /// A domain is read off a piece's rows with its dates replaced: the
    /// split `c1 <= 9` on the loop date is `-i + 9 >= 0` on the iterator.
    #[test]
    fn a_pieces_domain_is_over_its_iterators() {
        let (scop, deps) = scop_of("trisolv");
        let target = after(&scop, &deps, &[iss(&[0], &[-1], &[], 9)]);
        let st = &target.statements[0];
        let second = domain(&scop, 0, st, 1)
            .expect("no error")
            .expect("a domain");
        let np = scop.params.len();
        let mut row = vec![0; np + 1];
        row[np] = -1;
        assert!(implies(&second, &Constraint::ineq(row.clone(), 9)).expect("exact"));
        assert!(!implies(&second, &Constraint::ineq(row, 8)).expect("exact"));
    }
}
