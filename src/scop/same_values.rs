//! Whether a rewritten program computes what the program before it
//! computes, decided exactly from the value flows of both
//! ([`crate::scop::dataflow`]), each in its own original order.
//!
//! The rewritten program (`after`) has the statements of `before`, in the
//! same order and with the same domains, bodies up to their accesses, and
//! the same number of accesses each; it may access other arrays or other
//! cells, and it may add copy statements after them (`dst[f] = src[g]`: one
//! write, then one read). It computes the same values when
//!
//! * every read of a statement of `before` gets its value from the same
//!   write instances, or from the same cell before the region, as in
//!   `before`. A copy is transparent: a read that gets its value from a
//!   copy gets what the copy read (copies of copies too, as long as no copy
//!   reads, through other copies, what it writes itself);
//! * every cell of an array that the code around the region sees (not
//!   [`Array::local`](super::Array)) ends with the value of the same write
//!   instance, or keeps the value it had before the region.
//!
//! By induction over the original order of `after`, each statement
//! instance then reads the same values and computes the same value, so the
//! cells the code after the region reads hold the same values. Only the
//! arrays whose accesses differ, or that a copy touches, are compared: the
//! flows of the others cannot change. Every test is exact; a `PolyError`
//! means "not proven", never "same".
//!
//! Knows no directive, no schedule and no text.

use std::collections::{BTreeMap, BTreeSet};

use super::dataflow::{flows, last_writes, reads_from_outside, Flow};
use super::{AccessKind, Dependence, Scop};
use crate::poly::{BasicMap, Map, PolyError, Set, Space, Tuple};

/// Where `after` computes something else than `before`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    /// The read `access` of `statement` gets another value at `instance`
    /// (the statement's iterator values).
    Read {
        statement: usize,
        access: usize,
        instance: Vec<i64>,
    },
    /// The cells the write `access` of `statement` leaves as final values
    /// of `array` differ, at `instance` (in `before` or in `after`).
    Final {
        statement: usize,
        access: usize,
        array: String,
        instance: Vec<i64>,
    },
    /// A copy leaves, in the cell `cell` of `array`, a value other than
    /// the one that cell had before the region.
    Moved { array: String, cell: Vec<i64> },
    /// Copies read, through each other, what they write themselves.
    CopyCycle { statement: usize },
    /// The copy `statement` reads, at `instance`, a cell of `array` that
    /// holds no value yet: one the program before never reads before
    /// writing it, or one of a local array.
    Uninitialised {
        statement: usize,
        array: String,
        instance: Vec<i64>,
    },
}

/// A write: its statement and access.
type Write = (usize, usize);

/// What an instance of one read (or one copy) carries: per write of a
/// statement of `before`, `{ T[j] -> S[i] }`; per array, `{ S[i] -> a[x] }`
/// for the cells read as they were before the region.
#[derive(Default)]
struct Carried {
    writes: BTreeMap<Write, Map>,
    outside: BTreeMap<String, Map>,
}

/// The first difference between `before` and `after` (see the module
/// doc), or `None` when they compute the same values.
pub fn first_difference(
    before: &Scop,
    before_deps: &[Dependence],
    after: &Scop,
    after_deps: &[Dependence],
) -> Result<Option<Difference>, PolyError> {
    let n = before.statements.len();
    let arrays = compared_arrays(before, after);
    let only = |deps: &[Dependence]| -> Vec<Dependence> {
        deps.iter()
            .filter(|d| arrays.contains(&d.array))
            .cloned()
            .collect()
    };
    let (before_deps, after_deps) = (only(before_deps), only(after_deps));
    let before_flows = flows(&before_deps)?;
    let after_flows = flows(&after_deps)?;
    let canon = Canon { scop: after };
    let copies = match resolve_copies(after, &after_deps, &after_flows, n, &canon)? {
        Ok(c) => c,
        Err(statement) => return Ok(Some(Difference::CopyCycle { statement })),
    };
    if let Some(d) = uninitialised_copy_read(before, &before_deps, after, &after_deps, n, &canon)? {
        return Ok(Some(d));
    }
    for s in 0..n {
        for (r, access) in before.statements[s].accesses.iter().enumerate() {
            let new = &after.statements[s].accesses[r];
            if access.kind != AccessKind::Read
                || !(arrays.contains(&access.array) || arrays.contains(&new.array))
            {
                continue;
            }
            let old = carried_by_read(
                before,
                &before_deps,
                &before_flows,
                &BTreeMap::new(),
                s,
                r,
                &canon,
            )?;
            let now = carried_by_read(after, &after_deps, &after_flows, &copies, s, r, &canon)?;
            if let Some(instance) = first_unequal(&old, &now)? {
                return Ok(Some(Difference::Read {
                    statement: s,
                    access: r,
                    instance,
                }));
            }
        }
    }
    for array in &arrays {
        let visible = before.arrays.iter().any(|a| &a.name == array && !a.local);
        if visible {
            if let Some(d) = final_difference(
                before,
                &before_deps,
                after,
                &after_deps,
                &copies,
                array,
                n,
                &canon,
            )? {
                return Ok(Some(d));
            }
        }
    }
    Ok(None)
}

