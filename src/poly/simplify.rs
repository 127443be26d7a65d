//! Simplification: implicit equalities, redundant constraints, and the gist
//! of a set under a context. Each is exact over the integers and costs at
//! most one emptiness test (Omega) per constraint.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::constraint::embed;
use super::omega::RowHasher;
use super::{gcd_of, BasicSet, Constraint, ConstraintKind, PolyError, Substituted};

/// `e >= 1`, i.e. the row `e - 1 >= 0`: the complement of `-e >= 0`.
fn strictly_positive(c: &Constraint) -> Result<Constraint, PolyError> {
    Ok(c.opposite()?.negation()?)
}

impl BasicSet {
    fn with_rows(&self, rows: Vec<Constraint>) -> BasicSet {
        BasicSet::from_parts(self.space.clone(), self.n_local, rows)
    }

    /// Turn every inequality `e >= 0` that holds with equality on all integer
    /// points (`e >= 1` has none) into `e = 0`. Exact; at most one emptiness
    /// test per inequality: the points those tests find are kept, and an
    /// inequality strictly positive at one of them, or at the latest moved
    /// one step along it and still in the set, is no equality, with no
    /// test. An empty set is returned unchanged.
    pub fn detect_equalities(&self) -> Result<BasicSet, PolyError> {
        let n = self.n_cols();
        // Every probe is the set and one row more: its unit equalities are
        // substituted once (exact).
        let base = Substituted::new(n, self.constraints.clone())?;
        let Some(first) = base.sample_with(&[])? else {
            return Ok(self.clone());
        };
        let mut points = vec![first];
        let mut rows = self.constraints.clone();
        for row in &mut rows {
            if row.kind != ConstraintKind::Ineq || points.iter().any(|p| row.is_positive_at(p)) {
                continue;
            }
            // The latest point one step further along the row, still in
            // the set: no equality, no test.
            let latest = points.last().and_then(|p| self.step_along(row, p));
            if let Some(q) = latest {
                points.push(q);
                continue;
            }
            // The rows found to be equalities so far have the same integer
            // points as inequalities: the base still stands for `rows`.
            match base.sample_with(&[strictly_positive(row)?])? {
                Some(p) => points.push(p),
                None => row.kind = ConstraintKind::Eq,
            }
        }
        Ok(self.with_rows(rows))
    }

    /// A point of this set that `from` (a point of it) becomes when one
    /// of its columns moves one step the way `row` grows (so that `row`
    /// is positive there). Plain evaluation, no test; `None` says nothing.
    fn step_along(&self, row: &Constraint, from: &[i64]) -> Option<Vec<i64>> {
        for (col, &a) in row.coeffs.iter().enumerate() {
            if a == 0 {
                continue;
            }
            let mut q = from.to_vec();
            q[col] = q[col].checked_add(a.signum())?;
            if self.constraints.iter().all(|c| c.holds_at(&q)) {
                return Some(q);
            }
        }
        None
    }

    /// Drop every constraint implied (over the integers) by the others.
    /// Exact; one emptiness test per constraint. A constraint whose test
    /// gives up at a step limit is kept (not proven implied): the set is
    /// the same, only less simple.
    pub fn remove_redundancies(&self) -> Result<BasicSet, PolyError> {
        self.gist_rows(None)
    }

    /// The gist of `self` under `context`: `self` without the constraints
    /// that `context` and the remaining constraints imply. Exact:
    /// `gist ∩ context = self ∩ context`. One emptiness test per
    /// constraint; one that gives up at a step limit keeps its constraint.
    pub fn gist(&self, context: &BasicSet) -> Result<BasicSet, PolyError> {
        if context.space != self.space {
            return Err(PolyError::SpaceMismatch { op: "gist" });
        }
        self.gist_rows(Some(context))
    }

