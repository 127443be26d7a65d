//! Code generation from hand-written schedules (`tests/schedules/NAME.json`,
//! each naming its kernel in `"file"`): the output compiles warning-free,
//! prints what the original prints, and its region is snapshotted beside
//! the schedule in `NAME.snap`. Plus
//! the shape of the code: no guard in the innermost loop of rectangular
//! and triangular nests, one guard-free nest for tiled gemm, marks as
//! pragmas only for `--target openmp`.

use crate::common;
use crate::common::filetest;

use std::fs;
use std::path::{Path, PathBuf};

fn schedules() -> Vec<PathBuf> {
    filetest::inputs("schedules", "json")
}

fn kernel_of(schedule: &Path) -> String {
    let text = fs::read_to_string(schedule).expect("read schedule");
    let json: serde_json::Value = serde_json::from_str(&text).expect("schedule JSON");
    json["file"].as_str().expect("\"file\"").to_string()
}

fn generate(schedule: &Path, target: &str) -> String {
    let kernel = kernel_of(schedule);
    let out = common::polyc(&[
        &kernel,
        "--schedule",
        &schedule.to_string_lossy(),
        "--target",
        target,
    ]);
    assert_eq!(out.status, 0, "{}: {}", schedule.display(), out.stderr);
    out.stdout
}

