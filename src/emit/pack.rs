//! Packing, lowered before scanning: each loop marked [`Mark::Pack`]
//! gets a copy statement just before it, which fills a local buffer with
//! the footprint of the array's accesses in the loop
//! ([`crate::scop::footprint`]), the marked statements access the buffer
//! instead of the array, and where they write it, a copy statement just
//! after the loop writes the cells they wrote back.
//!
//! ```text
//! S1[i, k, j] in the loop at depth 4 (around it c1, c2, c3), pack(B):
//!   copy: polyc_pack_B[x0 - 32·c2][x1 - 32·c3] = B[x0][x1]
//!         for (c1, c2, c3, x0, x1) in the footprint, dated just before the loop
//!   S1:   … polyc_pack_B[k - 32·c2][j - 32·c3] …
//! ```
//!
//! The offsets read the counters of the loops around the packed one. A
//! statement reaches them through extra iterators `polyc_at1`, … equal to
//! those dates, which scanning solves like any iterator (and never uses
//! to name a loop). A statement whose pieces lie in several packed loops
//! is split into one statement per loop first (each prints its own
//! offsets). The scop and schedule made here exist only for printing:
//! they are not checked again (`apply::pack` proved them), and the marks
//! are gone from them.

use std::collections::BTreeMap;

mod rewrite;

use super::scan::{ScanError, POLYC_PREFIX as PACK_PREFIX};
use crate::poly::{BasicMap, BasicSet, Constraint, Set, Space, Tuple};
use crate::scop::footprint::{footprint, pack_box, PackBox};
use crate::scop::schedule::{alpha_date, beta_date, date_count};
use crate::scop::{AccessKind, Array, Mark, Schedule, Scop, Statement, StatementSchedule};
use crate::syntax::c::{Expr, ExprKind};
use rewrite::{minus_offset, ToBuffer};

/// A buffer to declare before the region's loops: `element_type
/// name[e0][e1]…;`, private to each thread of a parallel loop around the
/// copy statement `copy`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    pub name: String,
    pub element_type: String,
    pub extents: Vec<i64>,
    pub copy: usize,
}

/// A scop and schedule with every pack lowered, for printing.
#[derive(Clone, Debug)]
pub struct Lowered {
    pub scop: Scop,
    pub schedule: Schedule,
    pub buffers: Vec<Buffer>,
}

/// One packed loop: its pieces, depth, array, footprint and box.
struct Plan {
    members: Vec<(usize, usize)>,
    depth: usize,
    array: String,
    /// The cells the loop accesses (copied in) and writes (copied back).
    cells: Set,
    written: Set,
    bounds: PackBox,
    buffer: String,
}

/// `scop` and `schedule` with the packs lowered, or `None` when no loop
/// is packed (the common case: nothing is copied).
pub fn lower(scop: &Scop, schedule: &Schedule) -> Result<Option<Lowered>, ScanError> {
    let packed = |st: &StatementSchedule| {
        st.marks
            .iter()
            .any(|m| m.iter().any(|x| matches!(x, Mark::Pack(_))))
    };
    if !schedule.statements.iter().any(packed) {
        return Ok(None);
    }
    let (mut scop, mut schedule) = split_by_loop(scop, schedule)?;
    let plans = plans(&scop, &schedule)?;
    add_outer_iterators(&mut scop, &mut schedule, &plans)?;
    let mut buffers = Vec::new();
    for plan in &plans {
        rewrite_accesses(&mut scop, plan)?;
        let copy = insert_copies(&mut scop, &mut schedule, plan)?;
        buffers.push(Buffer {
            name: plan.buffer.clone(),
            element_type: element_type(&scop, &plan.array)?,
            extents: plan.bounds.extents.clone(),
            copy,
        });
    }
    for st in &mut schedule.statements {
        for m in &mut st.marks {
            m.retain(|x| !matches!(x, Mark::Pack(_)));
        }
    }
    Ok(Some(Lowered {
        scop,
        schedule,
        buffers,
    }))
}

