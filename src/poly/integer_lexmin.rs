//! The exact integer lexicographic minimum of `{ x ∈ ℤⁿ : x ≥ 0, rows }`,
//! by branching on the rational one ([`super::simplex`]).
//!
//! Lexicographic branching on the rational lexmin `x*`: with `i` its first
//! coordinate that is not an integer and `p` the integer prefix before it,
//! every integer point either keeps the prefix with `x_i ≥ ⌈x*_i⌉`, or
//! first exceeds it at some `k < i` with `x_k ≥ p_k + 1`. Those cases
//! partition the set's integer points, each case's before the next's in
//! lexicographic order, so the lexmin is that of the first case that holds
//! an integer point, and the search goes on in it.
//!
//! Which case that is, a probe says, each of its tests exact:
//!
//! * the case's rational relaxation: empty, the case holds no integer
//!   point; an integral lexmin is one. Each case's relaxation is its
//!   parent's, cloned and restricted by the case's rows, not solved from
//!   the start;
//! * the Omega test ([`super::omega`]) within [`QUICK_OMEGA_WORK`];
//! * depth-first branch and bound on the case's relaxation, within
//!   [`BRANCH_AND_BOUND_WORK`] (most of the cases that the Omega test
//!   gives up on are decided here in a few nodes: a fractional coordinate
//!   pinned between two consecutive integers), once for each way of
//!   choosing the coordinate to branch on ([`BRANCHINGS`]) until one
//!   decides;
//! * the Omega test within its own limit.
//!
//! Where every test gives up on a case, the case is searched the same way
//! before the next is looked at: an answer found there is the lexmin, a
//! case found empty is passed over; a search that goes deeper than
//! [`PROBE_DEPTH`] such cases, or spends more than [`SEARCH_WORK`], gives
//! up. Gomory cuts, the textbook alternative, were tried first: on three
//! variables in a box of side 8 they needed hundreds of cuts and outgrew
//! 128 bits.

use super::omega::integer_sample;
use super::simplex::{reduced_nonneg_rows, Ratio, Relaxation, STEP_LIMIT};
use super::work;
use super::{Constraint, PolyError};

/// The integer lexicographic minimum of `{ x ∈ ℤⁿ : x ≥ 0, rows }`, rows over
/// `n` columns; `None` when the set has no integer point. Exact (see the
/// module doc).
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

/// The work the integer lexmin may do in all once every test has given
/// up on a case in it (a fifth of a recipe call's budget): the rest is
/// left to what the caller does next (`auto` schedules again without the
/// recipe's context where it found nothing, and checks what it found,
/// within a reserve of its own). Of the 147 `auto` runs on random kernels
/// (seeds 33 and 34) that the integer lexmin stopped, 2 million scheduled
/// 73 where half a million scheduled 67 (a trial with branch and bound
/// first); with it, none of the 2,400 runs that were scheduled before is
/// refused. Random kernel r33_337, which a larger search once left too
/// little to check, is now scheduled under its context and checked.
const SEARCH_WORK: u64 = 2_000_000;

/// The work the Omega test is first given on a case, before branch and
/// bound is tried: the test decides most cases within it (in the refused
/// runs below, 90% of the tests that decided took under 300 thousand
/// rows, half under 20 thousand), and a test that gives up at its own
/// limit spends a million and a half. Without this first test, branch
/// and bound spent the call's budget on cases the Omega test decides at
/// once: 5 of the 2,400 runs below were refused that had been scheduled.
const QUICK_OMEGA_WORK: u64 = 200_000;

/// The work branch and bound may do on one case once the Omega test has
/// given up on it within [`QUICK_OMEGA_WORK`]. Over the 958 cases on
/// which the Omega test gave up in 142 refused `auto` runs on random
/// kernels (seeds 33 and 34), branch and bound from the case's relaxation
/// decided 86% within 2 million rows, half of them within 25 thousand.
const BRANCH_AND_BOUND_WORK: u64 = 200_000;

