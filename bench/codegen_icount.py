#!/usr/bin/env python3
"""Instruction counts of the identity code (docs/performance.md, "Code
generation"): a complement to bench/codegen_bench.py that no noisy
neighbour can disturb.

For every kernel of tests/kernels: the original and polyc's identity output,
compiled with gcc -O3 -fopenmp, the sizes (#define NAME <int>) scaled by a
third of codegen_bench.py's factor (valgrind runs ~50x slower), each run
once under `valgrind --tool=callgrind`; the table gives the instructions
executed (whole program) and their ratio. Instructions are not time, but
equal counts with the same loop structure leave little room for a
difference in time.

Usage: python3 bench/codegen_icount.py   (from the repository root)
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from codegen_bench import SCALE, region, scaled  # noqa: E402


def instructions(exe):
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", exe],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    m = re.search(r"Collected\s*:\s*(\d+)", r.stderr)
    if not m:
        sys.exit(f"no instruction count from callgrind for {exe}")
    return int(m.group(1))


def main():
    subprocess.run(["cargo", "build", "-q", "--release"], check=True)
    tmp = tempfile.mkdtemp(prefix="polyc-ic-")
    print("| kernel | scale | original (instructions) | polyc identity | ratio | same region text |")
    print("|---|---|---|---|---|---|")
    for name in sorted(SCALE):
        src = f"tests/kernels/{name}.c"
        if not os.path.exists(src):
            continue
        out = subprocess.run(["target/release/polyc", src], capture_output=True, text=True, check=True)
        f = max(1, SCALE[name] // 3)
        counts = []
        for tag, text in (("orig", open(src).read()), ("new", out.stdout)):
            c = os.path.join(tmp, f"{name}.{tag}.c")
            open(c, "w").write(scaled(text, f))
            exe = os.path.join(tmp, f"{name}.{tag}")
            subprocess.run(["gcc", "-O3", "-fopenmp", "-o", exe, c, "-lm"], check=True)
            counts.append(instructions(exe))
        same = "yes" if region(open(src).read()) == region(out.stdout) else "no"
        print(f"| {name} | {f} | {counts[0]} | {counts[1]} | {counts[1] / counts[0]:.4f} | {same} |",
              flush=True)


if __name__ == "__main__":
    main()
