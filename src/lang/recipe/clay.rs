//! A recipe embedded in a scop region as Clay does it (Clan copies it into
//! OpenScop's `<clay>` extension):
//!
//! ```c
//! #pragma scop
//! /* Clay
//!    tile([0,0,0], 3, 2, 32);
//! */
//! ```

/// The byte range, in `region_text`, of the recipe inside the first
/// `/* Clay … */` comment (the text after the word `Clay` up to `*/`), if any.
/// String literals and `//` comments are skipped; an unclosed comment is not
/// a recipe.
pub fn clay_comment(region_text: &str) -> Option<std::ops::Range<usize>> {
    let bytes = region_text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => i = skip_literal(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = region_text[i..].find('\n').map_or(bytes.len(), |n| i + n);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let body_start = i + 2;
                let end = body_start + region_text[body_start..].find("*/")?;
                let body = &region_text[body_start..end];
                let lead = body.len() - body.trim_start().len();
                if let Some(after) = body.trim_start().strip_prefix("Clay") {
                    if after.is_empty() || after.starts_with(|c: char| c.is_whitespace()) {
                        return Some(body_start + lead + 4..end);
                    }
                }
                i = end + 2;
            }
            _ => i += 1,
        }
    }
    None
}

/// The index after the C string or character literal opening at `start`.
fn skip_literal(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}
