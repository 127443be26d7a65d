//! The loop AST that scanning produces and the printers read: loops with
//! bounds, guards, and statement instances with their iterators written as
//! affine expressions of the loop variables and parameters.
//!
//! Expressions are already resolved to names: a dimension fixed to a
//! constant or substituted by an equation never appears, and a loop that
//! counts down has its variable written with the sign folded in.

use crate::scop::schedule::Mark;

/// `Σ coefficient · name + constant` as it is printed, names being loop
/// variables and parameters. A piece of C, not an arithmetic form: its
/// terms are printed in the order they were built in, which a canonical
/// [`crate::poly::Affine`] (sorted by variable) would not keep; arithmetic
/// on it goes through `poly`'s checked operations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sum {
    pub terms: Vec<(i64, String)>,
    pub constant: i64,
}

impl Sum {
    /// Whether the form is a constant.
    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    /// Whether `name` has a non-zero coefficient.
    pub fn mentions(&self, name: &str) -> bool {
        self.terms.iter().any(|(c, n)| *c != 0 && n == name)
    }

    /// `self - other`, exactly (terms in `self`'s order, then `other`'s
    /// new ones; zero terms dropped); `None` on overflow.
    pub fn minus(&self, other: &Sum) -> Option<Sum> {
        let mut d = self.clone();
        d.constant = d.constant.checked_sub(other.constant)?;
        for (c, name) in &other.terms {
            match d.terms.iter_mut().find(|(_, n)| n == name) {
                Some(t) => t.0 = t.0.checked_sub(*c)?,
                None => d.terms.push((c.checked_neg()?, name.clone())),
            }
        }
        d.terms.retain(|(c, _)| *c != 0);
        Some(d)
    }

    /// `k · self`, exactly; `None` on overflow.
    pub fn times(&self, k: i64) -> Option<Sum> {
        Some(Sum {
            terms: self
                .terms
                .iter()
                .map(|(c, n)| Some((c.checked_mul(k)?, n.clone())))
                .collect::<Option<_>>()?,
            constant: self.constant.checked_mul(k)?,
        })
    }

    /// `self + k`, exactly; `None` on overflow.
    pub fn plus(&self, k: i64) -> Option<Sum> {
        let mut s = self.clone();
        s.constant = s.constant.checked_add(k)?;
        Some(s)
    }
}

/// A bound or an index: affine forms rounded after an exact division, and
/// their maxima and minima.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// `ceil(aff / div)`, `div > 0`.
    Ceil(Sum, i64),
    /// `floor(aff / div)`, `div > 0`.
    Floor(Sum, i64),
    Max(Vec<Expr>),
    Min(Vec<Expr>),
    /// The least value `>= lower` congruent to `offset` modulo `stride`:
    /// `offset + stride · ceil((lower - offset) / stride)`.
    StrideStart {
        lower: Box<Expr>,
        offset: Sum,
        stride: i64,
    },
}

impl Expr {
    /// Whether `name` appears in the expression.
    pub fn mentions(&self, name: &str) -> bool {
        match self {
            Expr::Ceil(a, _) | Expr::Floor(a, _) => a.mentions(name),
            Expr::Max(v) | Expr::Min(v) => v.iter().any(|e| e.mentions(name)),
            Expr::StrideStart { lower, offset, .. } => {
                lower.mentions(name) || offset.mentions(name)
            }
        }
    }
}

/// A guard condition: `aff + Σ c · floor(num / div) >= 0` over `floors`
/// `(c, num, div)` (`div > 0`), or `== 0` when `eq`; with `modulo:
/// Some(m)` (and `eq`), `aff + Σ c · floor(num / div) ≡ 0 (mod m)`: the
/// date of a strided statement in a loop that also runs the dates between
/// its own, or a divisibility over floors (`(i + j / 2) % 3 == 0`).
/// Floors come from `%` and `/` in the source's conditions and bounds
/// (`i % 4 < 2`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cond {
    pub aff: Sum,
    pub eq: bool,
    pub modulo: Option<i64>,
    pub floors: Vec<(i64, Sum, i64)>,
    /// How to print it, when set: `left >= right`, two loop bounds that a
    /// full-tile test compares, in the same text as in the loop bounds
    /// (gcc optimises the full tile of gemm 1.6× better when the test
    /// reads `ni - 1 >= 32 * c1 + 31` than `ni >= 32 * c1 + 32`).
    pub sides: Option<(Expr, Expr)>,
}

