//! A packed loop's buffer in a kernel (module doc of [`super`]): its
//! declaration, in the block's shared memory or the thread's own, and
//! its copies at the block level, spread over the block's threads: the
//! innermost loop of a copy over `threadIdx.x` (over all the threads
//! when no outer loop is shared out), the outermost over `threadIdx.y`
//! and `threadIdx.z`, the others as C, and each statement guarded to the
//! one thread its cell falls to among those no loop around shares out.
//! Every cell is copied once; neighbouring threads copy neighbouring
//! cells.

use std::collections::HashSet;
use std::fmt::Write;

use super::{Gpu, Printer, STEP};
use crate::emit::scan::{Loop, Node};
use crate::scop::footprint::MAX_SHARED_BYTES;
use crate::scop::Scop;

/// A packed loop's buffer in a kernel.
#[derive(Clone, Debug)]
pub struct DeviceBuffer {
    pub name: String,
    /// `double polyc_pack_B[32][32]`.
    pub declaration: String,
    /// In the block's shared memory (its copies run at the block level),
    /// or else one per thread.
    pub shared: bool,
    /// Its size, when polyc knows its element type's.
    pub bytes: Option<u64>,
}

/// The copy statements of `scop` (those named after a buffer).
pub(super) fn copy_statements(scop: &Scop, buffers: &[DeviceBuffer]) -> HashSet<usize> {
    scop.statements
        .iter()
        .enumerate()
        .filter(|(_, st)| buffers.iter().any(|b| b.name == st.name))
        .map(|(s, _)| s)
        .collect()
}

/// The declarations of the buffers `used` by kernel `name`, a line each;
/// an error when its shared ones take more than a block may declare.
pub(super) fn declarations(used: &[DeviceBuffer], name: &str) -> Result<String, String> {
    let shared_bytes: Option<u64> = used
        .iter()
        .filter(|b| b.shared)
        .try_fold(0u64, |n, b| n.checked_add(b.bytes?));
    if let Some(n) = shared_bytes.filter(|&n| n > MAX_SHARED_BYTES) {
        return Err(format!(
            "the shared buffers of `{name}` take {n} bytes, more than the {MAX_SHARED_BYTES} a block may declare; pack smaller tiles"
        ));
    }
    let mut out = String::new();
    for b in used {
        let space = if b.shared { "__shared__ " } else { "" };
        let _ = writeln!(out, "{STEP}{space}{};", b.declaration);
    }
    Ok(out)
}

/// The thread indices the loops around a spread copy share out.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Spread {
    /// `threadIdx.x` (an innermost loop).
    pub(super) x: bool,
    /// `threadIdx.y` and `threadIdx.z` (an outermost loop).
    pub(super) yz: bool,
}

impl Printer<'_> {
    /// A copy statement's node (`n`) spread over the block's threads.
    pub(super) fn spread(&mut self, n: &Node, indent: &str) {
        if let Some(Gpu::Kernel(k)) = &mut self.gpu {
            k.spread = Some(Spread::default());
        }
        // Through `nodes`: a statement alone gets its guard too.
        self.nodes(std::slice::from_ref(n), indent);
        if let Some(Gpu::Kernel(k)) = &mut self.gpu {
            k.spread = None;
        }
    }

    /// Nodes of a spread copy: each statement run by the one thread its
    /// cell falls to among those the loops around do not share out.
    pub(super) fn spread_nodes(&mut self, nodes: &[Node], spread: Spread, indent: &str) {
        let guard = match (spread.x, spread.yz) {
            (true, true) => None,
            (true, false) => Some("threadIdx.y == 0 && threadIdx.z == 0"),
            (false, true) => Some("threadIdx.x == 0"),
            (false, false) => Some("threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0"),
        };
        for n in nodes {
            match (n, guard) {
                (Node::Stmt { .. }, Some(g)) => {
                    let _ = writeln!(self.out, "{indent}if ({g}) {{");
                    self.node(n, &format!("{indent}{STEP}"));
                    let _ = writeln!(self.out, "{indent}}}");
                }
                _ => self.node(n, indent),
            }
        }
    }

    /// A loop of a spread copy: an innermost loop over `threadIdx.x` (over
    /// all the block's threads when none is shared out around it), an
    /// outermost one over `threadIdx.y` and `threadIdx.z`, others as C.
    pub(super) fn spread_loop(&mut self, l: &Loop, spread: Spread, indent: &str) {
        let innermost = !l.body.iter().any(holds_repeated_loop);
        let (index, count, inner) = match (innermost, spread.x, spread.yz) {
            (true, false, false) => (
                "((int)threadIdx.x + (int)blockDim.x * ((int)threadIdx.y + (int)blockDim.y * (int)threadIdx.z))",
                "((int)blockDim.x * (int)blockDim.y * (int)blockDim.z)",
                Spread { x: true, yz: true },
            ),
            (true, false, true) => (
                "(int)threadIdx.x",
                "(int)blockDim.x",
                Spread { x: true, yz: true },
            ),
            (false, false, false) => (
                "((int)threadIdx.y + (int)blockDim.y * (int)threadIdx.z)",
                "((int)blockDim.y * (int)blockDim.z)",
                Spread { x: false, yz: true },
            ),
            _ => {
                self.plain_loop(l, indent);
                return;
            }
        };
        let head = self.strided_head(l, index, count);
        let _ = write!(self.out, "{indent}{head}");
        if let Some(Gpu::Kernel(k)) = &mut self.gpu {
            k.spread = Some(inner);
        }
        self.body(&l.body, indent);
        if let Some(Gpu::Kernel(k)) = &mut self.gpu {
            k.spread = Some(spread);
        }
    }
}

/// Whether `n` holds a statement `s` with `pick(s)`.
pub(super) fn holds_statement(n: &Node, pick: &dyn Fn(usize) -> bool) -> bool {
    match n {
        Node::For(l) => l.body.iter().any(|n| holds_statement(n, pick)),
        Node::If {
            body, otherwise, ..
        } => body
            .iter()
            .chain(otherwise)
            .any(|n| holds_statement(n, pick)),
        Node::Stmt { statement, .. } => pick(*statement),
    }
}

/// Whether `n` holds statements, all with `pick`.
pub(super) fn only_statements(n: &Node, pick: &dyn Fn(usize) -> bool) -> bool {
    holds_statement(n, pick) && !holds_statement(n, &|s| !pick(s))
}

/// Whether `n` is or holds a loop of more than one iteration.
fn holds_repeated_loop(n: &Node) -> bool {
    match n {
        Node::For(l) => !l.once || l.body.iter().any(holds_repeated_loop),
        Node::If {
            body, otherwise, ..
        } => body.iter().chain(otherwise).any(holds_repeated_loop),
        Node::Stmt { .. } => false,
    }
}
