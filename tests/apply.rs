//! The directives as schedule rewrites (`apply`), before the recipe syntax
//! reaches them: Clay's conventions (golden values from Clay's own tests),
//! round trips, preconditions and dependence violations.

use polyc::apply::legality::{first_illegality_but_jams, proofs_of_legal};
use polyc::apply::proofs::{Proofs, NO_PROOFS};
use polyc::apply::{apply, apply_knowing, proven_jams, ApplyError, Directive, ParallelOptions};
use polyc::lang::c::read_source;
use polyc::poly::parse_basic_set;
use polyc::scop::local_cells::{first_unsized, Unsized};
use polyc::scop::{dependences, DepOptions, Dependence, Schedule, Scop};

fn load(src: &str) -> (Scop, Vec<Dependence>) {
    let scop = read_source("k.c", src.to_string())
        .expect("accepted")
        .scops
        .remove(0);
    let deps = dependences(&scop, &DepOptions::default()).expect("deps");
    (scop, deps)
}

fn kernel(name: &str) -> (Scop, Vec<Dependence>) {
    load(&std::fs::read_to_string(format!("tests/kernels/{name}.c")).expect("kernel"))
}

/// Apply each directive in turn; the text of the final schedule.
fn run(scop: &Scop, deps: &[Dependence], steps: &[Directive]) -> Result<String, ApplyError> {
    let mut s = Schedule::original(scop);
    for d in steps {
        s = apply(scop, deps, &s, d)?.schedule;
    }
    Ok(s.to_text(scop))
}

const NEST: &str = "void f(int n, double A[n][n]) {\n#pragma scop\n\
    for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    A[i][j] = i + j;\n\
    #pragma endscop\n}\n";

const STENCIL: &str = "void f(int n, double A[n][n]) {\n#pragma scop\n\
    for (i = 1; i < n; i++)\n  for (j = 0; j < n - 1; j++)\n    A[i][j] = A[i - 1][j + 1];\n\
    #pragma endscop\n}\n";

#[test]
fn skew_and_shift_follow_clays_signs() {
    let (scop, deps) = load(NEST);
    let skew = |d, o, k| Directive::Skew {
        beta: vec![0, 0],
        depth: d,
        other: o,
        factor: k,
    };
    assert_eq!(
        run(&scop, &deps, &[skew(1, 2, 2)]).expect("legal"),
        "S0: [0, i - 2j, 0, j, 0]\n"
    );
    assert_eq!(
        run(&scop, &deps, &[skew(2, 1, -1)]).expect("legal"),
        "S0: [0, i, 0, i + j, 0]\n"
    );
    let shift = Directive::Shift {
        beta: vec![0],
        depth: 1,
        params: vec![],
        constant: -1,
    };
    assert_eq!(
        run(&scop, &deps, &[shift]).expect("legal"),
        "S0: [0, i + 1, 0, j, 0]\n"
    );
    let shift_n = Directive::Shift {
        beta: vec![0],
        depth: 2,
        params: vec![2],
        constant: 3,
    };
    assert_eq!(
        run(&scop, &deps, &[shift_n]).expect("legal"),
        "S0: [0, i, 0, -2n + j - 3, 0]\n"
    );
}

#[test]
fn round_trips_give_back_the_schedule() {
    let (scop, deps) = load(NEST);
    let original = Schedule::original(&scop).to_text(&scop);
    let b = || vec![0];
    let pairs = [
        vec![
            Directive::Interchange {
                beta: b(),
                d1: 1,
                d2: 2,
            },
            Directive::Interchange {
                beta: b(),
                d1: 1,
                d2: 2,
            },
        ],
        vec![
            Directive::Reverse {
                beta: b(),
                depth: 2,
            },
            Directive::Reverse {
                beta: b(),
                depth: 2,
            },
        ],
        vec![
            Directive::Skew {
                beta: b(),
                depth: 2,
                other: 1,
                factor: 3,
            },
            Directive::Skew {
                beta: b(),
                depth: 2,
                other: 1,
                factor: -3,
            },
        ],
        vec![
            Directive::Shift {
                beta: b(),
                depth: 1,
                params: vec![1],
                constant: 2,
            },
            Directive::Shift {
                beta: b(),
                depth: 1,
                params: vec![-1],
                constant: -2,
            },
        ],
    ];
    for steps in pairs {
        assert_eq!(
            run(&scop, &deps, &steps).expect("legal"),
            original,
            "{steps:?}"
        );
    }
}

