//! Helpers shared by the integration tests: run polyc in-process, compile and
//! run C with the system compiler.

#![allow(dead_code)]

pub mod filetest;
pub mod interp;

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Parser;
use polyc::cli::driver::{run, Outcome};
use polyc::cli::Cli;
use polyc::poly::{BasicSet, Constraint, ConstraintKind};

/// Run polyc with these arguments (without the program name).
pub fn polyc(args: &[&str]) -> Outcome {
    let mut all = vec!["polyc"];
    all.extend_from_slice(args);
    match Cli::try_parse_from(all) {
        Ok(cli) => run(&cli),
        Err(e) => Outcome {
            status: 2,
            stdout: String::new(),
            stderr: e.to_string(),
        },
    }
}

/// The kernels under `tests/kernels`, sorted.
pub fn kernels() -> Vec<PathBuf> {
    c_files_under(Path::new("tests/kernels"))
}

/// Every kernel polyc must handle: `tests/kernels` and the recipe library.
pub fn all_kernels() -> Vec<PathBuf> {
    let mut v = kernels();
    v.extend(c_files_under(Path::new("recipes")));
    v
}

/// The `.c` files under `dir`, recursively, sorted. A missing folder is
/// a failure, not an empty list: a test over no kernel proves nothing.
pub fn c_files_under(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for p in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if p.is_dir() {
            v.extend(c_files_under(&p));
        } else if p.extension().is_some_and(|x| x == "c") {
            v.push(p);
        }
    }
    v.sort();
    v
}

/// A scratch directory for one test, emptied first.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// A recipe of `text` in a fresh scratch directory `name`: its path.
pub fn scratch_recipe(name: &str, text: &str) -> String {
    let recipe = scratch(name).join("recipe.poly");
    std::fs::write(&recipe, text).expect("write recipe");
    recipe.to_string_lossy().into_owned()
}

/// [`GENERATED_FLAGS`] less gcc's `-Warray-bounds`, for the same
/// reason clang's flags leave it out ([`CLANG_GENERATED_FLAGS`]): the
/// test kernels' arrays are smaller than a default tile (`double
/// A[20][28]` against tiles of 32), and gcc flags a tile loop that starts
/// at index 32 of a row of 28 although, for the sizes the kernel passes,
/// that loop runs no iteration. Whether it runs is what the output
/// comparison checks. Less `-Waggressive-loop-optimizations` and
/// `-Wstringop-overread` for the same reason, in tiles the kernel's sizes
/// never reach (the wavefront's time tiles): gcc warns that iteration 12
/// of a point loop over a full tile of 32 would index past a row of 20,
/// and that the `memcpy` it makes of a full tile's copy loop would read
/// 256 bytes of doitgen's 112-byte `sum`.
pub const GCC_TILED_FLAGS: &[&str] = &[
    "-O3",
    "-ffp-contract=off",
    "-fopenmp",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wno-array-bounds",
    "-Wno-aggressive-loop-optimizations",
    "-Wno-stringop-overread",
];

/// Compile `src` with `gcc -O2 -ffp-contract=off -Wall -Werror` into
/// `exe`; the compiler's complaint on failure.
pub fn compile(src: &Path, exe: &Path) -> Result<(), String> {
    gcc(&["-O2", "-ffp-contract=off", "-Wall", "-Werror"], src, exe)
}

/// The flags every generated program must compile under, with gcc and
/// with clang (no warning allowed). Every build of the tests is made
/// with `-ffp-contract=off`, so that outputs compare byte for byte: clang
/// contracts `0.3 * s + 0.0625` into a multiply-add, which it computes
/// fused where it folds it at compile time and unfused at run time on a
/// machine without FMA in its baseline, so whether the loop around it is
/// unrolled (folded) changed the last bit of `s` (random kernel
/// r15_352, `unroll([1], 2)`, clang -O1).
pub const GENERATED_FLAGS: &[&str] = &[
    "-O3",
    "-ffp-contract=off",
    "-fopenmp",
    "-Wall",
    "-Wextra",
    "-Werror",
];

/// [`GENERATED_FLAGS`] for clang, with two changes (docs/codegen.md,
/// "Compilers"):
/// * less one optimiser remark: clang warns (`-Wpass-failed`) when a loop
///   polyc proved vectorisable and marked `omp simd` is not vectorised
///   after all, a missed optimisation, not a defect of the code;
/// * clang before 17 miscompiles some `omp simd` loops whose body holds
///   unrolled copies (LLVM issue 63602: an interleaved load group is read
///   before a store of the same iteration to one of its cells;
///   `tests/regressions/compiler-faults/llvm-63602.c`), so its interleaved
///   memory accesses are turned off;
/// * less `-Warray-bounds`: clang checks constant indices against the
///   declared extent without regard to reachability, and parametric code
///   holds branches for parameter values the kernel's arrays are not sized
///   for (`if (n >= 1002) B[1][1000] = …` after `shift(…, 1000)`, with
///   `double B[24][24]`). Whether such a branch runs is what the output
///   comparison checks.
pub const CLANG_GENERATED_FLAGS: &[&str] = &[
    "-O3",
    "-ffp-contract=off",
    "-fopenmp",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wno-pass-failed",
    "-Wno-array-bounds",
    "-mllvm",
    "-enable-interleaved-mem-accesses=false",
];

