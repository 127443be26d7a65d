//! `poly` against brute force: random small sets and relations (1–4 columns
//! of parameters and dimensions, coefficients in −3..3, inside a box, some
//! with a local), and for each operation the answer agrees point by point
//! with enumeration of the box. `POLYC_ORACLE_CASES=N` runs N cases per
//! operation instead of the default 2,000.

use crate::common;

use common::holds;
use polyc::poly::{
    with_work_limit, BasicMap, BasicSet, Constraint, LexOpt, Map, Set, Space, Tuple,
};

/// Box of every column: parameters and dimensions lie in `-B..=B`.
const B: i64 = 3;

fn cases() -> usize {
    std::env::var("POLYC_ORACLE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000)
}

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

fn names(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|k| format!("{prefix}{k}")).collect()
}

/// Box rows for columns `cols` of an `n`-column row.
fn box_rows(cols: std::ops::Range<usize>, n: usize, bound: i64) -> Vec<Constraint> {
    let mut rows = Vec::new();
    for k in cols {
        let mut lo = vec![0; n];
        lo[k] = 1;
        rows.push(Constraint::ineq(lo, bound));
        let mut hi = vec![0; n];
        hi[k] = -1;
        rows.push(Constraint::ineq(hi, bound));
    }
    rows
}

/// Random rows over `n` columns: mostly inequalities, sometimes an equality.
fn random_rows(rng: &mut Rng, n: usize, count: usize) -> Vec<Constraint> {
    (0..count)
        .map(|_| {
            let coeffs: Vec<i64> = (0..n).map(|_| rng.range(-3, 3)).collect();
            let c = rng.range(-4, 4);
            if rng.chance(15) {
                Constraint::eq(coeffs, c)
            } else {
                Constraint::ineq(coeffs, c)
            }
        })
        .collect()
}

/// A random boxed set with `np` parameters and `nd` dimensions. With
/// `locals`, it may have an integer division local (`floor(e / k)`) or an
/// arbitrary boxed existential.
fn random_set(rng: &mut Rng, np: usize, nd: usize, locals: bool) -> BasicSet {
    let space = Space::set(names("p", np), Some("S".into()), names("x", nd));
    let nv = np + nd;
    let n_local = if locals && rng.chance(40) { 1 } else { 0 };
    let n = nv + n_local;
    let mut rows = box_rows(0..nv, n, B);
    let count = rng.range(1, 4) as usize;
    rows.extend(random_rows(rng, n, count));
    if n_local == 1 {
        if rng.chance(50) {
            // q = floor(e / k): e - k q >= 0 and k q - e + k - 1 >= 0.
            let k = rng.range(2, 3);
            let mut e: Vec<i64> = (0..nv).map(|_| rng.range(-2, 2)).collect();
            let c = rng.range(-2, 2);
            e.push(-k);
            rows.push(Constraint::ineq(e.clone(), c));
            rows.push(Constraint::ineq(e.iter().map(|v| -v).collect(), -c + k - 1));
        } else {
            rows.extend(box_rows(nv..n, n, B));
        }
    }
    BasicSet::from_parts(space, n_local, rows)
}