    fn gist_rows(&self, context: Option<&BasicSet>) -> Result<BasicSet, PolyError> {
        let mut kept = self.constraints.clone();
        if let Some(ctx) = context {
            // A row that one row of the context implies needs no test: the
            // test would find it implied whatever the other rows are, so
            // dropping it first changes no other answer.
            let bounds = DirectionBounds::of(&ctx.constraints, ctx.space.n_dim_total())?;
            let nd = self.space.n_dim_total();
            let mut implied = Vec::with_capacity(kept.len());
            for c in &kept {
                implied.push(bounds.implies(c, nd)?);
            }
            let mut flags = implied.into_iter();
            kept.retain(|_| !flags.next().unwrap_or(false));
        }
        // Every probe holds the context: its unit equalities are
        // substituted once (exact), over the columns of `self` (its locals
        // included) followed by the context's locals.
        let n = self.n_cols() + context.map_or(0, |c| c.n_local);
        let context_rows = match context {
            Some(ctx) => {
                let (nd, mine) = (self.space.n_dim_total(), self.n_local);
                let map: Vec<usize> = (0..ctx.n_cols())
                    .map(|k| if k < nd { k } else { k + mine })
                    .collect();
                embed(&ctx.constraints, &map, n)
            }
            None => Vec::new(),
        };
        let base = Substituted::new(n, context_rows)?;
        // Each row rewritten over the base's columns once, for every probe.
        let mut rewritten = base.rewrite_all(&kept)?;
        let mut k = 0;
        while k < kept.len() {
            let mut implied = true;
            for neg in kept[k].complement()? {
                let mut rows = Vec::with_capacity(rewritten.len());
                rows.extend(
                    rewritten
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != k)
                        .map(|(_, c)| c.clone()),
                );
                rows.extend(base.rewrite_all(&[neg])?);
                // A test that gives up proves nothing: the row stays.
                let holds_point = match base.sample_with_rewritten(rows) {
                    Ok(point) => point.is_some(),
                    Err(PolyError::StepLimit(_)) => true,
                    Err(e) => return Err(e),
                };
                if holds_point {
                    implied = false;
                    break;
                }
            }
            if implied {
                kept.remove(k);
                rewritten.remove(k);
            } else {
                k += 1;
            }
        }
        Ok(self.with_rows(kept))
    }
}

/// The tightest constant of every direction bounded by a row without
/// locals: `a·x + k ≥ 0` read as `a·x ≥ -k`, `a` divided by its content
/// (and an equation as its two inequalities). A cheap check of whether one
/// row implies another.
struct DirectionBounds {
    tightest: HashMap<Vec<i64>, i64, BuildHasherDefault<RowHasher>>,
}

impl DirectionBounds {
    fn of(rows: &[Constraint], nd: usize) -> Result<DirectionBounds, PolyError> {
        let mut tightest: HashMap<Vec<i64>, i64, BuildHasherDefault<RowHasher>> =
            HashMap::default();
        for c in rows
            .iter()
            .filter(|c| c.coeffs[nd..].iter().all(|&v| v == 0))
        {
            for side in inequalities(c)? {
                if let Some((dir, k)) = direction(&side, nd)? {
                    let t = tightest.entry(dir).or_insert(k);
                    *t = (*t).min(k);
                }
            }
        }
        Ok(DirectionBounds { tightest })
    }

    /// Does one row of the context imply `c` over the integers? A cheap
    /// check: `false` when it cannot tell.
    fn implies(&self, c: &Constraint, nd: usize) -> Result<bool, PolyError> {
        if self.tightest.is_empty() || c.coeffs[nd..].iter().any(|&v| v != 0) {
            return Ok(false);
        }
        for side in inequalities(c)? {
            let Some((dir, k)) = direction(&side, nd)? else {
                return Ok(false);
            };
            if self.tightest.get(&dir).is_none_or(|&t| t > k) {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The inequalities a row stands for: itself, or an equation's two sides.
fn inequalities(c: &Constraint) -> Result<Vec<Constraint>, PolyError> {
    Ok(match c.kind {
        ConstraintKind::Ineq => vec![c.clone()],
        ConstraintKind::Eq => vec![c.clone(), c.opposite()?],
    })
}

/// The inequality `a·x + k ≥ 0` over the first `nd` columns as its
/// direction `a / g` and constant `⌊k / g⌋` (`g` the content of `a`),
/// equivalent over the integers; `None` for a row without variables.
fn direction(c: &Constraint, nd: usize) -> Result<Option<(Vec<i64>, i64)>, PolyError> {
    let g = gcd_of(c.coeffs[..nd].iter().copied())?;
    if g == 0 {
        return Ok(None);
    }
    let dir = c.coeffs[..nd].iter().map(|&v| v / g).collect();
    Ok(Some((dir, c.constant.div_euclid(g))))
}
