//! Parallel constructs moved into functions with `__restrict` array
//! parameters (`emit::outline`, docs/codegen.md "Parallel constructs as
//! functions"): the shape of the output, the constructs left in place
//! where the file's names or types are unsure, and that every output
//! compiles (gcc and clang, `-Werror`) and prints what the original
//! prints.

use std::fs;
use std::path::Path;

use crate::common;

/// polyc's output for `kernel` under the recipe `text`, checked to run as
/// the original does.
fn outlined(name: &str, kernel: &Path, recipe: &str) -> String {
    let dir = common::scratch(&format!("outline-{name}"));
    let recipe_path = dir.join("recipe.poly");
    fs::write(&recipe_path, recipe).expect("write recipe");
    let out = common::polyc(&[
        &kernel.to_string_lossy(),
        "--recipe",
        &recipe_path.to_string_lossy(),
    ]);
    assert_eq!(out.status, 0, "{name}: {}", out.stderr);
    let generated = dir.join("generated.c");
    fs::write(&generated, &out.stdout).expect("write output");
    if let Some(why) = common::differs_from_original(&dir, name, kernel, &generated) {
        panic!("{why}\n{}", out.stdout);
    }
    out.stdout
}

/// A kernel written to the scratch directory of test `name`.
fn kernel(name: &str, text: &str) -> std::path::PathBuf {
    let dir = common::scratch(&format!("outline-src-{name}"));
    let path = dir.join(format!("{name}.c"));
    fs::write(&path, text).expect("write kernel");
    path
}

#[test]
fn a_wavefront_region_becomes_a_function_with_restrict_arrays() {
    // isl's answer: the time loop around two parallel sweeps.
    let out = outlined(
        "jacobi-1d",
        Path::new("tests/kernels/jacobi-1d.c"),
        "auto(pluto, wavefront = false);",
    );
    assert!(
        out.contains(
            "static inline __attribute__((always_inline)) void polyc_parallel_1_0(int tsteps, int n, double *__restrict B, double *__restrict A)\n{\n  int t;\n  int i;\n  for (t = 0; t < tsteps; t++) {\n    #pragma omp for simd\n"
        ),
        "{out}"
    );
    let region = common::region_text(&out);
    assert!(
        region.contains("  #pragma omp parallel\n  polyc_parallel_1_0(tsteps, n, B, A);\n"),
        "{region}"
    );
    assert!(
        region.contains("_Static_assert(__builtin_types_compatible_p(__typeof__(&(A)[0]), double *), \"polyc: `A` is not the double * that polyc_parallel_1_0 takes\");"),
        "{region}"
    );
    assert!(
        region.contains("__typeof__(t), int)"),
        "each thread's variable is checked too: {region}"
    );
    // The function goes before the one that holds the region.
    let function = out
        .find("static inline __attribute__((always_inline)) void polyc_parallel_1_0")
        .unwrap_or(usize::MAX);
    let kernel = out.find("static void kernel_jacobi_1d").unwrap_or(0);
    assert!(function < kernel, "{out}");
}

#[test]
fn a_parallel_loop_keeps_its_clauses_on_an_orphaned_for() {
    let out = outlined("gemm", Path::new("tests/kernels/gemm.c"), "auto(pluto);");
    let region = common::region_text(&out);
    assert!(!region.contains("private("), "{region}");
    assert_eq!(
        region.matches("#pragma omp parallel\n").count(),
        2,
        "{region}"
    );
    assert!(
        out.contains("  #pragma omp for schedule(static, 1)\n  for (int c1 = 0;"),
        "{out}"
    );
    // Two-dimensional arrays are pointers to rows of the declared type.
    assert!(out.contains("double (*__restrict C)[NJ]"), "{out}");
}

