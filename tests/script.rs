//! Scripted recipes (`--recipe R.rhai`, `docs/scripting.md`): the same
//! schedules as `.poly` recipes, the queries, `try_…`, `measure`, the
//! sandbox, and diagnostics that point at the script.

use crate::common;
use crate::common::filetest;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use polyc::cli::driver::Outcome;
use polyc::lang::c::read_source;
use polyc::scop::{dependences, DepOptions, Schedule};
use polyc::session::script::{run_script, LogEntry, ScriptOptions};
use polyc::session::RecipeState;

/// Write `text` as a script under the test's scratch directory.
fn script_file(test: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scripts");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join(format!("{test}.rhai"));
    std::fs::write(&path, text).expect("write script");
    path
}

/// Run polyc on `kernel` with the script `text` and more arguments.
fn run(test: &str, kernel: &str, text: &str, more: &[&str]) -> Outcome {
    let path = script_file(test, text);
    let path = path.to_string_lossy().into_owned();
    let mut args = vec![kernel, "--recipe", path.as_str()];
    args.extend_from_slice(more);
    common::polyc(&args)
}

/// Diagnostics without the file they point into: `error: …` lines and
/// `line:column` of each location.
fn diagnostic_lines(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|l| {
            let t = l.trim_start();
            if t.starts_with("error") || t.starts_with("warning") {
                Some(t.to_string())
            } else {
                t.strip_prefix("┌─ ")
                    .and_then(|loc| loc.rsplit_once(".rhai:").or(loc.rsplit_once(".poly:")))
                    .map(|(_, at)| format!("at {at}"))
            }
        })
        .collect()
}

// ---------------------------------------------------------------------
// The same schedules as `.poly` recipes.

/// Each `tests/recipes/NAME.rhai` is the recipe `NAME.poly` beside it
/// written in rhai (labels as strings, Clay's lists as arrays or strings,
/// constraints as strings, loops where the recipe repeats itself), line
/// for line from its first: the schedule JSON and the diagnostics are the
/// same.
#[test]
fn rhai_scripts_give_the_schedules_of_their_recipes() {
    let mut accepted = 0;
    for script in &filetest::inputs("recipes", "rhai") {
        let recipe = script.with_extension("poly").to_string_lossy().into_owned();
        let kernel = filetest::kernel_of_recipe(&std::fs::read_to_string(&recipe).expect("recipe"));
        let poly = common::polyc(&[&kernel, "--recipe", &recipe, "--emit", "schedule"]);
        let rhai = common::polyc(&[
            &kernel,
            "--recipe",
            &script.to_string_lossy(),
            "--emit",
            "schedule",
        ]);
        assert_eq!(poly.status, 0, "{recipe}: {}", poly.stderr);
        assert_eq!(rhai.status, 0, "{}: {}", script.display(), rhai.stderr);
        assert_eq!(poly.stdout, rhai.stdout, "{}", script.display());
        assert_eq!(
            diagnostic_lines(&poly.stderr),
            diagnostic_lines(&rhai.stderr),
            "{}",
            script.display()
        );
        accepted += 1;
    }
    assert!(accepted >= 10, "only {accepted} scripts");
}

