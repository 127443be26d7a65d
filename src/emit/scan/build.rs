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

use std::collections::{BTreeMap, HashSet};

use super::ast::{Aff, Cond, Expr, Loop, Node, Quotient};
use super::items::{items, Item};
use super::rewrite::merge_adjacent_guards;
use super::separate::{negations, separate, tightened};
use super::ScanError;
use crate::poly::{checked_add, checked_mul, gcd_of, BasicSet, Constraint, ConstraintKind, Space};
use crate::scop::schedule::Mark;
use crate::scop::{Schedule, Scop};

mod solve;

/// The loop AST that visits the statement instances of `scop` in the order
/// of `schedule`.
pub fn scan(scop: &Scop, schedule: &Schedule) -> Result<Vec<Node>, ScanError> {
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
    };
    let all: Vec<usize> = (0..scanner.items.len()).collect();
    let mut vals = Vec::new();
    let nodes = scanner.level(&all, 0, &ctx, &mut vals)?;
    Ok(merge_adjacent_guards(nodes))
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
}

fn unsupported(s: impl Into<String>) -> ScanError {
    ScanError::Unsupported(s.into())
}

/// How many non-zero coefficients `row` has: the simpler of two equal
/// rows is the one with fewer terms.
fn term_count(row: &Constraint) -> usize {
    row.coeffs.iter().filter(|&&v| v != 0).count()
}