#[test]
fn every_hand_schedule_runs_and_prints_the_same_as_the_original() {
    let dir = common::scratch("codegen");
    let mut failures = Vec::new();
    let all = schedules();
    assert!(all.len() >= 12, "{} schedules", all.len());
    for s in all {
        let name = s.file_stem().unwrap().to_string_lossy().into_owned();
        let kernel = PathBuf::from(kernel_of(&s));
        let generated = dir.join(format!("{name}.c"));
        fs::write(&generated, generate(&s, "openmp")).unwrap();
        failures.extend(common::differs_from_original(
            &dir, &name, &kernel, &generated,
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn hand_schedule_snapshots() {
    filetest::assert_no_orphan_snapshots("schedules", "json");
    for s in schedules() {
        let region = common::region_text(&generate(&s, "openmp"));
        filetest::assert_snapshot_beside(&s, None, &region);
    }
}

/// Whether some `if` sits in the body of an innermost loop (a `for` with
/// no `for` inside), read off the indentation of the printed region.
fn innermost_has_if(region: &str) -> bool {
    let lines: Vec<&str> = region.lines().filter(|l| !l.trim().is_empty()).collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let is = |l: &str, kw: &str| l.trim_start().starts_with(kw);
    // The lines of the block that line `k` opens.
    let block = |k: usize| {
        lines[k + 1..]
            .iter()
            .take_while(|l| indent(l) > indent(lines[k]))
            .copied()
            .collect::<Vec<_>>()
    };
    (0..lines.len()).any(|k| {
        is(lines[k], "for")
            && !block(k).iter().any(|l| is(l, "for"))
            && block(k).iter().any(|l| is(l, "if"))
    })
}

#[test]
fn nests_have_no_guard_in_the_innermost_loop() {
    // Rectangular nests: no guard at all.
    for k in [
        "gemm",
        "2mm",
        "3mm",
        "syrk",
        "syr2k",
        "mvt",
        "atax",
        "bicg",
        "doitgen",
        "jacobi-2d",
        "seidel-2d",
        "heat-3d",
        "floyd-warshall",
    ] {
        let region = identity_region(k);
        assert!(!region.contains("if ("), "{k}:\n{region}");
    }
    // Triangular nests: the first and last rows, where some statement has
    // no instance, are peeled off (guarded by the parameters), so that no
    // guard is left inside the loops.
    for k in ["lu", "cholesky", "trmm", "trisolv", "symm"] {
        let region = identity_region(k);
        assert!(!innermost_has_if(&region), "{k}:\n{region}");
    }
    // Statements with shifted ranges in one loop: separated into a
    // prologue, the shared loop and an epilogue.
    for s in ["fuse-shift", "fusion"] {
        let path = format!("tests/schedules/{s}.json");
        let region = common::region_text(&generate(Path::new(&path), "c"));
        assert!(!innermost_has_if(&region), "{s}:\n{region}");
    }
}

fn identity_region(kernel: &str) -> String {
    let path = format!("tests/kernels/{kernel}.c");
    let out = common::polyc(&[&path]);
    assert_eq!(out.status, 0, "{kernel}: {}", out.stderr);
    common::region_text(&out.stdout)
}

#[test]
fn the_innermost_guard_check_sees_guards() {
    let guarded = "for (i = 0; i < n; i++) {\n  x = 1;\n  if (i > 2)\n    y = 2;\n}\n";
    assert!(innermost_has_if(guarded));
    let outside = "if (n > 2)\n  for (i = 0; i < n; i++)\n    y = 2;\n";
    assert!(!innermost_has_if(outside));
}

#[test]
fn tiled_gemm_is_a_full_tile_nest_beside_a_partial_one() {
    let region = common::region_text(&generate(Path::new("tests/schedules/tiled-gemm.json"), "c"));
    // One test of the three tile loops picks the full tile (point loops
    // of constant width, no `polyc_min`) or the partial one.
    assert_eq!(region.matches("if (").count(), 1, "{region}");
    assert_eq!(region.matches("} else {").count(), 1, "{region}");
    let (full, partial) = region.split_once("} else {").expect("an else");
    let full = &full[full.find("if (").expect("the test")..];
    assert!(!full.contains("polyc_min"), "{region}");
    assert_eq!(full.matches("<= 32 * c").count(), 3, "{region}");
    assert_eq!(partial.matches("polyc_min(32 * c").count(), 3, "{region}");
    // The update is one nest of three tile loops around three point
    // loops, each directly inside the last, in both versions.
    let fors: Vec<&str> = region
        .lines()
        .filter(|l| l.trim_start().starts_with("for"))
        .collect();
    assert_eq!(fors.len(), 2 + 3 + 3 + 3, "{region}");
    let depth = |l: &str| l.len() - l.trim_start().len();
    for nest in [&fors[2..5], &fors[5..8], &fors[8..]] {
        assert!(
            nest.windows(2).all(|w| depth(w[1]) == depth(w[0]) + 2),
            "{region}"
        );
    }
}

#[test]
fn marks_become_pragmas_only_for_openmp() {
    let s = Path::new("tests/schedules/parallel.json");
    // The parallel loop is outlined (`emit::outline`): its inner loop
    // variables are the function's own, its pragma an orphaned `omp for`.
    let file = generate(s, "openmp");
    let omp = common::region_text(&file);
    assert!(
        omp.contains("  #pragma omp parallel\n  polyc_parallel_1_0("),
        "{omp}"
    );
    assert!(
        file.contains("  int j;\n  int k;\n  #pragma omp for\n  for (i = 0; i < ni; i++) {"),
        "{file}"
    );
    let c = common::region_text(&generate(s, "c"));
    assert!(!c.contains("omp"), "{c}");
    let v = common::region_text(&generate(
        Path::new("tests/schedules/vector.json"),
        "openmp",
    ));
    assert_eq!(v.matches("#pragma omp simd").count(), 2, "{v}");
}

#[test]
fn a_schedule_for_another_region_shape_is_a_diagnostic() {
    let out = common::polyc(&[
        "tests/kernels/mvt.c",
        "--schedule",
        "tests/schedules/interchange.json",
    ]);
    assert_eq!(out.status, 1, "{}", out.stderr);
    assert!(out.stderr.contains("does not fit"), "{}", out.stderr);
}

/// A loaded schedule goes through the legality check a recipe's does:
/// a dependence run out of order, and a marked loop that carries one (a
/// vector loop: closer than its `safelen`), are refused with a witness.
#[test]
fn an_illegal_loaded_schedule_is_refused_with_a_witness() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let write = |name: &str, s0: &str, s1: &str, marks: &str| {
        let json = format!(
            r#"{{"file": "tests/kernels/gemm.c", "scops": [{{"region": 1, "statements": [
                {{"statement": "S0", "pieces": ["[ni, nj, nk] -> {{ S0[i, j] -> {s0} }}"]}},
                {{"statement": "S1", "pieces": ["[ni, nj, nk] -> {{ S1[i, k, j] -> {s1} }}"],
                  "marks": {marks}}}]}}]}}"#
        );
        let path = dir.path().join(name);
        fs::write(&path, json).expect("writable");
        path
    };
    let refused = |name: &str, s0: &str, s1: &str, marks: &str, message: &str| {
        let path = write(name, s0, s1, marks);
        let out = common::polyc(&[
            "tests/kernels/gemm.c",
            "--schedule",
            &path.to_string_lossy(),
        ]);
        assert_eq!(out.status, 1, "{name}: {}", out.stderr);
        assert!(out.stderr.contains(message), "{name}: {}", out.stderr);
    };
    // The update of row i before its initialisation.
    refused(
        "early.json",
        "[0, i, 1, j, 0]",
        "[0, i, 0, k, 0, j, 0]",
        "[[], [], []]",
        "the schedule of scop region 1 violates a dependence S0 -> S1 on `C`",
    );
    // The reduction loop over k marked parallel.
    refused(
        "racy.json",
        "[0, i, 0, j, 0]",
        "[0, i, 1, k, 0, j, 0]",
        r#"[[], ["parallel"], []]"#,
        "the schedule of scop region 1 marks loop 2 of S1 parallel, but it carries a dependence",
    );
    // The reduction loop over k, innermost, marked vector with a safelen:
    // its dependence joins consecutive iterations.
    refused(
        "close.json",
        "[0, i, 0, j, 0]",
        "[0, i, 1, j, 0, k, 0]",
        r#"[[], [], ["vector", {"safelen": 2}]]"#,
        "marks loop 3 of S1 vector, but it carries a dependence",
    );
}

