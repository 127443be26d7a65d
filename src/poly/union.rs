//! Finite unions: [`Set`] (of [`BasicSet`]s) and [`Map`] (of [`BasicMap`]s).

use super::{BasicMap, BasicSet, Space};

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
}
