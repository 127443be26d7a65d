//! The schedulers' view of a scop: one node per statement, one edge per
//! disjunct of every dependence relation, each edge with the Farkas
//! description of the affine forms that are non-negative on it, computed
//! once and substituted into every (I)LP that needs it (report §6.3).
//!
//! An edge between two statements keeps the forms over
//! `[c_n | c_x | c_y | d]` (parameters, source iterators, target
//! iterators, constant); an edge from a statement to itself keeps them on
//! the difference set `{ y − x }`, over `[c_n | c_δ | d]`: the schedule's
//! parameter and constant terms cancel there (report (21)–(25)).
//! Identical disjuncts (a RAW and a WAW between the same instances, say)
//! become one edge.

use super::coalescing::extents;
use crate::poly::{nonnegative_forms, BasicMap, Constraint, PolyError};
use crate::scop::{DepKind, Dependence, Scop};

/// One statement.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    /// How many iterators it has.
    pub n_iter: usize,
    /// The extent of its domain along each iterator, when bounded
    /// ([`extents`]).
    pub extents: Vec<Option<i64>>,
}

/// Where an edge's forms live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Forms {
    /// Between two statements: rows over `[c_n | c_x | c_y | d]`.
    Inter(Vec<Constraint>),
    /// Within one statement, on the difference set: rows over
    /// `[c_n | c_δ | d]`.
    Intra(Vec<Constraint>),
}

/// One disjunct of a dependence relation.
#[derive(Clone, Debug)]
pub(crate) struct Edge {
    pub source: usize,
    pub target: usize,
    /// Whether the order of its pairs must be kept (every kind but RAR).
    pub validity: bool,
    /// The pairs, `params -> { S[x] -> T[y] }`.
    pub relation: BasicMap,
    pub forms: Forms,
}

impl Edge {
    /// The edge of the pairs `relation` from `source` to `target`, with
    /// its Farkas forms. Exact.
    pub fn new(
        source: usize,
        target: usize,
        validity: bool,
        relation: BasicMap,
    ) -> Result<Edge, PolyError> {
        let forms = forms_of(&relation, source == target)?;
        Ok(Edge {
            source,
            target,
            validity,
            relation,
            forms,
        })
    }
}

/// Nodes and edges of one scop.
#[derive(Clone, Debug)]
pub(crate) struct Graph {
    pub n_param: usize,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

impl Graph {
    /// The graph of `scop` under `deps`. Exact: each edge's forms are the
    /// Farkas constraints of its disjunct.
    pub fn new(scop: &Scop, deps: &[Dependence]) -> Result<Graph, PolyError> {
        let nodes = scop
            .statements
            .iter()
            .map(|s| {
                let n_iter = s.iterators.len();
                Ok(Node {
                    n_iter,
                    extents: extents(&s.domain, &scop.context, n_iter)?,
                })
            })
            .collect::<Result<_, PolyError>>()?;
        let mut edges: Vec<Edge> = Vec::new();
        for dep in deps {
            let validity = dep.kind != DepKind::Rar;
            for disjunct in dep.relation.basics() {
                let same = edges.iter_mut().find(|e| {
                    e.source == dep.source && e.target == dep.target && e.relation == *disjunct
                });
                if let Some(e) = same {
                    e.validity |= validity;
                    continue;
                }
                edges.push(Edge::new(
                    dep.source,
                    dep.target,
                    validity,
                    disjunct.clone(),
                )?);
            }
        }
        Ok(Graph {
            n_param: scop.params.len(),
            nodes,
            edges,
        })
    }
}

/// Close `reach` (`reach[a][b]`: `b` is reachable from `a`) under
/// transitivity (Floyd–Warshall; the graphs are small).
pub(crate) fn close_transitively(reach: &mut [Vec<bool>]) {
    for k in 0..reach.len() {
        let via = reach[k].clone();
        for row in reach.iter_mut() {
            if row[k] {
                for (to, &v) in row.iter_mut().zip(&via) {
                    *to |= v;
                }
            }
        }
    }
}

/// The Farkas forms of one disjunct: on its pairs, or on its differences
/// when it relates a statement to itself.
fn forms_of(relation: &BasicMap, intra: bool) -> Result<Forms, PolyError> {
    if intra {
        let deltas = relation.deltas().ok_or(PolyError::SpaceMismatch {
            op: "deltas of a dependence of a statement on itself",
        })?;
        return Ok(Forms::Intra(nonnegative_forms(&deltas)?));
    }
    Ok(Forms::Inter(nonnegative_forms(&relation.wrap())?))
}

/// seidel-2d (report Example 11), for tests: the body and parameters of
/// [`graph_of`].
#[cfg(test)]
pub(crate) const SEIDEL_2D: (&str, &str) = (
    "for (t = 0; t < T; t++)\n  for (i = 1; i < n - 1; i++)\n    for (j = 1; j < n - 1; j++)\n\
       A[i][j] = A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] + A[i][j - 1] + A[i][j]\n\
         + A[i][j + 1] + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1];",
    "int T, int n, double A[n][n]",
);

/// The graph of a function whose body is `body` and whose parameters are
/// `params` (C text), for tests.
#[cfg(test)]
pub(crate) fn graph_of(body: &str, params: &str) -> Graph {
    graph_with(body, params, &crate::scop::DepOptions::default())
}

/// [`graph_of`] with the read-after-read dependences too: proximity-only
/// edges.
#[cfg(test)]
pub(crate) fn graph_with_rar_of(body: &str, params: &str) -> Graph {
    graph_with(body, params, &crate::scop::DepOptions { rar: true })
}

#[cfg(test)]
fn graph_with(body: &str, params: &str, opts: &crate::scop::DepOptions) -> Graph {
    use crate::lang::c::read_source;
    use crate::scop::dependences;
    let src = format!("void f({params}) {{\n#pragma scop\n{body}\n#pragma endscop\n}}\n");
    let file = read_source("f.c", src).unwrap();
    let scop = &file.scops[0];
    let deps = dependences(scop, opts).unwrap();
    Graph::new(scop, &deps).unwrap()
}
