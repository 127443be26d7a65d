//! Every recipe example in the documentation runs as shown (issue 13,
//! item 22). A fenced block whose info string starts with `poly` (a recipe)
//! or `rhai` (a script) is an example; its other words say how to run it:
//!
//! * `kernel=PATH` (required): the C file it runs on, from the repository root;
//! * `must-fail`: polyc must reject it (exit 1, a diagnostic);
//! * `no-run`: accepted, but the output is not compiled and run (a kernel
//!   without `main`).
//!
//! An accepted example's output is compiled (`gcc -O3 -fopenmp -Wall -Wextra
//! -Werror`) and run, and must print what the original prints. An unmarked
//! block (no info string) holding a directive call is a failure: mark it.

use crate::common;

use std::path::{Path, PathBuf};

/// One fenced example: where it is, how to run it, its text.
struct Example {
    doc: PathBuf,
    line: usize,
    language: String,
    kernel: Option<String>,
    must_fail: bool,
    no_run: bool,
    body: String,
}

impl Example {
    fn place(&self) -> String {
        format!("{}:{}", self.doc.display(), self.line)
    }
}

/// The Markdown files whose examples are checked: `docs/*.md` and the README.
fn documents() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir("docs")
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .collect()
        })
        .expect("docs/");
    docs.sort();
    docs.push(PathBuf::from("README.md"));
    docs
}

/// Every fenced block of `text` (`doc` names it in messages): its info string
/// and its lines.
fn fenced_blocks(doc: &Path, text: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let Some(info) = line.trim_start().strip_prefix("```") else {
            continue;
        };
        let mut body = String::new();
        for (_, l) in lines.by_ref() {
            if l.trim_start().starts_with("```") {
                break;
            }
            body.push_str(l);
            body.push('\n');
        }
        let mut words = info.split_whitespace();
        let language = words.next().unwrap_or("").to_string();
        let mut example = Example {
            doc: doc.to_path_buf(),
            line: n + 1,
            language,
            kernel: None,
            must_fail: false,
            no_run: false,
            body,
        };
        for w in words {
            if let Some(k) = w.strip_prefix("kernel=") {
                example.kernel = Some(k.to_string());
            } else if w == "must-fail" {
                example.must_fail = true;
            } else if w == "no-run" {
                example.no_run = true;
            }
        }
        out.push(example);
    }
    out
}

/// Does this line call a directive, like `tile([0,1,0], 2, 2, 32);`?
fn looks_like_a_call(line: &str) -> bool {
    let l = line.trim();
    let name_len = l
        .find('(')
        .filter(|&i| i > 0 && l[..i].chars().all(|c| c.is_ascii_lowercase() || c == '_'));
    name_len.is_some() && (l.ends_with(");") || l.contains(");  "))
}

fn check(ex: &Example, k: usize) -> Result<(), String> {
    let Some(kernel) = &ex.kernel else {
        return Err(format!(
            "{}: a `{}` example without `kernel=PATH` in its info string",
            ex.place(),
            ex.language
        ));
    };
    let dir = common::scratch(&format!("docs-example-{k}"));
    let recipe = dir.join(format!("example.{}", ex.language));
    std::fs::write(&recipe, &ex.body).map_err(|e| format!("{}: {e}", ex.place()))?;
    let recipe = recipe.to_string_lossy().into_owned();
    let out = common::polyc(&[kernel, "--recipe", &recipe]);
    if ex.must_fail {
        if out.status != 1 || out.stderr.is_empty() || !out.stdout.is_empty() {
            return Err(format!(
                "{}: a must-fail example exited {} (stderr: {})",
                ex.place(),
                out.status,
                out.stderr
            ));
        }
        return Ok(());
    }
    if out.status != 0 {
        return Err(format!(
            "{}: polyc {kernel} refused the example (exit {}):\n{}",
            ex.place(),
            out.status,
            out.stderr
        ));
    }
    if ex.no_run {
        return Ok(());
    }
    let generated = dir.join("generated.c");
    std::fs::write(&generated, &out.stdout).map_err(|e| format!("{}: {e}", ex.place()))?;
    match common::differs_from_original(&dir, "example", Path::new(kernel), &generated) {
        Some(e) => Err(format!("{}: {e}", ex.place())),
        None => Ok(()),
    }
}

#[test]
fn every_recipe_example_in_the_docs_runs_as_shown() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).expect("read a doc");
        for ex in fenced_blocks(&doc, &text) {
            match ex.language.as_str() {
                "poly" | "rhai" => {
                    checked += 1;
                    if let Err(e) = check(&ex, checked) {
                        failures.push(e);
                    }
                }
                "" => {
                    if let Some(l) = ex.body.lines().find(|l| looks_like_a_call(l)) {
                        failures.push(format!(
                            "{}: an unmarked block with a directive call (`{}`): mark it \
                             ```poly kernel=PATH (or ```text if it is not a recipe)",
                            ex.place(),
                            l.trim()
                        ));
                    }
                }
                _ => {}
            }
        }
    }
    assert!(checked >= 5, "only {checked} examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn info_strings_are_read() {
    let text = "x\n```poly kernel=a.c must-fail\nfuse([0]);\n```\n```\nplain\n```\n";
    let blocks = fenced_blocks(Path::new("t.md"), text);
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0].language, "poly");
    assert_eq!(blocks[0].kernel.as_deref(), Some("a.c"));
    assert!(blocks[0].must_fail && !blocks[0].no_run);
    assert_eq!(blocks[0].body, "fuse([0]);\n");
    assert_eq!(blocks[0].line, 2);
    assert_eq!(blocks[1].language, "");
    assert!(looks_like_a_call("tile([0,1,0], 2, 2, T);"));
    assert!(!looks_like_a_call("recipe    = stmt* ;"));
    assert!(!looks_like_a_call(
        "cargo run --release -- recipes/gemm/gemm.c"
    ));
}
