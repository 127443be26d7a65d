//! From the syntax tree of a region to the program model ([`Scop`]).
//!
//! This is where "static control" is decided: loop bounds, conditions and
//! subscripts must be affine in the enclosing iterators and the parameters;
//! anything else is rejected with a diagnostic at its exact span.
//!
//! This file walks the tree (loops, conditions, sequence positions);
//! [`pw`] reads bound and subscript expressions, [`accesses`] a
//! statement's reads and writes, [`statement`] builds its sets and
//! relations.

mod accesses;
mod pw;
mod statement;

use accesses::subscripts;
use statement::build_statement;

use std::collections::{BTreeMap, HashMap, HashSet};

use super::affine::{Aff, Atom, Cond, Pw};
use super::decls::Declarations;
use super::macros::FixedMacros;
use crate::poly::{BasicSet, Constraint, Overflow, Space};
use crate::scop::{AccessKind, Array, Scop};
use crate::syntax::c::*;
use crate::syntax::diagnostic::Diagnostic;
use crate::syntax::Span;

/// Build the model of one region. `span` is the region body in the file;
/// `fixed`, the macros whose values the file fixes for it.
pub fn extract(
    tree: Vec<Stmt>,
    region: usize,
    span: Span,
    decls: &Declarations,
    fixed: FixedMacros,
) -> Result<Scop, Diagnostic> {
    let mut w = Walker {
        beta: vec![0],
        fixed,
        ..Walker::default()
    };
    for s in &tree {
        w.prepass(s);
    }
    for s in &tree {
        w.stmt(s)?;
    }
    w.finish(tree, region, span, decls)
}

struct LoopCtx {
    name: String,
    /// +1 for a loop that counts up, -1 for one that counts down.
    sign: i64,
    header: Span,
}

struct RawAccess {
    kind: AccessKind,
    array: String,
    subs: Vec<Pw>,
    span: Span,
}

struct RawStatement {
    label: Option<String>,
    iterators: Vec<String>,
    signs: Vec<i64>,
    domain: Cond,
    beta: Vec<i64>,
    accesses: Vec<RawAccess>,
    body: Expr,
    span: Span,
}

#[derive(Default)]
struct Walker {
    /// Every loop iterator of the region.
    iterators: HashSet<String>,
    /// First write of every written name.
    writes: HashMap<String, Span>,
    loops: Vec<LoopCtx>,
    conds: Vec<Cond>,
    /// Position in each enclosing sequence; the last entry is the next free one.
    beta: Vec<i64>,
    params: Vec<String>,
    statements: Vec<RawStatement>,
    /// Macros the file fixes ([`FixedMacros`]).
    fixed: FixedMacros,
    /// Those read as their values, with them: the context holds each
    /// that is also a parameter at its value.
    fixed_used: BTreeMap<String, i64>,
}

fn overflow(span: &Span) -> impl Fn(Overflow) -> Diagnostic + '_ {
    move |_| {
        Diagnostic::error("integer overflow in an affine expression", span.clone())
            .with_label("coefficients here do not fit in 64 bits")
    }
}

/// The name an assignment writes: `x` in `x = …` and `A` in `A[i] = …`.
fn written_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Var(n) => Some(n),
        ExprKind::Index(base, _) => written_name(base),
        ExprKind::Paren(inner) => written_name(inner),
        _ => None,
    }
}

impl Walker {
    fn prepass(&mut self, s: &Stmt) {
        match s {
            Stmt::For(f) => {
                if let Some((id, _)) = &f.init {
                    self.iterators.insert(id.name.clone());
                }
                self.prepass(&f.body);
            }
            Stmt::If(i) => {
                self.prepass(&i.then);
                if let Some(o) = &i.otherwise {
                    self.prepass(o);
                }
            }
            Stmt::Block(b) => b.iter().for_each(|s| self.prepass(s)),
            Stmt::Expr { expr, .. } => self.prepass_expr(expr),
            Stmt::Unsupported { .. } | Stmt::Empty => {}
        }
    }

    fn prepass_expr(&mut self, e: &Expr) {
        // `a = b = c` writes `b` too.
        if let ExprKind::Assign(_, _, rhs) = &e.kind {
            if let ExprKind::Assign(..) = strip(rhs).kind {
                self.prepass_expr(strip(rhs));
            }
        }
        let target = match &e.kind {
            ExprKind::Assign(_, lhs, _) => Some(lhs),
            ExprKind::Unary(
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec,
                x,
            ) => Some(x),
            _ => None,
        };
        if let Some(name) = target.and_then(|t| written_name(t)) {
            self.writes
                .entry(name.to_string())
                .or_insert_with(|| e.span.clone());
        }
    }