/// `a⁻¹ mod g` for `0 < a < g`, when `gcd(a, g) = 1`.
fn inverse_modulo(a: i64, g: i64) -> Option<i64> {
    // Extended Euclid on (g, a): invariant r_k ≡ s_k · a (mod g).
    let (mut r0, mut r1) = (i128::from(g), i128::from(a));
    let (mut s0, mut s1) = (0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    if r0 != 1 {
        return None;
    }
    i64::try_from(s0.rem_euclid(i128::from(g))).ok()
}

/// `date_coeff · date ≡ coeffs · [params | dates] + constant (mod
/// modulus)`: what an equation over existentials says of one date.
struct Congruence {
    modulus: i64,
    date_coeff: i64,
    coeffs: Vec<i64>,
    constant: i64,
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
        Ok(inside.is_subset(&exact)?)
    }

    /// The rational projection of `item` on dates `0..=d`, in the context's
    /// space (later dates unconstrained).
    fn project(&self, item: &Item, d: usize) -> Result<BasicSet, ScanError> {
        let total = self.total(item);
        let (p, _) = item.set.project_out_rational(d + 1, total - d - 1)?;
        let mut out = BasicSet::universe(self.space.clone());
        for c in p.constraints() {
            out.add(c.clone());
        }
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
        let mut equalities = Vec::new();
        for c in on_d.intersect(ctx)?.detect_equalities()?.constraints() {
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
            let v = self.constant_date(&self.items[i], d)?;
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

    /// The value of β date `d` of `item` (a constant, or an error).
    fn constant_date(&self, item: &Item, d: usize) -> Result<i64, ScanError> {
        let col = self.np + d;
        let p = self.project(item, d)?;
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
            let p = self.project(&self.items[i], d)?;
            if p.intersect(ctx)?.is_empty()? {
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
        if !on_d.iter().all(|g| same(g, &on_d[0])) {
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

    /// One loop (or one substitution) at α date `d` shared by the items
    /// `kept`, whose projections on the dates so far are `rows` under
    /// `ctx`: the rows on the date are its bounds, the others guards
    /// around it.
    fn shared_loop(
        &self,
        kept: &[usize],
        d: usize,
        ctx: &BasicSet,
        rows: &[Constraint],
        vals: &mut Vec<Val>,
    ) -> Result<Vec<Node>, ScanError> {
        let col = self.np + d;
        let (name, sign, declare) = self.loop_name(kept, d, vals);
        let (on_d, outer): (Vec<&Constraint>, Vec<&Constraint>) =
            rows.iter().partition(|c| c.coeffs[col] != 0);
        // An equation with a unit coefficient: substitute, no loop.
        let unit_eq = match on_d
            .iter()
            .find(|c| c.kind == ConstraintKind::Eq && c.coeffs[col].abs() == 1)
        {
            Some(first) => Some(
                self.simplest_unit_equation(rows, col, ctx)?
                    .unwrap_or((*first).clone()),
            ),
            None => None,
        };
        let mut guards: Vec<Constraint> = Vec::new();
        if let Some(eq) = &unit_eq {
            // No loop enforces anything here: every outer row is a
            // guard, and so is every other row on the date, with the
            // date substituted (a = ±1: r - r[col]·a·eq).
            guards.extend(outer.iter().map(|c| (*c).clone()));
            for r in &on_d {
                if *r == eq {
                    continue;
                }
                let g = combine(1, r, checked_mul(r.coeffs[col], eq.coeffs[col])?, eq)?;
                // A row that the substitution makes hold under `ctx` (`0 ==
                // 0`, or the same guard as an enclosing one) is no guard.
                let mut implied = true;
                for neg in negations(&g)? {
                    let mut probe = ctx.clone();
                    probe.add(neg);
                    if !probe.is_empty()? {
                        implied = false;
                        break;
                    }
                }
                if !implied {
                    guards.push(g);
                }
            }
        } else {
            // A guard that the loops further in enforce by being empty
            // is left out (and not assumed in simplifying their bounds).
            for r in outer {
                if !self.enforced_below(r, kept, d, ctx)? {
                    guards.push(r.clone());
                }
            }
        }
        let conds = guards
            .iter()
            .map(|c| self.cond(c, vals))
            .collect::<Result<Vec<_>, _>>()?;
        let mut inner = ctx.clone();
        for c in guards.iter().chain(on_d.iter().copied()) {
            inner.add(c.clone());
        }
        let body = if let Some(eq) = &unit_eq {
            let a = eq.coeffs[col];
            // a = ±1: date = -a · (rest + k).
            let mut coeffs = eq
                .coeffs
                .iter()
                .map(|v| checked_mul(*v, -a))
                .collect::<Result<Vec<i64>, _>>()?;
            coeffs[col] = 0;
            let val = Val::Subst(coeffs, checked_mul(eq.constant, -a)?);
            self.inside(val, kept, d, &inner, vals)?
        } else {
            let stride = self.stride(kept, d, vals)?;
            // The loop only visits the dates of its stride: say so in
            // the context of everything inside it.
            let shared = match stride {
                Some(_) => self.item_stride(&self.items[kept[0]], d)?,
                None => None,
            };
            if let Some((g, coeffs, c)) = shared {
                let e = inner.add_local();
                let mut row = vec![0; inner.n_cols()];
                for (k, v) in coeffs.iter().enumerate() {
                    row[k] = v.checked_neg().ok_or(crate::poly::PolyError::Overflow)?;
                }
                row[col] = 1;
                row[e] = -g;
                inner.add(Constraint::eq(
                    row,
                    c.checked_neg().ok_or(crate::poly::PolyError::Overflow)?,
                ));
            }
            let (name, sign, declare) = if stride.is_some() && sign < 0 {
                self.fresh_name(kept, d, vals)
            } else {
                (name, sign, declare)
            };
            let (lower, upper) = self.bounds(&on_d, d, sign, vals)?;
            // Equal constant bounds: one iteration, no loop.
            if let (None, Some(lo), Some(up)) = (&stride, constant_of(&lower), constant_of(&upper))
            {
                if lo == up {
                    let val = Val::Const(checked_mul(sign, lo)?);
                    let body = self.inside(val, kept, d, &inner, vals)?;
                    return Ok(match (body.is_empty(), conds.is_empty()) {
                        (true, _) => Vec::new(),
                        (false, true) => body,
                        (false, false) => vec![Node::If { conds, body }],
                    });
                }
            }
            let (lower, stride) = match stride {
                Some((g, offset)) => (
                    Expr::StrideStart {
                        lower: Box::new(lower),
                        offset,
                        stride: g,
                    },
                    g,
                ),
                None => (lower, 1),
            };
            let head = Loop {
                var: name,
                declare,
                down: sign < 0,
                lower,
                upper,
                stride,
                marks: self.items[kept[0]].marks[d].clone(),
                body: Vec::new(),
            };
            self.filled(head, kept, d, &inner, vals)?
        };
        if body.is_empty() {
            return Ok(Vec::new());
        }
        if conds.is_empty() {
            return Ok(body);
        }
        Ok(vec![Node::If { conds, body }])
    }

    /// One loop over the union of the ranges of the items `kept` (their
    /// projections `gists`) at α date `d`; each item's own constraints
    /// become guards further in.
    fn merged_loop(
        &self,
        kept: &[usize],
        gists: &[Vec<Constraint>],
        d: usize,
        ctx: &BasicSet,
        vals: &mut Vec<Val>,
    ) -> Result<Vec<Node>, ScanError> {
        let col = self.np + d;
        let (name, sign, declare) = self.loop_name(kept, d, vals);
        // A strided item runs in this unit-step loop under a congruence
        // guard at its leaf.
        // What holds on every item still holds inside the loop.
        let mut inner = ctx.clone();
        let mut candidates: Vec<&Constraint> = Vec::new();
        for g in gists {
            for r in g {
                if !candidates.contains(&r) {
                    candidates.push(r);
                }
            }
        }
        let mut hull = BasicSet::universe(self.space.clone());
        for r in candidates {
            // A row without the date is not enforced by this loop: assumed
            // inside it, it would never be checked (the items keep it as a
            // guard further in instead).
            if r.coeffs[col] != 0 && self.holds_on_all(r, kept, d, ctx)? {
                inner.add(r.clone());
                hull.add(r.clone());
            }
        }
        // Bounds: those of the rows that hold on every item when they bound
        // the date both ways (a loop that may run a few empty iterations,
        // guarded further in), else the min of the lower and the max of the
        // upper bounds of the items, each with those rows too: the rows
        // are assumed inside the loop, so the loop must enforce them (an
        // item's own bound may pass them where its outer guards fail).
        let hull = hull.gist(ctx)?;
        let hull_d: Vec<&Constraint> = hull
            .constraints()
            .iter()
            .filter(|c| c.coeffs[col] != 0)
            .collect();
        let two_sided = hull_d
            .iter()
            .any(|c| c.coeffs[col] > 0 || c.kind == ConstraintKind::Eq)
            && hull_d
                .iter()
                .any(|c| c.coeffs[col] < 0 || c.kind == ConstraintKind::Eq);
        let (lower, upper) = if two_sided {
            self.bounds(&hull_d, d, sign, vals)?
        } else {
            let mut lowers = Vec::new();
            let mut uppers = Vec::new();
            for g in gists {
                let on_d: Vec<&Constraint> = g.iter().filter(|c| c.coeffs[col] != 0).collect();
                let (l, u) = self.bounds(&on_d, d, sign, vals)?;
                lowers.push(l);
                uppers.push(u);
            }
            let (mut hull_lowers, mut hull_uppers) = self.bound_lists(&hull_d, d, sign, vals)?;
            hull_lowers.push(Expr::Min(lowers));
            hull_uppers.push(Expr::Max(uppers));
            (
                simplify(Expr::Max(hull_lowers)),
                simplify(Expr::Min(hull_uppers)),
            )
        };
        let head = Loop {
            var: name,
            declare,
            down: sign < 0,
            lower,
            upper,
            stride: 1,
            marks: self.items[kept[0]].marks[d].clone(),
            body: Vec::new(),
        };
        self.filled(head, kept, d, &inner, vals)
    }

    /// `head` (a loop at date `d` with no body yet) around the scan of the
    /// dates inside it; nothing when no statement runs there.
    fn filled(
        &self,
        mut head: Loop,
        kept: &[usize],
        d: usize,
        inner: &BasicSet,
        vals: &mut Vec<Val>,
    ) -> Result<Vec<Node>, ScanError> {
        let var = Val::Var {
            name: head.var.clone(),
            sign: if head.down { -1 } else { 1 },
        };
        head.body = self.inside(var, kept, d, inner, vals)?;
        Ok(if head.body.is_empty() {
            Vec::new()
        } else {
            vec![Node::For(Box::new(head))]
        })
    }

    /// Whether row `r` (over parameters and dates before `d`) follows,
    /// under `ctx`, from the rows of every item that mention date `d` or
    /// a later dimension: then the loops that scan those dimensions are
    /// empty wherever `r` fails, and `r` needs no guard.
    fn enforced_below(
        &self,
        r: &Constraint,
        kept: &[usize],
        d: usize,
        ctx: &BasicSet,
    ) -> Result<bool, ScanError> {
        for &i in kept {
            let item = &self.items[i];
            let below: Vec<Constraint> = item
                .set
                .constraints()
                .iter()
                .filter(|c| c.coeffs[self.np + d..].iter().any(|&v| v != 0))
                .cloned()
                .collect();
            let set = BasicSet::from_parts(item.set.space().clone(), 0, below);
            let total = self.total(item);
            let (q, _) = set.project_out_rational(d, total - d)?;
            let mut probe = ctx.clone();
            for c in q.constraints() {
                probe.add(c.clone());
            }
            for neg in negations(r)? {
                let mut p = probe.clone();
                p.add(neg);
                if !p.is_empty()? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Whether row `r` holds on the projection of every item in `kept`.
    fn holds_on_all(
        &self,
        r: &Constraint,
        kept: &[usize],
        d: usize,
        ctx: &BasicSet,
    ) -> Result<bool, ScanError> {
        let negations = negations(r)?;
        for &i in kept {
            let p = self.project(&self.items[i], d)?.intersect(ctx)?;
            for neg in &negations {
                let mut probe = p.clone();
                probe.add(neg.clone());
                if !probe.is_empty()? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// The loop variable of date `d`: the iterator that every item's date
    /// equals (with its sign), unless an enclosing loop already uses that
    /// name; else a fresh `cK`.
    fn loop_name(&self, kept: &[usize], d: usize, vals: &[Val]) -> (String, i64, bool) {
        let names: Vec<Option<(String, i64)>> = kept
            .iter()
            .map(|&i| {
                let it = &self.items[i];
                it.alias[d].and_then(|(k, s)| {
                    self.scop.statements[it.statement]
                        .iterators
                        .get(k)
                        .map(|n| (n.clone(), s))
                })
            })
            .collect();
        if let Some(Some((name, sign))) = names.first() {
            let agree = names
                .iter()
                .all(|x| x.as_ref() == Some(&(name.clone(), *sign)));
            let used = vals
                .iter()
                .any(|v| matches!(v, Val::Var { name: n, .. } if n == name));
            if agree && !used {
                return (name.clone(), *sign, !self.outer_declared.contains(name));
            }
        }
        self.fresh_name(kept, d, vals)
    }

    /// A name for a loop that no iterator names: an iterator of the loop's
    /// statements that the file declares, no enclosing loop uses and no
    /// loop further in will be named after (so the declaration stays
    /// used); else a fresh `cK`.
    fn fresh_name(&self, kept: &[usize], d: usize, vals: &[Val]) -> (String, i64, bool) {
        let in_use = |n: &str| {
            vals.iter()
                .any(|v| matches!(v, Val::Var { name, .. } if name == n))
        };
        for &i in kept {
            let st = &self.scop.statements[self.items[i].statement];
            for (k, it) in st.iterators.iter().enumerate() {
                let wanted_later = kept.iter().any(|&j| {
                    let other = &self.items[j];
                    self.scop.statements[other.statement].iterators.get(k) == Some(it)
                        && other.alias[d + 1..]
                            .iter()
                            .any(|a| a.is_some_and(|(x, _)| x == k))
                });
                if self.outer_declared.contains(it) && !in_use(it) && !wanted_later {
                    return (it.clone(), 1, false);
                }
            }
        }
        let mut name = format!("c{}", d.div_ceil(2));
        while self.taken.contains(&name)
            || vals
                .iter()
                .any(|v| matches!(v, Val::Var { name: n, .. } if *n == name))
        {
            name.push('_');
        }
        (name, 1, true)
    }

    /// The stride of date `d` that the equations of the items impose, with
    /// its offset, when every item has the same one; `None` (a unit-step
    /// loop) otherwise: a strided item then gets a congruence guard at its
    /// leaf ([`Self::leaves`]).
    fn stride(
        &self,
        kept: &[usize],
        d: usize,
        vals: &[Val],
    ) -> Result<Option<(i64, Aff)>, ScanError> {
        // A jammed loop steps through every date: `unroll_jam` proved
        // groups of consecutive dates legal (apply::marks::unroll_jam).
        if kept.iter().any(|&i| {
            self.items[i].marks[d]
                .iter()
                .any(|m| matches!(m, Mark::UnrollJam(_)))
        }) {
            return Ok(None);
        }
        let mut found: Option<(i64, Vec<i64>, i64)> = None;
        for (k, &i) in kept.iter().enumerate() {
            let s = self.item_stride(&self.items[i], d)?;
            if k == 0 {
                found = s;
            } else if s != found {
                return Ok(None);
            }
        }
        match found {
            None => Ok(None),
            Some((g, coeffs, c)) => Ok(Some((g, self.resolve(&coeffs, c, vals)?))),
        }
    }

    /// `Some((g, offset))`: an equation of `item` makes date `d` congruent
    /// to `offset` (over parameters and earlier dates) modulo `g > 1`, a
    /// stride a loop can step by. `None` also when the congruence has a
    /// date coefficient not invertible modulo `g` (`2·t ≡ f (mod 4)`):
    /// that one is only a guard ([`Self::item_congruence`]).
    fn item_stride(
        &self,
        item: &Item,
        d: usize,
    ) -> Result<Option<(i64, Vec<i64>, i64)>, ScanError> {
        Ok(self
            .item_congruence(item, d)?
            .filter(|c| c.date_coeff == 1)
            .map(|c| (c.modulus, c.coeffs, c.constant)))
    }

    /// The congruence an equation of `item` imposes on date `d`, if any:
    /// `a·t + f + Σ b·x = 0` with `g = gcd(b) > 1` over the existentials
    /// `x` gives `a·t ≡ -f (mod g)`, and, when `a` is invertible modulo
    /// `g`, `t ≡ -a⁻¹·f (mod g)` (then `date_coeff` is 1).
    fn item_congruence(&self, item: &Item, d: usize) -> Result<Option<Congruence>, ScanError> {
        let (p, _) = item.set.project_out_rational(d + 1, self.n - d - 1)?;
        let col = self.np + d;
        let rest = col + 1;
        let mut rows: Vec<Constraint> = p.constraints().to_vec();
        // Substitute away the later columns that a unit equation defines.
        while let Some((r, c)) = rows.iter().enumerate().find_map(|(r, row)| {
            (row.kind == ConstraintKind::Eq)
                .then(|| (rest..row.coeffs.len()).find(|&c| row.coeffs[c].abs() == 1))
                .flatten()
                .map(|c| (r, c))
        }) {
            let eq = rows.remove(r);
            let u = eq.coeffs[c];
            let mut next = Vec::with_capacity(rows.len());
            for row in rows {
                let b = row.coeffs[c];
                next.push(if b == 0 {
                    row
                } else {
                    combine(1, &row, checked_mul(b, u)?, &eq)?
                });
            }
            rows = next;
        }
        for row in &rows {
            if row.kind != ConstraintKind::Eq {
                continue;
            }
            let g = gcd_of(row.coeffs[rest..].iter().copied()).unwrap_or(1);
            let a = row.coeffs[col].rem_euclid(g.max(1));
            if g <= 1 || a == 0 {
                continue;
            }
            // a·t ≡ -f (mod g); times a⁻¹ when there is one. Every
            // coefficient is reduced modulo g, so none can overflow.
            let (scale, date_coeff) = match inverse_modulo(a, g) {
                Some(inv) => (-inv, 1),
                None => (-1, a),
            };
            let reduce = |v: i64| -> i64 {
                let m = i128::from(scale) * i128::from(v);
                // |m mod g| < g, which is an i64.
                i64::try_from(m.rem_euclid(i128::from(g))).unwrap_or(0)
            };
            let mut coeffs = vec![0; self.np + self.n];
            for (k, v) in row.coeffs[..col].iter().enumerate() {
                coeffs[k] = reduce(*v);
            }
            return Ok(Some(Congruence {
                modulus: g,
                date_coeff,
                coeffs,
                constant: reduce(row.constant),
            }));
        }
        Ok(None)
    }

    /// Lower and upper bounds of the loop variable (`sign · date`).
    fn bounds(
        &self,
        rows: &[&Constraint],
        d: usize,
        sign: i64,
        vals: &[Val],
    ) -> Result<(Expr, Expr), ScanError> {
        let (lo, up) = self.bound_lists(rows, d, sign, vals)?;
        if lo.is_empty() || up.is_empty() {
            return Err(unsupported(format!("date {d} is unbounded")));
        }
        Ok((simplify(Expr::Max(lo)), simplify(Expr::Min(up))))
    }

    /// The lower bounds (their max is the bound) and the upper bounds
    /// (their min) that `rows` give the loop variable (`sign · date`).
    fn bound_lists(
        &self,
        rows: &[&Constraint],
        d: usize,
        sign: i64,
        vals: &[Val],
    ) -> Result<(Vec<Expr>, Vec<Expr>), ScanError> {
        let col = self.np + d;
        let mut lo = Vec::new();
        let mut up = Vec::new();
        for c in rows {
            let a = c.coeffs[col];
            let mut rest = c.coeffs.clone();
            rest[col] = 0;
            let neg: Vec<i64> = rest
                .iter()
                .map(|v| checked_mul(*v, -1))
                .collect::<Result<_, _>>()?;
            let neg_constant = checked_mul(c.constant, -1)?;
            // a·t + rest + k >= 0.
            let (lower, upper) = match (c.kind, a > 0) {
                (ConstraintKind::Ineq, true) => {
                    (Some((self.resolve(&neg, neg_constant, vals)?, a)), None)
                }
                (ConstraintKind::Ineq, false) => (
                    None,
                    Some((self.resolve(&rest, c.constant, vals)?, checked_mul(a, -1)?)),
                ),
                (ConstraintKind::Eq, true) => {
                    let e = self.resolve(&neg, neg_constant, vals)?;
                    (Some((e.clone(), a)), Some((e, a)))
                }
                (ConstraintKind::Eq, false) => {
                    let e = self.resolve(&rest, c.constant, vals)?;
                    let q = checked_mul(a, -1)?;
                    (Some((e.clone(), q)), Some((e, q)))
                }
            };
            // For a variable v = -t: t >= ceil(l/q) gives v <= floor(-l/q).
            if let Some((e, q)) = lower {
                if sign > 0 {
                    lo.push(Expr::Ceil(e, q));
                } else {
                    up.push(Expr::Floor(negate(&e)?, q));
                }
            }
            if let Some((e, q)) = upper {
                if sign > 0 {
                    up.push(Expr::Floor(e, q));
                } else {
                    lo.push(Expr::Ceil(negate(&e)?, q));
                }
            }
        }
        Ok((lo, up))
    }

    /// A row (`aff >= 0` or `= 0`) as a guard.
    /// Divided by the gcd of its coefficients (over the integers:
    /// `2n - 3 >= 0` is `n - 2 >= 0`).
    fn cond(&self, c: &Constraint, vals: &[Val]) -> Result<Cond, ScanError> {
        let mut aff = self.resolve(&c.coeffs, c.constant, vals)?;
        let eq = c.kind == ConstraintKind::Eq;
        // 2^63 does not fit: 1 then (no division) is always sound.
        let g = gcd_of(aff.terms.iter().map(|t| t.0)).unwrap_or(1);
        if g > 1 && (!eq || aff.constant % g == 0) {
            for t in &mut aff.terms {
                t.0 /= g;
            }
            aff.constant = aff.constant.div_euclid(g);
        }
        Ok(Cond {
            aff,
            eq,
            modulo: None,
            floors: Vec::new(),
        })
    }

    /// `coeffs · [params | dates] + constant` in loop variables and
    /// parameters.
    fn resolve(&self, coeffs: &[i64], constant: i64, vals: &[Val]) -> Result<Aff, ScanError> {
        if coeffs.iter().skip(self.np + self.n).any(|&v| v != 0) {
            return Err(unsupported("a bound or guard on an existential variable"));
        }
        let mut aff = Aff {
            terms: Vec::new(),
            constant,
        };
        for t in 0..self.n {
            let c = coeffs.get(self.np + t).copied().unwrap_or(0);
            if c == 0 {
                continue;
            }
            match vals.get(t) {
                Some(Val::Const(k)) => {
                    aff.constant = checked_add(aff.constant, checked_mul(c, *k)?)?
                }
                Some(Val::Var { name, sign }) => add_term(&mut aff, checked_mul(c, *sign)?, name)?,
                Some(Val::Subst(sc, sk)) => {
                    let inner = self.resolve(sc, *sk, &vals[..t])?;
                    for (v, name) in &inner.terms {
                        add_term(&mut aff, checked_mul(c, *v)?, name)?;
                    }
                    aff.constant = checked_add(aff.constant, checked_mul(c, inner.constant)?)?;
                }
                None => return Err(unsupported(format!("date {t} used before it is scanned"))),
            }
        }
        for (p, name) in self.scop.params.iter().enumerate() {
            let c = coeffs.get(p).copied().unwrap_or(0);
            if c != 0 {
                add_term(&mut aff, c, name)?;
            }
        }
        Ok(aff)
    }

    fn leaves(&self, live: &[usize], ctx: &BasicSet, vals: &[Val]) -> Result<Vec<Node>, ScanError> {
        let mut out = Vec::new();
        for &i in live {
            let item = &self.items[i];
            let total = self.total(item);
            let guard = self.project(item, self.n - 1)?;
            if guard.intersect(ctx)?.is_empty()? {
                continue;
            }
            // The guard is a rational projection: where it is not exact
            // over the integers it may admit dates with no instance, and
            // the statement would run where it must not. Unless the
            // enclosing loops (their strides) already exclude those dates,
            // refuse.
            let (_, exact) = item.set.project_out_rational(self.n, total - self.n)?;
            let mut congruences = Vec::new();
            if !exact && !self.guard_is_exact(item, &guard, ctx)? {
                congruences = self.congruences(item, &guard, ctx, vals)?;
            }
            let mut conds = guard
                .gist(ctx)?
                .constraints()
                .iter()
                .map(|c| self.cond(c, vals))
                .collect::<Result<Vec<_>, _>>()?;
            conds.extend(congruences);
            let iterators = self
                .iterator_solutions(item)?
                .into_iter()
                .map(|s| {
                    Ok(Quotient {
                        aff: self.resolve(&s.coeffs, s.constant, vals)?,
                        floors: s
                            .floors
                            .iter()
                            .map(|(c, f)| {
                                Ok((*c, self.resolve(&f.coeffs, f.constant, vals)?, f.div))
                            })
                            .collect::<Result<_, ScanError>>()?,
                        divisor: s.a,
                    })
                })
                .collect::<Result<Vec<_>, ScanError>>()?;
            let node = Node::Stmt {
                statement: item.statement,
                iterators,
            };
            if conds.is_empty() {
                out.push(node);
            } else {
                out.push(Node::If {
                    conds,
                    body: vec![node],
                });
            }
        }
        Ok(out)
    }
}

impl Scanner<'_> {
    /// The congruence guards (`date ≡ offset (mod g)`) that make the
    /// rational guard of `item` exact under `ctx`: one per α date whose
    /// stride the enclosing loop does not step by (a strided statement
    /// sharing a unit-step loop), added until the guard is exact. An
    /// error when even all of them do not make it exact.
    fn congruences(
        &self,
        item: &Item,
        guard: &BasicSet,
        ctx: &BasicSet,
        vals: &[Val],
    ) -> Result<Vec<Cond>, ScanError> {
        let mut conds = Vec::new();
        let mut narrowed = ctx.clone();
        for d in (1..self.n).step_by(2) {
            let Some(Congruence {
                modulus: g,
                date_coeff,
                coeffs,
                constant: c,
            }) = self.item_congruence(item, d)?
            else {
                continue;
            };
            // a·date_d - coeffs · [params | dates] - c ≡ 0 (mod g).
            let mut row = vec![0; self.np + self.n];
            for (k, v) in coeffs.iter().enumerate().take(row.len()) {
                row[k] = v.checked_neg().ok_or(crate::poly::PolyError::Overflow)?;
            }
            let col = self.np + d;
            row[col] = checked_add(row[col], date_coeff)?;
            let constant = c.checked_neg().ok_or(crate::poly::PolyError::Overflow)?;
            let mut aff = self.resolve(&row, constant, vals)?;
            aff.constant = aff.constant.rem_euclid(g);
            conds.push(Cond {
                aff,
                eq: true,
                modulo: Some(g),
                floors: Vec::new(),
            });
            let e = narrowed.add_local();
            let mut with_local = vec![0; narrowed.n_cols()];
            with_local[..row.len()].copy_from_slice(&row);
            with_local[e] = -g;
            narrowed.add(Constraint::eq(with_local, constant));
            if self.guard_is_exact(item, guard, &narrowed)? {
                return Ok(conds);
            }
        }
        if let Some(conds) = self.division_guards(item, vals)? {
            return Ok(conds);
        }
        Err(unsupported(format!(
            "the dates of {} do not determine its instances exactly (an exact guard is not generated yet)",
            self.scop.statements[item.statement].name
        )))
    }
}

fn add_term(aff: &mut Aff, c: i64, name: &str) -> Result<(), ScanError> {
    if let Some(t) = aff.terms.iter_mut().find(|t| t.1 == name) {
        t.0 = checked_add(t.0, c)?;
    } else {
        aff.terms.push((c, name.to_string()));
    }
    aff.terms.retain(|t| t.0 != 0);
    Ok(())
}

fn negate(a: &Aff) -> Result<Aff, ScanError> {
    Ok(Aff {
        terms: a
            .terms
            .iter()
            .map(|(c, n)| checked_mul(*c, -1).map(|c| (c, n.clone())))
            .collect::<Result<_, _>>()?,
        constant: checked_mul(a.constant, -1)?,
    })
}

/// Exact divisions folded, constants folded, duplicates dropped,
/// single-element `max`/`min` unwrapped.
fn simplify(e: Expr) -> Expr {
    match e {
        Expr::Ceil(a, q) | Expr::Floor(a, q) if q > 1 && divides(&a, q) => Expr::Ceil(
            Aff {
                terms: a.terms.iter().map(|(c, n)| (c / q, n.clone())).collect(),
                constant: a.constant / q,
            },
            1,
        ),
        Expr::Max(v) => fold(v, true),
        Expr::Min(v) => fold(v, false),
        e => e,
    }
}

/// `max` (or `min`) of `v`, simplified.
fn fold(v: Vec<Expr>, max: bool) -> Expr {
    let mut out: Vec<Expr> = Vec::new();
    let mut best: Option<i64> = None;
    for e in v.into_iter().map(simplify) {
        let flat = match e {
            Expr::Max(w) if max => w,
            Expr::Min(w) if !max => w,
            e => vec![e],
        };
        for e in flat {
            if let Some(k) = constant_of(&e) {
                best = Some(match best {
                    Some(b) if max => b.max(k),
                    Some(b) => b.min(k),
                    None => k,
                });
            } else if let Some(pos) = out.iter().position(|o| same_terms(o, &e)) {
                // Same terms, different constants: keep the larger (smaller).
                let (ko, ke) = (unit_constant(&out[pos]), unit_constant(&e));
                if (max && ke > ko) || (!max && ke < ko) {
                    out[pos] = e;
                }
            } else if !out.contains(&e) {
                out.push(e);
            }
        }
    }
    if let Some(k) = best {
        out.push(Expr::Ceil(
            Aff {
                terms: Vec::new(),
                constant: k,
            },
            1,
        ));
    }
    // min(a, max(a, b)) = a and max(a, min(a, b)) = a.
    let all = out.clone();
    out.retain(|e| match e {
        Expr::Max(w) if !max => !w.iter().any(|x| all.iter().any(|a| same_value(a, x))),
        Expr::Min(w) if max => !w.iter().any(|x| all.iter().any(|a| same_value(a, x))),
        _ => true,
    });
    if out.len() == 1 {
        return out.into_iter().next().unwrap_or(Expr::Max(Vec::new()));
    }
    if max {
        Expr::Max(out)
    } else {
        Expr::Min(out)
    }
}

/// Whether both are the same expression (an `aff` rounded up or down by 1
/// is the `aff`).
fn same_value(a: &Expr, b: &Expr) -> bool {
    match (a, b) {
        (Expr::Ceil(x, 1) | Expr::Floor(x, 1), Expr::Ceil(y, 1) | Expr::Floor(y, 1)) => x == y,
        _ => a == b,
    }
}

/// Whether both are `aff` (no division) with the same non-constant terms.
fn same_terms(a: &Expr, b: &Expr) -> bool {
    match (a, b) {
        (Expr::Ceil(x, 1) | Expr::Floor(x, 1), Expr::Ceil(y, 1) | Expr::Floor(y, 1)) => {
            !x.terms.is_empty() && x.terms == y.terms
        }
        _ => false,
    }
}

fn unit_constant(e: &Expr) -> i64 {
    match e {
        Expr::Ceil(a, _) | Expr::Floor(a, _) => a.constant,
        _ => 0,
    }
}

/// The value of a constant expression.
fn constant_of(e: &Expr) -> Option<i64> {
    match e {
        Expr::Ceil(a, q) if a.is_constant() => {
            Some(a.constant.div_euclid(*q) + i64::from(a.constant.rem_euclid(*q) != 0))
        }
        Expr::Floor(a, q) if a.is_constant() => Some(a.constant.div_euclid(*q)),
        _ => None,
    }
}

fn divides(a: &Aff, q: i64) -> bool {
    a.constant % q == 0 && a.terms.iter().all(|(c, _)| c % q == 0)
}

#[cfg(test)]
mod tests {
    use super::{inverse_modulo, simplify, Aff, Expr};

    fn aff(terms: &[(i64, &str)], constant: i64) -> Expr {
        Expr::Floor(
            Aff {
                terms: terms.iter().map(|(c, n)| (*c, n.to_string())).collect(),
                constant,
            },
            1,
        )
    }

    #[test]
    fn min_absorbs_a_max_that_contains_one_of_its_terms() {
        let n1 = aff(&[(1, "n")], -1);
        let i4 = aff(&[(1, "i")], 4);
        // min(n - 1, max(i + 4, n - 1)) = n - 1; the Ceil and the Floor of
        // an aff by 1 are the same value.
        let inner = Expr::Max(vec![i4.clone(), n1.clone()]);
        let ceil_n1 = match &n1 {
            Expr::Floor(a, 1) => Expr::Ceil(a.clone(), 1),
            e => e.clone(),
        };
        assert_eq!(simplify(Expr::Min(vec![ceil_n1.clone(), inner])), ceil_n1);
        // max(i + 4, min(n - 1, i + 4)) = i + 4.
        let inner = Expr::Min(vec![n1.clone(), i4.clone()]);
        assert_eq!(simplify(Expr::Max(vec![i4.clone(), inner])), i4);
        // Nothing shared: nothing absorbed.
        let inner = Expr::Max(vec![i4.clone(), aff(&[], 0)]);
        let kept = simplify(Expr::Min(vec![n1.clone(), inner]));
        assert!(matches!(&kept, Expr::Min(v) if v.len() == 2), "{kept:?}");
    }

    #[test]
    fn inverse_modulo_agrees_with_search() {
        for g in 2..40i64 {
            for a in 1..g {
                let by_search = (1..g).find(|x| a * x % g == 1);
                assert_eq!(inverse_modulo(a, g), by_search, "{a} mod {g}");
            }
        }
    }
}
