//! What `auto(…, target = gpu)` maps to CUDA blocks and threads in a band
//! it tiles (`super::tiling`), as PPCG does and as the CUDA target nests
//! mapped loops (docs/cuda.md): the tile size, which members become
//! blocks and which threads, the directive that maps a loop, and which
//! arrays to offer to pack: into shared memory, or a thread's registers
//! ([`promotions`]).

use super::choice::BandChoice;
use super::locality::AccessInvariance;
use crate::apply::{buffer_cells, Directive};
use crate::scop::footprint::MAX_SHARED_BYTES;
use crate::scop::{element_bytes, Mark, Schedule, Scop};

/// The tile size of a band mapped to the GPU: 32 × 32 threads at most
/// for two or more members (16 for three or more: 1,024 threads a block at
/// most), 256 for one.
pub(crate) fn gpu_tile(members: usize) -> i64 {
    match members {
        1 => 256,
        2 => 32,
        _ => 16,
    }
}

/// Map the loop at `depth` to blocks (`thread`: threads) along `dim`.
pub(crate) fn gpu_map(depth: usize, thread: bool, dim: u8) -> Directive {
    Directive::MapGpu {
        beta: Vec::new(),
        depth,
        thread,
        dim,
    }
}

/// Members of a band, each with a CUDA dimension (0 = x).
pub(crate) type Mapped = Vec<(usize, u8)>;

/// The members of a band mapped to CUDA blocks and to threads, each with
/// its dimension (the inner of two is `x`), as the CUDA target nests them
/// (docs/cuda.md): blocks on the outermost coincident member and the next
/// one when it is coincident too (their tile loops when `tiled`, which
/// keep the scheduler's order; else their loops, in `order`), threads on
/// the innermost run of at most two coincident point loops (adjacent in
/// `order`, so that one is alone in the other's body). Untiled, the
/// threads are the coincident loop just inside the block loop, if any.
pub(crate) fn gpu_mapping(
    first_coincident: Option<usize>,
    coincident: &[bool],
    order: &[usize],
    tiled: bool,
) -> (Mapped, Mapped) {
    let dims = |run: Vec<usize>| -> Mapped {
        let n = run.len();
        run.into_iter()
            .enumerate()
            .map(|(k, m)| (m, if k + 1 == n { 0 } else { 1 }))
            .collect()
    };
    let Some(first) = first_coincident else {
        return (Vec::new(), Vec::new());
    };
    if !tiled {
        let Some(at) = order.iter().position(|&m| coincident[m]) else {
            return (Vec::new(), Vec::new());
        };
        let threads = order
            .get(at + 1)
            .filter(|&&m| coincident[m])
            .map(|&m| vec![(m, 0)])
            .unwrap_or_default();
        return (vec![(order[at], 0)], threads);
    }
    let blocks: Vec<usize> = (first..coincident.len())
        .take_while(|&m| coincident[m])
        .take(2)
        .collect();
    let mut threads: Vec<usize> = Vec::new();
    for &m in order.iter().rev() {
        if coincident[m] && threads.len() < 2 {
            threads.insert(0, m);
        } else if !threads.is_empty() {
            break;
        }
    }
    (dims(blocks), dims(threads))
}

/// The most cells of a buffer offered for a thread's registers.
pub(crate) const MAX_REGISTER_CELLS: u64 = 16;

/// Where to offer `pack` in a tiled band mapped to the GPU, as PPCG
/// promotes (shared memory first, then registers), given the band's
/// `accesses`, its point loops' `order` from depth `points` and its
/// `threads`: `(depth, array, shared)`.
///
/// * Into **shared memory**, before the point loops (at the block
///   level): an array that some access reads at one element along a
///   thread member, so that the threads of a block read each element
///   again (gemm's `A[i][k]` along `j`, `B[k][j]` along `i`): read once
///   from global memory, then by every thread from the buffer.
/// * Into **registers**, before the first point loop inside the threads:
///   an array each access of which stays on one element along every such
///   loop (gemm's `C[i][j]` along `k`): one thread updates it there.
///
/// An offer only: `pack` checks it, and the caller keeps the buffers
/// within a block's shared memory and a thread's registers.
pub(crate) fn promotions(
    accesses: &[AccessInvariance],
    order: &[usize],
    threads: &Mapped,
    points: usize,
) -> Vec<(usize, String, bool)> {
    let on_threads: Vec<usize> = threads.iter().map(|&(m, _)| m).collect();
    let Some(last) = order.iter().rposition(|m| on_threads.contains(m)) else {
        return Vec::new();
    };
    let inside = &order[last + 1..];
    let mut arrays: Vec<&str> = Vec::new();
    for a in accesses {
        if !arrays.contains(&a.array.as_str()) {
            arrays.push(&a.array);
        }
    }
    let along =
        |a: &AccessInvariance, m: usize| a.invariant.get(m).copied().flatten() == Some(true);
    let mut out = Vec::new();
    for array in arrays {
        let of: Vec<&AccessInvariance> = accesses.iter().filter(|a| a.array == array).collect();
        let reused = of
            .iter()
            .any(|a| !a.writes && on_threads.iter().any(|&m| along(a, m)));
        if reused {
            out.push((points, array.to_string(), true));
        } else if !inside.is_empty() && of.iter().all(|a| inside.iter().all(|&m| along(a, m))) {
            out.push((points + last + 1, array.to_string(), false));
        }
    }
    // Shared buffers first: they are filled before the registers' loop.
    out.sort_by_key(|&(_, _, shared)| !shared);
    out
}

