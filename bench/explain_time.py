#!/usr/bin/env python3
"""The time `--explain` adds to a run (issue 18's recovery-time goal).

For each PolyBench kernel of tests/kernels, `polyc KERNEL --recipe
auto.poly --emit schedule` and the same run with `--explain` in place of
`--emit schedule` (`auto.poly` is `auto(pluto);`), interleaved, `--runs`
times each; prints the medians, their difference (the recovery and its
checks), the number of directives explained and whether the explanation
is complete, as a markdown table. Needs the release binary
(`cargo build --release`); nothing else.

    python3 bench/explain_time.py [--runs 9] [--kernels gemm,lu] [--polyc BINARY]

`--polyc` times another build (an older commit's, side by side).
"""

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POLYC = ROOT / "target" / "release" / "polyc"
POLYBENCH = (
    "2mm 3mm adi atax bicg cholesky doitgen durbin fdtd-2d floyd-warshall gemm "
    "gemver gesummv heat-3d jacobi-1d jacobi-2d lu mvt seidel-2d symm syr2k syrk "
    "trisolv trmm"
).split()


def run(args):
    """Seconds one run of polyc takes, and its standard output."""
    start = time.perf_counter()
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, out


def directives(recipe):
    """The directives of an explained recipe (a group's each), and whether
    it is complete."""
    lines = [line.split("#")[0].strip() for line in recipe.splitlines()]
    count = sum(1 for line in lines if line.endswith(";"))
    return count, "not expressed" not in recipe


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--kernels", default=",".join(POLYBENCH))
    parser.add_argument("--polyc", default=str(POLYC))
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        auto = Path(scratch) / "auto.poly"
        auto.write_text("auto(pluto);\n")
        print("| kernel | `--emit schedule` (ms) | `--explain` (ms) | difference (ms) | directives | |")
        print("|---|---|---|---|---|---|")
        for kernel in options.kernels.split(","):
            source = str(ROOT / "tests" / "kernels" / f"{kernel}.c")
            base = [options.polyc, source, "--recipe", str(auto)]
            plain, explained, recipe = [], [], ""
            for _ in range(options.runs):
                plain.append(run(base + ["--emit", "schedule"])[0])
                seconds, recipe = run(base + ["--explain"])
                explained.append(seconds)
            a, b = statistics.median(plain) * 1e3, statistics.median(explained) * 1e3
            count, complete = directives(recipe)
            state = "complete" if complete else "partial"
            print(f"| {kernel} | {a:.1f} | {b:.1f} | {b - a:.1f} | {count} | {state} |")


if __name__ == "__main__":
    main()
