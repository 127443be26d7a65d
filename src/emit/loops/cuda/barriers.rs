//! Where a kernel's block waits (module doc of [`super`]): before a
//! block-level node that may touch what another thread touched since the
//! block last waited, one of the two writing it.
//!
//! What a node touches is read off its statements' bodies, as printed
//! (a packed statement reads its buffer, not the array; a copy both):
//! every name a body writes (the target of an assignment, an increment)
//! and every name it reads, but the statement's iterators, which are each
//! thread's own. Cheap, and an over-approximation of the cells: two nodes
//! that touch one array in different cells still wait. What the block
//! touched since it last waited ([`Touched`], the printer's `since`) is
//! also an over-approximation: after a loop or a guard, what was pending
//! before it stays pending (it may run no iteration, or not at all), and
//! a loop's body starts with what its own body touches pending (what the
//! previous iteration left); a block loop's body with only its shared
//! buffers (its iterations carry no dependence, `apply::marks::map_gpu`,
//! but the next one fills the buffers again).

use std::collections::{BTreeSet, HashMap};

use crate::emit::scan::Node;
use crate::scop::{AccessKind, Scop};
use crate::syntax::c::{Expr, ExprKind, UnaryOp};

/// Names read and written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Touched {
    pub(super) reads: BTreeSet<String>,
    pub(super) writes: BTreeSet<String>,
}

impl Touched {
    /// Whether running `self` and `other` on different threads with no
    /// barrier between them could change what either reads or leaves:
    /// one writes a name the other touches.
    pub(super) fn conflicts(&self, other: &Touched) -> bool {
        let touches = |t: &Touched, n: &String| t.reads.contains(n) || t.writes.contains(n);
        self.writes.iter().any(|n| touches(other, n)) || other.writes.iter().any(|n| touches(self, n))
    }

    pub(super) fn add(&mut self, other: &Touched) {
        self.reads.extend(other.reads.iter().cloned());
        self.writes.extend(other.writes.iter().cloned());
    }

    pub(super) fn is_empty(&self) -> bool {
        self.reads.is_empty() && self.writes.is_empty()
    }

    /// Only the names among `names`.
    pub(super) fn only(&self, names: &BTreeSet<String>) -> Touched {
        Touched {
            reads: self.reads.intersection(names).cloned().collect(),
            writes: self.writes.intersection(names).cloned().collect(),
        }
    }
}

/// What each statement of `scop` touches: its body's names (but its
/// iterators) and the arrays of its accesses.
pub(super) fn touched_by_statement(scop: &Scop) -> HashMap<usize, Touched> {
    scop.statements
        .iter()
        .enumerate()
        .map(|(s, st)| {
            let mut t = Touched::default();
            names(&st.body, false, &mut t);
            for a in &st.accesses {
                let set = match a.kind {
                    AccessKind::Write => &mut t.writes,
                    _ => &mut t.reads,
                };
                set.insert(a.array.clone());
            }
            for it in &st.iterators {
                t.reads.remove(it);
                t.writes.remove(it);
            }
            (s, t)
        })
        .collect()
}

/// What the statements of `nodes` touch.
pub(super) fn touched_by(nodes: &[Node], statements: &HashMap<usize, Touched>) -> Touched {
    let mut t = Touched::default();
    for n in nodes {
        match n {
            Node::Stmt { statement, .. } => {
                if let Some(one) = statements.get(statement) {
                    t.add(one);
                }
            }
            Node::For(l) => t.add(&touched_by(&l.body, statements)),
            Node::If {
                body, otherwise, ..
            } => {
                t.add(&touched_by(body, statements));
                t.add(&touched_by(otherwise, statements));
            }
        }
    }
    t
}

/// The names of `e` into `t`: read, and written too when `written`.
fn names(e: &Expr, written: bool, t: &mut Touched) {
    match &e.kind {
        ExprKind::Var(n) => {
            t.reads.insert(n.clone());
            if written {
                t.writes.insert(n.clone());
            }
        }
        ExprKind::Index(base, subs) => {
            names(base, written, t);
            for s in subs {
                names(s, false, t);
            }
        }
        ExprKind::Assign(_, target, value) => {
            names(target, true, t);
            names(value, false, t);
        }
        ExprKind::Unary(op, x) => {
            let steps = matches!(
                op,
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec
            );
            names(x, written || steps, t);
        }
        ExprKind::Member(x, _) | ExprKind::Cast(_, x) | ExprKind::Paren(x) => names(x, written, t),
        ExprKind::Call(f, args) => {
            names(f, false, t);
            for a in args {
                names(a, false, t);
            }
        }
        ExprKind::Binary(_, a, b) => {
            names(a, false, t);
            names(b, false, t);
        }
        ExprKind::Conditional(c, a, b) => {
            names(c, false, t);
            names(a, written, t);
            names(b, written, t);
        }
        ExprKind::Int(..) | ExprKind::Float(_) | ExprKind::Str(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touched(reads: &[&str], writes: &[&str]) -> Touched {
        Touched {
            reads: reads.iter().map(|s| s.to_string()).collect(),
            writes: writes.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn two_nodes_conflict_when_one_writes_what_the_other_touches() {
        let fill = touched(&["A", "polyc_pack_A"], &["polyc_pack_A"]);
        let update = touched(&["C", "polyc_pack_A"], &["C"]);
        let other = touched(&["B"], &["D"]);
        assert!(fill.conflicts(&update));
        assert!(update.conflicts(&fill));
        assert!(!fill.conflicts(&other));
        // Two readers never wait for each other.
        assert!(!touched(&["A"], &[]).conflicts(&touched(&["A"], &[])));
    }
}
