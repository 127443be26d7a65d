//! After the last date: each statement instance with its iterators
//! solved from the dates, under the guards that make its domain exact;
//! rows as guards (`cond`) and as affine expressions over the enclosing
//! loop variables (`resolve`).

use super::{unsupported, Scanner, Val};
use crate::emit::scan::ast::{Cond, Node, Quotient, Sum};
use crate::emit::scan::{proven_empty, ScanError};
use crate::poly::{checked_add, checked_mul, gcd_of, BasicSet, Constraint, ConstraintKind};

impl Scanner<'_> {
    /// A row (`aff >= 0` or `= 0`) as a guard.
    /// Divided by the gcd of its coefficients (over the integers:
    /// `2n - 3 >= 0` is `n - 2 >= 0`).
    pub(super) fn cond(&self, c: &Constraint, vals: &[Val]) -> Result<Cond, ScanError> {
        let mut aff = self.resolve(&c.coeffs, c.constant, vals)?;
        let eq = c.kind == ConstraintKind::Eq;
        // 2^63 does not fit: 1 then (no division) is always sound.
        let g = gcd_of(aff.terms.iter().map(|t| t.0)).unwrap_or(1);
        if g > 1 && (!eq || aff.constant % g == 0) {
            for t in &mut aff.terms {
                t.0 /= g;
            }
            aff.constant = aff.constant.div_euclid(g);
        }
        Ok(Cond {
            aff,
            eq,
            modulo: None,
            floors: Vec::new(),
            sides: None,
        })
    }

    /// `coeffs · [params | dates] + constant` in loop variables and
    /// parameters.
    pub(super) fn resolve(
        &self,
        coeffs: &[i64],
        constant: i64,
        vals: &[Val],
    ) -> Result<Sum, ScanError> {
        if coeffs.iter().skip(self.np + self.n).any(|&v| v != 0) {
            return Err(unsupported("a bound or guard on an existential variable"));
        }
        let mut aff = Sum {
            terms: Vec::new(),
            constant,
        };
        for t in 0..self.n {
            let c = coeffs.get(self.np + t).copied().unwrap_or(0);
            if c == 0 {
                continue;
            }
            match vals.get(t) {
                Some(Val::Const(k)) => {
                    aff.constant = checked_add(aff.constant, checked_mul(c, *k)?)?
                }
                Some(Val::Var { name, sign }) => add_term(&mut aff, checked_mul(c, *sign)?, name)?,
                Some(Val::Subst(sc, sk)) => {
                    let inner = self.resolve(sc, *sk, &vals[..t])?;
                    for (v, name) in &inner.terms {
                        add_term(&mut aff, checked_mul(c, *v)?, name)?;
                    }
                    aff.constant = checked_add(aff.constant, checked_mul(c, inner.constant)?)?;
                }
                None => return Err(unsupported(format!("date {t} used before it is scanned"))),
            }
        }
        for (p, name) in self.scop.params.iter().enumerate() {
            let c = coeffs.get(p).copied().unwrap_or(0);
            if c != 0 {
                add_term(&mut aff, c, name)?;
            }
        }
        Ok(aff)
    }

    pub(super) fn leaves(
        &self,
        live: &[usize],
        ctx: &BasicSet,
        vals: &[Val],
    ) -> Result<Vec<Node>, ScanError> {
        let mut out = Vec::new();
        for &i in live {
            let item = &self.items[i];
            let total = self.total(item);
            let guard = self.project(i, self.n - 1)?;
            if proven_empty(&guard.intersect(ctx)?)? {
                continue;
            }
            // The guard is a rational projection: where it is not exact
            // over the integers it may admit dates with no instance, and
            // the statement would run where it must not. Unless the
            // enclosing loops (their strides) already exclude those dates,
            // refuse.
            let (_, exact) = item.set.project_out_rational(self.n, total - self.n)?;
            let mut congruences = Vec::new();
            if !exact && !self.guard_is_exact(item, &guard, ctx)? {
                congruences = self.congruences(item, &guard, ctx, vals)?;
            }
            let mut conds = guard
                .gist(ctx)?
                .constraints()
                .iter()
                .map(|c| self.cond(c, vals))
                .collect::<Result<Vec<_>, _>>()?;
            conds.extend(congruences);
            let iterators = self
                .iterator_solutions(item)?
                .into_iter()
                .map(|s| {
                    Ok(Quotient {
                        aff: self.resolve(&s.coeffs, s.constant, vals)?,
                        floors: s
                            .floors
                            .iter()
                            .map(|(c, f)| {
                                Ok((*c, self.resolve(&f.coeffs, f.constant, vals)?, f.div))
                            })
                            .collect::<Result<_, ScanError>>()?,
                        divisor: s.a,
                    })
                })
                .collect::<Result<Vec<_>, ScanError>>()?;
            let node = Node::Stmt {
                statement: item.statement,
                iterators,
            };
            if conds.is_empty() {
                out.push(node);
            } else {
                out.push(Node::If {
                    conds,
                    body: vec![node],
                    otherwise: Vec::new(),
                });
            }
        }
        Ok(out)
    }
}

pub(super) fn add_term(aff: &mut Sum, c: i64, name: &str) -> Result<(), ScanError> {
    if let Some(t) = aff.terms.iter_mut().find(|t| t.1 == name) {
        t.0 = checked_add(t.0, c)?;
    } else {
        aff.terms.push((c, name.to_string()));
    }
    aff.terms.retain(|t| t.0 != 0);
    Ok(())
}
