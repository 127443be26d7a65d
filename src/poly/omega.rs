//! Exact integer feasibility and sampling: the Omega test (Pugh, 1991).
//!
//! Decides whether a conjunction of integer affine constraints has an integer
//! solution, and returns one. Every step is exact over the integers:
//!
//! * rows are normalised by the gcd of their coefficients (an inequality's
//!   constant is rounded down, an equality whose constant is not divisible
//!   has no solution);
//! * an equality with a unit coefficient is solved and substituted; any other
//!   equality is reduced by a unimodular change of variable (Euclid on the
//!   coefficients) until one coefficient is a unit;
//! * a variable bounded on one side only is dropped with its rows, and so
//!   is one that only the pair `a·x + e + c₁ >= 0`, `-a·x - e + c₂ >= 0`
//!   bounds, where `c₁ + c₂ >= a - 1` (a tile's index that no other row
//!   reads: some integer value always fits); once a quarter of the
//!   columns are unused, they are dropped from every row (in place; the
//!   point is put back at the end); rows are normalised again only after
//!   a step that rewrites or adds some;
//! * Fourier–Motzkin elimination is used where it is exact (every lower or
//!   every upper coefficient is 1, or each pair of bounds whose
//!   coefficients both exceed 1 is a floor's defining pair, whose dark
//!   shadow always holds: [`shadows_agree`]); otherwise the real shadow
//!   (a necessary condition, solved first: empty, it decides; with a
//!   point where the variable's least value meets every bound, so does
//!   that point), the dark shadow (a sufficient one) and, between them,
//!   the splinters (one equality per residue) decide. Exact eliminations
//!   go first, then the variable with the fewest splinters (they nest across
//!   variables), then the one that adds the fewest rows;
//! * before an elimination that would add more than [`ROW_GROWTH_LIMIT`]
//!   rows, the rows that the others imply are dropped;
//! * past [`WORK_LIMIT`] rows of work, or past what the enclosing
//!   [`with_work_limit`](super::with_work_limit) scope has left, the test
//!   gives up and decides nothing.
//!
//! Coefficient arithmetic is checked: an overflow is returned, never wrapped,
//! and then no answer is given. Cost: exponential in the worst case (integer
//! programming is NP-complete), fast on the small systems of loop nests.
//!
//! Length: one algorithm, read top to bottom (normalisation, equalities,
//! exact elimination, shadows and splinters share the row system and its
//! helpers); splitting it would scatter one proof of exactness.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::{
    checked_add, checked_mul, gcd_of, omega_memo, work, Constraint, ConstraintKind, Overflow,
    PolyError,
};

/// `coeffs · x + constant`, with the relation given by where the row is kept.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Row {
    coeffs: Vec<i64>,
    constant: i64,
}

#[derive(Clone, Debug)]
struct System {
    n: usize,
    eqs: Vec<Row>,
    ineqs: Vec<Row>,
}

/// How to rebuild the value of one variable from the solution of a smaller system.
enum Recovery {
    /// `x_j = expr(x)` (an equality with a unit coefficient was substituted).
    Solved { j: usize, expr: Row },
    /// `x_j = y_j - Σ q_i x_i` (a unimodular change of variable).
    Changed { j: usize, q: Vec<i64> },
    /// `x_j` was eliminated; pick the smallest value its bounds allow.
    Bounded { j: usize, rows: Vec<Row> },
    /// The columns no row used were dropped: `used[k]` is the column, in
    /// the `n` before, of column `k` after (the others get 0).
    Compacted { used: Vec<usize>, n: usize },
}

/// The most work one [`integer_sample`] may do, in rows: the rows of each
/// system a step normalises (splinters and shadows are systems of their
/// own), the rows each substitution of an equality rewrites, and the
/// rows each elimination builds. Past it the test gives up
/// with [`PolyError::StepLimit`]: nothing is decided, so a legality check
/// refuses its directive and code generation its region (exit 1), never
/// reading it as empty. Measured (Zen 1): the largest test of the whole
/// test suite does 297,000 (a tenth of a second); the seidel-2d and
/// heat-3d checks that ran 11 s to over 120 s after
/// `auto(pluto, wavefront = true)` (tests/regressions, seeds 70–72) each
/// had one test past 1.6 million rows, or an elimination of over 20
/// million. Raised from 1 million when substitutions came to be charged
/// (2026-12-07, Xeon): the schedulers' Farkas systems substitute dozens
/// of equalities, and a test that passed at 1 million was charged just
/// over it (`auto(feautrier)` on random kernel r25_169: 1,016,119). Not
/// to 2 million: code generation for `s72-timeout-1.poly` then passes
/// and prints 684 KB of C that clang takes minutes to compile. Rows
/// cost about 15 million a second now (a collision-free row hash).
pub const WORK_LIMIT: u64 = 1_500_000;

/// Work left to one [`integer_sample`].
struct Budget {
    left: u64,
}

impl Budget {
    /// Spend `rows`, or give up.
    fn spend(&mut self, rows: usize) -> Result<(), PolyError> {
        let rows = u64::try_from(rows).unwrap_or(u64::MAX).max(1);
        self.left = self
            .left
            .checked_sub(rows)
            .ok_or(PolyError::StepLimit("the Omega test"))?;
        Ok(())
    }
}

/// An integer point satisfying every constraint over `n` columns, or `None`;
/// [`PolyError::StepLimit`] past [`WORK_LIMIT`], or past what the
/// enclosing [`with_work_limit`](super::with_work_limit) scope has left.
pub(crate) fn integer_sample(
    n: usize,
    constraints: &[Constraint],
) -> Result<Option<Vec<i64>>, PolyError> {
    integer_sample_of(n, constraints.to_vec())
}

