//! Which member of a permutable band should run innermost: the one whose
//! step walks the most accesses along a row (Pluto's intra-tile
//! optimisation). Any order of a permutable band's members is legal, so
//! this is a choice for speed only; the caller still applies it as checked
//! directives. Also how large its tiles should be, from the data a tile
//! touches along the same steps ([`footprint_tile`]).
//!
//! A member's step is the move through a statement's iterations that
//! advances that member's loop by one with every other loop fixed: the
//! column `R⁻¹ eₘ` of the inverse of the statement's loop rows `R` (exact,
//! over the rationals). An access then moves by `F R⁻¹ eₘ`, `F` its
//! subscripts, and scores
//! * **+2** when only the last subscript moves, by ±1 (the next element of
//!   a row: spatial locality, and a contiguous vector when the loop is
//!   coincident);
//! * **+1** when it does not move (temporal locality: a register);
//! * **−4** when an earlier subscript moves (a new row, a new cache line,
//!   every step), or the last moves by more than one.
//!
//! A statement whose loop rows are not invertible, or an access that is not
//! a function of the iterators, adds nothing: the choice is a heuristic,
//! and a lack of information keeps the order the scheduler found.

use super::feautrier::AffineRow;
use super::independence;
use super::tree::Tree;
use crate::poly::{ConstraintKind, Map};
use crate::scop::{AccessKind, Scop};

/// What moving along one member of a band does to the band's accesses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MemberReuse {
    /// The sum of the accesses' scores (module doc) when this member's
    /// loop is innermost.
    pub score: i64,
    /// How many accesses stay on one element along it (temporal reuse,
    /// which a tile over this member keeps in cache).
    pub invariant: usize,
    /// Whether it is a reduction loop for every statement of the band:
    /// each write stays on one element along it, and the statement reads
    /// its written array only at the element it updates (its unrolled
    /// copies then fold into one assignment, `emit::loops::fold`). False
    /// when some statement or access cannot be read.
    pub reduction: bool,
    /// Whether every write of the band's statements stays on one element
    /// along it (a reduction loop that may read the array elsewhere too:
    /// trmm's `B[i][j]` along `k`, which also reads `B[k][j]`). False
    /// when some statement or access cannot be read.
    pub writes_stay: bool,
}

/// For each member of the band whose rows for statement `s` are `rows[s]`
/// (all the statement's loop rows, outermost first, the band's members at
/// `first..first + size`): its [`MemberReuse`], summed over the
/// statements of the band.
pub(crate) fn member_reuse(
    scop: &Scop,
    rows: &[Vec<AffineRow>],
    statements: &[usize],
    first: usize,
    size: usize,
) -> Vec<MemberReuse> {
    let mut scores = vec![
        MemberReuse {
            reduction: true,
            writes_stay: true,
            ..MemberReuse::default()
        };
        size
    ];
    for &s in statements {
        let statement = &scop.statements[s];
        let n = statement.iterators.len();
        let Some((real, matrix)) = rows
            .get(s)
            .and_then(|loop_rows| loops_of(loop_rows, n))
            .filter(|_| n > 0)
        else {
            scores.iter_mut().for_each(|score| {
                score.reduction = false;
                score.writes_stay = false;
            });
            continue;
        };
        // Each access's subscripts (`None` when not a function of the
        // iterators), with whether it writes.
        let subscripts: Vec<(Option<Vec<Vec<i64>>>, bool)> = statement
            .accesses
            .iter()
            .map(|a| (subscript_rows(&a.relation, n), a.kind == AccessKind::Write))
            .collect();
        // Every read of a written array is of the written element.
        let updates_only = statement
            .accesses
            .iter()
            .zip(&subscripts)
            .all(|(a, (rows, _))| {
                statement
                    .accesses
                    .iter()
                    .zip(&subscripts)
                    .filter(|(w, _)| w.kind == AccessKind::Write && w.array == a.array)
                    .all(|(_, (written, _))| written.is_some() && written == rows)
            });
        for (m, score) in scores.iter_mut().enumerate() {
            // A statement with no loop at this member runs at one value of
            // it (doitgen's `sum[p] = 0` in the band `(p, s)`): nothing it
            // touches moves along the member, so it scores nothing and
            // leaves the member's reduction as the others make it (its
            // write is met once, before or after the jammed copies).
            let Some(position) = real.iter().position(|&k| k == first + m) else {
                score.reduction &= updates_only;
                continue;
            };
            let Some(step) = solve(&matrix, position) else {
                score.reduction = false;
                score.writes_stay = false;
                continue;
            };
            for (access, writes) in &subscripts {
                let one = access.as_ref().map(|a| access_score(a, &step));
                score.score += one.unwrap_or(0);
                score.invariant += usize::from(one == Some(1));
                score.reduction &= updates_only && (!writes || one == Some(1));
                score.writes_stay &= !writes || one == Some(1);
            }
        }
    }
    scores
}

