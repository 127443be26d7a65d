//! Parallel constructs moved into functions of their own (`--target
//! openmp`), so that the C compiler knows that the arrays do not overlap.
//!
//! gcc compiles the body of `#pragma omp parallel` as a function that
//! reads every variable through one structure: it no longer knows that
//! `p` and `q` are distinct arrays, and a recurrence that stores `p[i][j]`
//! loads it back from memory (adi: 1.83 s against 1.47 s for the same loops
//! with the arrays as `restrict` parameters, docs/performance.md). polyc's
//! dependences already assume that distinct arrays do not overlap, so a
//! top-level parallel construct is printed as
//!
//! ```c
//! static inline __attribute__((always_inline)) void polyc_parallel_1_0(int n, double (*__restrict A)[N]) { … }
//! …
//! _Static_assert(__builtin_types_compatible_p(__typeof__(&(A)[0]), double (*)[N]), "…");
//! #pragma omp parallel
//! polyc_parallel_1_0(n, A);
//! ```
//!
//! with the function before the one that holds the region; it holds the
//! construct's loops with its `omp for` orphaned and each thread's
//! variables declared inside. It is inlined into gcc's function of the
//! `parallel` construct, which keeps what `__restrict` says (out of line,
//! gcc warns about the unguarded full tiles of branches that never run).
//!
//! The names and types come from cheap scans of the file
//! ([`crate::lang::c::decls`], [`super::file_scope`]), so nothing is
//! trusted that the compiler does not check: every variable the construct
//! reads is passed by name, so it binds to what it bound to in place (a
//! global of the same name cannot capture it), and each parameter's type is
//! checked against the variable's at the call (`_Static_assert`), so a
//! wrong scan is a compile error, never other code. The one exception is a
//! global, which the function names itself (distinct globals need no
//! `restrict`, and as pointers they cost 3mm a fifth of its time): only a
//! name that the enclosing function's text before the region never
//! mentions, that no macro names or pastes, can be one. A construct is
//! left in place where anything is unsure: a name that is neither a
//! variable with declarations of one type (none `const` or `volatile`), a
//! macro defined before the function, nor a call of a function; a scalar
//! other than a global that the region writes; an inner extent that is not
//! a constant; `sizeof`, `&`, `.` or `->`; an unrolled parallel loop.

use std::collections::HashSet;
use std::fmt::Write;
use std::ops::Range;

use super::file_scope::{declaration_start, macros, undefined, Macro};
use crate::lang::c::decls::Declarations;
use crate::scop::{AccessKind, Scop};

/// A parallel construct printed outside every other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParallelConstruct {
    /// Its bytes in the printed region: its pragma line to its loop's end.
    pub range: Range<usize>,
    /// The construct the loop keeps inside a function: `for` and its
    /// clauses for a `parallel for`, `None` for a wavefront's region
    /// (whose `omp for`s are inside already).
    pub orphan: Option<String>,
    /// The variables each thread has its own copy of (declared in the
    /// function).
    pub private: Vec<String>,
    /// The loop variables the printed region declares around it (`int`s).
    pub around: Vec<String>,
}

/// What the file around one region declares.
pub struct FileScope<'a> {
    text: &'a str,
    decls: Declarations,
    macros: Vec<Macro<'a>>,
    undefined: Vec<&'a str>,
    /// Where the functions go: the start of the declaration that holds
    /// the region.
    insert_at: usize,
    /// The region's `#pragma scop` line.
    region_at: usize,
}

impl<'a> FileScope<'a> {
    pub fn new(text: &'a str, region_at: usize) -> Self {
        FileScope {
            text,
            decls: Declarations::scan(text),
            macros: macros(text),
            undefined: undefined(text),
            insert_at: declaration_start(text, region_at),
            region_at,
        }
    }

    /// Where the outlined functions go in the file.
    pub fn insert_at(&self) -> usize {
        self.insert_at
    }
}

/// A region's printed body with its constructs outlined, and the functions.
pub struct Outlined {
    pub body: String,
    pub functions: String,
}

