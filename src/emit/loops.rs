//! Printing the loop AST of [`super::scan`] as C: loops with declared
//! variables, guards, statement bodies with their iterators replaced, and
//! the OpenMP pragmas of the loop marks (`--target openmp`); or, by
//! [`cuda`], as CUDA kernels and the host code that launches them.
//!
//! Bounds that need them use the helpers `polyc_floord`, `polyc_ceild`,
//! `polyc_max` and `polyc_min`, defined once per file by [`HELPERS`]
//! (inline functions: nested macros would expand exponentially).
//!
//! Unrolled loops are printed by [`unroll`] (their copies of one update
//! folded into one assignment by [`fold`]), statement bodies rewritten by
//! [`substitute`] (subscripts whose terms cancel folded first by
//! [`subscripts`]), each loop's OpenMP pragma chosen by
//! [`pragmas`] (with [`region`] and [`clauses`]), and [`int_range`]
//! refuses constants beyond C `int`.
//!
//! Length: the one `Printer` and its state (offsets of unrolled copies,
//! the OpenMP construct printing stands in, the jam groups), which every
//! submodule extends; what could move out (unrolling, pragmas, folding,
//! substitution) already has.

use std::cell::Cell;
use std::collections::HashMap;
use std::fmt::Write;

mod clauses;
pub mod cuda;

pub use cuda::print_cuda;
mod fold;
mod int_range;
mod pragmas;
mod quotients;
mod region;
mod subscripts;
mod substitute;
mod unroll;

use super::outline::{outline, FileScope, Outlined, ParallelConstruct};
use super::pack::Buffer;
use super::scan::{Cond, Expr, Loop, Node, Quotient, Sum};
use crate::scop::schedule::Mark;
use crate::scop::Scop;
use crate::syntax::c::{Expr as CExpr, ExprKind};
use crate::syntax::print::expr_text;
use fold::{fold_copies, updated_cell};
use int_range::{domains_are_int, first_constant_beyond_int, is_int};
use pragmas::Place;
use substitute::{substitute, Substitute};

/// The helpers, guarded so that a file that has them keeps one copy.
/// Functions, not macros: a macro repeats its arguments, so a bound of
/// sixteen nested `polyc_max` (a jammed wavefront's) expanded to 2^16
/// copies of the innermost, and gcc and clang took minutes on 33 KB of
/// C (seed 301). `long long` holds every value a loop of `int`s or of the
/// kernel's own wider types compares with; `unused` keeps clang quiet
/// about the ones a file does not call.
pub const HELPERS: &str = "\
#ifndef polyc_floord
#define polyc_floord polyc_floord
static inline __attribute__((unused)) long long polyc_floord(long long n, long long d) { return n < 0 ? -((-n + d - 1) / d) : n / d; }
static inline __attribute__((unused)) long long polyc_ceild(long long n, long long d) { return n < 0 ? -((-n) / d) : (n + d - 1) / d; }
static inline __attribute__((unused)) long long polyc_max(long long x, long long y) { return x > y ? x : y; }
static inline __attribute__((unused)) long long polyc_min(long long x, long long y) { return x < y ? x : y; }
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
    /// The buffers of packed loops (`emit::pack`): declared before the
    /// loops, private to the threads of a parallel loop around their copy.
    buffers: &'a [Buffer],
    opts: PrintOptions,
    /// Unrolled copies: a loop variable stands for itself plus this offset.
    offsets: HashMap<String, i64>,
    out: String,
    labels_done: Vec<usize>,
    /// Whether the constants the printer computes must be C `int`s (they
    /// must, unless the kernel's own domains have wider ones).
    int_only: bool,
    /// The first constant the printer computed (an unrolled copy's
    /// offset, an unrolled loop's step) that is out of range: not a C
    /// `int` (under `int_only`), or past 64 bits (`None`). The text is
    /// then wrong and is not returned.
    too_large: Cell<Option<Option<i64>>>,
    /// Where the loop being printed stands among OpenMP's constructs.
    place: Place,
    /// How many loops below the one just printed its `collapse` pragma
    /// covers: they print no pragma of their own.
    collapsed: u32,
    /// Why a pragma's clauses could not be printed (the first reason).
    refused: Option<String>,
    /// How many copies of the loops jammed around the one being printed
    /// its innermost bodies hold (1 outside any jammed loop): a jam inside
    /// keeps each copy's run together ([`crate::emit::scan::rewrite::jammed`]).
    jam_groups: usize,
    /// Printing CUDA: on the host or in a kernel ([`cuda`]).
    gpu: Option<cuda::Gpu>,
    /// The parallel construct the loop being printed opens outside every
    /// other, from its pragma on ([`pragmas`]).
    opening: Option<ParallelConstruct>,
    /// The parallel constructs printed outside every other, in order:
    /// what [`crate::emit::outline`] may move into functions.
    constructs: Vec<ParallelConstruct>,
    /// The variables of the loops around the one being printed that the
    /// printed code declares (`for (int c1 = …)`).
    declared_around: Vec<String>,
}

