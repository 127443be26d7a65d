//! Every rejection class: the input `tests/must_fail/NAME.c`, exit status
//! 1, nothing on stdout, and the exact diagnostic, snapshotted beside it
//! in `NAME.snap`.

use crate::common;
use crate::common::filetest;

#[test]
fn every_must_fail_input_is_rejected_with_its_diagnostic() {
    filetest::assert_no_orphan_snapshots("must_fail", "c");
    for path in filetest::inputs("must_fail", "c") {
        let rel = path.to_string_lossy().into_owned();
        let out = common::polyc(&[&rel]);
        assert_eq!(out.status, 1, "{rel} was not rejected:\n{}", out.stderr);
        assert_eq!(out.stdout, "", "{rel}: something on stdout");
        filetest::assert_snapshot_beside(&path, None, &out.stderr);
    }
}
