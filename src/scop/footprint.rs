//! Footprints: the cells of an array that the statement pieces of one
//! loop read or write in one iteration of the loops around it, as a set over
//! `[outer loop counters | cells]`, and the box that holds them: per
//! array dimension an offset affine in the parameters and the outer
//! counters, and a constant extent. What `pack` copies into a buffer
//! (`apply::marks::pack` checks it, `emit::pack` prints the copy).
//!
//! Exact: the footprint is built from the domains, the pieces' dates and
//! the access relations, every other variable existentially quantified;
//! the box's offsets and extents come from exact integer minima and
//! maxima over it. A box that cannot be proven bounded is `None`, never
//! an estimate.

use super::model::AccessKind;
use super::schedule::{alpha_date, Schedule};
use super::Scop;
use crate::poly::{BasicSet, Constraint, ConstraintKind, LexOpt, PolyError, Set, Space};

/// The most cells one buffer may hold: 65,536 (512 KiB of `double`s, on
/// the stack of each thread that runs the loop).
pub const MAX_BUFFER_CELLS: i64 = 1 << 16;

/// The most bytes of buffers one CUDA block may share: the static shared
/// memory of a block, 48 KiB on every CUDA device (`--target cuda` refuses
/// more; `auto(…, target = gpu)` offers no more).
pub const MAX_SHARED_BYTES: u64 = 48 * 1024;

/// The box around a footprint: cell `x` of the array lies at
/// `x[k] - offset[k]` in the buffer, `0 <= x[k] - offset[k] < extents[k]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackBox {
    /// Per array dimension: coefficients over `[params | outer counters]`
    /// and a constant.
    pub offsets: Vec<(Vec<i64>, i64)>,
    pub extents: Vec<i64>,
}

impl PackBox {
    /// How many cells the buffer holds; `None` past `i64`.
    pub fn cells(&self) -> Option<i64> {
        self.extents
            .iter()
            .try_fold(1i64, |acc, &e| acc.checked_mul(e))
    }
}

/// The footprint of the accesses of `array` of kind `kind` (`None`: reads
/// and writes) by `members` (statement, piece) in the loop at `depth`: a
/// set over `[params | c1 … c(depth-1) | x0 …]`, the counters of the loops
/// around it and the cells. One basic set per domain disjunct, piece and
/// access disjunct, less those another contains; the iterators and dates
/// are projected out where Fourier–Motzkin is exact over the integers,
/// and kept as existentials otherwise.
pub fn footprint(
    scop: &Scop,
    schedule: &Schedule,
    members: &[(usize, usize)],
    depth: usize,
    array: &str,
    kind: Option<AccessKind>,
) -> Result<Set, PolyError> {
    let rank = scop
        .arrays
        .iter()
        .find(|a| a.name == array)
        .map_or(0, |a| a.n_dims);
    let np = scop.params.len();
    let outer = depth - 1;
    let mut dims: Vec<String> = (1..=outer).map(|k| format!("c{k}")).collect();
    dims.extend((0..rank).map(|k| format!("x{k}")));
    let space = Space::set(scop.params.clone(), None, dims);
    let mut out = Set::empty(space.clone());
    for &(s, p) in members {
        let (Some(st), Some(piece)) = (
            scop.statements.get(s),
            schedule.statements.get(s).and_then(|ss| ss.pieces.get(p)),
        ) else {
            continue;
        };
        let m = st.iterators.len();
        let n = piece.space().n_out();
        if n < alpha_date(depth.max(1)) || depth == 0 {
            continue;
        }
        for access in st
            .accesses
            .iter()
            .filter(|a| a.array == array && kind.is_none_or(|k| a.kind == k))
        {
            for dom in st.domain.basics() {
                for acc in access.relation.basics() {
                    let b = joined(&space, np, outer, rank, m, n, dom, piece, acc)?;
                    if b.is_empty()? {
                        continue;
                    }
                    out.push(without_existentials(b)?);
                }
            }
        }
    }
    // A cell read twice (`B[i]` in three terms of one statement) would be
    // copied twice, and every copy is one more piece for the scan.
    Ok(out.without_covered_disjuncts())
}