/// What code generation prints from: the lowered scop, schedule and
/// buffers when there are packs, else the originals and no buffer.
pub fn printed<'a>(
    lowered: &'a Option<Lowered>,
    scop: &'a Scop,
    schedule: &'a Schedule,
) -> (&'a Scop, &'a Schedule, &'a [Buffer]) {
    match lowered {
        Some(l) => (&l.scop, &l.schedule, l.buffers.as_slice()),
        None => (scop, schedule, &[]),
    }
}

fn unsupported(why: impl Into<String>) -> ScanError {
    ScanError::Unsupported(why.into())
}

/// The β-vector of piece `p` of statement `s`.
fn beta(schedule: &Schedule, s: usize, p: usize) -> Result<Vec<i64>, ScanError> {
    schedule.statements[s]
        .beta(p)
        .ok_or_else(|| unsupported("pack: a β date is not a constant"))
}

/// A packed loop a piece lies in: its depth, the array, its β prefix.
type PackedLoop = (usize, String, Vec<i64>);

/// The packed loops a piece lies in.
fn pack_key(schedule: &Schedule, s: usize, p: usize) -> Result<Vec<PackedLoop>, ScanError> {
    let st = &schedule.statements[s];
    let mut key = Vec::new();
    for (k, marks) in st.marks.iter().enumerate() {
        for m in marks {
            if let Mark::Pack(a) = m {
                let b = beta(schedule, s, p)?;
                key.push((k + 1, a.clone(), b[..=k].to_vec()));
            }
        }
    }
    Ok(key)
}

/// Each packed statement whose pieces lie in different packed loops
/// split into one statement per loop (the first keeps the index, the
/// label and the name; the others are appended).
fn split_by_loop(scop: &Scop, schedule: &Schedule) -> Result<(Scop, Schedule), ScanError> {
    let mut scop = scop.clone();
    let mut schedule = schedule.clone();
    for s in 0..schedule.statements.len() {
        let mut groups: Vec<(Vec<PackedLoop>, Vec<BasicMap>)> = Vec::new();
        for p in 0..schedule.statements[s].pieces.len() {
            let key = pack_key(&schedule, s, p)?;
            let piece = schedule.statements[s].pieces[p].clone();
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, pieces)) => pieces.push(piece),
                None => groups.push((key, vec![piece])),
            }
        }
        if groups.len() < 2 {
            continue;
        }
        let marks = schedule.statements[s].marks.clone();
        let mut groups = groups.into_iter();
        if let Some((_, first)) = groups.next() {
            schedule.statements[s].pieces = first;
        }
        for (_, pieces) in groups {
            let mut st = scop.statements[s].clone();
            st.label = None;
            scop.statements.push(st);
            schedule.statements.push(StatementSchedule {
                pieces,
                marks: marks.clone(),
            });
        }
    }
    Ok((scop, schedule))
}

/// One plan per packed loop, with its footprint and box, in the order of
/// their β prefixes.
fn plans(scop: &Scop, schedule: &Schedule) -> Result<Vec<Plan>, ScanError> {
    // (β prefix, array) → (depth, the pieces in the loop that pack it).
    type Members = (usize, Vec<(usize, usize)>);
    let mut loops: BTreeMap<(Vec<i64>, String), Members> = BTreeMap::new();
    for s in 0..schedule.statements.len() {
        for p in 0..schedule.statements[s].pieces.len() {
            for (depth, array, prefix) in pack_key(schedule, s, p)? {
                loops
                    .entry((prefix, array))
                    .or_insert((depth, Vec::new()))
                    .1
                    .push((s, p));
            }
        }
    }
    let mut taken: Vec<String> = scop.arrays.iter().map(|a| a.name.clone()).collect();
    let mut out = Vec::new();
    for ((_, array), (depth, members)) in loops {
        let cells = footprint(scop, schedule, &members, depth, &array, None)?;
        let written = footprint(
            scop,
            schedule,
            &members,
            depth,
            &array,
            Some(AccessKind::Write),
        )?;
        if cells.basics().is_empty() {
            continue;
        }
        let rank = rank(scop, &array);
        let bounds = pack_box(&cells, depth - 1, rank)?.ok_or_else(|| {
            unsupported(format!(
                "pack: the footprint of `{array}` has no bounded box"
            ))
        })?;
        let mut buffer = format!("{PACK_PREFIX}pack_{array}");
        let stem = buffer.clone();
        let mut k = 1;
        while taken.contains(&buffer) {
            buffer = format!("{stem}_{k}");
            k += 1;
        }
        taken.push(buffer.clone());
        out.push(Plan {
            members,
            depth,
            array,
            cells,
            written,
            bounds,
            buffer,
        });
    }
    Ok(out)
}

