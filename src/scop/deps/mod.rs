//! Memory-based dependence analysis (DESIGN §4).
//!
//! For every pair of accesses to the same array (a scalar is an array of
//! dimension 0), at least one a write, the dependence relation holds the
//! pairs of statement instances that touch the same memory cell, the source
//! strictly before the target in the original order, split by the depth
//! that carries them. RAW is write then read, WAR read then write, WAW write
//! then write; RAR (read then read, for locality) only on request. All
//! pairs are kept, not only the last writer's: this is the memory-based
//! analysis, not a value-based (dataflow) one.
//!
//! The order is the original 2d+1 schedule's (see `order.rs`): depth
//! `1..=n_common` is carried by that common loop, `n_common + 1` is
//! loop-independent. Each relation is built disjunct by disjunct from the
//! domains and accesses (`polyhedron.rs`), and every piece is kept only if
//! the Omega test finds an integer point in it: emptiness is exact, and a
//! `poly` error is returned, never read as "no dependence".
//!
//! This module knows no schedule but the original one, and nothing about
//! text: the views of `--emit deps` and `deps-text` are in
//! [`crate::scop::deps_view`].
//!
//! In this loop, iteration `i` reads what iteration `i - 1` wrote: a RAW
//! dependence carried by loop `i` (depth 1) with distance 1.
//!
//! ```
//! use polyc::lang::c::read_source;
//! use polyc::scop::{dependences, DepKind, DepOptions};
//! let src = "void f(int n, double A[]) {\n#pragma scop\n\
//!            for (i = 1; i < n; i++)\n  A[i] = A[i - 1];\n#pragma endscop\n}\n";
//! let file = read_source("f.c", src.to_string()).unwrap();
//! let deps = dependences(&file.scops[0], &DepOptions::default()).unwrap();
//! let raw = deps.iter().find(|d| d.kind == DepKind::Raw).unwrap();
//! assert_eq!(
//!     raw.relation.to_string(),
//!     "[n] -> { S0[i] -> S0[i + 1] : i >= 1 and i <= n - 2 }"
//! );
//! assert_eq!((raw.depth, raw.n_common), (1, 1));
//! assert_eq!(raw.distance, Some(vec![1]));
//! ```

mod distance;
mod narrowed;
mod order;
mod polyhedron;

use serde::Serialize;

pub use self::narrowed::narrowed_to_context;
use self::order::Position;
use self::polyhedron::{Layout, Operands, Polyhedron};
use super::{Access, AccessKind, Scop, Statement};
use crate::poly::{Map, PolyError, Space, Tuple};

/// Whether the dependence analysis reads `schedule` as an order: a 2d+1
/// schedule whose every date is defined by an equality with a unit
/// coefficient (cheap).
pub fn dependences_order_reads(schedule: &crate::poly::BasicMap) -> bool {
    Position::read(schedule).is_ok()
}

/// The type of a dependence, by the kinds of its two accesses. Ordered as
/// declared (for sorting).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum DepKind {
    /// Read after write (flow).
    Raw,
    /// Write after read (anti).
    War,
    /// Write after write (output).
    Waw,
    /// Read after read (input; not a constraint on order, used for locality).
    Rar,
}

impl DepKind {
    fn of(source: AccessKind, target: AccessKind) -> DepKind {
        match (source, target) {
            (AccessKind::Write, AccessKind::Read) => DepKind::Raw,
            (AccessKind::Read, AccessKind::Write) => DepKind::War,
            (AccessKind::Write, AccessKind::Write) => DepKind::Waw,
            (AccessKind::Read, AccessKind::Read) => DepKind::Rar,
        }
    }
}

/// One dependence: a pair of accesses, at one depth.
#[derive(Clone, Debug)]
pub struct Dependence {
    pub kind: DepKind,
    /// Index into `scop.statements`.
    pub source: usize,
    pub target: usize,
    /// Index into `scop.statements[source].accesses`.
    pub source_access: usize,
    pub target_access: usize,
    pub array: String,
    /// 1-based. `1..=n_common` = carried by that common loop (outermost loop
    /// where the instances differ); `n_common + 1` = loop-independent
    /// (same iterations of all common loops; ordered by textual order).
    pub depth: usize,
    /// Number of loops enclosing both statements (from the 2d+1 schedule's β prefix).
    pub n_common: usize,
    /// `params -> { Ssrc[iters] -> Stgt[iters] : … }`: tuple names are the
    /// statement names, dimensions the statement iterators (a target
    /// iterator named like a source one or a parameter gets a prime: `i'`);
    /// locals only where domains or accesses have them. Exactly the pairs:
    /// source in its domain, target in its domain (under the context), same
    /// memory cell, source strictly before target in the original order, and
    /// carried at `depth`.
    pub relation: Map,
    /// Target minus source iterator values over the `n_common` common loops,
    /// when that difference is the same constant for every pair; else `None`.
    /// (For a loop that counts down, a dependence it carries has a negative
    /// entry here.)
    pub distance: Option<Vec<i64>>,
}

