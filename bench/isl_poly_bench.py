"""isl's side of the poly benchmark: the same systems and operations as
examples/poly_bench.rs, timed the same way (median of 31 batches), through
islpy. Prints `op system median_ns answer` lines.

isl caches results on its objects (a sample point, the emptiness flag), so
timing repeated calls on one object measures the cache. Each call here works
on a freshly parsed object and the median time of parsing alone is
subtracted. isl simplifies while it parses and decides some emptiness there:
such a system shows a time near zero (or below, within noise)."""

import time

import islpy as isl


def median_ns(f):
    t = time.perf_counter_ns()
    f()
    once = max(time.perf_counter_ns() - t, 1)
    batch = max(1, min(10_000, 2_000_000 // once))
    per_call = []
    for _ in range(31):
        t = time.perf_counter_ns()
        for _ in range(batch):
            f()
        per_call.append((time.perf_counter_ns() - t) / batch)
    per_call.sort()
    return per_call[len(per_call) // 2]


def main():
    ctx = isl.Context()
    for line in open("bench/poly_systems.txt"):
        if line.startswith("#") or not line.strip():
            continue
        name, text = (part.strip() for part in line.split("|", 1))
        s = isl.BasicSet.read_from_str(ctx, text)
        fixed_text = text.replace(" }", " and N = 100 and M = 80 }", 1)
        fixed = isl.BasicSet.read_from_str(ctx, fixed_text)
        parse = median_ns(lambda: isl.BasicSet.read_from_str(ctx, text))
        parse_fixed = median_ns(lambda: isl.BasicSet.read_from_str(ctx, fixed_text))
        empty = s.is_empty()
        t = median_ns(lambda: isl.BasicSet.read_from_str(ctx, text).is_empty()) - parse
        print(f"is_empty {name} {t:.0f} {'empty' if empty else 'nonempty'}")
        lm = fixed.lexmin()
        if lm.is_empty():
            answer = "empty"
        else:
            pt = lm.sample_point()
            answer = "[" + ",".join(str(pt.get_coordinate_val(isl.dim_type.set, k).to_python()) for k in range(6)) + "]"
        t = median_ns(lambda: isl.BasicSet.read_from_str(ctx, fixed_text).lexmin()) - parse_fixed
        print(f"lexmin {name} {t:.0f} {answer}")
        t = median_ns(lambda: isl.BasicSet.read_from_str(ctx, text).project_out(isl.dim_type.set, 3, 3)) - parse
        print(f"project_out {name} {t:.0f} -")


main()
