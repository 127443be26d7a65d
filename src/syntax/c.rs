//! The syntax tree of a scop region: loops, conditionals and statement bodies.
//!
//! Spans are byte offsets into the whole source file. The tree is what the
//! parser saw; whether it is a static control part is decided by
//! [`crate::lang::c::extract`].

use super::Span;

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    For(Box<ForLoop>),
    If(Box<IfStmt>),
    Block(Vec<Stmt>),
    /// An expression statement, with its C label if it has one.
    Expr {
        label: Option<String>,
        expr: Expr,
        span: Span,
    },
    /// Parsed only to be rejected: `while`, `goto`, a declaration, a pragma, …
    Unsupported {
        what: String,
        span: Span,
    },
    Empty,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ForLoop {
    /// `int` was written in the init (`for (int i = 0; …)`).
    pub declares: bool,
    /// The iterator and the initial value, if the init has the form `i = e`.
    pub init: Option<(Ident, Expr)>,
    pub init_span: Span,
    pub cond: Option<Expr>,
    pub cond_span: Span,
    pub step: Option<Expr>,
    pub step_span: Span,
    pub body: Stmt,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct IfStmt {
    pub cond: Expr,
    pub then: Stmt,
    pub otherwise: Option<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Deref,
    Addr,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
}

impl BinaryOp {
    pub fn text(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            And => "&&",
            Or => "||",
        }
    }

    /// C precedence, higher binds tighter.
    pub fn precedence(self) -> u8 {
        use BinaryOp::*;
        match self {
            Mul | Div | Rem => 10,
            Add | Sub => 9,
            Shl | Shr => 8,
            Lt | Le | Gt | Ge => 7,
            Eq | Ne => 6,
            BitAnd => 5,
            BitXor => 4,
            BitOr => 3,
            And => 2,
            Or => 1,
        }
    }

    pub fn from_text(s: &str) -> Option<BinaryOp> {
        use BinaryOp::*;
        Some(match s {
            "*" => Mul,
            "/" => Div,
            "%" => Rem,
            "+" => Add,
            "-" => Sub,
            "<<" => Shl,
            ">>" => Shr,
            "<" => Lt,
            "<=" => Le,
            ">" => Gt,
            ">=" => Ge,
            "==" => Eq,
            "!=" => Ne,
            "&" => BitAnd,
            "^" => BitXor,
            "|" => BitOr,
            "&&" => And,
            "||" => Or,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer literal: its value and its text as written (suffixes kept).
    Int(i64, String),
    /// A floating-point literal, as written.
    Float(String),
    Str(String),
    Var(String),
    /// `base[i][j]`: the array name and its subscripts.
    Index(Box<Expr>, Vec<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    /// `.field` or `->field` (never accepted; kept for the diagnostic).
    Member(Box<Expr>, String),
    Unary(UnaryOp, Box<Expr>),
    Cast(String, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `lhs op rhs` with op one of `=`, `+=`, `-=`, …: the operator text.
    Assign(String, Box<Expr>, Box<Expr>),
    Paren(Box<Expr>),
}

/// The `name` of `(void)&name` (the address perhaps in parentheses):
/// the line polyc prints for a declared iterator its loops no longer use,
/// a statement that does nothing.
pub fn void_address_of(e: &Expr) -> Option<&str> {
    let ExprKind::Cast(ty, x) = &e.kind else {
        return None;
    };
    let mut x = &**x;
    while let ExprKind::Paren(inner) = &x.kind {
        x = inner;
    }
    match (&x.kind, ty.trim()) {
        (ExprKind::Unary(UnaryOp::Addr, v), "void") => match &v.kind {
            ExprKind::Var(name) => Some(name),
            _ => None,
        },
        _ => None,
    }
}

/// Iterators of loops that do not declare them (`for (i = 0; …)`), and
/// the names of polyc's own `(void)&name;` lines: the file declares them
/// outside the region, and the output reuses them or keeps them used.
pub fn collect_outer_declared(stmts: &[Stmt], out: &mut std::collections::HashSet<String>) {
    for s in stmts {
        match s {
            Stmt::For(f) => {
                if let (false, Some((id, _))) = (f.declares, &f.init) {
                    out.insert(id.name.clone());
                }
                collect_outer_declared(std::slice::from_ref(&f.body), out);
            }
            Stmt::If(i) => {
                collect_outer_declared(std::slice::from_ref(&i.then), out);
                if let Some(o) = &i.otherwise {
                    collect_outer_declared(std::slice::from_ref(o), out);
                }
            }
            Stmt::Block(b) => collect_outer_declared(b, out),
            // polyc's own `(void)&name;` for such an iterator that its
            // loops no longer used: kept when the output is read back.
            Stmt::Expr { expr, .. } => {
                if let Some(name) = void_address_of(expr) {
                    out.insert(name.to_string());
                }
            }
            _ => {}
        }
    }
}
