//! The recipe language (`.poly`, DESIGN §5, `docs/recipe-language.md`):
//! Clay's script syntax read into a typed, span-carrying list of directive
//! calls.
//!
//! The front end knows the syntax and the variables (`let`, Clay's
//! assignments, `--set`), never what a directive means: names and arities
//! are checked by `apply`. Steps: [`tokens`] rejects stray characters,
//! unbalanced brackets and unterminated strings; [`syntax`] parses with pest
//! (`grammar/recipe.pest`) and words pest's errors; [`build`] turns the parse
//! tree into [`Recipe`], resolving variables through [`vars`]. [`clay`] finds
//! a recipe embedded in a C region as `/* Clay … */`; [`print`] writes
//! calls back as text.

pub mod build;
pub mod clay;
pub mod print;
pub mod syntax;
pub mod tokens;
pub mod vars;

use crate::syntax::diagnostic::Diagnostic;
use crate::syntax::Span;

pub use clay::clay_comment;

/// A parsed recipe: its directive calls in order, variables substituted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    pub calls: Vec<Call>,
}

/// One directive call, `tile([0], 1, 1, 32)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// As written, e.g. `"tile"`, `"fission"` (aliases are not resolved).
    pub name: String,
    pub name_span: Span,
    pub args: Vec<Arg>,
    /// The whole call, without its `;`.
    pub span: Span,
    /// Clay's `v = f(…);`: the variable that receives the call's result, and
    /// its span. A later use of `v` as an argument is `Value::Ident(v)`.
    pub bind: Option<(String, Span)>,
    /// The `group { … }` the call is in, by its span: the calls of one
    /// group are applied in order and checked together at its end.
    pub group: Option<Span>,
}

/// One argument: its value, its span (the use site, also when the value
/// comes from a variable) and, for `tile = 32`, the option's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    pub value: Value,
    pub span: Span,
    pub name: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// `32`, `-1`; Clay's `true` and `false` are 1 and 0.
    Int(i64),
    /// `[0, 1]`, `[]`.
    Beta(Vec<i64>),
    /// `@init`: a labelled statement, where a β is expected.
    Label(String),
    /// Clay's list `{1, 0 | 0 | -1}`: sections split by `|`, each a comma
    /// list, possibly empty (`{1||-3}` has an empty middle section).
    Sections(Vec<Vec<i64>>),
    /// `c1 <= N / 2`.
    Constraint(AffineConstraint),
    /// `"smart"`.
    Str(String),
    /// A bare word, `pluto` in `auto(pluto)`, or a variable bound to a
    /// call's result (see [`Call::bind`]).
    Ident(String),
}

/// `lhs op rhs`; names stay symbolic (output dimensions `c1, c2, …`,
/// iterators, parameters) except `let`s holding an integer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffineConstraint {
    pub lhs: AffineExpr,
    pub op: CmpOp,
    pub rhs: AffineExpr,
}

/// `<`, `<=`, `>`, `>=`, and `==` (also written `=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
}

impl CmpOp {
    /// The operator as written (`==` for either spelling of equality).
    pub fn text(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Eq => "==",
        }
    }
}

/// A symbolic expression; whether it is affine (a product or a division by a
/// constant) is checked by the directive that reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AffineExpr {
    Int(i64),
    Name(String, Span),
    Neg(Box<AffineExpr>),
    Add(Box<AffineExpr>, Box<AffineExpr>),
    Sub(Box<AffineExpr>, Box<AffineExpr>),
    Mul(Box<AffineExpr>, Box<AffineExpr>),
    /// Floor division (by a constant: checked later).
    Div(Box<AffineExpr>, Box<AffineExpr>),
}

/// Parse `text`, applying `--set NAME=VALUE` overrides to its `let`s. Every
/// error is a [`Diagnostic`] whose spans point into `text`.
pub fn parse_recipe(text: &str, overrides: &[(String, String)]) -> Result<Recipe, Diagnostic> {
    tokens::check(text)?;
    let tree = syntax::parse(text)?;
    build::build(text, tree, overrides)
}
