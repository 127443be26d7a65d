//! Automatic schedulers: Feautrier's and Pluto's as isl implements them
//! (the Verdoolaege & Janssens report, §6–7), and the spatial scheduler of
//! Zinenko et al. (CC'18), which chooses Pluto's band members for reuse:
//!
//! * [`graph`]: one node per statement, one edge per dependence disjunct,
//!   with the Farkas forms of each computed once;
//! * [`distance`]: an edge's distance on schedule rows, exactly;
//! * [`ilp`]: the (I)LP variables and the rows an edge gives them;
//! * [`feautrier`]: one row that carries as many dependences as it can;
//! * [`coalescing`]: no row that runs two loops as one (`100i + j`);
//! * [`independence`] and [`pluto`]: one permutable band, its members
//!   linearly independent, coincident while they can be;
//! * [`reuse`] and [`spatial`]: each statement's reuse groups, and the
//!   spatial scheduler's band, whose members keep that reuse inside one
//!   iteration, temporal then spatial, group by group;
//! * [`scheduler`]: the driver, bands from the outside in;
//! * [`clustering`]: isl's incremental clustering of a level's strongly
//!   connected components, merged while the merged band loses nothing;
//! * [`shared_reads`]: nests left apart that read one array the same
//!   way, fused in one band that reads it once;
//! * [`tree`]: the result as a tree and in Clay form;
//! * [`locality`]: which member of a band runs innermost, and the tile
//!   size from the band's data footprint;
//! * [`band_sites`]: the tree's bands as tiling sees them, and what
//!   surrounds each;
//! * [`tiling`]: tiles, wavefronts, loop order and parallel and vector
//!   marks, as `apply` rewrites;
//! * [`gpu_map`]: with `target = gpu`, which tile and point loops become
//!   CUDA blocks and threads;
//! * [`choice`]: what was chosen for each band, in words;
//! * [`subtree`]: one top-level nest or one subtree inside loops scheduled
//!   on its own (`auto(pluto, [b])`, `auto(pluto, [b, c])`).
//!
//! Not yet: Pluto's fusion heuristics below the outermost level (polyc
//! clusters there, as isl does). `--explain` is [`crate::explain`].
//!
//! Must not know: recipe syntax, code generation, the CLI. A schedule from
//! here is checked by `apply::legality` like any recipe's (in `session`).

mod band_sites;
mod choice;
mod clustering;
mod coalescing;
mod distance;
mod feautrier;
mod gpu_map;
mod graph;
mod ilp;
mod independence;
mod locality;
mod pluto;
mod reuse;
mod scheduler;
mod shared_reads;
mod spatial;
mod subtree;
mod tiling;
mod tree;

#[cfg(test)]
mod minimiser_bench;

pub use choice::BandChoice;
pub use scheduler::{Algorithm, Fusion, ScheduleFailure, SpatialOptions};
pub use subtree::schedule_nest;

use crate::apply::proofs::ProvenJam;
use crate::apply::ApplyError;
use crate::scop::{Dependence, Schedule, Scop};
use feautrier::AffineRow;

/// What `auto(...)` is asked for besides the scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AutoOptions {
    /// How the permutable bands of two or more members are tiled.
    pub tile: TileSize,
    /// Mark the outermost coincident loop of each band parallel.
    pub parallel: bool,
    /// How much the outermost level fuses.
    pub fusion: Fusion,
    /// The answer to a level with no coincident first member ([`Wavefront`]).
    pub wavefront: Wavefront,
    /// Unroll by 4 and jam the point loop around a vector loop when it is
    /// a reduction loop (`tiling`, Pluto-style unroll-and-jam).
    pub unroll_jam: bool,
    /// With `unroll_jam`, jam the coincident point loop around that
    /// reduction loop too (a register tile). Not proven when offered: the
    /// caller's check of the whole schedule proves both jams together,
    /// and `session::auto` schedules again without register tiles when it
    /// does not.
    pub register_tile: bool,
    /// `target = gpu`: map each outermost band with coincident members to
    /// CUDA blocks (its tile loops) and threads (its point loops) instead
    /// of marking loops parallel and vector (`tiling`).
    pub gpu: bool,
}