/// Compile polyc's output with `gcc` into `exe` and with `clang` into
/// [`clang_exe`]`(exe)`, both under [`GENERATED_FLAGS`]; the first
/// complaint on failure. Both compilers are required: `.ci/run` installs
/// clang and its OpenMP runtime (`libomp-dev`).
pub fn compile_generated(src: &Path, exe: &Path) -> Result<(), String> {
    cc("gcc", GENERATED_FLAGS, src, exe)?;
    cc("clang", CLANG_GENERATED_FLAGS, src, &clang_exe(exe))
        .map_err(|e| format!("clang {}:\n{e}", CLANG_GENERATED_FLAGS.join(" ")))
}

/// Where [`compile_generated`] puts the clang build of `exe`.
pub fn clang_exe(exe: &Path) -> PathBuf {
    let mut name = exe.as_os_str().to_owned();
    name.push(".clang");
    PathBuf::from(name)
}

/// Run both builds of [`compile_generated`]: the output when they print
/// the same, else an error saying how they differ.
pub fn execute_generated(exe: &Path) -> Result<String, String> {
    let by_gcc = execute(exe)?;
    let by_clang = execute(&clang_exe(exe))?;
    if by_gcc == by_clang {
        Ok(by_gcc)
    } else {
        Err(format!(
            "{}: the gcc and clang builds print different output",
            exe.display()
        ))
    }
}

fn gcc(flags: &[&str], src: &Path, exe: &Path) -> Result<(), String> {
    cc("gcc", flags, src, exe)
}

/// Compile `src` with `compiler` and `flags` into `exe` (`-lm`); the
/// compiler's complaint on failure.
pub fn cc(compiler: &str, flags: &[&str], src: &Path, exe: &Path) -> Result<(), String> {
    let out = Command::new(compiler)
        .args(flags)
        .arg("-o")
        .arg(exe)
        .arg(src)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run {compiler}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// The generated code of a one-region file: the functions of its
/// outlined parallel constructs (`emit::outline`), each followed by a
/// blank line, then the text between the first `#pragma scop` line and
/// its `#pragma endscop`.
pub fn region_text(file: &str) -> String {
    let mut out = String::new();
    let mut rest = file;
    while let Some(at) =
        rest.find("\nstatic inline __attribute__((always_inline)) void polyc_parallel_")
    {
        let function = &rest[at + 1..];
        let end = function.find("\n}\n").map_or(function.len(), |e| e + 3);
        out.push_str(&function[..end]);
        out.push('\n');
        rest = &function[end..];
    }
    let start = file.find("#pragma scop").unwrap_or(0);
    let end = file[start..]
        .find("#pragma endscop")
        .map(|e| start + e + "#pragma endscop".len())
        .unwrap_or(file.len());
    out.push_str(&file[start..end]);
    out
}

/// Build the original `kernel` (`gcc -O2`) and polyc's `generated` output
/// (`compile_generated`: gcc and clang) in `dir` under `name`, run them,
/// and say how they differ: `None` when all print the same non-empty
/// output.
pub fn differs_from_original(
    dir: &Path,
    name: &str,
    kernel: &Path,
    generated: &Path,
) -> Option<String> {
    let (orig, new) = (
        dir.join(format!("{name}.orig")),
        dir.join(format!("{name}.new")),
    );
    let result = compile(kernel, &orig)
        .and_then(|_| compile_generated(generated, &new))
        .and_then(|_| Ok((execute(&orig)?, execute_generated(&new)?)));
    match result {
        Ok((a, b)) if a == b && !a.is_empty() => None,
        Ok(_) => Some(format!("{name}: output differs")),
        Err(e) => Some(format!("{name}: {e}")),
    }
}

/// Run a compiled program, returning its stdout.
pub fn execute(exe: &Path) -> Result<String, String> {
    let out = Command::new(exe)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if !out.status.success() {
        return Err(format!("{} exited with {}", exe.display(), out.status));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Does `b` hold the point `p` (parameters then dims)? Each local is bounded
/// by rows that mention no later local (floors and strides are built that
/// way), so the locals are enumerated in order within those bounds.
pub fn holds(b: &BasicSet, p: &[i64]) -> bool {
    let mut values = p.to_vec();
    search(b, &mut values, p.len(), p.len() + b.n_local())
}

fn value(c: &Constraint, x: &[i64], skip: usize) -> i64 {
    c.coeffs
        .iter()
        .zip(x)
        .enumerate()
        .filter(|(k, _)| *k != skip)
        .map(|(_, (a, v))| a * v)
        .sum::<i64>()
        + c.constant
}

fn search(b: &BasicSet, x: &mut Vec<i64>, col: usize, end: usize) -> bool {
    if col == end {
        return b.constraints().iter().all(|c| {
            let v = value(c, x, usize::MAX);
            if c.kind == ConstraintKind::Eq {
                v == 0
            } else {
                v >= 0
            }
        });
    }
    let (mut lo, mut hi) = (i64::MIN, i64::MAX);
    x.push(0);
    for c in b.constraints() {
        let a = c.coeffs[col];
        if a == 0 || c.coeffs[col + 1..].iter().any(|&v| v != 0) {
            continue;
        }
        let r = value(c, x, col);
        // a q + r (= | >=) 0
        if c.kind == ConstraintKind::Eq {
            if r % a != 0 {
                x.pop();
                return false;
            }
            lo = lo.max(-r / a);
            hi = hi.min(-r / a);
        } else if a > 0 {
            lo = lo.max((-r).div_euclid(a) + if (-r).rem_euclid(a) != 0 { 1 } else { 0 });
        } else {
            hi = hi.min(r.div_euclid(-a));
        }
    }
    assert!(lo > i64::MIN && hi < i64::MAX, "local {col} is unbounded");
    let mut found = false;
    for q in lo..=hi {
        x[col] = q;
        if search(b, x, col + 1, end) {
            found = true;
            break;
        }
    }
    x.pop();
    found
}