/// `body` (printed region `scop`) with each of `constructs` that can be
/// outlined replaced by its call.
pub fn outline(
    scope: &FileScope,
    scop: &Scop,
    body: &str,
    constructs: &[ParallelConstruct],
) -> Outlined {
    let mut out = String::new();
    let mut functions = String::new();
    let mut at = 0;
    let mut k = 0;
    for c in constructs {
        let name = format!("polyc_parallel_{}_{k}", scop.region);
        if scope.text.contains(&name) {
            continue;
        }
        if let Ok((call, function)) = outlined(scope, scop, body, c, &name) {
            out.push_str(&body[at..c.range.start]);
            out.push_str(&call);
            functions.push_str(&function);
            at = c.range.end;
            k += 1;
        }
    }
    out.push_str(&body[at..]);
    Outlined {
        body: out,
        functions,
    }
}

/// C's keywords and the words of its basic types.
const KEYWORDS: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "static",
    "switch",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Bool",
    "__restrict",
];

/// Words after which an array may not be a pointer, or that name what
/// polyc does not type.
const REFUSED: &[&str] = &[
    "sizeof",
    "_Alignof",
    "alignof",
    "typeof",
    "__typeof__",
    "struct",
    "union",
    "enum",
    "typedef",
    "_Generic",
];

/// A variable the function receives or declares, with its C type.
struct Typed {
    name: String,
    element_type: String,
    /// Extents after the first (an array's row type); empty for a scalar.
    inner: Vec<String>,
    array: bool,
}

impl Typed {
    /// The declarator as a parameter (`double (*__restrict A)[N]`) or local.
    fn declaration(&self) -> String {
        let rows: String = self.inner.iter().map(|e| format!("[{e}]")).collect();
        match (self.array, self.inner.is_empty()) {
            (false, _) => format!("{} {}", self.element_type, self.name),
            (true, true) => format!("{} *__restrict {}", self.element_type, self.name),
            (true, false) => format!("{} (*__restrict {}){rows}", self.element_type, self.name),
        }
    }

    /// The call's check that the variable has that type.
    fn check(&self, function: &str) -> String {
        let rows: String = self.inner.iter().map(|e| format!("[{e}]")).collect();
        let (value, ty) = match (self.array, self.inner.is_empty()) {
            (false, _) => (self.name.clone(), self.element_type.clone()),
            (true, true) => (
                format!("&({})[0]", self.name),
                format!("{} *", self.element_type),
            ),
            (true, false) => (
                format!("&({})[0]", self.name),
                format!("{} (*){rows}", self.element_type),
            ),
        };
        format!(
            "_Static_assert(__builtin_types_compatible_p(__typeof__({value}), {ty}), \"polyc: `{}` is not the {ty} that {function} takes\");",
            self.name
        )
    }
}

