//! Exact lexicographic minimisation over the non-negative orthant: the
//! rational and the integer lexmin of `{ x ≥ 0 : rows }`.
//!
//! This is the solver of the automatic schedulers' (I)LPs (the Verdoolaege
//! & Janssens report §6.4, §6.5): variables are non-negative by
//! construction there (coefficients split as `c⁺ − c⁻`), and the objective
//! is a cascade of variables in order, which is exactly a lexmin.
//!
//! The rational lexmin is the lexicographic dual simplex (Feautrier's PIP
//! without parameters). The tableau keeps one row per variable, then one
//! per constraint, each an affine function of the current non-basic
//! variables (the columns) over a positive denominator:
//!
//! ```text
//!   row = (constant + Σ coeff[j] · t[j]) / den,   every t[j] ≥ 0
//! ```
//!
//! Every column is kept lexicographically positive on the variable rows, so
//! the point where every `t[j]` is zero is the lexicographic minimum of the
//! cone at that basis; a dual simplex step pivots a negative row into the
//! basis with the column that keeps that property. With all rows
//! non-negative the point is the rational lexmin.
//!
//! A constraint joins the tableau only when the current point breaks it
//! (cutting planes, checked cheaply at the point), a few at a time
//! ([`ROWS_PER_ROUND`]); the duplicate and
//! dominated rows of the input are dropped first ([`reduced_nonneg_rows`]).
//! A scheduling system has thousands of Farkas rows of which a few dozen
//! bind.
//!
//! The integer lexmin branches lexicographically on the rational one and
//! asks the Omega test ([`super::omega`]) which branch holds an integer
//! point, searching a branch in turn where the test gives up (see
//! [`integer_lexmin_nonneg`]). Gomory cuts, the textbook
//! alternative, were tried first: on three variables in a box of side 8
//! they needed hundreds of cuts and outgrew 128 bits.
//!
//! Arithmetic is `i128`, checked; rows are divided by their content after
//! every pivot that changes them. An overflow, more than [`STEP_LIMIT`]
//! steps, or a pivot past the enclosing task's work budget
//! ([`super::with_work_limit`]) is an error, never an answer.
//!
//! Length: one solver (the tableau, the rows that join it, the integer
//! branching over it) and, for a third of the file, its tests against
//! enumeration.

use super::constraint::gcd_of;
use super::invariant_divisor::InvariantDivisor;
use super::omega::{integer_sample, RowHasher};
use super::work;
use super::{Constraint, ConstraintKind, PolyError};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// The most pivots one minimisation may take before it gives up.
pub const STEP_LIMIT: usize = 50_000;

/// The cells of a pivot charged as one row of work: a pivot costs a row
/// per tableau row, or a row per this many cells where its rows are
/// wider. Rows alone undercounted wide tableaux: `auto(feautrier)` on a
/// random kernel (seed 35, rows of 450 columns on average) spent 17 s
/// before its budget ran out, 2.6 s now. At 64, three random kernels of
/// 2,400 `auto` runs (seeds 33 and 34) were no longer scheduled: the
/// scheduling left too little for the check of its result.
const PIVOT_CELLS_PER_ROW: u64 = 96;

/// The most broken rows that join the tableau at once. Rows joining
/// one at a time would scan the waiting rows once per row; all of them at
/// once would grow the tableau with rows that the first few make hold
/// (adi's Pluto search: 17% more instructions in all with every broken
/// row, heat-3d's 70% more; 2 to 4 are equally good).
const ROWS_PER_ROUND: usize = 4;

/// A rational number `num / den`, `den > 0`, in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    pub num: i128,
    pub den: i128,
}

impl Ratio {
    /// The value as an integer when it is one.
    pub fn as_integer(self) -> Option<i128> {
        (self.num % self.den == 0).then(|| self.num / self.den)
    }
}

/// The rational lexicographic minimum of `{ x ∈ ℚⁿ : x ≥ 0, rows }`, rows over
/// `n` columns; `None` when the set is empty. Exact.
pub fn rational_lexmin_nonneg(
    n: usize,
    rows: &[Constraint],
) -> Result<Option<Vec<Ratio>>, PolyError> {
    rational_lexmin_of_reduced(n, &reduced_nonneg_rows(n, rows.to_vec())?, &[])
}

