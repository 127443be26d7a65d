//! Whether a whole schedule is legal: every dependence respected
//! ([`crate::scop::validity::first_violation`]) and no loop marked parallel
//! or vector carrying one ([`crate::scop::validity::carried_dependence`]).
//! The one entry point for this question: [`super::apply`] asks it after
//! each directive, the CLI for a schedule loaded from JSON.

use crate::poly::PolyError;
use crate::scop::schedule::Mark;
use crate::scop::validity::{carried_dependence, first_violation, Violation};
use crate::scop::{Dependence, Schedule, Scop};

/// Why a schedule is not legal, with a witness pair of instances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// A dependence whose target is not dated after its source.
    Violation(Violation),
    /// The loop at `depth` around `statement`, marked parallel or vector,
    /// carries a dependence.
    Carried {
        statement: usize,
        depth: usize,
        violation: Violation,
    },
}

/// The first way `schedule` is illegal for `deps`, or `None` when it is
/// proven legal. Exact: a [`PolyError`] is returned, never read as legal.
pub fn first_illegality(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
) -> Result<Option<Illegal>, PolyError> {
    if let Some(v) = first_violation(scop, schedule, deps)? {
        return Ok(Some(Illegal::Violation(v)));
    }
    first_carried_mark(scop, deps, schedule)
}

/// The first loop marked parallel or vector that carries a dependence (a
/// directive may have moved statements into a marked loop, or changed its
/// dates). Exact; one carried-dependence test per marked loop.
pub fn first_carried_mark(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
) -> Result<Option<Illegal>, PolyError> {
    let mut checked: Vec<(Vec<i64>, usize)> = Vec::new();
    for (statement, st) in schedule.statements.iter().enumerate() {
        for (k, marks) in st.marks.iter().enumerate() {
            if !marks
                .iter()
                .any(|m| matches!(m, Mark::Parallel | Mark::Vector))
            {
                continue;
            }
            let depth = k + 1;
            for p in 0..st.pieces.len() {
                let Some(beta) = st.beta(p) else { continue };
                let prefix = beta[..depth].to_vec();
                if checked.contains(&(prefix.clone(), depth)) {
                    continue;
                }
                if let Some(violation) = carried_dependence(scop, schedule, deps, &prefix, depth)? {
                    return Ok(Some(Illegal::Carried {
                        statement,
                        depth,
                        violation,
                    }));
                }
                checked.push((prefix, depth));
            }
        }
    }
    Ok(None)
}
