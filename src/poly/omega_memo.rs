//! The Omega test's answers, remembered per thread: [`recall`] and
//! [`remember`].
//!
//! The checks of a recipe ask the same integer question many times: the
//! legality check after each directive proves again every pair of
//! instances the directive did not move, and `auto`'s offered tiles, jams
//! and marks are each proven alone and then with the whole schedule. On
//! 3mm's `auto(pluto)`, 400 of 1,022 Omega tests repeated an earlier one
//! and took half of the tests' time.
//!
//! An answer is kept with the work its test did. A question asked again
//! gets the same answer and is charged the same work
//! ([`super::work`]), and when the work left is less than that, the test
//! runs again (and gives up where it gave up before). So whether a check
//! gives up never depends on what was asked before: the memo changes how
//! long an answer takes, never which answer comes back. Only answers are
//! kept, never a give-up or an overflow.
//!
//! The memo holds at most [`MAX_CELLS`] coefficients in all; past that it
//! is emptied and starts again.
//!
//! Where questions do not come back, keeping them costs more than it
//! saves: code generation asks each of its questions once (heat-3d's
//! `auto(pluto)`: 2 repeats in 1,714), and so does the check that dates
//! are one-to-one. [`unremembered`] runs such work without the memo.

use std::cell::{Cell, RefCell};

use super::{push_rows, Constraint, FlatMemo};

/// The most coefficients the questions kept by one thread may hold
/// together (8 bytes each: 16 MiB).
pub const MAX_CELLS: usize = 1 << 21;

/// An answer (a point, or `None` for no integer point) and the work it took.
pub(super) type Answer = (Option<Vec<i64>>, u64);

thread_local! {
    static MEMO: RefCell<FlatMemo<Answer>> = RefCell::new(FlatMemo::new(MAX_CELLS));
    /// Whether this thread's questions are recalled and kept now.
    static KEEPING: Cell<bool> = const { Cell::new(true) };
}

/// Run `f` without recalling or keeping any Omega test's answer (module
/// docs): for work whose questions do not come back. The answers are the
/// same; only the time they take changes.
pub fn unremembered<T>(f: impl FnOnce() -> T) -> T {
    let outer = KEEPING.with(|k| k.replace(false));
    let out = f();
    KEEPING.with(|k| k.set(outer));
    out
}

/// Whether questions are recalled and kept now ([`unremembered`]).
pub(super) fn keeping() -> bool {
    KEEPING.with(Cell::get)
}

/// A question, flat: `n`, then its rows ([`push_rows`]). One vector, so a
/// question is one allocation and one comparison.
pub(super) struct Question(Vec<i64>);

/// `rows` over `n` columns as a [`Question`].
pub(super) fn encode(n: usize, rows: &[Constraint]) -> Question {
    let mut out = vec![n as i64];
    push_rows(&mut out, rows);
    Question(out)
}

/// The answer to this question and the work it took, when this thread
/// asked it before.
pub(super) fn recall(question: &Question) -> Option<Answer> {
    MEMO.with(|m| m.borrow().get(&question.0).cloned())
}

/// Keep the answer to this question and the work it took.
pub(super) fn remember(question: Question, answer: Answer) {
    MEMO.with(|m| m.borrow_mut().insert(question.0, answer, 0));
}

#[cfg(test)]
mod tests {
    use super::super::omega::integer_sample;
    use super::super::{with_work_limit, Constraint, PolyError};

    /// `2x + 3y = 7 + 6z`, `0 <= x, y, z <= 5`: solved with a change of
    /// variable and some eliminations, so it costs more than one row.
    fn system() -> Vec<Constraint> {
        let mut rows = vec![Constraint::eq(vec![2, 3, -6], -7)];
        for k in 0..3 {
            let mut lo = vec![0; 3];
            lo[k] = 1;
            rows.push(Constraint::ineq(lo, 0));
            let mut hi = vec![0; 3];
            hi[k] = -1;
            rows.push(Constraint::ineq(hi, 5));
        }
        rows
    }

    #[test]
    fn a_question_asked_again_gets_the_same_answer_at_the_same_cost() {
        let rows = system();
        let (first, spent) = with_work_limit(u64::MAX, || integer_sample(3, &rows));
        let first = first.expect("solved");
        assert!(first.is_some() && spent > 1, "{first:?} {spent}");
        let (again, spent_again) = with_work_limit(u64::MAX, || integer_sample(3, &rows));
        assert_eq!(again.expect("recalled"), first);
        assert_eq!(spent_again, spent, "charged as if solved again");
    }

    #[test]
    fn the_memo_never_turns_a_give_up_into_an_answer() {
        let rows = system();
        let (_, spent) = with_work_limit(u64::MAX, || integer_sample(3, &rows));
        // Remembered now; with less work left than it took, the test
        // runs again and gives up as it did without the memo.
        let (short, _) = with_work_limit(spent - 1, || integer_sample(3, &rows));
        assert!(matches!(short, Err(PolyError::StepLimit(_))), "{short:?}");
        let (enough, _) = with_work_limit(spent, || integer_sample(3, &rows));
        assert!(matches!(enough, Ok(Some(_))), "{enough:?}");
    }
}
