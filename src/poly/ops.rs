//! Operations on sets and relations. Each says whether it is exact and what
//! it costs; every one here is exact over the integers.
//!
//! Locals (existentially quantified columns) make projection exact for free:
//! projecting a dimension out turns it into a local, so `{ [i, j] : i = 2j }`
//! projected onto `i` is `{ [i] : exists (e0: i = 2e0) }`, the even numbers.

use super::constraint::{embed, permute};
use super::divisions::division_definition;
use super::omega::integer_sample;
use super::{BasicSet, Constraint, ConstraintKind, PolyError, Set};

/// Result of a lexicographic optimisation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LexOpt {
    Empty,
    /// Some column is unbounded in the direction asked.
    Unbounded,
    /// The optimum: values of the parameters and dimensions (no locals).
    Point(Vec<i64>),
}

impl BasicSet {
    /// An integer point (parameters then dimensions), or `None` if empty.
    /// Exact (Omega test); exponential in the worst case.
    pub fn sample(&self) -> Result<Option<Vec<i64>>, PolyError> {
        let n = self.n_cols();
        let p = integer_sample(n, &self.constraints)?;
        Ok(p.map(|mut p| {
            p.truncate(self.space.n_dim_total());
            p
        }))
    }

    /// Exact integer emptiness (Omega test).
    pub fn is_empty(&self) -> Result<bool, PolyError> {
        Ok(self.sample()?.is_none())
    }

    /// Intersection; the spaces must be equal. Exact, linear in the size.
    pub fn intersect(&self, other: &BasicSet) -> Result<BasicSet, PolyError> {
        if self.space != other.space {
            return Err(PolyError::SpaceMismatch { op: "intersect" });
        }
        let nd = self.space.n_dim_total();
        let n = self.n_cols() + other.n_local;
        let mut out = BasicSet::from_parts(
            self.space.clone(),
            self.n_local + other.n_local,
            self.constraints.clone(),
        );
        let map: Vec<usize> = (0..other.n_cols())
            .map(|k| if k < nd { k } else { k + self.n_local })
            .collect();
        for c in embed(&other.constraints, &map, n) {
            out.add(c);
        }
        Ok(out)
    }

    /// Turn dimensions `first..first + count` into locals (exact projection).
    /// Cheap: no constraint is computed, the quantifier is just recorded.
    pub fn project_out(&self, first: usize, count: usize) -> BasicSet {
        let np = self.space.n_param();
        let nd = self.space.n_out();
        let space = self.space.without_dims(first, count);
        // New order: params, kept dims, projected dims, old locals.
        let mut order: Vec<usize> = (0..np).collect();
        order.extend(
            (0..nd)
                .filter(|k| *k < first || *k >= first + count)
                .map(|k| np + k),
        );
        order.extend((first..first + count).map(|k| np + k));
        order.extend(np + nd..self.n_cols());
        BasicSet::from_parts(
            space,
            self.n_local + count,
            permute(&self.constraints, &order),
        )
    }

    /// Eliminate dimensions `first..first + count` in isl's sense: the space
    /// keeps them, but they become unconstrained (`{ [x, y] : ∃ y' : … }`).
    /// Exact; cheap: their columns move to new locals.
    pub fn eliminate(&self, first: usize, count: usize) -> BasicSet {
        let np = self.space.n_param();
        let cols = np + first..np + first + count;
        let mut out = self.clone();
        let locals: Vec<usize> = cols.clone().map(|_| out.add_local()).collect();
        for c in &mut out.constraints {
            for (d, &l) in cols.clone().zip(&locals) {
                c.coeffs[l] = c.coeffs[d];
                c.coeffs[d] = 0;
            }
        }
        out
    }

    /// Lexicographic minimum over the parameters and dimensions, in column
    /// order (fix the parameters with equalities to optimise the dimensions).
    /// Exact: one emptiness test for unboundedness and a binary search of
    /// emptiness tests per column.
    pub fn lexmin(&self) -> Result<LexOpt, PolyError> {
        self.lexopt(1)
    }

    /// Lexicographic maximum; see [`BasicSet::lexmin`].
    pub fn lexmax(&self) -> Result<LexOpt, PolyError> {
        self.lexopt(-1)
    }

