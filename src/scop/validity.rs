//! The legality check: does a [`Schedule`] run the source of every
//! dependence strictly before its target? And does a given loop carry a
//! dependence (may it run in parallel)?
//!
//! Both questions are exact integer emptiness tests (Omega, `poly`), one per
//! dependence disjunct, pair of schedule pieces and comparison level; the
//! pair's rows have their unit equalities (most dates) substituted once
//! ([`Substituted`]), and each level's equal dates join them as the levels
//! are walked. For a
//! dependence `s → t` with dates `θ(s)` and `θ(t)` (the shorter padded with
//! zeros to a common length `L`), the *violations* are
//!
//! ```text
//!   ⋃_{k < L} { (s, t) ∈ dep : θ(s)_j = θ(t)_j for j < k, θ(t)_k < θ(s)_k }
//!   ∪ { (s, t) ∈ dep : θ(s) = θ(t) }
//! ```
//!
//! and the schedule is legal iff every one of these sets is empty. A
//! non-empty one gives a [`Violation`]: concrete parameters and instances
//! (a *witness*), e.g. `N = 4: S0(i=1, j=0) must run before S0(i=0, j=1)`.
//! A `poly` error is returned as an error: callers must read it as "not
//! proven legal", never as legal.
//!
//! This module knows schedules, dependences and `poly`; it knows nothing
//! about directives, recipes or text.

use std::cell::RefCell;
use std::fmt::Write;
use std::rc::Rc;

use super::kept_order::KeptLoops;
use super::schedule::{alpha_date, beta_date, constant_date};
use super::{Dependence, Schedule, Scop};
use crate::poly::{push_rows, BasicMap, Constraint, FlatMemo, PolyError, Substituted};

/// A dependence whose target is not scheduled after its source, or that a
/// loop carries: one concrete pair of instances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Index of the dependence in the list checked.
    pub dependence: usize,
    /// Values of the scop's parameters.
    pub params: Vec<i64>,
    /// The source instance (its iterators) and its date.
    pub source: Vec<i64>,
    pub source_date: Vec<i64>,
    /// The target instance and its date.
    pub target: Vec<i64>,
    pub target_date: Vec<i64>,
}

impl Violation {
    /// How many leading dates the two instances share (the shorter date
    /// padded with zeros).
    fn equal_dates(&self) -> usize {
        let len = self.source_date.len().max(self.target_date.len());
        let at = |d: &[i64], k: usize| d.get(k).copied().unwrap_or(0);
        (0..len)
            .position(|k| at(&self.source_date, k) != at(&self.target_date, k))
            .unwrap_or(len)
    }

    /// `N = 4: S0(i=1, j=0) must run before S0(i=0, j=1)`.
    pub fn describe(&self, scop: &Scop, deps: &[Dependence]) -> String {
        let mut out = String::new();
        let params: Vec<String> = scop
            .params
            .iter()
            .zip(&self.params)
            .map(|(n, v)| format!("{n} = {v}"))
            .collect();
        if !params.is_empty() {
            let _ = write!(out, "{}: ", params.join(", "));
        }
        let dep = &deps[self.dependence];
        let _ = write!(
            out,
            "{} must run before {}",
            instance_text(scop, dep.source, &self.source),
            instance_text(scop, dep.target, &self.target)
        );
        out
    }
}

/// `S0(i=1, j=0)`.
pub fn instance_text(scop: &Scop, statement: usize, values: &[i64]) -> String {
    let st = &scop.statements[statement];
    let iters: Vec<String> = st
        .iterators
        .iter()
        .zip(values)
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    format!("{}({})", st.name, iters.join(", "))
}

/// The first dependence (in list order) that `schedule` violates, with a
/// witness; `None` if the schedule respects every dependence. Exact.
pub fn first_violation(
    scop: &Scop,
    schedule: &Schedule,
    deps: &[Dependence],
) -> Result<Option<Violation>, PolyError> {
    first_violation_from(scop, schedule, deps, &[])
}

