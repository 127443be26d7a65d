#!/usr/bin/env python3
"""polyc `auto(pluto)` against gcc and LLVM Polly, side by side in one run.

For each kernel of tests/kernels named below, a benchmark copy is made with
PolyBench LARGE-like sizes (the size macros rewritten) and a timer around
the kernel call (stderr: `kernel SECONDS`). Variants, all with
`-O3 -march=native -ffp-contract=off` (so that outputs compare byte for byte):

  gcc        the original under gcc
  polly      the original under clang-19 with Polly
             (`-mllvm -polly -mllvm -polly-process-unprofitable`)
  polly-par  the same with `-mllvm -polly-parallel` (libgomp)
  polyc      `polyc KERNEL --recipe auto.poly` (`auto(pluto);`) under gcc

Runs are interleaved (variant order rotated each round), 5 rounds by
default, on 1 and 2 threads (OMP_NUM_THREADS); the table gives each
variant's median kernel time as a speedup over gcc's at 1 thread, and
every variant's output must equal gcc's byte for byte (a difference is an
error). Also measured: polyc's own time per kernel (parse, dependences,
`auto(pluto)`, code generation; median of 5 runs of the release binary).

Needs clang-19 and libpolly-19-dev (Debian: `apt-get install clang-19
libpolly-19-dev`; not libomp-19-dev, which removes libomp-dev, the OpenMP
runtime the tests' clang 14 links). Run from the repository root after
`cargo build --release`:

  python3 bench/auto_bench.py [--rounds 5] [--kernels gemm,lu] [--markdown]
      [--also 'smart=auto(pluto, fuse = smart);'] [--before OLD/polyc]

`--also NAME=RECIPE` (repeatable) adds a polyc variant with that recipe,
run interleaved with the others and reported after them; `--before PATH`
adds the variant `before`: `auto(pluto);` through another polyc binary
(a build of an earlier commit), to measure a change side by side.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# Kernel -> the size macros' benchmark values (PolyBench LARGE where the
# original under gcc takes roughly 0.5-3 s on one core; jacobi-1d is
# larger than LARGE, whose 2,000 x 500 takes milliseconds).
SIZES = {
    "gemm": {"NI": 1000, "NJ": 1100, "NK": 1200},
    "2mm": {"NI": 800, "NJ": 900, "NK": 1100, "NL": 1200},
    "syrk": {"M": 1000, "N": 1200},
    "syr2k": {"M": 1000, "N": 1200},
    "lu": {"N": 1500},
    "jacobi-2d": {"TSTEPS": 500, "N": 1300},
    "heat-3d": {"TSTEPS": 500, "N": 120},
    "fdtd-2d": {"TMAX": 500, "NX": 1000, "NY": 1200},
    "seidel-2d": {"TSTEPS": 100, "N": 2000},
    "jacobi-1d": {"TSTEPS": 20000, "N": 20000},
    "3mm": {"NI": 800, "NJ": 900, "NK": 1000, "NL": 1100, "NM": 1200},
    "trmm": {"M": 1000, "N": 1200},
    "symm": {"M": 1000, "N": 1200},
    "cholesky": {"N": 2000},
    "doitgen": {"NR": 150, "NQ": 140, "NP": 160},
    "floyd-warshall": {"N": 1200},
    "adi": {"TSTEPS": 50, "N": 1000},
    "durbin": {"N": 16000},
    "correlation": {"M": 1200, "N": 1400},
    "covariance": {"M": 1200, "N": 1400},
    "gramschmidt": {"M": 1000, "N": 1200},
    "ludcmp": {"N": 2000},
    # Below LARGE (2,500), whose original runs for over ten seconds.
    "nussinov": {"N": 1500},
    "deriche": {"W": 4096, "H": 2160},
    # Matrix-vector kernels: their originals take 10-50 ms at sizes whose
    # arrays fit memory (each is read a few times), so their ratios are
    # the noisiest of the table.
    "atax": {"M": 4000, "N": 5000},
    "bicg": {"M": 4000, "N": 5000},
    "mvt": {"N": 5000},
    "gesummv": {"N": 5000},
    "gemver": {"N": 5000},
    "trisolv": {"N": 5000},
}

FLAGS = ["-O3", "-march=native", "-ffp-contract=off"]
POLLY = ["-mllvm", "-polly", "-mllvm", "-polly-process-unprofitable"]
TIMER = """
#include <time.h>
static double polyc_bench_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
"""


def benchmark_copy(kernel_path, sizes):
    """The kernel's text with benchmark sizes and a timer around its call."""
    text = open(kernel_path).read()
    for name, value in sizes.items():
        text, n = re.subn(
            r"^#define %s \d+$" % re.escape(name),
            "#define %s %d" % (name, value),
            text,
            flags=re.M,
        )
        if n != 1:
            sys.exit("%s: no `#define %s N` line" % (kernel_path, name))
    calls = re.findall(r"^  (kernel_\w+\(.*\);)$", text, flags=re.M)
    if len(calls) != 1:
        sys.exit("%s: expected one kernel call in main" % kernel_path)
    call = calls[0]
    timed = (
        "  double polyc_bench_t0 = polyc_bench_now();\n  %s\n"
        '  fprintf(stderr, "kernel %%.6f\\n", polyc_bench_now() - polyc_bench_t0);'
        % call
    )
    text = text.replace("  " + call, timed, 1)
    # After the last #include line, so that stdio.h is there.
    includes = list(re.finditer(r"^#include .*$", text, flags=re.M))
    at = includes[-1].end() if includes else 0
    return text[:at] + "\n" + TIMER + text[at:]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def build(work, name, src, recipes):
    """{variant: executable} for one kernel; `recipes`: {polyc variant:
    (polyc binary, recipe file)}."""
    exes = {}
    orig = os.path.join(work, name + ".c")
    exes["gcc"] = os.path.join(work, name + ".gcc")
    run(["gcc", *FLAGS, "-fopenmp", orig, "-o", exes["gcc"], "-lm"])
    exes["polly"] = os.path.join(work, name + ".polly")
    run(["clang-19", *FLAGS, *POLLY, orig, "-o", exes["polly"], "-lm"])
    exes["polly-par"] = os.path.join(work, name + ".polly-par")
    run(
        ["clang-19", *FLAGS, *POLLY, "-mllvm", "-polly-parallel", "-fopenmp=libgomp",
         orig, "-o", exes["polly-par"], "-lm"]
    )
    for variant, (polyc, recipe) in recipes.items():
        generated = os.path.join(work, "%s.%s.c" % (name, variant))
        run([polyc, orig, "--recipe", recipe, "-o", generated])
        exes[variant] = os.path.join(work, "%s.%s" % (name, variant))
        run(["gcc", *FLAGS, "-fopenmp", generated, "-o", exes[variant], "-lm"])
    return exes


