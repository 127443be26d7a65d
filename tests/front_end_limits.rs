//! The front ends on extreme inputs, through the real binary: parsing and
//! extraction take time linear in the input (deep parentheses, deep `for`
//! nests, long `else if` chains), and nesting too deep for a recursive parser
//! is a diagnostic with a span (exit 1), never a stack overflow.

use crate::common;

use std::process::Command;
use std::time::{Duration, Instant};

/// What one run of the binary gave.
struct Outcome {
    status: i32,
    stderr: String,
}

/// Run the real binary (a stack overflow would abort it, not this test).
fn polyc(args: &[&str]) -> Outcome {
    match Command::new(env!("CARGO_BIN_EXE_polyc"))
        .args(args)
        .output()
    {
        Ok(out) => Outcome {
            status: out.status.code().unwrap_or(-1),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        },
        Err(e) => Outcome {
            status: -2,
            stderr: format!("cannot run polyc: {e}"),
        },
    }
}

/// A C file whose only region is `body`.
fn kernel(body: &str) -> String {
    format!(
        "#define N 100\nvoid f(int n, double A[N][N], double B[N]) {{\n  int i, j, t;\n#pragma scop\n{body}\n#pragma endscop\n}}\n"
    )
}

fn paren_rhs(k: usize) -> String {
    kernel(&format!(
        "  for (i = 0; i < n; i++)\n    B[i] = {}B[i] + 1.0{};",
        "(".repeat(k),
        ")".repeat(k)
    ))
}

fn paren_bound(k: usize) -> String {
    kernel(&format!(
        "  for (i = 0; i < {}n{}; i++)\n    B[i] = B[i] + 1.0;",
        "(".repeat(k),
        ")".repeat(k)
    ))
}

fn for_nest(k: usize) -> String {
    let mut body = String::new();
    for d in 0..k {
        body.push_str(&format!("for (int i{d} = 0; i{d} < 2; i{d}++)\n"));
    }
    body.push_str("B[0] = B[0] + 1.0;");
    kernel(&body)
}

fn else_if_chain(k: usize) -> String {
    let mut body = String::from("for (i = 0; i < n; i++) {\n");
    for c in 0..k {
        let kw = if c == 0 { "if" } else { "else if" };
        body.push_str(&format!("  {kw} (i == {c})\n    B[i] = B[i] + {c}.0;\n"));
    }
    body.push_str("  else\n    B[i] = 0.0;\n}");
    kernel(&body)
}

/// Run polyc on `source` (written to a scratch file) with `args`; the
/// outcome and the wall time.
fn run(dir: &std::path::Path, name: &str, source: &str, args: &[&str]) -> (Outcome, Duration) {
    let path = dir.join(name);
    std::fs::write(&path, source).expect("write input");
    let path = path.to_string_lossy().into_owned();
    let mut all = vec![path.as_str()];
    all.extend_from_slice(args);
    let start = Instant::now();
    let out = polyc(&all);
    (out, start.elapsed())
}

#[test]
fn parsing_and_extraction_are_linear() {
    let dir = common::scratch("front_end_limits_time");
    let cases: Vec<(&str, String)> = vec![
        ("paren-rhs-18", paren_rhs(18)),
        ("paren-rhs-200", paren_rhs(200)),
        ("paren-bound-18", paren_bound(18)),
        ("paren-bound-200", paren_bound(200)),
        ("for-nest-25", for_nest(25)),
        ("else-if-200", else_if_chain(200)),
    ];
    for (name, source) in cases {
        let (out, took) = run(&dir, &format!("{name}.c"), &source, &["--emit", "scop"]);
        assert_eq!(out.status, 0, "{name}: {}", out.stderr);
        // Generous: only an exponential blow-up (seconds at these sizes
        // before) can reach it, even in a debug build on a busy machine.
        assert!(took < Duration::from_secs(2), "{name} took {took:?}");
    }
    // Loosely linear: 8 times the nesting costs far less than 8² times.
    let (_, small) = run(&dir, "p25.c", &paren_rhs(25), &["--emit", "scop"]);
    let (_, large) = run(&dir, "p200.c", &paren_rhs(200), &["--emit", "scop"]);
    assert!(
        large < small * 64 + Duration::from_millis(500),
        "25 levels: {small:?}, 200 levels: {large:?}"
    );
}

fn assert_refused(out: &Outcome, what: &str, message: &str) {
    assert_eq!(
        out.status, 1,
        "{what}: status {}\n{}",
        out.status, out.stderr
    );
    assert!(out.stderr.contains(message), "{what}: {}", out.stderr);
    assert!(
        out.stderr.contains("-->") || out.stderr.contains("┌─"),
        "{what}: no span\n{}",
        out.stderr
    );
}

