//! Index-set splits: a target whose statements have several pieces
//! (`iss`, `peel`). The phases address statements by β-vector; after a
//! split a statement's pieces have one each, so the pieces are made
//! statements of their own, in one of two ways, each replayed on the real
//! schedule and checked there as any explanation is:
//!
//! 1. **The cut first** ([`cut`]): the original loops are cut by `iss`
//!    directives read off the target's pieces, then each piece goes
//!    through the phases as a statement of its own ([`view`]). A piece's
//!    directive can act otherwise on a statement with other pieces
//!    (`embed` refuses part of a statement, `stripmine` pads the pieces in
//!    other loops), which the check on the real schedule finds.
//! 2. **The split last** ([`last`]): where the pieces were transformed
//!    alike before the split, the schedule without the split, then one
//!    `iss`.
//!
//! [`domains`] reads a piece's domain off its rows and decides sides and
//! matches exactly. Where neither gives a complete explanation, the cut
//! first is tried again with the target's cuts on strip dates (a `peel`
//! of a tile loop) read over the iterators.
//!
//! Must not know: recipe syntax beyond the directives, code generation.

mod cut;
mod domains;
mod last;
mod view;
mod written;

use super::{
    difference, flattened, grouped, recover, ExplainError, Explanation, Gap, Recovery, Step,
};
use crate::apply::{self, Directive};
use crate::scop::{Dependence, Schedule, Scop};

/// [`super::explain`] of a target with pieces (an index-set split): the
/// cut first ([`cut::cut`]), each piece then explained as a statement of
/// its own ([`view::view`]); the split last ([`last::split_last`]); the
/// last `iss` or `peel` read off the rows ([`written::split_by_rows`]).
/// Each is replayed on the real schedule and checked there as any
/// explanation is; a step that fails (a refusal, an overflow) leaves the
/// others, the shortest complete explanation is given, and a complete
/// one is preferred to the cut first's partial one. Where none gives the
/// target, the cut alone is given and the first split statement is the
/// gap.
pub(super) fn explain(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
) -> Result<Explanation, ExplainError> {
    let cut = cut::cut(scop, deps, target, false).ok();
    let first = match &cut {
        Some(Ok(cut)) => explained_cut_first(scop, deps, target, cut).ok().flatten(),
        _ => None,
    };
    // The shortest complete explanation (the cut first's, the split
    // last's, the last split read off the rows; in that order where they
    // are as long), else the cut first's partial one, then the split
    // last's (its cut found, the schedule without it explained up to a
    // gap of its own).
    let last = explained_split_last(scop, deps, target).ok().flatten();
    let by_rows = explained_by_rows(scop, deps, target).ok().flatten();
    let shortest = [&first, &last, &by_rows]
        .into_iter()
        .flatten()
        .filter(|e| e.gap.is_none())
        .min_by_key(|e| length(e));
    if let Some(e) = shortest {
        return Ok(e.clone());
    }
    // Cuts on strip dates (a `peel` of a tile loop) read over the
    // iterators, where nothing else is complete.
    if let Ok(Ok(strips)) = cut::cut(scop, deps, target, true) {
        if let Ok(Some(e)) = explained_cut_first(scop, deps, target, &strips) {
            if e.gap.is_none() {
                return Ok(e);
            }
        }
    }
    if let Some(e) = first.or(last) {
        return Ok(e);
    }
    let split = target
        .statements
        .iter()
        .position(|s| s.pieces.len() > 1)
        .unwrap_or(0);
    let (gap, prefix) = match cut {
        Some(Err(gap)) => (gap, Vec::new()),
        Some(Ok(cut)) => (
            Gap {
                statement: scop.statements[split].name.clone(),
                reason: "its pieces, explained one at a time after the cut, do not give its \
                         schedule together, nor does one `iss` after the rest; not recovered yet"
                    .to_string(),
            },
            cut.directives,
        ),
        None => (
            Gap {
                statement: scop.statements[split].name.clone(),
                reason: "its pieces are beyond the recovery's arithmetic".to_string(),
            },
            Vec::new(),
        ),
    };
    let explained = replayed_on_pieces(scop, deps, target, &prefix, Some(gap.clone()));
    Ok(explained.ok().flatten().unwrap_or(Explanation {
        steps: Vec::new(),
        gap: Some(gap),
    }))
}

