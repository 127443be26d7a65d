//! C expressions of bounds, conditions and subscripts as piecewise affine
//! forms in the enclosing iterators and the parameters (`min`, `max`,
//! `?:`, `/` and `%` by constants); anything else is a diagnostic on it.

use super::{overflow, written_name, Walker};
use crate::lang::c::affine::{Aff, Atom, Pw};
use crate::poly::Overflow;
use crate::syntax::c::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::syntax::diagnostic::Diagnostic;
use crate::syntax::Span;

impl Walker {
    /// An affine expression (bound, condition operand or subscript).
    pub(super) fn pw(&mut self, e: &Expr, what: &str) -> Result<Pw, Diagnostic> {
        let not_affine = |label: &str| {
            Diagnostic::error(format!("{what} is not affine"), e.span.clone())
                .with_label(label.to_string())
        };
        match &e.kind {
            ExprKind::Int(v, _) => Ok(Pw::constant(*v)),
            ExprKind::Paren(x) => self.pw(x, what),
            ExprKind::Var(name) => self.name(name, &e.span, what),
            ExprKind::Unary(UnaryOp::Neg, x) => {
                self.pw(x, what)?.scale(-1).map_err(overflow(&e.span))
            }
            ExprKind::Unary(UnaryOp::Plus, x) => self.pw(x, what),
            ExprKind::Binary(BinaryOp::Add, a, b) => {
                let (a, b) = (self.pw(a, what)?, self.pw(b, what)?);
                a.add(&b).map_err(overflow(&e.span))
            }
            ExprKind::Binary(BinaryOp::Sub, a, b) => {
                let (a, b) = (self.pw(a, what)?, self.pw(b, what)?);
                b.scale(-1)
                    .and_then(|nb| a.add(&nb))
                    .map_err(overflow(&e.span))
            }
            ExprKind::Binary(BinaryOp::Mul, a, b) => {
                let (a, b) = (self.pw(a, what)?, self.pw(b, what)?);
                match (self.constant_of(&a), self.constant_of(&b)) {
                    (Some(k), _) => b.scale(k).map_err(overflow(&e.span)),
                    (_, Some(k)) => a.scale(k).map_err(overflow(&e.span)),
                    _ => {
                        let d = not_affine("product of two non-constant expressions");
                        Err(match self.parameter_factor(&a).or(self.parameter_factor(&b)) {
                            Some(p) => d.with_note(format!(
                                "`{p}` is a parameter here: a macro is read as its value only where the \
                                 file fixes it (`#define {p} 16` once, before the region, after its last \
                                 `#include` and outside every `#if`)"
                            )),
                            None => d,
                        })
                    }
                }
            }
            ExprKind::Binary(BinaryOp::Div, a, b) => {
                let a = self.pw(a, what)?;
                let b = self.pw(b, what)?;
                match self.constant_of(&b) {
                    Some(k) if k > 0 => a.trunc_div(k).map_err(overflow(&e.span)),
                    // C: a / -k == -(a / k).
                    Some(k) if k < 0 => k
                        .checked_neg()
                        .ok_or(Overflow)
                        .and_then(|k| a.trunc_div(k))
                        .and_then(|q| q.scale(-1))
                        .map_err(overflow(&e.span)),
                    _ => Err(not_affine(
                        "division by something other than a non-zero constant",
                    )),
                }
            }
            ExprKind::Binary(BinaryOp::Rem, a, b) => {
                let a = self.pw(a, what)?;
                let b = self.pw(b, what)?;
                match self.constant_of(&b) {
                    Some(k) if k != 0 => a.trunc_rem(k).map_err(overflow(&e.span)),
                    _ => Err(not_affine(
                        "`%` by something other than a non-zero constant",
                    )),
                }
            }
            // `c ? a : b` with an affine condition is a piecewise value
            // (Pluto's periodic stencils: `A[i == 0 ? N - 1 : i - 1]`).
            ExprKind::Conditional(c, a, b) => {
                let c = self.condition(c)?;
                let (a, b) = (self.pw(a, what)?, self.pw(b, what)?);
                Ok(Pw::Select(Box::new(c), Box::new(a), Box::new(b)))
            }
            ExprKind::Call(f, args) => {
                let fname = match &f.kind {
                    ExprKind::Var(n) => n.as_str(),
                    _ => "",
                };
                // polyc's own output names its helpers `polyc_min`, ….
                let fname = fname.strip_prefix("polyc_").unwrap_or(fname);
                match (fname, args.as_slice()) {
                    ("min" | "MIN" | "max" | "MAX", [x, y]) => {
                        let v = vec![self.pw(x, what)?, self.pw(y, what)?];
                        Ok(if fname.eq_ignore_ascii_case("min") {
                            Pw::Min(v)
                        } else {
                            Pw::Max(v)
                        })
                    }
                    ("floord" | "ceild", [x, y]) => {
                        let x = self.pw(x, what)?;
                        let y = self.pw(y, what)?;
                        let Some(k) = self.constant_of(&y).filter(|k| *k > 0) else {
                            return Err(not_affine("the divisor must be a positive constant"));
                        };
                        if fname == "floord" {
                            x.floor_div(k).map_err(overflow(&e.span))
                        } else {
                            x.scale(-1)
                                .and_then(|n| n.floor_div(k))
                                .and_then(|f| f.scale(-1))
                                .map_err(overflow(&e.span))
                        }
                    }
                    _ => Err(not_affine(
                        "a call other than `min`, `max`, `floord` or `ceild`",
                    )),
                }
            }
            ExprKind::Index(base, _) => {
                let name = written_name(base).unwrap_or("an array");
                Err(Diagnostic::error(format!("{what} is not affine"), e.span.clone())
                    .with_label(format!("reads `{name}`: an indirect access"))
                    .with_note("subscripts and bounds may use only iterators, parameters and constants"))
            }
            ExprKind::Unary(UnaryOp::Deref | UnaryOp::Addr, _) | ExprKind::Member(..) => {
                Err(not_affine("pointers are not allowed in a scop region"))
            }
            _ => Err(not_affine(
                "expected an affine expression of iterators and parameters",
            )),
        }
    }