/// The rows of one domain disjunct, piece and access disjunct over
/// `[params | c | x | iterators, dates, their locals]`, with `c_k` the
/// piece's date `α_k`.
#[allow(clippy::too_many_arguments)]
fn joined(
    space: &Space,
    np: usize,
    outer: usize,
    rank: usize,
    m: usize,
    n: usize,
    dom: &BasicSet,
    piece: &crate::poly::BasicMap,
    acc: &crate::poly::BasicMap,
) -> Result<BasicSet, PolyError> {
    let head = np + outer + rank;
    let (ld, lp, la) = (dom.n_local(), piece.n_local(), acc.n_local());
    let it = head; // iterators
    let dt = it + m; // dates
    let l_dom = dt + n;
    let l_piece = l_dom + ld;
    let l_acc = l_piece + lp;
    let width = l_acc + la;
    let mut rows = Vec::new();
    let mut row = |c: &Constraint, place: &dyn Fn(usize) -> usize| {
        let mut coeffs = vec![0; width];
        for (k, &v) in c.coeffs.iter().enumerate() {
            if v != 0 {
                coeffs[place(k)] = v;
            }
        }
        rows.push(Constraint {
            kind: c.kind,
            coeffs,
            constant: c.constant,
        });
    };
    for c in dom.constraints() {
        row(c, &|k| match k {
            k if k < np => k,
            k if k < np + m => it + (k - np),
            k => l_dom + (k - np - m),
        });
    }
    for c in piece.constraints() {
        row(c, &|k| match k {
            k if k < np => k,
            k if k < np + m => it + (k - np),
            k if k < np + m + n => dt + (k - np - m),
            k => l_piece + (k - np - m - n),
        });
    }
    for c in acc.constraints() {
        row(c, &|k| match k {
            k if k < np => k,
            k if k < np + m => it + (k - np),
            k if k < np + m + rank => np + outer + (k - np - m),
            k => l_acc + (k - np - m - rank),
        });
    }
    for k in 1..=outer {
        let mut coeffs = vec![0; width];
        coeffs[np + k - 1] = 1;
        coeffs[dt + alpha_date(k)] = -1;
        rows.push(Constraint::eq(coeffs, 0));
    }
    Ok(BasicSet::from_parts(space.clone(), width - head, rows))
}

/// `b` without its existentials when Fourier–Motzkin eliminates them
/// exactly over the integers, else `b` as it is.
fn without_existentials(b: BasicSet) -> Result<BasicSet, PolyError> {
    if b.n_local() == 0 {
        return Ok(b);
    }
    let (projected, exact) = b.project_out_rational(0, 0)?;
    Ok(if exact { projected } else { b })
}

/// The smallest box around `footprint` (over `[params | c (outer) | x
/// (rank)]`) whose offsets are affine lower bounds read off its rows, or
/// `None` when some dimension has no bounded extent. Exact: each
/// candidate offset's range is an integer minimum and maximum over every
/// basic set of the footprint.
pub fn pack_box(footprint: &Set, outer: usize, rank: usize) -> Result<Option<PackBox>, PolyError> {
    let np = footprint.space().n_param();
    let mut offsets = Vec::new();
    let mut extents = Vec::new();
    for k in 0..rank {
        let col = np + outer + k;
        let mut best: Option<((Vec<i64>, i64), i64)> = None;
        for candidate in lower_bounds(footprint, col, np + outer)? {
            let Some((lo, hi)) = range_over(footprint, col, &candidate)? else {
                continue;
            };
            let extent = hi
                .checked_sub(lo)
                .and_then(|d| d.checked_add(1))
                .ok_or(PolyError::Overflow)?;
            let offset = (
                candidate.0.clone(),
                candidate.1.checked_add(lo).ok_or(PolyError::Overflow)?,
            );
            if best.as_ref().is_none_or(|(_, e)| extent < *e) {
                best = Some((offset, extent));
            }
        }
        match best {
            Some((offset, extent)) => {
                offsets.push(offset);
                extents.push(extent);
            }
            None => return Ok(None),
        }
    }
    Ok(Some(PackBox { offsets, extents }))
}

