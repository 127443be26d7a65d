//! The recursive scan: one date at a time, outermost first.
//!
//! At a β date the items are grouped by value and the groups emitted in
//! increasing order. At an α date every item is projected (rationally) on
//! the dates so far and simplified under the enclosing constraints
//! (equalities made explicit, then `gist`); the rows that do not mention
//! the date are guards, hoisted around the loop, the others its bounds.
//! When all items agree, they share one loop (or one substitution, when an
//! equation fixes the date). When their bounds differ, the ranges are
//! separated into disjoint, ordered pieces ([`super::separate`]), a loop
//! each; when that cannot be proven, the loop runs over the union of their
//! ranges and each item keeps its own bounds as guards further in. After
//! the last date, each statement's iterators are solved from the equations
//! of its item.
//!
//! This file walks the dates (β: group and order; α: project, `gist`,
//! decide). The rest is one concern a file: [`loops`] (a shared loop or a
//! merged one, its bounds), [`naming`] (the C variable of a loop),
//! [`stride`] (steps and congruence guards), [`leaves`] (statement
//! instances, guards and affine expressions), [`solve`] (iterators from
//! dates, with floors) and [`simplify`] (bound expressions).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};

use super::ast::Node;
use super::full_tiles::separate_full_tiles;
use super::items::{items, Item};
use super::rewrite::merge_adjacent_guards;
use super::separate::{separate, tightened};
use super::{proven_empty, ScanError};
use crate::poly::{
    checked_add, checked_mul, unremembered, BasicSet, Constraint, ConstraintKind, PolyError, Space,
};
use crate::scop::{Schedule, Scop};

mod division;
mod existential;
mod leaves;
mod loops;
mod naming;
mod simplify;
mod solve;
mod stride;

/// The loop AST that visits the statement instances of `scop` in the order
/// of `schedule`. Its exact tests are each asked once: they are not
/// remembered ([`unremembered`]).
pub fn scan(scop: &Scop, schedule: &Schedule) -> Result<Vec<Node>, ScanError> {
    unremembered(|| scan_remembering_nothing(scop, schedule))
}

fn scan_remembering_nothing(scop: &Scop, schedule: &Schedule) -> Result<Vec<Node>, ScanError> {
    if schedule.statements.len() != scop.statements.len() {
        return Err(ScanError::Unsupported(
            "the schedule does not have one entry per statement".into(),
        ));
    }
    let n = schedule
        .statements
        .iter()
        .map(|s| s.n_dates())
        .max()
        .unwrap_or(1)
        .max(1);
    let items = items(scop, &schedule.statements, n)?;
    let np = scop.params.len();
    let space = Space::set(
        scop.params.clone(),
        None,
        (0..n).map(|t| format!("t{t}")).collect(),
    );
    let mut ctx = BasicSet::universe(space.clone());
    if scop.context.n_local() == 0 && scop.context.space().n_param() == np {
        for c in scop.context.constraints() {
            ctx.add(c.clone());
        }
    }
    let mut taken: HashSet<String> = scop.params.iter().cloned().collect();
    taken.extend(scop.arrays.iter().map(|a| a.name.clone()));
    for st in &scop.statements {
        taken.extend(st.iterators.iter().cloned());
    }
    let outer_declared = scop.outer_declared_iterators();
    let scanner = Scanner {
        scop,
        items,
        n,
        np,
        space,
        taken,
        outer_declared,
        projections: RefCell::new(HashMap::new()),
    };
    let all: Vec<usize> = (0..scanner.items.len()).collect();
    let mut vals = Vec::new();
    let nodes = scanner.level(&all, 0, &ctx, &mut vals)?;
    Ok(separate_full_tiles(merge_adjacent_guards(nodes)))
}

/// What an enclosing date stands for in the generated code.
#[derive(Clone, Debug)]
enum Val {
    Const(i64),
    /// `date = sign · var`.
    Var {
        name: String,
        sign: i64,
    },
    /// `date = coeffs · [params | dates] + constant`.
    Subst(Vec<i64>, i64),
}

