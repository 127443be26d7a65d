//! From region text to the [syntax tree](crate::syntax::c) with pest (`grammar/c.pest`).

use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;

use crate::support::pest_error::{self, Failure};

use crate::syntax::c::*;
use crate::syntax::diagnostic::Diagnostic;
use crate::syntax::Span;

#[derive(Parser)]
#[grammar = "../grammar/c.pest"]
struct CParser;

/// Parse the statements of one region; `text` is the region, `base` its byte
/// offset in the file (spans are file offsets).
pub fn parse_region(text: &str, base: usize) -> Result<Vec<Stmt>, Diagnostic> {
    super::nesting::check(text, base)?;
    let mut pairs = CParser::parse(Rule::region, text).map_err(|e| syntax_error(e, base))?;
    let region = pairs
        .next()
        .ok_or_else(|| Diagnostic::error("empty parse of the scop region", base..base))?;
    let b = Builder { base };
    region
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(|p| b.stmt(p))
        .collect()
}

/// Parse one expression (used for `--context` and tests).
pub fn parse_expr(text: &str, base: usize) -> Result<Expr, Diagnostic> {
    super::nesting::check(text, base)?;
    let mut pairs = CParser::parse(Rule::expr, text).map_err(|e| syntax_error(e, base))?;
    let end = pairs.as_str().len();
    if text[end..].trim() != "" {
        let at = base + end;
        return Err(Diagnostic::error(
            "syntax error: unexpected text after the expression",
            at..base + text.trim_end().len(),
        ));
    }
    let p = pairs
        .next()
        .ok_or_else(|| Diagnostic::error("empty expression", base..base))?;
    Builder { base }.expr(p)
}

fn syntax_error(e: pest::error::Error<Rule>, base: usize) -> Diagnostic {
    let Failure {
        start,
        end,
        expected,
    } = pest_error::read(&e, rule_name);
    let mut d = Diagnostic::error("syntax error in the scop region", base + start..base + end)
        .with_label("not valid here");
    if !expected.is_empty() {
        d = d.with_note(format!("expected {}", expected.join(", ")));
    }
    d
}

/// Names of the rules worth mentioning in "expected …"; `None` hides a rule.
fn rule_name(r: Rule) -> Option<&'static str> {
    Some(match r {
        Rule::expr | Rule::conditional | Rule::binary | Rule::unary => "an expression",
        Rule::stmt
        | Rule::for_stmt
        | Rule::if_stmt
        | Rule::if_arm
        | Rule::block
        | Rule::expr_stmt => "a statement",
        Rule::ident => "an identifier",
        Rule::bin_op => "an operator",
        Rule::assign_op => "an assignment operator",
        Rule::index | Rule::call_args | Rule::postfix => "`[`, `(` or an operator",
        Rule::EOI => "end of region",
        Rule::kw_else => "`else`",
        _ => return None,
    })
}

struct Builder {
    base: usize,
}

impl Builder {
    fn span(&self, p: &Pair<Rule>) -> Span {
        let s = p.as_span();
        self.base + s.start()..self.base + s.end()
    }

