//! From the pest tree to [`Recipe`]: statements in order, `let`s and Clay's
//! assignments substituted where they are used, `--set` applied, integers
//! checked to fit in 64 bits.

use pest::iterators::Pair;

use super::syntax::{self, Rule};
use super::vars::{kind, Vars};
use super::{AffineConstraint, AffineExpr, Arg, Call, CmpOp, Recipe, Span, Value};
use crate::syntax::diagnostic::Diagnostic;

/// Build the recipe from the tree of `syntax::parse`.
pub fn build(
    text: &str,
    tree: Pair<'_, Rule>,
    overrides: &[(String, String)],
) -> Result<Recipe, Diagnostic> {
    let stmts: Vec<Pair<Rule>> = tree
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .collect();
    let lets: Vec<(String, Span)> = stmts
        .iter()
        .filter(|s| s.as_rule() == Rule::let_stmt)
        .filter_map(|s| s.clone().into_inner().find(|p| p.as_rule() == Rule::name))
        .map(|n| (n.as_str().to_string(), span(&n)))
        .collect();
    check_override_names(text, &lets, overrides)?;
    let mut b = Builder {
        vars: Vars::new(lets),
        overrides,
        calls: Vec::new(),
    };
    let n = stmts.len();
    for (k, s) in stmts.into_iter().enumerate() {
        b.stmt(s, k + 1 == n)?;
    }
    Ok(Recipe { calls: b.calls })
}

fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    s.start()..s.end()
}

/// Every `--set` name must be a `let` of the recipe.
fn check_override_names(
    text: &str,
    lets: &[(String, Span)],
    overrides: &[(String, String)],
) -> Result<(), Diagnostic> {
    let Some((name, value)) = overrides
        .iter()
        .find(|(n, _)| !lets.iter().any(|(l, _)| l == n))
    else {
        return Ok(());
    };
    let start = text.len() - text.trim_start().len();
    let d = Diagnostic::error(
        format!("`--set {name}={value}`: the recipe has no `let {name}`"),
        start..start,
    )
    .with_label(format!("no `let {name}` in this recipe"))
    .with_help(format!(
        "check the name, or add `let {name} = …;` to the recipe"
    ));
    if lets.is_empty() {
        return Err(d.with_note("the recipe defines no `let`"));
    }
    let names: Vec<String> = lets.iter().map(|(n, _)| format!("`{n}`")).collect();
    Err(d.with_note(format!("the recipe's lets are {}", names.join(", "))))
}

struct Builder<'o> {
    vars: Vars,
    overrides: &'o [(String, String)],
    calls: Vec<Call>,
}

/// The first inner pair of `rule`, or an internal error.
fn child<'i>(p: &Pair<'i, Rule>, rule: Rule) -> Result<Pair<'i, Rule>, Diagnostic> {
    p.clone()
        .into_inner()
        .find(|q| q.as_rule() == rule)
        .ok_or_else(|| {
            Diagnostic::error(
                format!("internal: {:?} without {rule:?}", p.as_rule()),
                span(p),
            )
        })
}