struct Scanner<'a> {
    scop: &'a Scop,
    items: Vec<Item>,
    n: usize,
    np: usize,
    space: Space,
    taken: HashSet<String>,
    outer_declared: HashSet<String>,
    /// Each item's projection on the dates up to one, by (item, date):
    /// the scan asks for most of them several times (heat-3d's tiles: 192
    /// projections, 34 distinct).
    projections: RefCell<HashMap<(usize, usize), BasicSet>>,
}

fn unsupported(s: impl Into<String>) -> ScanError {
    ScanError::Unsupported(s.into())
}

/// How many non-zero coefficients `row` has: the simpler of two equal
/// rows is the one with fewer terms.
fn term_count(row: &Constraint) -> usize {
    row.coeffs.iter().filter(|&&v| v != 0).count()
}

/// `x · r - y · s` for rows of the same length.
fn combine(x: i64, r: &Constraint, y: i64, s: &Constraint) -> Result<Constraint, ScanError> {
    let minus_y = y.checked_neg().ok_or(crate::poly::PolyError::Overflow)?;
    let mut coeffs = Vec::with_capacity(r.coeffs.len());
    for (a, b) in r.coeffs.iter().zip(&s.coeffs) {
        coeffs.push(checked_add(checked_mul(x, *a)?, checked_mul(minus_y, *b)?)?);
    }
    let constant = checked_add(
        checked_mul(x, r.constant)?,
        checked_mul(minus_y, s.constant)?,
    )?;
    Ok(Constraint {
        kind: r.kind,
        coeffs,
        constant,
    })
}

