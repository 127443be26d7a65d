//! Filetests keep their parts together: the input `tests/DIR/NAME.EXT`
//! and its expectation, the insta snapshot `tests/DIR/NAME.snap` beside it
//! (`NAME.LABEL.snap` for a second one, such as a recipe's generated
//! code). A case is read, reviewed and renamed as one group of files with
//! one stem, the way Cranelift keeps a filetest's input and expectation in
//! one place. `INSTA_UPDATE=always cargo test` writes the snapshots there.

use std::path::{Path, PathBuf};

/// The inputs of one filetest folder, `tests/DIR/*.EXT`, sorted. A missing
/// or empty folder is a failure: a test over no input proves nothing.
pub fn inputs(dir: &str, ext: &str) -> Vec<PathBuf> {
    let folder = Path::new("tests").join(dir);
    let entries =
        std::fs::read_dir(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
    let mut v: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    assert!(!v.is_empty(), "{}: no .{ext} file", folder.display());
    v.sort();
    v
}

/// The case name of a filetest input: its file name without the extension.
pub fn name(input: &Path) -> String {
    input
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// The kernel a recipe filetest names on its first line: `# kernel: gemm`
/// for `tests/kernels/gemm.c`.
pub fn kernel_of_recipe(recipe: &str) -> String {
    let first = recipe.lines().next().unwrap_or_default();
    let name = first
        .strip_prefix("# kernel: ")
        .unwrap_or_else(|| panic!("first line must be `# kernel: NAME`, not {first:?}"));
    format!("tests/kernels/{}.c", name.trim())
}

/// Check `actual` against the snapshot beside `input`: `NAME.snap`, or
/// `NAME.LABEL.snap` with a label.
pub fn assert_snapshot_beside(input: &Path, label: Option<&str>, actual: &str) {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join(input.parent().unwrap_or(input));
    let snapshot = match label {
        Some(label) => format!("{}.{label}", name(input)),
        None => name(input),
    };
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(folder);
    settings.set_prepend_module_to_snapshot(false);
    settings.set_input_file(input);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(snapshot.as_str(), actual));
}

/// Every snapshot in `tests/DIR` belongs to an input there: a case that is
/// renamed or removed leaves no expectation behind that nothing checks.
pub fn assert_no_orphan_snapshots(dir: &str, ext: &str) {
    let folder = Path::new("tests").join(dir);
    let entries =
        std::fs::read_dir(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
    let mut orphans = Vec::new();
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        let file = path.file_name().unwrap_or_default().to_string_lossy();
        let Some(stem) = file.strip_suffix(".snap") else {
            continue;
        };
        let case = stem.split('.').next().unwrap_or(stem);
        if !folder.join(format!("{case}.{ext}")).exists() {
            orphans.push(path.display().to_string());
        }
    }
    orphans.sort();
    assert!(
        orphans.is_empty(),
        "snapshots with no input beside them:\n{}",
        orphans.join("\n")
    );
}
