//! Exact Presburger arithmetic: integer sets and relations over a [`Space`].
//!
//! The vocabulary follows isl: a [`BasicSet`] is a conjunction of affine
//! constraints over the integer points of a space, a [`Set`] a finite union of
//! them; [`BasicMap`] and [`Map`] are the same for relations. Constraints may
//! mention *local* (existentially quantified) dimensions, which is how integer
//! division `floor(e / k)` and strides are expressed exactly.
//!
//! Column order of every constraint row (documented once, used everywhere):
//!
//! ```text
//!   [ parameters | input dims | output dims | locals ]  + constant
//! ```
//!
//! A set has no input dims. All coefficient arithmetic is checked: an overflow
//! is returned as [`Overflow`], never wrapped.
//!
//! Every operation is **exact over the integers** and says what it costs.
//! Emptiness, sample and lexmin/lexmax are decided by the Omega test
//! (`omega.rs`): exact integer reasoning, never floating point. Projection is
//! exact because a projected dimension becomes a local (`exists`): nothing
//! rational is ever substituted for an integer answer. An operation that
//! cannot decide (an overflow, an unsupported local) returns a [`PolyError`],
//! which callers must read as "unknown", never as "empty".
//!
//! This module knows nothing about programs.
//!
//! A worked example: the integer points of `[N] -> { S[i] : 0 <= i < N }` for
//! `N = 3`, listed by repeated lexmin.
//!
//! ```
//! use polyc::poly::{BasicSet, Constraint, LexOpt, Space};
//! let space = Space::set(vec!["N".into()], Some("S".into()), vec!["i".into()]);
//! let mut s = BasicSet::universe(space);
//! s.add(Constraint::ineq(vec![0, 1], 0));   // i >= 0
//! s.add(Constraint::ineq(vec![1, -1], -1)); // N - i - 1 >= 0
//! assert_eq!(s.to_string(), "[N] -> { S[i] : i >= 0 and i <= N - 1 }");
//! s.add(Constraint::eq(vec![1, 0], -3));    // N = 3
//! let mut points = Vec::new();
//! while let LexOpt::Point(p) = s.lexmin().unwrap() {
//!     points.push(p[1]);
//!     s.add(Constraint::ineq(vec![0, 1], -p[1] - 1)); // i >= p + 1
//! }
//! assert_eq!(points, [0, 1, 2]);
//! // { [x] : 1 <= 3x <= 2 } has rational points but no integer one.
//! let mut t = BasicSet::universe(Space::set(vec![], None, vec!["x".into()]));
//! t.add(Constraint::ineq(vec![3], -1));
//! t.add(Constraint::ineq(vec![-3], 2));
//! assert!(t.is_empty().unwrap());
//! ```

mod affine;
mod basic;
mod bounds;
mod constraint;
mod divisions;
mod error;
mod farkas;
mod flat_memo;
mod integer_lexmin;
mod invariant_divisor;
mod omega;
mod omega_memo;
mod ops;
mod print;
mod relations;
mod simplex;
mod simplify;
mod space;
mod substituted;
#[cfg(test)]
pub(crate) mod test_rng;
mod union;
mod work;
mod wrap;

pub use affine::Affine;
pub use basic::{BasicMap, BasicSet};
pub use bounds::{Bound, DimBounds};
pub use constraint::{
    checked_add, checked_mul, gcd, gcd_of, lcm, Constraint, ConstraintKind, Overflow,
};
pub use error::PolyError;
pub use farkas::nonnegative_forms;
pub use flat_memo::{push_rows, FlatMemo};
pub use integer_lexmin::{integer_lexmin_nonneg, integer_lexmin_of_reduced};
pub use omega::WORK_LIMIT;
pub use omega_memo::unremembered;
pub use ops::LexOpt;
pub(crate) use print::linear_text;
pub use simplex::{
    rational_lexmin_nonneg, rational_lexmin_of_reduced, reduced_nonneg_rows, Ratio, STEP_LIMIT,
};
pub use space::{Space, Tuple};
pub use substituted::Substituted;
pub use union::{Map, Set};
pub use work::with_work_limit;
mod parse;
pub use parse::{parse_basic_map, parse_basic_set, parse_map, parse_set, ParseError};
