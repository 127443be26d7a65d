//! Affine constraints with checked integer coefficients.

use std::fmt;

/// An integer overflow in coefficient arithmetic: the operation was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

impl fmt::Display for Overflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("integer overflow in polyhedral arithmetic")
    }
}

impl std::error::Error for Overflow {}

/// `a + b`, or [`Overflow`].
pub fn checked_add(a: i64, b: i64) -> Result<i64, Overflow> {
    a.checked_add(b).ok_or(Overflow)
}

/// `a * b`, or [`Overflow`].
pub fn checked_mul(a: i64, b: i64) -> Result<i64, Overflow> {
    a.checked_mul(b).ok_or(Overflow)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConstraintKind {
    /// `coeffs · x + constant = 0`
    Eq,
    /// `coeffs · x + constant >= 0`
    Ineq,
}

/// One row `coeffs · x + constant (= | >=) 0`; columns as documented in [`crate::poly`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constraint {
    pub kind: ConstraintKind,
    pub coeffs: Vec<i64>,
    pub constant: i64,
}

impl Constraint {
    pub fn eq(coeffs: Vec<i64>, constant: i64) -> Constraint {
        Constraint {
            kind: ConstraintKind::Eq,
            coeffs,
            constant,
        }
    }

    pub fn ineq(coeffs: Vec<i64>, constant: i64) -> Constraint {
        Constraint {
            kind: ConstraintKind::Ineq,
            coeffs,
            constant,
        }
    }

    pub fn is_eq(&self) -> bool {
        self.kind == ConstraintKind::Eq
    }

    /// The same row over `n` columns, column `k` moved to `col(k)` (every
    /// `col(k) < n`, distinct); the other columns are zero. Cheap.
    pub fn remapped(&self, n: usize, col: impl Fn(usize) -> usize) -> Constraint {
        let mut coeffs = vec![0; n];
        for (k, &v) in self.coeffs.iter().enumerate() {
            coeffs[col(k)] = v;
        }
        Constraint {
            kind: self.kind,
            coeffs,
            constant: self.constant,
        }
    }

    /// Extend the row with zero columns up to `n` columns (before the constant).
    pub(crate) fn pad_to(&mut self, n: usize) {
        if self.coeffs.len() < n {
            self.coeffs.resize(n, 0);
        }
    }
}
