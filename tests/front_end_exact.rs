//! The front end's sets are exact: for many loop headers and conditions
//! (min/max, C's truncating `/`, floord/ceild, strides, `||`, `!`, `!=`),
//! the extracted domain holds exactly the iterations that C executes,
//! checked by running the loops with a small interpreter of the syntax tree
//! for every parameter value in a range.

use crate::common;

use common::interp::{execute, touched, Env};
use polyc::lang::c::read_source;
use polyc::poly::{BasicSet, Set, Space};
use polyc::syntax::c::Stmt;

/// Run the region's statements; push the iterator values at each statement.
fn run(stmts: &[Stmt], env: &mut Env, out: &mut Vec<Vec<i64>>) {
    execute(stmts, env, &mut Vec::new(), &mut |_, _, loops| {
        out.push(loops.iter().map(|(_, v)| *v).collect())
    });
}

fn set_holds(s: &Set, p: &[i64]) -> bool {
    s.basics().iter().any(|b| common::holds(b, p))
}

/// Check one region with one parameter `n` and iterators `i` (and `j`).
fn check(region: &str, n_iters: usize) {
    let src =
        format!("void f(int n, double A[1]) {{\n#pragma scop\n{region}\n#pragma endscop\n}}\n");
    let file = match read_source("t.c", src.clone()) {
        Ok(f) => f,
        Err(d) => panic!("rejected:\n{}", d.render("t.c", &src)),
    };
    let scop = &file.scops[0];
    let st = &scop.statements[0];
    assert_eq!(st.iterators.len(), n_iters);
    let params = &scop.params;
    for n in -7..=7 {
        let mut env = vec![("n".to_string(), n)];
        let mut executed = Vec::new();
        run(&scop.tree, &mut env, &mut executed);
        let point = |it: &[i64]| {
            let mut p: Vec<i64> = params.iter().map(|_| n).collect();
            p.extend_from_slice(it);
            p
        };
        for it in &executed {
            assert!(
                set_holds(&st.domain, &point(it)),
                "{region}\nn = {n}: executed {it:?} missing from {}",
                st.domain
            );
        }
        // Nothing else in the box.
        let range = -25..=25;
        let mut boxes: Vec<Vec<i64>> = range.clone().map(|i| vec![i]).collect();
        if n_iters == 2 {
            boxes = range
                .clone()
                .flat_map(|i| range.clone().map(move |j| vec![i, j]))
                .collect();
        }
        for it in boxes {
            if set_holds(&st.domain, &point(&it)) {
                assert!(
                    executed.contains(&it),
                    "{region}\nn = {n}: {it:?} in {} but never executed",
                    st.domain
                );
            }
        }
    }
}

#[test]
fn loop_domains_are_exact() {
    let inits = [
        "0",
        "1",
        "n - 1",
        "-n / 3",
        "n / 2",
        "max(0, n - 5)",
        "min(n, 3)",
        "floord(n, 3)",
        "ceild(n, 2)",
        "(n + 1) / 2",
    ];
    let ups = [
        "i < n",
        "i <= n / 2",
        "i < min(n, 7)",
        "i <= max(n - 2, 3)",
        "2 * i < n + 1",
        "i < n && i <= 5",
        "3 * i <= 2 * n - 1",
        "i < (n - 7) / 3 + 4",
    ];
    let downs = [
        "i >= 0",
        "i > -n / 2",
        "i >= max(-3, n - 9)",
        "2 * i >= n - 4 && i > -5",
    ];
    let mut count = 0;
    for init in inits {
        for (conds, steps) in [
            (&ups[..], &["i++", "i += 2", "i += 3"][..]),
            (&downs[..], &["i--", "i -= 2"][..]),
        ] {
            for cond in conds {
                for step in steps {
                    check(
                        &format!("for (i = {init}; {cond}; {step})\n  A[0] = 1.0;"),
                        1,
                    );
                    count += 1;
                }
            }
        }
    }
    assert!(count > 300, "{count} cases");
}

#[test]
fn guarded_and_nested_domains_are_exact() {
    for region in [
        "for (i = 0; i < n; i++)\n  for (j = i; j <= n / 2; j++)\n    if (i == j || !(i + j < n))\n      A[0] = 1.0;",
        "for (i = -3; i < n; i++)\n  for (j = 0; j < 6; j++)\n    if (i != j && 2 * i - j >= 1 && j + 2 <= n)\n      A[0] = 1.0;",
        "for (i = 0; i <= 8; i++)\n  for (j = max(i - 3, 0); j <= min(i + n, 9); j += 1)\n    if (i / 3 == j / 2)\n      A[0] = 1.0;",
        "for (i = 0; i <= 8; i++)\n  for (j = 0; j <= 8; j++)\n    if (i < 2) { } else if (j > n) A[0] = 1.0;",
        // An `else if` chain of equalities: the front end drops the plainly
        // empty pieces of the negations as it goes; the set stays the same.
        "for (i = -9; i <= 9; i++)\n  for (j = -3; j <= 3; j++)\n    if (i == 0) { } else if (i == n) { } else if (i == 3) { } else if (2 * i == j + 1) { } else if (i != j) A[0] = 1.0;",
        "for (i = -9; i <= 9; i++)\n  for (j = -3; j <= 3; j++)\n    if (i == j) { } else if (i == j + 1) { } else if (i >= j - 1 && i <= j + 3) { } else if (i - j == n) { } else A[0] = 1.0;",
    ] {
        check(region, 2);
    }
}

