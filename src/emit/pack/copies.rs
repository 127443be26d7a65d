//! The copy statements of a packed loop ([`super`]): the copy in just
//! before the loop, the copy back just after it, over the footprint as
//! one statement or one statement per disjunct ([`Copies`]).

use super::rewrite::minus_offset;
use super::{
    beta, element_type, offset_names, outer_name, overflow, unsupported, Plan, PACK_PREFIX,
};
use crate::emit::scan::ScanError;
use crate::poly::{BasicMap, BasicSet, Constraint, Set, Space, Tuple};
use crate::scop::schedule::{alpha_date, beta_date, date_count};
use crate::scop::{Array, Mark, Schedule, Scop, Statement, StatementSchedule};
use crate::syntax::c::{Expr, ExprKind};

/// Which way a copy statement copies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// `buffer[x - o] = array[x]`, before the loop.
    In,
    /// `array[x] = buffer[x - o]`, after it.
    Back,
}

/// How a footprint becomes copy statements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Copies {
    /// One copy statement per direction, over the whole footprint: each
    /// cell is copied once.
    Whole,
    /// One copy statement per disjunct of the footprint, one after the
    /// other: a cell in several disjuncts is copied once by each, the same
    /// value each time (nothing runs between them). Each is one convex
    /// set for the scan, where the whole footprint may hold many
    /// overlapping ones (the seven shifted tiles of a 3-d stencil).
    PerDisjunct,
}

/// The copy statements of `plan`: the copy in, dated just before its
/// loop, and where the loop writes the array, the copy back just after it
/// (the pieces after each in the loop around it move one β on). The
/// index of the (first) copy in.
pub(super) fn insert_copies(
    scop: &mut Scop,
    schedule: &mut Schedule,
    plan: &Plan,
    copies: Copies,
) -> Result<usize, ScanError> {
    let depth = plan.depth;
    let &(s0, p0) = plan
        .members
        .first()
        .ok_or_else(|| unsupported("pack: a packed loop with no statement"))?;
    scop.arrays.push(Array {
        name: plan.buffer.clone(),
        n_dims: plan.bounds.offsets.len(),
        extents: Some(plan.bounds.extents.iter().map(i64::to_string).collect()),
        element_type: Some(element_type(scop, &plan.array)?),
        local: true,
    });
    let parts = |cells: &Set| match copies {
        Copies::Whole => vec![cells.clone()],
        Copies::PerDisjunct => cells
            .basics()
            .iter()
            .cloned()
            .map(Set::from_basic)
            .collect(),
    };
    // `place` is the packed loop's β; each copy in takes it, and the loop
    // moves one on.
    let mut place = beta(schedule, s0, p0)?[..depth].to_vec();
    let mut copy_in = None;
    for cells in parts(&plan.cells) {
        make_room(schedule, &place)?;
        let s = copy_statement(scop, schedule, plan, &cells, &place, Direction::In)?;
        copy_in.get_or_insert(s);
        bump(&mut place)?;
    }
    for cells in parts(&plan.written) {
        bump(&mut place)?;
        make_room(schedule, &place)?;
        copy_statement(scop, schedule, plan, &cells, &place, Direction::Back)?;
    }
    copy_in.ok_or_else(|| unsupported("pack: a packed loop that accesses no cell"))
}

/// The next β at the same depth.
fn bump(place: &mut [i64]) -> Result<(), ScanError> {
    if let Some(last) = place.last_mut() {
        *last = last.checked_add(1).ok_or_else(overflow)?;
    }
    Ok(())
}

/// Every piece at or after β `place` in the loop around it moves one β
/// on, so that a statement can be dated at `place`.
fn make_room(schedule: &mut Schedule, place: &[i64]) -> Result<(), ScanError> {
    let depth = place.len();
    let at = beta_date(depth - 1);
    for s in 0..schedule.statements.len() {
        for p in 0..schedule.statements[s].pieces.len() {
            let b = beta(schedule, s, p)?;
            if b.len() >= depth
                && b[..depth - 1] == place[..depth - 1]
                && b[depth - 1] >= place[depth - 1]
            {
                let piece = &mut schedule.statements[s].pieces[p];
                let col = piece.space().out_col(at);
                let rows = piece
                    .constraints()
                    .iter()
                    .map(|c| {
                        // t' = t + 1: a·t + … = a·t' - a + ….
                        let constant =
                            c.constant.checked_sub(c.coeffs[col]).ok_or_else(overflow)?;
                        Ok(Constraint {
                            kind: c.kind,
                            coeffs: c.coeffs.clone(),
                            constant,
                        })
                    })
                    .collect::<Result<Vec<_>, ScanError>>()?;
                *piece = BasicMap::from_columns(piece.space().clone(), piece.n_local(), rows);
            }
        }
    }
    Ok(())
}