    fn stmt(&self, p: Pair<Rule>) -> Result<Stmt, Diagnostic> {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::block => Ok(Stmt::Block(
                p.into_inner()
                    .map(|s| self.stmt(s))
                    .collect::<Result<_, _>>()?,
            )),
            Rule::empty_stmt => Ok(Stmt::Empty),
            Rule::expr_stmt => {
                let e = first(p, span.clone())?;
                Ok(Stmt::Expr {
                    label: None,
                    expr: self.expr(e)?,
                    span,
                })
            }
            Rule::labeled_stmt => {
                let mut it = p.into_inner();
                let label = it.next().map(|l| l.as_str().to_string());
                let inner = it
                    .next()
                    .ok_or_else(|| Diagnostic::error("label without a statement", span.clone()))?;
                match self.stmt(inner)? {
                    Stmt::Expr { expr, span, .. } => Ok(Stmt::Expr { label, expr, span }),
                    _ => Err(
                        Diagnostic::error("a label must name an expression statement", span)
                            .with_label("this label is on a loop, a block or a conditional"),
                    ),
                }
            }
            Rule::for_stmt => self.for_loop(p, span),
            Rule::if_stmt => {
                // `if_arm (else if_arm)* (else stmt)?`: built from the last
                // arm back, each arm the `else` of the one before.
                let mut arms = Vec::new();
                let mut otherwise = None;
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::kw_else => {}
                        Rule::if_arm => arms.push(q),
                        _ => otherwise = Some(self.stmt(q)?),
                    }
                }
                let mut built: Option<Stmt> = otherwise;
                for arm in arms.into_iter().rev() {
                    let arm_span = self.span(&arm);
                    let end = built.as_ref().map_or(arm_span.end, |_| span.end);
                    let mut it = arm.into_inner().filter(|q| q.as_rule() != Rule::kw_if);
                    let cond = self.expr(next(&mut it, &arm_span)?)?;
                    let then = self.stmt(next(&mut it, &arm_span)?)?;
                    built = Some(Stmt::If(Box::new(IfStmt {
                        cond,
                        then,
                        otherwise: built,
                        span: arm_span.start..end,
                    })));
                }
                built.ok_or_else(|| Diagnostic::error("internal: `if` without a condition", span))
            }
            Rule::unsupported_stmt => {
                // The diagnostic points at the keyword, not the whole statement.
                let (kw, span) = match p.into_inner().next() {
                    Some(k) => (k.as_str().to_string(), self.span(&k)),
                    None => (String::new(), span),
                };
                Ok(Stmt::Unsupported {
                    what: format!("`{kw}`"),
                    span,
                })
            }
            Rule::decl_stmt => Ok(Stmt::Unsupported {
                what: "a declaration".into(),
                span,
            }),
            Rule::pragma_line => Ok(Stmt::Unsupported {
                what: "a preprocessor line".into(),
                span,
            }),
            r => Err(Diagnostic::error(
                format!("internal: unexpected statement rule {r:?}"),
                span,
            )),
        }
    }

    fn for_loop(&self, p: Pair<Rule>, span: Span) -> Result<Stmt, Diagnostic> {
        let mut it = p.into_inner().filter(|q| q.as_rule() != Rule::kw_for);
        let init = next(&mut it, &span)?;
        let init_span = self.span(&init);
        let mut declares = false;
        let mut parts = init.into_inner().peekable();
        if let Some(decl) = parts.next_if(|q| q.as_rule() == Rule::int_decl) {
            let words: Vec<Span> = decl.clone().into_inner().map(|w| self.span(&w)).collect();
            let written: Vec<&str> = decl.as_str().split_whitespace().collect();
            if written != ["int"] {
                let at = match (words.first(), words.last()) {
                    (Some(a), Some(b)) => a.start..b.end,
                    _ => self.span(&decl),
                };
                return Err(Diagnostic::error(
                    "a loop iterator declared in the loop must be an `int`",
                    at,
                )
                .with_label(format!("`{}` here", written.join(" ")))
                .with_note(
                    "polyc reads iterators as integers without bounds (an `unsigned` one \
                     would wrap below 0) and prints the loops it makes over `int`s",
                ));
            }
            declares = true;
        }
        let init = match (parts.next(), parts.next()) {
            (Some(id), Some(value)) if id.as_rule() == Rule::ident => Some((
                Ident {
                    name: id.as_str().to_string(),
                    span: self.span(&id),
                },
                self.expr(value)?,
            )),
            _ => None,
        };
        let cond = next(&mut it, &span)?;
        let cond_span = self.span(&cond);
        let cond = cond.into_inner().next().map(|e| self.expr(e)).transpose()?;
        let step = next(&mut it, &span)?;
        let step_span = self.span(&step);
        let step = step.into_inner().next().map(|e| self.expr(e)).transpose()?;
        let body = self.stmt(next(&mut it, &span)?)?;
        Ok(Stmt::For(Box::new(ForLoop {
            declares,
            init,
            init_span,
            cond,
            cond_span,
            step,
            step_span,
            body,
            span,
        })))
    }

    pub(super) fn expr(&self, p: Pair<Rule>) -> Result<Expr, Diagnostic> {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::expr => {
                let mut it = p.into_inner();
                let lhs = next(&mut it, &span)?;
                let Some(op) = it.next() else {
                    return self.expr(lhs);
                };
                let assignable = is_unary(&lhs);
                let lhs = self.expr(lhs)?;
                if !assignable {
                    return Err(Diagnostic::error(
                        "the left-hand side of an assignment must be a variable or an array element",
                        lhs.span,
                    )
                    .with_label("not assignable")
                    .with_help("add parentheses if an operator binds differently than intended"));
                }
                let op = op.as_str().to_string();
                let rhs = self.expr(next(&mut it, &span)?)?;
                Ok(Expr {
                    kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)),
                    span,
                })
            }
            Rule::conditional => {
                let mut it = p.into_inner();
                let c = self.expr(next(&mut it, &span)?)?;
                match (it.next(), it.next()) {
                    (Some(a), Some(b)) => Ok(Expr {
                        kind: ExprKind::Conditional(
                            Box::new(c),
                            Box::new(self.expr(a)?),
                            Box::new(self.expr(b)?),
                        ),
                        span,
                    }),
                    _ => Ok(c),
                }
            }
            Rule::binary => self.binary(p, span),
            Rule::unary => self.unary(p, span),
            Rule::postfix => self.postfix(p, span),
            Rule::paren => {
                let inner = self.expr(first(p, span.clone())?)?;
                Ok(Expr {
                    kind: ExprKind::Paren(Box::new(inner)),
                    span,
                })
            }
            Rule::int => {
                let text = p.as_str();
                let digits = text.trim_end_matches(['u', 'U', 'l', 'L']);
                let value = if let Some(hex) = digits
                    .strip_prefix("0x")
                    .or_else(|| digits.strip_prefix("0X"))
                {
                    i64::from_str_radix(hex, 16)
                } else if digits.len() > 1 && digits.starts_with('0') {
                    i64::from_str_radix(digits, 8)
                } else {
                    digits.parse::<i64>()
                };
                let value = value.map_err(|_| {
                    Diagnostic::error("integer literal out of range", span.clone())
                        .with_label("does not fit in 64 bits")
                })?;
                Ok(Expr {
                    kind: ExprKind::Int(value, text.to_string()),
                    span,
                })
            }
            Rule::float => Ok(Expr {
                kind: ExprKind::Float(p.as_str().to_string()),
                span,
            }),
            Rule::string => Ok(Expr {
                kind: ExprKind::Str(p.as_str().to_string()),
                span,
            }),
            Rule::ident => Ok(Expr {
                kind: ExprKind::Var(p.as_str().to_string()),
                span,
            }),
            r => Err(Diagnostic::error(
                format!("internal: unexpected expression rule {r:?}"),
                span,
            )),
        }
    }

    /// Precedence climbing over the flat `unary (op unary)*` list.
    fn binary(&self, p: Pair<Rule>, span: Span) -> Result<Expr, Diagnostic> {
        let mut operands = Vec::new();
        let mut ops = Vec::new();
        for q in p.into_inner() {
            if q.as_rule() == Rule::bin_op {
                let op = BinaryOp::from_text(q.as_str()).ok_or_else(|| {
                    Diagnostic::error("internal: unknown operator", self.span(&q))
                })?;
                ops.push(op);
            } else {
                operands.push(self.expr(q)?);
            }
        }
        if operands.len() != ops.len() + 1 {
            return Err(Diagnostic::error(
                "internal: malformed binary expression",
                span,
            ));
        }
        let mut operands = operands.into_iter();
        let mut ops = ops.into_iter().peekable();
        let first = operands
            .next()
            .ok_or_else(|| Diagnostic::error("internal: empty expression", span.clone()))?;
        Ok(climb(first, 0, &mut ops, &mut operands))
    }

    fn unary(&self, p: Pair<Rule>, span: Span) -> Result<Expr, Diagnostic> {
        let mut parts: Vec<Pair<Rule>> = p.into_inner().collect();
        let last = parts
            .pop()
            .ok_or_else(|| Diagnostic::error("internal: empty unary", span.clone()))?;
        let mut e = self.expr(last)?;
        for op in parts.into_iter().rev() {
            let op_span = self.span(&op);
            let whole = op_span.start..e.span.end;
            let inner = first(op, op_span)?;
            e = match inner.as_rule() {
                Rule::cast => {
                    let ty = inner.as_str();
                    let ty = ty[1..ty.len() - 1].trim().to_string();
                    Expr {
                        kind: ExprKind::Cast(ty, Box::new(e)),
                        span: whole,
                    }
                }
                r => {
                    let op = match r {
                        Rule::inc => UnaryOp::PreInc,
                        Rule::dec => UnaryOp::PreDec,
                        Rule::neg => UnaryOp::Neg,
                        Rule::plus => UnaryOp::Plus,
                        Rule::not => UnaryOp::Not,
                        Rule::bit_not => UnaryOp::BitNot,
                        Rule::deref => UnaryOp::Deref,
                        _ => UnaryOp::Addr,
                    };
                    Expr {
                        kind: ExprKind::Unary(op, Box::new(e)),
                        span: whole,
                    }
                }
            };
        }
        Ok(e)
    }

    fn postfix(&self, p: Pair<Rule>, span: Span) -> Result<Expr, Diagnostic> {
        let mut it = p.into_inner();
        let mut e = self.expr(next(&mut it, &span)?)?;
        for op in it {
            let whole = e.span.start..self.span(&op).end;
            e = match op.as_rule() {
                Rule::index => {
                    let sub = self.expr(first(op, whole.clone())?)?;
                    match e.kind {
                        ExprKind::Index(base, mut subs) => {
                            subs.push(sub);
                            Expr {
                                kind: ExprKind::Index(base, subs),
                                span: whole,
                            }
                        }
                        _ => Expr {
                            kind: ExprKind::Index(Box::new(e), vec![sub]),
                            span: whole,
                        },
                    }
                }
                Rule::call_args => {
                    let args = op
                        .into_inner()
                        .map(|a| self.expr(a))
                        .collect::<Result<_, _>>()?;
                    Expr {
                        kind: ExprKind::Call(Box::new(e), args),
                        span: whole,
                    }
                }
                Rule::member => {
                    let field = op
                        .into_inner()
                        .next()
                        .map(|f| f.as_str().to_string())
                        .unwrap_or_default();
                    Expr {
                        kind: ExprKind::Member(Box::new(e), field),
                        span: whole,
                    }
                }
                Rule::post_inc => Expr {
                    kind: ExprKind::Unary(UnaryOp::PostInc, Box::new(e)),
                    span: whole,
                },
                _ => Expr {
                    kind: ExprKind::Unary(UnaryOp::PostDec, Box::new(e)),
                    span: whole,
                },
            };
        }
        Ok(e)
    }
}