/// The cut's directives, then each piece's as a statement of its own,
/// replayed on the real schedule; `None` where they do not give the
/// target. The pads of other pieces' tiles are set aside at the tiles'
/// depths, and where that leaves a gap, also below them
/// ([`view::Pads`]).
fn explained_cut_first(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
    cut: &cut::Cut,
) -> Result<Option<Explanation>, ExplainError> {
    let at_tiles = explained_cut_first_with(scop, deps, target, cut, view::Pads::AtTiles)?;
    if at_tiles.as_ref().is_some_and(|e| e.gap.is_none()) {
        return Ok(at_tiles);
    }
    match explained_cut_first_with(scop, deps, target, cut, view::Pads::BelowTiles) {
        Ok(Some(e)) if e.gap.is_none() => Ok(Some(e)),
        _ => Ok(at_tiles),
    }
}

/// [`explained_cut_first`] with the pads `pads` says set aside.
fn explained_cut_first_with(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
    cut: &cut::Cut,
    pads: view::Pads,
) -> Result<Option<Explanation>, ExplainError> {
    let view = view::view(scop, deps, cut, target, pads)?;
    let mut recovery = Recovery::from(&view.scop, &view.deps, view.current.clone());
    let gap = recover(&mut recovery, &view.target)?;
    let found: Vec<Directive> = cut
        .directives
        .iter()
        .cloned()
        .chain(recovery.found)
        .collect();
    replayed_on_pieces(scop, deps, target, &found, gap)
}

/// [`super::explain`] of a target with pieces as its schedule without the
/// split, then one `iss` ([`last::split_last`]), then a piece's own
/// `reshape` or `shift` where one was given after the split
/// ([`last::after_split`]); `None` where that is not the target. Where
/// the schedule without the split is itself explained only up to a gap,
/// that prefix and its gap.
fn explained_split_last(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
) -> Result<Option<Explanation>, ExplainError> {
    let Some(last) = last::split_last(scop, target)? else {
        return Ok(None);
    };
    let mut recovery = Recovery::from(scop, deps, Schedule::original(scop));
    match recover(&mut recovery, &last.unsplit) {
        Ok(None) => {}
        Ok(Some(gap)) => {
            return replayed_on_pieces(scop, deps, target, &recovery.found, Some(gap));
        }
        Err(_) => return Ok(None),
    }
    let Ok(split) = apply::rewrite(scop, deps, &recovery.current, &last.iss) else {
        return Ok(None);
    };
    let Directive::Iss { beta, .. } = &last.iss else {
        return Ok(None);
    };
    let order = last::reorder(scop, &split, target, beta)?;
    let mut found = recovery.found;
    found.push(last.iss);
    found.extend(order.iter().cloned());
    if let Some(e) = replayed_on_pieces(scop, deps, target, &found, None)? {
        return Ok(Some(e));
    }
    // A piece `reshape`d or `shift`ed alone after the split.
    let mut after = split;
    if let Some(d) = &order {
        let Ok(next) = apply::rewrite(scop, deps, &after, d) else {
            return Ok(None);
        };
        after = next;
    }
    match last::after_split(scop, &after, target)? {
        Some(steps) if !steps.is_empty() => {
            found.extend(steps);
            replayed_on_pieces(scop, deps, target, &found, None)
        }
        _ => Ok(None),
    }
}

/// The directives an explanation gives.
pub(super) fn length(e: &Explanation) -> usize {
    e.steps
        .iter()
        .map(|s| match s {
            Step::One(_) => 1,
            Step::Group(ds) => ds.len(),
        })
        .sum()
}

/// [`super::explain`] of a target with pieces as the schedule before its
/// last `iss` or `peel`, read off the rows ([`written::split_by_rows`])
/// and explained as any schedule is (it may have pieces of its own), then
/// that split; `None` where that is not a complete explanation of the
/// target.
fn explained_by_rows(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
) -> Result<Option<Explanation>, ExplainError> {
    let Some(last) = written::split_by_rows(target)? else {
        return Ok(None);
    };
    let before = super::explain(scop, deps, &last.unsplit)?;
    if before.gap.is_some() {
        return Ok(None);
    }
    let mut found = flattened(before.steps);
    found.push(last.iss);
    replayed_on_pieces(scop, deps, target, &found, None)
}

