//! Running a parsed recipe: each call becomes a [`Directive`] (names,
//! aliases, arity and argument types checked here, with spans), is applied
//! by [`crate::apply`], and a refusal becomes a diagnostic whose primary
//! label is the call in the recipe.
//!
//! This is the only place that knows both the recipe syntax
//! ([`crate::lang::recipe`]) and the directives ([`crate::apply`]).

use crate::apply::{apply, ApplyError, Directive, SplitForm};
use crate::lang::diagnostic::Diagnostic;
use crate::lang::recipe::{AffineConstraint, AffineExpr, Arg, Call, CmpOp, Recipe, Value};
use crate::scop::validity::Violation;
use crate::scop::{dependences, DepKind, DepOptions, Dependence, Schedule, Scop};

/// The schedule after a recipe, the warnings it gave, and the scop (whose
/// context `context(...)` may have narrowed).
pub struct RecipeOutcome {
    pub schedule: Schedule,
    pub warnings: Vec<Diagnostic>,
    pub scop: Scop,
}

/// Why a recipe stopped.
pub enum RecipeError {
    /// A diagnostic on the recipe text (exit 1).
    Rejected(Diagnostic),
    /// A directive polyc knows but does not implement yet (exit 2).
    NotImplemented(String),
}

/// Directives that parse but are not implemented yet.
const LATER: &[&str] = &[
    "dimreorder",
    "dimprivatize",
    "dimcontract",
    "add_array",
    "get_array_id",
    "replace_array",
    "datacopy",
];

/// The largest `unroll`, `unroll_noepilog` and `unroll_jam` factor: each unit
/// of the factor prints one more copy of the loop body.
pub const MAX_UNROLL_FACTOR: i64 = 1024;

/// The largest magnitude of a tile or strip size, a `grain` factor, a `skew`
/// factor, a `shift` constant or a `reshape` amount: they become
/// coefficients and constants of the generated loops, which run over C `int`s.
pub const MAX_DATE_COEFFICIENT: i64 = i32::MAX as i64;

/// Apply every call of `recipe` in order, starting from `schedule`.
/// `context(...)` narrows the parameters' context; the dependences are then
/// computed again under it.
pub fn run_recipe(
    scop: &Scop,
    deps: &[Dependence],
    schedule: Schedule,
    recipe: &Recipe,
) -> Result<RecipeOutcome, RecipeError> {
    let mut state = RecipeState::new(scop, deps, schedule);
    let mut warnings = Vec::new();
    for call in &recipe.calls {
        warnings.extend(step(&mut state, call)?);
    }
    Ok(RecipeOutcome {
        schedule: state.schedule,
        warnings,
        scop: state.scop,
    })
}

/// What a recipe has done so far: the schedule, and the scop and
/// dependences (which `context(...)` may have narrowed). Every front end
/// (`.poly` recipes, `.rhai` scripts) applies its calls to one of these
/// with [`step`].
#[derive(Clone, Debug)]
pub struct RecipeState {
    pub scop: Scop,
    pub deps: Vec<Dependence>,
    pub schedule: Schedule,
}

impl RecipeState {
    /// The state before any directive.
    pub fn new(scop: &Scop, deps: &[Dependence], schedule: Schedule) -> RecipeState {
        RecipeState {
            scop: scop.clone(),
            deps: deps.to_vec(),
            schedule,
        }
    }
}

/// Apply one call to `state`: the directive's arguments and preconditions,
/// the rewrite, the dependence check. On success the state moves on and the
/// result is the call's warning, if any (a directive that changes
/// nothing); on a refusal the state is left as it was.
pub fn step(state: &mut RecipeState, call: &Call) -> Result<Option<Diagnostic>, RecipeError> {
    if call.name == "context" {
        let scop = narrow_context(call, state.scop.clone())?;
        let deps = dependences(&scop, &DepOptions::default()).map_err(|e| {
            RecipeError::Rejected(
                Diagnostic::error(
                    format!("dependence analysis failed under the new context: {e}"),
                    call.span.clone(),
                )
                .with_label("after this context"),
            )
        })?;
        state.scop = scop;
        state.deps = deps;
        return Ok(None);
    }
    let directive = to_directive(call, &state.scop, &state.schedule)?;
    match apply(&state.scop, &state.deps, &state.schedule, &directive) {
        Ok(applied) => {
            let warning = (!applied.changed).then(|| {
                Diagnostic::warning(
                    format!("`{}` changes nothing", call.name),
                    call.span.clone(),
                )
                .with_label("this directive leaves the schedule as it was")
            });
            state.schedule = applied.schedule;
            Ok(warning)
        }
        Err(e) => {
            let targeted = targeted_statements(&directive, &state.schedule);
            Err(RecipeError::Rejected(refusal(
                call,
                &state.scop,
                &state.deps,
                e,
                &targeted,
            )))
        }
    }
}

