//! Printing the loop AST of [`super::scan`] as C: loops with declared
//! variables, guards, statement bodies with their iterators replaced, and
//! the OpenMP pragmas of the loop marks (`--target openmp`).
//!
//! Bounds that need them use the helpers `polyc_floord`, `polyc_ceild`,
//! `polyc_max` and `polyc_min`, defined once per file by [`HELPERS`].

use std::collections::HashMap;
use std::fmt::Write;

use super::c::expr_text;
use super::scan::rewrite::jammed;
use super::scan::{Aff, Cond, Expr, Loop, Node};
use crate::lang::c::ast::{BinaryOp, Expr as CExpr, ExprKind};
use crate::scop::schedule::Mark;
use crate::scop::Scop;

/// The helper macros, guarded so that a file that has them keeps one copy.
pub const HELPERS: &str = "\
#ifndef polyc_floord
#define polyc_floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))
#define polyc_ceild(n, d) (((n) < 0) ? -((-(n)) / (d)) : ((n) + (d) - 1) / (d))
#define polyc_max(x, y) ((x) > (y) ? (x) : (y))
#define polyc_min(x, y) ((x) < (y) ? (x) : (y))
#endif
";

/// Printing options.
#[derive(Clone, Copy, Debug)]
pub struct PrintOptions {
    /// Print OpenMP pragmas for the marks (`--target openmp`).
    pub pragmas: bool,
}

const STEP: &str = "  ";

struct Printer<'a> {
    scop: &'a Scop,
    opts: PrintOptions,
    /// Unrolled copies: a loop variable stands for itself plus this offset.
    offsets: HashMap<String, i64>,
    out: String,
    labels_done: Vec<usize>,
}

/// The loop AST as C statements, each line starting with `indent`.
pub fn print_loops(nodes: &[Node], scop: &Scop, indent: &str, opts: PrintOptions) -> String {
    let mut p = Printer {
        scop,
        opts,
        offsets: HashMap::new(),
        out: String::new(),
        labels_done: Vec::new(),
    };
    for n in nodes {
        p.node(n, indent);
    }
    p.out
}

