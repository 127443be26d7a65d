//! Dependence analysis (`scop::deps`, `--emit deps`, `--emit deps-text`):
//! snapshots of the readable view, distances of well-known kernels derived
//! by hand from their code, the JSON view, and a simulation oracle: on every
//! kernel, for small parameter values, the dependence relations hold exactly
//! the pairs of statement instances that touch the same memory cell when the
//! region runs, with the same kind and depth.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use common::interp::{assignment_parts, execute, touched, Cell, Env, LoopValue};
use polyc::lang::c::read_source;
use polyc::poly::{BasicMap, BasicSet, Constraint, ConstraintKind, Space};
use polyc::scop::{
    dataflow, dependences, narrowed_to_context, AccessKind, DepKind, DepOptions, Dependence, Scop,
};
use polyc::syntax::c::Stmt;

fn stem(path: &std::path::Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[test]
fn deps_text_of_every_kernel_is_snapshotted() {
    let kernels = common::kernels();
    assert!(kernels.len() >= 15, "expected at least 15 kernels");
    for k in kernels {
        let path = k.to_string_lossy().into_owned();
        let out = common::polyc(&[&path, "--emit", "deps-text"]);
        assert_eq!(out.status, 0, "{path}:\n{}", out.stderr);
        assert_eq!(out.stderr, "", "{path}: unexpected stderr");
        insta::assert_snapshot!(format!("deps_{}", stem(&k)), out.stdout);
    }
}

// ------------------------------------------------------------- distances

/// `(kind, source, target, depth, distance)` of every dependence of a
/// kernel's first region, sorted; a non-uniform distance is `None`.
type Summary = Vec<(DepKind, usize, usize, usize, Option<Vec<i64>>)>;

fn summary(kernel: &str) -> Summary {
    let path = format!("tests/kernels/{kernel}.c");
    let text = std::fs::read_to_string(&path).expect("read kernel");
    let file = read_source(&path, text).expect("kernel accepted");
    let deps = dependences(&file.scops[0], &DepOptions::default()).expect("analysis");
    let mut v: Summary = deps
        .into_iter()
        .map(|d| (d.kind, d.source, d.target, d.depth, d.distance))
        .collect();
    v.sort();
    v
}

fn sorted(mut v: Summary) -> Summary {
    v.sort();
    v
}

use DepKind::{Raw, War, Waw};

/// Seidel-2d: `A[i][j]` (write) and its nine neighbours (reads) in
/// `t, i, j`. A write at `(t, i, j)` read as `A[i'+di][j'+dj]` gives
/// `(i', j') = (i - di, j - dj)`: within one `t`, only reads before the
/// point in `(i, j)` order (`A[i-1][*]`, `A[i][j-1]`) are RAW sources of a
/// later instance: distances `(0,1,1)`, `(0,1,0)`, `(0,1,-1)` carried by `i`
/// and `(0,0,1)` by `j`. WAR mirrors it with the reads after the point
/// (`A[i+1][*]`, `A[i][j+1]`). Across `t` every access pairs with every later
/// `t`: non-uniform, carried by `t` (nine RAW, nine WAR, one WAW).
#[test]
fn seidel_2d_distances() {
    let mut expected: Summary = Vec::new();
    for _ in 0..9 {
        expected.push((Raw, 0, 0, 1, None));
        expected.push((War, 0, 0, 1, None));
    }
    expected.push((Waw, 0, 0, 1, None));
    for d in [[0, 1, 1], [0, 1, 0], [0, 1, -1]] {
        expected.push((Raw, 0, 0, 2, Some(d.to_vec())));
    }
    expected.push((Raw, 0, 0, 3, Some(vec![0, 0, 1])));
    for d in [[0, 1, -1], [0, 1, 0], [0, 1, 1]] {
        expected.push((War, 0, 0, 2, Some(d.to_vec())));
    }
    expected.push((War, 0, 0, 3, Some(vec![0, 0, 1])));
    assert_eq!(summary("seidel-2d"), sorted(expected));
}

/// Jacobi-2d: S0 writes `B` from five points of `A`, S1 writes `A` from five
/// points of `B`, both inside `t`. Within one `t`, S0 runs entirely before
/// S1: each of S1's five reads of `B` depends on S0's write (RAW), each of
/// S0's five reads of `A` precedes S1's write (WAR), all loop-independent
/// with distance `(0)` on the one common loop `t`. The same ten pairs are
/// also carried by `t` (every later `t`: non-uniform), and across `t` S1
/// feeds S0 (five RAW on `A`, five WAR on `B`); each statement's write
/// repeats every `t` (WAW).
#[test]
fn jacobi_2d_distances() {
    let mut expected: Summary = Vec::new();
    for _ in 0..5 {
        expected.push((Raw, 0, 1, 1, None));
        expected.push((Raw, 0, 1, 2, Some(vec![0])));
        expected.push((War, 0, 1, 1, None));
        expected.push((War, 0, 1, 2, Some(vec![0])));
        expected.push((Raw, 1, 0, 1, None));
        expected.push((War, 1, 0, 1, None));
    }
    expected.push((Waw, 0, 0, 1, None));
    expected.push((Waw, 1, 1, 1, None));
    assert_eq!(summary("jacobi-2d"), sorted(expected));
}

/// Gemm (`i { j: C[i][j] *= beta; k { j: C[i][j] += … } }`): S0 (`i, j`)
/// and S1 (`i, k, j`) share loop `i`. S0's read and write of `C[i][j]` come
/// before every S1 instance of the same `i`: RAW, WAR and WAW, loop-
/// independent, distance `(0)`. S1 updates `C[i][j]` once per `k`: RAW, WAR
/// and WAW carried by `k` (depth 2) with `k' - k` unbounded: non-uniform.
/// `A`, `B`, `alpha`, `beta` are only read.
#[test]
fn gemm_distances() {
    let expected = vec![
        (Raw, 0, 1, 2, Some(vec![0])),
        (War, 0, 1, 2, Some(vec![0])),
        (Waw, 0, 1, 2, Some(vec![0])),
        (Raw, 1, 1, 2, None),
        (War, 1, 1, 2, None),
        (Waw, 1, 1, 2, None),
    ];
    assert_eq!(summary("gemm"), sorted(expected));
}

/// LU (in place, no pivoting). S0 `A[i][j] -= A[i][k]*A[k][j]` (`i, j<i,
/// k<j`), S1 `A[i][j] /= A[j][j]` (`i, j<i`), S2 `A[i][j] -= …` (`i, j>=i,
/// k<i`). Uniform: S0 → S1 on `A[i][j]` at the same `(i, j)` (RAW, WAR, WAW;
/// loop-independent, `(0, 0)`), and S0/S1's finished `A[i][j]` read by S2 as
/// `A[i][k]` in the same row (loop-independent, `(0)`). Every other pair
/// spans a range of `k`, `j` or `i`: non-uniform. S0 updates `A[i][j]` once
/// per `k` (depth 3), and reads as `A[i][k]` what S0/S1 finished earlier in
/// the row (depth 2); S2 reads as `A[k][j]`/`A[j][j]` rows finished at an
/// earlier `i` (depth 1), and updates its own `A[i][j]` per `k` (depth 3).
#[test]
fn lu_distances() {
    let expected = vec![
        (Raw, 0, 0, 2, None),
        (Raw, 0, 0, 3, None),
        (War, 0, 0, 3, None),
        (Waw, 0, 0, 3, None),
        (Raw, 0, 1, 3, Some(vec![0, 0])),
        (War, 0, 1, 3, Some(vec![0, 0])),
        (Waw, 0, 1, 3, Some(vec![0, 0])),
        (Raw, 0, 2, 2, Some(vec![0])),
        (Raw, 1, 0, 2, None),
        (Raw, 1, 2, 2, Some(vec![0])),
        (Raw, 2, 0, 1, None),
        (Raw, 2, 1, 1, None),
        (Raw, 2, 2, 1, None),
        (Raw, 2, 2, 3, None),
        (War, 2, 2, 3, None),
        (Waw, 2, 2, 3, None),
    ];
    assert_eq!(summary("lu"), sorted(expected));
}

/// Fdtd-2d, in `t`: S0 sets row 0 of `ey`, S1 updates `ey` rows `1..` from
/// `hz[i][j]`, `hz[i-1][j]`; S2 updates `ex` from `hz[i][j]`, `hz[i][j-1]`;
/// S3 updates `hz` from `ex[i][j+1]`, `ex[i][j]`, `ey[i+1][j]`, `ey[i][j]`.
/// Within one `t` (loop-independent, distance `(0)`): S0 → S3 (`ey[0][j]`
/// read as `ey[i][j]`), S1 → S3 and S2 → S3 (two RAW each on the values S3
/// reads, two WAR each on the `hz` cells S3 overwrites). Everything else
/// crosses `t`: non-uniform, carried by `t`.
#[test]
fn fdtd_2d_distances() {
    let mut expected: Summary = vec![(Raw, 0, 3, 2, Some(vec![0]))];
    for s in [1, 2] {
        for kind in [Raw, Raw, War, War] {
            expected.push((kind, s, 3, 2, Some(vec![0])));
            expected.push((kind, s, 3, 1, None));
        }
        // Each of S1, S2 updates its own array in place every `t`.
        for kind in [Raw, War, Waw] {
            expected.push((kind, s, s, 1, None));
        }
    }
    expected.extend([
        (Waw, 0, 0, 1, None),
        (Raw, 0, 3, 1, None),
        (War, 3, 0, 1, None),
        (Raw, 3, 1, 1, None),
        (Raw, 3, 1, 1, None),
        (War, 3, 1, 1, None),
        (War, 3, 1, 1, None),
        (Raw, 3, 2, 1, None),
        (Raw, 3, 2, 1, None),
        (War, 3, 2, 1, None),
        (War, 3, 2, 1, None),
        (Raw, 3, 3, 1, None),
        (War, 3, 3, 1, None),
        (Waw, 3, 3, 1, None),
    ]);
    assert_eq!(summary("fdtd-2d"), sorted(expected));
}

/// A loop that counts down: the distance is target minus source iterator,
/// so the dependence it carries has a negative one.
#[test]
fn a_loop_counting_down_carries_a_negative_distance() {
    let src = "void f(int n, double A[]) {\n#pragma scop\n\
               for (i = n - 2; i >= 0; i--)\n  A[i] = A[i + 1];\n#pragma endscop\n}\n";
    let file = read_source("f.c", src.to_string()).expect("accepted");
    let deps = dependences(&file.scops[0], &DepOptions::default()).expect("analysis");
    let found: Summary = deps
        .into_iter()
        .map(|d| (d.kind, d.source, d.target, d.depth, d.distance))
        .collect();
    assert_eq!(found, vec![(Raw, 0, 0, 1, Some(vec![-1]))]);
}

// ------------------------------------------------------------------ JSON

#[test]
fn deps_json_parses_and_has_the_fields() {
    let out = common::polyc(&["tests/kernels/two-regions.c", "--emit", "deps", "--rar"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(v["file"], "tests/kernels/two-regions.c");
    let scops = v["scops"].as_array().expect("scops");
    assert_eq!(scops.len(), 2);
    assert_eq!(scops[1]["region"], 2);
    let mut kinds = BTreeSet::new();
    for s in scops {
        let deps = s["dependences"].as_array().expect("dependences");
        assert!(!deps.is_empty());
        for d in deps {
            for field in [
                "kind",
                "source",
                "target",
                "source_access",
                "target_access",
                "array",
                "depth",
                "common_loops",
                "loop_independent",
                "distance",
                "relation",
            ] {
                assert!(d.get(field).is_some(), "missing {field} in {d}");
            }
            kinds.insert(d["kind"].as_str().expect("kind").to_string());
            let depth = d["depth"].as_u64().expect("depth");
            let common = d["common_loops"].as_u64().expect("common_loops");
            assert_eq!(d["loop_independent"], depth == common + 1);
            assert!(d["distance"].is_null() || d["distance"].is_array());
            let rel = d["relation"].as_str().expect("relation");
            polyc::poly::parse_map(rel).unwrap_or_else(|e| panic!("{rel}: {e:?}"));
        }
    }
    assert_eq!(kinds, ["RAR", "RAW", "WAR", "WAW"].map(String::from).into());
    // Without --rar there is no RAR.
    let out = common::polyc(&["tests/kernels/two-regions.c", "--emit", "deps"]);
    assert!(!out.stdout.contains("\"RAR\""));
}

// ------------------------------------------------------ simulation oracle

/// One dependence pair: kind, array, source statement and iterators,
/// target statement and iterators, depth.
type Pair = (DepKind, String, usize, Vec<i64>, usize, Vec<i64>, usize);

/// An executed statement instance.
struct Instance {
    stmt: usize,
    loops: Vec<LoopValue>,
    touched: Vec<(AccessKind, Cell)>,
}

impl Instance {
    fn iters(&self) -> Vec<i64> {
        self.loops.iter().map(|(_, v)| *v).collect()
    }
}

/// Run the region with `params`; every instance in execution order.
fn run(scop: &Scop, params: &[i64]) -> Vec<Instance> {
    let mut env: Env = scop
        .params
        .iter()
        .cloned()
        .zip(params.iter().copied())
        .collect();
    let mut out = Vec::new();
    execute(
        &scop.tree,
        &mut env,
        &mut Vec::new(),
        &mut |s, env, loops| {
            let Stmt::Expr { expr, span, .. } = s else {
                unreachable!()
            };
            // A chained assignment is several statements of the model.
            for (part, span) in assignment_parts(expr, span) {
                let stmt = scop
                    .statements
                    .iter()
                    .position(|st| st.span == span)
                    .expect("statement of the model");
                out.push(Instance {
                    stmt,
                    loops: loops.to_vec(),
                    touched: touched(&part, env),
                });
            }
        },
    );
    out
}

/// The depth of a pair of instances: the first common loop where they
/// differ, or one more than the common loops.
fn depth(a: &Instance, b: &Instance) -> usize {
    let common = a
        .loops
        .iter()
        .zip(&b.loops)
        .take_while(|(x, y)| x.0 == y.0)
        .count();
    (0..common)
        .find(|&k| a.loops[k].1 != b.loops[k].1)
        .map_or(common + 1, |k| k + 1)
}

/// Every pair of instances touching one cell, the earlier first.
fn simulated_pairs(instances: &[Instance]) -> BTreeSet<Pair> {
    let mut by_cell: BTreeMap<&Cell, Vec<(usize, AccessKind)>> = BTreeMap::new();
    for (n, inst) in instances.iter().enumerate() {
        for (kind, cell) in &inst.touched {
            let events = by_cell.entry(cell).or_default();
            if !events.contains(&(n, *kind)) {
                events.push((n, *kind));
            }
        }
    }
    let mut pairs = BTreeSet::new();
    for (cell, events) in by_cell {
        for (x, &(n1, k1)) in events.iter().enumerate() {
            for &(n2, k2) in &events[x + 1..] {
                if n1 == n2 {
                    continue;
                }
                let kind = match (k1, k2) {
                    (AccessKind::Write, AccessKind::Read) => DepKind::Raw,
                    (AccessKind::Read, AccessKind::Write) => DepKind::War,
                    (AccessKind::Write, AccessKind::Write) => DepKind::Waw,
                    (AccessKind::Read, AccessKind::Read) => DepKind::Rar,
                };
                let (a, b) = (&instances[n1], &instances[n2]);
                pairs.insert((
                    kind,
                    cell.0.clone(),
                    a.stmt,
                    a.iters(),
                    b.stmt,
                    b.iters(),
                    depth(a, b),
                ));
            }
        }
    }
    pairs
}

/// A relation disjunct with its parameters fixed, for fast membership.
struct Fixed {
    /// Rows over source then target iterators, constant with parameters folded in.
    rows: Vec<(ConstraintKind, Vec<i64>, i64)>,
    /// The disjunct, when it has locals (then checked with `common::holds`).
    with_locals: Option<BasicSet>,
}

impl Fixed {
    fn new(b: &BasicMap, params: &[i64]) -> Fixed {
        let np = params.len();
        let nd = b.space().n_in() + b.space().n_out();
        let rows = b
            .constraints()
            .iter()
            .map(|c| {
                let folded: i64 = c.coeffs[..np].iter().zip(params).map(|(a, v)| a * v).sum();
                (c.kind, c.coeffs[np..np + nd].to_vec(), c.constant + folded)
            })
            .collect();
        let with_locals = (b.n_local() > 0).then(|| {
            let dims = (0..nd).map(|k| format!("x{k}")).collect();
            let space = Space::set(b.space().params.clone(), None, dims);
            BasicSet::from_parts(space, b.n_local(), b.constraints().to_vec())
        });
        Fixed { rows, with_locals }
    }

    fn holds(&self, params: &[i64], s: &[i64], t: &[i64]) -> bool {
        if let Some(b) = &self.with_locals {
            let p: Vec<i64> = params.iter().chain(s).chain(t).copied().collect();
            return common::holds(b, &p);
        }
        self.rows.iter().all(|(kind, coeffs, constant)| {
            let v = constant
                + coeffs
                    .iter()
                    .zip(s.iter().chain(t))
                    .map(|(a, x)| a * x)
                    .sum::<i64>();
            match kind {
                ConstraintKind::Eq => v == 0,
                ConstraintKind::Ineq => v >= 0,
            }
        })
    }
}

/// The pairs of polyc's relations (with RAR), enumerated over the
/// executed instances of each statement; a uniform distance must be every
/// enumerated pair's.
fn analysed_pairs(scop: &Scop, params: &[i64], instances: &[Instance]) -> BTreeSet<Pair> {
    let deps = dependences(scop, &DepOptions { rar: true }).expect("analysis");
    pairs_of(&deps, scop, params, instances)
}

/// The pairs of `deps`' relations, as [`analysed_pairs`] enumerates them.
fn pairs_of(
    deps: &[Dependence],
    scop: &Scop,
    params: &[i64],
    instances: &[Instance],
) -> BTreeSet<Pair> {
    let mut by_stmt: Vec<Vec<Vec<i64>>> = vec![Vec::new(); scop.statements.len()];
    for inst in instances {
        by_stmt[inst.stmt].push(inst.iters());
    }
    let mut pairs = BTreeSet::new();
    for d in deps {
        let fixed: Vec<Fixed> = d
            .relation
            .basics()
            .iter()
            .map(|b| Fixed::new(b, params))
            .collect();
        for s in &by_stmt[d.source] {
            for t in &by_stmt[d.target] {
                if fixed.iter().any(|f| f.holds(params, s, t)) {
                    if let Some(v) = &d.distance {
                        let seen: Vec<i64> = (0..d.n_common).map(|k| t[k] - s[k]).collect();
                        assert_eq!(&seen, v, "distance of {d:?} at {s:?} -> {t:?}");
                    }
                    pairs.insert((
                        d.kind,
                        d.array.clone(),
                        d.source,
                        s.clone(),
                        d.target,
                        t.clone(),
                        d.depth,
                    ));
                }
            }
        }
    }
    pairs
}

/// Small parameter values: all equal to 2, 3, 4, then two mixed.
fn parameter_values(scop: &Scop) -> Vec<Vec<i64>> {
    let n = scop.params.len();
    let mut v: Vec<Vec<i64>> = (2..=4).map(|x| vec![x; n]).collect();
    v.push((0..n).map(|k| 2 + (k % 3) as i64).collect());
    v.push((0..n).map(|k| 5 - (k % 4) as i64).collect());
    // A parameter the context fixes (a macro read as its value, as
    // `flat-gemm`'s `NJ = 24`) takes that value.
    for c in scop.context.constraints().iter().filter(|c| c.is_eq()) {
        let nonzero: Vec<usize> = (0..n).filter(|&k| c.coeffs[k] != 0).collect();
        if let [k] = nonzero[..] {
            let value = -c.constant / c.coeffs[k];
            v.iter_mut().for_each(|p| p[k] = value);
        }
    }
    v.dedup();
    v
}

/// `check(path, scop)` on every region of every test kernel.
fn every_kernel_region(mut check: impl FnMut(&str, &Scop)) {
    for k in common::kernels() {
        let path = k.to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&k).expect("read kernel");
        let file = read_source(&path, text).expect("kernel accepted");
        for scop in &file.scops {
            check(&path, scop);
        }
    }
}

#[test]
fn relations_hold_exactly_the_pairs_a_run_touches() {
    let mut checked = 0;
    every_kernel_region(|path, scop| {
        for params in parameter_values(scop) {
            let instances = run(scop, &params);
            let simulated = simulated_pairs(&instances);
            let analysed = analysed_pairs(scop, &params, &instances);
            let missing: Vec<_> = simulated.difference(&analysed).take(5).collect();
            let extra: Vec<_> = analysed.difference(&simulated).take(5).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{path} region {} with {:?} = {params:?}:\n\
                 pairs a run has that no relation holds: {missing:?}\n\
                 pairs a relation holds that no run has: {extra:?}",
                scop.region,
                scop.params,
            );
            checked += simulated.len();
        }
    });
    assert!(checked > 10_000, "only {checked} pairs checked");
}

/// The dependences under no context, narrowed by a context that fixes
/// every parameter, still hold every pair a run with those values
/// touches, and each uniform distance they claim is every such pair's
/// (`scop::deps::narrowed_to_context`: what the schedulers read under a
/// fixing context). On `flat-gemm` (`C[i * NJ + j]`, `NJ` fixed at 24),
/// where no context lets row `i` overlap row `i + 1`, narrowing leaves no
/// dependence but reads carried by the loop over rows.
#[test]
fn narrowed_dependences_hold_every_pair_a_run_touches() {
    let mut checked = 0;
    every_kernel_region(|path, scop| {
        let mut open_scop = scop.clone();
        open_scop.context = BasicSet::universe(scop.context.space().clone());
        let open = dependences(&open_scop, &DepOptions { rar: true }).expect("analysis");
        for params in parameter_values(scop) {
            let mut context = scop.context.clone();
            for (k, v) in params.iter().enumerate() {
                let mut row = vec![0; params.len()];
                row[k] = 1;
                context.add(Constraint::eq(row, -v));
            }
            let narrowed = narrowed_to_context(&open, &context).expect("narrowed");
            let instances = run(scop, &params);
            let simulated = simulated_pairs(&instances);
            let held = pairs_of(&narrowed, scop, &params, &instances);
            let missing: Vec<_> = simulated.difference(&held).take(5).collect();
            assert!(
                missing.is_empty(),
                "{path} region {} with {:?} = {params:?}: pairs a run has that no \
                 narrowed relation holds: {missing:?}",
                scop.region,
                scop.params,
            );
            if path.ends_with("flat-gemm.c") {
                let by_rows = |d: &&Dependence| d.depth == 1 && d.kind != DepKind::Rar;
                let carried: Vec<_> = narrowed.iter().filter(by_rows).collect();
                assert!(carried.is_empty(), "carried by rows: {carried:?}");
                assert!(open.iter().any(|d| by_rows(&d)), "no context, rows overlap");
            }
            checked += simulated.len();
        }
    });
    assert!(checked > 10_000, "only {checked} pairs checked");
}

/// Regions built to stress the construction: strides, C division and
/// `min`/`max` in subscripts (accesses with locals and with several
/// disjuncts), loops counting down, guards that split a domain, statements
/// at different depths, and scalars.
const STRESS_REGIONS: [&str; 6] = [
    "for (i = 0; i < n; i += 3)\n  A[i] = A[i / 2] + A[i - 3];",
    "for (i = 0; i < n; i++)\n  A[min(i, 3)] = A[max(i - 2, 0)] + A[(n - i) / 3] + A[(i - 4) / 3];",
    "for (i = n; i >= 0; i -= 2)\n  for (j = i; j < n; j++)\n    B[i][j] = B[j][i] + A[j];",
    "for (i = 0; i < n; i++) {\n  s = A[i];\n  for (j = 0; j <= i; j++)\n    if (i == j || j > n - 3)\n      B[i][j] = s * B[i - 1][j];\n    else\n      A[j] = s + A[j + 1];\n  A[i + 1] = s;\n}",
    "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    if (2 * (i / 2) == i)\n      B[i][j] = B[j][i] + B[i][(j + 1) / 2];",
    "A[0] = 1.0;\nfor (i = n - 1; i > 0; i--)\n  A[i] = A[i - 1] + A[0];\ns = A[n - 1];",
];

/// A function around one of [`STRESS_REGIONS`].
fn stress_source(region: &str) -> String {
    format!(
        "void f(int n, double A[99], double B[99][99], double s) {{\n\
         #pragma scop\n{region}\n#pragma endscop\n}}\n"
    )
}

/// The same oracle on regions built to stress the construction: strides,
/// C division and `min`/`max` in subscripts (accesses with locals and with
/// several disjuncts), loops counting down, guards that split a domain,
/// statements at different depths, and scalars.
#[test]
fn relations_are_exact_on_strides_divisions_and_guards() {
    for region in STRESS_REGIONS {
        let src = stress_source(region);
        let file = match read_source("t.c", src.clone()) {
            Ok(f) => f,
            Err(d) => panic!("rejected:\n{}", d.render("t.c", &src)),
        };
        let scop = &file.scops[0];
        for n in -1..=7 {
            let params = vec![n; scop.params.len()];
            let instances = run(scop, &params);
            let simulated = simulated_pairs(&instances);
            let analysed = analysed_pairs(scop, &params, &instances);
            let missing: Vec<_> = simulated.difference(&analysed).take(5).collect();
            let extra: Vec<_> = analysed.difference(&simulated).take(5).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{region}\nn = {n}:\nmissing: {missing:?}\nextra: {extra:?}"
            );
        }
    }
}

