//! The bound-expression simplifier: exact divisions and constants folded,
//! duplicates dropped, `min(a, max(a, b)) = a` absorbed, single-element
//! `max`/`min` unwrapped. Rewrites only to equal values.

use crate::emit::scan::ast::{Expr, Sum};

/// Exact divisions folded, constants folded, duplicates dropped,
/// single-element `max`/`min` unwrapped.
pub(super) fn simplify(e: Expr) -> Expr {
    match e {
        Expr::Ceil(a, q) | Expr::Floor(a, q) if q > 1 && divides(&a, q) => Expr::Ceil(
            Sum {
                terms: a.terms.iter().map(|(c, n)| (c / q, n.clone())).collect(),
                constant: a.constant / q,
            },
            1,
        ),
        Expr::Max(v) => fold(v, true),
        Expr::Min(v) => fold(v, false),
        e => e,
    }
}

/// `max` (or `min`) of `v`, simplified.
pub(super) fn fold(v: Vec<Expr>, max: bool) -> Expr {
    let mut out: Vec<Expr> = Vec::new();
    let mut best: Option<i64> = None;
    for e in v.into_iter().map(simplify) {
        let flat = match e {
            Expr::Max(w) if max => w,
            Expr::Min(w) if !max => w,
            e => vec![e],
        };
        for e in flat {
            if let Some(k) = constant_of(&e) {
                best = Some(match best {
                    Some(b) if max => b.max(k),
                    Some(b) => b.min(k),
                    None => k,
                });
            } else if let Some(pos) = out.iter().position(|o| same_terms(o, &e)) {
                // Same terms, different constants: keep the larger (smaller).
                let (ko, ke) = (unit_constant(&out[pos]), unit_constant(&e));
                if (max && ke > ko) || (!max && ke < ko) {
                    out[pos] = e;
                }
            } else if !out.contains(&e) {
                out.push(e);
            }
        }
    }
    if let Some(k) = best {
        out.push(Expr::Ceil(
            Sum {
                terms: Vec::new(),
                constant: k,
            },
            1,
        ));
    }
    // min(a, max(a, b)) = a and max(a, min(a, b)) = a.
    let all = out.clone();
    out.retain(|e| match e {
        Expr::Max(w) if !max => !w.iter().any(|x| all.iter().any(|a| same_value(a, x))),
        Expr::Min(w) if max => !w.iter().any(|x| all.iter().any(|a| same_value(a, x))),
        _ => true,
    });
    if out.len() == 1 {
        return out.into_iter().next().unwrap_or(Expr::Max(Vec::new()));
    }
    if max {
        Expr::Max(out)
    } else {
        Expr::Min(out)
    }
}

/// Whether both are the same expression (an `aff` rounded up or down by 1
/// is the `aff`).
pub(super) fn same_value(a: &Expr, b: &Expr) -> bool {
    match (a, b) {
        (Expr::Ceil(x, 1) | Expr::Floor(x, 1), Expr::Ceil(y, 1) | Expr::Floor(y, 1)) => x == y,
        _ => a == b,
    }
}

/// Whether both are `aff` (no division) with the same non-constant terms.
pub(super) fn same_terms(a: &Expr, b: &Expr) -> bool {
    match (a, b) {
        (Expr::Ceil(x, 1) | Expr::Floor(x, 1), Expr::Ceil(y, 1) | Expr::Floor(y, 1)) => {
            !x.terms.is_empty() && x.terms == y.terms
        }
        _ => false,
    }
}

pub(super) fn unit_constant(e: &Expr) -> i64 {
    match e {
        Expr::Ceil(a, _) | Expr::Floor(a, _) => a.constant,
        _ => 0,
    }
}

/// The value of a constant expression.
pub(super) fn constant_of(e: &Expr) -> Option<i64> {
    match e {
        Expr::Ceil(a, q) if a.is_constant() => {
            Some(a.constant.div_euclid(*q) + i64::from(a.constant.rem_euclid(*q) != 0))
        }
        Expr::Floor(a, q) if a.is_constant() => Some(a.constant.div_euclid(*q)),
        _ => None,
    }
}

pub(super) fn divides(a: &Sum, q: i64) -> bool {
    a.constant % q == 0 && a.terms.iter().all(|(c, _)| c % q == 0)
}

#[cfg(test)]
mod tests {
    use super::simplify;
    use crate::emit::scan::ast::{Expr, Sum};

    fn aff(terms: &[(i64, &str)], constant: i64) -> Expr {
        Expr::Floor(
            Sum {
                terms: terms.iter().map(|(c, n)| (*c, n.to_string())).collect(),
                constant,
            },
            1,
        )
    }

    #[test]
    fn min_absorbs_a_max_that_contains_one_of_its_terms() {
        let n1 = aff(&[(1, "n")], -1);
        let i4 = aff(&[(1, "i")], 4);
        // min(n - 1, max(i + 4, n - 1)) = n - 1; the Ceil and the Floor of
        // an aff by 1 are the same value.
        let inner = Expr::Max(vec![i4.clone(), n1.clone()]);
        let ceil_n1 = match &n1 {
            Expr::Floor(a, 1) => Expr::Ceil(a.clone(), 1),
            e => e.clone(),
        };
        assert_eq!(simplify(Expr::Min(vec![ceil_n1.clone(), inner])), ceil_n1);
        // max(i + 4, min(n - 1, i + 4)) = i + 4.
        let inner = Expr::Min(vec![n1.clone(), i4.clone()]);
        assert_eq!(simplify(Expr::Max(vec![i4.clone(), inner])), i4);
        // Nothing shared: nothing absorbed.
        let inner = Expr::Max(vec![i4.clone(), aff(&[], 0)]);
        let kept = simplify(Expr::Min(vec![n1.clone(), inner]));
        assert!(matches!(&kept, Expr::Min(v) if v.len() == 2), "{kept:?}");
    }
}
