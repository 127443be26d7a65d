//! The dates must be one-to-one: two instances of a statement never share
//! a date (else the scanned code could not tell them apart; Clay's
//! "uniqueness" condition). Checked exactly after every directive, for the
//! statements whose schedule it changed: for each pair of pieces `(p, q)`
//! the set of instance pairs `x` (in `p`) and `y` (in `q`) with the same
//! date, `x` lexicographically before `y` when `p = q`, must be empty.

use super::ApplyError;
use crate::poly::{unremembered, BasicMap, BasicSet, Constraint, Space};
use crate::scop::{Schedule, Scop};

/// `Ok` when every statement whose schedule differs from `before` has
/// one-to-one dates in `after`; a precondition error with a witness pair
/// otherwise. Its exact tests are each asked once: they are not
/// remembered ([`unremembered`]).
pub fn check(scop: &Scop, before: &Schedule, after: &Schedule) -> Result<(), ApplyError> {
    unremembered(|| check_changed(scop, before, after))
}

fn check_changed(scop: &Scop, before: &Schedule, after: &Schedule) -> Result<(), ApplyError> {
    for (s, st_sched) in after.statements.iter().enumerate() {
        // Only the statements whose dates changed (not just their marks).
        if before.statements.get(s).map(|b| &b.pieces) == Some(&st_sched.pieces) {
            continue;
        }
        let Some(st) = scop.statements.get(s) else {
            continue;
        };
        let pieces = &st_sched.pieces;
        for p in 0..pieces.len() {
            for q in p..pieces.len() {
                for dx in st.domain.basics() {
                    for dy in st.domain.basics() {
                        let n = st.iterators.len();
                        // p = q: some first differing iterator k with x_k < y_k.
                        let orders: Vec<Option<usize>> = if p == q {
                            (0..n).map(Some).collect()
                        } else {
                            vec![None]
                        };
                        for order in orders {
                            let set = pairs(scop, &pieces[p], &pieces[q], dx, dy, n, order);
                            if let Some(point) = set.sample()? {
                                return Err(refusal(scop, s, n, &point));
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// The pairs `(x, y)` of instances with `x` in `p`, `y` in `q`, both in
/// the domain (`dx`, `dy`) and the context, with the same dates; with
/// `order = Some(k)`, also `x_j = y_j` for `j < k` and `x_k < y_k`.
fn pairs(
    scop: &Scop,
    p: &BasicMap,
    q: &BasicMap,
    dx: &BasicSet,
    dy: &BasicSet,
    n: usize,
    order: Option<usize>,
) -> BasicSet {
    let np = scop.params.len();
    let m = p.space().n_out();
    let dates = np + 2 * n;
    let lp = dates + m;
    let lq = lp + p.n_local();
    let ldx = lq + q.n_local();
    let ldy = ldx + dx.n_local();
    let lc = ldy + dy.n_local();
    let total = lc + scop.context.n_local();
    let mut rows: Vec<Constraint> = Vec::new();
    let piece = |b: &BasicMap, input: usize, locals: usize, rows: &mut Vec<Constraint>| {
        for c in b.constraints() {
            rows.push(c.remapped(total, |k| {
                if k < np {
                    k
                } else if k < np + n {
                    input + (k - np)
                } else if k < np + n + m {
                    dates + (k - np - n)
                } else {
                    locals + (k - np - n - m)
                }
            }));
        }
    };
    piece(p, np, lp, &mut rows);
    piece(q, np + n, lq, &mut rows);
    let set =
        |b: &BasicSet, dims: usize, width: usize, locals: usize, rows: &mut Vec<Constraint>| {
            for c in b.constraints() {
                rows.push(c.remapped(total, |k| {
                    if k < np {
                        k
                    } else if k < np + width {
                        dims + (k - np)
                    } else {
                        locals + (k - np - width)
                    }
                }));
            }
        };
    set(dx, np, n, ldx, &mut rows);
    set(dy, np + n, n, ldy, &mut rows);
    set(&scop.context, 0, 0, lc, &mut rows);
    if let Some(k) = order {
        for j in 0..=k {
            let mut c = vec![0; total];
            c[np + j] = -1;
            c[np + n + j] = 1;
            rows.push(if j < k {
                Constraint::eq(c, 0)
            } else {
                Constraint::ineq(c, -1)
            });
        }
    }
    let names: Vec<String> = (0..2 * n).map(|k| format!("x{k}")).collect();
    BasicSet::from_parts(
        Space::set(scop.params.clone(), None, names),
        total - np - 2 * n,
        rows,
    )
}

fn refusal(scop: &Scop, s: usize, n: usize, point: &[i64]) -> ApplyError {
    let st = &scop.statements[s];
    let np = scop.params.len();
    let instance = |at: usize| {
        let values: Vec<String> = st
            .iterators
            .iter()
            .enumerate()
            .map(|(k, it)| format!("{it} = {}", point.get(at + k).copied().unwrap_or(0)))
            .collect();
        format!("{}({})", st.name, values.join(", "))
    };
    let params: Vec<String> = scop
        .params
        .iter()
        .enumerate()
        .map(|(k, p)| format!("{p} = {}", point.get(k).copied().unwrap_or(0)))
        .collect();
    ApplyError::precondition(format!(
        "the dates are no longer one-to-one: {} and {} get the same date{}",
        instance(np),
        instance(np + n),
        if params.is_empty() {
            String::new()
        } else {
            format!(" (with {})", params.join(", "))
        }
    ))
    .with_help("every instance needs its own date; change the coefficients so that no two iterators collapse into one loop")
}
