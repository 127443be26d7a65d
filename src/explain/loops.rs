//! The loops phase of the recovery: each statement's α dates.
//!
//! A statement's target dates `α = T·x + P·n + c` (iterators `x`,
//! parameters `n`) are reached from the original `α = x` by row
//! operations on `T`, each a directive on α rows: `interchange` swaps
//! two, `reverse` negates one, `skew(d, o, k)` subtracts `k` times row
//! `o` from row `d`, `grain` multiplies one ([`super::row_ops`]: a
//! unimodular `T` is eliminated to the identity and built back by the
//! inverse steps; any other nonsingular one is a product of those and
//! `grain`s). The start may itself have strides (a data-layout
//! directive's copy statements): `T` is then the quotient of the target's
//! rows by the start's, where it is integral. A statement with more
//! dates than iterators first gets loops of one iteration (`embed`); each
//! date beyond its first independent ones is a combination of them, made
//! by `skew`s first. Then `shift` adds `P·n + c`, row by row.
//!
//! The directives are given once for the largest subtree whose
//! statements all need the same ones, and with a statement's own β
//! otherwise: a directive on a statement's β rewrites its dates only.

use super::row_ops::{left_solution, product, quotient, simplified, unit_then_strides, RowOp};
use super::shape::{date_forms, gcd, StatementShape};
use super::{ExplainError, Gap, Recovery};
use crate::apply::Directive;
use crate::poly::{BasicMap, PolyError};

/// A statement's α dates as affine forms: per date, the coefficients of
/// the iterators, then of the parameters, then the constant.
type Rows = Vec<Vec<i64>>;

/// Gives each statement as many loops as the target has for it: one
/// `embed` (an innermost loop of one iteration, date 0) per date beyond
/// its iterators (isl's schedulers put constant dates between bands to
/// order statements; a date may also repeat another, negated).
pub(super) fn embed(r: &mut Recovery<'_>, target: &[StatementShape]) -> Result<(), ExplainError> {
    for (k, shape) in target.iter().enumerate() {
        let extra = shape
            .rows
            .len()
            .saturating_sub(r.current.statements[k].depth());
        for _ in 0..extra {
            let beta = r.beta(k)?;
            r.push(Directive::Embed { beta })?;
        }
    }
    Ok(())
}

/// Gives every statement its target α dates (the β-vectors are already
/// the target's): the row operations that reduce its current loops to
/// the iterators (the original's are the iterators, negated where a loop
/// counts down), then those that build the target's, then the shifts
/// that are left.
pub(super) fn recover(
    r: &mut Recovery<'_>,
    target: &[StatementShape],
) -> Result<Option<Gap>, ExplainError> {
    let n_param = r.scop.params.len();
    let mut ops: Vec<Vec<RowOp>> = Vec::new();
    let mut betas: Vec<Vec<i64>> = Vec::new();
    for (k, st) in r.scop.statements.iter().enumerate() {
        let n = st.iterators.len();
        let want = &target[k].rows;
        let Some(have) = alpha_rows(&r.current.statements[k].pieces[0], n_param, n)? else {
            return Ok(Some(not_affine(&st.name)));
        };
        let Some(statement_ops) = transformation(&have, want, n) else {
            return Ok(Some(not_affine(&st.name)));
        };
        ops.push(statement_ops);
        betas.push(r.beta(k)?);
    }
    give(r, &ops, &betas, &[])?;
    // The parameters and constants, now that the iterator parts agree.
    let mut shifts: Vec<Vec<RowOp>> = Vec::new();
    for (k, st) in r.scop.statements.iter().enumerate() {
        let n = st.iterators.len();
        let Some(have) = alpha_rows(&r.current.statements[k].pieces[0], n_param, n)? else {
            return Ok(Some(not_affine(&st.name)));
        };
        shifts.push(shift_ops(&have, &target[k].rows, n).ok_or(PolyError::Overflow)?);
    }
    give(r, &shifts, &betas, &[])?;
    Ok(None)
}

