//! The CUDA target without a GPU (docs/cuda.md, "Checking without a GPU").
//!
//! * `tests/cuda/NAME.poly` names its kernel on its first line; polyc's
//!   `--target cuda` output is snapshotted beside it (`NAME.cu.snap`: the
//!   kernels and the region), or its diagnostic (`NAME.snap`) when it is
//!   refused.
//! * Each accepted output, and every test kernel's output without a recipe,
//!   is compiled as C++ with the CPU stand-in `tests/cuda/shim.h` (blocks
//!   and threads run backwards, barriers exact) and must print what the
//!   original prints.
//! * With nvcc (`POLYC_NVCC`, the path of an nvcc from the Python packages
//!   `nvidia-cuda-nvcc` and `nvidia-cuda-runtime`; `.ci/run` installs them
//!   and sets `POLYC_REQUIRE_NVCC=1`), each output is compiled for real,
//!   host code under `-Wall -Wextra -Werror`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;
use crate::common::filetest;

/// `K<<<G, B>>>(args);` lines rewritten as `polyc_shim::launch(G, B, [&] {
/// K(args); });` for the CPU stand-in.
fn for_shim(cu: &str) -> String {
    let mut out = String::new();
    for line in cu.lines() {
        let launch = line.find("<<<").and_then(|open| {
            let close = line.find(">>>(")?;
            let name = line[..open].trim();
            let inner = &line[open + 3..close];
            let args = line[close + 4..].strip_suffix(");")?;
            // Grid and block split at the last comma outside parentheses.
            let mut depth = 0i32;
            let mut cut = None;
            for (k, c) in inner.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    ',' if depth == 0 => cut = Some(k),
                    _ => {}
                }
            }
            let cut = cut?;
            let indent = &line[..line.len() - line.trim_start().len()];
            Some(format!(
                "{indent}polyc_shim::launch({}, {}, [&] {{ {name}({args}); }});",
                &inner[..cut],
                inner[cut + 1..].trim()
            ))
        });
        out.push_str(&launch.unwrap_or_else(|| line.to_string()));
        out.push('\n');
    }
    out
}

/// Compile `cu` with the CPU stand-in and run it: its output.
fn run_on_shim(cu: &str, dir: &Path, name: &str) -> Result<String, String> {
    common::execute(&build_for_shim(cu, dir, name)?)
}

/// Compile `cu` with the CPU stand-in: the executable (the random tester
/// runs its CUDA cases through this too, under its time limit).
pub fn build_for_shim(cu: &str, dir: &Path, name: &str) -> Result<PathBuf, String> {
    let src = dir.join(format!("{name}.shim.cpp"));
    let exe = dir.join(format!("{name}.shim"));
    std::fs::write(&src, for_shim(cu)).map_err(|e| e.to_string())?;
    let shim = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/shim.h");
    let out = Command::new("g++")
        .args(["-std=c++17", "-O1", "-ffp-contract=off", "-w", "-include"])
        .arg(&shim)
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run g++: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "g++ with the CUDA shim:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(exe)
}

/// The nvcc to compile with, if any; `POLYC_REQUIRE_NVCC=1` makes a
/// missing one a failure.
fn nvcc() -> Option<PathBuf> {
    let found = std::env::var_os("POLYC_NVCC")
        .map(PathBuf::from)
        .filter(|p| p.exists());
    if found.is_none() && std::env::var("POLYC_REQUIRE_NVCC").is_ok_and(|v| v == "1") {
        panic!("POLYC_REQUIRE_NVCC=1 but POLYC_NVCC names no nvcc");
    }
    found
}

/// The flags of the real compilation: warnings are errors, in device code
/// and in host code (but `#pragma scop`, which nvcc hands to the host
/// compiler after dropping the kernels' `#pragma GCC diagnostic`).
const NVCC_FLAGS: &[&str] = &[
    "-std=c++17",
    "-c",
    "-Werror",
    "all-warnings",
    "-Xcompiler",
    "-Wall,-Wextra,-Werror,-Wno-unknown-pragmas",
];

