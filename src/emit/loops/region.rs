//! One OpenMP parallel region around a wavefront: a sequential loop whose
//! every statement runs inside parallel loops is printed as
//!
//! ```c
//! #pragma omp parallel private(i, t)
//! for (i = …; …; i++) {      // every thread runs the sequential loop
//!   #pragma omp for          // and shares each step's iterations;
//!   for (j = …; …; j++) …    // the implicit barrier orders the steps
//! }
//! ```
//!
//! instead of a `#pragma omp parallel for` per step: the threads are forked
//! and joined once, not once per step (issue 16: a fork per step fell from
//! 3.7× to 0.27× on two threads beside a busy core).
//!
//! The shape is sound because every thread runs the same sequential code
//! on private copies of its variables (the bounds read only parameters and
//! outer loop variables, so all threads see the same steps), no statement
//! runs outside a work-shared loop, and each `omp for` ends with a barrier,
//! as the join of a `parallel for` did.

use crate::emit::scan::{Loop, Node};
use crate::scop::schedule::Mark;

/// Whether `l` heads a wavefront region: it has no mark, and every
/// statement under it is inside a printed parallel loop (one with no
/// unroll mark: an unrolled loop's remainder runs after the shared loop
/// and would run once per thread), with at least one such loop and no
/// other mark on the way to it.
pub(super) fn heads_region(l: &Loop) -> bool {
    !l.once && l.marks.is_empty() && covered(&l.body) == Some(true)
}

/// Whether `l` is a loop the region shares among its threads (`omp for`).
pub(super) fn is_shared(l: &Loop) -> bool {
    !l.once && l.marks.contains(&Mark::Parallel)
}

/// `None` when a statement of `nodes` runs outside every shared loop (or a
/// mark stands in the way); else whether `nodes` holds a shared loop.
fn covered(nodes: &[Node]) -> Option<bool> {
    let mut found = false;
    for n in nodes {
        let inner = match n {
            Node::Stmt { .. } => return None,
            Node::If {
                body, otherwise, ..
            } => covered(body)? | covered(otherwise)?,
            Node::For(l) if is_shared(l) => {
                let clause_or_mark = |m: &Mark| {
                    matches!(
                        m,
                        Mark::Parallel
                            | Mark::Vector
                            | Mark::Schedule(..)
                            | Mark::Collapse(_)
                            | Mark::Safelen(_)
                            | Mark::Reduction(..)
                    )
                };
                if !l.marks.iter().all(clause_or_mark) {
                    return None;
                }
                true
            }
            Node::For(l) if l.once || l.marks.is_empty() => covered(&l.body)?,
            Node::For(_) => return None,
        };
        found |= inner;
    }
    Some(found)
}
