//! The syntax layer: what every front end and printer shares and nothing
//! of the model. The C syntax tree ([`c`]) and its printer ([`print`]),
//! source spans ([`Span`]) and the diagnostics that point at them
//! ([`diagnostic`]).
//!
//! Knows only `std` and codespan-reporting: no sets, no schedules, no
//! recipes. The model (`scop`) keeps statement bodies as [`c`] trees and
//! prints them with [`print`].

pub mod c;
pub mod diagnostic;
pub mod print;

/// Byte offsets into a source text (a C file, a recipe, a script).
pub type Span = std::ops::Range<usize>;
