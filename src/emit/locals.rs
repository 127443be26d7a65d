//! The arrays a recipe adds to a region (`add_array`; [`Array::local`]),
//! declared around the region's code: a scalar as a variable, an array on
//! the heap (`__builtin_malloc`, freed after the loops), as a pointer to a
//! variable-length row so that the statements index it as `c[i][j]`.
//!
//! ```text
//! {
//!   double (*a_copy)[polyc_max(m, 1)] = __builtin_malloc(sizeof(double) * polyc_max(n, 1) * polyc_max(m, 1));
//!   … the region's loops …
//!   __builtin_free(a_copy);
//! }
//! ```
//!
//! Each extent is one more than an upper bound of the subscript over every
//! cell the region accesses (the accesses' images of the domains),
//! affine in the parameters ([`crate::scop::local_cells`], which also
//! checks exactly that the subscripts are non-negative, as the
//! data-layout directives did before). Knows the program model, not how
//! it was rewritten.

use std::fmt::Write as _;

use crate::poly::{Bound, Set};
use crate::scop::local_cells::{cells, upper_bounds, SizeError, Unsized};
use crate::scop::Scop;

/// A local array to declare: its C element type, name and extents (C
/// expressions over the parameters; none for a scalar).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalArray {
    pub element_type: String,
    pub name: String,
    pub extents: Vec<String>,
}

/// The local arrays of `scop` that its statements access, in declaration
/// order; an error saying why one cannot be declared.
pub fn local_arrays(scop: &Scop) -> Result<Vec<LocalArray>, String> {
    let mut out = Vec::new();
    for a in scop.arrays.iter().filter(|a| a.local) {
        let Some(cells) = cells(scop, a).map_err(|e| e.to_string())? else {
            continue;
        };
        let element_type = a
            .element_type
            .clone()
            .ok_or_else(|| format!("the element type of `{}` is unknown", a.name))?;
        let mut extents = Vec::new();
        for d in 0..a.n_dims {
            extents.push(extent(scop, &cells, d).map_err(|e| match e {
                SizeError::Poly(e) => e.to_string(),
                SizeError::Unsized(why) => why.describe(&a.name, d),
            })?);
        }
        out.push(LocalArray {
            element_type,
            name: a.name.clone(),
            extents,
        });
    }
    Ok(out)
}

/// `body` (the region's code, each line starting with `indent`) inside a
/// block that declares `locals` first and frees them after.
pub fn wrap(body: &str, locals: &[LocalArray], indent: &str) -> String {
    if locals.is_empty() {
        return body.to_string();
    }
    let inner = format!("{indent}  ");
    let mut out = format!("{indent}{{\n");
    for l in locals {
        let _ = writeln!(out, "{inner}{}", declaration(l));
    }
    for line in body.lines() {
        if line.is_empty() {
            out.push('\n');
        } else {
            let _ = writeln!(out, "  {line}");
        }
    }
    for l in locals.iter().filter(|l| !l.extents.is_empty()) {
        let _ = writeln!(out, "{inner}__builtin_free({});", l.name);
    }
    let _ = writeln!(out, "{indent}}}");
    out
}

fn declaration(l: &LocalArray) -> String {
    let (ty, name) = (&l.element_type, &l.name);
    let Some((_, rows)) = l.extents.split_first() else {
        // Only written, it would be "set but not used". Set to 0 first:
        // every read comes after a write that the schedule keeps, but a
        // parallel loop that reads it may be handed its value before a
        // guarded copy-in has run (`if (m >= n - 4) d0 = alpha;` then an
        // empty `omp parallel for` reading `d0`: gcc's "used
        // uninitialized", random seed 36).
        return format!("{ty} {name} __attribute__((unused)) = 0;");
    };
    let size = std::iter::once(format!("sizeof({ty})"))
        .chain(l.extents.iter().cloned())
        .collect::<Vec<_>>()
        .join(" * ");
    if rows.is_empty() {
        return format!("{ty} *{name} = __builtin_malloc({size});");
    }
    let row: String = rows.iter().map(|e| format!("[{e}]")).collect();
    format!("{ty} (*{name}){row} = __builtin_malloc({size});")
}

/// The extent of dimension `d`: `polyc_max(ub + 1, 1)` over the upper
/// bounds of the basic sets of `cells`, as C.
fn extent(scop: &Scop, cells: &Set, d: usize) -> Result<String, SizeError> {
    let mut bounds: Vec<String> = Vec::new();
    for ub in upper_bounds(scop, cells, d)? {
        let text = one_more(&ub, &scop.params);
        if !bounds.contains(&text) {
            bounds.push(text);
        }
    }
    let mut e = match bounds.split_first() {
        Some((first, rest)) => rest
            .iter()
            .fold(first.clone(), |acc, b| format!("polyc_max({acc}, {b})")),
        None => return Err(SizeError::Unsized(Unsized::Unbounded)),
    };
    if e.parse::<i64>().map_or(true, |v| v < 1) {
        e = format!("polyc_max({e}, 1)");
    }
    Ok(e)
}

/// `floor(expr / div) + 1` as C over the parameters `params`.
fn one_more(b: &Bound, params: &[String]) -> String {
    let mut terms = String::new();
    let constant = if b.div == 1 {
        b.constant + 1
    } else {
        b.constant
    };
    for (c, p) in b.coeffs.iter().zip(params) {
        let sign = if *c < 0 { "-" } else { "+" };
        let term = match c.unsigned_abs() {
            0 => continue,
            1 => p.clone(),
            k => format!("{k} * {p}"),
        };
        if terms.is_empty() {
            terms = if *c < 0 { format!("-{term}") } else { term };
        } else {
            let _ = write!(terms, " {sign} {term}");
        }
    }
    let expr = match (terms.is_empty(), constant) {
        (true, k) => k.to_string(),
        (false, 0) => terms,
        (false, k) if k < 0 => format!("{terms} - {}", k.unsigned_abs()),
        (false, k) => format!("{terms} + {k}"),
    };
    if b.div == 1 {
        expr
    } else {
        format!("polyc_floord({expr}, {}) + 1", b.div)
    }
}