/// Why loops could not be printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrintError {
    /// A constant of the generated code does not fit in a C `int` (the
    /// loops count with `int`s), as this value, or past 64 bits (`None`).
    BeyondInt(Option<i64>),
    /// A `collapse` clause on loops that are not a perfect rectangular
    /// nest, and why ([`clauses`]).
    Collapse(String),
    /// Mapped loops that CUDA cannot run as blocks and threads, and why
    /// ([`cuda::check_mapping`]).
    Cuda(String),
}

impl std::fmt::Display for PrintError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PrintError::BeyondInt(Some(v)) => write!(
                f,
                "the generated loops would need the constant {v}, outside the range of a C `int` (the loops count with `int`s)"
            ),
            PrintError::BeyondInt(None) => f.write_str(
                "the generated loops would need a constant past 64 bits, outside the range of a C `int` (the loops count with `int`s)",
            ),
            PrintError::Collapse(why) | PrintError::Cuda(why) => f.write_str(why),
        }
    }
}

/// The loop AST as C statements, each line starting with `indent`; an
/// error when a constant it would print is not a C `int`. With
/// `buffers`, the statements are a block that declares them first.
pub fn print_loops(
    nodes: &[Node],
    scop: &Scop,
    indent: &str,
    opts: PrintOptions,
    buffers: &[Buffer],
) -> Result<String, PrintError> {
    print_loops_in(nodes, scop, indent, opts, buffers, None).map(|p| p.body)
}

/// [`print_loops`], with the parallel constructs outside every other moved
/// into functions where `scope`, the file around the region, allows
/// ([`crate::emit::outline`]; not in a region with buffers).
pub fn print_loops_in(
    nodes: &[Node],
    scop: &Scop,
    indent: &str,
    opts: PrintOptions,
    buffers: &[Buffer],
    scope: Option<&FileScope>,
) -> Result<Outlined, PrintError> {
    if !buffers.is_empty() {
        let inner = format!("{indent}{STEP}");
        let body = print_block(nodes, scop, &inner, opts, buffers, None)?.body;
        let mut out = format!("{indent}{{\n");
        // A buffer whose loop scanning left out (empty for every value of
        // the parameters the context allows) is not declared: it would be
        // an unused variable.
        for b in buffers.iter().filter(|b| reads(&body, &b.name)) {
            let dims: String = b.extents.iter().map(|e| format!("[{e}]")).collect();
            let _ = writeln!(out, "{inner}{} {}{dims};", b.element_type, b.name);
        }
        out.push_str(&body);
        let _ = writeln!(out, "{indent}}}");
        return Ok(Outlined {
            body: out,
            functions: String::new(),
        });
    }
    print_block(nodes, scop, indent, opts, buffers, scope)
}

/// The loop AST as C statements, each line starting with `indent`, the
/// buffers private where a parallel loop fills them; the top-level
/// parallel constructs outlined where `scope` is given.
fn print_block(
    nodes: &[Node],
    scop: &Scop,
    indent: &str,
    opts: PrintOptions,
    buffers: &[Buffer],
    scope: Option<&FileScope>,
) -> Result<Outlined, PrintError> {
    let int_only = domains_are_int(scop);
    if int_only {
        if let Some(v) = first_constant_beyond_int(nodes) {
            return Err(PrintError::BeyondInt(Some(v)));
        }
    }
    let mut p = Printer::new(scop, buffers, opts, int_only);
    p.nodes(nodes, indent);
    let mut functions = String::new();
    if let Some(scope) = scope {
        let outlined = outline(scope, scop, &p.out, &p.constructs);
        p.out = outlined.body;
        functions = outlined.functions;
    }
    // What the outlined functions read is read too.
    let read = format!("{}{functions}", p.out);
    p.out.insert_str(0, &unread_uses(&read, scop, indent, true));
    if let Some(v) = p.too_large.get() {
        return Err(PrintError::BeyondInt(v));
    }
    if let Some(why) = p.refused {
        return Err(PrintError::Collapse(why));
    }
    Ok(Outlined {
        body: p.out,
        functions,
    })
}

/// A use that reads no value for each name the region's code `text` no
/// longer reads and the compiler would then warn of
/// (`-Wunused-variable`, `-Wunused-parameter`), one line each starting
/// with `indent`: `(void)&i;` for an iterator the file declares outside
/// the region (`int t, i;` before `for (t = 0; …)`) once, say, a
/// one-iteration loop was substituted, and, with `arrays`, for an array
/// or scalar of the file that only statements without instances accessed
/// (`C` in `if (i % 2 == 1) D[i] = C[i];` under `for (i = 0; i < n; i +=
/// 2)`; CUDA's host code copies every array, so reads each); `(void)n;`
/// for a parameter a context fixed (its value printed in its place). In
/// a stable order; judged on the text, which is what the compiler sees.
fn unread_uses(text: &str, scop: &Scop, indent: &str, arrays: bool) -> String {
    let file_arrays = scop.arrays.iter().filter(|a| arrays && !a.local);
    let mut iterators: Vec<String> = scop
        .outer_declared_iterators()
        .into_iter()
        .chain(file_arrays.map(|a| a.name.clone()))
        .filter(|name| !reads(text, name))
        .collect();
    iterators.sort();
    let mut out = String::new();
    for name in iterators {
        let _ = writeln!(out, "{indent}(void)&{name};");
    }
    for name in scop.params.iter().filter(|name| !reads(text, name)) {
        let _ = writeln!(out, "{indent}(void){name};");
    }
    out
}