#[test]
fn remainders_and_divisions_by_constants_are_exact() {
    // C's `%` takes the sign of the dividend and `/` truncates, for any sign
    // of either operand: n runs over -7..=7, so dividends are negative too.
    for region in [
        "for (i = n % 3; i < 9; i++)\n  A[0] = 1.0;",
        "for (i = -8; i <= (n - 2) % 4 + 3; i++)\n  A[0] = 1.0;",
        "for (i = -n % 4; i < n % -5 + 6; i++)\n  A[0] = 1.0;",
        "for (i = 9; i > -(n % 3) - 4; i--)\n  A[0] = 1.0;",
        "for (i = -9; i < 9; i++)\n  if (i % 3 == 1)\n    A[0] = 1.0;",
        "for (i = -9; i < 9; i++)\n  if ((i - n) % 2 != 0 && i / -2 >= n % 3)\n    A[0] = 1.0;",
        "for (i = -9; i < 9; i++)\n  if (!((i + 1) % 4 < 2) || i % -3 == 0)\n    A[0] = 1.0;",
        // A conditional with an affine condition is piecewise too.
        "for (i = (n > 2 ? -n : n % 3); i < (n == 0 || n < -4 ? 5 : n); i++)\n  if ((i < 0 ? -i : i) % 3 == 2)\n    A[0] = 1.0;",
    ] {
        check(region, 1);
    }
    check(
        "for (i = -4; i < 5; i++)\n  for (j = -4; j < 5; j++)\n    if (i % 2 == j % 3 && (i + j) % 5 >= -1)\n      A[0] = 1.0;",
        2,
    );
}

#[test]
fn remainder_subscripts_are_exact() {
    // Each access relation maps an executed instance to exactly the cell the
    // interpreter computes, and to no other cell in a box around it.
    let region = "for (i = -6; i < n; i++)\n  for (j = 0; j < 3; j++)\n    A[(i + 1) % 2][i % -3][(i - n) / 2 + j % 2] = A[i % 2][j == 0 ? 2 : j - 1][(j - i) % 4];";
    let src = format!(
        "void f(int n, double A[2][3][9]) {{\n#pragma scop\n{region}\n#pragma endscop\n}}\n"
    );
    let file = read_source("t.c", src).unwrap_or_else(|d| panic!("rejected: {}", d.message));
    let scop = &file.scops[0];
    let st = &scop.statements[0];
    let names = ["i", "j", "a", "b", "c"].map(String::from).to_vec();
    let flat = Space::set(vec!["n".into()], None, names);
    for n in -3..=5 {
        let mut env = vec![("n".to_string(), n)];
        let mut seen = 0;
        execute(
            &scop.tree,
            &mut env,
            &mut Vec::new(),
            &mut |s, env, loops| {
                let Stmt::Expr { expr, .. } = s else { return };
                let it: Vec<i64> = loops.iter().map(|(_, v)| *v).collect();
                let cells = touched(expr, env);
                for (access, (kind, (_, subs))) in st.accesses.iter().zip(cells.iter()) {
                    assert_eq!(access.kind, *kind);
                    // The computed cell, and cells off by 1 to 3 in one subscript.
                    let mut candidates = vec![subs.clone()];
                    for d in 0..3 {
                        for off in [-3, -2, -1, 1, 2, 3] {
                            let mut c = subs.clone();
                            c[d] += off;
                            candidates.push(c);
                        }
                    }
                    for cell in candidates {
                        let mut p = vec![n];
                        p.extend_from_slice(&it);
                        p.extend_from_slice(&cell);
                        let inside = access.relation.basics().iter().any(|m| {
                            let set = BasicSet::from_parts(
                                flat.clone(),
                                m.n_local(),
                                m.constraints().to_vec(),
                            );
                            common::holds(&set, &p)
                        });
                        assert_eq!(
                            inside,
                            cell == *subs,
                            "n = {n}, {it:?}: cell {cell:?}, computed {subs:?}"
                        );
                    }
                }
                seen += 1;
            },
        );
        assert!(seen > 0, "n = {n}: nothing executed");
    }
}

/// A strided loop from a piecewise start is a stride from whichever piece
/// applies: red-black's `1 + i % 2` (one piece per sign of `i`), a
/// remainder downwards, a conditional, a maximum.
#[test]
fn strided_loops_from_piecewise_starts_are_exact() {
    for region in [
        "for (i = -6; i < n; i++)\n  for (j = 1 + i % 2; j < 9; j += 2)\n    A[0] = 1.0;",
        "for (i = -6; i < n; i++)\n  for (j = 1 + (i + 1) % 2; j < 9; j = j + 2)\n    A[0] = 1.0;",
        "for (i = -6; i < n; i++)\n  for (j = 8 - (i + n) % 3; j > -4; j -= 3)\n    A[0] = 1.0;",
        "for (i = -6; i < 6; i++)\n  for (j = (i > n ? i / 2 : n % 3); j <= 9; j += 3)\n    A[0] = 1.0;",
        "for (i = -6; i < 6; i++)\n  for (j = max(i, n - 2); j <= 9; j += 2)\n    A[0] = 1.0;",
        "for (i = -6; i < 6; i++)\n  for (j = min(-i, n / 2) + 9; j >= -9; j -= 4)\n    A[0] = 1.0;",
    ] {
        check(region, 2);
    }
}