impl Scanner<'_> {
    fn total(&self, item: &Item) -> usize {
        item.set.space().n_out()
    }

    /// Whether every date point of `guard` within `ctx` (the enclosing
    /// loops) has an integer instance of `item`: `guard ∩ ctx` is a subset
    /// of the exact (existential) projection. Exact.
    fn guard_is_exact(
        &self,
        item: &Item,
        guard: &BasicSet,
        ctx: &BasicSet,
    ) -> Result<bool, ScanError> {
        let total = self.total(item);
        let exact = item.set.project_out(self.n, total - self.n);
        let exact = BasicSet::from_parts(
            self.space.clone(),
            exact.n_local(),
            exact.constraints().to_vec(),
        );
        let inside = crate::poly::Set::from_basic(guard.intersect(ctx)?);
        let exact = crate::poly::Set::from_basic(exact.intersect(ctx)?);
        match inside.is_subset(&exact) {
            // Not proven: the congruences are printed, if redundant.
            Err(PolyError::StepLimit(_)) => Ok(false),
            answer => Ok(answer?),
        }
    }

    /// The rational projection of item `i` on dates `0..=d`, in the
    /// context's space (later dates unconstrained). Computed once per item
    /// and date.
    fn project(&self, i: usize, d: usize) -> Result<BasicSet, ScanError> {
        if let Some(p) = self.projections.borrow().get(&(i, d)) {
            return Ok(p.clone());
        }
        let item = &self.items[i];
        let total = self.total(item);
        let (p, _) = item.set.project_out_rational(d + 1, total - d - 1)?;
        let mut out = BasicSet::universe(self.space.clone());
        for c in p.constraints() {
            out.add(c.clone());
        }
        self.projections.borrow_mut().insert((i, d), out.clone());
        Ok(out)
    }

    /// Of the unit equations on the date at `col` that `rows` imply under
    /// `ctx`, reduced by the other equations, the one with the fewest
    /// terms (`q = 0` rather than `q = 1 - NR` under `NR == r + 1` and `r
    /// == 0`: a compiler that folds a macro parameter would warn of a
    /// negative index in the other). Only for a substituted date, where
    /// every row becomes a guard, so that an equation drawn from any of
    /// them holds wherever the statement runs.
    fn simplest_unit_equation(
        &self,
        rows: &[Constraint],
        col: usize,
        ctx: &BasicSet,
    ) -> Result<Option<Constraint>, ScanError> {
        let width = self.np + self.n;
        let all = BasicSet::from_parts(self.space.clone(), 0, rows.to_vec())
            .intersect(ctx)?
            .detect_equalities()?;
        let equations: Vec<Constraint> = all
            .constraints()
            .iter()
            .filter(|c| c.kind == ConstraintKind::Eq && c.coeffs[width..].iter().all(|&v| v == 0))
            .map(|c| {
                let mut row = c.clone();
                row.coeffs.truncate(width);
                row
            })
            .collect();
        // Gauss–Jordan with unit pivots on the equations without the date.
        let mut pivots: Vec<(usize, Constraint)> = Vec::new();
        for e in equations.iter().filter(|e| e.coeffs[col] == 0) {
            let mut e = e.clone();
            for (c, p) in &pivots {
                if e.coeffs[*c] != 0 {
                    e = combine(1, &e, checked_mul(e.coeffs[*c], p.coeffs[*c])?, p)?;
                }
            }
            let Some(c) = (0..width).find(|&c| e.coeffs[c].abs() == 1) else {
                continue;
            };
            for (_, p) in &mut pivots {
                if p.coeffs[c] != 0 {
                    *p = combine(1, p, checked_mul(p.coeffs[c], e.coeffs[c])?, &e)?;
                }
            }
            pivots.push((c, e));
        }
        let mut best: Option<Constraint> = None;
        for q in equations.iter().filter(|e| e.coeffs[col].abs() == 1) {
            let mut q = q.clone();
            for (c, p) in &pivots {
                if q.coeffs[*c] != 0 {
                    q = combine(1, &q, checked_mul(q.coeffs[*c], p.coeffs[*c])?, p)?;
                }
            }
            if best.as_ref().is_none_or(|b| term_count(&q) < term_count(b)) {
                best = Some(q);
            }
        }
        Ok(best)
    }

    /// The rows of `set` (no locals) that `ctx` does not imply, with the
    /// equalities that hold on the rows on date `d` and `ctx` made explicit
    /// first, so that a date fixed under `ctx` is substituted rather than
    /// looped over once. Equalities that need `ctx`'s locals are left out.
    /// The rows without `d` do not take part: they may become guards that
    /// the loops further in enforce by being empty (`enforced_below`), and
    /// an equality derived from them would hold only under that guard.
    fn simplified(
        &self,
        set: &BasicSet,
        d: usize,
        ctx: &BasicSet,
    ) -> Result<Vec<Constraint>, ScanError> {
        let width = self.np + self.n;
        let col = self.np + d;
        let on_d = BasicSet::from_parts(
            set.space().clone(),
            set.n_local(),
            set.constraints()
                .iter()
                .filter(|c| c.coeffs[col] != 0)
                .cloned()
                .collect(),
        );
        let found = match on_d.intersect(ctx)?.detect_equalities() {
            Ok(set) => set.constraints().to_vec(),
            // None proven: a date fixed under `ctx` stays a loop of one
            // iteration.
            Err(PolyError::StepLimit(_)) => Vec::new(),
            Err(e) => return Err(e.into()),
        };
        let mut equalities = Vec::new();
        for c in &found {
            if c.kind == ConstraintKind::Eq && c.coeffs[width..].iter().all(|&v| v == 0) {
                let mut row = tightened(c.clone());
                row.coeffs.truncate(width);
                equalities.push(row);
            }
        }
        // `gist` drops the earlier of two rows that imply each other, so
        // the simplest equalities go last and survive (`q = 0` rather than
        // `q = 1 - NR` where `NR == 1`: a compiler that folds a macro
        // parameter would warn of a negative index in the other).
        equalities.sort_by_key(|r| std::cmp::Reverse(term_count(r)));
        let mut out = set.clone();
        for row in equalities {
            if !out.constraints().contains(&row) {
                out.add(row);
            }
        }
        Ok(out.gist(ctx)?.constraints().to_vec())
    }

    /// The nodes inside date `d`, which stands for `val` there: the scan
    /// of the dates after it.
    fn inside(
        &self,
        val: Val,
        live: &[usize],
        d: usize,
        ctx: &BasicSet,
        vals: &mut Vec<Val>,
    ) -> Result<Vec<Node>, ScanError> {
        vals.push(val);
        let r = self.level(live, d + 1, ctx, vals);
        vals.pop();
        r
    }

    fn level(
        &self,
        live: &[usize],
        d: usize,
        ctx: &BasicSet,
        vals: &mut Vec<Val>,
    ) -> Result<Vec<Node>, ScanError> {
        if live.is_empty() {
            return Ok(Vec::new());
        }
        if d == self.n {
            return self.leaves(live, ctx, vals);
        }
        if d.is_multiple_of(2) {
            return self.beta(live, d, ctx, vals);
        }
        self.alpha(live, d, ctx, vals)
    }

    fn beta(
        &self,
        live: &[usize],
        d: usize,
        ctx: &BasicSet,
        vals: &mut Vec<Val>,
    ) -> Result<Vec<Node>, ScanError> {
        let mut groups: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
        for &i in live {
            let v = self.constant_date(i, d)?;
            groups.entry(v).or_default().push(i);
        }
        let mut out = Vec::new();
        for (v, group) in groups {
            let mut inner = ctx.clone();
            let mut row = vec![0; self.np + self.n];
            row[self.np + d] = 1;
            inner.add(Constraint::eq(row, checked_mul(-1, v)?));
            out.extend(self.inside(Val::Const(v), &group, d, &inner, vals)?);
        }
        Ok(out)
    }

    /// The value of β date `d` of item `i` (a constant, or an error).
    fn constant_date(&self, i: usize, d: usize) -> Result<i64, ScanError> {
        let item = &self.items[i];
        let col = self.np + d;
        let p = self.project(i, d)?;
        for c in p.constraints() {
            let a = c.coeffs[col];
            let only = c.kind == ConstraintKind::Eq
                && a != 0
                && c.coeffs
                    .iter()
                    .enumerate()
                    .all(|(k, &v)| k == col || v == 0);
            if only && c.constant % a == 0 {
                return Ok(checked_mul(c.constant / a, -1)?);
            }
        }
        Err(unsupported(format!(
            "date {d} of statement {} is a β date but not a constant",
            self.scop.statements[item.statement].name
        )))
    }

    fn alpha(
        &self,
        live: &[usize],
        d: usize,
        ctx: &BasicSet,
        vals: &mut Vec<Val>,
    ) -> Result<Vec<Node>, ScanError> {
        let col = self.np + d;
        let mut kept = Vec::new();
        let mut gists: Vec<Vec<Constraint>> = Vec::new();
        for &i in live {
            let p = self.project(i, d)?;
            if proven_empty(&p.intersect(ctx)?)? {
                continue;
            }
            kept.push(i);
            gists.push(self.simplified(&p, d, ctx)?);
        }
        if kept.is_empty() {
            return Ok(Vec::new());
        }
        let same = |a: &[&Constraint], b: &[&Constraint]| {
            a.len() == b.len() && a.iter().all(|r| b.contains(r))
        };
        let all: Vec<Vec<&Constraint>> = gists.iter().map(|g| g.iter().collect()).collect();
        if all.iter().all(|g| same(g, &all[0])) {
            return self.shared_loop(&kept, d, ctx, &gists[0], vals);
        }
        // Different ranges of the date: separate them into disjoint loops
        // when they can be ordered. Only the rows on the date decide the
        // pieces; a range that differs only in outer guards shares the loop
        // (the guards go further in) rather than duplicate it.
        let on_d: Vec<Vec<&Constraint>> = all
            .iter()
            .map(|g| g.iter().copied().filter(|c| c.coeffs[col] != 0).collect())
            .collect();
        if !on_d.iter().all(|g| same(g, &on_d[0])) && !self.mapped(&kept, d) {
            let ranges: Vec<BasicSet> = on_d
                .iter()
                .map(|g| {
                    BasicSet::from_parts(
                        self.space.clone(),
                        0,
                        g.iter().map(|c| (*c).clone()).collect(),
                    )
                })
                .collect();
            if let Some(pieces) = separate(&ranges, col, ctx)? {
                let mut out = Vec::new();
                for piece in pieces {
                    let members: Vec<usize> = piece.members.iter().map(|&m| kept[m]).collect();
                    let rows = self.simplified(&piece.set, d, ctx)?;
                    out.extend(self.shared_loop(&members, d, ctx, &rows, vals)?);
                }
                return Ok(out);
            }
        }
        self.merged_loop(&kept, &gists, d, ctx, vals)
    }
}