#[test]
fn loops_of_the_region_around_a_construct_are_passed_as_ints() {
    // `t`, declared in its `for`, stays outside: the second step is not
    // parallel, so the first is a construct of its own. (The arrays are
    // globals, which the function names itself.)
    let text = "#pragma GCC diagnostic ignored \"-Wunknown-pragmas\"\n#include <stdio.h>\n#define N 40\nstatic double A[N], B[N];\n\nstatic void kernel(int n)\n{\n  int i;\n#pragma scop\n  for (int t = 0; t < 4; t++) {\n    for (i = 1; i < n - 1; i++)\n      B[i] = A[i - 1] + A[i + 1] + t;\n    for (i = 1; i < n - 1; i++)\n      A[i] = B[i] / 2;\n  }\n#pragma endscop\n}\n\nint main(void)\n{\n  int i;\n  for (i = 0; i < N; i++)\n    A[i] = i;\n  kernel(N);\n  for (i = 0; i < N; i++)\n    printf(\"%d \", (int)A[i]);\n  printf(\"\\n\");\n  return 0;\n}\n";
    let out = outlined("around", &kernel("around", text), "parallelize([0, 0], 2);");
    assert!(
        out.contains(
            "static inline __attribute__((always_inline)) void polyc_parallel_1_0(int n, int t)"
        ),
        "{out}"
    );
}

#[test]
fn constructs_stay_in_place_where_a_name_or_a_type_is_unsure() {
    // A global scalar the region reduces into is named by the function
    // as by the region, so its reduction moves with the loop.
    let reduction = outlined(
        "reduction",
        Path::new("tests/kernels/reduction.c"),
        &fs::read_to_string("tests/recipes/reduction-parallel.poly").expect("recipe"),
    );
    assert!(
        common::region_text(&reduction).contains("  #pragma omp for reduction(+: dot)\n"),
        "{reduction}"
    );
    // A local one would be passed by value: kept in place.
    let text = "#pragma GCC diagnostic ignored \"-Wunknown-pragmas\"\n#include <stdio.h>\n#define N 40\nstatic long A[N];\n\nstatic long kernel(int n)\n{\n  int i;\n  long s = 0;\n#pragma scop\n  for (i = 0; i < n; i++)\n    s += A[i];\n#pragma endscop\n  return s;\n}\n\nint main(void)\n{\n  int i;\n  for (i = 0; i < N; i++)\n    A[i] = i;\n  printf(\"%ld\\n\", kernel(N));\n  return 0;\n}\n";
    let out = outlined(
        "local-reduction",
        &kernel("local-reduction", text),
        "parallelize([0], 1, reduction = \"s\");",
    );
    assert!(!out.contains("polyc_parallel_"), "{out}");
    assert!(
        out.contains("#pragma omp parallel for reduction(+: s)"),
        "{out}"
    );
    // Each case: the file's declarations, then the kernel's parameters
    // (globals would be named by the function itself, untyped).
    let cases = [
        // A type the scan does not know.
        (
            "typedef",
            "typedef double real;\n#define N 40\nstatic real X[N], Y[N];\n",
            "real A[N], real B[N], double s",
        ),
        // A name the file declares with two types (a global and the local).
        (
            "two-types",
            "#define N 40\nstatic double X[N], Y[N];\nlong n;\n",
            "double A[N], double B[N], double s",
        ),
        // A `const` scalar, which the scan reads as a `double`.
        (
            "const",
            "#define N 40\nstatic double X[N], Y[N];\n",
            "double A[N], double B[N], const double s",
        ),
    ];
    for (name, head, params) in cases {
        let text = format!(
            "#pragma GCC diagnostic ignored \"-Wunknown-pragmas\"\n#include <stdio.h>\n{head}\nstatic void kernel({params})\n{{\n  int i;\n  int n = N;\n#pragma scop\n  for (i = 0; i < n; i++)\n    A[i] = s * B[i];\n#pragma endscop\n}}\n\nint main(void)\n{{\n  int i;\n  for (i = 0; i < N; i++)\n    Y[i] = i;\n  kernel(X, Y, 2);\n  for (i = 0; i < N; i++)\n    printf(\"%d \", (int)X[i]);\n  printf(\"\\n\");\n  return 0;\n}}\n"
        );
        let out = outlined(name, &kernel(name, &text), "parallelize([0], 1);");
        assert!(!out.contains("polyc_parallel_"), "{name}: {out}");
        assert!(out.contains("#pragma omp parallel for"), "{name}: {out}");
    }
    // A macro the function cannot see: defined inside the enclosing
    // function.
    let text = "#pragma GCC diagnostic ignored \"-Wunknown-pragmas\"\n#include <stdio.h>\n#define N 40\nstatic double A[N], B[N];\n\nstatic void kernel(int n)\n{\n  int i;\n#define TWICE(x) (2 * (x))\n#pragma scop\n  for (i = 0; i < n; i++)\n    A[i] = TWICE(B[i]);\n#pragma endscop\n}\n\nint main(void)\n{\n  int i;\n  for (i = 0; i < N; i++)\n    B[i] = i;\n  kernel(N);\n  for (i = 0; i < N; i++)\n    printf(\"%d \", (int)A[i]);\n  printf(\"\\n\");\n  return 0;\n}\n";
    let out = outlined(
        "late-macro",
        &kernel("late-macro", text),
        "parallelize([0], 1);",
    );
    assert!(!out.contains("polyc_parallel_"), "{out}");
}

