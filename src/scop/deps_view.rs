//! `--emit deps` (JSON, schema in `docs/deps-json.md`) and `--emit
//! deps-text` (one readable line per dependence): views of
//! [`super::dependences`]' result for printing.

use serde::Serialize;

use super::{DepKind, Dependence, Scop};

/// The dependences of one region.
#[derive(Serialize)]
pub struct DepsJson {
    pub region: usize,
    pub dependences: Vec<DependenceJson>,
}

#[derive(Serialize)]
pub struct DependenceJson {
    pub kind: DepKind,
    /// Statement names (`S0`, …).
    pub source: String,
    pub target: String,
    pub source_access: usize,
    pub target_access: usize,
    pub array: String,
    pub depth: usize,
    pub common_loops: usize,
    pub loop_independent: bool,
    pub distance: Option<Vec<i64>>,
    /// The relation in isl notation.
    pub relation: String,
}

fn statement_name(scop: &Scop, k: usize) -> String {
    scop.statements
        .get(k)
        .map_or_else(|| format!("S{k}"), |s| s.name.clone())
}

/// The JSON view of one region's dependences.
pub fn deps_json(scop: &Scop, deps: &[Dependence]) -> DepsJson {
    DepsJson {
        region: scop.region,
        dependences: deps
            .iter()
            .map(|d| DependenceJson {
                kind: d.kind,
                source: statement_name(scop, d.source),
                target: statement_name(scop, d.target),
                source_access: d.source_access,
                target_access: d.target_access,
                array: d.array.clone(),
                depth: d.depth,
                common_loops: d.n_common,
                loop_independent: d.is_loop_independent(),
                distance: d.distance.clone(),
                relation: d.relation.to_string(),
            })
            .collect(),
    }
}

fn kind_text(k: DepKind) -> &'static str {
    match k {
        DepKind::Raw => "RAW",
        DepKind::War => "WAR",
        DepKind::Waw => "WAW",
        DepKind::Rar => "RAR",
    }
}

/// An access as written in `source`, runs of white space made one space.
fn access_text(source: &str, scop: &Scop, stmt: usize, access: usize) -> String {
    let span = scop
        .statements
        .get(stmt)
        .and_then(|s| s.accesses.get(access))
        .map(|a| a.span.clone());
    let text = span.and_then(|s| source.get(s)).unwrap_or("?");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One line per dependence:
/// `RAW S0 -> S1 depth 2 distance (0, 1)  A[i][j] -> A[i][j - 1]`: kind,
/// statements, depth (`(loop-independent)` after it when it is), the
/// distance over the common loops or `non-uniform`, then the source and
/// target accesses as written in `source` (the whole file's text).
pub fn deps_text(source: &str, scop: &Scop, deps: &[Dependence]) -> String {
    let mut out = String::new();
    for d in deps {
        let distance = match &d.distance {
            Some(v) => {
                let parts: Vec<String> = v.iter().map(i64::to_string).collect();
                format!("({})", parts.join(", "))
            }
            None => "non-uniform".to_string(),
        };
        let independent = if d.is_loop_independent() {
            " (loop-independent)"
        } else {
            ""
        };
        out.push_str(&format!(
            "{} {} -> {} depth {}{independent} distance {distance}  {} -> {}\n",
            kind_text(d.kind),
            statement_name(scop, d.source),
            statement_name(scop, d.target),
            d.depth,
            access_text(source, scop, d.source, d.source_access),
            access_text(source, scop, d.target, d.target_access),
        ));
    }
    out
}
