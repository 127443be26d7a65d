//! Every rejection class of the recipe front end: the recipe under
//! `tests/must_fail_recipe` (with the `--set` arguments of its `.set` file,
//! one `NAME=VALUE` a line, if any), given to the CLI on a valid kernel; the
//! exact diagnostic is snapshotted, exit status 1 and nothing on stdout.

use crate::common;

#[test]
fn every_must_fail_recipe_is_rejected_with_its_diagnostic() {
    insta::glob!("must_fail_recipe/*.poly", |path| {
        let rel = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned();
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
        insta::assert_snapshot!(out.stderr);
    });
}