/// Each access of the band's statements (as in [`member_reuse`]): its
/// array, whether it writes, and per member whether it stays on one
/// element along the member's step (`None`: the statement's rows or the
/// access cannot be read).
pub(crate) fn access_invariance(
    scop: &Scop,
    rows: &[Vec<AffineRow>],
    statements: &[usize],
    first: usize,
    size: usize,
) -> Vec<AccessInvariance> {
    let mut out = Vec::new();
    for &s in statements {
        let statement = &scop.statements[s];
        let n = statement.iterators.len();
        let loops = rows
            .get(s)
            .and_then(|loop_rows| loops_of(loop_rows, n))
            .filter(|_| n > 0);
        let steps: Vec<Option<(Vec<i128>, i128)>> = (0..size)
            .map(|m| {
                let (real, matrix) = loops.as_ref()?;
                let position = real.iter().position(|&k| k == first + m)?;
                solve(matrix, position)
            })
            .collect();
        for a in &statement.accesses {
            let subscripts = subscript_rows(&a.relation, n);
            let invariant = steps
                .iter()
                .map(|step| {
                    let (num, _) = step.as_ref()?;
                    let rows = subscripts.as_ref()?;
                    Some(rows.iter().all(|row| {
                        row.iter()
                            .zip(num)
                            .map(|(&c, &x)| i128::from(c) * x)
                            .sum::<i128>()
                            == 0
                    }))
                })
                .collect();
            out.push(AccessInvariance {
                array: a.array.clone(),
                writes: a.kind == AccessKind::Write,
                invariant,
            });
        }
    }
    out
}

/// Whether the statements touch some array's elements each once: every
/// access of it determines all the iterators of its statement (its
/// subscripts' rows have full rank), so no loop of the statement, in any
/// order, comes back to an element (trisolv's `L[i][j]` and `L[i][i]`;
/// not floyd-warshall's `paths[i][j]` under `k`, nor a stencil's
/// `A[i][j]` under its time loop). Exact; an access whose subscripts
/// cannot be read counts as one that comes back.
pub(crate) fn touches_an_array_once(scop: &Scop, statements: &[usize]) -> bool {
    let once = |s: usize, a: &crate::scop::Access| {
        let n = scop.statements[s].iterators.len();
        n > 0
            && subscript_rows(&a.relation, n)
                .and_then(|rows| independence::rank(&rows, n).ok())
                .is_some_and(|r| r == n)
    };
    let accesses = || {
        statements
            .iter()
            .flat_map(|&s| scop.statements[s].accesses.iter().map(move |a| (s, a)))
    };
    accesses().any(|(_, first)| {
        accesses()
            .filter(|(_, a)| a.array == first.array)
            .all(|(s, a)| once(s, a))
    })
}

/// One access of a band, seen along its members ([`access_invariance`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AccessInvariance {
    pub array: String,
    pub writes: bool,
    /// Per member: stays on one element along its step.
    pub invariant: Vec<Option<bool>>,
}

/// The data a tile may touch: half of a 512 KiB level-2 cache (Zen 1 to
/// 3's; the machine polyc runs on is not asked, so that its output does
/// not depend on it).
pub(crate) const TILE_CACHE_BYTES: u64 = 256 * 1024;