/// The coordinates branch and bound branches on, in the order they are
/// tried on a case, each within [`BRANCH_AND_BOUND_WORK`]. Any choice is
/// exact, and each decides cases the others do not: of the 74 systems on
/// which the integer lexmin gave up in 2,400 `auto` runs on random kernels
/// (seeds 33 and 34), without a limit on the whole, it found the lexmin
/// of 22 with the first fractional coordinate alone, of 21 with the last,
/// of 29 with the most fractional, and of 38 with the three in turn (isl
/// 61 within 10 s each, 13 not; every answer both gave is the same). In
/// the runs themselves, within a recipe call's budget, 8 more were
/// scheduled and 1 was not (r34_285 under `auto(pluto)`: the work the
/// tries spend is the search's); trying the two others only after the
/// Omega test's own limit scheduled 4 and lost 3.
const BRANCHINGS: [Branching; 3] = [Branching::First, Branching::Last, Branching::MostFractional];

/// Which fractional coordinate of a relaxation's lexmin branch and bound
/// branches on.
#[derive(Clone, Copy, Debug)]
enum Branching {
    First,
    Last,
    /// The one whose fractional part is nearest a half (the first of
    /// those; a comparison that overflows counts as farther).
    MostFractional,
}

impl Branching {
    /// The coordinate of `x` to branch on; `None` when `x` is integral.
    fn pick(self, x: &[Ratio]) -> Option<usize> {
        match self {
            Branching::First => first_fraction(x),
            Branching::Last => x.iter().rposition(|v| v.as_integer().is_none()),
            Branching::MostFractional => {
                // The distance of `num / den`'s fractional part `r / den`
                // from a half is `|2r − den| / 2den`: compared as `a / b`.
                let mut best: Option<(usize, i128, i128)> = None;
                for (k, v) in x.iter().enumerate() {
                    let r = v.num.rem_euclid(v.den);
                    if r == 0 {
                        continue;
                    }
                    let Some(a) = r.checked_mul(2).and_then(|t| t.checked_sub(v.den)) else {
                        continue;
                    };
                    let (a, b) = (a.abs(), v.den);
                    let nearer = best.is_none_or(|(_, c, d)| {
                        matches!((a.checked_mul(d), c.checked_mul(b)), (Some(l), Some(r)) if l < r)
                    });
                    if nearer {
                        best = Some((k, a, b));
                    }
                }
                best.map(|(k, _, _)| k).or_else(|| first_fraction(x))
            }
        }
    }
}

/// [`integer_lexmin_nonneg`] of the rows `base` and `more`. Exact for any
/// rows; rows through [`reduced_nonneg_rows`] only save work. `base` is
/// never copied: each branch adds its rows to `more`'s.
pub fn integer_lexmin_of_reduced(
    n: usize,
    base: &[Constraint],
    more: &[Constraint],
) -> Result<Option<Vec<i64>>, PolyError> {
    LexminSearch::new(n, base, None, BRANCH_AND_BOUND_WORK, PROBE_DEPTH).lexmin_in_case(
        Case::new(n, base, more),
        false,
        0,
    )
}

/// One case of the branching: its rows besides the base (for the Omega
/// test) and its rational relaxation (all its rows).
#[derive(Clone)]
struct Case<'a> {
    rows: Vec<Constraint>,
    relaxation: Relaxation<'a>,
}

impl<'a> Case<'a> {
    fn new(n: usize, base: &'a [Constraint], more: &'a [Constraint]) -> Case<'a> {
        Case {
            rows: more.to_vec(),
            relaxation: Relaxation::new(n, base.iter().chain(more)),
        }
    }

    /// The case with `more` rows too.
    fn restricted(&self, more: Vec<Constraint>) -> Result<Case<'a>, PolyError> {
        let mut case = self.clone();
        for row in &more {
            case.relaxation.restrict(row)?;
        }
        case.rows.extend(more);
        Ok(case)
    }
}