/// A recipe whose values are integers and β-vectors is also a rhai
/// program (after `#` comments become `//`): every such recipe under
/// `tests/recipes`, accepted or not, gives the same exit status, schedule
/// and diagnostics (message and line:column) either way. This covers every
/// directive family and alias the recipes use.
#[test]
fn plain_recipes_read_as_scripts_give_the_same_result() {
    let recipes = filetest::inputs("recipes", "poly");
    let mut compared = Vec::new();
    for recipe in &recipes {
        let text = std::fs::read_to_string(recipe).expect("recipe");
        let code: String = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        // Only integers, β-vectors and `let`s: the same text in rhai (a
        // script names `auto`'s scheduler as a string: `auto("pluto")`).
        if code.contains(['@', '{', '|', '<', '>', '"'])
            || code.contains("= ") && !code.contains("let ")
            || code.contains("auto(")
        {
            continue;
        }
        let rel = recipe.to_string_lossy().into_owned();
        let poly = common::polyc(&[
            &filetest::kernel_of_recipe(&text),
            "--recipe",
            &rel,
            "--emit",
            "schedule",
        ]);
        if poly.stderr.contains("unknown directive") {
            continue; // a name rhai does not know is rhai's error, not polyc's
        }
        let name = recipe.file_stem().unwrap_or_default().to_string_lossy();
        let as_script = text.replace('#', "//");
        let rhai = run(
            &format!("plain-{name}"),
            &filetest::kernel_of_recipe(&text),
            &as_script,
            &["--emit", "schedule"],
        );
        assert_eq!(
            poly.status, rhai.status,
            "{rel}:\n{}\n{}",
            poly.stderr, rhai.stderr
        );
        assert_eq!(poly.stdout, rhai.stdout, "{rel}");
        assert_eq!(
            diagnostic_lines(&poly.stderr),
            diagnostic_lines(&rhai.stderr),
            "{rel}"
        );
        compared.push(name.into_owned());
    }
    assert!(
        compared.len() >= 40,
        "only {} compared: {compared:?}",
        compared.len()
    );
    for family in [
        "interchange",
        "reverse",
        "skew",
        "shift",
        "stripmine",
        "tile",
        "reorder",
        "split",
        "fuse",
        "block",
        "collapse",
        "grain",
        "densify",
        "reshape",
        "linearize",
        "embed",
        "unembed",
        "unroll",
        "unroll_jam",
        "parallelize",
        "vectorize",
        "context",
    ] {
        assert!(
            recipes.iter().any(|r| {
                let name = r.file_stem().unwrap_or_default().to_string_lossy();
                compared.iter().any(|c| *c == name)
                    && std::fs::read_to_string(r).is_ok_and(|t| t.contains(&format!("{family}(")))
            }),
            "no compared recipe uses `{family}`"
        );
    }
}

/// The directive functions take every kind of recipe value: labels,
/// Clay's lists as arrays of arrays or as strings, constraints as strings,
/// booleans as 0 / 1, and a map as named arguments.
#[test]
fn directive_arguments_of_every_kind() {
    let same = |test: &str, kernel: &str, poly: &str, rhai: &str| {
        let p = script_file(&format!("{test}-poly"), poly).with_extension("poly");
        std::fs::write(&p, poly).expect("write recipe");
        let a = common::polyc(&[
            kernel,
            "--recipe",
            &p.to_string_lossy(),
            "--emit",
            "schedule",
        ]);
        let b = run(test, kernel, rhai, &["--emit", "schedule"]);
        assert_eq!(a.status, 0, "{test}: {}", a.stderr);
        assert_eq!(b.status, 0, "{test}: {}", b.stderr);
        assert_eq!(a.stdout, b.stdout, "{test}");
    };
    same(
        "label",
        "tests/kernels/gemm.c",
        "parallelize(@init, 1);",
        "parallelize(\"@init\", 1);",
    );
    same(
        "sections-array",
        "tests/kernels/jacobi-1d.c",
        "iss([0,1], {0, 1 | | 0, 0 | -10});",
        "iss([0,1], [[0, 1], [], [0, 0], [-10]]);",
    );
    same(
        "sections-string",
        "tests/kernels/jacobi-1d.c",
        "iss([0,1], {0, 1 | | 0, 0 | -10});",
        "let s = \"{0, 1 | | 0, 0 | -10}\";\niss([0,1], s);",
    );
    same(
        "constraint",
        "tests/kernels/trisolv.c",
        "iss([0], c1 <= n / 2);",
        "iss([0], \"c1 <= n / 2\");",
    );
    same(
        "boolean",
        "tests/kernels/gemm.c",
        "interchange([0,1,0], 2, 3, true);",
        "interchange([0,1,0], 2, 3, true);",
    );
    same(
        "alias",
        "tests/kernels/atax.c",
        "fission([1,1], 1);",
        "distribute([1,1], 1);",
    );
    // `split` is the directive, also where rhai has its own `split`.
    same(
        "split-shadowed",
        "tests/kernels/atax.c",
        "split([1,1], 1);",
        "let b = [1, 1];\nsplit(b, 1);\nprint(\"a,b\".split(\",\"));",
    );
}

