//! A scan of a region's tokens before pest sees it: how deeply the code nests.
//!
//! pest parses by recursive descent and the syntax tree is walked by recursive
//! functions, so deep nesting would overflow the stack (an abort, not a
//! diagnostic). This scan bounds both from the tokens alone, in linear time:
//!
//! * **nesting**: open brackets (`(`, `[`, `{`), open `?` of conditionals and
//!   statements whose body is not braced (`for (…) for (…) x;`) may nest at
//!   most [`MAX_NESTING`] levels;
//! * **depth**: every operator and every closed bracket of an expression may
//!   add one level to its syntax tree, so the operators of the expressions
//!   that are open at a point, plus the nesting there, bound the depth of the
//!   tree; it may be at most [`MAX_DEPTH`].
//!
//! `else if` does not nest: the grammar reads an `else if` chain as a list.

use crate::syntax::diagnostic::Diagnostic;

/// Most brackets, conditionals and unbraced statements open at one point.
pub const MAX_NESTING: usize = 256;
/// Most levels of syntax tree that the operators open at one point may add.
pub const MAX_DEPTH: usize = 1024;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Token {
    Open(u8),
    Close(u8),
    Question,
    Colon,
    Semi,
    Operator,
    Word(Keyword),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Keyword {
    /// `for` or `if`: a statement whose body nests.
    Nests,
    Else,
    If,
    Other,
}

struct Frame {
    /// The bracket that opened it, or `None` for an unbraced statement.
    bracket: Option<u8>,
    is_if: bool,
    /// Operators and closed brackets seen in it since its statement began.
    ops: usize,
}

/// `Ok` if the region nests at most [`MAX_NESTING`] levels and its
/// expressions at most [`MAX_DEPTH`]; `base` is the region's offset in the file.
pub fn check(text: &str, base: usize) -> Result<(), Diagnostic> {
    let tokens = tokenize(text);
    // The root frame (the region itself) is never closed.
    let mut frames: Vec<Frame> = vec![Frame {
        bracket: Some(b'^'),
        is_if: false,
        ops: 0,
    }];
    for (k, (token, span)) in tokens.iter().enumerate() {
        let token = *token;
        let next = tokens.get(k + 1).map(|t| t.0);
        let at = base + span.start..base + span.end;
        match token {
            Token::Open(b) => frames.push(Frame {
                bracket: Some(b),
                is_if: false,
                ops: 0,
            }),
            Token::Question => frames.push(Frame {
                bracket: Some(b'?'),
                is_if: false,
                ops: 0,
            }),
            Token::Colon
                if frames.len() > 1 && frames.last().is_some_and(|f| f.bracket == Some(b'?')) =>
            {
                frames.pop();
                count_op(&mut frames);
            }
            Token::Close(b) => {
                // Close the innermost bracket, and the statements and `?`s
                // (without their `:`) left open inside it.
                while frames.len() > 1 {
                    let closes_bracket = frames
                        .last()
                        .is_some_and(|f| matches!(f.bracket, Some(b'(' | b'[' | b'{')));
                    frames.pop();
                    if closes_bracket {
                        break;
                    }
                }
                if b == b'}' {
                    complete(&mut frames, next);
                } else {
                    count_op(&mut frames);
                }
            }
            Token::Semi => {
                if !matches!(frames.last(), Some(f) if f.bracket == Some(b'(')) {
                    complete(&mut frames, next);
                }
            }
            Token::Word(Keyword::Nests | Keyword::If) => frames.push(Frame {
                bracket: None,
                is_if: token == Token::Word(Keyword::If),
                ops: 0,
            }),
            // `else if` continues the chain at the same level.
            Token::Word(Keyword::Else) if next != Some(Token::Word(Keyword::If)) => {
                frames.push(Frame {
                    bracket: None,
                    is_if: false,
                    ops: 0,
                })
            }
            Token::Word(_) => {}
            Token::Colon | Token::Operator => count_op(&mut frames),
        }
        if frames.len() > MAX_NESTING + 1 {
            return Err(Diagnostic::error(
                format!("code nested too deeply (more than {MAX_NESTING} levels)"),
                at,
            )
            .with_label("this opens one level too many")
            .with_note("brackets, `?:` and loops or conditions without braces count as levels"));
        }
        if matches!(token, Token::Operator | Token::Colon | Token::Close(_)) {
            let depth: usize = frames.iter().map(|f| f.ops + 1).sum();
            if depth > MAX_DEPTH {
                return Err(Diagnostic::error(
                    format!("expression nested too deeply (more than {MAX_DEPTH} levels)"),
                    at,
                )
                .with_label("too many operators are open here")
                .with_help("split the expression into several statements"));
            }
        }
    }
    Ok(())
}

fn count_op(frames: &mut [Frame]) {
    if let Some(f) = frames.last_mut() {
        f.ops += 1;
    }
}

/// A statement ended: close the unbraced statements it was the body of,
/// except an `if` that an `else` follows.
fn complete(frames: &mut Vec<Frame>, next: Option<Token>) {
    if let Some(f) = frames.last_mut() {
        f.ops = 0;
    }
    while let Some(f) = frames.last() {
        if f.bracket.is_some() {
            break;
        }
        // (The root frame has a bracket, so it is never popped here.)
        let keep_for_else = f.is_if && next == Some(Token::Word(Keyword::Else));
        frames.pop();
        if keep_for_else {
            break;
        }
    }
}

/// The tokens that matter for nesting, with their spans in `text`; comments,
/// strings, character constants, numbers and preprocessor lines are skipped.
fn tokenize(text: &str) -> Vec<(Token, std::ops::Range<usize>)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let at_line_start = line_start;
        line_start = false;
        match c {
            b'#' if at_line_start => {
                while i < bytes.len() && bytes[i] != b'\n' {
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
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i = (i + 2).min(bytes.len());
            }
            b'"' | b'\'' => {
                i += 1;
                while i < bytes.len() && bytes[i] != c && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(bytes.len());
            }
            b'(' | b'[' | b'{' => {
                out.push((Token::Open(c), start..start + 1));
                i += 1;
            }
            b')' | b']' | b'}' => {
                out.push((Token::Close(c), start..start + 1));
                i += 1;
            }
            b'?' => {
                out.push((Token::Question, start..start + 1));
                i += 1;
            }
            b':' => {
                out.push((Token::Colon, start..start + 1));
                i += 1;
            }
            b';' => {
                out.push((Token::Semi, start..start + 1));
                i += 1;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                if i == start {
                    i += 1; // a lone `.`
                }
                let word = match &text[start..i] {
                    "for" => Keyword::Nests,
                    "if" => Keyword::If,
                    "else" => Keyword::Else,
                    _ => Keyword::Other,
                };
                out.push((Token::Word(word), start..i));
            }
            _ => {
                // Any other character (an operator, or a stray byte that pest
                // will report) may add one level.
                let len = text[start..].chars().next().map_or(1, char::len_utf8);
                out.push((Token::Operator, start..start + len));
                i += len;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_code_passes() {
        let region = "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++) {\n    if (i > j) A[i][j] = (A[i][j] + 1) * 2;\n    else if (i == j) A[i][j] = 0;\n    else A[i][j] = c ? 1 : 2;\n  }\n";
        assert!(check(region, 0).is_ok());
    }

    #[test]
    fn deep_brackets_are_refused_at_the_bracket() {
        let region = format!("x = {}y{};", "(".repeat(300), ")".repeat(300));
        let d = check(&region, 10)
            .err()
            .map(|d| (d.message.clone(), d.span.clone()));
        let (message, span) = d.unwrap_or_default();
        assert!(message.contains("more than 256 levels"), "{message}");
        assert_eq!(span, 10 + 4 + 256..10 + 4 + 257);
    }

    #[test]
    fn unbraced_statements_nest() {
        let region = "for (i = 0; i < n; i++) ".repeat(300) + "x = 1;";
        assert!(check(&region, 0).is_err());
        let braced = "for (i = 0; i < n; i++) { x = 1; }\n".repeat(300);
        assert!(check(&braced, 0).is_ok());
    }

    #[test]
    fn else_if_chains_do_not_nest() {
        let mut region = String::from("if (i == 0) x = 0;\n");
        for k in 1..2000 {
            region.push_str(&format!("else if (i == {k}) x = {k};\n"));
        }
        region.push_str("else x = 1;\n");
        assert!(check(&region, 0).is_ok());
    }

    #[test]
    fn a_question_mark_without_colon_closes_with_its_bracket() {
        let region = "A[c ? 1] = 0;\n".repeat(1000);
        assert!(check(&region, 0).is_ok());
    }

    #[test]
    fn long_operator_chains_are_refused() {
        let region = format!("x = {}1;", "-".repeat(5000));
        assert!(check(&region, 0).is_err());
        let sum = format!("x = {}1;", "1 + ".repeat(5000));
        assert!(check(&sum, 0).is_err());
        let ok = format!("x = {}1;\n", "1 + ".repeat(500)).repeat(20);
        assert!(check(&ok, 0).is_ok());
    }
}
