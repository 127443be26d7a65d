//! Typed access to a directive call's arguments: β-vectors (or `@label`s),
//! depths, factors and coefficients within polyc's limits, lists, and
//! Clay's inequality lists. Each error is a diagnostic on the argument.

use super::iss::{self, FormError, Names};
use super::RecipeError;
use crate::apply::{ParallelOptions, SplitForm};
use crate::lang::recipe::{AffineConstraint, Arg, Call, Value};
use crate::scop::{Schedule, Scop, ThreadSchedule};
use crate::syntax::diagnostic::Diagnostic;

/// The largest `unroll`, `unroll_noepilog` and `unroll_jam` factor: each unit
/// of the factor prints one more copy of the loop body.
pub const MAX_UNROLL_FACTOR: i64 = 1024;

/// The most loops `parallelize(…, collapse = N)` may collapse (deeper than
/// any nest polyc has met; OpenMP sets no limit).
pub const MAX_COLLAPSE: i64 = 16;

/// The largest magnitude of a tile or strip size, a `grain` factor, a `skew`
/// factor, a `shift` constant or a `reshape` amount: they become
/// coefficients and constants of the generated loops, which run over C `int`s.
pub const MAX_DATE_COEFFICIENT: i64 = i32::MAX as i64;

/// Typed access to a call's arguments, each error on the argument's span.
pub struct Args<'a> {
    pub call: &'a Call,
    pub scop: &'a Scop,
    pub schedule: &'a Schedule,
}

