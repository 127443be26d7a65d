//! Whether the printed code stays within C `int`: the constants of the
//! loop AST against those of the kernel's own domains.

use crate::emit::scan::{Expr, Node, Sum};
use crate::scop::Scop;

pub(super) fn is_int(v: i64) -> bool {
    i32::try_from(v).is_ok()
}

/// Whether every coefficient and constant of the statement domains is a C
/// `int`. A kernel with a wider one (`if (n > 3000000000)` over a `long
/// n`) counts with wider types, and its constants are its own business.
pub(super) fn domains_are_int(scop: &Scop) -> bool {
    scop.statements.iter().all(|st| {
        st.domain.basics().iter().all(|b| {
            b.constraints()
                .iter()
                .all(|c| is_int(c.constant) && c.coeffs.iter().all(|v| is_int(*v)))
        })
    })
}

/// The first coefficient, constant, stride or divisor in `nodes` that is
/// not a C `int`.
pub(super) fn first_constant_beyond_int(nodes: &[Node]) -> Option<i64> {
    fn aff(a: &Sum) -> Option<i64> {
        std::iter::once(a.constant)
            .chain(a.terms.iter().map(|t| t.0))
            .find(|v| !is_int(*v))
    }
    fn floors(f: &[(i64, Sum, i64)]) -> Option<i64> {
        f.iter().find_map(|(c, a, q)| {
            [*c, *q]
                .into_iter()
                .find(|v| !is_int(*v))
                .or_else(|| aff(a))
        })
    }
    fn expr(e: &Expr) -> Option<i64> {
        match e {
            Expr::Ceil(a, q) | Expr::Floor(a, q) => {
                Some(*q).filter(|v| !is_int(*v)).or_else(|| aff(a))
            }
            Expr::Max(v) | Expr::Min(v) => v.iter().find_map(expr),
            Expr::StrideStart {
                lower,
                offset,
                stride,
            } => Some(*stride)
                .filter(|v| !is_int(*v))
                .or_else(|| expr(lower))
                .or_else(|| aff(offset)),
        }
    }
    nodes.iter().find_map(|n| match n {
        Node::For(l) => Some(l.stride)
            .filter(|v| !is_int(*v))
            .or_else(|| expr(&l.lower))
            .or_else(|| expr(&l.upper))
            .or_else(|| first_constant_beyond_int(&l.body)),
        Node::If {
            conds,
            body,
            otherwise,
        } => conds
            .iter()
            .find_map(|c| {
                c.modulo
                    .filter(|v| !is_int(*v))
                    .or_else(|| aff(&c.aff))
                    .or_else(|| floors(&c.floors))
            })
            .or_else(|| first_constant_beyond_int(body))
            .or_else(|| first_constant_beyond_int(otherwise)),
        Node::Stmt { iterators, .. } => iterators.iter().find_map(|q| {
            Some(q.divisor)
                .filter(|v| !is_int(*v))
                .or_else(|| aff(&q.aff))
                .or_else(|| floors(&q.floors))
        }),
    })
}
