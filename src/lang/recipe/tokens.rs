//! A scan before parsing: stray characters, unterminated strings,
//! unbalanced brackets and nesting too deep for the recursive parser and the
//! constraint evaluator, each reported where it is (pest would only say what
//! it expected at some later point, or overflow its stack).

use super::Span;
use crate::syntax::diagnostic::Diagnostic;

/// Characters outside strings and comments that the language uses.
fn is_token_char(c: char) -> bool {
    // A no-break space (U+00A0) is whitespace, as in Clay's scripts.
    c.is_ascii_alphanumeric()
        || c.is_ascii_whitespace()
        || c == '\u{a0}'
        || "_,;|=<>+-*/@()[]{}".contains(c)
}

fn closer(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

/// Most brackets open at one point.
pub const MAX_NESTING: usize = 256;
/// Most levels of constraint tree that the open brackets and the operators
/// in them may add (each `+`, `-`, `*`, `/` and closed bracket adds at most one).
pub const MAX_DEPTH: usize = 1024;

/// `Ok` if every character belongs to a token, every string is closed on its
/// line, the brackets balance and nothing nests too deeply.
pub fn check(text: &str) -> Result<(), Diagnostic> {
    let mut open: Vec<(char, usize)> = Vec::new();
    // Operators (and closed brackets) in each open bracket, and outside any.
    let mut ops: Vec<usize> = vec![0];
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '+' | '-' | '*' | '/' if !(c == '/' && matches!(chars.peek(), Some((_, '/')))) => {
                if let Some(n) = ops.last_mut() {
                    *n += 1;
                }
                let depth: usize = ops.iter().map(|n| n + 1).sum();
                if depth > MAX_DEPTH {
                    return Err(Diagnostic::error(
                        format!("expression nested too deeply (more than {MAX_DEPTH} levels)"),
                        i..i + 1,
                    )
                    .with_label("too many operators are open here"));
                }
            }
            ',' | ';' | '|' => {
                if let Some(n) = ops.last_mut() {
                    *n = 0;
                }
            }
            _ => {}
        }
        match c {
            '#' => skip_line(&mut chars),
            '/' if matches!(chars.peek(), Some((_, '/'))) => skip_line(&mut chars),
            '"' => string(text, i, &mut chars)?,
            '(' | '[' | '{' => {
                open.push((c, i));
                ops.push(0);
                if open.len() > MAX_NESTING {
                    return Err(Diagnostic::error(
                        format!("brackets nested too deeply (more than {MAX_NESTING} levels)"),
                        i..i + 1,
                    )
                    .with_label("this opens one level too many"));
                }
            }
            ')' | ']' | '}' => match open.pop() {
                Some((o, _)) if closer(o) == c => {
                    ops.pop();
                    if let Some(n) = ops.last_mut() {
                        *n += 1;
                    }
                }
                Some((o, at)) => {
                    return Err(Diagnostic::error(
                        format!("mismatched closing bracket `{c}`"),
                        i..i + 1,
                    )
                    .with_label(format!("expected `{}` here", closer(o)))
                    .with_secondary(at..at + 1, format!("this `{o}` is not closed")))
                }
                None => {
                    return Err(Diagnostic::error(
                        format!("unmatched closing bracket `{c}`"),
                        i..i + 1,
                    )
                    .with_label("no bracket is open here"))
                }
            },
            c if is_token_char(c) => {}
            '.' => {
                return Err(Diagnostic::error("unexpected character `.`", i..i + 1)
                    .with_label("not part of the recipe language")
                    .with_note("numbers in a recipe are integers"))
            }
            c => {
                return Err(Diagnostic::error(
                    format!("unexpected character `{}`", c.escape_debug()),
                    i..i + c.len_utf8(),
                )
                .with_label("not part of the recipe language")
                .with_note("comments start with `#` or `//`; strings are in double quotes"))
            }
        }
    }
    if let Some((o, at)) = open.pop() {
        return Err(Diagnostic::error(format!("unclosed `{o}`"), at..at + 1)
            .with_label(format!("this `{o}` is never closed"))
            .with_help(format!("add `{}` where it ends", closer(o))));
    }
    Ok(())
}

fn skip_line(chars: &mut std::iter::Peekable<std::str::CharIndices>) {
    while chars.next_if(|&(_, c)| c != '\n').is_some() {}
}

/// Skip a string whose opening quote is at `start`.
fn string(
    text: &str,
    start: usize,
    chars: &mut std::iter::Peekable<std::str::CharIndices>,
) -> Result<(), Diagnostic> {
    let unterminated = |end: usize| -> Diagnostic {
        let span: Span = start..end;
        Diagnostic::error("unterminated string", span)
            .with_label("this string is not closed on its line")
            .with_help("add the closing `\"`")
    };
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok(()),
            '\\' if chars.next_if(|&(_, c)| c != '\n').is_none() => {
                return Err(unterminated(i + 1))
            }
            '\n' => return Err(unterminated(text[..i].trim_end().len().max(start + 1))),
            _ => {}
        }
    }
    Err(unterminated(text.trim_end().len().max(start + 1)))
}
