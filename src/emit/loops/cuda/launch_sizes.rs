//! The grid and block sizes of a kernel launch (docs/cuda.md): as many
//! blocks as a block loop has iterations, as many threads as a thread
//! loop's bounds allow when they differ by a constant, within CUDA's
//! limits. Sizes change speed only: mapped loops are grid-stride loops.

use std::collections::HashMap;

use crate::emit::scan::{Expr, Loop, Sum};
use crate::poly::gcd_of;

/// The most blocks along `y` and `z` (CUDA's limit), and along `x` here.
pub const MAX_GRID: u32 = 65535;
/// Blocks along a dimension whose block loop's bounds read a kernel
/// variable in every arm of a `max` or a `min` (the grid-stride loop is
/// correct for any count).
pub(super) const FALLBACK_GRID: u32 = 32;

/// At most how many iterations `l` has, when one of its lower bounds and
/// one of its upper bounds (the arms of a `max` and a `min`) differ by a
/// constant once rational: `var >= a / d` and `var <= b / e` with `e·a −
/// d·b` constant give at most `floor((b/e − a/d) / stride) + 1`
/// iterations; the least such count over all pairs. A tile loop inside
/// its point loop (`ceild(j - 31, 32) .. floord(j, 32)`) has 1.
pub(super) fn constant_trip(l: &Loop) -> Option<i64> {
    // `(s, d)`: the arm, made the rational bound `var >= s / d` (lower)
    // or `var <= s / d`: a rounding away from the bound loosens it by
    // `d − 1`.
    let arms = |e: &Expr, lower: bool| -> Vec<(Sum, i64)> {
        let list: Vec<&Expr> = match e {
            Expr::Max(v) if lower => v.iter().collect(),
            Expr::Min(v) if !lower => v.iter().collect(),
            e => vec![e],
        };
        list.into_iter()
            .filter_map(|x| {
                let (s, d, toward) = match x {
                    Expr::Ceil(s, d) => (s, *d, lower),
                    Expr::Floor(s, d) => (s, *d, !lower),
                    _ => return None,
                };
                let loosen = d.checked_sub(1)?;
                let s = match (toward, lower) {
                    (true, _) => s.clone(),
                    (false, true) => s.plus(loosen.checked_neg()?)?,
                    (false, false) => s.plus(loosen)?,
                };
                Some((s, d))
            })
            .collect()
    };
    let (lowers, uppers) = (arms(&l.lower, true), arms(&l.upper, false));
    let span = |(a, d): &(Sum, i64), (b, e): &(Sum, i64)| -> Option<i64> {
        let width = b.times(*d)?.minus(&a.times(*e)?)?;
        if !width.is_constant() || *d <= 0 || *e <= 0 {
            return None;
        }
        // At most `floor(width / (d·e))` apart; `-1` where empty.
        let apart = width.constant.div_euclid(d.checked_mul(*e)?).max(-1);
        Some(apart.div_euclid(l.stride.max(1)) + 1)
    };
    lowers
        .iter()
        .flat_map(|lo| uppers.iter().filter_map(move |up| span(lo, up)))
        .min()
}

/// Bounds that host C can read of a kernel loop's variable, rational:
/// `(s, d)` for `lower` is `var >= s / d`, for `upper` `var <= s / d`,
/// with `s` an affine form of the parameters and the host's variables and
/// `d > 0`, wherever the loop runs (either may be unknown).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct HostRange {
    pub lower: Option<(Sum, i64)>,
    pub upper: Option<(Sum, i64)>,
}

/// The kernel loops around a loop: their variables, which host C cannot
/// read, and the host ranges of those that have one.
pub(super) struct Around<'a> {
    vars: &'a [String],
    ranges: &'a HashMap<String, HostRange>,
}

