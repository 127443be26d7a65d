//! Items: one integer set per statement piece and domain disjunct, over
//! `[dates | iterators | existentials]` (no locals), that scanning walks.

use super::canonical::canonical_rows;
use super::{proven_empty, ScanError};
use crate::poly::{BasicMap, BasicSet, Constraint, ConstraintKind, Set, Space};
use crate::scop::schedule::{alpha_depth, Mark, StatementSchedule};
use crate::scop::Scop;

/// One statement piece intersected with one disjunct of the domain.
#[derive(Clone, Debug)]
pub struct Item {
    pub statement: usize,
    /// Over `[params | dates (n) | iterators (m) | existentials]`.
    pub set: BasicSet,
    pub n_iter: usize,
    /// For each date: `Some((k, sign))` when the piece defines it as
    /// `sign · iterator k`, which lets the loop reuse the iterator's name.
    pub alias: Vec<Option<(usize, i64)>>,
    /// Marks of the loop at each date (empty for β dates).
    pub marks: Vec<Vec<Mark>>,
}

/// The items of `scop` under `schedule`, with `n` dates each (shorter
/// schedules padded with zero dates). Empty items are dropped.
pub fn items(
    scop: &Scop,
    schedules: &[StatementSchedule],
    n: usize,
) -> Result<Vec<Item>, ScanError> {
    let mut out = Vec::new();
    // The parameters the context fixes (`context([0, 1, -3])`, a macro
    // read as its value): an iterator they bound to one value (`2 <= j <=
    // W - 1` with `W = 3`) is determined, as the check that the dates
    // are one-to-one found it to be.
    let np = scop.params.len();
    let fixed: Vec<&Constraint> = if scop.context.n_local() == 0 {
        scop.context
            .constraints()
            .iter()
            .filter(|c| c.is_eq() && c.coeffs.len() == np)
            .collect()
    } else {
        Vec::new()
    };
    for (s, (st, sched)) in scop.statements.iter().zip(schedules).enumerate() {
        let domain = disjoint(&st.domain)?;
        for piece in &sched.pieces {
            for dom in domain.basics() {
                let mut item = make_item(s, piece, dom, n, sched)?;
                if !fixed.is_empty() {
                    let width =
                        item.set.space().n_param() + item.set.space().n_out() + item.set.n_local();
                    for c in &fixed {
                        item.set.add(c.remapped(width, |k| k));
                    }
                    item.set = item.set.detect_equalities()?;
                }
                if proven_empty(&item.set)? {
                    continue;
                }
                if piece.n_local() + dom.n_local() > 0 {
                    // `i % 3 == 1` arrives as `3e <= i - 1 <= 3e`: as an
                    // equation it gives the congruence a stride or guard
                    // needs (exact: one emptiness test per inequality).
                    item.set = item.set.detect_equalities()?;
                }
                out.push(item);
            }
        }
    }
    Ok(out)
}

/// The same union with overlapping disjuncts made disjoint (each minus
/// the ones before it), so that no instance is visited twice.
fn disjoint(domain: &Set) -> Result<Set, ScanError> {
    if domain.basics().len() < 2 {
        return Ok(domain.clone());
    }
    let mut out = Set::empty(domain.space().clone());
    let mut before = Set::empty(domain.space().clone());
    for b in domain.basics() {
        let one = Set::from_basic(b.clone());
        for piece in one.subtract(&before)?.basics() {
            out.push(piece.clone());
        }
        before.push(b.clone());
    }
    Ok(out)
}

fn make_item(
    statement: usize,
    piece: &BasicMap,
    dom: &BasicSet,
    n: usize,
    sched: &StatementSchedule,
) -> Result<Item, ScanError> {
    let ps = piece.space();
    let np = ps.n_param();
    let m = ps.n_in();
    let k = ps.n_out();
    if dom.space().n_out() != m || dom.space().n_param() != np {
        return Err(ScanError::Unsupported(format!(
            "statement {statement}: the schedule and the domain disagree on the iterators"
        )));
    }
    let lp = piece.n_local();
    let ld = dom.n_local();
    let total = n + m + lp + ld;
    let mut names: Vec<String> = (0..n).map(|t| format!("t{t}")).collect();
    names.extend((0..m + lp + ld).map(|j| format!("x{j}")));
    let space = Space::set(ps.params.clone(), None, names);
    let mut rows = Vec::new();
    for c in piece.constraints() {
        let mut coeffs = vec![0; np + total];
        coeffs[..np].copy_from_slice(&c.coeffs[..np]);
        for j in 0..m {
            coeffs[np + n + j] = c.coeffs[np + j];
        }
        for t in 0..k {
            coeffs[np + t] = c.coeffs[np + m + t];
        }
        for l in 0..lp {
            coeffs[np + n + m + l] = c.coeffs[np + m + k + l];
        }
        rows.push(Constraint {
            kind: c.kind,
            coeffs,
            constant: c.constant,
        });
    }
    // The same piece written differently (a recipe and its `--explain`
    // replay) prints the same code: its rows in canonical form, the
    // dates pivoted on first, then the iterators, the locals and the
    // parameters. Where that overflows, the rows as they were.
    let order: Vec<usize> = (np..np + total).chain(0..np).collect();
    let mut rows = canonical_rows(&rows, &order).unwrap_or(rows);
    let alias = (0..n)
        .map(|t| {
            if t < k {
                alias_of(&rows, np, n, m, t)
            } else {
                None
            }
        })
        .collect();
    for c in dom.constraints() {
        let mut coeffs = vec![0; np + total];
        coeffs[..np].copy_from_slice(&c.coeffs[..np]);
        for j in 0..m {
            coeffs[np + n + j] = c.coeffs[np + j];
        }
        for l in 0..ld {
            coeffs[np + n + m + lp + l] = c.coeffs[np + m + l];
        }
        rows.push(Constraint {
            kind: c.kind,
            coeffs,
            constant: c.constant,
        });
    }
    for t in k..n {
        let mut coeffs = vec![0; np + total];
        coeffs[np + t] = 1;
        rows.push(Constraint::eq(coeffs, 0));
    }
    let set = BasicSet::from_parts(space, 0, rows);
    let marks = (0..n)
        .map(|t| match alpha_depth(t) {
            Some(depth) => sched.marks.get(depth - 1).cloned().unwrap_or_default(),
            None => Vec::new(),
        })
        .collect();
    Ok(Item {
        statement,
        set,
        n_iter: m,
        alias,
        marks,
    })
}

/// `Some((k, sign))` when one of a piece's `rows` (over `[params | dates
/// (n) | iterators (m) | locals]`) reads `date t = sign · i_k`. In
/// canonical form (`super::canonical`) every date equal to an iterator has
/// such a row, however the schedule wrote it (`t7 = t5, t5 = k`).
fn alias_of(rows: &[Constraint], np: usize, n: usize, m: usize, t: usize) -> Option<(usize, i64)> {
    let col = np + t;
    rows.iter().find_map(|c| {
        if c.kind != ConstraintKind::Eq || c.constant != 0 || c.coeffs[col].abs() != 1 {
            return None;
        }
        let nz: Vec<usize> = (0..c.coeffs.len())
            .filter(|&j| c.coeffs[j] != 0 && j != col)
            .collect();
        match nz.as_slice() {
            [j] if (np + n..np + n + m).contains(j) && c.coeffs[*j].abs() == 1 => {
                // a·t + b·i = 0  ⇒  t = -b/a · i.
                Some((*j - np - n, -c.coeffs[*j] * c.coeffs[col]))
            }
            _ => None,
        }
    })
}
