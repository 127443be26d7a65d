//! What the file around a region declares, read from its text with cheap
//! scans (not a C parser): the macros its `#define` lines name, where the
//! top-level declaration that holds a region begins, and the identifiers
//! of a piece of C. The CUDA target ([`super::cuda`]) and the outlined
//! parallel regions ([`super::outline`]) put functions of their own before
//! that declaration and decide from these which names to pass them.

use std::collections::HashMap;

/// One `#define` line (continued lines joined).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Macro<'a> {
    pub name: &'a str,
    /// The byte where its line begins.
    pub at: usize,
    /// A function-like macro's parameter names; `None` for an object-like one.
    pub parameters: Option<Vec<&'a str>>,
    /// The replacement text (up to the end of the first line only, when
    /// the definition is continued with `\`: see [`Macro::names`]).
    replacement: Vec<&'a str>,
}

impl<'a> Macro<'a> {
    /// Its replacement text, continued lines joined by line breaks.
    pub fn replacement(&self) -> String {
        self.replacement.join("\n")
    }

    /// The identifiers its replacement names, its own parameters left out.
    pub fn names(&self) -> Vec<&'a str> {
        let params = self.parameters.as_deref().unwrap_or_default();
        self.replacement
            .iter()
            .flat_map(|l| identifiers(l))
            .filter(|w| !params.contains(w))
            .collect()
    }
}

/// Every `#define` of `text`, in order.
pub fn macros(text: &str) -> Vec<Macro<'_>> {
    let mut out = Vec::new();
    let mut lines = line_offsets(text).into_iter().peekable();
    while let Some((at, l)) = lines.next() {
        let Some(rest) = l
            .trim_start()
            .strip_prefix('#')
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix("define"))
        else {
            continue;
        };
        let rest = rest.trim_start();
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let (name, after) = rest.split_at(end);
        if name.is_empty() {
            continue;
        }
        let (parameters, first) = match after.strip_prefix('(') {
            Some(p) => {
                let close = p.find(')').unwrap_or(p.len());
                let names = identifiers(&p[..close]);
                (Some(names), p.get(close + 1..).unwrap_or(""))
            }
            None => (None, after),
        };
        let mut replacement = vec![first];
        let mut continued = l.trim_end().ends_with('\\');
        while continued {
            let Some((_, next)) = lines.next() else { break };
            replacement.push(next);
            continued = next.trim_end().ends_with('\\');
        }
        out.push(Macro {
            name,
            at,
            parameters,
            replacement,
        });
    }
    out
}

/// The names `text` removes with `#undef`.
pub fn undefined(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| {
            let rest = l
                .trim_start()
                .strip_prefix('#')?
                .trim_start()
                .strip_prefix("undef")?;
            identifiers(rest).first().copied()
        })
        .collect()
}

/// The names `text` defines with `#define`, each with the identifiers of
/// its replacement (none for a function-like macro). Macros are seen by
/// kernels as by the host, so they are never passed as parameters, but
/// the variables they name are (`#define _PB_N n`).
pub fn defined_macros(text: &str) -> HashMap<&str, Vec<&str>> {
    macros(text)
        .into_iter()
        .map(|m| {
            let names = match m.parameters {
                Some(_) => Vec::new(),
                None => m.names(),
            };
            (m.name, names)
        })
        .collect()
}

/// The C identifiers of `text` (words that do not start with a digit).
pub fn identifiers(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        })
        .collect()
}

/// Each line of `text` with the byte it begins at.
fn line_offsets(text: &str) -> Vec<(usize, &str)> {
    let mut at = 0;
    text.split_inclusive('\n')
        .map(|l| {
            let start = at;
            at += l.len();
            (start, l.trim_end_matches(['\n', '\r']))
        })
        .collect()
}

/// Where the top-level declaration that holds byte `at` begins: after the
/// last `;`, `}` or preprocessor line at brace depth 0 before it (comments
/// and literals skipped). Kernels go there, after every macro and type the
/// region's function can see.
pub fn declaration_start(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut start = 0;
    let mut k = 0;
    let mut line_start = true;
    while k < at.min(b.len()) {
        let c = b[k];
        match c {
            b'/' if b.get(k + 1) == Some(&b'/') => {
                while k < b.len() && b[k] != b'\n' {
                    k += 1;
                }
                continue;
            }
            b'/' if b.get(k + 1) == Some(&b'*') => {
                k += 2;
                while k + 1 < b.len() && !(b[k] == b'*' && b[k + 1] == b'/') {
                    k += 1;
                }
                k += 2;
                if depth == 0 {
                    start = k.min(at);
                }
                continue;
            }
            b'"' | b'\'' => {
                k += 1;
                while k < b.len() && b[k] != c {
                    if b[k] == b'\\' {
                        k += 1;
                    }
                    k += 1;
                }
            }
            b'#' if line_start && depth == 0 => {
                while k < b.len() && b[k] != b'\n' {
                    if b[k] == b'\\' {
                        k += 1;
                    }
                    k += 1;
                }
                start = (k + 1).min(at);
            }
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    start = k + 1;
                }
            }
            b';' if depth == 0 => start = k + 1,
            _ => {}
        }
        if k < b.len() {
            line_start = b[k] == b'\n' || (line_start && b[k].is_ascii_whitespace());
        }
        k += 1;
    }
    // Begin at the next line.
    match text[start.min(text.len())..].find('\n') {
        Some(nl) if start + nl < at => start + nl + 1,
        _ => start,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kernel_goes_before_the_function_that_holds_its_region() {
        let text = "#include <stdio.h>\n#define N 4\n/* a } in a comment */\nstatic int x = 1;\nstatic void f(int n)\n{\n  int i;\n#pragma scop\n  x;\n}\n";
        let at = text.find("#pragma scop").unwrap_or(0);
        let start = declaration_start(text, at);
        assert!(
            text[start..].starts_with("static void f"),
            "{:?}",
            &text[start..]
        );
    }

    #[test]
    fn function_like_macros_name_what_their_replacement_reads() {
        let text = "#define AT(i, j) A[i][j] + \\\n  B[j]\n#undef M\n";
        let m = macros(text);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].parameters, Some(vec!["i", "j"]));
        assert_eq!(m[0].names(), vec!["A", "B"]);
        assert_eq!(undefined(text), vec!["M"]);
    }

    #[test]
    fn macros_are_read_from_define_lines() {
        let m = defined_macros("#define N 4\n  # define M(x) x\n#define _PB_N n\nint N2;\n");
        assert_eq!(m.get("N"), Some(&vec![]));
        assert_eq!(m.get("M"), Some(&vec![]));
        assert_eq!(m.get("_PB_N"), Some(&vec!["n"]));
        assert!(!m.contains_key("N2"));
    }
}
