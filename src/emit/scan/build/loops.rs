//! Loop decisions at one α date: one loop shared by items whose bounds
//! agree (or one substitution, when an equation fixes the date), or,
//! when the ranges cannot be separated, one loop over their union whose
//! items keep their own bounds as guards further in; and the bounds as
//! `max`/`min` lists over the items.
//!
//! A loop mapped to CUDA blocks or threads stays one loop: never
//! substituted, nor separated into pieces (CUDA maps a loop, and its
//! pieces would leave the loops inside them without one around).

use super::simplify::{constant_of, simplify};
use super::{combine, unsupported, Scanner, Val};
use crate::emit::scan::ast::{Expr, Loop, Node, Sum};
use crate::emit::scan::separate::negations;
use crate::emit::scan::{proven_empty, ScanError};
use crate::poly::{checked_mul, BasicSet, Constraint, ConstraintKind, PolyError};
use crate::scop::Mark;

impl Scanner<'_> {
    /// One loop (or one substitution) at α date `d` shared by the items
    /// `kept`, whose projections on the dates so far are `rows` under
    /// `ctx`: the rows on the date are its bounds, the others guards
    /// around it.
    pub(super) fn shared_loop(
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
        let mapped = self.mapped(kept, d);
        let unit_eq = match on_d
            .iter()
            .find(|c| c.kind == ConstraintKind::Eq && c.coeffs[col].abs() == 1)
        {
            Some(_) if mapped => None,
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
                    if !proven_empty(&probe)? {
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
                    c.checked_neg().ok_or(PolyError::Overflow)?,
                ));
            }
            let (name, sign, declare) = if stride.is_some() && sign < 0 {
                self.fresh_name(d, vals)
            } else {
                (name, sign, declare)
            };
            let (lower, upper) = self.bounds(&on_d, d, sign, vals)?;
            // Equal constant bounds: one iteration, no loop.
            if let (None, Some(lo), Some(up)) = (&stride, constant_of(&lower), constant_of(&upper))
            {
                if lo == up && !mapped {
                    let val = Val::Const(checked_mul(sign, lo)?);
                    let body = self.inside(val, kept, d, &inner, vals)?;
                    return Ok(match (body.is_empty(), conds.is_empty()) {
                        (true, _) => Vec::new(),
                        (false, true) => body,
                        (false, false) => vec![Node::If {
                            conds,
                            body,
                            otherwise: Vec::new(),
                        }],
                    });
                }
            }
            let once = stride.is_none() && self.runs_once(&on_d, col, ctx, &guards)?;
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
                once,
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
        Ok(vec![Node::If {
            conds,
            body,
            otherwise: Vec::new(),
        }])
    }

    /// One loop over the union of the ranges of the items `kept` (their
    /// projections `gists`) at α date `d`; each item's own constraints
    /// become guards further in.
    pub(super) fn merged_loop(
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
        // One value of the date wherever `ctx` holds (a piece of tile
        // edge that several statements share): an assignment, as for one
        // statement.
        let once = two_sided && self.runs_once(&hull_d, col, ctx, &[])?;
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
            once,
            body: Vec::new(),
        };
        self.filled(head, kept, d, &inner, vals)
    }

    /// `head` (a loop at date `d` with no body yet) around the scan of the
    /// dates inside it; nothing when no statement runs there.
    pub(super) fn filled(
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

    /// Whether the rows `on_d` leave exactly one value of date column
    /// `col` wherever `ctx` and `guards` hold. Exact: at most one, because
    /// a lower row `a·x + f >= 0` and an upper row `-b·x + g >= 0` add up
    /// (scaled, `b·f + a·g`) to a constant below `a·b`, an interval shorter
    /// than 1; at least one, because no point of the context has
    /// `ceil(-f / a) > g / b` for any such pair (an integer emptiness test
    /// per pair). Rows with locals are not used for the first part: a local
    /// may take several values.
    fn runs_once(
        &self,
        on_d: &[&Constraint],
        col: usize,
        ctx: &BasicSet,
        guards: &[Constraint],
    ) -> Result<bool, ScanError> {
        let nd = self.space.n_dim_total();
        // Each row as the side it bounds, in the form `c·x + e >= 0`: `c > 0`
        // for a lower bound, `c < 0` for an upper one; an equation is both.
        let mut lower_rows: Vec<Constraint> = Vec::new();
        let mut upper_rows: Vec<Constraint> = Vec::new();
        for r in on_d {
            let mut row = (*r).clone();
            row.kind = ConstraintKind::Ineq;
            let opposite = row.opposite()?;
            let (up, down) = if row.coeffs[col] > 0 {
                (opposite, row)
            } else {
                (row, opposite)
            };
            if r.kind == ConstraintKind::Eq || r.coeffs[col] > 0 {
                lower_rows.push(down);
            }
            if r.kind == ConstraintKind::Eq || r.coeffs[col] < 0 {
                upper_rows.push(up);
            }
        }
        let no_locals = |r: &Constraint| r.coeffs.iter().skip(nd).all(|&v| v == 0);
        let mut at_most_one = false;
        'pairs: for l in lower_rows.iter().filter(|r| no_locals(r)) {
            for u in upper_rows.iter().filter(|r| no_locals(r)) {
                let (a, minus_b) = (l.coeffs[col], u.coeffs[col]);
                let b = minus_b.checked_neg().ok_or(PolyError::Overflow)?;
                // `b·l + a·u`: `x` cancels.
                let width = combine(b, l, -a, u)?;
                if width.coeffs.iter().all(|&v| v == 0) && width.constant < checked_mul(a, b)? {
                    at_most_one = true;
                    break 'pairs;
                }
            }
        }
        if !at_most_one {
            return Ok(false);
        }
        // The context says nothing of the date yet (else the probes below,
        // which leave it free, would test too few points).
        if ctx
            .constraints()
            .iter()
            .any(|c| c.coeffs.get(col).is_some_and(|&v| v != 0))
        {
            return Ok(false);
        }
        let mut outer = ctx.clone();
        for g in guards {
            outer.add(g.clone());
        }
        for l in &lower_rows {
            for u in &upper_rows {
                // `q = ceil(-f / a)`, the least value `l` allows, past `u`.
                let mut probe = outer.clone();
                let q = probe.add_local();
                let n = probe.n_cols();
                if l.coeffs.len() > q || u.coeffs.len() > q {
                    return Ok(false);
                }
                let moved = |r: &Constraint, scale: i64| -> Result<Vec<i64>, ScanError> {
                    let mut row = vec![0; n];
                    for (k, v) in r.coeffs.iter().enumerate() {
                        row[k] = checked_mul(*v, scale)?;
                    }
                    row[q] = row[col];
                    row[col] = 0;
                    Ok(row)
                };
                let a = l.coeffs[col];
                probe.add(Constraint::ineq(moved(l, 1)?, l.constant));
                let below = l.constant.checked_neg().and_then(|c| c.checked_add(a - 1));
                probe.add(Constraint::ineq(
                    moved(l, -1)?,
                    below.ok_or(PolyError::Overflow)?,
                ));
                let past = u.constant.checked_neg().and_then(|c| c.checked_sub(1));
                probe.add(Constraint::ineq(
                    moved(u, -1)?,
                    past.ok_or(PolyError::Overflow)?,
                ));
                if !proven_empty(&probe)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Whether row `r` (over parameters and dates before `d`) follows,
    /// under `ctx`, from the rows of every item that mention date `d` or
    /// a later dimension: then the loops that scan those dimensions are
    /// empty wherever `r` fails, and `r` needs no guard.
    pub(super) fn enforced_below(
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
                if !proven_empty(&p)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Whether row `r` holds on the projection of every item in `kept`.
    pub(super) fn holds_on_all(
        &self,
        r: &Constraint,
        kept: &[usize],
        d: usize,
        ctx: &BasicSet,
    ) -> Result<bool, ScanError> {
        let negations = negations(r)?;
        for &i in kept {
            let p = self.project(i, d)?.intersect(ctx)?;
            for neg in &negations {
                let mut probe = p.clone();
                probe.add(neg.clone());
                if !proven_empty(&probe)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Lower and upper bounds of the loop variable (`sign · date`).
    /// Whether the loop of the items `kept` at α date `d` is mapped to
    /// CUDA blocks or threads.
    pub(super) fn mapped(&self, kept: &[usize], d: usize) -> bool {
        kept.iter().any(|&i| {
            self.items[i].marks[d]
                .iter()
                .any(|m| matches!(m, Mark::GpuBlock(_) | Mark::GpuThread(_)))
        })
    }

    pub(super) fn bounds(
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
    pub(super) fn bound_lists(
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
}

pub(super) fn negate(a: &Sum) -> Result<Sum, ScanError> {
    Ok(Sum {
        terms: a
            .terms
            .iter()
            .map(|(c, n)| checked_mul(*c, -1).map(|c| (c, n.clone())))
            .collect::<Result<_, _>>()?,
        constant: checked_mul(a.constant, -1)?,
    })
}