/// [`rational_lexmin_nonneg`] of the rows `base` and `more`. Exact for
/// any rows; rows through [`reduced_nonneg_rows`] only save work (a
/// scheduler reduces a system once and solves it with a few more rows
/// many times).
///
/// Rows join the tableau only when the current point breaks them, at
/// most [`ROWS_PER_ROUND`] each time: the lexmin of fewer rows that
/// satisfies the others is the lexmin of all (the point is unique), and
/// the dual simplex goes on from where it stopped when rows are added
/// (the columns stay lexicographically positive, since variable rows are
/// unchanged). Most rows of a
/// scheduling system never bind, and the tableau stays small.
pub fn rational_lexmin_of_reduced(
    n: usize,
    base: &[Constraint],
    more: &[Constraint],
) -> Result<Option<Vec<Ratio>>, PolyError> {
    let mut t = Tableau::new(n);
    let mut waiting: Vec<&Constraint> = base.iter().chain(more).collect();
    loop {
        if !t.restore_feasibility()? {
            return Ok(None);
        }
        let point = (0..n).map(|i| t.value(i)).collect::<Result<Vec<_>, _>>()?;
        let scaled = ScaledPoint::of(&point);
        let mut broken = Vec::new();
        waiting.retain(|&c| {
            if broken.len() == ROWS_PER_ROUND {
                return true;
            }
            let holds = scaled.as_ref().is_some_and(|p| p.satisfies(c));
            if !holds {
                broken.push(c);
            }
            holds
        });
        if broken.is_empty() {
            return Ok(Some(point));
        }
        for c in broken {
            t.add(c)?;
        }
    }
}

/// A rational point as integers over one common denominator, to check
/// rows at it cheaply.
struct ScaledPoint {
    /// The non-zero numerators over `den`, by coordinate: a lexmin over
    /// `x ≥ 0` is zero in most coordinates, and a row's value only needs
    /// the others.
    nonzero: Vec<(usize, i128)>,
    den: i128,
}

impl ScaledPoint {
    /// `None` when the common denominator or a numerator does not fit in
    /// 128 bits.
    fn of(point: &[Ratio]) -> Option<ScaledPoint> {
        let mut den: i128 = 1;
        for x in point {
            den = (den / gcd(den, x.den).ok()?).checked_mul(x.den)?;
        }
        let nonzero = point
            .iter()
            .enumerate()
            .filter(|(_, x)| x.num != 0)
            .map(|(j, x)| Some((j, x.num.checked_mul(den / x.den)?)))
            .collect::<Option<_>>()?;
        Some(ScaledPoint { nonzero, den })
    }

    /// Does `c` hold at the point? A cheap check: `false` also when the
    /// value (times the positive denominator) does not fit in 128 bits;
    /// the row then joins the tableau, which is always sound.
    fn satisfies(&self, c: &Constraint) -> bool {
        let Some(mut value) = i128::from(c.constant).checked_mul(self.den) else {
            return false;
        };
        for &(j, x) in &self.nonzero {
            let a = c.coeffs.get(j).copied().unwrap_or(0);
            if a == 0 {
                continue;
            }
            let Some(v) = i128::from(a)
                .checked_mul(x)
                .and_then(|term| value.checked_add(term))
            else {
                return false;
            };
            value = v;
        }
        match c.kind {
            ConstraintKind::Eq => value == 0,
            ConstraintKind::Ineq => value >= 0,
        }
    }
}

/// The integer lexicographic minimum of `{ x ∈ ℤⁿ : x ≥ 0, rows }`, rows over
/// `n` columns; `None` when the set has no integer point. Exact.
///
/// Lexicographic branching on the rational lexmin `x*`: with `i` its first
/// coordinate that is not an integer and `p` the integer prefix before it,
/// every integer point either keeps the prefix with `x_i ≥ ⌈x*_i⌉`, or
/// first exceeds it at some `k < i` with `x_k ≥ p_k + 1`. Those cases
/// partition the set's integer points, each case's before the next's in
/// lexicographic order, so the lexmin is that of the first case that
/// holds an integer point. The Omega test says which that is, and the
/// search goes on in it; the prefix is fixed or the branched coordinate
/// grows each time, so it ends. Where the Omega test gives up on a case
/// (after [`PROBE_WORK`] rows of work), the case is searched the same way
/// before the next is looked at: an answer found there is the lexmin, a
/// case found empty is passed over; a search that goes deeper than
/// [`PROBE_DEPTH`] such cases gives up.
pub fn integer_lexmin_nonneg(n: usize, rows: &[Constraint]) -> Result<Option<Vec<i64>>, PolyError> {
    integer_lexmin_of_reduced(n, &reduced_nonneg_rows(n, rows.to_vec())?, &[])
}

