//! `--emit scop` of every kernel under `tests/kernels`, snapshotted.

use crate::common;

#[test]
fn every_kernel_is_accepted_and_its_model_snapshotted() {
    let kernels = common::kernels();
    assert!(kernels.len() >= 25, "expected at least 25 kernels");
    for k in kernels {
        let path = k.to_string_lossy().into_owned();
        let out = common::polyc(&[&path, "--emit", "scop"]);
        assert_eq!(out.status, 0, "{path} rejected:\n{}", out.stderr);
        assert_eq!(out.stderr, "", "{path}: unexpected stderr");
        let name = k
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        insta::assert_snapshot!(format!("scop_{name}"), out.stdout);
    }
}

#[test]
fn original_schedules_of_a_reverse_loop_count_down() {
    let out = common::polyc(&["tests/kernels/trisolv.c", "--emit", "schedule-text"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    insta::assert_snapshot!(out.stdout);
}