impl Builder<'_> {
    fn stmt(&mut self, s: Pair<Rule>, last: bool) -> Result<(), Diagnostic> {
        let has_semi = s.clone().into_inner().any(|p| p.as_rule() == Rule::semi);
        let whole = span(&s);
        match s.as_rule() {
            Rule::call_stmt => {
                let call = self.call(child(&s, Rule::call)?, None)?;
                if !has_semi && !last {
                    return Err(missing_semi(call.span.clone(), "call"));
                }
                self.calls.push(call);
            }
            Rule::empty_stmt => {}
            Rule::group_stmt => self.group_stmt(s, whole)?,
            Rule::let_stmt => {
                if !has_semi && !last {
                    return Err(missing_semi(without_semi(&s, whole), "`let`"));
                }
                self.let_stmt(s)?;
            }
            Rule::assign_stmt => {
                if !has_semi && !last {
                    return Err(missing_semi(without_semi(&s, whole), "assignment"));
                }
                self.assign_stmt(s)?;
            }
            r => {
                return Err(Diagnostic::error(
                    format!("internal: unexpected statement rule {r:?}"),
                    whole,
                ))
            }
        }
        Ok(())
    }

    fn let_stmt(&mut self, s: Pair<Rule>) -> Result<(), Diagnostic> {
        let name = child(&s, Rule::name)?;
        let value_pair = child(&s, Rule::value)?;
        let value_span = span(&value_pair);
        if let Some(call) = value_pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::nested_call)
        {
            return Err(
                Diagnostic::error("a `let` cannot hold a call's result", span(&call))
                    .with_label("a directive call")
                    .with_help(format!(
                        "use Clay's assignment `{} = …;` for the result of a call",
                        name.as_str()
                    )),
            );
        }
        let mut value = self.value(value_pair)?;
        let overridden = self
            .overrides
            .iter()
            .rev()
            .find(|(n, _)| n == name.as_str());
        if let Some((n, text)) = overridden {
            value = override_value(n, text, value_span)?;
        }
        self.vars.define_let(name.as_str(), span(&name), value)
    }

    fn assign_stmt(&mut self, s: Pair<Rule>) -> Result<(), Diagnostic> {
        let name = child(&s, Rule::name)?;
        let value_pair = child(&s, Rule::value)?;
        if let Some(call) = value_pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::nested_call)
        {
            let call = self.call(call, Some((name.as_str().to_string(), span(&name))))?;
            self.calls.push(call);
            return self.vars.assign(name.as_str(), span(&name), None);
        }
        let value = self.value(value_pair)?;
        self.vars.assign(name.as_str(), span(&name), Some(value))
    }

    /// `group { d1; d2; … }`: its calls, each knowing the group's span.
    /// Only directive calls belong in a group: a `let`, an assignment or
    /// a nested group is refused, and so is an empty group.
    fn group_stmt(&mut self, s: Pair<Rule>, whole: Span) -> Result<(), Diagnostic> {
        let keyword = child(&s, Rule::kw_group).map(|k| span(&k))?;
        // From `group` to its `}` (the rule's own span runs on over the
        // white space before a `;` that may not come).
        let close = s
            .clone()
            .into_inner()
            .filter(|p| p.as_rule() == Rule::rbrace)
            .last()
            .map_or(whole.end, |b| span(&b).end);
        let whole = whole.start..close;
        let body: Vec<Pair<Rule>> = s
            .into_inner()
            .filter(|p| {
                !matches!(
                    p.as_rule(),
                    Rule::kw_group | Rule::lbrace | Rule::rbrace | Rule::semi
                )
            })
            .collect();
        let n = body.len();
        let mut calls = 0;
        for (k, inner) in body.into_iter().enumerate() {
            match inner.as_rule() {
                Rule::call_stmt => {
                    let before = self.calls.len();
                    self.stmt(inner, k + 1 == n)?;
                    for call in &mut self.calls[before..] {
                        call.group = Some(whole.clone());
                    }
                    calls += 1;
                }
                Rule::empty_stmt => {}
                Rule::group_stmt => {
                    return Err(Diagnostic::error("groups do not nest", span(&inner))
                        .with_label("a group inside a group")
                        .with_secondary(whole, "the enclosing group")
                        .with_help("write the inner group's directives directly in the outer one"))
                }
                _ => {
                    return Err(Diagnostic::error(
                        "only directives may be inside a `group`",
                        span(&inner),
                    )
                    .with_label("not a directive call")
                    .with_secondary(whole, "in this group")
                    .with_help("move the `let` or assignment before the group"))
                }
            }
        }
        if calls == 0 {
            return Err(Diagnostic::error("an empty group", keyword)
                .with_label("this group holds no directive")
                .with_help(
                    "put the directives to check together between the braces, or remove the group",
                ));
        }
        Ok(())
    }

    /// A `call` or `nested_call`.
    fn call(&self, c: Pair<Rule>, bind: Option<(String, Span)>) -> Result<Call, Diagnostic> {
        let whole = span(&c);
        let args = child(&c, Rule::args)?;
        let Some(name) = c.clone().into_inner().find(|p| p.as_rule() == Rule::name) else {
            let at = whole.start..whole.start + 1;
            return Err(Diagnostic::error("a call needs a directive name", at)
                .with_label("no name before this `(`")
                .with_help("write the directive, e.g. `tile([0], 1, 1, 32);`"));
        };
        let args = args
            .into_inner()
            .filter(|p| p.as_rule() == Rule::arg)
            .map(|a| self.arg(a))
            .collect::<Result<_, _>>()?;
        Ok(Call {
            name: name.as_str().to_string(),
            name_span: span(&name),
            args,
            span: whole,
            bind,
            group: None,
        })
    }

    fn arg(&self, a: Pair<Rule>) -> Result<Arg, Diagnostic> {
        let whole = span(&a);
        let name = a
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::arg_name)
            .map(|n| n.as_str().trim().to_string());
        let value = self.value(child(&a, Rule::value)?)?;
        Ok(Arg {
            value,
            span: whole,
            name,
        })
    }

    /// A `value` pair.
    fn value(&self, v: Pair<Rule>) -> Result<Value, Diagnostic> {
        let whole = span(&v);
        let inner = v
            .into_inner()
            .next()
            .ok_or_else(|| Diagnostic::error("internal: empty value", whole.clone()))?;
        let at = span(&inner);
        Ok(match inner.as_rule() {
            Rule::nested_call => {
                return Err(Diagnostic::error("calls cannot be nested", at)
                    .with_label("a call inside an argument")
                    .with_help("bind its result first, `v = f(…);`, and pass `v`"))
            }
            Rule::constraint => Value::Constraint(self.constraint(inner)?),
            Rule::beta => Value::Beta(self.elems(inner)?),
            Rule::sections => Value::Sections(
                inner
                    .into_inner()
                    .filter(|p| p.as_rule() == Rule::section)
                    .map(|s| self.elems(s))
                    .collect::<Result<_, _>>()?,
            ),
            Rule::label => Value::Label(child(&inner, Rule::name)?.as_str().to_string()),
            Rule::string => Value::Str(unescape(child(&inner, Rule::str_inner)?)?),
            Rule::int_lit => Value::Int(int_lit(inner)?),
            Rule::name => self.bare_name(inner.as_str(), at)?,
            r => {
                return Err(Diagnostic::error(
                    format!("internal: unexpected value rule {r:?}"),
                    at,
                ))
            }
        })
    }

    /// A bare word as an argument: a variable's value, Clay's `true` and
    /// `false`, an unknown variable, or a word such as `pluto`.
    fn bare_name(&self, name: &str, at: Span) -> Result<Value, Diagnostic> {
        if let Some(b) = self.vars.get(name) {
            return Ok(b.value.clone().unwrap_or(Value::Ident(name.to_string())));
        }
        match name {
            "true" => Ok(Value::Int(1)),
            "false" => Ok(Value::Int(0)),
            _ if self.vars.looks_like_variable(name) => Err(self.vars.unknown_argument(name, at)),
            _ => Ok(Value::Ident(name.to_string())),
        }
    }

    /// The integers of a `beta` or a `section`: literals, or variables
    /// holding an integer.
    fn elems(&self, p: Pair<Rule>) -> Result<Vec<i64>, Diagnostic> {
        p.into_inner()
            .filter(|e| e.as_rule() == Rule::elem)
            .map(|e| {
                let inner = e
                    .into_inner()
                    .next()
                    .ok_or_else(|| Diagnostic::error("internal: empty list element", 0..0))?;
                match inner.as_rule() {
                    Rule::int_lit => int_lit(inner),
                    _ => self.int_var(inner.as_str(), span(&inner), "in a list"),
                }
            })
            .collect()
    }

    /// The integer held by the variable `name` used at `at`.
    fn int_var(&self, name: &str, at: Span, context: &str) -> Result<i64, Diagnostic> {
        let Some(b) = self.vars.get(name) else {
            return Err(self.vars.unknown(name, at));
        };
        match &b.value {
            Some(Value::Int(i)) => Ok(*i),
            Some(v) => Err(Diagnostic::error(
                format!("`{name}` is {}, not an integer", kind(v)),
                at,
            )
            .with_label(format!("used as an integer {context}"))
            .with_secondary(b.span.clone(), format!("`{name}` is defined here"))),
            None => Err(Diagnostic::error(
                format!("`{name}` holds a call's result, known only when the recipe runs"),
                at,
            )
            .with_label(format!("used as an integer {context}"))
            .with_secondary(b.span.clone(), format!("`{name}` is assigned here"))),
        }
    }

    fn constraint(&self, c: Pair<Rule>) -> Result<AffineConstraint, Diagnostic> {
        let mut it = c.into_inner();
        let mut next = |what: &str| {
            it.next().ok_or_else(|| {
                Diagnostic::error(format!("internal: constraint without {what}"), 0..0)
            })
        };
        let lhs = self.aff(next("lhs")?)?;
        let op = match next("operator")?.as_str() {
            "<" => CmpOp::Lt,
            "<=" => CmpOp::Le,
            ">" => CmpOp::Gt,
            ">=" => CmpOp::Ge,
            _ => CmpOp::Eq,
        };
        let rhs = self.aff(next("rhs")?)?;
        Ok(AffineConstraint { lhs, op, rhs })
    }

    /// `aff` (sums) and `term` (products): a left fold over the operators.
    fn aff(&self, p: Pair<Rule>) -> Result<AffineExpr, Diagnostic> {
        let at = span(&p);
        let mut it = p.into_inner();
        let first = it
            .next()
            .ok_or_else(|| Diagnostic::error("internal: empty expression", at.clone()))?;
        let mut acc = self.operand(first)?;
        while let (Some(op), Some(rhs)) = (it.next(), it.next()) {
            let rhs = Box::new(self.operand(rhs)?);
            let lhs = Box::new(acc);
            acc = match op.as_str() {
                "+" => AffineExpr::Add(lhs, rhs),
                "-" => AffineExpr::Sub(lhs, rhs),
                "*" => AffineExpr::Mul(lhs, rhs),
                _ => AffineExpr::Div(lhs, rhs),
            };
        }
        Ok(acc)
    }

    fn operand(&self, p: Pair<Rule>) -> Result<AffineExpr, Diagnostic> {
        match p.as_rule() {
            Rule::term | Rule::aff => self.aff(p),
            Rule::factor => {
                let at = span(&p);
                let inner = p
                    .into_inner()
                    .find(|q| !matches!(q.as_rule(), Rule::lparen | Rule::rparen))
                    .ok_or_else(|| Diagnostic::error("internal: empty factor", at))?;
                self.operand(inner)
            }
            Rule::neg => {
                let at = span(&p);
                let factor = child(&p, Rule::factor)?;
                let only = factor.clone().into_inner().next();
                if let Some(n) = only.filter(|q| q.as_rule() == Rule::number) {
                    return Ok(AffineExpr::Int(number(&n, true, at)?));
                }
                Ok(AffineExpr::Neg(Box::new(self.operand(factor)?)))
            }
            Rule::number => Ok(AffineExpr::Int(number(&p, false, span(&p))?)),
            Rule::name => {
                let name = p.as_str();
                match self.vars.get(name) {
                    Some(b) if b.value.is_some() => Ok(AffineExpr::Int(self.int_var(
                        name,
                        span(&p),
                        "in a constraint",
                    )?)),
                    _ => Ok(AffineExpr::Name(name.to_string(), span(&p))),
                }
            }
            r => Err(Diagnostic::error(
                format!("internal: unexpected expression rule {r:?}"),
                span(&p),
            )),
        }
    }
}