impl<'a> Around<'a> {
    pub fn new(vars: &'a [String], ranges: &'a HashMap<String, HostRange>) -> Around<'a> {
        Around { vars, ranges }
    }

    fn host(&self, e: &Expr) -> bool {
        !self.vars.iter().any(|x| e.mentions(x))
    }

    /// The arms of `e` (of its `max` when `of_max`, else of its `min`)
    /// made host C: as they are where they read no kernel variable, else
    /// at most their least value (`of_max`: a lower bound) or at least
    /// their greatest over the kernel variables' host ranges
    /// ([`Around::extreme`]), else left out. A `max` of the result is at
    /// most `e` for every value of the loops around, a `min` at least.
    fn host_arms(&self, e: &Expr, of_max: bool) -> Vec<Expr> {
        let list: Vec<&Expr> = match e {
            Expr::Max(v) if of_max => v.iter().collect(),
            Expr::Min(v) if !of_max => v.iter().collect(),
            e => vec![e],
        };
        list.into_iter()
            .filter_map(|a| match self.host(a) {
                true => Some(a.clone()),
                false => self.extreme(a, of_max),
            })
            .collect()
    }

    /// The arm `a = round(n / D)`, a rounded affine form, bounded below
    /// over the loops around (`least`) or above: each kernel variable
    /// `v` it reads, with coefficient `c`, replaced by the end `s / d` of
    /// its host range that bounds `c · v` the same way (`n` becomes `d ·
    /// (n − c·v) + c·s`, `D` becomes `d · D`: rounding after a division
    /// by a positive number keeps the order), then divided by the gcd.
    /// `None` where a variable read has no such end, or on overflow.
    fn extreme(&self, a: &Expr, least: bool) -> Option<Expr> {
        let (sum, div, ceil) = match a {
            Expr::Ceil(s, d) => (s, *d, true),
            Expr::Floor(s, d) => (s, *d, false),
            _ => return None,
        };
        let (mut out, mut div) = (sum.clone(), div);
        for name in sum
            .terms
            .iter()
            .map(|(_, n)| n)
            .filter(|n| self.vars.contains(n))
        {
            let Some(&(c, _)) = out.terms.iter().find(|(c, n)| n == name && *c != 0) else {
                continue;
            };
            let range = self.ranges.get(name)?;
            let (end, d) = match (c > 0) == least {
                true => range.lower.as_ref()?,
                false => range.upper.as_ref()?,
            };
            let term = Sum {
                terms: vec![(c, name.clone())],
                constant: 0,
            };
            out = out
                .minus(&term)?
                .times(*d)?
                .minus(&end.times(c.checked_neg()?)?)?;
            div = div.checked_mul(*d)?;
        }
        let (out, div) = reduced(out, div)?;
        if out.is_constant() {
            // Folded: `ceild(-15, 16)` prints as `0`.
            let n = out.constant;
            let value = match ceil {
                true => n.checked_neg()?.div_euclid(div).checked_neg()?,
                false => n.div_euclid(div),
            };
            return Some(Expr::Floor(
                Sum {
                    terms: Vec::new(),
                    constant: value,
                },
                1,
            ));
        }
        Some(match ceil {
            true => Expr::Ceil(out, div),
            false => Expr::Floor(out, div),
        })
    }

    /// The host range of loop `l` inside these loops, from the first arm
    /// of each of its bounds made host C ([`Around::host_arms`]): `var >=
    /// ceil(s / d) >= s / d`, `var >= floor(s / d) >= (s − d + 1) / d`,
    /// and the same above.
    pub fn range_of(&self, l: &Loop) -> HostRange {
        let end = |arms: Vec<Expr>, lower: bool| {
            arms.into_iter().find_map(|a| {
                let (s, d, ceil) = match a {
                    Expr::Ceil(s, d) => (s, d, true),
                    Expr::Floor(s, d) => (s, d, false),
                    _ => return None,
                };
                // A rounding away from the bound loosens it by `d − 1`.
                let s = match ceil == lower {
                    true => s,
                    false if lower => s.plus(1_i64.checked_sub(d)?)?,
                    false => s.plus(d.checked_sub(1)?)?,
                };
                reduced(s, d)
            })
        };
        HostRange {
            lower: end(self.host_arms(&l.lower, true), true),
            upper: end(self.host_arms(&l.upper, false), false),
        }
    }
}

/// `s / d` with both divided by the gcd of `d` and every number of `s`
/// (the same rational); `None` where `d <= 0` or the gcd is past `i64`.
fn reduced(s: Sum, d: i64) -> Option<(Sum, i64)> {
    if d <= 0 {
        return None;
    }
    let numbers = s.terms.iter().map(|(c, _)| *c).chain([s.constant, d]);
    let g = gcd_of(numbers).ok()?.max(1);
    Some((
        Sum {
            terms: s.terms.iter().map(|(c, n)| (c / g, n.clone())).collect(),
            constant: s.constant / g,
        },
        d / g,
    ))
}