/// The tile sizes [`footprint_tile`] chooses from: 32 at most, Pluto's and
/// PPCG's default and the best measured here (syr2k, AMD EPYC Zen 1, one
/// thread: tiles of 32 ran 5.22× gcc's speed, 16 (a tile that fits a
/// 32 KiB level-1 cache) 3.69×; docs/performance.md).
const TILE_SIZES: [i64; 4] = [32, 16, 8, 4];

/// The tile size for the band (as in [`member_reuse`]) from its data
/// footprint: the largest of 32, 16, 8 and 4 (the same in every member)
/// whose tile touches at most [`TILE_CACHE_BYTES`] of data. A tile of size
/// `T` moves an access's subscript `d` over `Σₘ |move_{d,m}|·(T − 1) + 1`
/// elements, `move_{d,m}` its change along member `m`'s step; an access
/// touches the product of its subscripts' spans, and accesses of one
/// array with the same moves (`A[i][j]`, `A[i][j + 1]`) are counted once.
/// Elements are 8 bytes (4 for `float` and `int` arrays). An estimate for
/// a choice of speed only: 32 when a statement's rows or accesses cannot
/// be read.
pub(crate) fn footprint_tile(
    scop: &Scop,
    rows: &[Vec<AffineRow>],
    statements: &[usize],
    first: usize,
    size: usize,
) -> i64 {
    // Per distinct (array, moves): the element size and each subscript's
    // moves along the members, as (num, den) per member.
    type Moves = Vec<Vec<(i128, i128)>>;
    let mut groups: Vec<(String, u64, Moves)> = Vec::new();
    for &s in statements {
        let statement = &scop.statements[s];
        let n = statement.iterators.len();
        let Some(loop_rows) = rows.get(s) else {
            return 32;
        };
        let Some((real, matrix)) = loops_of(loop_rows, n) else {
            return 32;
        };
        // The step of each member; none along a member that is no loop of
        // this statement (its accesses do not move with it).
        let Some(steps) = (0..size)
            .map(|m| match real.iter().position(|&k| k == first + m) {
                Some(position) => solve(&matrix, position),
                None => Some((vec![0; n], 1)),
            })
            .collect::<Option<Vec<(Vec<i128>, i128)>>>()
        else {
            return 32;
        };
        for access in &statement.accesses {
            let Some(subscripts) = subscript_rows(&access.relation, n) else {
                return 32;
            };
            let moves: Vec<Vec<(i128, i128)>> = subscripts
                .iter()
                .map(|row| {
                    steps
                        .iter()
                        .map(|(num, den)| {
                            let d: i128 =
                                row.iter().zip(num).map(|(&a, &x)| i128::from(a) * x).sum();
                            (d, *den)
                        })
                        .collect()
                })
                .collect();
            let bytes = match scop
                .arrays
                .iter()
                .find(|a| a.name == access.array)
                .and_then(|a| a.element_type.as_deref())
            {
                Some("float" | "int") => 4,
                _ => 8,
            };
            if !groups
                .iter()
                .any(|(a, _, m)| *a == access.array && *m == moves)
            {
                groups.push((access.array.clone(), bytes, moves));
            }
        }
    }
    let footprint = |t: i64| -> Option<u64> {
        let mut total: u64 = 0;
        for (_, bytes, moves) in &groups {
            let mut elements: u64 = 1;
            for subscript in moves {
                // Σ |num / den|·(T − 1), rounded up, + 1.
                let mut span: u64 = 1;
                for &(num, den) in subscript {
                    let step = num
                        .unsigned_abs()
                        .checked_mul(u128::try_from(t - 1).ok()?)?;
                    let den = den.unsigned_abs().max(1);
                    span = span.checked_add(u64::try_from(step.div_ceil(den)).ok()?)?;
                }
                elements = elements.checked_mul(span)?;
            }
            total = total.checked_add(elements.checked_mul(*bytes)?)?;
        }
        Some(total)
    };
    TILE_SIZES
        .into_iter()
        .find(|&t| footprint(t).is_some_and(|f| f <= TILE_CACHE_BYTES))
        .unwrap_or(4)
}