def time_once(exe, threads, out_path):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    with open(out_path, "w") as out:
        p = subprocess.run([exe], stdout=out, stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode != 0:
        sys.exit("%s exited with %d" % (exe, p.returncode))
    m = re.search(r"kernel ([0-9.]+)", p.stderr)
    if not m:
        sys.exit("%s printed no kernel time" % exe)
    return float(m.group(1))


def polyc_time(polyc, src, recipe, rounds):
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        run([polyc, src, "--recipe", recipe, "-o", os.devnull])
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--kernels", default=",".join(SIZES))
    ap.add_argument("--polyc", default="target/release/polyc")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--also", action="append", default=[], metavar="NAME=RECIPE")
    ap.add_argument("--before", metavar="PATH", help="another polyc binary, as the variant `before`")
    args = ap.parse_args()
    for tool in ["gcc", "clang-19", args.polyc]:
        if not shutil.which(tool) and not os.path.exists(tool):
            sys.exit("needs %s (see the module doc)" % tool)
    cpu = run(["lscpu"]).stdout
    model = re.search(r"Model name:\s*(.*)", cpu)
    print("CPU: %s; %d rounds, median kernel time" % (model.group(1) if model else "?", args.rounds))
    extra = dict(a.split("=", 1) for a in args.also)
    binaries = {v: args.polyc for v in ["polyc", *extra]}
    if args.before:
        extra["before"] = "auto(pluto);"
        binaries["before"] = args.before
    variants = ["gcc", "polly", "polly-par", "polyc", *extra]
    rows = []
    with tempfile.TemporaryDirectory() as work:
        recipes = {}
        for variant, text in {"polyc": "auto(pluto);", **extra}.items():
            path = os.path.join(work, variant + ".poly")
            with open(path, "w") as f:
                f.write(text + "\n")
            recipes[variant] = (binaries[variant], path)
        for name in args.kernels.split(","):
            src = os.path.join(work, name + ".c")
            with open(src, "w") as f:
                f.write(benchmark_copy(os.path.join("tests/kernels", name + ".c"), SIZES[name]))
            exes = build(work, name, src, recipes)
            sched = polyc_time(args.polyc, src, recipes["polyc"][1], 5)
            times = {(v, t): [] for v in variants for t in (1, 2)}
            reference = None
            for r in range(args.rounds):
                for threads in (1, 2):
                    order = variants[r % len(variants):] + variants[: r % len(variants)]
                    for v in order:
                        if threads == 2 and v == "polly":
                            continue
                        out = os.path.join(work, "%s.%s.out" % (name, v))
                        times[(v, threads)].append(time_once(exes[v], threads, out))
                        if v == "gcc" and reference is None:
                            reference = open(out, "rb").read()
                        elif open(out, "rb").read() != reference:
                            sys.exit("%s: %s prints other output than gcc" % (name, v))
            base = statistics.median(times[("gcc", 1)])
            row = {"kernel": name, "gcc_s": base, "polyc_ms": sched * 1000}
            for (v, t), ts in times.items():
                if ts:
                    row["%s@%d" % (v, t)] = base / statistics.median(ts)
            rows.append(row)
            print(
                "%-10s gcc %.3f s | 1 thread: polly %.2fx polly-par %.2fx polyc %.2fx | "
                "2 threads: gcc %.2fx polly-par %.2fx polyc %.2fx | polyc ran %.0f ms"
                % (name, base, row["polly@1"], row["polly-par@1"], row["polyc@1"],
                   row["gcc@2"], row["polly-par@2"], row["polyc@2"], row["polyc_ms"]),
                flush=True,
            )
            for v in extra:
                print("%-10s %s: 1 thread %.2fx, 2 threads %.2fx"
                      % ("", v, row["%s@1" % v], row["%s@2" % v]), flush=True)
    if args.markdown:
        print()
        print("| kernel | gcc 1 thread (s) | Polly 1t | Polly-par 1t | polyc 1t | gcc 2t | Polly-par 2t | polyc 2t | polyc run (ms) |")
        print("|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            print(
                "| %s | %.3f | %.2f× | %.2f× | %.2f× | %.2f× | %.2f× | %.2f× | %.0f |"
                % (r["kernel"], r["gcc_s"], r["polly@1"], r["polly-par@1"], r["polyc@1"],
                   r["gcc@2"], r["polly-par@2"], r["polyc@2"], r["polyc_ms"])
            )


if __name__ == "__main__":
    main()
