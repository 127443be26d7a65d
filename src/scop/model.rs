//! The types of the program model.

use crate::poly::{BasicMap, BasicSet, Map, Set};
use std::collections::HashSet;

use crate::syntax::c::{collect_outer_declared, Expr, Stmt};
use crate::syntax::Span;

/// One `#pragma scop` region.
#[derive(Clone, Debug)]
pub struct Scop {
    /// 1-based index of the region in its file.
    pub region: usize,
    /// Bytes of the region's body (between the pragma lines) in the file.
    pub span: Span,
    /// Identifiers used in bounds, conditions or subscripts and never written.
    pub params: Vec<String>,
    /// Constraints on the parameters (the universe unless given).
    pub context: BasicSet,
    pub arrays: Vec<Array>,
    pub statements: Vec<Statement>,
    /// The region's syntax tree, as parsed.
    pub tree: Vec<Stmt>,
}

impl Scop {
    /// `domain` (a set over the parameters and one statement's
    /// iterators) restricted to the parameter values the context allows:
    /// dependences, and the code generated, hold under the context (a
    /// `context` call). Where the context has existentials, `domain`
    /// itself: more instances, never fewer, so a check that reads them
    /// may refuse, never wrongly accept.
    pub fn in_context(&self, domain: &Set) -> Set {
        let context = &self.context;
        if context.n_local() != 0 || context.space().n_param() != domain.space().n_param() {
            return domain.clone();
        }
        let mut out = Set::empty(domain.space().clone());
        for b in domain.basics() {
            let mut b = b.clone();
            for c in context.constraints() {
                b.add(c.clone());
            }
            out.push(b);
        }
        out
    }

    /// Iterators of the region's loops that the file declares outside it
    /// (`int t, i;` before `for (t = 0; …)`): the generated code reuses
    /// them rather than declaring its own.
    pub fn outer_declared_iterators(&self) -> HashSet<String> {
        let mut out = HashSet::new();
        collect_outer_declared(&self.tree, &mut out);
        out
    }
}

/// An array (or a scalar: an array of dimension 0) that the region accesses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    pub name: String,
    pub n_dims: usize,
    /// Extents from a visible declaration, as written (`NI`, `20`).
    pub extents: Option<Vec<String>>,
    /// Element type from a visible declaration (`double`).
    pub element_type: Option<String>,
    /// Declared by polyc for the region (`add_array`, a pack's buffer):
    /// the code outside the region neither gives it a value nor reads one.
    pub local: bool,
}

/// The size in bytes of an element of C scalar type `ty` (qualifiers and
/// signedness ignored) on the hosts and CUDA devices polyc targets (LP64),
/// when polyc knows it (not a `typedef` of the file, nor `long double`).
pub fn element_bytes(ty: &str) -> Option<u64> {
    let words: Vec<&str> = ty
        .split_whitespace()
        .filter(|w| {
            !matches!(
                *w,
                "signed" | "unsigned" | "const" | "volatile" | "restrict" | "__restrict"
            )
        })
        .collect();
    match words.as_slice() {
        ["char"] | ["int8_t"] | ["uint8_t"] => Some(1),
        ["short"] | ["short", "int"] | ["int16_t"] | ["uint16_t"] => Some(2),
        [] | ["int"] | ["float"] | ["int32_t"] | ["uint32_t"] => Some(4),
        ["double"] | ["long"] | ["long", "int"] | ["long", "long"] | ["long", "long", "int"] => {
            Some(8)
        }
        ["int64_t"] | ["uint64_t"] | ["size_t"] => Some(8),
        _ => None,
    }
}

/// One assignment of the region, executed once per point of its domain.
#[derive(Clone, Debug)]
pub struct Statement {
    /// `S0`, `S1`, … in textual order.
    pub name: String,
    /// The C label, if the statement has one.
    pub label: Option<String>,
    /// Iterators of the enclosing loops, outermost first.
    pub iterators: Vec<String>,
    /// The iteration domain: a union of integer polyhedra.
    pub domain: Set,
    pub accesses: Vec<Access>,
    /// The original schedule in 2d+1 form `[β0, α1, β1, …, αd, βd]`; α is
    /// the iterator, negated for a loop that counts down.
    pub schedule: BasicMap,
    /// The assignment, as parsed.
    pub body: Expr,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    Read,
    Write,
}

/// An access: a relation from statement instances to array elements.
#[derive(Clone, Debug)]
pub struct Access {
    pub kind: AccessKind,
    pub array: String,
    pub relation: Map,
    pub span: Span,
}
