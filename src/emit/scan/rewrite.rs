//! Rewrites of the loop AST that keep what it executes and only change
//! how it is written: adjacent guards on the same conditions merged, and
//! the copies of an unrolled loop jammed into its innermost loop.
//!
//! Jamming reorders instances; whether that order respects the
//! dependences is decided by the `unroll_jam` directive, on the schedule.
//! Here only the shape is checked: a perfect nest whose inner bounds and
//! guards do not depend on the unrolled variable.

use super::ast::{Cond, Node, Quotient, Sum};

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
    let [only] = body else {
        return None;
    };
    match only {
        Node::For(l) => {
            if l.lower.mentions(var) || l.upper.mentions(var) {
                return None;
            }
            let mut inner = l.clone();
            if l.body.iter().any(Node::has_loop) {
                inner.body = jammed(&l.body, var, factor, stride, groups)?;
            } else {
                if groups == 0 || !l.body.len().is_multiple_of(groups) {
                    return None;
                }
                let mut copies = Vec::new();
                for group in l.body.chunks(l.body.len() / groups) {
                    for j in 0..factor {
                        let offset = j.checked_mul(stride)?;
                        for n in group {
                            copies.push(shifted(n, var, offset)?);
                        }
                    }
                }
                inner.body = copies;
            }
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
                nodes => jammed(nodes, var, factor, stride, groups)?,
            };
            Some(vec![Node::If {
                conds: conds.clone(),
                body: jammed(body, var, factor, stride, groups)?,
                otherwise,
            }])
        }
        Node::Stmt { .. } => None,
    }
}

/// `n` (a loop-free node) with `var` replaced by `var + offset`; `None` on
/// overflow.
fn shifted(n: &Node, var: &str, offset: i64) -> Option<Node> {
    let aff = |a: &Sum| -> Option<Sum> {
        let mut a = a.clone();
        for (c, name) in &a.terms {
            if name == var {
                a.constant = a.constant.checked_add(c.checked_mul(offset)?)?;
            }
        }
        Some(a)
    };
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