/// Affine lower bounds of column `col` over the first `head` columns
/// (parameters and outer counters), from the rows of each basic set with
/// the other cells and the existentials projected out (rationally: a
/// candidate only, [`range_over`] decides). Deduplicated, in order.
fn lower_bounds(
    footprint: &Set,
    col: usize,
    head: usize,
) -> Result<Vec<(Vec<i64>, i64)>, PolyError> {
    let np = footprint.space().n_param();
    let n_dims = footprint.space().n_out();
    let mut out: Vec<(Vec<i64>, i64)> = Vec::new();
    for b in footprint.basics() {
        // Keep the outer counters and this cell dimension.
        let x = col - np;
        let (after, _) = b.project_out_rational(x + 1, n_dims - x - 1)?;
        let (only, _) = after.project_out_rational(head - np, x - (head - np))?;
        let at = head;
        for c in only.constraints() {
            let a = c.coeffs[at];
            if a <= 0 && c.kind == ConstraintKind::Ineq {
                continue;
            }
            if a == 0 {
                continue;
            }
            // a·x + rest + k (>= | =) 0 with a > 0 (or an equation).
            let (a, rest, k) = if a > 0 {
                (a, c.coeffs[..head].to_vec(), c.constant)
            } else {
                (
                    -a,
                    c.coeffs[..head].iter().map(|v| -v).collect(),
                    -c.constant,
                )
            };
            if rest.iter().any(|v| v % a != 0) {
                continue;
            }
            // x >= ceil(-(rest + k) / a).
            let coeffs: Vec<i64> = rest.iter().map(|v| -(v / a)).collect();
            let constant = ceil_div(k.checked_neg().ok_or(PolyError::Overflow)?, a);
            let candidate = (coeffs, constant);
            if !out.contains(&candidate) {
                out.push(candidate);
            }
        }
    }
    Ok(out)
}

fn ceil_div(n: i64, d: i64) -> i64 {
    let q = n.div_euclid(d);
    if n.rem_euclid(d) == 0 {
        q
    } else {
        q + 1
    }
}

/// The least and greatest value of `x_col - offset` over the footprint,
/// or `None` when either is unbounded. Exact.
fn range_over(
    footprint: &Set,
    col: usize,
    offset: &(Vec<i64>, i64),
) -> Result<Option<(i64, i64)>, PolyError> {
    let mut range: Option<(i64, i64)> = None;
    for b in footprint.basics() {
        // One dimension y = x_col - offset; everything else existential.
        let width = 1 + b.n_cols();
        let mut rows: Vec<Constraint> = b
            .constraints()
            .iter()
            .map(|c| {
                let mut coeffs = vec![0; width];
                coeffs[1..].copy_from_slice(&c.coeffs);
                Constraint {
                    kind: c.kind,
                    coeffs,
                    constant: c.constant,
                }
            })
            .collect();
        let mut def: Vec<i64> = vec![0; width];
        def[0] = -1;
        def[1 + col] = 1;
        for (j, &v) in offset.0.iter().enumerate() {
            def[1 + j] = def[1 + j].checked_sub(v).ok_or(PolyError::Overflow)?;
        }
        rows.push(Constraint::eq(def, -offset.1));
        let y = BasicSet::from_parts(
            Space::set(Vec::new(), None, vec!["y".into()]),
            width - 1,
            rows,
        );
        let lo = match y.lexmin()? {
            LexOpt::Empty => continue,
            LexOpt::Unbounded => return Ok(None),
            LexOpt::Point(p) => p[0],
        };
        let hi = match y.lexmax()? {
            LexOpt::Empty => continue,
            LexOpt::Unbounded => return Ok(None),
            LexOpt::Point(p) => p[0],
        };
        range = Some(match range {
            None => (lo, hi),
            Some((a, b)) => (a.min(lo), b.max(hi)),
        });
    }
    Ok(range)
}

/// The pieces of `schedule` in the loop at `depth` whose β-vector starts
/// with `prefix` (`depth` entries): (statement, piece). Cheap.
pub fn pieces_in_loop(schedule: &Schedule, prefix: &[i64]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (s, st) in schedule.statements.iter().enumerate() {
        for p in 0..st.pieces.len() {
            if st.depth() < prefix.len() {
                continue;
            }
            if st.beta(p).is_some_and(|b| b.starts_with(prefix)) {
                out.push((s, p));
            }
        }
    }
    out
}
