//! Table-driven regression cases for `poly`, one row per case as isl's own
//! tests are written: the classic traps and every bug found. Add a row for
//! each new bug.

use polyc::poly::{parse_basic_set, parse_set, LexOpt};

/// `(set, empty?)`
const EMPTINESS: &[(&str, bool)] = &[
    ("{ [x] : 1 <= 3x <= 2 }", true),
    ("{ [x] : 1 <= 3x <= 3 }", false),
    ("{ [x, y] : 1 <= 3x - 3y <= 2 }", true),
    ("{ [x, y] : 2 <= 3x - 2y <= 2 and x >= 5 }", false),
    ("{ [i, j] : 2i = 2j + 1 }", true),
    (
        "{ [i] : exists (e0: i = 2e0) and exists (e1: i = 2e1 + 1) }",
        true,
    ),
    (
        "{ [i] : exists (e0: i = 4e0 + 1) and exists (e1: i = 6e1 + 3) }",
        false,
    ),
    (
        "{ [i] : exists (e0: i = 4e0 + 1) and exists (e1: i = 6e1) }",
        true,
    ),
    // The Omega test's dark shadow is not enough here: splinters decide.
    (
        "{ [x, y] : 27 <= 11x + 13y <= 45 and -10 <= 7x - 9y <= 4 }",
        true,
    ),
    // One more unit of slack and (2, 1) fits.
    (
        "{ [x, y] : 27 <= 11x + 13y <= 45 and -10 <= 7x - 9y <= 5 }",
        false,
    ),
    ("[N] -> { [i] : 0 <= i < N and N <= 0 }", true),
    ("[N] -> { [i] : 0 <= i < N }", false),
    ("{ [i] : false }", true),
    ("{ [] }", false),
    // Took 19 s in the Omega test's shadows and splinters before it learnt
    // to branch on a variable with few values (here all lie in -3..3).
    (
        "{ [x0, x1, x2, x5] : exists (e0: -3 <= x0 <= 3 and -3 <= x1 <= 3 and -3 <= x2 <= 3 \
         and -3 <= x5 <= 3 and -3 <= e0 <= 3 and 3e0 >= -x0 - 2x1 - x2 - 13 \
         and 10e0 >= -6x0 - 3x1 - 3x2 - 3x5 - 33 and 6e0 >= -2x0 - 6x1 + 3x5 - 26 \
         and 3e0 <= -x0 - 2x1 - x2 + 5 and 4e0 <= 4x0 - 10x1 - 2x2 + 6x5 + 3 \
         and 3e0 <= -x0 + 2x1 - 5x2 - 6x5 + 13 and 3e0 <= -5x0 - 2x1 + 3x5 + 3 \
         and 3e0 >= 7x0 - 2x1 - 3x2 - 6x5 - 7 and 6e0 >= 22x0 + 7x1 - 9x2 - 33x5 + 35 \
         and 3e0 >= 19x0 - 8x1 - 6x5 + 5 and 3e0 <= -x0 - 2x1 - x2 - 11) }",
        false,
    ),
];

/// `(set, lexmin, lexmax)` as printed vectors of parameters then dimensions.
const LEXOPT: &[(&str, &str, &str)] = &[
    (
        "{ [i, j] : 0 <= i <= 3 and i <= j <= 5 }",
        "[0, 0]",
        "[3, 5]",
    ),
    ("{ [i, j] : 0 <= i <= 3 and j >= i }", "[0, 0]", "unbounded"),
    (
        "{ [x, y] : 2 <= 3x - 2y <= 2 and x >= 5 }",
        "[6, 8]",
        "unbounded",
    ),
    (
        "{ [i] : exists (e0: i = 3e0 + 2) and -7 <= i <= 7 }",
        "[-7]",
        "[5]",
    ),
    ("{ [i] : 1 <= 3i <= 2 }", "empty", "empty"),
    ("[N] -> { [i] : N = 5 and 0 <= i < N }", "[5, 0]", "[5, 4]"),
];

/// One projection case: the set, the dims projected out (first, count), a
/// point, and whether it lies in the projection.
type ProjectionCase = (&'static str, (usize, usize), &'static [i64], bool);

