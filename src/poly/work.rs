//! A limit on the exact work of one task, shared by every Omega test it
//! makes: [`with_work_limit`].
//!
//! Each Omega test already gives up past its own
//! [`WORK_LIMIT`](super::WORK_LIMIT); a task that makes thousands of tests
//! each under it (the legality check of a directive on a jammed wavefront
//! schedule) could still run for seconds. Inside [`with_work_limit`] every
//! test draws on one budget, and the first test that would pass it gives up
//! with [`PolyError::StepLimit`](super::PolyError::StepLimit): nothing is
//! decided, so the caller reads "not proven", never "empty".
//!
//! The budget is per thread (the tests of a task run on the thread that
//! asked): a scope costs nothing to a test made outside it, and scopes
//! nest, the inner one never allowed more than the outer has left.

use std::cell::Cell;

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
}