/// `found` applied to the original schedule of `scop` (a directive that
/// changes nothing dropped) and grouped as [`grouped`] does; `None` when
/// `apply` refuses one, when they end on an illegal schedule, or, without
/// a `gap`, when they do not give `target`. Exact.
pub(super) fn replayed_on_pieces(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
    found: &[Directive],
    gap: Option<Gap>,
) -> Result<Option<Explanation>, ExplainError> {
    let mut current = Schedule::original(scop);
    let (mut kept, mut after) = (Vec::new(), Vec::new());
    let mut k = 0;
    while k < found.len() {
        let Ok(mut next) = apply::rewrite(scop, deps, &current, &found[k]) else {
            return Ok(None);
        };
        let mut d = found[k].clone();
        // `iss`, then `fuse`s of its parts one level deeper each: the
        // `iss` of the innermost loop fused.
        if let Some((deeper, schedule, fuses)) = split_deeper(scop, deps, &current, &found[k..])? {
            (d, next) = (deeper, schedule);
            k += fuses;
        }
        // `iss` on a loop's own counter, then `split` where `peel` splits.
        if let Some((peel, split)) = peel_of(&found[k]).zip(found.get(k + 1)) {
            let both = apply::rewrite(scop, deps, &next, split);
            let one = apply::rewrite(scop, deps, &current, &peel);
            if let (Ok(both), Ok(one)) = (both, one) {
                if both == one {
                    (d, next) = (peel, one);
                    k += 1;
                }
            }
        }
        k += 1;
        if next != current {
            kept.push(d);
            after.push(next.clone());
            current = next;
        }
    }
    let (steps, replayed, gave_up) = match grouped(scop, deps, &kept, &after, gap.is_some()) {
        Ok(done) => done,
        Err(ExplainError::NotReplayed(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    let gap = gave_up.or(gap);
    if gap.is_none() && difference(scop, &replayed, target)?.is_some() {
        return Ok(None);
    }
    Ok(Some(Explanation { steps, gap }))
}

/// Where `found` starts with an `iss` of the loop at `β` and `fuse`s of
/// `β·0`, `β·0·0`, …: the `iss` of the deepest loop fused, on the same
/// inequality, the schedule it gives from `current`, and how many of the
/// `fuse`s it stands for (the most it can). Exact: the schedule must be
/// the one the `iss` and its `fuse`s give.
fn split_deeper(
    scop: &Scop,
    deps: &[Dependence],
    current: &Schedule,
    found: &[Directive],
) -> Result<Option<(Directive, Schedule, usize)>, ExplainError> {
    let Some(Directive::Iss { beta, form }) = found.first() else {
        return Ok(None);
    };
    let fuses = found[1..]
        .iter()
        .enumerate()
        .take_while(|(i, d)| match d {
            Directive::Fuse { beta: b } => {
                b.len() == beta.len() + i + 1
                    && b.starts_with(beta)
                    && b[beta.len()..].iter().all(|&x| x == 0)
            }
            _ => false,
        })
        .count();
    for m in (1..=fuses).rev() {
        let mut given = current.clone();
        for d in &found[..=m] {
            let Ok(next) = apply::rewrite(scop, deps, &given, d) else {
                return Ok(None);
            };
            given = next;
        }
        let Directive::Fuse { beta: deepest } = &found[m] else {
            return Ok(None);
        };
        let mut deeper_form = form.clone();
        deeper_form.alphas.extend(std::iter::repeat_n(0, m));
        let deeper = Directive::Iss {
            beta: deepest.clone(),
            form: deeper_form,
        };
        let Ok(one) = apply::rewrite(scop, deps, current, &deeper) else {
            continue;
        };
        if difference(scop, &one, &given)?.is_none() {
            return Ok(Some((deeper, one, m)));
        }
    }
    Ok(None)
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

#[cfg(test)]
mod tests {
    use super::cut::cut;
    use super::domains::{domain, implies};
    use super::*;
    use crate::apply::SplitForm;
    use crate::explain::explain;
    use crate::lang::c::read_source;
    use crate::poly::Constraint;
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
        let cut = cut(&scop, &deps, &target, false)
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

    /// A split on a strip date, `c1 <= 2` on trisolv's strips of 4 of
    /// `i` (its second part), is left out of the domain as written and
    /// read over the iterator through the strip: `⌊i/4⌋ <= 2` is
    /// `i <= 11`.
    #[test]
    fn a_split_on_a_strip_date_is_read_over_the_iterator() {
        let (scop, deps) = scop_of("trisolv");
        let strip = Directive::Stripmine {
            beta: vec![0],
            depth: 1,
            size: 4,
        };
        let target = after(&scop, &deps, &[strip, iss(&[0], &[-1], &[], 2)]);
        let st = &target.statements[0];
        let np = scop.params.len();
        let mut row = vec![0; np + 1];
        row[np] = -1;
        let plain = domains::domain(&scop, 0, st, 1)
            .expect("no error")
            .expect("a domain");
        assert!(!implies(&plain, &Constraint::ineq(row.clone(), 11)).expect("exact"));
        let read = domains::domain_reading(&scop, 0, st, 1, true)
            .expect("no error")
            .expect("a domain");
        assert!(implies(&read, &Constraint::ineq(row.clone(), 11)).expect("exact"));
        assert!(!implies(&read, &Constraint::ineq(row, 10)).expect("exact"));
    }
}
