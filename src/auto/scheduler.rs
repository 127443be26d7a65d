//! The scheduler driver (report §6.1–6.2, §6.5.8): bands are built from
//! the outside in; after each, the dependences it carries are dropped and
//! the others keep only their pairs at distance zero on it.
//!
//! At each level, for the statements below:
//!
//! 1. every statement scheduled completely: a sequence in dependence order,
//!    or, where the dependences left make a cycle (instances of two
//!    statements meet at equal dates in both orders), a Feautrier row;
//! 2. several weakly connected components: a sequence of them, each
//!    scheduled on its own (no dependence links them), those of one
//!    statement that read one array with all their loops first fused in
//!    one band ([`super::shared_reads`]; Pluto and spatial on the CPU,
//!    unless `fuse = no`);
//! 3. Pluto and spatial, unless `fuse = max`: several strongly connected
//!    components are clustered ([`super::clustering`]), a sequence of the
//!    clusters, each under its band; where the clusters are several and
//!    every component is one statement reading one array with all its
//!    loops, a band over that array's subscripts instead, as many as the
//!    dependences allow;
//! 4. Pluto: a band whose first member is coincident (isl's forced outer
//!    coincidence); where none is, per [`super::Wavefront`], none, any
//!    band (Pluto's), or by default an unskewed band of two members or
//!    more when the register pressure is under `spatial`'s limit; spatial: the
//!    spatial band of the statements' reuse ([`super::spatial`]); if there
//!    is none, or for Feautrier, one Feautrier row;
//! 5. a Feautrier row that carries nothing: a sequence of the strongly
//!    connected components, in topological order.
//!
//! Feautrier's scheduler stops carrying when no dependence is left and
//! completes the schedule with a coincident band.

use super::clustering::{clusters, Keep};
use super::distance::{distance, is_at_distance_zero, is_at_nonnegative_distance};
use super::feautrier::{feautrier_row, AffineRow};
use super::graph::{close_transitively, Edge, Graph, Node};
use super::independence::independence_rows;
use super::pluto::{pluto_band, Member};
use super::reuse::{register_pressure, reuse_groups, ReuseGroup};
use super::shared_reads::{largest_sharing, unit_index, whole_reads, WholeRead};
use super::spatial::{spatial_band, BandRequest};
use super::tree::{BandMember, Tree};
use super::Wavefront;
use crate::poly::PolyError;
use crate::scop::{Dependence, Scop};

/// Which scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    Feautrier,
    Pluto,
    /// CC'18's: Pluto's bands, members chosen for temporal and spatial
    /// reuse ([`super::spatial`]).
    Spatial(SpatialOptions),
}

/// What `auto(spatial)` is asked for besides the options every scheduler
/// takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpatialOptions {
    /// The cache line in bytes (`line = 64`).
    pub line: i64,
    /// The register-pressure limit (`hlim = 32`): above it, a component
    /// with no coincident outer row is distributed by a Feautrier row.
    pub hlim: usize,
    /// The GPU variant (`target = gpu`).
    pub gpu: bool,
}

impl Default for SpatialOptions {
    fn default() -> SpatialOptions {
        SpatialOptions {
            line: 64,
            hlim: 32,
            gpu: false,
        }
    }
}

/// How much the outermost level may fuse the strongly connected
/// components of the dependence graph (Pluto's `--nofuse`, `--smartfuse`,
/// `--maxfuse`); below it, the schedulers fuse what they can.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fusion {
    /// Every component its own nest, in dependence order.
    No,
    /// A cut between consecutive components (in dependence order) whose
    /// statements have different numbers of loops (Pluto's rule): a
    /// matrix product's reduction keeps its three loops in one band
    /// instead of sharing two with its initialisation.
    Smart,
    /// No cut forced: one nest wherever the scheduler finds a band.
    Max,
}

/// Why no schedule was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleFailure {
    /// An exact operation gave no answer.
    Poly(PolyError),
    /// The scheduler made no progress on these statements (a bug of the
    /// scheduler or an input it cannot handle; never a wrong schedule).
    Stuck(Vec<usize>),
}

