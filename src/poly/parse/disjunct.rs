//! One disjunct of the text: its tuples (names, or fresh dimensions equal
//! to an expression), then its formula read into conjunctions of rows
//! (`Builder`: names in scope, `exists` and floor locals).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use pest::iterators::Pair;

use super::formula::{and, atom, divisor, or, product, truth, Aff, Clause, Dnf};
use super::{
    internal, literal, lone_primary, next, only_child, start, At, Conjunction, ParseError, Result,
    Rule, Shape,
};
use crate::poly::{Constraint, ConstraintKind, Tuple};

/// Read one disjunct into its tuples and its conjunctions.
/// What one disjunct reads as: its tuples, its conjunctions, and where
/// its formula is false (no conjunction), the conjunction of its tuples'
/// own rows with a false row, so that a single conjunction read alone
/// keeps the values its tuple gives (`{ S[i] -> [0, i, 1] : false }`, an
/// empty piece of a schedule, keeps its dates).
pub(super) type Read = (Shape, Vec<Conjunction>, Option<Conjunction>);

pub(super) fn read<'a>(params: &[&'a str], p: Pair<'a, Rule>) -> Result<Read> {
    let at = start(&p);
    let mut tuples: Vec<Pair<'a, Rule>> = Vec::new();
    let mut formula = None;
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::tuples => tuples = q.into_inner().collect(),
            Rule::formula => formula = Some(q),
            _ => return Err(internal("unexpected node in a disjunct", start(&q))),
        }
    }
    let mut tuples = tuples.into_iter().map(split_tuple);
    let (input, output) = match (tuples.next(), tuples.next()) {
        (None, _) => (None, (None, Vec::new())),
        (Some(out), None) => (None, out),
        (Some(inp), Some(out)) => (Some(inp), out),
    };
    let is_map = input.is_some();
    let n_param = params.len();
    let n_in = input.as_ref().map_or(0, |t| t.1.len());
    let mut b = Builder {
        n_fixed: n_param + n_in + output.1.len(),
        names: params.iter().enumerate().map(|(k, n)| (*n, k)).collect(),
        n_local: 0,
        floors: HashMap::new(),
        floor_defs: BTreeMap::new(),
    };

    let mut base = Clause::default();
    let in_dims = match input {
        Some((name, entries)) => Some((name, b.tuple_dims(entries, n_param, &mut base)?)),
        None => None,
    };
    let out_dims = b.tuple_dims(output.1, n_param + n_in, &mut base)?;
    let dnf = match formula {
        Some(f) => b.formula(f)?,
        None => truth(true),
    };
    let tuple_rows = base.clone();
    let dnf = and(vec![base], dnf, at)?;

    let mut taken: HashSet<String> = params.iter().map(|s| s.to_string()).collect();
    let user_dims = in_dims
        .iter()
        .flat_map(|(_, d)| d.iter())
        .chain(out_dims.iter());
    taken.extend(user_dims.flatten().map(|s| s.to_string()));
    let shape = Shape {
        input: in_dims.map(|(name, dims)| {
            Tuple::new(name.map(String::from), fill_names(&dims, "i", &mut taken))
        }),
        output: Tuple::new(
            output.0.map(String::from),
            fill_names(&out_dims, if is_map { "o" } else { "i" }, &mut taken),
        ),
    };
    let conjunctions: Vec<Conjunction> = dnf
        .into_iter()
        .map(|c| b.finish(c, at))
        .collect::<Result<_>>()?;
    let empty = match conjunctions.is_empty() {
        true => {
            let (n_local, mut rows) = b.finish(tuple_rows, at)?;
            rows.push(Constraint::ineq(vec![0; b.n_fixed + n_local], -1));
            Some((n_local, rows))
        }
        false => None,
    };
    Ok((shape, conjunctions, empty))
}

/// A `tuple` node as its name and its entries.
pub(super) fn split_tuple<'a>(t: Pair<'a, Rule>) -> (Option<&'a str>, Vec<Pair<'a, Rule>>) {
    let mut name = None;
    let mut entries = Vec::new();
    for q in t.into_inner() {
        if q.as_rule() == Rule::tuple_name {
            name = Some(q.as_str());
        } else {
            entries.push(q);
        }
    }
    (name, entries)
}

/// Dimension names: the user's, or `{prefix}{position}` primed until unique.
pub(super) fn fill_names(
    dims: &[Option<&str>],
    prefix: &str,
    taken: &mut HashSet<String>,
) -> Vec<String> {
    dims.iter()
        .enumerate()
        .map(|(k, d)| match d {
            Some(name) => name.to_string(),
            None => {
                let mut name = format!("{prefix}{k}");
                while taken.contains(&name) {
                    name.push('\'');
                }
                taken.insert(name.clone());
                name
            }
        })
        .collect()
}

