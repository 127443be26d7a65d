//! A schedule explained from a start that is not the original order,
//! where the two differ in one top-level nest only and the start leaves
//! that nest at its original dates: what `auto(…, [b])` does after a
//! recipe's last data-layout call, on a program whose other nests an
//! earlier `auto` or directive had transformed already.
//!
//! The nest's statements, with the dependences among them, form a
//! smaller scop whose one nest sits at β date 0, as the subtree
//! scheduler forms it (`auto::subtree`). The nest's part of the target,
//! moved to β date 0, is explained on that scop, and each directive found
//! is moved back to the nest's place `b` (its β-vectors' first date plus
//! `b`). A directive of the whole small scop (`β = []`) has no such place:
//! then there is no explanation here. The caller replays the whole
//! recipe on the real program and compares it with the target.
//!
//! Must not know: recipe syntax, the CLI.

use super::{explain, ExplainError, Explanation, Step};
use crate::apply::tree::set_constant_date;
use crate::apply::Directive;
use crate::scop::schedule::constant_date;
use crate::scop::{sub_region, Dependence, Schedule, Scop, StatementSchedule};

/// The directives that give `target` from `start` (a schedule of `scop`),
/// where they differ only in the statements of one top-level nest that
/// `start` leaves at their original dates but for its β date 0; `None`
/// where they differ otherwise, or the nest's explanation needs a
/// directive on the whole region. A gap in the nest's explanation is
/// kept, with the directives before it.
pub fn explained_from(
    scop: &Scop,
    deps: &[Dependence],
    start: &Schedule,
    target: &Schedule,
) -> Result<Option<Explanation>, ExplainError> {
    let top = |st: &StatementSchedule| match &st.pieces[..] {
        [piece] => constant_date(piece, 0),
        _ => None,
    };
    let n = scop.statements.len();
    if start.statements.len() != n || target.statements.len() != n {
        return Ok(None);
    }
    let changed: Vec<usize> = (0..n)
        .filter(|&s| start.statements[s] != target.statements[s])
        .collect();
    let Some(&first) = changed.first() else {
        return Ok(Some(Explanation {
            steps: Vec::new(),
            gap: None,
        }));
    };
    let Some(b) = top(&start.statements[first]) else {
        return Ok(None);
    };
    let members: Vec<usize> = (0..n)
        .filter(|&s| top(&start.statements[s]) == Some(b))
        .collect();
    let original = Schedule::original(scop);
    let at_original = members.iter().all(|&s| {
        let st = &start.statements[s];
        let moved = set_constant_date(&original.statements[s].pieces[0], 0, b);
        st.pieces == [moved] && st.marks.iter().all(Vec::is_empty)
    });
    if !at_original || changed.iter().any(|s| !members.contains(s)) {
        return Ok(None);
    }
    let (mut sub, sub_deps) = sub_region(scop, deps, members.as_slice());
    for st in &mut sub.statements {
        st.schedule = set_constant_date(&st.schedule, 0, 0);
    }
    let mut sub_target = Schedule {
        statements: Vec::new(),
    };
    for &s in &members {
        let mut st = target.statements[s].clone();
        for piece in &mut st.pieces {
            let Some(at) = constant_date(piece, 0).and_then(|v| v.checked_sub(b)) else {
                return Ok(None);
            };
            if at < 0 {
                return Ok(None);
            }
            *piece = set_constant_date(piece, 0, at);
        }
        sub_target.statements.push(st);
    }
    let e = explain(&sub, &sub_deps, &sub_target)?;
    let mut steps = Vec::new();
    for step in e.steps {
        let moved = match step {
            Step::One(d) => moved_to(d, b).map(Step::One),
            Step::Group(ds) => ds
                .into_iter()
                .map(|d| moved_to(d, b))
                .collect::<Option<Vec<_>>>()
                .map(Step::Group),
        };
        let Some(moved) = moved else {
            return Ok(None);
        };
        steps.push(moved);
    }
    Ok(Some(Explanation { steps, gap: e.gap }))
}

/// `d` of the small scop at the nest's place `b`: each of its β-vectors'
/// first date plus `b`; `None` for a directive on the whole region.
fn moved_to(mut d: Directive, b: i64) -> Option<Directive> {
    for beta in d.betas_mut() {
        let top = beta.first_mut()?;
        *top = top.checked_add(b)?;
    }
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_move_to_the_nest_and_none_of_the_whole_region() {
        let block = Directive::Block {
            first: vec![0, 1],
            second: vec![1],
        };
        assert_eq!(
            moved_to(block, 3),
            Some(Directive::Block {
                first: vec![3, 1],
                second: vec![4],
            })
        );
        let reorder = Directive::Reorder {
            beta: Vec::new(),
            order: vec![1, 0],
        };
        assert_eq!(moved_to(reorder, 3), None, "a directive on the region");
    }
}