/// Whether C `text` holds the identifier `name`.
pub(super) fn reads(text: &str, name: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|word| word == name)
}

impl<'a> Printer<'a> {
    fn new(scop: &'a Scop, buffers: &'a [Buffer], opts: PrintOptions, int_only: bool) -> Self {
        Printer {
            scop,
            buffers,
            opts,
            offsets: HashMap::new(),
            out: String::new(),
            labels_done: Vec::new(),
            int_only,
            too_large: Cell::new(None),
            place: Place::Serial,
            collapsed: 0,
            refused: None,
            jam_groups: 1,
            gpu: None,
            opening: None,
            constructs: Vec::new(),
            declared_around: Vec::new(),
        }
    }
}

impl Printer<'_> {
    fn node(&mut self, n: &Node, indent: &str) {
        match n {
            Node::Stmt {
                statement,
                iterators,
            } => {
                if let Some(body) = self.stmt_body(*statement, iterators) {
                    self.stmts(&[(*statement, body)], indent);
                }
            }
            Node::If {
                conds,
                body,
                otherwise,
            } => {
                let _ = write!(self.out, "{indent}if ({})", self.conjunction(conds));
                if otherwise.is_empty() {
                    self.body(body, indent);
                } else {
                    // Braces on both branches: no `else` dangles.
                    self.block(body, indent);
                    let _ = write!(self.out, "{indent}}} else");
                    self.block(otherwise, indent);
                    let _ = writeln!(self.out, "{indent}}}");
                }
            }
            Node::For(l) => self.for_loop(l, indent),
        }
    }

    /// ` {` and the nodes, one step in (the caller closes the brace).
    fn block(&mut self, body: &[Node], indent: &str) {
        let inner = format!("{indent}{STEP}");
        self.out.push_str(" {\n");
        self.nodes(body, &inner);
    }

    /// ` {` … `}` for several nodes, else the node on its own line.
    fn body(&mut self, body: &[Node], indent: &str) {
        let inner = format!("{indent}{STEP}");
        if body.len() == 1 && !self.several(&body[0]) && !self.gpu_braces() {
            self.out.push('\n');
            self.node(&body[0], &inner);
        } else {
            self.out.push_str(" {\n");
            self.nodes(body, &inner);
            let _ = writeln!(self.out, "{indent}}}");
        }
    }

    /// Whether `n` prints as several statements, or as one under a pragma
    /// (which needs braces around it as the body of a loop or guard): an
    /// unrolled loop, a marked one, a one-iteration loop's assignment and
    /// body (unless in a block of its own), or what the body of a
    /// one-iteration loop that does not use its variable prints.
    fn several(&self, n: &Node) -> bool {
        let l = match n {
            Node::For(l) => l,
            // An `if … else` as the body of an `if` would leave its
            // `else` dangling (clang's -Wdangling-else).
            Node::If { otherwise, .. } => return !otherwise.is_empty(),
            Node::Stmt { .. } => return false,
        };
        if l.once {
            // A declared variable gets a block of its own, unless the
            // body's printed text does not read it (judged on the text,
            // `assignment`): then the body stands alone, as when the
            // loop's tree does not mention it (seed 93: three loops
            // printed under a `for` without braces).
            let body_alone = l.body.len() != 1 || l.body.iter().any(|n| self.several(n));
            return match l.body.iter().any(|n| n.mentions(&l.var)) {
                true => !l.declare || body_alone,
                false => body_alone,
            };
        }
        l.marks.iter().any(|m| {
            matches!(
                m,
                Mark::Unroll(_) | Mark::UnrollNoEpilog(_) | Mark::UnrollJam(_)
            )
        }) || (self.opts.pragmas
            && self.collapsed == 0
            && (l
                .marks
                .iter()
                .any(|m| matches!(m, Mark::Parallel | Mark::Vector))
                || (self.place == Place::Serial && region::heads_region(l))))
    }

    /// Statement `s` at `iterators`: its body with the iterators replaced.
    fn stmt_body(&self, s: usize, iterators: &[Quotient]) -> Option<CExpr> {
        let st = self.scop.statements.get(s)?;
        // Each iterator's value as printed: a sum (a floor is one more
        // term, named by its text) over a divisor, both divided by their
        // common factor. Judged on the form of this copy: in an unrolled
        // copy `i` stands for `i + 1`.
        let printed: Vec<(Sum, i64, bool)> = iterators
            .iter()
            .map(|value| {
                let mut aff = self.resolve(&value.aff);
                for (k, num, q) in &value.floors {
                    self.add_floor(&mut aff, *k, num, *q);
                }
                let (aff, div) = quotients::common_factor_divided(aff, value.divisor);
                (aff, div, value.floors.is_empty())
            })
            .collect();
        let values: subscripts::Values = st
            .iterators
            .iter()
            .zip(&printed)
            .map(|(name, (aff, div, no_floor))| {
                (name.as_str(), (*no_floor && *div == 1).then(|| aff.clone()))
            })
            .collect();
        let (body, folded) = subscripts::fold(&st.body, self.scop, &values);
        let mut map = HashMap::new();
        for (k, sum) in folded.iter().enumerate() {
            let text = aff_text(sum);
            let operand = format!("({text})");
            map.insert(
                subscripts::placeholder(k),
                Substitute {
                    bare: text,
                    operand,
                },
            );
        }
        for (name, (aff, div, _)) in st.iterators.iter().zip(&printed) {
            let text = aff_text(aff);
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
        Some(substitute(&body, &map))
    }

    /// Nodes in order; consecutive copies of one statement (an unrolled
    /// loop's) are folded into one assignment where [`fold`] allows.
    fn nodes(&mut self, nodes: &[Node], indent: &str) {
        if self.gpu_nodes(nodes, indent) {
            return;
        }
        let mut pending: Vec<(usize, CExpr)> = Vec::new();
        for n in nodes {
            match n {
                Node::Stmt {
                    statement,
                    iterators,
                } => pending.extend(
                    self.stmt_body(*statement, iterators)
                        .map(|body| (*statement, body)),
                ),
                _ => {
                    self.runs(&std::mem::take(&mut pending), indent);
                    self.node(n, indent);
                }
            }
        }
        self.runs(&pending, indent);
    }

    /// Statement bodies in order, each run of copies of one statement
    /// that update one cell printed by [`Self::stmts`].
    fn runs(&mut self, bodies: &[(usize, CExpr)], indent: &str) {
        let same_cell = |a: &(usize, CExpr), b: &(usize, CExpr)| {
            a.0 == b.0 && updated_cell(&a.1).is_some_and(|c| Some(c) == updated_cell(&b.1))
        };
        for run in bodies.chunk_by(same_cell) {
            self.stmts(run, indent);
        }
    }

    /// Copies of one statement, in order (or one statement): folded into
    /// one line when [`fold`] allows, else a line each.
    fn stmts(&mut self, copies: &[(usize, CExpr)], indent: &str) {
        let Some(&(s, _)) = copies.first() else {
            return;
        };
        let Some(st) = self.scop.statements.get(s) else {
            return;
        };
        let bodies: Vec<CExpr> = copies.iter().map(|(_, b)| b.clone()).collect();
        let folded = fold_copies(self.scop, st, &bodies);
        let lines = match &folded {
            Some(one) => std::slice::from_ref(one),
            None => &bodies[..],
        };
        for body in lines {
            let label = match &st.label {
                Some(l) if !self.labels_done.contains(&s) => {
                    self.labels_done.push(s);
                    format!("{l}: ")
                }
                _ => String::new(),
            };
            let _ = writeln!(self.out, "{indent}{label}{};", statement_text(body));
        }
    }

    fn for_loop(&mut self, l: &Loop, indent: &str) {
        if !self.gpu_loop(l, indent) {
            self.plain_loop(l, indent);
        }
    }

    /// A loop as C prints it (an assignment when it runs once).
    fn plain_loop(&mut self, l: &Loop, indent: &str) {
        if l.once {
            self.assignment(l, indent);
            return;
        }
        // `unroll_noepilog` gets its remainder loop too: polyc does not
        // prove that the trip count is a multiple of the factor, and a
        // remainder that runs no iteration costs one test. A loop that
        // counts down is unrolled when its step is 1 (the only step a
        // downward loop is printed with).
        // A CUDA host loop runs as written: its body is launches, and
        // unrolled copies would print its statements as host code.
        let unroll = l.marks.iter().find_map(|m| match m {
            _ if self.gpu_on_host() => None,
            Mark::Unroll(k) | Mark::UnrollNoEpilog(k) if *k > 1 && (!l.down || l.stride == 1) => {
                Some((i64::from(*k), false))
            }
            Mark::UnrollJam(k) if *k > 1 && (!l.down || l.stride == 1) => {
                Some((i64::from(*k), true))
            }
            _ => None,
        });
        // Exactly one group of copies (a full tile unrolled by its size):
        // no loop, as for a loop of one iteration.
        if let Some((k, jam)) = unroll.filter(|&(k, _)| self.trip_count(l) == k.to_string()) {
            self.one_group(l, k, jam, indent);
            return;
        }
        let outer = self.place;
        let pragma_at = self.out.len();
        self.loop_pragma(l, indent);
        let text_at = self.out.len();
        self.loop_text(l, unroll, indent);
        self.drop_unprinted_private(pragma_at, text_at, outer == Place::Serial);
        self.place = outer;
        // An unrolled loop's remainder runs after the construct: the
        // printed range is not the construct alone.
        let opened = if outer == Place::Serial {
            self.opening.take()
        } else {
            None
        };
        if let Some(mut c) = opened.filter(|_| unroll.is_none()) {
            c.range.end = self.out.len();
            self.constructs.push(c);
        }
    }

    /// The loop itself, its pragma printed.
    fn loop_text(&mut self, l: &Loop, unroll: Option<(i64, bool)>, indent: &str) {
        if let Some((k, jam)) = unroll {
            self.declaring(l, |p| p.unrolled(l, k, jam, indent));
            return;
        }
        let v = &l.var;
        let decl = if l.declare { "int " } else { "" };
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
        self.declaring(l, |p| p.body(&l.body, indent));
    }

    /// `print` with `l`'s variable among [`Printer::declared_around`] when
    /// the printed loop declares it.
    fn declaring(&mut self, l: &Loop, print: impl FnOnce(&mut Self)) {
        if l.declare {
            self.declared_around.push(l.var.clone());
            print(self);
            self.declared_around.pop();
        } else {
            print(self);
        }
    }

    /// A loop of one iteration: `var = lower;` and its body, in a block
    /// of its own when it declares the variable (a sibling may declare the
    /// same name); the body alone when it does not use the variable. Its
    /// marks have nothing to act on and print nothing.
    fn assignment(&mut self, l: &Loop, indent: &str) {
        let value = self.expr(&l.lower);
        self.assigned(l, &value, indent, |p, inner| p.nodes(&l.body, inner));
    }

    /// `l`'s variable set to `value` around what `body` prints at the
    /// indent it is given, as [`Printer::assignment`] prints a loop of one
    /// iteration.
    pub(super) fn assigned(
        &mut self,
        l: &Loop,
        value: &str,
        indent: &str,
        body: impl FnOnce(&mut Self, &str),
    ) {
        let v = &l.var;
        let inner = if l.declare {
            format!("{indent}{STEP}")
        } else {
            indent.to_string()
        };
        // The body first, to see whether its text reads the variable: a
        // statement may have an iterator that is the variable and not read
        // it (symm's `temp2 = 0` in the `j` loop: `j` set but not used,
        // an error under -Werror; seed 82).
        let saved = std::mem::take(&mut self.out);
        let first = self.constructs.len();
        self.declaring(l, |p| body(p, &inner));
        let body = std::mem::replace(&mut self.out, saved);
        // Where the body's text goes unchanged: the parallel constructs
        // printed in it move there.
        let at = if !reads(&body, v) {
            // Printed one step in when it declares: step back out.
            for line in body.lines() {
                let line = line.strip_prefix(inner.as_str()).unwrap_or(line);
                let _ = writeln!(self.out, "{indent}{line}");
            }
            None
        } else if l.declare {
            let _ = writeln!(self.out, "{indent}{{");
            let _ = writeln!(self.out, "{inner}int {v} = {value};");
            let at = self.out.len();
            self.out.push_str(&body);
            let _ = writeln!(self.out, "{indent}}}");
            Some(at)
        } else {
            let _ = writeln!(self.out, "{indent}{v} = {value};");
            let at = self.out.len();
            self.out.push_str(&body);
            Some(at)
        };
        match at {
            Some(at) => {
                for c in &mut self.constructs[first..] {
                    c.range = c.range.start + at..c.range.end + at;
                }
            }
            None => self.constructs.truncate(first),
        }
    }

    /// The tests `conds` joined by `&&`, each once, and none that always
    /// holds (unless nothing else is left: the guard keeps its shape);
    /// `0` where two of them contradict each other ([`quotients::never_hold`]: the
    /// copies of an unrolled loop, or a region a parameter's value leaves
    /// empty, print `j >= 3 && j <= 2`, which clang's
    /// `-Wtautological-overlap-compare` rejects).
    fn conjunction(&self, conds: &[Cond]) -> String {
        let inequalities: Vec<Sum> = conds.iter().filter_map(|c| self.inequality(c)).collect();
        if quotients::never_hold(&inequalities) {
            return "0".to_string();
        }
        let mut text: Vec<String> = Vec::with_capacity(conds.len());
        for t in conds.iter().filter_map(|c| self.cond(c)) {
            if !text.contains(&t) {
                text.push(t);
            }
        }
        if text.is_empty() {
            text.push("1".to_string());
        }
        text.join(" && ")
    }

    /// The sum `a` of an inequality test `a >= 0` as [`Printer::cond`]
    /// prints it (floors named by their text, divided by its content);
    /// `None` for another test.
    fn inequality(&self, c: &Cond) -> Option<Sum> {
        let plain = c.sides.is_none() && c.modulo.is_none() && !c.eq;
        plain.then(|| self.test_sum(c))
    }

    /// The sum of the test `c` (`a >= 0`, or `a == 0` where `c.eq`): a
    /// floor is one more term, named by its text (or a constant), and the
    /// sum is divided by its content.
    fn test_sum(&self, c: &Cond) -> Sum {
        let mut with_floors = Sum {
            terms: c.aff.terms.clone(),
            constant: c.aff.constant,
        };
        for (k, num, div) in &c.floors {
            self.add_floor(&mut with_floors, *k, num, *div);
        }
        quotients::content_divided(with_floors, c.eq)
    }

    /// `c` as C; `None` where it always holds (a divisibility test that
    /// [`Printer::divisibility`] finds empty).
    fn cond(&self, c: &Cond) -> Option<String> {
        if let Some((left, right)) = &c.sides {
            return Some(format!("{} >= {}", self.expr(left), self.expr(right)));
        }
        if let Some(m) = c.modulo {
            // `%` truncates in C, but `x % m == 0` holds exactly when `m`
            // divides `x`, whatever the sign of `x`. A floor is one more
            // term, named by its text.
            let mut a = self.resolve(&c.aff);
            for (k, num, div) in &c.floors {
                self.add_floor(&mut a, *k, num, *div);
            }
            return self.divisibility(&a, m);
        }
        let with_floors = self.test_sum(c);
        // Positive terms on the left, the rest on the right.
        let mut left = Sum::default();
        let mut right = Sum {
            terms: Vec::new(),
            constant: self.checked(with_floors.constant.checked_neg()),
        };
        for (v, n) in &with_floors.terms {
            if *v > 0 {
                left.terms.push((*v, n.clone()));
            } else {
                right.terms.push((self.checked(v.checked_neg()), n.clone()));
            }
        }
        let op = if c.eq { "==" } else { ">=" };
        if left.terms.is_empty() {
            let op = if c.eq { "==" } else { "<=" };
            let k = right.constant;
            right.constant = 0;
            return Some(format!(
                "{} {op} {}",
                self.aff(&right),
                self.checked(k.checked_neg())
            ));
        }
        Some(format!("{} {op} {}", self.aff(&left), self.aff(&right)))
    }

    /// `v`, or 0 with the first out-of-range constant noted when `v` is
    /// past 64 bits (`None`) or, under `int_only`, not an `int`.
    fn checked(&self, v: Option<i64>) -> i64 {
        match v {
            Some(x) if !self.int_only || is_int(x) => x,
            _ => {
                if self.too_large.get().is_none() {
                    self.too_large.set(Some(v));
                }
                0
            }
        }
    }

    /// `a` with the unrolled copies' offsets folded in: the form it has
    /// in the copy being printed.
    fn resolve(&self, a: &Sum) -> Sum {
        let mut r = a.clone();
        for (c, name) in &a.terms {
            if let Some(o) = self.offsets.get(name) {
                r.constant =
                    self.checked(c.checked_mul(*o).and_then(|x| x.checked_add(r.constant)));
            }
        }
        r
    }

    fn aff(&self, a: &Sum) -> String {
        aff_text(&self.resolve(a))
    }

    fn expr(&self, e: &Expr) -> String {
        match e {
            Expr::Ceil(a, 1) | Expr::Floor(a, 1) => self.aff(a),
            Expr::Ceil(a, q) => self.quotient(a, *q, true),
            Expr::Floor(a, q) => self.quotient(a, *q, false),
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
                if let Some(start) = self.stride_start_folded(lower, offset, *stride) {
                    return start;
                }
                let off = self.resolve(offset);
                if let (true, Some(minus)) = (off.is_constant(), off.constant.checked_neg()) {
                    // `c + g · ceil((lower - c) / g)`, without `0 +`.
                    let scaled = format!(
                        "{stride} * polyc_ceild({}, {stride})",
                        self.plus(lower, minus)
                    );
                    return match off.constant {
                        0 => scaled,
                        c if c > 0 => format!("{c} + {scaled}"),
                        c => format!("{scaled} - {}", c.unsigned_abs()),
                    };
                }
                // `lower - off` as one sum where the lower bound is affine
                // (`polyc_ceild(-i, 2)`, not `polyc_ceild(1 - (i + 1), 2)`).
                let diff = match lower.as_ref() {
                    Expr::Ceil(l, 1) => self.resolve(l).minus(&off).map(|d| aff_text(&d)),
                    _ => None,
                };
                let diff = diff.unwrap_or_else(|| match off.times(-1) {
                    Some(neg) => {
                        let neg = aff_text(&neg);
                        match neg.strip_prefix('-') {
                            Some(rest) => format!("{} - {rest}", self.expr(lower)),
                            None => format!("{} + {neg}", self.expr(lower)),
                        }
                    }
                    None => format!("{} - ({})", self.expr(lower), aff_text(&off)),
                });
                format!(
                    "{} + {stride} * polyc_ceild({diff}, {stride})",
                    aff_text(&off)
                )
            }
        }
    }
}