fn not_affine(statement: &str) -> Gap {
    Gap {
        statement: statement.to_string(),
        reason: "a loop date is not an affine form of its iterators that `interchange`, \
                 `reverse`, `skew` and `grain` give"
            .to_string(),
    }
}

/// Whether a date depends on the iterators.
fn moves(row: &[i64], n: usize) -> bool {
    row[..n].iter().any(|&v| v != 0)
}

/// The row operations that turn the iterator parts of `have` into
/// `want`'s. `want`'s first rows that are linearly independent are its
/// basis (there must be as many as iterators). Interchanges put `have`'s
/// dates that depend on the iterators at the basis's positions (its
/// others are constant: loops of one iteration). Each other date of
/// `want` that depends on the iterators is a combination of `have`'s
/// basis dates, given first by skews; then the square part `T` with
/// `T·have = want` on the basis: `have` eliminated and `want` built where
/// both are unimodular (up to strides of `want`'s rows), else `T`
/// decomposed ([`product`]). `None` when `T` or a combination is not
/// integral.
fn transformation(have: &Rows, want: &Rows, n: usize) -> Option<Vec<RowOp>> {
    let basis = independent_rows(want, n);
    if basis.len() != n || have.iter().filter(|r| moves(r, n)).count() != n {
        return None;
    }
    let reshape = reshaped(have, want, n);
    let mut have = have.clone();
    let mut ops = Vec::new();
    for p in 0..want.len() {
        let wanted = basis.contains(&p);
        if moves(&have[p], n) != wanted {
            let q = (p + 1..have.len()).find(|&q| moves(&have[q], n) == wanted)?;
            have.swap(p, q);
            ops.push(RowOp::Interchange(p + 1, q + 1));
        }
    }
    let square =
        |rows: &Rows| -> Vec<Vec<i64>> { basis.iter().map(|&p| rows[p][..n].to_vec()).collect() };
    // Depth `k` of the square part is depth `basis[k - 1] + 1` of the loops.
    let depth = |k: usize| basis[k - 1] + 1;
    let placed = |op: RowOp| match op {
        RowOp::Interchange(a, b) => RowOp::Interchange(depth(a), depth(b)),
        RowOp::Reverse(a) => RowOp::Reverse(depth(a)),
        RowOp::Grain { depth: d, factor } => RowOp::Grain {
            depth: depth(d),
            factor,
        },
        RowOp::Skew {
            depth: d,
            other,
            factor,
        } => RowOp::Skew {
            depth: depth(d),
            other: depth(other),
            factor,
        },
        RowOp::Reshape {
            depth: d,
            iterator,
            amount,
        } => RowOp::Reshape {
            depth: depth(d),
            iterator,
            amount,
        },
        shift @ RowOp::Shift { .. } => shift,
    };
    let (h, w) = (square(&have), square(want));
    // Each other date of `want` that depends on the iterators combines
    // the basis dates as they are now (integrally where they are
    // unimodular): made first, by skews, it is left as it is by the
    // operations on the basis dates below.
    for (j, row) in want.iter().enumerate() {
        if basis.contains(&j) || !moves(row, n) {
            continue;
        }
        let c = left_solution(&h, &row[..n])?;
        for (&b, &c) in basis.iter().zip(&c) {
            if c != 0 {
                ops.push(RowOp::Skew {
                    depth: j + 1,
                    other: b + 1,
                    factor: c.checked_neg()?,
                });
            }
        }
    }
    let square_ops = unit_then_strides(&h, &w).or_else(|| product(&quotient(&w, &h)?))?;
    ops.extend(square_ops.into_iter().map(placed));
    let ops = simplified(ops)?;
    match reshape {
        Some(one) if ops.len() > 1 => Some(vec![one]),
        _ => Some(ops),
    }
}

