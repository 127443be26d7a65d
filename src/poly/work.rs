//! A limit on the exact work of one task, shared by every Omega test,
//! Fourier–Motzkin elimination and simplex pivot it makes:
//! [`with_work_limit`].
//!
//! Each Omega test already gives up past its own
//! [`WORK_LIMIT`](super::WORK_LIMIT); a task that makes thousands of tests
//! each under it (the legality check of a directive on a jammed wavefront
//! schedule) could still run for seconds. Inside [`with_work_limit`] every
//! test draws on one budget, and the first test that would pass it gives up
//! with [`PolyError::StepLimit`](super::PolyError::StepLimit): nothing is
//! decided, so the caller reads "not proven", never "empty".
//!
//! Fourier–Motzkin elimination ([`super::bounds`]) draws a step per pair
//! of bounds it combines, kept or pruned, and a row per
//! [`CELLS_PER_ROW`] signs and histories it reads.
//!
//! The simplex ([`super::simplex`]) draws on the same budget, a row per
//! row of its tableau at each pivot, or per 96 cells where its rows are
//! wider ([`draw`]): its pivots are cheap, but
//! the branch and bound of an integer lexmin may run tens of thousands
//! of minimisations of hundreds of rows each (`auto(pluto, wavefront =
//! true)` on a random kernel of seed 12 ran 98 s before a step limit
//! stopped it; the test kernels' `auto` calls draw at most 1.3 million).
//!
//! The budget is per thread (the tests of a task run on the thread that
//! asked): a scope costs nothing to a test made outside it, and scopes
//! nest, the inner one never allowed more than the outer has left.

use super::PolyError;
use std::cell::Cell;

/// The cells (entries of a row read or written) charged as one row of
/// work, where rows are wide: a simplex pivot costs a row per tableau row
/// or per this many of its cells, and Fourier–Motzkin's reading of signs
/// and histories a row per this many. Rows alone undercounted wide
/// tableaux: `auto(feautrier)` on a random kernel (seed 35, rows of 450
/// columns on average) spent 17 s before its budget ran out, 2.6 s then.
/// At 64, three random kernels of 2,400 `auto` runs (seeds 33 and 34)
/// were no longer scheduled: the scheduling left too little for the
/// check of its result.
pub(super) const CELLS_PER_ROW: u64 = 96;

thread_local! {
    /// Rows of work left to the innermost scope of this thread, if any.
    static LEFT: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Run `f` with at most `rows` rows of Omega-test work in all (within the
/// enclosing scope's, if any); return its result and the rows it spent.
pub fn with_work_limit<T>(rows: u64, f: impl FnOnce() -> T) -> (T, u64) {
    let outer = LEFT.with(Cell::get);
    let allowed = outer.map_or(rows, |left| left.min(rows));
    LEFT.with(|l| l.set(Some(allowed)));
    let out = f();
    let spent = allowed - LEFT.with(Cell::get).unwrap_or(allowed);
    LEFT.with(|l| l.set(outer.map(|left| left - spent)));
    (out, spent)
}

/// The work one test may do: its own `limit`, or less when the enclosing
/// scope has less left.
pub(super) fn allowance(limit: u64) -> u64 {
    LEFT.with(Cell::get).map_or(limit, |left| left.min(limit))
}

/// Spend `rows` of the enclosing scope's budget now, or give up with
/// [`PolyError::StepLimit`] naming `what` when it has less left. Free
/// outside any scope.
pub(super) fn draw(rows: u64, what: &'static str) -> Result<(), PolyError> {
    LEFT.with(|l| match l.get() {
        Some(left) if left < rows => {
            l.set(Some(0));
            Err(PolyError::StepLimit(what))
        }
        Some(left) => {
            l.set(Some(left - rows));
            Ok(())
        }
        None => Ok(()),
    })
}

/// Record that a test spent `rows` (at most what [`allowance`] gave it).
pub(super) fn charge(rows: u64) {
    LEFT.with(|l| {
        if let Some(left) = l.get() {
            l.set(Some(left.saturating_sub(rows)));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_nest_and_charge_their_parents() {
        let ((inner, spent_inner), spent) = with_work_limit(100, || {
            charge(30);
            with_work_limit(500, || {
                let a = allowance(1_000);
                charge(20);
                a
            })
        });
        assert_eq!((inner, spent_inner, spent), (70, 20, 50));
        assert_eq!(allowance(7), 7, "no scope outside");
    }

    #[test]
    fn a_draw_past_the_budget_gives_up_and_spends_it_all() {
        let ((first, second), spent) =
            with_work_limit(100, || (draw(60, "test"), draw(60, "test")));
        assert!(first.is_ok());
        assert!(matches!(second, Err(PolyError::StepLimit("test"))));
        assert_eq!(spent, 100);
        assert!(draw(1_000_000, "test").is_ok(), "free outside any scope");
    }
}