/// Every point of the box over `n` columns.
fn points(n: usize) -> Vec<Vec<i64>> {
    let mut all = vec![vec![]];
    for _ in 0..n {
        all = all
            .into_iter()
            .flat_map(|p| {
                (-B..=B).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
    }
    all
}

/// Membership decided by the library: fix every column, ask for emptiness.
fn contains(s: &BasicSet, p: &[i64]) -> bool {
    let n = s.n_cols();
    let mut fixed = s.clone();
    for (k, v) in p.iter().enumerate() {
        let mut row = vec![0; n];
        row[k] = 1;
        fixed.add(Constraint::eq(row, -v));
    }
    !fixed.is_empty().expect("no overflow on small sets")
}

fn brute(s: &BasicSet) -> Vec<Vec<i64>> {
    points(s.space().n_dim_total())
        .into_iter()
        .filter(|p| holds(s, p))
        .collect()
}

fn dims(rng: &mut Rng) -> (usize, usize) {
    let total = rng.range(1, 4) as usize;
    let np = (rng.range(0, 2) as usize).min(total - 1);
    (np, total - np)
}

#[test]
fn emptiness_and_sample_agree_with_enumeration() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut nonempty = 0;
    for _ in 0..cases() {
        let (np, nd) = dims(&mut rng);
        let s = random_set(&mut rng, np, nd, true);
        let truth = brute(&s);
        let sample = s.sample().expect("no overflow");
        match &sample {
            Some(p) => assert!(holds(&s, p), "sample {p:?} not in {s}"),
            None => assert!(
                truth.is_empty(),
                "{s} has {:?} but was found empty",
                truth[0]
            ),
        }
        assert_eq!(s.is_empty().expect("no overflow"), truth.is_empty(), "{s}");
        nonempty += usize::from(!truth.is_empty());
    }
    assert!(
        nonempty > cases() / 5,
        "too few non-empty cases ({nonempty}) to mean anything"
    );
}

/// `s`'s sample lies in it, and it is empty exactly when enumeration
/// finds no point: whether it is empty.
fn sample_and_emptiness_agree_with_enumeration(s: &BasicSet) -> bool {
    let truth = brute(s);
    match s.sample().expect("no overflow") {
        Some(p) => assert!(holds(s, &p), "sample {p:?} not in {s}"),
        None => assert!(
            truth.is_empty(),
            "{s} has {:?} but was found empty",
            truth[0]
        ),
    }
    assert_eq!(s.is_empty().expect("no overflow"), truth.is_empty(), "{s}");
    truth.is_empty()
}

/// A local `q` that only one pair of rows reads, `a·q <= e <= a·q + g`
/// (a tile's index when `g = a - 1`), with `g` on both sides of `a - 1`:
/// the Omega test drops such a pair unsolved only where some integer `q`
/// always fits (`g >= a - 1`), and must decide the narrower ones.
#[test]
fn tile_index_pairs_agree_with_enumeration() {
    floor_pairs_agree_with_enumeration(0x51_7CC1_B727_220A, |rng| {
        let a = rng.range(2, 8);
        (a, rng.range(0, a), rng.range(0, 3) as usize, 0)
    });
}

/// A floor's local `q`, `a·q <= e <= a·q + g`, that other rows read too,
/// as a loop bound `j < floord(n + i, 2)` reads it: unit rows
/// `q >= f + c`, `q <= f + c`, which the Omega test eliminates exactly
/// with the pair when `g >= a - 1` (the dark shadow is the real one), and
/// sometimes a row `±2·q`, which makes it decide otherwise. Every
/// answer agrees with enumeration.
#[test]
fn floor_pairs_that_other_rows_read_agree_with_enumeration() {
    floor_pairs_agree_with_enumeration(0x0F10_0D5E_ED00_1234, |rng| {
        let a = rng.range(2, 5);
        (a, rng.range(a - 2, a + 1), 0, rng.range(1, 3) as usize)
    });
}

/// Sets with a local `q` between the pair `a·q <= e <= a·q + g`, plus
/// `others` random rows that do not read `q` and `readers` that do (with
/// a coefficient ±1, sometimes ±2), `(a, g, others, readers)` drawn by
/// `draw`: each answer agrees with enumeration, and enough of them are
/// empty and enough not.
fn floor_pairs_agree_with_enumeration(
    seed: u64,
    draw: impl Fn(&mut Rng) -> (i64, i64, usize, usize),
) {
    let mut rng = Rng(seed);
    let (mut empty, mut nonempty) = (0, 0);
    for _ in 0..cases() {
        let (np, nd) = dims(&mut rng);
        let space = Space::set(names("p", np), Some("S".into()), names("x", nd));
        let nv = np + nd;
        let n = nv + 1;
        let mut rows = box_rows(0..nv, n, B);
        let (a, g, others, readers) = draw(&mut rng);
        for mut r in random_rows(&mut rng, nv, others) {
            r.coeffs.push(0);
            rows.push(r);
        }
        let mut e: Vec<i64> = (0..nv).map(|_| rng.range(-3, 3)).collect();
        let c = rng.range(-4, 4);
        e.push(-a);
        rows.push(Constraint::ineq(e.clone(), c));
        rows.push(Constraint::ineq(e.iter().map(|v| -v).collect(), g - c));
        for _ in 0..readers {
            let mut r: Vec<i64> = (0..nv).map(|_| rng.range(-2, 2)).collect();
            let q = match rng.range(0, 9) {
                0 => 2,
                1 => -2,
                k if k % 2 == 0 => 1,
                _ => -1,
            };
            r.push(q);
            rows.push(Constraint::ineq(r, rng.range(-3, 3)));
        }
        let s = BasicSet::from_parts(space, 1, rows);
        if sample_and_emptiness_agree_with_enumeration(&s) {
            empty += 1;
        } else {
            nonempty += 1;
        }
    }
    assert!(
        empty > cases() / 20 && nonempty > cases() / 5,
        "too one-sided to mean anything: {empty} empty, {nonempty} not"
    );
}

#[test]
fn classic_traps() {
    // { [x] : 1 <= 3x <= 2 } is empty.
    let s = BasicSet::from_parts(
        Space::set(vec![], None, vec!["x".into()]),
        0,
        vec![Constraint::ineq(vec![3], -1), Constraint::ineq(vec![-3], 2)],
    );
    assert!(s.is_empty().expect("decided"));
    // { [i, j] : i = 2j } projected onto i is the even numbers.
    let m = BasicSet::from_parts(
        Space::set(vec![], None, vec!["i".into(), "j".into()]),
        0,
        vec![Constraint::eq(vec![1, -2], 0)],
    );
    let even = m.project_out(1, 1);
    for i in -6..=6 {
        assert_eq!(contains(&even, &[i]), i % 2 == 0, "i = {i} in {even}");
    }
    // Unbounded in a direction no single constraint shows: 1 <= 3x - 3y <= 2 is empty.
    let s = BasicSet::from_parts(
        Space::set(vec![], None, vec!["x".into(), "y".into()]),
        0,
        vec![
            Constraint::ineq(vec![3, -3], -1),
            Constraint::ineq(vec![-3, 3], 2),
        ],
    );
    assert!(s.is_empty().expect("decided"));
    // A thin but non-empty unbounded set: 2 <= 3x - 2y <= 2.
    let s = BasicSet::from_parts(
        Space::set(vec![], None, vec!["x".into(), "y".into()]),
        0,
        vec![
            Constraint::ineq(vec![3, -2], -2),
            Constraint::ineq(vec![-3, 2], 2),
            Constraint::ineq(vec![1, 0], -5),
        ],
    );
    let p = s.sample().expect("decided").expect("non-empty");
    assert_eq!(3 * p[0] - 2 * p[1], 2);
    assert!(p[0] >= 5);
    assert_eq!(s.lexmin().expect("decided"), LexOpt::Point(vec![6, 8]));
    assert_eq!(s.lexmax().expect("decided"), LexOpt::Unbounded);
}

#[test]
fn lexmin_and_lexmax_agree_with_enumeration() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for _ in 0..cases() {
        let (np, nd) = dims(&mut rng);
        let s = random_set(&mut rng, np, nd, true);
        let truth = brute(&s);
        let (min, max) = (truth.iter().min().cloned(), truth.iter().max().cloned());
        let expect = |v: Option<Vec<i64>>| v.map_or(LexOpt::Empty, LexOpt::Point);
        assert_eq!(
            s.lexmin().expect("no overflow"),
            expect(min),
            "lexmin of {s}"
        );
        assert_eq!(
            s.lexmax().expect("no overflow"),
            expect(max),
            "lexmax of {s}"
        );
    }
}