/// The call and the function of construct `c`, or why it stays.
fn outlined(
    scope: &FileScope,
    scop: &Scop,
    body: &str,
    c: &ParallelConstruct,
    name: &str,
) -> Result<(String, String), String> {
    let unread = || "a member, an address or a literal".to_string();
    let text = body.get(c.range.clone()).unwrap_or_default();
    let (pragma, rest) = text.split_once('\n').unwrap_or((text, ""));
    let indent = &pragma[..pragma.len() - pragma.trim_start().len()];
    let inside = words(rest).ok_or_else(unread)?;
    let declared_inside: HashSet<&str> = declared(&inside);
    if !pragma.trim_start().starts_with("#pragma omp parallel") {
        return Err("its range is not a construct".into());
    }
    if let Some(n) = c
        .around
        .iter()
        .find(|n| declared_inside.contains(n.as_str()))
    {
        return Err(format!("`{n}` is declared inside and around it"));
    }
    // Names the printed region declares (its loops); `None` when its
    // text is not read, and then no name is taken for a global.
    let printed_declared: Option<HashSet<&str>> = words(body).map(|w| declared(&w));
    let mut params: Vec<Typed> = Vec::new();
    let mut locals: Vec<Typed> = Vec::new();
    let mut seen: HashSet<(String, bool)> = HashSet::new();
    let mut pending: Vec<(String, bool)> = inside
        .iter()
        .filter(|w| !KEYWORDS.contains(&w.name) && !declared_inside.contains(w.name))
        .map(|w| (w.name.to_string(), w.call))
        .collect();
    pending.reverse();
    while let Some((word, call)) = pending.pop() {
        if !seen.insert((word.clone(), call)) {
            continue;
        }
        if REFUSED.contains(&word.as_str()) {
            return Err(format!("`{word}`"));
        }
        let unsure =
            || format!("the macro `{word}` is defined after the function's place or undefined");
        if let Some(m) = scope.macro_named(&word).ok_or_else(unsure)? {
            // A macro reads the variables and calls the functions its
            // replacement names.
            let replacement = m.replacement();
            let params = m.parameters.as_deref().unwrap_or_default();
            let mut names: Vec<(String, bool)> = words(&replacement)
                .ok_or_else(unread)?
                .iter()
                .filter(|w| !params.contains(&w.name) && !KEYWORDS.contains(&w.name))
                .map(|w| (w.name.to_string(), w.call))
                .collect();
            names.reverse();
            pending.extend(names);
            continue;
        }
        if call {
            // A function: never a variable the file declares.
            if scope.decls.named(&word).next().is_some() {
                return Err(format!("the called `{word}` is declared as a variable"));
            }
            continue;
        }
        if !c.private.contains(&word)
            && !c.around.contains(&word)
            && printed_declared
                .as_ref()
                .is_some_and(|d| !d.contains(word.as_str()))
            && scope.bound_at_file_scope(&word)
        {
            // A global: the function names it as the region does.
            continue;
        }
        let typed = if c.around.contains(&word) {
            // A loop of the printed region around the construct.
            Typed {
                name: word.clone(),
                element_type: "int".into(),
                inner: Vec::new(),
                array: false,
            }
        } else {
            scope
                .typed(scop, &word)
                .ok_or_else(|| format!("no one type of `{word}`"))?
        };
        if c.private.contains(&word) {
            locals.push(typed);
        } else {
            if !typed.array && written(scop, &word) {
                return Err(format!("the region writes the scalar `{word}`"));
            }
            params.push(typed);
        }
    }
    let mut function = format!("\nstatic inline __attribute__((always_inline)) void {name}(");
    if params.is_empty() {
        function.push_str("void");
    } else {
        let list: Vec<String> = params.iter().map(Typed::declaration).collect();
        function.push_str(&list.join(", "));
    }
    function.push_str(")\n{\n");
    for l in &locals {
        let _ = writeln!(function, "  {};", l.declaration());
    }
    if let Some(orphan) = &c.orphan {
        let _ = writeln!(function, "  #pragma omp {orphan}");
    }
    for line in rest.lines() {
        let line = line.strip_prefix(indent).unwrap_or(line);
        let _ = writeln!(function, "  {line}");
    }
    function.push_str("}\n");
    let mut call = String::new();
    for t in params.iter().chain(&locals) {
        let _ = writeln!(call, "{indent}{}", t.check(name));
    }
    let args: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    let _ = writeln!(call, "{indent}#pragma omp parallel");
    let _ = writeln!(call, "{indent}{name}({});", args.join(", "));
    Ok((call, function))
}

