//! Where a kernel's block waits (module doc of [`super`]): before a
//! block-level node that may touch what another thread touched since the
//! block last waited, one of the two writing it.
//!
//! What a node touches is read off its statements' bodies, as printed
//! (a packed statement reads its buffer, not the array; a copy both):
//! every name a body writes (the target of an assignment, an increment)
//! and every name it reads, but the statement's iterators, which are each
//! thread's own. Cheap, and an over-approximation of the cells: two nodes
//! that touch one array in different cells still wait, but for the pieces
//! of one copy statement, which write each cell once (a copy visits each
//! cell of its footprint once): a halo's pieces fill a buffer with no
//! barrier between them. What the block
//! touched since it last waited ([`Touched`], the printer's `since`) is
//! also an over-approximation: after a loop or a guard, what was pending
//! before it stays pending (it may run no iteration, or not at all), and
//! a loop's body starts with what its own body touches pending (what the
//! previous iteration left); a block loop's body with only its shared
//! buffers (its iterations carry no dependence, `apply::marks::map_gpu`,
//! but the next one fills the buffers again).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write;

use super::{Gpu, Printer, STEP};
use crate::emit::scan::{Cond, Node};
use crate::scop::{AccessKind, Scop};
use crate::syntax::c::{Expr, ExprKind, UnaryOp};

/// Names read and written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Touched {
    pub(super) reads: BTreeSet<String>,
    pub(super) writes: BTreeSet<String>,
    /// Names written by a copy statement (each cell once), with it.
    pub(super) copied: BTreeSet<(String, usize)>,
}

impl Touched {
    /// Whether running `self` and `other` on different threads with no
    /// barrier between them could change what either reads or leaves:
    /// one writes a name the other touches.
    pub(super) fn conflicts(&self, other: &Touched) -> bool {
        let touches = |t: &Touched, n: &String| {
            t.reads.contains(n) || t.writes.contains(n) || t.copied.iter().any(|(c, _)| c == n)
        };
        let copy_touches = |t: &Touched, (n, s): &(String, usize)| {
            t.reads.contains(n)
                || t.writes.contains(n)
                || t.copied.iter().any(|(c, k)| c == n && k != s)
        };
        self.writes.iter().any(|n| touches(other, n))
            || other.writes.iter().any(|n| touches(self, n))
            || self.copied.iter().any(|c| copy_touches(other, c))
            || other.copied.iter().any(|c| copy_touches(self, c))
    }

    pub(super) fn add(&mut self, other: &Touched) {
        self.reads.extend(other.reads.iter().cloned());
        self.writes.extend(other.writes.iter().cloned());
        self.copied.extend(other.copied.iter().cloned());
    }

    /// Only the names among `names`.
    pub(super) fn only(&self, names: &BTreeSet<String>) -> Touched {
        Touched {
            reads: self.reads.intersection(names).cloned().collect(),
            writes: self.writes.intersection(names).cloned().collect(),
            copied: self
                .copied
                .iter()
                .filter(|(n, _)| names.contains(n))
                .cloned()
                .collect(),
        }
    }
}

