//! Unrolled loops: `k` copies per iteration (jammed into the innermost
//! loop where the nest allows it), then the remainder, both in OpenMP's
//! canonical form, with the remainder starting at a value computed from
//! the bounds. A loop of exactly `k` iterations is one group: the
//! variable set where it starts, then the copies.

use std::fmt::Write;

use super::{Printer, STEP};
use crate::emit::scan::rewrite::jammed;
use crate::emit::scan::{Expr, Loop, Node};

impl Printer<'_> {
    /// `v <= e`, written `v < e + 1` when that drops a `- 1`.
    pub(super) fn upper_cond(&self, v: &str, upper: &Expr) -> String {
        if let Expr::Ceil(a, 1) | Expr::Floor(a, 1) = upper {
            if a.constant < 0 && !a.terms.is_empty() {
                let mut b = a.clone();
                b.constant += 1;
                return format!("{v} < {}", self.aff(&b));
            }
        }
        format!("{v} <= {}", self.expr(upper))
    }

    /// `e + delta` as C (folded into an affine bound when it is one).
    pub(super) fn plus(&self, e: &Expr, delta: i64) -> String {
        if delta == 0 {
            return self.expr(e);
        }
        if let Expr::Ceil(a, 1) | Expr::Floor(a, 1) = e {
            if let Some(c) = a.constant.checked_add(delta) {
                let mut b = a.clone();
                b.constant = c;
                return self.aff(&b);
            }
        }
        match delta.checked_neg() {
            Some(m) if delta < 0 => format!("{} - {m}", self.expr(e)),
            _ => format!("{} + {delta}", self.expr(e)),
        }
    }

    /// The number of iterations of `l` (`>= 0`) as C: `max(0, (upper -
    /// lower) / stride + 1)`, folded when the bounds are affine.
    pub(super) fn trip_count(&self, l: &Loop) -> String {
        let affine = |e: &Expr| match e {
            Expr::Ceil(a, 1) | Expr::Floor(a, 1) => Some(a.clone()),
            _ => None,
        };
        let span = match (affine(&l.upper), affine(&l.lower)) {
            (Some(u), Some(lo)) => u.minus(&lo).map(|d| (self.aff(&d), d)),
            _ => None,
        };
        let count = match (&span, l.stride) {
            (Some((_, d)), 1) if d.is_constant() => {
                return d
                    .constant
                    .checked_add(1)
                    .map_or_else(|| "0".to_string(), |c| c.max(0).to_string());
            }
            (Some((_, d)), 1) => {
                let mut d1 = d.clone();
                match d1.constant.checked_add(1) {
                    Some(c) => {
                        d1.constant = c;
                        self.aff(&d1)
                    }
                    None => format!("{} + 1", self.aff(d)),
                }
            }
            (Some((text, _)), s) => format!("polyc_floord({text}, {s}) + 1"),
            (None, 1) => format!("{} - ({}) + 1", self.expr(&l.upper), self.expr(&l.lower)),
            (None, s) => format!(
                "polyc_floord({} - ({}), {s}) + 1",
                self.expr(&l.upper),
                self.expr(&l.lower)
            ),
        };
        format!("polyc_max(0, {count})")
    }

    /// Make `v` stand for copy `j` of an unrolled loop of signed step
    /// `step`: itself plus `j·step` (plus `saved`, its offset outside).
    fn copy_offset(&mut self, v: &str, saved: Option<i64>, j: i64, step: i64) {
        let offset = self.checked(
            j.checked_mul(step)
                .and_then(|o| o.checked_add(saved.unwrap_or(0))),
        );
        self.offsets.insert(v.to_string(), offset);
    }

    /// The loop written out `k` times per iteration (with `jam`, the copies
    /// in its innermost loop, when the nest allows it), then the
    /// remainder. Both loops are in OpenMP's canonical form (`v <= bound`
    /// with an invariant bound), and the remainder starts at an explicit
    /// value, computed from the bounds: after a parallel loop the variable
    /// has no defined value.
    pub(super) fn unrolled(&mut self, l: &Loop, k: i64, jam: bool, indent: &str) {
        let v = &l.var;
        let decl = if l.declare { "int " } else { "" };
        let s = l.stride;
        let span = self.checked((k - 1).checked_mul(s));
        let group = self.checked(k.checked_mul(s));
        // Signed step of one original iteration.
        let step = if l.down { -s } else { s };
        let main_head = if l.down {
            let lo_last = self.plus(&l.lower, span);
            let up = self.expr(&l.upper);
            format!("for ({decl}{v} = {up}; {v} >= {lo_last}; {v} -= {group})")
        } else {
            let lo = self.expr(&l.lower);
            let cond = match &l.upper {
                Expr::Ceil(a, 1) | Expr::Floor(a, 1) => match a.constant.checked_sub(span) {
                    Some(c) => {
                        let mut b = a.clone();
                        b.constant = c;
                        self.upper_cond(v, &Expr::Floor(b, 1))
                    }
                    None => format!("{v} <= {}", self.plus(&l.upper, -span)),
                },
                _ => format!("{v} <= {}", self.plus(&l.upper, -span)),
            };
            format!("for ({decl}{v} = {lo}; {cond}; {v} += {group})")
        };
        let _ = writeln!(self.out, "{indent}{main_head} {{");
        self.copies(l, k, jam, step, &format!("{indent}{STEP}"));
        let _ = writeln!(self.out, "{indent}}}");
        // The remainder starts after the groups the main loop ran:
        // `lower + k·stride·(count / k)` (downwards from `upper`); with a
        // constant count (a full tile) it is folded, and a count that `k`
        // divides leaves no remainder at all.
        let count = self.trip_count(l);
        let constant = count.parse::<i64>().ok();
        if constant.is_some_and(|c| c % k == 0) {
            return;
        }
        let done = match constant {
            Some(c) => self.checked(group.checked_mul(c / k)).to_string(),
            None => format!("{group} * ({count} / {k})"),
        };
        let head = if l.down {
            let start = match constant {
                Some(_) => self.plus(&l.upper, -self.checked(done.parse::<i64>().ok())),
                None => format!("{} - {done}", self.expr(&l.upper)),
            };
            format!(
                "for ({decl}{v} = {start}; {v} >= {}; {v}--)",
                self.expr(&l.lower)
            )
        } else {
            let lo = match &l.lower {
                _ if constant.is_some() => {
                    self.plus(&l.lower, self.checked(done.parse::<i64>().ok()))
                }
                Expr::Ceil(a, 1) | Expr::Floor(a, 1) if a.is_constant() && a.constant == 0 => done,
                _ => format!("{} + {done}", self.expr(&l.lower)),
            };
            let inc = if s == 1 {
                format!("{v}++")
            } else {
                format!("{v} += {s}")
            };
            format!(
                "for ({decl}{v} = {lo}; {}; {inc})",
                self.upper_cond(v, &l.upper)
            )
        };
        let _ = write!(self.out, "{indent}{head}");
        self.body(&l.body, indent);
    }

    /// A loop of exactly `k` iterations unrolled by `k` (a full tile
    /// jammed by its size): its one group of copies after the variable is
    /// set to where the group starts, with no loop and no remainder.
    pub(super) fn one_group(&mut self, l: &Loop, k: i64, jam: bool, indent: &str) {
        let s = l.stride;
        let (start, step) = if l.down {
            (self.expr(&l.upper), -s)
        } else {
            (self.expr(&l.lower), s)
        };
        self.assigned(l, &start, indent, |p, inner| {
            p.copies(l, k, jam, step, inner)
        });
    }

    /// The `k` copies of one iteration of `l` (signed step `step`), jammed
    /// into its innermost loop with `jam` where the nest allows it, at
    /// indent `deeper`.
    fn copies(&mut self, l: &Loop, k: i64, jam: bool, step: i64, deeper: &str) {
        let v = &l.var;
        let groups = self.jam_groups;
        match jam.then(|| jammed(&l.body, v, k, step, groups)).flatten() {
            Some(body) => {
                // The loops jammed inside see `k` times as many copies.
                self.jam_groups = groups.saturating_mul(k.unsigned_abs() as usize);
                self.nodes(&body, deeper);
                self.jam_groups = groups;
            }
            // A body of statements only: its copies, folded where they
            // can be. Jammed inside a jammed loop, each of that loop's
            // copies is followed by its own copies (the order
            // `jam_violation` checks for two jams); a plain unroll keeps
            // the iterations' order.
            None if l.body.iter().all(|n| matches!(n, Node::Stmt { .. })) => {
                let saved = self.offsets.get(v).copied();
                let groups = if jam && l.body.len().is_multiple_of(groups.max(1)) {
                    groups.max(1)
                } else {
                    1
                };
                let mut bodies = Vec::new();
                for group in l.body.chunks((l.body.len() / groups).max(1)) {
                    for j in 0..k {
                        self.copy_offset(v, saved, j, step);
                        for n in group {
                            if let Node::Stmt {
                                statement,
                                iterators,
                            } = n
                            {
                                bodies.extend(
                                    self.stmt_body(*statement, iterators)
                                        .map(|b| (*statement, b)),
                                );
                            }
                        }
                    }
                }
                match saved {
                    Some(o) => self.offsets.insert(v.clone(), o),
                    None => self.offsets.remove(v),
                };
                self.runs(&bodies, deeper);
            }
            None => {
                let saved = self.offsets.get(v).copied();
                for j in 0..k {
                    self.copy_offset(v, saved, j, step);
                    for n in &l.body {
                        self.node(n, deeper);
                    }
                }
                match saved {
                    Some(o) => self.offsets.insert(v.clone(), o),
                    None => self.offsets.remove(v),
                };
            }
        }
    }
}
