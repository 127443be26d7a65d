//! A vector loop that is not innermost in the target: `vectorize` wants
//! an innermost loop, so the mark is given where its loop was one.
//!
//! Where `embed` wrapped the loop's statements in loops of one iteration
//! after it was marked, the mark is given between an `unembed` and the
//! `embed` that gives those loops back, when that round trip gives the
//! schedule back exactly (with a `shift` of each loop of one iteration
//! to date 0 before, and back after, where one was shifted after its
//! `embed`). Where those loops were rewritten since (stripped, skewed,
//! reshaped, fused: no loop `unembed` takes), the mark is given earlier
//! instead: after the latest directive found at which the statements'
//! innermost loop becomes the target's vector loop once the directives
//! after it are replayed.
//!
//! Must not know: recipe syntax, the other phases.

use super::{marks_but_at, shortest_prefix};
use crate::apply::{ApplyError, Directive};
use crate::explain::shape::date_forms;
use crate::explain::{difference_but_marks, rewrites, shift, ExplainError, Recovery};
use crate::scop::schedule::Mark;
use crate::scop::{Schedule, Scop};

/// Push the mark directive `d`, whose loop has the target's marks
/// `target_marks` (per statement); a `vectorize` refused because its loop
/// is not innermost is set where it was ([`vectorize_inside_embeds`],
/// else [`vectorize_earlier`]), when that gives the schedule before with
/// `d`'s marks added (else the first refusal stands). So is a `vectorize`
/// that gives its loop another `safelen` than the target's: a mark keeps
/// the `safelen` it was given, and a later `grain` that stretched the
/// loop's dates would now give a larger one ([`other_vector_marks`]).
pub(super) fn push_mark(
    r: &mut Recovery<'_>,
    d: Directive,
    target_marks: &dyn Fn(usize) -> Vec<Mark>,
) -> Result<(), ExplainError> {
    let Directive::Vectorize { beta, depth, .. } = &d else {
        return r.push(d);
    };
    let (before, found) = (r.current.clone(), r.found.len());
    let refusal = match r.push(d.clone()) {
        Ok(()) => match other_vector_marks(r, beta, *depth, target_marks) {
            None => return Ok(()),
            Some(why) => {
                undo(r, &before, found);
                Box::new((d.clone(), why))
            }
        },
        Err(ExplainError::Refused(refused)) => refused,
        Err(e) => return Err(e),
    };
    // Inside the embeds the loop holds only its own statements'
    // dependences: its `safelen` may differ from the target's, as that of
    // a `vectorize` given last may.
    match vectorize_inside_embeds(r, &d, beta, *depth) {
        Ok(true) if other_vector_marks(r, beta, *depth, target_marks).is_none() => return Ok(()),
        Ok(_) | Err(ExplainError::Refused(_)) => undo(r, &before, found),
        Err(e) => return Err(e),
    }
    match vectorize_earlier(r, &d, beta, *depth, target_marks)? {
        true => Ok(()),
        false => Err(ExplainError::Refused(refusal)),
    }
}

/// Back to the schedule `before`, with the first `found` directives.
fn undo(r: &mut Recovery<'_>, before: &Schedule, found: usize) {
    r.current = before.clone();
    r.found.truncate(found);
    r.after.truncate(found);
}

