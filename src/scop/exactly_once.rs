//! Does a schedule run every instance exactly once? A schedule that
//! directives wrote does by construction; one read from a file
//! (`--schedule`) may not, and code generated from it would then skip an
//! instance or run one twice, with no dependence to tell. For each
//! statement, with `D` its domain under the scop's context and `P1, …,
//! Pm` its pieces (relations from iterators to dates):
//!
//! ```text
//!   covered:      D ⊆ dom P1 ∪ … ∪ dom Pm
//!   disjoint:     dom Pa ∩ dom Pb ∩ D = ∅                  for a < b
//!   single dates: { (x, t, t') : (x, t), (x, t') ∈ Pa, x ∈ D, t_k < t'_k } = ∅
//!                                                          for each date k
//! ```
//!
//! Each is an exact integer emptiness test (`poly`); a test that cannot
//! decide is an error, which the caller reads as "not proven". A failure
//! comes with a witness: parameter values and an instance.

use crate::poly::{BasicMap, BasicSet, Constraint, Map, PolyError, Set, Space};
use crate::scop::{Schedule, Scop};

/// An instance the schedule does not run exactly once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotOnce {
    pub statement: usize,
    pub why: Why,
    /// The parameters' values, then the instance's iterators.
    pub witness: Vec<i64>,
}

/// How an instance fails to run exactly once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// No piece gives it a date: it would not run.
    Uncovered,
    /// Two pieces (indices into the statement's) give it a date each.
    TwoPieces(usize, usize),
    /// The piece gives it several dates.
    SeveralDates(usize),
}

impl NotOnce {
    /// `n = 4: S0(i=1, j=0) has no date: no piece of its schedule holds
    /// it`, and so on.
    pub fn describe(&self, scop: &Scop) -> String {
        let st = &scop.statements[self.statement];
        let np = scop.params.len().min(self.witness.len());
        let (params, iterators) = self.witness.split_at(np);
        let pairs = |names: &[String], values: &[i64], sep: &str| -> Vec<String> {
            names
                .iter()
                .zip(values)
                .map(|(n, v)| format!("{n}{sep}{v}"))
                .collect()
        };
        let params = pairs(&scop.params, params, " = ");
        let iterators = pairs(&st.iterators, iterators, "=");
        let instance = format!("{}({})", st.name, iterators.join(", "));
        let what = match self.why {
            Why::Uncovered => format!("{instance} has no date: no piece of its schedule holds it"),
            Why::TwoPieces(a, b) => format!(
                "{instance} would run twice: pieces {} and {} of its schedule both hold it",
                a + 1,
                b + 1
            ),
            Why::SeveralDates(a) => format!(
                "{instance} would run more than once: piece {} of its schedule gives it several dates",
                a + 1
            ),
        };
        match params.is_empty() {
            true => what,
            false => format!("{}: {what}", params.join(", ")),
        }
    }
}

/// The first instance, statement by statement, that `schedule` does not
/// run exactly once, or `None` when every one runs once (module doc).
/// Exact.
pub fn first_not_run_once(scop: &Scop, schedule: &Schedule) -> Result<Option<NotOnce>, PolyError> {
    for (s, (st, sched)) in scop.statements.iter().zip(&schedule.statements).enumerate() {
        let domain = scop.in_context(&st.domain);
        let found = |why: Why, witness: Vec<i64>| {
            Ok(Some(NotOnce {
                statement: s,
                why,
                witness,
            }))
        };
        let mut pieces = Vec::new();
        for p in &sched.pieces {
            pieces.push(Map::from_basic(p.clone()).intersect_domain(&domain)?);
        }
        for (a, piece) in pieces.iter().enumerate() {
            for b in piece.basics() {
                if let Some(w) = several_dates(b)? {
                    return found(Why::SeveralDates(a), w);
                }
            }
        }
        let domains: Vec<Set> = pieces.iter().map(|p| p.domain()).collect();
        for a in 0..domains.len() {
            for b in a + 1..domains.len() {
                let both = domains[a].intersect(&domains[b])?;
                if let Some(w) = both.sample()? {
                    return found(Why::TwoPieces(a, b), w);
                }
            }
        }
        let mut left = domain.clone();
        for d in &domains {
            left = left.subtract(d)?;
        }
        if let Some(w) = left.sample()? {
            return found(Why::Uncovered, w);
        }
    }
    Ok(None)
}

/// A point (parameters, then inputs) where `piece` relates the input to
/// two dates, or `None`. Exact: one emptiness test per date, on the pairs
/// of dates of one input (`t_k < t'_k` for some `k` covers every pair of
/// different dates, the other order being the same pair swapped).
fn several_dates(piece: &BasicMap) -> Result<Option<Vec<i64>>, PolyError> {
    let space = piece.space();
    let (np, ni, no, nl) = (
        space.n_param(),
        space.n_in(),
        space.n_out(),
        piece.n_local(),
    );
    // Columns [params | x | t | t' | locals of t | locals of t'].
    let width = np + ni + 2 * no + 2 * nl;
    let first = |k: usize| if k < np + ni + no { k } else { k + no };
    let second = |k: usize| match k {
        k if k < np + ni => k,
        k => k + no + if k >= np + ni + no { nl } else { 0 },
    };
    let mut rows: Vec<Constraint> = Vec::new();
    for c in piece.constraints() {
        rows.push(c.remapped(width, first));
        rows.push(c.remapped(width, second));
    }
    let mut dims: Vec<String> = space.input.as_ref().map_or(Vec::new(), |t| t.dims.clone());
    dims.extend((0..2 * no).map(|k| format!("t{k}")));
    let set_space = Space::set(space.params.clone(), None, dims);
    let pairs = BasicSet::from_parts(set_space, 2 * nl, rows);
    for k in 0..no {
        // t'_k - t_k - 1 >= 0
        let mut coeffs = vec![0; width];
        coeffs[np + ni + k] = -1;
        coeffs[np + ni + no + k] = 1;
        let mut apart = pairs.clone();
        apart.add(Constraint::ineq(coeffs, -1));
        if let Some(point) = apart.sample()? {
            return Ok(Some(point[..np + ni].to_vec()));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::parse_basic_map;

    fn several(text: &str) -> Option<Vec<i64>> {
        let piece = parse_basic_map(text).expect("parses");
        several_dates(&piece).expect("decided")
    }

    #[test]
    fn a_piece_with_one_date_per_instance_passes() {
        assert_eq!(several("[n] -> { S0[i] -> [0, i, 0] : 0 <= i < n }"), None);
        // A strip-mined loop: the tile is a function of `i`.
        assert_eq!(
            several("[n] -> { S0[i] -> [0, c, 0, i, 0] : 0 <= i < n and 32c <= i <= 32c + 31 }"),
            None
        );
    }

    #[test]
    fn a_piece_with_two_dates_for_an_instance_fails_with_it() {
        let w = several("[n] -> { S0[i] -> [0, c, 0] : 0 <= i < n and i <= c <= i + 1 }")
            .expect("two dates");
        let (n, i) = (w[0], w[1]);
        assert!(0 <= i && i < n, "the witness is an instance: {w:?}");
    }
}
