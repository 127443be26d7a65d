//! Printing in isl's notation: `[N] -> { S[i, j] : 0 <= i and i <= N - 1 }`.
//!
//! Each constraint is written with one dimension isolated (the innermost one it
//! mentions), so that bounds read as bounds: `j <= i`, `i >= 0`.

use std::fmt::{self, Write};

use super::{BasicMap, BasicSet, Constraint, Map, Set, Space, Tuple};

/// Column names of a row: parameters, inputs, outputs, then locals `e0, e1, …`.
fn column_names(space: &Space, n_local: usize) -> Vec<String> {
    let mut names = space.params.clone();
    if let Some(t) = &space.input {
        names.extend(t.dims.iter().cloned());
    }
    names.extend(space.output.dims.iter().cloned());
    names.extend((0..n_local).map(|k| format!("e{k}")));
    names
}

/// `a·x + c` as isl writes it: `2i - j + 1`, `-N`, `0`.
pub(crate) fn linear_text(terms: &[(i64, &str)], constant: i64) -> String {
    let mut out = String::new();
    for &(c, name) in terms.iter().filter(|(c, _)| *c != 0) {
        let mag = c.unsigned_abs();
        if out.is_empty() {
            if c < 0 {
                out.push('-');
            }
        } else {
            out.push_str(if c < 0 { " - " } else { " + " });
        }
        if mag != 1 {
            let _ = write!(out, "{mag}");
        }
        out.push_str(name);
    }
    if out.is_empty() {
        let _ = write!(out, "{constant}");
    } else if constant != 0 {
        let _ = write!(
            out,
            " {} {}",
            if constant < 0 { '-' } else { '+' },
            constant.unsigned_abs()
        );
    }
    out
}

fn constraint_text(c: &Constraint, names: &[String], n_param: usize) -> String {
    let pivot = (n_param..c.coeffs.len())
        .rev()
        .find(|&k| c.coeffs[k] != 0)
        .or_else(|| (0..n_param).rev().find(|&k| c.coeffs[k] != 0));
    let Some(p) = pivot else {
        let holds = if c.is_eq() {
            c.constant == 0
        } else {
            c.constant >= 0
        };
        return if holds { "true" } else { "false" }.to_string();
    };
    let cp = c.coeffs[p];
    // cp·x + R (op) 0. Positive pivot: cp·x (op) -R; negative: |cp|·x (op') R.
    let sign = if cp > 0 { -1 } else { 1 };
    let rest: Vec<(i64, &str)> = c
        .coeffs
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != p)
        .map(|(k, &v)| (sign * v, names[k].as_str()))
        .collect();
    let lhs = linear_text(&[(cp.abs(), names[p].as_str())], 0);
    let rhs = linear_text(&rest, sign * c.constant);
    let op = match (c.is_eq(), cp > 0) {
        (true, _) => "=",
        (false, true) => ">=",
        (false, false) => "<=",
    };
    format!("{lhs} {op} {rhs}")
}

fn tuple_text(t: &Tuple, dims: &[String]) -> String {
    format!("{}[{}]", t.name.as_deref().unwrap_or(""), dims.join(", "))
}

fn params_prefix(space: &Space) -> String {
    if space.params.is_empty() {
        String::new()
    } else {
        format!("[{}] -> ", space.params.join(", "))
    }
}

/// The rows other than `rows[pos]` with column `col` eliminated by that
/// row (an equality with a ±1 coefficient there); `None` on overflow.
fn substituted(rows: &[Constraint], pos: usize, col: usize) -> Option<Vec<Constraint>> {
    let eq = &rows[pos];
    let unit = eq.coeffs[col];
    let mut out = Vec::with_capacity(rows.len());
    for (k, r) in rows.iter().enumerate() {
        if k == pos {
            continue;
        }
        // r - (v / unit) eq, with unit = ±1: v * unit.
        let f = r.coeffs[col].checked_mul(unit)?;
        let mut coeffs = Vec::with_capacity(r.coeffs.len());
        for (a, b) in r.coeffs.iter().zip(&eq.coeffs) {
            coeffs.push(a.checked_sub(f.checked_mul(*b)?)?);
        }
        let constant = r.constant.checked_sub(f.checked_mul(eq.constant)?)?;
        out.push(Constraint {
            kind: r.kind,
            coeffs,
            constant,
        });
    }
    Some(out)
}

