//! A small interpreter of a region's syntax tree, for oracles: C semantics
//! of the integer expressions of bounds, conditions and subscripts, the
//! loops run in their original order, and the memory cells each statement
//! instance reads and writes (the front end's access rules, evaluated).

use polyc::scop::AccessKind;
use polyc::syntax::c::{BinaryOp, Expr, ExprKind, ForLoop, Stmt, UnaryOp};
use polyc::syntax::Span;

/// Name bindings: parameters, then the iterators of the enclosing loops.
pub type Env = Vec<(String, i64)>;

/// C semantics of an integer expression (`/` truncates; floord/ceild round).
pub fn eval(e: &Expr, env: &[(String, i64)]) -> i64 {
    match &e.kind {
        ExprKind::Int(v, _) => *v,
        ExprKind::Var(n) => env
            .iter()
            .rev()
            .find(|(k, _)| k == n)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("unbound name `{n}`")),
        ExprKind::Paren(x) => eval(x, env),
        ExprKind::Cast(_, x) => eval(x, env),
        ExprKind::Unary(UnaryOp::Neg, x) => -eval(x, env),
        ExprKind::Unary(UnaryOp::Plus, x) => eval(x, env),
        ExprKind::Unary(UnaryOp::Not, x) => (eval(x, env) == 0) as i64,
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (eval(a, env), eval(b, env));
            match op {
                BinaryOp::Add => a + b,
                BinaryOp::Sub => a - b,
                BinaryOp::Mul => a * b,
                BinaryOp::Div => a / b,
                BinaryOp::Rem => a % b,
                BinaryOp::Lt => (a < b) as i64,
                BinaryOp::Le => (a <= b) as i64,
                BinaryOp::Gt => (a > b) as i64,
                BinaryOp::Ge => (a >= b) as i64,
                BinaryOp::Eq => (a == b) as i64,
                BinaryOp::Ne => (a != b) as i64,
                BinaryOp::And => (a != 0 && b != 0) as i64,
                BinaryOp::Or => (a != 0 || b != 0) as i64,
                _ => panic!("operator not in the test language"),
            }
        }
        ExprKind::Conditional(c, a, b) => {
            if eval(c, env) != 0 {
                eval(a, env)
            } else {
                eval(b, env)
            }
        }
        ExprKind::Call(f, args) => {
            let ExprKind::Var(name) = &f.kind else {
                panic!("call")
            };
            let (a, b) = (eval(&args[0], env), eval(&args[1], env));
            match name.as_str() {
                "min" => a.min(b),
                "max" => a.max(b),
                "floord" => a.div_euclid(b) - if a.rem_euclid(b) != 0 && b < 0 { 1 } else { 0 },
                "ceild" => -((-a).div_euclid(b)),
                _ => panic!("call {name}"),
            }
        }
        ExprKind::Assign(..) => panic!("assignment in expression"),
        _ => panic!("expression not in the test language"),
    }
}

/// One loop level of an executing statement: the loop (its address, which
/// identifies it while the tree lives) and the iterator's value.
pub type LoopValue = (usize, i64);

/// Run `stmts` in C's order; call `visit` at each expression statement with
/// the statement, the bindings and the enclosing loops, outermost first.
pub fn execute(
    stmts: &[Stmt],
    env: &mut Env,
    loops: &mut Vec<LoopValue>,
    visit: &mut dyn FnMut(&Stmt, &Env, &[LoopValue]),
) {
    for s in stmts {
        match s {
            Stmt::Block(b) => execute(b, env, loops, visit),
            Stmt::Expr { .. } => visit(s, env, loops),
            Stmt::Empty => {}
            Stmt::If(i) => {
                if eval(&i.cond, env) != 0 {
                    execute(std::slice::from_ref(&i.then), env, loops, visit);
                } else if let Some(o) = &i.otherwise {
                    execute(std::slice::from_ref(o), env, loops, visit);
                }
            }
            Stmt::For(f) => run_loop(f, env, loops, visit),
            _ => panic!("statement not in the test language"),
        }
    }
}

