//! Errors of `poly` operations.

use std::fmt;

use super::Overflow;

/// Why an operation gave no answer. An operation that returns an error has
/// decided nothing: callers must not read it as "empty" or "not a subset".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolyError {
    /// Coefficients outgrew 64 bits.
    Overflow,
    /// The operands live in different spaces (a bug of the caller).
    SpaceMismatch { op: &'static str },
    /// The operation is not implemented for this input (named in the text).
    Unsupported(&'static str),
    /// The operation gave up after its documented number of steps (the
    /// text names it); nothing was decided.
    StepLimit(&'static str),
}

impl From<Overflow> for PolyError {
    fn from(_: Overflow) -> PolyError {
        PolyError::Overflow
    }
}

impl fmt::Display for PolyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolyError::Overflow => f.write_str("integer overflow in polyhedral arithmetic"),
            PolyError::SpaceMismatch { op } => write!(f, "{op}: operands live in different spaces"),
            PolyError::Unsupported(what) => write!(f, "not supported: {what}"),
            PolyError::StepLimit(what) => write!(f, "{what}: gave up at a step limit"),
        }
    }
}

impl std::error::Error for PolyError {}
