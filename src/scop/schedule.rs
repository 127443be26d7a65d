//! The schedule in Clay form (DESIGN §4): for each statement, a union of
//! pieces, each a relation from the statement's iterators to the dates
//! `[β0, α1, β1, …, αd, βd]`, plus marks on the α dimensions.
//!
//! A β dimension is a textual position (a constant); an α dimension is a
//! loop counter, defined by an equation in the iterators and parameters or
//! only bounded by inequalities (as strip-mining makes it). Pieces of one
//! statement partition its domain (an index-set split adds the inequalities
//! that restrict each piece); all pieces of a statement have the same
//! number of dates. Statements may have different depths: dates are
//! compared lexicographically after padding the shorter one with zeros.
//!
//! ```text
//!   S0: [N] -> { S0[i, j] -> [0, i, 0, j, 0] }     (original 2d+1 schedule)
//!   S0: [N] -> { S0[i, j] -> [0, j, 0, i, 0] }     (after interchange)
//! ```
//!
//! Directives rewrite these relations; nothing else changes a schedule.
//! This module knows the form of a schedule, not how one is checked
//! ([`super::validity`]) or scanned into loops.

use serde::{Deserialize, Serialize};

use super::reduction::ReductionOp;
use super::Scop;
use crate::poly::{parse_basic_map, BasicMap, Constraint, ConstraintKind, PolyError};

/// A mark on an α dimension (a loop), as the directives set them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    Parallel,
    Vector,
    /// Unroll by this factor, with a remainder loop.
    Unroll(u32),
    /// Unroll by this factor, no remainder (the trip count is a multiple).
    UnrollNoEpilog(u32),
    /// Unroll the loop and fuse the copies of its inner loops.
    UnrollJam(u32),
    /// Map to a CUDA block (0 = x, 1 = y, 2 = z).
    GpuBlock(u8),
    /// Map to a CUDA thread (0 = x, 1 = y, 2 = z).
    GpuThread(u8),
    /// On a parallel loop: how its iterations are dealt to the threads
    /// (OpenMP's `schedule(kind[, chunk])`).
    Schedule(ThreadSchedule, Option<u32>),
    /// On a parallel loop: it and the `n - 1` loops inside it, each
    /// marked parallel too, share their iterations as one (OpenMP's
    /// `collapse(n)`, `n >= 2`).
    Collapse(u32),
    /// On a vector loop: it carries dependences, each between dates at
    /// least this many apart (OpenMP's `safelen(n)`, in dates: code
    /// generation divides by the loop's step and unroll factor).
    Safelen(u32),
    /// On a parallel loop: each thread updates its own copy of this
    /// scalar with this operator, combined at the end (OpenMP's
    /// `reduction(op: x)`); the loop may carry the dependences between
    /// its updates ([`super::reduction`]).
    Reduction(ReductionOp, String),
    /// Before the loop starts, copy the cells of this array that the
    /// marked statements access in it into a local buffer, access the
    /// buffer instead, and after it copy the cells they wrote back
    /// ([`super::footprint`]; every statement in the loop that accesses
    /// the array must have the mark).
    Pack(String),
}

/// OpenMP's schedule kinds for a parallel loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThreadSchedule {
    /// Equal blocks (or chunks dealt round-robin), fixed before the loop.
    Static,
    /// Chunks taken by whichever thread is free.
    Dynamic,
    /// Like `Dynamic`, with chunks shrinking as the loop drains.
    Guided,
}

impl ThreadSchedule {
    /// The kind named `name` in a recipe or in OpenMP's clause.
    pub fn named(name: &str) -> Option<ThreadSchedule> {
        match name {
            "static" => Some(ThreadSchedule::Static),
            "dynamic" => Some(ThreadSchedule::Dynamic),
            "guided" => Some(ThreadSchedule::Guided),
            _ => None,
        }
    }

    /// Its name in OpenMP's clause.
    pub fn name(self) -> &'static str {
        match self {
            ThreadSchedule::Static => "static",
            ThreadSchedule::Dynamic => "dynamic",
            ThreadSchedule::Guided => "guided",
        }
    }
}

/// The schedule of one statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatementSchedule {
    /// Disjoint pieces whose domains cover the statement's domain; each maps
    /// the iterators to `2d + 1` dates.
    pub pieces: Vec<BasicMap>,
    /// `marks[k]`: the marks of `α(k+1)`, the loop at depth `k + 1`.
    pub marks: Vec<Vec<Mark>>,
}

impl StatementSchedule {
    /// Number of dates of every piece (`2d + 1`).
    pub fn n_dates(&self) -> usize {
        self.pieces.first().map_or(0, |p| p.space().n_out())
    }

    /// Number of α dimensions (loops), `d`.
    pub fn depth(&self) -> usize {
        self.n_dates() / 2
    }

    /// The β-vector `[β0, β1, …, βd]` of a piece, when every β is a
    /// constant (a cheap syntactic check on the equalities).
    pub fn beta(&self, piece: usize) -> Option<Vec<i64>> {
        beta_prefix(self.pieces.get(piece)?, self.depth() + 1)
    }