// ---------------------------------------------------------------------
// Queries.

/// `statements()`, `loops()`, `parameters()`, `dependences()` and
/// `schedule()` on gemm, before and after a directive.
#[test]
fn queries_describe_the_program_as_transformed_so_far() {
    let out = run(
        "queries",
        "tests/kernels/gemm.c",
        r#"
print(parameters());
for s in statements() { print(s); }
for l in loops() { print(`${l.beta} depth ${l.depth} ${l.statements} parallel ${l.parallel}`); }
let d = dependences();
print(d.len());
print(d[0]);
print(d[3]);
stripmine([0,1,0], 3, 8);
parallelize([0], 1);
print(statements()[1].beta);
print(statements()[1].depth);
print(loops()[0].parallel);
print(schedule());
"#,
        &["--emit", "schedule-text"],
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let expected = r#"["ni", "nj", "nk"]
#{"beta": [0, 0, 0], "betas": [[0, 0, 0]], "depth": 2, "iterators": ["i", "j"], "label": "init", "name": "S0"}
#{"beta": [0, 1, 0, 0], "betas": [[0, 1, 0, 0]], "depth": 3, "iterators": ["i", "k", "j"], "label": "update", "name": "S1"}
[0] depth 1 ["S0", "S1"] parallel false
[0, 0] depth 2 ["S0"] parallel false
[0, 1] depth 2 ["S1"] parallel false
[0, 1, 0] depth 3 ["S1"] parallel false
6
#{"array": "C", "depth": 2, "distance": [0], "kind": "WAW", "loop_independent": true, "source": "S0", "target": "S1"}
#{"array": "C", "depth": 2, "distance": (), "kind": "WAW", "loop_independent": false, "source": "S1", "target": "S1"}
[0, 1, 0, 0, 0]
4
true
"#;
    assert!(
        out.stderr.starts_with(expected),
        "stderr:\n{}\nexpected to start with:\n{expected}",
        out.stderr
    );
    // `schedule()` is the `--emit schedule-text` form, without its header.
    let text = out.stdout.trim_start_matches("# scop region 1\n");
    assert!(out.stderr.contains(text), "{}", out.stderr);
}

/// A statement without a label has `label: ()`; a split statement has
/// several β-vectors.
#[test]
fn statements_report_labels_and_pieces() {
    let out = run(
        "pieces",
        "tests/kernels/trisolv.c",
        r#"
iss([0], "c1 < 10");
let s = statements()[0];
print(s.label == ());
print(s.betas);
"#,
        &[],
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stderr.starts_with("true\n[[0, 0], [0, 3]]\n"),
        "{}",
        out.stderr
    );
}

// ---------------------------------------------------------------------
// try_…

/// `try_…` applies a legal directive and reports a refused one without
/// stopping the script or changing the schedule.
#[test]
fn try_forms_report_instead_of_stopping() {
    let out = run(
        "try",
        "tests/kernels/gemm.c",
        r#"
let before = schedule();
let r = try_tile([0,1,0], 1, 1, 4);
print(r.ok);
print(r.changed);
print(r.reason);
print(schedule() == before);
print(r.diagnostic.contains("try_tile([0,1,0], 1, 1, 4)"));
let r = try_tile([0,1,0], 2, 2, 8);
print(`${r.ok} ${r.changed} "${r.reason}"`);
print(schedule() == before);
let r = try_parallelize([0], 1);
print(`${r.ok} ${r.changed}`);
let r = try_parallelize([0], 1);
print(`${r.ok} ${r.changed}`);
let r = try_auto("pluto");
print(`${r.ok} ${r.reason}`);
let r = try_tile([0,1,0], 2);
print(`${r.ok} ${r.reason}`);
"#,
        &["--emit", "schedule-text"],
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let expected =
        "false\nfalse\n`tile` would violate a WAW dependence S0 -> S1 on `C`\ntrue\ntrue\n\
                    true true \"\"\nfalse\ntrue true\ntrue false\n\
                    false `auto` schedules from the original program: it must come before any other directive\n\
                    false `tile` takes 4 arguments, not 2\n";
    assert_eq!(out.stderr, expected);
    assert!(out.stdout.contains("# parallel at α1"), "{}", out.stdout);
}

/// A script calls the schedulers by name as a string; the schedule they
/// give is the script's from then on.
#[test]
fn a_script_applies_an_automatic_schedule() {
    let out = run(
        "auto",
        "tests/kernels/gemm.c",
        r#"
let before = schedule();
let r = try_auto("pluto");
print(`${r.ok} ${r.changed}`);
print(schedule() == before);
"#,
        &["--emit", "schedule-text"],
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "true true\nfalse\n");
    assert!(out.stdout.contains("# parallel at α1"), "{}", out.stdout);
}

/// `auto`'s options from a script: a map of named arguments, the words of
/// a recipe as strings.
#[test]
fn a_script_passes_auto_its_options() {
    let out = run(
        "auto-options",
        "tests/kernels/gemm.c",
        r#"
let r = try_auto("pluto", #{fuse: "no", tile: false});
print(r.ok);
"#,
        &["--emit", "schedule-text"],
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "true\n");
    // Each component its own nest, untiled.
    assert!(out.stdout.contains("S0: [0, i, 0, j, 0]"), "{}", out.stdout);
    assert!(
        out.stdout.contains("S1: [1, i, 0, k, 0, j, 0]"),
        "{}",
        out.stdout
    );
}

// ---------------------------------------------------------------------
// measure

/// `measure` builds a variant (a function or a recipe string) on a fresh
/// copy of the program, runs it against the original, and reports; an
/// invalid variant is reported, not fatal; the script's own schedule is
/// untouched.
#[test]
fn measure_builds_runs_and_compares_variants() {
    let out = run(
        "measure",
        "tests/kernels/jacobi-1d.c",
        r#"
reverse([0, 0], 2);
let before = schedule();
let r = measure(|| { shift([0,1], 2, [], -1); fuse([0,0]); }, 1);
print(`${r.ok} ${r.matched} ${type_of(r.time)} ${type_of(r.original)} ${type_of(r.speedup)} "${r.mismatch}"`);
print(r.time > 0.0 && r.original > 0.0 && r.reason == "" && r.diagnostic == "");
print(schedule() == before);
let variant = "shift([0,1], 2, [], -1);\nfuse([0,0]);";
let r = measure(variant, 1);
print(`${r.ok} ${r.matched}`);
let r = measure(|| { fuse([0,0]); }, 1);
print(`${r.ok} ${r.reason}`);
print(r.diagnostic.contains("fuse([0,0])"));
let r = measure("fuse([0,0]);", 1);
print(`${r.ok} ${r.reason}`);
print(r.diagnostic.contains("<variant>"));
let r = measure("tile(", 1);
print(r.ok);
print(schedule() == before);
"#,
        &["--emit", "schedule-text"],
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(
        lines,
        [
            "true true f64 f64 f64 \"\"",
            "true",
            "true",
            "true true",
            "false `fuse` would violate a RAW dependence S0 -> S1 on `B`",
            "true",
            "false `fuse` would violate a RAW dependence S0 -> S1 on `B`",
            "true",
            "false",
            "true",
        ],
        "{}",
        out.stderr
    );
    // The script's own schedule: only the reversal.
    assert!(
        out.stdout.contains("S0: [0, t, 0, -i, 0]"),
        "{}",
        out.stdout
    );
}

/// Outside the CLI, without a measurer, `measure` says it cannot measure.
#[test]
fn measure_without_a_measurer_reports_it() {
    let source = std::fs::read_to_string("tests/kernels/gemm.c").expect("kernel");
    let file = read_source("gemm.c", source).expect("accepted");
    let scop = &file.scops[0];
    let deps = dependences(scop, &DepOptions::default()).expect("deps");
    let start = RecipeState::new(scop, &deps, Schedule::original(scop));
    let text = "let r = measure(\"tile([0,1,0], 2, 2, 8);\", 1);\nprint(`${r.ok} ${r.reason}`);\ntile([0,1,0], 2, 2, 8);";
    let Ok(done) = run_script("s.rhai", text, start, None, &ScriptOptions::default()) else {
        panic!("the script stopped");
    };
    let prints: Vec<String> = done
        .log
        .iter()
        .filter_map(|e| match e {
            LogEntry::Print(p) => Some(p.clone()),
            LogEntry::Warning(_) => None,
        })
        .collect();
    assert_eq!(prints, ["false measuring is not available here"]);
    assert_ne!(done.state.schedule, Schedule::original(scop));
}

// ---------------------------------------------------------------------
// The sandbox.

#[test]
fn an_endless_loop_meets_the_operation_limit() {
    let out = run(
        "ops",
        "tests/kernels/gemm.c",
        "let i = 0;\nloop { i += 1; }\n",
        &["--max-operations", "10000"],
    );
    assert_eq!(out.status, 1);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr
            .contains("error: the script exceeded its limit of 10000 operations"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("--max-operations"), "{}", out.stderr);
}

#[test]
fn an_endless_loop_meets_the_time_limit() {
    let start = Instant::now();
    let out = run(
        "time",
        "tests/kernels/gemm.c",
        "let i = 0;\nloop { i += 1; }\n",
        &["--max-operations", "0", "--time-limit", "0.3"],
    );
    assert!(start.elapsed() < Duration::from_secs(20));
    assert_eq!(out.status, 1);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr
            .contains("error: the script ran longer than its time limit of 0.3 s"),
        "{}",
        out.stderr
    );
}

#[test]
fn limits_are_flags_with_checked_values() {
    let out = run(
        "limit-flag",
        "tests/kernels/gemm.c",
        "",
        &["--time-limit", "-1"],
    );
    assert_eq!(out.status, 2, "{}", out.stderr);
    let out = run(
        "limit-flag",
        "tests/kernels/gemm.c",
        "",
        &["--max-operations", "x"],
    );
    assert_eq!(out.status, 2, "{}", out.stderr);
}

/// No module loading, no `eval`, no file or process functions: each is a
/// diagnostic (exit 1), and nothing is read or run.
#[test]
fn a_script_cannot_reach_files_or_processes() {
    for (test, text, says) in [
        (
            "import",
            "import \"x\" as y;\n",
            "'import' is a reserved keyword",
        ),
        ("eval", "eval(\"1\");\n", "'eval' is disabled"),
        ("open", "open(\"Cargo.toml\");\n", "no function `open ("),
        (
            "read",
            "read_file(\"Cargo.toml\");\n",
            "no function `read_file (",
        ),
        ("system", "system(\"ls\");\n", "no function `system ("),
        ("command", "command(\"ls\");\n", "no function `command ("),
    ] {
        let out = run(test, "tests/kernels/gemm.c", text, &[]);
        assert_eq!(out.status, 1, "{test}: {}", out.stderr);
        assert_eq!(out.stdout, "", "{test}");
        assert!(out.stderr.contains(says), "{test}: {}", out.stderr);
    }
}

/// `print` and `debug` go to stderr; stdout holds exactly what the same
/// steps as a recipe print; the input file is left as it was.
#[test]
fn prints_go_to_stderr_and_the_input_is_untouched() {
    let kernel = "tests/kernels/gemm.c";
    let before = std::fs::read(kernel).expect("kernel");
    let out = run(
        "prints",
        kernel,
        "print(\"hello\");\ndebug(\"dbg\");\ntile([0,1,0], 2, 2, 32);\n",
        &[],
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "hello\n[debug (line 2)] \"dbg\"\n");
    let recipe = script_file("prints-recipe", "").with_extension("poly");
    std::fs::write(&recipe, "tile([0,1,0], 2, 2, 32);").expect("write");
    let same = common::polyc(&[kernel, "--recipe", &recipe.to_string_lossy()]);
    assert_eq!(out.stdout, same.stdout);
    assert_eq!(std::fs::read(kernel).expect("kernel"), before);
}

/// What a script printed before it stopped is still on stderr, before the
/// diagnostic.
#[test]
fn prints_before_a_refusal_are_kept() {
    let out = run(
        "prints-refusal",
        "tests/kernels/gemm.c",
        "print(\"searching\");\ntile([0,1,0], 1, 1, 4);\n",
        &[],
    );
    assert_eq!(out.status, 1);
    assert!(
        out.stderr
            .starts_with("searching\nerror: `tile` would violate"),
        "{}",
        out.stderr
    );
}

/// `--set NAME=VALUE` defines a constant for the script.
#[test]
fn set_defines_constants() {
    let out = run(
        "set",
        "tests/kernels/gemm.c",
        "print(type_of(T));\nprint(type_of(NAME));\ntile([0,1,0], 2, 2, T);\nprint(is_def_var(\"OTHER\"));",
        &["--set", "T=16", "--set", "NAME=x", "--emit", "schedule-text"],
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "i64\nstring\nfalse\n");
    assert!(out.stdout.contains("16c3 <= k"), "{}", out.stdout);
}

/// A directive that changes nothing warns, as in a recipe, pointing at
/// the script.
#[test]
fn no_op_directives_warn_on_the_script() {
    let out = run(
        "noop",
        "tests/kernels/gemm.c",
        "parallelize([0], 1);\nparallelize([0], 1);\n",
        &["--emit", "schedule-text"],
    );
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("warning: `parallelize` changes nothing"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("noop.rhai:2:1"), "{}", out.stderr);
}

// ---------------------------------------------------------------------
// Diagnostics.

/// Every rejection `tests/must_fail_script/NAME.rhai`, given to the CLI on
/// gemm with `--max-operations 100000`: exit status 1, nothing on stdout,
/// and the exact diagnostic, which points into the script, snapshotted
/// beside it in `NAME.snap`.
#[test]
fn every_must_fail_script_is_rejected_with_its_diagnostic() {
    filetest::assert_no_orphan_snapshots("must_fail_script", "rhai");
    for path in filetest::inputs("must_fail_script", "rhai") {
        let rel = path.to_string_lossy().into_owned();
        let out = common::polyc(&[
            "tests/kernels/gemm.c",
            "--recipe",
            &rel,
            "--max-operations",
            "100000",
        ]);
        assert_eq!(out.status, 1, "{rel} was not rejected:\n{}", out.stderr);
        assert_eq!(out.stdout, "", "{rel}: something on stdout");
        assert!(
            out.stderr.contains(&format!("{rel}:")),
            "{rel}: {}",
            out.stderr
        );
        filetest::assert_snapshot_beside(&path, None, &out.stderr);
    }
}

// ---------------------------------------------------------------------
// The shipped examples.

/// `recipes/examples/fusion-search.rhai` on its kernel: the table lists
/// the four structures, two of them not legal, and the script keeps one of
/// the legal ones.
#[test]
fn the_fusion_search_example_keeps_a_legal_structure() {
    let out = common::polyc(&[
        "recipes/examples/fusion3.c",
        "--recipe",
        "recipes/examples/fusion-search.rhai",
        "--set",
        "RUNS=1",
        "--set",
        "MARGIN=0",
        "--emit",
        "schedule-text",
    ]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "[[0], [1, 2]]  not legal: `fuse` would violate a RAW dependence S1 -> S2 on `B`"
        ),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("[[0, 1, 2]]  not legal"),
        "{}",
        out.stderr
    );
    let best = out
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("best: "))
        .unwrap_or_else(|| panic!("no best: {}", out.stderr));
    let s2 = out
        .stdout
        .lines()
        .find(|l| l.starts_with("S2:"))
        .unwrap_or_default();
    if best.starts_with("[[0, 1], [2]]") {
        assert!(out.stdout.contains("S1: [0, i, 1, j, 0]"), "{}", out.stdout);
        assert!(s2.starts_with("S2: [1,"), "{}", out.stdout);
    } else {
        assert!(best.starts_with("[[0], [1], [2]]"), "{best}");
        assert!(s2.starts_with("S2: [2,"), "{}", out.stdout);
    }
}

/// As a recipe, a script runs once per scop region (or for `--scop N`
/// only), its queries and β-vectors relative to that region; a refusal
/// names the region.
#[test]
fn a_script_runs_once_per_region() {
    let k = "tests/kernels/two-regions.c";
    let text = "print(statements().len());\nparallelize([0], 1);\n";
    let out = run("regions", k, text, &["--emit", "schedule-text"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "3\n2\n");
    assert_eq!(
        out.stdout.matches("# parallel at α1").count(),
        3,
        "{}",
        out.stdout
    );
    let out = run(
        "regions-2",
        k,
        text,
        &["--scop", "2", "--emit", "schedule-text"],
    );
    assert_eq!(out.stderr, "2\n");
    let out = run("regions-refused", k, "stripmine([7], 1, 4);\n", &[]);
    assert_eq!(out.status, 1);
    assert!(
        out.stderr
            .contains("note: in scop region 1 of tests/kernels/two-regions.c"),
        "{}",
        out.stderr
    );
}

#[test]
fn the_tile_search_example_measures_every_pair_and_keeps_one() {
    // On the small gemm (the example is meant for gemm-1024.c; here only
    // its logic is checked): 16 variants, one run each.
    let out = common::polyc(&[
        "recipes/gemm/gemm.c",
        "--recipe",
        "recipes/examples/tile-search.rhai",
        "--set",
        "RUNS=1",
        "--set",
        "MARGIN=0",
        "--emit",
        "schedule-text",
    ]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let rows = out
        .stderr
        .lines()
        .filter(|l| l.trim_end().ends_with("same"))
        .count();
    assert_eq!(rows, 16, "{}", out.stderr);
    let best = out
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("best: Tk = "))
        .unwrap_or_else(|| panic!("no best: {}", out.stderr));
    let tk = best.split(',').next().unwrap_or_default();
    assert!(
        out.stdout.contains(&format!("{tk}c")),
        "the best tiling is not the schedule left:\n{}",
        out.stdout
    );
}

/// The search examples keep the original schedule when no variant beats it
/// by their margin (here an impossible one), and say so.
#[test]
fn the_search_examples_keep_the_original_when_nothing_wins() {
    for (kernel, script, first_dates) in [
        (
            "recipes/gemm/gemm.c",
            "recipes/examples/tile-search.rhai",
            "S1: [0, i, 1, k, 0, j, 0]",
        ),
        (
            "recipes/examples/fusion3.c",
            "recipes/examples/fusion-search.rhai",
            "S2: [2,",
        ),
    ] {
        let out = common::polyc(&[
            kernel,
            "--recipe",
            script,
            "--set",
            "RUNS=1",
            "--set",
            "MARGIN=1000000",
            "--emit",
            "schedule-text",
        ]);
        assert_eq!(out.status, 0, "{script}: {}", out.stderr);
        assert!(
            out.stderr.contains("the original schedule is kept"),
            "{script}: {}",
            out.stderr
        );
        assert!(
            out.stdout.contains(first_dates),
            "{script}: the schedule changed:\n{}",
            out.stdout
        );
    }
}