/// When `poly` cannot decide (here an overflow), the analysis says so:
/// exit 1 with a diagnostic on the region, nothing on stdout.
#[test]
fn an_undecidable_analysis_is_an_error_not_an_empty_list() {
    let dir = common::scratch("deps_overflow");
    let path = dir.join("overflow.c");
    std::fs::write(
        &path,
        "void f(int n, double A[9]) {\n#pragma scop\nfor (i = 0; i < n; i++)\n  \
         for (j = 0; j < n; j++)\n    \
         A[3000000000000000000 * i + 3 * j] = A[3000000000000000001 * j + 2 * i + 1];\n\
         #pragma endscop\n}\n",
    )
    .expect("write");
    let path = path.to_string_lossy().into_owned();
    for emit in ["deps", "deps-text"] {
        let out = common::polyc(&[&path, "--emit", emit]);
        assert_eq!(out.status, 1, "{emit}: {}", out.stderr);
        assert_eq!(out.stdout, "");
        assert!(
            out.stderr
                .contains("dependence analysis of scop region 1 failed: integer overflow"),
            "{}",
            out.stderr
        );
    }
}

// ------------------------------------------------ value-based dataflow

/// A value flow: array, writing statement and iterators, reading statement
/// and iterators.
type FlowPair = (String, usize, Vec<i64>, usize, Vec<i64>);

