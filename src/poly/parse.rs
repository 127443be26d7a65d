//! Reading isl's notation into [`Set`], [`BasicSet`], [`Map`] and [`BasicMap`].
//!
//! What the printer (`print.rs`) writes reads back to the same set or
//! relation, and to the same text unless a row without variables was printed
//! as `true` / `false` (such rows are decided while reading, see below). The
//! usual hand-written isl forms are accepted too. The grammar is
//! `grammar/isl.pest`; this module gives the parse tree its meaning.
//!
//! ```text
//! [N, M] -> { S[i, j] : 0 <= i < N and 0 <= j <= M; T[] }   parameters, chains
//! [N] -> { S[i, j] -> A[i, j + 1] : j >= 0 }                 a relation
//! { [i] -> [floor((i + 1)/2), i mod 3] }                     integer division
//! { [i] : exists (e0: i = 2e0) or i > 10 }                   locals, disjunction
//! [n] -> { : n >= 0 }                                        a parameter set
//! ```
//!
//! * **Parameters** are declared in the optional `[N, M] -> ` prefix; an
//!   identifier that is neither a parameter, a dimension nor a bound variable
//!   is an error.
//! * **Disjuncts** are separated by `;` and must all live in the same space
//!   (tuple names and dimension counts); dimension names come from the first
//!   one. `{ }` is the empty union.
//! * **Tuples** `S[i, j]`, `[i, j]`, `S[]`, or nothing (a parameter set
//!   `{ : … }`); relations are `in -> out`. An entry that is a fresh identifier
//!   names a dimension. Any other entry — an expression such as `j + 1`, `0`,
//!   `2i`, or an identifier already bound (`[i, i]`, an input reused in the
//!   output) — gets a fresh dimension equal to it, named by position: `i0, i1, …`
//!   for inputs and set dimensions, `o0, o1, …` for outputs (primed until unique).
//! * **Formulas** combine comparisons with `and` / `&&`, `or` / `||`,
//!   parentheses, `true`, `false` and `exists (e0, e1: formula)`. Comparisons
//!   are `<=`, `<`, `>=`, `>`, `=` / `==` and `!=`, and may be chained:
//!   `0 <= i < N`. Over the integers `a < b` is `b - a - 1 >= 0`. A formula is
//!   brought to disjunctive normal form: each conjunction is one disjunct.
//! * **Affine expressions** are built from integer literals, identifiers, `+`,
//!   `-`, multiplication by a constant (`2*i`, `2 * i`, `2i`, `2e0`),
//!   parentheses, `floor(e / k)`, `ceil(e / k)` and `e mod k` with `k` a
//!   positive integer constant. A floor becomes a local `q` with
//!   `e - k q >= 0` and `k q - e + k - 1 >= 0`; equal floors of one disjunct
//!   share their local.
//! * **Locals** (from `exists` and floors) are numbered in order of appearance.
//!   A constraint without variables is decided at once: a true one is dropped,
//!   a false one drops its conjunction.
//!
//! All arithmetic is checked: an overflow is a [`ParseError`], never a wrap,
//! and no input makes the parser panic. Brackets may nest at most 64 deep and
//! one disjunct's formula may expand to at most 4096 conjunctions; beyond
//! that the text is refused.
//!
//! ```
//! use polyc::poly::{parse_map, parse_set, Set};
//! let s = parse_set("[N] -> { S[i] : 0 <= i < N }").unwrap();
//! assert_eq!(s.to_string(), "[N] -> { S[i] : i >= 0 and i <= N - 1 }");
//!
//! let text = "[n] -> { S0[i, j] -> A[i, j + 1] }";
//! assert_eq!(parse_map(text).unwrap().to_string(), text);
//!
//! assert!("[N] -> { S[i] : i < M }".parse::<Set>().is_err()); // M is not declared
//! ```

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;
use std::str::FromStr;

use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;

use super::{
    checked_add, checked_mul, BasicMap, BasicSet, Constraint, ConstraintKind, Map, Overflow, Set,
    Space, Tuple,
};

#[derive(Parser)]
#[grammar = "../grammar/isl.pest"]
struct IslParser;