/// A loaded schedule must run every instance exactly once, which no
/// dependence would tell: pieces that leave an instance out or overlap,
/// and a piece that gives an instance two dates, are refused with the
/// instance (each printed code ran without error before, and printed
/// other values than the original).
#[test]
fn a_loaded_schedule_that_skips_or_repeats_an_instance_is_refused() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // gemm with `s0_pieces` as the pieces of S0's schedule, S1's original.
    let load = |name: &str, s0_pieces: &[&str]| {
        let pieces: Vec<String> = s0_pieces
            .iter()
            .map(|p| format!(r#""[ni, nj, nk] -> {{ S0[i, j] -> {p} }}""#))
            .collect();
        let json = format!(
            r#"{{"file": "tests/kernels/gemm.c", "scops": [{{"region": 1, "statements": [
                {{"statement": "S0", "pieces": [{}]}},
                {{"statement": "S1", "pieces": ["[ni, nj, nk] -> {{ S1[i, k, j] -> [0, i, 1, k, 0, j, 0] }}"]}}]}}]}}"#,
            pieces.join(", ")
        );
        let path = dir.path().join(name);
        fs::write(&path, json).expect("writable");
        common::polyc(&[
            "tests/kernels/gemm.c",
            "--schedule",
            &path.to_string_lossy(),
        ])
    };
    let refused = |name: &str, s0_pieces: &[&str], message: &str| {
        let out = load(name, s0_pieces);
        assert_eq!(out.status, 1, "{name}: {}", out.stderr);
        let expected = format!(
            "the schedule of scop region 1 must run every instance exactly once: {message}"
        );
        assert!(out.stderr.contains(&expected), "{name}: {}", out.stderr);
    };
    refused(
        "uncovered.json",
        &["[0, i, 0, j, 0] : i >= 1"],
        "ni = 1, nj = 1, nk = 0: S0(i=0, j=0) has no date: no piece of its schedule holds it",
    );
    refused(
        "overlapping.json",
        &["[0, i, 0, j, 0] : j <= 5", "[0, i, 0, j, 0] : j >= 5"],
        "ni = 1, nj = 6, nk = 0: S0(i=0, j=5) would run twice: pieces 1 and 2 of its schedule both hold it",
    );
    refused(
        "two-dates.json",
        &["[0, i, 0, c, 0] : j <= c <= j + 1"],
        "ni = 1, nj = 1, nk = 0: S0(i=0, j=0) would run more than once: piece 1 of its schedule gives it several dates",
    );
    // Pieces that cut the domain in two, and a strip-mined loop whose tile
    // is a function of `j`, run each instance once.
    for (name, pieces) in [
        (
            "cut.json",
            vec!["[0, i, 0, j, 0] : j <= 5", "[0, i, 0, j, 0] : j >= 6"],
        ),
        (
            "strips.json",
            vec!["[0, i, 0, c, 0, j, 0] : 4c <= j <= 4c + 3"],
        ),
    ] {
        let out = load(name, &pieces);
        assert_eq!(out.status, 0, "{name}: {}", out.stderr);
    }
}

