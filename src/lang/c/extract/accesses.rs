//! One statement's accesses: what it writes (an array element or a
//! scalar) and every read, each with affine subscripts.

use super::{strip, RawAccess, RawStatement, Walker};
use crate::lang::c::affine::Cond;
use crate::scop::AccessKind;
use crate::syntax::c::{void_address_of, Expr, ExprKind, UnaryOp};
use crate::syntax::diagnostic::Diagnostic;
use crate::syntax::Span;

impl Walker {
    pub(super) fn statement(
        &mut self,
        label: &Option<String>,
        expr: &Expr,
        span: &Span,
    ) -> Result<(), Diagnostic> {
        let mut accesses = Vec::new();
        match &expr.kind {
            ExprKind::Assign(op, lhs, rhs) => {
                self.write_target(lhs, &mut accesses)?;
                if op != "=" {
                    self.reads(lhs, &mut accesses)?;
                }
                self.reads(rhs, &mut accesses)?;
            }
            ExprKind::Unary(
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec,
                x,
            ) => {
                self.write_target(x, &mut accesses)?;
                self.reads(x, &mut accesses)?;
            }
            // `(void)&name;`, which polyc prints for an iterator the file
            // declares and its loops no longer use: it does nothing, and
            // polyc reads its own output back.
            ExprKind::Cast(..) if void_address_of(expr).is_some() => return Ok(()),
            _ => return Err(
                Diagnostic::error("a statement must be an assignment", span.clone())
                    .with_label("this expression assigns nothing")
                    .with_note(
                        "statements in a scop region are assignments to array elements or scalars",
                    ),
            ),
        }
        let beta = self.next_beta();
        self.statements.push(RawStatement {
            label: label.clone(),
            iterators: self.loops.iter().map(|l| l.name.clone()).collect(),
            signs: self.loops.iter().map(|l| l.sign).collect(),
            domain: Cond::And(self.conds.clone()),
            beta,
            accesses,
            body: expr.clone(),
            span: span.clone(),
        });
        Ok(())
    }

    pub(super) fn write_target(
        &mut self,
        lhs: &Expr,
        out: &mut Vec<RawAccess>,
    ) -> Result<(), Diagnostic> {
        let target = strip(lhs);
        let name = match &target.kind {
            ExprKind::Var(n) => n.clone(),
            ExprKind::Index(base, _) => match &strip(base).kind {
                ExprKind::Var(n) => n.clone(),
                _ => return Err(pointer_error(&target.span)),
            },
            ExprKind::Unary(UnaryOp::Deref, _) | ExprKind::Member(..) => {
                return Err(pointer_error(&target.span))
            }
            _ => {
                return Err(Diagnostic::error(
                    "cannot assign to this expression",
                    target.span.clone(),
                )
                .with_label("expected an array element or a scalar"))
            }
        };
        if self.iterators.contains(&name) {
            let mut d = Diagnostic::error(
                format!("write to the loop iterator `{name}`"),
                target.span.clone(),
            )
            .with_label("only the loop's own step may change its iterator");
            if let Some(l) = self.loops.iter().find(|l| l.name == name) {
                d = d.with_secondary(l.header.clone(), "the loop it iterates");
            }
            return Err(d);
        }
        self.access(target, AccessKind::Write, out)
    }

    pub(super) fn access(
        &mut self,
        e: &Expr,
        kind: AccessKind,
        out: &mut Vec<RawAccess>,
    ) -> Result<(), Diagnostic> {
        match &e.kind {
            ExprKind::Var(n) => out.push(RawAccess {
                kind,
                array: n.clone(),
                subs: Vec::new(),
                span: e.span.clone(),
            }),
            ExprKind::Index(base, subs) => {
                let ExprKind::Var(n) = &strip(base).kind else {
                    return Err(pointer_error(&e.span));
                };
                let subs = subs
                    .iter()
                    .map(|s| self.pw(s, "a subscript"))
                    .collect::<Result<_, _>>()?;
                out.push(RawAccess {
                    kind,
                    array: n.clone(),
                    subs,
                    span: e.span.clone(),
                });
            }
            _ => return Err(pointer_error(&e.span)),
        }
        Ok(())
    }

    /// Record the reads of a right-hand side and check what it may contain.
    pub(super) fn reads(&mut self, e: &Expr, out: &mut Vec<RawAccess>) -> Result<(), Diagnostic> {
        match &e.kind {
            ExprKind::Int(..) | ExprKind::Float(_) | ExprKind::Str(_) => Ok(()),
            ExprKind::Var(n) => {
                if self.loops.iter().any(|l| &l.name == n) {
                    Ok(())
                } else if self.iterators.contains(n) {
                    Err(Diagnostic::error(
                        format!("`{n}` is used outside the loop it iterates"),
                        e.span.clone(),
                    )
                    .with_label(format!("no enclosing loop iterates `{n}` here")))
                } else {
                    self.access(e, AccessKind::Read, out)
                }
            }
            ExprKind::Index(..) => self.access(e, AccessKind::Read, out),
            ExprKind::Call(f, args) => {
                if !matches!(f.kind, ExprKind::Var(_)) {
                    return Err(pointer_error(&f.span));
                }
                args.iter().try_for_each(|a| self.reads(a, out))
            }
            ExprKind::Unary(UnaryOp::Deref | UnaryOp::Addr, _) | ExprKind::Member(..) => {
                Err(pointer_error(&e.span))
            }
            ExprKind::Unary(
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec,
                _,
            )
            | ExprKind::Assign(..) => Err(Diagnostic::error(
                "an assignment inside an expression is not allowed",
                e.span.clone(),
            )
            .with_label("a statement may write only its left-hand side")),
            ExprKind::Unary(_, x) | ExprKind::Cast(_, x) | ExprKind::Paren(x) => self.reads(x, out),
            ExprKind::Binary(_, a, b) => {
                self.reads(a, out)?;
                self.reads(b, out)
            }
            ExprKind::Conditional(c, a, b) => {
                self.reads(c, out)?;
                self.reads(a, out)?;
                self.reads(b, out)
            }
        }
    }
}

pub(super) fn subscripts(n: usize) -> String {
    match n {
        0 => "no subscript".to_string(),
        1 => "1 subscript".to_string(),
        n => format!("{n} subscripts"),
    }
}

pub(super) fn pointer_error(span: &Span) -> Diagnostic {
    Diagnostic::error("pointers are not allowed in a scop region", span.clone())
        .with_label("pointer dereference or member access")
        .with_note("write accesses as arrays with affine subscripts, e.g. `A[i][j]`")
}
