//! One band of the spatial scheduler (Zinenko et al., CC'18, §4): Pluto's
//! band ([`super::pluto`]) whose members are chosen first for the reuse
//! they keep inside one iteration, temporal then spatial, group by group.
//!
//! **CPU** (§4.6). Every member but the last minimises the paper's ILP (3):
//!
//! ```text
//!   T₁, S₁, T₂, S₂, …,  then Pluto's terms (bound, parameters, coefficients)
//! ```
//!
//! where group `g` (in [`weighing_order`]: more free subscripts first,
//! then more accesses) has `T_g = Σ |c·d|` over its temporal moves and
//! `S_g = |c·d|` for its spatial move ([`super::reuse`]): a row that walks
//! a group's reuse comes as late as possible. The last member minimises
//! ILP (4): the sum of the coefficients first (no skew where a permutation
//! does), then the number of spatial groups it does *not* walk (`e_g ≤
//! c·d`, `e_g ≤ 1`), so that the innermost loop walks along lines.
//! Coincidence is asked of a member only while no coincident row exists
//! around or in the band (one parallel loop is enough). When the first
//! member cannot be coincident, statements whose register pressure
//! exceeds the limit get a Feautrier row instead (the caller's, which
//! distributes them); otherwise the band goes on without coincidence and
//! its tiles run as a wavefront.
//!
//! Four departures from the paper. The first two and the fourth were measured
//! (docs/performance.md, "`auto(spatial)`"). First, coincidence is
//! asked of the last rows too (the paper gives it up when two rows are
//! left, which left jacobi-1d's sweeps fused and sequential inside the
//! time loop: 0.30× of gcc). Second, a band that gave up coincidence is
//! kept only when it has two members or more and none is skewed;
//! otherwise the Feautrier row is taken. lu's band `(i, k, j)` runs as a
//! wavefront of tiles 2× faster than with the Feautrier row; seidel-2d's
//! skewed `(t, t + i, 2t + i + j)` 0.6× as fast (gcc vectorises no
//! skewed point loop). A skewed band is kept on the default's second try
//! (`BandRequest::sweeps`), which `super::schedule_below` keeps only
//! where tiling gave each statement of the band its own vector loop.
//! Third, ILP (4)'s `e_g ≤ c·d` also forbids a row that walks a group's
//! lines backwards (the paper's coefficients are non-negative; polyc's
//! are not), so where that leaves no row (adi's back substitutions need
//! `−j`), the row of the smallest coefficients is taken without the
//! groups ([`Ask::lines_row`]). Fourth, a band ends before a member, not
//! its first, that walks the lines of a statement whose loops left for
//! below the band walk its arrays only across lines ([`ended`]): those
//! loops would run inside the member, down columns. gramschmidt's two
//! updates then run `j` innermost, 15–18× faster than under the band `(k,
//! j)` (docs/performance.md).
//!
//! **GPU** (§4.7). The first member minimises ILP (4) with coincidence, so
//! that the outer parallel loop walks along lines (coalescing); when it
//! walks none, Pluto's first member is taken instead; the band then goes
//! on as Pluto's. No coincident first member: the caller's Feautrier row.
//!
//! Whether a member is coincident is decided exactly at the end
//! ([`super::distance::is_at_distance_zero`]), so that the tiling's
//! marks follow the rows, not the requests.

use super::distance::is_at_distance_zero;
use super::feautrier::{read_row, AffineRow};
use super::graph::Graph;
use super::ilp::{Ilp, Lin, RowVars};
use super::independence::{independence_rows, rank};
use super::pluto::{
    member, member_ilp, nontrivial_lexmin, regions, worth_a_wavefront, Better, Member, Region,
};
use super::reuse::{dot, weighing_order, ReuseGroup};
use crate::poly::{ConstraintKind, PolyError};

/// What a spatial band is asked for besides its graph.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BandRequest {
    /// Some statement of the band has a coincident row around it.
    pub coincident_around: bool,
    /// The register pressure exceeds the limit: no coincident first
    /// member means a Feautrier row (distribution), not a wavefront band.
    pub distribute: bool,
    /// The GPU variant.
    pub gpu: bool,
    /// The default's second try ([`super::Wavefront::Sweeps`]): a band
    /// without a coincident first member is kept skewed too, when it has
    /// two members or more (tiling then gives each statement its own
    /// vector loop, or the try is dropped).
    pub sweeps: bool,
}