/// Every directive name a recipe may call (aliases included), implemented
/// or not: the script front end offers each as a function.
pub fn directive_names() -> impl Iterator<Item = &'static str> {
    PROTOTYPES
        .iter()
        .map(|(name, _)| *name)
        .chain(["context", "auto"])
        .chain(LATER.iter().copied())
}

/// Clay's `context([e/i, p1, …, pn, c])`: the parameters satisfy
/// `p·params + c = 0` (flag 0) or `>= 0` (flag 1) from now on; the code
/// polyc prints may assume it. A context with no parameter values left is
/// refused.
fn narrow_context(call: &Call, mut scop: Scop) -> Result<Scop, RecipeError> {
    let n = scop.params.len();
    let usage =
        || {
            RecipeError::Rejected(
                Diagnostic::error(
                    format!(
                    "`context` takes one list [e/i, one coefficient per parameter ({}), constant]",
                    if n == 0 { "none here".to_string() } else { scop.params.join(", ") }
                ),
                    call.span.clone(),
                )
                .with_label("in this call")
                .with_note("e/i is 0 for an equality, 1 for an inequality (OpenScop's flag)"),
            )
        };
    let [arg] = call.args.as_slice() else {
        return Err(usage());
    };
    let Value::Beta(list) = &arg.value else {
        return Err(usage());
    };
    if list.len() != n + 2 || !(0..=1).contains(&list[0]) {
        return Err(usage());
    }
    let row = crate::poly::Constraint {
        kind: if list[0] == 0 {
            crate::poly::ConstraintKind::Eq
        } else {
            crate::poly::ConstraintKind::Ineq
        },
        coeffs: list[1..=n].to_vec(),
        constant: list[n + 1],
    };
    let mut context = scop.context.clone();
    context.add(row);
    let empty = context.is_empty().map_err(|e| {
        RecipeError::Rejected(
            Diagnostic::error(
                format!("the new context could not be checked: {e}"),
                call.span.clone(),
            )
            .with_label("in this call"),
        )
    })?;
    if empty {
        return Err(RecipeError::Rejected(
            Diagnostic::error(
                "this context leaves no value of the parameters",
                call.span.clone(),
            )
            .with_label("contradicts the context so far"),
        ));
    }
    scop.context = context;
    Ok(scop)
}

/// The implemented directives (aliases included) and their prototypes.
const PROTOTYPES: &[(&str, &str)] = &[
    ("interchange", "interchange(beta, depth_1, depth_2)"),
    ("reverse", "reverse(beta, depth)"),
    ("skew", "skew(beta, depth, depth_other, coeff)"),
    ("shift", "shift(beta, depth, [param coeffs], const)"),
    ("stripmine", "stripmine(beta, depth, size)"),
    ("tile", "tile(beta, depth, depth_outer, size)"),
    ("reorder", "reorder(beta, [new order])"),
    ("split", "split(beta, depth)"),
    ("fission", "split(beta, depth)"),
    ("distribute", "split(beta, depth)"),
    ("fuse", "fuse(beta_loop)"),
    ("merge", "fuse(beta_loop)"),
    ("fuse_next", "fuse(beta_loop)"),
    (
        "iss",
        "iss(beta_loop, {out | in | params | const}) or iss(beta_loop, c1 >= N / 2)",
    ),
    (
        "indexsetsplit",
        "iss(beta_loop, {out | in | params | const}) or iss(beta_loop, c1 >= N / 2)",
    ),
    ("unroll", "unroll(beta_loop, factor)"),
    ("unroll_noepilog", "unroll_noepilog(beta_loop, factor)"),
    ("unroll_jam", "unroll_jam(beta, depth, factor)"),
    ("parallelize", "parallelize(beta, depth)"),
    ("vectorize", "vectorize(beta, depth)"),
    ("grain", "grain(beta, depth, factor)"),
    ("block", "block(beta_stmt_1, beta_stmt_2)"),
    ("peel", "peel(beta_loop, {params | const})"),
    ("collapse", "collapse(beta_loop)"),
    ("densify", "densify(beta, depth)"),
    ("reshape", "reshape(beta, depth, iterator, amount)"),
    ("linearize", "linearize(beta_loop, depth)"),
    ("embed", "embed(beta_stmt)"),
    ("unembed", "unembed(beta_stmt)"),
];

