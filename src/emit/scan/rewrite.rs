//! Rewrites of the loop AST that keep what it executes and only change
//! how it is written: adjacent guards on the same conditions merged, and
//! the copies of an unrolled loop jammed into its innermost loop.
//!
//! Jamming reorders instances; whether that order respects the
//! dependences is decided by the `unroll_jam` directive, on the schedule.
//! Here only the shape is checked: a perfect nest whose guards do not
//! depend on the unrolled variable, and whose inner bounds do not either,
//! but for one loop's (a triangle: [`triangle`]).

use super::ast::{Cond, Expr, Loop, Node, Quotient, Sum};

/// The same nodes with adjacent guards on the same conditions merged into
/// one (`if (c) A; if (c) B;` is `if (c) { A; B; }`), at every depth.
pub fn merge_adjacent_guards(nodes: Vec<Node>) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::with_capacity(nodes.len());
    for node in nodes {
        let node = match node {
            Node::For(mut l) => {
                l.body = merge_adjacent_guards(std::mem::take(&mut l.body));
                Node::For(l)
            }
            Node::If {
                conds,
                body,
                otherwise,
            } => {
                let body = merge_adjacent_guards(body);
                let otherwise = merge_adjacent_guards(otherwise);
                if let Some(Node::If {
                    conds: last,
                    body: last_body,
                    otherwise: last_otherwise,
                }) = out.last_mut()
                {
                    if *last == conds && last_otherwise.is_empty() && otherwise.is_empty() {
                        last_body.extend(body);
                        continue;
                    }
                }
                Node::If {
                    conds,
                    body,
                    otherwise,
                }
            }
            stmt => stmt,
        };
        out.push(node);
    }
    out
}

/// The body of a loop over `var` (step `stride`) unrolled by `factor` with
/// its copies jammed: the same perfect nest, whose innermost body holds the
/// `factor` copies (`var`, `var + stride`, …) one after the other. `None`
/// when `body` is not a perfect nest down to an innermost loop, or when an
/// inner bound or guard depends on `var` (the copies would need different
/// bounds): the loop is then unrolled without jamming.
///
/// Inside a loop jammed already, the innermost body is `groups` runs of
/// equal length, one per copy of that loop: each run is followed at once
/// by its own copies, so the outer loop's copies stay outermost (the order
/// `apply::legality::jam_violation` checks for two jams). `None` when the
/// body does not split so.
pub fn jammed(
    body: &[Node],
    var: &str,
    factor: i64,
    stride: i64,
    groups: usize,
) -> Option<Vec<Node>> {
    let jam = Jam {
        var,
        factor,
        stride,
        groups,
    };
    jam_nest(body, &jam, None)
}

/// One jam being printed: the unrolled loop's variable and step, how many
/// copies, and how many runs of equal length the innermost bodies hold
/// (one per copy of the loops jammed around).
struct Jam<'a> {
    var: &'a str,
    factor: i64,
    stride: i64,
    groups: usize,
}

/// [`jammed`], each copy under its guard of `guards` (one per copy) when
/// given: the guarded parts of a [`triangle`], whose nest below must not
/// read `var` in its bounds.
fn jam_nest(body: &[Node], jam: &Jam, guards: Option<&[Vec<Cond>]>) -> Option<Vec<Node>> {
    let var = jam.var;
    let [only] = body else {
        return None;
    };
    match only {
        Node::For(l) => {
            if l.lower.mentions(var) || l.upper.mentions(var) {
                return match guards {
                    None => triangle(l, jam),
                    Some(_) => None,
                };
            }
            let mut inner = l.clone();
            inner.body = if l.body.iter().any(Node::has_loop) {
                jam_nest(&l.body, jam, guards)?
            } else {
                copies(&l.body, jam, guards)?
            };
            Some(vec![Node::For(inner)])
        }
        Node::If {
            conds,
            body,
            otherwise,
        } => {
            if conds.iter().any(|c| c.mentions(var)) {
                return None;
            }
            // A branch with no loop (an empty `else`) has nothing to jam
            // into: jam only when each branch is a nest or empty.
            let otherwise = match otherwise.as_slice() {
                [] => Vec::new(),
                nodes => jam_nest(nodes, jam, guards)?,
            };
            Some(vec![Node::If {
                conds: conds.clone(),
                body: jam_nest(body, jam, guards)?,
                otherwise,
            }])
        }
        Node::Stmt { .. } => None,
    }
}

/// The innermost body `body` (statements, in `groups` equal runs) with
/// the `factor` copies of each run side by side, each under its guard of
/// `guards` when given.
fn copies(body: &[Node], jam: &Jam, guards: Option<&[Vec<Cond>]>) -> Option<Vec<Node>> {
    let (var, factor, stride, groups) = (jam.var, jam.factor, jam.stride, jam.groups);
    if groups == 0 || !body.len().is_multiple_of(groups) {
        return None;
    }
    let mut out = Vec::new();
    for group in body.chunks(body.len() / groups) {
        for j in 0..factor {
            let offset = j.checked_mul(stride)?;
            for n in group {
                let copy = shifted(n, var, offset)?;
                out.push(match guards {
                    Some(g) => Node::If {
                        conds: g.get(usize::try_from(j).ok()?)?.clone(),
                        body: vec![copy],
                        otherwise: Vec::new(),
                    },
                    None => copy,
                });
            }
        }
    }
    Some(out)
}

