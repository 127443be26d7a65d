//! The clauses `parallelize` options put on a parallel loop's pragma:
//! `schedule(kind[, chunk])`, `collapse(n)` and (on a vector loop too)
//! `reduction(op: x)`, and the check that a collapsed nest is one OpenMP
//! accepts: `n` loops perfectly nested (each the only node of the one
//! around it, none unrolled or of one iteration, each marked parallel: a
//! directive after `parallelize` may have moved another loop inside) whose
//! bounds read none of the collapsed loops' variables (a rectangular nest;
//! the scanner's bounds are only known here, so this is where a nest that
//! is not one is refused).

use crate::emit::scan::{Loop, Node};
use crate::scop::schedule::Mark;

/// The clauses of `l`'s pragma (each with a leading space) and the number
/// of loops inside it that the pragma covers (`collapse(n)` covers
/// `n - 1`), or why the nest cannot be collapsed.
pub(super) fn parallel_clauses(l: &Loop) -> Result<(String, u32), String> {
    let mut text = String::new();
    let mut inner = 0;
    for m in &l.marks {
        match m {
            Mark::Schedule(kind, None) => text.push_str(&format!(" schedule({})", kind.name())),
            Mark::Schedule(kind, Some(chunk)) => {
                text.push_str(&format!(" schedule({}, {chunk})", kind.name()))
            }
            Mark::Collapse(n) => {
                check_collapsible(l, *n)?;
                text.push_str(&format!(" collapse({n})"));
                inner = n.saturating_sub(1);
            }
            _ => {}
        }
    }
    Ok((text, inner))
}

/// ` reduction(op: x)` on a parallel or vector loop that reduces `x`
/// (once, also on a `for simd`), else nothing.
pub(super) fn reduction_clause(l: &Loop) -> String {
    l.marks
        .iter()
        .find_map(|m| match m {
            Mark::Reduction(op, x) => Some(format!(" reduction({}: {x})", op.symbol())),
            _ => None,
        })
        .unwrap_or_default()
}

/// Whether `l` heads `n` perfectly nested, rectangular loops, none
/// unrolled.
fn check_collapsible(l: &Loop, n: u32) -> Result<(), String> {
    let refuse = |why: String| Err(format!("`collapse({n})` on the loop over {}: {why}", l.var));
    let mut nest = vec![l];
    while nest.len() < n as usize {
        let current = nest[nest.len() - 1];
        let next = match current.body.as_slice() {
            [Node::For(inner)] if !inner.once => inner,
            _ => {
                return refuse(format!(
                    "the loop over {} does not hold exactly one loop (code generation printed {}), and OpenMP collapses a perfect nest",
                    current.var,
                    describe(&current.body)
                ))
            }
        };
        // Each collapsed loop was proven parallel on its own (a later
        // directive may have moved another loop under the collapsed one).
        if !next.marks.contains(&Mark::Parallel) {
            return refuse(format!(
                "the loop over {} inside it is not marked parallel",
                next.var
            ));
        }
        if let Some(outer) = nest
            .iter()
            .find(|o| next.lower.mentions(&o.var) || next.upper.mentions(&o.var))
        {
            return refuse(format!(
                "the bounds of the loop over {} depend on {}, and polyc collapses rectangular nests only",
                next.var, outer.var
            ));
        }
        nest.push(next);
    }
    match nest.iter().find(|m| is_unrolled(m)) {
        Some(m) => refuse(format!(
            "the loop over {} is unrolled, and OpenMP collapses plain loops only",
            m.var
        )),
        None => Ok(()),
    }
}

fn is_unrolled(l: &Loop) -> bool {
    l.marks.iter().any(|m| {
        matches!(
            m,
            Mark::Unroll(k) | Mark::UnrollNoEpilog(k) | Mark::UnrollJam(k) if *k > 1
        )
    })
}

/// What a loop body that is not one loop holds, in words.
fn describe(body: &[Node]) -> String {
    match body {
        [Node::For(_)] => "a loop of one iteration".to_string(),
        [Node::If { .. }] => "a guard".to_string(),
        [Node::Stmt { .. }] => "a statement".to_string(),
        nodes => format!("{} nodes", nodes.len()),
    }
}