/// The prototype and arity of each implemented directive.
fn prototype(name: &str) -> Option<(&'static str, usize)> {
    let proto = PROTOTYPES.iter().find(|(n, _)| *n == name)?.1;
    let arity = match name {
        "fuse" | "merge" | "fuse_next" | "embed" | "unembed" | "collapse" => 1,
        "peel" => 2,
        "iss" | "indexsetsplit" => 2,
        _ => proto.matches(',').count() + 1,
    };
    Some((proto, arity))
}

/// The [`Directive`] a call names, its arguments checked for type (public
/// for testers that call [`apply`] themselves to see a refusal's structure).
pub fn to_directive(
    call: &Call,
    scop: &Scop,
    schedule: &Schedule,
) -> Result<Directive, RecipeError> {
    let name = call.name.as_str();
    let Some((proto, expected)) = prototype(name) else {
        if name == "auto" {
            return Err(RecipeError::Rejected(
                Diagnostic::error(
                    "`auto`: the automatic schedulers are not implemented yet",
                    call.span.clone(),
                )
                .with_label("not implemented yet")
                .with_help("write the directives by hand for now (docs/recipe-language.md)"),
            ));
        }
        if LATER.contains(&name) {
            return Err(RecipeError::NotImplemented(format!(
                "the `{name}` directive"
            )));
        }
        return Err(RecipeError::Rejected(
            Diagnostic::error(
                format!("unknown directive `{name}`"),
                call.name_span.clone(),
            )
            .with_label("not a directive")
            .with_help("see docs/recipe-language.md for the directives and their arguments"),
        ));
    };
    // `interchange` accepts Clay's fourth `pretty` flag and ignores it.
    let arity_ok = call.args.len() == expected || (name == "interchange" && call.args.len() == 4);
    if !arity_ok {
        return Err(RecipeError::Rejected(
            Diagnostic::error(
                format!(
                    "`{name}` takes {expected} arguments, not {}",
                    call.args.len()
                ),
                call.span.clone(),
            )
            .with_label("in this call")
            .with_note(format!("prototype: {proto}")),
        ));
    }
    let a = Args {
        call,
        scop,
        schedule,
    };
    let beta = a.beta(0)?;
    Ok(match name {
        "interchange" => Directive::Interchange {
            beta,
            d1: a.depth(1)?,
            d2: a.depth(2)?,
        },
        "reverse" => Directive::Reverse {
            beta,
            depth: a.depth(1)?,
        },
        "skew" => Directive::Skew {
            beta,
            depth: a.depth(1)?,
            other: a.depth(2)?,
            factor: a.coefficient(3)?,
        },
        "shift" => Directive::Shift {
            beta,
            depth: a.depth(1)?,
            params: a.list(2)?,
            constant: a.coefficient(3)?,
        },
        "stripmine" => Directive::Stripmine {
            beta,
            depth: a.depth(1)?,
            size: a.coefficient(2)?,
        },
        "tile" => Directive::Tile {
            beta,
            depth: a.depth(1)?,
            outer: a.depth(2)?,
            size: a.coefficient(3)?,
        },
        "reorder" => Directive::Reorder {
            beta,
            order: a.list(1)?,
        },
        "split" | "fission" | "distribute" => Directive::Split {
            beta,
            depth: a.depth(1)?,
        },
        "fuse" | "merge" | "fuse_next" => Directive::Fuse { beta },
        "iss" | "indexsetsplit" => Directive::Iss {
            beta,
            form: a.split_form(1)?,
        },
        "unroll" => Directive::Unroll {
            beta,
            factor: a.factor(1)?,
            epilog: true,
        },
        "unroll_noepilog" => Directive::Unroll {
            beta,
            factor: a.factor(1)?,
            epilog: false,
        },
        "parallelize" => Directive::Parallelize {
            beta,
            depth: a.depth(1)?,
        },
        "unroll_jam" => Directive::UnrollJam {
            beta,
            depth: a.depth(1)?,
            factor: a.factor(2)?,
        },
        "vectorize" => Directive::Vectorize {
            beta,
            depth: a.depth(1)?,
        },
        "grain" => Directive::Grain {
            beta,
            depth: a.depth(1)?,
            factor: a.coefficient(2)?,
        },
        "linearize" => Directive::Linearize {
            beta,
            depth: a.depth(1)?,
        },
        "block" => Directive::Block {
            first: beta,
            second: a.beta(1)?,
        },
        "embed" => Directive::Embed { beta },
        "unembed" => Directive::Unembed { beta },
        "collapse" => Directive::Collapse { beta },
        "peel" => {
            let (params, constant) = a.peel_form(1)?;
            Directive::Peel {
                beta,
                params,
                constant,
            }
        }
        "densify" => Directive::Densify {
            beta,
            depth: a.depth(1)?,
        },
        "reshape" => Directive::Reshape {
            beta,
            depth: a.depth(1)?,
            iterator: a.depth(2)?,
            amount: a.coefficient(3)?,
        },
        other => {
            // `prototype` and this match list the same names.
            return Err(RecipeError::NotImplemented(format!(
                "the `{other}` directive"
            )));
        }
    })
}