    fn lexopt(&self, sign: i64) -> Result<LexOpt, PolyError> {
        let n = self.n_cols();
        let Some(mut best) = integer_sample(n, &self.constraints)? else {
            return Ok(LexOpt::Empty);
        };
        let mut rows = self.constraints.clone();
        for col in 0..self.space.n_dim_total() {
            // Cheap first: a row bounding `sign * x_col` from below in terms of
            // earlier columns only (already fixed to `best`) gives the bound
            // directly, and often the optimum in one emptiness test.
            if let Some(direct) = direct_bound(&rows, col, sign, &best, self.space.n_dim_total())? {
                // The known point may already attain the bound: no test then.
                if sign * best[col] == direct {
                    let mut fix = vec![0; n];
                    fix[col] = 1;
                    rows.push(Constraint::eq(fix, -best[col]));
                    continue;
                }
                if let Some(p) = self.sample_with(&rows, col, sign, direct)? {
                    best = p;
                    let mut fix = vec![0; n];
                    fix[col] = 1;
                    rows.push(Constraint::eq(fix, -best[col]));
                    continue;
                }
            } else {
                // Unbounded iff the recession cone has a ray moving col the wrong way.
                let mut cone: Vec<Constraint> = rows
                    .iter()
                    .map(|c| Constraint {
                        kind: c.kind,
                        coeffs: c.coeffs.clone(),
                        constant: 0,
                    })
                    .collect();
                let mut dir = vec![0; n];
                dir[col] = -sign; // -sign * r_col >= 1
                cone.push(Constraint::ineq(dir, -1));
                if integer_sample(n, &cone)?.is_some() {
                    return Ok(LexOpt::Unbounded);
                }
            }
            // Binary search on sign * x_col between a known-infeasible bound and best.
            let mut hi = sign * best[col]; // feasible: sign*x = hi
            let mut step: i64 = 1;
            let mut lo;
            loop {
                let probe = hi.checked_sub(step).ok_or(PolyError::Overflow)?;
                match self.sample_with(&rows, col, sign, probe)? {
                    Some(p) => {
                        hi = sign * p[col];
                        best = p;
                        step = step.checked_mul(2).ok_or(PolyError::Overflow)?;
                    }
                    None => {
                        lo = probe;
                        break;
                    }
                }
            }
            // Invariant: sign*x <= lo infeasible, sign*x = hi feasible.
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                match self.sample_with(&rows, col, sign, mid)? {
                    Some(p) => {
                        hi = sign * p[col];
                        best = p;
                    }
                    None => lo = mid,
                }
            }
            let mut fix = vec![0; n];
            fix[col] = 1;
            rows.push(Constraint::eq(fix, -sign * hi));
        }
        best.truncate(self.space.n_dim_total());
        Ok(LexOpt::Point(best))
    }

    /// A point of `rows` with `sign * x_col <= bound`.
    fn sample_with(
        &self,
        rows: &[Constraint],
        col: usize,
        sign: i64,
        bound: i64,
    ) -> Result<Option<Vec<i64>>, PolyError> {
        let n = self.n_cols();
        let mut r = rows.to_vec();
        let mut c = vec![0; n];
        c[col] = -sign;
        r.push(Constraint::ineq(c, bound));
        integer_sample(n, &r)
    }

    /// The complement within the universe of the space. Exact. The locals
    /// are first written as integer divisions
    /// ([`BasicSet::with_division_locals`], which may split the set); each
    /// constraint other than a division's definition is then negated in turn
    /// (`¬c1 ∨ (c1 ∧ ¬c2) ∨ …`), giving disjoint pieces.
    pub fn complement(&self) -> Result<Set, PolyError> {
        let mut acc = Set::from_basic(BasicSet::universe(self.space.clone()));
        for part in &self.with_division_locals()?.basics {
            acc = acc.intersect_merging_divisions(&part.complement_of_divisions()?)?;
        }
        Ok(acc)
    }

    /// The complement of a conjunction whose locals are ordered divisions.
    fn complement_of_divisions(&self) -> Result<Set, PolyError> {
        let defs = self.division_rows()?;
        let mut out = Set::empty(self.space.clone());
        let mut prefix: Vec<Constraint> =
            defs.iter().map(|&k| self.constraints[k].clone()).collect();
        for (k, c) in self.constraints.iter().enumerate() {
            if defs.contains(&k) {
                continue;
            }
            // `e = 0`: below (`e < 0`) first, then above.
            let negations: Vec<Constraint> = match c.kind {
                ConstraintKind::Ineq => vec![c.negation()?],
                ConstraintKind::Eq => vec![c.negation()?, c.opposite()?.negation()?],
            };
            // For an equality, the two negations are disjoint too.
            for neg in negations {
                let mut rows = prefix.clone();
                rows.push(neg);
                out.push(BasicSet::from_parts(self.space.clone(), self.n_local, rows));
            }
            match c.kind {
                ConstraintKind::Ineq | ConstraintKind::Eq => prefix.push(c.clone()),
            }
        }
        Ok(out)
    }

    /// Indices of the rows defining each local as an integer division of
    /// the columns before it.
    fn division_rows(&self) -> Result<Vec<usize>, PolyError> {
        let mut defs = Vec::new();
        for q in self.space.n_dim_total()..self.n_cols() {
            match division_definition(&self.constraints, q, |k| k < q) {
                Some((a, b)) => defs.extend([a, b]),
                None => {
                    return Err(PolyError::Unsupported(
                        "complement of a set whose local is not an integer division",
                    ))
                }
            }
        }
        Ok(defs)
    }
}

