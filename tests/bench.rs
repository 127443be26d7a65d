//! `polyc bench` (issue 8): both programs built and run, outputs compared,
//! timings printed as text or JSON; a mismatch exits 1 with the first
//! differing lines; missing files, compilers and failing programs are
//! errors; the work files are removed, also on error. The library's
//! `bench::compare` is called directly with hand-made programs, bypassing
//! the legality check. Every run uses `gcc -O2 -fopenmp -lm` (not the
//! default `-march=native`) and one or two runs, to stay quick.

use crate::common;

use std::path::Path;
use std::process::Command;

use clap::Parser;
use polyc::cli::bench::{compare, first_differences, median, BenchError, BenchOptions, Program};
use polyc::cli::BenchCli;

const FLAGS: &str = "-O2 -fopenmp -lm";

fn bench_bin(args: &[&str]) -> (i32, String, String) {
    bench_bin_in(args, None)
}

/// Run `polyc bench ARGS`, with `TMPDIR` set to `tmp` when given.
fn bench_bin_in(args: &[&str], tmp: Option<&Path>) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_polyc"));
    cmd.arg("bench").args(args);
    if let Some(t) = tmp {
        cmd.env("TMPDIR", t);
    }
    let out = cmd.output().expect("run polyc bench");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn quick(runs: usize) -> BenchOptions {
    BenchOptions {
        runs,
        cc: "gcc".to_string(),
        cflags: FLAGS.split_whitespace().map(str::to_string).collect(),
    }
}

/// A program that prints `lines`, one per line.
fn printing(lines: &[&str]) -> String {
    let mut s = String::from("#include <stdio.h>\nint main(void)\n{\n");
    for l in lines {
        s.push_str(&format!("  puts(\"{l}\");\n"));
    }
    s.push_str("  return 0;\n}\n");
    s
}