    fn next_beta(&mut self) -> Vec<i64> {
        let b = self.beta.clone();
        if let Some(last) = self.beta.last_mut() {
            *last += 1;
        }
        b
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), Diagnostic> {
        match s {
            Stmt::Empty => Ok(()),
            Stmt::Block(b) => b.iter().try_for_each(|s| self.stmt(s)),
            Stmt::Unsupported { what, span } => Err(Diagnostic::error(
                format!("{what} is not allowed in a scop region"),
                span.clone(),
            )
            .with_label("not static control")
            .with_note("a scop region may hold only `for` loops, `if` conditions and assignments")),
            Stmt::If(i) => {
                let cond = self.condition(&i.cond)?;
                self.conds.push(cond.clone());
                self.stmt(&i.then)?;
                self.conds.pop();
                if let Some(o) = &i.otherwise {
                    self.conds.push(Cond::Not(Box::new(cond)));
                    self.stmt(o)?;
                    self.conds.pop();
                }
                Ok(())
            }
            Stmt::For(f) => self.for_loop(f),
            Stmt::Expr { label, expr, span } => {
                let parts = split_chain(expr, span);
                let mut label = label.clone();
                for (e, span) in &parts {
                    self.statement(&label.take(), e, span)?;
                }
                Ok(())
            }
        }
    }

    fn for_loop(&mut self, f: &ForLoop) -> Result<(), Diagnostic> {
        let header = f.span.start..f.step_span.end + 1;
        let Some((id, init)) = &f.init else {
            return Err(Diagnostic::error(
                "a loop must start by assigning its iterator",
                f.init_span.clone(),
            )
            .with_label("expected `i = expression` or `int i = expression`"));
        };
        let name = id.name.clone();
        if let Some(outer) = self.loops.iter().find(|l| l.name == name) {
            return Err(Diagnostic::error(
                format!("loop iterator `{name}` is already the iterator of an enclosing loop"),
                id.span.clone(),
            )
            .with_label("reused here")
            .with_secondary(outer.header.clone(), "enclosing loop"));
        }
        let step = self.step(f, &name)?;
        // The iterator is in scope for its own condition and bounds.
        let init = self.pw(init, "a loop bound")?;
        self.loops.push(LoopCtx {
            name: name.clone(),
            sign: step.signum(),
            header: header.clone(),
        });
        let result = self.loop_body(f, &name, step, init);
        self.loops.pop();
        result
    }

    fn loop_body(
        &mut self,
        f: &ForLoop,
        name: &str,
        step: i64,
        init: Pw,
    ) -> Result<(), Diagnostic> {
        let me = Atom::Name(name.to_string());
        let it = Pw::Aff(Aff::var(me.clone()));
        let span = &f.init_span;
        // Lower bound (counting up) or upper bound (counting down) from the init.
        let from_init = if step > 0 {
            it.add(&init.scale(-1).map_err(overflow(span))?)
        } else {
            init.add(&it.scale(-1).map_err(overflow(span))?)
        }
        .map_err(overflow(span))?;
        let mut parts = vec![from_init.ge_zero()];
        if step.abs() > 1 {
            // A stride from the start, whichever piece of it applies
            // (`1 + i % 2` has one per sign of `i`).
            let stride = init
                .congruent(&Aff::var(me.clone()), step.abs())
                .map_err(overflow(span))?;
            parts.push(stride);
        }
        let Some(cond) = &f.cond else {
            return Err(
                Diagnostic::error("a loop needs a condition", f.cond_span.clone())
                    .with_label("no condition: the loop would not be bounded"),
            );
        };
        for c in conjuncts(cond) {
            let (lhs, op, rhs) = match &c.kind {
                ExprKind::Binary(
                    op @ (BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge),
                    l,
                    r,
                ) => (l, *op, r),
                _ => {
                    return Err(Diagnostic::error(
                        "a loop condition must compare with `<`, `<=`, `>` or `>=`",
                        c.span.clone(),
                    )
                    .with_label("not a bound on the iterator")
                    .with_note("several comparisons may be joined with `&&`"))
                }
            };
            let cmp = self.compare(lhs, op, rhs, &c.span, "a loop bound")?;
            // Every piece must bound the iterator in the direction it moves.
            let ok = cmp.pieces().iter().all(|p| p.coeff(&me) * step < 0);
            if !ok {
                let dir = if step > 0 { "above" } else { "below" };
                return Err(Diagnostic::error(
                    format!("this condition does not bound `{name}` from {dir}"),
                    c.span.clone(),
                )
                .with_label(format!(
                    "the loop steps by {step}, so it must stop when `{name}` grows too {}",
                    if step > 0 { "large" } else { "small" }
                ))
                .with_note("polyc needs every loop to be a counted loop over its iterator"));
            }
            parts.push(cmp.ge_zero());
        }
        self.conds.push(Cond::And(parts));
        let own = self.next_beta();
        self.beta = own;
        self.beta.push(0);
        let r = self.stmt(&f.body);
        self.beta.pop();
        if let Some(last) = self.beta.last_mut() {
            *last += 1;
        }
        self.conds.pop();
        r
    }