#[test]
fn stripmine_and_tile_make_tile_loops() {
    let (scop, deps) = kernel("gemm");
    let strip = Directive::Stripmine {
        beta: vec![0, 1],
        depth: 2,
        size: 32,
    };
    assert_eq!(
        run(&scop, &deps, &[strip]).expect("legal"),
        "S0: [0, i, 0, j, 0]\n\
         S1: [0, i, 1, c3, 0, k, 0, j, 0] : 32c3 <= k and 32c3 >= k - 31\n"
    );
    // Tiling k and j of S1 (i is shared with S0, whose init must stay first).
    let steps = [
        Directive::Tile {
            beta: vec![0, 1],
            depth: 2,
            outer: 2,
            size: 32,
        },
        Directive::Tile {
            beta: vec![0, 1],
            depth: 4,
            outer: 3,
            size: 16,
        },
    ];
    let text = run(&scop, &deps, &steps).expect("legal");
    assert!(
        text.contains("S1: [0, i, 1, c3, 0, c5, 0, k, 0, j, 0]"),
        "{text}"
    );
    let bad = Directive::Stripmine {
        beta: vec![0],
        depth: 1,
        size: 0,
    };
    assert!(matches!(
        run(&scop, &deps, &[bad]),
        Err(ApplyError::Precondition { .. })
    ));
}

#[test]
fn illegal_rewrites_are_refused_with_a_witness() {
    let (scop, deps) = load(STENCIL);
    let interchange = Directive::Interchange {
        beta: vec![0],
        d1: 1,
        d2: 2,
    };
    match run(&scop, &deps, std::slice::from_ref(&interchange)) {
        Err(ApplyError::Violation(v)) => {
            assert_eq!(v.describe(&scop, &deps).split(": ").count(), 2, "{v:?}");
        }
        other => panic!("interchange accepted: {other:?}"),
    }
    let reverse = Directive::Reverse {
        beta: vec![0],
        depth: 1,
    };
    assert!(matches!(
        run(&scop, &deps, &[reverse]),
        Err(ApplyError::Violation(_))
    ));
    // Skew first: (1, -1) becomes (1, 0), and then the interchange is legal.
    let skew = Directive::Skew {
        beta: vec![0],
        depth: 2,
        other: 1,
        factor: -1,
    };
    assert_eq!(
        run(&scop, &deps, &[skew, interchange]).expect("legal"),
        "S0: [0, i + j, 0, i, 0]\n"
    );
}

#[test]
fn marks_need_a_loop_that_carries_nothing() {
    let (scop, deps) = kernel("gemm");
    let par = |beta: Vec<i64>, depth| Directive::Parallelize {
        beta,
        depth,
        options: Default::default(),
    };
    let text = run(&scop, &deps, &[par(vec![0], 1)]).expect("i is parallel");
    assert!(text.contains("# parallel at α1"), "{text}");
    match run(&scop, &deps, &[par(vec![0, 1], 2)]) {
        Err(ApplyError::Carried {
            depth: 2,
            jammed,
            violation,
        }) if jammed.is_empty() => {
            assert_ne!(violation.source[1], violation.target[1]);
        }
        other => panic!("k marked parallel: {other:?}"),
    }
    let vec_k = Directive::Vectorize {
        beta: vec![0, 1],
        depth: 2,
        reduction: None,
    };
    assert!(matches!(
        run(&scop, &deps, &[vec_k]),
        Err(ApplyError::Precondition { .. })
    ));
    let vec_j = Directive::Vectorize {
        beta: vec![0, 1],
        depth: 3,
        reduction: None,
    };
    assert!(run(&scop, &deps, &[vec_j])
        .expect("j is innermost and free")
        .contains("vector at α3"));
    let deep = Directive::Reverse {
        beta: vec![0, 0],
        depth: 3,
    };
    assert!(matches!(
        run(&scop, &deps, &[deep]),
        Err(ApplyError::Precondition { .. })
    ));
    let nowhere = Directive::Reverse {
        beta: vec![4],
        depth: 1,
    };
    assert!(matches!(
        run(&scop, &deps, &[nowhere]),
        Err(ApplyError::Precondition { .. })
    ));
}

