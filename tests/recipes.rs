//! Filetests for recipes: each `tests/recipes/NAME.poly` names its kernel
//! on its first line (`# kernel: gemm` for `tests/kernels/gemm.c`), and
//! its expectations lie beside it (`common::filetest`): `NAME.snap` holds
//! the exit status, the schedule polyc prints (`--emit schedule-text`) and
//! its diagnostics; for an accepted recipe, `NAME.code.snap` holds the
//! generated region. Accepted recipes must give a schedule that the
//! legality check accepts again from scratch, and a program that prints
//! exactly what the original prints. `NAME.rhai`, where there is one, is
//! the same recipe as a script (`tests/script.rs`).

use crate::common;
use crate::common::filetest;

use polyc::lang::c::read_source;
use polyc::lang::recipe::parse_recipe;
use polyc::scop::validity::first_violation;
use polyc::scop::{dependences, DepOptions, Schedule};
use polyc::session::run_recipe;

#[test]
fn every_recipe_gives_its_snapshot() {
    filetest::assert_no_orphan_snapshots("recipes", "poly");
    for path in filetest::inputs("recipes", "poly") {
        let rel = path.to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("recipe");
        let kernel = filetest::kernel_of_recipe(&text);
        let out = common::polyc(&[&kernel, "--recipe", &rel, "--emit", "schedule-text"]);
        filetest::assert_snapshot_beside(
            &path,
            None,
            &format!(
                "status {}\n--- stdout\n{}--- stderr\n{}",
                out.status, out.stdout, out.stderr
            ),
        );
        if out.status == 0 {
            // Independently re-check the final schedule.
            let source = std::fs::read_to_string(&kernel).expect("kernel");
            let file = read_source(&kernel, source).expect("accepted");
            let scop = &file.scops[0];
            let deps = dependences(scop, &DepOptions::default()).expect("deps");
            let recipe = parse_recipe(&text, &[]).expect("parses");
            let Ok(done) = run_recipe(scop, &deps, Schedule::original(scop), &recipe) else {
                panic!("{rel}: accepted by the CLI, refused in-process");
            };
            // A data-layout directive rewrites the program: its own
            // dependences, computed from scratch, are the ones to respect.
            let deps = dependences(&done.scop, &DepOptions::default()).expect("deps");
            assert_eq!(
                first_violation(&done.scop, &done.schedule, &deps).expect("decided"),
                None,
                "{rel}"
            );
        }
    }
}

/// Every accepted recipe, compiled and run: the transformed program prints
/// exactly what the original prints (`gcc -O3 -fopenmp -Wall -Wextra
/// -Werror` on polyc's output), and its generated region is snapshotted.
#[test]
fn every_accepted_recipe_runs_and_prints_the_same_as_the_original() {
    let dir = common::scratch("recipes");
    let mut failures = Vec::new();
    let mut accepted = 0;
    for r in filetest::inputs("recipes", "poly") {
        let text = std::fs::read_to_string(&r).expect("recipe");
        let kernel = filetest::kernel_of_recipe(&text);
        let rel = r.to_string_lossy().into_owned();
        let out = common::polyc(&[&kernel, "--recipe", &rel]);
        if out.status != 0 {
            let stale = r.with_extension("code.snap");
            assert!(
                !stale.exists(),
                "{}: the recipe is refused",
                stale.display()
            );
            continue;
        }
        accepted += 1;
        let name = filetest::name(&r);
        let generated = dir.join(format!("{name}.c"));
        std::fs::write(&generated, &out.stdout).expect("write");
        filetest::assert_snapshot_beside(&r, Some("code"), &common::region_text(&out.stdout));
        failures.extend(common::differs_from_original(
            &dir,
            &name,
            std::path::Path::new(&kernel),
            &generated,
        ));
    }
    assert!(accepted >= 10, "only {accepted} recipes accepted");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The shipped recipes (`recipes/KERNEL/*.poly`, each on
/// `recipes/KERNEL/KERNEL.c`) are accepted, and the program prints exactly
/// what the original prints.
#[test]
fn every_shipped_recipe_runs_and_prints_the_same_as_the_original() {
    let dir = common::scratch("shipped-recipes");
    let mut failures = Vec::new();
    let mut shipped = 0;
    let mut kernels: Vec<_> = std::fs::read_dir("recipes")
        .expect("recipes/")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir() && !p.ends_with("examples"))
        .collect();
    kernels.sort();
    for k in kernels {
        let name = filetest::name(&k);
        let kernel = k.join(format!("{name}.c"));
        let mut recipes: Vec<_> = std::fs::read_dir(&k)
            .expect("a recipe directory")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "poly"))
            .collect();
        recipes.sort();
        for r in recipes {
            let (kernel_arg, recipe_arg) = (kernel.to_string_lossy(), r.to_string_lossy());
            let out = common::polyc(&[&kernel_arg, "--recipe", &recipe_arg]);
            assert_eq!(out.status, 0, "{recipe_arg}: {}", out.stderr);
            shipped += 1;
            let stem = format!("{name}-{}", filetest::name(&r));
            let generated = dir.join(format!("{stem}.c"));
            std::fs::write(&generated, &out.stdout).expect("write");
            failures.extend(common::differs_from_original(
                &dir, &stem, &kernel, &generated,
            ));
        }
    }
    assert!(shipped >= 3, "only {shipped} shipped recipes");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `context(...)` narrows the parameters, and the dependences are computed
/// again under it: with `m = 0`, `A[i] = A[i + m]` carries nothing, so the
/// loop may be reversed; without it, it may not. A context that leaves no
/// parameter value is refused.
#[test]
fn context_narrows_the_dependences() {
    let src = "void f(int n, int m, double A[]) {\n#pragma scop\n\
               for (i = 0; i < n; i++)\n  A[i] = A[i + m] + 1;\n#pragma endscop\n}\n";
    let file = read_source("f.c", src.to_string()).expect("accepted");
    let scop = &file.scops[0];
    assert_eq!(scop.params, ["n", "m"]);
    let deps = dependences(scop, &DepOptions::default()).expect("deps");
    let run = |text: &str| {
        let recipe = parse_recipe(text, &[]).expect("parses");
        run_recipe(scop, &deps, Schedule::original(scop), &recipe)
    };
    assert!(run("reverse([0], 1);").is_err());
    let done = run("context([0, 0, 1, 0]);\nreverse([0], 1);")
        .unwrap_or_else(|_| panic!("legal once m = 0"));
    assert_eq!(done.schedule.to_text(&done.scop), "S0: [0, -i, 0]\n");
    assert!(run("context([0, 0, 1, 0]);\ncontext([0, 0, 1, -1]);").is_err());
    assert!(run("context([0, 1]);").is_err());
}
