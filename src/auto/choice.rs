//! What `auto` chose for each band of its tree, in words: the members
//! (affine rows per statement), whether the band is permutable, which
//! members are coincident, the tiles, the loop order and the marks. This
//! is what `--emit schedule-text` prints above the dates after `auto`.

use super::feautrier::AffineRow;
use crate::poly::linear_text;
use crate::scop::Scop;

/// What tiling and marking made of one band of the scheduler's tree:
/// what `--emit schedule-text` shows after `auto`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BandChoice {
    /// Each member's `(statement, row)` pairs, outermost member first.
    pub(crate) members: Vec<Vec<(usize, AffineRow)>>,
    pub(crate) coincident: Vec<bool>,
    pub(crate) permutable: bool,
    /// The tile size, when the band was tiled.
    pub(crate) tile: Option<i64>,
    /// One member's tile size, when it differs from `tile`: `(member,
    /// size)` (a wavefront's rows, `tiling::WAVEFRONT_ROW_TILE`; the
    /// vector loop under a register tile, `tiling::REGISTER_TILE_ROW`;
    /// the rows of a matrix-vector band, `tiling::STREAMED_ROW_TILE`).
    pub(crate) row_tile: Option<(usize, i64)>,
    /// `(member, size)`: the member cut into strips of `size` whose
    /// points run innermost, around the other members' loops (an untiled
    /// band whose innermost loop carries a dependence).
    pub(crate) vector_strips: Option<(usize, i64)>,
    /// Whether its tiles run as a wavefront.
    pub(crate) wavefront: bool,
    /// Whether it is a skewed wavefront band over several statements,
    /// whose statements are offered their own innermost point loops
    /// (`tiling::tile_and_mark`).
    pub(crate) sweeps: bool,
    /// Whether each of its statements runs in its own innermost point
    /// loop (the offer of `sweeps` proven).
    pub(crate) distributed: bool,
    /// The members in the order of the point loops (of the loops
    /// themselves when untiled).
    pub(crate) order: Vec<usize>,
    /// The members in the order of the tile loops, when tiled.
    pub(crate) tile_order: Vec<usize>,
    /// The member whose loop (tile loop when tiled) is marked parallel.
    pub(crate) parallel: Option<usize>,
    /// Whether the innermost loop kept its vector mark.
    pub(crate) vector: bool,
    /// An untiled innermost loop left unmarked (no threads, no `omp
    /// simd`: `tiling::tile_and_mark`), and why.
    pub(crate) left_to_compiler: Option<Unmarked>,
    /// The factor by which the point loop around the vector loop was
    /// unrolled and jammed into it, when it was.
    pub(crate) jam: Option<u32>,
    /// The factor by which the point loop around that one was unrolled and
    /// jammed too (a register tile), when it was.
    pub(crate) jam_outer: Option<u32>,
    /// With `target = gpu`: the members mapped to blocks (their tile
    /// loops when tiled, else their loops), then those mapped to threads
    /// (their point loops), each with its dimension (0 = x).
    pub(crate) gpu_blocks: Vec<(usize, u8)>,
    pub(crate) gpu_threads: Vec<(usize, u8)>,
    /// The arrays packed into a block's shared memory before the point
    /// loops, and the bytes their buffers take; those packed into a
    /// thread's registers inside the thread loops.
    pub(crate) gpu_shared: Vec<String>,
    pub(crate) gpu_shared_bytes: u64,
    pub(crate) gpu_registers: Vec<String>,
}

/// Why an untiled innermost loop is left to the compiler, unmarked: its
/// threads would pay more at their barriers than they share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unmarked {
    /// Inside three or more other loops (doitgen's `p`).
    Deep,
    /// Beside a loop nest that runs sequentially in each iteration of an
    /// outer loop (durbin's updates beside its reduction).
    BesideSequential,
}

impl BandChoice {
    /// Statement `s` of the rows becomes `numbers[s]` (a nest scheduled
    /// on its own names its statements as the region does).
    pub(crate) fn renumber(&mut self, numbers: &[usize]) {
        for rows in &mut self.members {
            for (s, _) in rows {
                *s = numbers.get(*s).copied().unwrap_or(*s);
            }
        }
    }