/// Typed access to a call's arguments, each error on the argument's span.
struct Args<'a> {
    call: &'a Call,
    scop: &'a Scop,
    schedule: &'a Schedule,
}

impl Args<'_> {
    fn arg(&self, k: usize) -> &Arg {
        &self.call.args[k]
    }

    fn wrong(&self, k: usize, expected: &str) -> RecipeError {
        let arg = self.arg(k);
        RecipeError::Rejected(
            Diagnostic::error(
                format!(
                    "argument {} of `{}` must be {expected}",
                    k + 1,
                    self.call.name
                ),
                arg.span.clone(),
            )
            .with_label(format!("this is {}", describe(&arg.value))),
        )
    }

    fn beta(&self, k: usize) -> Result<Vec<i64>, RecipeError> {
        match &self.arg(k).value {
            Value::Beta(b) => Ok(b.clone()),
            Value::Label(l) => {
                let found = self
                    .scop
                    .statements
                    .iter()
                    .position(|s| s.label.as_deref() == Some(l.as_str()));
                let Some(s) = found else {
                    let labels: Vec<&str> = self
                        .scop
                        .statements
                        .iter()
                        .filter_map(|s| s.label.as_deref())
                        .collect();
                    return Err(RecipeError::Rejected(
                        Diagnostic::error(
                            format!("no statement is labelled `{l}`"),
                            self.arg(k).span.clone(),
                        )
                        .with_label("unknown label")
                        .with_note(if labels.is_empty() {
                            "this region has no labelled statement".to_string()
                        } else {
                            format!("labels here: {}", labels.join(", "))
                        }),
                    ));
                };
                self.schedule.statements[s]
                    .beta(0)
                    .ok_or_else(|| self.wrong(k, "a β-vector"))
            }
            _ => Err(self.wrong(k, "a β-vector like `[0, 1]` or a label like `@init`")),
        }
    }

    fn int(&self, k: usize) -> Result<i64, RecipeError> {
        match self.arg(k).value {
            Value::Int(v) => Ok(v),
            _ => Err(self.wrong(k, "an integer")),
        }
    }

    fn depth(&self, k: usize) -> Result<usize, RecipeError> {
        let v = self.int(k)?;
        usize::try_from(v).map_err(|_| self.wrong(k, "a depth (1-based, positive)"))
    }

    /// An unroll factor: positive, at most [`MAX_UNROLL_FACTOR`].
    fn factor(&self, k: usize) -> Result<u32, RecipeError> {
        let v = self.int(k)?;
        if v > MAX_UNROLL_FACTOR {
            return Err(self.above_cap(
                k,
                v,
                &format!("at most {MAX_UNROLL_FACTOR}"),
                "each unit of the factor prints one more copy of the loop body",
            ));
        }
        u32::try_from(v).map_err(|_| self.wrong(k, "a positive factor"))
    }

    /// An integer that becomes a coefficient or constant of the generated
    /// loops: at most [`MAX_DATE_COEFFICIENT`] in magnitude.
    fn coefficient(&self, k: usize) -> Result<i64, RecipeError> {
        let v = self.int(k)?;
        if v.checked_abs().is_none_or(|m| m > MAX_DATE_COEFFICIENT) {
            return Err(self.above_cap(
                k,
                v,
                &format!("between -{MAX_DATE_COEFFICIENT} and {MAX_DATE_COEFFICIENT}"),
                "it becomes a coefficient of the generated loops, which count with C `int`s",
            ));
        }
        Ok(v)
    }

    /// An argument beyond polyc's limit (`allowed`: "at most 1024").
    fn above_cap(&self, k: usize, v: i64, allowed: &str, why: &str) -> RecipeError {
        RecipeError::Rejected(
            Diagnostic::error(
                format!(
                    "argument {} of `{}` is {v}; polyc allows {allowed} here",
                    k + 1,
                    self.call.name
                ),
                self.arg(k).span.clone(),
            )
            .with_label(allowed.to_string())
            .with_note(why.to_string())
            .with_help("see \"Limits\" in docs/recipe-language.md"),
        )
    }

    /// A list of integers, written `[1, 0]` (the β syntax).
    fn list(&self, k: usize) -> Result<Vec<i64>, RecipeError> {
        match &self.arg(k).value {
            Value::Beta(b) => Ok(b.clone()),
            _ => Err(self.wrong(k, "a list of integers like `[1, 0]`")),
        }
    }

    /// Clay's `{params | const}` (or `{const}`).
    fn peel_form(&self, k: usize) -> Result<(Vec<i64>, i64), RecipeError> {
        let Value::Sections(s) = &self.arg(k).value else {
            return Err(self.wrong(k, "Clay's `{params | const}` list"));
        };
        match s.as_slice() {
            [c] if c.len() == 1 => Ok((Vec::new(), c[0])),
            [p, c] if c.len() == 1 => Ok((p.clone(), c[0])),
            _ => Err(self.wrong(k, "Clay's `{params | const}` list, one constant")),
        }
    }

    /// `{out | in | params | const}` or an affine constraint.
    fn split_form(&self, k: usize) -> Result<SplitForm, RecipeError> {
        match &self.arg(k).value {
            Value::Sections(s) => {
                // Clay's short forms: `{const}`, `{params | const}`,
                // `{in | params | const}`; the full form `{out | in | params | const}`.
                let empty = Vec::new;
                let (alphas, iters, params, constant) =
                    match s.as_slice() {
                        [c] => (empty(), empty(), empty(), c),
                        [p, c] => (empty(), empty(), p.clone(), c),
                        [i, p, c] => (empty(), i.clone(), p.clone(), c),
                        [o, i, p, c] => (o.clone(), i.clone(), p.clone(), c),
                        _ => return Err(self.wrong(
                            k,
                            "Clay's `{out | in | params | const}` (1 to 4 sections, one constant)",
                        )),
                    };
                if constant.len() > 1 {
                    return Err(self.wrong(
                        k,
                        "Clay's `{out | in | params | const}` (1 to 4 sections, one constant)",
                    ));
                }
                Ok(SplitForm {
                    alphas,
                    iters,
                    params,
                    constant: constant.first().copied().unwrap_or(0),
                })
            }
            Value::Constraint(c) => self.constraint_form(k, c),
            _ => Err(self.wrong(k, "a constraint like `c1 >= N / 2` or `{1 | 0 | 0 | -1}`")),
        }
    }

    /// `lhs op rhs` over `c1, c2, …` (the loops), the iterators of the
    /// first statement under the β-vector and the parameters, as the split
    /// form with the same inequality: exactly the list form, so the points
    /// that satisfy the constraint form the second part. Division is exact (rational): both sides are multiplied by
    /// the common denominator, so `c1 <= N / 2` is `2c1 <= N`.
    fn constraint_form(&self, k: usize, c: &AffineConstraint) -> Result<SplitForm, RecipeError> {
        let beta = self.beta(0)?;
        let first = self
            .schedule
            .statements
            .iter()
            .enumerate()
            .find(|(_, s)| {
                (0..s.pieces.len()).any(|p| s.beta(p).is_some_and(|b| b.starts_with(&beta)))
            })
            .map(|(i, _)| i);
        let iters: Vec<String> = first
            .map(|i| self.scop.statements[i].iterators.clone())
            .unwrap_or_default();
        let depth = first
            .map(|i| self.schedule.statements[i].depth())
            .unwrap_or(0);
        let names = Names {
            iters: &iters,
            params: &self.scop.params,
            depth,
        };
        let overflow = || self.wrong(k, "a constraint whose coefficients fit in 64 bits");
        let l = names.linear(&c.lhs).map_err(|e| e.into_error(self, k))?;
        let r = names.linear(&c.rhs).map_err(|e| e.into_error(self, k))?;
        // lhs - rhs, over a common denominator.
        let diff = l.sub(&r).ok_or_else(overflow)?;
        // `a op b` as `e >= 0` (integers: a < b is b - a - 1 >= 0).
        let (e, strict, eq) = match c.op {
            CmpOp::Ge => (diff, false, false),
            CmpOp::Gt => (diff, true, false),
            CmpOp::Le => (diff.neg().ok_or_else(overflow)?, false, false),
            CmpOp::Lt => (diff.neg().ok_or_else(overflow)?, true, false),
            CmpOp::Eq => (diff, false, true),
        };
        if eq {
            return Err(self.wrong(
                k,
                "an inequality (an index-set split needs `<=`, `<`, `>=` or `>`)",
            ));
        }
        let mut form = e.into_form(&names);
        if strict {
            form.constant = form.constant.checked_sub(1).ok_or_else(overflow)?;
        }
        Ok(form)
    }
}