fn rank(scop: &Scop, array: &str) -> usize {
    scop.arrays
        .iter()
        .find(|a| a.name == array)
        .map_or(0, |a| a.n_dims)
}

/// The buffer's element type: the array's, without qualifiers (the copy
/// writes the buffer of a `const double` array).
fn element_type(scop: &Scop, array: &str) -> Result<String, ScanError> {
    let declared = scop
        .arrays
        .iter()
        .find(|a| a.name == array)
        .and_then(|a| a.element_type.clone())
        .ok_or_else(|| unsupported(format!("pack: the element type of `{array}` is unknown")))?;
    let qualifier = |w: &&str| matches!(*w, "const" | "volatile" | "restrict" | "__restrict");
    Ok(declared
        .split_whitespace()
        .filter(|w| !qualifier(w))
        .collect::<Vec<_>>()
        .join(" "))
}

/// The name of the iterator that stands for the counter of the loop at
/// `depth` around a packed loop.
fn outer_name(depth: usize) -> String {
    format!("{PACK_PREFIX}at{depth}")
}

/// Gives every statement of a plan the iterators `polyc_at1`, … up to
/// its deepest packed loop's depth - 1, each equal to that loop's date.
fn add_outer_iterators(
    scop: &mut Scop,
    schedule: &mut Schedule,
    plans: &[Plan],
) -> Result<(), ScanError> {
    let mut needed: BTreeMap<usize, usize> = BTreeMap::new();
    for plan in plans {
        for &(s, _) in &plan.members {
            let n = needed.entry(s).or_insert(0);
            *n = (*n).max(plan.depth - 1);
        }
    }
    for (s, q) in needed {
        if q == 0 {
            continue;
        }
        let st = &mut scop.statements[s];
        let m = st.iterators.len();
        st.iterators.extend((1..=q).map(outer_name));
        let mut domain = Set::empty(with_dims(st.domain.space(), &st.iterators));
        for b in st.domain.basics() {
            domain.push(BasicSet::from_parts(
                domain.space().clone(),
                b.n_local(),
                widened(b.constraints(), b.space().n_param() + m, q),
            ));
        }
        st.domain = domain;
        let iterators = st.iterators.clone();
        for piece in &mut schedule.statements[s].pieces {
            let ps = piece.space().clone();
            let (np, n) = (ps.n_param(), ps.n_out());
            let input = Tuple::new(
                ps.input.as_ref().and_then(|t| t.name.clone()),
                iterators.clone(),
            );
            let space = Space::map(ps.params.clone(), input, ps.output.clone());
            let mut rows = widened(piece.constraints(), np + m, q);
            for k in 1..=q {
                let mut coeffs = vec![0; np + m + q + n + piece.n_local()];
                coeffs[np + m + k - 1] = 1;
                coeffs[np + m + q + alpha_date(k)] = -1;
                rows.push(Constraint::eq(coeffs, 0));
            }
            *piece = BasicMap::from_columns(space, piece.n_local(), rows);
        }
    }
    Ok(())
}

