//! How loops mapped to CUDA blocks and threads may nest for the CUDA
//! target to run them (docs/cuda.md): a block loop is the kernel's
//! outermost loop or the only node of another block loop's body (blocks
//! cannot wait for each other); a thread loop is inside a block loop, and
//! the only node of a thread loop's body when inside one (what is around
//! it would run once per thread); each dimension once per chain; no
//! mapped loop unrolled, nor an unrolled loop around mapped ones.

use crate::emit::scan::{Loop, Node};
use crate::scop::schedule::Mark;

pub(super) fn mapping(l: &Loop) -> Option<(bool, u8)> {
    l.marks.iter().find_map(|m| match m {
        Mark::GpuBlock(d) => Some((false, *d)),
        Mark::GpuThread(d) => Some((true, *d)),
        _ => None,
    })
}

/// Whether `n` is or holds a loop mapped to blocks (`thread`: to threads).
pub(super) fn holds_mapped(n: &Node, thread: bool) -> bool {
    match n {
        Node::For(l) => {
            mapping(l).is_some_and(|(t, _)| t == thread)
                || l.body.iter().any(|n| holds_mapped(n, thread))
        }
        Node::If {
            body, otherwise, ..
        } => body
            .iter()
            .chain(otherwise)
            .any(|n| holds_mapped(n, thread)),
        Node::Stmt { .. } => false,
    }
}

pub(super) const DIM: [&str; 3] = ["x", "y", "z"];

/// Why the mapped loops of a kernel's nodes cannot run as CUDA blocks and
/// threads (module doc), if they cannot.
pub fn check_mapping(nodes: &[Node]) -> Result<(), String> {
    fn walk(
        nodes: &[Node],
        blocks: &mut Vec<u8>,
        threads: &mut Vec<u8>,
        only_child_of: Option<bool>,
    ) -> Result<(), String> {
        let alone = nodes.len() == 1;
        for n in nodes {
            match n {
                Node::For(l) => {
                    let unrolled = l.marks.iter().any(|m| {
                        matches!(
                            m,
                            Mark::Unroll(_) | Mark::UnrollNoEpilog(_) | Mark::UnrollJam(_)
                        )
                    });
                    match mapping(l) {
                        Some((thread, d)) => {
                            let what = if thread { "gpu_thread" } else { "gpu_block" };
                            if unrolled {
                                return Err(format!(
                                    "the loop `{}` is mapped by {what} and unrolled; unroll a loop inside it instead",
                                    l.var
                                ));
                            }
                            if !thread && !threads.is_empty() {
                                return Err(format!(
                                    "the loop `{}` is mapped by gpu_block inside a loop mapped by gpu_thread",
                                    l.var
                                ));
                            }
                            if thread && blocks.is_empty() {
                                return Err(format!(
                                    "the loop `{}` is mapped by gpu_thread but no loop around it by gpu_block; the threads of a kernel belong to its blocks",
                                    l.var
                                ));
                            }
                            let (own, chain) = if thread {
                                (&mut *threads, "thread")
                            } else {
                                (&mut *blocks, "block")
                            };
                            if own.contains(&d) {
                                return Err(format!(
                                    "the loop `{}` is mapped by {what} to dimension {}, which a loop around it already uses",
                                    l.var, DIM[usize::from(d)]
                                ));
                            }
                            let nested_ok =
                                own.is_empty() || (alone && only_child_of == Some(thread));
                            if !nested_ok {
                                return Err(format!(
                                    "the loop `{}` is mapped by {what} inside another {chain} loop, with other code or loops between them; a {chain} loop inside one must be the only thing in its body",
                                    l.var
                                ));
                            }
                            own.push(d);
                            let r = walk(&l.body, blocks, threads, Some(thread));
                            if thread {
                                threads.pop();
                            } else {
                                blocks.pop();
                            }
                            r?;
                        }
                        None if unrolled
                            && threads.is_empty()
                            && l.body
                                .iter()
                                .any(|n| holds_mapped(n, true) || holds_mapped(n, false)) =>
                        {
                            return Err(format!(
                                "the loop `{}` is unrolled and holds mapped loops; its copies would need barriers between them",
                                l.var
                            ));
                        }
                        None => walk(&l.body, blocks, threads, None)?,
                    }
                }
                Node::If {
                    body, otherwise, ..
                } => {
                    walk(body, blocks, threads, None)?;
                    walk(otherwise, blocks, threads, None)?;
                }
                Node::Stmt { .. } => {}
            }
        }
        Ok(())
    }
    walk(nodes, &mut Vec::new(), &mut Vec::new(), None)
}
