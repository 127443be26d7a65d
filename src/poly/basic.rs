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

            /// Whether `other` has the same space, locals and constraints,
            /// up to the constraints' order and the sign of an equality:
            /// then both are the same set. Cheap (a sort of the rows);
            /// `false` says nothing (isl's `plain_is_equal`).
            pub fn plain_is_equal(&self, other: &$t) -> bool {
                if self.space != other.space
                    || self.n_local != other.n_local
                    || self.constraints.len() != other.constraints.len()
                {
                    return false;
                }
                match (
                    oriented_rows(&self.constraints),
                    oriented_rows(&other.constraints),
                ) {
                    (Some(a), Some(b)) => a == b,
                    _ => false,
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

/// The rows sorted, each equality with its first non-zero coefficient
/// positive; `None` where a negation overflows.
fn oriented_rows(constraints: &[Constraint]) -> Option<Vec<(bool, Vec<i64>, i64)>> {
    let mut rows = Vec::with_capacity(constraints.len());
    for c in constraints {
        let flip = c.is_eq() && c.coeffs.iter().find(|&&a| a != 0).is_some_and(|&a| a < 0);
        rows.push(if flip {
            let coeffs: Option<Vec<i64>> = c.coeffs.iter().map(|a| a.checked_neg()).collect();
            (true, coeffs?, c.constant.checked_neg()?)
        } else {
            (c.is_eq(), c.coeffs.clone(), c.constant)
        });
    }
    rows.sort_unstable();
    Some(rows)
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

#[cfg(test)]
mod tests {
    use crate::poly::parse_basic_map;

    #[test]
    fn plain_equality_reads_rows_up_to_order_and_the_sign_of_equalities() {
        let a = parse_basic_map("[n] -> { S0[i] -> [0, i] : 0 <= i < n }").expect("parses");
        let mut b = a.clone();
        b.constraints.reverse();
        for c in &mut b.constraints {
            if c.is_eq() {
                *c = c.opposite().expect("no overflow");
            }
        }
        assert_ne!(a, b);
        assert!(a.plain_is_equal(&b));
        // The same set written otherwise is not plainly equal (it says nothing).
        let c = parse_basic_map("[n] -> { S0[i] -> [0, i] : 0 <= i <= n - 1 and i >= -5 }")
            .expect("parses");
        assert!(!a.plain_is_equal(&c));
        // An inequality's sign is its direction.
        let d = parse_basic_map("[n] -> { S0[i] -> [0, i] : 0 <= i and i >= n }").expect("parses");
        assert!(!a.plain_is_equal(&d));
    }
}