/// The names a split constraint may use.
struct Names<'a> {
    iters: &'a [String],
    params: &'a [String],
    depth: usize,
}

/// A rational affine form `(Σ coeff·var + constant) / den` over columns
/// `[α1..αdepth | iterators | params]`.
#[derive(Clone)]
struct Linear {
    coeffs: Vec<i64>,
    constant: i64,
    den: i64,
}

enum FormError {
    UnknownName(String, crate::lang::recipe::Span),
    NotAffine,
    Overflow,
}

impl FormError {
    fn into_error(self, a: &Args, k: usize) -> RecipeError {
        match self {
            FormError::UnknownName(n, span) => RecipeError::Rejected(
                Diagnostic::error(format!("unknown name `{n}` in the constraint"), span)
                    .with_label("not a loop `c1, c2, …`, an iterator or a parameter")
                    .with_note(format!(
                        "parameters here: {}",
                        if a.scop.params.is_empty() {
                            "none".to_string()
                        } else {
                            a.scop.params.join(", ")
                        }
                    )),
            ),
            FormError::NotAffine => a.wrong(
                k,
                "an affine constraint (products and divisions by constants only)",
            ),
            FormError::Overflow => a.wrong(k, "a constraint whose coefficients fit in 64 bits"),
        }
    }
}