#[test]
fn order_directives_and_their_inverses() {
    let (scop, deps) = kernel("jacobi-1d");
    let original = Schedule::original(&scop).to_text(&scop);
    // Fusing the two inner loops directly reads B[i + 1] before it is written.
    let fuse = Directive::Fuse { beta: vec![0, 0] };
    assert!(matches!(
        run(&scop, &deps, std::slice::from_ref(&fuse)),
        Err(ApplyError::Violation(_))
    ));
    // Shift the second nest by one first (Clay's sign: −(−1) = +1).
    let shift = Directive::Shift {
        beta: vec![0, 1],
        depth: 2,
        params: vec![],
        constant: -1,
    };
    let fused = run(&scop, &deps, &[shift.clone(), fuse.clone()]).expect("legal after the shift");
    assert_eq!(fused, "S0: [0, t, 0, i, 0]\nS1: [0, t, 0, i + 1, 1]\n");
    // split undoes fuse; reorder is undone by its inverse permutation.
    let split = Directive::Split {
        beta: vec![0, 0, 0],
        depth: 2,
    };
    let back = run(&scop, &deps, &[shift.clone(), fuse, split]).expect("legal");
    assert_eq!(back, "S0: [0, t, 0, i, 0]\nS1: [0, t, 1, i + 1, 0]\n");
    assert_ne!(back, original);
    // Two independent nests: reorder, and reorder back.
    let (scop, deps) = load(
        "void f(int n, double A[n], double B[n]) {\n#pragma scop\n\
         for (i = 0; i < n; i++)\n  A[i] = i;\nfor (i = 0; i < n; i++)\n  B[i] = i;\n\
         #pragma endscop\n}\n",
    );
    let swap = Directive::Reorder {
        beta: vec![],
        order: vec![1, 0],
    };
    let swapped = run(&scop, &deps, std::slice::from_ref(&swap)).expect("independent");
    assert_eq!(swapped, "S0: [1, i, 0]\nS1: [0, i, 0]\n");
    let twice = run(&scop, &deps, &[swap.clone(), swap]).expect("legal");
    assert_eq!(twice, Schedule::original(&scop).to_text(&scop));
}

#[test]
fn order_preconditions() {
    let (scop, deps) = kernel("jacobi-1d");
    let bad = [
        Directive::Reorder {
            beta: vec![0],
            order: vec![0, 0],
        },
        Directive::Reorder {
            beta: vec![0, 0, 0],
            order: vec![0],
        },
        Directive::Split {
            beta: vec![0, 1],
            depth: 2,
        },
        Directive::Split {
            beta: vec![0],
            depth: 1,
        },
        Directive::Fuse { beta: vec![] },
        Directive::Unroll {
            beta: vec![0, 0],
            factor: 0,
            epilog: true,
        },
    ];
    for d in bad {
        assert!(
            matches!(
                run(&scop, &deps, std::slice::from_ref(&d)),
                Err(ApplyError::Precondition { .. })
            ),
            "{d:?}"
        );
    }
    // Clay's no-ops change nothing (the recipe front end warns): fusing a
    // loop with the statement-free end of its parent, unrolling by 1,
    // splitting where nothing follows.
    let original = Schedule::original(&scop).to_text(&scop);
    for noop in [
        Directive::Fuse { beta: vec![0, 1] },
        Directive::Unroll {
            beta: vec![0, 0],
            factor: 1,
            epilog: true,
        },
        Directive::Split {
            beta: vec![0, 1, 0],
            depth: 2,
        },
    ] {
        assert_eq!(
            run(&scop, &deps, std::slice::from_ref(&noop)).expect("no-op"),
            original,
            "{noop:?}"
        );
    }
    let unroll = Directive::Unroll {
        beta: vec![0, 0],
        factor: 4,
        epilog: true,
    };
    assert!(run(&scop, &deps, &[unroll])
        .expect("always legal")
        .contains("unroll(4) at α2"));
}

#[test]
fn index_set_split_makes_two_pieces_in_order() {
    use polyc::apply::SplitForm;
    let (scop, deps) = load(NEST);
    // Clay's golden form {1 | 0 | 0 | -1}: α1 - 1 >= 0 is the second part,
    // a new child of the same loop (clay_iss): nothing is reordered.
    let form = SplitForm {
        alphas: vec![1],
        iters: vec![],
        params: vec![],
        constant: -1,
    };
    let iss = Directive::Iss {
        beta: vec![0],
        form,
    };
    let text = run(&scop, &deps, std::slice::from_ref(&iss)).expect("legal: no dependence");
    assert_eq!(
        text,
        "S0: [0, i, 0, j, 0] : i <= 0\nS0: [0, i, 1, j, 0] : i >= 1\n"
    );
    // Splitting then reversing the second part: i runs 0, then n-1 down to 1.
    let (scop, deps) = load(STENCIL);
    let form = SplitForm {
        alphas: vec![],
        iters: vec![1],
        params: vec![],
        constant: -5,
    };
    let iss = Directive::Iss {
        beta: vec![0],
        form,
    };
    let rev = Directive::Reverse {
        beta: vec![0, 1],
        depth: 1,
    };
    // The second part (j >= 5) is child [0, 1] of the i loop; reversing
    // its i runs the stencil's (1, -1) dependence backwards: refused.
    assert!(matches!(
        run(&scop, &deps, &[iss.clone(), rev]),
        Err(ApplyError::Violation(_))
    ));
    // A split on a form that is always false keeps its empty second part,
    // as Clay does (so later β-vectors number as Clay's).
    let never = SplitForm {
        alphas: vec![],
        iters: vec![],
        params: vec![],
        constant: -1,
    };
    let text = run(
        &scop,
        &deps,
        &[Directive::Iss {
            beta: vec![0],
            form: never,
        }],
    )
    .expect("legal");
    assert_eq!(text.lines().count(), 2, "{text}");
}

