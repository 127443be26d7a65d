//! The isl-notation parser (`polyc::poly::parse_*`): the printer's own text
//! reads back to itself, hand-written isl forms mean what they say (checked
//! point by point against a closure), and bad input is an error, never a panic.

use polyc::poly::*;

// ---------------------------------------------------------------- round trips

/// Sets in the printer's style; the first ones are verbatim from
/// `tests/snapshots/*.snap` ("domain" lines).
const SETS: &[&str] = &[
    "[N] -> { S0[i] : i >= 0 and i <= N - 1 }",
    "[NR, NQ, NP] -> { S1[r, q, p, s] : r >= 0 and r <= NR - 1 and q >= 0 and q <= NQ - 1 and p >= 0 and p <= NP - 1 and s >= 0 and s <= NP - 1 }",
    "[_PB_M, _PB_N] -> { S11[i, j] : i >= 0 and i <= _PB_M - 2 and j >= i + 1 and j <= _PB_M - 1 }",
    "[_PB_M, _PB_N] -> { S14[] }",
    "[_PB_TSTEPS, _PB_N] -> { S0[t, i, j, k] : t >= 1 and t <= _PB_TSTEPS and i >= 1 and i <= _PB_N - 2 and j >= 1 and j <= _PB_N - 2 and k >= 1 and k <= _PB_N - 2 }",
    "[n] -> { S0[i, j] : i >= 0 and i <= n - 1 and j >= 0 and j <= n - 1 and j = i }",
    "[n] -> { S1[i, j] : i >= 0 and i <= n - 1 and j >= 0 and j <= n - 1 and j <= i - 1; S1[i, j] : i >= 0 and i <= n - 1 and j >= 0 and j <= n - 1 and j >= i + 1 }",
    "[n] -> { S3[i] : i <= n - 1 and i >= 0 }",
    "[n] -> { S4[i, j] : i >= 0 and i <= n - 1 and j >= 0 and j <= n - 1 and j >= n - i }",
    "[n] -> { S5[i, j] : i >= 0 and i <= n - 1 and j >= 0 and j <= n - 1 and j <= 2i - 1 and j <= n - 8 }",
    "[n] -> { S6[i] : exists (e0: i >= 0 and n >= 0 and 2e0 <= n and 2e0 >= n - 1 and e0 >= i + 1); S6[i] : exists (e0: i >= 0 and n <= -1 and 2e0 <= -n and 2e0 >= -n - 1 and e0 <= -i - 1) }",
    "[n] -> { S7[i] : exists (e0: i >= 0 and 2e0 = i and i <= n - 1) }",
    "[tmax, ny, nx] -> { S3[t, i, j] : t >= 0 and t <= tmax - 1 and i >= 0 and i <= nx - 2 and j >= 0 and j <= ny - 2 }",
    "[n, m] -> { S1[i, k, j] : i >= 0 and i <= n - 1 and k >= 0 and k <= m - 1 and j >= 0 and j <= i and j <= n - 1 }",
    // Other printer output.
    "[N] -> { S[i] : i >= 0 and i <= N - 1 }",
    "[n] -> { : }",
    "[n] -> { : n >= 0 }",
    "[n, m] -> { : exists (e0: 2e0 = n and m >= n); : m <= -1 }",
    "{ }",
    "[n] -> { }",
    "{ [x] : 3x >= 1 and 3x <= 2 }",
    "{ [i, j] }",
    "{ S[i] : exists (e0: 2e0 = i and i >= 0) }",
    "[n] -> { S6[i] : exists (e0: i >= 0 and 2e0 <= n and 2e0 >= n - 1 and e0 >= i + 1); S6[i] : exists (e0: i >= 0 and n <= -1) }",
    "[N, M] -> { S[i, j] : exists (e0, e1: 3e0 = i - 1 and 2e1 = j and e1 >= e0 and e1 <= N) }",
    "[n] -> { S[i] : i >= 0; S[i] : i <= -5 and n >= 3 }",
];

