//! Tiling the permutable bands of a scheduler's tree, ordering their
//! loops for locality and marking the parallel and vector loops, with
//! polyc's own directives (`stripmine`, `interchange`, `parallelize`,
//! `vectorize`). The tiles, the order and the parallel marks are legal by
//! construction and applied as unchecked rewrites; the caller checks the
//! whole schedule once, exactly, as it checks a recipe's. A vector mark is
//! an offer, applied with `vectorize`'s own check.
//!
//! A permutable band of `k ≥ 2` members whose first member is the loop at
//! depth `p`, when some access of its statements stays on one element
//! along one of its members (reuse a tile keeps in cache; a stencil's
//! space loops have none, and tiling them per time step made jacobi-2d,
//! heat-3d and fdtd-2d 1.5-2x slower than gcc on the original), becomes
//! `k` tile loops then `k` point loops (Pluto's order): every
//! member is strip-mined (`T₀ P₀ T₁ P₁ …`), then each tile loop `T_m` moves
//! out to depth `p + m` by adjacent interchanges. Bands are tiled innermost
//! first, so that the depths of the outer ones do not move. The member
//! whose step walks the most accesses along a row ([`locality`]) then
//! moves to the innermost point loop (any order of a permutable band is
//! legal), and its tile loop to the innermost tile loop, unless that is
//! the tile loop marked parallel. The outermost
//! coincident member of a band is marked parallel (its tile loop when the
//! band is tiled), and the innermost loop of an innermost band is
//! vectorised when it is coincident (the parallel loop too, when it is
//! the innermost: `for simd`); a vector
//! mark polyc cannot prove (`vectorize`'s own check) is left out.
//!
//! With `wavefront`, a band none of whose members is coincident (Pluto's
//! band where no outer loop is parallel) is tiled whatever its reuse, and
//! its tiles run as a wavefront: the first tile loop is skewed by the
//! second (`T₀ + T₁`), which is then marked parallel; unless its
//! statements touch an array's elements each once (trisolv's `L`), which
//! the original order streams: then the band runs untiled, in order.
//! When such a band is skewed and holds several statements (a stencil's
//! sweeps in time), each statement is offered its own innermost point
//! loop, kept where the exact check proves it, and that loop a vector
//! mark; the innermost member's tiles are then `WAVEFRONT_ROW_TILE` long.
//!
//! With `target = gpu` ([`super::gpu_map`]), an outermost band with a
//! coincident member is tiled whatever its reuse, its coincident point
//! loops moved outside the others, and its tile and point loops mapped to
//! CUDA blocks and threads (`gpu_block`, `gpu_thread`) in place of the
//! parallel, vector and jam marks.
//!
//! A band that fuses nests sharing only reads ([`super::shared_reads`])
//! runs in order, never as a wavefront; each statement gets its own point
//! loops inside its tiles, with its own vector mark and jam.
//!
//! Length: one decision per band, whose parts read each other (the tiles
//! decide the order of the point loops, both decide the marks and the
//! jams, the GPU replaces the marks); split, each part would take the
//! band's whole state as arguments.

use super::band_sites::band_sites;
use super::choice::{BandChoice, Unmarked};
use super::gpu_map::{gpu_map, gpu_mapping, gpu_tile, promotions, Offered};
use super::locality;
use super::tree::Tree;
use super::{AutoOptions, TileSize, Wavefront};
use crate::apply::legality::first_illegality_since;
use crate::apply::proofs::ProvenJam;
use crate::apply::proofs::NO_PROOFS;
use crate::apply::{
    proven_jams as proven_jams_of, rewrite, ApplyError, Directive, ParallelOptions,
};
use crate::scop::{Dependence, Schedule, Scop, ThreadSchedule};

/// The factor of the unroll-and-jam `auto` offers the point loop around
/// the innermost one ([`tile_and_mark`]): gemm's `k` by 4 under gcc made
/// the update of a 32-element row of `C` take 0.121 s instead of 0.137 s,
/// and syrk's `j` by 4 ran 1.17× gcc's speed instead of 0.95× (AMD EPYC
/// Zen 4, one thread; by 8, 1.37× and 1.19× against 4's 1.32× and 1.17×
/// in the same runs; docs/performance.md); 4 divides every tile size
/// `auto` chooses, so full tiles have no remainder.
const JAM_FACTOR: u32 = 4;