#[test]
fn shape_directives_and_their_inverses() {
    let (scop, deps) = load(NEST);
    let original = Schedule::original(&scop).to_text(&scop);
    let b = || vec![0];
    let grain = Directive::Grain {
        beta: b(),
        depth: 2,
        factor: 4,
    };
    let text = run(&scop, &deps, std::slice::from_ref(&grain)).expect("legal");
    assert_eq!(text, "S0: [0, i, 0, 4j, 0]\n");
    let strip = Directive::Stripmine {
        beta: b(),
        depth: 1,
        size: 4,
    };
    let lin = Directive::Linearize {
        beta: b(),
        depth: 1,
    };
    assert_eq!(run(&scop, &deps, &[strip, lin]).expect("legal"), original);
    // embed takes a statement's β (Clay refuses a loop's).
    assert!(matches!(
        run(&scop, &deps, &[Directive::Embed { beta: b() }]),
        Err(ApplyError::Precondition { .. })
    ));
    let embed = Directive::Embed {
        beta: vec![0, 0, 0],
    };
    let embedded = run(&scop, &deps, std::slice::from_ref(&embed)).expect("legal");
    assert_eq!(embedded, "S0: [0, i, 0, j, 0, 0, 0]\n");
    let unembed = Directive::Unembed { beta: b() };
    assert_eq!(
        run(&scop, &deps, &[embed, unembed.clone()]).expect("legal"),
        original
    );
    // Not a loop of one iteration, or not a strip-mined loop: refused.
    assert!(matches!(
        run(&scop, &deps, std::slice::from_ref(&unembed)),
        Err(ApplyError::Precondition { .. })
    ));
    let (scop, deps) = kernel("gemm");
    let lin = Directive::Linearize {
        beta: vec![0],
        depth: 1,
    };
    assert!(matches!(
        run(&scop, &deps, &[lin]),
        Err(ApplyError::Precondition { .. })
    ));
}

#[test]
fn grain_densify_and_reshape() {
    let (scop, deps) = load(NEST);
    let original = Schedule::original(&scop).to_text(&scop);
    let grain = Directive::Grain {
        beta: vec![0],
        depth: 2,
        factor: 3,
    };
    let densify = Directive::Densify {
        beta: vec![0],
        depth: 2,
    };
    assert_eq!(
        run(&scop, &deps, &[grain, densify.clone()]).expect("legal"),
        original
    );
    assert!(matches!(
        run(&scop, &deps, &[densify]),
        Err(ApplyError::Precondition { .. })
    ));
    let reshape = Directive::Reshape {
        beta: vec![0],
        depth: 2,
        iterator: 1,
        amount: 2,
    };
    assert_eq!(
        run(&scop, &deps, std::slice::from_ref(&reshape)).expect("legal"),
        "S0: [0, i, 0, -2i + j, 0]\n"
    );
    let back = Directive::Reshape {
        beta: vec![0],
        depth: 2,
        iterator: 1,
        amount: -2,
    };
    assert_eq!(
        run(&scop, &deps, &[reshape, back]).expect("legal"),
        original
    );
    let bad = Directive::Reshape {
        beta: vec![0],
        depth: 2,
        iterator: 3,
        amount: 1,
    };
    assert!(matches!(
        run(&scop, &deps, &[bad]),
        Err(ApplyError::Precondition { .. })
    ));
}

#[test]
fn iss_collapse_and_peel() {
    use polyc::apply::SplitForm;
    let (scop, deps) = kernel("jacobi-1d");
    let original = Schedule::original(&scop).to_text(&scop);
    let form = SplitForm {
        alphas: vec![0, 1],
        iters: vec![],
        params: vec![0, 0],
        constant: -10,
    };
    let iss = Directive::Iss {
        beta: vec![0, 0],
        form,
    };
    let collapse = Directive::Collapse { beta: vec![0, 0] };
    let split = run(&scop, &deps, std::slice::from_ref(&iss)).expect("legal");
    assert_eq!(split.lines().count(), 3, "{split}");
    assert_eq!(
        run(&scop, &deps, &[iss, collapse.clone()]).expect("legal"),
        original
    );
    // Nothing to collapse in the original.
    assert!(matches!(
        run(&scop, &deps, &[collapse]),
        Err(ApplyError::Precondition { .. })
    ));
    // Peel the first two iterations of the first i loop: α2 - 3 >= 0 goes second.
    let peel = Directive::Peel {
        beta: vec![0, 0],
        params: vec![],
        constant: -3,
    };
    let text = run(&scop, &deps, &[peel]).expect("legal");
    assert!(text.contains("S0: [0, t, 0, i, 0] : i <= 2"), "{text}");
    assert!(text.contains("S0: [0, t, 1, i, 0] : i >= 3"), "{text}");
}

