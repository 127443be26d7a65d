//! Finite unions: [`Set`] (of [`BasicSet`]s) and [`Map`] (of [`BasicMap`]s).

use super::{BasicMap, BasicSet, PolyError, Space};

/// A finite union of basic sets in one space. The empty union is the empty set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Set {
    pub(crate) space: Space,
    pub(crate) basics: Vec<BasicSet>,
}

/// A finite union of basic maps in one space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    pub(crate) space: Space,
    pub(crate) basics: Vec<BasicMap>,
}

impl Set {
    pub fn empty(space: Space) -> Set {
        Set {
            space,
            basics: Vec::new(),
        }
    }

    pub fn from_basic(b: BasicSet) -> Set {
        Set {
            space: b.space.clone(),
            basics: vec![b],
        }
    }

    /// Union with one more disjunct (cheap: no simplification).
    pub fn push(&mut self, b: BasicSet) {
        self.basics.push(b);
    }

    pub fn space(&self) -> &Space {
        &self.space
    }

    pub fn basics(&self) -> &[BasicSet] {
        &self.basics
    }

    /// The same set in `space`, which has the same parameters and number
    /// of dimensions: only the names change (isl's resetting of a space).
    /// Exact, cheap; [`PolyError::SpaceMismatch`] when the shapes differ.
    pub fn renamed(&self, space: &Space) -> Result<Set, PolyError> {
        if self.space.params != space.params || self.space.n_dim_total() != space.n_dim_total() {
            return Err(PolyError::SpaceMismatch { op: "renamed" });
        }
        let basics = self
            .basics
            .iter()
            .map(|b| BasicSet::from_parts(space.clone(), b.n_local, b.constraints.clone()))
            .collect();
        Ok(Set {
            space: space.clone(),
            basics,
        })
    }
}

impl Map {
    pub fn empty(space: Space) -> Map {
        Map {
            space,
            basics: Vec::new(),
        }
    }

    /// Union with one more disjunct (cheap: no simplification).
    pub fn push(&mut self, b: BasicMap) {
        self.basics.push(b);
    }

    pub fn from_basic(b: BasicMap) -> Map {
        Map {
            space: b.space.clone(),
            basics: vec![b],
        }
    }

    pub fn space(&self) -> &Space {
        &self.space
    }

    pub fn basics(&self) -> &[BasicMap] {
        &self.basics
    }

    /// The same relation in `space`, which has the same parameters and
    /// numbers of input and output dimensions: only the names change.
    /// Exact, cheap; [`PolyError::SpaceMismatch`] when the shapes differ.
    pub fn renamed(&self, space: &Space) -> Result<Map, PolyError> {
        let fits = self.space.params == space.params
            && self.space.n_in() == space.n_in()
            && self.space.n_out() == space.n_out();
        if !fits {
            return Err(PolyError::SpaceMismatch { op: "renamed" });
        }
        let basics = self
            .basics
            .iter()
            .map(|b| BasicMap::from_columns(space.clone(), b.n_local, b.constraints.clone()))
            .collect();
        Ok(Map {
            space: space.clone(),
            basics,
        })
    }
}
