//! The recipe front end (`lang::recipe`, docs/recipe-language.md): every
//! value kind, comments, `let` and `--set`, Clay's assignments, labels,
//! inequality lists, constraints, named options, spans, and `clay_comment`.
//! Rejections are in `tests/must_fail_recipe.rs`.

use polyc::lang::recipe::{
    clay_comment, parse_recipe, AffineConstraint, AffineExpr, Arg, Call, CmpOp, Recipe, Value,
};

/// A compact, fully bracketed rendering of a recipe: one call per line,
/// `name(arg, …)`, named arguments as `name=value`, constraints with every
/// sub-expression in parentheses.
fn show(r: &Recipe) -> String {
    r.calls
        .iter()
        .map(|c| {
            let args: Vec<String> = c
                .args
                .iter()
                .map(|a| match &a.name {
                    Some(n) => format!("{n}={}", value(&a.value)),
                    None => value(&a.value),
                })
                .collect();
            let bind = c
                .bind
                .as_ref()
                .map(|(v, _)| format!("{v} <- "))
                .unwrap_or_default();
            format!("{bind}{}({})", c.name, args.join(", "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn ints(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

fn value(v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Beta(b) => format!("[{}]", ints(b)),
        Value::Label(l) => format!("@{l}"),
        Value::Sections(s) => format!(
            "{{{}}}",
            s.iter().map(|x| ints(x)).collect::<Vec<_>>().join("|")
        ),
        Value::Constraint(c) => format!("{} {} {}", expr(&c.lhs), c.op.text(), expr(&c.rhs)),
        Value::Str(s) => format!("{s:?}"),
        Value::Ident(i) => format!("ident:{i}"),
    }
}

fn expr(e: &AffineExpr) -> String {
    match e {
        AffineExpr::Int(i) => i.to_string(),
        AffineExpr::Name(n, _) => n.clone(),
        AffineExpr::Neg(a) => format!("(-{})", expr(a)),
        AffineExpr::Add(a, b) => format!("({} + {})", expr(a), expr(b)),
        AffineExpr::Sub(a, b) => format!("({} - {})", expr(a), expr(b)),
        AffineExpr::Mul(a, b) => format!("({} * {})", expr(a), expr(b)),
        AffineExpr::Div(a, b) => format!("({} / {})", expr(a), expr(b)),
    }
}

fn parsed(text: &str, overrides: &[(&str, &str)]) -> String {
    let o: Vec<(String, String)> = overrides
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    match parse_recipe(text, &o) {
        Ok(r) => show(&r),
        Err(d) => panic!("{text:?} was rejected:\n{}", d.render("test.poly", text)),
    }
}

const GEMM: &str = "\
# gemm: tile i,j,k by 32, make i parallel
let T = 32;                      # variables; `--set T=64` overrides from the CLI
tile([0,1,0], 1, 1, T);
tile([0,1,0], 3, 2, T);
tile([0,1,0], 5, 3, T);
parallelize([0], 1);
";

/// A recipe, its `--set` overrides, and what it parses to (as [`show`]s it).
type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);

#[test]
fn table_of_recipes() {
    let cases: &[Case] = &[
        // DESIGN §5's example, and with `--set`.
        (
            GEMM,
            &[],
            "tile([0,1,0], 1, 1, 32)\ntile([0,1,0], 3, 2, 32)\ntile([0,1,0], 5, 3, 32)\nparallelize([0], 1)",
        ),
        (
            GEMM,
            &[("T", "64")],
            "tile([0,1,0], 1, 1, 64)\ntile([0,1,0], 3, 2, 64)\ntile([0,1,0], 5, 3, 64)\nparallelize([0], 1)",
        ),
        // The empty recipe, comments only, an empty call.
        ("", &[], ""),
        ("# nothing\n// at all\n", &[], ""),
        ("embed([]);", &[], "embed([])"),
        ("break();", &[], "break()"),
        // The last `;` is optional, as in Clay.
        ("fuse([0]); fuse([1])", &[], "fuse([0])\nfuse([1])"),
        ("fuse([0])\n# trailing comment", &[], "fuse([0])"),
        // Empty statements, as Clay's grammar allows.
        (";fuse([0]);; ;", &[], "fuse([0])"),
        // Every value kind.
        ("f(32, -1, - 7, 0)", &[], "f(32, -1, -7, 0)"),
        ("f([0, -1, 2], [])", &[], "f([0,-1,2], [])"),
        ("f(@init, @S_1)", &[], "f(@init, @S_1)"),
        ("f(\"smart\", \"a \\\"q\\\" \\\\ b\", \"\")", &[], "f(\"smart\", \"a \\\"q\\\" \\\\ b\", \"\")"),
        ("auto(pluto); auto(feautrier)", &[], "auto(ident:pluto)\nauto(ident:feautrier)"),
        ("f(true, false)", &[], "f(1, 0)"),
        (
            "f(9223372036854775807, -9223372036854775808)",
            &[],
            "f(9223372036854775807, -9223372036854775808)",
        ),
        // Clay's inequality lists, with empty sections.
        ("iss([0], {1 | 0 | 0 | -1});", &[], "iss([0], {1|0|0|-1})"),
        ("iss([0,1], {0,1 || 0,0 | -10});", &[], "iss([0,1], {0,1||0,0|-10})"),
        ("iss([0], {1||-3});", &[], "iss([0], {1||-3})"),
        ("peel([0], {-15}); peel([0], {})", &[], "peel([0], {-15})\npeel([0], {})"),
        ("f({|})", &[], "f({|})"),
        // Affine constraints with every operator.
        ("iss([0], c1 <= N / 2);", &[], "iss([0], c1 <= (N / 2))"),
        ("f(2*i + j >= 3)", &[], "f(((2 * i) + j) >= 3)"),
        ("f(i < N - 1 - j)", &[], "f(i < ((N - 1) - j))"),
        ("f(i > -1)", &[], "f(i > -1)"),
        ("f(c2 == 0)", &[], "f(c2 == 0)"),
        ("f(2*i = 3)", &[], "f((2 * i) == 3)"),
        ("f(-(i + 1) <= 2 * (N - 3))", &[], "f((-(i + 1)) <= (2 * (N - 3)))"),
        ("f(i - -2 >= 0)", &[], "f((i - -2) >= 0)"),
        // A `let` holding an integer is substituted inside a constraint.
        ("let H = 4; f(c1 <= H * 2)", &[], "f(c1 <= (4 * 2))"),
        // Named options.
        (
            "auto(pluto, tile = 32, fuse = \"smart\");",
            &[],
            "auto(ident:pluto, tile=32, fuse=\"smart\")",
        ),
        ("f(x = [0, 1], y = @s)", &[], "f(x=[0,1], y=@s)"),
        // `let` of every kind, used as arguments and inside lists.
        (
            "let B = [0, 1]; let L = @init; let C = c1 >= 2; let S = \"s\"; let K = 3; let W = pluto;\nf(B, L, C, S, [K, 0, K], {K | -1}, W)",
            &[],
            "f([0,1], @init, c1 >= 2, \"s\", [3,0,3], {3|-1}, ident:pluto)",
        ),
        ("let T = 32; let U = T; f(U)", &[], "f(32)"),
        // `--set` with every kind of value.
        ("let B = [0]; f(B)", &[("B", "[1, 2]")], "f([1,2])"),
        ("let C = c1 >= 0; f(C)", &[("C", "c1 <= N")], "f(c1 <= N)"),
        ("let S = \"a\"; f(S)", &[("S", "\"b\"")], "f(\"b\")"),
        ("let T = 1; f(T)", &[("T", "-5")], "f(-5)"),
        ("let T = 1; f(T)", &[("T", "2"), ("T", "3")], "f(3)"),
        // Clay's single-letter variables, reassigned, and call results.
        (
            "y = [0,0,0]; # beta\nf(y); y = [1,0,0];\nf(y);",
            &[],
            "f([0,0,0])\nf([1,0,0])",
        ),
        (
            "a = get_array_id (\"a\");\nc = add_array(\"a_copy\");\nreplace_array(a, c);\ndatacopy(c, a, [0], true, [0,0,0]);",
            &[],
            "a <- get_array_id(\"a\")\nc <- add_array(\"a_copy\")\nreplace_array(ident:a, ident:c)\ndatacopy(ident:c, ident:a, [0], 1, [0,0,0])",
        ),
        // Whitespace and comments anywhere.
        (
            "tile ( [ 0 , 1 ] , // depth\n 1 # outer\n , 1 , 32 ) ;",
            &[],
            "tile([0,1], 1, 1, 32)",
        ),
    ];
    for (text, overrides, want) in cases {
        assert_eq!(&parsed(text, overrides), want, "recipe {text:?}");
    }
}

#[test]
fn calls_and_arguments_carry_their_spans() {
    let text = "let T = 32;\n tile([0, 1], 1, 1, T) ;\nauto(pluto, tile = 32)";
    let r = parse_recipe(text, &[]).unwrap();
    // The first `len` bytes from where `s` occurs.
    let at = |s: &str, len: usize| {
        let i = text.find(s).unwrap();
        i..i + len
    };
    let whole = |s: &str| at(s, s.len());
    let arg = |value, span| Arg {
        value,
        span,
        name: None,
    };
    assert_eq!(
        r.calls[0],
        Call {
            name: "tile".into(),
            name_span: at("tile(", 4),
            args: vec![
                arg(Value::Beta(vec![0, 1]), whole("[0, 1]")),
                arg(Value::Int(1), at("1, 1,", 1)),
                arg(Value::Int(1), at("1, T", 1)),
                // A variable's value, spanned at its use.
                arg(Value::Int(32), at("T)", 1)),
            ],
            span: whole("tile([0, 1], 1, 1, T)"),
            bind: None,
            group: None,
        }
    );
    let auto = &r.calls[1];
    assert_eq!(auto.span, whole("auto(pluto, tile = 32)"));
    assert_eq!(auto.args[0].value, Value::Ident("pluto".into()));
    assert_eq!(auto.args[1].span, whole("tile = 32"));
    assert_eq!(auto.args[1].name.as_deref(), Some("tile"));
}

#[test]
fn constraint_names_keep_their_spans() {
    let text = "iss([0], 2*c1 <= N);";
    let r = parse_recipe(text, &[]).unwrap();
    let Value::Constraint(AffineConstraint { lhs, op, rhs }) = &r.calls[0].args[1].value else {
        panic!("not a constraint: {:?}", r.calls[0].args[1]);
    };
    assert_eq!(*op, CmpOp::Le);
    assert_eq!(
        *lhs,
        AffineExpr::Mul(
            Box::new(AffineExpr::Int(2)),
            Box::new(AffineExpr::Name("c1".into(), 11..13))
        )
    );
    assert_eq!(*rhs, AffineExpr::Name("N".into(), 17..18));
}

#[test]
fn clay_comments_in_region_texts() {
    let cases: &[(&str, Option<&str>)] = &[
        (
            "\n/* Clay\n   tile([0,0,0], 3, 2, 32);\n*/\nfor (i = 0; i < N; i++) a[i] = 0;\n",
            Some("\n   tile([0,0,0], 3, 2, 32);\n"),
        ),
        ("/* Clay\n*/\na[0] = 0;", Some("\n")),
        ("/*Clay fuse([0]); */", Some(" fuse([0]); ")),
        ("/* Clay*/", Some("")),
        // Not Clay's: another comment, a word that only starts with Clay,
        // inside a string or a line comment, or never closed.
        ("/* a comment */ a[0] = 0;", None),
        ("/* Clayton */", None),
        ("s = \"/* Clay x */\";", None),
        ("// /* Clay x */\n", None),
        ("/* Clay fuse([0]);", None),
        // The first Clay comment after other comments.
        (
            "/* one */ x = 1; /* Clay\nfuse([0]); */",
            Some("\nfuse([0]); "),
        ),
    ];
    for (region, want) in cases {
        let got = clay_comment(region).map(|r| &region[r]);
        assert_eq!(got, *want, "region {region:?}");
    }
    // The comment's text is a recipe.
    let region = "/* Clay\n  iss([0,1], {0,1 | 0,0 | -10});\n*/\n";
    let r = parse_recipe(&region[clay_comment(region).unwrap()], &[]).unwrap();
    assert_eq!(show(&r), "iss([0,1], {0,1|0,0|-10})");
}

#[test]
fn every_kernel_recipe_file_parses() {
    for entry in std::fs::read_dir("recipes").unwrap() {
        let dir = entry.unwrap().path();
        for f in std::fs::read_dir(&dir).unwrap() {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|e| e == "poly") {
                let text = std::fs::read_to_string(&p).unwrap();
                if let Err(d) = parse_recipe(&text, &[]) {
                    panic!("{}", d.render(&p.display().to_string(), &text));
                }
            }
        }
    }
}

/// Every prefix of every recipe in the tests, and each with one byte
/// replaced by a punctuation character, parses or is rejected: never a
/// panic, and every diagnostic renders with its span inside the text.
#[test]
fn prefixes_and_mutations_never_panic() {
    let mut texts: Vec<String> = vec![GEMM.to_string()];
    for f in std::fs::read_dir("tests/must_fail_recipe").unwrap() {
        let p = f.unwrap().path();
        if p.extension().is_some_and(|e| e == "poly") {
            texts.push(std::fs::read_to_string(p).unwrap());
        }
    }
    texts.push("auto(pluto, tile = 32, fuse = \"smart\"); iss([0], {1||-3}); iss([0], 2*c1 - (N/2) >= -1); x = f(@l);".into());
    let check = |t: &str| {
        for set in [vec![], vec![("T".to_string(), "7".to_string())]] {
            if let Err(d) = parse_recipe(t, &set) {
                assert!(
                    d.span.start <= d.span.end && d.span.end <= t.len(),
                    "{t:?}: {d:?}"
                );
                assert!(!d.render("t.poly", t).is_empty());
            }
        }
    };
    for t in &texts {
        for (i, _) in t.char_indices() {
            check(&t[..i]);
            for c in [
                '(', ')', '[', '{', '|', ',', ';', '"', '-', '=', '@', '9', 'x', '#', '\n',
            ] {
                let mut m = t[..i].to_string();
                m.push(c);
                m.push_str(&t[i..].chars().skip(1).collect::<String>());
                check(&m);
            }
        }
    }
}

#[test]
fn nesting_has_limits_with_spans() {
    // 256 levels of brackets (the call's own included) and 1024 open
    // operators are allowed; one more is a diagnostic where it goes over.
    let ok = format!("iss([0], {}i{} >= 10);", "(".repeat(255), ")".repeat(255));
    assert!(parse_recipe(&ok, &[]).is_ok());
    let deep = format!(
        "iss([0], {}i{} >= 10);",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    let d = parse_recipe(&deep, &[]).err().map(|d| (d.message, d.span));
    let at = "iss([0], ".len() + 255;
    assert_eq!(
        d,
        Some((
            "brackets nested too deeply (more than 256 levels)".to_string(),
            at..at + 1
        ))
    );
    for text in [
        format!("iss([0], {}i >= 10);", "- ".repeat(10_000)),
        format!("iss([0], {}i >= 10);", "i + ".repeat(10_000)),
        format!("let x = {}1;", "-".repeat(10_000)),
    ] {
        let d = parse_recipe(&text, &[]).err().map(|d| d.message);
        assert!(
            d.as_deref()
                .is_some_and(|m| m.contains("nested too deeply")),
            "{d:?}"
        );
    }
}
