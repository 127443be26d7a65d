//! Test against reality: every kernel, compiled before and after polyc
//! (scanning its original schedule), prints exactly the same thing; the
//! output is warning-free under `gcc -O3 -fopenmp -Wall -Wextra` and is
//! itself valid polyc input that re-emits unchanged.

mod common;

use std::fs;

#[test]
fn every_kernel_compiles_cleanly_and_prints_the_same_after_polyc() {
    let dir = common::scratch("execution");
    let mut failures = Vec::new();
    for k in common::kernels() {
        let path = k.to_string_lossy().into_owned();
        let name = k
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let out = common::polyc(&[&path]);
        if out.status != 0 {
            failures.push(format!("{name}: polyc failed:\n{}", out.stderr));
            continue;
        }
        let generated = dir.join(format!("{name}.polyc.c"));
        fs::write(&generated, &out.stdout).expect("write generated file");
        let (orig_exe, new_exe) = (
            dir.join(format!("{name}.orig")),
            dir.join(format!("{name}.new")),
        );
        let result = common::compile(&k, &orig_exe)
            .map_err(|e| format!("original does not compile:\n{e}"))
            .and_then(|_| {
                common::compile_generated(&generated, &new_exe)
                    .map_err(|e| format!("output does not compile:\n{e}"))
            })
            .and_then(|_| Ok((common::execute(&orig_exe)?, common::execute(&new_exe)?)));
        match result {
            Ok((a, b)) if a == b && !a.is_empty() => {}
            Ok(_) => failures.push(format!("{name}: output differs after polyc")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
        // Idempotence: polyc's output is polyc input that re-emits to itself.
        let again = common::polyc(&[&generated.to_string_lossy()]);
        if again.status != 0 || again.stdout != out.stdout {
            failures.push(format!("{name}: re-emitting the output changes it"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
