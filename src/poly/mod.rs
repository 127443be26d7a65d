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
//! This module knows nothing about programs.
//!
//! ```
//! use polyc::poly::{BasicSet, Constraint, Space};
//! // [N] -> { S[i] : 0 <= i < N }
//! let space = Space::set(vec!["N".into()], Some("S".into()), vec!["i".into()]);
//! let mut s = BasicSet::universe(space);
//! s.add(Constraint::ineq(vec![0, 1], 0));   // i >= 0
//! s.add(Constraint::ineq(vec![1, -1], -1)); // N - i - 1 >= 0
//! assert_eq!(s.to_string(), "[N] -> { S[i] : i >= 0 and i <= N - 1 }");
//! ```

mod basic;
mod constraint;
mod error;
mod omega;
mod ops;
mod print;
mod space;
mod union;

pub use basic::{BasicMap, BasicSet};
pub use constraint::{checked_add, checked_mul, Constraint, ConstraintKind, Overflow};
pub use error::PolyError;
pub use ops::LexOpt;
pub use space::{Space, Tuple};
pub use union::{Map, Set};
