//! A smaller scop of some of a region's statements, with the dependences
//! among them renumbered: what `auto(…, [b])` schedules on its own
//! (`auto::subtree`) and what `--explain` explains on its own
//! (`explain::nest`). A dependence to or from a statement outside is left
//! out; the callers keep what it asks for (the order of the children
//! around the subtree) and check the whole region afterwards.
//!
//! Must not know: schedules, the schedulers.

use super::{Dependence, Scop};

/// `scop` with only the statements `members` (indices into its
/// statements, in that order), and the dependences among them numbered
/// as `members` numbers them. Cheap.
pub fn sub_region(scop: &Scop, deps: &[Dependence], members: &[usize]) -> (Scop, Vec<Dependence>) {
    let index = |s: usize| members.iter().position(|&m| m == s);
    let sub = Scop {
        statements: members
            .iter()
            .map(|&s| scop.statements[s].clone())
            .collect(),
        ..scop.clone()
    };
    let sub_deps = deps
        .iter()
        .filter_map(|d| {
            Some(Dependence {
                source: index(d.source)?,
                target: index(d.target)?,
                ..d.clone()
            })
        })
        .collect();
    (sub, sub_deps)
}
