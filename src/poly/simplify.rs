//! Simplification: implicit equalities, redundant constraints, and the gist
//! of a set under a context. Each is exact over the integers and costs one
//! emptiness test (Omega) per constraint.

use super::{BasicSet, Constraint, ConstraintKind, PolyError};

/// `e >= 1`, i.e. the row `e - 1 >= 0`: the complement of `-e >= 0`.
fn strictly_positive(c: &Constraint) -> Result<Constraint, PolyError> {
    Ok(c.opposite()?.negation()?)
}

impl BasicSet {
    fn with_rows(&self, rows: Vec<Constraint>) -> BasicSet {
        BasicSet::from_parts(self.space.clone(), self.n_local, rows)
    }

    /// Turn every inequality `e >= 0` that holds with equality on all integer
    /// points (`e >= 1` has none) into `e = 0`. Exact; one emptiness test per
    /// inequality. An empty set is returned unchanged.
    pub fn detect_equalities(&self) -> Result<BasicSet, PolyError> {
        if self.is_empty()? {
            return Ok(self.clone());
        }
        let mut rows = self.constraints.clone();
        for k in 0..rows.len() {
            if rows[k].kind != ConstraintKind::Ineq {
                continue;
            }
            let mut probe = rows.clone();
            probe.push(strictly_positive(&rows[k])?);
            if self.with_rows(probe).is_empty()? {
                rows[k].kind = ConstraintKind::Eq;
            }
        }
        Ok(self.with_rows(rows))
    }

    /// Drop every constraint implied (over the integers) by the others.
    /// Exact; one emptiness test per constraint.
    pub fn remove_redundancies(&self) -> Result<BasicSet, PolyError> {
        self.gist_rows(None)
    }

    /// The gist of `self` under `context`: `self` without the constraints
    /// that `context` and the remaining constraints imply. Exact:
    /// `gist ∩ context = self ∩ context`. One emptiness test per constraint.
    pub fn gist(&self, context: &BasicSet) -> Result<BasicSet, PolyError> {
        if context.space != self.space {
            return Err(PolyError::SpaceMismatch { op: "gist" });
        }
        self.gist_rows(Some(context))
    }

    fn gist_rows(&self, context: Option<&BasicSet>) -> Result<BasicSet, PolyError> {
        let mut kept = self.constraints.clone();
        let mut k = 0;
        while k < kept.len() {
            let others: Vec<Constraint> = kept
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != k)
                .map(|(_, c)| c.clone())
                .collect();
            let c = &kept[k];
            let negations = c.complement()?;
            let mut implied = true;
            for neg in negations {
                let mut rows = others.clone();
                rows.push(neg);
                let mut probe = self.with_rows(rows);
                if let Some(ctx) = context {
                    probe = probe.intersect(ctx)?;
                }
                if !probe.is_empty()? {
                    implied = false;
                    break;
                }
            }
            if implied {
                kept.remove(k);
            } else {
                k += 1;
            }
        }
        Ok(self.with_rows(kept))
    }
}
