//! What a scheduler builds, as a tree (isl's schedule tree, reduced to
//! what polyc's schedulers make): bands of affine rows, sequences, and
//! leaves; and its Clay form, the same structure as a recipe's schedule.
//!
//! In Clay form every statement's dates are `[β0, α1, β1, …, αd, βd]`:
//! a band member is an α (a loop), a sequence position is the β before
//! the next α (or the last β), and members of one band are separated by
//! β = 0. A coincident member is a loop marked parallel; it is checked
//! like any mark of a recipe.

use super::feautrier::AffineRow;
use crate::poly::{BasicMap, Constraint, Space, Tuple};
use crate::scop::schedule::date_count;
use crate::scop::{Mark, Schedule, Scop, StatementSchedule};

/// A schedule tree over the statements of a scop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tree {
    /// One statement, scheduled completely above.
    Leaf(usize),
    /// Members that are loops of every statement below, outermost first.
    Band {
        members: Vec<BandMember>,
        /// Whether the members may be permuted (a Pluto band).
        permutable: bool,
        /// Whether it fuses nests that share only reads of an array
        /// ([`super::shared_reads`]): its tiles run in order, never as a
        /// wavefront.
        shared_reads: bool,
        child: Box<Tree>,
    },
    /// Children executed one after the other.
    Sequence(Vec<Tree>),
}

/// One member of a band: a row for every statement below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BandMember {
    /// `(statement, row)` for each statement below.
    pub rows: Vec<(usize, AffineRow)>,
    pub coincident: bool,
}

/// One statement's dates while the tree is read.
#[derive(Clone, Debug, Default)]
struct Dates {
    /// The α rows, outermost first, with their marks.
    alphas: Vec<(AffineRow, Vec<Mark>)>,
    /// The β before each α, then the last one.
    betas: Vec<i64>,
}

impl Tree {
    /// A sequence of `children`, flattened: a child sequence gives its
    /// children, and a single child is itself.
    pub fn sequence(children: Vec<Tree>) -> Tree {
        let mut flat = Vec::new();
        for c in children {
            match c {
                Tree::Sequence(inner) => flat.extend(inner),
                other => flat.push(other),
            }
        }
        if flat.len() == 1 {
            flat.pop().unwrap_or(Tree::Sequence(Vec::new()))
        } else {
            Tree::Sequence(flat)
        }
    }

    /// Whether a band is anywhere in this tree.
    pub fn has_band(&self) -> bool {
        match self {
            Tree::Leaf(_) => false,
            Tree::Band { .. } => true,
            Tree::Sequence(children) => children.iter().any(Tree::has_band),
        }
    }

    /// Whether a band of the tree has a coincident member (a loop that may
    /// run in parallel).
    pub fn has_coincident_member(&self) -> bool {
        match self {
            Tree::Leaf(_) => false,
            Tree::Band { members, child, .. } => {
                members.iter().any(|m| m.coincident) || child.has_coincident_member()
            }
            Tree::Sequence(children) => children.iter().any(Tree::has_coincident_member),
        }
    }

    /// The Clay-form schedule of `scop` that this tree describes; with
    /// `marks`, a parallel mark on the outermost coincident member of each
    /// band.
    pub fn to_schedule(&self, scop: &Scop, marks: bool) -> Schedule {
        let mut dates = vec![Dates::default(); scop.statements.len()];
        self.collect(&mut dates, 0, marks);
        Schedule {
            statements: scop
                .statements
                .iter()
                .zip(dates)
                .map(|(st, d)| {
                    let depth = d.alphas.len();
                    let outs: Vec<String> =
                        (0..date_count(depth)).map(|c| format!("c{c}")).collect();
                    let space = Space::map(
                        scop.params.clone(),
                        Tuple::new(Some(st.name.clone()), st.iterators.clone()),
                        Tuple::new(None, outs),
                    );
                    let n_cols = space.n_dim_total();
                    let mut piece = BasicMap::universe(space.clone());
                    let mut betas = d.betas.iter().copied();
                    for k in 0..=depth {
                        let mut row = vec![0; n_cols];
                        row[space.out_col(2 * k)] = 1;
                        piece.add(Constraint::eq(row, -betas.next().unwrap_or(0)));
                        if let Some((alpha, _)) = d.alphas.get(k) {
                            let mut row = vec![0; n_cols];
                            row[space.out_col(2 * k + 1)] = -1;
                            for (p, &c) in alpha.param.iter().enumerate() {
                                row[p] = c;
                            }
                            for (j, &c) in alpha.iter.iter().enumerate() {
                                row[space.in_col(j)] = c;
                            }
                            piece.add(Constraint::eq(row, alpha.constant));
                        }
                    }
                    StatementSchedule {
                        pieces: vec![piece],
                        marks: d.alphas.into_iter().map(|(_, m)| m).collect(),
                    }
                })
                .collect(),
        }
    }

    /// Append this node's dates to every statement below it; `beta` is the
    /// β the first date of this node takes.
    fn collect(&self, dates: &mut [Dates], beta: i64, marks: bool) {
        match self {
            Tree::Leaf(s) => dates[*s].betas.push(beta),
            Tree::Band { members, child, .. } => {
                let first_parallel = members.iter().position(|m| m.coincident).filter(|_| marks);
                for (k, member) in members.iter().enumerate() {
                    for (s, row) in &member.rows {
                        let marks = if Some(k) == first_parallel {
                            vec![Mark::Parallel]
                        } else {
                            Vec::new()
                        };
                        dates[*s].betas.push(if k == 0 { beta } else { 0 });
                        dates[*s].alphas.push((row.clone(), marks));
                    }
                }
                child.collect(dates, if members.is_empty() { beta } else { 0 }, marks);
            }
            Tree::Sequence(children) => {
                // Built by `Tree::sequence`, a sequence is never directly
                // below another, so its β count starts at the given one.
                for (k, c) in (beta..).zip(children) {
                    c.collect(dates, k, marks);
                }
            }
        }
    }
}