/// `text` without its scop regions: every line outside `#pragma scop` …
/// `#pragma endscop` (the pragma lines kept as markers), and without the
/// functions of outlined parallel constructs (a blank line, `static void
/// polyc_parallel_…`, up to its closing brace).
fn outside_regions(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut inside = false;
    let mut function = false;
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        let t = line.trim();
        if function {
            function = line != "}\n";
        } else if t.is_empty()
            && lines.peek().is_some_and(|l| {
                l.starts_with("static inline __attribute__((always_inline)) void polyc_parallel_")
            })
        {
            function = true;
        } else if t == "#pragma scop" {
            inside = true;
            out.push(line);
        } else if t == "#pragma endscop" {
            inside = false;
            out.push(line);
        } else if !inside {
            out.push(line);
        }
    }
    out
}

/// What polyc adds to a file is exactly what docs/codegen.md says: the
/// `polyc_*` helper block (verbatim in the docs) at the very top when the
/// generated code uses a helper, and nothing else; every byte outside the
/// regions is kept. Checked on every kernel (identity) and on recipes that
/// need the helpers.
#[test]
fn polyc_adds_only_the_documented_helpers_and_keeps_every_byte_outside_regions() {
    let helpers = polyc::emit::HELPERS;
    let docs = fs::read_to_string("docs/codegen.md").expect("docs/codegen.md");
    assert!(
        docs.contains(helpers),
        "docs/codegen.md must show the helper block verbatim:\n{helpers}"
    );
    let mut cases: Vec<(String, Vec<String>)> = common::kernels()
        .into_iter()
        .map(|k| (k.to_string_lossy().into_owned(), Vec::new()))
        .collect();
    for (kernel, recipe) in [
        (
            "tests/kernels/atax.c",
            "tests/recipes/atax-parallel-unroll.poly",
        ),
        ("tests/kernels/gemm.c", "tests/recipes/gemm-tile-kj.poly"),
    ] {
        cases.push((kernel.into(), vec!["--recipe".into(), recipe.into()]));
    }
    let mut with_helpers = 0;
    for (kernel, extra) in &cases {
        let mut args = vec![kernel.as_str()];
        args.extend(extra.iter().map(String::as_str));
        let out = common::polyc(&args);
        assert_eq!(out.status, 0, "{kernel} {extra:?}: {}", out.stderr);
        let source = fs::read_to_string(kernel).expect("kernel");
        let body = match out.stdout.strip_prefix(helpers) {
            Some(rest) if !source.contains("#ifndef polyc_floord") => {
                with_helpers += 1;
                assert!(
                    rest.contains("polyc_"),
                    "{kernel}: helpers added but unused"
                );
                rest
            }
            _ => {
                let added = out.stdout.matches("polyc_").count();
                let had = source.matches("polyc_").count();
                assert!(
                    added == had || source.contains("#ifndef polyc_floord"),
                    "{kernel} {extra:?}: uses helpers without defining them"
                );
                out.stdout.as_str()
            }
        };
        assert_eq!(
            outside_regions(body),
            outside_regions(&source),
            "{kernel} {extra:?}: bytes outside the regions changed"
        );
    }
    assert!(
        with_helpers >= 2,
        "only {with_helpers} outputs used the helpers"
    );
}