    /// The step of a loop as a non-zero constant.
    fn step(&mut self, f: &ForLoop, name: &str) -> Result<i64, Diagnostic> {
        let bad = || {
            Diagnostic::error("unsupported loop step", f.step_span.clone())
                .with_label(format!("expected `{name}++`, `{name}--`, `{name} += c`, `{name} -= c` or `{name} = {name} + c`"))
                .with_note("c must be a non-zero integer constant")
        };
        let Some(step) = &f.step else {
            return Err(bad());
        };
        let is_me = |e: &Expr| matches!(&strip(e).kind, ExprKind::Var(n) if n == name);
        let constant = |w: &mut Walker, e: &Expr| -> Result<i64, Diagnostic> {
            let v = w.pw(e, "a loop step")?;
            w.constant_of(&v).ok_or_else(|| {
                Diagnostic::error("the loop step must be a constant", e.span.clone())
                    .with_label("not an integer constant")
            })
        };
        let value = match &step.kind {
            ExprKind::Unary(UnaryOp::PreInc | UnaryOp::PostInc, x) if is_me(x) => 1,
            ExprKind::Unary(UnaryOp::PreDec | UnaryOp::PostDec, x) if is_me(x) => -1,
            ExprKind::Assign(op, x, c) if is_me(x) && op == "+=" => constant(self, c)?,
            ExprKind::Assign(op, x, c) if is_me(x) && op == "-=" => {
                constant(self, c)?.checked_neg().ok_or_else(bad)?
            }
            ExprKind::Assign(op, x, rhs) if is_me(x) && op == "=" => match &strip(rhs).kind {
                ExprKind::Binary(BinaryOp::Add, a, c) if is_me(a) => constant(self, c)?,
                ExprKind::Binary(BinaryOp::Add, c, a) if is_me(a) => constant(self, c)?,
                ExprKind::Binary(BinaryOp::Sub, a, c) if is_me(a) => {
                    constant(self, c)?.checked_neg().ok_or_else(bad)?
                }
                _ => return Err(bad()),
            },
            _ => return Err(bad()),
        };
        if value == 0 {
            return Err(
                Diagnostic::error("the loop step is zero", f.step_span.clone())
                    .with_label("this loop would never end"),
            );
        }
        Ok(value)
    }

    /// `lhs op rhs` as a piecewise value `v` with the meaning `v >= 0`.
    fn compare(
        &mut self,
        lhs: &Expr,
        op: BinaryOp,
        rhs: &Expr,
        span: &Span,
        what: &str,
    ) -> Result<Pw, Diagnostic> {
        let l = self.pw(lhs, what)?;
        let r = self.pw(rhs, what)?;
        let (a, b, off) = match op {
            BinaryOp::Ge => (l, r, 0),
            BinaryOp::Gt => (l, r, -1),
            BinaryOp::Le => (r, l, 0),
            _ => (r, l, -1), // Lt
        };
        a.add(&b.scale(-1).map_err(overflow(span))?)
            .and_then(|d| d.add(&Pw::constant(off)))
            .map_err(overflow(span))
    }

    /// An affine condition of an `if`.
    fn condition(&mut self, e: &Expr) -> Result<Cond, Diagnostic> {
        match &e.kind {
            ExprKind::Paren(x) => self.condition(x),
            ExprKind::Unary(UnaryOp::Not, x) => Ok(Cond::Not(Box::new(self.condition(x)?))),
            ExprKind::Binary(BinaryOp::And, a, b) => {
                Ok(Cond::And(vec![self.condition(a)?, self.condition(b)?]))
            }
            ExprKind::Binary(BinaryOp::Or, a, b) => {
                Ok(Cond::Or(vec![self.condition(a)?, self.condition(b)?]))
            }
            ExprKind::Binary(
                op @ (BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge),
                a,
                b,
            ) => Ok(self.compare(a, *op, b, &e.span, "a condition")?.ge_zero()),
            ExprKind::Binary(op @ (BinaryOp::Eq | BinaryOp::Ne), a, b) => {
                let d = self.compare(a, BinaryOp::Ge, b, &e.span, "a condition")?;
                let eq = d.eq_zero().map_err(overflow(&e.span))?;
                Ok(if *op == BinaryOp::Eq {
                    eq
                } else {
                    Cond::Not(Box::new(eq))
                })
            }
            ExprKind::Int(v, _) => Ok(if *v != 0 { Cond::True } else { Cond::False }),
            _ => Err(
                Diagnostic::error("condition is not affine", e.span.clone()).with_label(
                    "expected comparisons of affine expressions joined by `&&`, `||` or `!`",
                ),
            ),
        }
    }