/// [`first_violation`] among the pairs of instances that share an
/// iteration of every loop around the loop `prefix` and are both in it:
/// pieces whose β starts with `prefix`, with equal dates before the loop's
/// (`α` at depth `prefix.len()`). With an empty `prefix`, every pair.
/// Exact. The check of a rewrite that changes only the dates inside a loop
/// of a legal schedule: every other pair keeps its order.
pub fn first_violation_from(
    scop: &Scop,
    schedule: &Schedule,
    deps: &[Dependence],
    prefix: &[i64],
) -> Result<Option<Violation>, PolyError> {
    violation_among(scop, schedule, deps, prefix, &|_, _, _| true)
}

/// [`first_violation_from`] of `after`, a rewrite of the legal schedule
/// `before`, among the pairs of pieces whose order it is not shown to
/// keep ([`KeptLoops::keeps`]): the others respect every dependence as
/// they did. Exact under that condition, which the caller must know.
pub fn first_violation_after(
    scop: &Scop,
    before: &Schedule,
    after: &Schedule,
    deps: &[Dependence],
    prefix: &[i64],
) -> Result<Option<Violation>, PolyError> {
    let kept = KeptLoops::between(before, after);
    violation_among(scop, after, deps, prefix, &|dep, ps, pt| {
        !kept.keeps((dep.source, ps), (dep.target, pt))
    })
}

/// Which pairs of pieces of a dependence a check tests: the dependence,
/// then the source's and the target's piece.
type PieceFilter<'a> = &'a dyn Fn(&Dependence, usize, usize) -> bool;

/// [`first_violation_from`] among the pairs of pieces `tested` keeps.
fn violation_among(
    scop: &Scop,
    schedule: &Schedule,
    deps: &[Dependence],
    prefix: &[i64],
    tested: PieceFilter<'_>,
) -> Result<Option<Violation>, PolyError> {
    let from = if prefix.is_empty() {
        0
    } else {
        alpha_date(prefix.len())
    };
    for (index, dep) in deps.iter().enumerate() {
        let tested = |ps: usize, pt: usize| tested(dep, ps, pt);
        for pair in pairs(scop, schedule, dep, Some(prefix), &tested)? {
            let len = pair.n_src_dates.max(pair.n_tgt_dates);
            // θ(t) <=lex θ(s): first difference at k with θ(t)_k < θ(s)_k, or none.
            // E_k: the pairs with equal dates before k. V_k = E_k ∩ {θ(s)_k > θ(t)_k}.
            // `equal` is E_k, its equalities substituted as they are added.
            let first = from.min(len);
            let mut equal = pair.rows.with_rows(&pair.equal_dates(0..first))?;
            let mut deepest = 0;
            for k in first..=len {
                if k < len {
                    if let (Some(s), Some(t)) = (pair.src_constant(k), pair.tgt_constant(k)) {
                        // Both dates constant (a β): decided without a test.
                        match s.cmp(&t) {
                            // Every pair of E_k runs in order here, and
                            // E_{k+1} (all later levels) is empty.
                            std::cmp::Ordering::Less => break,
                            // V_k is empty; E_{k+1} = E_k.
                            std::cmp::Ordering::Equal => continue,
                            // V_k = E_k: tested below.
                            std::cmp::Ordering::Greater => {}
                        }
                    }
                }
                // θ(s)_k - θ(t)_k - 1 >= 0 (past the last date, none: E_len).
                let later: Vec<Constraint> = (k < len)
                    .then(|| pair.date_difference(k, 1, -1))
                    .into_iter()
                    .collect();
                if let Some(v) = pair.witness(index, &equal, &later)? {
                    return Ok(Some(v));
                }
                if k == len {
                    break;
                }
                // No pair has equal dates up to k: none violates at a later
                // level. (One more test; it saves every later level's.) A
                // pair found by an earlier such test may already show that
                // some pair has (`deepest`: dates equal before that level).
                equal = equal.with_rows(&pair.equal_dates(k..k + 1))?;
                if deepest <= k {
                    match pair.witness(index, &equal, &[])? {
                        None => break,
                        Some(v) => deepest = v.equal_dates(),
                    }
                }
            }
        }
    }
    Ok(None)
}

/// A dependence carried by the loop at `depth` (1-based: date `α_depth`)
/// among the statements whose β-vector starts with `beta_prefix`
/// (`β0 … β(depth-1)`, `depth` values): a pair of instances on the same
/// iteration of every enclosing loop and on different iterations of this
/// one. `None`: the loop's iterations are independent. Exact.
pub fn carried_dependence(
    scop: &Scop,
    schedule: &Schedule,
    deps: &[Dependence],
    beta_prefix: &[i64],
    depth: usize,
) -> Result<Option<Violation>, PolyError> {
    carried_closer_than(scop, schedule, deps, beta_prefix, depth, None)
}

