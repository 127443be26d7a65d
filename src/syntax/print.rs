//! The C printer: statements and expressions of the syntax tree, as C text.

use std::fmt::Write;

use crate::syntax::c::*;

/// An expression as C. Parentheses are those of the tree (the parser keeps
/// them), so the printed text parses back to the same tree.
pub fn expr_text(e: &Expr) -> String {
    let mut s = String::new();
    write_expr(&mut s, e);
    s
}

fn write_expr(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Int(_, text)
        | ExprKind::Float(text)
        | ExprKind::Str(text)
        | ExprKind::Var(text) => out.push_str(text),
        ExprKind::Index(base, subs) => {
            write_expr(out, base);
            for s in subs {
                out.push('[');
                write_expr(out, s);
                out.push(']');
            }
        }
        ExprKind::Call(f, args) => {
            write_expr(out, f);
            out.push('(');
            for (k, a) in args.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                write_expr(out, a);
            }
            out.push(')');
        }
        ExprKind::Member(base, field) => {
            write_expr(out, base);
            let _ = write!(out, "->{field}");
        }
        ExprKind::Unary(op, x) => {
            let prefix = match op {
                UnaryOp::Neg => "-",
                UnaryOp::Plus => "+",
                UnaryOp::Not => "!",
                UnaryOp::BitNot => "~",
                UnaryOp::Deref => "*",
                UnaryOp::Addr => "&",
                UnaryOp::PreInc => "++",
                UnaryOp::PreDec => "--",
                UnaryOp::PostInc | UnaryOp::PostDec => "",
            };
            let start = out.len();
            out.push_str(prefix);
            let before = out.len();
            write_expr(out, x);
            // `- -x` and `+ +x` must not fuse into `--x` / `++x`.
            if !prefix.is_empty() {
                let first = out[before..].chars().next();
                let last = out[start..before].chars().last();
                if first.is_some() && first == last && matches!(first, Some('-' | '+' | '&')) {
                    out.insert(before, ' ');
                }
            }
            match op {
                UnaryOp::PostInc => out.push_str("++"),
                UnaryOp::PostDec => out.push_str("--"),
                _ => {}
            }
        }
        ExprKind::Cast(ty, x) => {
            let _ = write!(out, "({ty})");
            write_expr(out, x);
        }
        ExprKind::Binary(op, a, b) => {
            write_expr(out, a);
            let _ = write!(out, " {} ", op.text());
            write_expr(out, b);
        }
        ExprKind::Conditional(c, a, b) => {
            write_expr(out, c);
            out.push_str(" ? ");
            write_expr(out, a);
            out.push_str(" : ");
            write_expr(out, b);
        }
        ExprKind::Assign(op, a, b) => {
            write_expr(out, a);
            let _ = write!(out, " {op} ");
            write_expr(out, b);
        }
        ExprKind::Paren(x) => {
            out.push('(');
            write_expr(out, x);
            out.push(')');
        }
    }
}

/// The statements of a region, each line starting with `indent`.
pub fn print_region(stmts: &[Stmt], indent: &str) -> String {
    let mut out = String::new();
    for s in stmts {
        write_stmt(&mut out, s, indent);
    }
    out
}

const STEP: &str = "  ";

fn write_stmt(out: &mut String, s: &Stmt, indent: &str) {
    match s {
        Stmt::Empty => {
            let _ = writeln!(out, "{indent};");
        }
        Stmt::Unsupported { what, .. } => {
            let _ = writeln!(out, "{indent}/* {what} */");
        }
        Stmt::Expr { label, expr, .. } => {
            let _ = match label {
                Some(l) => writeln!(out, "{indent}{l}: {};", expr_text(expr)),
                None => writeln!(out, "{indent}{};", expr_text(expr)),
            };
        }
        Stmt::Block(b) => {
            let _ = writeln!(out, "{indent}{{");
            let inner = format!("{indent}{STEP}");
            for s in b {
                write_stmt(out, s, &inner);
            }
            let _ = writeln!(out, "{indent}}}");
        }
        Stmt::For(f) => {
            let init = match &f.init {
                Some((id, e)) => format!(
                    "{}{} = {}",
                    if f.declares { "int " } else { "" },
                    id.name,
                    expr_text(e)
                ),
                None => String::new(),
            };
            let cond = f.cond.as_ref().map(expr_text).unwrap_or_default();
            let step = f.step.as_ref().map(expr_text).unwrap_or_default();
            let _ = write!(out, "{indent}for ({init}; {cond}; {step})");
            write_body(out, &f.body, indent);
        }
        Stmt::If(i) => {
            let _ = write!(out, "{indent}if ({})", expr_text(&i.cond));
            match &i.otherwise {
                None => write_body(out, &i.then, indent),
                Some(o) => {
                    // Brace a compound then-branch so that `else` cannot attach
                    // to an inner `if`.
                    if matches!(i.then, Stmt::Expr { .. } | Stmt::Block(_)) {
                        write_body(out, &i.then, indent);
                    } else {
                        write_body(out, &Stmt::Block(vec![i.then.clone()]), indent);
                    }
                    let _ = write!(out, "{indent}else");
                    if let Stmt::If(_) = o {
                        out.push(' ');
                        let mut nested = String::new();
                        write_stmt(&mut nested, o, indent);
                        out.push_str(nested.trim_start());
                    } else {
                        write_body(out, o, indent);
                    }
                }
            }
        }
    }
}

/// The body of a loop or a branch: ` {` … `}` for a block, else the single
/// statement on its own line, one step deeper.
fn write_body(out: &mut String, body: &Stmt, indent: &str) {
    match body {
        Stmt::Block(b) => {
            out.push_str(" {\n");
            let inner = format!("{indent}{STEP}");
            for s in b {
                write_stmt(out, s, &inner);
            }
            let _ = writeln!(out, "{indent}}}");
        }
        _ => {
            out.push('\n');
            write_stmt(out, body, &format!("{indent}{STEP}"));
        }
    }
}