#[test]
fn intersect_subtract_complement_agree_with_enumeration() {
    let mut rng = Rng(0x94D0_49BB_1331_11EB);
    for _ in 0..cases() {
        let (np, nd) = dims(&mut rng);
        let a = random_set(&mut rng, np, nd, true);
        let b = random_set(&mut rng, np, nd, true);
        let (sa, sb) = (Set::from_basic(a.clone()), Set::from_basic(b.clone()));
        let inter = sa.intersect(&sb).expect("same space");
        let diff = sa.subtract(&sb).expect("one local is always rewritable");
        let comp = sb.complement().expect("one local is always rewritable");
        for p in points(np + nd) {
            let (in_a, in_b) = (holds(&a, &p), holds(&b, &p));
            let hold = |s: &Set| s.basics().iter().any(|x| holds(x, &p));
            assert_eq!(hold(&inter), in_a && in_b, "{p:?}: {a} ∩ {b} = {inter}");
            assert_eq!(hold(&diff), in_a && !in_b, "{p:?}: {a} − {b} = {diff}");
            assert_eq!(hold(&comp), !in_b, "{p:?}: complement of {b} = {comp}");
        }
        // Identities: s − s is empty; ⊆ agrees with enumeration.
        assert!(
            sa.subtract(&sa)
                .and_then(|d| d.is_empty())
                .expect("decided"),
            "{a} − {a} is not empty"
        );
        let subset = brute(&a).iter().all(|p| holds(&b, p));
        assert_eq!(sa.is_subset(&sb).expect("decided"), subset, "{a} ⊆ {b}");
    }
}

