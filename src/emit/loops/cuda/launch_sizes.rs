//! The grid and block sizes of a kernel launch (docs/cuda.md): as many
//! blocks as a block loop has iterations, as many threads as a thread
//! loop's bounds allow when they differ by a constant, within CUDA's
//! limits. Sizes change speed only: mapped loops are grid-stride loops.

use crate::emit::scan::{Expr, Loop, Sum};

/// The most blocks along `y` and `z` (CUDA's limit), and along `x` here.
pub const MAX_GRID: u32 = 65535;
/// Blocks along a dimension whose block loop's bounds read a kernel
/// variable in every arm of a `max` or a `min` (the grid-stride loop is
/// correct for any count).
pub(super) const FALLBACK_GRID: u32 = 32;

/// At most how many iterations `l` has, when one of its lower bounds and
/// one of its upper bounds (the arms of a `max` and a `min`) differ by a
/// constant: the least such difference, plus one, over the stride.
pub(super) fn constant_trip(l: &Loop) -> Option<i64> {
    let arms = |e: &Expr, of_max: bool| -> Vec<Sum> {
        let list: Vec<&Expr> = match e {
            Expr::Max(v) if of_max => v.iter().collect(),
            Expr::Min(v) if !of_max => v.iter().collect(),
            e => vec![e],
        };
        list.into_iter()
            .filter_map(|x| match x {
                Expr::Ceil(a, 1) | Expr::Floor(a, 1) => Some(a.clone()),
                _ => None,
            })
            .collect()
    };
    let (lowers, uppers) = (arms(&l.lower, true), arms(&l.upper, false));
    lowers
        .iter()
        .flat_map(|lo| uppers.iter().filter_map(move |up| up.minus(lo)))
        .filter(|d| d.is_constant())
        .map(|d| d.constant)
        .min()
        .map(|d| d.max(-1) / l.stride.max(1) + 1)
}

/// How many blocks the block loop `l` gets along its dimension, its
/// bounds printed `lo` and `up`, inside the kernel loops `outer` (whose
/// variables host C cannot read), `expr` printing a bound. Its bounds are
/// host C when they read none of `outer`: its iterations. Else the arms
/// of its bounds' `max` and `min` that are host C, a lower bound no
/// greater and an upper bound no less, give at least as many blocks as
/// it has iterations for any value of the loops around (`c3 <=
/// min(floord(n - 2, 32), floord(-32 * c2 + n - 2, 65536))` is at most
/// `floord(n - 2, 32)` for every `c2`); else the cap. Any count is
/// correct: mapped loops are grid-stride loops.
pub(super) fn block_loop_grid(
    l: &Loop,
    lo: String,
    up: String,
    outer: &[String],
    expr: impl Fn(&Expr) -> String,
) -> GridSize {
    let host = |e: &Expr| !outer.iter().any(|x| e.mentions(x));
    let step = if l.down { 1 } else { l.stride };
    if host(&l.lower) && host(&l.upper) {
        return GridSize::Iterations { lo, up, step };
    }
    let arms = |e: &Expr, of_max: bool| -> Option<Expr> {
        let mut list: Vec<Expr> = match e {
            Expr::Max(v) if of_max => v.iter().filter(|a| host(a)).cloned().collect(),
            Expr::Min(v) if !of_max => v.iter().filter(|a| host(a)).cloned().collect(),
            e if host(e) => vec![e.clone()],
            _ => Vec::new(),
        };
        match (list.len(), of_max) {
            (0, _) => None,
            (1, _) => list.pop(),
            (_, true) => Some(Expr::Max(list)),
            (_, false) => Some(Expr::Min(list)),
        }
    };
    match (arms(&l.lower, true), arms(&l.upper, false)) {
        (Some(lo), Some(up)) => GridSize::Iterations {
            lo: expr(&lo),
            up: expr(&up),
            step,
        },
        _ => GridSize::Cap,
    }
}

/// How many blocks one dimension of the grid gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum GridSize {
    /// As many as the block loop has iterations, `lo` to `up` by `step`
    /// (host C; where its own bounds read kernel variables, bounds of
    /// them that do not), at most the dimension's cap.
    Iterations { lo: String, up: String, step: i64 },
    /// [`FALLBACK_GRID`]: no lower or no upper bound of the loop is
    /// host C.
    Cap,
}

/// The sizes of one kernel's launch, as `--dump-sizes` prints them and
/// `--sizes` sets them: threads per block and the most blocks, along `x`,
/// `y`, `z` (the dimensions the kernel uses).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaunchSizes {
    pub block: Vec<u32>,
    pub grid: Vec<u32>,
}

/// The most threads of a block (CUDA's limit).
const MAX_THREADS: u64 = 1024;

/// The default sizes: per used dimension of the block, the most iterations
/// of its thread loops when they are bounded by constants, else 256
/// threads along `x` alone, 32 × 8 with `y`, 32 × 4 × 4 with `z`, the
/// inner dimensions halved while there are more than 1,024 in all; per
/// used dimension of the grid, [`MAX_GRID`] blocks at most, or
/// [`FALLBACK_GRID`] where the count is not known on the host.
pub(super) fn default_sizes(
    grid: &[Option<GridSize>; 3],
    block: &[Option<Option<i64>>; 3],
) -> LaunchSizes {
    let used = block.iter().rposition(Option::is_some).map_or(0, |k| k + 1);
    let default: &[i64] = match used {
        0 => &[1],
        1 => &[256],
        2 => &[32, 8],
        _ => &[32, 4, 4],
    };
    let mut threads: Vec<u32> = (0..used.max(1))
        .map(|k| match block[k] {
            None => 1,
            Some(None) => default[k],
            Some(Some(t)) => t.clamp(1, MAX_THREADS as i64),
        })
        .map(|n| u32::try_from(n).unwrap_or(1))
        .collect();
    while threads.iter().map(|&t| u64::from(t)).product::<u64>() > MAX_THREADS {
        // The last dimension above 1 gives way first.
        match threads.iter().rposition(|&t| t > 1) {
            Some(k) => threads[k] = threads[k].div_ceil(2),
            None => break,
        }
    }
    let used = grid.iter().rposition(Option::is_some).map_or(1, |k| k + 1);
    let caps = grid[..used]
        .iter()
        .map(|g| match g {
            Some(GridSize::Iterations { .. }) => MAX_GRID,
            Some(GridSize::Cap) => FALLBACK_GRID,
            None => 1,
        })
        .collect();
    LaunchSizes {
        block: threads,
        grid: caps,
    }
}