/// One copy statement of `plan` over `cells`, dated at β `place` inside
/// the loops around the packed one; its index. A copy in's cells are
/// (some of) those the loop accesses, a copy back's (some of) those it
/// writes.
fn copy_statement(
    scop: &mut Scop,
    schedule: &mut Schedule,
    plan: &Plan,
    cells: &Set,
    place: &[i64],
    direction: Direction,
) -> Result<usize, ScanError> {
    let depth = plan.depth;
    let s0 = plan.members.first().map_or(0, |m| m.0);
    let rank = plan.bounds.offsets.len();
    let outer = depth - 1;
    let mut iterators: Vec<String> = (1..=outer).map(outer_name).collect();
    iterators.extend((0..rank).map(|k| format!("{PACK_PREFIX}x{k}")));
    let np = scop.params.len();
    // The domain: the cells, their dimensions renamed.
    let mut domain = Set::empty(Space::set(
        scop.params.clone(),
        Some(plan.buffer.clone()),
        iterators.clone(),
    ));
    for b in cells.basics() {
        domain.push(BasicSet::from_parts(
            domain.space().clone(),
            b.n_local(),
            b.constraints().to_vec(),
        ));
    }
    // The dates: [β0, c1, β1, …, c(outer), β(outer) = place, x0, 0, …].
    let n_in = outer + rank;
    let n_out = date_count(n_in);
    let width = np + n_in + n_out;
    let mut rows = Vec::new();
    for (k, &b) in place.iter().enumerate() {
        let mut coeffs = vec![0; width];
        coeffs[np + n_in + beta_date(k)] = 1;
        rows.push(Constraint::eq(coeffs, -b));
    }
    for k in outer + 1..=n_in {
        let mut coeffs = vec![0; width];
        coeffs[np + n_in + beta_date(k)] = 1;
        rows.push(Constraint::eq(coeffs, 0));
    }
    for k in 1..=n_in {
        let mut coeffs = vec![0; width];
        coeffs[np + n_in + alpha_date(k)] = 1;
        coeffs[np + k - 1] = -1;
        rows.push(Constraint::eq(coeffs, 0));
    }
    let space = Space::map(
        scop.params.clone(),
        Tuple::new(Some(plan.buffer.clone()), iterators.clone()),
        Tuple::new(None, (0..n_out).map(|t| format!("t{t}")).collect()),
    );
    let piece = BasicMap::from_columns(space, 0, rows);
    // The marks of the loops around: the first member's (its parallel
    // loop makes the buffer private), no pack.
    let mut marks: Vec<Vec<Mark>> = schedule.statements[s0]
        .marks
        .iter()
        .take(outer)
        .map(|m| {
            m.iter()
                .filter(|x| !matches!(x, Mark::Pack(_)))
                .cloned()
                .collect()
        })
        .collect();
    marks.resize(n_in, Vec::new());
    let names = offset_names(scop, plan);
    let body = copy_body(plan, &iterators[outer..], &names, direction).ok_or_else(overflow)?;
    let span = scop.span.clone();
    scop.statements.push(Statement {
        name: plan.buffer.clone(),
        label: None,
        iterators,
        domain,
        accesses: Vec::new(),
        schedule: piece.clone(),
        body,
        span,
    });
    schedule.statements.push(StatementSchedule {
        pieces: vec![piece],
        marks,
    });
    Ok(scop.statements.len() - 1)
}

/// `buffer[x0 - offset0]… = array[x0]…` (in), or the other way (back);
/// `None` on overflow.
fn copy_body(
    plan: &Plan,
    cells: &[String],
    names: &[String],
    direction: Direction,
) -> Option<Expr> {
    let span = 0..0;
    let node = |kind| Expr {
        kind,
        span: span.clone(),
    };
    let var = |n: &str| node(ExprKind::Var(n.to_string()));
    let buffer = node(ExprKind::Index(
        Box::new(var(&plan.buffer)),
        cells
            .iter()
            .zip(&plan.bounds.offsets)
            .map(|(x, off)| minus_offset(var(x), off, names))
            .collect::<Option<_>>()?,
    ));
    let array = node(ExprKind::Index(
        Box::new(var(&plan.array)),
        cells.iter().map(|x| var(x)).collect(),
    ));
    let (target, source) = match direction {
        Direction::In => (buffer, array),
        Direction::Back => (array, buffer),
    };
    Some(node(ExprKind::Assign(
        "=".into(),
        Box::new(target),
        Box::new(source),
    )))
}
