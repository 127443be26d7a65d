//! The meaning of a formula while it is read: affine forms over the
//! columns of the disjunct (`Aff`), conjunctions of rows (`Clause`) and
//! formulas in disjunctive normal form (`Dnf`), combined with checked
//! arithmetic and a cap on the number of conjunctions.

use std::collections::BTreeSet;

use super::{At, ParseError, Result, MAX_DISJUNCTS};
use crate::poly::{Affine, ConstraintKind};

/// An affine form over the columns of the disjunct being read
/// (parameters, inputs, outputs, then locals by number).
pub(super) type Aff = Affine<usize>;

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
