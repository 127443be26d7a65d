//! Value-based dataflow in the original order, exact: which write instance
//! each read instance gets its value from, which read instances get the
//! value the cell held before the region, and which write instances leave
//! the cell's final value.
//!
//! The memory-based dependences of [`crate::scop::deps`] hold every earlier
//! write to the cell a read touches; the value comes from the last of them.
//! A RAW pair `T[j] -> S[i]` is therefore a flow unless some write `T'[k]`
//! to the same cell lies between them: `T[j] -> T'[k]` is a WAW pair and
//! `T'[k] -> S[i]` a RAW pair, so the killed pairs are the compositions of
//! the WAW relations out of `T`'s write with the RAW relations into `S`'s
//! read, and the flow is the RAW relation minus them (the middle instance
//! becomes an existential, which the subtraction writes as integer
//! divisions or reports it cannot: a [`PolyError`], never a guess). In the
//! same way, a read with no RAW pair into it reads the value from before
//! the region, and a write with no WAW pair out of it leaves the final one
//! (both among the instances the context allows: the dependences are
//! computed under it).
//!
//! What the data-layout directives check against: a rewritten program
//! computes what the original computes when its reads get their values from
//! the same writes and its final values come from the same writes. Knows
//! only the original order (the dependences'), no schedule and no text.
//!
//! In this loop, `S0[i]` reads what `S0[i - 1]` wrote; no write lies between:
//!
//! ```
//! use polyc::lang::c::read_source;
//! use polyc::scop::{dataflow, dependences, DepOptions};
//! let src = "void f(int n, double A[]) {\n#pragma scop\n\
//!            for (i = 1; i < n; i++)\n  A[i] = A[i - 1];\n#pragma endscop\n}\n";
//! let file = read_source("f.c", src.to_string()).expect("a scop");
//! let scop = &file.scops[0];
//! let deps = dependences(scop, &DepOptions::default()).expect("dependences");
//! let flows = dataflow::flows(&deps).expect("flows");
//! assert_eq!(
//!     flows[0].relation.to_string(),
//!     "[n] -> { S0[i] -> S0[i + 1] : i >= 1 and i <= n - 2 }"
//! );
//! // Only the first iteration reads a value from before the region.
//! let outside = dataflow::reads_from_outside(scop, &deps, 0, 1).expect("reads");
//! let first = polyc::poly::parse_set("[n] -> { S0[i] : i = 1 and n >= 2 }").expect("a set");
//! assert!(outside.is_equal(&first).expect("decided"));
//! ```

use std::collections::BTreeMap;

use super::{DepKind, Dependence, Scop};
use crate::poly::{Map, PolyError, Set};

/// The value flow from one write access to one read access.
#[derive(Clone, Debug)]
pub struct Flow {
    /// The writing statement and its access (indices as in [`Dependence`]).
    pub source: usize,
    pub source_access: usize,
    /// The reading statement and its access.
    pub target: usize,
    pub target_access: usize,
    pub array: String,
    /// `{ T[j] -> S[i] }`: exactly the pairs where `S[i]`'s read gets the
    /// value `T[j]` wrote, in the space of the dependences' relations.
    pub relation: Map,
}

/// An access pair: source statement and access, target statement and access.
type AccessPair = (usize, usize, usize, usize);

/// The relations of `deps` of one kind, all depths of one access pair in
/// one union, in a deterministic order.
fn by_access_pair(
    deps: &[Dependence],
    kind: DepKind,
) -> Result<BTreeMap<AccessPair, (String, Map)>, PolyError> {
    let mut out: BTreeMap<AccessPair, (String, Map)> = BTreeMap::new();
    for d in deps.iter().filter(|d| d.kind == kind) {
        let key = (d.source, d.source_access, d.target, d.target_access);
        match out.get_mut(&key) {
            Some((_, m)) => *m = m.union(&d.relation.renamed(m.space())?)?,
            None => {
                out.insert(key, (d.array.clone(), d.relation.clone()));
            }
        }
    }
    Ok(out)
}

/// Every value flow of a scop (its RAW dependences `deps` with the pairs a
/// later write kills removed), by source, source access, target, target
/// access; empty flows dropped (exact emptiness).
pub fn flows(deps: &[Dependence]) -> Result<Vec<Flow>, PolyError> {
    let raw = by_access_pair(deps, DepKind::Raw)?;
    let waw = by_access_pair(deps, DepKind::Waw)?;
    let mut out = Vec::new();
    for (&(t, ta, s, sa), (array, relation)) in &raw {
        let mut killed = Map::empty(relation.space().clone());
        for (&(w, wa, t2, t2a), (_, overwrite)) in &waw {
            if (w, wa) != (t, ta) {
                continue;
            }
            let Some((_, reread)) = raw.get(&(t2, t2a, s, sa)) else {
                continue;
            };
            let through = overwrite.apply_range(reread)?;
            killed = killed.union(&through.renamed(relation.space())?)?;
        }
        let flow = if killed.basics().is_empty() {
            relation.clone()
        } else {
            relation.subtract(&killed)?
        };
        if flow.is_empty()? {
            continue;
        }
        out.push(Flow {
            source: t,
            source_access: ta,
            target: s,
            target_access: sa,
            array: array.clone(),
            relation: flow,
        });
    }
    Ok(out)
}

/// The instances of `statement` whose read `access` gets the value its cell
/// held before the region: no write to the cell comes before them. In the
/// statement's domain space.
pub fn reads_from_outside(
    scop: &Scop,
    deps: &[Dependence],
    statement: usize,
    access: usize,
) -> Result<Set, PolyError> {
    let into = |d: &Dependence| {
        (d.kind == DepKind::Raw && d.target == statement && d.target_access == access)
            .then(|| d.relation.range())
    };
    domain_without(scop, deps, statement, into)
}

/// The instances of `statement` whose write `access` leaves its cell's
/// final value: no write to the cell comes after them. In the statement's
/// domain space.
pub fn last_writes(
    scop: &Scop,
    deps: &[Dependence],
    statement: usize,
    access: usize,
) -> Result<Set, PolyError> {
    let out_of = |d: &Dependence| {
        (d.kind == DepKind::Waw && d.source == statement && d.source_access == access)
            .then(|| d.relation.domain())
    };
    domain_without(scop, deps, statement, out_of)
}

/// The domain of `statement` under the context, minus the instances `end`
/// gives for each dependence (the end of it that lies in the statement, or
/// `None`).
fn domain_without(
    scop: &Scop,
    deps: &[Dependence],
    statement: usize,
    end: impl Fn(&Dependence) -> Option<Set>,
) -> Result<Set, PolyError> {
    let domain = scop.in_context(&scop.statements[statement].domain);
    let mut removed = Set::empty(domain.space().clone());
    for instances in deps.iter().filter_map(end) {
        removed = removed.union(&instances.renamed(domain.space())?)?;
    }
    domain.subtract(&removed)
}
