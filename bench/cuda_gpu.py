#!/usr/bin/env python3
"""polyc's CUDA output on a real GPU: every test case run, four kernels timed.

Two phases, because the GPU machine has nvcc but no Rust:

  python3 bench/cuda_gpu.py prepare DIR      # here: polyc writes the files
  python3 bench/cuda_gpu.py run DIR          # there: build, run, compare, time

`prepare` (from the repository root, after `cargo build --release`) writes
into DIR:
  * check/NAME.cu and check/NAME.expected: every test kernel's CUDA output
    without a recipe (a kernel of one thread per statement run) and with
    `auto(pluto, target = gpu);`, every accepted `tests/cuda/*.poly`, and
    what the original prints (gcc -O2);
  * bench/NAME.c (the original with PolyBench LARGE-like sizes and a timer
    around the kernel call, as bench/auto_bench.py makes it),
    bench/NAME.cu (`--target cuda` with the recipe of BENCH below; a
    `cudaFree(0)` starts the CUDA context before the timer) and
    bench/NAME.omp.c (`auto(pluto);`, OpenMP).

`run` compiles each .cu with `nvcc -O3 -arch=native -fmad=false` (no fused
multiply-adds, so that the results match the CPU's bit for bit) and each
.c with `gcc -O3 -march=native -ffp-contract=off -fopenmp`, checks that
every program prints what the original prints, and times the benchmarks,
interleaved, median of ROUNDS: the original on one core, polyc's OpenMP
output on all cores, polyc's CUDA output (the kernel call: copies in,
kernels, copies out), and for gemm cuBLAS's dgemm (through CuPy) on the
same sizes, on data already on the device.
"""

import concurrent.futures
import os
import re
import statistics
import subprocess
import sys