/// The largest lower bound on `sign * x_col` given by a row whose other
/// non-zero columns all come before `col` (and are not locals), with those
/// columns at their values in `point`; `None` if no row gives one.
fn direct_bound(
    rows: &[Constraint],
    col: usize,
    sign: i64,
    point: &[i64],
    n_dims: usize,
) -> Result<Option<i64>, PolyError> {
    let mut best: Option<i64> = None;
    for r in rows {
        let a = sign * r.coeffs[col];
        let directs = r.coeffs[col + 1..].iter().all(|&v| v == 0) && col < n_dims;
        if !directs || a == 0 || (r.kind == ConstraintKind::Ineq && a < 0) {
            continue;
        }
        // a * (sign x) + rest >= 0 (or = 0): sign x >= ceil(-rest / a) when a > 0.
        let mut rest = r.constant;
        for (k, &v) in r.coeffs[..col].iter().enumerate() {
            rest = super::checked_add(rest, super::checked_mul(v, point[k])?)?;
        }
        let (a, rest) = if a < 0 { (-a, -rest) } else { (a, rest) };
        let bound = -(rest.div_euclid(a));
        best = Some(best.map_or(bound, |b| b.max(bound)));
    }
    Ok(best)
}

impl Set {
    /// Exact: empty iff every disjunct is.
    pub fn is_empty(&self) -> Result<bool, PolyError> {
        for b in &self.basics {
            if !b.is_empty()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// An integer point of some disjunct, or `None`.
    pub fn sample(&self) -> Result<Option<Vec<i64>>, PolyError> {
        for b in &self.basics {
            if let Some(p) = b.sample()? {
                return Ok(Some(p));
            }
        }
        Ok(None)
    }

    /// Union (cheap: disjuncts are concatenated, nothing is simplified).
    pub fn union(&self, other: &Set) -> Result<Set, PolyError> {
        if self.space != other.space {
            return Err(PolyError::SpaceMismatch { op: "union" });
        }
        let mut out = self.clone();
        out.basics.extend(other.basics.iter().cloned());
        Ok(out)
    }

    /// Intersection: pairwise, quadratic in the number of disjuncts; empty
    /// pairs are dropped (one emptiness test each).
    pub fn intersect(&self, other: &Set) -> Result<Set, PolyError> {
        if self.space != other.space {
            return Err(PolyError::SpaceMismatch { op: "intersect" });
        }
        let mut out = Set::empty(self.space.clone());
        for a in &self.basics {
            for b in &other.basics {
                let c = a.intersect(b)?;
                if !c.is_empty()? {
                    out.push(c);
                }
            }
        }
        Ok(out)
    }

    /// [`Set::intersect`], then duplicate and unused divisions removed.
    fn intersect_merging_divisions(&self, other: &Set) -> Result<Set, PolyError> {
        let mut out = self.intersect(other)?;
        for b in &mut out.basics {
            *b = b.without_redundant_divisions();
        }
        Ok(out)
    }

    /// `self − other`, exact; see [`BasicSet::complement`] for which locals
    /// the subtrahend may have.
    pub fn subtract(&self, other: &Set) -> Result<Set, PolyError> {
        if self.space != other.space {
            return Err(PolyError::SpaceMismatch { op: "subtract" });
        }
        let mut acc = self.clone();
        for b in &other.basics {
            acc = acc.intersect_merging_divisions(&b.complement()?)?;
        }
        Ok(acc)
    }

    /// The complement within the universe of the space.
    pub fn complement(&self) -> Result<Set, PolyError> {
        let universe = Set::from_basic(BasicSet::universe(self.space.clone()));
        universe.subtract(self)
    }

    /// Exact `self ⊆ other`.
    pub fn is_subset(&self, other: &Set) -> Result<bool, PolyError> {
        self.subtract(other)?.is_empty()
    }

    /// The same set with every disjunct that another kept disjunct
    /// contains dropped. Exact: one subset test per pair, and a pair whose
    /// test is not decided (a step limit, an overflow, locals the
    /// complement cannot take) keeps both. A disjunct with locals is
    /// taken as a container only when plainly equal: its complement is a
    /// union over its divisions, and the tests against it cost seconds
    /// where a footprint has a dozen such disjuncts (random kernel seed
    /// 21, `pack`). Quadratic in the number of disjuncts.
    pub fn without_covered_disjuncts(&self) -> Set {
        let covers = |a: &BasicSet, b: &BasicSet| {
            a.plain_is_equal(b)
                || (a.n_local() == 0
                    && Set::from_basic(b.clone())
                        .is_subset(&Set::from_basic(a.clone()))
                        .unwrap_or(false))
        };
        let mut kept: Vec<BasicSet> = Vec::new();
        for b in &self.basics {
            if kept.iter().any(|a| covers(a, b)) {
                continue;
            }
            kept.retain(|a| !covers(b, a));
            kept.push(b.clone());
        }
        Set {
            space: self.space.clone(),
            basics: kept,
        }
    }

    /// Exact set equality. Disjuncts that are plainly equal, one for one
    /// ([`BasicSet::plain_is_equal`]), answer without a test.
    pub fn is_equal(&self, other: &Set) -> Result<bool, PolyError> {
        if self.space == other.space
            && self.basics.len() == other.basics.len()
            && self
                .basics
                .iter()
                .zip(&other.basics)
                .all(|(a, b)| a.plain_is_equal(b))
        {
            return Ok(true);
        }
        Ok(self.is_subset(other)? && other.is_subset(self)?)
    }

    /// Project dimensions `first..first + count` out of every disjunct.
    pub fn project_out(&self, first: usize, count: usize) -> Set {
        let basics: Vec<BasicSet> = self
            .basics
            .iter()
            .map(|b| b.project_out(first, count))
            .collect();
        let space = match basics.first() {
            Some(b) => b.space.clone(),
            None => {
                BasicSet::universe(self.space.clone())
                    .project_out(first, count)
                    .space
            }
        };
        Set { space, basics }
    }

    /// Eliminate dimensions in every disjunct (see [`BasicSet::eliminate`]).
    pub fn eliminate(&self, first: usize, count: usize) -> Set {
        Set {
            space: self.space.clone(),
            basics: self
                .basics
                .iter()
                .map(|b| b.eliminate(first, count))
                .collect(),
        }
    }

    /// Lexicographic minimum over all disjuncts (see [`BasicSet::lexmin`]).
    pub fn lexmin(&self) -> Result<LexOpt, PolyError> {
        self.lexopt(true)
    }

    /// Lexicographic maximum over all disjuncts.
    pub fn lexmax(&self) -> Result<LexOpt, PolyError> {
        self.lexopt(false)
    }

    fn lexopt(&self, min: bool) -> Result<LexOpt, PolyError> {
        let mut best: Option<Vec<i64>> = None;
        for b in &self.basics {
            match if min { b.lexmin()? } else { b.lexmax()? } {
                LexOpt::Empty => {}
                LexOpt::Unbounded => return Ok(LexOpt::Unbounded),
                LexOpt::Point(p) => {
                    let better = best
                        .as_ref()
                        .is_none_or(|q| if min { p < *q } else { p > *q });
                    if better {
                        best = Some(p);
                    }
                }
            }
        }
        Ok(best.map_or(LexOpt::Empty, LexOpt::Point))
    }
}
