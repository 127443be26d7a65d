//! Array and scalar declarations visible outside the scop regions.
//!
//! A cheap token scan, not a C parser: it recognises `TYPE name[E1][E2]`
//! (globals, locals and function parameters, several declarators after one
//! type) and PolyBench's `TYPE POLYBENCH_2D(name, E1, E2, e1, e2)`. It only
//! informs the model (extents, element type); nothing depends on it for
//! correctness.

/// One declaration: where it is, its element type and its extents as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    pub name: String,
    pub offset: usize,
    pub element_type: String,
    pub extents: Vec<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Declarations {
    decls: Vec<Declaration>,
}

const TYPES: &[&str] = &[
    "double",
    "float",
    "int",
    "long",
    "char",
    "short",
    "unsigned",
    "DATA_TYPE",
    "size_t",
];

#[derive(Clone, Debug, PartialEq)]
enum Tok<'a> {
    Ident(&'a str),
    Punct(char),
}

fn tokens(text: &str) -> Vec<(usize, Tok<'_>)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut k = 0;
    while k < b.len() {
        let c = b[k];
        if c == b'/' && b.get(k + 1) == Some(&b'/') {
            while k < b.len() && b[k] != b'\n' {
                k += 1;
            }
        } else if c == b'/' && b.get(k + 1) == Some(&b'*') {
            k += 2;
            while k + 1 < b.len() && !(b[k] == b'*' && b[k + 1] == b'/') {
                k += 1;
            }
            k += 2;
        } else if c == b'"' || c == b'\'' {
            k += 1;
            while k < b.len() && b[k] != c {
                k += if b[k] == b'\\' { 2 } else { 1 };
            }
            k += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let s = k;
            while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
                k += 1;
            }
            out.push((s, Tok::Ident(&text[s..k])));
        } else {
            if !c.is_ascii_whitespace() {
                out.push((k, Tok::Punct(c as char)));
            }
            k += 1;
        }
    }
    out
}

/// The text of tokens `from..to` (bracket contents), joined as written.
fn span_text(text: &str, toks: &[(usize, Tok<'_>)], from: usize, to: usize) -> String {
    if from >= to {
        return String::new();
    }
    let start = toks[from].0;
    let end = match toks.get(to) {
        Some((o, _)) => *o,
        None => text.len(),
    };
    text[start..end].trim().to_string()
}

impl Declarations {
    /// Scan `text` (the whole file; regions are skipped by the caller's choice
    /// of lookup offset, since regions declare nothing the subset accepts).
    pub fn scan(text: &str) -> Declarations {
        let toks = tokens(text);
        let mut decls = Vec::new();
        let mut k = 0;
        while k < toks.len() {
            let Tok::Ident(ty) = toks[k].1 else {
                k += 1;
                continue;
            };
            if !TYPES.contains(&ty) {
                k += 1;
                continue;
            }
            let mut j = k + 1;
            // Multi-word types: `unsigned int`, `long long`.
            while let Some((_, Tok::Ident(t))) = toks.get(j) {
                if TYPES.contains(t) {
                    j += 1;
                } else {
                    break;
                }
            }
            let element_type = span_text(text, &toks, k, j);
            loop {
                let mut pointer = false;
                while toks.get(j).map(|t| &t.1) == Some(&Tok::Punct('*')) {
                    pointer = true;
                    j += 1;
                }
                let Some((offset, Tok::Ident(name))) = toks.get(j).cloned() else {
                    break;
                };
                j += 1;
                let mut extents = Vec::new();
                if name.starts_with("POLYBENCH_")
                    && toks.get(j).map(|t| &t.1) == Some(&Tok::Punct('('))
                {
                    // POLYBENCH_kD(name, E1..Ek, e1..ek)
                    let n: usize = name[10..].trim_end_matches('D').parse().unwrap_or(0);
                    let mut args = Vec::new();
                    let (mut depth, mut start) = (0, j + 1);
                    while j < toks.len() {
                        match toks[j].1 {
                            Tok::Punct('(') => depth += 1,
                            Tok::Punct(')') => {
                                depth -= 1;
                                if depth == 0 {
                                    args.push(span_text(text, &toks, start, j));
                                    j += 1;
                                    break;
                                }
                            }
                            Tok::Punct(',') if depth == 1 => {
                                args.push(span_text(text, &toks, start, j));
                                start = j + 1;
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    if n > 0 && args.len() > n {
                        decls.push(Declaration {
                            name: args[0].clone(),
                            offset,
                            element_type: element_type.clone(),
                            extents: args[1..=n].to_vec(),
                        });
                    }
                } else {
                    while toks.get(j).map(|t| &t.1) == Some(&Tok::Punct('[')) {
                        let start = j + 1;
                        let mut depth = 0;
                        while j < toks.len() {
                            match toks[j].1 {
                                Tok::Punct('[') => depth += 1,
                                Tok::Punct(']') => {
                                    depth -= 1;
                                    if depth == 0 {
                                        break;
                                    }
                                }
                                _ => {}
                            }
                            j += 1;
                        }
                        extents.push(span_text(text, &toks, start, j));
                        j += 1;
                    }
                    let next = toks.get(j).map(|t| t.1.clone());
                    let declarator_end = matches!(next, Some(Tok::Punct(';' | ',' | '=' | ')')));
                    if declarator_end && !pointer {
                        decls.push(Declaration {
                            name: name.to_string(),
                            offset,
                            element_type: element_type.clone(),
                            extents,
                        });
                    }
                }
                // Another declarator after a comma (not inside a parameter list's next type).
                if toks.get(j).map(|t| &t.1) == Some(&Tok::Punct(',')) {
                    if let Some((_, Tok::Ident(t))) = toks.get(j + 1) {
                        if TYPES.contains(t) {
                            break;
                        }
                    }
                    j += 1;
                    continue;
                }
                break;
            }
            k = j.max(k + 1);
        }
        Declarations { decls }
    }

    /// Every declaration of `name`, in the file's order.
    pub fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Declaration> + 'a {
        self.decls.iter().filter(move |d| d.name == name)
    }

    /// The declaration of `name` nearest before `offset`, else the first after.
    pub fn lookup(&self, name: &str, offset: usize) -> Option<&Declaration> {
        let mut all = self.decls.iter().filter(|d| d.name == name);
        let before = self
            .decls
            .iter()
            .filter(|d| d.name == name && d.offset < offset)
            .max_by_key(|d| d.offset);
        before.or_else(|| all.next())
    }
}