/// A pack [`promotions`] offered, as `pack` took it.
pub(crate) struct Offered<'a> {
    pub beta: &'a [i64],
    pub depth: usize,
    pub array: &'a str,
}

impl Offered<'_> {
    /// Whether the buffer, packed in `schedule` (for the loops around
    /// `statement`), fits: in a thread's registers at most
    /// [`MAX_REGISTER_CELLS`]; in a block's shared memory more than one
    /// cell (one cell every thread reads is a broadcast the cache serves,
    /// not worth a copy and a barrier), with the band's other shared
    /// buffers at most [`MAX_SHARED_BYTES`]. Recorded in `choice` when it
    /// fits. Exact sizes; an unknown one does not fit.
    pub(crate) fn fits(
        &self,
        scop: &Scop,
        schedule: &Schedule,
        statement: usize,
        choice: &mut BandChoice,
    ) -> bool {
        let per_thread = schedule.statements[statement]
            .marks
            .iter()
            .take(self.depth - 1)
            .flatten()
            .any(|m| matches!(m, Mark::GpuThread(_)));
        let cells = buffer_cells(scop, schedule, self.beta, self.depth, self.array)
            .ok()
            .flatten()
            .and_then(|n| u64::try_from(n).ok());
        let bytes = scop
            .arrays
            .iter()
            .find(|a| a.name == self.array)
            .and_then(|a| element_bytes(a.element_type.as_deref()?));
        let array = self.array.to_string();
        match (cells.zip(bytes), per_thread) {
            (Some((n, _)), true) if n <= MAX_REGISTER_CELLS => {
                choice.gpu_registers.push(array);
                true
            }
            (Some((n, b)), false)
                if n > 1
                    && n.saturating_mul(b).saturating_add(choice.gpu_shared_bytes)
                        <= MAX_SHARED_BYTES =>
            {
                choice.gpu_shared_bytes += n * b;
                choice.gpu_shared.push(array);
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matrix_product_maps_two_tile_loops_to_blocks_and_two_point_loops_to_threads() {
        // gemm's band (i, j, k), i and j coincident, points in order i, j, k.
        let (blocks, threads) = gpu_mapping(Some(0), &[true, true, false], &[0, 1, 2], true);
        assert_eq!(blocks, vec![(0, 1), (1, 0)]);
        assert_eq!(threads, vec![(0, 1), (1, 0)]);
    }

    #[test]
    fn threads_are_the_innermost_run_of_coincident_point_loops() {
        // Three coincident members: the inner two are threads.
        let (blocks, threads) = gpu_mapping(Some(0), &[true; 3], &[0, 1, 2], true);
        assert_eq!(blocks, vec![(0, 1), (1, 0)]);
        assert_eq!(threads, vec![(1, 1), (2, 0)]);
    }

    #[test]
    fn untiled_the_first_coincident_loop_is_blocks_and_the_next_threads() {
        let (blocks, threads) = gpu_mapping(Some(1), &[false, true, true], &[0, 1, 2], false);
        assert_eq!(blocks, vec![(1, 0)]);
        assert_eq!(threads, vec![(2, 0)]);
        assert_eq!(gpu_mapping(None, &[false], &[0], false), (vec![], vec![]));
    }

    #[test]
    fn a_matrix_product_promotes_its_factors_to_shared_memory_and_its_cell_to_registers() {
        // gemm's update C[i][j] += A[i][k] * B[k][j] in the band (i, j, k).
        let access = |array: &str, writes, invariant: [bool; 3]| AccessInvariance {
            array: array.to_string(),
            writes,
            invariant: invariant.iter().map(|&b| Some(b)).collect(),
        };
        let accesses = [
            access("C", true, [false, false, true]),
            access("C", false, [false, false, true]),
            access("A", false, [false, true, false]),
            access("B", false, [true, false, false]),
        ];
        let threads = vec![(0, 1), (1, 0)];
        let offers = promotions(&accesses, &[0, 1, 2], &threads, 4);
        assert_eq!(
            offers,
            vec![
                (4, "A".to_string(), true),
                (4, "B".to_string(), true),
                (6, "C".to_string(), false)
            ]
        );
        // Unknown invariance offers nothing.
        let unknown = AccessInvariance {
            array: "A".into(),
            writes: false,
            invariant: vec![None; 3],
        };
        assert!(promotions(&[unknown], &[0, 1, 2], &threads, 4).is_empty());
    }

    #[test]
    fn tiles_hold_at_most_1024_threads() {
        assert_eq!(gpu_tile(1), 256);
        assert!(gpu_tile(2) * gpu_tile(2) <= 1024);
        assert!(gpu_tile(3) * gpu_tile(3) <= 1024);
    }
}