/// A statement's loops among its rows `loop_rows`: the rows that move with
/// its `n` iterators (a constant row, a member whose loop the statement is
/// outside, is none), as their indices and as the square matrix of their
/// iterator coefficients; `None` unless there are exactly `n` of them.
fn loops_of(loop_rows: &[AffineRow], n: usize) -> Option<(Vec<usize>, Vec<Vec<i64>>)> {
    let (real, matrix): (Vec<usize>, Vec<Vec<i64>>) = loop_rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.iter.iter().any(|&c| c != 0))
        .map(|(k, r)| (k, r.iter.clone()))
        .unzip();
    (real.len() == n).then_some((real, matrix))
}

/// The score of one access (its subscript rows over the iterators) for a
/// step `num / den` through the iterations.
fn access_score(subscripts: &[Vec<i64>], step: &(Vec<i128>, i128)) -> i64 {
    let (num, den) = step;
    let moves: Vec<i128> = subscripts
        .iter()
        .map(|row| row.iter().zip(num).map(|(&a, &x)| i128::from(a) * x).sum())
        .collect();
    let Some((last, earlier)) = moves.split_last() else {
        return 0;
    };
    if earlier.iter().any(|&d| d != 0) {
        -4
    } else if *last == 0 {
        1
    } else if last.abs() == den.abs() {
        2
    } else {
        -4
    }
}

/// The subscripts of an access as rows of iterator coefficients (`n`
/// iterators), when each output dimension is fixed by one equality of the
/// access's only disjunct; `None` otherwise.
pub(crate) fn subscript_rows(relation: &Map, n: usize) -> Option<Vec<Vec<i64>>> {
    let [basic] = relation.basics() else {
        return None;
    };
    let space = basic.space();
    let (n_param, n_in, n_out) = (space.n_param(), space.n_in(), space.n_out());
    if n_in != n {
        return None;
    }
    let out = n_param + n_in;
    (0..n_out)
        .map(|o| {
            basic.constraints().iter().find_map(|c| {
                let fixes = c.kind == ConstraintKind::Eq
                    && c.coeffs[out + o].abs() == 1
                    && c.coeffs[out..]
                        .iter()
                        .enumerate()
                        .all(|(k, &v)| k == o || v == 0);
                fixes.then(|| {
                    // c: … + a·out_o = 0, so out_o = −a·(the rest).
                    let sign = -c.coeffs[out + o];
                    c.coeffs[n_param..out].iter().map(|&v| sign * v).collect()
                })
            })
        })
        .collect()
}

/// The solution `x = num / den` of `matrix · x = e_k` (square, over the
/// rationals), or `None` when the matrix is singular or the arithmetic
/// would overflow.
fn solve(matrix: &[Vec<i64>], k: usize) -> Option<(Vec<i128>, i128)> {
    let n = matrix.len();
    // Fraction-free Gauss-Jordan on [matrix | e_k], entries in i128.
    let mut a: Vec<Vec<i128>> = matrix
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let mut v: Vec<i128> = row.iter().map(|&c| i128::from(c)).collect();
            v.push(i128::from(r == k));
            v
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).find(|&r| a[r][col] != 0)?;
        a.swap(col, pivot);
        for r in 0..n {
            if r == col || a[r][col] == 0 {
                continue;
            }
            let (p, f) = (a[col][col], a[r][col]);
            let pivot_row = a[col].clone();
            for (v, &q) in a[r].iter_mut().zip(&pivot_row) {
                *v = v.checked_mul(p)?.checked_sub(q.checked_mul(f)?)?;
            }
            let g = a[r].iter().fold(0i128, |g, &v| gcd(g, v));
            if g > 1 {
                a[r].iter_mut().for_each(|v| *v /= g);
            }
        }
    }
    // Diagonal now: x_r = a[r][n] / a[r][r]; over one denominator.
    let den = a
        .iter()
        .enumerate()
        .try_fold(1i128, |l, (r, row)| lcm(l, row[r]))?;
    let num = a
        .iter()
        .enumerate()
        .map(|(r, row)| row[n].checked_mul(den / row[r]))
        .collect::<Option<Vec<i128>>>()?;
    Some((num, den))
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn lcm(a: i128, b: i128) -> Option<i128> {
    let g = gcd(a, b);
    if g == 0 {
        return Some(0);
    }
    (a / g).checked_mul(b).map(i128::abs)
}