/// What `pluto` does at a level where no band can start with a coincident
/// member (a stencil's time loop, lu's and floyd-warshall's `k`, carry
/// every dependence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wavefront {
    /// isl's answer (`wavefront = false`): one Feautrier row, then a
    /// coincident band inside it.
    Never,
    /// Pluto's answer (`wavefront = true`): a permutable band none of whose
    /// members is coincident, tiled whatever its reuse, its tiles run as a
    /// wavefront (the outermost tile loop skewed by the next, which is then
    /// parallel).
    Always,
    /// Pluto's band where it has two members or more and none is skewed
    /// (its members are loops of the program: lu, floyd-warshall,
    /// cholesky, trisolv's forward sweep) and the statements' register
    /// pressure is at most `spatial`'s limit (CC'18 §4.6), isl's answer
    /// elsewhere (a stencil's skewed point loops, which gcc does not
    /// vectorise). The default; [`Wavefront::Never`] with `target = gpu`
    /// or `tile = false`.
    Unskewed,
    /// Not an option: what the default tries where isl's answer left a
    /// sequential band over several statements (a stencil's time loop):
    /// Pluto's band, skewed or not, under four times `Unskewed`'s
    /// register-pressure limit (`spatial`'s band kept skewed too); kept
    /// only where each skewed wavefront band got its statements split into
    /// their own innermost loops and a vector mark ([`schedule_below`]).
    Sweeps,
}

/// The tile size of the bands `auto` tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileSize {
    /// No tiles (`tile = false`).
    Off,
    /// This size in every member (`tile = 32`).
    Fixed(i64),
    /// The largest size whose tile's data fits a level-1 cache (the
    /// default; `locality::footprint_tile`).
    Footprint,
}

impl Default for AutoOptions {
    fn default() -> AutoOptions {
        AutoOptions {
            tile: TileSize::Footprint,
            parallel: true,
            fusion: Fusion::Smart,
            wavefront: Wavefront::Unskewed,
            unroll_jam: true,
            register_tile: true,
            gpu: false,
        }
    }
}

/// What `auto(...)` gives: the schedule, and what it chose for each band
/// of the scheduler's tree, outermost first.
#[derive(Clone, Debug)]
pub struct AutoSchedule {
    pub schedule: Schedule,
    pub bands: Vec<BandChoice>,
    /// Loops proven jammable alone on the way (each, with what the proof
    /// read, for [`crate::apply::legality::first_illegality_but_jams`]).
    pub proven_jams: Vec<ProvenJam>,
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
) -> Result<AutoSchedule, AutoFailure> {
    let around = vec![Vec::new(); scop.statements.len()];
    schedule_below(scop, deps, algorithm, options, &around)
}

/// [`schedule`] below loops that stay (`auto` on a subtree inside them):
/// `around[s]` are statement `s`'s rows of those loops, outermost first;
/// the bands described are the scheduler's, below those loops.
pub(crate) fn schedule_below(
    scop: &Scop,
    deps: &[Dependence],
    algorithm: Algorithm,
    options: AutoOptions,
    around: &[Vec<AffineRow>],
) -> Result<AutoSchedule, AutoFailure> {
    let outer = around.iter().map(Vec::len).max().unwrap_or(0);
    // Untiled, or mapped to the GPU, a band without a coincident member
    // runs sequentially: the default is then isl's answer.
    let wavefront = match options.wavefront {
        Wavefront::Unskewed if options.gpu || options.tile == TileSize::Off => Wavefront::Never,
        w => w,
    };
    let tiled_with = |wavefront: Wavefront| -> Result<tiling::Tiled, AutoFailure> {
        let tree = scheduler::schedule_tree_below(
            scop,
            deps,
            algorithm,
            options.fusion,
            wavefront,
            options.gpu,
            around,
        )
        .map_err(AutoFailure::Schedule)?;
        let plain = tree.to_schedule(scop, false);
        tiling::tile_and_mark(scop, deps, &tree, plain, &options).map_err(AutoFailure::Directive)
    };
    let mut tiled = tiled_with(wavefront)?;
    // isl's answer left a sequential band over several statements (a
    // stencil's time loop around its sweeps): Pluto's skewed band instead,
    // tiled in time as a wavefront, where each of its statements then runs
    // in its own vector loop in the tiles ([`Wavefront::Sweeps`]; jacobi-2d
    // 1.0× → 2.4× of gcc on one thread, docs/performance.md, "Stencils
    // tiled in time").
    let sequential = |b: &BandChoice| {
        let statements: Vec<usize> = b
            .members
            .first()
            .map(|rows| rows.iter().map(|(s, _)| *s).collect())
            .unwrap_or_default();
        !b.wavefront
            && !b.coincident.contains(&true)
            && statements.len() >= 2
            && scheduler::sweeps_within_pressure(scop, algorithm, &statements)
    };
    if wavefront != Wavefront::Never && options.parallel && tiled.choices.iter().any(sequential) {
        if let Ok(pluto) = tiled_with(Wavefront::Sweeps) {
            let sweeps: Vec<&BandChoice> = pluto.choices.iter().filter(|b| b.sweeps).collect();
            if !sweeps.is_empty() && sweeps.iter().all(|b| b.distributed && b.vector) {
                tiled = pluto;
            }
        }
    }
    let mut bands = tiled.choices;
    if outer > 0 && !bands.is_empty() {
        bands.remove(0); // the loops that stay
    }
    Ok(AutoSchedule {
        schedule: tiled.schedule,
        bands,
        proven_jams: tiled.proven_jams,
    })
}
