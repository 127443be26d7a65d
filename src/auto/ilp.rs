//! One scheduling (I)LP: non-negative variables in lexicographic priority
//! order, rows over them, and the rows a dependence edge gives once its
//! Farkas forms are read with schedule coefficients substituted in (report
//! (19)–(25), (36)–(42): "a simple matter of copying coefficients, with
//! some sign changes").
//!
//! A node's schedule row is `f(x) = Σ_j (c⁺_j − c⁻_j)·x_j + c_n·n + c_0`:
//! every variable of the (I)LP is non-negative, so a coefficient that may
//! be negative is the difference of two ([`RowVars`]).

use super::graph::{Edge, Forms};
use crate::poly::{
    checked_add, checked_mul, integer_lexmin_of_reduced, rational_lexmin_of_reduced,
    reduced_nonneg_rows, Affine, Constraint, ConstraintKind, PolyError, Ratio,
};
use std::borrow::Cow;
use std::rc::Rc;

/// An affine expression over (I)LP variables.
pub(crate) type Lin = Affine<usize>;

/// The variables of one node's schedule row.
#[derive(Clone, Debug)]
pub(crate) struct RowVars {
    /// Per iterator, `(c⁻, c⁺)`.
    pub iter: Vec<(usize, usize)>,
    /// Per parameter, its coefficient (non-negative without loss: adding
    /// one constant to it in every node changes no difference).
    pub param: Vec<usize>,
    /// The constant term (non-negative without loss, likewise).
    pub constant: usize,
}

impl RowVars {
    /// `c⁺_j − c⁻_j`.
    pub fn iter_coeff(&self, j: usize) -> Result<Lin, PolyError> {
        let (minus, plus) = self.iter[j];
        Ok(Lin::var(plus).sub(&Lin::var(minus))?)
    }

    /// `c · d`, the row's iterator coefficients times the vector `d`.
    pub fn along(&self, d: &[i64]) -> Result<Lin, PolyError> {
        let mut e = Lin::constant(0);
        for (j, &a) in d.iter().enumerate() {
            if a != 0 {
                e = e.add(&self.iter_coeff(j)?.scale(a)?)?;
            }
        }
        Ok(e)
    }
}

/// An (I)LP under construction.
///
/// Rows arrive as expressions; [`Ilp::settle`] turns those given so far
/// into dense rows without duplicates, shared by every clone: the Pluto
/// search clones one system many times, each time adding a row or two.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ilp {
    n_var: usize,
    /// Rows given since the last settle, dense over the variables that
    /// existed when each was given (padded when read).
    rows: Vec<Constraint>,
    /// Rows settled dense (over at most `n_var` columns) and reduced.
    settled: Rc<Vec<Constraint>>,
}

impl Ilp {
    /// A new variable, after every earlier one in priority.
    pub fn var(&mut self) -> usize {
        self.n_var += 1;
        self.n_var - 1
    }

    /// Require `e ≥ 0` (`Ineq`) or `e = 0` (`Eq`).
    pub fn require(&mut self, kind: ConstraintKind, e: Lin) {
        let mut coeffs = vec![0; self.n_var];
        for (&v, c) in e.terms() {
            coeffs[v] = c;
        }
        self.require_row(Constraint {
            kind,
            coeffs,
            constant: e.constant_term(),
        });
    }

    /// Require a dense row over variables given so far (it may be shorter
    /// than their number).
    pub fn require_row(&mut self, row: Constraint) {
        debug_assert!(row.coeffs.len() <= self.n_var);
        self.rows.push(row);
    }

    /// Require `var = Σ terms` (a variable that sums others, as the
    /// objectives are).
    pub fn define_sum(&mut self, var: usize, terms: &[usize]) -> Result<(), PolyError> {
        let mut e = Lin::var(var);
        for &t in terms {
            e = e.sub(&Lin::var(t))?;
        }
        self.require(ConstraintKind::Eq, e);
        Ok(())
    }

    /// Makes the rows given so far dense and shared, without the ones the
    /// set needs no row for ([`reduced_nonneg_rows`]). The system is
    /// unchanged.
    pub fn settle(&mut self) -> Result<(), PolyError> {
        // Rows are taken, not copied: a member's system may hold some
        // 80,000 rows of a hundred columns (random kernel r25_78), and the
        // three copies made before took 1.3 s of a 3.2 s `auto`.
        let settled = std::mem::take(&mut self.settled);
        let mut rows = Rc::try_unwrap(settled).unwrap_or_else(|shared| (*shared).clone());
        rows.append(&mut self.rows);
        for row in &mut rows {
            row.pad_to(self.n_var);
        }
        self.settled = Rc::new(reduced_nonneg_rows(self.n_var, rows)?);
        Ok(())
    }

    /// The settled rows, over `n_var` columns (copied only when variables
    /// came after them), and the rows given since, reduced.
    fn parts(&self) -> Result<(Cow<'_, [Constraint]>, Vec<Constraint>), PolyError> {
        let settled = if self.settled.iter().all(|c| c.coeffs.len() == self.n_var) {
            Cow::Borrowed(self.settled.as_slice())
        } else {
            Cow::Owned(self.settled.iter().map(|c| c.padded(self.n_var)).collect())
        };
        let given: Vec<Constraint> = self.rows.iter().map(|c| c.padded(self.n_var)).collect();
        Ok((settled, reduced_nonneg_rows(self.n_var, given)?))
    }