/// `Σ c·name + constant` as C: `2 * i - j + 1`, `-i`, `3`.
fn aff_text(a: &Sum) -> String {
    let mut s = String::new();
    for (c, name) in &a.terms {
        let mag = c.unsigned_abs();
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
        return a.constant.to_string();
    }
    if a.constant > 0 {
        let _ = write!(s, " + {}", a.constant);
    } else if a.constant < 0 {
        let _ = write!(s, " - {}", a.constant.unsigned_abs());
    }
    s
}

/// A statement's text: its body, except an assignment of a cell to
/// itself (`d0 = d0`, what a second `replace_array` makes of the copy
/// statements of a first `datacopy`), which changes nothing and which
/// clang's `-Wself-assign` rejects under `-Werror`: it is a comment that
/// names it, and the statement `(void)0`, which neither reads the cell
/// nor leaves an empty body.
fn statement_text(body: &CExpr) -> String {
    let text = expr_text(body);
    match &body.kind {
        ExprKind::Assign(op, lhs, rhs) if op == "=" && expr_text(lhs) == expr_text(rhs) => {
            format!("/* {text}: a cell copied onto itself */ (void)0")
        }
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::c::read_source;

    /// A one-statement scop whose body reads its iterator `j` in every
    /// context where a sum needs parentheses.
    const KERNEL: &str = "void f(int n, double X[9][9], double y[9]) {\n\
        int i, j;\n\
        #pragma scop\n\
        for (i = 0; i < n; i++)\n\
          for (j = 1; j < n; j++)\n\
            X[i][n - 2 - j] = y[n - j - 1] * j + i / j + i % j - -j + (double)j;\n\
        #pragma endscop\n\
        }\n";

    fn scop() -> Scop {
        let file = read_source("k.c", KERNEL.to_string()).expect("the kernel parses");
        file.scops.into_iter().next().expect("one scop")
    }

    /// A cell assigned to itself prints as a comment and `(void)0`; an
    /// update of it, or another cell, as written.
    #[test]
    fn a_cell_copied_onto_itself_is_a_comment() {
        let body = |text: &str| crate::lang::c::parse::parse_expr(text, 0).expect("an expression");
        assert_eq!(
            statement_text(&body("d0 = d0")),
            "/* d0 = d0: a cell copied onto itself */ (void)0"
        );
        assert_eq!(
            statement_text(&body("A[i][j] = A[i][j]")),
            "/* A[i][j] = A[i][j]: a cell copied onto itself */ (void)0"
        );
        assert_eq!(statement_text(&body("d0 = d1")), "d0 = d1");
        assert_eq!(statement_text(&body("d0 += d0")), "d0 += d0");
        assert_eq!(statement_text(&body("A[i] = A[i + 1]")), "A[i] = A[i + 1]");
    }

    fn var(name: &str) -> Sum {
        Sum {
            terms: vec![(1, name.to_string())],
            constant: 0,
        }
    }

    fn plus_constant(name: &str, c: i64) -> Expr {
        Expr::Floor(
            Sum {
                terms: vec![(1, name.to_string())],
                constant: c,
            },
            1,
        )
    }

    /// `for (j = 1; j <= n - 1; j++)` around the statement, marked.
    fn j_loop(marks: Vec<Mark>) -> Node {
        Node::For(Box::new(Loop {
            var: "j".into(),
            declare: false,
            down: false,
            lower: Expr::Floor(constant(1), 1),
            upper: plus_constant("n", -1),
            stride: 1,
            marks,
            once: false,
            body: vec![Node::Stmt {
                statement: 0,
                iterators: vec![Quotient::affine(var("i")), Quotient::affine(var("j"))],
            }],
        }))
    }

    fn constant(c: i64) -> Sum {
        Sum {
            terms: Vec::new(),
            constant: c,
        }
    }

    fn printed(nodes: &[Node]) -> String {
        print_loops(nodes, &scop(), "", PrintOptions { pragmas: true }, &[]).expect("no overflow")
    }

    #[test]
    fn an_unrolled_copy_parenthesises_its_iterator_by_precedence() {
        let text = printed(&[j_loop(vec![Mark::Unroll(2)])]);
        // The subscripts fold (`n - 2 - (j + 1)` is `n - j - 3`); the
        // rest keeps the file's form, parenthesised.
        let copy = "X[i][n - j - 3] = y[n - j - 2] * (j + 1) + i / (j + 1) \
                    + i % (j + 1) - -(j + 1) + (double)(j + 1);";
        assert!(text.contains(copy), "{text}");
        let first = "X[i][n - 2 - j] = y[n - j - 1] * j + i / j + i % j - -j + (double)j;";
        assert!(text.contains(first), "{text}");
    }

    #[test]
    fn an_unrolled_loop_is_canonical_and_its_remainder_starts_explicitly() {
        let text = printed(&[j_loop(vec![Mark::Unroll(4), Mark::Vector])]);
        // The fragment has no `i` loop, but its statement reads `i`: no
        // `(void)&i;` (judged on the printed text).
        let expected = "\
#pragma omp simd
for (j = 1; j < n - 3; j += 4) {
";
        assert!(text.starts_with(expected), "{text}");
        assert!(
            text.contains("for (j = 1 + 4 * (polyc_max(0, n - 1) / 4); j < n; j++)"),
            "{text}"
        );
    }

    /// An array that no printed statement accesses (its statements have
    /// no instance) is used without being read, as gcc's
    /// `-Wunused-parameter` wants; one that a statement reads is not.
    #[test]
    fn an_array_no_printed_statement_reads_is_used_without_a_read() {
        let none = printed(&[]);
        assert!(none.starts_with("(void)&X;\n"), "{none}");
        assert!(none.contains("(void)&y;\n"), "{none}");
        let some = printed(&[j_loop(Vec::new())]);
        assert!(!some.contains("(void)&X;"), "{some}");
    }

    #[test]
    fn a_downward_loop_is_unrolled_with_decreasing_copies() {
        let Node::For(mut l) = j_loop(vec![Mark::Unroll(2)]) else {
            unreachable!("j_loop is a loop")
        };
        l.down = true;
        let text = printed(&[Node::For(l)]);
        assert!(
            text.starts_with("for (j = n - 1; j >= 2; j -= 2) {\n"),
            "{text}"
        );
        assert!(
            text.contains("X[i][n - j - 1] = y[n - j] * (j - 1)"),
            "{text}"
        );
        assert!(
            text.contains("for (j = n - 1 - 2 * (polyc_max(0, n - 1) / 2); j >= 1; j--)"),
            "{text}"
        );
    }

    #[test]
    fn differences_are_exact() {
        let a = Sum {
            terms: vec![(1, "n".into()), (2, "i".into())],
            constant: -1,
        };
        let b = Sum {
            terms: vec![(2, "i".into()), (1, "m".into())],
            constant: 3,
        };
        let d = a.minus(&b).expect("no overflow");
        assert_eq!(aff_text(&d), "n - m - 4");
        let big = Sum {
            terms: Vec::new(),
            constant: i64::MIN,
        };
        assert_eq!(big.minus(&constant(1)), None);
    }

    /// Quotients of constants print as numbers, a divisibility test
    /// without the terms its modulus divides (and not at all where
    /// nothing is left), and a guard's tests once each.
    #[test]
    fn quotients_of_constants_fold_as_they_are_printed() {
        // `for (j = n + 1 + 2 * ceil((n - 5 - (n + 1)) / 2); …; j += 2)`.
        let strided = Node::For(Box::new(Loop {
            var: "j".into(),
            declare: false,
            down: false,
            lower: Expr::StrideStart {
                lower: Box::new(plus_constant("n", -5)),
                offset: Sum {
                    terms: vec![(1, "n".to_string())],
                    constant: 1,
                },
                stride: 2,
            },
            upper: plus_constant("n", 3),
            stride: 2,
            marks: Vec::new(),
            once: false,
            body: vec![Node::Stmt {
                statement: 0,
                iterators: vec![Quotient::affine(var("i")), Quotient::affine(var("j"))],
            }],
        }));
        let text = printed(&[strided]);
        assert!(
            text.contains("for (j = n - 5; j <= n + 3; j += 2)"),
            "{text}"
        );
        let test = |aff: Sum, modulo: Option<i64>, floors: Vec<(i64, Sum, i64)>| Cond {
            aff,
            eq: modulo.is_some(),
            modulo,
            floors,
            sides: None,
        };
        let guard = |conds: Vec<Cond>| {
            printed(&[Node::If {
                conds,
                body: vec![j_loop(Vec::new())],
                otherwise: Vec::new(),
            }])
        };
        let two_i = Sum {
            terms: vec![(2, "i".to_string()), (-1, "n".to_string())],
            constant: 7,
        };
        // `(2 * i - n + 7) % 2 == 0`, `(2 * i) % 2 == 0` and `i + ⌊-7 / 3⌋ ≥ 0`,
        // the first twice.
        let text = guard(vec![
            test(two_i.clone(), Some(2), Vec::new()),
            test(var("i").times(2).expect("small"), Some(2), Vec::new()),
            test(two_i, Some(2), Vec::new()),
            test(var("i"), None, vec![(1, constant(-7), 3)]),
        ]);
        assert!(text.contains("if ((n - 1) % 2 == 0 && i >= 3)"), "{text}");
        // `(4 * i - 6 * n) % 8 == 0` and `2 * i - 2 * n - 3 ≥ 0`.
        let text = guard(vec![
            test(
                Sum {
                    terms: vec![(4, "i".to_string()), (-6, "n".to_string())],
                    constant: 0,
                },
                Some(8),
                Vec::new(),
            ),
            test(
                Sum {
                    terms: vec![(2, "i".to_string()), (-2, "n".to_string())],
                    constant: -3,
                },
                None,
                Vec::new(),
            ),
        ]);
        assert!(
            text.contains("if ((2 * i - 3 * n) % 4 == 0 && i >= n + 2)"),
            "{text}"
        );
        // `i + ⌊(-2 * n) / 4⌋ ≥ 0`: the floor over its smallest divisor.
        let text = guard(vec![test(
            var("i"),
            None,
            vec![(1, var("n").times(-2).expect("small"), 4)],
        )]);
        assert!(text.contains("if (i + polyc_floord(-n, 2) >= 0)"), "{text}");
        // A guard whose one test always holds keeps its shape.
        let text = guard(vec![test(
            var("i").times(4).expect("small"),
            Some(2),
            Vec::new(),
        )]);
        assert!(text.contains("if (1)"), "{text}");
    }
}