/// The most conjunctions one disjunct's formula may expand to in disjunctive
/// normal form (`(a or b) and (c or d) and …` doubles at each step).
const MAX_DISJUNCTS: usize = 4096;

/// The deepest nesting of brackets accepted; bounds the recursion of the parser.
const MAX_NESTING: usize = 64;

/// Why a text is not a set or relation in isl's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub message: String,
    /// Byte offset in the text where the problem was found.
    pub offset: usize,
}

impl ParseError {
    fn new(message: impl Into<String>, offset: usize) -> ParseError {
        ParseError {
            message: message.into(),
            offset,
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for ParseError {}

type Result<T> = std::result::Result<T, ParseError>;

/// A conjunction laid out in final columns: its number of locals and its rows.
type Conjunction = (usize, Vec<Constraint>);

/// Turns an [`Overflow`] into a [`ParseError`] at a text offset.
trait At<T> {
    fn at(self, offset: usize) -> Result<T>;
}

impl<T> At<T> for std::result::Result<T, Overflow> {
    fn at(self, offset: usize) -> Result<T> {
        self.map_err(|_| ParseError::new("integer overflow", offset))
    }
}

/// A parse tree node that should have been there (a grammar/builder mismatch).
fn internal(what: &str, offset: usize) -> ParseError {
    ParseError::new(format!("internal parser error: {what}"), offset)
}

// ------------------------------------------------------------------ public API

/// Parse a set, such as `[N] -> { S[i] : 0 <= i < N; T[] }`.
pub fn parse_set(text: &str) -> Result<Set> {
    let u = parse_union(text)?;
    let space = u.set_space()?;
    let mut set = Set::empty(space.clone());
    for d in u.disjuncts {
        set.push(BasicSet::from_parts(space.clone(), d.n_local, d.rows));
    }
    Ok(set)
}

/// Parse a set that is a single conjunction. A text whose disjuncts are all
/// trivially false gives the empty basic set (one row `-1 >= 0`).
pub fn parse_basic_set(text: &str) -> Result<BasicSet> {
    let u = parse_union(text)?;
    let space = u.set_space()?;
    let (n_local, rows) = u.single(space.n_dim_total())?;
    Ok(BasicSet::from_parts(space, n_local, rows))
}

/// Parse a relation, such as `[N] -> { S[i, j] -> A[i, j + 1] : j < N }`.
pub fn parse_map(text: &str) -> Result<Map> {
    let u = parse_union(text)?;
    let space = u.map_space()?;
    let mut map = Map::empty(space.clone());
    for d in u.disjuncts {
        map.push(BasicMap::from_columns(space.clone(), d.n_local, d.rows));
    }
    Ok(map)
}

/// Parse a relation that is a single conjunction (see [`parse_basic_set`]).
pub fn parse_basic_map(text: &str) -> Result<BasicMap> {
    let u = parse_union(text)?;
    let space = u.map_space()?;
    let (n_local, rows) = u.single(space.n_dim_total())?;
    Ok(BasicMap::from_columns(space, n_local, rows))
}

impl FromStr for Set {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Set> {
        parse_set(s)
    }
}

impl FromStr for BasicSet {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<BasicSet> {
        parse_basic_set(s)
    }
}

impl FromStr for Map {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Map> {
        parse_map(s)
    }
}

impl FromStr for BasicMap {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<BasicMap> {
        parse_basic_map(s)
    }
}

// ------------------------------------------------------------- the whole text

/// The tuples of one disjunct: `input -> output`, or just `output` for a set.
#[derive(Clone, Debug)]
struct Shape {
    input: Option<Tuple>,
    output: Tuple,
}

impl Shape {
    /// Same space: same kind, tuple names and dimension counts.
    fn same_space(&self, other: &Shape) -> bool {
        let same = |a: &Tuple, b: &Tuple| a.name == b.name && a.dims.len() == b.dims.len();
        let inputs = match (&self.input, &other.input) {
            (None, None) => true,
            (Some(a), Some(b)) => same(a, b),
            _ => false,
        };
        inputs && same(&self.output, &other.output)
    }

    fn describe(&self) -> String {
        let tuple =
            |t: &Tuple| format!("{}[{}]", t.name.as_deref().unwrap_or(""), t.dims.join(", "));
        match &self.input {
            Some(i) => format!("`{} -> {}`", tuple(i), tuple(&self.output)),
            None => format!("`{}`", tuple(&self.output)),
        }
    }
}

/// One conjunction, laid out in the columns of its space plus `n_local` locals.
struct Disjunct {
    n_local: usize,
    rows: Vec<Constraint>,
    /// Where its disjunct starts in the text.
    offset: usize,
}

/// A parsed text before it is given its type.
struct Union {
    params: Vec<String>,
    /// The first disjunct's tuples and offset; `None` for `{ }`.
    shape: Option<(Shape, usize)>,
    disjuncts: Vec<Disjunct>,
}

impl Union {
    fn set_space(&self) -> Result<Space> {
        match &self.shape {
            None => Ok(Space::set(self.params.clone(), None, Vec::new())),
            Some((s, _)) if s.input.is_none() => Ok(Space {
                params: self.params.clone(),
                input: None,
                output: s.output.clone(),
            }),
            Some((s, at)) => Err(ParseError::new(
                format!("expected a set, found the relation {}", s.describe()),
                *at,
            )),
        }
    }

    fn map_space(&self) -> Result<Space> {
        match &self.shape {
            None => Ok(Space::map(
                self.params.clone(),
                Tuple::new(None, Vec::new()),
                Tuple::new(None, Vec::new()),
            )),
            Some((
                Shape {
                    input: Some(i),
                    output,
                },
                _,
            )) => Ok(Space::map(self.params.clone(), i.clone(), output.clone())),
            Some((s, at)) => Err(ParseError::new(
                format!(
                    "expected a relation `A[…] -> B[…]`, found the set {}",
                    s.describe()
                ),
                *at,
            )),
        }
    }

    /// The only conjunction, or the empty one (`-1 >= 0` over `n_cols` columns).
    fn single(mut self, n_cols: usize) -> Result<Conjunction> {
        if let Some(second) = self.disjuncts.get(1) {
            return Err(ParseError::new(
                format!(
                    "expected a single conjunction, found {} disjuncts",
                    self.disjuncts.len()
                ),
                second.offset,
            ));
        }
        Ok(match self.disjuncts.pop() {
            Some(d) => (d.n_local, d.rows),
            None => (0, vec![Constraint::ineq(vec![0; n_cols], -1)]),
        })
    }
}

fn parse_union(text: &str) -> Result<Union> {
    check_nesting(text)?;
    let mut pairs = IslParser::parse(Rule::union, text).map_err(|e| syntax_error(e, text))?;
    let top = pairs
        .next()
        .ok_or_else(|| internal("empty parse tree", 0))?;
    let mut params: Vec<&str> = Vec::new();
    let mut shape: Option<(Shape, usize)> = None;
    let mut disjuncts = Vec::new();
    for p in top.into_inner() {
        match p.as_rule() {
            Rule::params => {
                for q in p.into_inner() {
                    if params.contains(&q.as_str()) {
                        return Err(ParseError::new(
                            format!("parameter `{}` is declared twice", q.as_str()),
                            start(&q),
                        ));
                    }
                    params.push(q.as_str());
                }
            }
            Rule::disjunct => {
                let at = start(&p);
                let (s, conjunctions) = disjunct(&params, p)?;
                match &shape {
                    None => shape = Some((s, at)),
                    Some((first, _)) if !first.same_space(&s) => {
                        return Err(ParseError::new(
                            format!(
                                "all disjuncts must live in one space: this one is {}, the first is {}",
                                s.describe(),
                                first.describe()
                            ),
                            at,
                        ));
                    }
                    Some(_) => {}
                }
                disjuncts.extend(conjunctions.into_iter().map(|(n_local, rows)| Disjunct {
                    n_local,
                    rows,
                    offset: at,
                }));
            }
            Rule::EOI => {}
            _ => return Err(internal("unexpected node in a union", start(&p))),
        }
    }
    Ok(Union {
        params: params.into_iter().map(String::from).collect(),
        shape,
        disjuncts,
    })
}

/// Refuse bracket nesting deeper than [`MAX_NESTING`] before the recursive
/// parser sees it.
fn check_nesting(text: &str) -> Result<()> {
    let mut depth = 0usize;
    for (at, ch) in text.char_indices() {
        match ch {
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(ParseError::new(
                        format!("brackets nested more than {MAX_NESTING} deep"),
                        at,
                    ));
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn syntax_error(e: pest::error::Error<Rule>, text: &str) -> ParseError {
    let offset = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let mut expected: Vec<&str> = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            positives.iter().filter_map(|r| rule_name(*r)).collect()
        }
        pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
    };
    expected.sort_unstable();
    expected.dedup();
    let rest = text.get(offset..).unwrap_or("");
    let found = match rest.split_whitespace().next() {
        None => "the end of the text".to_string(),
        Some(word) => format!("`{}`", word.chars().take(12).collect::<String>()),
    };
    let mut message = format!("syntax error at {found}");
    if !expected.is_empty() {
        message.push_str(&format!(": expected {}", expected.join(" or ")));
    }
    ParseError::new(message, offset)
}

/// How a rule is named in "expected …"; `None` leaves it out.
fn rule_name(r: Rule) -> Option<&'static str> {
    Some(match r {
        Rule::sum
        | Rule::term
        | Rule::factor
        | Rule::number
        | Rule::int
        | Rule::ident
        | Rule::paren
        | Rule::floor
        | Rule::ceil
        | Rule::neg => "an expression",
        Rule::formula | Rule::conj | Rule::cmp | Rule::bool_lit | Rule::exists => "a constraint",
        Rule::cmp_op => "a comparison",
        Rule::add_op | Rule::mul_op => "an operator",
        Rule::and_op | Rule::kw_and => "`and`",
        Rule::or_op | Rule::kw_or => "`or`",
        Rule::params => "a parameter list `[N, …] ->`",
        Rule::disjunct | Rule::tuples | Rule::tuple | Rule::tuple_name => "a tuple such as `S[i]`",
        Rule::EOI => "the end of the text",
        _ => return None,
    })
}

fn start(p: &Pair<Rule>) -> usize {
    p.as_span().start()
}

/// The next child of a node, which the grammar guarantees.
fn next<'a>(it: &mut impl Iterator<Item = Pair<'a, Rule>>, at: usize) -> Result<Pair<'a, Rule>> {
    it.next().ok_or_else(|| internal("missing child node", at))
}

/// The only child of a node, if it has exactly one.
fn only_child<'a>(p: Pair<'a, Rule>) -> Option<Pair<'a, Rule>> {
    let mut it = p.into_inner();
    let q = it.next()?;
    it.next().is_none().then_some(q)
}

