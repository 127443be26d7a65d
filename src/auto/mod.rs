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
//! * [`tree`]: the result as a tree and in Clay form;
//! * [`locality`]: which member of a band runs innermost;
//! * [`tiling`]: tiles, loop order and parallel and vector marks, as
//!   `apply` rewrites;
//! * [`subtree`]: one top-level nest scheduled on its own (`auto(pluto,
//!   [b])`).
//!
//! Not yet: tile sizes from the footprint, Pluto's fusion below the
//! outermost level and isl's incremental clustering, `wavefront`, `auto` on
//! a subtree inside a loop, `--explain`.
//!
//! Must not know: recipe syntax, code generation, the CLI. A schedule from
//! here is checked by `apply::legality` like any recipe's (in `session`).

mod feautrier;
mod graph;
mod ilp;
mod independence;
mod locality;
mod pluto;
mod scheduler;
mod subtree;
mod tiling;
mod tree;

pub use scheduler::{Algorithm, Fusion, ScheduleFailure};
pub use subtree::schedule_nest;

use crate::apply::ApplyError;
use crate::scop::{Dependence, Schedule, Scop};

/// What `auto(...)` is asked for besides the scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AutoOptions {
    /// The tile size of every permutable band of two or more members;
    /// `None`: no tiling.
    pub tile: Option<i64>,
    /// Mark the outermost coincident loop of each band parallel.
    pub parallel: bool,
    /// How much the outermost level fuses.
    pub fusion: Fusion,
}

/// The tile size when none is given.
pub const DEFAULT_TILE: i64 = 32;

impl Default for AutoOptions {
    fn default() -> AutoOptions {
        AutoOptions {
            tile: Some(DEFAULT_TILE),
            parallel: true,
            fusion: Fusion::Smart,
        }
    }
}

/// Why `auto(...)` gave no schedule.
#[derive(Clone, Debug)]
pub enum AutoFailure {
    /// The scheduler found none.
    Schedule(ScheduleFailure),
    /// A tiling or marking step was refused (a scheduler bug: its bands
    /// should be permutable and its coincident members parallel).
    Directive(ApplyError),
}

/// The Clay-form schedule `algorithm` finds for `scop` under `deps`,
/// tiled and marked as `options` ask. The tiling and marking steps are
/// `apply` rewrites (a vector mark with its own check); the caller checks
/// the whole schedule as it checks a recipe's.
pub fn schedule(
    scop: &Scop,
    deps: &[Dependence],
    algorithm: Algorithm,
    options: AutoOptions,
) -> Result<Schedule, AutoFailure> {
    let tree = scheduler::schedule_tree(scop, deps, algorithm, options.fusion)
        .map_err(AutoFailure::Schedule)?;
    let plain = tree.to_schedule(scop, false);
    tiling::tile_and_mark(scop, deps, &tree, plain, options.tile, options.parallel)
        .map_err(AutoFailure::Directive)
}
