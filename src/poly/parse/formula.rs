//! The meaning of a formula while it is read: affine forms over the
//! columns of the disjunct (`Aff`), conjunctions of rows (`Clause`) and
//! formulas in disjunctive normal form (`Dnf`), combined with checked
//! arithmetic and a cap on the number of conjunctions.

use std::collections::BTreeSet;

use super::{At, ParseError, Result, MAX_DISJUNCTS};
use crate::poly::{checked_add, checked_mul, ConstraintKind, Overflow};

/// An affine form `coeffs · x + constant` over the columns of the disjunct
/// being read (parameters, inputs, outputs, then locals by number); missing
/// trailing coefficients are zero.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Aff {
    pub(super) coeffs: Vec<i64>,
    pub(super) constant: i64,
}

impl Aff {
    pub(super) fn constant(c: i64) -> Aff {
        Aff {
            coeffs: Vec::new(),
            constant: c,
        }
    }

    pub(super) fn var(col: usize) -> Aff {
        let mut coeffs = vec![0; col + 1];
        coeffs[col] = 1;
        Aff {
            coeffs,
            constant: 0,
        }
    }

    /// The value, when no variable has a non-zero coefficient.
    pub(super) fn as_constant(&self) -> Option<i64> {
        self.coeffs.iter().all(|&c| c == 0).then_some(self.constant)
    }

    pub(super) fn add(&self, other: &Aff) -> std::result::Result<Aff, Overflow> {
        let n = self.coeffs.len().max(other.coeffs.len());
        let get = |a: &Aff, k: usize| a.coeffs.get(k).copied().unwrap_or(0);
        let coeffs = (0..n)
            .map(|k| checked_add(get(self, k), get(other, k)))
            .collect::<std::result::Result<_, _>>()?;
        Ok(Aff {
            coeffs,
            constant: checked_add(self.constant, other.constant)?,
        })
    }

    pub(super) fn scale(&self, k: i64) -> std::result::Result<Aff, Overflow> {
        let coeffs = self
            .coeffs
            .iter()
            .map(|&c| checked_mul(c, k))
            .collect::<std::result::Result<_, _>>()?;
        Ok(Aff {
            coeffs,
            constant: checked_mul(self.constant, k)?,
        })
    }

    pub(super) fn sub(&self, other: &Aff) -> std::result::Result<Aff, Overflow> {
        self.add(&other.scale(-1)?)
    }

    /// Without trailing zero coefficients, so that equal forms compare equal.
    pub(super) fn trimmed(mut self) -> Aff {
        while self.coeffs.last() == Some(&0) {
            self.coeffs.pop();
        }
        self
    }
}

/// A conjunction of rows `aff = 0` / `aff >= 0`, with the `exists` locals it
/// is quantified over (floor locals are found from the rows).
#[derive(Clone, Debug, Default)]
pub(super) struct Clause {
    pub(super) rows: Vec<(ConstraintKind, Aff)>,
    pub(super) locals: BTreeSet<usize>,
}

/// A formula in disjunctive normal form; `[]` is false, `[Clause::default()]` true.
pub(super) type Dnf = Vec<Clause>;

pub(super) fn truth(holds: bool) -> Dnf {
    if holds {
        vec![Clause::default()]
    } else {
        Vec::new()
    }
}

/// One constraint; decided at once when it mentions no variable.
pub(super) fn atom(kind: ConstraintKind, aff: Aff) -> Dnf {
    match (aff.as_constant(), kind) {
        (Some(c), ConstraintKind::Eq) => truth(c == 0),
        (Some(c), ConstraintKind::Ineq) => truth(c >= 0),
        (None, _) => vec![Clause {
            rows: vec![(kind, aff)],
            locals: BTreeSet::new(),
        }],
    }
}

pub(super) fn too_large(at: usize) -> ParseError {
    ParseError::new(
        format!("formula too large: more than {MAX_DISJUNCTS} disjuncts in normal form"),
        at,
    )
}

pub(super) fn or(mut a: Dnf, b: Dnf, at: usize) -> Result<Dnf> {
    if a.len() + b.len() > MAX_DISJUNCTS {
        return Err(too_large(at));
    }
    a.extend(b);
    Ok(a)
}

pub(super) fn and(a: Dnf, b: Dnf, at: usize) -> Result<Dnf> {
    if a.len().saturating_mul(b.len()) > MAX_DISJUNCTS {
        return Err(too_large(at));
    }
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in &a {
        for y in &b {
            let mut c = x.clone();
            c.rows.extend(y.rows.iter().cloned());
            c.locals.extend(y.locals.iter().copied());
            out.push(c);
        }
    }
    Ok(out)
}

/// `a · b` when one side is a constant.
pub(super) fn product(a: &Aff, b: &Aff, at: usize) -> Result<Aff> {
    match (a.as_constant(), b.as_constant()) {
        (Some(k), _) => b.scale(k).at(at),
        (_, Some(k)) => a.scale(k).at(at),
        _ => Err(ParseError::new(
            "non-affine product: one factor of a product must be a constant",
            at,
        )),
    }
}

/// The constant `k > 0` of `floor(e / k)`, `ceil(e / k)` or `e mod k`.
pub(super) fn divisor(k: &Aff, at: usize) -> Result<i64> {
    match k.as_constant() {
        Some(0) => Err(ParseError::new("division by zero", at)),
        Some(k) if k > 0 => Ok(k),
        _ => Err(ParseError::new(
            "the divisor of `floor`, `ceil` or `mod` must be a positive integer constant",
            at,
        )),
    }
}
