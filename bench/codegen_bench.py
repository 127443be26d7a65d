#!/usr/bin/env python3
"""Code generation benchmark (docs/performance.md, "Code generation").

For every kernel of tests/kernels: the original and polyc's identity output
(scanning the original schedule), compiled with gcc -O3 -fopenmp, with the
sizes (#define NAME <int>) scaled up so that the run is long enough to time,
run alternately 5 times each; the table gives the medians and their ratio,
and the ratio of the fastest runs (less sensitive to a noisy neighbour).
A kernel whose identity output is the original text ("same region text")
measures the noise itself.
It also times polyc itself (release build, median of 5 runs per kernel).

Usage: python3 bench/codegen_bench.py [RUNS]   (from the repository root;
RUNS defaults to 5; on a noisy machine 11 separates noise from a real
difference better: two identical binaries can differ by 10% in a median
of 5)
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

# Size factor per kernel: the cubic kernels less, the quadratic ones more.
SCALE = {
    "2mm": 32, "3mm": 32, "gemm": 36, "syrk": 32, "syr2k": 28, "symm": 24,
    "trmm": 32, "lu": 32, "cholesky": 32, "doitgen": 12, "floyd-warshall": 28,
    "heat-3d": 9, "jacobi-1d": 1000, "jacobi-2d": 36, "seidel-2d": 24,
    "fdtd-2d": 28, "adi": 20, "durbin": 800, "trisolv": 120, "atax": 150,
    "bicg": 150, "mvt": 120, "gesummv": 120, "gemver": 100, "guards": 60,
    "polybench-macros": 30, "two-regions": 60,
}
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5


def scaled(text, f):
    return re.sub(r"^(#define\s+\w+\s+)(\d+)\s*$",
                  lambda m: f"{m.group(1)}{int(m.group(2)) * f}", text, flags=re.M)


def region(text):
    """The scop regions without white space or comments (to tell whether the
    identity output is the original text)."""
    body = "".join(re.findall(r"#pragma scop(.*?)#pragma endscop", text, flags=re.S))
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    return re.sub(r"\s+", "", body)


def run_time(exe):
    t = time.perf_counter()
    subprocess.run([exe], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t


def main():
    subprocess.run(["cargo", "build", "-q", "--release"], check=True)
    polyc = "target/release/polyc"
    tmp = tempfile.mkdtemp(prefix="polyc-cg-")
    print("| kernel | scale | original (s) | polyc identity (s) | ratio | ratio of minima | same region text | codegen (ms) |")
    print("|---|---|---|---|---|---|---|---|")
    for name in sorted(SCALE):
        src = f"tests/kernels/{name}.c"
        if not os.path.exists(src):
            continue
        gen = []
        for _ in range(RUNS):
            t = time.perf_counter()
            out = subprocess.run([polyc, src], capture_output=True, text=True, check=True)
            gen.append(time.perf_counter() - t)
        f = SCALE[name]
        exes = []
        for tag, text in (("orig", open(src).read()), ("new", out.stdout)):
            c = os.path.join(tmp, f"{name}.{tag}.c")
            open(c, "w").write(scaled(text, f))
            exe = os.path.join(tmp, f"{name}.{tag}")
            subprocess.run(["gcc", "-O3", "-fopenmp", "-o", exe, c, "-lm"], check=True)
            exes.append(exe)
        a = subprocess.run([exes[0]], capture_output=True).stdout
        b = subprocess.run([exes[1]], capture_output=True).stdout
        if a != b:
            print(f"{name}: outputs differ at scale {f}", file=sys.stderr)
        times = {0: [], 1: []}
        for _ in range(RUNS):
            for k in (0, 1):
                times[k].append(run_time(exes[k]))
        o, n = statistics.median(times[0]), statistics.median(times[1])
        lo = min(times[1]) / min(times[0])
        same = "yes" if region(open(src).read()) == region(out.stdout) else "no"
        print(f"| {name} | {f} | {o:.3f} | {n:.3f} | {n / o:.3f} | {lo:.3f} | {same} | {1000 * statistics.median(gen):.1f} |",
              flush=True)


if __name__ == "__main__":
    main()