/// `stripmine` (and `tile` without a move) skip the dependence check only
/// when they rewrite every piece of the loop they cut: strip-mining the
/// update's `i` alone (gemm: the init shares `i`) changes the order of the
/// init and the update, and is refused with a witness; the whole `i` loop,
/// or a loop of the update alone (`k`), is accepted.
#[test]
fn stripmine_of_part_of_a_loop_is_still_checked() {
    let (scop, deps) = kernel("gemm");
    let partial = |d: Directive| match run(&scop, &deps, &[d]) {
        Err(ApplyError::Violation(_)) => {}
        other => panic!("not refused for a dependence: {other:?}"),
    };
    partial(Directive::Stripmine {
        beta: vec![0, 1, 0],
        depth: 1,
        size: 4,
    });
    partial(Directive::Tile {
        beta: vec![0, 1],
        depth: 1,
        outer: 1,
        size: 4,
    });
    for whole in [
        Directive::Stripmine {
            beta: vec![0],
            depth: 1,
            size: 4,
        },
        Directive::Tile {
            beta: vec![0, 1],
            depth: 2,
            outer: 2,
            size: 4,
        },
    ] {
        assert!(
            run(&scop, &deps, std::slice::from_ref(&whole)).is_ok(),
            "{whole:?}"
        );
    }
}

/// After a directive that rewrites the dates inside one loop, `apply`
/// checks only the pairs of instances in that loop
/// (`illegality_after`): every directive of each kind, at every loop of
/// kernels whose nests share outer loops, gets the same answer, witness
/// included, as the check of the whole schedule.
#[test]
fn the_check_inside_a_rewritten_loop_answers_as_the_whole_check() {
    use polyc::apply::legality::first_illegality;
    use polyc::apply::{illegality_after, rewrite};
    let (mut refused, mut accepted) = (0, 0);
    for name in ["adi", "doitgen", "lu", "fdtd-2d", "gemver", "jacobi-2d"] {
        let (scop, deps) = kernel(name);
        let original = Schedule::original(&scop);
        for beta in &loops_and_statements(&original) {
            let d = beta.len();
            let mut directives = vec![
                Directive::Reverse {
                    beta: beta.clone(),
                    depth: d,
                },
                Directive::Shift {
                    beta: beta.clone(),
                    depth: d,
                    params: vec![0; scop.params.len()],
                    constant: 1,
                },
                Directive::Split {
                    beta: beta.clone(),
                    depth: d,
                },
                Directive::Fuse { beta: beta.clone() },
                Directive::Reorder {
                    beta: beta.clone(),
                    order: vec![1, 0],
                },
                Directive::TileBand {
                    beta: beta.clone(),
                    depth: d,
                    sizes: vec![4, 4],
                },
            ];
            if d >= 2 {
                directives.extend([
                    Directive::Interchange {
                        beta: beta.clone(),
                        d1: d - 1,
                        d2: d,
                    },
                    Directive::Skew {
                        beta: beta.clone(),
                        depth: d,
                        other: d - 1,
                        factor: 1,
                    },
                    Directive::Skew {
                        beta: beta.clone(),
                        depth: d - 1,
                        other: d,
                        factor: -1,
                    },
                ]);
            }
            for directive in &directives {
                let Ok(next) = rewrite(&scop, &deps, &original, directive) else {
                    continue;
                };
                let inside =
                    illegality_after(&scop, &deps, &original, directive, &next, &NO_PROOFS)
                        .expect("decided");
                let whole = first_illegality(&scop, &deps, &next).expect("decided");
                assert_eq!(inside, whole, "{name}: {directive:?}");
                match inside {
                    Some(_) => refused += 1,
                    None => accepted += 1,
                }
            }
        }
    }
    assert!(
        refused > 10 && accepted > 10,
        "{refused} refused, {accepted} accepted"
    );
}

/// The directives `apply` may find order-keeping without the whole check
/// (`illegality_after`: a band shown permutable, pairs of pieces a β-only
/// rewrite keeps in order, `embed`), at the loop `beta` of a schedule.
fn shortcut_directives(scop: &Scop, beta: &[i64]) -> Vec<Directive> {
    let d = beta.len();
    let mut out = vec![
        Directive::Split {
            beta: beta.to_vec(),
            depth: d,
        },
        Directive::Fuse {
            beta: beta.to_vec(),
        },
        Directive::Reorder {
            beta: beta.to_vec(),
            order: vec![1, 0],
        },
        Directive::Embed {
            beta: beta.to_vec(),
        },
        Directive::TileBand {
            beta: beta.to_vec(),
            depth: d,
            sizes: vec![4, 4],
        },
        Directive::TileBand {
            beta: beta.to_vec(),
            depth: d,
            sizes: vec![3, 5, 2],
        },
        Directive::Shift {
            beta: beta.to_vec(),
            depth: d,
            params: vec![0; scop.params.len()],
            constant: 1,
        },
    ];
    if d >= 2 {
        out.extend([
            Directive::Interchange {
                beta: beta.to_vec(),
                d1: d - 1,
                d2: d,
            },
            Directive::Skew {
                beta: beta.to_vec(),
                depth: d - 1,
                other: d,
                factor: -1,
            },
            Directive::Skew {
                beta: beta.to_vec(),
                depth: d,
                other: d - 1,
                factor: -2,
            },
            Directive::Tile {
                beta: beta.to_vec(),
                depth: d,
                outer: d - 1,
                size: 4,
            },
        ]);
    }
    if d >= 3 {
        out.push(Directive::Interchange {
            beta: beta.to_vec(),
            d1: d - 2,
            d2: d,
        });
    }
    out
}