impl FileScope<'_> {
    /// The macro `word` names where the function goes: `Some(None)` for
    /// none, `None` when that is unsure (defined only between the
    /// function and the region, or undefined somewhere).
    fn macro_named(&self, word: &str) -> Option<Option<&Macro<'_>>> {
        let defs: Vec<&Macro> = self.macros.iter().filter(|m| m.name == word).collect();
        if defs.is_empty() {
            return Some(None);
        }
        let late = defs
            .iter()
            .any(|m| m.at >= self.insert_at && m.at < self.region_at);
        if late || self.undefined.contains(&word) {
            return None;
        }
        Some(defs.into_iter().find(|m| m.at < self.insert_at))
    }

    /// Whether `word` names in the region what it names where the
    /// functions go (a global, or whatever else the file declares before
    /// the function), so that a function can name it itself: the function's
    /// text before the region (its parameters, its declarations, its
    /// comments) never names it, nor any macro's replacement, no macro
    /// pastes tokens (`##`), and no `#include` is read inside the function.
    /// A cheap check that errs towards passing the name as a parameter.
    fn bound_at_file_scope(&self, word: &str) -> bool {
        let function = self
            .text
            .get(self.insert_at..self.region_at)
            .unwrap_or_default();
        let included = function.lines().any(|l| {
            l.trim_start()
                .strip_prefix('#')
                .is_some_and(|r| r.trim_start().starts_with("include"))
        });
        !included
            && !super::file_scope::identifiers(function).contains(&word)
            && self.macros.iter().all(|m| {
                let replacement = m.replacement();
                !replacement.contains("##")
                    && !super::file_scope::identifiers(&replacement).contains(&word)
            })
    }

    /// Variable `word`'s type: the region's array (or scalar) of that name,
    /// else its declaration before the region; `None` when there is none,
    /// when the file declares the name with different types, or when an
    /// inner extent is not a constant.
    fn typed(&self, scop: &Scop, word: &str) -> Option<Typed> {
        let (element_type, extents) = match scop.arrays.iter().find(|a| a.name == word) {
            Some(a) => (a.element_type.clone()?, a.extents.clone()?),
            None => {
                let d = self.decls.lookup(word, self.region_at)?;
                (d.element_type.clone(), d.extents.clone())
            }
        };
        let same = self.decls.named(word).all(|d| {
            d.element_type == element_type
                && d.extents.len() == extents.len()
                && !self.qualified(d.offset)
        });
        if !same {
            return None;
        }
        let inner = extents.get(1..).unwrap_or_default().to_vec();
        if !inner.iter().all(|e| self.constant(e)) {
            return None;
        }
        Some(Typed {
            name: word.to_string(),
            element_type,
            inner,
            array: !extents.is_empty(),
        })
    }

    /// Whether the declaration of the name at byte `at` may be `const` or
    /// `volatile` (the scan reads neither): the words since the last `;`,
    /// `{`, `}` or `(` before it name one.
    fn qualified(&self, at: usize) -> bool {
        let before = self.text.get(..at).unwrap_or_default();
        let start = before.rfind([';', '{', '}', '(']).map_or(0, |k| k + 1);
        super::file_scope::identifiers(&before[start..])
            .iter()
            .any(|w| matches!(*w, "const" | "volatile"))
    }

    /// Whether C expression `e` names only macros defined before the
    /// function whose replacements name no variable.
    fn constant(&self, e: &str) -> bool {
        let mut pending: Vec<&str> = super::file_scope::identifiers(e);
        let mut seen = HashSet::new();
        while let Some(w) = pending.pop() {
            if !seen.insert(w) {
                continue;
            }
            match self.macro_named(w) {
                Some(Some(m)) if m.parameters.is_none() => pending.extend(m.names()),
                _ => return false,
            }
        }
        true
    }
}

/// Whether a statement of `scop` writes the scalar `name`.
fn written(scop: &Scop, name: &str) -> bool {
    scop.statements.iter().any(|s| {
        s.accesses
            .iter()
            .any(|a| a.array == name && a.kind == AccessKind::Write)
    })
}

/// An identifier of printed C and whether a call's `(` follows it.
struct Word<'a> {
    name: &'a str,
    call: bool,
    /// Whether it follows a word of a basic type (`int c3`).
    after_type: bool,
}

/// The names the words declare (`int c3`).
fn declared<'a>(words: &[Word<'a>]) -> HashSet<&'a str> {
    words
        .iter()
        .filter(|w| w.after_type && !KEYWORDS.contains(&w.name))
        .map(|w| w.name)
        .collect()
}