/// A band for the nodes of `graph` over the `active` edges, given each
/// node's earlier rows (`earlier[node]`) and the reuse groups of the nodes
/// as those rows leave them (`groups`, nodes in `graph`'s numbering).
/// Empty when the caller should take a Feautrier row.
pub(crate) fn spatial_band(
    graph: &Graph,
    active: &[usize],
    earlier: &[Vec<Vec<i64>>],
    groups: &[ReuseGroup],
    request: BandRequest,
) -> Result<Vec<Member>, PolyError> {
    let mut earlier = earlier.to_vec();
    let start = groups;
    let mut groups = groups.to_vec();
    let mut band: Vec<Member> = Vec::new();
    // Per member, the nodes whose lines it walks (the spatial move it
    // carries first).
    let mut walking: Vec<Vec<usize>> = Vec::new();
    let mut have_coincident = request.coincident_around;
    // Whether the band's first member gave up coincidence.
    let mut relaxed = false;
    loop {
        let regions = regions(graph, &earlier)?;
        let Some(free) = regions.first().map(|(_, rows)| rows.len()) else {
            let band = ended(graph, &earlier, start, &walking, band, request)?;
            return Ok(kept_band(band, relaxed, request.sweeps));
        };
        let ask = Ask {
            graph,
            active,
            regions: &regions,
            groups: &groups,
        };
        let rows = if request.gpu {
            match gpu_member(&ask, band.is_empty())? {
                Some(rows) => Some(rows),
                None if band.is_empty() => return Ok(band),
                None => None,
            }
        } else {
            let want = !have_coincident;
            let last = free == 1;
            match ask.cpu_row(want, last)? {
                Some(rows) => Some(rows),
                None if want && band.is_empty() && request.distribute => return Ok(band),
                None if want => {
                    relaxed |= band.is_empty();
                    ask.cpu_row(false, last)?
                }
                None => None,
            }
        };
        let Some(rows) = rows else {
            let band = ended(graph, &earlier, start, &walking, band, request)?;
            return Ok(kept_band(band, relaxed, request.sweeps));
        };
        let coincident = is_coincident(graph, active, &rows)?;
        have_coincident |= coincident;
        let mut walks = Vec::new();
        for g in &groups {
            if let Some(d) = &g.spatial {
                if dot(&rows[g.node].iter, d)? != 0 && !walks.contains(&g.node) {
                    walks.push(g.node);
                }
            }
        }
        walking.push(walks);
        for (node, row) in rows.iter().enumerate() {
            earlier[node].push(row.iter.clone());
        }
        groups = groups
            .iter()
            .map(|g| g.after(&earlier[g.node]))
            .collect::<Result<_, _>>()?;
        band.push(Member { rows, coincident });
    }
}

/// The band found, `band`, as the caller gets it. On the CPU it is cut
/// before the first member, after its first, that walks the lines of a
/// statement the band leaves with loops to run below it, where those
/// loops walk the statement's arrays across lines only. `walking[m]`: the
/// nodes whose lines member `m` walks; `earlier`: every node's rows, the
/// band's included; `start`: the reuse groups before the band.
///
/// Such a member is a loop around the statement's other loops, which then
/// run inside it across lines: gramschmidt's band `(k, j)` fuses its two
/// updates `R[k][j] += Q[i][k] * A[i][j]` and `A[i][j] -= Q[i][k] *
/// R[k][j]` along `j` and leaves each its own loop `i` inside, down the
/// columns of `A`. Without `j` the band stops at `k`; below it the updates
/// are scheduled apart, each with `j` last. Exact on the rows; the cut is
/// a cost model (the schedule is checked exactly either way).
fn ended(
    graph: &Graph,
    earlier: &[Vec<Vec<i64>>],
    start: &[ReuseGroup],
    walking: &[Vec<usize>],
    mut band: Vec<Member>,
    request: BandRequest,
) -> Result<Vec<Member>, PolyError> {
    if request.gpu {
        return Ok(band);
    }
    for (m, walks) in walking.iter().enumerate().skip(1) {
        for &node in walks {
            let left = independence_rows(&earlier[node], graph.nodes[node].n_iter)?;
            if across_lines_only(start, node, &left)? {
                band.truncate(m);
                return Ok(band);
            }
        }
    }
    Ok(band)
}