const PROJECTION: &[ProjectionCase] = &[
    ("{ [i, j] : i = 2j }", (1, 1), &[4], true),
    ("{ [i, j] : i = 2j }", (1, 1), &[3], false),
    (
        "{ [i, j] : 0 <= j <= 3 and i = 3j + 1 }",
        (1, 1),
        &[10],
        true,
    ),
    (
        "{ [i, j] : 0 <= j <= 3 and i = 3j + 1 }",
        (1, 1),
        &[13],
        false,
    ),
    (
        "{ [i, j, k] : i = j + k and 0 <= j <= 1 and 0 <= k <= 1 }",
        (1, 2),
        &[2],
        true,
    ),
];

/// `(a, b, a ⊆ b?)`
const SUBSET: &[(&str, &str, bool)] = &[
    ("{ [i] : 0 <= i <= 4 }", "{ [i] : 0 <= i <= 5 }", true),
    ("{ [i] : 0 <= i <= 6 }", "{ [i] : 0 <= i <= 5 }", false),
    (
        "{ [i] : 0 <= i <= 4 }",
        "{ [i] : 0 <= i <= 2; [i] : 3 <= i <= 4 }",
        true,
    ),
    ("{ [i] : 1 <= 3i <= 2 }", "{ [i] : false }", true),
    (
        "{ [i] : exists (e0: i = 4e0) }",
        "{ [i] : i = 2 * floor(i / 2) }",
        true,
    ),
    (
        "{ [i] : exists (e0: i = 2e0) }",
        "{ [i] : i = 2 * floor(i / 2) and i >= 0 }",
        false,
    ),
    // Existentials bound only through each other: the subtrahend is
    // rewritten with dark shadows and splinters. Looped forever while
    // simplification merged a division's defining row into a tighter one.
    (
        "{ [x0] : -3 <= x0 <= 2 }",
        "{ [x0] : exists (e0, e1, e2: -3 <= x0 <= 3 and -3 <= e0 <= 3 and -3 <= e1 <= 3 \
         and 3e2 >= x0 - e0 - 2e1 - 1 and e2 >= x0 - 3e0 - 2e1 - 2 and e2 <= -2x0 - 3e0 + 1 \
         and 3e2 <= x0 - 2e0 - 2e1 + 1 and 3e2 >= x0 - 2e0 - 2e1 - 1) }",
        true,
    ),
    (
        "{ [x0] : -3 <= x0 <= 3 }",
        "{ [x0] : exists (e0, e1, e2: -3 <= x0 <= 3 and -3 <= e0 <= 3 and -3 <= e1 <= 3 \
         and 3e2 >= x0 - e0 - 2e1 - 1 and e2 >= x0 - 3e0 - 2e1 - 2 and e2 <= -2x0 - 3e0 + 1 \
         and 3e2 <= x0 - 2e0 - 2e1 + 1 and 3e2 >= x0 - 2e0 - 2e1 - 1) }",
        false,
    ),
];

#[test]
fn emptiness_table() {
    for &(text, empty) in EMPTINESS {
        let s = parse_set(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(s.is_empty().expect("decided"), empty, "{text}");
    }
}

#[test]
fn lexopt_table() {
    let show = |r: LexOpt| match r {
        LexOpt::Empty => "empty".to_string(),
        LexOpt::Unbounded => "unbounded".to_string(),
        LexOpt::Point(p) => format!("{p:?}"),
    };
    for &(text, min, max) in LEXOPT {
        let s = parse_basic_set(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(show(s.lexmin().expect("decided")), min, "lexmin {text}");
        assert_eq!(show(s.lexmax().expect("decided")), max, "lexmax {text}");
    }
}

#[test]
fn projection_table() {
    for &(text, (first, count), point, inside) in PROJECTION {
        let s = parse_basic_set(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let p = s.project_out(first, count);
        let mut probe = p.clone();
        for (k, v) in point.iter().enumerate() {
            let mut row = vec![0; probe.n_cols()];
            row[k] = 1;
            probe.add(polyc::poly::Constraint::eq(row, -v));
        }
        assert_eq!(
            !probe.is_empty().expect("decided"),
            inside,
            "{point:?} in {p}"
        );
    }
}

#[test]
fn subset_table() {
    for &(a, b, expected) in SUBSET {
        let (sa, sb) = (parse_set(a).expect("parse"), parse_set(b).expect("parse"));
        assert_eq!(sa.is_subset(&sb).expect("decided"), expected, "{a} ⊆ {b}");
    }
}