/// The set space of `space` with these dimensions.
fn with_dims(space: &Space, dims: &[String]) -> Space {
    Space::set(
        space.params.clone(),
        space.output.name.clone(),
        dims.to_vec(),
    )
}

/// `rows` with `q` zero columns inserted at column `at`.
fn widened(rows: &[Constraint], at: usize, q: usize) -> Vec<Constraint> {
    rows.iter()
        .map(|c| {
            let mut coeffs = c.coeffs[..at].to_vec();
            coeffs.extend(std::iter::repeat_n(0, q));
            coeffs.extend_from_slice(&c.coeffs[at..]);
            Constraint {
                kind: c.kind,
                coeffs,
                constant: c.constant,
            }
        })
        .collect()
}

/// The names of the columns of an offset: the parameters, then the
/// counters of the loops around the packed one.
fn offset_names(scop: &Scop, plan: &Plan) -> Vec<String> {
    scop.params
        .iter()
        .cloned()
        .chain((1..plan.depth).map(outer_name))
        .collect()
}

/// The members' accesses of the plan's array replaced by the buffer's cells.
fn rewrite_accesses(scop: &mut Scop, plan: &Plan) -> Result<(), ScanError> {
    let names = offset_names(scop, plan);
    let to_buffer = ToBuffer {
        array: &plan.array,
        buffer: &plan.buffer,
        offsets: &plan.bounds.offsets,
        names: &names,
    };
    let mut done: Vec<usize> = Vec::new();
    for &(s, _) in &plan.members {
        if done.contains(&s) {
            continue;
        }
        done.push(s);
        let st = &mut scop.statements[s];
        st.body = to_buffer.replaced(&st.body).ok_or_else(overflow)?;
    }
    Ok(())
}

fn overflow() -> ScanError {
    ScanError::Poly(crate::poly::PolyError::Overflow)
}

/// Which way a copy statement copies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// `buffer[x - o] = array[x]`, before the loop.
    In,
    /// `array[x] = buffer[x - o]`, after it.
    Back,
}

/// The copy statements of `plan`: the copy in, dated just before its
/// loop, and where the loop writes the array, the copy back just after it
/// (the pieces after each in the loop around it move one β on). The copy
/// in's index.
fn insert_copies(
    scop: &mut Scop,
    schedule: &mut Schedule,
    plan: &Plan,
) -> Result<usize, ScanError> {
    let depth = plan.depth;
    let &(s0, p0) = plan
        .members
        .first()
        .ok_or_else(|| unsupported("pack: a packed loop with no statement"))?;
    let mut place = beta(schedule, s0, p0)?[..depth].to_vec();
    make_room(schedule, &place)?;
    let copy_in = copy_statement(scop, schedule, plan, &place, Direction::In)?;
    if !plan.written.basics().is_empty() {
        // The loop is at `place + 1` now; the copy back goes after it.
        if let Some(last) = place.last_mut() {
            *last += 2;
        }
        make_room(schedule, &place)?;
        copy_statement(scop, schedule, plan, &place, Direction::Back)?;
    }
    Ok(copy_in)
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

/// One copy statement of `plan`, dated at β `place` inside the loops
/// around the packed one; its index. The copy in's domain is the cells
/// the loop accesses, the copy back's those it writes.
fn copy_statement(
    scop: &mut Scop,
    schedule: &mut Schedule,
    plan: &Plan,
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
    // The domain: the footprint, its dimensions renamed.
    let cells = match direction {
        Direction::In => &plan.cells,
        Direction::Back => &plan.written,
    };
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
    if direction == Direction::In {
        scop.arrays.push(Array {
            name: plan.buffer.clone(),
            n_dims: rank,
            extents: Some(plan.bounds.extents.iter().map(i64::to_string).collect()),
            element_type: Some(element_type(scop, &plan.array)?),
            local: true,
        });
    }
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
