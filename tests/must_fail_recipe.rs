//! Every rejection class of the recipe front end: the recipe
//! `tests/must_fail_recipe/NAME.poly` (with the `--set` arguments of
//! `NAME.set`, one `NAME=VALUE` a line, if there is one), given to the CLI
//! on a valid kernel: exit status 1, nothing on stdout, and the exact
//! diagnostic, snapshotted beside it in `NAME.snap`.

use crate::common;
use crate::common::filetest;

#[test]
fn every_must_fail_recipe_is_rejected_with_its_diagnostic() {
    filetest::assert_no_orphan_snapshots("must_fail_recipe", "poly");
    for path in filetest::inputs("must_fail_recipe", "poly") {
        let rel = path.to_string_lossy().into_owned();
        let mut args = vec![
            "tests/kernels/gemm.c".to_string(),
            "--recipe".to_string(),
            rel.clone(),
        ];
        if let Ok(sets) = std::fs::read_to_string(path.with_extension("set")) {
            for s in sets.lines().filter(|l| !l.trim().is_empty()) {
                args.push("--set".into());
                args.push(s.to_string());
            }
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = common::polyc(&args);
        assert_eq!(out.status, 1, "{rel} was not rejected:\n{}", out.stderr);
        assert_eq!(out.stdout, "", "{rel}: something on stdout");
        filetest::assert_snapshot_beside(&path, None, &out.stderr);
    }
}
