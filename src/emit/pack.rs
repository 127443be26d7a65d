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
//!
//! A footprint of many overlapping disjuncts (a stencil's seven shifted
//! tiles, under a deep tiling) can be more than the scan can make
//! disjoint within its step limits; then each disjunct gets its own copy
//! statement ([`copies::Copies`], [`lowered_and_scanned`]).

use std::collections::BTreeMap;

mod copies;
mod rewrite;

use super::scan::{scan, Node, ScanError, POLYC_PREFIX as PACK_PREFIX};
use crate::poly::{BasicMap, BasicSet, Constraint, PolyError, Set, Space, Tuple};
use crate::scop::footprint::{footprint, pack_box, PackBox};
use crate::scop::schedule::alpha_date;
use crate::scop::{AccessKind, Mark, Schedule, Scop, StatementSchedule};
use copies::insert_copies;
pub use copies::Copies;
use rewrite::ToBuffer;

/// A buffer to declare before the region's loops: `element_type
/// name[e0][e1]…;`, private to each thread of a parallel loop around the
/// (first) copy statement `copy`.
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

/// The packs of a region lowered ([`lower`]) and the region scanned. The
/// copies are one statement each ([`Copies::Whole`]); when that scan
/// gives up at a step limit, they are one statement per disjunct of the
/// footprint ([`Copies::PerDisjunct`]), which copies a cell once per
/// disjunct that holds it but gives the scan convex sets only. The lowered
/// region (`None` without packs) and its nodes.
pub fn lowered_and_scanned(
    scop: &Scop,
    schedule: &Schedule,
) -> Result<(Option<Lowered>, Vec<Node>), ScanError> {
    let whole = lower(scop, schedule, Copies::Whole)?;
    let (scop_w, schedule_w, _) = printed(&whole, scop, schedule);
    match scan(scop_w, schedule_w) {
        Err(ScanError::Poly(PolyError::StepLimit(_))) if whole.is_some() => {
            let split = lower(scop, schedule, Copies::PerDisjunct)?;
            let (scop_d, schedule_d, _) = printed(&split, scop, schedule);
            let nodes = scan(scop_d, schedule_d)?;
            Ok((split, nodes))
        }
        nodes => Ok((whole, nodes?)),
    }
}

/// `scop` and `schedule` with the packs lowered, the copies made as
/// `copies` says, or `None` when no loop is packed (the common case:
/// nothing is copied).
pub fn lower(
    scop: &Scop,
    schedule: &Schedule,
    copies: Copies,
) -> Result<Option<Lowered>, ScanError> {
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
        let copy = insert_copies(&mut scop, &mut schedule, plan, copies)?;
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
