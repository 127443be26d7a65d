#!/usr/bin/env python3
"""Random SCoP kernels for the differential tester.

The tester's own kernels (`tests/kernels`, `recipes/`) are the shapes
people write. These are the shapes nobody wrote: imperfect nests up to
four deep; triangular, strided (steps of 2 and 3, upwards and down) and
downward loops; starts in the parameters, `MAX`, `ceild` and remainder
starts (`1 + i % 2`, red-black's), steps and rows by fixed macros
(`i += S`, `A[i * W + j]`),
quotients, `MIN` and `&&` in bounds; guards with `else` and `else if`;
coupled subscripts with coefficients up to 2, and `%`, `/` and `?:` in
them; a few arrays (of `double`s, some of `long`s), a scalar that many
statements share and a read-only one of the caller's (`alpha`); chained
assignments, `++`, division on data, comparisons and calls (`sqrt`,
`fabs`) in values. Each file is a whole program in the
tester's form: the kernel in one `#pragma scop` region (sometimes two),
a `main` that fills the arrays, runs the kernel and prints an exact hash
of every array's bits (so a program that computes anything else, even in
the last bit, prints another line).

    python3 tools/random_kernels.py --seed 1 --count 200 --out /tmp/rk
    POLYC_DIFF_KERNELS=/tmp/rk cargo test --release --test integration \\
        differential::random -- --nocapture

Every subscript stays inside its array for every value the loops take
(iterators lie in [-3, NMAX + 3], subscripts are offset by OFF), so the
programs are valid C and a sanitizer complaint is polyc's.
"""
import argparse
import os
import random
import re

# The largest value a parameter takes, and the array layout that keeps
# every subscript in bounds: |subscript expression| <= 4 * (NMAX + 3) + 3.
NMAX = 12
OFF = 4 * (NMAX + 3) + 4
SIZE = 2 * OFF + 1
ITERATORS = ["i", "j", "k", "l"]