    /// The dates of the instance `point` (values of the iterators) for
    /// the parameters' values `params`, from the piece that holds it;
    /// `None` when none does. Exact: one Omega test per piece, on its
    /// rows with every input fixed.
    pub fn dates_at(&self, params: &[i64], point: &[i64]) -> Result<Option<Vec<i64>>, PolyError> {
        for piece in &self.pieces {
            let space = piece.space();
            if space.n_param() != params.len() || space.n_in() != point.len() {
                return Err(PolyError::SpaceMismatch { op: "dates_at" });
            }
            let mut fixed = piece.clone();
            let n = fixed.n_cols();
            for (k, &v) in params.iter().chain(point).enumerate() {
                let mut coeffs = vec![0; n];
                coeffs[k] = 1;
                fixed.add(Constraint::eq(coeffs, -v));
            }
            if let Some(p) = fixed.sample()? {
                let first = params.len() + point.len();
                return Ok(p.get(first..first + self.n_dates()).map(<[i64]>::to_vec));
            }
        }
        Ok(None)
    }
}

/// Date index of `α_depth` (1-based depth) in `[β0, α1, β1, …, αd, βd]`.
pub const fn alpha_date(depth: usize) -> usize {
    2 * depth - 1
}

/// Date index of `β_k` (0-based) in `[β0, α1, β1, …, αd, βd]`.
pub const fn beta_date(k: usize) -> usize {
    2 * k
}

/// The loop depth (1-based) of date `t` when it is an α date (odd).
pub const fn alpha_depth(t: usize) -> Option<usize> {
    if t % 2 == 1 {
        Some(t / 2 + 1)
    } else {
        None
    }
}

/// How many dates a schedule of `depth` loops has: `2·depth + 1`.
pub const fn date_count(depth: usize) -> usize {
    2 * depth + 1
}

/// The first `len` β dates of `piece`, `[β0, …, β(len−1)]`, where each is
/// a constant ([`constant_date`]); `None` otherwise. Cheap.
pub fn beta_prefix(piece: &BasicMap, len: usize) -> Option<Vec<i64>> {
    (0..len)
        .map(|k| constant_date(piece, beta_date(k)))
        .collect()
}

/// The value of date `d` of `piece` when an equality fixes it to a
/// constant; `None` otherwise. Cheap: a scan of the rows.
pub fn constant_date(piece: &BasicMap, d: usize) -> Option<i64> {
    let col = piece.space().out_col(d);
    piece.constraints().iter().find_map(|c| {
        let only = c.kind == ConstraintKind::Eq
            && c.coeffs[col].abs() == 1
            && c.coeffs
                .iter()
                .enumerate()
                .all(|(k, &v)| k == col || v == 0);
        if only {
            c.constant.checked_neg()?.checked_mul(c.coeffs[col])
        } else {
            None
        }
    })
}

/// The schedule of a scop: one entry per statement, in statement order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub statements: Vec<StatementSchedule>,
}

impl Schedule {
    /// The original 2d+1 schedule of the scop, with no marks.
    pub fn original(scop: &Scop) -> Schedule {
        Schedule {
            statements: scop
                .statements
                .iter()
                .map(|st| StatementSchedule {
                    pieces: vec![st.schedule.clone()],
                    marks: vec![Vec::new(); st.iterators.len()],
                })
                .collect(),
        }
    }

    /// One line per statement piece: `S1: [0, i, 0, j, 1] : constraints`,
    /// with the marks of each loop after it (`parallel at α1`).
    pub fn to_text(&self, scop: &Scop) -> String {
        let mut out = String::new();
        for (st, sched) in scop.statements.iter().zip(&self.statements) {
            for piece in &sched.pieces {
                let text = piece.to_string();
                // `[N] -> { S0[i, j] -> [0, i, 0, j, 0] : … }` → `[0, i, 0, j, 0] : …`.
                let body = text
                    .split_once(" -> [")
                    .map(|(_, rest)| format!("[{}", rest.trim_end_matches(" }")))
                    .unwrap_or(text.clone());
                out.push_str(&format!("{}: {body}", st.name));
                let marks: Vec<String> = sched
                    .marks
                    .iter()
                    .enumerate()
                    .flat_map(|(k, ms)| {
                        ms.iter()
                            .map(move |m| format!("{} at α{}", mark_text(m), k + 1))
                    })
                    .collect();
                if !marks.is_empty() {
                    out.push_str(&format!("  # {}", marks.join(", ")));
                }
                out.push('\n');
            }
        }
        out
    }

    /// The JSON form (`docs/schedule-json.md`).
    pub fn to_json(&self, scop: &Scop) -> ScheduleJson {
        ScheduleJson {
            region: scop.region,
            statements: scop
                .statements
                .iter()
                .zip(&self.statements)
                .map(|(st, s)| StatementScheduleJson {
                    statement: st.name.clone(),
                    pieces: s.pieces.iter().map(|p| p.to_string()).collect(),
                    marks: s.marks.clone(),
                })
                .collect(),
        }
    }