impl Dependence {
    /// Same iterations of all common loops; ordered by the text.
    pub fn is_loop_independent(&self) -> bool {
        self.depth > self.n_common
    }
}

/// What to compute.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DepOptions {
    /// Also read-after-read dependences.
    pub rar: bool,
}

/// All dependences of a scop, empty ones dropped (exact emptiness), in a
/// deterministic order (by source statement, target statement, source
/// access, target access, then depth; the kind follows from the accesses).
pub fn dependences(scop: &Scop, opts: &DepOptions) -> Result<Vec<Dependence>, PolyError> {
    let positions = scop
        .statements
        .iter()
        .map(|s| {
            if s.schedule.space().params != scop.params {
                return Err(PolyError::SpaceMismatch {
                    op: "dependences (schedule)",
                });
            }
            Position::read(&s.schedule)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Vec::new();
    for (si, src) in scop.statements.iter().enumerate() {
        for (ti, tgt) in scop.statements.iter().enumerate() {
            let pair = StatementPair {
                scop,
                src: (si, src, &positions[si]),
                tgt: (ti, tgt, &positions[ti]),
            };
            pair.dependences(opts, &mut out)?;
        }
    }
    Ok(out)
}

/// A source and a target statement with their indices and positions.
struct StatementPair<'a> {
    scop: &'a Scop,
    src: (usize, &'a Statement, &'a Position),
    tgt: (usize, &'a Statement, &'a Position),
}

impl StatementPair<'_> {
    fn dependences(&self, opts: &DepOptions, out: &mut Vec<Dependence>) -> Result<(), PolyError> {
        let (si, src, src_pos) = self.src;
        let (ti, tgt, tgt_pos) = self.tgt;
        let n_common = order::common_loops(src_pos, tgt_pos);
        let depths = order::depths(src_pos, tgt_pos, n_common);
        if depths.is_empty() {
            return Ok(());
        }
        let layout = Layout::new(
            self.scop.params.len(),
            src.iterators.len(),
            tgt.iterators.len(),
        );
        for (ai, a) in src.accesses.iter().enumerate() {
            for (bi, b) in tgt.accesses.iter().enumerate() {
                let kind = DepKind::of(a.kind, b.kind);
                if a.array != b.array || (kind == DepKind::Rar && !opts.rar) {
                    continue;
                }
                let pieces = self.same_cell(layout, a, b)?;
                if pieces.is_empty() {
                    continue;
                }
                for &depth in &depths {
                    let before = order::before_at(src_pos, tgt_pos, depth, n_common, &layout)?;
                    let mut kept = Vec::new();
                    let mut point = None;
                    for p in &pieces {
                        let q = p.with_rows(&before);
                        if let Some(x) = q.sample()? {
                            point.get_or_insert(x);
                            kept.push(q);
                        }
                    }
                    let Some(point) = point else {
                        continue;
                    };
                    let distance = distance::uniform_distance(&kept, &point, &layout, n_common)?;
                    let space = self.relation_space();
                    let mut relation = Map::empty(space.clone());
                    for q in kept {
                        relation.push(q.into_basic_map(space.clone())?);
                    }
                    out.push(Dependence {
                        kind,
                        source: si,
                        target: ti,
                        source_access: ai,
                        target_access: bi,
                        array: a.array.clone(),
                        depth,
                        n_common,
                        relation,
                        distance,
                    });
                }
            }
        }
        Ok(())
    }

    /// The non-empty pieces of "same cell" over every combination of
    /// disjuncts of the two domains and the two accesses (no order yet).
    fn same_cell(
        &self,
        layout: Layout,
        a: &Access,
        b: &Access,
    ) -> Result<Vec<Polyhedron>, PolyError> {
        let (src, tgt) = (self.src.1, self.tgt.1);
        let mut pieces = Vec::new();
        for src_access in a.relation.basics() {
            for tgt_access in b.relation.basics() {
                for src_domain in src.domain.basics() {
                    for tgt_domain in tgt.domain.basics() {
                        let ops = Operands {
                            context: &self.scop.context,
                            src_domain,
                            tgt_domain,
                            src_access,
                            tgt_access,
                        };
                        if let Some(p) = Polyhedron::same_cell(layout, &ops)? {
                            if !p.is_empty()? {
                                pieces.push(p);
                            }
                        }
                    }
                }
            }
        }
        Ok(pieces)
    }

    /// `[params] -> { Ssrc[iters] -> Stgt[iters'] }`.
    fn relation_space(&self) -> Space {
        let (src, tgt) = (self.src.1, self.tgt.1);
        let taken: Vec<&String> = self.scop.params.iter().chain(&src.iterators).collect();
        let tgt_dims = tgt
            .iterators
            .iter()
            .map(|it| {
                let mut name = it.clone();
                while taken.contains(&&name) {
                    name.push('\'');
                }
                name
            })
            .collect();
        Space::map(
            self.scop.params.clone(),
            Tuple::new(Some(src.name.clone()), src.iterators.clone()),
            Tuple::new(Some(tgt.name.clone()), tgt_dims),
        )
    }
}