/// Relations in the printer's style; the first ones are verbatim from
/// `tests/snapshots/*.snap` ("relation" and "schedule" lines).
const MAPS: &[&str] = &[
    "[NR, NQ, NP] -> { S1[r, q, p, s] -> C4[s, p] }",
    "[N] -> { S4[i] -> alpha[] }",
    "[_PB_M, _PB_N] -> { S10[i] -> corr[i, i] }",
    "[_PB_M, _PB_N] -> { S14[] -> corr[_PB_M - 1, _PB_M - 1] }",
    "[_PB_TSTEPS, _PB_N] -> { S0[t, i, j, k] -> A[i - 1, j, k] }",
    "[n] -> { S0[] -> r[0] }",
    "[n] -> { S6[i] -> x[2i + 1] }",
    "[tmax, ny, nx] -> { S0[t, j] -> ey[0, j] }",
    "[NR, NQ, NP] -> { S1[r, q, p, s] -> [0, r, 0, q, 0, p, 1, s, 0] }",
    "[_PB_M, _PB_N] -> { S14[] -> [4] }",
    "[tsteps, n] -> { S9[t, i] -> [0, t, 1, i, 2] }",
    // Other printer output.
    "[n] -> { S0[i, j] -> A[i, j + 1] }",
    "[n] -> { S0[i, j] -> [0, i, 0, j, 0] }",
    "[n] -> { S1[] -> [1] }",
    "[ni, nj] -> { S1[i, k, j] -> A[i, k] }",
    "{ [i] -> [o0] : 2o0 = i }",
    "[n] -> { S[i] -> T[n + i] : i >= 0 and i <= n - 1 }",
    "{ }",
];

#[test]
fn printer_sets_read_back_to_the_same_text() {
    for text in SETS {
        let set = parse_set(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&set.to_string(), text);
        let again: Set = set.to_string().parse().unwrap();
        assert_eq!(again, set, "{text}");
    }
}

#[test]
fn printer_maps_read_back_to_the_same_text() {
    for text in MAPS {
        let map = parse_map(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&map.to_string(), text);
        let again: Map = map.to_string().parse().unwrap();
        assert_eq!(again, map, "{text}");
    }
}

#[test]
fn basic_parsers_round_trip_single_conjunctions() {
    for text in SETS
        .iter()
        .filter(|t| !t.contains(';') && **t != "{ }" && !t.ends_with("{ }"))
    {
        let b = parse_basic_set(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&b.to_string(), text);
    }
    for text in MAPS.iter().filter(|t| **t != "{ }") {
        let b: BasicMap = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&b.to_string(), text);
    }
}

#[test]
fn the_round_trip_lists_are_long_enough() {
    assert!(SETS.len() + MAPS.len() >= 25);
}

// ------------------------------------------------------- meaning, point by point

/// Whether `x` (parameters, then dimensions) satisfies every row for some
/// values of the locals in -30..=30.
fn holds(rows: &[Constraint], n_local: usize, x: &[i64]) -> bool {
    fn search(rows: &[Constraint], point: &mut Vec<i64>, left: usize) -> bool {
        if left == 0 {
            return rows.iter().all(|c| {
                let v: i64 = c
                    .coeffs
                    .iter()
                    .zip(point.iter())
                    .map(|(a, b)| a * b)
                    .sum::<i64>()
                    + c.constant;
                match c.kind {
                    ConstraintKind::Eq => v == 0,
                    ConstraintKind::Ineq => v >= 0,
                }
            });
        }
        for v in -30..=30 {
            point.push(v);
            let found = search(rows, point, left - 1);
            point.pop();
            if found {
                return true;
            }
        }
        false
    }
    let mut point = x.to_vec();
    search(rows, &mut point, n_local)
}

fn in_set(s: &Set, x: &[i64]) -> bool {
    s.basics()
        .iter()
        .any(|b| holds(b.constraints(), b.n_local(), x))
}

fn in_map(m: &Map, x: &[i64]) -> bool {
    m.basics()
        .iter()
        .any(|b| holds(b.constraints(), b.n_local(), x))
}

/// Every point of `lo..=hi` to the power `n`.
fn points(n: usize, lo: i64, hi: i64) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|p| {
                (lo..=hi).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
    }
    out
}