/// A dependence carried by the loop at `depth` around `beta_prefix` (as
/// in [`carried_dependence`]) whose target is dated fewer than `distance`
/// iterations of the loop's date after its source, or before it. `None`:
/// every carried pair is at least `distance` apart, in the right order
/// (what `#pragma omp simd safelen(distance)` needs). Exact.
pub fn carried_closer_than(
    scop: &Scop,
    schedule: &Schedule,
    deps: &[Dependence],
    beta_prefix: &[i64],
    depth: usize,
    distance: Option<u32>,
) -> Result<Option<Violation>, PolyError> {
    if depth == 0 || beta_prefix.len() != depth {
        return Err(PolyError::SpaceMismatch {
            op: "carried_dependence",
        });
    }
    let alpha = alpha_date(depth);
    for (index, dep) in deps.iter().enumerate() {
        for pair in pairs(scop, schedule, dep, Some(beta_prefix), &|_, _| true)? {
            if pair.n_src_dates <= alpha || pair.n_tgt_dates <= alpha {
                continue;
            }
            let outer = pair.rows.with_rows(&pair.equal_dates(0..alpha))?;
            for sign in [1, -1] {
                // sign (θ(t)_α - θ(s)_α) - 1 >= 0.
                let mut rows = vec![pair.date_difference(alpha, -sign, -1)];
                if let (1, Some(n)) = (sign, distance) {
                    // θ(t)_α - θ(s)_α <= n - 1.
                    rows.push(pair.date_difference(alpha, 1, i64::from(n) - 1));
                }
                if let Some(v) = pair.witness(index, &outer, &rows)? {
                    return Ok(Some(v));
                }
            }
        }
    }
    Ok(None)
}

/// A dependence pair that runs backward on one of the α dates of the
/// loops at depths `lo` to `hi` (1-based, `lo <= hi`) around the pieces
/// whose β-vector starts with `beta_prefix`: both instances in one
/// iteration of every loop around depth `lo` (equal dates before `α_lo`),
/// the target's `α_k` less than the source's for some `k` in `lo..=hi`.
/// `None`: the loops form a permutable band for these pairs (every
/// distance on them is non-negative). Exact; one test per dependence
/// disjunct, pair of pieces and loop.
pub fn backward_in_band(
    scop: &Scop,
    schedule: &Schedule,
    deps: &[Dependence],
    beta_prefix: &[i64],
    lo: usize,
    hi: usize,
) -> Result<Option<Violation>, PolyError> {
    if lo == 0 || hi < lo {
        return Err(PolyError::SpaceMismatch {
            op: "backward_in_band",
        });
    }
    let before = alpha_date(lo);
    for (index, dep) in deps.iter().enumerate() {
        for pair in pairs(scop, schedule, dep, Some(beta_prefix), &|_, _| true)? {
            let outer = pair.rows.with_rows(&pair.equal_dates(0..before))?;
            for depth in lo..=hi {
                let alpha = alpha_date(depth);
                if pair.n_src_dates <= alpha || pair.n_tgt_dates <= alpha {
                    return Err(PolyError::SpaceMismatch {
                        op: "backward_in_band",
                    });
                }
                // θ(s)_α - θ(t)_α - 1 >= 0.
                let rows = [pair.date_difference(alpha, 1, -1)];
                if let Some(v) = pair.witness(index, &outer, &rows)? {
                    return Ok(Some(v));
                }
            }
        }
    }
    Ok(None)
}

