//! Symbolic affine forms of the front end, and their exact lowering to `poly`.
//!
//! C bounds are richer than one affine form: `min`, `max`, `floord`, `ceild`
//! and C's truncating `/`. They are kept symbolically and lowered exactly:
//!
//! * [`Aff`] is a linear form over *atoms*: names, output dimensions and
//!   `floor(aff / k)` (which becomes a local dimension with two constraints);
//! * [`Pw`] adds `min`, `max` and `select(cond, a, b)` (C's `/` truncates
//!   toward zero, so `e / k` is `select(e >= 0, floor(e/k), -floor(-e/k))`);
//! * [`Cond`] is a boolean combination of `aff >= 0`, `aff = 0` and
//!   `aff ≡ 0 (mod k)`; [`Cond::dnf`] turns it into a union of conjunctions.
//!
//! All coefficient arithmetic is checked and fails with [`Overflow`].

use crate::poly::{checked_add, checked_mul, Affine, BasicSet, Constraint, Overflow};

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Atom {
    /// An iterator or a parameter, by name.
    Name(String),
    /// Output dimension `k` of an access relation.
    Out(usize),
    /// `floor(aff / k)`, `k > 0`.
    Floor(Box<Aff>, i64),
}

/// `Σ coeff·atom + constant`: `poly`'s affine form over atoms.
pub type Aff = Affine<Atom>;

impl Affine<Atom> {
    /// `floor(self / k)` for `k > 0`, folded when exact.
    pub fn floor_div(&self, k: i64) -> Result<Aff, Overflow> {
        if k == 1 {
            return Ok(self.clone());
        }
        Ok(self
            .floor_div_exact_terms(k)
            .unwrap_or_else(|| Aff::var(Atom::Floor(Box::new(self.clone()), k))))
    }

    /// Every name this form mentions, floors included.
    pub fn names(&self, out: &mut Vec<String>) {
        for (a, _) in self.terms() {
            match a {
                Atom::Name(n) => out.push(n.clone()),
                Atom::Out(_) => {}
                Atom::Floor(inner, _) => inner.names(out),
            }
        }
    }
}

/// A piecewise affine value.
#[derive(Clone, Debug, PartialEq)]
pub enum Pw {
    Aff(Aff),
    Min(Vec<Pw>),
    Max(Vec<Pw>),
    Select(Box<Cond>, Box<Pw>, Box<Pw>),
}

impl Pw {
    pub fn constant(c: i64) -> Pw {
        Pw::Aff(Aff::constant(c))
    }