    /// The integer lexicographic minimum; `None` when infeasible. Exact.
    pub fn integer_lexmin(&self) -> Result<Option<Vec<i64>>, PolyError> {
        let (settled, given) = self.parts()?;
        #[cfg(test)]
        solved::record(self.n_var, &[&settled[..], &given].concat());
        integer_lexmin_of_reduced(self.n_var, &settled, &given)
    }

    /// The rational lexicographic minimum; `None` when infeasible. Exact.
    pub fn rational_lexmin(&self) -> Result<Option<Vec<Ratio>>, PolyError> {
        let (settled, given) = self.parts()?;
        #[cfg(test)]
        solved::record(self.n_var, &[&settled[..], &given].concat());
        rational_lexmin_of_reduced(self.n_var, &settled, &given)
    }
}

/// What an edge's rows require of the difference `f_T(y) − f_S(x)` of the
/// target's and the source's schedule rows, on every pair `x → y`:
///
/// ```text
///   sign · (f_T(y) − f_S(x)) + param_extra · n + constant_extra ≥ 0
/// ```
///
/// Validity is sign 1 and no extra; carrying adds `−e` to the constant;
/// proximity is sign −1 with the bound `m·n + m₀` as extra; coincidence
/// is sign −1 with no extra (together with validity: distance zero).
pub(crate) struct Requirement<'a> {
    pub sign: i64,
    pub param_extra: &'a [Lin],
    pub constant_extra: Lin,
}

/// The rows over (I)LP variables under which `req` holds on every pair of
/// `edge`, given the variables of each node's row. Exact over the
/// rationals (Farkas), hence sound for the integer pairs.
pub(crate) fn edge_rows(
    edge: &Edge,
    vars: &[RowVars],
    req: &Requirement<'_>,
) -> Result<Vec<Constraint>, PolyError> {
    let (s, t) = (&vars[edge.source], &vars[edge.target]);
    let np = s.param.len();
    let zero = Lin::constant(0);
    let extra = |p: usize| req.param_extra.get(p).unwrap_or(&zero).clone();
    // The value of every form column, as an expression of the variables.
    let mut columns: Vec<Lin> = Vec::new();
    let rows = match &edge.forms {
        Forms::Inter(rows) => {
            for p in 0..np {
                let diff = Lin::var(t.param[p]).sub(&Lin::var(s.param[p]))?;
                columns.push(diff.scale(req.sign)?.add(&extra(p))?);
            }
            for j in 0..s.iter.len() {
                columns.push(s.iter_coeff(j)?.scale(-req.sign)?);
            }
            for j in 0..t.iter.len() {
                columns.push(t.iter_coeff(j)?.scale(req.sign)?);
            }
            let diff = Lin::var(t.constant).sub(&Lin::var(s.constant))?;
            columns.push(diff.scale(req.sign)?.add(&req.constant_extra)?);
            rows
        }
        Forms::Intra(rows) => {
            for p in 0..np {
                columns.push(extra(p));
            }
            for j in 0..s.iter.len() {
                columns.push(s.iter_coeff(j)?.scale(req.sign)?);
            }
            columns.push(req.constant_extra.clone());
            rows
        }
    };
    // Each row is accumulated densely: a form has a few terms, a row a
    // few dozen columns, and the search asks for hundreds of edges' rows.
    let width = columns
        .iter()
        .filter_map(|col| col.terms().map(|(&v, _)| v + 1).max())
        .max()
        .unwrap_or(0);
    rows.iter()
        .map(|r| {
            let mut row = Constraint {
                kind: r.kind,
                coeffs: vec![0; width],
                constant: r.constant,
            };
            for (col, &a) in columns.iter().zip(&r.coeffs) {
                if a == 0 {
                    continue;
                }
                for (&v, c) in col.terms() {
                    row.coeffs[v] = checked_add(row.coeffs[v], checked_mul(a, c)?)?;
                }
                row.constant = checked_add(row.constant, checked_mul(a, col.constant_term())?)?;
            }
            Ok(row)
        })
        .collect()
}

/// The systems the schedulers solve, recorded while a test asks for them
/// (`minimiser_bench`).
#[cfg(test)]
pub(crate) mod solved {
    use crate::poly::Constraint;
    use std::cell::RefCell;

    /// One system: its variables and rows.
    pub type System = (usize, Vec<Constraint>);

    thread_local! {
        static SOLVED: RefCell<Option<Vec<System>>> = const { RefCell::new(None) };
    }

    /// Start recording on this thread.
    pub fn start() {
        SOLVED.with(|s| *s.borrow_mut() = Some(Vec::new()));
    }

    /// Stop, and the systems recorded since [`start`]: variables, rows.
    pub fn take() -> Vec<System> {
        SOLVED.with(|s| s.borrow_mut().take().unwrap_or_default())
    }

    pub(super) fn record(n_var: usize, rows: &[Constraint]) {
        SOLVED.with(|s| {
            if let Some(list) = s.borrow_mut().as_mut() {
                list.push((n_var, rows.to_vec()));
            }
        });
    }
}
