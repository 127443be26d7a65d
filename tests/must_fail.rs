//! Every rejection class: the input under `tests/must_fail`, the exact
//! diagnostic snapshotted, exit status 1 and nothing on stdout.

use crate::common;

#[test]
fn every_must_fail_input_is_rejected_with_its_diagnostic() {
    insta::glob!("must_fail/*.c", |path| {
        let rel = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned();
        let out = common::polyc(&[&rel]);
        assert_eq!(out.status, 1, "{rel} was not rejected:\n{}", out.stderr);
        assert_eq!(out.stdout, "", "{rel}: something on stdout");
        insta::assert_snapshot!(out.stderr);
    });
}
