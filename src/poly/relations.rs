//! Relations as functions of their tuples: the reverse relation, the
//! domain and range, and applying a relation to a set or composing it with
//! another. Exact; the images keep the composed columns as locals.

use super::constraint::{embed, permute};
use super::omega::integer_sample;
use super::{BasicMap, BasicSet, Map, PolyError, Set, Space, Tuple};

impl BasicMap {
    /// `{ out -> in : (in, out) ∈ self }`. Exact, cheap.
    pub fn reverse(&self) -> BasicMap {
        let (np, ni, no) = (self.space.n_param(), self.space.n_in(), self.space.n_out());
        let mut order: Vec<usize> = (0..np).collect();
        order.extend(np + ni..np + ni + no);
        order.extend(np..np + ni);
        order.extend(np + ni + no..self.n_cols());
        let input = self
            .space
            .input
            .clone()
            .unwrap_or_else(|| Tuple::new(None, Vec::new()));
        let space = Space::map(self.space.params.clone(), self.space.output.clone(), input);
        BasicMap::from_columns(space, self.n_local, permute(&self.constraints, &order))
    }

    /// The differences `{ out − in : (in, out) ∈ self }` (isl's `deltas`),
    /// parameters kept, for a relation whose tuples have the same size;
    /// `None` otherwise. Exact, cheap: the tuples become locals.
    pub fn deltas(&self) -> Option<BasicSet> {
        let (np, n) = (self.space.n_param(), self.space.n_out());
        if self.space.n_in() != n {
            return None;
        }
        // Columns [params | δ | in | out | locals], with δ = out − in.
        let width = self.n_cols() + n;
        let mut rows: Vec<super::Constraint> = self
            .constraints
            .iter()
            .map(|c| c.remapped(width, |k| if k < np { k } else { k + n }))
            .collect();
        for k in 0..n {
            let mut coeffs = vec![0; width];
            coeffs[np + k] = 1;
            coeffs[np + n + k] = 1;
            coeffs[np + 2 * n + k] = -1;
            rows.push(super::Constraint::eq(coeffs, 0));
        }
        let dims = (0..n).map(|k| format!("d{k}")).collect();
        let space = Space::set(self.space.params.clone(), None, dims);
        Some(BasicSet::from_parts(space, self.n_local + 2 * n, rows))
    }

    /// `{ in : ∃ out, (in, out) ∈ self }`: outputs become locals. Exact, cheap.
    pub fn domain(&self) -> BasicSet {
        let input = self
            .space
            .input
            .clone()
            .unwrap_or_else(|| Tuple::new(None, Vec::new()));
        let space = Space::set(self.space.params.clone(), input.name, input.dims);
        BasicSet::from_parts(
            space,
            self.n_local + self.space.n_out(),
            self.constraints.clone(),
        )
    }

    /// `{ out : ∃ in, (in, out) ∈ self }`. Exact, cheap.
    pub fn range(&self) -> BasicSet {
        self.reverse().domain()
    }

    /// The image `{ out : ∃ in ∈ set, (in, out) ∈ self }`. Exact, cheap: the
    /// inputs and both operands' locals become locals of the result.
    pub fn apply(&self, set: &BasicSet) -> Result<BasicSet, PolyError> {
        let input = self.space.input.as_ref().map(|t| t.dims.len()).unwrap_or(0);
        if set.space.params != self.space.params || set.space.n_out() != input {
            return Err(PolyError::SpaceMismatch { op: "apply" });
        }
        let (np, ni, no) = (self.space.n_param(), input, self.space.n_out());
        // Result columns: params | out | in | map locals | set locals.
        let n = np + no + ni + self.n_local + set.n_local;
        let space = Space::set(
            self.space.params.clone(),
            self.space.output.name.clone(),
            self.space.output.dims.clone(),
        );
        let mut out = BasicSet::from_parts(space, ni + self.n_local + set.n_local, Vec::new());
        let map_cols: Vec<usize> = (0..self.n_cols())
            .map(|k| match k {
                k if k < np => k,
                k if k < np + ni => k + no,
                k if k < np + ni + no => k - ni,
                k => k,
            })
            .collect();
        let set_cols: Vec<usize> = (0..set.n_cols())
            .map(|k| match k {
                k if k < np => k,
                k if k < np + ni => k + no,
                k => k - np - ni + np + no + ni + self.n_local,
            })
            .collect();
        for c in embed(&self.constraints, &map_cols, n)
            .into_iter()
            .chain(embed(&set.constraints, &set_cols, n))
        {
            out.add(c);
        }
        Ok(out)
    }

    /// Exact emptiness (Omega test).
    pub fn is_empty(&self) -> Result<bool, PolyError> {
        Ok(integer_sample(self.n_cols(), &self.constraints)?.is_none())
    }

