//! The space of a set or relation: named parameters and named tuples.

use serde::Serialize;

/// A named tuple of dimensions, such as `S0[i, j]` or the anonymous `[c0, c1]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Tuple {
    pub name: Option<String>,
    pub dims: Vec<String>,
}

impl Tuple {
    pub fn new(name: Option<String>, dims: Vec<String>) -> Tuple {
        Tuple { name, dims }
    }
}

/// Parameters plus an optional input tuple (relations only) and an output tuple.
///
/// A set space has `input == None`; its dimensions are the output tuple's.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Space {
    pub params: Vec<String>,
    pub input: Option<Tuple>,
    pub output: Tuple,
}

impl Space {
    /// The space of a set `[params] -> { name[dims] }`.
    pub fn set(params: Vec<String>, name: Option<String>, dims: Vec<String>) -> Space {
        Space {
            params,
            input: None,
            output: Tuple::new(name, dims),
        }
    }

    /// The space of a relation `[params] -> { input -> output }`.
    pub fn map(params: Vec<String>, input: Tuple, output: Tuple) -> Space {
        Space {
            params,
            input: Some(input),
            output,
        }
    }

    pub fn n_param(&self) -> usize {
        self.params.len()
    }

    pub fn n_in(&self) -> usize {
        self.input.as_ref().map_or(0, |t| t.dims.len())
    }

    pub fn n_out(&self) -> usize {
        self.output.dims.len()
    }

    /// Number of columns before the locals: parameters, inputs and outputs.
    pub fn n_dim_total(&self) -> usize {
        self.n_param() + self.n_in() + self.n_out()
    }

    /// The set space without output dimensions `first..first + count`.
    pub fn without_dims(&self, first: usize, count: usize) -> Space {
        let dims = self
            .output
            .dims
            .iter()
            .enumerate()
            .filter(|(k, _)| *k < first || *k >= first + count)
            .map(|(_, d)| d.clone())
            .collect();
        Space::set(self.params.clone(), self.output.name.clone(), dims)
    }

    /// Column of input dimension `k`.
    pub fn in_col(&self, k: usize) -> usize {
        self.n_param() + k
    }

    /// Column of output (set) dimension `k`.
    pub fn out_col(&self, k: usize) -> usize {
        self.n_param() + self.n_in() + k
    }
}