/// One statement instance and an array: a read from before the region (for
/// a read) or a final value (for a write).
type Boundary = (String, usize, Vec<i64>);

/// What a run shows: every read's last earlier writer, the reads with none,
/// and each written cell's last writer. An instance's reads come before its
/// own writes.
fn simulated_dataflow(
    instances: &[Instance],
) -> (BTreeSet<FlowPair>, BTreeSet<Boundary>, BTreeSet<Boundary>) {
    let mut last: BTreeMap<&Cell, usize> = BTreeMap::new();
    let (mut flows, mut outside) = (BTreeSet::new(), BTreeSet::new());
    for (n, inst) in instances.iter().enumerate() {
        for (kind, cell) in &inst.touched {
            if *kind != AccessKind::Read {
                continue;
            }
            match last.get(cell) {
                Some(&m) => {
                    let w = &instances[m];
                    flows.insert((cell.0.clone(), w.stmt, w.iters(), inst.stmt, inst.iters()));
                }
                None => {
                    outside.insert((cell.0.clone(), inst.stmt, inst.iters()));
                }
            }
        }
        for (kind, cell) in &inst.touched {
            if *kind == AccessKind::Write {
                last.insert(cell, n);
            }
        }
    }
    let finals = last
        .iter()
        .map(|(cell, &n)| (cell.0.clone(), instances[n].stmt, instances[n].iters()))
        .collect();
    (flows, outside, finals)
}