/// The primary of a `sum` that is one unsigned factor (`i`, `(…)`, `true`).
fn lone_primary<'a>(sum: Pair<'a, Rule>) -> Option<Pair<'a, Rule>> {
    let factor = only_child(only_child(sum)?)?;
    only_child(factor).filter(|p| p.as_rule() != Rule::neg)
}

fn literal(p: &Pair<Rule>) -> Result<i64> {
    p.as_str().parse::<i64>().map_err(|_| {
        let digits: String = p.as_str().chars().take(24).collect();
        let more = if p.as_str().len() > 24 { "…" } else { "" };
        ParseError::new(
            format!("integer overflow: the literal {digits}{more} does not fit in 64 bits"),
            start(p),
        )
    })
}

// ------------------------------------------------------------ affine algebra

/// An affine form `coeffs · x + constant` over the columns of the disjunct
/// being read (parameters, inputs, outputs, then locals by number); missing
/// trailing coefficients are zero.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Aff {
    coeffs: Vec<i64>,
    constant: i64,
}

impl Aff {
    fn constant(c: i64) -> Aff {
        Aff {
            coeffs: Vec::new(),
            constant: c,
        }
    }

    fn var(col: usize) -> Aff {
        let mut coeffs = vec![0; col + 1];
        coeffs[col] = 1;
        Aff {
            coeffs,
            constant: 0,
        }
    }

