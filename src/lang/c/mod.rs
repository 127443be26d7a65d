//! The C front end: find the scop regions of a file, parse them with pest
//! (`grammar/c.pest`) and extract the program model.
//!
//! Everything outside the regions is left to the printers, byte for byte.

pub mod affine;
pub mod decls;
pub mod extract;
pub mod macros;
pub mod nesting;
pub mod parse;
pub mod regions;

use crate::scop::Scop;
use crate::syntax::diagnostic::Diagnostic;

/// A C file with its regions extracted.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    pub regions: Vec<regions::Region>,
    pub scops: Vec<Scop>,
}

/// Read every region of `text` into the model, or the first diagnostic.
pub fn read_source(name: &str, text: String) -> Result<SourceFile, Diagnostic> {
    let regions = regions::find_regions(&text)?;
    let decls = decls::Declarations::scan(&text);
    let mut scops = Vec::new();
    let n = regions.len();
    for (k, r) in regions.iter().enumerate() {
        let body = &text[r.body.clone()];
        let scop = parse::parse_region(body, r.body.start)
            .and_then(|tree| {
                let fixed = macros::FixedMacros::scan(&text, r.open.start);
                extract::extract(tree, k + 1, r.body.clone(), &decls, fixed)
            })
            .map_err(|d| {
                if n > 1 {
                    d.with_note(format!("in scop region {} of {n}", k + 1))
                } else {
                    d
                }
            })?;
        scops.push(scop);
    }
    Ok(SourceFile {
        name: name.to_string(),
        text,
        regions,
        scops,
    })
}