/// The same three from `scop::dataflow`, enumerated over the executed
/// instances of each statement.
fn analysed_dataflow(
    scop: &Scop,
    params: &[i64],
    instances: &[Instance],
) -> (BTreeSet<FlowPair>, BTreeSet<Boundary>, BTreeSet<Boundary>) {
    let deps = dependences(scop, &DepOptions::default()).expect("analysis");
    let mut by_stmt: Vec<Vec<Vec<i64>>> = vec![Vec::new(); scop.statements.len()];
    for inst in instances {
        by_stmt[inst.stmt].push(inst.iters());
    }
    let mut flows = BTreeSet::new();
    for f in dataflow::flows(&deps).expect("flows") {
        let fixed: Vec<Fixed> = f
            .relation
            .basics()
            .iter()
            .map(|b| Fixed::new(b, params))
            .collect();
        for s in &by_stmt[f.source] {
            for t in &by_stmt[f.target] {
                if fixed.iter().any(|x| x.holds(params, s, t)) {
                    flows.insert((f.array.clone(), f.source, s.clone(), f.target, t.clone()));
                }
            }
        }
    }
    let (mut outside, mut finals) = (BTreeSet::new(), BTreeSet::new());
    for (si, st) in scop.statements.iter().enumerate() {
        for (ai, a) in st.accesses.iter().enumerate() {
            let (set, into) = match a.kind {
                AccessKind::Read => (
                    dataflow::reads_from_outside(scop, &deps, si, ai).expect("outside"),
                    &mut outside,
                ),
                AccessKind::Write => (
                    dataflow::last_writes(scop, &deps, si, ai).expect("last writes"),
                    &mut finals,
                ),
            };
            for it in &by_stmt[si] {
                let p: Vec<i64> = params.iter().chain(it).copied().collect();
                if set.basics().iter().any(|b| common::holds(b, &p)) {
                    into.insert((a.array.clone(), si, it.clone()));
                }
            }
        }
    }
    (flows, outside, finals)
}