impl Names<'_> {
    fn width(&self) -> usize {
        self.depth + self.iters.len() + self.params.len()
    }

    fn column(&self, name: &str) -> Option<usize> {
        if let Some(d) = name.strip_prefix('c').and_then(|r| r.parse::<usize>().ok()) {
            if d >= 1 && d <= self.depth {
                return Some(d - 1);
            }
        }
        if let Some(i) = self.iters.iter().position(|n| n == name) {
            return Some(self.depth + i);
        }
        self.params
            .iter()
            .position(|n| n == name)
            .map(|p| self.depth + self.iters.len() + p)
    }

    fn linear(&self, e: &AffineExpr) -> Result<Linear, FormError> {
        let constant = |v: i64| Linear {
            coeffs: vec![0; self.width()],
            constant: v,
            den: 1,
        };
        Ok(match e {
            AffineExpr::Int(v) => constant(*v),
            AffineExpr::Name(n, span) => {
                let col = self
                    .column(n)
                    .ok_or_else(|| FormError::UnknownName(n.clone(), span.clone()))?;
                let mut l = constant(0);
                l.coeffs[col] = 1;
                l
            }
            AffineExpr::Neg(x) => self.linear(x)?.neg().ok_or(FormError::Overflow)?,
            AffineExpr::Add(x, y) => self
                .linear(x)?
                .add(&self.linear(y)?)
                .ok_or(FormError::Overflow)?,
            AffineExpr::Sub(x, y) => self
                .linear(x)?
                .sub(&self.linear(y)?)
                .ok_or(FormError::Overflow)?,
            AffineExpr::Mul(x, y) => {
                let (x, y) = (self.linear(x)?, self.linear(y)?);
                match (x.as_constant(), y.as_constant()) {
                    (Some(_), _) => y.scale(x.constant, x.den).ok_or(FormError::Overflow)?,
                    (_, Some(_)) => x.scale(y.constant, y.den).ok_or(FormError::Overflow)?,
                    _ => return Err(FormError::NotAffine),
                }
            }
            AffineExpr::Div(x, y) => {
                let (x, y) = (self.linear(x)?, self.linear(y)?);
                match y.as_constant() {
                    Some(_) if y.constant != 0 => {
                        x.scale(y.den, y.constant).ok_or(FormError::Overflow)?
                    }
                    _ => return Err(FormError::NotAffine),
                }
            }
        })
    }
}

