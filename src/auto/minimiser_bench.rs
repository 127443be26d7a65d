//! The scheduling ILPs against isl's minimiser (issue 15's goal: within
//! 2× of isl). An ignored test schedules PolyBench kernels with
//! `auto(pluto)`, records every system the schedulers solve, times polyc's
//! exact integer and rational lexmin on each (median of 5) and writes the
//! systems in isl's notation with polyc's answers and times;
//! `bench/isl_minimiser_bench.py` times isl's lexmin on the same systems
//! and prints the table. Run from the repository root:
//!
//! ```text
//! POLYC_ILP_OUT=/tmp/ilps.txt cargo test --release --lib minimiser_bench -- --ignored
//! python3 bench/isl_minimiser_bench.py /tmp/ilps.txt
//! ```

use super::ilp::solved;
use super::scheduler::{schedule_tree, Algorithm, Fusion};
use crate::lang::c::read_source;
use crate::poly::{integer_lexmin_nonneg, rational_lexmin_nonneg, Constraint, ConstraintKind};
use crate::scop::{dependences, DepOptions};
use std::fmt::Write;
use std::time::Instant;

const KERNELS: &[&str] = &[
    "gemm",
    "2mm",
    "3mm",
    "syrk",
    "lu",
    "cholesky",
    "durbin",
    "jacobi-1d",
    "jacobi-2d",
    "seidel-2d",
    "heat-3d",
    "fdtd-2d",
    "adi",
];

/// `{ [x0, …] : x0 >= 0 and … and rows }`.
fn isl_text(n_var: usize, rows: &[Constraint]) -> String {
    let vars: Vec<String> = (0..n_var).map(|k| format!("x{k}")).collect();
    let mut parts: Vec<String> = vars.iter().map(|v| format!("{v} >= 0")).collect();
    for r in rows {
        let mut e = String::from("0");
        for (k, &c) in r.coeffs.iter().enumerate().filter(|(_, &c)| c != 0) {
            let sign = if c < 0 { '-' } else { '+' };
            let _ = write!(e, " {sign} {}*x{k}", c.unsigned_abs());
        }
        let sign = if r.constant < 0 { '-' } else { '+' };
        let _ = write!(e, " {sign} {}", r.constant.unsigned_abs());
        let op = match r.kind {
            ConstraintKind::Eq => "=",
            ConstraintKind::Ineq => ">=",
        };
        parts.push(format!("{e} {op} 0"));
    }
    format!("{{ [{}] : {} }}", vars.join(", "), parts.join(" and "))
}

/// The median of 5 runs of `f`, in nanoseconds.
fn median_ns(mut f: impl FnMut()) -> u128 {
    let mut times: Vec<u128> = (0..5)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_nanos()
        })
        .collect();
    times.sort_unstable();
    times[2]
}

#[test]
#[ignore = "a benchmark: run with --ignored and POLYC_ILP_OUT"]
fn minimiser_bench() {
    let out_path = std::env::var("POLYC_ILP_OUT").unwrap_or("/tmp/polyc-ilps.txt".into());
    let mut out = String::new();
    for name in KERNELS {
        let path = format!("tests/kernels/{name}.c");
        let file = read_source(&path, std::fs::read_to_string(&path).unwrap()).unwrap();
        let scop = &file.scops[0];
        let deps = dependences(scop, &DepOptions::default()).unwrap();
        solved::start();
        schedule_tree(scop, &deps, Algorithm::Pluto, Fusion::Smart, true).unwrap();
        let mut systems = solved::take();
        systems.dedup();
        for (k, (n, rows)) in systems.iter().enumerate() {
            let answer = integer_lexmin_nonneg(*n, rows).unwrap();
            let int_ns = median_ns(|| {
                integer_lexmin_nonneg(*n, rows).unwrap();
            });
            let rat_ns = median_ns(|| {
                rational_lexmin_nonneg(*n, rows).unwrap();
            });
            let answer = answer.map_or("none".to_string(), |p| {
                p.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
            });
            let _ = writeln!(
                out,
                "{name}\t{k}\t{n}\t{}\t{int_ns}\t{rat_ns}\t{answer}\t{}",
                rows.len(),
                isl_text(*n, rows)
            );
        }
    }
    std::fs::write(&out_path, out).unwrap();
}