/// The Omega test's work on each case of the integer lexmin's branching
/// once a test has given up in the search: by then the cases are searched
/// whenever a test gives up, and a test that would give up anyway should
/// cost little (a test that gives up at the Omega test's own limit spends
/// a seventh of a recipe call's budget).
const PROBE_WORK: u64 = 20_000;

/// The most cases the integer lexmin searches inside one another without
/// knowing that they hold an integer point.
const PROBE_DEPTH: usize = 12;

/// The work the integer lexmin may do in all once an Omega test has given
/// up in it (a twentieth of a recipe call's budget): the rest is left to
/// what the caller does next (`auto` schedules again without the recipe's
/// context where it found nothing, and checks what it found). With 2
/// million, random kernel r33_337 was scheduled under its context with 2
/// thousand rows left for the check, and refused; with 500 thousand, as
/// before the search, it is scheduled without its context and checked,
/// and 23 other random kernels of 800 that a give-up stopped are
/// scheduled.
const SEARCH_WORK: u64 = 500_000;

/// [`integer_lexmin_nonneg`] of the rows `base` and `more`. Exact for any
/// rows; rows through [`reduced_nonneg_rows`] only save work. `base` is
/// never copied: each branch adds its rows to `more`'s.
pub fn integer_lexmin_of_reduced(
    n: usize,
    base: &[Constraint],
    more: &[Constraint],
) -> Result<Option<Vec<i64>>, PolyError> {
    LexminSearch::new(n, base, None, PROBE_DEPTH).lexmin_in_case(more.to_vec(), false, 0)
}

/// One integer lexmin's branching (see [`integer_lexmin_nonneg`]).
struct LexminSearch<'a> {
    n: usize,
    base: &'a [Constraint],
    /// Rational minimisations so far.
    steps: usize,
    /// The work each Omega test is given: its own limit until one gives
    /// up, then [`PROBE_WORK`].
    probe_work: Option<u64>,
    /// The work left to the search once a test has given up in it
    /// ([`SEARCH_WORK`]); `None` before.
    search_left: Option<u64>,
    /// The most cases searched inside one another without knowing that
    /// they hold an integer point.
    max_depth: usize,
}