    pub fn as_aff(&self) -> Option<&Aff> {
        match self {
            Pw::Aff(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_constant(&self) -> Option<i64> {
        self.as_aff().and_then(Aff::as_constant)
    }

    fn map(&self, f: &impl Fn(&Aff) -> Result<Pw, Overflow>) -> Result<Pw, Overflow> {
        Ok(match self {
            Pw::Aff(a) => f(a)?,
            Pw::Min(xs) => Pw::Min(xs.iter().map(|x| x.map(f)).collect::<Result<_, _>>()?),
            Pw::Max(xs) => Pw::Max(xs.iter().map(|x| x.map(f)).collect::<Result<_, _>>()?),
            Pw::Select(c, a, b) => Pw::Select(c.clone(), Box::new(a.map(f)?), Box::new(b.map(f)?)),
        })
    }

    pub fn add(&self, other: &Pw) -> Result<Pw, Overflow> {
        match other {
            Pw::Aff(b) => self.map(&|a| Ok(Pw::Aff(a.add(b)?))),
            _ => other.map(&|b| self.add(&Pw::Aff(b.clone()))),
        }
    }

    pub fn scale(&self, k: i64) -> Result<Pw, Overflow> {
        Ok(match self {
            Pw::Aff(a) => Pw::Aff(a.scale(k)?),
            Pw::Min(xs) | Pw::Max(xs) => {
                let ys = xs.iter().map(|x| x.scale(k)).collect::<Result<_, _>>()?;
                match (self, k < 0) {
                    (Pw::Min(_), false) | (Pw::Max(_), true) => Pw::Min(ys),
                    _ => Pw::Max(ys),
                }
            }
            Pw::Select(c, a, b) => {
                Pw::Select(c.clone(), Box::new(a.scale(k)?), Box::new(b.scale(k)?))
            }
        })
    }

    /// C's `self % k` for a constant `k != 0`: `self - k·(self / k)` with
    /// the truncating `/`, so the result has the sign of `self`.
    pub fn trunc_rem(&self, k: i64) -> Result<Pw, Overflow> {
        let k = k.checked_abs().ok_or(Overflow)?;
        self.map(&|a| {
            if let Some(c) = a.as_constant() {
                return Ok(Pw::constant(c % k));
            }
            let q = Pw::Aff(a.clone()).trunc_div(k)?;
            Pw::Aff(a.clone()).add(&q.scale(-k)?)
        })
    }

    /// `floor(self / k)`, `k > 0` (monotone, so it distributes over min and max).
    pub fn floor_div(&self, k: i64) -> Result<Pw, Overflow> {
        self.map(&|a| Ok(Pw::Aff(a.floor_div(k)?)))
    }

    /// C's `self / k` for a constant `k > 0`: truncation toward zero.
    pub fn trunc_div(&self, k: i64) -> Result<Pw, Overflow> {
        self.map(&|a| {
            if let Some(c) = a.as_constant() {
                return Ok(Pw::constant(c / k));
            }
            let down = a.floor_div(k)?;
            let up = a.scale(-1)?.floor_div(k)?.scale(-1)?;
            Ok(Pw::Select(
                Box::new(Cond::Ge(a.clone())),
                Box::new(Pw::Aff(down)),
                Box::new(Pw::Aff(up)),
            ))
        })
    }

    /// The condition `self >= 0`.
    pub fn ge_zero(&self) -> Cond {
        match self {
            Pw::Aff(a) => Cond::Ge(a.clone()),
            Pw::Min(xs) => Cond::And(xs.iter().map(Pw::ge_zero).collect()),
            Pw::Max(xs) => Cond::Or(xs.iter().map(Pw::ge_zero).collect()),
            Pw::Select(c, a, b) => Cond::Or(vec![
                Cond::And(vec![(**c).clone(), a.ge_zero()]),
                Cond::And(vec![Cond::Not(c.clone()), b.ge_zero()]),
            ]),
        }
    }

    /// The condition `self = 0`.
    pub fn eq_zero(&self) -> Result<Cond, Overflow> {
        Ok(match self {
            Pw::Aff(a) => Cond::Eq(a.clone()),
            _ => Cond::And(vec![self.ge_zero(), self.scale(-1)?.ge_zero()]),
        })
    }

    /// The condition `x ≡ self (mod k)`, `k > 1`: on each piece of `self`,
    /// under the condition that selects it (for `min` and `max`, that it
    /// is the least or the greatest; where two tie, either gives the same
    /// value). The domain of a loop stepping by `k` from `self`.
    pub fn congruent(&self, x: &Aff, k: i64) -> Result<Cond, Overflow> {
        Ok(match self {
            Pw::Aff(a) => Cond::Divisible(x.add(&a.scale(-1)?)?, k),
            Pw::Select(c, a, b) => Cond::Or(vec![
                Cond::And(vec![(**c).clone(), a.congruent(x, k)?]),
                Cond::And(vec![Cond::Not(c.clone()), b.congruent(x, k)?]),
            ]),
            Pw::Min(xs) | Pw::Max(xs) => {
                let sign = if matches!(self, Pw::Max(_)) { 1 } else { -1 };
                let mut pieces = Vec::with_capacity(xs.len());
                for (i, xi) in xs.iter().enumerate() {
                    let mut conds = Vec::with_capacity(xs.len());
                    for (j, xj) in xs.iter().enumerate() {
                        if i != j {
                            // sign·(xi − xj) >= 0: xi is the extreme one.
                            conds.push(xi.add(&xj.scale(-1)?)?.scale(sign)?.ge_zero());
                        }
                    }
                    conds.push(xi.congruent(x, k)?);
                    pieces.push(Cond::And(conds));
                }
                Cond::Or(pieces)
            }
        })
    }

    /// Every affine piece, for checks such as "does every bound mention `i`".
    pub fn pieces(&self) -> Vec<&Aff> {
        match self {
            Pw::Aff(a) => vec![a],
            Pw::Min(xs) | Pw::Max(xs) => xs.iter().flat_map(Pw::pieces).collect(),
            Pw::Select(_, a, b) => a.pieces().into_iter().chain(b.pieces()).collect(),
        }
    }
}

/// A Presburger condition over names.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    True,
    False,
    /// `aff >= 0`
    Ge(Aff),
    /// `aff = 0`
    Eq(Aff),
    /// `aff ≡ 0 (mod k)`, `k > 1`
    Divisible(Aff, i64),
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Not(Box<Cond>),
}

/// One conjunction of a DNF: rows `aff >= 0`, `aff = 0` or `aff ≡ 0 mod k`.
pub type Conjunction = Vec<Cond>;

impl Cond {
    /// Disjunctive normal form: a list of conjunctions of atomic conditions.
    /// An empty list is false; a list holding an empty conjunction is true.
    /// Conjunctions that are plainly empty (two opposite bounds that cannot
    /// both hold, such as `i >= 1` and `i <= 0`) are dropped as they arise, so
    /// that an `else if` chain of `==` tests stays small; a form with more
    /// than [`MAX_DISJUNCTS`] conjunctions is an error.
    pub fn dnf(&self) -> Result<Vec<Conjunction>, DnfError> {
        self.dnf_signed(true)
    }

    fn dnf_signed(&self, positive: bool) -> Result<Vec<Conjunction>, DnfError> {
        Ok(match (self, positive) {
            (Cond::True, true) | (Cond::False, false) => vec![vec![]],
            (Cond::True, false) | (Cond::False, true) => vec![],
            (Cond::Ge(_) | Cond::Eq(_) | Cond::Divisible(..), true) => vec![vec![self.clone()]],
            // not (a >= 0)  <=>  -a - 1 >= 0
            (Cond::Ge(a), false) => vec![vec![Cond::Ge(a.scale(-1)?.add(&Aff::constant(-1))?)]],
            // not (a = 0)  <=>  a - 1 >= 0  or  -a - 1 >= 0
            (Cond::Eq(a), false) => vec![
                vec![Cond::Ge(a.add(&Aff::constant(-1))?)],
                vec![Cond::Ge(a.scale(-1)?.add(&Aff::constant(-1))?)],
            ],
            // not (a ≡ 0 mod k)  <=>  a - 1 - k·floor((a - 1)/k) in [0, k-2]  <=>  (a-r) ≡ 0, r = 1..k-1
            (Cond::Divisible(a, k), false) => {
                let mut out = Vec::new();
                for r in 1..*k {
                    out.push(vec![Cond::Divisible(a.add(&Aff::constant(-r))?, *k)]);
                }
                out
            }
            (Cond::Not(c), p) => c.dnf_signed(!p)?,
            (Cond::And(cs), true) | (Cond::Or(cs), false) => {
                let mut acc: Vec<Conjunction> = vec![vec![]];
                for c in cs {
                    let d = c.dnf_signed(positive)?;
                    if acc.len().saturating_mul(d.len()) > MAX_DISJUNCTS * MAX_DISJUNCTS {
                        return Err(DnfError::TooManyDisjuncts);
                    }
                    let mut next = Vec::new();
                    for left in &acc {
                        for right in &d {
                            let mut both = left.clone();
                            both.extend(right.iter().cloned());
                            if let Some(both) = tighten(both)? {
                                next.push(both);
                            }
                        }
                    }
                    if next.len() > MAX_DISJUNCTS {
                        return Err(DnfError::TooManyDisjuncts);
                    }
                    acc = next;
                }
                acc
            }
            (Cond::Or(cs), true) | (Cond::And(cs), false) => {
                let mut acc = Vec::new();
                for c in cs {
                    acc.extend(c.dnf_signed(positive)?);
                    if acc.len() > MAX_DISJUNCTS {
                        return Err(DnfError::TooManyDisjuncts);
                    }
                }
                acc
            }
        })
    }
}

/// Most conjunctions a condition may expand to.
pub const MAX_DISJUNCTS: usize = 4096;

/// Why a condition has no disjunctive normal form here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DnfError {
    Overflow,
    /// More than [`MAX_DISJUNCTS`] conjunctions.
    TooManyDisjuncts,
}

impl From<Overflow> for DnfError {
    fn from(_: Overflow) -> DnfError {
        DnfError::Overflow
    }
}

/// A conjunction with each `t + c >= 0` kept once, at its first place, with
/// the largest `c` replaced by the smallest (the tightest bound); `None` when
/// it is [`plainly_empty`]. The set it describes does not change.
fn tighten(conj: Vec<Cond>) -> Result<Option<Vec<Cond>>, Overflow> {
    let mut out: Vec<Cond> = Vec::with_capacity(conj.len());
    for c in conj {
        match c {
            Cond::Ge(a) if a.as_constant().is_none() => {
                let same = out
                    .iter_mut()
                    .find_map(|k| matches!(k, Cond::Ge(b) if b.same_terms(&a)).then_some(k));
                match same {
                    Some(Cond::Ge(kept)) => {
                        let tightest = kept.constant_term().min(a.constant_term());
                        *kept = kept.clone().with_constant(tightest);
                    }
                    _ => out.push(Cond::Ge(a)),
                }
            }
            other => out.push(other),
        }
    }
    Ok((!plainly_empty(&out)?).then_some(out))
}

/// Whether a conjunction is empty for a reason seen without any solving: a
/// constant row that fails, or two rows `t + a >= 0` and `-t + b >= 0` with
/// `a + b < 0` (an equality `t + c = 0` counts as both `t + c >= 0` and
/// `-t - c >= 0`). Only drops what is empty, never changes what is kept.
fn plainly_empty(conj: &[Cond]) -> Result<bool, Overflow> {
    // Each row as `terms + constant >= 0`, with `negate` for the second
    // half of an equality (`-terms - constant >= 0`).
    let mut rows: Vec<(&Aff, i64, bool)> = Vec::new();
    for c in conj {
        match c {
            Cond::Ge(a) | Cond::Eq(a) if a.as_constant().is_some() => {
                let holds = match c {
                    Cond::Ge(_) => a.constant_term() >= 0,
                    _ => a.constant_term() == 0,
                };
                if !holds {
                    return Ok(true);
                }
            }
            Cond::Ge(a) => rows.push((a, a.constant_term(), false)),
            Cond::Eq(a) => {
                rows.push((a, a.constant_term(), false));
                rows.push((a, checked_mul(a.constant_term(), -1)?, true));
            }
            _ => {}
        }
    }
    for (k, &(t1, c1, n1)) in rows.iter().enumerate() {
        for &(t2, c2, n2) in &rows[k + 1..] {
            // Opposite directions: the same terms with one row negated, or
            // opposite terms with both rows alike.
            let against = if n1 != n2 {
                t1.same_terms(t2)
            } else {
                t1.opposite_terms(t2)
            };
            if against && checked_add(c1, c2)? < 0 {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Lower one conjunction into `set`, resolving atoms with `column` (a name or
/// an output dimension to its column). Each `floor` becomes a local dimension
/// `q` with `0 <= aff - k·q <= k - 1`; a divisibility becomes `aff = k·q`.
/// Conjunctions that are trivially false (a constant row that fails) are
/// reported as `Ok(false)` and nothing is added.
pub fn lower_conjunction(
    set: &mut BasicSet,
    conj: &[Cond],
    column: &dyn Fn(&Atom) -> Option<usize>,
) -> Result<bool, LowerError> {
    let mut floors: Vec<(Atom, usize)> = Vec::new();
    for c in conj {
        let (row, is_eq) = match c {
            Cond::Ge(a) => (row_of(set, a, column, &mut floors)?, false),
            Cond::Eq(a) => (row_of(set, a, column, &mut floors)?, true),
            Cond::Divisible(a, k) => {
                let (mut coeffs, constant) = row_of(set, a, column, &mut floors)?;
                let q = set.add_local();
                coeffs.resize(set.n_cols(), 0);
                coeffs[q] = -k;
                set.add(Constraint::eq(coeffs, constant));
                continue;
            }
            _ => return Err(LowerError::NotAtomic),
        };
        let (coeffs, constant) = row;
        if coeffs.iter().all(|&v| v == 0) {
            let holds = if is_eq { constant == 0 } else { constant >= 0 };
            if !holds {
                return Ok(false);
            }
            continue;
        }
        set.add(if is_eq {
            Constraint::eq(coeffs, constant)
        } else {
            Constraint::ineq(coeffs, constant)
        });
    }
    Ok(true)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LowerError {
    Overflow,
    /// A name that has no column (a bug of the caller).
    Unknown(String),
    NotAtomic,
}

impl From<Overflow> for LowerError {
    fn from(_: Overflow) -> LowerError {
        LowerError::Overflow
    }
}

fn row_of(
    set: &mut BasicSet,
    a: &Aff,
    column: &dyn Fn(&Atom) -> Option<usize>,
    floors: &mut Vec<(Atom, usize)>,
) -> Result<(Vec<i64>, i64), LowerError> {
    let mut coeffs = vec![0i64; set.n_cols()];
    for (atom, c) in a.terms() {
        let col = match atom {
            Atom::Floor(inner, k) => match floors.iter().find(|(f, _)| f == atom) {
                Some(&(_, col)) => col,
                None => {
                    let (inner_row, inner_c) = row_of(set, inner, column, floors)?;
                    let q = set.add_local();
                    let mut lo = inner_row.clone();
                    lo.resize(set.n_cols(), 0);
                    lo[q] = -k; // inner - k q >= 0
                    let mut hi = lo
                        .iter()
                        .map(|&v| checked_mul(v, -1))
                        .collect::<Result<Vec<i64>, _>>()?;
                    set.add(Constraint::ineq(lo, inner_c));
                    // k q - inner + k - 1 >= 0
                    hi.resize(set.n_cols(), 0);
                    let neg = checked_mul(inner_c, -1)?;
                    set.add(Constraint::ineq(hi, checked_add(neg, k - 1)?));
                    floors.push((atom.clone(), q));
                    q
                }
            },
            _ => column(atom).ok_or_else(|| match atom {
                Atom::Name(n) => LowerError::Unknown(n.clone()),
                _ => LowerError::Unknown(format!("{atom:?}")),
            })?,
        };
        if coeffs.len() < set.n_cols() {
            coeffs.resize(set.n_cols(), 0);
        }
        coeffs[col] = checked_add(coeffs[col], c)?;
    }
    coeffs.resize(set.n_cols(), 0);
    Ok((coeffs, a.constant_term()))
}