/// The arrays whose accesses differ between the two programs, or that the
/// statements only `after` has touch; every array when a statement of
/// `before` has another original order in `after`.
fn compared_arrays(before: &Scop, after: &Scop) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let reordered = before
        .statements
        .iter()
        .zip(&after.statements)
        .any(|(b, a)| b.schedule.to_string() != a.schedule.to_string());
    if reordered {
        out.extend(after.arrays.iter().map(|a| a.name.clone()));
        out.extend(before.arrays.iter().map(|a| a.name.clone()));
    }
    for (s, st) in after.statements.iter().enumerate() {
        for (k, a) in st.accesses.iter().enumerate() {
            let old = before.statements.get(s).and_then(|b| b.accesses.get(k));
            let same = old.is_some_and(|o| {
                o.array == a.array && o.relation.to_string() == a.relation.to_string()
            });
            if !same {
                out.insert(a.array.clone());
                if let Some(o) = old {
                    out.insert(o.array.clone());
                }
            }
        }
    }
    out
}

/// Spaces with the tuple names and dimension names fixed, so that
/// relations built in different ways compare.
struct Canon<'a> {
    scop: &'a Scop,
}

impl Canon<'_> {
    fn instance(&self, s: usize, prefix: &str) -> Tuple {
        let st = &self.scop.statements[s];
        let dims = (0..st.iterators.len())
            .map(|k| format!("{prefix}{k}"))
            .collect();
        Tuple::new(Some(st.name.clone()), dims)
    }

    /// `{ T[j] -> S[i] }`.
    fn pair(&self, t: usize, s: usize) -> Space {
        Space::map(
            self.scop.params.clone(),
            self.instance(t, "j"),
            self.instance(s, "i"),
        )
    }

    /// `{ S[i] -> a[x] }` with `n_dims` cell dimensions.
    fn cell(&self, s: usize, array: &str, n_dims: usize) -> Space {
        let dims = (0..n_dims).map(|k| format!("x{k}")).collect();
        Space::map(
            self.scop.params.clone(),
            self.instance(s, "i"),
            Tuple::new(Some(array.to_string()), dims),
        )
    }
}

/// `{ S[i] -> a[x] }` of access `k` of statement `s`, for `instances`.
fn cells_read(
    scop: &Scop,
    s: usize,
    k: usize,
    instances: &Set,
    canon: &Canon,
) -> Result<Map, PolyError> {
    let access = &scop.statements[s].accesses[k];
    let n_dims = access.relation.space().n_out();
    let space = canon.cell(s, &access.array, n_dims);
    let relation = access.relation.renamed(&space)?;
    let domain_space = BasicMap::universe(space).domain().space().clone();
    relation.intersect_domain(&instances.renamed(&domain_space)?)
}

/// Add `m` to the relation of `key` in `into`.
fn add<K: Ord>(into: &mut BTreeMap<K, Map>, key: K, m: Map) -> Result<(), PolyError> {
    match into.get_mut(&key) {
        Some(old) => *old = old.union(&m)?,
        None => {
            into.insert(key, m);
        }
    }
    Ok(())
}