/// What each statement of `scop` touches: its body's names (but its
/// iterators) and the arrays of its accesses; the `copies` write theirs
/// each cell once.
pub(super) fn touched_by_statement(
    scop: &Scop,
    copies: &HashSet<usize>,
) -> HashMap<usize, Touched> {
    scop.statements
        .iter()
        .enumerate()
        .map(|(s, st)| {
            let mut t = Touched::default();
            names(&st.body, Use::Read, &mut t);
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
            if copies.contains(&s) {
                t.copied = std::mem::take(&mut t.writes)
                    .into_iter()
                    .map(|n| (n, s))
                    .collect();
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

impl Printer<'_> {
    /// A guard at the block level: each branch starts with what was
    /// pending before it, and what either leaves stays pending after.
    pub(super) fn block_guard(
        &mut self,
        conds: &[Cond],
        body: &[Node],
        otherwise: &[Node],
        indent: &str,
    ) {
        let inner = format!("{indent}{STEP}");
        let _ = writeln!(self.out, "{indent}if ({}) {{", self.conjunction(conds));
        let before = self.since();
        self.nodes(body, &inner);
        let mut after = self.since();
        if !otherwise.is_empty() {
            self.set_since(before.clone());
            let _ = writeln!(self.out, "{indent}}} else {{");
            self.nodes(otherwise, &inner);
            after.add(&self.since());
        }
        let _ = writeln!(self.out, "{indent}}}");
        after.add(&before);
        self.set_since(after);
    }

    /// What the statements of `nodes` touch.
    pub(super) fn touched(&self, nodes: &[Node]) -> Touched {
        match &self.gpu {
            Some(Gpu::Kernel(k)) => touched_by(nodes, &k.touched),
            _ => Touched::default(),
        }
    }

    /// A barrier, if what is pending conflicts with `next`.
    pub(super) fn wait_for(&mut self, next: &Touched, indent: &str) {
        if let Some(Gpu::Kernel(k)) = &mut self.gpu {
            if k.since.conflicts(next) {
                let _ = writeln!(self.out, "{indent}__syncthreads();");
                k.since = Touched::default();
            }
        }
    }

    pub(super) fn pending(&mut self, touched: &Touched) {
        if let Some(Gpu::Kernel(k)) = &mut self.gpu {
            k.since.add(touched);
        }
    }

    fn since(&self) -> Touched {
        match &self.gpu {
            Some(Gpu::Kernel(k)) => k.since.clone(),
            _ => Touched::default(),
        }
    }

    fn set_since(&mut self, since: Touched) {
        if let Some(Gpu::Kernel(k)) = &mut self.gpu {
            k.since = since;
        }
    }
}

/// How an expression's value is used.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    Read,
    /// The target of `=`.
    Write,
    /// The target of `+=` and the like, or of `++`.
    Update,
}

/// The names of `e` into `t`, used as `how`.
fn names(e: &Expr, how: Use, t: &mut Touched) {
    match &e.kind {
        ExprKind::Var(n) => {
            if how != Use::Write {
                t.reads.insert(n.clone());
            }
            if how != Use::Read {
                t.writes.insert(n.clone());
            }
        }
        ExprKind::Index(base, subs) => {
            names(base, how, t);
            for s in subs {
                names(s, Use::Read, t);
            }
        }
        ExprKind::Assign(op, target, value) => {
            let how = if op == "=" { Use::Write } else { Use::Update };
            names(target, how, t);
            names(value, Use::Read, t);
        }
        ExprKind::Unary(op, x) => {
            let steps = matches!(
                op,
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec
            );
            names(x, if steps { Use::Update } else { how }, t);
        }
        ExprKind::Member(x, _) | ExprKind::Cast(_, x) | ExprKind::Paren(x) => names(x, how, t),
        ExprKind::Call(f, args) => {
            names(f, Use::Read, t);
            for a in args {
                names(a, Use::Read, t);
            }
        }
        ExprKind::Binary(_, a, b) => {
            names(a, Use::Read, t);
            names(b, Use::Read, t);
        }
        ExprKind::Conditional(c, a, b) => {
            names(c, Use::Read, t);
            names(a, how, t);
            names(b, how, t);
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
            copied: BTreeSet::new(),
        }
    }

    fn copy(s: usize, read: &str, written: &str) -> Touched {
        Touched {
            reads: [read.to_string()].into(),
            writes: BTreeSet::new(),
            copied: [(written.to_string(), s)].into(),
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

    #[test]
    fn the_pieces_of_one_copy_never_wait_for_each_other() {
        let piece = copy(7, "A", "polyc_pack_A");
        assert!(!piece.conflicts(&copy(7, "A", "polyc_pack_A")));
        // Another copy into the same buffer, or a reader of it, waits.
        assert!(piece.conflicts(&copy(8, "A", "polyc_pack_A")));
        assert!(piece.conflicts(&touched(&["polyc_pack_A"], &["C"])));
        // A copy back (writes A) and the next copy in (reads A) wait.
        assert!(copy(9, "polyc_pack_A", "A").conflicts(&piece));
    }
}