impl Printer<'_> {
    fn node(&mut self, n: &Node, indent: &str) {
        match n {
            Node::Stmt {
                statement,
                iterators,
            } => self.stmt(*statement, iterators, indent),
            Node::If { conds, body } => {
                let text: Vec<String> = conds.iter().map(|c| self.cond(c)).collect();
                let _ = write!(self.out, "{indent}if ({})", text.join(" && "));
                self.body(body, indent);
            }
            Node::For(l) => self.for_loop(l, indent),
        }
    }

    /// ` {` … `}` for several nodes, else the node on its own line.
    fn body(&mut self, body: &[Node], indent: &str) {
        let inner = format!("{indent}{STEP}");
        // A loop printed as several statements (unrolled) or under a
        // pragma gets braces.
        let several = |n: &Node| match n {
            Node::For(l) => {
                l.marks.iter().any(|m| {
                    matches!(
                        m,
                        Mark::Unroll(_) | Mark::UnrollNoEpilog(_) | Mark::UnrollJam(_)
                    )
                }) || (self.opts.pragmas
                    && l.marks
                        .iter()
                        .any(|m| matches!(m, Mark::Parallel | Mark::Vector)))
            }
            _ => false,
        };
        if body.len() == 1 && !several(&body[0]) {
            self.out.push('\n');
            self.node(&body[0], &inner);
        } else {
            self.out.push_str(" {\n");
            for n in body {
                self.node(n, &inner);
            }
            let _ = writeln!(self.out, "{indent}}}");
        }
    }

    fn stmt(&mut self, s: usize, iterators: &[(Aff, i64)], indent: &str) {
        let Some(st) = self.scop.statements.get(s) else {
            return;
        };
        let mut map = HashMap::new();
        for (name, (aff, div)) in st.iterators.iter().zip(iterators) {
            let text = self.aff(aff);
            // A name or a non-negative literal needs no parentheses.
            let simple = (aff.terms.len() == 1 && aff.constant == 0 && aff.terms[0].0 == 1)
                || (aff.terms.is_empty() && aff.constant >= 0);
            let bare = match (*div, simple) {
                (1, _) => text,
                (q, true) => format!("{text} / {q}"),
                (q, false) => format!("({text}) / {q}"),
            };
            let operand = if simple && *div == 1 {
                bare.clone()
            } else {
                format!("({bare})")
            };
            map.insert(name.clone(), Substitute { bare, operand });
        }
        let body = substitute(&st.body, &map);
        let label = match &st.label {
            Some(l) if !self.labels_done.contains(&s) => {
                self.labels_done.push(s);
                format!("{l}: ")
            }
            _ => String::new(),
        };
        let _ = writeln!(self.out, "{indent}{label}{};", expr_text(&body));
    }

    fn for_loop(&mut self, l: &Loop, indent: &str) {
        // `unroll_noepilog` gets its remainder loop too: polyc does not
        // prove that the trip count is a multiple of the factor, and a
        // remainder that runs no iteration costs one test.
        let unroll = l.marks.iter().find_map(|m| match m {
            Mark::Unroll(k) | Mark::UnrollNoEpilog(k) if *k > 1 && !l.down => {
                Some((i64::from(*k), false))
            }
            Mark::UnrollJam(k) if *k > 1 && !l.down => Some((i64::from(*k), true)),
            _ => None,
        });
        if self.opts.pragmas {
            if l.marks.contains(&Mark::Parallel) {
                let mut private = Vec::new();
                collect_private(&l.body, &mut private);
                if unroll.is_some() && !l.declare {
                    // The variable outlives the loop: still one per thread.
                } else {
                    private.retain(|n| *n != l.var);
                }
                if private.is_empty() {
                    let _ = writeln!(self.out, "{indent}#pragma omp parallel for");
                } else {
                    let _ = writeln!(
                        self.out,
                        "{indent}#pragma omp parallel for private({})",
                        private.join(", ")
                    );
                }
            } else if l.marks.contains(&Mark::Vector) && unroll.is_none() {
                let _ = writeln!(self.out, "{indent}#pragma omp simd");
            }
        }
        let v = &l.var;
        let decl = if l.declare { "int " } else { "" };
        if let Some((k, jam)) = unroll {
            self.unrolled(l, k, jam, indent);
            return;
        }
        let (lo, up) = (self.expr(&l.lower), self.expr(&l.upper));
        if l.down {
            let _ = write!(
                self.out,
                "{indent}for ({decl}{v} = {up}; {v} >= {lo}; {v}--)"
            );
        } else {
            let cond = self.upper_cond(v, &l.upper);
            let step = if l.stride == 1 {
                format!("{v}++")
            } else {
                format!("{v} += {}", l.stride)
            };
            let _ = write!(self.out, "{indent}for ({decl}{v} = {lo}; {cond}; {step})");
        }
        self.body(&l.body, indent);
    }

    /// `v <= e`, written `v < e + 1` when that drops a `- 1`.
    fn upper_cond(&self, v: &str, upper: &Expr) -> String {
        if let Expr::Ceil(a, 1) | Expr::Floor(a, 1) = upper {
            if a.constant < 0 && !a.terms.is_empty() {
                let mut b = a.clone();
                b.constant += 1;
                return format!("{v} < {}", self.aff(&b));
            }
        }
        format!("{v} <= {}", self.expr(upper))
    }

    /// The loop written out `k` times per iteration (with `jam`, the copies
    /// in its innermost loop, when the nest allows it), then the
    /// remainder.
    fn unrolled(&mut self, l: &Loop, k: i64, jam: bool, indent: &str) {
        let v = &l.var;
        let s = l.stride;
        let lo = self.expr(&l.lower);
        let mut inner_indent = indent.to_string();
        if l.declare {
            let _ = writeln!(self.out, "{indent}{{");
            inner_indent.push_str(STEP);
            let _ = writeln!(self.out, "{inner_indent}int {v};");
        }
        let ind = inner_indent.as_str();
        let last = format!("{v} + {}", (k - 1).saturating_mul(s));
        let _ = writeln!(
            self.out,
            "{ind}for ({v} = {lo}; {}; {v} += {}) {{",
            self.upper_cond(&last, &l.upper),
            k.saturating_mul(s)
        );
        let deeper = format!("{ind}{STEP}");
        match jam.then(|| jammed(&l.body, v, k, s)).flatten() {
            Some(body) => {
                for n in &body {
                    self.node(n, &deeper);
                }
            }
            None => {
                let saved = self.offsets.get(v).copied();
                for j in 0..k {
                    self.offsets.insert(
                        v.clone(),
                        saved.unwrap_or(0).saturating_add(j.saturating_mul(s)),
                    );
                    for n in &l.body {
                        self.node(n, &deeper);
                    }
                }
                match saved {
                    Some(o) => self.offsets.insert(v.clone(), o),
                    None => self.offsets.remove(v),
                };
            }
        }
        let _ = writeln!(self.out, "{ind}}}");
        let step = if s == 1 {
            format!("{v}++")
        } else {
            format!("{v} += {s}")
        };
        let _ = write!(
            self.out,
            "{ind}for (; {}; {step})",
            self.upper_cond(v, &l.upper)
        );
        self.body(&l.body, ind);
        if l.declare {
            let _ = writeln!(self.out, "{indent}}}");
        }
    }

    fn cond(&self, c: &Cond) -> String {
        // Positive terms on the left, the rest on the right.
        let mut left = Aff::default();
        let mut right = Aff {
            terms: Vec::new(),
            constant: -c.aff.constant,
        };
        for (v, n) in &c.aff.terms {
            if *v > 0 {
                left.terms.push((*v, n.clone()));
            } else {
                right.terms.push((-v, n.clone()));
            }
        }
        let op = if c.eq { "==" } else { ">=" };
        if left.terms.is_empty() {
            let op = if c.eq { "==" } else { "<=" };
            let k = right.constant;
            right.constant = 0;
            return format!("{} {op} {}", self.aff(&right), -k);
        }
        format!("{} {op} {}", self.aff(&left), self.aff(&right))
    }

    fn aff(&self, a: &Aff) -> String {
        let mut s = String::new();
        let mut constant = a.constant;
        for (c, name) in &a.terms {
            if let Some(o) = self.offsets.get(name) {
                constant = constant.saturating_add(c.saturating_mul(*o));
            }
        }
        for (c, name) in &a.terms {
            let mag = c.abs();
            if s.is_empty() {
                if *c < 0 {
                    s.push('-');
                }
            } else {
                s.push_str(if *c < 0 { " - " } else { " + " });
            }
            if mag != 1 {
                let _ = write!(s, "{mag} * ");
            }
            s.push_str(name);
        }
        if s.is_empty() {
            return constant.to_string();
        }
        if constant > 0 {
            let _ = write!(s, " + {constant}");
        } else if constant < 0 {
            let _ = write!(s, " - {}", constant.unsigned_abs());
        }
        s
    }

    fn expr(&self, e: &Expr) -> String {
        match e {
            Expr::Ceil(a, 1) | Expr::Floor(a, 1) => self.aff(a),
            Expr::Ceil(a, q) => format!("polyc_ceild({}, {q})", self.aff(a)),
            Expr::Floor(a, q) => format!("polyc_floord({}, {q})", self.aff(a)),
            Expr::Max(v) | Expr::Min(v) => {
                let f = if matches!(e, Expr::Max(_)) {
                    "polyc_max"
                } else {
                    "polyc_min"
                };
                let mut parts: Vec<String> = v.iter().map(|x| self.expr(x)).collect();
                let mut acc = parts.pop().unwrap_or_default();
                while let Some(p) = parts.pop() {
                    acc = format!("{f}({p}, {acc})");
                }
                acc
            }
            Expr::StrideStart {
                lower,
                offset,
                stride,
            } => {
                if let Expr::Ceil(l, 1) = lower.as_ref() {
                    if l.is_constant() && offset.is_constant() {
                        // Folded when it fits; else the general form below.
                        let start = l.constant.checked_sub(offset.constant).and_then(|diff| {
                            let up = i64::from(diff.rem_euclid(*stride) != 0);
                            diff.div_euclid(*stride)
                                .checked_add(up)?
                                .checked_mul(*stride)?
                                .checked_add(offset.constant)
                        });
                        if let Some(start) = start {
                            return start.to_string();
                        }
                    }
                }
                let off = self.aff(offset);
                format!(
                    "{off} + {stride} * polyc_ceild({} - ({off}), {stride})",
                    self.expr(lower)
                )
            }
        }
    }
}