/// What the read `r` of statement `s` carries, with the copies of
/// `copies` seen through.
fn carried_by_read(
    scop: &Scop,
    deps: &[Dependence],
    all_flows: &[Flow],
    copies: &BTreeMap<usize, Carried>,
    s: usize,
    r: usize,
    canon: &Canon,
) -> Result<Carried, PolyError> {
    let mut out = Carried::default();
    for f in all_flows
        .iter()
        .filter(|f| f.target == s && f.target_access == r)
    {
        let flow = f.relation.renamed(&canon.pair(f.source, s))?;
        match copies.get(&f.source) {
            None => add(&mut out.writes, (f.source, f.source_access), flow)?,
            Some(copy) => {
                for (w, m) in &copy.writes {
                    let through = m.apply_range(&flow)?.renamed(&canon.pair(w.0, s))?;
                    add(&mut out.writes, *w, through)?;
                }
                for (array, m) in &copy.outside {
                    let space = canon.cell(s, array, m.space().n_out());
                    let through = flow.reverse().apply_range(m)?.renamed(&space)?;
                    add(&mut out.outside, array.clone(), through)?;
                }
            }
        }
    }
    let first = reads_from_outside(scop, deps, s, r)?;
    let array = scop.statements[s].accesses[r].array.clone();
    add(
        &mut out.outside,
        array,
        cells_read(scop, s, r, &first, canon)?,
    )?;
    Ok(out)
}

/// What each copy (the statements of `after` from `n` on) carries, each
/// resolved after the copies it reads from; `Err(copy)` when copies read
/// from each other in a cycle.
fn resolve_copies(
    after: &Scop,
    deps: &[Dependence],
    all_flows: &[Flow],
    n: usize,
    canon: &Canon,
) -> Result<Result<BTreeMap<usize, Carried>, usize>, PolyError> {
    let mut done: BTreeMap<usize, Carried> = BTreeMap::new();
    let mut pending: Vec<usize> = (n..after.statements.len()).collect();
    while !pending.is_empty() {
        let ready = pending.iter().position(|&c| {
            all_flows
                .iter()
                .filter(|f| f.target == c && f.source >= n)
                .all(|f| done.contains_key(&f.source))
        });
        let Some(k) = ready else {
            return Ok(Err(pending[0]));
        };
        let c = pending.remove(k);
        let read = after.statements[c]
            .accesses
            .iter()
            .position(|a| a.kind == AccessKind::Read)
            .ok_or(PolyError::SpaceMismatch {
                op: "same_values (a copy without a read)",
            })?;
        let carried = carried_by_read(after, deps, all_flows, &done, c, read, canon)?;
        done.insert(c, carried);
    }
    Ok(Ok(done))
}

/// The first instance (of the writing statement for flows, of the reading
/// statement for cells from before the region) where two carried sets
/// differ.
fn first_unequal(old: &Carried, now: &Carried) -> Result<Option<Vec<i64>>, PolyError> {
    let keys: BTreeSet<&Write> = old.writes.keys().chain(now.writes.keys()).collect();
    for w in keys {
        if let Some(x) = differing_point(old.writes.get(w), now.writes.get(w))? {
            return Ok(Some(x));
        }
    }
    let keys: BTreeSet<&String> = old.outside.keys().chain(now.outside.keys()).collect();
    for a in keys {
        if let Some(x) = differing_point(old.outside.get(a), now.outside.get(a))? {
            return Ok(Some(x));
        }
    }
    Ok(None)
}

/// A pair in one relation and not the other, its output dimensions
/// dropped (the instance it starts from is enough for a witness); `None`
/// when they are equal. A missing relation is empty.
fn differing_point(a: Option<&Map>, b: Option<&Map>) -> Result<Option<Vec<i64>>, PolyError> {
    let (a, b) = match (a, b) {
        (None, None) => return Ok(None),
        (Some(a), None) | (None, Some(a)) => (a.clone(), Map::empty(a.space().clone())),
        (Some(a), Some(b)) => (a.clone(), b.clone()),
    };
    for (x, y) in [(&a, &b), (&b, &a)] {
        let extra = if y.basics().is_empty() {
            x.clone()
        } else {
            x.subtract(y)?
        };
        if let Some(p) = extra.sample()? {
            let np = x.space().n_param();
            let ni = x.space().n_in();
            return Ok(Some(p[np..np + ni].to_vec()));
        }
    }
    Ok(None)
}