#[test]
fn deep_c_nesting_is_a_diagnostic() {
    let dir = common::scratch("front_end_limits_c");
    let k = 10_000;
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "parens",
            paren_rhs(k),
            "nested too deeply (more than 256 levels)",
        ),
        (
            "bound",
            paren_bound(k),
            "nested too deeply (more than 256 levels)",
        ),
        (
            "brackets",
            kernel(&format!("B[0] = B{}0{};", "[B".repeat(k), "]".repeat(k))),
            "nested too deeply",
        ),
        (
            "braces",
            kernel(&format!("{}B[0] = 1.0;{}", "{".repeat(k), "}".repeat(k))),
            "nested too deeply",
        ),
        ("for-nest", for_nest(k), "nested too deeply"),
        (
            "if-nest",
            kernel(&format!("{}B[0] = 1.0;", "if (n > 0) ".repeat(k))),
            "nested too deeply",
        ),
        (
            "conditional",
            kernel(&format!(
                "B[0] = {}1.0{};",
                "n ? ".repeat(k),
                " : 2.0".repeat(k)
            )),
            "nested too deeply",
        ),
        (
            "conditional-chain",
            kernel(&format!("B[0] = {}2.0;", "n ? 1.0 : ".repeat(k))),
            "nested too deeply",
        ),
        (
            "labels",
            kernel(&format!("{}B[0] = 1.0;", "a: ".repeat(k))),
            "nested too deeply",
        ),
        (
            "prefix-minus",
            kernel(&format!("B[0] = {}1.0;", "- ".repeat(k))),
            "nested too deeply",
        ),
        (
            "long-sum",
            kernel(&format!("B[0] = {}1.0;", "B[1] + ".repeat(k))),
            "nested too deeply",
        ),
        (
            "chained-assignment",
            kernel(&format!("{}1.0;", "B[0] = ".repeat(k))),
            "nested too deeply",
        ),
    ];
    for (name, source, message) in cases {
        let (out, took) = run(&dir, &format!("{name}.c"), &source, &["--emit", "scop"]);
        assert_refused(&out, name, message);
        assert!(took < Duration::from_secs(2), "{name} took {took:?}");
    }
}

#[test]
fn deep_recipe_nesting_is_a_diagnostic() {
    let dir = common::scratch("front_end_limits_recipe");
    let k = 10_000;
    let gemm = std::fs::read_to_string("tests/kernels/gemm.c").expect("gemm");
    let kernel_path = dir.join("gemm.c");
    std::fs::write(&kernel_path, gemm).expect("write kernel");
    let kernel_path = kernel_path.to_string_lossy().into_owned();
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "iss-parens",
            format!("iss([0], {}i{} >= 10);\n", "(".repeat(k), ")".repeat(k)),
            "brackets nested too deeply (more than 256 levels)",
        ),
        (
            "iss-minus",
            format!("iss([0], {}i >= 10);\n", "- ".repeat(k)),
            "nested too deeply",
        ),
        (
            "iss-sum",
            format!("iss([0], {}i >= 10);\n", "i + ".repeat(k)),
            "nested too deeply",
        ),
        (
            "beta-brackets",
            format!("reverse({}0{}, 1);\n", "[".repeat(k), "]".repeat(k)),
            "nested too deeply",
        ),
    ];
    for (name, recipe, message) in cases {
        let path = dir.join(format!("{name}.poly"));
        std::fs::write(&path, recipe).expect("write recipe");
        let path = path.to_string_lossy().into_owned();
        let start = Instant::now();
        let out = polyc(&[&kernel_path, "--recipe", &path]);
        assert_refused(&out, name, message);
        assert!(start.elapsed() < Duration::from_secs(2), "{name}");
    }
}

#[test]
fn deep_isl_nesting_is_an_error() {
    let k = 10_000;
    let text = format!(
        "[N] -> {{ S[i] : {}i{} >= 0 }}",
        "(".repeat(k),
        ")".repeat(k)
    );
    let e = polyc::poly::parse_set(&text).err().map(|e| e.to_string());
    assert!(e.is_some_and(|e| e.contains("nested")), "{text:.40}");
    // A long run of signs is iterative in the grammar: any answer, no crash.
    let text = format!("[N] -> {{ S[i] : {}i >= 0 }}", "- ".repeat(k));
    let _ = polyc::poly::parse_set(&text);
}

/// A short seeded run of `tools/front_fuzz.py` (mutated C regions and
/// recipes: exit 0, 1 or 2 only, no panic, no abort). The time bound is looser
/// than the tool's default of 1 s: this is a debug build on a shared machine.
#[test]
fn seeded_front_end_fuzz_finds_no_crash() {
    let Ok(out) = Command::new("python3")
        .args([
            "tools/front_fuzz.py",
            "--seed",
            "1",
            "--cases",
            "60",
            "--max-time",
            "5",
            "--polyc",
            env!("CARGO_BIN_EXE_polyc"),
        ])
        .output()
    else {
        eprintln!("python3 not found: front_fuzz skipped");
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("failures: 0"), "{stdout}");
}
