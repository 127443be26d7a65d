//! Finding the `#pragma scop` … `#pragma endscop` regions of a file.

use crate::syntax::diagnostic::Diagnostic;
use crate::syntax::Span;

/// One region: the pragma lines and the body between them (byte ranges).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub open: Span,
    pub body: Span,
    pub close: Span,
}

/// `Some(word)` if the line is `#pragma word` (spaces allowed anywhere).
fn pragma_word(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("pragma")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let mut words = rest.split_whitespace();
    let w = words.next()?;
    words.next().is_none().then_some(w)
}

/// Every region of `source`, in order; an unbalanced pragma is an error.
pub fn find_regions(source: &str) -> Result<Vec<Region>, Diagnostic> {
    let mut regions = Vec::new();
    // The open pragma line and the offset where the body starts.
    let mut open: Option<(Span, usize)> = None;
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let span = offset..offset + content.len();
        match (pragma_word(content), &open) {
            (Some("scop"), None) => open = Some((span, offset + line.len())),
            (Some("scop"), Some((first, _))) => {
                return Err(
                    Diagnostic::error("`#pragma scop` inside a scop region", span)
                        .with_label("a second `#pragma scop`")
                        .with_secondary(first.clone(), "the region opened here is not closed")
                        .with_help("add `#pragma endscop` before this line"),
                )
            }
            (Some("endscop"), Some((o, body_start))) => {
                regions.push(Region {
                    open: o.clone(),
                    body: *body_start..offset,
                    close: span,
                });
                open = None;
            }
            (Some("endscop"), None) => {
                return Err(
                    Diagnostic::error("`#pragma endscop` without `#pragma scop`", span)
                        .with_label("no region is open here"),
                )
            }
            _ => {}
        }
        offset += line.len();
    }
    if let Some((o, _)) = open {
        return Err(Diagnostic::error("`#pragma scop` is never closed", o)
            .with_label("region opened here")
            .with_help("add `#pragma endscop` after the region"));
    }
    Ok(regions)
}
