//! The CLI contract (DESIGN §8): exit statuses, flags not implemented yet,
//! the dependence views, `-o` and `--scop`, through the real binary.

use crate::common;

use std::process::Command;

fn polyc_bin(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_polyc"))
        .args(args)
        .output()
        .expect("run polyc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn help_shows_real_examples() {
    let (status, stdout, _) = polyc_bin(&["--help"]);
    assert_eq!(status, 0);
    assert!(stdout.contains("polyc recipes/gemm/gemm.c"), "{stdout}");
    assert!(stdout.contains("--emit scop"), "{stdout}");
}

#[test]
fn help_marks_no_option_as_not_implemented() {
    let (status, stdout, _) = polyc_bin(&["--help"]);
    assert_eq!(status, 0);
    // The lines from the one naming the option to its description.
    let lines = |needle: &str, n: usize| {
        stdout
            .lines()
            .skip_while(|l| !l.contains(needle))
            .take(n)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let marked = |text: String| text.contains("not yet implemented");
    assert!(!marked(lines("--explain", 2)), "{stdout}");
    assert!(!marked(lines("- cuda:", 1)), "{stdout}");
    assert!(!marked(lines("- openmp:", 1)), "{stdout}");
    assert!(!marked(lines("--recipe <R>", 2)), "{stdout}");
}

#[test]
fn auto_after_another_directive_is_a_diagnostic_on_the_call() {
    let dir = tempfile::tempdir().expect("temp dir");
    let recipe = dir.path().join("auto.poly");
    std::fs::write(&recipe, "tile([0, 1], 2, 2, 32);\nauto(pluto);\n").expect("write recipe");
    let recipe = recipe.to_string_lossy().into_owned();
    let (status, stdout, stderr) = polyc_bin(&["tests/kernels/gemm.c", "--recipe", &recipe]);
    assert_eq!((status, stdout.as_str()), (1, ""), "{stderr}");
    assert!(
        stderr.contains("it must come before any other directive"),
        "{stderr}"
    );
    assert!(stderr.contains("auto.poly:2:1"), "{stderr}");
}

#[test]
fn auto_on_a_subtree_inside_a_loop_schedules_that_subtree_only() {
    let dir = tempfile::tempdir().expect("temp dir");
    let recipe = dir.path().join("auto.poly");
    // jacobi-2d: the second sweep inside the time loop.
    std::fs::write(&recipe, "auto(pluto, [0, 1]);\n").expect("write recipe");
    let recipe = recipe.to_string_lossy().into_owned();
    let (status, stdout, stderr) = polyc_bin(&[
        "tests/kernels/jacobi-2d.c",
        "--recipe",
        &recipe,
        "--emit",
        "schedule-text",
    ]);
    assert_eq!(status, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "# scop region 1",
            "# auto(pluto, [0, 1]) chose, outermost band first:",
            "#   band of S1: members i, j; permutable; coincident: i, j; parallel: i; vector: j",
            "S0: [0, t, 0, i, 0, j, 0]",
            "S1: [0, t, 1, i, 0, j, 0]  # parallel at α2, vector at α3",
        ]
    );
}

#[test]
fn explain_prints_a_recipe_from_the_binary() {
    let k = "tests/kernels/gemm.c";
    let (status, stdout, stderr) = polyc_bin(&[k, "--explain"]);
    assert_eq!((status, stderr.as_str()), (0, ""));
    assert!(
        stdout.starts_with("# polyc --explain: region 1 of"),
        "{stdout}"
    );
    assert!(
        stdout.contains("(the original schedule: no directive)"),
        "{stdout}"
    );
}

#[test]
fn recipes_apply_and_print_their_schedule() {
    let k = "tests/kernels/gemm.c";
    let r = "recipes/gemm/gemm.poly";
    let (status, stdout, stderr) =
        polyc_bin(&[k, "--recipe", r, "--set", "T=64", "--emit", "schedule-text"]);
    assert_eq!((status, stderr.as_str()), (0, ""));
    assert!(stdout.contains("64c3 <= k"), "{stdout}");
    // And prints code with the parallel mark as an OpenMP pragma.
    let (status, stdout, stderr) = polyc_bin(&[k, "--recipe", r]);
    assert_eq!((status, stderr.as_str()), (0, ""));
    assert!(
        stdout.contains("#pragma omp parallel\n") && stdout.contains("#pragma omp for"),
        "{stdout}"
    );
    // A script that cannot be read is an I/O error (exit 2).
    let (status, _, stderr) = polyc_bin(&[k, "--recipe", "no/such.rhai"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("cannot read no/such.rhai"), "{stderr}");
    // A parse error is a diagnostic on the recipe file (exit 1).
    let bad = "tests/must_fail_recipe/missing-semicolon.poly";
    let (status, stdout, stderr) = polyc_bin(&[k, "--recipe", bad]);
    assert_eq!((status, stdout.as_str()), (1, ""));
    assert!(stderr.contains(&format!("{bad}:2:1")), "{stderr}");
    // `--set` names a `let` of the recipe; a malformed one or one without
    // a recipe is a usage error.
    let (status, _, stderr) = polyc_bin(&[k, "--recipe", r, "--set", "U=1"]);
    assert_eq!(status, 1);
    assert!(stderr.contains("the recipe has no `let U`"), "{stderr}");
    let (status, _, stderr) = polyc_bin(&[k, "--recipe", r, "--set", "T"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("expected NAME=VALUE"), "{stderr}");
    let (status, _, stderr) = polyc_bin(&[k, "--set", "T=64"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("give one with --recipe"), "{stderr}");
    let (status, _, stderr) = polyc_bin(&[k, "--recipe", "no/such.poly"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("cannot read no/such.poly"), "{stderr}");
}

#[test]
fn a_missing_or_malformed_schedule_file_is_a_usage_error() {
    let k = "tests/kernels/gemm.c";
    let (status, stdout, stderr) = polyc_bin(&[k, "--schedule", "no-such-file.json"]);
    assert_eq!((status, stdout.as_str()), (2, ""));
    assert!(stderr.contains("cannot read no-such-file.json"), "{stderr}");
    let (status, _, stderr) = polyc_bin(&[k, "--schedule", "Cargo.toml"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("not a schedule file"), "{stderr}");
}

#[test]
fn emit_deps_prints_json_and_text() {
    let k = "tests/kernels/gemm.c";
    let (status, stdout, stderr) = polyc_bin(&[k, "--emit", "deps"]);
    assert_eq!((status, stderr.as_str()), (0, ""));
    assert!(stdout.contains("\"kind\": \"RAW\""), "{stdout}");
    let (status, stdout, _) = polyc_bin(&[k, "--emit", "deps-text"]);
    assert_eq!(status, 0);
    assert!(
        stdout.starts_with("# scop region 1\nWAW S0 -> S1 depth 2"),
        "{stdout}"
    );
    assert!(!stdout.contains("RAR"));
    let (status, stdout, _) = polyc_bin(&[k, "--emit", "deps-text", "--rar"]);
    assert_eq!(status, 0);
    assert!(stdout.contains("RAR S1 -> S1"), "{stdout}");
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(polyc_bin(&[]).0, 2);
    assert_eq!(
        polyc_bin(&["tests/kernels/gemm.c", "--target", "fortran"]).0,
        2
    );
    let (status, _, stderr) = polyc_bin(&["no/such/file.c"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("cannot read no/such/file.c"), "{stderr}");
    let (status, _, stderr) = polyc_bin(&["tests/kernels/two-regions.c", "--scop", "3"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("has 2 scop region(s)"), "{stderr}");
}

#[test]
fn rejected_input_writes_no_output_file() {
    let dir = common::scratch("cli_reject");
    let out = dir.join("out.c");
    let (status, _, _) = polyc_bin(&["tests/must_fail/while.c", "-o", &out.to_string_lossy()]);
    assert_eq!(status, 1);
    assert!(!out.exists(), "a partial output file was written");
}

#[test]
fn dash_o_writes_the_output_file() {
    let dir = common::scratch("cli_out");
    let out = dir.join("gemm.c");
    let (status, stdout, _) = polyc_bin(&["tests/kernels/gemm.c", "-o", &out.to_string_lossy()]);
    assert_eq!(status, 0);
    assert_eq!(stdout, "");
    let (_, direct, _) = polyc_bin(&["tests/kernels/gemm.c"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap_or_default(), direct);
}

#[test]
fn scop_selects_one_region_of_the_model() {
    let out = common::polyc(&[
        "tests/kernels/two-regions.c",
        "--emit",
        "scop",
        "--scop",
        "2",
    ]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(out.stdout.contains("\"region\": 2"));
    assert!(!out.stdout.contains("\"region\": 1"));
}

#[test]
fn a_file_without_regions_is_copied_with_a_warning() {
    let dir = common::scratch("cli_noregion");
    let src = dir.join("plain.c");
    let text = "int main(void) { return 0; }\n";
    std::fs::write(&src, text).expect("write");
    let (status, stdout, stderr) = polyc_bin(&[&src.to_string_lossy()]);
    assert_eq!(status, 0);
    assert_eq!(stdout, text);
    assert!(stderr.contains("no `#pragma scop` region"), "{stderr}");
}

#[test]
fn text_outside_regions_is_kept_byte_for_byte() {
    let src = std::fs::read_to_string("tests/kernels/two-regions.c").expect("read");
    let (status, out, _) = polyc_bin(&["tests/kernels/two-regions.c"]);
    assert_eq!(status, 0);
    let before = |s: &str| s.split("#pragma scop").next().map(str::to_string);
    let after = |s: &str| s.rsplit("#pragma endscop").next().map(str::to_string);
    assert_eq!(before(&src), before(&out));
    assert_eq!(after(&src), after(&out));
}

/// The generated loops count with `int`s: a schedule whose loops would need
/// a wider constant is refused at code generation, unless the kernel's own
/// domains already need one (then it counts with wider types itself).
#[test]
fn constants_beyond_int_are_refused_unless_the_kernel_has_them() {
    let (status, stdout, stderr) = polyc_bin(&[
        "tests/kernels/gemm.c",
        "--recipe",
        "tests/must_fail_recipe/grain-composed-beyond-int.poly",
    ]);
    assert_eq!(status, 1, "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("outside the range of a C `int`"),
        "{stderr}"
    );

    let dir = common::scratch("cli_wide_constant");
    let src = dir.join("wide.c");
    let text = "double A[100];\nvoid k(long n) {\n  long i;\n#pragma scop\n  for (i = 0; i < 100; i++)\n    if (n > 3000000000)\n      A[i] = i;\n#pragma endscop\n}\n";
    std::fs::write(&src, text).expect("write");
    let (status, stdout, stderr) = polyc_bin(&[&src.to_string_lossy()]);
    assert_eq!(status, 0, "{stderr}");
    assert!(stdout.contains("n >= 3000000001"), "{stdout}");
}

#[test]
fn a_reduction_of_a_double_warns_and_one_of_an_integer_does_not() {
    let dir = tempfile::tempdir().expect("temp dir");
    let run = |kernel: &str, text: &str| {
        let recipe = dir.path().join("r.poly");
        std::fs::write(&recipe, text).expect("write recipe");
        let recipe = recipe.to_string_lossy().into_owned();
        let (status, stdout, stderr) = polyc_bin(&[kernel, "--recipe", &recipe]);
        assert_eq!(status, 0, "{stderr}");
        assert!(stdout.contains("reduction(+: "), "{stdout}");
        stderr
    };
    let warning = "the reduction reorders the updates of `sum`, a `double`";
    let durbin = "tests/kernels/durbin.c";
    let alone = run(durbin, "vectorize([3, 2], 2, reduction = sum);\n");
    assert!(alone.contains(warning), "{alone}");
    let grouped = run(durbin, "group { vectorize([3, 2], 2, reduction = sum); }\n");
    assert!(
        grouped.contains(warning) && grouped.contains("in this group"),
        "{grouped}"
    );
    let integer = run(
        "tests/kernels/reduction.c",
        "parallelize([1], 1, reduction = dot);\n",
    );
    assert!(!integer.contains("warning"), "{integer}");
}

/// A loaded schedule's `pack` marks are checked as `pack` checks them:
/// the one `--emit schedule` prints for gemm-pack is accepted and prints
/// the buffer; the same packing a name that is no array is refused.
#[test]
fn a_loaded_schedule_packs_only_what_pack_would() {
    let k = "tests/kernels/gemm.c";
    let (status, json, stderr) = polyc_bin(&[
        k,
        "--recipe",
        "tests/recipes/gemm-pack.poly",
        "--emit",
        "schedule",
    ]);
    assert_eq!((status, stderr.as_str()), (0, ""));
    assert!(json.contains("\"pack\": \"B\""), "{json}");
    let dir = common::scratch("loaded-pack");
    let good = dir.join("pack-b.json");
    std::fs::write(&good, &json).expect("write");
    let (status, code, stderr) = polyc_bin(&[k, "--schedule", good.to_str().expect("path")]);
    assert_eq!((status, stderr.as_str()), (0, ""));
    assert!(code.contains("double polyc_pack_B[32][32];"), "{code}");
    let bad = dir.join("pack-alpha.json");
    std::fs::write(&bad, json.replace("\"pack\": \"B\"", "\"pack\": \"alpha\"")).expect("write");
    let (status, _, stderr) = polyc_bin(&[k, "--schedule", bad.to_str().expect("path")]);
    assert_eq!(status, 1, "{stderr}");
    assert!(
        stderr.contains("packs `alpha` in loop 4, but `alpha` is not an array of the region"),
        "{stderr}"
    );
}
