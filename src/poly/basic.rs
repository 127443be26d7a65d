//! Conjunctions of constraints: [`BasicSet`] and [`BasicMap`].

use super::{Constraint, Space};

/// A conjunction of affine constraints over the integer points of a set space,
/// with `n_local` existentially quantified dimensions after the set dimensions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BasicSet {
    pub(crate) space: Space,
    pub(crate) n_local: usize,
    pub(crate) constraints: Vec<Constraint>,
}

/// A conjunction of affine constraints relating input and output tuples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BasicMap {
    pub(crate) space: Space,
    pub(crate) n_local: usize,
    pub(crate) constraints: Vec<Constraint>,
}

macro_rules! conjunction_common {
    ($t:ident) => {
        impl $t {
            /// The conjunction with no constraints (every point of the space).
            pub fn universe(space: Space) -> $t {
                $t {
                    space,
                    n_local: 0,
                    constraints: Vec::new(),
                }
            }

            pub fn space(&self) -> &Space {
                &self.space
            }

            pub fn n_local(&self) -> usize {
                self.n_local
            }

            pub fn constraints(&self) -> &[Constraint] {
                &self.constraints
            }

            /// Number of columns of a row: dimensions plus locals.
            pub fn n_cols(&self) -> usize {
                self.space.n_dim_total() + self.n_local
            }

            /// Add a new local dimension and return its column.
            pub fn add_local(&mut self) -> usize {
                self.n_local += 1;
                let n = self.n_cols();
                for c in &mut self.constraints {
                    c.pad_to(n);
                }
                n - 1
            }

            /// The same constraints with one more parameter, `name`, after the
            /// others; no row mentions it. Exact, cheap.
            pub fn with_param_appended(&self, name: &str) -> $t {
                let np = self.space.n_param();
                let mut space = self.space.clone();
                space.params.push(name.to_string());
                let width = self.n_cols() + 1;
                $t {
                    space,
                    n_local: self.n_local,
                    constraints: self
                        .constraints
                        .iter()
                        .map(|c| c.remapped(width, |k| if k < np { k } else { k + 1 }))
                        .collect(),
                }
            }

            /// Add a constraint; a row shorter than [`Self::n_cols`] is padded with zeros.
            pub fn add(&mut self, mut c: Constraint) {
                c.pad_to(self.n_cols());
                self.constraints.push(c);
            }
        }
    };
}

conjunction_common!(BasicSet);
conjunction_common!(BasicMap);

impl BasicSet {
    /// Build from parts; every row must have exactly `space.n_dim_total() + n_local` columns.
    pub fn from_parts(space: Space, n_local: usize, constraints: Vec<Constraint>) -> BasicSet {
        let mut s = BasicSet {
            space,
            n_local,
            constraints: Vec::new(),
        };
        for c in constraints {
            s.add(c);
        }
        s
    }
}

impl BasicMap {
    /// Build from rows laid out as documented in [`crate::poly`] for `space`
    /// (parameters, inputs, outputs, then `n_local` locals).
    pub fn from_columns(space: Space, n_local: usize, constraints: Vec<Constraint>) -> BasicMap {
        let mut m = BasicMap {
            space,
            n_local,
            constraints: Vec::new(),
        };
        for c in constraints {
            m.add(c);
        }
        m
    }
}