/// Where the number that begins at `k` ends: digits, letters (a hex
/// number's, a suffix), points, and the sign of an exponent (`e` in a
/// decimal number, `p` in a hex one).
fn number_end(b: &[u8], mut k: usize) -> usize {
    let hex = b[k] == b'0' && matches!(b.get(k + 1), Some(b'x' | b'X'));
    let exponent: &[u8] = if hex { b"pP" } else { b"eE" };
    while k < b.len() {
        let sign = matches!(b[k], b'+' | b'-') && k > 0 && exponent.contains(&b[k - 1]);
        if !(b[k].is_ascii_alphanumeric() || b[k] == b'.' || sign) {
            break;
        }
        k += 1;
    }
    k
}

/// The identifiers of printed C `text`, pragma lines left out; `None` when
/// it holds `.` or `->` (a member), `&` (an address), or a literal.
fn words(text: &str) -> Option<Vec<Word<'_>>> {
    let mut out: Vec<Word> = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        let b = line.as_bytes();
        // Where the line's text starts: a word there is its first.
        let lead = line.len() - line.trim_start().len();
        let mut k = 0;
        while k < b.len() {
            let c = b[k];
            if c.is_ascii_alphabetic() || c == b'_' {
                let s = k;
                while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
                    k += 1;
                }
                let mut n = k;
                while n < b.len() && b[n].is_ascii_whitespace() {
                    n += 1;
                }
                let after_type = out.last().is_some_and(|w: &Word| {
                    matches!(
                        w.name,
                        "int" | "long" | "short" | "char" | "unsigned" | "double" | "float"
                    )
                }) && line[..s]
                    .trim_end()
                    .ends_with(|ch: char| ch.is_ascii_alphanumeric());
                // A statement's label (`update: C[i][j] = …`) names no
                // variable; it moves with its statement.
                let label = s == lead && b.get(n) == Some(&b':') && b.get(n + 1) != Some(&b':');
                if !label {
                    out.push(Word {
                        name: &line[s..k],
                        call: b.get(n) == Some(&b'('),
                        after_type,
                    });
                }
            } else if c.is_ascii_digit()
                || (c == b'.' && b.get(k + 1).is_some_and(u8::is_ascii_digit))
            {
                k = number_end(b, k);
            } else {
                let next = b.get(k + 1).copied();
                let address = c == b'&' && next != Some(b'&') && (k == 0 || b[k - 1] != b'&');
                if c == b'.'
                    || (c == b'-' && next == Some(b'>'))
                    || address
                    || c == b'"'
                    || c == b'\''
                {
                    return None;
                }
                k += 1;
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Option<Vec<(&str, bool, bool)>> {
        words(text).map(|w| w.iter().map(|w| (w.name, w.call, w.after_type)).collect())
    }

    #[test]
    fn words_are_the_identifiers_with_calls_and_declarations() {
        let w = names("for (int c3 = 0; c3 < polyc_min(n, 2); c3++)\n  S: A[c3] = 1.5e-3 * x;\n  #pragma omp simd private(q)\n");
        assert_eq!(
            w,
            Some(vec![
                ("for", true, false),
                ("int", false, false),
                ("c3", false, true),
                ("c3", false, false),
                ("polyc_min", true, false),
                ("n", false, false),
                ("c3", false, false),
                ("A", false, false),
                ("c3", false, false),
                ("x", false, false),
            ])
        );
    }

    #[test]
    fn a_number_ends_where_its_exponent_does() {
        // `0x1e+x` is a hex number plus `x`: `e` is a digit there.
        assert_eq!(names("y = 0x1e+x;").map(|w| w.len()), Some(2));
        assert_eq!(names("y = 1e+5 + x;").map(|w| w.len()), Some(2));
        assert_eq!(names("y = 0x1p-3 + x;").map(|w| w.len()), Some(2));
        assert_eq!(names("y = .5f + x;").map(|w| w.len()), Some(2));
    }

    #[test]
    fn members_addresses_and_literals_are_not_read() {
        assert!(names("s.x = 1;").is_none());
        assert!(names("p->x = 1;").is_none());
        assert!(names("f(&x);").is_none());
        assert!(names("f(\"x\");").is_none());
        assert!(names("if (a && b) x = 1;").is_some());
    }
}