/// The factor of the second unroll-and-jam `auto` offers, of the
/// coincident point loop around a jammed reduction loop: a register tile
/// of `JAM_OUTER_FACTOR` rows by `JAM_FACTOR` steps of the reduction
/// (gemm's and 2mm's `i` around `k` around the vector loop `j`, whose
/// tiles are `REGISTER_TILE_ROW` long). gcc, AMD EPYC Zen 4, one thread,
/// 5 interleaved rounds: gemm 0.090 s with 4 rows, 0.062 s with 8 (16:
/// slower, 3mm 0.151 s against 8's 0.131 s); the same with the code built
/// for AVX2 (`-march=znver3`, `-march=haswell`) 0.093 → 0.068 s and
/// 0.079 → 0.068 s, for 256-bit AVX-512 (`-march=skylake-avx512`) 0.067 →
/// 0.062 s; docs/performance.md, "Longer vector rows under a register
/// tile". (With tiles of 32 and 4 rows, against `k` alone: gemm 1.35× →
/// 1.46× of gcc, by 8 rows 1.43×.)
const JAM_OUTER_FACTOR: u32 = 8;

/// The tile size of the innermost member of a wavefront band whose
/// statements each get their own innermost point loop (a stencil's
/// sweeps): long rows for the vector loops, the other members keeping
/// the footprint's size. Hand-built on the Intel Xeon (one thread, gcc,
/// medians of 5): jacobi-1d's `(t, 2t + i)` tiled 64 × 512 ran 0.151 s,
/// 64 × 2048 0.135 s, 32 × 512 0.184 s, against 0.226 s for the original
/// and 0.219 s for isl's answer; 64 × 8192 (its rows past a level-1
/// cache) 0.30 s. jacobi-2d's `(t, i, j)` 32 × 32 × 512: 0.66 s against
/// 1.49 s (docs/performance.md, "Stencils tiled in time").
const WAVEFRONT_ROW_TILE: i64 = 512;

/// The tile size of the vector member of a band with a register tile
/// (a coincident point loop jammed around a jammed reduction loop around
/// the vector loop: gemm's `i`, `k`, `j`), the other members keeping the
/// footprint's size: the register tile's broadcasts and loop overhead
/// then serve twice the vector work. AMD EPYC Zen 4 (AVX-512), one
/// thread, gcc, 7 rounds: gemm 1.29× of gcc with tiles of 32, 1.71× with
/// `j`'s 64 (1.32× and 1.37× with `k`'s or `i`'s instead, 1.67× with all
/// three); docs/performance.md, "Longer vector rows under a register
/// tile".
const REGISTER_TILE_ROW: i64 = 64;

/// The factor of the unroll-and-jam, and the tile size of the innermost
/// member, of a two-member band whose innermost loop sums along the rows
/// of a matrix (a matrix-vector product: gesummv's and gemver's `j`, and
/// the bands over nests that share reads, bicg's and mvt's): eight rows
/// summed side by side, each read along 1,024 elements before the next
/// eight, which the hardware's prefetchers stream where four rows of 32
/// elements, then the next four, did not. gcc, AMD EPYC Zen 4, one thread,
/// 7 interleaved rounds: gesummv 0.036 → 0.026 s (the original 0.028 s),
/// gemver 0.040 → 0.030 s, bicg 0.019 → 0.013 s, mvt 0.038 → 0.014 s;
/// eight rows of 32 or four rows of 1,024 alone gained little or nothing
/// on gesummv (0.036 and 0.038 s); syrk's three-member band, none;
/// docs/performance.md, "Longer vector rows under a register tile".
const ROW_JAM_FACTOR: u32 = 8;
/// The innermost member's tile size in such a band ([`ROW_JAM_FACTOR`]).
const STREAMED_ROW_TILE: i64 = 1024;

/// The strips of a coincident member whose points `auto` runs innermost
/// as a vector loop, around a loop that carries a dependence (adi's four
/// sweeps, `i` around the recurrence along `j`): gcc, AMD EPYC Zen 4, 7
/// interleaved rounds, one thread 0.78 s → 0.44 s (the original 0.74 s),
/// two threads 0.39 → 0.29 s with the column sweeps alone;
/// docs/performance.md, "Recurrences side by side".
const VECTOR_STRIP: i64 = 32;

/// A step: a directive on the loops of a statement, and whether it is
/// required (a rewrite, legal by construction, checked with the whole
/// schedule afterwards) or only offered (a vector mark, applied with its
/// own check: a loop polyc cannot prove vectorisable stays unmarked).
struct Step {
    /// The band (its index in the sites) the step serves.
    site: usize,
    statement: usize,
    directive: Directive,
    required: bool,
}