impl Linear {
    fn as_constant(&self) -> Option<i64> {
        self.coeffs.iter().all(|&c| c == 0).then_some(self.constant)
    }

    /// `self · num / den`.
    fn scale(&self, num: i64, den: i64) -> Option<Linear> {
        let (num, den) = if den < 0 {
            (num.checked_neg()?, den.checked_neg()?)
        } else {
            (num, den)
        };
        Some(Linear {
            coeffs: self
                .coeffs
                .iter()
                .map(|c| c.checked_mul(num))
                .collect::<Option<_>>()?,
            constant: self.constant.checked_mul(num)?,
            den: self.den.checked_mul(den)?,
        })
    }

    fn neg(&self) -> Option<Linear> {
        self.scale(-1, 1)
    }

    fn add(&self, o: &Linear) -> Option<Linear> {
        let a = self.scale(o.den, 1)?;
        let b = o.scale(self.den, 1)?;
        Some(Linear {
            coeffs: a
                .coeffs
                .iter()
                .zip(&b.coeffs)
                .map(|(x, y)| x.checked_add(*y))
                .collect::<Option<_>>()?,
            constant: a.constant.checked_add(b.constant)?,
            den: self.den.checked_mul(o.den)?,
        })
    }

    fn sub(&self, o: &Linear) -> Option<Linear> {
        self.add(&o.neg()?)
    }

    /// The numerator as a split form (the denominator is positive, so the
    /// sign of the inequality is kept).
    fn into_form(self, names: &Names) -> SplitForm {
        let d = names.depth;
        let n = names.iters.len();
        SplitForm {
            alphas: self.coeffs[..d].to_vec(),
            iters: self.coeffs[d..d + n].to_vec(),
            params: self.coeffs[d + n..].to_vec(),
            constant: self.constant,
        }
    }
}

fn describe(v: &Value) -> &'static str {
    match v {
        Value::Int(_) => "an integer",
        Value::Beta(_) => "a β-vector (or list)",
        Value::Label(_) => "a label",
        Value::Sections(_) => "an inequality list",
        Value::Constraint(_) => "a constraint",
        Value::Str(_) => "a string",
        Value::Ident(_) => "a name",
    }
}

/// The statements the directive's β-vector addresses.
fn targeted_statements(directive: &Directive, schedule: &Schedule) -> Vec<usize> {
    let beta = match directive {
        Directive::Interchange { beta, .. }
        | Directive::Reverse { beta, .. }
        | Directive::Skew { beta, .. }
        | Directive::Shift { beta, .. }
        | Directive::Stripmine { beta, .. }
        | Directive::Tile { beta, .. }
        | Directive::Reorder { beta, .. }
        | Directive::Split { beta, .. }
        | Directive::Fuse { beta }
        | Directive::Block { first: beta, .. }
        | Directive::Iss { beta, .. }
        | Directive::Grain { beta, .. }
        | Directive::Peel { beta, .. }
        | Directive::Collapse { beta }
        | Directive::Densify { beta, .. }
        | Directive::Reshape { beta, .. }
        | Directive::Linearize { beta, .. }
        | Directive::Embed { beta }
        | Directive::Unembed { beta }
        | Directive::Unroll { beta, .. }
        | Directive::UnrollJam { beta, .. }
        | Directive::Parallelize { beta, .. }
        | Directive::Vectorize { beta, .. } => beta,
    };
    let mut out: Vec<usize> = crate::apply::tree::under(schedule, beta)
        .map(|ts| ts.iter().map(|t| t.statement).collect())
        .unwrap_or_default();
    out.dedup();
    out
}