/// `unembed` the loops of one iteration inside the loop at `depth`
/// around the statements under `beta`, `d` (a `vectorize` of that loop),
/// then `embed` them back; whether that gave the schedule before, with
/// `d`'s mark added. Each unembedded loop must be unmarked (`embed` gives
/// a loop without marks); the statements may have different numbers of
/// them (none, for one `embed` left alone).
fn vectorize_inside_embeds(
    r: &mut Recovery<'_>,
    d: &Directive,
    beta: &[i64],
    depth: usize,
) -> Result<bool, ExplainError> {
    let before = r.current.clone();
    let inside: Vec<usize> = (0..before.statements.len())
        .filter(|&s| {
            before.statements[s]
                .beta(0)
                .is_some_and(|b| b.starts_with(beta))
        })
        .collect();
    // The loops of one iteration inside the loop, per statement (none
    // for a statement `embed` left alone).
    let levels: Vec<usize> = inside
        .iter()
        .map(|&s| before.statements[s].depth().saturating_sub(depth))
        .collect();
    let unmarked_inside = inside.iter().all(|&s| {
        let st = &before.statements[s];
        st.depth() >= depth && st.marks[depth..].iter().all(|m| m.is_empty())
    });
    if levels.iter().all(|&l| l == 0) || !unmarked_inside {
        return Ok(false);
    }
    // `unembed` takes a loop of one iteration at a constant date only.
    for (&s, &lv) in inside.iter().zip(&levels) {
        for level in depth + 1..=depth + lv {
            let date = date_form(r.scop, &r.current, s, level)?;
            let n = r.scop.statements[s].iterators.len();
            if let Some(by) =
                date.filter(|f| f[..n].iter().all(|&v| v == 0) && f[n..].iter().any(|&v| v != 0))
            {
                let beta = r.beta(s)?;
                r.push(shift(beta, level, &by[n..]))?;
            }
        }
    }
    // Once on the loop where every statement has as many, else on each
    // statement alone (two-loops' second statement embedded in the
    // vector loop it shares with the first).
    if levels.iter().all(|&l| l == levels[0]) {
        for _ in 0..levels[0] {
            r.push(Directive::Unembed {
                beta: beta.to_vec(),
            })?;
        }
    } else {
        for (&s, &lv) in inside.iter().zip(&levels) {
            for _ in 0..lv {
                let beta = r.beta(s)?;
                r.push(Directive::Unembed { beta })?;
            }
        }
    }
    r.push(d.clone())?;
    let most = levels.iter().copied().max().unwrap_or(0);
    for round in 0..most {
        for (&s, &lv) in inside.iter().zip(&levels) {
            if round < lv {
                let beta = r.beta(s)?;
                r.push(Directive::Embed { beta })?;
            }
        }
    }
    for (&s, &lv) in inside.iter().zip(&levels) {
        for level in depth + 1..=depth + lv {
            if let Some(by) = shift_back(r, &before, s, level)? {
                let beta = r.beta(s)?;
                r.push(shift(beta, level, &by))?;
            }
        }
    }
    let d_marks = |s: usize| {
        let marks = &r.current.statements[s].marks;
        marks.get(depth - 1).cloned().unwrap_or_default()
    };
    let marks_kept = marks_but_at(&before, &r.current, &inside, depth - 1, d_marks);
    Ok(marks_kept && difference_but_marks(r.scop, &before, &r.current)?.is_none())
}

/// What `embed` did not give back of statement `s`'s loop of one
/// iteration at `depth`: its date in `was` less its date now, as the
/// parameters' coefficients then the constant, where the two differ by
/// those alone (a loop of one iteration `shift`ed after its `embed`:
/// 2mm's `shift([2, 0, 0, 0], 3, [0, 2, 0, 0], -1)`).
fn shift_back(
    r: &Recovery<'_>,
    was: &Schedule,
    s: usize,
    depth: usize,
) -> Result<Option<Vec<i64>>, ExplainError> {
    let n = r.scop.statements[s].iterators.len();
    let (Some(was), Some(now)) = (
        date_form(r.scop, was, s, depth)?,
        date_form(r.scop, &r.current, s, depth)?,
    ) else {
        return Ok(None);
    };
    if was[..n] != now[..n] {
        return Ok(None);
    }
    let by: Option<Vec<i64>> = now[n..]
        .iter()
        .zip(&was[n..])
        .map(|(a, b)| a.checked_sub(*b))
        .collect();
    Ok(by.filter(|by| by.iter().any(|&v| v != 0)))
}

/// Statement `s`'s date at `depth` in `schedule` as an affine form of its
/// iterators, the parameters and 1, where one equality gives it.
fn date_form(
    scop: &Scop,
    schedule: &Schedule,
    s: usize,
    depth: usize,
) -> Result<Option<Vec<i64>>, ExplainError> {
    let Some(piece) = schedule.statements[s].pieces.first() else {
        return Ok(None);
    };
    let n = scop.statements[s].iterators.len();
    Ok(date_forms(piece, scop.params.len(), n)?
        .get(depth - 1)
        .cloned()
        .flatten())
}

/// Where a `vectorize` of the loop at `depth` around the statements
/// under `beta`, just pushed, gave a statement of its loop other vector
/// marks than the target's (another `safelen`): why, as the
/// refusal that stands if no earlier place gives the target's. Cheap.
fn other_vector_marks(
    r: &Recovery<'_>,
    beta: &[i64],
    depth: usize,
    target_marks: &dyn Fn(usize) -> Vec<Mark>,
) -> Option<ApplyError> {
    let vector_marks =
        |marks: Vec<Mark>| -> Vec<Mark> { marks.into_iter().filter(is_vector_mark).collect() };
    let safelen = |marks: &[Mark]| {
        marks.iter().find_map(|m| match m {
            Mark::Safelen(n) => Some(format!("`safelen({n})`")),
            _ => None,
        })
    };
    r.current.statements.iter().enumerate().find_map(|(s, st)| {
        let inside = st.beta(0).is_some_and(|b| b.starts_with(beta));
        let given = vector_marks(st.marks.get(depth - 1).cloned().unwrap_or_default());
        let wanted = vector_marks(target_marks(s));
        let same = given.len() == wanted.len() && given.iter().all(|m| wanted.contains(m));
        (inside && !same).then(|| {
            let none = || "none".to_string();
            ApplyError::precondition(format!(
                "it gives the loop {} in dates here, where the schedule has {} (a mark keeps \
                 the `safelen` it was given when a later directive stretches the loop's dates)",
                safelen(&given).unwrap_or_else(none),
                safelen(&wanted).unwrap_or_else(none),
            ))
        })
    })
}