/// One integer lexmin's branching (see the module doc).
struct LexminSearch<'a> {
    n: usize,
    base: &'a [Constraint],
    /// Rational minimisations so far.
    steps: usize,
    /// The work each Omega test is given: its own limit until one gives
    /// up, then [`PROBE_WORK`].
    probe_work: Option<u64>,
    /// The work branch and bound is given on each case.
    branching_work: u64,
    /// The work left to the search once a test has given up in it
    /// ([`SEARCH_WORK`]); `None` before.
    search_left: Option<u64>,
    /// The most cases searched inside one another without knowing that
    /// they hold an integer point.
    max_depth: usize,
}

impl<'a> LexminSearch<'a> {
    /// A search whose Omega tests get `probe_work` rows each (`None`: the
    /// test's own limit, until one gives up) and branch and bound
    /// `branching_work`, at most `max_depth` cases deep.
    fn new(
        n: usize,
        base: &'a [Constraint],
        probe_work: Option<u64>,
        branching_work: u64,
        max_depth: usize,
    ) -> LexminSearch<'a> {
        LexminSearch {
            n,
            base,
            steps: 0,
            probe_work,
            branching_work,
            search_left: None,
            max_depth,
        }
    }

    /// The integer lexmin of `case`; `holds` when it is known to hold an
    /// integer point, `depth` cases searched around it without that
    /// knowledge.
    fn lexmin_in_case(
        &mut self,
        mut case: Case<'a>,
        mut holds: bool,
        depth: usize,
    ) -> Result<Option<Vec<i64>>, PolyError> {
        let n = self.n;
        'case: loop {
            self.steps += 1;
            if self.steps > STEP_LIMIT {
                return Err(PolyError::StepLimit("integer lexmin"));
            }
            let Some(x) = self.metered(|| case.relaxation.lexmin())? else {
                if holds {
                    return Err(PolyError::Unsupported(
                        "a set with integer points and no rational lexmin",
                    ));
                }
                return Ok(None);
            };
            let Some(i) = first_fraction(&x) else {
                return x
                    .iter()
                    .map(|v| i64::try_from(v.num).map_err(|_| PolyError::Overflow))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Some);
            };
            // Asked only once the rational lexmin turns out not to be
            // integral (an integral rational lexmin is the integer one).
            if !holds {
                match self.probe(&case)? {
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
                let mut rows = Vec::with_capacity(2 * k + 1);
                for (j, &v) in prefix[..k].iter().enumerate() {
                    rows.push(Constraint::eq(
                        unit(n, j, 1),
                        v.checked_neg().ok_or(PolyError::Overflow)?,
                    ));
                }
                let at_least = at_least.ok_or(PolyError::Overflow)?;
                rows.push(Constraint::ineq(
                    unit(n, k, 1),
                    at_least.checked_neg().ok_or(PolyError::Overflow)?,
                ));
                let mut branch = case.restricted(rows)?;
                match self.probe_branch(&mut branch)? {
                    Some(true) => {
                        case = branch;
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

    /// Does the branch hold an integer point? Its relaxation first (empty:
    /// no; an integral lexmin: yes), then [`LexminSearch::probe`].
    fn probe_branch(&mut self, branch: &mut Case<'a>) -> Result<Option<bool>, PolyError> {
        match self.metered(|| branch.relaxation.lexmin())? {
            None => Ok(Some(false)),
            Some(x) if first_fraction(&x).is_none() => Ok(Some(true)),
            Some(_) => self.probe(branch),
        }
    }

    /// Does `case` hold an integer point? Exact: the Omega test within
    /// [`QUICK_OMEGA_WORK`], branch and bound within its share, then the
    /// Omega test within its own limit (until a test has given up: after
    /// that, within [`PROBE_WORK`] once). `None` where all give up.
    fn probe(&mut self, case: &Case<'a>) -> Result<Option<bool>, PolyError> {
        let (n, base, more) = (self.n, self.base, case.rows.as_slice());
        let quick = self
            .probe_work
            .map_or(QUICK_OMEGA_WORK, |w| w.min(QUICK_OMEGA_WORK));
        if let Some(answer) =
            self.decided(|| work::with_work_limit(quick, || has_integer_point(n, base, more)).0)?
        {
            return Ok(Some(answer));
        }
        let branching_work = self.branching_work;
        for branching in BRANCHINGS {
            if let Some(answer) = self.decided(|| {
                work::with_work_limit(branching_work, || {
                    has_integer_point_by_branching(n, case, branching)
                })
                .0
            })? {
                return Ok(Some(answer));
            }
        }
        if self.probe_work.is_none() {
            if let Some(answer) = self.decided(|| has_integer_point(n, base, more))? {
                return Ok(Some(answer));
            }
        }
        self.probe_work = Some(self.probe_work.map_or(PROBE_WORK, |w| w.min(PROBE_WORK)));
        self.search_left = self.search_left.or(Some(SEARCH_WORK));
        Ok(None)
    }

    /// The answer of `test`, metered; `None` where it gives up at a step
    /// limit, an error where the search's own work is spent.
    fn decided(
        &mut self,
        test: impl FnOnce() -> Result<bool, PolyError>,
    ) -> Result<Option<bool>, PolyError> {
        match self.metered(test) {
            Ok(answer) => Ok(Some(answer)),
            Err(PolyError::StepLimit(_)) if self.search_left == Some(0) => {
                Err(PolyError::StepLimit("integer lexmin"))
            }
            Err(PolyError::StepLimit(_)) => Ok(None),
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

/// The first coordinate of `x` that is not an integer.
fn first_fraction(x: &[Ratio]) -> Option<usize> {
    x.iter().position(|v| v.as_integer().is_none())
}

/// `a · e_k` over `n` columns.
fn unit(n: usize, k: usize, a: i64) -> Vec<i64> {
    let mut coeffs = vec![0; n];
    coeffs[k] = a;
    coeffs
}

/// Does `case` hold an integer point? Exact: depth-first branch and bound
/// on its relaxation, on the coordinate `branching` picks, the lesser
/// side first. It ends where the set is bounded; elsewhere the work limit
/// of the caller's scope ends it (each node that branches pivots at least
/// once: its bound cuts off its parent's point).
fn has_integer_point_by_branching(
    n: usize,
    case: &Case,
    branching: Branching,
) -> Result<bool, PolyError> {
    let mut nodes = vec![case.relaxation.clone()];
    while let Some(mut node) = nodes.pop() {
        let Some(x) = node.lexmin()? else {
            continue;
        };
        let Some(i) = branching.pick(&x) else {
            return Ok(true);
        };
        let floor =
            i64::try_from(x[i].num.div_euclid(x[i].den)).map_err(|_| PolyError::Overflow)?;
        let mut above = node.clone();
        above.restrict(&Constraint::ineq(
            unit(n, i, 1),
            floor
                .checked_add(1)
                .and_then(i64::checked_neg)
                .ok_or(PolyError::Overflow)?,
        ))?;
        node.restrict(&Constraint::ineq(unit(n, i, -1), floor))?;
        nodes.push(above);
        nodes.push(node);
    }
    Ok(false)
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
        all.push(Constraint::ineq(unit(n, k, 1), 0));
    }
    Ok(integer_sample(n, &all)?.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::simplex::rational_lexmin_nonneg;
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
    fn the_integer_lexmin_of_a_triangle_rounds_its_last_coordinate_up() {
        // 2x + 2y - 3 >= 0: the rational lexmin is (0, 3/2).
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
    fn an_empty_set_has_no_integer_lexmin() {
        let rows = [ineq(&[1, 1], -5), ineq(&[-1, -1], 4)];
        assert_eq!(integer_lexmin_nonneg(2, &rows).unwrap(), None);
    }

    #[test]
    fn equalities_hold_at_the_lexmin() {
        // x0 = 2 x1 + 1, x1 >= 2: (5, 2).
        let rows = [Constraint::eq(vec![1, -2], -1), ineq(&[0, 1], -2)];
        assert_eq!(integer_lexmin_nonneg(2, &rows).unwrap(), Some(vec![5, 2]));
    }

    /// `x ≤ bound` in each of `n` coordinates, and one to four random
    /// rows (one in six an equality).
    fn random_rows_in_a_box(rng: &mut Lcg, n: usize, bound: i64) -> Vec<Constraint> {
        let mut rows: Vec<Constraint> = (0..n).map(|k| ineq(&unit(n, k, -1), bound)).collect();
        for _ in 0..1 + rng.next(4) {
            let coeffs: Vec<i64> = (0..n).map(|_| rng.next(11) - 5).collect();
            let constant = rng.next(31) - 15;
            if rng.next(6) == 0 {
                rows.push(Constraint::eq(coeffs, constant));
            } else {
                rows.push(ineq(&coeffs, constant));
            }
        }
        rows
    }

    /// Branch and bound alone decides a set the way enumeration does,
    /// whichever coordinate it branches on.
    #[test]
    fn branch_and_bound_agrees_with_enumeration() {
        let mut rng = Lcg(23);
        let bound = 6;
        for case in 0..2000 {
            let n = 1 + rng.next(4) as usize;
            let rows = random_rows_in_a_box(&mut rng, n, bound);
            let whole = Case::new(n, &[], &rows);
            let expected = brute_force(n, &rows, bound).is_some();
            for branching in BRANCHINGS {
                let got = has_integer_point_by_branching(n, &whole, branching)
                    .unwrap_or_else(|e| panic!("case {case}, {branching:?}: {e}: {rows:?}"));
                assert_eq!(got, expected, "case {case}, {branching:?}: {rows:?}");
            }
        }
    }

    /// Each branching picks a fractional coordinate, and none of an
    /// integral point.
    #[test]
    fn branchings_pick_fractional_coordinates() {
        let r = |num, den| Ratio { num, den };
        let x = [r(1, 1), r(1, 3), r(4, 1), r(5, 2), r(7, 4), r(2, 1)];
        assert_eq!(Branching::First.pick(&x), Some(1));
        assert_eq!(Branching::Last.pick(&x), Some(4));
        assert_eq!(Branching::MostFractional.pick(&x), Some(3));
        let integral = [r(0, 1), r(3, 1)];
        for branching in BRANCHINGS {
            assert_eq!(branching.pick(&integral), None);
        }
    }

    /// Branch and bound on a set unbounded above gives up at the work
    /// limit of its scope; it never loops.
    #[test]
    fn branch_and_bound_on_an_unbounded_set_stops_at_its_work_limit() {
        // 3x - 3y = 1 has no integer point, and x, y are unbounded.
        let rows = [Constraint::eq(vec![3, -3], -1)];
        let whole = Case::new(2, &[], &rows);
        let (out, spent) = work::with_work_limit(10_000, || {
            has_integer_point_by_branching(2, &whole, Branching::First)
        });
        assert!(matches!(out, Err(PolyError::StepLimit(_))), "{out:?}");
        assert_eq!(spent, 10_000);
        // The whole search decides it: the Omega test reads the equality.
        assert_eq!(integer_lexmin_nonneg(2, &rows).unwrap(), None);
    }

    #[test]
    fn the_integer_lexmin_agrees_with_enumeration_on_random_sets() {
        let mut rng = Lcg(7);
        let bound = 7;
        for case in 0..3000 {
            let n = 1 + rng.next(4) as usize;
            let mut rows = random_rows_in_a_box(&mut rng, n, bound);
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
            // With every Omega test giving up (and branch and bound given
            // no work: only what needs no pivot), the branching searches
            // each case in turn, no deeper than the box's sides add up to
            // (twice that allowed): the same lexmin.
            let searched = LexminSearch::new(n, &[], Some(0), 0, 4 * 2 * bound as usize)
                .lexmin_in_case(Case::new(n, &[], &rows), false, 0)
                .unwrap_or_else(|e| panic!("case {case}, searched: {e}: {rows:?}"));
            assert_eq!(searched, expected, "case {case}, searched: {rows:?}");
            // With the Omega test giving up and branch and bound deciding
            // every case: the same lexmin.
            let branched = LexminSearch::new(n, &[], Some(0), u64::MAX, 0)
                .lexmin_in_case(Case::new(n, &[], &rows), false, 0)
                .unwrap_or_else(|e| panic!("case {case}, branched: {e}: {rows:?}"));
            assert_eq!(branched, expected, "case {case}, branched: {rows:?}");
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