/// The pairs (dependence disjunct, source piece, target piece) of one
/// dependence; only pieces whose β-vector starts with `prefix`, when given,
/// and pairs of pieces (by index) that `tested` keeps.
fn pairs(
    scop: &Scop,
    schedule: &Schedule,
    dep: &Dependence,
    prefix: Option<&[i64]>,
    tested: &dyn Fn(usize, usize) -> bool,
) -> Result<Vec<Rc<Pair>>, PolyError> {
    let (Some(src), Some(tgt)) = (
        schedule.statements.get(dep.source),
        schedule.statements.get(dep.target),
    ) else {
        return Err(PolyError::SpaceMismatch { op: "validity" });
    };
    let keep = |p: &&BasicMap| {
        prefix.is_none_or(|beta| {
            beta.iter()
                .enumerate()
                .all(|(k, &b)| constant_date(p, beta_date(k)) == Some(b))
        })
    };
    let mut out = Vec::new();
    for d in dep.relation.basics() {
        for (i, ps) in src.pieces.iter().enumerate().filter(|(_, p)| keep(p)) {
            for (j, pt) in tgt.pieces.iter().enumerate().filter(|(_, p)| keep(p)) {
                if tested(i, j) {
                    out.push(Pair::remembered(scop.params.len(), d, ps, pt)?);
                }
            }
        }
    }
    Ok(out)
}

/// One dependence disjunct with one source and one target piece, as rows
/// over one column layout:
///
/// ```text
///   [ params | source iters | target iters | θ(s) | θ(t) | locals ]
/// ```
struct Pair {
    n_param: usize,
    n_src: usize,
    n_tgt: usize,
    n_src_dates: usize,
    n_tgt_dates: usize,
    n_cols: usize,
    /// The rows, with the columns that unit equalities fix (most dates)
    /// substituted once for every question asked of the pair.
    rows: Substituted,
    /// Each date of the source piece that is a constant, and of the target's.
    src_constants: Vec<Option<i64>>,
    tgt_constants: Vec<Option<i64>>,
}

/// The most coefficients the pairs kept by one thread may hold together,
/// their keys included (8 bytes each: 16 MiB); past that the memo is
/// emptied and starts again.
const PAIR_MEMO_CELLS: usize = 1 << 21;

thread_local! {
    /// Pairs built before, by their inputs ([`Pair::key`]). A recipe's
    /// checks ask about the same pairs of pieces again and again: each
    /// marked loop's carried-dependence test, each offered step, the whole
    /// schedule. Building a pair (its rows remapped, its unit equalities
    /// substituted) costs more than most of its tests.
    static PAIRS: RefCell<FlatMemo<Rc<Pair>>> = RefCell::new(FlatMemo::new(PAIR_MEMO_CELLS));
}

impl Pair {
    /// [`Pair::new`], or the same pair built before from the same inputs.
    /// Exact: a pair is a function of its inputs, and the key holds them
    /// all (compared whole, not only hashed).
    fn remembered(
        n_param: usize,
        dep: &BasicMap,
        ps: &BasicMap,
        pt: &BasicMap,
    ) -> Result<Rc<Pair>, PolyError> {
        let key = Pair::key(n_param, [dep, ps, pt]);
        if let Some(pair) = PAIRS.with(|m| m.borrow().get(&key).cloned()) {
            return Ok(pair);
        }
        let pair = Rc::new(Pair::new(n_param, dep, ps, pt)?);
        let size = pair.rows.size();
        PAIRS.with(|m| m.borrow_mut().insert(key, Rc::clone(&pair), size));
        Ok(pair)
    }

    /// Everything [`Pair::new`] reads, flat: `n_param`, then each map's
    /// dimensions, locals and rows (kind, constant, coefficients).
    fn key(n_param: usize, maps: [&BasicMap; 3]) -> Vec<i64> {
        let mut key = vec![n_param as i64];
        for m in maps {
            let space = m.space();
            key.extend(
                [space.n_param(), space.n_in(), space.n_out(), m.n_local()].map(|v| v as i64),
            );
            key.push(m.constraints().len() as i64);
            push_rows(&mut key, m.constraints());
        }
        key
    }