/// [`integer_sample`] of rows it may take apart (no copy of them is made).
pub(crate) fn integer_sample_of(
    n: usize,
    constraints: Vec<Constraint>,
) -> Result<Option<Vec<i64>>, PolyError> {
    let allowed = work::allowance(WORK_LIMIT);
    let question = omega_memo::keeping().then(|| omega_memo::encode(n, &constraints));
    let recalled = question.as_ref().and_then(omega_memo::recall);
    let asked_before = recalled.is_some();
    if let Some((answer, spent)) = recalled {
        // The same answer at the same cost; with less work left, the test
        // runs again and gives up as it would have.
        if spent <= allowed {
            work::charge(spent);
            return Ok(answer);
        }
    }
    let mut sys = System {
        n,
        eqs: Vec::new(),
        ineqs: Vec::new(),
    };
    for c in constraints {
        let mut coeffs = c.coeffs;
        coeffs.resize(n, 0);
        let row = Row {
            coeffs,
            constant: c.constant,
        };
        match c.kind {
            ConstraintKind::Eq => sys.eqs.push(row),
            ConstraintKind::Ineq => sys.ineqs.push(row),
        }
    }
    let mut budget = Budget { left: allowed };
    let out = solve(sys, &mut budget);
    let spent = allowed - budget.left;
    work::charge(spent);
    if let (Some(question), Ok(answer), false) = (question, &out, asked_before) {
        omega_memo::remember(question, (answer.clone(), spent));
    }
    match out {
        Err(PolyError::StepLimit(_)) if allowed < WORK_LIMIT => Err(PolyError::StepLimit(
            "the exact tests of one directive together",
        )),
        out => out,
    }
}

/// `-a`, or [`Overflow`] for `i64::MIN`.
fn neg(a: i64) -> Result<i64, Overflow> {
    a.checked_neg().ok_or(Overflow)
}

fn eval(r: &Row, x: &[i64]) -> Result<i64, Overflow> {
    let mut v = r.constant;
    for (a, b) in r.coeffs.iter().zip(x) {
        v = checked_add(v, checked_mul(*a, *b)?)?;
    }
    Ok(v)
}