/// `schedule` (the Clay form of `tree`, without marks) with every
/// permutable band of two or more members, where some access stays on one
/// element along some member, tiled by `tile` (none when `None`), its
/// point loops ordered for locality (the member with the best score of
/// [`locality::member_reuse`] innermost), and, when `parallel`, the
/// outermost coincident loop of each band marked parallel and the
/// innermost loop vectorised when it is coincident and proven so. Not
/// checked here but for the vector marks: the caller checks the result.
/// Also what was chosen for each band, outermost first, and the jams each
/// proven alone when offered.
pub(crate) fn tile_and_mark(
    scop: &Scop,
    deps: &[Dependence],
    tree: &Tree,
    mut schedule: Schedule,
    options: &AutoOptions,
) -> Result<Tiled, ApplyError> {
    let parallel = options.parallel;
    let sites = band_sites(tree);
    let rows = locality::loop_rows(tree, scop.statements.len());
    // Innermost first: `band_sites` lists a band before the bands below it.
    let mut steps: Vec<Step> = Vec::new();
    let mut choices: Vec<BandChoice> = sites
        .iter()
        .map(|site| BandChoice {
            members: site.rows.clone(),
            coincident: site.coincident.clone(),
            permutable: site.permutable,
            tile: None,
            row_tile: None,
            vector_strips: None,
            wavefront: false,
            sweeps: false,
            distributed: false,
            order: (0..site.members).collect(),
            tile_order: (0..site.members).collect(),
            parallel: None,
            vector: false,
            left_to_compiler: None,
            jam: None,
            jam_outer: None,
            gpu_blocks: Vec::new(),
            gpu_threads: Vec::new(),
            gpu_shared: Vec::new(),
            gpu_shared_bytes: 0,
            gpu_registers: Vec::new(),
        })
        .collect();
    for (index, site) in sites.iter().enumerate().rev() {
        let Some(&statement) = site.statements.first() else {
            continue;
        };
        let mut step = |directive, required| {
            steps.push(Step {
                site: index,
                statement,
                directive,
                required,
            })
        };
        let k = site.members;
        let p = site.depth;
        let reuse = if site.permutable && k >= 2 {
            locality::member_reuse(scop, &rows, &site.statements, p - 1, k)
        } else {
            Vec::new()
        };
        // A tile pays for its loops by keeping in cache what an access
        // reuses along one of the band's members; a band without such
        // reuse (a stencil's space loops, each element read by neighbours
        // only) runs as fast untiled.
        // A band with no coincident member gets its parallelism from a
        // wavefront of tiles (`options.wavefront`): tiled whatever its
        // reuse (a time loop's tiles also keep its steps in cache), but
        // only when it is a loop of every statement (each member moves
        // with some iterator of each). Doitgen's band `(0, p)` of
        // `sum[p] = 0` would give that statement a point per tile, and
        // code that unrolled such tiles later took minutes to generate:
        // it stays untiled.
        // For the GPU, an outermost band with a coincident member is tiled
        // whatever its reuse: its tile loops become blocks, its point
        // loops threads.
        let gpu_band =
            options.gpu && parallel && site.permutable && site.first_coincident.is_some();
        let needs_wavefront = options.wavefront != Wavefront::Never
            && !options.gpu
            && parallel
            && site.permutable
            && k >= 2
            && !site.in_parallel
            && !site.shared_reads
            && !site.coincident.contains(&true);
        // No wavefront where the band's statements touch an array's
        // elements each once ([`locality::touches_an_array_once`]): the
        // original order streams it, and a wavefront reads it a few rows
        // of a tile at a time across the whole array (trisolv's `L`:
        // 0.90× of gcc on one thread as a wavefront, 1.08× untiled;
        // bicg's fused band 6× slower; docs/performance.md, "A streamed
        // access and the wavefront"). Such a band runs untiled, in order.
        // floyd-warshall's `paths[i][j]` stays on one element along `k`,
        // around its band: it keeps its wavefront.
        let streamed = || locality::touches_an_array_once(scop, &site.statements);
        let wavefront = needs_wavefront
            && site.rows.iter().all(|member| {
                member
                    .iter()
                    .all(|(_, row)| row.iter.iter().any(|&c| c != 0))
            })
            && !streamed();
        let worth_tiles = if needs_wavefront {
            wavefront
        } else {
            reuse.iter().any(|r| r.invariant > 0)
        };
        let tiled = match options.tile {
            TileSize::Off => None,
            TileSize::Footprint if gpu_band => Some(gpu_tile(k)),
            _ if !worth_tiles && !gpu_band => None,
            TileSize::Fixed(size) => Some(size),
            TileSize::Footprint => Some(locality::footprint_tile(
                scop,
                &rows,
                &site.statements,
                p - 1,
                k,
            )),
        };
        let wavefront = wavefront && tiled.is_some();
        // A wavefront band over several statements: each gets its own
        // innermost point loop where the exact check allows (below), which
        // then runs along a long row.
        let skewed = site.rows.iter().any(|member| {
            member
                .iter()
                .any(|(_, row)| row.iter.iter().filter(|&&c| c != 0).count() > 1)
        });
        let sweeps = wavefront && skewed && site.innermost && site.statements.len() >= 2;
        // The member to run innermost among the point loops (below).
        let moved = if options.gpu && tiled.is_some() {
            None
        } else {
            moved_innermost(&reuse, &site.coincident, tiled.is_some(), parallel)
        };
        let mut order: Vec<usize> = (0..k).collect();
        if let Some(best) = moved {
            order.remove(best);
            order.push(best);
        }
        // The tile loops and point loops are marked below; what is known
        // of them now decides the innermost member's tile size.
        let last = order[k - 1];
        let vector_offered = parallel && site.innermost && site.coincident[last];
        let reduction = |m: usize| !site.coincident[m] && reuse.get(m).is_some_and(|r| r.reduction);
        let around = k.checked_sub(2).map(|position| order[position]);
        let outer = k.checked_sub(3).map(|position| order[position]);
        let register_tile = !options.gpu
            && options.unroll_jam
            && options.register_tile
            && !wavefront
            && vector_offered
            && around.is_some_and(reduction)
            && outer.is_some_and(|m| site.coincident[m]);
        // A two-member band summing along rows (`ROW_JAM_FACTOR`): its
        // jam, the second case below, or each statement's over nests that
        // share reads.
        let streamed_rows = !options.gpu
            && options.unroll_jam
            && !wavefront
            && k == 2
            && !vector_offered
            && ((reduction(last) && around.is_some_and(|m| site.coincident[m]))
                || (site.shared_reads && site.innermost));
        let footprint = options.tile == TileSize::Footprint;
        let row_tile = tiled.filter(|_| footprint).and_then(|size| {
            if sweeps {
                Some((k - 1, size.max(WAVEFRONT_ROW_TILE)))
            } else if register_tile {
                Some((last, size.max(REGISTER_TILE_ROW)))
            } else if streamed_rows {
                Some((last, size.max(STREAMED_ROW_TILE)))
            } else {
                None
            }
        });
        let jam_factor = if streamed_rows && row_tile.is_some() {
            ROW_JAM_FACTOR
        } else {
            JAM_FACTOR
        };
        if let Some(size) = tiled {
            // Strip-mine every member, the last first (so that the depths of
            // the others stay), then move each tile loop out past the point
            // loops before it by adjacent swaps.
            for m in (0..k).rev() {
                let size = row_tile
                    .filter(|&(member, _)| member == m)
                    .map_or(size, |(_, row)| row);
                step(
                    Directive::Stripmine {
                        beta: Vec::new(),
                        depth: p + m,
                        size,
                    },
                    true,
                );
            }
            for m in 1..k {
                for d in (p + m..p + 2 * m).rev() {
                    step(interchange(d), true);
                }
            }
        }
        // The point loops (the members themselves when untiled) start at
        // `points`; the member to run innermost moves there by swaps.
        let points = if tiled.is_some() { p + k } else { p };
        if options.gpu && tiled.is_some() {
            // Threads outside, each running the other point loops: the
            // coincident members first, the one whose step walks the most
            // accesses along a row last among them (threadIdx.x: coalesced
            // accesses), then the others in the scheduler's order.
            let best = (0..k)
                .rev()
                .filter(|&m| site.coincident[m])
                .max_by_key(|&m| reuse.get(m).map_or(0, |r| r.score));
            let mut target: Vec<usize> = (0..k)
                .filter(|&m| site.coincident[m] && Some(m) != best)
                .collect();
            target.extend(best);
            target.extend((0..k).filter(|&m| !site.coincident[m]));
            for (q, &wanted) in target.iter().enumerate() {
                let Some(r) = order.iter().position(|&m| m == wanted) else {
                    continue;
                };
                for d in (points + q..points + r).rev() {
                    step(interchange(d), true);
                }
                let m = order.remove(r);
                order.insert(q, m);
            }
        } else if let Some(best) = moved {
            for d in points + best..points + k - 1 {
                step(interchange(d), true);
            }
        }
        // Around the innermost point loop of a tile, the reduction member:
        // the row the sum writes stays in cache from one of its steps to
        // the next (gemm's `C[i][j]` along `k`; trmm's `B[i][j]` along
        // `k`, which `spatial`'s band `(j, k, i)` would otherwise run
        // outside `i`: about 0.9× as fast on the Zen 4, docs/performance.md,
        // "`auto(spatial)`: adi's back substitutions and trmm's sum"). The
        // point loops of a permutable band's tiles run in any order.
        if tiled.is_some() && !options.gpu && site.permutable && k >= 3 {
            let sums =
                |m: usize| !site.coincident[m] && reuse.get(m).is_some_and(|r| r.writes_stay);
            let inner = order[..k - 1].iter().position(|&m| sums(m));
            if let Some(q) = inner.filter(|&q| q < k - 2) {
                for d in points + q..points + k - 2 {
                    step(interchange(d), true);
                }
                let m = order.remove(q);
                order.insert(k - 2, m);
            }
        }
        // The tile loops follow the point loops: the tile loop of the
        // member moved innermost moves innermost among the tile loops, so
        // that the tiles along it run one after the other, sharing the
        // tiles of the accesses it does not move (gemm's `A[i][k]` across
        // the tiles of `j`; docs/performance.md, "The tile loops in the
        // order of the point loops"). Not where it is the parallel member
        // (its tile loop stays outermost), nor in a wavefront (its first
        // two tile loops are skewed) or over nests that share reads.
        let mut tile_order: Vec<usize> = (0..k).collect();
        if let (Some(_), Some(&moved)) = (tiled, order.last()) {
            let follows = !options.gpu
                && !wavefront
                && !site.shared_reads
                && moved + 1 < k
                && site.first_coincident != Some(moved);
            if follows {
                for d in p + moved..p + k - 1 {
                    step(interchange(d), true);
                }
                tile_order.remove(moved);
                tile_order.push(moved);
            }
        }
        if wavefront {
            // Tile `(T₀, T₁)` runs at wavefront `T₀ + T₁`: the band is
            // permutable, so every dependence's tile distances are
            // non-negative, and those at distance zero on the sum are at
            // zero on `T₁`, which is then parallel.
            step(
                Directive::Skew {
                    beta: Vec::new(),
                    depth: p,
                    other: p + 1,
                    factor: -1,
                },
                true,
            );
        }
        let choice = &mut choices[index];
        choice.tile = tiled;
        choice.row_tile = row_tile;
        choice.sweeps = sweeps;
        choice.wavefront = wavefront;
        choice.order.clone_from(&order);
        choice.tile_order.clone_from(&tile_order);
        // The band's last loop is an untiled innermost loop inside three
        // or more others (doitgen's `p` under `r`, `q` and `s`). Inside
        // one or two (a time loop, adi's sweeps) the threads pay on the
        // sizes measured (docs/performance.md, "Innermost loops deep in a
        // nest"), unless a sequential nest beside it holds them at its
        // barriers every iteration (durbin's reduction into `sum` beside
        // its two updates: 0.55× of gcc on two threads, marked).
        let unmarked = if p > 3 {
            Some(Unmarked::Deep)
        } else if site.beside_sequential {
            Some(Unmarked::BesideSequential)
        } else {
            None
        };
        let inner_untiled = site.innermost && tiled.is_none() && unmarked.is_some();
        choice.left_to_compiler = unmarked
            .filter(|_| !options.gpu && inner_untiled && parallel && site.coincident[order[k - 1]]);
        // An untiled band whose innermost loop carries a dependence (adi's
        // sweeps: `p[i][j]` from `p[i][j - 1]`, a division on the path)
        // and whose outer loop is coincident: that member is cut into
        // strips of `VECTOR_STRIP`, the strip loop keeps its place (and
        // the parallel mark), and the points of a strip move innermost,
        // offered a vector mark: `VECTOR_STRIP` recurrences side by side.
        let strip_member = order
            .iter()
            .position(|&m| site.coincident[m])
            .filter(|&position| {
                tiled.is_none()
                    && unmarked.is_none()
                    && !options.gpu
                    && parallel
                    && options.tile != TileSize::Off
                    && site.permutable
                    && site.innermost
                    && !site.shared_reads
                    && position + 1 < k
                    && !site.coincident[order[k - 1]]
            });
        if let Some(position) = strip_member {
            step(
                Directive::Stripmine {
                    beta: Vec::new(),
                    depth: p + position,
                    size: VECTOR_STRIP,
                },
                true,
            );
            for d in p + position + 1..p + k {
                step(interchange(d), true);
            }
            step(vector_at(p + k), false);
            choice.vector_strips = Some((order[position], VECTOR_STRIP));
        }
        if options.gpu {
            if parallel {
                let (blocks, threads) = gpu_mapping(
                    site.first_coincident,
                    &site.coincident,
                    &order,
                    tiled.is_some(),
                );
                for &(m, dim) in &blocks {
                    let depth = if tiled.is_some() {
                        p + m
                    } else {
                        p + order.iter().position(|&o| o == m).unwrap_or(m)
                    };
                    step(gpu_map(depth, false, dim), true);
                }
                for &(m, dim) in &threads {
                    let position = order.iter().position(|&o| o == m).unwrap_or(m);
                    step(gpu_map(points + position, true, dim), true);
                }
                if tiled.is_some() {
                    let accesses =
                        locality::access_invariance(scop, &rows, &site.statements, p - 1, k);
                    for (depth, array, _) in promotions(&accesses, &order, &threads, points) {
                        step(
                            Directive::Pack {
                                beta: Vec::new(),
                                depth,
                                array,
                            },
                            false,
                        );
                    }
                }
                choice.gpu_blocks = blocks;
                choice.gpu_threads = threads;
            }
            continue;
        }
        // A one-member band over nests that share only reads
        // ([`super::shared_reads`]), each with loops of its own inside
        // (atax's `i` around its row sums' `j` and its column sums' `j`,
        // which read the sums): strips of `JAM_FACTOR` rows, each
        // statement with its own strip loop, unrolled and jammed into its
        // inner loop (the row sums side by side, the column sums' copies
        // folded), so that the second nest reads the strip's rows of the
        // array from cache. Its parallel mark, if any, goes on the strips
        // (below).
        let strips = site.shared_reads
            && k == 1
            && !site.innermost
            && !options.gpu
            && options.unroll_jam
            && options.tile != TileSize::Off;
        let mut parallel_strips = false;
        if parallel {
            // `(member, depth)`: the second tile loop of a wavefront; the
            // outermost coincident member: its tile loop when tiled, else
            // its loop where the reordering put it.
            let at = site.first_coincident.and_then(|c| {
                if tiled.is_some() {
                    let position = tile_order.iter().position(|&m| m == c).unwrap_or(c);
                    Some((c, p + position))
                } else {
                    order
                        .iter()
                        .position(|&m| site.coincident[m])
                        .map(|position| (order[position], p + position))
                }
            });
            let at = at.or(Some((1, p + 1)).filter(|_| wavefront));
            // Such a loop is not worth threads: each run of it is one
            // loop's work between two barriers (doitgen: 3.4 million `omp
            // for`s, 16x slower than gcc on one thread).
            let at = at.filter(|&(_, depth)| !(inner_untiled && depth == p + k - 1));
            choice.parallel = at.map(|(member, _)| member);
            parallel_strips = strips && at.is_some();
            if let Some((_, depth)) = at.filter(|_| !strips) {
                // Tiles are dealt round-robin (`schedule(static, 1)`): a
                // band over a triangle (syrk, lu) has tile rows of
                // growing length, which OpenMP's default blocks deal
                // unevenly (syrk on two threads: 0.23 s -> 0.16 s).
                let options = ParallelOptions {
                    schedule: Some((ThreadSchedule::Static, Some(1))),
                    collapse: None,
                    reduction: None,
                };
                step(
                    Directive::Parallelize {
                        beta: Vec::new(),
                        depth,
                        options: if tiled.is_some() {
                            options
                        } else {
                            ParallelOptions::default()
                        },
                    },
                    true,
                );
            }
        }
        let innermost_depth = points + k - 1;
        // The parallel loop itself when it is innermost (a one-member
        // band: jacobi-1d's `i`), printed `for simd`.
        // Nor is it marked vector: gcc vectorises such a loop itself, and
        // gcc 12 -O3 miscompiles some `omp simd` loops inside a loop it
        // unrolls and jams (docs/codegen.md, "Compilers").
        let vector = parallel && site.innermost && site.coincident[last] && !inner_untiled;
        if vector {
            step(vector_at(innermost_depth), false);
        }
        // Pluto-style unroll-and-jam of the point loop around the
        // innermost one, by `JAM_FACTOR`, into it, in two cases:
        // * the innermost is a vector loop and the loop around is a
        //   reduction loop (it carries a dependence, every write stays on
        //   one element along it and is the only element of its array
        //   read): the copies fold into one assignment, and each vector of
        //   the written array is loaded and stored once per `JAM_FACTOR`
        //   steps (gemm's `k` around `j`);
        // * the innermost is a reduction loop and the loop around is
        //   coincident: the copies are independent sums side by side
        //   (syrk's `j` around `k`: four `C[i][j]` share each `A[i][k]`).
        let worth_jam = around.is_some_and(|m| {
            (vector && reduction(m)) || (!vector && reduction(last) && site.coincident[m])
        });
        if options.unroll_jam && worth_jam && tiled.is_some() && !wavefront {
            step(
                Directive::UnrollJam {
                    beta: Vec::new(),
                    depth: innermost_depth - 1,
                    factor: jam_factor,
                },
                false,
            );
            // Around a jammed reduction loop (the first case), a coincident
            // point loop is jammed too: a register tile whose rows each
            // fold their copies (proven with the whole schedule: see
            // `AutoOptions::register_tile`).
            if options.register_tile && vector && outer.is_some_and(|m| site.coincident[m]) {
                step(
                    Directive::UnrollJam {
                        beta: Vec::new(),
                        depth: innermost_depth - 2,
                        factor: JAM_OUTER_FACTOR,
                    },
                    false,
                );
            }
        }
        // Steps on each statement of the band (`step` takes the first).
        let mut own_steps: Vec<(usize, Directive, bool)> = Vec::new();
        // A band over nests that share only reads (bicg's two sums over
        // `A`), not coincident for every statement: each statement gets
        // its own point loops inside the tiles (its own innermost loop
        // when untiled, so that the nests stay fused), which read a tile
        // of the array while it is in cache; no dependence joins them, so
        // any order of the statements is legal. Then each statement's
        // innermost loop is vectorised where `vectorize` proves it, and,
        // tiled, the loop around it is unrolled and jammed where one of
        // the two is a reduction for that statement (the cases above:
        // bicg's `q[i]` sums side by side, `s[j]`'s copies folded).
        if site.shared_reads && site.innermost && !vector && !options.gpu {
            let at = if tiled.is_some() {
                points
            } else {
                innermost_depth
            };
            own_steps.extend(own_loops(&site.statements, at, true));
            for &s in &site.statements {
                own_steps.push((s, vector_at(innermost_depth), false));
                let own = locality::member_reuse(scop, &rows, &[s], p - 1, k);
                let reduction = |m: usize| own.get(m).is_some_and(|r| r.reduction);
                let around = k.checked_sub(2).map(|position| order[position]);
                let worth_jam = around.is_some_and(|m| reduction(m) || reduction(last));
                if options.unroll_jam && worth_jam && tiled.is_some() {
                    let jam = Directive::UnrollJam {
                        beta: Vec::new(),
                        depth: innermost_depth - 1,
                        factor: jam_factor,
                    };
                    own_steps.push((s, jam, false));
                }
            }
        }
        // A wavefront band over several statements (a stencil's sweeps,
        // whose point loops are skewed): each statement gets its own
        // innermost point loop where the exact check proves that the
        // statements may run one after the other in it, and that loop is
        // vectorised where `vectorize` proves it. Interleaved in one
        // skewed loop, gcc vectorises none of them (jacobi-1d's wavefront
        // ran 0.18× of gcc on one thread).
        if sweeps && !vector {
            own_steps.extend(own_loops(&site.statements, innermost_depth, false));
            for &s in &site.statements {
                own_steps.push((s, vector_at(innermost_depth), false));
            }
        }
        if strips {
            let size = i64::from(JAM_FACTOR);
            own_steps.push((
                site.statements.first().copied().unwrap_or_default(),
                Directive::Stripmine {
                    beta: Vec::new(),
                    depth: p,
                    size,
                },
                true,
            ));
            for &s in &site.statements {
                own_steps.push((
                    s,
                    Directive::Split {
                        beta: Vec::new(),
                        depth: p + 1,
                    },
                    true,
                ));
            }
            if parallel_strips {
                let statement = site.statements.first().copied().unwrap_or_default();
                let parallelize = Directive::Parallelize {
                    beta: Vec::new(),
                    depth: p,
                    options: ParallelOptions::default(),
                };
                own_steps.push((statement, parallelize, true));
            }
            for &s in &site.statements {
                let jam = Directive::UnrollJam {
                    beta: Vec::new(),
                    depth: p + 1,
                    factor: JAM_FACTOR,
                };
                own_steps.push((s, jam, false));
            }
            choices[index].tile = Some(size);
        }
        for (statement, directive, required) in own_steps {
            steps.push(Step {
                site: index,
                statement,
                directive,
                required,
            });
        }
    }
    // The bands whose first jam was offered: a band's second one is the
    // register tile's outer loop.
    let mut jam_offered: Vec<(usize, usize)> = Vec::new();
    let mut proven_jams = Vec::new();
    for Step {
        site,
        statement,
        mut directive,
        required,
    } in steps
    {
        // The loop's β: the statement's, cut before the loop's depth (a
        // directive applies to every statement whose β starts with it).
        let mut beta = schedule.statements[statement].beta(0).unwrap_or_default();
        match &mut directive {
            Directive::Stripmine { beta: b, depth, .. }
            | Directive::Skew { beta: b, depth, .. }
            | Directive::Parallelize { beta: b, depth, .. }
            | Directive::Vectorize { beta: b, depth, .. }
            | Directive::MapGpu { beta: b, depth, .. }
            | Directive::Pack { beta: b, depth, .. }
            | Directive::UnrollJam { beta: b, depth, .. }
            | Directive::Interchange {
                beta: b, d1: depth, ..
            } => {
                beta.truncate(*depth);
                *b = beta;
            }
            // The statement's own β: everything after it in its loop at
            // `depth` moves to a loop of its own; nothing after it (the
            // last statement), no step.
            Directive::Split { beta: b, depth } => {
                let after = |other: &[i64]| match (
                    beta.split_at_checked(*depth),
                    other.split_at_checked(*depth),
                ) {
                    (Some((loop_beta, rest)), Some((other_loop, other_rest))) => {
                        loop_beta == other_loop && other_rest > rest
                    }
                    _ => false,
                };
                let any_after = schedule
                    .statements
                    .iter()
                    .filter_map(|st| st.beta(0))
                    .any(|other| after(&other));
                if !any_after {
                    continue;
                }
                *b = beta;
            }
            _ => {}
        }
        if required {
            // Legal by construction (a permutable band's members may be
            // strip-mined and permuted; a coincident member carries no
            // dependence): the caller checks the whole schedule once.
            schedule = rewrite(scop, deps, &schedule, &directive)?;
        } else if let Directive::Split { beta, depth } = &directive {
            // An offered split (a wavefront's sweeps) is kept when the
            // exact check proves it; a check that gives up proves nothing.
            // It moves statements inside one iteration of the loop around
            // its own (the time step's point loop), so only the pairs of
            // instances in such an iteration change order, and of those
            // only the pairs of pieces it does not keep in order (a
            // statement's own, and those the split leaves source first,
            // keep it) are tested. That holds where the schedule before
            // the split is legal; where a scheduler bug made it not, the
            // caller's check of the whole schedule refuses it.
            let Ok(next) = rewrite(scop, deps, &schedule, &directive) else {
                continue;
            };
            let around = beta.get(..depth.saturating_sub(1)).unwrap_or_default();
            if matches!(
                first_illegality_since(scop, deps, &schedule, &next, &NO_PROOFS, around),
                Ok(None)
            ) {
                choices[site].distributed = true;
                schedule = next;
            }
        } else if let Directive::Pack { beta, depth, array } = &directive {
            // A buffer offered for the GPU is kept when `pack` takes it
            // and it fits: a block's shared memory, a thread's registers.
            let Ok(next) = rewrite(scop, deps, &schedule, &directive) else {
                continue;
            };
            let buffer = Offered {
                beta,
                depth: *depth,
                array,
            };
            if buffer.fits(scop, &next, statement, &mut choices[site]) {
                schedule = next;
            }
        } else if let Ok(next) = rewrite(scop, deps, &schedule, &directive) {
            // An offered mark is kept when its own check proves it (the
            // rewrite of `vectorize` is refused for a loop that carries a
            // dependence); the other marks are as before, and the caller's
            // check of the whole schedule covers them all. A second jam of
            // a nest (a register tile) is kept after its band's first; the
            // two together are proven by the caller's check (with the
            // marks inside), which `session::auto` answers by scheduling
            // again without register tiles when it fails.
            let jam = matches!(directive, Directive::UnrollJam { .. });
            let second = jam && jam_offered.contains(&(site, statement));
            if jam {
                jam_offered.push((site, statement));
            }
            if second && choices[site].jam.is_none() {
                continue;
            }
            proven_jams.extend(proven_jams_of(&schedule, &directive)?);
            match directive {
                Directive::UnrollJam { factor, .. } if second => {
                    choices[site].jam_outer = Some(factor)
                }
                Directive::UnrollJam { factor, .. } => choices[site].jam = Some(factor),
                _ => choices[site].vector = true,
            }
            schedule = next;
        }
    }
    Ok(Tiled {
        schedule,
        choices,
        proven_jams,
    })
}

