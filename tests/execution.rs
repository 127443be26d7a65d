//! Test against reality: every kernel, compiled before and after polyc
//! (scanning its original schedule), prints exactly the same thing; the
//! output is warning-free under `gcc -O3 -fopenmp -Wall -Wextra` and is
//! itself valid polyc input whose re-emission prints the same again.

use crate::common;

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
            .and_then(|_| {
                Ok((
                    common::execute(&orig_exe)?,
                    common::execute_generated(&new_exe)?,
                ))
            });
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
                .and_then(|_| common::execute_generated(&twice_exe))
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

/// The recipe library: every `.poly` under `recipes/<dir>/`, applied to
/// every C file beside it, is accepted and prints what the original prints.
/// (gemm-1024.c is left out: a 1024³ gemm is a benchmark, not a test.)
#[test]
fn every_library_recipe_prints_the_same_as_the_original() {
    let dir = common::scratch("library");
    let mut failures = Vec::new();
    let mut checked = 0;
    for kernel in common::all_kernels() {
        if !kernel.starts_with("recipes") || kernel.ends_with("gemm-1024.c") {
            continue;
        }
        let Some(folder) = kernel.parent() else {
            continue;
        };
        let mut recipes: Vec<_> = fs::read_dir(folder)
            .expect("read the recipe folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "poly"))
            .collect();
        recipes.sort();
        for recipe in recipes {
            let name = format!(
                "{}-{}",
                kernel.file_stem().unwrap_or_default().to_string_lossy(),
                recipe.file_stem().unwrap_or_default().to_string_lossy()
            );
            let out = common::polyc(&[
                &kernel.to_string_lossy(),
                "--recipe",
                &recipe.to_string_lossy(),
            ]);
            if out.status != 0 {
                failures.push(format!("{name}: polyc failed:\n{}", out.stderr));
                continue;
            }
            let generated = dir.join(format!("{name}.polyc.c"));
            fs::write(&generated, &out.stdout).expect("write generated file");
            if let Some(e) = common::differs_from_original(&dir, &name, &kernel, &generated) {
                failures.push(e);
            }
            checked += 1;
        }
    }
    assert!(checked >= 1, "no library recipe was checked");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
