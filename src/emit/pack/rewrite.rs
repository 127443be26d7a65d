//! A packed statement's body with every access of the array rewritten to
//! the buffer's cell, `array[sub]` → `buffer[sub - offset]`, on the
//! syntax tree (`emit::pack`).

use crate::syntax::c::{BinaryOp, Expr, ExprKind};

/// What to rewrite: `array`'s accesses to `buffer`, with one offset per
/// dimension over the columns `names` (the parameters, then the counters
/// of the loops around the packed one).
pub(super) struct ToBuffer<'a> {
    pub(super) array: &'a str,
    pub(super) buffer: &'a str,
    pub(super) offsets: &'a [(Vec<i64>, i64)],
    pub(super) names: &'a [String],
}

impl ToBuffer<'_> {
    /// `e` with every `array[subs]` accessed as `buffer[subs - offsets]`;
    /// `None` on overflow.
    pub(super) fn replaced(&self, e: &Expr) -> Option<Expr> {
        let mut out = e.clone();
        self.replace_in(&mut out)?;
        Some(out)
    }

    fn replace_in(&self, e: &mut Expr) -> Option<()> {
        match &mut e.kind {
            ExprKind::Index(base, subs) => {
                let ours = matches!(&base.kind, ExprKind::Var(n) if n == self.array);
                for s in subs.iter_mut() {
                    self.replace_in(s)?;
                }
                if ours && subs.len() == self.offsets.len() {
                    base.kind = ExprKind::Var(self.buffer.to_string());
                    for (s, offset) in subs.iter_mut().zip(self.offsets) {
                        *s = minus_offset(s.clone(), offset, self.names)?;
                    }
                } else {
                    self.replace_in(base)?;
                }
            }
            ExprKind::Call(f, args) => {
                self.replace_in(f)?;
                for a in args {
                    self.replace_in(a)?;
                }
            }
            ExprKind::Member(b, _)
            | ExprKind::Unary(_, b)
            | ExprKind::Cast(_, b)
            | ExprKind::Paren(b) => self.replace_in(b)?,
            ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
                self.replace_in(a)?;
                self.replace_in(b)?;
            }
            ExprKind::Conditional(c, a, b) => {
                self.replace_in(c)?;
                self.replace_in(a)?;
                self.replace_in(b)?;
            }
            ExprKind::Int(..) | ExprKind::Float(_) | ExprKind::Str(_) | ExprKind::Var(_) => {}
        }
        Some(())
    }
}

/// `sub - offset` as a chain of `-` and `+` (no parentheses needed: a
/// subscript is affine, so every operator in it binds at least as tightly
/// as the `-` after it), the offset over the columns `names`; `None` when
/// a coefficient has no magnitude in `i64` (`i64::MIN`).
pub(super) fn minus_offset(sub: Expr, offset: &(Vec<i64>, i64), names: &[String]) -> Option<Expr> {
    let span = sub.span.clone();
    let node = |kind| Expr {
        kind,
        span: span.clone(),
    };
    let int = |k: i64| node(ExprKind::Int(k, k.to_string()));
    let mut acc = sub;
    for (&c, name) in offset.0.iter().zip(names) {
        if c == 0 {
            continue;
        }
        let var = node(ExprKind::Var(name.clone()));
        let term = match c.checked_abs()? {
            1 => var,
            k => node(ExprKind::Binary(
                BinaryOp::Mul,
                Box::new(int(k)),
                Box::new(var),
            )),
        };
        let op = if c > 0 { BinaryOp::Sub } else { BinaryOp::Add };
        acc = node(ExprKind::Binary(op, Box::new(acc), Box::new(term)));
    }
    if offset.1 != 0 {
        let op = if offset.1 > 0 {
            BinaryOp::Sub
        } else {
            BinaryOp::Add
        };
        let k = offset.1.checked_abs()?;
        acc = node(ExprKind::Binary(op, Box::new(acc), Box::new(int(k))));
    }
    Some(acc)
}