/// What [`tile_and_mark`] gives.
pub(crate) struct Tiled {
    pub schedule: Schedule,
    /// What was chosen for each band, outermost first.
    pub choices: Vec<BandChoice>,
    /// The loops each offered `unroll_jam` proved jammable alone, on the
    /// schedule of that step: the caller's check of the whole schedule
    /// need not prove them again where they still hold.
    pub proven_jams: Vec<ProvenJam>,
}

/// Each of `statements` in a loop of its own at `depth`: a split after
/// each (the last has nothing after it and gets no step), required or
/// offered.
fn own_loops(statements: &[usize], depth: usize, required: bool) -> Vec<(usize, Directive, bool)> {
    statements
        .iter()
        .map(|&s| {
            let split = Directive::Split {
                beta: Vec::new(),
                depth,
            };
            (s, split, required)
        })
        .collect()
}

/// Mark the loop at `depth` vector (an offer, with its own check).
fn vector_at(depth: usize) -> Directive {
    Directive::Vectorize {
        beta: Vec::new(),
        depth,
        reduction: None,
    }
}

/// The member `auto` moves innermost among a band's point loops (among
/// its loops when untiled), if it moves one: the member whose step walks
/// the most accesses along a row (among equals the later, which needs no
/// move), unless, untiled, it is the only coincident member, whose loop
/// carries the parallel mark outside the others.
fn moved_innermost(
    reuse: &[locality::MemberReuse],
    coincident: &[bool],
    tiled: bool,
    parallel: bool,
) -> Option<usize> {
    let k = coincident.len();
    if reuse.len() != k {
        return None;
    }
    let best = (0..k).rev().max_by_key(|&m| reuse[m].score)?;
    let keeps_parallel =
        tiled || !parallel || (0..k).any(|m| m != best && coincident[m]) || !coincident[best];
    (best + 1 < k && keeps_parallel).then_some(best)
}

/// Swap the loops at depths `d` and `d + 1`.
fn interchange(d: usize) -> Directive {
    Directive::Interchange {
        beta: Vec::new(),
        d1: d,
        d2: d + 1,
    }
}