impl Args<'_> {
    fn arg(&self, k: usize) -> &Arg {
        &self.call.args[k]
    }

    pub fn wrong(&self, k: usize, expected: &str) -> RecipeError {
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

    pub fn beta(&self, k: usize) -> Result<Vec<i64>, RecipeError> {
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

    /// Clay's boolean: `true` or `false` (`1` or `0`).
    pub fn flag(&self, k: usize) -> Result<bool, RecipeError> {
        match self.arg(k).value {
            Value::Int(0) => Ok(false),
            Value::Int(1) => Ok(true),
            _ => Err(self.wrong(k, "`true` or `false`")),
        }
    }

    pub fn depth(&self, k: usize) -> Result<usize, RecipeError> {
        let v = self.int(k)?;
        usize::try_from(v).map_err(|_| self.wrong(k, "a depth (1-based, positive)"))
    }

    /// An unroll factor: positive, at most [`MAX_UNROLL_FACTOR`].
    pub fn factor(&self, k: usize) -> Result<u32, RecipeError> {
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
    pub fn coefficient(&self, k: usize) -> Result<i64, RecipeError> {
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

    /// A list of integers that become coefficients of the generated loops
    /// (`tile_band`'s sizes): each at most [`MAX_DATE_COEFFICIENT`] in
    /// magnitude.
    pub fn coefficient_list(&self, k: usize) -> Result<Vec<i64>, RecipeError> {
        let list = self.list(k)?;
        match list
            .iter()
            .find(|v| v.checked_abs().is_none_or(|m| m > MAX_DATE_COEFFICIENT))
        {
            Some(&v) => Err(self.above_cap(
                k,
                v,
                &format!("elements between -{MAX_DATE_COEFFICIENT} and {MAX_DATE_COEFFICIENT}"),
                "it becomes a coefficient of the generated loops, which count with C `int`s",
            )),
            None => Ok(list),
        }
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

    /// The named option `name`, if given.
    fn option(&self, name: &str) -> Option<&Arg> {
        self.call
            .args
            .iter()
            .find(|a| a.name.as_deref() == Some(name))
    }

    /// An option whose value is not `expected`.
    fn bad_option(&self, arg: &Arg, expected: &str) -> RecipeError {
        RecipeError::Rejected(
            Diagnostic::error(
                format!(
                    "`{}` of `{}` must be {expected}",
                    arg.name.as_deref().unwrap_or("this option"),
                    self.call.name
                ),
                arg.span.clone(),
            )
            .with_label(format!("this is {}", describe(&arg.value))),
        )
    }

    /// `parallelize`'s options: `schedule = static|dynamic|guided`,
    /// `chunk = N` (with a schedule, positive, a C `int`),
    /// `collapse = N` (positive; 1 collapses nothing, as in OpenMP) and
    /// `reduction = x` (a name; `apply` checks it).
    pub fn parallel_options(&self) -> Result<ParallelOptions, RecipeError> {
        let mut options = ParallelOptions::default();
        let chunk = match self.option("chunk") {
            None => None,
            Some(arg) => match arg.value {
                Value::Int(v) if (1..=MAX_DATE_COEFFICIENT).contains(&v) => u32::try_from(v).ok(),
                _ => {
                    return Err(self.bad_option(
                        arg,
                        &format!("a chunk size from 1 to {MAX_DATE_COEFFICIENT}"),
                    ))
                }
            },
        };
        if let Some(arg) = self.option("schedule") {
            let kind = match &arg.value {
                Value::Ident(n) | Value::Str(n) => ThreadSchedule::named(n),
                _ => None,
            }
            .ok_or_else(|| self.bad_option(arg, "`static`, `dynamic` or `guided`"))?;
            options.schedule = Some((kind, chunk));
        } else if let Some(arg) = self.option("chunk") {
            return Err(RecipeError::Rejected(
                Diagnostic::error(
                    format!("`chunk` of `{}` needs a `schedule`", self.call.name),
                    arg.span.clone(),
                )
                .with_label("a chunk of which schedule?")
                .with_help("add `schedule = static`, `dynamic` or `guided`"),
            ));
        }
        options.reduction = self.reduction()?;
        if let Some(arg) = self.option("collapse") {
            match arg.value {
                Value::Int(1) => {}
                Value::Int(n) if (2..=MAX_COLLAPSE).contains(&n) => {
                    options.collapse = u32::try_from(n).ok()
                }
                _ => {
                    return Err(self
                        .bad_option(arg, &format!("a number of loops from 1 to {MAX_COLLAPSE}")))
                }
            }
        }
        Ok(options)
    }

    /// The `reduction = x` option of `parallelize` and `vectorize`: a name
    /// (`apply` checks it).
    pub fn reduction(&self) -> Result<Option<String>, RecipeError> {
        match self.option("reduction") {
            None => Ok(None),
            Some(arg) => match &arg.value {
                Value::Ident(x) | Value::Str(x) => Ok(Some(x.clone())),
                _ => Err(self.bad_option(arg, "the name of a scalar, like `sum`")),
            },
        }
    }

    /// An array's name, written as a name or a string (`pack`; `apply`
    /// checks that the region has it).
    pub fn array(&self, k: usize) -> Result<String, RecipeError> {
        match &self.arg(k).value {
            Value::Ident(x) | Value::Str(x) => Ok(x.clone()),
            Value::Int(_) => Err(self.wrong(
                k,
                "the name of an array, like `B` (polyc names arrays where Clay numbers them)",
            )),
            _ => Err(self.wrong(k, "the name of an array, like `B`")),
        }
    }

    /// A CUDA grid or block dimension: `0`, `1`, `2` or `"x"`, `"y"`, `"z"`.
    pub fn gpu_dim(&self, k: usize) -> Result<u8, RecipeError> {
        let expected = "a dimension: 0, 1, 2 or \"x\", \"y\", \"z\"";
        match &self.arg(k).value {
            Value::Int(v @ 0..=2) => Ok(*v as u8),
            Value::Str(x) if x == "x" => Ok(0),
            Value::Str(x) if x == "y" => Ok(1),
            Value::Str(x) if x == "z" => Ok(2),
            _ => Err(self.wrong(k, expected)),
        }
    }

    /// A list of integers, written `[1, 0]` (the β syntax).
    pub fn list(&self, k: usize) -> Result<Vec<i64>, RecipeError> {
        match &self.arg(k).value {
            Value::Beta(b) => Ok(b.clone()),
            _ => Err(self.wrong(k, "a list of integers like `[1, 0]`")),
        }
    }

    /// Clay's `{params | const}` (or `{const}`).
    pub fn peel_form(&self, k: usize) -> Result<(Vec<i64>, i64), RecipeError> {
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
    pub fn split_form(&self, k: usize) -> Result<SplitForm, RecipeError> {
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

    /// A readable split constraint ([`iss`]) over the loops of the first
    /// statement under the β-vector, its iterators and the parameters.
    fn constraint_form(&self, k: usize, c: &AffineConstraint) -> Result<SplitForm, RecipeError> {
        let beta = self.beta(0)?;
        let first = self.schedule.statements.iter().position(|s| {
            (0..s.pieces.len()).any(|p| s.beta(p).is_some_and(|b| b.starts_with(&beta)))
        });
        let iters: Vec<String> = first
            .map(|i| self.scop.statements[i].iterators.clone())
            .unwrap_or_default();
        let names = Names {
            iters: &iters,
            params: &self.scop.params,
            depth: first.map_or(0, |i| self.schedule.statements[i].depth()),
        };
        iss::constraint_form(&names, c).map_err(|e| match e {
            FormError::UnknownName(n, span) => RecipeError::Rejected(
                Diagnostic::error(format!("unknown name `{n}` in the constraint"), span)
                    .with_label("not a loop `c1, c2, …`, an iterator or a parameter")
                    .with_note(format!(
                        "parameters here: {}",
                        if self.scop.params.is_empty() {
                            "none".to_string()
                        } else {
                            self.scop.params.join(", ")
                        }
                    )),
            ),
            FormError::NotAffine => self.wrong(
                k,
                "an affine constraint (products and divisions by constants only)",
            ),
            FormError::Overflow => self.wrong(k, "a constraint whose coefficients fit in 64 bits"),
            FormError::Equation => self.wrong(
                k,
                "an inequality (an index-set split needs `<=`, `<`, `>=` or `>`)",
            ),
        })
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