/// gcc vectorises the innermost loop of gemm's full tile (issue 16: point
/// loops of constant width, which `-fopt-info-vec` reports as vectorised
/// with no remainder to guess at), in the `auto(pluto)` output.
#[test]
fn gcc_vectorises_the_full_tile_of_gemm() {
    let dir = common::scratch("full-tile-vector");
    let recipe = dir.join("auto.poly");
    std::fs::write(&recipe, "auto(pluto);\n").expect("write the recipe");
    let out = common::polyc(&[
        "tests/kernels/gemm.c",
        "--recipe",
        &recipe.to_string_lossy(),
    ]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let src = dir.join("gemm-auto.c");
    std::fs::write(&src, &out.stdout).expect("write the output");
    // The full tile's innermost loop: the `j` loop of constant width
    // (64: the vector loop under a register tile).
    let line = out
        .stdout
        .lines()
        .position(|l| {
            l.trim_start()
                .starts_with("for (j = 64 * c3; j <= 64 * c3 + 63; j++)")
        })
        .map(|k| k + 1)
        .unwrap_or_else(|| panic!("no full-tile j loop:\n{}", out.stdout));
    let report = std::process::Command::new("gcc")
        .args(["-O3", "-fopenmp", "-fopt-info-vec-optimized", "-c", "-o"])
        .arg(dir.join("gemm-auto.o"))
        .arg(&src)
        .output()
        .expect("gcc runs");
    let text = String::from_utf8_lossy(&report.stderr);
    // gcc names the loop by its header or by its body's line.
    let at = |k: usize| format!("gemm-auto.c:{k}:");
    assert!(
        text.lines()
            .any(|l| (l.contains(&at(line)) || l.contains(&at(line + 1)))
                && l.contains("loop vectorized")),
        "gcc did not vectorise the loop of line {line}:\n{text}"
    );
}

#[test]
fn a_loaded_reduction_is_checked_as_the_option_is() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let kernel = "tests/kernels/reduction.c";
    let emitted = |args: &[&str]| {
        let mut all = vec![kernel];
        all.extend_from_slice(args);
        let out = common::polyc(&all);
        assert_eq!(out.status, 0, "{}", out.stderr);
        out.stdout
    };
    let load = |name: &str, json: &serde_json::Value| {
        let path = dir.path().join(name);
        fs::write(&path, json.to_string()).expect("writable");
        common::polyc(&[kernel, "--schedule", &path.to_string_lossy()])
    };
    // The recipe's schedule, written and read back: the same code.
    let recipe = "tests/recipes/reduction-parallel.poly";
    let text = emitted(&["--recipe", recipe, "--emit", "schedule"]);
    let mut json: serde_json::Value = serde_json::from_str(&text).expect("schedule JSON");
    let out = load("same.json", &json);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(out.stdout, emitted(&["--recipe", recipe]));
    // The dot product's loop reducing another scalar carries `dot`'s
    // updates.
    let marks = &mut json["scops"][0]["statements"][1]["marks"][0];
    assert_eq!(marks[1], serde_json::json!({"reduction": ["+", "dot"]}));
    marks[1] = serde_json::json!({"reduction": ["+", "total"]});
    let out = load("other.json", &json);
    assert_eq!(out.status, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("marks loop 1 of S1 parallel, but it carries a dependence"),
        "{}",
        out.stderr
    );
    // The running sum's loop, whose second statement reads the sum.
    let mut json: serde_json::Value =
        serde_json::from_str(&emitted(&["--emit", "schedule"])).expect("schedule JSON");
    for s in [7, 8] {
        json["scops"][0]["statements"][s]["marks"] =
            serde_json::json!([["parallel", {"reduction": ["+", "running"]}]]);
    }
    let out = load("running.json", &json);
    assert_eq!(out.status, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "marks loop 1 parallel with a reduction, but statement S8 in the loop at depth 1 reads or writes `running`"
        ),
        "{}",
        out.stderr
    );
    // A reduction of an array.
    for s in [7, 8] {
        json["scops"][0]["statements"][s]["marks"] =
            serde_json::json!([["parallel", {"reduction": ["+", "S"]}]]);
    }
    let out = load("array.json", &json);
    assert_eq!(out.status, 1, "{}", out.stderr);
    assert!(out.stderr.contains("`S` is an array"), "{}", out.stderr);
}

