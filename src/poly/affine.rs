//! Affine forms `Σ coeff·v + constant` over variables of any kind: columns
//! of a constraint row (`Affine<usize>`), or the front end's symbolic atoms.
//!
//! One type with one set of checked operations: every coefficient
//! operation fails with [`Overflow`] rather than wrap. A form is sparse
//! and canonical: no variable has a zero coefficient, and terms are kept
//! in the order of their variables, so equal forms compare (and hash)
//! equal whatever way they were built.

use std::collections::BTreeMap;

use super::constraint::{checked_add, checked_mul, Overflow};

/// `Σ coeff·v + constant`, no coefficient zero.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Affine<V: Ord> {
    terms: BTreeMap<V, i64>,
    constant: i64,
}

impl<V: Ord> Default for Affine<V> {
    fn default() -> Affine<V> {
        Affine {
            terms: BTreeMap::new(),
            constant: 0,
        }
    }
}

impl<V: Ord + Clone> Affine<V> {
    /// The constant form `c`.
    pub fn constant(c: i64) -> Affine<V> {
        Affine {
            terms: BTreeMap::new(),
            constant: c,
        }
    }

    /// The form `v`.
    pub fn var(v: V) -> Affine<V> {
        Affine::term(1, v)
    }

    /// The form `coeff·v`.
    pub fn term(coeff: i64, v: V) -> Affine<V> {
        let mut terms = BTreeMap::new();
        if coeff != 0 {
            terms.insert(v, coeff);
        }
        Affine { terms, constant: 0 }
    }

    /// The constant term.
    pub fn constant_term(&self) -> i64 {
        self.constant
    }

    /// The coefficient of `v` (0 when the form does not mention it).
    pub fn coeff(&self, v: &V) -> i64 {
        self.terms.get(v).copied().unwrap_or(0)
    }

    /// The variables with their (non-zero) coefficients, in order.
    pub fn terms(&self) -> impl Iterator<Item = (&V, i64)> {
        self.terms.iter().map(|(v, &c)| (v, c))
    }

    /// The same form with the constant term `c`.
    pub fn with_constant(mut self, c: i64) -> Affine<V> {
        self.constant = c;
        self
    }

    /// Whether the variable parts are equal (the constants may differ).
    pub fn same_terms(&self, other: &Affine<V>) -> bool {
        self.terms == other.terms
    }

    /// Whether the variable part of `other` is minus that of `self`.
    pub fn opposite_terms(&self, other: &Affine<V>) -> bool {
        self.terms.len() == other.terms.len()
            && self
                .terms
                .iter()
                .zip(&other.terms)
                .all(|((a, &ca), (b, &cb))| a == b && ca.checked_neg() == Some(cb))
    }

    /// The value, when no variable is mentioned.
    pub fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// `self + other`, exactly.
    pub fn add(&self, other: &Affine<V>) -> Result<Affine<V>, Overflow> {
        let mut r = self.clone();
        for (v, &c) in &other.terms {
            let sum = checked_add(r.coeff(v), c)?;
            if sum == 0 {
                r.terms.remove(v);
            } else {
                r.terms.insert(v.clone(), sum);
            }
        }
        r.constant = checked_add(r.constant, other.constant)?;
        Ok(r)
    }

    /// `self - other`, exactly (as `self + (-other)`).
    pub fn sub(&self, other: &Affine<V>) -> Result<Affine<V>, Overflow> {
        self.add(&other.neg()?)
    }

    /// `-self`, exactly.
    pub fn neg(&self) -> Result<Affine<V>, Overflow> {
        self.scale(-1)
    }

    /// `k·self`, exactly.
    pub fn scale(&self, k: i64) -> Result<Affine<V>, Overflow> {
        if k == 0 {
            return Ok(Affine::constant(0));
        }
        let mut terms = BTreeMap::new();
        for (v, &c) in &self.terms {
            terms.insert(v.clone(), checked_mul(c, k)?);
        }
        Ok(Affine {
            terms,
            constant: checked_mul(self.constant, k)?,
        })
    }

    /// `floor(self / k)` for `k > 0` when `k` divides every coefficient
    /// (the constant need not divide); `None` otherwise.
    pub fn floor_div_exact_terms(&self, k: i64) -> Option<Affine<V>> {
        if k <= 0 || self.terms.values().any(|c| c % k != 0) {
            return None;
        }
        Some(Affine {
            terms: self.terms.iter().map(|(v, c)| (v.clone(), c / k)).collect(),
            constant: self.constant.div_euclid(k),
        })
    }
}

impl Affine<usize> {
    /// The form `coeffs · x + constant` (column `k` has coefficient
    /// `coeffs[k]`).
    pub fn from_row(coeffs: &[i64], constant: i64) -> Affine<usize> {
        Affine {
            terms: coeffs
                .iter()
                .enumerate()
                .filter(|(_, &c)| c != 0)
                .map(|(k, &c)| (k, c))
                .collect(),
            constant,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_are_canonical_whatever_way_they_are_built() {
        let x = Affine::var(0usize);
        let y = Affine::term(3, 1usize);
        let a = x.add(&y).unwrap().add(&Affine::constant(2)).unwrap();
        let b = y.add(&Affine::constant(2)).unwrap().add(&x).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.sub(&a).unwrap(), Affine::default());
        assert_eq!(a.scale(0).unwrap(), Affine::default());
        assert_eq!(Affine::term(0, 4usize), Affine::default());
        assert_eq!(Affine::from_row(&[1, 3, 0], 2), a);
    }

    #[test]
    fn overflow_is_an_error_never_a_wrap() {
        let big = Affine::term(i64::MAX, 0usize);
        assert_eq!(big.add(&Affine::var(0)), Err(Overflow));
        assert_eq!(big.scale(2), Err(Overflow));
        assert_eq!(Affine::<usize>::constant(i64::MIN).neg(), Err(Overflow));
        assert_eq!(Affine::term(i64::MIN, 0usize).neg(), Err(Overflow));
    }

    #[test]
    fn terms_compare_apart_from_the_constant() {
        let a = Affine::from_row(&[1, -2], 5);
        assert!(a.same_terms(&Affine::from_row(&[1, -2], -7)));
        assert!(a.opposite_terms(&Affine::from_row(&[-1, 2], 5)));
        assert!(!a.opposite_terms(&Affine::from_row(&[-1, 2, 1], 5)));
        assert_eq!(a.clone().with_constant(0), Affine::from_row(&[1, -2], 0));
    }

    #[test]
    fn floors_divide_the_terms_exactly() {
        let b = Affine::from_row(&[4], -3);
        assert_eq!(b.floor_div_exact_terms(2), Some(Affine::from_row(&[2], -2)));
        assert_eq!(b.floor_div_exact_terms(3), None);
    }
}
