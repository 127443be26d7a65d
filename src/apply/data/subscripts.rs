//! One access of a statement's syntax tree rewritten: found by its span
//! and array name (a copy statement's two accesses share a span), its
//! array renamed, its subscripts permuted, one appended or one removed.

use crate::syntax::c::{Expr, ExprKind};
use crate::syntax::Span;

/// What to do to an access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Access this array instead.
    Rename(String),
    /// Subscript `k` becomes the old subscript `order[k]`.
    Permute(Vec<usize>),
    /// Add the statement's iterator at this depth (1-based) as a last
    /// subscript.
    Append(usize),
    /// Remove subscript `k` (0-based).
    Remove(usize),
}

/// `body` with the access of `array` at `span` edited; `None` when no such
/// access is there or the edit does not fit it.
pub fn edit(
    body: &Expr,
    span: &Span,
    array: &str,
    edit: &Edit,
    iterators: &[String],
) -> Option<Expr> {
    let mut out = body.clone();
    let node = find(&mut out, span, array)?;
    apply(node, array, edit, iterators)?;
    Some(out)
}

/// The access of `array` at `span` in `body`.
pub fn access(body: &Expr, span: &Span, array: &str) -> Option<Expr> {
    let mut copy = body.clone();
    find(&mut copy, span, array).map(|e| e.clone())
}

/// The access of `array` at `span` as C text, for a message.
pub fn text(body: &Expr, span: &Span, array: &str) -> Option<String> {
    access(body, span, array).map(|e| crate::syntax::print::expr_text(&e))
}

/// The outermost node at `span` that accesses `array`: `array` or
/// `array[…]`.
fn find<'a>(e: &'a mut Expr, span: &Span, array: &str) -> Option<&'a mut Expr> {
    if &e.span == span && base_name(e) == Some(array) {
        return Some(e);
    }
    match &mut e.kind {
        ExprKind::Index(base, subs) => {
            if let Some(x) = find(base, span, array) {
                return Some(x);
            }
            subs.iter_mut().find_map(|s| find(s, span, array))
        }
        ExprKind::Call(f, args) => {
            if let Some(x) = find(f, span, array) {
                return Some(x);
            }
            args.iter_mut().find_map(|a| find(a, span, array))
        }
        ExprKind::Member(b, _)
        | ExprKind::Unary(_, b)
        | ExprKind::Cast(_, b)
        | ExprKind::Paren(b) => find(b, span, array),
        ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
            find(a, span, array).or_else(|| find(b, span, array))
        }
        ExprKind::Conditional(c, a, b) => find(c, span, array)
            .or_else(|| find(a, span, array))
            .or_else(|| find(b, span, array)),
        ExprKind::Int(..) | ExprKind::Float(_) | ExprKind::Str(_) | ExprKind::Var(_) => None,
    }
}

/// The array an access node names: `a` or `a[…]`.
fn base_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Var(n) => Some(n),
        ExprKind::Index(base, _) => match &base.kind {
            ExprKind::Var(n) => Some(n),
            _ => None,
        },
        _ => None,
    }
}

fn apply(node: &mut Expr, array: &str, edit: &Edit, iterators: &[String]) -> Option<()> {
    let span = node.span.clone();
    let var = |name: &str| Expr {
        kind: ExprKind::Var(name.to_string()),
        span: span.clone(),
    };
    let (base, mut subs) = match &node.kind {
        ExprKind::Var(n) if n == array => (var(n), Vec::new()),
        ExprKind::Index(base, subs) => ((**base).clone(), subs.clone()),
        _ => return None,
    };
    let mut base = base;
    match edit {
        Edit::Rename(new) => base.kind = ExprKind::Var(new.clone()),
        Edit::Permute(order) => {
            if order.len() != subs.len() {
                return None;
            }
            subs = order.iter().map(|&k| subs[k].clone()).collect();
        }
        Edit::Append(depth) => subs.push(var(iterators.get(depth.checked_sub(1)?)?)),
        Edit::Remove(k) => {
            if *k >= subs.len() {
                return None;
            }
            subs.remove(*k);
        }
    }
    node.kind = if subs.is_empty() {
        base.kind
    } else {
        ExprKind::Index(Box::new(base), subs)
    };
    Some(())
}