    /// `p` as a constant: a constant form, or one of macros the file fixes
    /// (`N` after `#define N 16`, [`FixedMacros`]), whose values are
    /// recorded for the context. `None` for anything else.
    pub(super) fn constant_of(&mut self, p: &Pw) -> Option<i64> {
        let a = p.as_aff()?;
        let mut value = a.constant_term();
        let mut read = Vec::new();
        for (atom, c) in a.terms() {
            let Atom::Name(name) = atom else { return None };
            if self.loops.iter().any(|l| l.name == *name) {
                return None;
            }
            let v = self.fixed.value(name)?;
            value = value.checked_add(c.checked_mul(v)?)?;
            read.push((name.clone(), v));
        }
        self.fixed_used.extend(read);
        Some(value)
    }

    /// A parameter `p` that is a factor on its own: `p` or `p + c`.
    fn parameter_factor(&self, p: &Pw) -> Option<String> {
        let a = p.as_aff()?;
        match a.terms().collect::<Vec<_>>()[..] {
            [(Atom::Name(n), 1)] if self.params.contains(n) => Some(n.clone()),
            _ => None,
        }
    }

    pub(super) fn name(&mut self, name: &str, span: &Span, what: &str) -> Result<Pw, Diagnostic> {
        if self.loops.iter().any(|l| l.name == name) {
            return Ok(Pw::Aff(Aff::var(Atom::Name(name.to_string()))));
        }
        if self.iterators.contains(name) {
            return Err(Diagnostic::error(
                format!("`{name}` is used outside the loop it iterates"),
                span.clone(),
            )
            .with_label(format!("no enclosing loop iterates `{name}` here")));
        }
        if let Some(write) = self.writes.get(name) {
            return Err(Diagnostic::error(
                format!("`{name}` is written in the region but used in {what}"),
                write.clone(),
            )
            .with_label(format!("`{name}` is written here"))
            .with_secondary(span.clone(), format!("used in {what} here"))
            .with_note("bounds, conditions and subscripts may use only iterators and parameters, which the region never writes"));
        }
        if !self.params.iter().any(|p| p == name) {
            self.params.push(name.to_string());
        }
        Ok(Pw::Aff(Aff::var(Atom::Name(name.to_string()))))
    }
}