#[test]
fn a_global_of_the_same_name_cannot_capture_a_local_array() {
    // The function receives `A` by name at the call, so it is the
    // parameter, not the global `A` that the file also declares.
    let text = "#pragma GCC diagnostic ignored \"-Wunknown-pragmas\"\n#include <stdio.h>\n#define N 40\nstatic double A[N];\nstatic double X[N], Y[N];\n\nstatic void kernel(int n, double A[N], double B[N])\n{\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n    A[i] = 2 * B[i];\n#pragma endscop\n}\n\nint main(void)\n{\n  int i;\n  for (i = 0; i < N; i++)\n    Y[i] = i;\n  kernel(N, X, Y);\n  for (i = 0; i < N; i++)\n    printf(\"%d %d \", (int)X[i], (int)A[i]);\n  printf(\"\\n\");\n  return 0;\n}\n";
    let out = outlined("capture", &kernel("capture", text), "parallelize([0], 1);");
    assert!(
        out.contains("polyc_parallel_1_0(n, A, B);"),
        "{}",
        common::region_text(&out)
    );
}

#[test]
fn macros_that_name_variables_pass_those_variables() {
    // PolyBench's `_PB_M` is the variable `m`; `DATA_TYPE` a macro too.
    let out = outlined(
        "polybench-macros",
        Path::new("tests/kernels/polybench-macros.c"),
        "auto(pluto);",
    );
    assert!(
        out.contains("static inline __attribute__((always_inline)) void polyc_parallel_1_0(int m, DATA_TYPE *__restrict mean)"),
        "{out}"
    );
}

#[test]
fn globals_are_named_by_the_function_itself() {
    // 3mm's arrays are file-scope statics: the function names them as the
    // kernel does (passing them as parameters cost 3mm a fifth of its
    // time on one thread, docs/performance.md).
    let out = outlined("3mm", Path::new("tests/kernels/3mm.c"), "auto(pluto);");
    let region = common::region_text(&out);
    assert!(
        out.contains(
            "static inline __attribute__((always_inline)) void polyc_parallel_1_1(void)\n"
        ),
        "{out}"
    );
    assert!(region.contains("  polyc_parallel_1_1();\n"), "{region}");
    assert!(!region.contains("__typeof__(&(E)[0])"), "{region}");
    // A local that a macro declares by pasting tokens hides the global of
    // its name without naming it: the array is passed, and checked.
    let text = "#pragma GCC diagnostic ignored \"-Wunknown-pragmas\"\n#include <stdio.h>\n#define N 40\n#define LOCAL(x) double x##_v[N]\nstatic double A_v[N], B_v[N];\n\nstatic double kernel(int n)\n{\n  int i;\n  LOCAL(A);\n  for (i = 0; i < n; i++)\n    A_v[i] = 0;\n#pragma scop\n  for (i = 0; i < n; i++)\n    A_v[i] = 2 * B_v[i];\n#pragma endscop\n  return A_v[n - 1];\n}\n\nint main(void)\n{\n  int i;\n  for (i = 0; i < N; i++)\n    B_v[i] = i;\n  printf(\"%d \", (int)kernel(N));\n  for (i = 0; i < N; i++)\n    printf(\"%d \", (int)A_v[i]);\n  printf(\"\\n\");\n  return 0;\n}\n";
    let out = outlined("pasted", &kernel("pasted", text), "parallelize([0], 1);");
    assert!(
        out.contains("polyc_parallel_1_0(n, A_v, B_v);"),
        "{}",
        common::region_text(&out)
    );
}
