//! The legality check (`scop::validity`): the original schedule of every
//! kernel is legal; hand-built illegal schedules are rejected with the
//! right dependence and a witness that really is out of order (checked by
//! evaluating both dates); the carried-dependence test tells parallel loops
//! from the others.

use crate::common;

use common::{all_kernels, holds};
use polyc::lang::c::read_source;
use polyc::poly::parse_basic_map;
use polyc::scop::validity::{carried_dependence, first_violation, first_violation_from, Violation};
use polyc::scop::{dependences, DepKind, DepOptions, Schedule, Scop, StatementSchedule};

fn scop_of(src: &str) -> Scop {
    let file = read_source("k.c", src.to_string()).expect("accepted");
    file.scops.into_iter().next().expect("one region")
}

fn schedule(pieces: &[&str]) -> Schedule {
    Schedule {
        statements: pieces
            .iter()
            .map(|p| {
                let piece = parse_basic_map(p).expect("piece parses");
                let depth = piece.space().n_out() / 2;
                StatementSchedule {
                    pieces: vec![piece],
                    marks: vec![Vec::new(); depth],
                }
            })
            .collect(),
    }
}

/// `a <=lex b` after padding the shorter with zeros.
fn lex_le(a: &[i64], b: &[i64]) -> bool {
    let n = a.len().max(b.len());
    let at = |v: &[i64], k: usize| v.get(k).copied().unwrap_or(0);
    for k in 0..n {
        if at(a, k) != at(b, k) {
            return at(a, k) < at(b, k);
        }
    }
    true
}

/// The witness is a real pair of the dependence, each date is the date the
/// schedule gives its instance, and the target's date is not after the
/// source's.
fn check_witness(scop: &Scop, sched: &Schedule, v: &Violation) {
    let deps = dependences(scop, &DepOptions::default()).expect("deps");
    let dep = &deps[v.dependence];
    let mut pair = v.params.clone();
    pair.extend(&v.source);
    pair.extend(&v.target);
    assert!(
        dep.relation
            .basics()
            .iter()
            .any(|b| holds(&b.wrap(), &pair)),
        "witness {v:?} is not a pair of {}",
        dep.relation
    );
    for (stmt, iters, date) in [
        (dep.source, &v.source, &v.source_date),
        (dep.target, &v.target, &v.target_date),
    ] {
        let mut point = v.params.clone();
        point.extend(iters.iter());
        point.extend(date.iter());
        assert!(
            sched.statements[stmt]
                .pieces
                .iter()
                .any(|p| holds(&p.wrap(), &point)),
            "{date:?} is not the date of {iters:?}"
        );
    }
    assert!(
        lex_le(&v.target_date, &v.source_date),
        "witness {v:?} is in order"
    );
}

#[test]
fn original_schedules_are_legal() {
    for path in all_kernels() {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).expect("kernel");
        let file = read_source(&name, text).expect("accepted");
        for scop in &file.scops {
            let deps = dependences(scop, &DepOptions::default()).expect("deps");
            let sched = Schedule::original(scop);
            let v = first_violation(scop, &sched, &deps).expect("decided");
            assert!(v.is_none(), "{name}: original schedule violates {v:?}");
        }
    }
}

const STENCIL: &str = "void f(int n, double A[n][n]) {\n#pragma scop\n\
    for (i = 1; i < n; i++)\n  for (j = 0; j < n - 1; j++)\n    A[i][j] = A[i - 1][j + 1];\n\
    #pragma endscop\n}\n";

#[test]
fn interchange_of_a_stencil_with_distance_one_minus_one_is_rejected() {
    let scop = scop_of(STENCIL);
    let deps = dependences(&scop, &DepOptions::default()).expect("deps");
    assert_eq!(deps.len(), 1);
    assert_eq!(deps[0].distance, Some(vec![1, -1]));
    let sched = schedule(&["[n] -> { S0[i, j] -> [0, j, 0, i, 0] }"]);
    let v = first_violation(&scop, &sched, &deps)
        .expect("decided")
        .expect("illegal");
    assert_eq!(deps[v.dependence].kind, DepKind::Raw);
    check_witness(&scop, &sched, &v);
    // The witness reads like the example.
    let text = v.describe(&scop, &deps);
    assert!(
        text.starts_with("n = ")
            && text.contains(": S0(i=")
            && text.contains(" must run before S0(i="),
        "{text}"
    );
    // Skewing first makes the interchange legal: (1, -1) becomes (0, 1).
    let skewed = schedule(&["[n] -> { S0[i, j] -> [0, i + j, 0, i, 0] }"]);
    assert_eq!(
        first_violation(&scop, &skewed, &deps).expect("decided"),
        None
    );
}

#[test]
fn reversing_a_carrying_loop_is_rejected() {
    let path = "tests/kernels/seidel-2d.c";
    let text = std::fs::read_to_string(path).expect("kernel");
    let scop = read_source(path, text).expect("accepted").scops.remove(0);
    let deps = dependences(&scop, &DepOptions::default()).expect("deps");
    let params = scop.params.join(", ");
    for reversed in [
        format!("[{params}] -> {{ S0[t, i, j] -> [0, -t, 0, i, 0, j, 0] }}"),
        format!("[{params}] -> {{ S0[t, i, j] -> [0, t, 0, -i, 0, j, 0] }}"),
        format!("[{params}] -> {{ S0[t, i, j] -> [0, t, 0, i, 0, -j, 0] }}"),
    ] {
        let sched = schedule(&[&reversed]);
        let v = first_violation(&scop, &sched, &deps)
            .expect("decided")
            .unwrap_or_else(|| panic!("{reversed} accepted"));
        check_witness(&scop, &sched, &v);
    }
}

