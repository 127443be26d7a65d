//! Automatic schedulers: Feautrier's and Pluto's as isl implements them
//! (the Verdoolaege & Janssens report, §6–7). Being built (issue 15):
//!
//! * [`graph`]: one node per statement, one edge per dependence disjunct,
//!   with the Farkas forms of each computed once;
//! * [`ilp`]: the (I)LP variables and the rows an edge gives them;
//! * [`feautrier`]: one row that carries as many dependences as it can;
//! * [`independence`] and [`pluto`]: one permutable band, its members
//!   linearly independent, coincident while they can be;
//! * [`scheduler`]: the driver, bands from the outside in;
//! * [`tree`]: the result as a tree and in Clay form.
//!
//! Not yet: tiling, vector marks, the options, `--explain`.
//!
//! Must not know: recipe syntax, code generation, the CLI. A schedule from
//! here is checked by `apply::legality` like any recipe's (in `session`).

mod feautrier;
mod graph;
mod ilp;
mod independence;
mod pluto;
mod scheduler;
mod tree;

pub use scheduler::{Algorithm, ScheduleFailure};

use crate::scop::{Dependence, Schedule, Scop};

/// The Clay-form schedule `algorithm` finds for `scop` under `deps`, with
/// parallel marks on outer coincident loops. Not checked here: the caller
/// checks it as it checks a recipe.
pub fn schedule(
    scop: &Scop,
    deps: &[Dependence],
    algorithm: Algorithm,
) -> Result<Schedule, ScheduleFailure> {
    Ok(scheduler::schedule_tree(scop, deps, algorithm)?.to_schedule(scop))
}
