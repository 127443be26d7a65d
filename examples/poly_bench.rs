//! Benchmark of `poly` on dependence-polyhedron-sized systems
//! (`bench/poly_systems.txt`); `bench/poly_bench.sh` runs it beside isl.
//!
//! For each system: `is_empty`, `lexmin` (parameters fixed to N = 100,
//! M = 80) and projecting out the last three dimensions, on already parsed
//! sets (polyc caches nothing on a set). Prints one line per measurement:
//! `op system median_ns answer`.

use std::time::Instant;

use polyc::poly::{parse_basic_set, BasicSet, LexOpt};

/// Median over 31 batches of the time of one call, in nanoseconds.
fn median_ns(mut f: impl FnMut()) -> f64 {
    let mut per_call = Vec::new();
    let batch = {
        let t = Instant::now();
        f();
        let once = t.elapsed().as_nanos().max(1);
        (2_000_000 / once).clamp(1, 10_000) as usize
    };
    for _ in 0..31 {
        let t = Instant::now();
        for _ in 0..batch {
            f();
        }
        per_call.push(t.elapsed().as_nanos() as f64 / batch as f64);
    }
    per_call.sort_by(f64::total_cmp);
    per_call[per_call.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string("bench/poly_systems.txt")?;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (name, set) = line.split_once('|').ok_or("expected `name | set`")?;
        let (name, set) = (name.trim(), set.trim());
        let s: BasicSet = parse_basic_set(set)?;
        let fixed = parse_basic_set(&set.replacen(" }", " and N = 100 and M = 80 }", 1))?;

        let empty = s.is_empty()?;
        let t = median_ns(|| {
            std::hint::black_box(s.is_empty().ok());
        });
        println!(
            "is_empty {name} {t:.0} {}",
            if empty { "empty" } else { "nonempty" }
        );

        let lexmin = match fixed.lexmin()? {
            LexOpt::Point(p) => format!("{:?}", &p[2..]).replace(' ', ""),
            LexOpt::Empty => "empty".into(),
            LexOpt::Unbounded => "unbounded".into(),
        };
        let t = median_ns(|| {
            std::hint::black_box(fixed.lexmin().ok());
        });
        println!("lexmin {name} {t:.0} {lexmin}");

        let t = median_ns(|| {
            std::hint::black_box(s.project_out(3, 3));
        });
        println!("project_out {name} {t:.0} -");
    }
    Ok(())
}