/// Every statement's loop rows in `tree`, outermost first.
pub(crate) fn loop_rows(tree: &Tree, n_statements: usize) -> Vec<Vec<AffineRow>> {
    let mut rows = vec![Vec::new(); n_statements];
    collect(tree, &mut rows);
    rows
}

fn collect(tree: &Tree, rows: &mut [Vec<AffineRow>]) {
    match tree {
        Tree::Leaf(_) => {}
        Tree::Band { members, child, .. } => {
            for member in members {
                for (s, row) in &member.rows {
                    rows[*s].push(row.clone());
                }
            }
            collect(child, rows);
        }
        Tree::Sequence(children) => children.iter().for_each(|c| collect(c, rows)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_inverts_a_skew() {
        // Rows (t, t + i): the second loop's step is i + 1 at fixed t; the
        // first's is t + 1, i − 1.
        let m = vec![vec![1, 0], vec![1, 1]];
        assert_eq!(solve(&m, 1), Some((vec![0, 1], 1)));
        assert_eq!(solve(&m, 0), Some((vec![1, -1], 1)));
        assert_eq!(solve(&[vec![2, 0], vec![0, 1]], 0), Some((vec![1, 0], 2)));
        assert_eq!(solve(&[vec![1, 1], vec![2, 2]], 0), None);
    }

    #[test]
    fn a_row_walk_scores_above_a_register_above_a_column_walk() {
        let a_ij = vec![vec![1, 0], vec![0, 1]];
        let step_j = (vec![0, 1], 1);
        let step_i = (vec![1, 0], 1);
        assert_eq!(access_score(&a_ij, &step_j), 2);
        assert_eq!(access_score(&a_ij, &step_i), -4);
        assert_eq!(access_score(&[vec![1, 0]], &step_j), 1);
        // A step of two elements along the row is no neighbour.
        assert_eq!(access_score(&[vec![0, 2]], &step_j), -4);
    }

    /// The first band of three members or more that the Pluto scheduler
    /// gives `tests/kernels/NAME.c`, with what `f` says of it (given the
    /// scop, the loop rows, the band's statements, its first member's
    /// depth and its size).
    fn first_band<T>(
        name: &str,
        outer_coincidence: bool,
        f: impl Fn(&Scop, &[Vec<AffineRow>], &[usize], usize, usize) -> T,
    ) -> T {
        first_band_of(name, outer_coincidence, 3, f)
    }

    /// [`first_band`] of `min_members` members or more.
    fn first_band_of<T>(
        name: &str,
        outer_coincidence: bool,
        min_members: usize,
        f: impl Fn(&Scop, &[Vec<AffineRow>], &[usize], usize, usize) -> T,
    ) -> T {
        use crate::auto::scheduler::{schedule_tree, Algorithm, Fusion};
        use crate::lang::c::read_source;
        use crate::scop::{dependences, DepOptions};
        let path = format!("tests/kernels/{name}.c");
        let file = read_source(&path, std::fs::read_to_string(&path).unwrap()).unwrap();
        let scop = &file.scops[0];
        let deps = dependences(scop, &DepOptions::default()).unwrap();
        let tree = schedule_tree(
            scop,
            &deps,
            Algorithm::Pluto,
            Fusion::Smart,
            outer_coincidence,
        )
        .unwrap();
        let rows = loop_rows(&tree, scop.statements.len());
        // gemm's update, heat-3d's time band.
        fn find(tree: &Tree, depth: usize, min: usize) -> Option<(Vec<usize>, usize, usize)> {
            match tree {
                Tree::Leaf(_) => None,
                Tree::Sequence(c) => c.iter().find_map(|t| find(t, depth, min)),
                Tree::Band { members, .. } if members.len() >= min => Some((
                    members[0].rows.iter().map(|(s, _)| *s).collect(),
                    depth,
                    members.len(),
                )),
                Tree::Band { members, child, .. } => find(child, depth + members.len(), min),
            }
        }
        let (statements, first, size) = find(&tree, 0, min_members).unwrap();
        f(scop, &rows, &statements, first, size)
    }

    fn first_band_tile(name: &str, outer_coincidence: bool) -> i64 {
        first_band(name, outer_coincidence, footprint_tile)
    }

    /// gemm's update `C[i][j] += alpha * A[i][k] * B[k][j]` in the band
    /// (i, j, k): `C` stays along `k`, `A` along `j`, `B` along `i`.
    #[test]
    fn gemm_accesses_stay_on_one_element_along_the_member_they_do_not_read() {
        let accesses = first_band("gemm", true, access_invariance);
        let along = |array: &str| -> Vec<Vec<Option<bool>>> {
            accesses
                .iter()
                .filter(|a| a.array == array)
                .map(|a| a.invariant.clone())
                .collect()
        };
        let c = vec![Some(false), Some(false), Some(true)];
        assert_eq!(along("C"), vec![c.clone(), c]);
        assert_eq!(along("A"), vec![vec![Some(false), Some(true), Some(false)]]);
        assert_eq!(along("B"), vec![vec![Some(true), Some(false), Some(false)]]);
        assert!(accesses.iter().any(|a| a.array == "C" && a.writes));
    }

    /// doitgen's band `(p, s)` holds `sum[p] = 0` at `s = 0` and the sum
    /// `sum[p] += A[r][q][s] * C4[s][p]`: `s` is a reduction loop (the
    /// initialisation, outside it, does not keep it from being one), `p`
    /// is not.
    #[test]
    fn a_statement_at_one_value_of_a_member_leaves_it_a_reduction() {
        let reuse = first_band_of("doitgen", true, 2, member_reuse);
        let reductions: Vec<bool> = reuse.iter().map(|r| r.reduction).collect();
        assert_eq!(reductions, vec![false, true]);
    }

    /// gemm's update, 3 · 32² doubles (24 KiB), and syr2k's, 5 · 32²
    /// (40 KiB), fit; heat-3d's time-skewed band of four members (Pluto's,
    /// without forced outer coincidence), whose every subscript moves with
    /// the time member too, touches more than 256 KiB at 32 and 16.
    #[test]
    fn footprint_tiles_are_32_unless_the_data_would_not_fit() {
        assert_eq!(first_band_tile("gemm", true), 32);
        assert_eq!(first_band_tile("syr2k", true), 32);
        assert_eq!(first_band_tile("heat-3d", false), 8);
    }

    /// trisolv's forward sweep touches each `L[i][j]` once; gemm's
    /// update comes back to `C[i][j]` along `k`, floyd-warshall to
    /// `paths[i][j]` along `k`, jacobi-2d to `A[i][j]` along `t`; a
    /// statement without loops touches nothing "along" any.
    #[test]
    fn an_array_touched_once_has_full_rank_subscripts_in_every_access() {
        use crate::lang::c::read_source;
        let once = |name: &str, statements: &[usize]| {
            let path = format!("tests/kernels/{name}.c");
            let text = std::fs::read_to_string(&path).expect("kernel");
            let file = read_source(&path, text).expect("accepted");
            touches_an_array_once(&file.scops[0], statements)
        };
        // trisolv: S0 `y[i] = b[i]`, S1 the update, S2 `y[i] /= L[i][i]`.
        assert!(once("trisolv", &[1, 2]));
        assert!(!once("gemm", &[1]));
        assert!(!once("floyd-warshall", &[0]));
        assert!(!once("jacobi-2d", &[0, 1]));
    }
}
