//! The program as the recovery's phases see it after an index-set split
//! is cut ([`super::cut`]): one statement per piece of the schedule,
//! named as its statement, each dependence cut into its pairs between
//! two pieces, the schedule and the target one piece per statement.
//!
//! Must not know: the phases, recipe syntax.

use super::cut::Cut;
use super::domains::{domain, with_strip_cuts_over_iterators, Domain};
use crate::apply::dates::drop_dates;
use crate::explain::shape::date_forms;
use crate::explain::ExplainError;
use crate::poly::{Map, PolyError};
use crate::scop::schedule::{alpha_date, beta_date, constant_date, StatementSchedule};
use crate::scop::{Dependence, Schedule, Scop};

/// The scop, dependences, schedule and target as the other phases see
/// them after the cut: one statement per [`super::cut::Unit`] (named as its
/// statement), its domain restricted to the piece by the piece's
/// schedule, and each dependence cut into the pairs between two units.
pub(super) struct View {
    pub scop: Scop,
    pub deps: Vec<Dependence>,
    pub current: Schedule,
    pub target: Schedule,
}

/// Where [`unpadded`] looks for the dates a tile of another piece padded
/// a piece with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pads {
    /// At the depths of the other pieces' tile dates.
    AtTiles,
    /// Also deeper: the tile loop moved outwards after its strip (a
    /// `tile` of one piece leaves the pad at the `stripmine`'s depth).
    BelowTiles,
}

/// The [`View`] of `cut`, with the pads `pads` says set aside. Exact: a
/// dependence between two units holds the pairs of the original whose
/// source is in the first and target in the second.
pub(super) fn view(
    scop: &Scop,
    deps: &[Dependence],
    cut: &Cut,
    target: &Schedule,
    pads: Pads,
) -> Result<View, ExplainError> {
    let mut domains = Vec::new();
    for u in &cut.units {
        let st = &cut.schedule.statements[u.statement];
        let d = domain(scop, u.statement, st, u.piece)?.ok_or_else(|| {
            ExplainError::NotReplayed("meet a β date that is not a constant".to_string())
        })?;
        domains.push(d);
    }
    let one = |st: &StatementSchedule, piece: usize| StatementSchedule {
        pieces: vec![st.pieces[piece].clone()],
        marks: st.marks.clone(),
    };
    let mut view = View {
        scop: Scop {
            statements: cut
                .units
                .iter()
                .map(|u| scop.statements[u.statement].clone())
                .collect(),
            ..scop.clone()
        },
        deps: Vec::new(),
        current: Schedule {
            statements: cut
                .units
                .iter()
                .map(|u| one(&cut.schedule.statements[u.statement], u.piece))
                .collect(),
        },
        target: Schedule {
            statements: cut
                .units
                .iter()
                .map(|u| {
                    let s = u.statement;
                    match cut.strip_cuts {
                        true => {
                            let read =
                                with_strip_cuts_over_iterators(scop, s, &target.statements[s])?;
                            unpadded(scop, &read, s, u.target, pads)
                        }
                        false => unpadded(scop, &target.statements[s], s, u.target, pads),
                    }
                })
                .collect::<Result<_, _>>()?,
        },
    };
    for dep in deps {
        for (a, ua) in cut.units.iter().enumerate() {
            if ua.statement != dep.source {
                continue;
            }
            for (b, ub) in cut.units.iter().enumerate() {
                if ub.statement != dep.target {
                    continue;
                }
                let relation = restricted(&dep.relation, &domains[a], &domains[b]);
                if relation.is_empty()? {
                    continue;
                }
                view.deps.push(Dependence {
                    source: a,
                    target: b,
                    relation,
                    ..dep.clone()
                });
            }
        }
    }
    Ok(view)
}

/// Piece `p` of statement `s`'s target `st` as a statement of its own,
/// without the dates `stripmine` and `tile_band` pad it with when they
/// tile another piece of the statement in another loop: at a depth where
/// another piece has a tile date (one without an affine form), the loop
/// `0` and the β `0` after it, which no other row mentions (with
/// [`Pads::BelowTiles`], also at a depth below such a tile date). The
/// phases then tile the other piece alone, and the replay on the real
/// schedule pads this one as the target does (the replay checks it).
/// Exact.
fn unpadded(
    scop: &Scop,
    st: &StatementSchedule,
    s: usize,
    p: usize,
    pads: Pads,
) -> Result<StatementSchedule, PolyError> {
    let (np, n) = (scop.params.len(), scop.statements[s].iterators.len());
    let mut tiled = vec![false; st.depth()];
    for (q, piece) in st.pieces.iter().enumerate() {
        if q == p {
            continue;
        }
        for (k, form) in date_forms(piece, np, n)?.iter().enumerate() {
            tiled[k] |= form.is_none();
        }
    }
    if pads == Pads::BelowTiles {
        for k in 1..tiled.len() {
            tiled[k] |= tiled[k - 1];
        }
    }
    let mut piece = st.pieces[p].clone();
    let mut marks = st.marks.clone();
    for depth in (1..=st.depth()).rev() {
        let dates = [alpha_date(depth), beta_date(depth)];
        let cols = dates.map(|d| piece.space().out_col(d));
        let zero = piece.constraints().iter().all(|r| {
            let mentions = cols.iter().filter(|&&c| r.coeffs[c] != 0).count();
            mentions == 0
                || (mentions == 1
                    && r.is_eq()
                    && r.constant == 0
                    && r.coeffs.iter().filter(|&&v| v != 0).count() == 1)
        });
        let defined = dates.iter().all(|&d| constant_date(&piece, d) == Some(0));
        if tiled[depth - 1] && zero && defined && depth <= marks.len() {
            piece = drop_dates(&piece, alpha_date(depth), 2);
            marks.remove(depth - 1);
        }
    }
    Ok(StatementSchedule {
        pieces: vec![piece],
        marks,
    })
}

/// `relation` with its source in `source` and its target in `target`
/// (domains without locals). Exact, cheap.
fn restricted(relation: &Map, source: &Domain, target: &Domain) -> Map {
    let mut out = Map::empty(relation.space().clone());
    for b in relation.basics() {
        let mut b = b.clone();
        let (n, np, n_in) = (b.n_cols(), b.space().n_param(), b.space().n_in());
        for c in source.constraints() {
            b.add(c.remapped(n, |k| k));
        }
        for c in target.constraints() {
            b.add(c.remapped(n, |k| if k < np { k } else { k + n_in }));
        }
        out.push(b);
    }
    out
}