    /// Composition `{ x -> z : ∃ y, (x, y) ∈ self, (y, z) ∈ next }`. Exact,
    /// cheap: the middle tuple becomes locals.
    pub fn apply_range(&self, next: &BasicMap) -> Result<BasicMap, PolyError> {
        let (np, ni, nm) = (self.space.n_param(), self.space.n_in(), self.space.n_out());
        if next.space.params != self.space.params || next.space.n_in() != nm {
            return Err(PolyError::SpaceMismatch { op: "apply_range" });
        }
        let no = next.space.n_out();
        let (l1, l2) = (self.n_local, next.n_local);
        // Result columns: params | x | z | y | self locals | next locals.
        let n = np + ni + no + nm + l1 + l2;
        let first: Vec<usize> = (0..self.n_cols())
            .map(|k| if k < np + ni { k } else { k + no })
            .collect();
        let second: Vec<usize> = (0..next.n_cols())
            .map(|k| match k {
                k if k < np => k,
                k if k < np + nm => k - np + np + ni + no,
                k if k < np + nm + no => k - np - nm + np + ni,
                k => k - np - nm - no + np + ni + no + nm + l1,
            })
            .collect();
        let input = self
            .space
            .input
            .clone()
            .unwrap_or_else(|| Tuple::new(None, Vec::new()));
        let space = Space::map(self.space.params.clone(), input, next.space.output.clone());
        let rows = embed(&self.constraints, &first, n)
            .into_iter()
            .chain(embed(&next.constraints, &second, n))
            .collect();
        Ok(BasicMap::from_columns(space, nm + l1 + l2, rows))
    }
}

impl Map {
    /// Exact: empty iff every disjunct is.
    pub fn is_empty(&self) -> Result<bool, PolyError> {
        for b in &self.basics {
            if !b.is_empty()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The inverse relation. Exact, cheap.
    pub fn reverse(&self) -> Map {
        let basics: Vec<BasicMap> = self.basics.iter().map(BasicMap::reverse).collect();
        let space = BasicMap::universe(self.space.clone()).reverse().space;
        Map { space, basics }
    }

    /// The domain. Exact, cheap.
    pub fn domain(&self) -> Set {
        let space = BasicMap::universe(self.space.clone()).domain().space;
        Set {
            space,
            basics: self.basics.iter().map(BasicMap::domain).collect(),
        }
    }

    /// The range. Exact, cheap.
    pub fn range(&self) -> Set {
        self.reverse().domain()
    }

    /// Composition, disjunct by disjunct (see [`BasicMap::apply_range`]).
    pub fn apply_range(&self, next: &Map) -> Result<Map, PolyError> {
        let space = BasicMap::universe(self.space.clone())
            .apply_range(&BasicMap::universe(next.space.clone()))?
            .space;
        let mut out = Map::empty(space);
        for a in &self.basics {
            for b in &next.basics {
                out.push(a.apply_range(b)?);
            }
        }
        Ok(out)
    }

    /// The image of `set`: one disjunct per pair of disjuncts. Exact.
    pub fn apply(&self, set: &Set) -> Result<Set, PolyError> {
        let space = BasicMap::universe(self.space.clone()).range().space;
        let mut out = Set::empty(space);
        for m in &self.basics {
            for s in &set.basics {
                out.push(m.apply(s)?);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use crate::poly::{parse_basic_map, BasicSet, Constraint};

    /// Is the point `p` (parameters then dimensions) in `set`? Exact: the
    /// set with `p` fixed is non-empty.
    fn holds(set: &BasicSet, p: &[i64]) -> bool {
        let mut fixed = set.clone();
        for (k, &v) in p.iter().enumerate() {
            let mut coeffs = vec![0; set.n_cols()];
            coeffs[k] = 1;
            fixed.add(Constraint::eq(coeffs, -v));
        }
        !fixed.is_empty().unwrap()
    }

    #[test]
    fn deltas_are_the_differences_of_the_pairs() {
        for text in [
            "[n] -> { S[i, j] -> S[i', j'] : 0 <= i < n and 0 <= j < n and 0 <= j' < n and i' = i + 1 and i' < n and j' <= j }",
            "{ S[i] -> S[i'] : 0 <= i <= 5 and 2i' = i + 4 }",
            "[n] -> { S[i, j] -> S[i', j'] : 0 <= i < n and j = 0 and i' = n - 1 - i and j' = i }",
        ] {
            let map = parse_basic_map(text).unwrap();
            let deltas = map.deltas().unwrap();
            let (np, d) = (map.space().n_param(), map.space().n_in());
            // Every difference of pairs enumerated in a box, and nothing else
            // in a box of differences.
            let box_points = |lo: i64, hi: i64, k: usize| {
                let mut all = vec![vec![]];
                for _ in 0..k {
                    all = all
                        .into_iter()
                        .flat_map(|p: Vec<i64>| {
                            (lo..=hi).map(move |v| [p.clone(), vec![v]].concat())
                        })
                        .collect();
                }
                all
            };
            for n in 0..=4 {
                let params = if np == 1 { vec![n] } else { vec![] };
                let mut expected = std::collections::BTreeSet::new();
                for x in box_points(-1, 6, d) {
                    for y in box_points(-1, 6, d) {
                        if holds(
                            &map.wrap(),
                            &[params.clone(), x.clone(), y.clone()].concat(),
                        ) {
                            let delta: Vec<i64> = y.iter().zip(&x).map(|(b, a)| b - a).collect();
                            expected.insert(delta);
                        }
                    }
                }
                for delta in box_points(-8, 8, d) {
                    let got = holds(&deltas, &[params.clone(), delta.clone()].concat());
                    assert_eq!(got, expected.contains(&delta), "{text}, n = {n}: {delta:?}");
                }
                if np == 0 {
                    break;
                }
            }
        }
    }
}