impl Cond {
    /// Whether `name` appears in the condition, as it is printed too (the
    /// sides of a full-tile test may both read a variable that cancels out
    /// of `aff`: `-2 * i + n - 4 >= 4 * c2 - 2 * i`, seed 82).
    pub fn mentions(&self, name: &str) -> bool {
        self.aff.mentions(name)
            || self.floors.iter().any(|(_, a, _)| a.mentions(name))
            || self
                .sides
                .as_ref()
                .is_some_and(|(l, r)| l.mentions(name) || r.mentions(name))
    }
}

/// One loop. The variable runs from `lower` to `upper` (both inclusive) by
/// `stride`, upwards; when `down`, from `upper` down to `lower`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub var: String,
    /// Whether the printer declares the variable (`int`); a variable the
    /// file declares outside the region is reused instead.
    pub declare: bool,
    pub down: bool,
    pub lower: Expr,
    pub upper: Expr,
    pub stride: i64,
    pub marks: Vec<Mark>,
    /// Whether the range holds exactly one value wherever the loop is
    /// reached (`ceild(-k - 7, 8) .. floord(-k, 8)`): printed as the
    /// assignment `var = lower`, which compilers and readers see runs.
    pub once: bool,
    pub body: Vec<Node>,
}

/// A node of the loop AST.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    For(Box<Loop>),
    /// The body runs when every condition holds, `otherwise` (printed as
    /// an `else`, often empty) when one does not.
    If {
        conds: Vec<Cond>,
        body: Vec<Node>,
        otherwise: Vec<Node>,
    },
    /// One instance of statement `statement` (an index into the scop's
    /// statements) with the values of its iterators, in order.
    Stmt {
        statement: usize,
        iterators: Vec<Quotient>,
    },
}

impl Node {
    /// Whether the node is or holds a loop.
    pub fn has_loop(&self) -> bool {
        match self {
            Node::For(_) => true,
            Node::If {
                body, otherwise, ..
            } => body.iter().chain(otherwise).any(Node::has_loop),
            Node::Stmt { .. } => false,
        }
    }

    /// Whether `name` appears in the node: in a bound, a guard or an
    /// iterator's value, at any depth.
    pub fn mentions(&self, name: &str) -> bool {
        match self {
            Node::For(l) => {
                l.lower.mentions(name)
                    || l.upper.mentions(name)
                    || l.body.iter().any(|n| n.mentions(name))
            }
            Node::If {
                conds,
                body,
                otherwise,
            } => {
                conds.iter().any(|c| c.mentions(name))
                    || body.iter().chain(otherwise).any(|n| n.mentions(name))
            }
            Node::Stmt { iterators, .. } => iterators
                .iter()
                .any(|q| q.aff.mentions(name) || q.floors.iter().any(|(_, a, _)| a.mentions(name))),
        }
    }
}

/// An iterator's value: `(aff + Σ c · floor(num / div)) / divisor` over
/// `floors` `(c, num, div)` (`div > 0`, `divisor > 0`), an exact division
/// wherever the statement has an instance. Floors appear when the dates
/// fix an iterator only through an integer quotient (`i = c3 + 64 ·
/// floor(t / 32)` after `stripmine`, `skew` by the tile loop and
/// `linearize`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quotient {
    pub aff: Sum,
    pub floors: Vec<(i64, Sum, i64)>,
    pub divisor: i64,
}

impl Quotient {
    /// `aff`, divided by nothing.
    pub fn affine(aff: Sum) -> Quotient {
        Quotient {
            aff,
            floors: Vec::new(),
            divisor: 1,
        }
    }
}
