//! Script positions as byte ranges: rhai reports a line and a column
//! (1-based, in characters); diagnostics need byte offsets into the script.
//! [`call_spans`] widens the position of a call to the whole call and its
//! arguments, so that a refused directive is underlined as in a `.poly`
//! recipe.

use rhai::Position;

use crate::syntax::Span;

/// The byte offset of `pos` in `text`: the start of its line plus its
/// column. `Position::NONE` (no position known) is the end of the text.
pub fn offset(text: &str, pos: Position) -> usize {
    let (Some(line), Some(column)) = (pos.line(), pos.position()) else {
        return text.len();
    };
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(n) => start += n + 1,
            None => return text.len(),
        }
    }
    let line_text = &text[start..];
    let line_text = &line_text[..line_text.find('\n').unwrap_or(line_text.len())];
    line_text
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(start + line_text.len(), |(i, _)| start + i)
}

/// The span of the token at `pos` (at least one character), for errors
/// that name no call.
pub fn token(text: &str, pos: Position) -> Span {
    let mut start = offset(text, pos);
    // At the end of the script (an unfinished call): its last character.
    let end = text.trim_end().len();
    if start >= end {
        start = text[..end].char_indices().last().map_or(0, |(i, _)| i);
    }
    let rest = &text[start..];
    let len = rest
        .char_indices()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
        .map_or(rest.len(), |(i, _)| i);
    let len = if len == 0 {
        rest.chars().next().map_or(0, char::len_utf8)
    } else {
        len
    };
    start..start + len
}

/// Where a call sits in the script: its name, the whole call up to its
/// `)`, and each argument (trimmed).
pub struct CallSpans {
    pub name: Span,
    pub call: Span,
    pub args: Vec<Span>,
}

/// The spans of a call to `name` at `pos`. When the text there is not
/// `name(…)` with `n_args` arguments (a call through a function pointer, a
/// method call), every span is the token at `pos`.
pub fn call_spans(text: &str, pos: Position, name: &str, n_args: usize) -> CallSpans {
    let at = token(text, pos);
    let fallback = CallSpans {
        name: at.clone(),
        call: at.clone(),
        args: vec![at.clone(); n_args],
    };
    let start = at.start;
    if !text[start..].starts_with(name) {
        return fallback;
    }
    let after_name = start + name.len();
    let open = after_name + (text[after_name..].len() - text[after_name..].trim_start().len());
    if !text[open..].starts_with('(') {
        return fallback;
    }
    let Some((close, commas)) = matching_paren(text, open) else {
        return fallback;
    };
    let mut bounds = vec![open + 1];
    bounds.extend(commas.iter().map(|c| c + 1));
    let ends: Vec<usize> = commas
        .iter()
        .copied()
        .chain(std::iter::once(close))
        .collect();
    let args: Vec<Span> = bounds
        .iter()
        .zip(&ends)
        .map(|(&a, &b)| trim(text, a..b))
        .filter(|s| !s.is_empty())
        .collect();
    if args.len() != n_args {
        return fallback;
    }
    CallSpans {
        name: start..after_name,
        call: start..close + 1,
        args,
    }
}

/// `range` without leading and trailing white space.
fn trim(text: &str, range: Span) -> Span {
    let s = &text[range.clone()];
    let start = range.start + (s.len() - s.trim_start().len());
    start..start + s.trim().len()
}

/// The `)` matching the `(` at `open`, and the top-level commas between
/// them; strings, characters and comments are skipped.
fn matching_paren(text: &str, open: usize) -> Option<(usize, Vec<usize>)> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut commas = Vec::new();
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return (bytes[i] == b')').then_some((i, commas));
                }
            }
            b',' if depth == 1 => commas.push(i),
            q @ (b'"' | b'\'' | b'`') => {
                i += 1;
                while i < bytes.len() && bytes[i] != q {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_characters_within_lines() {
        let text = "let β = 1;\n  tile([0], 1, 1, 32);\n";
        let pos = Position::new(2, 3);
        assert_eq!(offset(text, pos), text.find("tile").unwrap_or(0));
        assert_eq!(offset(text, Position::new(1, 5)), 4);
        assert_eq!(offset(text, Position::new(1, 6)), 4 + 'β'.len_utf8());
        assert_eq!(offset(text, Position::NONE), text.len());
    }

    #[test]
    fn a_call_is_underlined_whole_with_its_arguments() {
        let text = "x;\ntile([0, 1], 2, f(1, 2), \"a,b\");";
        let s = call_spans(text, Position::new(2, 1), "tile", 4);
        assert_eq!(&text[s.call.clone()], "tile([0, 1], 2, f(1, 2), \"a,b\")");
        assert_eq!(&text[s.name.clone()], "tile");
        let args: Vec<&str> = s.args.iter().map(|a| &text[a.clone()]).collect();
        assert_eq!(args, ["[0, 1]", "2", "f(1, 2)", "\"a,b\""]);
        let wrong = call_spans(text, Position::new(2, 1), "tile", 3);
        assert_eq!(&text[wrong.call], "tile");
    }
}