/// Why `sizes` cannot replace `default` (another number of dimensions, a
/// size of 0, too many threads or blocks), if it cannot.
pub(super) fn check_sizes(sizes: &LaunchSizes, default: &LaunchSizes) -> Result<(), String> {
    for (what, given, wanted) in [
        ("block", &sizes.block, &default.block),
        ("grid", &sizes.grid, &default.grid),
    ] {
        if given.len() != wanted.len() {
            let count = |n: usize, one: &str, many: &str| match n {
                1 => format!("1 {one}"),
                n => format!("{n} {many}"),
            };
            return Err(format!(
                "`{what}` gives {}, and this kernel's {what} has {}",
                count(given.len(), "size", "sizes"),
                count(wanted.len(), "dimension", "dimensions")
            ));
        }
        if given.contains(&0) {
            return Err(format!("a `{what}` size is 0"));
        }
    }
    if sizes.block.iter().map(|&t| u64::from(t)).product::<u64>() > MAX_THREADS {
        return Err(format!("`block` asks for more than {MAX_THREADS} threads"));
    }
    if sizes.grid.iter().any(|&g| g > MAX_GRID) {
        return Err(format!("a `grid` size is above {MAX_GRID}"));
    }
    Ok(())
}

/// `dim3(…)` of the grid: per dimension the iterations of its block loop
/// at most its cap, the cap itself, or 1 along an unused one.
pub(super) fn grid_text(grid: &[Option<GridSize>; 3], caps: &[u32]) -> String {
    let parts: Vec<String> = caps
        .iter()
        .enumerate()
        .map(|(k, cap)| match &grid[k] {
            Some(GridSize::Iterations { lo, up, step }) => {
                format!("polyc_blocks({lo}, {up}, {step}, {cap})")
            }
            Some(GridSize::Cap) => cap.to_string(),
            None => "1".into(),
        })
        .collect();
    format!("dim3({})", parts.join(", "))
}

/// `dim3(…)` of the block.
pub(super) fn block_text(block: &[u32]) -> String {
    let parts: Vec<String> = block.iter().map(u32::to_string).collect();
    format!("dim3({})", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(c: i64) -> Sum {
        Sum {
            terms: vec![(32, "c1".into())],
            constant: c,
        }
    }

    #[test]
    fn a_point_loop_has_at_most_its_tile_size_of_iterations() {
        let l = Loop {
            var: "i".into(),
            declare: true,
            down: false,
            lower: Expr::Max(vec![Expr::Ceil(var(0), 1), Expr::Ceil(Sum::default(), 1)]),
            upper: Expr::Min(vec![
                Expr::Floor(var(31), 1),
                Expr::Floor(
                    Sum {
                        terms: vec![(1, "n".into())],
                        constant: -1,
                    },
                    1,
                ),
            ]),
            stride: 1,
            marks: Vec::new(),
            once: false,
            body: Vec::new(),
        };
        assert_eq!(constant_trip(&l), Some(32));
    }

    #[test]
    fn blocks_hold_at_most_1024_threads() {
        let threads =
            |block: [Option<Option<i64>>; 3]| default_sizes(&[None, None, None], &block).block;
        assert_eq!(
            threads([Some(Some(32)), Some(Some(32)), None]),
            vec![32, 32]
        );
        assert_eq!(
            threads([Some(Some(64)), Some(Some(64)), None]),
            vec![64, 16]
        );
        assert_eq!(threads([Some(None), None, None]), vec![256]);
        assert_eq!(threads([None, None, None]), vec![1]);
    }

    #[test]
    fn a_grid_counts_its_block_loops_iterations_up_to_a_cap() {
        let grid = [
            None,
            Some(GridSize::Iterations {
                lo: "0".into(),
                up: "n - 1".into(),
                step: 1,
            }),
            None,
        ];
        let sizes = default_sizes(&grid, &[None, None, None]);
        assert_eq!(sizes.grid, vec![1, MAX_GRID]);
        assert_eq!(
            grid_text(&grid, &sizes.grid),
            "dim3(1, polyc_blocks(0, n - 1, 1, 65535))"
        );
        assert_eq!(
            grid_text(&[Some(GridSize::Cap), None, None], &[7]),
            "dim3(7)"
        );
        assert_eq!(block_text(&[32, 8]), "dim3(32, 8)");
    }

    #[test]
    fn given_sizes_must_fit_the_kernel_and_cuda() {
        let default = LaunchSizes {
            block: vec![32, 8],
            grid: vec![100, 100],
        };
        let with =
            |block: Vec<u32>, grid: Vec<u32>| check_sizes(&LaunchSizes { block, grid }, &default);
        assert!(with(vec![16, 16], vec![10, 10]).is_ok());
        assert!(with(vec![16], vec![10, 10]).is_err());
        assert!(with(vec![64, 32], vec![10, 10]).is_err());
        assert!(with(vec![16, 0], vec![10, 10]).is_err());
        assert!(with(vec![16, 16], vec![10, 70000]).is_err());
    }
}