/// `!(l % 2 == 0) && !(k % 2 == 0)` under `else if`, four loops deep
/// (a random kernel, seed 102): a domain of a piece per sign of each
/// remainder and side of each `!=`, nearly all of them empty where both
/// are non-negative. Made disjoint, they once were one set whose
/// projection passed the Fourier–Motzkin row limit, so even the original
/// schedule could not be printed. The front end drops the empty pieces:
/// it prints.
#[test]
fn a_union_of_empty_remainder_pieces_is_printed() {
    let out = common::polyc(&["tests/regressions/kernels/r102_146.c"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(out.stdout.contains("% 2 == 0"), "{}", out.stdout);
}

/// A `pack` of heat-3d's `B` in a re-tiled wavefront nine loops deep: its
/// footprint is seven shifted tiles (one per read of the stencil), and
/// made disjoint as one copy statement they passed the Omega test's step
/// limit (random seed 2626). Each disjunct now gets a copy statement of
/// its own: printed, and the output is the original's.
#[test]
fn a_stencil_footprint_too_costly_to_scan_whole_is_copied_per_disjunct() {
    let recipe = common::scratch_recipe(
        "pack-per-disjunct",
        "auto(pluto, wavefront = true, tile = 4);\n\
         tile_band([0, 0, 0, 0, 0, 0], 2, [8, 4, 3]);\n\
         pack([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0], 9, \"B\");\n",
    );
    let kernel = "tests/kernels/heat-3d.c";
    let out = common::polyc(&[kernel, "--recipe", &recipe]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let fills = out
        .stdout
        .lines()
        .filter(|l| l.contains("polyc_pack_B[") && l.contains("] = B["))
        .count();
    assert!(fills >= 7, "{fills} copies in:\n{}", out.stdout);
    // gcc flags the copies of tiles past the kernel's small arrays, in
    // branches that never run (`common::GCC_TILED_FLAGS`); the run checks.
    let dir = common::scratch("pack-per-disjunct");
    let (generated, orig, new) = (dir.join("gen.c"), dir.join("orig"), dir.join("new"));
    fs::write(&generated, &out.stdout).unwrap();
    common::compile(Path::new(kernel), &orig).unwrap();
    common::cc("gcc", common::GCC_TILED_FLAGS, &generated, &new).unwrap();
    let clang = common::clang_exe(&new);
    common::cc("clang", common::CLANG_GENERATED_FLAGS, &generated, &clang).unwrap();
    let expected = common::execute(&orig).unwrap();
    assert!(!expected.is_empty());
    assert_eq!(common::execute_generated(&new).unwrap(), expected);
}