impl<'a> LexminSearch<'a> {
    /// A search whose Omega tests get `probe_work` rows each (`None`: the
    /// test's own limit, until one gives up), at most `max_depth` cases
    /// deep.
    fn new(
        n: usize,
        base: &'a [Constraint],
        probe_work: Option<u64>,
        max_depth: usize,
    ) -> LexminSearch<'a> {
        LexminSearch {
            n,
            base,
            steps: 0,
            probe_work,
            search_left: None,
            max_depth,
        }
    }

    /// The integer lexmin of `{ x ≥ 0 : base, rows }`; `holds` when the
    /// set is known to hold an integer point, `depth` cases searched
    /// around it without that knowledge.
    fn lexmin_in_case(
        &mut self,
        mut rows: Vec<Constraint>,
        mut holds: bool,
        depth: usize,
    ) -> Result<Option<Vec<i64>>, PolyError> {
        let n = self.n;
        'case: loop {
            self.steps += 1;
            if self.steps > STEP_LIMIT {
                return Err(PolyError::StepLimit("integer lexmin"));
            }
            let base = self.base;
            let Some(x) = self.metered(|| rational_lexmin_of_reduced(n, base, &rows))? else {
                if holds {
                    return Err(PolyError::Unsupported(
                        "a set with integer points and no rational lexmin",
                    ));
                }
                return Ok(None);
            };
            let Some(i) = x.iter().position(|v| v.as_integer().is_none()) else {
                return x
                    .iter()
                    .map(|v| i64::try_from(v.num).map_err(|_| PolyError::Overflow))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Some);
            };
            // Asked only once the rational lexmin turns out not to be
            // integral (an integral rational lexmin is the integer one).
            if !holds {
                match self.probe(&rows)? {
                    Some(false) => return Ok(None),
                    Some(true) => holds = true,
                    None => {}
                }
            }
            let prefix: Vec<i64> = x[..i]
                .iter()
                .map(|v| i64::try_from(v.num).map_err(|_| PolyError::Overflow))
                .collect::<Result<_, _>>()?;
            let ceil_i = i64::try_from(x[i].num.div_euclid(x[i].den) + 1)
                .map_err(|_| PolyError::Overflow)?;
            for (k, at_least) in std::iter::once((i, Some(ceil_i)))
                .chain((0..i).rev().map(|k| (k, prefix[k].checked_add(1))))
            {
                let mut branch = rows.clone();
                for (j, &v) in prefix[..k].iter().enumerate() {
                    let mut coeffs = vec![0; n];
                    coeffs[j] = 1;
                    branch.push(Constraint::eq(
                        coeffs,
                        v.checked_neg().ok_or(PolyError::Overflow)?,
                    ));
                }
                let mut coeffs = vec![0; n];
                coeffs[k] = 1;
                let at_least = at_least.ok_or(PolyError::Overflow)?;
                branch.push(Constraint::ineq(
                    coeffs,
                    at_least.checked_neg().ok_or(PolyError::Overflow)?,
                ));
                match self.probe(&branch)? {
                    Some(true) => {
                        rows = branch;
                        holds = true;
                        continue 'case;
                    }
                    Some(false) => {}
                    None if depth >= self.max_depth => {
                        return Err(PolyError::StepLimit("integer lexmin"));
                    }
                    None => {
                        if let Some(point) = self.lexmin_in_case(branch, false, depth + 1)? {
                            return Ok(Some(point));
                        }
                    }
                }
            }
            if holds {
                return Err(PolyError::Unsupported(
                    "an integer point outside every lexicographic branch",
                ));
            }
            return Ok(None);
        }
    }

    /// Does `{ x ≥ 0 : base, more }` hold an integer point? Exact (the
    /// Omega test), `None` where the test gives up.
    fn probe(&mut self, more: &[Constraint]) -> Result<Option<bool>, PolyError> {
        let (n, base) = (self.n, self.base);
        let answer = match self.probe_work {
            None => self.metered(|| has_integer_point(n, base, more)),
            Some(rows) => {
                self.metered(|| work::with_work_limit(rows, || has_integer_point(n, base, more)).0)
            }
        };
        match answer {
            Ok(answer) => Ok(Some(answer)),
            Err(PolyError::StepLimit(_)) => {
                self.probe_work = Some(self.probe_work.map_or(PROBE_WORK, |w| w.min(PROBE_WORK)));
                self.search_left = self.search_left.or(Some(SEARCH_WORK));
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// `f`, within the work left to the search once a test has given up
    /// in it.
    fn metered<T>(&mut self, f: impl FnOnce() -> Result<T, PolyError>) -> Result<T, PolyError> {
        let Some(left) = self.search_left else {
            return f();
        };
        let (out, spent) = work::with_work_limit(left, f);
        let left = left.saturating_sub(spent);
        self.search_left = Some(left);
        match out {
            // The search's own work is spent: say so, whichever test
            // stopped at it.
            Err(PolyError::StepLimit(_)) if left == 0 => {
                Err(PolyError::StepLimit("integer lexmin"))
            }
            out => out,
        }
    }
}

/// The rows of `{ x ≥ 0 : rows }` without what the same set needs no row
/// for. Exact: the set, rational and integer, is unchanged.
///
/// * A row is divided by the content of its coefficients and constant.
/// * An inequality whose coefficients and constant are all non-negative
///   holds on every `x ≥ 0`: dropped.
/// * Of inequalities with the same coefficients, the one with the least
///   constant implies the others: only it is kept. Equal equalities are
///   kept once.
///
/// The schedulers' systems need this: Farkas' lemma gives every
/// dependence edge its rows, and adi's Pluto band has 3,258 rows of which
/// 1,543 differ.
pub fn reduced_nonneg_rows(n: usize, rows: Vec<Constraint>) -> Result<Vec<Constraint>, PolyError> {
    let mut normal: Vec<Constraint> = Vec::with_capacity(rows.len());
    for mut row in rows {
        if row.coeffs.len() != n {
            return Err(PolyError::SpaceMismatch {
                op: "lexmin_nonneg",
            });
        }
        if row.kind == ConstraintKind::Ineq
            && row.constant >= 0
            && row.coeffs.iter().all(|&c| c >= 0)
        {
            continue;
        }
        let g = gcd_of(row.coeffs.iter().copied().chain([row.constant])).unwrap_or(1);
        if g > 1 {
            row.coeffs.iter_mut().for_each(|c| *c /= g);
            row.constant /= g;
        }
        normal.push(row);
    }
    // The first row of each kind and coefficients, with the least constant
    // of its inequalities; the index borrows the coefficients.
    let mut index: HashMap<(ConstraintKind, &[i64]), usize, BuildHasherDefault<RowHasher>> =
        HashMap::with_capacity_and_hasher(normal.len(), BuildHasherDefault::default());
    let mut constant: Vec<i64> = normal.iter().map(|r| r.constant).collect();
    let mut keep = vec![false; normal.len()];
    for (k, row) in normal.iter().enumerate() {
        match index.get(&(row.kind, row.coeffs.as_slice())) {
            Some(&first) if row.kind == ConstraintKind::Ineq => {
                constant[first] = constant[first].min(row.constant);
            }
            // An equation with the same coefficients and another constant
            // is kept: the set is empty.
            Some(&first) => keep[k] = normal[first].constant != row.constant,
            None => {
                index.insert((row.kind, &row.coeffs), k);
                keep[k] = true;
            }
        }
    }
    drop(index);
    Ok(normal
        .into_iter()
        .zip(constant)
        .zip(keep)
        .filter(|(_, keep)| *keep)
        .map(|((row, constant), _)| Constraint { constant, ..row })
        .collect())
}

/// Does `{ x ≥ 0 : base, more }` hold an integer point? Exact (the Omega
/// test).
fn has_integer_point(
    n: usize,
    base: &[Constraint],
    more: &[Constraint],
) -> Result<bool, PolyError> {
    let mut all = base.to_vec();
    all.extend_from_slice(more);
    for k in 0..n {
        let mut coeffs = vec![0; n];
        coeffs[k] = 1;
        all.push(Constraint::ineq(coeffs, 0));
    }
    Ok(integer_sample(n, &all)?.is_some())
}

/// One row: `(constant + Σ coeffs[j] · t[j]) / den`.
#[derive(Clone, Debug)]
struct Row {
    constant: i128,
    coeffs: Vec<i128>,
    den: i128,
}

struct Tableau {
    /// How many leading rows are the variables `x`.
    n_var: usize,
    rows: Vec<Row>,
    steps: usize,
}

fn mul(a: i128, b: i128) -> Result<i128, PolyError> {
    // Two factors that fit in 64 bits have a product under 2¹²⁶ in
    // magnitude: one widening multiply, no overflow check (tableau
    // entries mostly are small).
    if let (Ok(x), Ok(y)) = (i64::try_from(a), i64::try_from(b)) {
        return Ok(i128::from(x) * i128::from(y));
    }
    a.checked_mul(b).ok_or(PolyError::Overflow)
}

fn add(a: i128, b: i128) -> Result<i128, PolyError> {
    a.checked_add(b).ok_or(PolyError::Overflow)
}

fn sub(a: i128, b: i128) -> Result<i128, PolyError> {
    a.checked_sub(b).ok_or(PolyError::Overflow)
}

/// The greatest common divisor of `|a|` and `|b|`; an error only when it
/// is 2¹²⁷ (both are `i128::MIN` or zero), which has no `i128`.
fn gcd(a: i128, b: i128) -> Result<i128, PolyError> {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    // Tableau entries mostly fit in 64 bits, where division is a machine
    // instruction rather than a call.
    if let (Ok(mut x), Ok(mut y)) = (u64::try_from(a), u64::try_from(b)) {
        while y != 0 {
            (x, y) = (y, x % y);
        }
        return Ok(i128::from(x));
    }
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i128::try_from(a).map_err(|_| PolyError::Overflow)
}

/// `a / g` for `g > 0` (truncating, as `/`), by a 64-bit division when
/// `a` and `g` fit in 64 bits.
fn quotient(a: i128, g: i128) -> i128 {
    debug_assert!(g > 0);
    match (i64::try_from(a), i64::try_from(g)) {
        (Ok(x), Ok(y)) => i128::from(x / y),
        _ => a / g,
    }
}

impl Row {
    /// Divides the row by the content of its constant, coefficients and
    /// denominator. Exact.
    fn normalize(&mut self) -> Result<(), PolyError> {
        let g = self.content()?;
        if g == 1 {
            return Ok(());
        }
        let by = u64::try_from(g).ok().and_then(InvariantDivisor::new);
        let divide = |a: i128| -> i128 {
            if let (Some(by), Ok(m)) = (by, u64::try_from(a.unsigned_abs())) {
                if let Some(q) = by.exact_quotient(m) {
                    // `q ≤ m`, and `m` came from an `i128`.
                    let q = i128::from(q);
                    return if a < 0 { -q } else { q };
                }
            }
            a / g
        };
        self.constant = divide(self.constant);
        self.den = divide(self.den);
        for c in &mut self.coeffs {
            *c = divide(*c);
        }
        Ok(())
    }

    /// The gcd of the constant, the coefficients and the denominator
    /// (positive, as the denominator is). Exact.
    fn content(&self) -> Result<i128, PolyError> {
        let mut g = gcd(self.constant, self.den)?;
        let mut by = u64::try_from(g).ok().and_then(InvariantDivisor::new);
        // A zero entry leaves the gcd as it is, and so does a multiple of
        // it: after a pivot most entries are multiples of the row's old
        // content, and one multiplication tells.
        for &c in self.coeffs.iter().filter(|&&c| c != 0) {
            if g == 1 {
                break;
            }
            let divides = match (by, u64::try_from(c.unsigned_abs())) {
                (Some(by), Ok(m)) => by.exact_quotient(m).is_some(),
                _ => c % g == 0,
            };
            if !divides {
                g = gcd(g, c)?;
                by = u64::try_from(g).ok().and_then(InvariantDivisor::new);
            }
        }
        Ok(g)
    }
}

impl Tableau {
    /// The tableau of `{ x ≥ 0 }`: one row per variable, at its lexmin 0.
    fn new(n: usize) -> Tableau {
        let rows: Vec<Row> = (0..n)
            .map(|i| {
                let mut coeffs = vec![0; n];
                coeffs[i] = 1;
                Row {
                    constant: 0,
                    coeffs,
                    den: 1,
                }
            })
            .collect();
        Tableau {
            n_var: n,
            rows,
            steps: 0,
        }
    }

    /// Adds `c` (an equality as two opposite rows), written over the
    /// current columns through the variable rows.
    fn add(&mut self, c: &Constraint) -> Result<(), PolyError> {
        let n = self.n_var;
        if c.coeffs.len() != n {
            return Err(PolyError::SpaceMismatch {
                op: "lexmin_nonneg",
            });
        }
        // The common denominator of the variables `c` reads.
        let mut den: i128 = 1;
        for (i, &a) in c.coeffs.iter().enumerate() {
            if a != 0 {
                let d = self.rows[i].den;
                den = mul(quotient(den, gcd(den, d)?), d)?;
            }
        }
        let mut row = Row {
            constant: mul(c.constant.into(), den)?,
            coeffs: vec![0; n],
            den,
        };
        for (i, &a) in c.coeffs.iter().enumerate() {
            if a == 0 {
                continue;
            }
            let var = &self.rows[i];
            let scale = mul(a.into(), quotient(den, var.den))?;
            row.constant = add(row.constant, mul(scale, var.constant)?)?;
            for (r, &v) in row.coeffs.iter_mut().zip(&var.coeffs) {
                if v != 0 {
                    *r = add(*r, mul(scale, v)?)?;
                }
            }
        }
        row.normalize()?;
        if c.kind == ConstraintKind::Eq {
            self.rows.push(Row {
                constant: row.constant.checked_neg().ok_or(PolyError::Overflow)?,
                coeffs: row
                    .coeffs
                    .iter()
                    .map(|v| v.checked_neg().ok_or(PolyError::Overflow))
                    .collect::<Result<_, _>>()?,
                den: row.den,
            });
        }
        self.rows.push(row);
        Ok(())
    }

    /// The value of row `r` at the current basic solution.
    fn value(&self, r: usize) -> Result<Ratio, PolyError> {
        let row = &self.rows[r];
        let g = gcd(row.constant, row.den)?.max(1);
        Ok(Ratio {
            num: quotient(row.constant, g),
            den: quotient(row.den, g),
        })
    }

    /// Dual simplex steps until every row is non-negative: `false` when a
    /// row can never become so (the set is empty).
    fn restore_feasibility(&mut self) -> Result<bool, PolyError> {
        while let Some(r) = self.rows.iter().position(|row| row.constant < 0) {
            let Some(c) = self.entering_column(r)? else {
                return Ok(false);
            };
            self.steps += 1;
            if self.steps > STEP_LIMIT {
                return Err(PolyError::StepLimit("lexicographic simplex"));
            }
            self.pivot(r, c)?;
        }
        Ok(true)
    }

    /// Among the columns with a positive entry in row `r`, the one whose
    /// column divided by that entry is lexicographically least on the
    /// variable rows: the pivot keeps every column lexicographically
    /// positive. `None` when no entry is positive.
    fn entering_column(&self, r: usize) -> Result<Option<usize>, PolyError> {
        let pivot_row = &self.rows[r];
        let mut best: Option<usize> = None;
        for j in 0..pivot_row.coeffs.len() {
            if pivot_row.coeffs[j] <= 0 {
                continue;
            }
            best = match best {
                None => Some(j),
                Some(b) if self.column_ratio_less(r, j, b)? => Some(j),
                keep => keep,
            };
        }
        Ok(best)
    }

    /// Is column `j` over its entry in row `r` lexicographically less than
    /// column `b` over its entry (both entries positive)?
    fn column_ratio_less(&self, r: usize, j: usize, b: usize) -> Result<bool, PolyError> {
        let (pj, pb) = (self.rows[r].coeffs[j], self.rows[r].coeffs[b]);
        for row in &self.rows[..self.n_var] {
            let lhs = mul(row.coeffs[j], pb)?;
            let rhs = mul(row.coeffs[b], pj)?;
            if lhs != rhs {
                return Ok(lhs < rhs);
            }
        }
        Ok(false)
    }

    /// Exchange the basic quantity of row `r` with the non-basic one of
    /// column `c`: every row is rewritten over the new non-basic variables.
    /// A row with no entry in column `c` does not change (it would only be
    /// multiplied by the pivot and divided back), so it is left alone.
    fn pivot(&mut self, r: usize, c: usize) -> Result<(), PolyError> {
        // One row of work per row the pivot may change, or per
        // `PIVOT_CELLS_PER_ROW` of its cells, from the enclosing task's
        // budget (`super::work`).
        let rows = u64::try_from(self.rows.len()).unwrap_or(u64::MAX);
        let width = u64::try_from(self.rows[r].coeffs.len() + 1).unwrap_or(u64::MAX);
        let cells = rows.saturating_mul(width) / PIVOT_CELLS_PER_ROW;
        work::draw(rows.max(cells), "lexicographic simplex")?;
        let p = self.rows[r].clone();
        let a = p.coeffs[c];
        // With a pivot of 1, the columns where the pivot row has an entry
        // (but the pivot's): the only ones a row changes in.
        let support: Vec<usize> = if a == 1 {
            (0..p.coeffs.len())
                .filter(|&j| j != c && p.coeffs[j] != 0)
                .collect()
        } else {
            Vec::new()
        };
        debug_assert!(a > 0, "pivot on a non-positive entry");
        for row in &mut self.rows {
            let e = row.coeffs[c];
            if e == 0 {
                continue;
            }
            row.constant = sub(mul(row.constant, a)?, mul(e, p.constant)?)?;
            if a == 1 {
                // `v·1 − e·0 = v`: only the pivot row's entries change it.
                for &j in &support {
                    row.coeffs[j] = sub(row.coeffs[j], mul(e, p.coeffs[j])?)?;
                }
            } else {
                row.den = mul(row.den, a)?;
                for (v, &pv) in row.coeffs.iter_mut().zip(&p.coeffs) {
                    *v = sub(mul(*v, a)?, mul(e, pv)?)?;
                }
            }
            row.coeffs[c] = mul(e, p.den)?;
            row.normalize()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::test_rng::Lcg;

    fn ineq(coeffs: &[i64], constant: i64) -> Constraint {
        Constraint::ineq(coeffs.to_vec(), constant)
    }

    /// The integer lexmin by enumeration of the box `0..=bound` in every
    /// coordinate (the rows must bound the set inside it).
    fn brute_force(n: usize, rows: &[Constraint], bound: i64) -> Option<Vec<i64>> {
        let mut x = vec![0; n];
        loop {
            let ok = rows.iter().all(|c| {
                let v: i64 = c.coeffs.iter().zip(&x).map(|(a, b)| a * b).sum::<i64>() + c.constant;
                if c.is_eq() {
                    v == 0
                } else {
                    v >= 0
                }
            });
            if ok {
                return Some(x);
            }
            // Next point in lexicographic order.
            let mut k = n;
            loop {
                if k == 0 {
                    return None;
                }
                k -= 1;
                if x[k] < bound {
                    x[k] += 1;
                    for v in &mut x[k + 1..] {
                        *v = 0;
                    }
                    break;
                }
            }
        }
    }

    #[test]
    fn the_rational_lexmin_of_a_triangle_is_its_first_vertex() {
        // x + y >= 3/2 scaled: 2x + 2y - 3 >= 0; the lexmin is (0, 3/2).
        let p = rational_lexmin_nonneg(2, &[ineq(&[2, 2], -3)])
            .unwrap()
            .unwrap();
        assert_eq!(p[0], Ratio { num: 0, den: 1 });
        assert_eq!(p[1], Ratio { num: 3, den: 2 });
        let q = integer_lexmin_nonneg(2, &[ineq(&[2, 2], -3)]).unwrap();
        assert_eq!(q, Some(vec![0, 2]));
    }

    #[test]
    fn a_set_with_rational_points_only_has_no_integer_lexmin() {
        // 1 <= 3x <= 2
        let rows = [ineq(&[3], -1), ineq(&[-3], 2)];
        assert!(rational_lexmin_nonneg(1, &rows).unwrap().is_some());
        assert_eq!(integer_lexmin_nonneg(1, &rows).unwrap(), None);
    }

    #[test]
    fn an_empty_set_has_no_lexmin() {
        let rows = [ineq(&[1, 1], -5), ineq(&[-1, -1], 4)];
        assert_eq!(rational_lexmin_nonneg(2, &rows).unwrap(), None);
        assert_eq!(integer_lexmin_nonneg(2, &rows).unwrap(), None);
    }

    #[test]
    fn equalities_hold_at_the_lexmin() {
        // x0 = 2 x1 + 1, x1 >= 2: (5, 2).
        let rows = [Constraint::eq(vec![1, -2], -1), ineq(&[0, 1], -2)];
        assert_eq!(integer_lexmin_nonneg(2, &rows).unwrap(), Some(vec![5, 2]));
    }

    #[test]
    fn the_integer_lexmin_agrees_with_enumeration_on_random_sets() {
        let mut rng = Lcg(7);
        let bound = 7;
        for case in 0..3000 {
            let n = 1 + rng.next(4) as usize;
            let mut rows: Vec<Constraint> = (0..n)
                .map(|k| {
                    let mut c = vec![0; n];
                    c[k] = -1;
                    ineq(&c, bound)
                })
                .collect();
            for _ in 0..1 + rng.next(4) {
                let coeffs: Vec<i64> = (0..n).map(|_| rng.next(11) - 5).collect();
                let constant = rng.next(31) - 15;
                if rng.next(6) == 0 {
                    rows.push(Constraint::eq(coeffs, constant));
                } else {
                    rows.push(ineq(&coeffs, constant));
                }
            }
            if rng.next(3) == 0 {
                // A multiple of an earlier row, maybe looser or shifted:
                // what the reduction merges.
                let mut copy = rows[rng.next(rows.len() as i64) as usize].clone();
                let factor = 1 + rng.next(3);
                copy.coeffs.iter_mut().for_each(|c| *c *= factor);
                copy.constant = copy.constant * factor + rng.next(3) - 1;
                rows.push(copy);
            }
            let expected = brute_force(n, &rows, bound);
            let got = integer_lexmin_nonneg(n, &rows)
                .unwrap_or_else(|e| panic!("case {case}: {e}: {rows:?}"));
            assert_eq!(got, expected, "case {case}: {rows:?}");
            // With every Omega test giving up, the branching searches
            // each case in turn, no deeper than the box's sides add up to
            // (twice that allowed): the same lexmin.
            let searched = LexminSearch::new(n, &[], Some(0), 4 * 2 * bound as usize)
                .lexmin_in_case(rows.clone(), false, 0)
                .unwrap_or_else(|e| panic!("case {case}, searched: {e}: {rows:?}"));
            assert_eq!(searched, expected, "case {case}, searched: {rows:?}");
            // Split into a base and more rows, neither reduced: the same
            // lexmin (reduction only saves work).
            let at = rng.next(rows.len() as i64 + 1) as usize;
            let (base, more) = rows.split_at(at);
            let split = integer_lexmin_of_reduced(n, base, more)
                .unwrap_or_else(|e| panic!("case {case}: {e}: {rows:?}"));
            assert_eq!(split, expected, "case {case}, split at {at}: {rows:?}");
            // The rational lexmin exists whenever an integer point does,
            // and is lexicographically no greater.
            let rational = rational_lexmin_nonneg(n, &rows)
                .unwrap_or_else(|e| panic!("case {case}: {e}: {rows:?}"));
            if let Some(p) = &expected {
                let r = rational.unwrap_or_else(|| panic!("case {case}: no rational point"));
                let as_pairs: Vec<(i128, i128)> = r.iter().map(|q| (q.num, q.den)).collect();
                // The rational point satisfies every row (scaled by the
                // product of the denominators).
                let scale: i128 = as_pairs.iter().map(|&(_, den)| den).product();
                for c in &rows {
                    let v: i128 = c
                        .coeffs
                        .iter()
                        .zip(&as_pairs)
                        .map(|(&a, &(num, den))| i128::from(a) * num * (scale / den))
                        .sum::<i128>()
                        + i128::from(c.constant) * scale;
                    assert!(
                        if c.is_eq() { v == 0 } else { v >= 0 },
                        "case {case}: {r:?} breaks {c:?}"
                    );
                }
                let le = as_pairs
                    .iter()
                    .zip(p)
                    .map(|(&(num, den), &v)| (num).cmp(&(i128::from(v) * den)))
                    .find(|o| o.is_ne())
                    .is_none_or(|o| o.is_lt());
                assert!(le, "case {case}: rational {r:?} after integer {p:?}");
            }
        }
    }
}
