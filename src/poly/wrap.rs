//! Relations as sets of pairs, and the set algebra of relations.
//!
//! A relation's rows have the same columns as a set whose dimensions are the
//! inputs followed by the outputs (see the column order in [`crate::poly`]),
//! so [`BasicMap::wrap`] and [`BasicSet::unwrap_as`] only change the space.
//! Every operation of [`Set`] then works on relations unchanged: intersect,
//! union, subtract, complement, `is_subset`, `is_equal`, sample.

use super::{BasicMap, BasicSet, Map, PolyError, Set, Space};

/// The set space of the pairs of `space` (a relation space): dimensions
/// are the inputs, then the outputs.
fn wrapped_space(space: &Space) -> Space {
    let mut dims = space.input.as_ref().map_or(Vec::new(), |t| t.dims.clone());
    dims.extend(space.output.dims.iter().cloned());
    Space::set(space.params.clone(), None, dims)
}

impl BasicMap {
    /// The same pairs as a set `{ [in, out] }`. Exact, cheap (no row changes).
    pub fn wrap(&self) -> BasicSet {
        BasicSet::from_parts(
            wrapped_space(&self.space),
            self.n_local,
            self.constraints.clone(),
        )
    }

    /// The same relation with duplicate divisions merged and unused ones
    /// dropped (see [`BasicSet::with_division_locals`] for what a division
    /// is). Exact; a cheap syntactic pass.
    pub fn without_redundant_divisions(&self) -> BasicMap {
        self.wrap()
            .without_redundant_divisions()
            .unwrap_as(&self.space)
    }

    /// An integer pair (parameters, inputs, outputs), or `None` if empty.
    /// Exact (Omega test).
    pub fn sample(&self) -> Result<Option<Vec<i64>>, PolyError> {
        self.wrap().sample()
    }

    /// Intersection; the spaces must be equal. Exact, linear in the size.
    pub fn intersect(&self, other: &BasicMap) -> Result<BasicMap, PolyError> {
        if self.space != other.space {
            return Err(PolyError::SpaceMismatch { op: "intersect" });
        }
        Ok(self.wrap().intersect(&other.wrap())?.unwrap_as(&self.space))
    }

    /// The pairs whose input lies in `set`. Exact, linear in the size.
    pub fn intersect_domain(&self, set: &BasicSet) -> Result<BasicMap, PolyError> {
        let (np, ni) = (self.space.n_param(), self.space.n_in());
        if set.space.params != self.space.params || set.space.n_out() != ni {
            return Err(PolyError::SpaceMismatch {
                op: "intersect_domain",
            });
        }
        // The set's params and dims are the map's params and inputs.
        let cols: Vec<usize> = (0..np + ni).collect();
        Ok(self.with_rows_of(set, &cols))
    }

    /// The pairs whose output lies in `set`. Exact, linear in the size.
    pub fn intersect_range(&self, set: &BasicSet) -> Result<BasicMap, PolyError> {
        let (np, ni, no) = (self.space.n_param(), self.space.n_in(), self.space.n_out());
        if set.space.params != self.space.params || set.space.n_out() != no {
            return Err(PolyError::SpaceMismatch {
                op: "intersect_range",
            });
        }
        let cols: Vec<usize> = (0..np + no)
            .map(|k| if k < np { k } else { k + ni })
            .collect();
        Ok(self.with_rows_of(set, &cols))
    }

    /// `self` with the rows of `set` added: set dimension column `k` (a
    /// parameter or dimension) goes to `dim_cols[k]`, its locals become new
    /// locals after this map's own.
    fn with_rows_of(&self, set: &BasicSet, dim_cols: &[usize]) -> BasicMap {
        let first_new = self.n_cols();
        let mut out = self.clone();
        for _ in 0..set.n_local {
            out.add_local();
        }
        let n = out.n_cols();
        for c in &set.constraints {
            out.add(c.remapped(n, |k| {
                dim_cols
                    .get(k)
                    .copied()
                    .unwrap_or(first_new + k - dim_cols.len())
            }));
        }
        out
    }
}

impl BasicSet {
    /// The relation in `space` with the same rows: the inverse of
    /// [`BasicMap::wrap`]. The dimensions must number the inputs plus the
    /// outputs of `space` (the callers here guarantee it).
    pub(crate) fn unwrap_as(&self, space: &Space) -> BasicMap {
        BasicMap::from_columns(space.clone(), self.n_local, self.constraints.clone())
    }
}

impl Map {
    /// The same pairs as a set of `[in, out]`. Exact, cheap.
    pub fn wrap(&self) -> Set {
        Set {
            space: wrapped_space(&self.space),
            basics: self.basics.iter().map(BasicMap::wrap).collect(),
        }
    }

    fn from_wrapped(set: Set, space: &Space) -> Map {
        Map {
            space: space.clone(),
            basics: set.basics.iter().map(|b| b.unwrap_as(space)).collect(),
        }
    }

    fn check_space(&self, other: &Map, op: &'static str) -> Result<(), PolyError> {
        if self.space != other.space {
            return Err(PolyError::SpaceMismatch { op });
        }
        Ok(())
    }

    /// Union (cheap: disjuncts are concatenated).
    pub fn union(&self, other: &Map) -> Result<Map, PolyError> {
        self.check_space(other, "union")?;
        let mut out = self.clone();
        out.basics.extend(other.basics.iter().cloned());
        Ok(out)
    }

    /// Intersection; see [`Set::intersect`] for the cost. Exact.
    pub fn intersect(&self, other: &Map) -> Result<Map, PolyError> {
        self.check_space(other, "intersect")?;
        let set = self.wrap().intersect(&other.wrap())?;
        Ok(Map::from_wrapped(set, &self.space))
    }

    /// `self − other`; see [`Set::subtract`]. Exact.
    pub fn subtract(&self, other: &Map) -> Result<Map, PolyError> {
        self.check_space(other, "subtract")?;
        let set = self.wrap().subtract(&other.wrap())?;
        Ok(Map::from_wrapped(set, &self.space))
    }

    /// The complement within all pairs of the space. Exact.
    pub fn complement(&self) -> Result<Map, PolyError> {
        Ok(Map::from_wrapped(self.wrap().complement()?, &self.space))
    }

    /// Exact `self ⊆ other`.
    pub fn is_subset(&self, other: &Map) -> Result<bool, PolyError> {
        self.check_space(other, "is_subset")?;
        self.wrap().is_subset(&other.wrap())
    }

    /// Exact equality of relations.
    pub fn is_equal(&self, other: &Map) -> Result<bool, PolyError> {
        self.check_space(other, "is_equal")?;
        self.wrap().is_equal(&other.wrap())
    }

    /// An integer pair of some disjunct, or `None`. Exact.
    pub fn sample(&self) -> Result<Option<Vec<i64>>, PolyError> {
        self.wrap().sample()
    }

    /// The pairs whose input lies in `set`: one disjunct per pair. Exact.
    pub fn intersect_domain(&self, set: &Set) -> Result<Map, PolyError> {
        let mut out = Map::empty(self.space.clone());
        for m in &self.basics {
            for s in &set.basics {
                out.push(m.intersect_domain(s)?);
            }
        }
        Ok(out)
    }

    /// The pairs whose output lies in `set`: one disjunct per pair. Exact.
    pub fn intersect_range(&self, set: &Set) -> Result<Map, PolyError> {
        let mut out = Map::empty(self.space.clone());
        for m in &self.basics {
            for s in &set.basics {
                out.push(m.intersect_range(s)?);
            }
        }
        Ok(out)
    }
}