    /// The value, when no variable has a non-zero coefficient.
    fn as_constant(&self) -> Option<i64> {
        self.coeffs.iter().all(|&c| c == 0).then_some(self.constant)
    }

    fn add(&self, other: &Aff) -> std::result::Result<Aff, Overflow> {
        let n = self.coeffs.len().max(other.coeffs.len());
        let get = |a: &Aff, k: usize| a.coeffs.get(k).copied().unwrap_or(0);
        let coeffs = (0..n)
            .map(|k| checked_add(get(self, k), get(other, k)))
            .collect::<std::result::Result<_, _>>()?;
        Ok(Aff {
            coeffs,
            constant: checked_add(self.constant, other.constant)?,
        })
    }

    fn scale(&self, k: i64) -> std::result::Result<Aff, Overflow> {
        let coeffs = self
            .coeffs
            .iter()
            .map(|&c| checked_mul(c, k))
            .collect::<std::result::Result<_, _>>()?;
        Ok(Aff {
            coeffs,
            constant: checked_mul(self.constant, k)?,
        })
    }

    fn sub(&self, other: &Aff) -> std::result::Result<Aff, Overflow> {
        self.add(&other.scale(-1)?)
    }

    /// Without trailing zero coefficients, so that equal forms compare equal.
    fn trimmed(mut self) -> Aff {
        while self.coeffs.last() == Some(&0) {
            self.coeffs.pop();
        }
        self
    }
}