/// Loop variables in `nodes` that the file declares outside the region:
/// a parallel loop must make them private.
fn collect_private(nodes: &[Node], out: &mut Vec<String>) {
    for n in nodes {
        match n {
            Node::For(l) => {
                if !l.declare && !out.contains(&l.var) {
                    out.push(l.var.clone());
                }
                collect_private(&l.body, out);
            }
            Node::If { body, .. } => collect_private(body, out),
            Node::Stmt { .. } => {}
        }
    }
}

/// `e` with every variable named in `map` replaced by its text.
/// The text that replaces an iterator: `bare` where the iterator is a
/// whole subscript or argument, `operand` (parenthesized unless atomic)
/// inside a larger expression.
struct Substitute {
    bare: String,
    operand: String,
}

/// `e` with the iterators replaced; a subscript, an argument or the left
/// operand of `+`/`-` that is just an iterator gets the bare text
/// (`A[k + 1]`, not `A[(k + 1)]`).
fn substitute(e: &CExpr, map: &HashMap<String, Substitute>) -> CExpr {
    let whole = |x: &CExpr| match &x.kind {
        ExprKind::Var(n) => match map.get(n) {
            Some(t) => CExpr {
                kind: ExprKind::Var(t.bare.clone()),
                span: x.span.clone(),
            },
            None => x.clone(),
        },
        _ => substitute(x, map),
    };
    let kind = match &e.kind {
        ExprKind::Var(n) => match map.get(n) {
            Some(t) => ExprKind::Var(t.operand.clone()),
            None => ExprKind::Var(n.clone()),
        },
        ExprKind::Index(b, subs) => ExprKind::Index(
            Box::new(substitute(b, map)),
            subs.iter().map(whole).collect(),
        ),
        ExprKind::Call(f, args) => ExprKind::Call(f.clone(), args.iter().map(whole).collect()),
        ExprKind::Member(b, f) => ExprKind::Member(Box::new(substitute(b, map)), f.clone()),
        ExprKind::Unary(op, x) => ExprKind::Unary(*op, Box::new(substitute(x, map))),
        ExprKind::Cast(t, x) => ExprKind::Cast(t.clone(), Box::new(substitute(x, map))),
        // A sum needs no parentheses as the left operand of `+` or `-`.
        ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) => {
            ExprKind::Binary(*op, Box::new(whole(a)), Box::new(substitute(b, map)))
        }
        ExprKind::Binary(op, a, b) => ExprKind::Binary(
            *op,
            Box::new(substitute(a, map)),
            Box::new(substitute(b, map)),
        ),
        ExprKind::Conditional(c, a, b) => ExprKind::Conditional(
            Box::new(substitute(c, map)),
            Box::new(substitute(a, map)),
            Box::new(substitute(b, map)),
        ),
        ExprKind::Assign(op, a, b) => ExprKind::Assign(
            op.clone(),
            Box::new(substitute(a, map)),
            Box::new(substitute(b, map)),
        ),
        ExprKind::Paren(x) => ExprKind::Paren(Box::new(substitute(x, map))),
        k => k.clone(),
    };
    CExpr {
        kind,
        span: e.span.clone(),
    }
}
