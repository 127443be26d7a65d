#!/usr/bin/env bash
# Run the poly benchmark for polyc and isl side by side and print a table of
# medians and ratios (polyc / isl). islpy is installed for the benchmark only.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import islpy" 2>/dev/null || pip install -q islpy
cargo run -q --release --example poly_bench > /tmp/polyc_bench.txt
python3 bench/isl_poly_bench.py > /tmp/isl_bench.txt
python3 - <<'PY'
ours = {tuple(l.split()[:2]): l.split()[2:] for l in open("/tmp/polyc_bench.txt")}
isl = {tuple(l.split()[:2]): l.split()[2:] for l in open("/tmp/isl_bench.txt")}
print("| op | system | polyc (µs) | isl (µs) | polyc / isl | answers agree |")
print("|---|---|---|---|---|---|")
for key, (t, ans) in ours.items():
    it, ians = isl[key]
    agree = "yes" if ans == ians or ans == "-" else f"NO ({ans} vs {ians})"
    print(f"| {key[0]} | {key[1]} | {float(t)/1000:.2f} | {float(it)/1000:.2f} | {float(t)/float(it):.2f} | {agree} |")
PY