/// Whether `vectorize` sets `m` (with its `safelen` and `reduction`).
fn is_vector_mark(m: &Mark) -> bool {
    matches!(m, Mark::Vector | Mark::Safelen(_) | Mark::Reduction(..))
}

/// `d`, a `vectorize` of the loop at `depth` around the statements under
/// `beta`, which is not innermost now, given after an earlier directive
/// found instead, on the innermost loop of those statements there, and
/// the directives after it replayed: at the latest place where that
/// gives the schedule before, with the target's vector marks
/// (`target_marks`, of the kinds `vectorize` sets) added at `depth` and
/// nothing else changed. The replayed directives are rewrites, as every
/// directive found is; the grouping checks them all. Whether one was
/// found (else nothing is done).
fn vectorize_earlier(
    r: &mut Recovery<'_>,
    d: &Directive,
    beta: &[i64],
    depth: usize,
    target_marks: &dyn Fn(usize) -> Vec<Mark>,
) -> Result<bool, ExplainError> {
    let Directive::Vectorize { reduction, .. } = d else {
        return Ok(false);
    };
    if depth == 0 {
        return Ok(false);
    }
    let before = r.current.clone();
    let n = before.statements.len();
    let inside: Vec<usize> = (0..n)
        .filter(|&s| {
            before.statements[s]
                .beta(0)
                .is_some_and(|b| b.starts_with(beta))
        })
        .collect();
    // The marks at `depth` the replay must give: the ones before, and the
    // target's vector marks on the loop's statements.
    let wanted = |s: usize| {
        let mut marks = before.statements[s]
            .marks
            .get(depth - 1)
            .cloned()
            .unwrap_or_default();
        if inside.contains(&s) {
            for m in target_marks(s) {
                if is_vector_mark(&m) && !marks.contains(&m) {
                    marks.push(m);
                }
            }
        }
        marks
    };
    let everyone: Vec<usize> = (0..n).collect();
    for k in (0..r.found.len()).rev() {
        let at = if k == 0 { &r.start } else { &r.after[k - 1] };
        let betas: Vec<Vec<i64>> = at.statements.iter().filter_map(|t| t.beta(0)).collect();
        // The innermost loop of each statement of the loop there: on the
        // loop, else on the statement alone (its loop holds statements
        // with loops inside it there).
        let mut tried: Vec<Directive> = Vec::new();
        for &s in &inside {
            let st = &at.statements[s];
            let (Some(b), inner) = (st.beta(0), st.depth()) else {
                continue;
            };
            if inner == 0 {
                continue;
            }
            for v_beta in [shortest_prefix(&betas, &b[..inner]), b.clone()] {
                let v = Directive::Vectorize {
                    beta: v_beta,
                    depth: inner,
                    reduction: reduction.clone(),
                };
                if tried.contains(&v) {
                    continue;
                }
                tried.push(v.clone());
                let Some(after) = replayed_with(r, at, &v, k) else {
                    continue;
                };
                let Some(last) = after.last() else { continue };
                if marks_but_at(&before, last, &everyone, depth - 1, wanted)
                    && difference_but_marks(r.scop, &before, last)?.is_none()
                {
                    r.current = last.clone();
                    r.found.insert(k, v);
                    r.after.truncate(k);
                    r.after.extend(after);
                    return Ok(true);
                }
            }
        }
    }
    Ok(false)
}

/// `v` rewritten into `at`, the schedule before the directive found at
/// position `k`, then that directive and every one after it: the
/// schedule after each (`v`'s first), or `None` where one is refused.
fn replayed_with(
    r: &Recovery<'_>,
    at: &Schedule,
    v: &Directive,
    k: usize,
) -> Option<Vec<Schedule>> {
    let directives = std::iter::once(v).chain(&r.found[k..]);
    let out = rewrites(r.scop, r.deps, at, directives);
    (out.len() == r.found.len() - k + 1).then_some(out)
}