/// Asserts that a run and the analysis agree; the number of elements.
fn same<T: Ord + std::fmt::Debug>(
    context: &str,
    what: &str,
    run: &BTreeSet<T>,
    analysed: &BTreeSet<T>,
) -> usize {
    let missing: Vec<_> = run.difference(analysed).take(5).collect();
    let extra: Vec<_> = analysed.difference(run).take(5).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{context}, {what}:\nmissing: {missing:?}\nextra: {extra:?}"
    );
    run.len()
}

/// On every kernel and the stress regions above, for small parameter
/// values, the flows, the reads from before the region and the final
/// writes are exactly what a run shows.
#[test]
fn dataflow_is_exactly_what_a_run_shows() {
    let mut cases: Vec<(String, Scop)> = Vec::new();
    for k in common::kernels() {
        let path = k.to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&k).expect("read kernel");
        let file = read_source(&path, text).expect("kernel accepted");
        cases.extend(file.scops.into_iter().map(|s| (path.clone(), s)));
    }
    for region in STRESS_REGIONS {
        let src = stress_source(region);
        let file = read_source("t.c", src).expect("stress region accepted");
        cases.extend(file.scops.into_iter().map(|s| (region.to_string(), s)));
    }
    let mut checked = 0;
    for (path, scop) in &cases {
        for params in parameter_values(scop) {
            let instances = run(scop, &params);
            let simulated = simulated_dataflow(&instances);
            let analysed = analysed_dataflow(scop, &params, &instances);
            let context = format!("{path} region {} with {params:?}", scop.region);
            checked += same(&context, "flows", &simulated.0, &analysed.0);
            checked += same(&context, "reads from outside", &simulated.1, &analysed.1);
            checked += same(&context, "final writes", &simulated.2, &analysed.2);
        }
    }
    assert!(
        checked > 10_000,
        "only {checked} flows and boundaries checked"
    );
}