fn run_loop(
    f: &ForLoop,
    env: &mut Env,
    loops: &mut Vec<LoopValue>,
    visit: &mut dyn FnMut(&Stmt, &Env, &[LoopValue]),
) {
    let (id, init) = f.init.as_ref().expect("init");
    let v = eval(init, env);
    env.push((id.name.clone(), v));
    let mut guard = 0;
    while eval(f.cond.as_ref().expect("cond"), env) != 0 {
        let value = env.last().map(|(_, v)| *v).unwrap_or_default();
        loops.push((std::ptr::from_ref(f) as usize, value));
        execute(std::slice::from_ref(&f.body), env, loops, visit);
        loops.pop();
        let step = f.step.as_ref().expect("step");
        let current = env.last().map(|(_, v)| *v).unwrap_or_default();
        let next = match &step.kind {
            ExprKind::Unary(UnaryOp::PostInc | UnaryOp::PreInc, _) => current + 1,
            ExprKind::Unary(UnaryOp::PostDec | UnaryOp::PreDec, _) => current - 1,
            ExprKind::Assign(op, _, c) if op == "+=" => current + eval(c, env),
            ExprKind::Assign(op, _, c) if op == "-=" => current - eval(c, env),
            ExprKind::Assign(op, _, rhs) if op == "=" => eval(rhs, env),
            _ => panic!("step form"),
        };
        if let Some(last) = env.last_mut() {
            last.1 = next;
        }
        guard += 1;
        assert!(guard < 10_000, "runaway loop");
    }
    env.pop();
}

/// The statements the front end makes of one expression statement: itself,
/// or for a chained assignment `a = b = c` the parts `b = c` then `a = b`,
/// each with the span the front end gives it (the last keeps `span`).
pub fn assignment_parts(expr: &Expr, span: &Span) -> Vec<(Expr, Span)> {
    let mut outer = Vec::new();
    let mut cur = expr;
    while let ExprKind::Assign(op, lhs, rhs) = &cur.kind {
        let inner = strip(rhs);
        let ExprKind::Assign(_, inner_lhs, _) = &inner.kind else {
            break;
        };
        outer.push((op.clone(), lhs.clone(), inner_lhs.clone(), cur.span.clone()));
        cur = inner;
    }
    let mut parts = vec![(cur.clone(), cur.span.clone())];
    for (op, lhs, inner_lhs, at) in outer.into_iter().rev() {
        let kind = ExprKind::Assign(op, lhs, inner_lhs);
        parts.push((
            Expr {
                kind,
                span: at.clone(),
            },
            at,
        ));
    }
    if let Some(last) = parts.last_mut() {
        last.1 = span.clone();
    }
    parts
}

fn strip(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(x) = &e.kind {
        e = x;
    }
    e
}

/// A memory cell: the array (or scalar) and its subscripts' values.
pub type Cell = (String, Vec<i64>);

/// The cells an assignment reads and writes at one instance, by the front
/// end's rules: the left-hand side is written (and read too by a compound
/// assignment or `++`/`--`); every array element and every name that is not
/// bound (a parameter or an iterator) on the right-hand side is read.
pub fn touched(e: &Expr, env: &Env) -> Vec<(AccessKind, Cell)> {
    let mut out = Vec::new();
    match &e.kind {
        ExprKind::Assign(op, lhs, rhs) => {
            out.push((AccessKind::Write, cell(lhs, env)));
            if op != "=" {
                out.push((AccessKind::Read, cell(lhs, env)));
            }
            reads(rhs, env, &mut out);
        }
        ExprKind::Unary(
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec,
            x,
        ) => {
            out.push((AccessKind::Write, cell(x, env)));
            out.push((AccessKind::Read, cell(x, env)));
        }
        _ => panic!("a statement must be an assignment"),
    }
    out
}

fn cell(e: &Expr, env: &Env) -> Cell {
    match &e.kind {
        ExprKind::Paren(x) => cell(x, env),
        ExprKind::Var(n) => (n.clone(), Vec::new()),
        ExprKind::Index(base, subs) => {
            let ExprKind::Var(n) = &base.kind else {
                panic!("array base")
            };
            (n.clone(), subs.iter().map(|s| eval(s, env)).collect())
        }
        _ => panic!("not an lvalue"),
    }
}

fn reads(e: &Expr, env: &Env, out: &mut Vec<(AccessKind, Cell)>) {
    match &e.kind {
        ExprKind::Int(..) | ExprKind::Float(_) | ExprKind::Str(_) => {}
        ExprKind::Var(n) => {
            if !env.iter().any(|(k, _)| k == n) {
                out.push((AccessKind::Read, (n.clone(), Vec::new())));
            }
        }
        ExprKind::Index(..) => out.push((AccessKind::Read, cell(e, env))),
        ExprKind::Call(_, args) => args.iter().for_each(|a| reads(a, env, out)),
        ExprKind::Unary(_, x) | ExprKind::Cast(_, x) | ExprKind::Paren(x) => reads(x, env, out),
        ExprKind::Binary(_, a, b) => {
            reads(a, env, out);
            reads(b, env, out);
        }
        ExprKind::Conditional(c, a, b) => {
            reads(c, env, out);
            reads(a, env, out);
            reads(b, env, out);
        }
        _ => panic!("expression not in the test language"),
    }
}