#[test]
fn dropping_covered_disjuncts_keeps_the_points_and_drops_every_covered_one() {
    let mut rng = Rng(0x6A09_E667_F3BC_C908);
    for _ in 0..cases() / 2 {
        let (np, nd) = dims(&mut rng);
        let a = random_set(&mut rng, np, nd, false);
        let b = random_set(&mut rng, np, nd, false);
        let c = random_set(&mut rng, np, nd, false);
        let inside_a = a.intersect(&c).expect("same space");
        // A duplicate, a subset and two that may overlap.
        let mut union = Set::from_basic(a.clone());
        for x in [&b, &inside_a, &a, &c] {
            union.push(x.clone());
        }
        let kept = union.without_covered_disjuncts();
        assert!(kept.basics().len() <= 3, "{union} kept {kept}");
        for p in points(np + nd) {
            let hold = |s: &Set| s.basics().iter().any(|x| holds(x, &p));
            assert_eq!(hold(&kept), hold(&union), "{p:?}: {union} kept {kept}");
        }
        for (i, x) in kept.basics().iter().enumerate() {
            for (j, y) in kept.basics().iter().enumerate() {
                let covered = brute(x).iter().all(|p| holds(y, p));
                assert!(i == j || !covered, "{x} ⊆ {y}, both kept of {union}");
            }
        }
    }
}

#[test]
fn complement_then_union_is_the_universe() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for _ in 0..cases() / 4 {
        let (np, nd) = dims(&mut rng);
        let s = Set::from_basic(random_set(&mut rng, np, nd, false));
        let universe = Set::from_basic(BasicSet::universe(s.space().clone()));
        let whole = s
            .union(&universe.subtract(&s).expect("no locals"))
            .expect("same space");
        assert!(
            universe.is_subset(&whole).expect("no locals"),
            "s ∪ (U − s) ≠ U for {s}"
        );
    }
}

#[test]
fn projection_agrees_with_enumeration() {
    let mut rng = Rng(0xBF58_476D_1CE4_E5B9);
    for _ in 0..cases() {
        let (np, nd) = dims(&mut rng);
        if nd < 2 {
            continue;
        }
        let s = random_set(&mut rng, np, nd, true);
        let first = rng.range(0, nd as i64 - 1) as usize;
        let count = rng.range(1, (nd - first) as i64) as usize;
        let proj = s.project_out(first, count);
        let truth = brute(&s);
        for p in points(np + nd - count) {
            let expected = truth.iter().any(|q| {
                let mut kept = q[..np + first].to_vec();
                kept.extend_from_slice(&q[np + first + count..]);
                kept == p
            });
            assert_eq!(
                contains(&proj, &p),
                expected,
                "{p:?} in projection {proj} of {s}"
            );
        }
    }
}

/// Sets whose existential is not a division (a projection of a random set
/// with non-unit coefficients) are complemented exactly: the local is
/// rewritten as integer divisions first.
#[test]
fn complement_of_projections_agrees_with_enumeration() {
    let mut rng = Rng(0x6A09_E667_F3BC_C908);
    for _ in 0..cases() {
        let (np, nd) = dims(&mut rng);
        // One projected dimension and at most four columns in all: the cost
        // of complementing grows exponentially with the existentials.
        let nd = nd.min(3 - np.min(2));
        let s = random_set(&mut rng, np, nd + 1, false);
        let first = rng.range(0, nd as i64) as usize;
        let proj = Set::from_basic(s.project_out(first, 1));
        let comp = proj
            .complement()
            .expect("one existential is always rewritable");
        for p in points(np + nd) {
            let inside = proj.basics().iter().any(|b| contains(b, &p));
            let outside = comp.basics().iter().any(|b| holds(b, &p));
            assert_eq!(outside, !inside, "{p:?}: complement of {proj} = {comp}");
        }
    }
}