/// The diagnostic for a refused directive.
fn refusal(
    call: &Call,
    scop: &Scop,
    deps: &[Dependence],
    e: ApplyError,
    targeted: &[usize],
) -> Diagnostic {
    let at = call.span.clone();
    match e {
        ApplyError::Precondition { message, help } => {
            let d = Diagnostic::error(message, at).with_label(format!("`{}` refused", call.name));
            match help {
                Some(h) => d.with_help(h),
                None => d,
            }
        }
        ApplyError::Violation(v) => {
            let dep = &deps[v.dependence];
            Diagnostic::error(
                format!(
                    "`{}` would violate a {} dependence {}",
                    call.name,
                    kind(dep.kind),
                    dep_text(scop, dep)
                ),
                at,
            )
            .with_label("after this directive, the dependence's target runs first")
            .with_note(dep_details(dep))
            .with_note(format!("for example: {}", v.describe(scop, deps)))
            .with_help(violation_help(&call.name, dep, targeted))
        }
        ApplyError::Carried { depth, violation } => carried(call, scop, deps, depth, &violation),
        ApplyError::Poly(e) => {
            Diagnostic::error(format!("`{}` could not be checked: {e}", call.name), at)
                .with_label("legality not proven")
                .with_note("polyc applies a directive only when it can prove it legal")
        }
    }
}

fn carried(
    call: &Call,
    scop: &Scop,
    deps: &[Dependence],
    depth: usize,
    v: &Violation,
) -> Diagnostic {
    let dep = &deps[v.dependence];
    let message = if call.name == "parallelize" || call.name == "vectorize" {
        format!(
            "the loop at depth {depth} carries a {} dependence {}: it cannot be marked {}",
            kind(dep.kind),
            dep_text(scop, dep),
            if call.name == "vectorize" {
                "vector"
            } else {
                "parallel"
            }
        )
    } else {
        format!(
            "after `{}`, the loop at depth {depth}, marked parallel or vector earlier, would carry a {} dependence {}",
            call.name,
            kind(dep.kind),
            dep_text(scop, dep)
        )
    };
    Diagnostic::error(message, call.span.clone())
    .with_label("this loop's iterations are not independent")
    .with_note(dep_details(dep))
    .with_note(format!("for example: {}", v.describe(scop, deps)))
    .with_help("a loop that carries no dependence may be parallel; skewing or interchanging can move the dependence outward")
}

fn kind(k: DepKind) -> &'static str {
    match k {
        DepKind::Raw => "RAW",
        DepKind::War => "WAR",
        DepKind::Waw => "WAW",
        DepKind::Rar => "RAR",
    }
}

fn dep_text(scop: &Scop, dep: &Dependence) -> String {
    format!(
        "{} -> {} on `{}`",
        scop.statements[dep.source].name, scop.statements[dep.target].name, dep.array
    )
}

fn dep_details(dep: &Dependence) -> String {
    let distance = match &dep.distance {
        Some(d) if d.is_empty() => "no common loop".to_string(),
        Some(d) => format!(
            "distance ({})",
            d.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => "non-uniform distance".to_string(),
    };
    if dep.is_loop_independent() {
        format!("in the original program the dependence is loop-independent (textual order), {distance}")
    } else {
        format!(
            "in the original program the loop at depth {} carries the dependence, {distance}",
            dep.depth
        )
    }
}

fn violation_help(name: &str, dep: &Dependence, targeted: &[usize]) -> String {
    let between = targeted.contains(&dep.source) != targeted.contains(&dep.target);
    match name {
        "interchange" | "tile" | "stripmine" | "skew" | "shift" | "reverse" if between => {
            "the directive changes the loops of only one of the two statements; apply it to the \
             loop around both, or `split` them into separate loops first"
                .to_string()
        }
        "interchange" | "tile" => format!(
            "skew first so that the dependence carried at depth {} has no negative component, then interchange",
            dep.depth
        ),
        "fuse" | "merge" | "fuse_next" => {
            "shift the second loop first so that its iterations read what the first has written".to_string()
        }
        "reverse" => format!(
            "the loop at depth {} carries the dependence; reversing it runs the target first",
            dep.depth
        ),
        _ => "the directive reorders these two instances; see the example above".to_string(),
    }
}