/// Whether loops along `moves` would walk `node`'s arrays only across
/// lines: a move changes some subscript of its groups, and no group's
/// spatial move lies in their span (none of the loops walks along a
/// line). Exact.
fn across_lines_only(
    groups: &[ReuseGroup],
    node: usize,
    moves: &[Vec<i64>],
) -> Result<bool, PolyError> {
    let n = moves.first().map_or(0, Vec::len);
    let mut walks_memory = false;
    for g in groups.iter().filter(|g| g.node == node) {
        if let Some(d) = &g.spatial {
            let with: Vec<Vec<i64>> = moves.iter().chain([d]).cloned().collect();
            if rank(&with, n)? == rank(moves, n)? {
                return Ok(false);
            }
        }
        for d in moves {
            for f in &g.subscripts {
                walks_memory |= dot(f, d)? != 0;
            }
        }
    }
    Ok(walks_memory)
}

/// `band`, or none (the caller's Feautrier row) when its first member gave
/// up coincidence (`relaxed`) and its tiles would not make a wavefront
/// worth having: one member, or a skewed member (two iterators or more in
/// one statement's row), whose point loops gcc does not vectorise
/// (module doc), but for the default's second try (`sweeps`).
fn kept_band(band: Vec<Member>, relaxed: bool, sweeps: bool) -> Vec<Member> {
    let worth = worth_a_wavefront(&band) || (sweeps && band.len() >= 2);
    if relaxed && !worth {
        return Vec::new();
    }
    band
}

/// The GPU variant's member: the first walks lines if it can (module
/// doc); the others, and a first that walks none, are Pluto's, coincident
/// while they can be.
fn gpu_member(ask: &Ask<'_>, first: bool) -> Result<Option<Vec<AffineRow>>, PolyError> {
    if first {
        let walking = ask.lines_row(true)?;
        if let Some((rows, walked)) = walking {
            if walked > 0 {
                return Ok(Some(rows));
            }
        } else {
            return Ok(None);
        }
    }
    match ask.pluto_row(true)? {
        Some(rows) => Ok(Some(rows)),
        None if first => Ok(None),
        None => ask.pluto_row(false),
    }
}

/// One member's question: the graph, its active edges, the nodes that must
/// take an independent row, the reuse left.
struct Ask<'a> {
    graph: &'a Graph,
    active: &'a [usize],
    regions: &'a [Region],
    groups: &'a [ReuseGroup],
}