fn random_map(rng: &mut Rng, np: usize, ni: usize, no: usize) -> BasicMap {
    let space = Space::map(
        names("p", np),
        Tuple::new(Some("A".into()), names("i", ni)),
        Tuple::new(Some("B".into()), names("o", no)),
    );
    let n = np + ni + no;
    let mut rows = box_rows(0..n, n, B);
    let count = rng.range(1, 3) as usize;
    rows.extend(random_rows(rng, n, count));
    BasicMap::from_columns(space, 0, rows)
}

#[test]
fn relations_agree_with_enumeration() {
    let mut rng = Rng(0x94D0_49BB_1331_11EB ^ 0xFF);
    for _ in 0..cases() {
        let np = rng.range(0, 1) as usize;
        let (ni, no) = (rng.range(1, 2) as usize, rng.range(1, 2) as usize);
        let m = random_map(&mut rng, np, ni, no);
        let s = random_set(&mut rng, np, ni, false);
        let s = BasicSet::from_parts(
            Space::set(names("p", np), Some("A".into()), names("i", ni)),
            s.n_local(),
            s.constraints().to_vec(),
        );
        let pairs: Vec<Vec<i64>> = points(np + ni + no)
            .into_iter()
            .filter(|p| {
                let flat = BasicSet::from_parts(
                    Space::set(vec![], None, names("c", p.len())),
                    0,
                    m.constraints().to_vec(),
                );
                holds(&flat, p)
            })
            .collect();
        let image = m.apply(&s).expect("same space");
        let domain = m.domain();
        let range = m.range();
        let rev = m.reverse();
        for p in points(np + no) {
            let expected = pairs
                .iter()
                .any(|q| q[..np] == p[..np] && q[np + ni..] == p[np..] && holds(&s, &q[..np + ni]));
            assert_eq!(
                contains(&image, &p),
                expected,
                "{p:?} in image {image} of {s} under {m}"
            );
            let in_range = pairs
                .iter()
                .any(|q| q[..np] == p[..np] && q[np + ni..] == p[np..]);
            assert_eq!(
                contains(&range, &p),
                in_range,
                "{p:?} in range {range} of {m}"
            );
        }
        for p in points(np + ni) {
            let in_domain = pairs.iter().any(|q| q[..np + ni] == p[..]);
            assert_eq!(
                contains(&domain, &p),
                in_domain,
                "{p:?} in domain {domain} of {m}"
            );
        }
        // reverse(m) holds (out, in) iff m holds (in, out); its domain is m's range.
        let rev_domain = rev.domain();
        for p in points(np + no) {
            assert_eq!(contains(&rev_domain, &p), contains(&range, &p));
        }
        // apply(reverse(m), apply(m, s)) ⊇ s ∩ dom(m).
        let back = rev.apply(&image).expect("same space");
        for p in points(np + ni) {
            if holds(&s, &p) && pairs.iter().any(|q| q[..np + ni] == p[..]) {
                assert!(
                    contains(&back, &p),
                    "{p:?} lost by apply(reverse(m), apply(m, s))"
                );
            }
        }
    }
}