/// A conjunction of rows `aff = 0` / `aff >= 0`, with the `exists` locals it
/// is quantified over (floor locals are found from the rows).
#[derive(Clone, Debug, Default)]
struct Clause {
    rows: Vec<(ConstraintKind, Aff)>,
    locals: BTreeSet<usize>,
}

/// A formula in disjunctive normal form; `[]` is false, `[Clause::default()]` true.
type Dnf = Vec<Clause>;

fn truth(holds: bool) -> Dnf {
    if holds {
        vec![Clause::default()]
    } else {
        Vec::new()
    }
}

/// One constraint; decided at once when it mentions no variable.
fn atom(kind: ConstraintKind, aff: Aff) -> Dnf {
    match (aff.as_constant(), kind) {
        (Some(c), ConstraintKind::Eq) => truth(c == 0),
        (Some(c), ConstraintKind::Ineq) => truth(c >= 0),
        (None, _) => vec![Clause {
            rows: vec![(kind, aff)],
            locals: BTreeSet::new(),
        }],
    }
}

fn too_large(at: usize) -> ParseError {
    ParseError::new(
        format!("formula too large: more than {MAX_DISJUNCTS} disjuncts in normal form"),
        at,
    )
}

fn or(mut a: Dnf, b: Dnf, at: usize) -> Result<Dnf> {
    if a.len() + b.len() > MAX_DISJUNCTS {
        return Err(too_large(at));
    }
    a.extend(b);
    Ok(a)
}

fn and(a: Dnf, b: Dnf, at: usize) -> Result<Dnf> {
    if a.len().saturating_mul(b.len()) > MAX_DISJUNCTS {
        return Err(too_large(at));
    }
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in &a {
        for y in &b {
            let mut c = x.clone();
            c.rows.extend(y.rows.iter().cloned());
            c.locals.extend(y.locals.iter().copied());
            out.push(c);
        }
    }
    Ok(out)
}

/// `a · b` when one side is a constant.
fn product(a: &Aff, b: &Aff, at: usize) -> Result<Aff> {
    match (a.as_constant(), b.as_constant()) {
        (Some(k), _) => b.scale(k).at(at),
        (_, Some(k)) => a.scale(k).at(at),
        _ => Err(ParseError::new(
            "non-affine product: one factor of a product must be a constant",
            at,
        )),
    }
}

/// The constant `k > 0` of `floor(e / k)`, `ceil(e / k)` or `e mod k`.
fn divisor(k: &Aff, at: usize) -> Result<i64> {
    match k.as_constant() {
        Some(0) => Err(ParseError::new("division by zero", at)),
        Some(k) if k > 0 => Ok(k),
        _ => Err(ParseError::new(
            "the divisor of `floor`, `ceil` or `mod` must be a positive integer constant",
            at,
        )),
    }
}

// --------------------------------------------------------------- one disjunct

