//! The values each region's parameters take when the original kernel
//! runs, read from a build of it that prints them where each region
//! starts: a `context` drawn to hold for all of them is a promise the run
//! keeps, so the program's output must not change under it (polyc may
//! specialise the code and narrow the dependences to it).

use std::path::Path;
use std::process::Command;

use polyc::lang::c::SourceFile;

/// The most parameter vectors kept per region (a region inside a loop
/// may run many times with other values).
const MAX_KEPT: usize = 64;

/// Per region of `file` (in order), the distinct parameter vectors it ran
/// with, in the order of the scop's parameters: empty for a region that
/// did not run. Built with gcc in `dir`; an error where the instrumented
/// program does not build or run.
pub fn observed(file: &SourceFile, dir: &Path) -> Result<Vec<Vec<Vec<i64>>>, String> {
    let mut text = file.text.clone();
    // From the last region, so that the earlier offsets hold.
    for (k, (region, scop)) in file.regions.iter().zip(&file.scops).enumerate().rev() {
        let format: String = scop.params.iter().map(|_| " %ld").collect();
        let values: String = scop
            .params
            .iter()
            .map(|p| format!(", (long)({p})"))
            .collect();
        let print = format!(
            "__builtin_printf(\"\\npolyc-params-{} {format}\\n\"{values});\n",
            k + 1
        );
        let at = text[..region.open.start].rfind('\n').map_or(0, |n| n + 1);
        text.insert_str(at, &print);
    }
    let src = dir.join("params.c");
    let exe = dir.join("params");
    std::fs::write(&src, text).map_err(|e| e.to_string())?;
    let built = Command::new("gcc")
        .args(["-O0", "-w", "-fopenmp", "-o"])
        .arg(&exe)
        .arg(&src)
        .arg("-lm")
        .output()
        .map_err(|e| format!("gcc: {e}"))?;
    if !built.status.success() {
        return Err(String::from_utf8_lossy(&built.stderr)
            .chars()
            .take(400)
            .collect());
    }
    let output = super::check::run_limited(&exe)?;
    let mut out: Vec<Vec<Vec<i64>>> = vec![Vec::new(); file.scops.len()];
    for line in output.lines() {
        let Some(rest) = line.strip_prefix("polyc-params-") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let region: Option<usize> = words.next().and_then(|w| w.parse().ok());
        let values: Option<Vec<i64>> = words.map(|w| w.parse().ok()).collect();
        let (Some(region), Some(values)) = (region, values) else {
            return Err(format!("cannot read `{line}`"));
        };
        let Some(seen) = region.checked_sub(1).and_then(|r| out.get_mut(r)) else {
            return Err(format!("no region {region}"));
        };
        if seen.len() < MAX_KEPT && !seen.contains(&values) {
            seen.push(values);
        }
    }
    Ok(out)
}
