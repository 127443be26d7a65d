//! What `auto(…, target = gpu)` maps to CUDA blocks and threads in a band
//! it tiles (`super::tiling`), as PPCG does and as the CUDA target nests
//! mapped loops (docs/cuda.md): the tile size, which members become
//! blocks and which threads, and the directive that maps a loop.

use crate::apply::Directive;

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
    fn tiles_hold_at_most_1024_threads() {
        assert_eq!(gpu_tile(1), 256);
        assert!(gpu_tile(2) * gpu_tile(2) <= 1024);
        assert!(gpu_tile(3) * gpu_tile(3) <= 1024);
    }
}