/// The body of one disjunct: `S[i] : c1 and c2` (no braces).
fn conjunction_text(space: &Space, n_local: usize, constraints: &[Constraint]) -> String {
    let names = column_names(space, n_local);
    let n_param = space.n_param();
    let mut out_dims = space.output.dims.clone();
    let mut rows: Vec<Constraint> = constraints.to_vec();
    // A relation whose output k is a function of inputs and parameters prints
    // inline, and is substituted into the other rows (which then no longer
    // name it: isl reads an inline output as an expression, not a name).
    // Repeated until nothing changes: inlining one output can leave another
    // one's equality free of outputs.
    if space.input.is_some() {
        let mut inlined = vec![false; out_dims.len()];
        let mut progress = true;
        while progress {
            progress = false;
            for (k, dim) in out_dims.iter_mut().enumerate() {
                if inlined[k] {
                    continue;
                }
                let col = space.out_col(k);
                let found = rows.iter().position(|c| {
                    c.is_eq()
                        && c.coeffs[col].abs() == 1
                        && c.coeffs[space.out_col(0)..]
                            .iter()
                            .enumerate()
                            .all(|(j, &v)| j + space.out_col(0) == col || v == 0)
                });
                let Some(pos) = found else { continue };
                let Some(others) = substituted(&rows, pos, col) else {
                    continue;
                };
                let c = rows.remove(pos);
                rows = others;
                let s = -c.coeffs[col];
                let terms: Vec<(i64, &str)> = (0..space.out_col(0))
                    .map(|j| (s * c.coeffs[j], names[j].as_str()))
                    .collect();
                *dim = linear_text(&terms, s * c.constant);
                inlined[k] = true;
                progress = true;
            }
        }
    }
    let mut text = String::new();
    if let Some(t) = &space.input {
        text.push_str(&tuple_text(t, &t.dims));
        text.push_str(" -> ");
    }
    text.push_str(&tuple_text(&space.output, &out_dims));
    // A parameter set (no tuple) prints as isl does: `[n] -> { : n >= 0 }`.
    if space.input.is_none() && space.output.name.is_none() && out_dims.is_empty() {
        text.clear();
        if rows.is_empty() && n_local == 0 {
            text.push(':');
            return text;
        }
    }
    if !rows.is_empty() {
        let body: Vec<String> = rows
            .iter()
            .map(|c| constraint_text(c, &names, n_param))
            .collect();
        let body = body.join(" and ");
        if n_local > 0 {
            let locals: Vec<String> = (0..n_local).map(|k| format!("e{k}")).collect();
            let _ = write!(text, " : exists ({}: {body})", locals.join(", "));
        } else {
            let _ = write!(text, " : {body}");
        }
        if text.starts_with(' ') {
            text.remove(0);
        }
    }
    text
}

impl fmt::Display for BasicSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let body = conjunction_text(&self.space, self.n_local, &self.constraints);
        write!(f, "{}{{ {body} }}", params_prefix(&self.space))
    }
}

impl fmt::Display for BasicMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let body = conjunction_text(&self.space, self.n_local, &self.constraints);
        write!(f, "{}{{ {body} }}", params_prefix(&self.space))
    }
}

fn union_text<'a>(space: &Space, parts: impl Iterator<Item = (usize, &'a [Constraint])>) -> String {
    let bodies: Vec<String> = parts
        .map(|(n_local, cs)| conjunction_text(space, n_local, cs))
        .collect();
    if bodies.is_empty() {
        format!("{}{{ }}", params_prefix(space))
    } else {
        format!("{}{{ {} }}", params_prefix(space), bodies.join("; "))
    }
}

impl fmt::Display for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = self.basics.iter().map(|b| (b.n_local, &b.constraints[..]));
        f.write_str(&union_text(&self.space, parts))
    }
}

impl fmt::Display for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = self.basics.iter().map(|b| (b.n_local, &b.constraints[..]));
        f.write_str(&union_text(&self.space, parts))
    }
}
