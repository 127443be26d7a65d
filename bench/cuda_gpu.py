#!/usr/bin/env python3
"""polyc's CUDA output on a real GPU: every test case run, four kernels timed.

Two phases, because the GPU machine has nvcc but no Rust:

  python3 bench/cuda_gpu.py prepare DIR      # here: polyc writes the files
  python3 bench/cuda_gpu.py run DIR          # there: build, run, compare, time
  python3 bench/cuda_gpu.py run DIR gemm     # there: gemm's benchmark alone
  python3 bench/cuda_gpu.py run DIR check gemm   # the checks and gemm's

`prepare` (from the repository root, after `cargo build --release`) writes
into DIR:
  * check/NAME.cu and check/NAME.expected: every test kernel's CUDA output
    without a recipe (a kernel of one thread per statement run), with
    `auto(pluto, target = gpu);` and with `auto(spatial, target = gpu);`,
    every accepted `tests/cuda/*.poly`, and
    what the original prints (gcc -O2);
  * bench/NAME.c (the original with PolyBench LARGE-like sizes and a timer
    around the kernel call, as bench/auto_bench.py makes it),
    bench/NAME.rK.cu (`--target cuda` with the K-th recipe of BENCH
    below), bench/NAME.auto.cu (`auto(pluto, target = gpu);`),
    bench/NAME.sauto.cu (`auto(spatial, target = gpu);`; in every .cu
    a `cudaFree(0)` starts the CUDA context before the timer) and
    bench/NAME.omp.c (`auto(pluto);`, OpenMP).

`run` compiles each .cu with `nvcc -O3 -arch=native -fmad=false` (no fused
multiply-adds, so that the results match the CPU's bit for bit) and each
.c with `gcc -O3 -march=native -ffp-contract=off -fopenmp`, checks that
every program prints what the original prints, and times the benchmarks,
interleaved, median of ROUNDS: the original on one core, polyc's OpenMP
output on all cores, polyc's CUDA outputs (the kernel call: copies in,
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
# Kernel -> (sizes, recipes for --target cuda).
BENCH = {
    "gemm": ({"NI": 2000, "NJ": 2300, "NK": 2600},
             ["tests/cuda/gemm-tiles.poly", "bench/cuda/gemm-shared-32.poly"]),
    "2mm": ({"NI": 1600, "NJ": 1800, "NK": 2200, "NL": 2400}, ["tests/cuda/2mm.poly"]),
    "jacobi-2d": ({"TSTEPS": 500, "N": 1300},
                  ["tests/cuda/jacobi-2d.poly", "bench/cuda/jacobi-2d-shared-32.poly"]),
    "fdtd-2d": ({"TMAX": 500, "NX": 1000, "NY": 1200}, ["tests/cuda/fdtd-2d.poly"]),
    # Kernels where `auto(spatial, target = gpu)` maps other loops than
    # `auto(pluto, target = gpu)` (bench/auto_bench.py's CPU sizes).
    "3mm": ({"NI": 800, "NJ": 900, "NK": 1000, "NL": 1100, "NM": 1200}, []),
    "syrk": ({"M": 1000, "N": 1200}, []),
    "trmm": ({"M": 1000, "N": 1200}, []),
    "lu": ({"N": 1500}, []),
    "heat-3d": ({"TSTEPS": 500, "N": 120}, []),
}
# The automatic schedules every check and benchmark also runs under.
AUTO = {"auto": "auto(pluto, target = gpu);\n", "sauto": "auto(spatial, target = gpu);\n"}
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
    autos = {}
    for variant, text in AUTO.items():
        autos[variant] = os.path.join(out, variant + "-gpu.poly")
        open(autos[variant], "w").write(text)
    cases += [(variant + "-" + name, kernel, recipe)
              for variant, recipe in autos.items() for name, kernel, _ in list(cases)]
    for d in ("tests/cuda", "bench/cuda"):
        for r in sorted(os.listdir(d)):
            if r.endswith(".poly"):
                first = open(os.path.join(d, r)).readline()
                kernel = first.split("kernel:")[1].strip()
                cases.append(("recipe-" + r[:-5], "tests/kernels/%s.c" % kernel,
                              os.path.join(d, r)))
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
    for name, (sizes, recipes) in BENCH.items():
        src = os.path.join(bench, name + ".c")
        open(src, "w").write(benchmark_copy("tests/kernels/%s.c" % name, sizes))
        for variant, recipe in [("r%d" % k, r) for k, r in enumerate(recipes)] + list(autos.items()):
            cu = sh([polyc, src, "--target", "cuda", "--recipe", recipe]).stdout
            cu = re.sub(r"^(int main\(void\)\n\{\n)", r"\1" + WARM_UP.replace("\\", "\\\\"),
                        cu, count=1, flags=re.M)
            open(os.path.join(bench, "%s.%s.cu" % (name, variant)), "w").write(cu)
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


def run(out, only=None):
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

    programs = sorted(f for f in os.listdir(check)
                      if f.endswith(".cu") and (not only or "check" in only))
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
    print("\nSpeedups over the original under gcc on one core; the times in seconds.")
    for name, (_, recipes) in BENCH.items():
        if only and name not in only:
            continue
        variants = [("orig", name + ".c", GCC), ("omp", name + ".omp.c", GCC)]
        variants += [("r%d" % k, "%s.r%d.cu" % (name, k), NVCC) for k in range(len(recipes))]
        variants += [(v, "%s.%s.cu" % (name, v), NVCC) for v in AUTO]
        exes = {}
        for v, src, cmd in variants:
            exes[v] = os.path.join(build, "b-%s.%s" % (name, v))
            sh(cmd + [os.path.join(bench, src), "-o", exes[v]] + (["-lm"] if cmd is GCC else []))
        times = {v: [] for v in exes}
        outs = {}
        order = list(exes)
        for r in range(ROUNDS):
            for v in order[r % len(order):] + order[: r % len(order)]:
                env = dict(os.environ, OMP_NUM_THREADS="1" if v == "orig" else str(os.cpu_count()))
                t, o = kernel_time(exes[v], env)
                times[v].append(t)
                outs.setdefault(v, o)
        base = statistics.median(times["orig"])
        labels = {"orig": "original, gcc, 1 core", "omp": "OpenMP auto(pluto), %d cores"
                  % os.cpu_count()}
        labels.update({v: "CUDA " + text.strip() for v, text in AUTO.items()})
        labels.update({"r%d" % k: "CUDA " + r for k, r in enumerate(recipes)})
        for v in exes:
            t = statistics.median(times[v])
            extra = ""
            if name == "gemm" and v not in ("orig", "omp"):
                ni, nj, nk = (BENCH["gemm"][0][k] for k in ("NI", "NJ", "NK"))
                extra = ", %.0f GFLOP/s" % (2.0 * ni * nj * nk / t / 1e9)
            print("%s | %s: %.4f s, %.1fx%s%s" % (
                name, labels[v], t, base / t, extra,
                "" if outs[v] == outs["orig"] else " OUTPUT DIFFERS"), flush=True)
    if not only or "gemm" in only:
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
    if len(sys.argv) < 3 or sys.argv[1] not in ("prepare", "run"):
        sys.exit("usage: cuda_gpu.py prepare DIR | run DIR [KERNEL...]")
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2])
    else:
        # With kernels named, only their benchmarks (and with `check`, the checks).
        run(sys.argv[2], sys.argv[3:])