/// Names in scope and locals while one disjunct is read.
pub(super) struct Builder<'a> {
    /// Columns before the locals: parameters, inputs and outputs.
    pub(super) n_fixed: usize,
    /// Names in scope with their columns, innermost last.
    pub(super) names: Vec<(&'a str, usize)>,
    /// Locals numbered so far; local `q` is column `n_fixed + q`.
    pub(super) n_local: usize,
    /// The local already standing for `floor(e / k)`, by `(e, k)`.
    pub(super) floors: HashMap<(Aff, i64), usize>,
    /// The two rows defining each floor local.
    pub(super) floor_defs: BTreeMap<usize, [Aff; 2]>,
}

impl<'a> Builder<'a> {
    pub(super) fn lookup(&self, name: &str, at: usize) -> Result<usize> {
        self.names
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|&(_, col)| col)
            .ok_or_else(|| {
                ParseError::new(
                    format!(
                        "unknown identifier `{name}`: a parameter must be declared in the `[…] -> {{ … }}` prefix"
                    ),
                    at,
                )
            })
    }

    pub(super) fn new_local(&mut self) -> usize {
        self.n_local += 1;
        self.n_local - 1
    }

    /// Bind the entries of a tuple whose first column is `first`; an entry
    /// that is not a fresh identifier adds `dim = entry` to `base`. Returns
    /// the user's dimension names.
    pub(super) fn tuple_dims(
        &mut self,
        entries: Vec<Pair<'a, Rule>>,
        first: usize,
        base: &mut Clause,
    ) -> Result<Vec<Option<&'a str>>> {
        let mut names = Vec::with_capacity(entries.len());
        for (k, entry) in entries.into_iter().enumerate() {
            let col = first + k;
            if let Some(p) = lone_primary(entry.clone()) {
                let name = p.as_str();
                if p.as_rule() == Rule::ident && self.names.iter().all(|(n, _)| *n != name) {
                    self.names.push((name, col));
                    names.push(Some(name));
                    continue;
                }
            }
            let at = start(&entry);
            let value = self.sum(entry)?;
            base.rows
                .push((ConstraintKind::Eq, Aff::var(col).sub(&value).at(at)?));
            names.push(None);
        }
        Ok(names)
    }

    // ------------------------------------------------------------ formulas

    pub(super) fn formula(&mut self, p: Pair<'a, Rule>) -> Result<Dnf> {
        let at = start(&p);
        let mut out = truth(false);
        for q in p.into_inner().filter(|q| q.as_rule() == Rule::conj) {
            let d = self.conj(q)?;
            out = or(out, d, at)?;
        }
        Ok(out)
    }

    pub(super) fn conj(&mut self, p: Pair<'a, Rule>) -> Result<Dnf> {
        let at = start(&p);
        let mut out = truth(true);
        for q in p.into_inner().filter(|q| q.as_rule() == Rule::cmp) {
            let d = self.cmp(q)?;
            out = and(out, d, at)?;
        }
        Ok(out)
    }

    /// A chain `a op b op c …`, or a lone parenthesised formula, literal or `exists`.
    pub(super) fn cmp(&mut self, p: Pair<'a, Rule>) -> Result<Dnf> {
        let at = start(&p);
        let mut parts = p.into_inner();
        let first = next(&mut parts, at)?;
        let Some(mut op) = parts.next() else {
            return self.condition(first);
        };
        let mut lhs = self.sum(first)?;
        let mut out = truth(true);
        loop {
            let rhs = self.sum(next(&mut parts, at)?)?;
            let d = compare(&lhs, op.as_str(), &rhs, start(&op))?;
            out = and(out, d, at)?;
            lhs = rhs;
            match parts.next() {
                Some(o) => op = o,
                None => return Ok(out),
            }
        }
    }

    /// A `sum` standing where a constraint is expected.
    pub(super) fn condition(&mut self, sum: Pair<'a, Rule>) -> Result<Dnf> {
        let at = start(&sum);
        match lone_primary(sum) {
            Some(p) if p.as_rule() == Rule::paren => self.formula(next(&mut p.into_inner(), at)?),
            Some(p) if p.as_rule() == Rule::bool_lit => {
                let word = next(&mut p.into_inner(), at)?;
                Ok(truth(word.as_rule() == Rule::kw_true))
            }
            Some(p) if p.as_rule() == Rule::exists => self.exists(p),
            _ => Err(ParseError::new(
                "expected a constraint such as `i >= 0`, found an expression",
                at,
            )),
        }
    }

    /// `exists (e0, e1: formula)`: the variables become locals of every
    /// conjunction of the formula.
    pub(super) fn exists(&mut self, p: Pair<'a, Rule>) -> Result<Dnf> {
        let at = start(&p);
        let mark = self.names.len();
        let mut bound = Vec::new();
        let mut body = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::kw_exists => {}
                Rule::ident => {
                    let local = self.new_local();
                    self.names.push((q.as_str(), self.n_fixed + local));
                    bound.push(local);
                }
                Rule::formula => body = Some(q),
                _ => return Err(internal("unexpected node in `exists`", start(&q))),
            }
        }
        let body = body.ok_or_else(|| internal("`exists` without a formula", at));
        let dnf = body.and_then(|f| self.formula(f));
        self.names.truncate(mark);
        let mut dnf = dnf?;
        for c in &mut dnf {
            c.locals.extend(bound.iter().copied());
        }
        Ok(dnf)
    }

    // --------------------------------------------------------- expressions

    pub(super) fn sum(&mut self, p: Pair<'a, Rule>) -> Result<Aff> {
        let mut acc = Aff::default();
        let mut sign = 1;
        for q in p.into_inner() {
            let at = start(&q);
            match q.as_rule() {
                Rule::add_op => sign = if q.as_str() == "-" { -1 } else { 1 },
                Rule::term => {
                    let t = self.term(q)?.scale(sign).at(at)?;
                    acc = acc.add(&t).at(at)?;
                }
                _ => return Err(internal("unexpected node in a sum", at)),
            }
        }
        Ok(acc)
    }

    pub(super) fn term(&mut self, p: Pair<'a, Rule>) -> Result<Aff> {
        let at = start(&p);
        let mut parts = p.into_inner();
        let mut acc = self.factor(next(&mut parts, at)?)?;
        while let Some(op) = parts.next() {
            let op_at = start(&op);
            let rhs = self.factor(next(&mut parts, at)?)?;
            acc = if op.as_str() == "*" {
                product(&acc, &rhs, op_at)?
            } else {
                // e mod k = e - k floor(e / k)
                let k = divisor(&rhs, op_at)?;
                let q = self.floor_of(acc.clone(), k, op_at)?;
                acc.sub(&q.scale(k).at(op_at)?).at(op_at)?
            };
        }
        Ok(acc)
    }

    pub(super) fn factor(&mut self, p: Pair<'a, Rule>) -> Result<Aff> {
        let at = start(&p);
        let mut negate = false;
        for q in p.into_inner() {
            if q.as_rule() == Rule::neg {
                negate = !negate;
                continue;
            }
            let value = self.primary(q)?;
            return if negate {
                value.scale(-1).at(at)
            } else {
                Ok(value)
            };
        }
        Err(internal("a factor without a value", at))
    }

    pub(super) fn primary(&mut self, p: Pair<'a, Rule>) -> Result<Aff> {
        let at = start(&p);
        match p.as_rule() {
            Rule::number => {
                let mut parts = p.into_inner();
                let k = literal(&next(&mut parts, at)?)?;
                match parts.next() {
                    None => Ok(Aff::constant(k)),
                    Some(q) => self.primary(q)?.scale(k).at(at),
                }
            }
            Rule::ident => self.lookup(p.as_str(), at).map(Aff::var),
            Rule::paren => {
                let formula = next(&mut p.into_inner(), at)?;
                let sum = only_child(formula)
                    .and_then(only_child)
                    .and_then(only_child)
                    .filter(|s| s.as_rule() == Rule::sum);
                match sum {
                    Some(s) => self.sum(s),
                    None => Err(ParseError::new(
                        "expected an expression, found a constraint",
                        at,
                    )),
                }
            }
            Rule::floor | Rule::ceil => {
                let is_ceil = p.as_rule() == Rule::ceil;
                let mut parts = p
                    .into_inner()
                    .filter(|q| !matches!(q.as_rule(), Rule::kw_floor | Rule::kw_ceil));
                let num = self.sum(next(&mut parts, at)?)?;
                let den = next(&mut parts, at)?;
                let den_at = start(&den);
                let k = divisor(&self.factor(den)?, den_at)?;
                if is_ceil {
                    // ceil(e / k) = -floor(-e / k)
                    let q = self.floor_of(num.scale(-1).at(at)?, k, at)?;
                    q.scale(-1).at(at)
                } else {
                    self.floor_of(num, k, at)
                }
            }
            Rule::bool_lit | Rule::exists => Err(ParseError::new(
                "expected an expression, found a constraint",
                at,
            )),
            _ => Err(internal("unexpected node in an expression", at)),
        }
    }

    /// `floor(e / k)` for `k > 0`: a constant, or a local `q` defined by
    /// `e - k q >= 0` and `k q - e + k - 1 >= 0`, shared by equal floors.
    pub(super) fn floor_of(&mut self, e: Aff, k: i64, at: usize) -> Result<Aff> {
        if let Some(c) = e.as_constant() {
            return Ok(Aff::constant(c.div_euclid(k)));
        }
        if k == 1 {
            return Ok(e);
        }
        let key = (e.clone(), k);
        if let Some(&q) = self.floors.get(&key) {
            return Ok(Aff::var(self.n_fixed + q));
        }
        let q = self.new_local();
        let kq = Aff::var(self.n_fixed + q).scale(k).at(at)?;
        let lower = e.sub(&kq).at(at)?;
        let upper = kq.sub(&e).at(at)?.add(&Aff::constant(k - 1)).at(at)?;
        self.floor_defs.insert(q, [lower, upper]);
        self.floors.insert(key, q);
        Ok(Aff::var(self.n_fixed + q))
    }

    // ---------------------------------------------------------- the result

    /// Lay a conjunction out in final columns: the locals it uses (its
    /// `exists` variables, its floors and what their definitions mention)
    /// renumbered in order of appearance, floor definitions after its rows.
    pub(super) fn finish(&self, clause: Clause, at: usize) -> Result<Conjunction> {
        let mut used = clause.locals.clone();
        let mut floors = BTreeSet::new();
        let mut pending: Vec<&Aff> = clause.rows.iter().map(|(_, a)| a).collect();
        while let Some(a) = pending.pop() {
            for (&col, _) in a.terms().filter(|(&col, _)| col >= self.n_fixed) {
                let q = col - self.n_fixed;
                used.insert(q);
                if let Some(def) = self.floor_defs.get(&q) {
                    if floors.insert(q) {
                        pending.extend(def.iter());
                    }
                }
            }
        }
        let column: HashMap<usize, usize> = used
            .iter()
            .enumerate()
            .map(|(k, &q)| (q, self.n_fixed + k))
            .collect();
        let n_cols = self.n_fixed + used.len();
        let lay_out = |kind: ConstraintKind, a: &Aff| -> Result<Constraint> {
            let mut coeffs = vec![0; n_cols];
            for (&col, c) in a.terms() {
                let to = if col < self.n_fixed {
                    col
                } else {
                    *column
                        .get(&(col - self.n_fixed))
                        .ok_or_else(|| internal("a local without a column", at))?
                };
                coeffs[to] = c;
            }
            Ok(Constraint {
                kind,
                coeffs,
                constant: a.constant_term(),
            })
        };
        let mut rows = Vec::with_capacity(clause.rows.len() + 2 * floors.len());
        for (kind, a) in &clause.rows {
            rows.push(lay_out(*kind, a)?);
        }
        for q in &floors {
            for a in self.floor_defs.get(q).into_iter().flatten() {
                rows.push(lay_out(ConstraintKind::Ineq, a)?);
            }
        }
        Ok((used.len(), rows))
    }
}

/// `lhs op rhs` as rows.
pub(super) fn compare(lhs: &Aff, op: &str, rhs: &Aff, at: usize) -> Result<Dnf> {
    let one = Aff::constant(1);
    // a > b  ⇔  a - b - 1 >= 0
    let ge = |a: &Aff, b: &Aff| a.sub(b).at(at);
    let gt = |a: &Aff, b: &Aff| a.sub(b).and_then(|d| d.sub(&one)).at(at);
    Ok(match op {
        "<=" => atom(ConstraintKind::Ineq, ge(rhs, lhs)?),
        "<" => atom(ConstraintKind::Ineq, gt(rhs, lhs)?),
        ">=" => atom(ConstraintKind::Ineq, ge(lhs, rhs)?),
        ">" => atom(ConstraintKind::Ineq, gt(lhs, rhs)?),
        "=" | "==" => atom(ConstraintKind::Eq, ge(lhs, rhs)?),
        "!=" => or(
            atom(ConstraintKind::Ineq, gt(lhs, rhs)?),
            atom(ConstraintKind::Ineq, gt(rhs, lhs)?),
            at,
        )?,
        _ => return Err(internal("unknown comparison", at)),
    })
}