/// `text` is the set of points (parameters, then dimensions) where `meaning` holds.
fn check_set(text: &str, lo: i64, hi: i64, meaning: impl Fn(&[i64]) -> bool) {
    let s = parse_set(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let n = s.space().n_dim_total();
    for x in points(n, lo, hi) {
        assert_eq!(in_set(&s, &x), meaning(&x), "{text} at {x:?} (read as {s})");
    }
}

/// `text` is the relation of points (parameters, inputs, outputs) where `meaning` holds.
fn check_map(text: &str, lo: i64, hi: i64, meaning: impl Fn(&[i64]) -> bool) {
    let m = parse_map(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let n = m.space().n_dim_total();
    for x in points(n, lo, hi) {
        assert_eq!(in_map(&m, &x), meaning(&x), "{text} at {x:?} (read as {m})");
    }
}

#[test]
fn chained_comparisons() {
    check_set("[N] -> { S[i] : 0 <= i < N }", -4, 6, |x| {
        0 <= x[1] && x[1] < x[0]
    });
    check_set("{ [i, j] : -2 < i <= j < 3 }", -5, 5, |x| {
        -2 < x[0] && x[0] <= x[1] && x[1] < 3
    });
    check_set("{ [i] : 3 > i >= -2 }", -6, 6, |x| 3 > x[0] && x[0] >= -2);
}

#[test]
fn strict_and_equal_comparisons() {
    check_set("{ [i, j] : i < j }", -5, 5, |x| x[0] < x[1]);
    check_set("{ [i, j] : i > j + 1 }", -5, 5, |x| x[0] > x[1] + 1);
    check_set("{ [i, j] : i == j - 2 }", -5, 5, |x| x[0] == x[1] - 2);
    check_set("{ [i, j] : i = 2 - j }", -5, 5, |x| x[0] == 2 - x[1]);
    check_set("{ [i, j] : i != j }", -4, 4, |x| x[0] != x[1]);
}

#[test]
fn multiplication_forms() {
    check_set("{ [i, j] : 2*i <= j and 2 * j <= 3 + i }", -6, 6, |x| {
        2 * x[0] <= x[1] && 2 * x[1] <= 3 + x[0]
    });
    check_set("{ [i, j] : 3i - 2j >= 1 and i*2 <= 7 }", -6, 6, |x| {
        3 * x[0] - 2 * x[1] >= 1 && x[0] * 2 <= 7
    });
    check_set("{ [i] : 2(i + 1) - -(i - 3) >= 2 - -1 }", -6, 6, |x| {
        2 * (x[0] + 1) + (x[0] - 3) >= 3
    });
    check_set("{ [i] : (1 + 1) * (i - 1) * 3 <= 6 }", -6, 6, |x| {
        6 * (x[0] - 1) <= 6
    });
}

#[test]
fn disjunctions_become_several_basic_sets() {
    let text = "{ [i] : i < 0 or i > 5 }";
    assert_eq!(parse_set(text).unwrap().basics().len(), 2);
    check_set(text, -8, 8, |x| x[0] < 0 || x[0] > 5);
    check_set(
        "{ [i] : (i >= 0 and i <= 3) or (i >= 10 and (i = 11 or i = 13)) }",
        -2,
        15,
        |x| (0..=3).contains(&x[0]) || x[0] == 11 || x[0] == 13,
    );
    check_set(
        "{ [i, j] : (i = 0 || i = 2) && (j = 1 || j = 3) }",
        -1,
        4,
        |x| (x[0] == 0 || x[0] == 2) && (x[1] == 1 || x[1] == 3),
    );
    check_set("[n] -> { S[i] : i = 0; S[j] : j = n }", -3, 3, |x| {
        x[1] == 0 || x[1] == x[0]
    });
}

#[test]
fn floors_ceils_and_mods_become_locals() {
    check_set("{ [i, j] : j = floor((i + 1)/2) }", -9, 9, |x| {
        x[1] == (x[0] + 1).div_euclid(2)
    });
    check_set("{ [i, j] : j = ceil(i / 3) }", -9, 9, |x| {
        x[1] == -(-x[0]).div_euclid(3)
    });
    check_set("{ [i] : i mod 3 = 1 }", -9, 9, |x| x[0].rem_euclid(3) == 1);
    check_set("{ [i] : i % 4 = 3 }", -9, 9, |x| x[0].rem_euclid(4) == 3);
    check_set(
        "{ [i, j] : 2 floor(i/2) = i and j = floor(i/2) }",
        -9,
        9,
        |x| x[0] % 2 == 0 && x[1] == x[0] / 2,
    );
    // Equal floors share one local.
    let s = parse_set("{ [i] : floor(i/2) >= 1 and floor(i/2) <= 3 }").unwrap();
    assert_eq!(s.basics()[0].n_local(), 1);
    // A floor of a constant is a constant.
    check_set("{ [i] : i = floor(-7/2) }", -9, 9, |x| x[0] == -4);
}

#[test]
fn exists_binds_locals() {
    check_set("{ [i] : exists (k: i = 3k + 1 and k >= 0) }", -9, 9, |x| {
        x[0] >= 1 && (x[0] - 1) % 3 == 0
    });
    check_set(
        "{ [i] : i >= -4 and exists (a, b: i = 2a + 3b and a >= 0 and b >= 0) }",
        -9,
        9,
        |x| x[0] >= 0 && x[0] != 1,
    );
    check_set("{ [i] : exists (i: i = 5) }", -3, 3, |_| true);
}

#[test]
fn repeated_and_expression_tuple_entries_are_equalities() {
    check_set("{ [i, i] }", -4, 4, |x| x[0] == x[1]);
    check_set("[n] -> { [i, n, i + 1] }", -3, 3, |x| {
        x[2] == x[0] && x[3] == x[1] + 1
    });
    check_map("[n] -> { S[i, j] -> [0, i, 0, j + n, 0] }", -2, 2, |x| {
        let (n, i, j, o) = (x[0], x[1], x[2], &x[3..]);
        o == [0, i, 0, j + n, 0]
    });
    check_map("{ [i] -> [i, 2i - 1] }", -4, 4, |x| {
        x[1] == x[0] && x[2] == 2 * x[0] - 1
    });
    check_map("{ [i] -> [floor(i/2)] }", -6, 6, |x| {
        x[1] == x[0].div_euclid(2)
    });
    check_map("{ [i] -> [j] : j = i + 1 }", -6, 6, |x| x[1] == x[0] + 1);
}

#[test]
fn generated_dimension_names() {
    let m = parse_map("[n] -> { S0[i, j] -> A[i, j + 1] }").unwrap();
    let sp = m.space();
    assert_eq!(sp.input.as_ref().unwrap().dims, ["i", "j"]);
    assert_eq!(sp.output.name.as_deref(), Some("A"));
    assert_eq!(sp.output.dims, ["o0", "o1"]);
    // A generated name never takes a user's.
    let m = parse_map("{ [o1] -> [o1, 0] }").unwrap();
    assert_eq!(m.space().output.dims, ["o0", "o1'"]);
    let s = parse_set("{ S[i, i] }").unwrap();
    assert_eq!(s.space().output.dims, ["i", "i1"]);
    // Dimension names come from the first disjunct.
    let s = parse_set("{ S[a] : a >= 0; S[b] : b <= -3 }").unwrap();
    assert_eq!(s.space().output.dims, ["a"]);
}

#[test]
fn true_false_and_trivial_constraints() {
    check_set("{ [i] : true }", -3, 3, |_| true);
    check_set("{ [i] : false }", -3, 3, |_| false);
    check_set("{ [i] : false or i = 1 }", -3, 3, |x| x[0] == 1);
    check_set("{ [i] : i >= 0 and (true or i = 1) }", -3, 3, |x| x[0] >= 0);
    // Constant constraints are decided: true ones vanish, false ones drop the disjunct.
    let s = parse_set("{ [i] : 0 <= 2 and i - i = 0 }").unwrap();
    assert_eq!(s.basics().len(), 1);
    assert!(s.basics()[0].constraints().is_empty());
    let s = parse_set("{ [i] : 1 > 2; [i] : i = 3 }").unwrap();
    assert_eq!(s.to_string(), "{ [i] : i = 3 }");
    // As a basic set, an empty text is the empty conjunction.
    let b = parse_basic_set("[n] -> { S[i] : i < i }").unwrap();
    assert_eq!(b.space().output.dims, ["i"]);
    assert_eq!(b.constraints().len(), 1);
    assert!((-3..=3).all(|n| (-3..=3).all(|i| !holds(b.constraints(), b.n_local(), &[n, i]))));
    // Read alone, a false disjunct keeps the values its tuple gives: an
    // empty piece of a schedule keeps its dates (its β-vector), and reads
    // back to the same text.
    let text = "[n] -> { S0[i] -> [0, i, 1] : false }";
    let m = parse_basic_map(text).unwrap();
    assert_eq!(m.to_string(), text);
    assert!(m.is_empty().unwrap());
    // In a union, a false disjunct is still dropped.
    assert_eq!(parse_map(text).unwrap().basics().len(), 0);
}

#[test]
fn whitespace_and_identifiers() {
    let s = parse_set("\n[ N ]->{S_1'[ i' ,j ]:i'>=0&&j<=N}  ").unwrap();
    assert_eq!(s.to_string(), "[N] -> { S_1'[i', j] : i' >= 0 and j <= N }");
    // Keywords are words only on their own: `order`, `andy`, `floors` are identifiers.
    let s = parse_set("[order] -> { [andy, floors] : andy <= order or floors = 1 }").unwrap();
    assert_eq!(s.basics().len(), 2);
}

#[test]
fn from_str_is_the_same_parser() {
    let a: Set = "[N] -> { S[i] : 0 <= i < N }".parse().unwrap();
    assert_eq!(a, parse_set("[N] -> { S[i] : 0 <= i < N }").unwrap());
    let b: BasicSet = "{ [i] : i >= 0 }".parse().unwrap();
    assert_eq!(b.to_string(), "{ [i] : i >= 0 }");
    let m: Map = "{ A[i] -> B[i] }".parse().unwrap();
    assert_eq!(m.to_string(), "{ A[i] -> B[i] }");
}

// --------------------------------------------------------------------- errors

fn error(result: Result<impl std::fmt::Debug, ParseError>) -> ParseError {
    match result {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e,
    }
}

#[test]
fn undeclared_parameters_are_named() {
    let e = error(parse_set("[N] -> { S[i] : 0 <= i < M }"));
    assert!(e.message.contains("`M`"), "{e}");
    assert_eq!(e.offset, 25);
    let e = error(parse_set("{ S[i] : i < N }"));
    assert!(e.message.contains("`N`"), "{e}");
    let e = error(parse_set("{ [i] : exists (k: i = 2k) and k = 1 }"));
    assert!(e.message.contains("`k`"), "{e}");
    let e = error(parse_set("[N, N] -> { [i] }"));
    assert!(e.message.contains("declared twice"), "{e}");
}

#[test]
fn non_affine_products_are_refused() {
    for text in [
        "{ [i, j] : i*j >= 0 }",
        "{ [i, j] : (i + 1) * (j - 1) = 0 }",
        "{ [i, j] : 2i * j >= 1 }",
    ] {
        let e = error(parse_set(text));
        assert!(e.message.contains("non-affine"), "{text}: {e}");
    }
}

#[test]
fn bad_divisors_are_refused() {
    let e = error(parse_set("{ [i] : floor(i/0) = 1 }"));
    assert!(e.message.contains("division by zero"), "{e}");
    for text in [
        "[n] -> { [i] : floor(i/n) = 1 }",
        "{ [i] : floor(i / -2) = 1 }",
        "{ [i] : i mod 0 = 1 }",
        "{ [i, j] : i mod j = 1 }",
    ] {
        let e = error(parse_set(text));
        assert!(
            e.message.contains("divis") || e.message.contains("divisor"),
            "{text}: {e}"
        );
    }
}

#[test]
fn spaces_of_disjuncts_must_agree() {
    for text in [
        "{ S[i] : i >= 0; T[i] : i <= 0 }",
        "{ S[i] : i >= 0; S[i, j] : i <= 0 }",
        "{ [i]; S[i] }",
        "{ S[i] -> A[i]; S[i] -> B[i] }",
        "{ S[i] -> A[i]; S[i] }",
    ] {
        let e = error(
            parse_map(text)
                .map(|_| ())
                .or_else(|_| parse_set(text).map(|_| ())),
        );
        assert!(e.message.contains("one space"), "{text}: {e}");
    }
}

#[test]
fn sets_and_maps_are_not_confused() {
    let e = error(parse_set("{ S[i] -> A[i] }"));
    assert!(e.message.contains("expected a set"), "{e}");
    let e = error(parse_map("{ S[i] : i >= 0 }"));
    assert!(e.message.contains("expected a relation"), "{e}");
    let e = error(parse_map("[n] -> { : n >= 0 }"));
    assert!(e.message.contains("expected a relation"), "{e}");
    let e = error(parse_basic_set("{ [i] : i < 0 or i > 1 }"));
    assert!(e.message.contains("single conjunction"), "{e}");
}

#[test]
fn huge_literals_and_overflow_are_errors() {
    let e = error(parse_set("{ [i] : i <= 99999999999999999999 }"));
    assert!(e.message.contains("integer overflow"), "{e}");
    for text in [
        "{ [i] : 9223372036854775807i + 9223372036854775807i >= 0 }",
        "{ [i] : i >= 9223372036854775807 + 1 }",
        "{ [i] : 3037000500 * 3037000500 >= i }",
        "{ [i] : i < -9223372036854775807 - 1 }",
    ] {
        let e = error(parse_set(text));
        assert!(e.message.contains("integer overflow"), "{text}: {e}");
    }
}

#[test]
fn syntax_garbage_is_an_error() {
    for text in [
        "",
        "{",
        "}",
        "{ S[i] : }}",
        "{ S[i] : i >= }",
        "{ S[i] : i >= 0 and }",
        "{ S[i : i >= 0 }",
        "[N -> { S[i] }",
        "{ S[i] -> }",
        "{ S[i] : i / 2 = 0 }",
        "{ S[i] : i >= 0 } trailing",
        "{ ; }",
        "{ S[i] : exists (: i = 0) }",
        "{ [[i] -> [j]] }",
        "hello world",
        "{ [i] : 2 3 }",
        "{ [i] : i >= 1.5 }",
        "{ [i] -> [i >= 0] }",
    ] {
        let e = error(parse_set(text));
        assert!(e.message.contains("syntax error"), "{text:?}: {e}");
        assert!(e.offset <= text.len(), "{text:?}: {e}");
    }
}

#[test]
fn expressions_and_constraints_are_not_confused() {
    for text in [
        "{ [i] : i }",
        "{ [i] : i + 1 and i >= 0 }",
        "{ [i] : (i >= 0) + 1 >= 0 }",
        "{ [i] : true >= 0 }",
        "{ [i] : 2(i >= 0) }",
    ] {
        let e = error(
            parse_map(text)
                .map(|_| ())
                .or_else(|_| parse_set(text).map(|_| ())),
        );
        assert!(e.message.starts_with("expected"), "{text}: {e}");
    }
}

#[test]
fn pathological_inputs_are_errors_not_crashes() {
    let deep = format!(
        "{{ [i] : {}i{} >= 0 }}",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let e = error(parse_set(&deep));
    assert!(e.message.contains("nested"), "{e}");
    // Nesting up to the limit is fine, whatever the brackets are.
    for (open, close) in [("(", ")"), ("1 (", ")"), ("floor(", "/2)"), ("-(1 + ", ")")] {
        let ok = format!("{{ [i] : {}i{} >= 0 }}", open.repeat(63), close.repeat(63));
        assert!(parse_set(&ok).is_ok(), "{ok}");
    }
    let ok = format!(
        "{{ [i] : {}i >= 0{} }}",
        "exists (e: e = i and ".repeat(63),
        ")".repeat(63)
    );
    assert_eq!(parse_set(&ok).unwrap().basics()[0].n_local(), 63);
    // A normal form that would explode.
    let big = format!("{{ [i] : {} }}", vec!["(i = 0 or i = 1)"; 20].join(" and "));
    let e = error(parse_set(&big));
    assert!(e.message.contains("too large"), "{e}");
    // Odd bytes anywhere.
    for text in ["{ [é] }", "{ [i] : i ≥ 0 }", "\u{0}", "{ [i] : i >= 0 ;; }"] {
        assert!(parse_set(text).is_err(), "{text:?}");
    }
    let long = format!("{{ [i] : {} }}", vec!["i >= 0"; 5000].join(" and "));
    assert_eq!(
        parse_set(&long).unwrap().basics()[0].constraints().len(),
        5000
    );
}

#[test]
fn inline_outputs_are_substituted_into_the_other_constraints() {
    // Regression: the output printed inline as `i + 1` was still named `i'`
    // in the constraints, which then did not parse back.
    let m = parse_map("[N] -> { S0[i] -> S0[i'] : i' = i + 1 and i' <= N and i >= 0 }").unwrap();
    let text = m.to_string();
    assert_eq!(
        text,
        "[N] -> { S0[i] -> S0[i + 1] : i <= N - 1 and i >= 0 }"
    );
    assert_eq!(parse_map(&text).unwrap().to_string(), text);
}