#[test]
fn gemm_with_its_recipe_prints_a_json_report_that_parses() {
    let (status, stdout, stderr) = bench_bin(&[
        "recipes/gemm/gemm.c",
        "--recipe",
        "recipes/gemm/gemm.poly",
        "--set",
        "T=16",
        "--runs",
        "2",
        "--cc",
        "gcc",
        "--cflags",
        FLAGS,
        "--json",
    ]);
    assert_eq!((status, stderr.as_str()), (0, ""), "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(v["file"], "recipes/gemm/gemm.c");
    assert_eq!(v["recipe"], "recipes/gemm/gemm.poly");
    assert_eq!(v["set"], serde_json::json!(["T=16"]));
    assert_eq!(v["runs"], 2);
    assert_eq!(v["cc"], "gcc");
    assert_eq!(v["cflags"], serde_json::json!(["-O2", "-fopenmp", "-lm"]));
    assert_eq!(v["outputs_match"], true);
    assert_eq!(v["mismatch"], serde_json::Value::Null);
    for side in ["original", "transformed"] {
        let runs = v[side]["runs_s"].as_array().expect("runs_s");
        assert_eq!(runs.len(), 2, "{side}");
        let m = v[side]["median_s"].as_f64().expect("median_s");
        assert!(m > 0.0, "{side}: {m}");
    }
    let speedup = v["speedup"].as_f64().expect("speedup");
    let ratio = v["original"]["median_s"].as_f64().unwrap_or(0.0)
        / v["transformed"]["median_s"].as_f64().unwrap_or(1.0);
    assert!(
        (speedup - ratio).abs() < 1e-9 * ratio,
        "{speedup} vs {ratio}"
    );
}

#[test]
fn jacobi_1d_without_a_recipe_prints_the_text_report() {
    let (status, stdout, stderr) = bench_bin(&[
        "tests/kernels/jacobi-1d.c",
        "--runs",
        "1",
        "--cc",
        "gcc",
        "--cflags",
        FLAGS,
    ]);
    assert_eq!((status, stderr.as_str()), (0, ""), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(lines[0].starts_with("original "), "{stdout}");
    assert!(lines[0].ends_with(" ms  (median of 1)"), "{stdout}");
    assert!(lines[1].starts_with("transformed "), "{stdout}");
    assert!(
        lines[2].starts_with("speedup ") && lines[2].ends_with('x'),
        "{stdout}"
    );
    assert_eq!(lines[3], "outputs match");
}

#[test]
fn a_transformed_program_that_prints_something_else_is_a_mismatch() {
    // Hand-made: gemm with another alpha, so every entry of C changes.
    let original = std::fs::read_to_string("tests/kernels/gemm.c").expect("read gemm");
    let wrong = original.replace("*alpha = 1.5;", "*alpha = 2.5;");
    assert_ne!(original, wrong);
    let opts = quick(1);
    let report = compare(&original, &wrong, &opts).expect("both programs run");
    let mismatch = report.mismatch.clone().expect("a mismatch");
    assert!(
        mismatch.starts_with("line 1:\n  original:    "),
        "{mismatch}"
    );
    assert!(mismatch.contains("\n  transformed: "), "{mismatch}");
    // The CLI's rendering of it: exit 1, the error and the lines on stderr.
    let cli = BenchCli::parse_from(["polyc bench", "tests/kernels/gemm.c", "--json"]);
    let out = polyc::cli::bench_driver::outcome(&cli, &opts, &report);
    assert_eq!(out.status, 1);
    assert!(
        out.stderr
            .starts_with(&format!("error: outputs differ\n{mismatch}")),
        "{}",
        out.stderr
    );
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(v["outputs_match"], false);
    assert_eq!(v["mismatch"], mismatch.as_str());
    let cli = BenchCli::parse_from(["polyc bench", "tests/kernels/gemm.c"]);
    let out = polyc::cli::bench_driver::outcome(&cli, &opts, &report);
    assert_eq!(out.status, 1);
    assert!(out.stdout.ends_with("outputs differ\n"), "{}", out.stdout);
}

#[test]
fn the_mismatch_names_the_first_differing_line() {
    let report = compare(
        &printing(&["a", "b", "c", "d"]),
        &printing(&["a", "b", "X", "d"]),
        &quick(2),
    )
    .expect("both programs run");
    assert_eq!(
        report.mismatch.as_deref(),
        Some("line 3:\n  original:    c\n  transformed: X\n")
    );
    assert_eq!(report.original.runs_s.len(), 2);
    assert_eq!(report.transformed.runs_s.len(), 2);
    let same = compare(&printing(&["a"]), &printing(&["a"]), &quick(1)).expect("run");
    assert_eq!(same.mismatch, None);
}

#[test]
fn first_differences_shows_three_lines_and_counts_the_rest() {
    assert_eq!(first_differences(b"a\nb\n", b"a\nb\n"), None);
    assert_eq!(
        first_differences(b"a\nb\n", b"a\n").as_deref(),
        Some("line 2:\n  original:    b\n  transformed: (end of output)\n")
    );
    assert_eq!(
        first_differences(b"a\n", b"a").as_deref(),
        Some("the outputs differ only in the newline at the end\n")
    );
    assert_eq!(
        first_differences(b"x\r\n", b"x\n").as_deref(),
        Some("line 1:\n  original:    x\\r\n  transformed: x\n")
    );
    let d = first_differences(b"1\n2\n3\n4\n5\n", b"0\n0\n0\n0\n0\n").unwrap_or_default();
    assert!(d.starts_with("line 1:\n"), "{d}");
    assert!(d.contains("line 3:\n") && !d.contains("line 4:"), "{d}");
    assert!(d.ends_with("… and 2 more differing lines\n"), "{d}");
}

#[test]
fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
    assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
    assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    assert_eq!(median(&[]), 0.0);
}

#[test]
fn options_from_env_have_the_documented_defaults() {
    let o = BenchOptions::from_env();
    assert_eq!(o.runs, 5);
    assert_eq!(o.cflags, ["-O3", "-march=native", "-fopenmp", "-lm"]);
    assert!(!o.cc.trim().is_empty());
}

#[test]
fn programs_that_do_not_build_or_run_are_errors() {
    let ok = printing(&["a"]);
    let broken = "int main(void) { return x; }\n";
    match compare(&ok, broken, &quick(1)) {
        Err(e @ BenchError::CompileFailed { program, .. }) => {
            assert_eq!(program, Program::Transformed);
            let text = e.to_string();
            assert!(
                text.starts_with("the transformed program does not compile\n"),
                "{text}"
            );
            assert!(text.contains("transformed.c:1:"), "{text}");
            assert!(!text.contains("polyc-bench-"), "{text}");
        }
        other => panic!("expected a compile error, got {other:?}"),
    }
    let exits_3 = "#include <stdio.h>\nint main(void) { fputs(\"boom\", stderr); return 3; }\n";
    match compare(exits_3, &ok, &quick(1)) {
        Err(e @ BenchError::RunFailed { program, .. }) => {
            assert_eq!(program, Program::Original);
            let text = e.to_string();
            assert!(
                text.starts_with("the original program exited with status 3 (run 1)"),
                "{text}"
            );
            assert!(text.contains("boom"), "{text}");
        }
        other => panic!("expected a run error, got {other:?}"),
    }
    let mut no_cc = quick(1);
    no_cc.cc = "polyc-no-such-compiler".to_string();
    match compare(&ok, &ok, &no_cc) {
        Err(e @ BenchError::CompilerNotFound { .. }) => {
            assert!(
                e.to_string()
                    .starts_with("cannot run the C compiler `polyc-no-such-compiler`: "),
                "{e}"
            );
        }
        other => panic!("expected a missing compiler, got {other:?}"),
    }
}

#[test]
fn usage_errors_exit_2_and_refused_recipes_exit_1() {
    let (status, stdout, stderr) = bench_bin(&["no/such.c"]);
    assert_eq!((status, stdout.as_str()), (2, ""));
    assert!(
        stderr.starts_with("error: cannot read no/such.c: "),
        "{stderr}"
    );
    let k = "tests/kernels/jacobi-1d.c";
    let (status, _, stderr) = bench_bin(&[k, "--cc", "polyc-no-such-compiler"]);
    assert_eq!(status, 2);
    assert!(
        stderr.contains("cannot run the C compiler `polyc-no-such-compiler`"),
        "{stderr}"
    );
    assert!(stderr.contains("help: "), "{stderr}");
    let (status, _, stderr) = bench_bin(&[k, "--runs", "0"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("at least 1"), "{stderr}");
    // The driver's diagnostics pass through with its status.
    let (status, stdout, stderr) = bench_bin(&[k, "--recipe", "recipes/gemm/gemm.poly"]);
    assert_eq!((status, stdout.as_str()), (1, ""));
    assert!(stderr.contains("recipes/gemm/gemm.poly:"), "{stderr}");
    let (status, _, stderr) = bench_bin(&[k, "--recipe", "no/such.poly"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("cannot read no/such.poly"), "{stderr}");
}

#[test]
fn help_says_what_is_compared_without_a_recipe() {
    let (status, stdout, _) = bench_bin(&["--help"]);
    assert_eq!(status, 0);
    assert!(stdout.contains("Usage: polyc bench"), "{stdout}");
    assert!(stdout.contains("identity code"), "{stdout}");
    let out = Command::new(env!("CARGO_BIN_EXE_polyc"))
        .arg("--help")
        .output()
        .expect("run polyc");
    let top = String::from_utf8_lossy(&out.stdout);
    assert!(top.contains("polyc bench [OPTIONS] <FILE>"), "{top}");
}

#[test]
fn work_files_are_removed_also_on_error() {
    let tmp = common::scratch("bench-tmpdir");
    let k = "tests/kernels/jacobi-1d.c";
    let (status, _, stderr) = bench_bin_in(
        &[k, "--runs", "1", "--cc", "gcc", "--cflags", FLAGS],
        Some(&tmp),
    );
    assert_eq!((status, stderr.as_str()), (0, ""));
    let (status, _, stderr) = bench_bin_in(
        &[k, "--cc", "gcc", "--cflags", "-O2 -fpolyc-no-such-flag"],
        Some(&tmp),
    );
    assert_eq!(status, 1, "{stderr}");
    assert!(
        stderr.starts_with("error: the original program does not compile\n"),
        "{stderr}"
    );
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .expect("read the scratch dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}