ROUNDS = 5
# Kernel -> (sizes, recipe for --target cuda).
BENCH = {
    "gemm": ({"NI": 2000, "NJ": 2300, "NK": 2600}, "tests/cuda/gemm-tiles.poly"),
    "2mm": ({"NI": 1600, "NJ": 1800, "NK": 2200, "NL": 2400}, "tests/cuda/2mm.poly"),
    "jacobi-2d": ({"TSTEPS": 500, "N": 1300}, "tests/cuda/jacobi-2d.poly"),
    "fdtd-2d": ({"TMAX": 500, "NX": 1000, "NY": 1200}, "tests/cuda/fdtd-2d.poly"),
}
WARM_UP = "  cudaFree(0); /* bench: start the CUDA context before the timer */\n"


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def prepare(out, polyc="target/release/polyc"):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from auto_bench import benchmark_copy  # noqa: E402

    check = os.path.join(out, "check")
    bench = os.path.join(out, "bench")
    os.makedirs(check, exist_ok=True)
    os.makedirs(bench, exist_ok=True)
    cases = [(k[:-2], os.path.join("tests/kernels", k), None)
             for k in sorted(os.listdir("tests/kernels")) if k.endswith(".c")]
    auto_gpu = os.path.join(out, "auto-gpu.poly")
    open(auto_gpu, "w").write("auto(pluto, target = gpu);\n")
    cases += [("auto-" + name, kernel, auto_gpu) for name, kernel, _ in list(cases)]
    for r in sorted(os.listdir("tests/cuda")):
        if r.endswith(".poly"):
            first = open(os.path.join("tests/cuda", r)).readline()
            kernel = first.split("kernel:")[1].strip()
            cases.append(("recipe-" + r[:-5], "tests/kernels/%s.c" % kernel,
                          os.path.join("tests/cuda", r)))
    for name, kernel, recipe in cases:
        args = [polyc, kernel, "--target", "cuda"] + (["--recipe", recipe] if recipe else [])
        p = subprocess.run(args, capture_output=True, text=True)
        if p.returncode != 0:
            continue  # a refusal (tests/cuda.rs snapshots it)
        open(os.path.join(check, name + ".cu"), "w").write(p.stdout)
        exe = os.path.join(out, "orig")
        sh(["gcc", "-O2", "-w", kernel, "-o", exe, "-lm"])
        open(os.path.join(check, name + ".expected"), "w").write(sh([exe]).stdout)
        os.remove(exe)
    omp = os.path.join(out, "auto.poly")
    open(omp, "w").write("auto(pluto);\n")
    for name, (sizes, recipe) in BENCH.items():
        src = os.path.join(bench, name + ".c")
        open(src, "w").write(benchmark_copy("tests/kernels/%s.c" % name, sizes))
        cu = sh([polyc, src, "--target", "cuda", "--recipe", recipe]).stdout
        cu = re.sub(r"^(int main\(void\)\n\{\n)", r"\1" + WARM_UP.replace("\\", "\\\\"), cu,
                    count=1, flags=re.M)
        open(os.path.join(bench, name + ".cu"), "w").write(cu)
        cu = sh([polyc, src, "--target", "cuda", "--recipe", auto_gpu]).stdout
        cu = re.sub(r"^(int main\(void\)\n\{\n)", r"\1" + WARM_UP.replace("\\", "\\\\"), cu,
                    count=1, flags=re.M)
        open(os.path.join(bench, name + ".auto.cu"), "w").write(cu)
        sh([polyc, src, "--recipe", omp, "-o", os.path.join(bench, name + ".omp.c")])
    print("prepared %d check programs and %d benchmarks in %s"
          % (len(os.listdir(check)) // 2, len(BENCH), out))


def kernel_time(exe, env=None):
    p = subprocess.run([exe], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise RuntimeError("%s exited with %d: %s" % (exe, p.returncode, p.stderr[-2000:]))
    m = re.search(r"kernel ([0-9.]+)", p.stderr)
    return (float(m.group(1)) if m else None), p.stdout


NVCC = ["nvcc", "-O3", "-arch=native", "-fmad=false", "-std=c++17", "-w"]
GCC = ["gcc", "-O3", "-march=native", "-ffp-contract=off", "-fopenmp", "-w"]


def run(out):
    gpu = sh(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"]).stdout
    cpu = re.search(r"Model name:\s*(.*)", sh(["lscpu"]).stdout)
    print("GPU: %s; CPU: %s, %d cores" % (gpu.strip(), cpu.group(1) if cpu else "?",
                                        os.cpu_count()))
    check = os.path.join(out, "check")
    build = os.path.join(out, "build")
    os.makedirs(build, exist_ok=True)
    def check_one(f):
        name = f[:-3]
        exe = os.path.join(build, name)
        try:
            sh(NVCC + [os.path.join(check, f), "-o", exe])
            _, got = kernel_time(exe)
        except subprocess.CalledProcessError as e:
            return "%s: %s" % (name, e.stderr[-1500:])
        except RuntimeError as e:
            return "%s: %s" % (name, e)
        if got != open(os.path.join(check, name + ".expected")).read():
            return "%s: prints other output than the original" % name
        return None

    programs = sorted(f for f in os.listdir(check) if f.endswith(".cu"))
    # Compiled and run side by side: the runs are checks, not timings.
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        results = list(pool.map(check_one, programs))
    failed = [r for r in results if r]
    passed = len(results) - len(failed)
    print("check: %d of %d CUDA programs print what the original prints" %
          (passed, passed + len(failed)))
    for f in failed:
        print("  FAILED " + f)
    bench = os.path.join(out, "bench")
    print("\n| kernel | original, gcc, 1 core (s) | polyc OpenMP, %d cores | polyc CUDA, recipe | polyc CUDA, auto | recipe (s) | auto (s) |"
          % os.cpu_count())
    print("|---|---|---|---|---|---|---|")
    for name in BENCH:
        exes = {}
        for v, src, cmd in [("orig", name + ".c", GCC), ("omp", name + ".omp.c", GCC),
                            ("cuda", name + ".cu", NVCC), ("auto", name + ".auto.cu", NVCC)]:
            exes[v] = os.path.join(build, "b-%s.%s" % (name, v))
            sh(cmd + [os.path.join(bench, src), "-o", exes[v], "-lm"] if cmd is GCC
               else cmd + [os.path.join(bench, src), "-o", exes[v]])
        times = {v: [] for v in exes}
        outs = {}
        for r in range(ROUNDS):
            for v in list(exes)[r % 4:] + list(exes)[: r % 4]:
                env = dict(os.environ, OMP_NUM_THREADS="1" if v == "orig" else str(os.cpu_count()))
                t, o = kernel_time(exes[v], env)
                times[v].append(t)
                outs.setdefault(v, o)
        same = all(outs[v] == outs["orig"] for v in outs)
        base = statistics.median(times["orig"])
        cuda = statistics.median(times["cuda"])
        auto = statistics.median(times["auto"])
        print("| %s | %.3f | %.1f× | %.1f× | %.1f× | %.4f | %.4f |%s" % (
            name, base, base / statistics.median(times["omp"]), base / cuda, base / auto,
            cuda, auto, "" if same else " OUTPUTS DIFFER"), flush=True)
        if name == "gemm":
            ni, nj, nk = (BENCH["gemm"][0][k] for k in ("NI", "NJ", "NK"))
            flops = 2.0 * ni * nj * nk
            print("|   | polyc CUDA gemm, copies included: recipe %.0f GFLOP/s, auto %.0f GFLOP/s | | | | | |"
                  % (flops / cuda / 1e9, flops / auto / 1e9))
    gemm_cublas()


def gemm_cublas():
    try:
        import cupy as cp
    except ImportError:
        print("cuBLAS: CuPy not found")
        return
    ni, nj, nk = (BENCH["gemm"][0][k] for k in ("NI", "NJ", "NK"))
    a = cp.random.rand(ni, nk)
    b = cp.random.rand(nk, nj)
    c = cp.random.rand(ni, nj)
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    ts = []
    for _ in range(ROUNDS + 2):
        start.record()
        c2 = 1.5 * (a @ b) + 1.2 * c
        stop.record()
        stop.synchronize()
        ts.append(cp.cuda.get_elapsed_time(start, stop) / 1000)
    del c2
    flops = 2.0 * ni * nj * nk
    t = statistics.median(ts[2:])
    print("\ncuBLAS dgemm (CuPy, %dx%dx%d, on the device, no copies): %.4f s, %.0f GFLOP/s"
          % (ni, nj, nk, t, flops / t / 1e9))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("prepare", "run"):
        sys.exit("usage: cuda_gpu.py prepare|run DIR")
    (prepare if sys.argv[1] == "prepare" else run)(sys.argv[2])
