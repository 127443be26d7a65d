//! Test against reality: every kernel, compiled before and after polyc
//! (scanning its original schedule), prints exactly the same thing; the
//! output is warning-free under `gcc -O3 -fopenmp -Wall -Wextra` and is
//! itself valid polyc input whose re-emission prints the same again.

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
        // polyc's output is polyc input: re-emitted, it still prints the
        // same (not always the same text: separation peels statements out
        // of loops, and a peeled statement is scanned as its own nest).
        let again = common::polyc(&[&generated.to_string_lossy()]);
        let twice = dir.join(format!("{name}.twice.c"));
        let twice_exe = dir.join(format!("{name}.twice"));
        let result = if again.status != 0 {
            Err(format!("polyc rejects its own output:\n{}", again.stderr))
        } else {
            fs::write(&twice, &again.stdout).expect("write re-emitted file");
            common::compile_generated(&twice, &twice_exe)
                .and_then(|_| common::execute(&twice_exe))
                .and_then(|b| common::execute(&orig_exe).map(|a| (a, b)))
        };
        match result {
            Ok((a, b)) if a == b => {}
            Ok(_) => failures.push(format!("{name}: output differs after re-emitting")),
            Err(e) => failures.push(format!("{name}: re-emitting: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