/// The loop `l` of a jammed nest, whose bounds read `var`, with the
/// `factor` copies of the enclosing loop over `var` (step `stride`)
/// jammed into its innermost loop: each copy runs over its own range of
/// `l`, so `l` runs over their union, in up to three parts. Where every
/// copy's range holds `l.var` (from the largest lower bound to the
/// smallest upper one) the copies run unguarded; before and after, each
/// copy is guarded by its own bounds. Each value of `l.var` runs its
/// copies in order, as the jammed schedule that `unroll_jam` checked
/// orders them. `None` (a plain unroll) when `l` counts down or by more
/// than 1, runs once, has a loop below whose bounds read `var` too, or has
/// a bound a guard cannot state (a lower bound that is a minimum or a
/// floor, an upper one that is a maximum or a ceiling, a strided start).
fn triangle(l: &Loop, jam: &Jam) -> Option<Vec<Node>> {
    let (var, factor, stride) = (jam.var, jam.factor, jam.stride);
    if l.down || l.stride != 1 || l.once {
        return None;
    }
    let mut lowers = Vec::new();
    let mut uppers = Vec::new();
    let mut guards = Vec::new();
    for j in 0..factor {
        let offset = j.checked_mul(stride)?;
        let lower = shifted_expr(&l.lower, var, offset)?;
        let upper = shifted_expr(&l.upper, var, offset)?;
        let mut conds = at_least(&l.var, &lower)?;
        conds.extend(at_most(&l.var, &upper)?);
        lowers.push(lower);
        uppers.push(upper);
        guards.push(conds);
    }
    let nest = |guarded: bool| -> Option<Vec<Node>> {
        let guards = guarded.then_some(guards.as_slice());
        if l.body.iter().any(Node::has_loop) {
            jam_nest(&l.body, jam, guards)
        } else {
            copies(&l.body, jam, guards)
        }
    };
    let (lmin, lmax) = (extreme(false, lowers.clone()), extreme(true, lowers));
    let (umin, umax) = (extreme(false, uppers.clone()), extreme(true, uppers));
    let part = |lower: Expr, upper: Expr, body: Vec<Node>| {
        let mut p = l.clone();
        p.lower = lower;
        p.upper = upper;
        p.body = body;
        Node::For(Box::new(p))
    };
    let before = extreme(false, vec![plus(&lmax, -1)?, umax.clone()]);
    let after = extreme(true, vec![plus(&umin, 1)?, lmax.clone()]);
    // Copies that start (or end) together need no guarded part there.
    let mut parts = Vec::new();
    if lmin != lmax {
        parts.push(part(lmin, before, nest(true)?));
    }
    let end_together = umin == umax;
    parts.push(part(lmax, umin, nest(false)?));
    if !end_together {
        parts.push(part(after, umax, nest(true)?));
    }
    Some(parts)
}

/// The maximum (`max`) or minimum of `items`, written small: nested
/// extremes of the same kind flattened, and of the whole affine bounds
/// (`ceil`/`floor` by 1) that differ only in their constant, only the
/// greatest (or least) kept (`min(i, i + 1, i + 2)` is `i`). Exact.
fn extreme(max: bool, items: Vec<Expr>) -> Expr {
    let mut flat: Vec<Expr> = Vec::new();
    for e in items {
        match e {
            Expr::Max(v) if max => flat.extend(v),
            Expr::Min(v) if !max => flat.extend(v),
            e => flat.push(e),
        }
    }
    let mut kept: Vec<Expr> = Vec::new();
    for e in flat {
        let same_terms = |k: &Expr| match (k, &e) {
            (Expr::Ceil(a, 1) | Expr::Floor(a, 1), Expr::Ceil(b, 1) | Expr::Floor(b, 1)) => {
                a.terms == b.terms
            }
            _ => *k == e,
        };
        match kept.iter().position(same_terms) {
            Some(at) => {
                let better = match (&kept[at], &e) {
                    (
                        Expr::Ceil(a, 1) | Expr::Floor(a, 1),
                        Expr::Ceil(b, 1) | Expr::Floor(b, 1),
                    ) => {
                        if max {
                            b.constant > a.constant
                        } else {
                            b.constant < a.constant
                        }
                    }
                    _ => false,
                };
                if better {
                    kept[at] = e;
                }
            }
            None => kept.push(e),
        }
    }
    match kept.len() {
        1 => kept.remove(0),
        _ if max => Expr::Max(kept),
        _ => Expr::Min(kept),
    }
}