/// The `reshape` that gives `want` from `have` where they differ in one
/// date only, by a multiple of one iterator (`−2i` from `i`: one
/// directive, where the row operations take a `reverse` and a `grain`).
fn reshaped(have: &Rows, want: &Rows, n: usize) -> Option<RowOp> {
    if have.len() != want.len() {
        return None;
    }
    let mut differing = have
        .iter()
        .zip(want)
        .enumerate()
        .filter(|(_, (h, w))| h[..n] != w[..n]);
    let (depth, (h, w)) = differing.next()?;
    if differing.next().is_some() {
        return None;
    }
    let mut columns = (0..n).filter(|&i| h[i] != w[i]);
    let iterator = columns.next()?;
    if columns.next().is_some() {
        return None;
    }
    Some(RowOp::Reshape {
        depth: depth + 1,
        iterator: iterator + 1,
        amount: h[iterator].checked_sub(w[iterator])?,
    })
}

/// The positions of the first rows of `rows` (iterator parts) that are
/// linearly independent of the rows before them. Exact.
fn independent_rows(rows: &Rows, n: usize) -> Vec<usize> {
    let mut echelon: Vec<Vec<i128>> = Vec::new();
    let mut chosen = Vec::new();
    for (p, row) in rows.iter().enumerate() {
        let mut v: Vec<i128> = row[..n].iter().map(|&x| x.into()).collect();
        for e in &echelon {
            let Some(lead) = e.iter().position(|&x| x != 0) else {
                continue;
            };
            if v[lead] != 0 {
                let (a, b) = (e[lead], v[lead]);
                for (x, &y) in v.iter_mut().zip(e) {
                    *x = *x * a - y * b;
                }
                let g = v.iter().fold(0i128, |g, &x| gcd(g, x));
                if g > 1 {
                    v.iter_mut().for_each(|x| *x /= g);
                }
            }
        }
        if v.iter().any(|&x| x != 0) {
            echelon.push(v);
            echelon.sort_by_key(|e| e.iter().position(|&x| x != 0));
            chosen.push(p);
        }
    }
    chosen
}

/// The shifts that turn the parameter and constant parts of `have` into
/// `want`'s, row by row (`shift` subtracts).
fn shift_ops(have: &Rows, want: &Rows, n: usize) -> Option<Vec<RowOp>> {
    let mut ops = Vec::new();
    for (k, (h, w)) in have.iter().zip(want).enumerate() {
        let diff: Vec<i64> = h[n..]
            .iter()
            .zip(&w[n..])
            .map(|(a, b)| a.checked_sub(*b))
            .collect::<Option<_>>()?;
        if let Some((&constant, params)) = diff.split_last() {
            if constant != 0 || params.iter().any(|&p| p != 0) {
                ops.push(RowOp::Shift {
                    depth: k + 1,
                    params: params.to_vec(),
                    constant,
                });
            }
        }
    }
    Some(ops)
}

/// The directives of `ops` for the statements under `prefix`: once with
/// `prefix` when they all need the same (and `prefix` is a loop or a
/// statement), else per child.
fn give(
    r: &mut Recovery<'_>,
    ops: &[Vec<RowOp>],
    betas: &[Vec<i64>],
    prefix: &[i64],
) -> Result<(), ExplainError> {
    let under: Vec<usize> = (0..betas.len())
        .filter(|&s| betas[s].starts_with(prefix))
        .collect();
    let Some(&first) = under.first() else {
        return Ok(());
    };
    if !prefix.is_empty() && under.iter().all(|&s| ops[s] == ops[first]) {
        for op in &ops[first] {
            r.push(op.directive(prefix))?;
        }
        return Ok(());
    }
    // The steps they all start with, given once here; the rest below.
    let lists: Vec<&[RowOp]> = under.iter().map(|&s| &ops[s][..]).collect();
    let (common, rests) = common_start(&lists);
    let left: Vec<Vec<RowOp>>;
    let ops = if prefix.is_empty() || common.is_empty() {
        ops
    } else {
        for op in &common {
            r.push(op.directive(prefix))?;
        }
        let mut rest = ops.to_vec();
        for (&s, tail) in under.iter().zip(rests) {
            rest[s] = tail;
        }
        left = rest;
        &left
    };
    let mut children: Vec<i64> = under
        .iter()
        .filter_map(|&s| betas[s].get(prefix.len()).copied())
        .collect();
    children.sort_unstable();
    children.dedup();
    for child in children {
        let mut beta = prefix.to_vec();
        beta.push(child);
        give(r, ops, betas, &beta)?;
    }
    Ok(())
}