impl std::fmt::Display for ScheduleFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScheduleFailure::Poly(e) => write!(f, "{e}"),
            ScheduleFailure::Stuck(nodes) => write!(
                f,
                "no progress on statements {}",
                nodes
                    .iter()
                    .map(|s| format!("S{s}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

impl From<PolyError> for ScheduleFailure {
    fn from(e: PolyError) -> ScheduleFailure {
        ScheduleFailure::Poly(e)
    }
}

/// How many times `spatial`'s register-pressure limit a component may
/// weigh for the default's try of Pluto's skewed band
/// ([`Wavefront::Sweeps`]).
const SWEEPS_PRESSURE: usize = 4;

/// Whether the default's second try ([`Wavefront::Sweeps`]) may give a
/// band over `statements` a wavefront: their register pressure is within
/// [`SWEEPS_PRESSURE`] times `algorithm`'s limit. Above it the second try
/// leaves such a band sequential, as the first did, and is not worth its
/// search (adi's fourteen statements: 40% of its `auto(pluto)` time).
pub(crate) fn sweeps_within_pressure(
    scop: &Scop,
    algorithm: Algorithm,
    statements: &[usize],
) -> bool {
    let limit = match algorithm {
        Algorithm::Spatial(options) => options.hlim,
        _ => SpatialOptions::default().hlim,
    };
    register_pressure(scop, statements) <= SWEEPS_PRESSURE * limit
}

/// The schedule tree of `scop` under `deps`. With `outer_coincidence`
/// (isl's choice, [`Wavefront::Never`]), a Pluto band must start with a
/// coincident member, and a level where none exists gets a Feautrier row;
/// without it (Pluto's, [`Wavefront::Always`]), such a level gets a band
/// none of whose members is coincident, which tiling makes parallel by a
/// wavefront of its tiles.
#[cfg(test)]
pub(crate) fn schedule_tree(
    scop: &Scop,
    deps: &[Dependence],
    algorithm: Algorithm,
    fusion: Fusion,
    outer_coincidence: bool,
) -> Result<Tree, ScheduleFailure> {
    let around = vec![Vec::new(); scop.statements.len()];
    let wavefront = if outer_coincidence {
        Wavefront::Never
    } else {
        Wavefront::Always
    };
    schedule_tree_below(scop, deps, algorithm, fusion, wavefront, false, &around)
}

/// [`schedule_tree`] below loops that stay: `around[s]` are statement
/// `s`'s rows of those loops, outermost first (as many for every
/// statement), which become a band, neither permutable nor coincident,
/// above what the scheduler finds from the pairs of each dependence within
/// one iteration of those loops (the others they carry). With `gpu`
/// (`target = gpu`), clustering keeps every coincident member.
pub(crate) fn schedule_tree_below(
    scop: &Scop,
    deps: &[Dependence],
    algorithm: Algorithm,
    fusion: Fusion,
    wavefront: Wavefront,
    gpu: bool,
    around: &[Vec<AffineRow>],
) -> Result<Tree, ScheduleFailure> {
    let outer = around.iter().map(Vec::len).max().unwrap_or(0);
    let graph = Graph::new(scop, deps)?;
    let n = graph.nodes.len();
    let reuse = match algorithm {
        Algorithm::Spatial(options) => (0..n)
            .map(|s| reuse_groups(scop, s, options.line))
            .collect::<Result<_, _>>()?,
        _ => vec![Vec::new(); n],
    };
    let pressure = (0..n).map(|s| register_pressure(scop, &[s])).collect();
    let fuse_reads = fusion != Fusion::No
        && !gpu
        && match algorithm {
            Algorithm::Pluto => true,
            Algorithm::Spatial(options) => !options.gpu,
            Algorithm::Feautrier => false,
        };
    let reads = (0..n)
        .map(|s| {
            if fuse_reads {
                whole_reads(scop, s)
            } else {
                Vec::new()
            }
        })
        .collect();
    let mut state = State {
        n_param: graph.n_param,
        nodes: graph.nodes.clone(),
        earlier: vec![Vec::new(); n],
        algorithm,
        wavefront,
        reuse,
        pressure,
        reads,
        coincident_around: vec![false; n],
        clustering: fusion != Fusion::Max,
        gpu,
        max_level: max_level(
            graph.nodes.iter().map(|n| n.n_iter).max().unwrap_or(0),
            n,
            graph.edges.len(),
        ),
    };
    let all: Vec<usize> = (0..graph.nodes.len()).collect();
    let members: Vec<BandMember> = (0..outer)
        .map(|k| BandMember {
            rows: all
                .iter()
                .filter_map(|&s| Some((s, around.get(s)?.get(k)?.clone())))
                .collect(),
            coincident: false,
        })
        .collect();
    let mut edges = graph.edges;
    for m in &members {
        edges = state.after_row(edges, &m.rows)?;
    }
    let groups = fusion_groups(&state.nodes, &all, &edges, fusion);
    let child = if groups.len() <= 1 {
        state.build(&all, edges, 0)?
    } else {
        let children = groups
            .iter()
            .map(|g| state.build(g, edges.clone(), 1))
            .collect::<Result<Vec<_>, _>>()?;
        Tree::sequence(children)
    };
    if members.is_empty() {
        return Ok(child);
    }
    Ok(Tree::Band {
        members,
        permutable: false,
        shared_reads: false,
        child: Box::new(child),
    })
}

/// The statements of `nodes` cut into the groups `fusion` asks for at the
/// outermost level: runs of strongly connected components in dependence
/// order (so that a sequence of the groups respects every edge between
/// them). Exact; cheap.
fn fusion_groups(all: &[Node], nodes: &[usize], edges: &[Edge], fusion: Fusion) -> Vec<Vec<usize>> {
    if fusion == Fusion::Max {
        return vec![nodes.to_vec()];
    }
    let loops = |scc: &[usize]| scc.iter().map(|&s| all[s].n_iter).max().unwrap_or(0);
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut last_loops = None;
    for scc in components(nodes, edges, true) {
        let n = loops(&scc);
        match groups.last_mut() {
            Some(g) if fusion == Fusion::Smart && last_loops == Some(n) => g.extend(scc),
            _ => groups.push(scc),
        }
        last_loops = Some(n);
    }
    groups
}

/// Statements whose nests share the reads of an array, and the band over
/// them ([`State::shared_read_band`]).
struct SharedBand {
    nodes: Vec<usize>,
    band: Vec<Member>,
}

struct State {
    n_param: usize,
    nodes: Vec<Node>,
    /// Per statement, the iterator coefficients of its rows so far.
    earlier: Vec<Vec<Vec<i64>>>,
    algorithm: Algorithm,
    /// What a Pluto band is where none starts with a coincident member.
    wavefront: Wavefront,
    /// `auto(spatial)`: per statement, its reuse groups before any row
    /// ([`super::reuse`]).
    reuse: Vec<Vec<ReuseGroup>>,
    /// Per statement, its register pressure (CC'18 §4.6), which `spatial`
    /// and `pluto`'s [`Wavefront::Unskewed`] read.
    pressure: Vec<usize>,
    /// Per statement, its reads that use every loop once
    /// ([`super::shared_reads`]); none where such nests stay apart (`fuse =
    /// no`, Feautrier, the GPU).
    reads: Vec<Vec<WholeRead>>,
    /// Per statement, whether a row around it so far is coincident.
    coincident_around: Vec<bool>,
    /// Whether a level's strongly connected components are clustered
    /// ([`super::clustering`]) rather than scheduled as one.
    clustering: bool,
    /// `target = gpu`: a merge of clusters must keep every coincident
    /// member (blocks and threads take two each); on the CPU, one (one
    /// loop of a nest runs in parallel).
    gpu: bool,
    /// The deepest level [`State::build`] goes to before it says it made
    /// no progress ([`max_level`]).
    max_level: usize,
}

/// How deep the levels may go for a graph of `nodes` statements with at
/// most `max_iter` loops each and `edges` edges. A level splits the
/// statements, adds rank to one of them, or carries dependences (a
/// Feautrier row may be constant for a statement below it, as a β is);
/// the bound gives each edge a level of its own besides the splits and
/// the ranks. It is a net for a scheduler that makes no progress, taken
/// over the whole graph: counted on the statements below a level, it
/// stopped random kernel r34_259 (seed 34, `auto(feautrier)`), where
/// five Feautrier rows carried the dependences of four statements and
/// were constant for a fifth, whose two loops then fell past the bound
/// of a statement alone.
fn max_level(max_iter: usize, nodes: usize, edges: usize) -> usize {
    2 * max_iter + nodes + edges + 4
}

impl State {
    fn rank_complete(&self, s: usize) -> Result<bool, PolyError> {
        Ok(independence_rows(&self.earlier[s], self.nodes[s].n_iter)?.is_empty())
    }

    /// The sub-graph of `nodes` (renumbered in that order) and `edges`.
    fn subgraph(&self, nodes: &[usize], edges: &[Edge]) -> Graph {
        let index = |s: usize| nodes.iter().position(|&n| n == s);
        Graph {
            n_param: self.n_param,
            nodes: nodes.iter().map(|&s| self.nodes[s].clone()).collect(),
            edges: edges
                .iter()
                .filter_map(|e| {
                    Some(Edge {
                        source: index(e.source)?,
                        target: index(e.target)?,
                        ..e.clone()
                    })
                })
                .collect(),
        }
    }

    fn build(
        &mut self,
        nodes: &[usize],
        edges: Vec<Edge>,
        level: usize,
    ) -> Result<Tree, ScheduleFailure> {
        if level > self.max_level {
            return Err(ScheduleFailure::Stuck(nodes.to_vec()));
        }
        let edges: Vec<Edge> = edges
            .into_iter()
            .filter(|e| nodes.contains(&e.source) && nodes.contains(&e.target))
            .collect();
        let mut complete = true;
        for &s in nodes {
            complete &= self.rank_complete(s)?;
        }
        if complete {
            if let Some(tree) = self.in_dependence_order(nodes, &edges) {
                return Ok(tree);
            }
            // Statements with a full schedule whose instances still meet
            // at equal dates in both orders (`D[i]` and `D[m - 1 - i]`
            // written in one loop, each at the date of the element it
            // writes): no order of the statements runs them, a row more
            // does. Feautrier's carries them, as it would any component.
            return self.below(nodes, edges, Vec::new(), level);
        }
        let weak = components(nodes, &edges, false);
        if weak.len() > 1 {
            if let Some(tree) = self.fused_over_reads(&weak, &edges, level)? {
                return Ok(tree);
            }
            let children = weak
                .iter()
                .map(|c| self.build(c, edges.clone(), level + 1))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Tree::sequence(children));
        }
        let strong = components(nodes, &edges, true);
        if self.clustering && self.algorithm != Algorithm::Feautrier && strong.len() > 1 {
            return self.clustered(nodes, edges, &strong, level);
        }
        let band = self.band(nodes, &edges)?;
        self.below(nodes, edges, band, level)
    }

    /// The band the scheduler finds for `nodes` under `edges` (those
    /// between them), as a band of their own would be; empty when it
    /// finds none (a Feautrier row is wanted).
    fn band(&self, nodes: &[usize], edges: &[Edge]) -> Result<Vec<Member>, ScheduleFailure> {
        let sub = self.subgraph(nodes, edges);
        let active: Vec<usize> = (0..sub.edges.len()).collect();
        let has_validity = sub.edges.iter().any(|e| e.validity);
        let earlier: Vec<Vec<Vec<i64>>> = nodes.iter().map(|&s| self.earlier[s].clone()).collect();
        Ok(match self.algorithm {
            Algorithm::Spatial(options) => {
                let mut groups = Vec::new();
                for (k, &s) in nodes.iter().enumerate() {
                    for g in &self.reuse[s] {
                        groups.push(ReuseGroup {
                            node: k,
                            ..g.after(&self.earlier[s])?
                        });
                    }
                }
                let pressure: usize = nodes.iter().map(|&s| self.pressure[s]).sum();
                let sweeps = self.wavefront == Wavefront::Sweeps;
                let limit = if sweeps {
                    SWEEPS_PRESSURE * options.hlim
                } else {
                    options.hlim
                };
                let request = BandRequest {
                    coincident_around: nodes.iter().any(|&s| self.coincident_around[s]),
                    distribute: has_validity && pressure > limit,
                    gpu: options.gpu,
                    sweeps,
                };
                spatial_band(&sub, &active, &earlier, &groups, request)?
            }
            Algorithm::Pluto if !has_validity => {
                pluto_band(&sub, &active, &earlier, Wavefront::Always)?
            }
            Algorithm::Pluto => {
                // CC'18's register-pressure rule (§4.6), as `spatial` has
                // it: above the limit, isl's answer. It also spares the
                // search without coincidence on large components (adi's 14
                // statements: 110 M instructions, half the schedule's).
                let pressure: usize = nodes.iter().map(|&s| self.pressure[s]).sum();
                // The default's second try ([`Wavefront::Sweeps`]) allows
                // four times the limit: a stencil's statements read many
                // neighbours (jacobi-2d's two: 36, heat-3d's: 88), adi's
                // fourteen statements stay above it.
                let limit = SpatialOptions::default().hlim;
                let wavefront = match self.wavefront {
                    Wavefront::Unskewed if pressure > limit => Wavefront::Never,
                    Wavefront::Sweeps if pressure > SWEEPS_PRESSURE * limit => Wavefront::Never,
                    Wavefront::Sweeps => Wavefront::Always,
                    w => w,
                };
                pluto_band(&sub, &active, &earlier, wavefront)?
            }
            Algorithm::Feautrier if !has_validity => {
                pluto_band(&sub, &active, &earlier, Wavefront::Always)?
            }
            Algorithm::Feautrier => Vec::new(),
        })
    }

    /// The weakly connected components `weak` in sequence, those of one
    /// statement that share a read of one array with all their loops
    /// fused first ([`Self::shared_read_band`]). `None` when fewer than two
    /// such statements share an array.
    fn fused_over_reads(
        &mut self,
        weak: &[Vec<usize>],
        edges: &[Edge],
        level: usize,
    ) -> Result<Option<Tree>, ScheduleFailure> {
        let singles: Vec<usize> = weak
            .iter()
            .filter_map(|c| match c.as_slice() {
                [s] => Some(*s),
                _ => None,
            })
            .collect();
        let Some(SharedBand { nodes, band }) = self.shared_read_band(&singles, edges)? else {
            return Ok(None);
        };
        let mut band_tree = Some(self.shared_band_below(&nodes, edges, band, level)?);
        let mut children = Vec::new();
        for c in weak {
            if c.iter().any(|s| nodes.contains(s)) {
                children.extend(band_tree.take());
            } else {
                children.push(self.build(c, edges.to_vec(), level + 1)?);
            }
        }
        Ok(Some(Tree::sequence(children)))
    }

    /// One weakly connected component whose strongly connected components
    /// are single statements that all share a read of one array with all
    /// their loops, and that clustering left in several clusters (atax's
    /// row sums and column sums over `A[i][j]`, the second reading the
    /// first's results): the band of the array's outer subscripts that
    /// every dependence between them allows ([`Self::shared_read_band`]),
    /// then the rest below it. `None` where they do not qualify.
    fn fused_component_over_reads(
        &mut self,
        nodes: &[usize],
        strong: &[Vec<usize>],
        edges: &[Edge],
        level: usize,
    ) -> Result<Option<Tree>, ScheduleFailure> {
        if strong.iter().any(|c| c.len() != 1) {
            return Ok(None);
        }
        let Some(SharedBand {
            nodes: shared,
            band,
        }) = self.shared_read_band(nodes, edges)?
        else {
            return Ok(None);
        };
        if shared.len() != nodes.len() {
            return Ok(None);
        }
        Ok(Some(self.shared_band_below(&shared, edges, band, level)?))
    }

    /// Among `statements`, those (two or more) that read one array with
    /// all their loops ([`super::shared_reads`]) and whose own bands are
    /// those loops, and the band over them: its members follow the array's
    /// subscripts, each statement's loop in the order its own band allows
    /// (a permutation of a permutable band), as many as every dependence
    /// between two of them allows (distance zero or more on each: the band
    /// stays permutable), coincident where coincident for every statement
    /// and every such dependence. `None` when no two share an array or no
    /// member is allowed.
    fn shared_read_band(
        &self,
        statements: &[usize],
        edges: &[Edge],
    ) -> Result<Option<SharedBand>, ScheduleFailure> {
        let candidates: Vec<(usize, usize, Vec<WholeRead>)> = statements
            .iter()
            .filter(|&&s| self.earlier[s].is_empty() && !self.reads[s].is_empty())
            .map(|&s| (s, self.nodes[s].n_iter, self.reads[s].clone()))
            .collect();
        let Some(sharing) = largest_sharing(&candidates) else {
            return Ok(None);
        };
        // Each statement's own band must be its loops, one per member, to
        // be permuted into the array's order.
        let mut fused: Vec<(usize, Vec<usize>, Vec<bool>)> = Vec::new();
        for (s, order) in sharing {
            let band = self.band(&[s], edges)?;
            let mut coincident = vec![false; order.len()];
            let mut seen = vec![false; order.len()];
            for m in &band {
                let unit = m
                    .rows
                    .first()
                    .filter(|r| r.constant == 0 && r.param.iter().all(|&c| c == 0))
                    .and_then(|r| unit_index(&r.iter));
                if let Some(k) = unit.filter(|&k| k < order.len()) {
                    seen[k] = true;
                    coincident[k] = m.coincident;
                }
            }
            if band.len() == order.len() && seen.iter().all(|&x| x) {
                fused.push((s, order, coincident));
            }
        }
        if fused.len() < 2 {
            return Ok(None);
        }
        let nodes: Vec<usize> = fused.iter().map(|(s, ..)| *s).collect();
        let n = fused[0].1.len();
        let unit_row = |k: usize| AffineRow {
            iter: (0..n).map(|j| i64::from(j == k)).collect(),
            param: vec![0; self.n_param],
            constant: 0,
        };
        let row_of = |s: usize, m: usize| {
            fused
                .iter()
                .find(|(t, ..)| *t == s)
                .map(|(_, order, _)| unit_row(order[m]))
        };
        let between: Vec<&Edge> = edges
            .iter()
            .filter(|e| e.source != e.target)
            .filter(|e| nodes.contains(&e.source) && nodes.contains(&e.target))
            .collect();
        let mut band = Vec::new();
        'members: for m in 0..n {
            let mut coincident = fused.iter().all(|(_, order, c)| c[order[m]]);
            for e in &between {
                let (Some(src), Some(tgt)) = (row_of(e.source, m), row_of(e.target, m)) else {
                    break 'members;
                };
                if !is_at_nonnegative_distance(e, &src, &tgt)? {
                    break 'members;
                }
                coincident = coincident && is_at_distance_zero(e, &src, &tgt)?;
            }
            band.push(Member {
                rows: fused
                    .iter()
                    .map(|(_, order, _)| unit_row(order[m]))
                    .collect(),
                coincident,
            });
        }
        if band.is_empty() {
            return Ok(None);
        }
        Ok(Some(SharedBand { nodes, band }))
    }

    /// `band` over `nodes` (from [`Self::shared_read_band`]) and what is
    /// scheduled below it, the band marked as one that runs in order.
    fn shared_band_below(
        &mut self,
        nodes: &[usize],
        edges: &[Edge],
        band: Vec<Member>,
        level: usize,
    ) -> Result<Tree, ScheduleFailure> {
        let inside: Vec<Edge> = edges
            .iter()
            .filter(|e| nodes.contains(&e.source) && nodes.contains(&e.target))
            .cloned()
            .collect();
        let mut tree = self.below(nodes, inside, band, level + 1)?;
        if let Tree::Band { shared_reads, .. } = &mut tree {
            *shared_reads = true;
        }
        Ok(tree)
    }

    /// The strongly connected components `strong` of `nodes` clustered
    /// ([`super::clustering`]): a sequence of the clusters, each under its
    /// band (a cluster without one is scheduled as a level of its own).
    fn clustered(
        &mut self,
        nodes: &[usize],
        edges: Vec<Edge>,
        strong: &[Vec<usize>],
        level: usize,
    ) -> Result<Tree, ScheduleFailure> {
        let keep = if self.gpu {
            Keep::EveryCoincidentMember
        } else {
            Keep::OneCoincidentMember
        };
        let found = clusters(strong, &edges, &self.earlier, keep, |ns: &[usize]| {
            self.band(ns, &edges)
        })?;
        debug_assert!(found.iter().map(|c| c.nodes.len()).sum::<usize>() == nodes.len());
        // Clusters left apart may still share the reads of an array.
        if found.len() > 1 {
            if let Some(tree) = self.fused_component_over_reads(nodes, strong, &edges, level)? {
                return Ok(tree);
            }
        }
        let mut children = Vec::new();
        for cluster in found {
            let inside: Vec<Edge> = edges
                .iter()
                .filter(|e| cluster.nodes.contains(&e.source) && cluster.nodes.contains(&e.target))
                .cloned()
                .collect();
            children.push(if cluster.band.is_empty() {
                self.build(&cluster.nodes, inside, level + 1)?
            } else {
                self.below(&cluster.nodes, inside, cluster.band, level + 1)?
            });
        }
        Ok(Tree::sequence(children))
    }

    /// `band` over `nodes`, then what is scheduled below it; without a
    /// band, a Feautrier row, or a sequence of the strongly connected
    /// components when that row carries nothing.
    fn below(
        &mut self,
        nodes: &[usize],
        edges: Vec<Edge>,
        band: Vec<Member>,
        level: usize,
    ) -> Result<Tree, ScheduleFailure> {
        if !band.is_empty() {
            let members: Vec<BandMember> = band
                .iter()
                .map(|m| BandMember {
                    rows: nodes.iter().copied().zip(m.rows.iter().cloned()).collect(),
                    coincident: m.coincident,
                })
                .collect();
            let mut remaining = edges;
            for m in &members {
                remaining = self.after_row(remaining, &m.rows)?;
                if m.coincident {
                    for &s in nodes {
                        self.coincident_around[s] = true;
                    }
                }
            }
            let child = self.build(nodes, remaining, level + 1)?;
            return Ok(Tree::Band {
                members,
                permutable: true,
                shared_reads: false,
                child: Box::new(child),
            });
        }
        let sub = self.subgraph(nodes, &edges);
        let active: Vec<usize> = (0..sub.edges.len()).collect();
        let row = feautrier_row(&sub, &active, true)?
            .ok_or_else(|| ScheduleFailure::Stuck(nodes.to_vec()))?;
        if !row.carried.iter().any(|&c| c) {
            let sccs = components(nodes, &edges, true);
            if sccs.len() <= 1 {
                return Err(ScheduleFailure::Stuck(nodes.to_vec()));
            }
            let children = sccs
                .iter()
                .map(|c| self.build(c, edges.clone(), level + 1))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Tree::sequence(children));
        }
        let rows: Vec<(usize, AffineRow)> = nodes.iter().copied().zip(row.rows).collect();
        // Which edges the row carries is decided again, exactly: unscaling
        // may leave at distance zero a pair the LP's row carried.
        let remaining = self.after_row(edges, &rows)?;
        let child = self.build(nodes, remaining, level + 1)?;
        Ok(Tree::Band {
            members: vec![BandMember {
                rows,
                coincident: false,
            }],
            permutable: false,
            shared_reads: false,
            child: Box::new(child),
        })
    }

    /// Record `rows` as the statements' next rows and return the edges
    /// left: each keeps its pairs at distance zero on `rows`, and one with
    /// none is gone. Exact.
    fn after_row(
        &mut self,
        edges: Vec<Edge>,
        rows: &[(usize, AffineRow)],
    ) -> Result<Vec<Edge>, PolyError> {
        for (s, row) in rows {
            self.earlier[*s].push(row.iter.clone());
        }
        let row_of = |s: usize| rows.iter().find(|(n, _)| *n == s).map(|(_, r)| r);
        let mut left = Vec::new();
        for e in edges {
            let (Some(src), Some(tgt)) = (row_of(e.source), row_of(e.target)) else {
                left.push(e);
                continue;
            };
            if let Some(kept) = at_distance_zero(&e, src, tgt)? {
                left.push(kept);
            }
        }
        Ok(left)
    }

    /// Statements whose schedules are complete, ordered so that every
    /// remaining dependence goes forward; `None` when the remaining
    /// dependences make a cycle (no order of the statements does).
    fn in_dependence_order(&self, nodes: &[usize], edges: &[Edge]) -> Option<Tree> {
        let sccs = components(nodes, edges, true);
        if sccs.iter().any(|c| c.len() > 1) {
            return None;
        }
        Some(Tree::sequence(
            sccs.into_iter().map(|c| Tree::Leaf(c[0])).collect(),
        ))
    }
}