#[test]
fn simplifications_keep_the_set() {
    let mut rng = Rng(0x6A09_E667_F3BC_C908);
    for _ in 0..cases() {
        let (np, nd) = dims(&mut rng);
        let s = random_set(&mut rng, np, nd, true);
        let mut c = random_set(&mut rng, np, nd, false);
        if rng.chance(50) {
            // A context that shares some of the set's rows (as a loop's
            // context shares its domain's), maybe tighter or looser: the
            // rows gist may drop with no emptiness test.
            let nv = np + nd;
            for row in s.constraints() {
                if row.coeffs[nv..].iter().all(|&v| v == 0) && rng.chance(50) {
                    let mut shared = row.clone();
                    shared.coeffs.truncate(nv);
                    shared.constant += rng.range(-1, 1);
                    c.add(shared);
                }
            }
        }
        let eqs = s.detect_equalities().expect("decided");
        let lean = s.remove_redundancies().expect("decided");
        let gist = s.gist(&c).expect("decided");
        assert!(lean.constraints().len() <= s.constraints().len());
        // Under a budget that runs out, a test that gives up keeps its
        // row: the same set, less simple, never an error.
        let budget = u64::try_from(rng.range(0, 300)).unwrap_or(0);
        let ((starved_lean, starved_gist), _) =
            with_work_limit(budget, || (s.remove_redundancies(), s.gist(&c)));
        let starved_lean = starved_lean.expect("a row kept, not an error");
        let starved_gist = starved_gist.expect("a row kept, not an error");
        for p in points(np + nd) {
            let truth = holds(&s, &p);
            // Simplified sets may leave a local bounded on one side only, so
            // their membership is decided by the library (exact), not by `holds`.
            assert_eq!(
                contains(&eqs, &p),
                truth,
                "{p:?}: detect_equalities({s}) = {eqs}"
            );
            assert_eq!(
                contains(&lean, &p),
                truth,
                "{p:?}: remove_redundancies({s}) = {lean}"
            );
            assert_eq!(
                contains(&starved_lean, &p),
                truth,
                "{p:?}: starved remove_redundancies({s}) = {starved_lean}"
            );
            if holds(&c, &p) {
                assert_eq!(contains(&gist, &p), truth, "{p:?}: gist({s}, {c}) = {gist}");
                assert_eq!(
                    contains(&starved_gist, &p),
                    truth,
                    "{p:?}: starved gist({s}, {c}) = {starved_gist}"
                );
            }
        }
    }
}

#[test]
fn rational_projection_contains_the_integer_one_and_bounds_hold() {
    let mut rng = Rng(0xBB67_AE85_84CA_A73B);
    for _ in 0..cases() {
        let (np, nd) = dims(&mut rng);
        if nd < 2 {
            continue;
        }
        let s = random_set(&mut rng, np, nd, true);
        let truth = brute(&s);
        let (proj, exact) = s.project_out_rational(1, nd - 1).expect("no overflow");
        for p in points(np + 1) {
            let integer = truth.iter().any(|q| q[..np + 1] == p[..]);
            let rational = holds(&proj, &p);
            assert!(
                !integer || rational,
                "{p:?}: integer projection ⊄ rational {proj} of {s}"
            );
            if exact {
                assert_eq!(
                    integer, rational,
                    "{p:?}: 'exact' rational projection {proj} of {s}"
                );
            }
        }
        // Every integer point lies within the bounds of each dimension.
        for d in 0..nd {
            let b = s.dim_bounds(d).expect("no overflow");
            for q in &truth {
                let x = q[np + d];
                let val = |c: &polyc::poly::Bound| {
                    c.coeffs.iter().zip(q).map(|(a, v)| a * v).sum::<i64>() + c.constant
                };
                for l in &b.lower {
                    assert!(
                        x * l.div >= val(l),
                        "lower bound {l:?} of dim {d} fails at {q:?} in {s}"
                    );
                }
                for u in &b.upper {
                    assert!(
                        x * u.div <= val(u),
                        "upper bound {u:?} of dim {d} fails at {q:?} in {s}"
                    );
                }
            }
        }
    }
}

#[test]
fn composition_agrees_with_enumeration() {
    let mut rng = Rng(0x3C6E_F372_FE94_F82B);
    for _ in 0..cases() / 2 {
        let np = rng.range(0, 1) as usize;
        let (ni, nm, no) = (1, rng.range(1, 2) as usize, 1);
        let a = random_map(&mut rng, np, ni, nm);
        let b = random_map(&mut rng, np, nm, no);
        let b = BasicMap::from_columns(
            Space::map(
                names("p", np),
                Tuple::new(Some("B".into()), names("o", nm)),
                Tuple::new(Some("C".into()), names("z", no)),
            ),
            0,
            b.constraints().to_vec(),
        );
        let ab = a.apply_range(&b).expect("same middle space");
        let flat = |m: &BasicMap, p: &[i64]| {
            holds(
                &BasicSet::from_parts(
                    Space::set(vec![], None, names("c", p.len())),
                    0,
                    m.constraints().to_vec(),
                ),
                p,
            )
        };
        let as_set = BasicSet::from_parts(
            Space::set(vec![], None, names("c", np + ni + no)),
            ab.n_local(),
            ab.constraints().to_vec(),
        );
        for p in points(np + ni + no) {
            let expected = points(nm).iter().any(|y| {
                let mut first = p[..np + ni].to_vec();
                first.extend_from_slice(y);
                let mut second = p[..np].to_vec();
                second.extend_from_slice(y);
                second.extend_from_slice(&p[np + ni..]);
                flat(&a, &first) && flat(&b, &second)
            });
            assert_eq!(contains(&as_set, &p), expected, "{p:?} in {a} ∘ {b} = {ab}");
        }
    }
}