impl Ask<'_> {
    /// ILP (3), or ILP (4) for the `last` row.
    fn cpu_row(&self, coincidence: bool, last: bool) -> Result<Option<Vec<AffineRow>>, PolyError> {
        if last {
            return Ok(self.lines_row(coincidence)?.map(|(rows, _)| rows));
        }
        self.reuse_row(coincidence)
    }

    /// Pluto's member (no reuse terms).
    fn pluto_row(&self, coincidence: bool) -> Result<Option<Vec<AffineRow>>, PolyError> {
        member(self.graph, self.active, self.regions, coincidence)
    }

    /// ILP (3): each group's temporal, then spatial, distance first.
    fn reuse_row(&self, coincidence: bool) -> Result<Option<Vec<AffineRow>>, PolyError> {
        // (group, the moves its term sums): temporal, then spatial.
        let mut terms: Vec<(usize, Vec<Vec<i64>>)> = Vec::new();
        for g in weighing_order(self.groups) {
            let group = &self.groups[g];
            if !group.temporal.is_empty() {
                terms.push((group.node, group.temporal.clone()));
            }
            if let Some(d) = &group.spatial {
                terms.push((group.node, vec![d.clone()]));
            }
        }
        let (mut m, head) = member_ilp(self.graph, self.active, coincidence, terms.len())?;
        for (&var, (node, moves)) in head.iter().zip(&terms) {
            // var = Σ a_d, a_d ≥ ±c·d: at the minimum, Σ |c·d|.
            let mut sum = Lin::var(var);
            for d in moves {
                let along = m.vars[*node].along(d)?;
                let a = m.ilp.var();
                m.ilp
                    .require(ConstraintKind::Ineq, Lin::var(a).sub(&along)?);
                m.ilp
                    .require(ConstraintKind::Ineq, Lin::var(a).add(&along)?);
                sum = sum.sub(&Lin::var(a))?;
            }
            m.ilp.require(ConstraintKind::Eq, sum);
        }
        m.ilp.settle()?;
        let significant: Vec<usize> = head.iter().chain(&m.bound).copied().collect();
        self.solve(&m.ilp, &m.vars, &significant)
    }

    /// ILP (4): the sum of the coefficients, then the spatial groups not
    /// walked forwards; the row and how many groups it walks. A group's
    /// `e_g ≤ c·d` (with `e_g ≥ 0`) also keeps `c·d` from going negative,
    /// which the paper's non-negative coefficients never ask; where that
    /// leaves no row (adi's back substitution, `v[j][i]` from `v[j + 1][i]`,
    /// needs `−j`: its lines are then walked backwards), the row is the
    /// one of the smallest coefficients without the groups, which walks
    /// none forwards.
    fn lines_row(&self, coincidence: bool) -> Result<Option<(Vec<AffineRow>, usize)>, PolyError> {
        match self.lines_row_walking(coincidence, true)? {
            Some(found) => Ok(Some(found)),
            None => self.lines_row_walking(coincidence, false),
        }
    }

    /// [`Self::lines_row`], the spatial groups counted where `walk`.
    fn lines_row_walking(
        &self,
        coincidence: bool,
        walk: bool,
    ) -> Result<Option<(Vec<AffineRow>, usize)>, PolyError> {
        let (mut m, head) = member_ilp(self.graph, self.active, coincidence, 2)?;
        let (total, unwalked) = (head[0], head[1]);
        let coeffs: Vec<usize> = m
            .vars
            .iter()
            .flat_map(|v| v.iter.iter().flat_map(|&(minus, plus)| [minus, plus]))
            .collect();
        m.ilp.define_sum(total, &coeffs)?;
        let spatial: Vec<(usize, &Vec<i64>)> = self
            .groups
            .iter()
            .filter_map(|g| Some((g.node, g.spatial.as_ref()?)))
            .filter(|_| walk)
            .collect();
        // unwalked = G − Σ e_g, with e_g ≤ 1 and e_g ≤ c·d.
        let count = i64::try_from(spatial.len()).map_err(|_| PolyError::Overflow)?;
        let mut sum = Lin::var(unwalked).with_constant(-count);
        let mut walks = Vec::new();
        for (node, d) in spatial {
            let e = m.ilp.var();
            walks.push(e);
            m.ilp
                .require(ConstraintKind::Ineq, Lin::term(-1, e).with_constant(1));
            let along = m.vars[node].along(d)?;
            m.ilp
                .require(ConstraintKind::Ineq, along.sub(&Lin::var(e))?);
            sum = sum.add(&Lin::var(e))?;
        }
        m.ilp.require(ConstraintKind::Eq, sum);
        m.ilp.settle()?;
        let Some(values) =
            nontrivial_lexmin(&m.ilp, &m.vars, self.regions, &head, Better::Smaller)?
        else {
            return Ok(None);
        };
        let walked = walks.iter().filter(|&&e| values[e] == 1).count();
        let rows = read_rows(&m.vars, &values)?;
        Ok(Some((rows, walked)))
    }

    fn solve(
        &self,
        ilp: &Ilp,
        vars: &[RowVars],
        significant: &[usize],
    ) -> Result<Option<Vec<AffineRow>>, PolyError> {
        nontrivial_lexmin(ilp, vars, self.regions, significant, Better::Smaller)?
            .map(|values| read_rows(vars, &values))
            .transpose()
    }
}

fn read_rows(vars: &[RowVars], values: &[i64]) -> Result<Vec<AffineRow>, PolyError> {
    vars.iter().map(|v| read_row(v, values)).collect()
}

/// Whether every active validity edge is at distance zero on `rows`.
/// Exact.
fn is_coincident(graph: &Graph, active: &[usize], rows: &[AffineRow]) -> Result<bool, PolyError> {
    for &e in active {
        let edge = &graph.edges[e];
        if edge.validity && !is_at_distance_zero(edge, &rows[edge.source], &rows[edge.target])? {
            return Ok(false);
        }
    }
    Ok(true)
}