/// The row operations every list of `lists` starts with, and what is
/// left of each after them. A `grain` by `f` starts a `grain` of the same
/// date by a multiple `g` of `f` (the rest then starts with the `grain`
/// by `g / f`): fold-types' loops grained by 5, and one by 10, are one
/// `grain` by 5 of them all and one by 2.
fn common_start(lists: &[&[RowOp]]) -> (Vec<RowOp>, Vec<Vec<RowOp>>) {
    let mut rests: Vec<Vec<RowOp>> = lists.iter().map(|l| l.to_vec()).collect();
    let mut common = Vec::new();
    while let Some(first) = rests.first().and_then(|r| r.first()).cloned() {
        // The step they share: the first list's, or its `grain` by the
        // factor all the lists' first `grain`s of that date are
        // multiples of.
        let shared = match &first {
            RowOp::Grain { depth, .. } => {
                let factors: Option<Vec<i64>> = rests
                    .iter()
                    .map(|r| match r.first() {
                        Some(RowOp::Grain {
                            depth: d,
                            factor: f,
                        }) if d == depth => Some(*f),
                        _ => None,
                    })
                    .collect();
                let Some(factors) = factors else {
                    break;
                };
                let g = factors.iter().fold(0, |g, &f| gcd(g, i128::from(f)));
                let Some(g) = i64::try_from(g).ok().filter(|&g| g > 1) else {
                    break;
                };
                for (r, f) in rests.iter_mut().zip(&factors) {
                    if *f == g {
                        r.remove(0);
                    } else {
                        r[0] = RowOp::Grain {
                            depth: *depth,
                            factor: f / g,
                        };
                    }
                }
                common.push(RowOp::Grain {
                    depth: *depth,
                    factor: g,
                });
                continue;
            }
            other => other.clone(),
        };
        if !rests.iter().all(|r| r.first() == Some(&shared)) {
            break;
        }
        for r in &mut rests {
            r.remove(0);
        }
        common.push(shared);
    }
    (common, rests)
}