/// The set algebra of relations (through wrapping) and restriction of the
/// domain or range, against enumeration of pairs.
#[test]
fn relation_algebra_agrees_with_enumeration() {
    let mut rng = Rng(0x3C6E_F372_FE94_F82B);
    for _ in 0..cases() {
        let np = rng.range(0, 1) as usize;
        let (ni, no) = (rng.range(1, 2) as usize, 1);
        let a = random_map(&mut rng, np, ni, no);
        let b = random_map(&mut rng, np, ni, no);
        let s = random_set(&mut rng, np, ni, true);
        let s = BasicSet::from_parts(
            Space::set(names("p", np), Some("A".into()), names("i", ni)),
            s.n_local(),
            s.constraints().to_vec(),
        );
        let t = random_set(&mut rng, np, no, true);
        let t = BasicSet::from_parts(
            Space::set(names("p", np), Some("B".into()), names("o", no)),
            t.n_local(),
            t.constraints().to_vec(),
        );
        let (ma, mb) = (Map::from_basic(a.clone()), Map::from_basic(b.clone()));
        let inter = ma.intersect(&mb).expect("same space");
        let diff = ma.subtract(&mb).expect("no locals");
        let restricted = a
            .intersect_domain(&s)
            .and_then(|m| m.intersect_range(&t))
            .expect("same space");
        for p in points(np + ni + no) {
            let (in_a, in_b) = (holds(&a.wrap(), &p), holds(&b.wrap(), &p));
            let hold = |m: &Map| m.basics().iter().any(|x| holds(&x.wrap(), &p));
            assert_eq!(hold(&inter), in_a && in_b, "{p:?}: {a} ∩ {b}");
            assert_eq!(hold(&diff), in_a && !in_b, "{p:?}: {a} − {b} = {diff}");
            let x = &p[..np + ni];
            let mut y = p[..np].to_vec();
            y.extend_from_slice(&p[np + ni..]);
            let expected = in_a && holds(&s, x) && holds(&t, &y);
            assert_eq!(
                contains(&restricted.wrap(), &p),
                expected,
                "{p:?}: {a} restricted to {s} → {t} = {restricted}"
            );
        }
        let subset = points(np + ni + no)
            .iter()
            .all(|p| !holds(&a.wrap(), p) || holds(&b.wrap(), p));
        assert_eq!(ma.is_subset(&mb).expect("decided"), subset, "{a} ⊆ {b}");
        assert!(ma
            .is_equal(&ma.intersect(&ma).expect("same"))
            .expect("decided"));
    }
}

/// Eliminating a dimension keeps it in the space, unconstrained: a point is
/// in the result iff some value of that dimension puts it in the set.
#[test]
fn elimination_agrees_with_enumeration() {
    let mut rng = Rng(0xA54F_F53A_5F1D_36F1);
    for _ in 0..cases() {
        let (np, nd) = dims(&mut rng);
        let s = random_set(&mut rng, np, nd, true);
        let first = rng.range(0, nd as i64 - 1) as usize;
        let e = s.eliminate(first, 1);
        assert_eq!(e.space(), s.space());
        let truth = brute(&s);
        for p in points(np + nd) {
            let col = np + first;
            let expected = truth
                .iter()
                .any(|q| (0..q.len()).all(|k| k == col || q[k] == p[k]));
            assert_eq!(contains(&e, &p), expected, "{p:?} in {e} (from {s})");
        }
    }
}
