//! Polyhedral scanning (Quilleré–Rajopadhye–Wilde, as CLooG does it): the
//! union of the scheduled statement domains becomes a loop AST whose
//! execution visits every scheduled instance once, in the lexicographic
//! order of its dates.
//!
//! Each statement piece becomes one *item*: the integer set, over the dates
//! `[β0, α1, β1, …]` followed by the statement's iterators (and the
//! domain's and piece's existential variables, as plain dimensions), of
//! the pairs (date, instance) that the piece maps. Scanning walks the
//! dates outermost first ([`build`]): a β dimension separates items by
//! value, in order; an α dimension becomes a loop whose bounds are the
//! projections of the items (rational Fourier–Motzkin, then simplified
//! under the enclosing constraints with `gist`), or an assignment when an
//! equation fixes it; items whose bounds differ get disjoint loops in
//! order ([`separate`]). After the last date, each statement's iterators are
//! read off the equations. Last, each full tile gets a copy of its point
//! loops with constant-width bounds ([`full_tiles`]).
//!
//! This module knows schedules and `poly` only: not recipes, directives or
//! C text (the printers in [`super::loops`] do that).

pub mod ast;
mod build;
mod canonical;
mod full_tiles;
mod items;
pub mod rewrite;
mod separate;

pub use ast::{Cond, Expr, Loop, Node, Quotient, Sum};
pub use build::scan;

use crate::poly::PolyError;

/// The prefix of polyc's own names: iterators that [`super::pack`] adds
/// (scanning solves them like any iterator, and never names a loop after
/// one) and its buffers.
pub const POLYC_PREFIX: &str = "polyc_";

/// Why a schedule could not be scanned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScanError {
    /// A `poly` operation could not decide.
    Poly(PolyError),
    /// The schedule has a form scanning does not handle (said in words).
    Unsupported(String),
}

impl From<PolyError> for ScanError {
    fn from(e: PolyError) -> ScanError {
        ScanError::Poly(e)
    }
}

impl From<crate::poly::Overflow> for ScanError {
    fn from(_: crate::poly::Overflow) -> ScanError {
        ScanError::Poly(PolyError::Overflow)
    }
}

impl std::fmt::Display for ScanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScanError::Poly(e) => write!(f, "{e}"),
            ScanError::Unsupported(s) => f.write_str(s),
        }
    }
}

/// Whether `set` is proven to have no integer point. A test that gives up
/// at a step limit proves nothing: `false`. Scanning asks only where
/// "not proven empty" is the safe answer (an item or a piece scanned that
/// may run no iteration, a guard kept that may always hold, a row not
/// assumed), so a hard set costs simpler code, never a failure or a
/// wrong program.
fn proven_empty(set: &crate::poly::BasicSet) -> Result<bool, ScanError> {
    match set.is_empty() {
        Err(PolyError::StepLimit(_)) => Ok(false),
        answer => Ok(answer?),
    }
}