    fn finish(
        self,
        tree: Vec<Stmt>,
        region: usize,
        span: Span,
        decls: &Declarations,
    ) -> Result<Scop, Diagnostic> {
        let params = self.params;
        let is_param = |n: &str| params.iter().any(|p| p == n);
        // Arrays in order of first access; reads of parameters are not accesses.
        let mut arrays: Vec<Array> = Vec::new();
        let mut first_use: HashMap<String, Span> = HashMap::new();
        for st in &self.statements {
            for a in st.accesses.iter().filter(|a| !is_param(&a.array)) {
                match arrays.iter().find(|x| x.name == a.array) {
                    Some(x) if x.n_dims != a.subs.len() => {
                        return Err(Diagnostic::error(
                            format!(
                                "`{}` is accessed with {} here but {} elsewhere",
                                a.array,
                                subscripts(a.subs.len()),
                                subscripts(x.n_dims)
                            ),
                            a.span.clone(),
                        )
                        .with_label("inconsistent number of subscripts")
                        .with_secondary(
                            first_use[&a.array].clone(),
                            format!("{} here", subscripts(x.n_dims)),
                        ));
                    }
                    Some(_) => {}
                    None => {
                        let decl = decls.lookup(&a.array, span.start);
                        arrays.push(Array {
                            name: a.array.clone(),
                            n_dims: a.subs.len(),
                            extents: decl.and_then(|d| {
                                (d.extents.len() == a.subs.len()).then(|| d.extents.clone())
                            }),
                            element_type: decl.map(|d| d.element_type.clone()),
                            local: false,
                        });
                        first_use.insert(a.array.clone(), a.span.clone());
                    }
                }
            }
        }
        let mut statements = Vec::new();
        for (k, raw) in self.statements.into_iter().enumerate() {
            statements.push(build_statement(k, raw, &params)?);
        }
        // A fixed macro read as its value somewhere and as a parameter
        // elsewhere (`i < N` beside `A[i * N + j]`) is that value.
        let mut rows = Vec::new();
        for (name, value) in &self.fixed_used {
            if let Some(k) = params.iter().position(|p| p == name) {
                let mut coeffs = vec![0; params.len()];
                coeffs[k] = 1;
                let constant = value
                    .checked_neg()
                    .ok_or_else(|| overflow(&span)(Overflow))?;
                rows.push(Constraint::eq(coeffs, constant));
            }
        }
        let context = BasicSet::from_parts(Space::set(params.clone(), None, Vec::new()), 0, rows);
        Ok(Scop {
            region,
            span,
            params,
            context,
            arrays,
            statements,
            tree,
        })
    }
}

/// A chained assignment `a = b = c;` as the statements C performs, in order:
/// `b = c;` then `a = b;` (the value of `b = c` is `b` after the store). Any
/// other statement is itself. The last part keeps the statement's span; the
/// others have the span of their assignment.
fn split_chain(e: &Expr, span: &Span) -> Vec<(Expr, Span)> {
    let mut outer: Vec<(&String, &Expr, &Expr, &Span)> = Vec::new();
    let mut cur = e;
    while let ExprKind::Assign(op, lhs, rhs) = &cur.kind {
        let inner = strip(rhs);
        let ExprKind::Assign(_, inner_lhs, _) = &inner.kind else {
            break;
        };
        outer.push((op, lhs, inner_lhs, &cur.span));
        cur = inner;
    }
    if outer.is_empty() {
        return vec![(e.clone(), span.clone())];
    }
    let mut parts = vec![(cur.clone(), cur.span.clone())];
    for (op, lhs, inner_lhs, at) in outer.into_iter().rev() {
        let assign = Expr {
            kind: ExprKind::Assign(
                op.clone(),
                Box::new(lhs.clone()),
                Box::new(inner_lhs.clone()),
            ),
            span: at.clone(),
        };
        parts.push((assign, at.clone()));
    }
    if let Some(last) = parts.last_mut() {
        last.1 = span.clone();
    }
    parts
}

fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Paren(x) => strip(x),
        _ => e,
    }
}

/// The `&&`-joined parts of a loop condition.
fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match &strip(e).kind {
        ExprKind::Binary(BinaryOp::And, a, b) => {
            let mut v = conjuncts(a);
            v.extend(conjuncts(b));
            v
        }
        _ => vec![strip(e)],
    }
}