/// Whether `x` satisfies every inequality of `rows`.
fn meets_every_row(rows: &[Row], x: &[i64]) -> Result<bool, Overflow> {
    for r in rows {
        if eval(r, x)? < 0 {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Floor and ceiling division with a positive divisor.
/// `⌊a / b⌋` for `b > 0`, checked.
fn floor_div(a: i64, b: i64) -> Result<i64, Overflow> {
    a.checked_div_euclid(b).ok_or(Overflow)
}

/// `⌈a / b⌉` for `b > 0`, checked.
fn ceil_div(a: i64, b: i64) -> Result<i64, Overflow> {
    neg(floor_div(neg(a)?, b)?)
}

/// `a * r + b * s`, checked.
fn lin2(a: i64, r: &Row, b: i64, s: &Row) -> Result<Row, Overflow> {
    let mut coeffs = Vec::with_capacity(r.coeffs.len());
    for (x, y) in r.coeffs.iter().zip(&s.coeffs) {
        coeffs.push(checked_add(checked_mul(a, *x)?, checked_mul(b, *y)?)?);
    }
    Ok(Row {
        coeffs,
        constant: checked_add(checked_mul(a, r.constant)?, checked_mul(b, s.constant)?)?,
    })
}

/// Substitute `x_j = expr` into `r` (`expr` has no `x_j`).
fn substitute_in_place(r: &mut Row, j: usize, expr: &Row) -> Result<(), Overflow> {
    let a = r.coeffs[j];
    if a == 0 {
        return Ok(());
    }
    for (c, &e) in r.coeffs.iter_mut().zip(&expr.coeffs) {
        if e != 0 {
            *c = checked_add(*c, checked_mul(a, e)?)?;
        }
    }
    r.coeffs[j] = 0;
    r.constant = checked_add(r.constant, checked_mul(a, expr.constant)?)?;
    Ok(())
}

/// A fast hash for coefficient vectors (multiply and rotate, as rustc's
/// FxHash): the rows are hashed at every step, and SipHash's resistance to
/// chosen inputs buys nothing here.
#[derive(Default)]
pub(super) struct RowHasher(u64);

impl Hasher for RowHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Whole words without a copy (a slice of `i64` is hashed as its
        // bytes), then the tail, if any.
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut w = [0u8; 8];
            w.copy_from_slice(word);
            self.add(u64::from_le_bytes(w));
        }
        let tail = words.remainder();
        if !tail.is_empty() {
            let mut w = [0u8; 8];
            w[..tail.len()].copy_from_slice(tail);
            self.add(u64::from_le_bytes(w));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }

    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl RowHasher {
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// A linear hash of a coefficient vector (`Σ a_i·m_i`, wrapping, with
/// odd multipliers): the negated vector's hash is the negated hash, so one
/// pass over a row finds both its duplicates and its opposite.
///
/// The multipliers are scrambled (SplitMix64's finaliser of the column):
/// multipliers in arithmetic progression made every two rows with the
/// same `Σ a_i·i` collide, and the Farkas rows of a scheduler's search,
/// small coefficients over hundreds of columns, did so by the thousand
/// (chains of equal hashes compared row by row: 90% of a 6 s `auto`).
fn linear_hash(coeffs: &[i64]) -> u64 {
    coeffs.iter().enumerate().fold(0u64, |h, (i, &a)| {
        h.wrapping_add((a as u64).wrapping_mul(column_multiplier(i)))
    })
}

/// An odd pseudo-random multiplier for column `i` of [`linear_hash`].
fn column_multiplier(i: usize) -> u64 {
    let mut z = (i as u64)
        .wrapping_add(1)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) | 1
}

/// Rows grouped by their coefficients: each row's first equal row, and
/// the lookup of a row's opposite (`-c` for `c`). Hashes decide nothing:
/// rows found under one are compared.
struct RowIndex {
    hashes: Vec<u64>,
    /// The first row of each hash (a row with the same coefficients as an
    /// earlier one is not in a chain).
    heads: HashMap<u64, usize, BuildHasherDefault<RowHasher>>,
    /// The next row in a hash's chain (`usize::MAX`: the end).
    chain: Vec<usize>,
    /// Per row, the first row with its coefficients (itself or earlier).
    first: Vec<usize>,
}

impl RowIndex {
    fn new(rows: &[Row]) -> RowIndex {
        let mut index = RowIndex {
            hashes: rows.iter().map(|r| linear_hash(&r.coeffs)).collect(),
            heads: HashMap::with_capacity_and_hasher(rows.len(), BuildHasherDefault::default()),
            chain: vec![usize::MAX; rows.len()],
            first: (0..rows.len()).collect(),
        };
        for (k, r) in rows.iter().enumerate() {
            let h = index.hashes[k];
            match index.find(h, |t| rows[t].coeffs == r.coeffs) {
                Some(t) => index.first[k] = t,
                None => index.chain[k] = index.heads.insert(h, k).unwrap_or(usize::MAX),
            }
        }
        index
    }

    /// The row in `h`'s chain that `matches`.
    fn find(&self, h: u64, matches: impl Fn(usize) -> bool) -> Option<usize> {
        let mut k = *self.heads.get(&h)?;
        while k != usize::MAX {
            if matches(k) {
                return Some(k);
            }
            k = self.chain[k];
        }
        None
    }

    /// The first row whose coefficients are row `k`'s negated.
    fn opposite(&self, rows: &[Row], k: usize) -> Option<usize> {
        let c = &rows[k].coeffs;
        self.find(self.hashes[k].wrapping_neg(), |o| {
            rows[o]
                .coeffs
                .iter()
                .zip(c)
                .all(|(&a, &b)| a.checked_neg() == Some(b))
        })
    }
}

enum Normalized {
    Infeasible,
    Ok,
}

/// Normalise rows by their gcd, drop trivial ones, keep the tightest of
/// parallel inequalities and turn opposite pairs that meet into equalities.
fn normalize(sys: &mut System) -> Result<Normalized, Overflow> {
    let mut eqs = Vec::with_capacity(sys.eqs.len());
    for mut r in std::mem::take(&mut sys.eqs) {
        let g = gcd_of(r.coeffs.iter().copied())?;
        if g == 0 {
            if r.constant != 0 {
                return Ok(Normalized::Infeasible);
            }
            continue;
        }
        if r.constant % g != 0 {
            return Ok(Normalized::Infeasible);
        }
        if g != 1 {
            r.coeffs.iter_mut().for_each(|c| *c /= g);
            r.constant /= g;
        }
        eqs.push(r);
    }
    let mut rows = Vec::with_capacity(sys.ineqs.len());
    for mut r in std::mem::take(&mut sys.ineqs) {
        match gcd_of(r.coeffs.iter().copied())? {
            // `k >= 0` without variables: true, or no solution.
            0 if r.constant < 0 => return Ok(Normalized::Infeasible),
            0 => continue,
            1 => {}
            g => {
                r.coeffs.iter_mut().for_each(|c| *c /= g);
                r.constant = floor_div(r.constant, g)?;
            }
        }
        rows.push(r);
    }
    // Tightest constant per direction, found by hashing the coefficient
    // vectors (a linear scan made this quadratic in the rows).
    let index = RowIndex::new(&rows);
    // Per row, the index of the first row with its coefficients; that
    // first row's entry in `tightest` holds the least constant.
    let mut tightest: Vec<i64> = rows.iter().map(|r| r.constant).collect();
    for (k, r) in rows.iter().enumerate() {
        let t = index.first[k];
        if t != k {
            tightest[t] = tightest[t].min(r.constant);
        }
    }
    let mut ineqs = Vec::with_capacity(rows.len());
    let mut pairs: Vec<(usize, i64)> = Vec::new();
    for k in (0..rows.len()).filter(|&k| index.first[k] == k) {
        if let Some(o) = index.opposite(&rows, k) {
            // c·x + k >= 0 and -c·x + k2 >= 0: -k <= c·x <= k2.
            match tightest[k].checked_add(tightest[o]) {
                Some(s) if s < 0 => return Ok(Normalized::Infeasible),
                Some(0) => {
                    // Keep one equality for the pair: the row that comes first.
                    if o > k {
                        pairs.push((k, tightest[k]));
                    }
                    continue;
                }
                _ => {}
            }
        }
        ineqs.push((k, tightest[k]));
    }
    let mut rows: Vec<Option<Row>> = rows.into_iter().map(Some).collect();
    let mut take = |(k, constant): (usize, i64)| {
        rows[k].take().map(|r| Row {
            coeffs: r.coeffs,
            constant,
        })
    };
    eqs.extend(pairs.into_iter().filter_map(&mut take));
    let ineqs: Vec<Row> = ineqs.into_iter().filter_map(&mut take).collect();
    sys.eqs = eqs;
    sys.ineqs = ineqs;
    Ok(Normalized::Ok)
}

fn solve(mut sys: System, budget: &mut Budget) -> Result<Option<Vec<i64>>, PolyError> {
    let mut steps: Vec<Recovery> = Vec::new();
    // Whether every row is as `normalize` leaves it: dropping rows or
    // unused columns keeps it so; a step that rewrites or adds rows does not.
    let mut normalized = false;
    let mut unused = UnusedColumns::default();
    let point = loop {
        budget.spend(sys.eqs.len() + sys.ineqs.len())?;
        if !normalized {
            if let Normalized::Infeasible = normalize(&mut sys)? {
                return Ok(None);
            }
            normalized = true;
        }
        if let Some(step) = eliminate_equality(&mut sys)? {
            normalized = false;
            // A change of variable frees no column; a solved one does.
            unused.freed += usize::from(matches!(step, Recovery::Solved { .. }));
            steps.push(step);
            // Substituting equalities with a unit coefficient is exact without
            // normalising in between: do them all before the next normalisation
            // (which costs a pass over every row).
            while let Some(step) = eliminate_unit_equality(&mut sys)? {
                // A substitution rewrites every row that names the column.
                budget.spend(sys.eqs.len() + sys.ineqs.len())?;
                unused.freed += 1;
                steps.push(step);
            }
            // The substituted columns are now unused: go on without them.
            unused.compact(&mut sys, &mut steps);
            continue;
        }
        if sys.ineqs.is_empty() {
            break vec![0; sys.n];
        }
        unused.compact(&mut sys, &mut steps);
        match eliminate_inequality_var(&mut sys, budget)? {
            Elim::Step(step, rows_added) => {
                normalized &= !rows_added;
                steps.push(step);
                unused.freed += 1;
            }
            Elim::Decided(p) => match p {
                Some(p) => break p,
                None => return Ok(None),
            },
        }
    };
    let mut x = point;
    for step in steps.into_iter().rev() {
        match step {
            Recovery::Solved { j, expr } => {
                x[j] = 0;
                x[j] = eval(&expr, &x)?;
            }
            Recovery::Changed { j, q } => {
                let mut v = x[j];
                for (i, qi) in q.iter().enumerate() {
                    if i != j {
                        v = checked_add(v, checked_mul(neg(*qi)?, x[i])?)?;
                    }
                }
                x[j] = v;
            }
            Recovery::Bounded { j, rows } => {
                x[j] = pick(&rows, j, &x)?;
            }
            Recovery::Compacted { used, n } => {
                let mut full = vec![0; n];
                for (&j, v) in used.iter().zip(&x) {
                    full[j] = *v;
                }
                x = full;
            }
        }
    }
    Ok(Some(x))
}

/// What one [`solve`] knows of its unused columns, so that [`compact`]
/// scans the rows for them only once they may be worth dropping.
///
/// A system's first scan is left to the first time that a quarter of its
/// columns were eliminated: the questions asked come with few unused.
#[derive(Default)]
struct UnusedColumns {
    /// How many the last scan left (none before the first).
    left: usize,
    /// Variables eliminated since then (each frees its column).
    freed: usize,
}

impl UnusedColumns {
    /// [`compact`] the system when at least a quarter of its columns may
    /// be unused, recording how to put its points back.
    fn compact(&mut self, sys: &mut System, steps: &mut Vec<Recovery>) {
        let known = self.left + self.freed;
        self.freed = 0;
        if known * 4 < sys.n {
            self.left = known;
            return;
        }
        let (step, left) = compact(sys);
        steps.extend(step);
        self.left = left;
    }
}

/// Columns that no row uses any more (substituted or dropped variables) make
/// every later step pay for them: when at least a quarter of the columns
/// are unused, drop them from every row, in place, and return how to put
/// a point of the smaller system back ([`Recovery::Compacted`]: unused
/// columns get 0; the recovery steps before it set the eliminated ones).
/// `None`: not worth it, nothing changed. Also the unused columns left.
fn compact(sys: &mut System) -> (Option<Recovery>, usize) {
    let n = sys.n;
    let mut in_use = vec![false; n];
    for r in sys.eqs.iter().chain(&sys.ineqs) {
        for (u, &a) in in_use.iter_mut().zip(&r.coeffs) {
            *u |= a != 0;
        }
    }
    let unused = in_use.iter().filter(|&&u| !u).count();
    if unused == 0 || unused * 4 < n {
        return (None, unused);
    }
    let used: Vec<usize> = (0..n).filter(|&j| in_use[j]).collect();
    for r in sys.eqs.iter_mut().chain(sys.ineqs.iter_mut()) {
        // `used` is increasing: each kept column moves down or stays.
        for (k, &j) in used.iter().enumerate() {
            r.coeffs[k] = r.coeffs[j];
        }
        r.coeffs.truncate(used.len());
    }
    sys.n = used.len();
    (Some(Recovery::Compacted { used, n }), 0)
}

/// The smallest value of `x_j` allowed by `rows` given the other values
/// (the largest if `x_j` is only bounded above; 0 if unbounded).
fn pick(rows: &[Row], j: usize, x: &[i64]) -> Result<i64, Overflow> {
    let mut lo: Option<i64> = None;
    let mut hi: Option<i64> = None;
    let mut probe = x.to_vec();
    probe[j] = 0;
    for r in rows {
        let a = r.coeffs[j];
        let rest = eval(r, &probe)?;
        if a > 0 {
            let b = ceil_div(neg(rest)?, a)?;
            lo = Some(lo.map_or(b, |l| l.max(b)));
        } else if a < 0 {
            let b = floor_div(rest, neg(a)?)?;
            hi = Some(hi.map_or(b, |h| h.min(b)));
        }
    }
    Ok(lo.or(hi).unwrap_or(0))
}

/// The first equality with a unit coefficient: `(equality, column)`.
fn unit_equality(sys: &System) -> Option<(usize, usize)> {
    sys.eqs.iter().enumerate().find_map(|(e, r)| {
        r.coeffs
            .iter()
            .position(|a| a.unsigned_abs() == 1)
            .map(|j| (e, j))
    })
}

/// Solve the equality `e` for `x_j` (its coefficient is ±1) and substitute it
/// into the rows that use `x_j` (the others are left untouched).
fn solve_unit_equality(sys: &mut System, e: usize, j: usize) -> Result<Recovery, Overflow> {
    let eq = sys.eqs.swap_remove(e);
    let a = eq.coeffs[j];
    // a x_j + rest = 0  =>  x_j = -a * rest  (a = ±1)
    let mut coeffs = Vec::with_capacity(eq.coeffs.len());
    for &c in &eq.coeffs {
        coeffs.push(checked_mul(-a, c)?);
    }
    let mut expr = Row {
        coeffs,
        constant: checked_mul(-a, eq.constant)?,
    };
    expr.coeffs[j] = 0;
    for r in sys.eqs.iter_mut().chain(sys.ineqs.iter_mut()) {
        substitute_in_place(r, j, &expr)?;
    }
    Ok(Recovery::Solved { j, expr })
}

/// Eliminate one equality with a unit coefficient; `None` if there is none.
fn eliminate_unit_equality(sys: &mut System) -> Result<Option<Recovery>, Overflow> {
    match unit_equality(sys) {
        Some((e, j)) => Ok(Some(solve_unit_equality(sys, e, j)?)),
        None => Ok(None),
    }
}

/// Remove one equality (or make progress on one); `None` if there is none.
fn eliminate_equality(sys: &mut System) -> Result<Option<Recovery>, Overflow> {
    // Prefer an equality with a unit coefficient.
    if let Some((e, j)) = unit_equality(sys) {
        return Ok(Some(solve_unit_equality(sys, e, j)?));
    }
    let mut best: Option<(usize, usize)> = None;
    for (e, r) in sys.eqs.iter().enumerate() {
        for (j, &a) in r.coeffs.iter().enumerate() {
            if a != 0 && best.is_none_or(|(be, bj)| a.abs() < sys.eqs[be].coeffs[bj].abs()) {
                best = Some((e, j));
            }
        }
    }
    let Some((e, j)) = best else {
        return Ok(None);
    };
    let a = sys.eqs[e].coeffs[j];
    // x_j = y_j - Σ q_i x_i with q_i = floor(a_i / a): coefficients of the
    // equality become a_i - q_i a, all smaller than |a| in magnitude.
    let q: Vec<i64> = sys.eqs[e]
        .coeffs
        .iter()
        .enumerate()
        .map(|(i, &ai)| if i == j { 0 } else { ai.div_euclid(a) })
        .collect();
    for r in sys.eqs.iter_mut().chain(sys.ineqs.iter_mut()) {
        let b = r.coeffs[j];
        if b != 0 {
            for (i, qi) in q.iter().enumerate() {
                if i != j && *qi != 0 {
                    r.coeffs[i] = checked_add(r.coeffs[i], checked_mul(neg(b)?, *qi)?)?;
                }
            }
        }
    }
    Ok(Some(Recovery::Changed { j, q }))
}

/// Branch on a variable's values when it has at most this many.
const BRANCH_LIMIT: i64 = 8;

/// Constant bounds of every variable by interval propagation over `rows`
/// (a few rounds; sound, not tight), and the variable with the fewest
/// values: `(column, lo, hi)`, or `None` if no variable is bounded on both
/// sides. An empty interval comes back as is (`lo > hi`: no value).
fn narrowest_range(n: usize, rows: &[Row]) -> Result<Option<(usize, i64, i64)>, Overflow> {
    let mut lo: Vec<Option<i64>> = vec![None; n];
    let mut hi: Vec<Option<i64>> = vec![None; n];
    for _ in 0..3 {
        let mut changed = false;
        for r in rows {
            for (j, &a) in r.coeffs.iter().enumerate() {
                if a == 0 {
                    continue;
                }
                // a x_j + c + S >= 0 with S = Σ_{k≠j} a_k x_k <= s_max.
                let mut s_max = Some(r.constant);
                for (k, &b) in r.coeffs.iter().enumerate() {
                    if k == j || b == 0 {
                        continue;
                    }
                    let top = if b > 0 { hi[k] } else { lo[k] };
                    s_max = match (s_max, top) {
                        (Some(t), Some(x)) => Some(checked_add(t, checked_mul(b, x)?)?),
                        _ => None,
                    };
                }
                let Some(s_max) = s_max else { continue };
                if a > 0 {
                    let b = ceil_div(neg(s_max)?, a)?;
                    if lo[j].is_none_or(|l| b > l) {
                        lo[j] = Some(b);
                        changed = true;
                    }
                } else {
                    let b = floor_div(s_max, neg(a)?)?;
                    if hi[j].is_none_or(|h| b < h) {
                        hi[j] = Some(b);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut best: Option<(usize, i64, i64)> = None;
    for k in 0..n {
        if let (Some(l), Some(h)) = (lo[k], hi[k]) {
            if best.is_none_or(|(_, bl, bh)| (h as i128 - l as i128) < (bh as i128 - bl as i128)) {
                best = Some((k, l, h));
            }
        }
    }
    Ok(best)
}

enum Elim {
    /// One variable eliminated; whether rows were added (the shadow's).
    Step(Recovery, bool),
    Decided(Option<Vec<i64>>),
}

/// When the next elimination would add more rows than this,
/// [`drop_implied_rows`] runs first: Fourier–Motzkin multiplies rows, and
/// most of them are implied by the others (heat-3d's unroll-and-jam check
/// went from 1,015 rows to 379,577 in one dark shadow, and took minutes).
/// One Omega test per row costs less than that, but more than a small
/// step; 256 and 1,024 traded one slow case measured against another.
const ROW_GROWTH_LIMIT: usize = 4096;

/// The most rows [`drop_implied_rows`] keeps before it stops testing
/// (measured: 16 left heat-3d's case at 10 s, 24 at 2.2 s, 32 at 1.6 s but
/// seidel-2d's over 150 s).
const KEPT_LIMIT: usize = 24;

/// Drop the inequalities that the others imply on every integer point: a
/// row `r >= 0` goes when the rows kept with `r <= -1` have no integer
/// point (rows have integer coefficients, so `r < 0` is `r <= -1` on
/// integers). The integer points are unchanged, which is all that the
/// later steps (exact eliminations included) rely on.
fn drop_implied_rows(sys: &mut System, budget: &mut Budget) {
    // A row joins only when the rows kept so far do not imply it, so each
    // test is a small system: the kept rows are few where the input is a
    // Fourier–Motzkin product (3,158 rows of heat-3d's check kept 4).
    // When the kept rows grow past `KEPT_LIMIT` the tests stop being small
    // (seed 71's seidel-2d jam check kept 36 rows over 8 columns, at 90 ms a
    // test, and took minutes instead of 50 s): the rest is kept untested.
    let mut kept: Vec<Row> = Vec::new();
    let mut rows = std::mem::take(&mut sys.ineqs).into_iter();
    for row in rows.by_ref() {
        if !implied(sys, &kept, &row, budget) {
            kept.push(row);
            if kept.len() > KEPT_LIMIT {
                break;
            }
        }
    }
    if kept.len() > KEPT_LIMIT {
        kept.extend(rows);
        sys.ineqs = kept;
        return;
    }
    // A second pass drops the rows that later ones made redundant.
    let mut k = 0;
    while k < kept.len() {
        let row = kept.remove(k);
        if implied(sys, &kept, &row, budget) {
            continue;
        }
        kept.insert(k, row);
        k += 1;
    }
    sys.ineqs = kept;
}

/// Do the equalities of `sys` and `rows` imply `row >= 0` at every integer
/// point? Proved when they have no integer point with `row <= -1` (the
/// Omega test on the small system); `false` when that is not proved (an
/// overflow, or the budget spent).
fn implied(sys: &System, rows: &[Row], row: &Row, budget: &mut Budget) -> bool {
    let negated = row
        .coeffs
        .iter()
        .map(|c| c.checked_neg())
        .collect::<Option<Vec<i64>>>()
        .zip(row.constant.checked_neg().and_then(|c| c.checked_sub(1)));
    let Some((coeffs, constant)) = negated else {
        return false;
    };
    let mut ineqs = rows.to_vec();
    ineqs.push(Row { coeffs, constant });
    let test = System {
        n: sys.n,
        eqs: sys.eqs.clone(),
        ineqs,
    };
    matches!(solve(test, budget), Ok(None))
}

/// How many splinters the inexact elimination of a variable may try for
/// one lower bound `a·x + L >= 0`: the values `0..=(a·b_max - a - b_max) /
/// b_max` (`b_max` the largest upper coefficient, 1 when there is none),
/// as below. Saturating: only a ranking.
fn splinters_of(a: i128, b_max: i128) -> u128 {
    let top = (a * b_max - a - b_max).div_euclid(b_max);
    u128::try_from(top + 1).unwrap_or(0)
}

/// What the inequalities of a system say of one column.
#[derive(Clone, Copy)]
struct ColumnBounds {
    /// Rows with a positive coefficient (lower bounds), and the last one.
    lowers: usize,
    lower: usize,
    /// Rows with a negative coefficient (upper bounds), and the last one.
    uppers: usize,
    upper: usize,
    /// Every lower (upper) bound's coefficient is 1 (-1).
    unit_lowers: bool,
    unit_uppers: bool,
    /// The largest coefficient of an upper bound, negated (at least 1).
    b_max: i128,
}

/// [`ColumnBounds`] of every column, in one pass over the rows, row by
/// row: a pass per column would read one entry of every row each time,
/// `n` times the cache lines (about 60% of a refused `auto` on random
/// kernel r31_280 went to those passes: 9 s, now 3.5 s). Exact; cheap.
fn column_bounds(sys: &System) -> Vec<ColumnBounds> {
    let mut bounds = vec![
        ColumnBounds {
            lowers: 0,
            lower: 0,
            uppers: 0,
            upper: 0,
            unit_lowers: true,
            unit_uppers: true,
            b_max: 1,
        };
        sys.n
    ];
    for (k, r) in sys.ineqs.iter().enumerate() {
        for (b, &a) in bounds.iter_mut().zip(&r.coeffs) {
            if a > 0 {
                b.lowers += 1;
                b.lower = k;
                b.unit_lowers &= a == 1;
            } else if a < 0 {
                b.uppers += 1;
                b.upper = k;
                b.unit_uppers &= a == -1;
                b.b_max = b.b_max.max(-i128::from(a));
            }
        }
    }
    bounds
}

/// The variable to eliminate next: exact eliminations first, then fewest
/// splinters, then fewest new rows. `(exact, variable, (splinters, rows))`;
/// `None` when no variable has a lower bound. It runs at every step: the
/// bounds come counted (`bounds`, [`column_bounds`]), the splinters of
/// the inexact columns take one more pass over the rows.
fn choose_variable(sys: &System, bounds: &[ColumnBounds]) -> Option<(bool, usize, (u128, usize))> {
    let exact: Vec<bool> = bounds
        .iter()
        .enumerate()
        .map(|(j, b)| b.lowers > 0 && (b.unit_lowers || b.unit_uppers || shadows_agree(sys, j)))
        .collect();
    // An inexact elimination may try every splinter, and splinters nest
    // across variables: fewest splinters first (a tile index with
    // coefficient 32 has 31 per lower bound, `2·t` one), then fewest new
    // rows. Exact eliminations have none.
    let mut splinters = vec![0u128; sys.n];
    if bounds.iter().zip(&exact).any(|(b, &e)| b.lowers > 0 && !e) {
        for r in &sys.ineqs {
            for (j, &a) in r.coeffs.iter().enumerate() {
                if a > 0 && !exact[j] {
                    let add = splinters_of(i128::from(a), bounds[j].b_max);
                    splinters[j] = splinters[j].saturating_add(add);
                }
            }
        }
    }
    let mut choice: Option<(bool, usize, (u128, usize))> = None;
    for (j, b) in bounds.iter().enumerate() {
        if b.lowers == 0 {
            continue;
        }
        let cost = (splinters[j], b.lowers * b.uppers);
        let better = match choice {
            None => true,
            Some((e, _, c)) => (exact[j] && !e) || (exact[j] == e && cost < c),
        };
        if better {
            choice = Some((exact[j], j, cost));
        }
    }
    choice
}

/// Whether eliminating `x_j` is exact though some lower and some upper
/// bound both have a coefficient above 1: the dark shadow's row of such a
/// pair `a·x + L >= 0`, `-b·x + U >= 0` is `b·L + a·U >= (a-1)(b-1)`, and
/// where `b·L + a·U` is a constant at least `(a-1)(b-1)` (a floor's
/// defining pair, `a·x` in `a` or more consecutive integers, as
/// `2·e <= n + i <= 2·e + 1`) that row always holds; every other pair has
/// a unit coefficient, whose dark row is its real one. The real shadow
/// then implies the dark one, which implies an integer `x_j`. Exact;
/// only the pairs of non-unit bounds are read.
fn shadows_agree(sys: &System, j: usize) -> bool {
    let wide = |r: &&Row| r.coeffs[j].unsigned_abs() > 1;
    sys.ineqs
        .iter()
        .filter(|r| r.coeffs[j] > 0)
        .filter(wide)
        .all(|l| {
            sys.ineqs
                .iter()
                .filter(|u| u.coeffs[j] < 0)
                .filter(wide)
                .all(|u| {
                    let (a, b) = (i128::from(l.coeffs[j]), -i128::from(u.coeffs[j]));
                    let constant_only = l
                        .coeffs
                        .iter()
                        .zip(&u.coeffs)
                        .enumerate()
                        .all(|(k, (x, y))| k == j || b * i128::from(*x) + a * i128::from(*y) == 0);
                    let sum = b * i128::from(l.constant) + a * i128::from(u.constant);
                    constant_only && sum >= (a - 1) * (b - 1)
                })
        })
}

/// A variable of a system of inequalities that, whatever the values of
/// the others, some integer value meets all its rows: so its rows may be
/// dropped, and [`pick`] finds that value afterwards. Two kinds:
///
/// * bounded on one side only;
/// * bounded by one pair of rows `a·x + e + c₁ >= 0` and
///   `-a·x - e + c₂ >= 0` (`e` the same form of the others) with
///   `c₁ + c₂ >= a - 1`: `a·x` lies in `a` or more consecutive integers,
///   one of which is a multiple of `a` (a tile's index, `x = ⌊f / a⌋`,
///   that no other row reads). Exact.
fn free_variable(sys: &System, bounds: &[ColumnBounds]) -> Result<Option<usize>, Overflow> {
    for (j, b) in bounds.iter().enumerate() {
        if (b.lowers == 0) != (b.uppers == 0) {
            return Ok(Some(j));
        }
        if (b.lowers, b.uppers) != (1, 1) {
            continue;
        }
        let (l, u) = (&sys.ineqs[b.lower], &sys.ineqs[b.upper]);
        let a = l.coeffs[j];
        let opposite = l.coeffs.iter().zip(&u.coeffs).all(|(x, y)| *x == -*y);
        if opposite && checked_add(l.constant, u.constant)? >= a - 1 {
            return Ok(Some(j));
        }
    }
    Ok(None)
}

/// The rows that read column `j`, taken out of `rows` in their order; the
/// others stay where they were, in theirs.
fn take_rows_on(rows: &mut Vec<Row>, j: usize) -> Vec<Row> {
    rows.extract_if(.., |r| r.coeffs[j] != 0).collect()
}

/// Eliminate one variable from a system of inequalities only.
fn eliminate_inequality_var(sys: &mut System, budget: &mut Budget) -> Result<Elim, PolyError> {
    let n = sys.n;
    // A variable that some integer value always fits: drop its rows.
    let bounds = column_bounds(sys);
    if let Some(j) = free_variable(sys, &bounds)? {
        let rows = take_rows_on(&mut sys.ineqs, j);
        return Ok(Elim::Step(Recovery::Bounded { j, rows }, false));
    }
    let mut choice = choose_variable(sys, &bounds);
    if choice.is_some_and(|(_, _, (_, rows))| rows > ROW_GROWTH_LIMIT) {
        drop_implied_rows(sys, budget);
        choice = choose_variable(sys, &column_bounds(sys));
    }
    let Some((exact, j, (_, new_rows))) = choice else {
        return Ok(Elim::Decided(Some(vec![0; n])));
    };
    // The shadows' rows are built before the next step normalises them:
    // charge them now (a seidel-2d jam check's product reached gigabytes).
    budget.spend(new_rows.saturating_mul(if exact { 1 } else { 2 }))?;
    let rows = take_rows_on(&mut sys.ineqs, j);
    let rest = std::mem::take(&mut sys.ineqs);
    let lowers: Vec<&Row> = rows.iter().filter(|r| r.coeffs[j] > 0).collect();
    let uppers: Vec<&Row> = rows.iter().filter(|r| r.coeffs[j] < 0).collect();
    // Real shadow: b·L + a·U >= 0; dark shadow: b·L + a·U >= (a-1)(b-1).
    // The rows without `x_j` (`out`) and the shadow's combinations.
    let shadow = |mut out: Vec<Row>, dark: bool| -> Result<Vec<Row>, Overflow> {
        out.reserve(lowers.len() * uppers.len());
        for l in &lowers {
            for u in &uppers {
                let (a, b) = (l.coeffs[j], neg(u.coeffs[j])?);
                let mut r = lin2(b, l, a, u)?;
                r.coeffs[j] = 0;
                if dark {
                    r.constant = checked_add(r.constant, -checked_mul(a - 1, b - 1)?)?;
                }
                out.push(r);
            }
        }
        Ok(out)
    };
    if exact {
        sys.ineqs = shadow(rest, false)?;
        return Ok(Elim::Step(Recovery::Bounded { j, rows }, true));
    }
    let sub = |ineqs: Vec<Row>| System {
        n,
        eqs: Vec::new(),
        ineqs,
    };
    let all: Vec<Row> = rest.iter().chain(rows.iter()).cloned().collect();
    // A variable with few possible values: trying each is cheaper than the
    // shadows and splinters (each try fixes one variable).
    // (An overflow while propagating only means no branching.)
    if let Ok(Some((k, lo, hi))) = narrowest_range(n, &all) {
        if hi.checked_sub(lo).is_some_and(|d| d < BRANCH_LIMIT) {
            for v in lo..=hi {
                let mut fix = Row {
                    coeffs: vec![0; n],
                    constant: -v,
                };
                fix.coeffs[k] = 1;
                let branch = System {
                    n,
                    eqs: vec![fix],
                    ineqs: all.clone(),
                };
                if let Some(p) = solve(branch, budget)? {
                    return Ok(Elim::Decided(Some(p)));
                }
            }
            return Ok(Elim::Decided(None));
        }
    }
    // The real shadow first: where it is empty (most questions of a
    // legality check), so is the system, and the dark shadow (inside it)
    // need not be solved. Where it has a point, `x_j`'s least value there
    // often meets every bound (a tile index between `8c <= e <= 8c + 7`
    // always does): checked, that is a point of the system.
    let Some(mut p) = solve(sub(shadow(rest.clone(), false)?), budget)? else {
        return Ok(Elim::Decided(None));
    };
    p[j] = pick(&rows, j, &p)?;
    if meets_every_row(&rows, &p)? {
        return Ok(Elim::Decided(Some(p)));
    }
    // Then the dark shadow: every point of it extends to one of the system.
    if let Some(mut p) = solve(sub(shadow(rest.clone(), true)?), budget)? {
        p[j] = pick(&rows, j, &p)?;
        return Ok(Elim::Decided(Some(p)));
    }
    // Splinters: an integer point outside the dark shadow lies on
    // a·x_j + L = i for some lower bound and 0 <= i <= (a·b_max - a - b_max) / b_max.
    let mut b_max = 1;
    for u in &uppers {
        b_max = b_max.max(neg(u.coeffs[j])?);
    }
    for l in &lowers {
        let a = l.coeffs[j];
        let top = floor_div(
            checked_add(checked_mul(a, b_max)?, neg(checked_add(a, b_max)?)?)?,
            b_max,
        )?;
        for i in 0..=top {
            let mut eq = (*l).clone();
            eq.constant = checked_add(eq.constant, -i)?;
            let splinter = System {
                n,
                eqs: vec![eq],
                ineqs: all.clone(),
            };
            if let Some(p) = solve(splinter, budget)? {
                return Ok(Elim::Decided(Some(p)));
            }
        }
    }
    Ok(Elim::Decided(None))
}

#[cfg(test)]
mod tests {
    use super::super::{with_work_limit, Constraint};
    use super::{column_bounds, integer_sample, linear_hash, Row, System};

    /// [`column_bounds`]'s one pass over the rows against counting each
    /// column on its own, over systems of 0 to 11 rows of 5 columns with
    /// coefficients in -3..=3.
    #[test]
    fn column_bounds_counts_each_column_as_a_pass_over_it_would() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..2000 {
            let n = 5;
            let rows = usize::try_from(next(12)).unwrap_or(0);
            let ineqs: Vec<Row> = (0..rows)
                .map(|_| Row {
                    coeffs: (0..n)
                        .map(|_| i64::try_from(next(7)).unwrap_or(0) - 3)
                        .collect(),
                    constant: 0,
                })
                .collect();
            let sys = System {
                n,
                eqs: Vec::new(),
                ineqs,
            };
            for (j, b) in column_bounds(&sys).iter().enumerate() {
                let on = |pos: bool| -> Vec<usize> {
                    (0..rows)
                        .filter(|&k| {
                            (sys.ineqs[k].coeffs[j] > 0) == pos && sys.ineqs[k].coeffs[j] != 0
                        })
                        .collect()
                };
                let (lowers, uppers) = (on(true), on(false));
                assert_eq!(b.lowers, lowers.len());
                assert_eq!(b.uppers, uppers.len());
                if let (Some(&l), Some(&u)) = (lowers.last(), uppers.last()) {
                    assert_eq!((b.lower, b.upper), (l, u));
                }
                let a = |k: usize| sys.ineqs[k].coeffs[j];
                assert_eq!(b.unit_lowers, lowers.iter().all(|&k| a(k) == 1));
                assert_eq!(b.unit_uppers, uppers.iter().all(|&k| a(k) == -1));
                let b_max = uppers.iter().map(|&k| -i128::from(a(k))).max().unwrap_or(1);
                assert_eq!(b.b_max, b_max.max(1));
            }
        }
    }

    #[test]
    fn the_linear_hash_of_small_rows_has_no_collision_but_negation() {
        // Every row of six coefficients in -2..=2: 15,625 rows. With
        // multipliers in arithmetic progression, rows with the same
        // `Σ a_i·i` (and parity pattern) collided by the thousand.
        let mut seen = std::collections::HashMap::new();
        for code in 0..5i64.pow(6) {
            let row: Vec<i64> = (0..6).map(|k| (code / 5i64.pow(k)) % 5 - 2).collect();
            let h = linear_hash(&row);
            let negated: Vec<i64> = row.iter().map(|a| -a).collect();
            assert_eq!(linear_hash(&negated), h.wrapping_neg());
            if let Some(other) = seen.insert(h, row.clone()) {
                panic!("{row:?} and {other:?} share a hash");
            }
        }
    }

    #[test]
    fn each_substituted_unit_equality_is_charged_its_rows() {
        // `x_k = x_(k+1)` for k < 39, `0 <= x_k <= 9`: 39 unit equalities
        // substituted one after another into some 40 rows. Charged once
        // for all, as it was, this cost about 120 rows; each is now
        // charged the rows it rewrites.
        let n = 40;
        let mut rows = Vec::new();
        for k in 0..n {
            if k + 1 < n {
                let mut eq = vec![0; n];
                (eq[k], eq[k + 1]) = (1, -1);
                rows.push(Constraint::eq(eq, 0));
            }
            let mut lo = vec![0; n];
            lo[k] = 1;
            rows.push(Constraint::ineq(lo, 0));
            let mut hi = vec![0; n];
            hi[k] = -1;
            rows.push(Constraint::ineq(hi, 9));
        }
        let (point, spent) = with_work_limit(u64::MAX, || integer_sample(n, &rows));
        assert!(matches!(point, Ok(Some(_))), "{point:?}");
        assert!(spent > 39 * 40, "{spent}");
    }
}