/// The α dates of `piece` as affine forms, when every one is one.
pub(super) fn alpha_rows(
    piece: &BasicMap,
    n_param: usize,
    n: usize,
) -> Result<Option<Rows>, PolyError> {
    Ok(date_forms(piece, n_param, n)?.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::super::row_ops::applied as apply;
    use super::*;

    /// Loops grained by 5 and one by 10 share a `grain` by 5; a common
    /// `reverse` first is shared too; lists that start differently share
    /// nothing.
    #[test]
    fn lists_share_their_first_steps_and_a_grain_that_divides_each() {
        let grain = |factor| RowOp::Grain { depth: 2, factor };
        let (five, ten) = ([grain(5)], [RowOp::Reverse(1), grain(10)]);
        let reversed_five = [RowOp::Reverse(1), grain(5)];
        let (common, rests) = common_start(&[&reversed_five, &ten]);
        assert_eq!(common, vec![RowOp::Reverse(1), grain(5)]);
        assert_eq!(rests, vec![vec![], vec![grain(2)]]);
        let (common, rests) = common_start(&[&five, &ten]);
        assert!(common.is_empty());
        assert_eq!(rests, vec![five.to_vec(), ten.to_vec()]);
        let (common, _) = common_start(&[&[grain(4)], &[grain(6)]]);
        assert_eq!(common, vec![grain(2)]);
    }

    /// `(i, j)` to `(i, −2j)`: one `reshape` by 3 of the second date, not
    /// a `reverse` and a `grain`; where two dates differ, or one date in
    /// two iterators, no one `reshape` gives it.
    #[test]
    fn a_date_less_a_multiple_of_one_iterator_is_one_reshape() {
        let have: Rows = vec![vec![1, 0, 0], vec![0, 1, 0]];
        let minus_2j: Rows = vec![vec![1, 0, 0], vec![0, -2, 0]];
        let reshape = RowOp::Reshape {
            depth: 2,
            iterator: 2,
            amount: 3,
        };
        assert_eq!(transformation(&have, &minus_2j, 2), Some(vec![reshape]));
        let both: Rows = vec![vec![2, 0, 0], vec![0, -2, 0]];
        assert_eq!(reshaped(&have, &both, 2), None);
        let two_columns: Rows = vec![vec![1, 0, 0], vec![1, -2, 0]];
        assert_eq!(reshaped(&have, &two_columns, 2), None);
    }

    #[test]
    fn a_date_with_a_stride_is_built_then_grained() {
        // From (i, j) to (2i, i + j, 2i + 2j): the last date combines the
        // others, the first has a stride of 2.
        let have: Rows = vec![vec![1, 0, 0], vec![0, 1, 0], vec![0, 0, 0]];
        let want: Rows = vec![vec![2, 0, 0], vec![1, 1, 0], vec![2, 2, 0]];
        let ops = transformation(&have, &want, 2).expect("a transformation");
        assert!(ops.contains(&RowOp::Grain {
            depth: 1,
            factor: 2
        }));
        let square =
            |rows: &Rows| -> Vec<Vec<i64>> { rows.iter().map(|r| r[..2].to_vec()).collect() };
        assert_eq!(apply(&ops, square(&have)), square(&want));
        // (i + j) beside (2i, j): made from (i, j) before the grain.
        let odd: Rows = vec![vec![2, 0, 0], vec![0, 1, 0], vec![1, 1, 0]];
        let ops = transformation(&have, &odd, 2).expect("a transformation");
        assert_eq!(apply(&ops, square(&have)), square(&odd));
        // (i, j) from (2i, j): no integral row operation halves a date.
        let strided: Rows = vec![vec![2, 0, 0], vec![0, 1, 0]];
        assert!(transformation(&strided, &have[..2].to_vec(), 2).is_none());
    }

    #[test]
    fn a_date_with_a_stride_under_a_skew_is_grained_before_it() {
        // (i, j) to (i, 2j − i): no row has a common factor, the
        // determinant is 2: `grain` the second date, then skew it.
        let have: Rows = vec![vec![1, 0, 0], vec![0, 1, 0]];
        let want: Rows = vec![vec![1, 0, 0], vec![-1, 2, 0]];
        let ops = transformation(&have, &want, 2).expect("a transformation");
        assert_eq!(apply(&ops, have.clone()), want);
        // A strided start that is already the target needs nothing.
        let strided: Rows = vec![vec![1, 0, 0], vec![0, 4, 0]];
        assert_eq!(transformation(&strided, &strided, 2), Some(vec![]));
    }

    #[test]
    fn a_date_that_combines_others_is_made_by_skews() {
        // (k) to (k, −k): one loop of one iteration, then −1 times the first.
        let have = vec![vec![1, 0], vec![0, 0]];
        let want = vec![vec![1, 0], vec![-1, 0]];
        let ops = transformation(&have, &want, 1).expect("expressible");
        assert_eq!(
            ops,
            [RowOp::Skew {
                depth: 2,
                other: 1,
                factor: 1
            }]
        );
    }
}
