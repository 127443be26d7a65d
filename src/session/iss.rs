//! `iss(beta, c1 >= N / 2)`: a readable index-set-split constraint over
//! the loops (`c1, c2, …`), the iterators of the first statement under the
//! β-vector and the parameters, evaluated exactly (rationally, then
//! multiplied by the common denominator) into Clay's list form.

use crate::apply::SplitForm;
use crate::lang::recipe::{AffineConstraint, AffineExpr, CmpOp};
use crate::poly::Affine;
use crate::syntax::Span;

/// The names a split constraint may use: `c1 … c<depth>`, then the
/// iterators, then the parameters.
pub struct Names<'a> {
    pub iters: &'a [String],
    pub params: &'a [String],
    pub depth: usize,
}

/// Why a constraint has no split form.
pub enum FormError {
    UnknownName(String, Span),
    NotAffine,
    Overflow,
    /// `==`: a split needs an inequality.
    Equation,
}

/// `lhs op rhs` over `names`, as the split form with the same inequality:
/// exactly the list form, so the points that satisfy the constraint form
/// the second part. Division is exact (rational): both sides are
/// multiplied by the common denominator, so `c1 <= N / 2` is `2c1 <= N`.
pub fn constraint_form(names: &Names, c: &AffineConstraint) -> Result<SplitForm, FormError> {
    let l = names.linear(&c.lhs)?;
    let r = names.linear(&c.rhs)?;
    // lhs - rhs, over a common denominator.
    let diff = l.sub(&r).ok_or(FormError::Overflow)?;
    // `a op b` as `e >= 0` (integers: a < b is b - a - 1 >= 0).
    let (e, strict) = match c.op {
        CmpOp::Ge => (diff, false),
        CmpOp::Gt => (diff, true),
        CmpOp::Le => (diff.neg().ok_or(FormError::Overflow)?, false),
        CmpOp::Lt => (diff.neg().ok_or(FormError::Overflow)?, true),
        CmpOp::Eq => return Err(FormError::Equation),
    };
    let mut form = e.into_form(names);
    if strict {
        form.constant = form.constant.checked_sub(1).ok_or(FormError::Overflow)?;
    }
    Ok(form)
}

/// A rational affine form `num / den` (`den > 0`) over the columns
/// `[α1..αdepth | iterators | params]`.
#[derive(Clone)]
struct Linear {
    num: Affine<usize>,
    den: i64,
}

impl Names<'_> {
    fn width(&self) -> usize {
        self.depth + self.iters.len() + self.params.len()
    }

    fn column(&self, name: &str) -> Option<usize> {
        if let Some(d) = name.strip_prefix('c').and_then(|r| r.parse::<usize>().ok()) {
            if d >= 1 && d <= self.depth {
                return Some(d - 1);
            }
        }
        if let Some(i) = self.iters.iter().position(|n| n == name) {
            return Some(self.depth + i);
        }
        self.params
            .iter()
            .position(|n| n == name)
            .map(|p| self.depth + self.iters.len() + p)
    }

    fn linear(&self, e: &AffineExpr) -> Result<Linear, FormError> {
        let constant = |v: i64| Linear {
            num: Affine::constant(v),
            den: 1,
        };
        Ok(match e {
            AffineExpr::Int(v) => constant(*v),
            AffineExpr::Name(n, span) => {
                let col = self
                    .column(n)
                    .ok_or_else(|| FormError::UnknownName(n.clone(), span.clone()))?;
                Linear {
                    num: Affine::var(col),
                    den: 1,
                }
            }
            AffineExpr::Neg(x) => self.linear(x)?.neg().ok_or(FormError::Overflow)?,
            AffineExpr::Add(x, y) => self
                .linear(x)?
                .add(&self.linear(y)?)
                .ok_or(FormError::Overflow)?,
            AffineExpr::Sub(x, y) => self
                .linear(x)?
                .sub(&self.linear(y)?)
                .ok_or(FormError::Overflow)?,
            AffineExpr::Mul(x, y) => {
                let (x, y) = (self.linear(x)?, self.linear(y)?);
                match (x.as_constant(), y.as_constant()) {
                    (Some(k), _) => y.scale(k, x.den).ok_or(FormError::Overflow)?,
                    (_, Some(k)) => x.scale(k, y.den).ok_or(FormError::Overflow)?,
                    _ => return Err(FormError::NotAffine),
                }
            }
            AffineExpr::Div(x, y) => {
                let (x, y) = (self.linear(x)?, self.linear(y)?);
                match y.as_constant() {
                    Some(k) if k != 0 => x.scale(y.den, k).ok_or(FormError::Overflow)?,
                    _ => return Err(FormError::NotAffine),
                }
            }
        })
    }
}

impl Linear {
    /// The numerator's value, when no variable is mentioned.
    fn as_constant(&self) -> Option<i64> {
        self.num.as_constant()
    }

    /// `self · num / den`.
    fn scale(&self, num: i64, den: i64) -> Option<Linear> {
        let (num, den) = if den < 0 {
            (num.checked_neg()?, den.checked_neg()?)
        } else {
            (num, den)
        };
        Some(Linear {
            num: self.num.scale(num).ok()?,
            den: self.den.checked_mul(den)?,
        })
    }

    fn neg(&self) -> Option<Linear> {
        self.scale(-1, 1)
    }

    fn add(&self, o: &Linear) -> Option<Linear> {
        let a = self.num.scale(o.den).ok()?;
        let b = o.num.scale(self.den).ok()?;
        Some(Linear {
            num: a.add(&b).ok()?,
            den: self.den.checked_mul(o.den)?,
        })
    }

    fn sub(&self, o: &Linear) -> Option<Linear> {
        self.add(&o.neg()?)
    }

    /// The numerator as a split form (the denominator is positive, so the
    /// sign of the inequality is kept).
    fn into_form(self, names: &Names) -> SplitForm {
        let d = names.depth;
        let n = names.iters.len();
        // Every column the form mentions is one of `names`'.
        let row: Vec<i64> = (0..names.width()).map(|k| self.num.coeff(&k)).collect();
        SplitForm {
            alphas: row[..d].to_vec(),
            iters: row[d..d + n].to_vec(),
            params: row[d + n..].to_vec(),
            constant: self.num.constant_term(),
        }
    }
}