#[test]
fn loop_independent_order_matters_too() {
    // S1 reads what S0 wrote in the same iteration: swapping their textual
    // order (β) is illegal, keeping it is legal.
    let src = "void f(int n, double A[n], double B[n]) {\n#pragma scop\n\
        for (i = 0; i < n; i++) {\n  A[i] = i;\n  B[i] = A[i];\n}\n#pragma endscop\n}\n";
    let scop = scop_of(src);
    let deps = dependences(&scop, &DepOptions::default()).expect("deps");
    let swapped = schedule(&[
        "[n] -> { S0[i] -> [0, i, 1] }",
        "[n] -> { S1[i] -> [0, i, 0] }",
    ]);
    let v = first_violation(&scop, &swapped, &deps)
        .expect("decided")
        .expect("illegal");
    assert!(deps[v.dependence].is_loop_independent());
    check_witness(&scop, &swapped, &v);
    assert_eq!(v.source, v.target);
    let distributed = schedule(&[
        "[n] -> { S0[i] -> [0, i, 0] }",
        "[n] -> { S1[i] -> [1, i, 0] }",
    ]);
    assert_eq!(
        first_violation(&scop, &distributed, &deps).expect("decided"),
        None
    );
}

#[test]
fn a_check_inside_a_loop_sees_only_the_pairs_in_one_iteration_of_the_loops_around() {
    // S1 reads what it wrote at the previous `i`, and what S0 wrote just
    // before. Run backwards over `i`, the schedule breaks a dependence at
    // `i`'s date, outside the loop `[0, 0]` (the `j` loop): a check from
    // inside that loop does not see it. S0 and S1 swapped inside the `j`
    // loop break one there, and that check sees it.
    let src = "void f(int n, double A[n][n]) {\n#pragma scop\n\
        for (i = 1; i < n; i++)\n  for (j = 0; j < n; j++) {\n    A[i][j] = i;\n    \
        A[i][j] = A[i][j] + A[i - 1][j];\n  }\n#pragma endscop\n}\n";
    let scop = scop_of(src);
    let deps = dependences(&scop, &DepOptions::default()).expect("deps");
    let backwards = schedule(&[
        "[n] -> { S0[i, j] -> [0, -i, 0, j, 0] }",
        "[n] -> { S1[i, j] -> [0, -i, 0, j, 1] }",
    ]);
    let v = first_violation(&scop, &backwards, &deps)
        .expect("decided")
        .expect("illegal");
    check_witness(&scop, &backwards, &v);
    assert_eq!(
        first_violation_from(&scop, &backwards, &deps, &[0, 0]).expect("decided"),
        None
    );
    let swapped = schedule(&[
        "[n] -> { S0[i, j] -> [0, i, 0, j, 1] }",
        "[n] -> { S1[i, j] -> [0, i, 0, j, 0] }",
    ]);
    let v = first_violation_from(&scop, &swapped, &deps, &[0, 0])
        .expect("decided")
        .expect("illegal");
    check_witness(&scop, &swapped, &v);
    assert_eq!(v.source[..2], v.target[..2]);
    assert_eq!(
        first_violation_from(&scop, &swapped, &deps, &[]).expect("decided"),
        Some(v)
    );
}

#[test]
fn carried_dependences_tell_parallel_loops() {
    let path = "tests/kernels/gemm.c";
    let text = std::fs::read_to_string(path).expect("kernel");
    let scop = read_source(path, text).expect("accepted").scops.remove(0);
    let deps = dependences(&scop, &DepOptions::default()).expect("deps");
    let sched = Schedule::original(&scop);
    // i (both statements) and j (of S0, and of S1 inside k) carry nothing.
    assert_eq!(
        carried_dependence(&scop, &sched, &deps, &[0], 1).expect("decided"),
        None
    );
    assert_eq!(
        carried_dependence(&scop, &sched, &deps, &[0, 0], 2).expect("decided"),
        None
    );
    assert_eq!(
        carried_dependence(&scop, &sched, &deps, &[0, 1, 0], 3).expect("decided"),
        None
    );
    // k carries the reduction on C[i][j]: the witness is on two iterations of k.
    let v = carried_dependence(&scop, &sched, &deps, &[0, 1], 2)
        .expect("decided")
        .expect("k carries a dependence");
    assert_eq!(v.source[0], v.target[0]);
    assert_ne!(v.source[1], v.target[1]);
    // The stencil's outer loop carries (1, -1); with dates (i + j, i) the
    // dependence has distance (0, 1): the new outer loop (a wavefront) is
    // parallel and the inner one carries it.
    let scop = scop_of(STENCIL);
    let deps = dependences(&scop, &DepOptions::default()).expect("deps");
    let original = Schedule::original(&scop);
    assert!(carried_dependence(&scop, &original, &deps, &[0], 1)
        .expect("decided")
        .is_some());
    let sched = schedule(&["[n] -> { S0[i, j] -> [0, i + j, 0, i, 0] }"]);
    assert_eq!(
        carried_dependence(&scop, &sched, &deps, &[0], 1).expect("decided"),
        None
    );
    assert!(carried_dependence(&scop, &sched, &deps, &[0, 0], 2)
        .expect("decided")
        .is_some());
}