/// The pairs of `edge` at distance zero on the rows `src` (of its
/// source) and `tgt` (of its target), forms recomputed; `None` when there
/// is none. Exact.
fn at_distance_zero(
    edge: &Edge,
    src: &AffineRow,
    tgt: &AffineRow,
) -> Result<Option<Edge>, PolyError> {
    let mut relation = edge.relation.clone();
    relation.add(distance(edge, src, tgt)?);
    if relation.is_empty()? {
        return Ok(None);
    }
    Ok(Some(Edge::new(
        edge.source,
        edge.target,
        edge.validity,
        relation,
    )?))
}

/// The weakly (`strong = false`) or strongly connected components of
/// `nodes` under `edges` (validity edges only for strong ones), each in
/// statement order; strong components in a topological order of the
/// edges, ties by statement order.
fn components(nodes: &[usize], edges: &[Edge], strong: bool) -> Vec<Vec<usize>> {
    let n = nodes.len();
    let index = |s: usize| nodes.iter().position(|&x| x == s);
    // reach[a][b]: b is reachable from a (a reaches itself).
    let mut reach = vec![vec![false; n]; n];
    for (a, row) in reach.iter_mut().enumerate() {
        row[a] = true;
    }
    for e in edges {
        if strong && !e.validity {
            continue;
        }
        if let (Some(a), Some(b)) = (index(e.source), index(e.target)) {
            reach[a][b] = true;
            if !strong {
                reach[b][a] = true;
            }
        }
    }
    close_transitively(&mut reach);
    let mut seen = vec![false; n];
    let mut comps: Vec<Vec<usize>> = Vec::new();
    for a in 0..n {
        if seen[a] {
            continue;
        }
        let comp: Vec<usize> = (0..n).filter(|&b| reach[a][b] && reach[b][a]).collect();
        for &b in &comp {
            seen[b] = true;
        }
        comps.push(comp);
    }
    if strong {
        // Topological order: a component goes after every one reaching it;
        // among those ready, the one with the earliest statement first.
        let mut ordered = Vec::new();
        let mut placed = vec![false; comps.len()];
        while ordered.len() < comps.len() {
            let ready = (0..comps.len()).find(|&c| {
                !placed[c]
                    && (0..comps.len())
                        .all(|d| placed[d] || d == c || !reach[comps[d][0]][comps[c][0]])
            });
            let Some(c) = ready else { break };
            placed[c] = true;
            ordered.push(comps[c].clone());
        }
        comps = ordered;
    }
    comps
        .into_iter()
        .map(|c| c.into_iter().map(|k| nodes[k]).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apply::legality::first_illegality;
    use crate::auto::feautrier::AffineRow;
    use crate::lang::c::read_source;
    use crate::scop::{dependences, DepOptions};

    /// The tree `algorithm` builds for the scop of `tests/kernels/NAME.c`,
    /// written compactly: `band[...]` with each member's rows (`S0:t`),
    /// `*` after a coincident member, then its child; `seq(...)`; `S0`.
    fn shape(name: &str, algorithm: Algorithm, fusion: Fusion) -> String {
        shape_with(name, algorithm, fusion, true)
    }

    /// [`shape`], with or without forced outer coincidence.
    fn shape_with(name: &str, algorithm: Algorithm, fusion: Fusion, outer: bool) -> String {
        let path = format!("tests/kernels/{name}.c");
        let file = read_source(&path, std::fs::read_to_string(&path).unwrap()).unwrap();
        let scop = &file.scops[0];
        let deps = dependences(scop, &DepOptions::default()).unwrap();
        let tree = schedule_tree(scop, &deps, algorithm, fusion, outer).unwrap();
        render(scop, &tree)
    }

    /// The Pluto tree (`fuse = smart`) of `tests/kernels/NAME.c` with this
    /// `wavefront` answer, for the CPU or (`gpu`) the GPU, written as
    /// [`shape`] writes it.
    fn pluto_shape(name: &str, wavefront: Wavefront, gpu: bool) -> String {
        shape_below(name, Algorithm::Pluto, wavefront, gpu)
    }

    /// `algorithm`'s tree (`fuse = smart`) of `tests/kernels/NAME.c`, for
    /// the CPU or (`gpu`) the GPU, written as [`shape`] writes it.
    fn shape_below(name: &str, algorithm: Algorithm, wavefront: Wavefront, gpu: bool) -> String {
        let path = format!("tests/kernels/{name}.c");
        let file = read_source(&path, std::fs::read_to_string(&path).unwrap()).unwrap();
        let scop = &file.scops[0];
        let deps = dependences(scop, &DepOptions::default()).unwrap();
        let around = vec![Vec::new(); scop.statements.len()];
        let smart = Fusion::Smart;
        let tree =
            schedule_tree_below(scop, &deps, algorithm, smart, wavefront, gpu, &around).unwrap();
        render(scop, &tree)
    }

    fn render(scop: &Scop, tree: &Tree) -> String {
        match tree {
            Tree::Leaf(s) => format!("S{s}"),
            Tree::Sequence(children) => format!(
                "seq({})",
                children
                    .iter()
                    .map(|c| render(scop, c))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            Tree::Band { members, child, .. } => {
                let members: Vec<String> = members
                    .iter()
                    .map(|m| {
                        let rows: Vec<String> = m
                            .rows
                            .iter()
                            .map(|(s, r)| format!("S{s}:{}", row_text(scop, *s, r)))
                            .collect();
                        format!("{}{}", rows.join(","), if m.coincident { "*" } else { "" })
                    })
                    .collect();
                format!("band[{}] {}", members.join(" | "), render(scop, child))
            }
        }
    }

    /// `row` without spaces: `2t+i+1`.
    fn row_text(scop: &Scop, s: usize, row: &AffineRow) -> String {
        crate::auto::choice::row_text(scop, s, row).replace(' ', "")
    }

    /// The report's Figure 13 (forced outer coincidence): jacobi-2d gets
    /// an outer `t` band, then its two sweeps in a sequence, each a band
    /// of two coincident members; never Figure 12's single skewed band.
    /// Inside `t` the sweeps are two components, clustered: fusing them
    /// would cost their coincidence. With one component scheduled whole
    /// (`fuse = max`), the sweeps are split by a Feautrier row instead (0
    /// for S0, 1 for S1: the coincident band Pluto tries first is empty):
    /// the same order.
    #[test]
    fn jacobi_2d_gets_the_reports_figure_13() {
        assert_eq!(
            shape("jacobi-2d", Algorithm::Pluto, Fusion::Smart),
            "band[S0:t,S1:t] seq(band[S0:i* | S0:j*] S0; band[S1:i* | S1:j*] S1)"
        );
        assert_eq!(
            shape("jacobi-2d", Algorithm::Pluto, Fusion::Max),
            "band[S0:t,S1:t] band[S0:0,S1:1] \
             seq(band[S0:i* | S0:j*] S0; band[S1:i* | S1:j*] S1)"
        );
    }

    /// The report's seidel-2d: Feautrier's row `4t + 2i + j` (no
    /// coincident first member exists), then the coincident band `[t, i]`.
    #[test]
    fn seidel_2d_gets_the_reports_wavefront_then_t_i() {
        assert_eq!(
            shape("seidel-2d", Algorithm::Pluto, Fusion::Smart),
            "band[S0:4t+2i+j] band[S0:t* | S0:i*] S0"
        );
    }

    /// The report's Listing 22 (trmm, components scheduled apart): the
    /// sequence A; B, A's band coincident only in its first member `j`, B's
    /// band `[i, j]` coincident in both. isl orders A's last two members
    /// `k, i`; polyc's lexicographic minimum gives `i, k` (the band is
    /// permutable, and tiling reorders its point loops anyway).
    #[test]
    fn trmm_gets_the_reports_listing_22() {
        assert_eq!(
            shape("trmm", Algorithm::Pluto, Fusion::Smart),
            "seq(band[S0:j* | S0:i | S0:k] S0; band[S1:i* | S1:j*] S1)"
        );
    }

    /// The report's Listing 36 (durbin, self-dependences first): the three
    /// statements before the k loop in sequence, then the k loop's seven
    /// statements (D … J are S3 … S9) share one outer row `k`, none
    /// shifted (Listing 35's `I[k, i] -> 1 + k`, S8 here, is what carrying
    /// every group at once gives). Inside, the clusters run in a sequence
    /// node, as isl's do: each loop of `i` on its own (S5's reduction
    /// into a scalar is not coincident; S7 and S8 are), no cluster merged
    /// (S7 reads `y[k - i - 1]`, which S8 writes: a merged band loses the
    /// coincident member or leaves the clusters far apart).
    #[test]
    fn durbin_gets_the_reports_listing_36() {
        assert_eq!(
            shape("durbin", Algorithm::Pluto, Fusion::Smart),
            "seq(S0; S1; S2; band[S3:k,S4:k,S5:k,S6:k,S7:k,S8:k,S9:k] \
             seq(S3; S4; band[S5:i] S5; S6; band[S7:i*] S7; band[S8:i*] S8; S9))"
        );
    }

    /// Clustering keeps apart what fusing would cost every coincident
    /// member: atax's `tmp[i]` row sums (coincident in `i`) and its `y[j]`
    /// column sums (coincident in `j`) run as two nests for the GPU (on the
    /// CPU they share `A`'s rows first: the next test), where one
    /// component scheduled whole fuses them under a Feautrier row with no
    /// parallel loop.
    #[test]
    fn clustering_keeps_ataxs_two_sums_apart() {
        assert_eq!(
            pluto_shape("atax", Wavefront::Never, true),
            "seq(band[S0:i*] S0; band[S1:i*] S1; band[S2:i* | S2:j] S2; band[S3:j* | S3:i] S3)"
        );
        let whole = shape("atax", Algorithm::Pluto, Fusion::Max);
        assert!(!whole.contains("band[S2:i* | S2:j] S2;"), "{whole}");
    }

    /// Nests that share only reads of a matrix run in one band over it,
    /// in its order ([`super::shared_reads`]): bicg's two sums over `A[i][j]`
    /// (S2 carries its sum along `i`, S3 along `j`: no member is
    /// coincident for both), mvt's over `A[i][j]` and `A[j][i]` (S0's
    /// loops as they are, S1's `j` first). Not with `fuse = no`, nor for
    /// the GPU: there each nest is scheduled apart, as Feautrier's are.
    /// Where a dependence links them, the band has the members it allows:
    /// atax's column sums (S3) read the row sums (S2) of the same `i`, so
    /// the two share `A`'s rows (`i`, distance 0) and run their `j` loops
    /// one after the other inside.
    #[test]
    fn nests_that_share_only_reads_of_a_matrix_share_a_band() {
        assert_eq!(
            shape("atax", Algorithm::Pluto, Fusion::Smart),
            "seq(band[S0:i*] S0; band[S1:i*] S1; band[S2:i,S3:i] seq(band[S2:j] S2; band[S3:j*] S3))"
        );
        assert_eq!(
            shape("bicg", Algorithm::Pluto, Fusion::Smart),
            "seq(band[S0:i*] S0; band[S1:i*] S1; band[S2:i,S3:i | S2:j,S3:j] seq(S2; S3))"
        );
        assert_eq!(
            shape("mvt", Algorithm::Pluto, Fusion::Smart),
            "band[S0:i,S1:j | S0:j,S1:i] seq(S0; S1)"
        );
        assert_eq!(
            pluto_shape("mvt", Wavefront::Never, true),
            "seq(band[S0:i* | S0:j] S0; band[S1:i* | S1:j] S1)"
        );
        assert_eq!(
            shape("mvt", Algorithm::Pluto, Fusion::No),
            "seq(band[S0:i* | S0:j] S0; band[S1:i* | S1:j] S1)"
        );
    }

    /// On the CPU a merge keeps one coincident member (one loop of a nest
    /// runs in parallel): lu's column scaling (S1) and its two updates
    /// share the band `[i, j]`, `i` coincident. For the GPU (blocks and
    /// threads take two members each) the merge would lose the updates'
    /// second coincident member: each cluster keeps its own band, under
    /// both schedulers (`spatial`'s merged band ran 5× slower on an H200).
    #[test]
    fn clustering_keeps_one_coincident_member_on_the_cpu_and_every_one_for_the_gpu() {
        assert_eq!(
            shape("lu", Algorithm::Pluto, Fusion::Smart),
            "band[S0:k,S1:j,S2:k] band[S0:i,S1:i,S2:i* | S0:j,S1:0,S2:j] seq(S0; S1; S2)"
        );
        let apart =
            "band[S0:k,S1:j,S2:k] seq(band[S1:i*] S1; band[S0:j* | S0:i*] S0; band[S2:j* | S2:i*] S2)";
        assert_eq!(pluto_shape("lu", Wavefront::Never, true), apart);
        let spatial_gpu = Algorithm::Spatial(SpatialOptions {
            gpu: true,
            ..SpatialOptions::default()
        });
        assert_eq!(
            shape_below("lu", spatial_gpu, Wavefront::Never, true),
            apart
        );
    }

    /// fdtd-2d's `ex` and `hz` updates share a band on the CPU under
    /// `spatial` (`hz` shifted by one column, `i` coincident); for the GPU
    /// that band would leave each thread a sequential loop over `j`, with
    /// `i` on `threadIdx.x` (uncoalesced, 12× slower on an H200): each
    /// keeps its own band, `j` first (it walks the lines).
    #[test]
    fn spatial_for_the_gpu_keeps_fdtd_2ds_sweeps_two_dimensional() {
        let spatial = SpatialOptions::default();
        let cpu = shape_below(
            "fdtd-2d",
            Algorithm::Spatial(spatial),
            Wavefront::Never,
            false,
        );
        assert!(cpu.contains("band[S2:i,S3:i* | S2:j,S3:j+1]"), "{cpu}");
        let gpu = Algorithm::Spatial(SpatialOptions {
            gpu: true,
            ..spatial
        });
        let gpu = shape_below("fdtd-2d", gpu, Wavefront::Never, true);
        assert!(
            gpu.contains("band[S2:j* | S2:i*] S2; band[S3:j* | S3:i*] S3"),
            "{gpu}"
        );
    }

    /// A producer read by many consumer instances merges last, with its
    /// slack (isl's postponed merge): doitgen's `sum[p] = 0` (S0) joins
    /// the reduction over `s` (S1) in one loop of `p`, S0 at `s = 0`'s
    /// place; the write-back (S2), which may run only after every `s` of
    /// every `p`, stays in a loop of its own.
    #[test]
    fn clustering_merges_doitgens_initialisation_with_its_reduction() {
        assert_eq!(
            shape("doitgen", Algorithm::Pluto, Fusion::Smart),
            "band[S0:r,S1:r,S2:r] band[S0:q,S1:q,S2:q] \
             seq(band[S0:p,S1:p* | S0:0,S1:s] seq(S0; S1); band[S2:p*] S2)"
        );
    }

    /// The report's Examples 13 and 30 (Listing 15 with a fixed size,
    /// `tests/kernels/coalescing.c`): Feautrier's row `10i + j` would
    /// carry every dependence and coalesce the loops; with `c_j` forced to
    /// 0 both schedulers give `i`, then `j`.
    #[test]
    fn no_scheduler_coalesces_the_reports_listing_15() {
        for algorithm in [Algorithm::Feautrier, Algorithm::Pluto] {
            let shape = shape("coalescing", algorithm, Fusion::Smart);
            assert_eq!(shape, "band[S0:i] band[S0:j] S0", "{algorithm:?}");
        }
    }

    /// Without forced outer coincidence (`wavefront = true`), jacobi-2d
    /// gets Pluto's time-skewed band `(t, 2t + i, 2t + j)`, permutable and
    /// with no coincident member, the second statement one step later.
    #[test]
    fn without_outer_coincidence_jacobi_2d_gets_plutos_skewed_band() {
        let shape = shape_with("jacobi-2d", Algorithm::Pluto, Fusion::Smart, false);
        let band = "band[S0:t,S1:t | S0:2t+i,S1:2t+i+1 | S0:2t+j,S1:2t+j+1] seq(S0; S1)";
        assert_eq!(shape, band);
    }

    /// The default (`Wavefront::Unskewed`): where no band starts with a
    /// coincident member, Pluto's band when it is unskewed (floyd-warshall's
    /// `(i, j)` inside `k`, where isl's Feautrier row is `i + j`; lu's
    /// `(i, j, k)`), isl's Feautrier row when it would be skewed
    /// (jacobi-2d, seidel-2d: the same trees as with forced coincidence).
    #[test]
    fn by_default_a_band_without_coincidence_is_kept_where_unskewed() {
        let unskewed = |name: &str| pluto_shape(name, Wavefront::Unskewed, false);
        assert_eq!(
            shape("floyd-warshall", Algorithm::Pluto, Fusion::Smart),
            "band[S0:k] band[S0:i+j] band[S0:i*] S0"
        );
        assert_eq!(
            unskewed("floyd-warshall"),
            "band[S0:k] band[S0:i | S0:j] S0"
        );
        assert_eq!(
            unskewed("lu"),
            "band[S0:i,S1:i,S2:i | S0:j,S1:j,S2:j | S0:k,S1:j,S2:k] seq(S0; S1; S2)"
        );
        for stencil in ["jacobi-2d", "seidel-2d"] {
            assert_eq!(
                unskewed(stencil),
                shape(stencil, Algorithm::Pluto, Fusion::Smart),
                "{stencil}"
            );
        }
    }

    /// CC'18 §4.4, matrix multiplication on the CPU: the update's band is
    /// `(i, k, j)`: `i` keeps C's reuse (C comes first: two accesses),
    /// then `k` keeps B's lines (B is the only group with two free
    /// subscripts after `i`), and the last member walks the lines of B and
    /// C. Pluto keeps `(i, j, k)`.
    #[test]
    fn spatial_gives_matrix_multiplication_i_k_j() {
        let spatial = Algorithm::Spatial(SpatialOptions::default());
        assert_eq!(
            shape("gemm", spatial, Fusion::Smart),
            "seq(band[S0:i* | S0:j*] S0; band[S1:i* | S1:k | S1:j*] S1)"
        );
        assert_eq!(
            shape("gemm", Algorithm::Pluto, Fusion::Smart),
            "seq(band[S0:i* | S0:j*] S0; band[S1:i* | S1:j* | S1:k] S1)"
        );
    }

    /// gramschmidt, by default (tiles run as a wavefront where no member
    /// is coincident): both schedulers find the band `(k, j)` for the
    /// whole step; under it the two updates (S5, S6) keep a loop `i` each, down
    /// the columns of `A`. `spatial` ends the band before `j`, the lines of
    /// the updates' arrays ([`super::spatial`]'s cut), and schedules them
    /// apart below `k`, `j` last.
    #[test]
    fn spatial_gives_gramschmidts_updates_j_innermost() {
        let spatial = Algorithm::Spatial(SpatialOptions::default());
        let unskewed = Wavefront::Unskewed;
        assert_eq!(
            shape_below("gramschmidt", spatial, unskewed, false),
            "seq(band[S4:k* | S4:j*] S4; band[S0:k,S1:k,S2:k,S3:k,S5:k,S6:k] \
             seq(S0; band[S1:i] S1; S2; band[S3:i*] S3; band[S5:j* | S5:i] S5; \
             band[S6:i* | S6:j*] S6))"
        );
        let pluto = shape_below("gramschmidt", Algorithm::Pluto, unskewed, false);
        assert!(pluto.contains(",S5:j,S6:j] seq("), "{pluto}");
    }

    /// `D[i]` and `D[m - 1 - i]` written in one loop: Pluto's row puts
    /// each instance at the element it writes (`i + 1` and `m - i`, every
    /// dependence at distance zero, a parallel loop), which completes both
    /// statements and leaves them a cycle at equal dates (which one runs
    /// first depends on `i`). A Feautrier row carries it; the scheduler
    /// used to stop with "no progress" (17 of 400 random kernels, seed 31).
    #[test]
    fn a_cycle_between_complete_statements_gets_a_row_more() {
        let src = "void f(int n, int m, double D[200]) {\n#pragma scop\n\
                   for (int i = 2; i <= n; ++i) {\n\
                   D[i] = 0.5 * D[i];\n\
                   D[m - 1 - i] = 0.5 * D[m - 1 - i];\n}\n\
                   #pragma endscop\n}\n";
        let file = read_source("mirror.c", src.to_string()).unwrap();
        let scop = &file.scops[0];
        let deps = dependences(scop, &DepOptions::default()).unwrap();
        for algorithm in [
            Algorithm::Pluto,
            Algorithm::Spatial(SpatialOptions::default()),
        ] {
            let tree = schedule_tree(scop, &deps, algorithm, Fusion::Smart, true).unwrap();
            let shape = render(scop, &tree);
            assert_eq!(shape, "band[S0:i+1,S1:-i+m*] band[S0:i,S1:i] seq(S0; S1)");
        }
    }

    /// CC'18 §4.7, the GPU variant: the first member walks the lines of B
    /// and C (`j`, coincident), so that `threadIdx.x` coalesces.
    #[test]
    fn spatial_for_the_gpu_starts_matrix_multiplication_with_j() {
        let gpu = Algorithm::Spatial(SpatialOptions {
            gpu: true,
            ..SpatialOptions::default()
        });
        let shape = shape("gemm", gpu, Fusion::Smart);
        assert!(shape.ends_with("band[S1:j* | S1:i* | S1:k] S1)"), "{shape}");
    }

    /// CC'18 §4.6, register pressure: jacobi-2d's two sweeps (h = 36) are
    /// distributed by a Feautrier row under the default limit of 32, as
    /// isl does (Figure 13). lu (below the limit) keeps a band without coincidence,
    /// unskewed (a wavefront of tiles), unless the limit is 0; seidel-2d's
    /// band without coincidence would be skewed, so it gets the Feautrier
    /// row whatever the limit.
    #[test]
    fn spatial_distributes_above_the_register_pressure_limit() {
        let spatial = SpatialOptions::default();
        let no_limit = SpatialOptions {
            hlim: 1000,
            ..spatial
        };
        let zero = SpatialOptions { hlim: 0, ..spatial };
        assert_eq!(
            shape("jacobi-2d", Algorithm::Spatial(spatial), Fusion::Smart),
            shape("jacobi-2d", Algorithm::Pluto, Fusion::Smart)
        );
        assert_eq!(
            shape("lu", Algorithm::Spatial(spatial), Fusion::Smart),
            "band[S0:i,S1:i,S2:i | S0:k,S1:j,S2:k | S0:j,S1:j,S2:j] seq(S0; S1; S2)"
        );
        let distributed = shape("lu", Algorithm::Spatial(zero), Fusion::Smart);
        assert!(
            !distributed.starts_with("band[S0:i,S1:i,S2:i | "),
            "{distributed}"
        );
        assert_eq!(
            shape("seidel-2d", Algorithm::Spatial(no_limit), Fusion::Smart),
            "band[S0:4t+2i+j] band[S0:t* | S0:i*] S0"
        );
    }

    /// Every test kernel, both schedulers: the schedule is legal (the
    /// exact check every recipe goes through), marks included.
    #[test]
    fn every_test_kernel_gets_a_legal_schedule_from_both_schedulers() {
        let mut dir: Vec<_> = std::fs::read_dir("tests/kernels")
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect();
        dir.sort();
        let mut failures = Vec::new();
        for path in dir {
            let text = std::fs::read_to_string(&path).unwrap();
            let Ok(file) = read_source(&path.display().to_string(), text) else {
                continue;
            };
            for scop in &file.scops {
                let deps = dependences(scop, &DepOptions::default()).unwrap();
                let spatial = SpatialOptions::default();
                for (algorithm, fusion, outer) in [
                    (Algorithm::Feautrier, Fusion::Max, true),
                    (Algorithm::Pluto, Fusion::Max, true),
                    (Algorithm::Pluto, Fusion::Smart, true),
                    (Algorithm::Pluto, Fusion::No, true),
                    (Algorithm::Pluto, Fusion::Smart, false),
                    (Algorithm::Spatial(spatial), Fusion::Smart, true),
                    (Algorithm::Spatial(spatial), Fusion::Max, true),
                    (
                        Algorithm::Spatial(SpatialOptions { hlim: 0, ..spatial }),
                        Fusion::Smart,
                        true,
                    ),
                    (
                        Algorithm::Spatial(SpatialOptions {
                            gpu: true,
                            ..spatial
                        }),
                        Fusion::Smart,
                        true,
                    ),
                ] {
                    let tree = match schedule_tree(scop, &deps, algorithm, fusion, outer) {
                        Ok(t) => t,
                        Err(e) => {
                            failures.push(format!(
                                "{}: {algorithm:?} {fusion:?} outer {outer}: {e:?}",
                                path.display()
                            ));
                            continue;
                        }
                    };
                    let schedule = tree.to_schedule(scop, true);
                    match first_illegality(scop, &deps, &schedule) {
                        Ok(None) => {}
                        other => failures.push(format!(
                            "{}: {algorithm:?} {fusion:?} outer {outer}: {other:?}\n{}",
                            path.display(),
                            schedule.to_text(scop)
                        )),
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
