#!/usr/bin/env python3
"""isl's lexmin against polyc's on the scheduling ILPs (issue 15's goal:
polyc's minimiser within 2x of isl's).

Reads the systems `minimiser_bench` wrote (src/auto/minimiser_bench.rs:
kernel, index, variables, rows, polyc's integer and rational lexmin times
in ns, polyc's integer answer, the system in isl's notation), times isl's
`lexmin` on each (median of 5, parsing not timed), checks that isl's
integer lexmin is polyc's, and prints per kernel the totals and the
ratios polyc / isl. Needs islpy (`pip install islpy`).

  POLYC_ILP_OUT=/tmp/ilps.txt cargo test --release --lib minimiser_bench -- --ignored
  python3 bench/isl_minimiser_bench.py /tmp/ilps.txt [gemm,lu,...]

A system on which one isl lexmin takes over a second is timed once.
"""

import statistics
import sys
import time
from collections import OrderedDict

import islpy as isl


def isl_lexmin(text):
    ctx = isl.DEFAULT_CONTEXT
    bset = isl.BasicSet.read_from_str(ctx, text)
    times = []
    result = None
    for _ in range(5):
        t0 = time.perf_counter()
        result = bset.lexmin()
        times.append(time.perf_counter() - t0)
        if times[-1] > 1.0:
            break  # one run of a slow system is measurement enough
    if result.is_empty():
        answer = "none"
    else:
        point = result.sample_point()
        n = result.dim(isl.dim_type.set)
        answer = ",".join(
            str(point.get_coordinate_val(isl.dim_type.set, k).to_python()) for k in range(n)
        )
    return statistics.median(times) * 1e9, answer


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/polyc-ilps.txt"
    only = set(sys.argv[2].split(",")) if len(sys.argv) > 2 else None
    kernels = OrderedDict()
    disagree = []
    for line in open(path):
        name, k, n, rows, int_ns, rat_ns, answer, text = line.rstrip("\n").split("\t")
        if only and name not in only:
            continue
        print("%s #%s (%s x %s)" % (name, k, n, rows), file=sys.stderr, flush=True)
        isl_ns, isl_answer = isl_lexmin(text)
        if isl_answer != answer:
            disagree.append("%s #%s: polyc %s, isl %s" % (name, k, answer, isl_answer))
        agg = kernels.setdefault(name, {"count": 0, "int": 0.0, "rat": 0.0, "isl": 0.0,
                                        "vars": 0, "rows": 0, "worst": 0.0})
        agg["count"] += 1
        agg["int"] += float(int_ns)
        agg["rat"] += float(rat_ns)
        agg["isl"] += isl_ns
        agg["vars"] = max(agg["vars"], int(n))
        agg["rows"] = max(agg["rows"], int(rows))
        agg["worst"] = max(agg["worst"], float(int_ns) / isl_ns)
    print("| kernel | ILPs | largest (vars x rows) | polyc integer (ms) | polyc rational (ms) "
          "| isl lexmin (ms) | integer / isl | rational / isl | worst ILP integer / isl |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, a in kernels.items():
        print("| %s | %d | %d x %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            name, a["count"], a["vars"], a["rows"], a["int"] / 1e6, a["rat"] / 1e6,
            a["isl"] / 1e6, a["int"] / a["isl"], a["rat"] / a["isl"], a["worst"]))
    if disagree:
        print("\nanswers differ:\n" + "\n".join(disagree))
        sys.exit(1)
    print("\nevery integer lexmin agrees with isl's")


if __name__ == "__main__":
    main()