fn compile_with_nvcc(nvcc: &Path, cu: &str, dir: &Path, name: &str) -> Result<(), String> {
    let src = dir.join(format!("{name}.cu"));
    std::fs::write(&src, cu).map_err(|e| e.to_string())?;
    let include = nvcc
        .parent()
        .and_then(Path::parent)
        .map(|root| root.join("include"))
        .unwrap_or_default();
    let out = Command::new(nvcc)
        .args(NVCC_FLAGS)
        .arg("-I")
        .arg(include)
        .arg("-o")
        .arg(dir.join(format!("{name}.o")))
        .arg(&src)
        .output()
        .map_err(|e| format!("cannot run nvcc: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("nvcc:\n{}", String::from_utf8_lossy(&out.stderr)))
    }
}

/// What the original kernel prints.
fn original_output(kernel: &str, dir: &Path, name: &str) -> String {
    let exe = dir.join(format!("{name}.orig"));
    common::compile(Path::new(kernel), &exe).expect("the original compiles");
    common::execute(&exe).expect("the original runs")
}

/// Why `cu`, polyc's output for `kernel`, fails: run on the shim it
/// prints other output than the original, or nvcc (when there is one)
/// rejects it.
fn check_output(
    cu: &str,
    kernel: &str,
    dir: &Path,
    name: &str,
    nvcc: Option<&Path>,
) -> Option<String> {
    let expected = original_output(kernel, dir, name);
    match run_on_shim(cu, dir, name) {
        Ok(got) if got == expected => {}
        Ok(_) => return Some("the shim run prints another output".into()),
        Err(e) => return Some(e),
    }
    nvcc.and_then(|nvcc| compile_with_nvcc(nvcc, cu, dir, name).err())
}

/// The generated kernels and region: from the first kernel to the end of
/// the region. A kernel's template parameters are `T_` and the name it
/// types, which the helpers' own template (`polyc_local`) has not.
fn kernels_and_region(cu: &str) -> String {
    let start = cu
        .find("\ntemplate <class T_")
        .or_else(|| cu.find("\n__global__"))
        .map_or(0, |k| k + 1);
    let end = cu
        .find("#pragma endscop")
        .map_or(cu.len(), |e| e + "#pragma endscop".len());
    let mut s = cu[start..end].to_string();
    s.push('\n');
    s
}

#[test]
fn every_cuda_recipe_gives_its_snapshot_and_runs_on_the_shim() {
    filetest::assert_no_orphan_snapshots("cuda", "poly");
    let dir = common::scratch("cuda-recipes");
    let nvcc = nvcc();
    let mut failures = Vec::new();
    for path in filetest::inputs("cuda", "poly") {
        let rel = path.to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("recipe");
        let kernel = filetest::kernel_of_recipe(&text);
        let name = filetest::name(&path);
        let out = common::polyc(&[&kernel, "--recipe", &rel, "--target", "cuda"]);
        if out.status != 0 {
            assert_eq!(out.status, 1, "{rel}: {}", out.stderr);
            filetest::assert_snapshot_beside(&path, None, &out.stderr);
            continue;
        }
        filetest::assert_snapshot_beside(&path, Some("cu"), &kernels_and_region(&out.stdout));
        failures.extend(
            check_output(&out.stdout, &kernel, &dir, &name, nvcc.as_deref())
                .map(|e| format!("{rel}: {e}")),
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Without a recipe every statement runs in a kernel of one thread: every
/// test kernel prints what the original prints, but those the CUDA target
/// refuses (snapshotted with the first line of their diagnostic).
#[test]
fn every_kernel_runs_on_the_shim_unmapped() {
    let refused = every_kernel_on_the_shim("cuda-kernels", None);
    insta::assert_snapshot!(refused.join("\n"));
}

/// With `auto(pluto, target = gpu)`: the same, and every kernel the CUDA
/// target takes is mapped to blocks and threads by the scheduler.
#[test]
fn every_kernel_runs_on_the_shim_with_auto_gpu() {
    let refused = every_kernel_on_the_shim_after("cuda-auto", "auto(pluto, target = gpu);\n");
    insta::assert_snapshot!(refused.join("\n"));
}

/// With `auto(spatial, target = gpu)` (CC'18's GPU variant: the first
/// member walks the most lines): the same.
#[test]
fn every_kernel_runs_on_the_shim_with_auto_spatial_gpu() {
    let refused =
        every_kernel_on_the_shim_after("cuda-auto-spatial", "auto(spatial, target = gpu);\n");
    insta::assert_snapshot!(refused.join("\n"));
}

/// [`every_kernel_on_the_shim`] with the recipe `text`, written to a
/// scratch directory of its own.
fn every_kernel_on_the_shim_after(scratch: &str, text: &str) -> Vec<String> {
    let dir = common::scratch(&format!("{scratch}-recipe"));
    let recipe = dir.join("auto.poly");
    std::fs::write(&recipe, text).expect("write");
    every_kernel_on_the_shim(scratch, Some(&recipe))
}

/// Every test kernel through `--target cuda` (with `recipe`), run on the
/// shim and compiled by nvcc if there is one: the refusals, one line each.
fn every_kernel_on_the_shim(scratch: &str, recipe: Option<&Path>) -> Vec<String> {
    let dir = common::scratch(scratch);
    let nvcc = nvcc();
    let mut failures = Vec::new();
    let mut refused = Vec::new();
    let recipe = recipe.map(|r| r.to_string_lossy().into_owned());
    for k in common::kernels() {
        let kernel = k.to_string_lossy().into_owned();
        let name = filetest::name(&k);
        let mut args = vec![kernel.as_str(), "--target", "cuda"];
        if let Some(r) = &recipe {
            args.extend(["--recipe", r.as_str()]);
        }
        let out = common::polyc(&args);
        if out.status != 0 {
            refused.push(format!("{name}: {}", first_line(&out.stderr)));
            continue;
        }
        failures.extend(
            check_output(&out.stdout, &kernel, &dir, &name, nvcc.as_deref())
                .map(|e| format!("{kernel}: {e}")),
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    refused
}

/// `--dump-sizes` prints the sizes of each kernel in the form `--sizes`
/// reads: given back, the same program; changed, the launch changes and
/// the program still prints what the original prints. Sizes that do not
/// fit a kernel, or name none, are refused.
#[test]
fn sizes_are_dumped_and_given_back() {
    let dir = common::scratch("cuda-sizes");
    let k = "tests/kernels/gemm.c";
    let r = "tests/cuda/gemm-tiles.poly";
    let dumped = common::polyc(&[k, "--recipe", r, "--target", "cuda", "--dump-sizes"]);
    assert_eq!(dumped.status, 0, "{}", dumped.stderr);
    assert_eq!(
        dumped.stdout,
        "{\n  \"polyc_kernel0\": {\"block\": [16, 16], \"grid\": [65535, 65535]}\n}\n"
    );
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        path.to_string_lossy().into_owned()
    };
    let same = file("same.json", &dumped.stdout);
    let plain = common::polyc(&[k, "--recipe", r, "--target", "cuda"]);
    let again = common::polyc(&[k, "--recipe", r, "--target", "cuda", "--sizes", &same]);
    assert_eq!(again.stdout, plain.stdout);
    let other = file(
        "other.json",
        r#"{"polyc_kernel0": {"block": [8, 4], "grid": [3, 2]}}"#,
    );
    let changed = common::polyc(&[k, "--recipe", r, "--target", "cuda", "--sizes", &other]);
    assert_eq!(changed.status, 0, "{}", changed.stderr);
    assert!(
        changed.stdout.contains(", 3), polyc_blocks(") && changed.stdout.contains("dim3(8, 4)>>>")
    );
    let expected = original_output(k, &dir, "gemm");
    assert_eq!(
        run_on_shim(&changed.stdout, &dir, "gemm").as_deref(),
        Ok(expected.as_str())
    );
    for (text, status, says) in [
        (
            r#"{"polyc_kernel0": {"block": [8], "grid": [3, 2]}}"#,
            1,
            "`block` gives 1 size, and this kernel's block has 2 dimensions",
        ),
        (
            r#"{"polyc_kernel0": {"block": [64, 32], "grid": [3, 2]}}"#,
            1,
            "more than 1024 threads",
        ),
        (
            r#"{"polyc_kernel7": {"block": [8, 4], "grid": [3, 2]}}"#,
            2,
            "`polyc_kernel7`, which is not a kernel",
        ),
        (
            r#"{"polyc_kernel0": {"threads": [8, 4]}}"#,
            2,
            "not a sizes file",
        ),
    ] {
        let bad = file("bad.json", text);
        let out = common::polyc(&[k, "--recipe", r, "--target", "cuda", "--sizes", &bad]);
        assert_eq!(out.status, status, "{text}: {}", out.stderr);
        assert!(out.stderr.contains(says), "{text}: {}", out.stderr);
    }
    let openmp = common::polyc(&[k, "--dump-sizes"]);
    assert_eq!(openmp.status, 2);
}

/// The kernels with shared buffers, on one block of few threads: each
/// block runs every iteration of its block loops and each thread many
/// cells, so the buffers are filled again and again (the barrier at the
/// start of a block loop's body matters), and each copy is spread over
/// threads that are fewer than its cells. The output stays the original's;
/// and with any one barrier of gemm-shared's kernel removed, it does not
/// (the stand-in sees a missing barrier).
#[test]
fn shared_buffers_survive_one_block_and_few_threads() {
    let dir = common::scratch("cuda-shared-sizes");
    for (recipe, kernel, sizes) in [
        (
            "tests/cuda/gemm-shared.poly",
            "gemm",
            r#"{"polyc_kernel0": {"block": [3], "grid": [1]}, "polyc_kernel1": {"block": [3, 2], "grid": [1, 1]}}"#,
        ),
        (
            "tests/cuda/jacobi-2d-shared.poly",
            "jacobi-2d",
            r#"{"polyc_kernel0": {"block": [5, 3], "grid": [1, 1]}, "polyc_kernel1": {"block": [4], "grid": [2]}}"#,
        ),
    ] {
        let k = format!("tests/kernels/{kernel}.c");
        let file = dir.join(format!("{kernel}.json"));
        std::fs::write(&file, sizes).expect("write");
        let file = file.to_string_lossy().into_owned();
        let out = common::polyc(&[&k, "--recipe", recipe, "--target", "cuda", "--sizes", &file]);
        assert_eq!(out.status, 0, "{recipe}: {}", out.stderr);
        let expected = original_output(&k, &dir, kernel);
        assert_eq!(
            run_on_shim(&out.stdout, &dir, kernel).as_deref(),
            Ok(expected.as_str()),
            "{recipe}"
        );
        if kernel != "gemm" {
            continue;
        }
        let barrier = "__syncthreads();";
        let n = out.stdout.matches(barrier).count();
        assert!(n >= 2, "{}", out.stdout);
        for skip in 0..n {
            let (at, _) = out
                .stdout
                .match_indices(barrier)
                .nth(skip)
                .expect("barrier");
            let mut cut = out.stdout.clone();
            cut.replace_range(at..at + barrier.len(), ";");
            let got = run_on_shim(&cut, &dir, "gemm-cut");
            assert_ne!(
                got.as_deref(),
                Ok(expected.as_str()),
                "barrier {skip} of {n} removed, and the stand-in did not notice"
            );
        }
    }
}

/// A region the device cannot run is refused with the reason: an inner
/// extent that is a variable (CUDA C++ has no variable-length arrays).
#[test]
fn a_variable_length_array_is_refused() {
    let dir = common::scratch("cuda-vla");
    let src = dir.join("vla.c");
    std::fs::write(
        &src,
        "static void k(int n, int m, double A[n][m])\n{\n  int i, j;\n#pragma scop\n  for (i = 0; i < n; i++)\n    for (j = 0; j < m; j++)\n      A[i][j] = A[i][j] + 1;\n#pragma endscop\n}\n",
    )
    .expect("write");
    let out = common::polyc(&[&src.to_string_lossy(), "--target", "cuda"]);
    assert_eq!(out.status, 1);
    assert!(
        out.stderr
            .contains("array `A` has an inner extent that reads the variable `m`"),
        "{}",
        out.stderr
    );
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

#[test]
fn a_launch_is_rewritten_for_the_shim() {
    let cu = "    polyc_kernel0<<<dim3(polyc_blocks(0, n - 1, 1, 65535)), dim3(32, 8)>>>(n, polyc_dev_A);\n";
    assert_eq!(
        for_shim(cu),
        "    polyc_shim::launch(dim3(polyc_blocks(0, n - 1, 1, 65535)), dim3(32, 8), [&] { polyc_kernel0(n, polyc_dev_A); });\n"
    );
}