/// The span of a `let` or an assignment up to the end of its value (pest's
/// span runs over the white space where it looked for the `;`).
fn without_semi(s: &Pair<Rule>, whole: Span) -> Span {
    match s.clone().into_inner().find(|p| p.as_rule() == Rule::value) {
        Some(v) => whole.start..span(&v).end,
        None => whole,
    }
}

fn missing_semi(at: Span, what: &str) -> Diagnostic {
    Diagnostic::error(format!("expected `;` after this {what}"), at)
        .with_label(format!("this {what} is not followed by `;`"))
        .with_help("end each statement with `;`")
}

/// An `int_lit`: an optional `-` and a `number`.
fn int_lit(p: Pair<Rule>) -> Result<i64, Diagnostic> {
    let at = span(&p);
    let negative = p.clone().into_inner().any(|q| q.as_rule() == Rule::minus);
    number(&child(&p, Rule::number)?, negative, at)
}

/// A `number` token, negated if `negative`; `whole` is the literal's span
/// with its sign, for the diagnostics.
fn number(n: &Pair<Rule>, negative: bool, whole: Span) -> Result<i64, Diagnostic> {
    let digits = n.as_str();
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(
            Diagnostic::error(format!("invalid integer literal `{digits}`"), span(n))
                .with_label("not a decimal integer")
                .with_note("integers are decimal digits with an optional `-`"),
        );
    }
    let overflow = || {
        Diagnostic::error("integer literal does not fit in 64 bits", whole.clone())
            .with_label("out of the range of `i64`")
            .with_note(format!("the range is {} to {}", i64::MIN, i64::MAX))
    };
    let magnitude: u64 = digits.parse().map_err(|_| overflow())?;
    if negative {
        0i64.checked_sub_unsigned(magnitude).ok_or_else(overflow)
    } else {
        i64::try_from(magnitude).map_err(|_| overflow())
    }
}