class Kernel:
    def __init__(self, rng):
        self.rng = rng
        self.n = rng.choice([5, 8, 11, 12])
        self.m = rng.choice([3, 6, 9])
        self.used_iters = set()
        # Iterators declared in each loop's head (`for (int i = …)`), or
        # once at the top.
        self.decl = "int " if rng.random() < 0.2 else ""
        self.arrays = {}
        self.types = {}
        for name in rng.sample(["A", "B", "C", "D"], rng.randint(1, 3)):
            self.arrays[name] = rng.choice([1, 2, 2])
            # Integers too: exact arithmetic, and types that a copy must
            # keep (`datacopy`, `replace_array`).
            self.types[name] = "long" if rng.random() < 0.2 else "double"

    # -- affine pieces -------------------------------------------------

    def bound_param(self):
        if self.rng.random() < 0.2:
            return "m"
        return "n"

    def affine(self, scope, max_terms=2, coeffs=(-2, -1, 1, 1, 1, 2)):
        """An affine expression of the iterators in scope (or a parameter),
        |value| <= 4 * (NMAX + 3) + 3."""
        terms = []
        names = list(scope)
        self.rng.shuffle(names)
        for v in names[: self.rng.randint(1 if scope else 0, max_terms)]:
            terms.append((self.rng.choice(coeffs), v))
        if not terms and self.rng.random() < 0.5:
            terms.append((1, self.bound_param()))
        c = self.rng.randint(-3, 3)
        return render(terms, c)

    def subscript(self, scope):
        r = self.rng.random()
        if not scope or r < 0.05:
            return str(OFF + self.rng.randint(-3, 3))
        if r < 0.7:
            # Mostly an iterator plus a small shift: stencil-like, so that
            # some transformations are legal.
            v = self.rng.choice(list(scope))
            c = self.rng.choice([-1, 0, 0, 0, 1, 2])
            return render([(1, v)], c + OFF)
        if r < 0.78:
            return f"{self.affine(scope)} + {OFF}"
        if r < 0.86:
            # Backwards through the array, as adi's back substitutions go.
            v = self.rng.choice(list(scope))
            return f"{self.bound_param()} - 1 - {v} + {OFF}"
        if r < 0.9:
            # A piecewise subscript: periodic boundaries.
            v = self.rng.choice(list(scope))
            return f"({v} == 0 ? {self.bound_param()} - 1 : {v} - 1) + {OFF}"
        if r < 0.94:
            # Floors, minima and maxima in a subscript.
            v = self.rng.choice(list(scope))
            p = self.bound_param()
            return self.rng.choice([f"floord({v} + 1, 2) + {OFF}", f"MIN({v}, {p} - 1) + {OFF}",
                                    f"MAX({v} - 2, 0) + {OFF}", f"ceild({self.affine(scope, 2)}, 3) + {OFF}"])
        # C's `%` and `/` truncate toward zero: negative values included.
        op = self.rng.choice(["%", "/"])
        k = self.rng.choice([2, 3])
        return f"({self.affine(scope, 1)}) {op} {k} + {OFF}"

    def condition(self, scope):
        v = list(scope)
        r = self.rng.random()
        if r < 0.3 and len(v) >= 2:
            a, b = self.rng.sample(v, 2)
            return self.rng.choice([f"{a} >= {b}", f"{a} + {b} < n", f"2 * {a} - {b} >= 1"])
        if r < 0.5:
            a = self.rng.choice(v)
            return f"{a} % 2 == {self.rng.randint(0, 1)}"
        if r < 0.65:
            a = self.rng.choice(v)
            return f"{a} < 3 || {a} > n - 3"
        if r < 0.72 and len(v) >= 2:
            a, b = self.rng.sample(v, 2)
            return self.rng.choice([f"!({a} < 2 && {b} > 1)", f"({a} + {b}) % 3 != 1", f"{a} < m || {b} == 1"])
        a = self.rng.choice(v)
        return self.rng.choice([f"{a} != 2", f"{a} >= 1", f"{a} <= n - 2", f"!({a} < 2)", f"n > 6 && {a} > 1"])

    # -- statements and loops ------------------------------------------

    def access(self, scope, names=None):
        name = self.rng.choice(names or list(self.arrays))
        dims = self.arrays[name]
        if dims == 1 and len(scope) >= 2 and self.rng.random() < 0.3:
            # A row laid out by hand, by the fixed macro `W` (3): rows
            # overlap, so the dependences must read W's value exactly.
            v, u = self.rng.sample(list(scope), 2)
            return name + self.rng.choice([f"[{v} * W + {u} + {OFF}]", f"[W * {v} - {u} + {OFF}]",
                                           f"[{u} + n * W + {OFF}]"])
        return name + "".join(f"[{self.subscript(scope)}]" for _ in range(dims))

    def integer_statement(self, scope, lhs):
        """An update of a `long` cell from `long` cells: non-negative
        values, small, exact."""
        longs = [a for a, t in self.types.items() if t == "long"]
        r = self.access(scope, longs)
        x = self.rng.random()
        if x < 0.4:
            return f"{lhs} = ({lhs} * 3 + {r} + 1) % 1009;"
        if x < 0.6:
            # Division on data, and `++` as a statement.
            return self.rng.choice([f"{lhs} = {r} / 3 + {lhs} % 5;", f"{lhs}++;"])
        return f"{lhs} += {r} % 7;"

    def read(self, scope):
        if self.rng.random() < 0.1:
            return "s"
        return self.access(scope)

    def statement(self, scope):
        text = self.single_statement(scope)
        doubles = [a for a, t in self.types.items() if t == "double"]
        if text.startswith(("s = ", "A", "B", "C", "D")) and " = " in text and "+=" not in text.split(" = ")[0]:
            lhs = text.split(" = ")[0]
            if (lhs == "s" or self.types[lhs[0]] == "double") and doubles and self.rng.random() < 0.06:
                # `a = b = e;`: the two statements C performs (two
                # arrays: gcc rejects `a = a = e`, and two subscripts of
                # one array may name one cell, `A[i + 66]` and
                # `A[i + 2 + 64]`, seed 39).
                first = self.access(scope, doubles)
                if first.split("[")[0] != lhs.split("[")[0]:
                    return f"{first} = {text}"
        return text

    def single_statement(self, scope):
        if self.rng.random() < 0.08:
            lhs = "s"
        else:
            lhs = self.access(scope)
            if self.types[lhs.split("[")[0]] == "long":
                return self.integer_statement(scope, lhs)
        reads = [self.read(scope) for _ in range(self.rng.randint(0, 2))]
        shape = self.rng.random()
        # Contractions and small constants: values stay bounded, and every
        # operation's order is the program's (no reassociation).
        if shape < 0.3:
            parts = [f"0.5 * {lhs}"] + [f"0.25 * {r}" for r in reads]
            return f"{lhs} = {' + '.join(parts)} + 0.125;"
        if shape < 0.55 and reads:
            return f"{lhs} += 0.5 * {reads[0]};"
        if shape < 0.7 and reads:
            return f"{lhs} = {reads[0]} * 0.75 - {lhs} * 0.5;"
        if shape < 0.75:
            return f"{lhs} *= 0.875;"
        if shape < 0.8 and reads:
            # Data-dependent values: a comparison, a call, a read-only
            # scalar of the caller's, a parameter read as data.
            r = reads[0]
            return self.rng.choice([
                f"{lhs} = {r} > 0.75 ? {r} * 0.5 : {lhs} + 0.25;",
                f"{lhs} = sqrt(fabs((double){r})) * 0.5 + 0.125;",
                f"{lhs} += alpha * {r};",
                f"{lhs} = {r} * 0.5 + {self.bound_param()} * 0.0625;",
            ])
        rhs = " + ".join([f"0.3 * {r}" for r in reads]) or "1.0"
        return f"{lhs} = {rhs} + 0.0625;"

    def loop(self, depth, scope, indent):
        var = ITERATORS[depth]
        self.used_iters.add(var)
        outer = list(scope)
        r = self.rng.random()
        if outer and r < 0.3:
            o = self.rng.choice(outer)
            lower = self.rng.choice([o, f"{o} + 1", f"{o} - 1", f"MAX(0, {o} - 2)", f"ceild({o}, 2)",
                                     f"1 + {o} % 2", f"({o} + 1) % 3"])
        elif r < 0.4:
            # A start in the parameters: the last few iterations.
            lower = f"{self.bound_param()} - {self.rng.randint(2, 5)}"
        else:
            lower = str(self.rng.choice([0, 0, 1, 2]))
        r = self.rng.random()
        p = self.bound_param()
        if outer and r < 0.3:
            o = self.rng.choice(outer)
            upper = self.rng.choice([f"{var} <= {o}", f"{var} < {o} + 2", f"{var} < {p} - {o}"])
        elif outer and r < 0.4:
            # A bound that is a minimum: two conditions, or MIN.
            o = self.rng.choice(outer)
            upper = self.rng.choice([f"{var} < {p} && {var} <= {o} + 2", f"{var} < MIN({p}, {o} + 3)"])
        elif r < 0.5:
            # A quotient: floors in the bounds.
            k = self.rng.choice([2, 3])
            shift = f" + {outer[-1]}" if outer and self.rng.random() < 0.5 else ""
            upper = self.rng.choice([f"{var} < ({p}{shift}) / {k}", f"{var} <= ({p}{shift} - 1) / {k}"])
        elif outer and r < 0.55:
            # A remainder in a bound: a floor of an outer iterator.
            o = self.rng.choice(outer)
            upper = self.rng.choice([f"{var} <= {o} % 4", f"{var} < {o} % 3 + 2", f"{var} <= floord({p} + {o}, 2)"])
        else:
            upper = self.rng.choice([f"{var} < {p}", f"{var} < {p} - 1", f"{var} <= {p} - 2", f"{var} < W"])
        r = self.rng.random()
        if r < 0.1:
            # From any start: `1 + i % 2` by 2 is red-black's.
            step = self.rng.choice([f"{var} += 2", f"{var} += 3", f"{var} = {var} + 2", f"{var} += S"])
        elif r < 0.2 and "MIN" not in upper and "&&" not in upper and "/" not in upper:
            # The same iterations, downwards: `lower` is the last.
            top = upper.split(" ", 2)
            first = {"<": f"{top[2]} - 1", "<=": top[2]}[top[1]]
            down = self.rng.choice([f"{var}--", f"--{var}", f"{var}--", f"{var} -= 2", f"{var} = {var} - 3"])
            test = self.rng.choice([f"{var} >= {lower}", f"{var} > {lower} - 1"])
            head = f"{indent}for ({self.decl}{var} = {first}; {test}; {down})"
            body = self.block(depth + 1, scope + [var], indent + "  ")
            return head + " {\n" + body + indent + "}\n"
        else:
            step = self.rng.choice([f"{var}++", f"{var}++", f"++{var}"])
        head = f"{indent}for ({self.decl}{var} = {lower}; {upper}; {step})"
        body = self.block(depth + 1, scope + [var], indent + "  ")
        return head + " {\n" + body + indent + "}\n"

    def block(self, depth, scope, indent):
        out = ""
        for _ in range(self.rng.randint(1, 3)):
            r = self.rng.random()
            if depth < 4 and r < [0.55, 0.3, 0.3, 0.15][depth]:
                out += self.loop(depth, scope, indent)
            elif scope and r < 0.45:
                inner = self.statement(scope)
                if self.rng.random() < 0.15:
                    # A block of two under one condition.
                    inner = "{ " + inner + " " + self.statement(scope) + " }"
                out += f"{indent}if ({self.condition(scope)})\n{indent}  {inner}\n"
                x = self.rng.random()
                if x < 0.1:
                    out += f"{indent}else if ({self.condition(scope)})\n{indent}  {self.statement(scope)}\n"
                if x < 0.3:
                    out += f"{indent}else\n{indent}  {self.statement(scope)}\n"
            else:
                out += f"{indent}{self.statement(scope)}\n"
        return out

    def text(self, name):
        # One region, sometimes two (the tester draws one of them).
        regions = []
        for _ in range(2 if self.rng.random() < 0.15 else 1):
            region = ""
            # At least one loop: a region of straight-line statements
            # alone leaves the tester nothing to transform.
            while "for (" not in region:
                region = self.block(0, [], "  ")
            regions.append("#pragma scop\n" + region + "#pragma endscop")
        body = "\n".join(regions)
        # Only what the regions read: gcc's -Wextra rejects an unused
        # parameter.
        words = set(re.findall(r"[A-Za-z_]\w*", body))
        self.arrays = {a: d for a, d in self.arrays.items() if a in words}
        values = [p for p in ["n", "m"] if p in words]
        params = [f"int {p}" for p in values]
        if "alpha" in words:
            params.append("double alpha")
        decls = [f"{self.types[a]} {a}{f'[{SIZE}]' * d}" for a, d in self.arrays.items()]
        iters = [v for v in ITERATORS if v in self.used_iters]
        lines = [
            "#pragma GCC diagnostic ignored \"-Wunknown-pragmas\"",
            "#include <math.h>",
            "#include <stdio.h>",
            "#include <string.h>",
            "",
            "#define MIN(a, b) ((a) < (b) ? (a) : (b))",
            "#define MAX(a, b) ((a) > (b) ? (a) : (b))",
            "#define floord(x, d) (((x) < 0 ? (x) - (d) + 1 : (x)) / (d))",
            "#define ceild(x, d) (-floord(-(x), (d)))",
            "/* Fixed: a row's width and a step, read as their values. */",
            "#define W 3",
            "#define S (W - 1)",
            "",
            f"/* A random kernel (tools/random_kernels.py): n = {self.n}, m = {self.m}. */",
            "",
            f"static void kernel_{name}({', '.join(params + decls + ['double *sink'])})",
            "{",
            f"  int {', '.join(iters)};" if iters and not self.decl else "",
            "  double s = 1.0;",
            body,
            "  sink[0] = s;",
            "}",
            "",
            "/* An exact hash of `count` 8-byte cells (`double` or `long`). */",
            "static void print_hash(const char *name, const void *x, int count)",
            "{",
            "  unsigned long long h = 1469598103934665603ULL;",
            "  for (int c = 0; c < count; c++) {",
            "    unsigned long long bits;",
            "    memcpy(&bits, (const char *)x + 8 * c, sizeof bits);",
            "    h = (h ^ bits) * 1099511628211ULL;",
            "  }",
            "  printf(\"%s %016llx\\n\", name, h);",
            "}",
            "",
            "int main(void)",
            "{",
        ]
        for a, d in self.arrays.items():
            lines.append(f"  static {self.types[a]} {a}{f'[{SIZE}]' * d};")
        lines.append("  double sink[1];")
        for k, (a, d) in enumerate(self.arrays.items()):
            count = SIZE**d
            lines.append(f"  for (int c = 0; c < {count}; c++)")
            if self.types[a] == "long":
                lines.append(f"    ((long *){a})[c] = (c * {7 + 2 * k} + {k}) % 17;")
            else:
                lines.append(f"    ((double *){a})[c] = (double)((c * {7 + 2 * k} + {k}) % 17) / 17 + 0.25;")
        args = [str(self.n if p == "n" else self.m) for p in values]
        if "alpha" in words:
            args.append("0.5")
        args += list(self.arrays) + ["sink"]
        lines.append(f"  kernel_{name}({', '.join(args)});")
        for a, d in self.arrays.items():
            lines.append(f"  print_hash(\"{a}\", {a}, {SIZE**d});")
        lines.append("  print_hash(\"s\", sink, 1);")
        lines.append("  return 0;")
        lines.append("}")
        return "\n".join(lines) + "\n"


def render(terms, c):
    s = ""
    for coeff, v in terms:
        mag = abs(coeff)
        part = v if mag == 1 else f"{mag} * {v}"
        if not s:
            s = ("-" if coeff < 0 else "") + part
        else:
            s += (" - " if coeff < 0 else " + ") + part
    if not s:
        return str(c)
    if c > 0:
        s += f" + {c}"
    elif c < 0:
        s += f" - {-c}"
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for k in range(args.count):
        rng = random.Random(args.seed * 1_000_003 + k)
        name = f"r{args.seed}_{k}"
        text = Kernel(rng).text(name)
        with open(os.path.join(args.out, f"{name}.c"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
