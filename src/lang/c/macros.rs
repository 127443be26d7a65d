//! Object-like macros whose integer value the file fixes for a region:
//! `#define N 16` before it. The front end keeps a macro used in a bound
//! as a parameter (`i < N` prints as written), and reads a fixed one as
//! its value where only a constant will do: a factor of a product
//! (`A[i * N + j]`), a divisor, a loop step (`i += BS`).
//!
//! A cheap line scan, not a preprocessor, and strict, since a wrong value
//! is a miscompile: a macro is fixed for a region when it is defined
//! exactly once in the file, outside every `#if`/`#ifdef`/`#ifndef` (so
//! no `-D` or earlier definition chooses another), never `#undef`ed,
//! after the last `#include` before the region (no header can redefine
//! it in between) and before the region, and its body is an integer
//! expression of literals and macros fixed the same way (`#define N2 (2 *
//! N)`, `#define _PB_N N`). Comments are blanked first (a `#define` in
//! a comment defines nothing). Anything else is not fixed, and stays a
//! parameter.

use std::collections::HashMap;

use super::parse::parse_expr;
use crate::syntax::c::{BinaryOp, Expr, ExprKind, UnaryOp};

/// One `#define NAME body` line: where it ends, the name and the body.
struct Definition<'a> {
    end: usize,
    name: &'a str,
    body: &'a str,
    /// Inside some `#if`, `#ifdef` or `#ifndef`.
    conditional: bool,
}

/// The macros fixed for a region: name → value.
#[derive(Clone, Debug, Default)]
pub struct FixedMacros {
    values: HashMap<String, i64>,
}

impl FixedMacros {
    /// The macros of `text` fixed for a region that starts at byte `start`.
    pub fn scan(text: &str, start: usize) -> FixedMacros {
        // A `#define` inside a comment defines nothing.
        let text = &without_comments(text);
        let mut definitions: Vec<Definition> = Vec::new();
        let mut unfixed: Vec<&str> = Vec::new();
        let mut depth = 0usize;
        let mut last_include = 0;
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            let end = offset + line.len();
            offset = end;
            let Some(directive) = line.trim_start().strip_prefix('#') else {
                continue;
            };
            let directive = directive.trim_start();
            let word_end = directive
                .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .unwrap_or(directive.len());
            let (word, rest) = directive.split_at(word_end);
            match word {
                "if" | "ifdef" | "ifndef" => depth += 1,
                "endif" => depth = depth.saturating_sub(1),
                "include" if end <= start => last_include = end,
                "undef" => unfixed.push(identifier(rest.trim_start())),
                "define" => {
                    let rest = rest.trim_start();
                    let name = identifier(rest);
                    let after = &rest[name.len()..];
                    // A function-like macro, or a body continued on the
                    // next line: not read.
                    let body = after.trim();
                    if after.starts_with('(') || body.ends_with('\\') {
                        unfixed.push(name);
                    } else {
                        definitions.push(Definition {
                            end,
                            name,
                            body,
                            conditional: depth > 0,
                        });
                    }
                }
                _ => {}
            }
        }
        let mut fixed = FixedMacros::default();
        for d in &definitions {
            let once = definitions.iter().filter(|e| e.name == d.name).count() == 1;
            let placed = d.end > last_include && d.end <= start;
            if d.name.is_empty() || d.conditional || !once || !placed || unfixed.contains(&d.name) {
                continue;
            }
            // Definitions are read in order: a body reads only earlier ones.
            if let Some(v) = parse_expr(d.body, 0).ok().and_then(|e| fixed.evaluate(&e)) {
                fixed.values.insert(d.name.to_string(), v);
            }
        }
        fixed
    }

    /// The value of the fixed macro `name`, if it is one.
    pub fn value(&self, name: &str) -> Option<i64> {
        self.values.get(name).copied()
    }

    /// An integer expression of literals and fixed macros, as C computes
    /// it (`/` and `%` truncate); `None` for anything else or on overflow.
    fn evaluate(&self, e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::Int(v, _) => Some(*v),
            ExprKind::Var(n) => self.value(n),
            ExprKind::Paren(x) | ExprKind::Unary(UnaryOp::Plus, x) => self.evaluate(x),
            ExprKind::Unary(UnaryOp::Neg, x) => self.evaluate(x)?.checked_neg(),
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (self.evaluate(a)?, self.evaluate(b)?);
                match op {
                    BinaryOp::Add => a.checked_add(b),
                    BinaryOp::Sub => a.checked_sub(b),
                    BinaryOp::Mul => a.checked_mul(b),
                    BinaryOp::Div => a.checked_div(b),
                    BinaryOp::Rem => a.checked_rem(b),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// `text` with every comment's characters made spaces, newlines kept (so
/// offsets stay): `/* … */`, and `// …` to the end of the line. Quotes
/// are skipped over, so that `"/*"` opens no comment.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while let Some(c) = chars.next() {
        match (c, chars.peek().copied()) {
            ('/', Some('*')) => {
                chars.next();
                out.push_str("  ");
                let mut last = ' ';
                for d in chars.by_ref() {
                    out.extend(std::iter::repeat_n(blank(d), d.len_utf8()));
                    if last == '*' && d == '/' {
                        break;
                    }
                    last = d;
                }
            }
            ('/', Some('/')) => {
                while let Some(&d) = chars.peek() {
                    if d == '\n' {
                        break;
                    }
                    chars.next();
                    out.extend(std::iter::repeat_n(' ', d.len_utf8()));
                }
                out.push(' ');
            }
            ('"' | '\'', _) => {
                out.push(c);
                while let Some(d) = chars.next() {
                    out.push(d);
                    if d == '\\' {
                        if let Some(e) = chars.next() {
                            out.push(e);
                        }
                    } else if d == c || d == '\n' {
                        break;
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// The identifier at the start of `s` (empty if none).
fn identifier(s: &str) -> &str {
    let end = s
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .unwrap_or(s.len());
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(text: &str) -> FixedMacros {
        FixedMacros::scan(text, text.find("REGION").unwrap_or(text.len()))
    }

    #[test]
    fn literals_and_expressions_of_earlier_macros_are_fixed() {
        let m = fixed(
            "#include <stdio.h>\n#define N 16 /* rows */\n#  define BS (N / 4) // a tile\n#define _PB_N N\n#define M -3\nREGION",
        );
        assert_eq!(m.value("N"), Some(16));
        assert_eq!(m.value("BS"), Some(4));
        assert_eq!(m.value("_PB_N"), Some(16));
        assert_eq!(m.value("M"), Some(-3));
    }

    #[test]
    fn a_macro_another_definition_could_choose_is_not_fixed() {
        let m = fixed(concat!(
            "#ifndef N\n#define N 16\n#endif\n",
            "#define T 4\n#define T 5\n",
            "#define U 2\n#undef U\n",
            "#define F(x) 3\n",
            "#define L 1 + \\\n 2\n",
            "#define H 7\n#include \"h.h\"\n",
            "#define V n\n",
            "/* A comment:\n#define C 3\n*/\n",
            "REGION\n#define AFTER 1\n",
        ));
        for name in ["N", "T", "U", "F", "L", "H", "V", "C", "AFTER"] {
            assert_eq!(m.value(name), None, "{name}");
        }
    }
}
