//! Filetests for recipes: each `tests/recipes/*.poly` names its kernel on
//! its first line (`# kernel: gemm` for `tests/kernels/gemm.c`). polyc
//! applies it; the snapshot holds the exit status, the schedule it prints
//! (`--emit schedule-text`) and its diagnostics. Accepted recipes must give
//! a schedule that the legality check accepts again from scratch.

mod common;

use polyc::lang::c::read_source;
use polyc::lang::recipe::parse_recipe;
use polyc::recipe_run::run_recipe;
use polyc::scop::validity::first_violation;
use polyc::scop::{dependences, DepOptions, Schedule};

fn kernel_of(recipe: &str) -> String {
    let first = recipe.lines().next().unwrap_or_default();
    let name = first
        .strip_prefix("# kernel: ")
        .unwrap_or_else(|| panic!("first line must be `# kernel: NAME`, not {first:?}"));
    format!("tests/kernels/{}.c", name.trim())
}

#[test]
fn every_recipe_gives_its_snapshot() {
    insta::glob!("recipes/*.poly", |path| {
        let rel = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(path).expect("recipe");
        let kernel = kernel_of(&text);
        let out = common::polyc(&[&kernel, "--recipe", &rel, "--emit", "schedule-text"]);
        insta::assert_snapshot!(format!(
            "status {}\n--- stdout\n{}--- stderr\n{}",
            out.status, out.stdout, out.stderr
        ));
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
            assert_eq!(
                first_violation(scop, &done.schedule, &deps).expect("decided"),
                None,
                "{rel}"
            );
        }
    });
}
