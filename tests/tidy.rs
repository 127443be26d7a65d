//! Tidy checks on the source tree itself (rust-analyzer's `tidy` style):
//! every import points down the layers of docs/architecture.md, no two
//! files of a module import each other, every `.rs` file starts with a
//! `//!` doc, a file of `src/` over 600 lines says why, every test file
//! is a module of the one test binary, and the directive table and
//! docs/recipe-language.md name the same directives.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use polyc::session::table::DIRECTIVES;

/// The layers, lowest first (docs/architecture.md, "Layers"). A module may
/// import from its own layer's module and from lower layers; modules of
/// one layer do not import each other.
const LAYERS: &[&[&str]] = &[
    &["support"],
    &["poly"],
    &["syntax"],
    &["scop"],
    &["lang", "apply"],
    &["emit", "auto"],
    &["session", "explain"],
    &["cli"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text of `path` without comments (`//` to the end of the line) and
/// without the contents of string literals, so that a path in a doc or a
/// message is not read as an import.
fn code_of(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = String::new();
    for line in text.lines() {
        let mut in_string = false;
        let mut prev = ' ';
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if !in_string && c == '/' && chars.peek() == Some(&'/') {
                break;
            }
            if c == '"' && prev != '\\' && prev != '\'' {
                in_string = !in_string;
            }
            if !in_string {
                out.push(c);
            }
            prev = c;
        }
        out.push('\n');
    }
    out
}

/// The top-level module a file of `src/` belongs to (`src/main.rs`: the
/// command line).
fn module_of(file: &Path) -> String {
    let rel = file.strip_prefix("src").expect("a file under src/");
    let first = rel
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    match first.trim_end_matches(".rs") {
        "main" => "cli".to_string(),
        m => m.to_string(),
    }
}

/// Every `crate::NAME` (or `polyc::NAME` in the binary) that `code` uses.
fn imported_modules(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let name: String = code[at + prefix.len()..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.insert(name);
        }
    }
    out
}

#[test]
fn every_import_points_down_the_layers() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    assert!(files.len() > 50, "src/ has {} files", files.len());
    let mut wrong = Vec::new();
    for file in &files {
        if file == Path::new("src/lib.rs") {
            continue;
        }
        let module = module_of(file);
        let Some(own) = layer_of(&module) else {
            wrong.push(format!(
                "{}: module `{module}` is in no layer",
                file.display()
            ));
            continue;
        };
        let code = code_of(file);
        let prefix = if file == Path::new("src/main.rs") {
            "polyc::"
        } else {
            "crate::"
        };
        for used in imported_modules(&code, prefix) {
            if used == module {
                continue;
            }
            match layer_of(&used) {
                Some(l) if l < own => {}
                Some(_) => wrong.push(format!(
                    "{}: `{module}` uses `{used}`, which is not in a lower layer",
                    file.display()
                )),
                None => wrong.push(format!("{}: `{used}` is in no layer", file.display())),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_two_files_of_a_module_import_each_other() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    // For each directory, which sibling files each file names through `super::`.
    let mut uses: BTreeMap<(PathBuf, String), BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let Some(dir) = file.parent() else { continue };
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if stem == "mod" || stem == "lib" || stem == "main" {
            continue;
        }
        let siblings = imported_modules(&code_of(file), "super::");
        uses.insert((dir.to_path_buf(), stem), siblings);
    }
    let mut mutual = Vec::new();
    for ((dir, a), used) in &uses {
        for b in used {
            let back = uses
                .get(&(dir.clone(), b.clone()))
                .is_some_and(|u| u.contains(a));
            if back && a < b {
                mutual.push(format!("{}: {a}.rs and {b}.rs", dir.display()));
            }
        }
    }
    assert!(
        mutual.is_empty(),
        "files that import each other:\n{}",
        mutual.join("\n")
    );
}

#[test]
fn every_rust_file_starts_with_a_module_doc() {
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches"] {
        if Path::new(dir).exists() {
            rust_files(Path::new(dir), &mut files);
        }
    }
    let missing: Vec<String> = files
        .iter()
        .filter(|f| {
            let text = fs::read_to_string(f).unwrap_or_default();
            !text
                .lines()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| l.starts_with("//!"))
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(missing.is_empty(), "no `//!` doc: {}", missing.join(", "));
}

#[test]
fn every_test_file_is_a_module_of_the_test_binary() {
    let main = fs::read_to_string("tests/main.rs").expect("tests/main.rs");
    let declared: BTreeSet<String> = main
        .lines()
        .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
        .map(str::to_string)
        .collect();
    let missing: Vec<String> = fs::read_dir("tests")
        .expect("tests/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .filter_map(|p| Some(p.file_stem()?.to_string_lossy().into_owned()))
        .filter(|m| m != "main" && !declared.contains(m))
        .collect();
    assert!(
        missing.is_empty(),
        "not declared in tests/main.rs, so never run: {missing:?}"
    );
}

/// The most lines a file of `src/` holds before its tests without saying
/// why in a `//! Length:` paragraph of its module doc.
const LONG_FILE: usize = 600;

#[test]
fn a_long_file_says_why_in_its_module_doc() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let unexplained: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let text = fs::read_to_string(f).unwrap_or_default();
            let code = text.split("\n#[cfg(test)]").next().unwrap_or("");
            let n = code.lines().count();
            let explained = text.lines().any(|l| l.starts_with("//! Length:"));
            (n > LONG_FILE && !explained).then(|| format!("{} ({n} lines)", f.display()))
        })
        .collect();
    assert!(
        unexplained.is_empty(),
        "over {LONG_FILE} lines without a `//! Length:` reason: {}",
        unexplained.join(", ")
    );
}

/// The directive names in docs/recipe-language.md: the backquoted names
/// that open a call (`` `tile(`` ) or stand alone (`` `fission` ``) in
/// the first column of the directive table, and those of the "not
/// implemented yet" list.
fn documented_directives() -> BTreeSet<String> {
    let docs = fs::read_to_string("docs/recipe-language.md").expect("docs/recipe-language.md");
    let section = docs
        .split("\n## Directives")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("a Directives section");
    let mut names = BTreeSet::new();
    // The "Not implemented yet:" paragraph runs to the next blank line.
    let mut in_not_yet = false;
    for line in section.lines() {
        let first_cell = if let Some(rest) = line.strip_prefix("| ") {
            rest.split(" | ").next().unwrap_or("")
        } else if line.starts_with("Not implemented yet:") || in_not_yet {
            in_not_yet = !line.trim().is_empty();
            line
        } else {
            continue;
        };
        for piece in first_cell.split('`').skip(1).step_by(2) {
            let name: String = piece
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // The paragraph's other backquoted text: the exit message.
            if !name.is_empty() && name != "not" {
                names.insert(name);
            }
        }
    }
    names
}

#[test]
fn the_directive_table_and_the_docs_name_the_same_directives() {
    let table: BTreeSet<String> = DIRECTIVES
        .iter()
        .flat_map(|d| std::iter::once(d.name).chain(d.aliases.iter().copied()))
        .map(str::to_string)
        .collect();
    let docs = documented_directives();
    let undocumented: Vec<&String> = table.difference(&docs).collect();
    let unknown: Vec<&String> = docs.difference(&table).collect();
    assert!(
        undocumented.is_empty() && unknown.is_empty(),
        "in the table, not in docs/recipe-language.md: {undocumented:?}; \
         in the docs, not in the table: {unknown:?}"
    );
}