/// A copy of `after` that reads a cell no value was put in: of a local
/// array, or of a visible array that `before` never reads before writing.
/// (Its value may be dead, but reading it is reading an indeterminate
/// value.)
fn uninitialised_copy_read(
    before: &Scop,
    before_deps: &[Dependence],
    after: &Scop,
    after_deps: &[Dependence],
    n: usize,
    canon: &Canon,
) -> Result<Option<Difference>, PolyError> {
    for c in n..after.statements.len() {
        let st = &after.statements[c];
        let Some(r) = st.accesses.iter().position(|a| a.kind == AccessKind::Read) else {
            continue;
        };
        let array = &st.accesses[r].array;
        let first = reads_from_outside(after, after_deps, c, r)?;
        let cells = cells_read(after, c, r, &first, canon)?;
        let local = after.arrays.iter().any(|a| &a.name == array && a.local);
        let unread = if local {
            cells
        } else {
            // The cells `before` reads as they were before the region.
            let mut read = Set::empty(cells.range().space().clone());
            for s in 0..n {
                for (k, a) in before.statements[s].accesses.iter().enumerate() {
                    if a.kind == AccessKind::Read && &a.array == array {
                        let outside = reads_from_outside(before, before_deps, s, k)?;
                        read = read.union(&cells_read(before, s, k, &outside, canon)?.range())?;
                    }
                }
            }
            if read.basics().is_empty() {
                cells
            } else {
                cells.subtract(&cells.intersect_range(&read)?)?
            }
        };
        if let Some(p) = unread.sample()? {
            let np = unread.space().n_param();
            let ni = unread.space().n_in();
            return Ok(Some(Difference::Uninitialised {
                statement: c,
                array: array.clone(),
                instance: p[np..np + ni].to_vec(),
            }));
        }
    }
    Ok(None)
}

/// The first difference in the final values of `array`, a visible array.
#[allow(clippy::too_many_arguments)]
fn final_difference(
    before: &Scop,
    before_deps: &[Dependence],
    after: &Scop,
    after_deps: &[Dependence],
    copies: &BTreeMap<usize, Carried>,
    array: &str,
    n: usize,
    canon: &Canon,
) -> Result<Option<Difference>, PolyError> {
    let finals =
        |scop: &Scop, deps: &[Dependence], s: usize| -> Result<BTreeMap<Write, Map>, PolyError> {
            let mut out = BTreeMap::new();
            for (w, a) in scop.statements[s].accesses.iter().enumerate() {
                if a.kind == AccessKind::Write && a.array == array {
                    let last = last_writes(scop, deps, s, w)?;
                    out.insert((s, w), cells_read(scop, s, w, &last, canon)?);
                }
            }
            Ok(out)
        };
    let mut old: BTreeMap<Write, Map> = BTreeMap::new();
    let mut now: BTreeMap<Write, Map> = BTreeMap::new();
    for s in 0..n {
        old.extend(finals(before, before_deps, s)?);
        now.extend(finals(after, after_deps, s)?);
    }
    for (&c, carried) in copies {
        for (_, left) in finals(after, after_deps, c)? {
            // `left`: { C[k] -> array[x] } for the copy's last writes.
            for (src, m) in &carried.writes {
                let cells = m.apply_range(&left)?;
                let space = canon.cell(src.0, array, left.space().n_out());
                add(&mut now, *src, cells.renamed(&space)?)?;
            }
            for (from, m) in &carried.outside {
                // The copy instances that leave a value from before the
                // region must leave the same cell's.
                let kept = left.intersect_domain(&m.domain())?;
                let same = if from == array {
                    kept.is_subset(&m.renamed(kept.space())?)?
                } else {
                    kept.is_empty()?
                };
                if !same {
                    let cell = kept
                        .sample()?
                        .map(|p| p[kept.space().n_param() + kept.space().n_in()..].to_vec())
                        .unwrap_or_default();
                    return Ok(Some(Difference::Moved {
                        array: array.to_string(),
                        cell,
                    }));
                }
            }
        }
    }
    let keys: BTreeSet<Write> = old.keys().chain(now.keys()).copied().collect();
    for w in keys {
        if let Some(instance) = differing_point(old.get(&w), now.get(&w))? {
            return Ok(Some(Difference::Final {
                statement: w.0,
                access: w.1,
                array: array.to_string(),
                instance,
            }));
        }
    }
    Ok(None)
}
