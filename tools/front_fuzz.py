#!/usr/bin/env python3
"""Mutation fuzzing of polyc's front ends (C regions and recipes).

Each case takes a test kernel (tests/kernels/*.c) or a test recipe
(tests/recipes/*.poly, run on its kernel) and mutates it: a token deleted,
duplicated or nested thousands of times in brackets, unary operators or
`else if`s; random bytes inserted; a number replaced by a huge one
(99999999999999999999, -9223372036854775808, ...); the text truncated.
C mutations hit the scop region most of the time, where the parser works.

Each mutant is run through polyc (default target/release/polyc; build it
first). A case fails when polyc

* exits with a status other than 0, 1 or 2 (a panic is 101, an abort or a
  stack overflow a signal), or prints "panicked";
* takes longer than --max-time seconds (default 1), or for an input whose
  unmutated original already takes longer (the back end's cost, not the
  front end's: such originals are listed), three times the original's time.

Usage:
  python3 tools/front_fuzz.py [--seed S] [--cases N] [--polyc PATH] [--max-time T]

Prints the counts (cases, by exit status, slowest run) and every failure,
and exits 1 if there was one. The failing inputs are kept under
/tmp/front_fuzz_failures/.
"""
import argparse
import glob
import os
import random
import re
import subprocess
import sys
import tempfile
import time

HUGE = ["99999999999999999999", "-9223372036854775808", "9223372036854775807",
        "18446744073709551616", "4294967296", "0x7fffffffffffffffff", "1e999",
        "-99999999999999999999999999999999"]
NESTERS = [("(", ")"), ("[", "]"), ("{", "}"), ("- ", ""), ("! ", ""), ("~", ""),
           ("(int)", ""), ("1 + ", ""), ("x = ", ""), ("c ? ", " : 0"),
           ("for (i = 0; i < n; i++) ", ""), ("if (n > 0) ", ""), ("else if (n) x = 1; ", "")]
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+|\S")


def tokens(text):
    return [(m.start(), m.end()) for m in TOKEN.finditer(text)]


def region_bounds(text):
    """The byte range of the first scop region's body, or the whole text."""
    a = text.find("#pragma scop")
    b = text.find("#pragma endscop")
    if a < 0 or b < a:
        return 0, len(text)
    a = text.find("\n", a) + 1
    return a, b


def mutate(rng, text, lo, hi):
    toks = [t for t in tokens(text) if lo <= t[0] < hi] or tokens(text)
    if not toks:
        return text + "("
    kind = rng.choice(["delete", "duplicate", "nest", "bytes", "huge", "truncate", "swap", "deep"])
    s, e = rng.choice(toks)
    if kind == "delete":
        return text[:s] + text[e:]
    if kind == "duplicate":
        return text[:e] + " " + text[s:e] * rng.choice([1, 2, 10, 1000]) + text[e:]
    if kind == "nest":
        o, c = rng.choice(NESTERS)
        k = rng.choice([2, 17, 100, 300, 3000, 10000])
        return text[:s] + o * k + text[s:e] + c * k + text[e:]
    if kind == "bytes":
        junk = bytes(rng.randrange(256) for _ in range(rng.choice([1, 3, 20])))
        return text[:s] + junk.decode("latin-1") + text[s:]
    if kind == "huge":
        nums = [t for t in toks if text[t[0]:t[1]].isdigit()] or toks
        s, e = rng.choice(nums)
        return text[:s] + rng.choice(HUGE) + text[e:]
    if kind == "truncate":
        return text[:s]
    if kind == "swap":
        s2, e2 = rng.choice(toks)
        if s2 < s:
            s, e, s2, e2 = s2, e2, s, e
        if e > s2:
            return text
        return text[:s] + text[s2:e2] + text[e:s2] + text[s:e] + text[e2:]
    # deep: one level of brackets around the region's statements, many times.
    k = rng.choice([300, 5000])
    return text[:lo] + "{" * k + text[lo:hi] + "}" * k + text[hi:]


def run(polyc, args, timeout):
    start = time.monotonic()
    try:
        r = subprocess.run([polyc] + args, capture_output=True, timeout=timeout)
        rc, err = r.returncode, r.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, err = "timeout", ""
    return rc, err, time.monotonic() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--polyc", default="target/release/polyc")
    ap.add_argument("--max-time", type=float, default=1.0)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    kernels = sorted(glob.glob("tests/kernels/*.c"))
    recipes = sorted(glob.glob("tests/recipes/*.poly"))
    if not kernels or not os.path.exists(a.polyc):
        sys.exit(f"run from the repository root with {a.polyc} built")
    work = tempfile.mkdtemp(prefix="front_fuzz_")
    keep = "/tmp/front_fuzz_failures"
    by_status, failures, slowest = {}, [], (0.0, "")
    baseline = {}  # unmutated input -> its run time, for slow originals
    for case in range(a.cases):
        mutants = 1 + (rng.random() < 0.3)
        if recipes and rng.random() < 0.4:
            path = rng.choice(recipes)
            text = open(path, encoding="utf-8").read()
            kernel = "tests/kernels/" + text.splitlines()[0].split(": ", 1)[-1].strip() + ".c"
            if not os.path.exists(kernel):
                kernel = kernels[0]
            for _ in range(mutants):
                text = mutate(rng, text, 0, len(text))
            inp = os.path.join(work, f"case{case}.poly")
            args = [kernel, "--recipe", inp]
        else:
            path = rng.choice(kernels)
            text = open(path, encoding="utf-8").read()
            for _ in range(mutants):
                lo, hi = region_bounds(text) if rng.random() < 0.85 else (0, len(text))
                text = mutate(rng, text, lo, hi)
            inp = os.path.join(work, f"case{case}.c")
            args = [inp] + rng.choice([[], ["--emit", "scop"], ["--emit", "deps-text"]])
        with open(inp, "w", encoding="latin-1", errors="replace") as f:
            f.write(text)
        if path not in baseline:
            orig = [kernel, "--recipe", path] if path.endswith(".poly") else [path] + args[1:]
            baseline[path] = run(a.polyc, orig, 60)[2]
        limit = max(a.max_time, 3 * baseline[path])
        rc, err, took = run(a.polyc, args, max(10 * limit, 10))
        by_status[rc] = by_status.get(rc, 0) + 1
        if took > slowest[0]:
            slowest = (took, path)
        bad = rc not in (0, 1, 2) or "panicked" in err or took > limit
        if bad:
            os.makedirs(keep, exist_ok=True)
            kept = os.path.join(keep, f"seed{a.seed}-case{case}" + os.path.splitext(inp)[1])
            with open(kept, "w", encoding="latin-1", errors="replace") as f:
                f.write(text)
            failures.append(f"case {case} ({path}): status {rc}, {took:.2f} s, "
                            f"input kept as {kept}; args {args[1:]}\n  {err.strip()[:300]}")
    print(f"front_fuzz: seed {a.seed}, {a.cases} cases")
    for rc in sorted(by_status, key=str):
        print(f"  exit {rc}: {by_status[rc]}")
    print(f"  slowest: {slowest[0]:.3f} s ({slowest[1]})")
    slow = sorted(p for p, t in baseline.items() if t > a.max_time)
    if slow:
        print(f"  originals slower than {a.max_time} s (limit 3x theirs): {', '.join(slow)}")
    print(f"  failures: {len(failures)}")
    for f in failures:
        print(f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