    fn new(
        n_param: usize,
        dep: &BasicMap,
        ps: &BasicMap,
        pt: &BasicMap,
    ) -> Result<Pair, PolyError> {
        let (n_src, n_tgt) = (dep.space().n_in(), dep.space().n_out());
        let (ls, lt) = (ps.space().n_out(), pt.space().n_out());
        if ps.space().n_in() != n_src
            || pt.space().n_in() != n_tgt
            || [dep, ps, pt].iter().any(|m| m.space().n_param() != n_param)
        {
            return Err(PolyError::SpaceMismatch { op: "validity" });
        }
        let dims = n_param + n_src + n_tgt + ls + lt;
        let (ld, l1, l2) = (dep.n_local(), ps.n_local(), pt.n_local());
        let n_cols = dims + ld + l1 + l2;
        let mut rows = Vec::new();
        // The dependence: params | src | tgt | locals.
        let d_map = |k: usize| {
            if k < n_param + n_src + n_tgt {
                k
            } else {
                dims + k - (n_param + n_src + n_tgt)
            }
        };
        // The source piece: params | src | θ(s) | locals.
        let s_map = |k: usize| match k {
            k if k < n_param + n_src => k,
            k if k < n_param + n_src + ls => k + n_tgt,
            k => dims + ld + k - (n_param + n_src + ls),
        };
        // The target piece: params | tgt | θ(t) | locals.
        let t_map = |k: usize| match k {
            k if k < n_param => k,
            k if k < n_param + n_tgt => k + n_src,
            k if k < n_param + n_tgt + lt => k - n_param - n_tgt + n_param + n_src + n_tgt + ls,
            k => dims + ld + l1 + k - (n_param + n_tgt + lt),
        };
        for (m, map) in [
            (dep, &d_map as &dyn Fn(usize) -> usize),
            (ps, &s_map),
            (pt, &t_map),
        ] {
            rows.extend(m.constraints().iter().map(|c| c.remapped(n_cols, map)));
        }
        Ok(Pair {
            n_param,
            n_src,
            n_tgt,
            n_src_dates: ls,
            n_tgt_dates: lt,
            n_cols,
            rows: Substituted::new(n_cols, rows)?,
            src_constants: (0..ls).map(|k| constant_date(ps, k)).collect(),
            tgt_constants: (0..lt).map(|k| constant_date(pt, k)).collect(),
        })
    }

    /// Column of date `k` of the source (`None` past its end: zero).
    fn src_date(&self, k: usize) -> Option<usize> {
        (k < self.n_src_dates).then(|| self.n_param + self.n_src + self.n_tgt + k)
    }

    fn tgt_date(&self, k: usize) -> Option<usize> {
        (k < self.n_tgt_dates)
            .then(|| self.n_param + self.n_src + self.n_tgt + self.n_src_dates + k)
    }

    /// The source's date `k` when it is a constant (a β, or past the end: 0).
    fn src_constant(&self, k: usize) -> Option<i64> {
        self.src_constants.get(k).copied().unwrap_or(Some(0))
    }

    fn tgt_constant(&self, k: usize) -> Option<i64> {
        self.tgt_constants.get(k).copied().unwrap_or(Some(0))
    }

    /// `a θ(s)_k - a θ(t)_k + c` as a row, in the direction given by `a`.
    fn date_difference(&self, k: usize, a: i64, c: i64) -> Constraint {
        let mut coeffs = vec![0; self.n_cols];
        if let Some(col) = self.src_date(k) {
            coeffs[col] += a;
        }
        if let Some(col) = self.tgt_date(k) {
            coeffs[col] -= a;
        }
        Constraint::ineq(coeffs, c)
    }

    /// `θ(s)_j = θ(t)_j` for each `j` in `range`.
    fn equal_dates(&self, range: std::ops::Range<usize>) -> Vec<Constraint> {
        range
            .map(|k| {
                let mut coeffs = vec![0; self.n_cols];
                if let Some(col) = self.src_date(k) {
                    coeffs[col] += 1;
                }
                if let Some(col) = self.tgt_date(k) {
                    coeffs[col] -= 1;
                }
                Constraint::eq(coeffs, 0)
            })
            .collect()
    }

    /// A point of `base` (this pair's rows and some more) plus `extra`,
    /// as a [`Violation`].
    fn witness(
        &self,
        dependence: usize,
        base: &Substituted,
        extra: &[Constraint],
    ) -> Result<Option<Violation>, PolyError> {
        let Some(p) = base.sample_with(extra)? else {
            return Ok(None);
        };
        let mut at = 0;
        let mut take = |n: usize| {
            let v = p[at..at + n].to_vec();
            at += n;
            v
        };
        Ok(Some(Violation {
            dependence,
            params: take(self.n_param),
            source: take(self.n_src),
            target: take(self.n_tgt),
            source_date: take(self.n_src_dates),
            target_date: take(self.n_tgt_dates),
        }))
    }
}