/// `e` plus `k`, as a bound; `None` for a strided start or on overflow.
fn plus(e: &Expr, k: i64) -> Option<Expr> {
    Some(match e {
        Expr::Ceil(a, d) => Expr::Ceil(a.plus(k.checked_mul(*d)?)?, *d),
        Expr::Floor(a, d) => Expr::Floor(a.plus(k.checked_mul(*d)?)?, *d),
        Expr::Max(v) => Expr::Max(v.iter().map(|e| plus(e, k)).collect::<Option<_>>()?),
        Expr::Min(v) => Expr::Min(v.iter().map(|e| plus(e, k)).collect::<Option<_>>()?),
        Expr::StrideStart { .. } => return None,
    })
}

/// `name >= e` as guard rows: `d·name - a >= 0` for each `ceil(a / d)` of
/// a maximum.
fn at_least(name: &str, e: &Expr) -> Option<Vec<Cond>> {
    match e {
        Expr::Ceil(a, d) => Some(vec![row(variable(name, *d).minus(a)?)]),
        Expr::Max(v) => Some(
            v.iter()
                .map(|e| at_least(name, e))
                .collect::<Option<Vec<_>>>()?
                .concat(),
        ),
        _ => None,
    }
}

/// `name <= e` as guard rows: `a - d·name >= 0` for each `floor(a / d)`
/// of a minimum.
fn at_most(name: &str, e: &Expr) -> Option<Vec<Cond>> {
    match e {
        Expr::Floor(a, d) => Some(vec![row(a.minus(&variable(name, *d))?)]),
        Expr::Min(v) => Some(
            v.iter()
                .map(|e| at_most(name, e))
                .collect::<Option<Vec<_>>>()?
                .concat(),
        ),
        _ => None,
    }
}

/// `d · name`.
fn variable(name: &str, d: i64) -> Sum {
    Sum {
        terms: vec![(d, name.to_string())],
        constant: 0,
    }
}

/// The guard row `aff >= 0`.
fn row(aff: Sum) -> Cond {
    Cond {
        aff,
        eq: false,
        modulo: None,
        floors: Vec::new(),
        sides: None,
    }
}

/// `a` with `var` replaced by `var + offset`; `None` on overflow.
fn shifted_sum(a: &Sum, var: &str, offset: i64) -> Option<Sum> {
    let mut a = a.clone();
    for (c, name) in &a.terms {
        if name == var {
            a.constant = a.constant.checked_add(c.checked_mul(offset)?)?;
        }
    }
    Some(a)
}

/// A bound with `var` replaced by `var + offset`; `None` on overflow.
fn shifted_expr(e: &Expr, var: &str, offset: i64) -> Option<Expr> {
    Some(match e {
        Expr::Ceil(a, d) => Expr::Ceil(shifted_sum(a, var, offset)?, *d),
        Expr::Floor(a, d) => Expr::Floor(shifted_sum(a, var, offset)?, *d),
        Expr::Max(v) => Expr::Max(
            v.iter()
                .map(|e| shifted_expr(e, var, offset))
                .collect::<Option<_>>()?,
        ),
        Expr::Min(v) => Expr::Min(
            v.iter()
                .map(|e| shifted_expr(e, var, offset))
                .collect::<Option<_>>()?,
        ),
        Expr::StrideStart {
            lower,
            offset: o,
            stride: s,
        } => Expr::StrideStart {
            lower: Box::new(shifted_expr(lower, var, offset)?),
            offset: shifted_sum(o, var, offset)?,
            stride: *s,
        },
    })
}

/// `n` (a loop-free node) with `var` replaced by `var + offset`; `None` on
/// overflow.
fn shifted(n: &Node, var: &str, offset: i64) -> Option<Node> {
    let aff = |a: &Sum| shifted_sum(a, var, offset);
    Some(match n {
        Node::Stmt {
            statement,
            iterators,
        } => Node::Stmt {
            statement: *statement,
            iterators: iterators
                .iter()
                .map(|v| {
                    Some(Quotient {
                        aff: aff(&v.aff)?,
                        floors: v
                            .floors
                            .iter()
                            .map(|(k, a, q)| aff(a).map(|a| (*k, a, *q)))
                            .collect::<Option<_>>()?,
                        divisor: v.divisor,
                    })
                })
                .collect::<Option<_>>()?,
        },
        Node::If {
            conds,
            body,
            otherwise,
        } => Node::If {
            conds: conds
                .iter()
                .map(|c| {
                    Some(Cond {
                        aff: aff(&c.aff)?,
                        eq: c.eq,
                        modulo: c.modulo,
                        floors: c
                            .floors
                            .iter()
                            .map(|(k, a, q)| aff(a).map(|a| (*k, a, *q)))
                            .collect::<Option<_>>()?,
                        // Printed from `aff`: the sides are not shifted
                        // (full-tile tests stand around loops, never in
                        // the loop-free bodies shifted here).
                        sides: None,
                    })
                })
                .collect::<Option<_>>()?,
            body: body
                .iter()
                .map(|b| shifted(b, var, offset))
                .collect::<Option<_>>()?,
            otherwise: otherwise
                .iter()
                .map(|b| shifted(b, var, offset))
                .collect::<Option<_>>()?,
        },
        Node::For(_) => return None,
    })
}
