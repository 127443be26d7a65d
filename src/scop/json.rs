//! `--emit scop`: the model as JSON (schema in `docs/scop-json.md`).

use serde::Serialize;

use super::{AccessKind, Scop};
use crate::syntax::print::expr_text;

#[derive(Serialize)]
pub struct ScopJson {
    pub region: usize,
    /// First and last line of the region body (1-based, inclusive).
    pub lines: [usize; 2],
    pub parameters: Vec<String>,
    pub context: String,
    pub arrays: Vec<ArrayJson>,
    pub statements: Vec<StatementJson>,
}

#[derive(Serialize)]
pub struct ArrayJson {
    pub name: String,
    pub dims: usize,
    pub extents: Option<Vec<String>>,
    pub element_type: Option<String>,
}

#[derive(Serialize)]
pub struct StatementJson {
    pub name: String,
    pub label: Option<String>,
    pub line: usize,
    pub iterators: Vec<String>,
    pub domain: String,
    pub schedule: String,
    pub accesses: Vec<AccessJson>,
    pub body: String,
}

#[derive(Serialize)]
pub struct AccessJson {
    pub kind: &'static str,
    pub array: String,
    pub relation: String,
}

fn line_of(source: &str, offset: usize) -> usize {
    source[..offset.min(source.len())].matches('\n').count() + 1
}

/// The JSON view of every scop of a file.
pub fn scops_json(source: &str, scops: &[Scop]) -> Vec<ScopJson> {
    scops
        .iter()
        .map(|s| ScopJson {
            region: s.region,
            lines: [
                line_of(source, s.span.start),
                line_of(source, s.span.end.saturating_sub(1)),
            ],
            parameters: s.params.clone(),
            context: s.context.to_string(),
            arrays: s
                .arrays
                .iter()
                .map(|a| ArrayJson {
                    name: a.name.clone(),
                    dims: a.n_dims,
                    extents: a.extents.clone(),
                    element_type: a.element_type.clone(),
                })
                .collect(),
            statements: s
                .statements
                .iter()
                .map(|st| StatementJson {
                    name: st.name.clone(),
                    label: st.label.clone(),
                    line: line_of(source, st.span.start),
                    iterators: st.iterators.clone(),
                    domain: st.domain.to_string(),
                    schedule: st.schedule.to_string(),
                    accesses: st
                        .accesses
                        .iter()
                        .map(|a| AccessJson {
                            kind: match a.kind {
                                AccessKind::Read => "read",
                                AccessKind::Write => "write",
                            },
                            array: a.array.clone(),
                            relation: a.relation.to_string(),
                        })
                        .collect(),
                    body: format!("{};", expr_text(&st.body)),
                })
                .collect(),
        })
        .collect()
}