/// Every loop of `schedule` (as β prefixes) and every statement.
fn loops_and_statements(schedule: &Schedule) -> Vec<Vec<i64>> {
    let mut out: Vec<Vec<i64>> = Vec::new();
    for (_, beta) in polyc::apply::tree::all_betas(schedule).expect("β-vectors") {
        for l in 0..beta.len() {
            if !out.contains(&beta[..=l].to_vec()) {
                out.push(beta[..=l].to_vec());
            }
        }
    }
    out
}

/// The shortcuts of `illegality_after` (a band shown permutable, pairs of
/// pieces that a rewrite moving statements between loops keeps in order,
/// `embed`) answer as the check of the whole schedule, witness included:
/// each directive of those kinds at each loop, on the original schedule
/// and on each schedule one of them gives, of kernels with bands,
/// imperfect nests and nests that share loops.
#[test]
fn the_shortcuts_of_the_check_answer_as_the_whole_check() {
    use polyc::apply::legality::first_illegality;
    use polyc::apply::{illegality_after, rewrite};
    let (mut refused, mut accepted) = (0, 0);
    for name in ["lu", "cholesky", "adi", "seidel-2d", "2mm", "fdtd-2d"] {
        let (scop, deps) = kernel(name);
        let mut starts = vec![Schedule::original(&scop)];
        let mut steps = 0;
        while let Some(start) = starts.pop() {
            for beta in loops_and_statements(&start) {
                for directive in shortcut_directives(&scop, &beta) {
                    let Ok(next) = rewrite(&scop, &deps, &start, &directive) else {
                        continue;
                    };
                    let shortcut =
                        illegality_after(&scop, &deps, &start, &directive, &next, &NO_PROOFS)
                            .expect("decided");
                    let whole = first_illegality(&scop, &deps, &next).expect("decided");
                    assert_eq!(
                        shortcut,
                        whole,
                        "{name}: {directive:?} on {}",
                        start.to_text(&scop)
                    );
                    match shortcut {
                        Some(_) => refused += 1,
                        None => {
                            accepted += 1;
                            // One more level from the first legal rewrites.
                            if steps < 3 && next != start {
                                steps += 1;
                                starts.push(next);
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        refused > 50 && accepted > 50,
        "{refused} refused, {accepted} accepted"
    );
}

/// Two statements in different loops of one band: the distances are all
/// non-negative, but a β date between the loops decides some pairs, so
/// that the band is not permutable as one: `interchange` of the two loops
/// breaks the dependence from the second statement to the first, and is
/// refused with its witness.
#[test]
fn a_band_whose_statements_sit_in_different_inner_loops_is_checked_whole() {
    let (scop, deps) = load(
        "void f(int n, double A[n][n], double B[n][n]) {\n#pragma scop\n\
         for (i = 1; i < n; i++) {\n\
           for (j = 0; j < n; j++)\n      A[i][j] = B[i - 1][j];\n\
           for (j = 0; j < n; j++)\n      B[i][j] = A[i][j];\n\
         }\n#pragma endscop\n}\n",
    );
    let swap = Directive::Interchange {
        beta: vec![0],
        d1: 1,
        d2: 2,
    };
    match run(&scop, &deps, &[swap]) {
        Err(ApplyError::Violation(v)) => {
            assert_eq!(v.source_date[2], 1, "the source is the second statement");
            assert_eq!(v.target_date[2], 0);
        }
        other => panic!("expected a violation, got {other:?}"),
    }
}

#[test]
fn a_jam_proof_is_reused_only_where_what_it_read_is_unchanged() {
    let (scop, deps) = load(NEST);
    let original = Schedule::original(&scop);
    let jam = Directive::UnrollJam {
        beta: vec![0],
        depth: 1,
        factor: 2,
    };
    let proven = proven_jams(&original, &jam).expect("a loop");
    assert_eq!(proven.len(), 1);
    assert_eq!(proven[0].jams, vec![(vec![0], 2)]);
    assert!(proven[0].holds_on(&original));
    // The jam's own rewrite adds marks, no date: the proof holds on it.
    let jammed = apply(&scop, &deps, &original, &jam)
        .expect("i jams: nothing depends on anything")
        .schedule;
    assert!(proven[0].holds_on(&jammed));
    // Shifted, the same loop holds other dates: proven again, not reused.
    let shifted = apply(
        &scop,
        &deps,
        &jammed,
        &Directive::Shift {
            beta: vec![0],
            depth: 1,
            params: vec![0],
            constant: 3,
        },
    )
    .expect("a shift of the whole loop")
    .schedule;
    assert!(!proven[0].holds_on(&shifted));
    assert_eq!(
        first_illegality_but_jams(&scop, &deps, &shifted, &Proofs::of_jams(proven))
            .expect("decided"),
        None
    );
    // No other directive proves a jam.
    let par = Directive::Parallelize {
        beta: vec![0],
        depth: 1,
        options: Default::default(),
    };
    assert!(proven_jams(&original, &par).expect("a loop").is_empty());
}

/// A recipe's checks hand their proofs on (`proofs_of_legal`): a marked
/// loop proven to carry nothing is not proven again where its pieces and
/// the jams around it are the same. On a stencil, the proof holds after
/// another mark and not after an interchange; and with the proofs, every
/// directive gets the same answer as without.
#[test]
fn a_mark_proof_is_reused_only_where_what_it_read_is_unchanged() {
    let (scop, deps) = load(STENCIL);
    let original = Schedule::original(&scop);
    let par_j = Directive::Parallelize {
        beta: vec![0, 0],
        depth: 2,
        options: Default::default(),
    };
    let marked = apply(&scop, &deps, &original, &par_j)
        .expect("j carries nothing: the dependence is carried by i")
        .schedule;
    let proofs = proofs_of_legal(&marked);
    assert_eq!(proofs.marks.len(), 1);
    assert_eq!(proofs.marks[0].marked.prefix, vec![0, 0]);
    assert!(proofs.marks[0].holds_on(&marked));
    let vector_j = Directive::Vectorize {
        beta: vec![0, 0],
        depth: 2,
        reduction: None,
    };
    let both = apply_knowing(&scop, &deps, &marked, &vector_j, &proofs)
        .expect("j carries nothing")
        .schedule;
    assert!(proofs.marks[0].holds_on(&both));
    let swap = Directive::Interchange {
        beta: vec![0, 0],
        d1: 1,
        d2: 2,
    };
    let swapped = polyc::apply::rewrite(&scop, &deps, &marked, &swap).expect("a rewrite");
    assert!(!proofs.marks[0].holds_on(&swapped));
    // `i` jammed by 2 keeps the pieces, but changes the jams around `j`.
    let jam_i = Directive::UnrollJam {
        beta: vec![0],
        depth: 1,
        factor: 2,
    };
    for directive in [&vector_j, &swap, &jam_i] {
        assert_eq!(
            apply_knowing(&scop, &deps, &marked, directive, &proofs),
            apply(&scop, &deps, &marked, directive),
            "{directive:?}"
        );
    }
}

/// With the proofs of the schedule it starts from (every loop that may be
/// marked parallel, and every innermost loop that may be jammed, marked
/// so), each directive of [`shortcut_directives`] and each mark at each
/// loop gets the same answer, witness included, as without them.
#[test]
fn the_check_with_proofs_answers_as_the_check_without() {
    let (mut refused, mut accepted) = (0, 0);
    for name in [
        "lu",
        "2mm",
        "fdtd-2d",
        "gemver",
        "jacobi-2d",
        "clay-comment",
    ] {
        let (scop, deps) = kernel(name);
        let mut start = Schedule::original(&scop);
        for beta in loops_and_statements(&start) {
            let depth = beta.len();
            let marks = [
                Directive::Parallelize {
                    beta: beta.clone(),
                    depth,
                    options: Default::default(),
                },
                Directive::UnrollJam {
                    beta: beta.clone(),
                    depth,
                    factor: 2,
                },
            ];
            for mark in &marks {
                if let Ok(applied) = apply(&scop, &deps, &start, mark) {
                    start = applied.schedule;
                }
            }
        }
        let proofs = proofs_of_legal(&start);
        assert!(!proofs.marks.is_empty(), "{name}: a loop marked");
        for beta in loops_and_statements(&start) {
            let depth = beta.len();
            let mut directives = shortcut_directives(&scop, &beta);
            directives.extend([
                Directive::Vectorize {
                    beta: beta.clone(),
                    depth,
                    reduction: None,
                },
                Directive::UnrollJam {
                    beta: beta.clone(),
                    depth,
                    factor: 3,
                },
                Directive::Reverse {
                    beta: beta.clone(),
                    depth,
                },
            ]);
            for directive in &directives {
                let with = apply_knowing(&scop, &deps, &start, directive, &proofs);
                let without = apply(&scop, &deps, &start, directive);
                assert_eq!(with, without, "{name}: {directive:?}");
                match with {
                    Err(_) => refused += 1,
                    Ok(_) => accepted += 1,
                }
            }
        }
    }
    assert!(
        refused > 50 && accepted > 50,
        "{refused} refused, {accepted} accepted"
    );
}

#[test]
fn reduction_updates_are_read_off_the_assignment() {
    use polyc::scop::reduction::{update_operator, ReductionOp::*};
    for (statement, expected) in [
        ("x += A[i];", Some(Add)),
        ("x -= A[i] * 2;", Some(Add)),
        ("x = x + A[i] - 1;", Some(Add)),
        ("x = (x - A[i]) + A[i + 1];", Some(Add)),
        ("x *= A[i];", Some(Mul)),
        ("x = (x * A[i]) * 2;", Some(Mul)),
        // The accumulator first, and nowhere else; one operator.
        ("x = A[i] + x;", None),
        ("x = x + A[i] * x;", None),
        ("x += x;", None),
        ("x = x * A[i] + 1;", None),
        ("x = x / A[i];", None),
        ("x = A[i];", None),
        ("A[i] += x;", None),
    ] {
        let src = format!(
            "void f(int n, long A[n]) {{\n  long x;\n#pragma scop\n  for (i = 0; i < n; i++)\n    {statement}\n#pragma endscop\n}}\n"
        );
        let (scop, _) = load(&src);
        assert_eq!(
            update_operator(&scop.statements[0], "x"),
            expected,
            "{statement}"
        );
    }
}

#[test]
fn statements_of_one_loop_are_checked_with_each_ones_reduction() {
    // Fused after their marks, the loop holds a statement marked with the
    // reduction of `dot` and one marked parallel without it: checked with
    // each statement's marks, the second carries `dot`'s updates (code
    // generation prints one statement's clauses).
    let (scop, deps) = load(
        "long A[100], B[100];\nlong dot;\nvoid f(void) {\n#pragma scop\n\
         for (i = 0; i < 100; i++)\n  dot += A[i] * 3;\n\
         for (i = 0; i < 100; i++)\n  B[i] = A[i] + 1;\n#pragma endscop\n}\n",
    );
    let par = |beta: Vec<i64>, reduction: Option<&str>| Directive::Parallelize {
        beta,
        depth: 1,
        options: ParallelOptions {
            reduction: reduction.map(str::to_string),
            ..ParallelOptions::default()
        },
    };
    let fuse = Directive::Fuse { beta: vec![0] };
    match run(
        &scop,
        &deps,
        &[par(vec![0], Some("dot")), par(vec![1], None), fuse.clone()],
    ) {
        Err(ApplyError::Carried { violation, .. }) => {
            assert_eq!(deps[violation.dependence].array, "dot")
        }
        other => panic!("fused with mixed marks: {other:?}"),
    }
    let text = run(&scop, &deps, &[fuse, par(vec![0], Some("dot"))]).expect("fused, then marked");
    assert_eq!(text.matches("reduction(+: dot)").count(), 2, "{text}");
}

/// A region that writes `A[sub]` for `0 <= i < n`, with `A` made
/// local, as `add_array` and `replace_array` would leave it.
fn scop_writing(sub: &str) -> Scop {
    let kernel = format!(
        "void f(int n, double A[99]) {{\n  int i;\n#pragma scop\n  \
         for (i = 0; i < n; i++)\n    A[{sub}] = 1.0;\n#pragma endscop\n}}\n"
    );
    let file = read_source("k.c", kernel).expect("the kernel parses");
    let mut scop = file.scops.into_iter().next().expect("one scop");
    scop.arrays[0].local = true;
    scop
}

/// `5 - i` is negative once `n` passes 6, unless the context says it
/// does not; `i` is bounded by `n - 1`; `i % 3` by 2, a constant;
/// the first unsized dimension is named with the reason.
#[test]
fn a_local_subscript_must_be_non_negative_under_the_context() {
    let negative = scop_writing("5 - i");
    assert_eq!(
        first_unsized(&negative).expect("decided"),
        Some(("A".to_string(), 0, Unsized::Negative))
    );
    let mut narrowed = negative.clone();
    narrowed.context = parse_basic_set("[n] -> { : n <= 6 }").expect("a context");
    assert_eq!(first_unsized(&narrowed).expect("decided"), None);
    for sub in ["i", "i % 3", "n - 1 - i"] {
        assert_eq!(
            first_unsized(&scop_writing(sub)).expect("decided"),
            None,
            "{sub}"
        );
    }
    assert_eq!(
        Unsized::Negative.describe("d0", 0),
        "subscript 1 of `d0` may be negative: polyc declares local arrays from index 0"
    );
}
