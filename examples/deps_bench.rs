//! Benchmark of dependence analysis (`scop::dependences`): every kernel of
//! `tests/kernels`, and two generated regions of 100 statements, written as
//! C text and read by the normal front end (reading is not timed).
//!
//! * `chain-100`: 100 loop nests, statement `k` computes `A_k` from three
//!   neighbours in `A_(k-1)` (a pipeline of stencils).
//! * `shared-100`: 10 nests of 10 statements each inside one time loop; every
//!   statement writes one of four shared arrays and reads three neighbours in
//!   the other three (a multi-field stencil: most pairs of statements meet).
//!
//! Prints one Markdown table row per region: statements, dependences found,
//! median time of `dependences` (default options) over several runs.
//! Run with `cargo run --release --example deps_bench`.

use std::time::{Duration, Instant};

use polyc::lang::c::read_source;
use polyc::scop::{dependences, DepOptions, Scop};

/// Median wall time of `runs` calls of `dependences` on every scop.
fn median(scops: &[Scop], runs: usize) -> Result<(Duration, usize), Box<dyn std::error::Error>> {
    let mut times = Vec::with_capacity(runs);
    let mut found = 0;
    for _ in 0..runs {
        let t = Instant::now();
        found = 0;
        for s in scops {
            found += dependences(s, &DepOptions::default())?.len();
        }
        times.push(t.elapsed());
    }
    times.sort();
    Ok((times[times.len() / 2], found))
}

fn chain(n: usize) -> String {
    let mut body = String::new();
    for k in 1..=n {
        body.push_str(&format!(
            "  for (i = 1; i < n - 1; i++)\n    for (j = 1; j < n - 1; j++)\n      \
             A{k}[i][j] = A{p}[i - 1][j] + A{p}[i][j + 1] + A{p}[i + 1][j - 1];\n",
            p = k - 1
        ));
    }
    let decls: Vec<String> = (0..=n).map(|k| format!("double A{k}[64][64]")).collect();
    format!(
        "void chain(int n, {}) {{\n  int i, j;\n#pragma scop\n{body}#pragma endscop\n}}\n",
        decls.join(", ")
    )
}

fn shared(nests: usize, per_nest: usize) -> String {
    let arrays = ["U", "V", "W", "X"];
    let mut body = String::from("  for (t = 0; t < tsteps; t++) {\n");
    for nest in 0..nests {
        body.push_str("    for (i = 1; i < n - 1; i++)\n      for (j = 1; j < n - 1; j++) {\n");
        for s in 0..per_nest {
            let k = nest * per_nest + s;
            let a = |d: usize| arrays[(k + d) % 4];
            body.push_str(&format!(
                "        {}[i][j] = {}[i - 1][j] + {}[i][j + 1] + {}[i + 1][j - 1];\n",
                a(0),
                a(1),
                a(2),
                a(3)
            ));
        }
        body.push_str("      }\n");
    }
    body.push_str("  }\n");
    format!(
        "void shared(int tsteps, int n, double U[64][64], double V[64][64], \
         double W[64][64], double X[64][64]) {{\n  int t, i, j;\n#pragma scop\n{body}\
         #pragma endscop\n}}\n"
    )
}

fn row(name: &str, scops: &[Scop], runs: usize) -> Result<(), Box<dyn std::error::Error>> {
    let statements: usize = scops.iter().map(|s| s.statements.len()).sum();
    let (t, found) = median(scops, runs)?;
    println!(
        "| {name} | {statements} | {found} | {:.3} |",
        t.as_secs_f64() * 1e3
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("| region | statements | dependences | median (ms) |");
    println!("|---|---|---|---|");
    let mut kernels: Vec<_> = std::fs::read_dir("tests/kernels")?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    kernels.sort();
    for k in kernels {
        let name = k.display().to_string();
        let file = read_source(&name, std::fs::read_to_string(&k)?).map_err(|d| d.message)?;
        let stem = k.file_stem().map(|s| s.to_string_lossy().into_owned());
        row(&stem.unwrap_or(name), &file.scops, 21)?;
    }
    for (name, text) in [("chain-100", chain(100)), ("shared-100", shared(10, 10))] {
        let file = read_source(name, text).map_err(|d| d.message)?;
        row(name, &file.scops, 5)?;
    }
    Ok(())
}