    /// Read the JSON form back for `scop`, checking that it names each
    /// statement once, in order, with pieces over the statement's
    /// iterators and parameters and a consistent number of dates.
    pub fn from_json(json: &ScheduleJson, scop: &Scop) -> Result<Schedule, ScheduleError> {
        if json.statements.len() != scop.statements.len() {
            return Err(ScheduleError(format!(
                "the schedule has {} statements, the region has {}",
                json.statements.len(),
                scop.statements.len()
            )));
        }
        let mut statements = Vec::new();
        for (st, js) in scop.statements.iter().zip(&json.statements) {
            if js.statement != st.name {
                return Err(ScheduleError(format!(
                    "expected statement {}, found {}",
                    st.name, js.statement
                )));
            }
            if js.pieces.is_empty() {
                return Err(ScheduleError(format!("{} has no piece", st.name)));
            }
            let mut pieces = Vec::new();
            for text in &js.pieces {
                let p = parse_basic_map(text)
                    .map_err(|e| ScheduleError(format!("{}: {e}", st.name)))?;
                let space = p.space();
                let input = space.input.as_ref().map(|t| t.dims.len()).unwrap_or(0);
                if space.params != scop.params || input != st.iterators.len() {
                    return Err(ScheduleError(format!(
                        "{}: a piece must map the {} iterators of {} with parameters [{}]",
                        st.name,
                        st.iterators.len(),
                        st.name,
                        scop.params.join(", ")
                    )));
                }
                if space.n_out() % 2 != 1 {
                    return Err(ScheduleError(format!(
                        "{}: a piece must have 2d + 1 dates, not {}",
                        st.name,
                        space.n_out()
                    )));
                }
                if pieces
                    .first()
                    .is_some_and(|q: &BasicMap| q.space().n_out() != space.n_out())
                {
                    return Err(ScheduleError(format!(
                        "{}: every piece must have the same number of dates",
                        st.name
                    )));
                }
                pieces.push(p);
            }
            let depth = pieces[0].space().n_out() / 2;
            let mut marks = js.marks.clone();
            if marks.len() > depth {
                return Err(ScheduleError(format!(
                    "{}: marks for {} loops, but the schedule has {depth}",
                    st.name,
                    marks.len()
                )));
            }
            marks.resize(depth, Vec::new());
            statements.push(StatementSchedule { pieces, marks });
        }
        Ok(Schedule { statements })
    }
}

fn mark_text(m: &Mark) -> String {
    match m {
        Mark::Parallel => "parallel".into(),
        Mark::Vector => "vector".into(),
        Mark::Unroll(k) => format!("unroll({k})"),
        Mark::UnrollNoEpilog(k) => format!("unroll_noepilog({k})"),
        Mark::UnrollJam(k) => format!("unroll_jam({k})"),
        Mark::GpuBlock(k) => format!("block({k})"),
        Mark::GpuThread(k) => format!("thread({k})"),
        Mark::Schedule(kind, None) => format!("schedule({})", kind.name()),
        Mark::Schedule(kind, Some(chunk)) => format!("schedule({}, {chunk})", kind.name()),
        Mark::Collapse(n) => format!("collapse({n})"),
        Mark::Safelen(n) => format!("safelen({n})"),
        Mark::Reduction(op, x) => format!("reduction({}: {x})", op.symbol()),
        Mark::Pack(array) => format!("pack({array})"),
    }
}

/// A schedule that does not fit its region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleError(pub String);

impl std::fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// JSON form of one region's schedule.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScheduleJson {
    pub region: usize,
    pub statements: Vec<StatementScheduleJson>,
}

/// JSON form of one statement's schedule: pieces in isl notation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StatementScheduleJson {
    pub statement: String,
    pub pieces: Vec<String>,
    #[serde(default)]
    pub marks: Vec<Vec<Mark>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tile date is a floor: `dates_at` gives it for a point, from
    /// the piece that holds the point.
    #[test]
    fn dates_at_gives_the_dates_of_one_instance() {
        let piece = |text: &str| parse_basic_map(text).expect("a map");
        let st = StatementSchedule {
            pieces: vec![
                piece("[n] -> { S[i] -> [0, c, 0, i, 0] : 4c <= i <= 4c + 3 and 0 <= i < 8 }"),
                piece("[n] -> { S[i] -> [1, i, 0, 0, 0] : 8 <= i < n }"),
            ],
            marks: vec![Vec::new(), Vec::new()],
        };
        assert_eq!(
            st.dates_at(&[20], &[6]).expect("exact"),
            Some(vec![0, 1, 0, 6, 0])
        );
        assert_eq!(
            st.dates_at(&[20], &[9]).expect("exact"),
            Some(vec![1, 9, 0, 0, 0])
        );
        assert_eq!(st.dates_at(&[20], &[30]).expect("exact"), None);
        assert!(st.dates_at(&[], &[6]).is_err());
    }
}