    /// One line: the statements, the members (each as the first row that
    /// moves with an iterator, other statements' rows in brackets when
    /// they differ), the flags, the tiles and the marks.
    pub fn describe(&self, scop: &Scop) -> String {
        let member = |m: usize| -> String {
            let rows = &self.members[m];
            let text = |(s, row): &(usize, AffineRow)| row_text(scop, *s, row);
            // The first row that moves with an iterator, else the first.
            let main = rows
                .iter()
                .position(|(_, row)| row.iter.iter().any(|&c| c != 0))
                .unwrap_or(0);
            let first = rows.get(main).map(text).unwrap_or_default();
            let others: Vec<String> = rows
                .iter()
                .filter(|r| text(r) != first)
                .map(|r| format!("{}: {}", scop.statements[r.0].name, text(r)))
                .collect();
            if others.is_empty() {
                first
            } else {
                format!("{first} [{}]", others.join(", "))
            }
        };
        let statements: Vec<&str> = self
            .members
            .first()
            .map(|rows| {
                rows.iter()
                    .map(|(s, _)| scop.statements[*s].name.as_str())
                    .collect()
            })
            .unwrap_or_default();
        let members: Vec<String> = (0..self.members.len()).map(member).collect();
        let coincident: Vec<&str> = (0..self.members.len())
            .filter(|&m| self.coincident[m])
            .map(|m| members[m].as_str())
            .collect();
        let mut parts = vec![format!("members {}", members.join(", "))];
        if members.len() > 1 {
            parts.push(
                if self.permutable {
                    "permutable"
                } else {
                    "not permutable"
                }
                .to_string(),
            );
        }
        parts.push(format!(
            "coincident: {}",
            if coincident.is_empty() {
                "none".to_string()
            } else {
                coincident.join(", ")
            }
        ));
        if let Some(size) = self.tile {
            let mut sizes = vec![size.to_string(); self.members.len()];
            if let Some((member, row)) = self.row_tile {
                if let Some(size) = sizes.get_mut(member) {
                    *size = row.to_string();
                }
            }
            let sizes = sizes.join(" x ");
            parts.push(format!(
                "tiles {sizes}{}",
                if self.wavefront {
                    " as a wavefront"
                } else {
                    ""
                }
            ));
        }
        if self.tile.is_some() && self.tile_order.iter().enumerate().any(|(k, &m)| k != m) {
            let order: Vec<&str> = self
                .tile_order
                .iter()
                .map(|&m| members[m].as_str())
                .collect();
            parts.push(format!("tile loops in order {}", order.join(", ")));
        }
        if self.order.iter().enumerate().any(|(k, &m)| k != m) {
            let order: Vec<&str> = self.order.iter().map(|&m| members[m].as_str()).collect();
            let what = if self.tile.is_some() {
                "point loops"
            } else {
                "loops"
            };
            parts.push(format!("{what} in order {}", order.join(", ")));
        }
        if let Some((m, size)) = self.vector_strips {
            parts.push(format!(
                "{} in strips of {size}, the points of each innermost",
                members[m]
            ));
        }
        if self.distributed {
            parts.push("each statement in its own innermost point loop".to_string());
        }
        if let Some(m) = self.parallel {
            let tile = if self.tile.is_some() {
                "the tile loop of "
            } else if self.vector_strips.is_some_and(|(v, _)| v == m) {
                "the strips of "
            } else {
                ""
            };
            parts.push(format!("parallel: {tile}{}", members[m]));
        }
        for (what, mapped) in [("blocks", &self.gpu_blocks), ("threads", &self.gpu_threads)] {
            if !mapped.is_empty() {
                let list: Vec<String> = mapped
                    .iter()
                    .map(|&(m, d)| format!("{} on {}", members[m], ["x", "y", "z"][usize::from(d)]))
                    .collect();
                parts.push(format!("CUDA {what}: {}", list.join(", ")));
            }
        }
        for (what, arrays) in [
            ("shared memory", &self.gpu_shared),
            ("registers", &self.gpu_registers),
        ] {
            if !arrays.is_empty() {
                parts.push(format!("packed into {what}: {}", arrays.join(", ")));
            }
        }
        if self.vector {
            let innermost = self
                .vector_strips
                .map(|(m, _)| m)
                .or(self.order.last().copied());
            if let Some(m) = innermost {
                parts.push(format!("vector: {}", members[m]));
            }
        }
        if let Some(why) = self.left_to_compiler {
            parts.push(
                match why {
                    Unmarked::Deep => "innermost inside three or more loops: left unmarked",
                    Unmarked::BesideSequential => "beside a sequential loop nest: left unmarked",
                }
                .to_string(),
            );
        }
        if let (Some(factor), [.., outer, _]) = (self.jam, self.order.as_slice()) {
            parts.push(format!(
                "{} unrolled by {factor} and jammed",
                members[*outer]
            ));
        }
        if let (Some(factor), [.., outer, _, _]) = (self.jam_outer, self.order.as_slice()) {
            parts.push(format!(
                "{} unrolled by {factor} and jammed too (a register tile)",
                members[*outer]
            ));
        }
        format!("band of {}: {}", statements.join(", "), parts.join("; "))
    }
}

/// `row` over the iterators and parameters of statement `s`: `2t + i + 1`.
pub(crate) fn row_text(scop: &Scop, s: usize, row: &AffineRow) -> String {
    let names = &scop.statements[s].iterators;
    let terms: Vec<(i64, &str)> = row
        .iter
        .iter()
        .zip(names)
        .map(|(c, n)| (*c, n.as_str()))
        .chain(
            row.param
                .iter()
                .zip(&scop.params)
                .map(|(c, n)| (*c, n.as_str())),
        )
        .collect();
    linear_text(&terms, row.constant)
}