fn climb(
    mut lhs: Expr,
    min_prec: u8,
    ops: &mut std::iter::Peekable<std::vec::IntoIter<BinaryOp>>,
    operands: &mut std::vec::IntoIter<Expr>,
) -> Expr {
    while let Some(&op) = ops.peek() {
        if op.precedence() < min_prec {
            break;
        }
        ops.next();
        let Some(mut rhs) = operands.next() else {
            break;
        };
        while let Some(&next) = ops.peek() {
            if next.precedence() <= op.precedence() {
                break;
            }
            rhs = climb(rhs, next.precedence(), ops, operands);
        }
        let span = lhs.span.start..rhs.span.end;
        lhs = Expr {
            kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
            span,
        };
    }
    lhs
}

/// Whether a `conditional` is a bare unary expression (no operator, no `?:`),
/// as C requires of the left-hand side of an assignment.
fn is_unary(p: &Pair<Rule>) -> bool {
    let mut inner = p.clone().into_inner();
    match (inner.next(), inner.next()) {
        (Some(binary), None) if binary.as_rule() == Rule::binary => {
            binary.into_inner().count() == 1
        }
        _ => false,
    }
}

fn first(p: Pair<Rule>, span: Span) -> Result<Pair<Rule>, Diagnostic> {
    p.into_inner()
        .next()
        .ok_or_else(|| Diagnostic::error("internal: empty syntax node", span))
}

fn next<'a>(
    it: &mut impl Iterator<Item = Pair<'a, Rule>>,
    span: &Span,
) -> Result<Pair<'a, Rule>, Diagnostic> {
    it.next()
        .ok_or_else(|| Diagnostic::error("internal: missing syntax node", span.clone()))
}