/// How many blocks the block loop `l` gets along its dimension, its
/// bounds printed `lo` and `up`, inside the kernel loops `around`
/// (whose variables host C cannot read), `expr` printing a bound. Its
/// bounds are host C when they read none of `around`: its iterations.
/// Else the arms of its bounds' `max` and `min` made host C
/// ([`Around::host_arms`]) give at least as many blocks as it has
/// iterations for any value of the loops around (`c3 <=
/// min(floord(n - 2, 32), floord(-32 * c2 + n - 2, 65536))` is at most
/// `floord(n - 2, 32)` for every `c2`; `c3 >= ceild(16 * c2 - 15, 16)`
/// is at least `ceild(-15, 16)` where `c2 >= 0`); else the cap. Any
/// count is correct: mapped loops are grid-stride loops.
pub(super) fn block_loop_grid(
    l: &Loop,
    lo: String,
    up: String,
    around: &Around,
    expr: impl Fn(&Expr) -> String,
) -> GridSize {
    let step = if l.down { 1 } else { l.stride };
    if around.host(&l.lower) && around.host(&l.upper) {
        return GridSize::Iterations { lo, up, step };
    }
    let joined = |mut list: Vec<Expr>, of_max: bool| -> Option<Expr> {
        match (list.len(), of_max) {
            (0, _) => None,
            (1, _) => list.pop(),
            (_, true) => Some(Expr::Max(list)),
            (_, false) => Some(Expr::Min(list)),
        }
    };
    let lower = joined(around.host_arms(&l.lower, true), true);
    let upper = joined(around.host_arms(&l.upper, false), false);
    match (lower, upper) {
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
    fn a_tile_loop_inside_its_point_loop_has_one_iteration() {
        let j = |c: i64| sum(&[(1, "j")], c);
        let count = |lower: Expr, upper: Expr, stride: i64| {
            let mut l = block_loop("c4", lower, upper);
            l.stride = stride;
            constant_trip(&l)
        };
        // ceild(j - 31, 32) ..= floord(j, 32): one multiple of 32.
        let tile = count(Expr::Ceil(j(-31), 32), Expr::Floor(j(0), 32), 1);
        assert_eq!(tile, Some(1));
        // ceild(j, 4) ..= floord(j + 9, 4): at most 3; by 2, at most 2.
        let (lo, up) = (Expr::Ceil(j(0), 4), Expr::Floor(j(9), 4));
        assert_eq!(count(lo.clone(), up.clone(), 1), Some(3));
        assert_eq!(count(lo, up, 2), Some(2));
        // floord(j, 2) ..= ceild(j, 3): the bounds' rates differ.
        assert_eq!(count(Expr::Floor(j(0), 2), Expr::Ceil(j(0), 3), 1), None);
        // Brute force: the count is at least the iterations for every j.
        for (a, d, b, e) in [(-31, 32, 0, 32), (3, 4, 5, 2), (0, 3, 7, 3), (-5, 2, -5, 2)] {
            let (lo, up) = (
                Expr::Ceil(sum(&[(2, "j")], a), d),
                Expr::Floor(sum(&[(2, "j")], b), e),
            );
            let bound = count(lo, up, 1);
            for jv in -40_i64..40 {
                let first = (2 * jv + a).div_euclid(d) + i64::from((2 * jv + a).rem_euclid(d) != 0);
                let last = (2 * jv + b).div_euclid(e);
                let trips = (last - first + 1).max(0);
                if let Some(n) = bound {
                    assert!(trips <= n, "{a} {d} {b} {e} at j = {jv}: {trips} > {n}");
                }
            }
        }
    }

    fn sum(terms: &[(i64, &str)], constant: i64) -> Sum {
        Sum {
            terms: terms.iter().map(|(c, n)| (*c, n.to_string())).collect(),
            constant,
        }
    }

    fn block_loop(var: &str, lower: Expr, upper: Expr) -> Loop {
        Loop {
            var: var.into(),
            declare: true,
            down: false,
            lower,
            upper,
            stride: 1,
            marks: Vec::new(),
            once: false,
            body: Vec::new(),
        }
    }

    #[test]
    fn a_triangle_of_tiles_counts_its_widest_row_on_the_host() {
        // for c1 in 0 ..= floord(n - 2, 32)
        //   for c2 in ceild(16 * c1 - 15, 16) ..= floord(n - 1, 32)
        let outer = block_loop(
            "c1",
            Expr::Ceil(sum(&[], 0), 1),
            Expr::Floor(sum(&[(1, "n")], -2), 32),
        );
        let inner = block_loop(
            "c2",
            Expr::Ceil(sum(&[(16, "c1")], -15), 16),
            Expr::Floor(sum(&[(1, "n")], -1), 32),
        );
        let vars = ["c1".to_string()];
        let mut ranges = HashMap::new();
        let none = HashMap::new();
        let range = Around::new(&[], &none).range_of(&outer);
        assert_eq!(range.lower, Some((sum(&[], 0), 1)));
        assert_eq!(range.upper, Some((sum(&[(1, "n")], -2), 32)));
        ranges.insert("c1".to_string(), range);
        let print = |e: &Expr| format!("{e:?}");
        let grid = |ranges: &HashMap<String, HostRange>| {
            let around = Around::new(&vars, ranges);
            block_loop_grid(&inner, "lo".into(), "up".into(), &around, print)
        };
        // `ceild(16 * 0 - 15, 16)`, folded.
        assert_eq!(
            grid(&ranges),
            GridSize::Iterations {
                lo: print(&Expr::Floor(sum(&[], 0), 1)),
                up: print(&Expr::Floor(sum(&[(1, "n")], -1), 32)),
                step: 1
            }
        );
        // The upper end, rational, where the coefficient is negative:
        // `-16 * c1 - 15 >= -16 * (n - 2) / 32 - 15`, so the lower bound
        // is at least `ceild(-n - 28, 32)` (`ceild(-16n - 448, 512)`
        // reduced).
        let mirrored = block_loop(
            "c2",
            Expr::Ceil(sum(&[(-16, "c1")], -15), 16),
            Expr::Floor(sum(&[(1, "n")], -1), 32),
        );
        let around = Around::new(&vars, &ranges);
        assert_eq!(
            block_loop_grid(&mirrored, "lo".into(), "up".into(), &around, print),
            GridSize::Iterations {
                lo: print(&Expr::Ceil(sum(&[(-1, "n")], -28), 32)),
                up: print(&Expr::Floor(sum(&[(1, "n")], -1), 32)),
                step: 1
            }
        );
        // Without the range of `c1`, the cap.
        assert_eq!(grid(&none), GridSize::Cap);
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