/// Read one disjunct into its tuples and its conjunctions.
fn disjunct<'a>(params: &[&'a str], p: Pair<'a, Rule>) -> Result<(Shape, Vec<Conjunction>)> {
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
    let conjunctions = dnf
        .into_iter()
        .map(|c| b.finish(c, at))
        .collect::<Result<_>>()?;
    Ok((shape, conjunctions))
}

/// A `tuple` node as its name and its entries.
fn split_tuple<'a>(t: Pair<'a, Rule>) -> (Option<&'a str>, Vec<Pair<'a, Rule>>) {
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
fn fill_names(dims: &[Option<&str>], prefix: &str, taken: &mut HashSet<String>) -> Vec<String> {
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
struct Builder<'a> {
    /// Columns before the locals: parameters, inputs and outputs.
    n_fixed: usize,
    /// Names in scope with their columns, innermost last.
    names: Vec<(&'a str, usize)>,
    /// Locals numbered so far; local `q` is column `n_fixed + q`.
    n_local: usize,
    /// The local already standing for `floor(e / k)`, by `(e, k)`.
    floors: HashMap<(Aff, i64), usize>,
    /// The two rows defining each floor local.
    floor_defs: BTreeMap<usize, [Aff; 2]>,
}

impl<'a> Builder<'a> {
    fn lookup(&self, name: &str, at: usize) -> Result<usize> {
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

    fn new_local(&mut self) -> usize {
        self.n_local += 1;
        self.n_local - 1
    }

    /// Bind the entries of a tuple whose first column is `first`; an entry
    /// that is not a fresh identifier adds `dim = entry` to `base`. Returns
    /// the user's dimension names.
    fn tuple_dims(
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

    fn formula(&mut self, p: Pair<'a, Rule>) -> Result<Dnf> {
        let at = start(&p);
        let mut out = truth(false);
        for q in p.into_inner().filter(|q| q.as_rule() == Rule::conj) {
            let d = self.conj(q)?;
            out = or(out, d, at)?;
        }
        Ok(out)
    }

    fn conj(&mut self, p: Pair<'a, Rule>) -> Result<Dnf> {
        let at = start(&p);
        let mut out = truth(true);
        for q in p.into_inner().filter(|q| q.as_rule() == Rule::cmp) {
            let d = self.cmp(q)?;
            out = and(out, d, at)?;
        }
        Ok(out)
    }

    /// A chain `a op b op c …`, or a lone parenthesised formula, literal or `exists`.
    fn cmp(&mut self, p: Pair<'a, Rule>) -> Result<Dnf> {
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
    fn condition(&mut self, sum: Pair<'a, Rule>) -> Result<Dnf> {
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
    fn exists(&mut self, p: Pair<'a, Rule>) -> Result<Dnf> {
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

    fn sum(&mut self, p: Pair<'a, Rule>) -> Result<Aff> {
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

    fn term(&mut self, p: Pair<'a, Rule>) -> Result<Aff> {
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

    fn factor(&mut self, p: Pair<'a, Rule>) -> Result<Aff> {
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

    fn primary(&mut self, p: Pair<'a, Rule>) -> Result<Aff> {
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
    fn floor_of(&mut self, e: Aff, k: i64, at: usize) -> Result<Aff> {
        if let Some(c) = e.as_constant() {
            return Ok(Aff::constant(c.div_euclid(k)));
        }
        if k == 1 {
            return Ok(e);
        }
        let key = (e.clone().trimmed(), k);
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
    fn finish(&self, clause: Clause, at: usize) -> Result<Conjunction> {
        let mut used = clause.locals.clone();
        let mut floors = BTreeSet::new();
        let mut pending: Vec<&Aff> = clause.rows.iter().map(|(_, a)| a).collect();
        while let Some(a) = pending.pop() {
            for (col, &c) in a.coeffs.iter().enumerate().skip(self.n_fixed) {
                if c == 0 {
                    continue;
                }
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
            for (col, &c) in a.coeffs.iter().enumerate().filter(|(_, &c)| c != 0) {
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
                constant: a.constant,
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
fn compare(lhs: &Aff, op: &str, rhs: &Aff, at: usize) -> Result<Dnf> {
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