/// The text of a string, with `\"` and `\\` unescaped.
fn unescape(p: Pair<Rule>) -> Result<String, Diagnostic> {
    let base = p.as_span().start();
    let mut out = String::new();
    let mut chars = p.as_str().char_indices();
    while let Some((_, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some((_, e @ ('"' | '\\'))) => out.push(e),
            Some((i, e)) => {
                let at = base + i - 1..base + i + e.len_utf8();
                return Err(Diagnostic::error(format!("unknown escape `\\{e}`"), at)
                    .with_label("in this string")
                    .with_note("strings know two escapes, `\\\"` and `\\\\`"));
            }
            None => out.push('\\'),
        }
    }
    Ok(out)
}

/// The value of `--set name=text` for the `let` whose value is at `at`; its
/// errors (and its names' spans) point at that value.
fn override_value(name: &str, text: &str, at: Span) -> Result<Value, Diagnostic> {
    let wrap = |d: Diagnostic| {
        Diagnostic::error(
            format!("invalid value in `--set {name}={text}`: {}", d.message),
            at.clone(),
        )
        .with_label(format!("`--set {name}` overrides this value"))
    };
    super::tokens::check(text).map_err(wrap)?;
    let tree = syntax::parse_value(text).map_err(wrap)?;
    let b = Builder {
        vars: Vars::default(),
        overrides: &[],
        calls: Vec::new(),
    };
    let v = child(&tree, Rule::value).map_err(wrap)?;
    if v.clone()
        .into_inner()
        .any(|q| q.as_rule() == Rule::nested_call)
    {
        return Err(wrap(Diagnostic::error("a call is not a value", 0..0)));
    }
    let mut value = b.value(v).map_err(wrap)?;
    if let Value::Constraint(c) = &mut value {
        respan(&mut c.lhs, &at);
        respan(&mut c.rhs, &at);
    }
    Ok(value)
}

fn respan(e: &mut AffineExpr, at: &Span) {
    match e {
        AffineExpr::Int(_) => {}
        AffineExpr::Name(_, s) => *s = at.clone(),
        AffineExpr::Neg(a) => respan(a, at),
        AffineExpr::Add(a, b)
        | AffineExpr::Sub(a, b)
        | AffineExpr::Mul(a, b)
        | AffineExpr::Div(a, b) => {
            respan(a, at);
            respan(b, at);
        }
    }
}
