//! Splicing generated region bodies into the source file.
//!
//! Everything outside the region bodies, the pragma lines included, is kept
//! byte for byte. The only other text polyc adds to a file is the helper
//! block ([`super::loops::HELPERS`]) before its first byte, when the
//! generated code uses a helper, and the functions of outlined parallel
//! constructs ([`super::outline`]) before the declaration that holds their
//! region (the driver does both; docs/codegen.md, "What polyc adds to a
//! file").

use crate::lang::c::regions::Region;

/// `source` with the body of region `k` replaced by `bodies[k]`.
pub fn splice(source: &str, regions: &[Region], bodies: &[String]) -> String {
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    for (r, body) in regions.iter().zip(bodies) {
        out.push_str(&source[at..r.body.start]);
        out.push_str(body);
        at = r.body.end;
    }
    out.push_str(&source[at..]);
    out
}

/// `source` with each range replaced by its text (ranges in order, none
/// overlapping; an empty range inserts).
pub fn edit(source: &str, mut edits: Vec<(std::ops::Range<usize>, String)>) -> String {
    edits.sort_by_key(|(r, _)| (r.start, r.end));
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    for (r, text) in edits {
        out.push_str(&source[at..r.start.max(at)]);
        out.push_str(&text);
        at = r.end.max(at);
    }
    out.push_str(&source[at..]);
    out
}

/// The indentation of the first non-blank line of `text`.
pub fn leading_indent(text: &str) -> &str {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .map(|l| &l[..l.len() - l.trim_start().len()])
        .unwrap_or("")
}
