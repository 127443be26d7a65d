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
//!   a false one drops its conjunction (read alone by [`parse_basic_set`] or
//!   [`parse_basic_map`], a false disjunct keeps its tuple's rows).
//!
//! All arithmetic is checked: an overflow is a [`ParseError`], never a wrap,
//! and no input makes the parser panic. Brackets may nest at most 64 deep and
//! one disjunct's formula may expand to at most 4096 conjunctions; beyond
//! that the text is refused.
//!
//! This file reads the text as a whole (the parameters, the disjuncts and
//! their common space, the limits); [`disjunct`] reads one disjunct's
//! tuples and formula, [`formula`] holds the affine forms and the
//! disjunctive normal form they are combined in.
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

use std::fmt;
use std::str::FromStr;

use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;

use crate::support::pest_error::{self, Failure};

mod disjunct;
mod formula;

use super::{BasicMap, BasicSet, Constraint, Map, Overflow, Set, Space, Tuple};

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

/// Parse a set that is a single conjunction. A text whose one disjunct is
/// trivially false gives its tuple's rows and `-1 >= 0` (`{ [0, i] : false
/// }` keeps its first dimension's value); with several such disjuncts, or
/// none, the row `-1 >= 0` alone.
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
    /// The false disjuncts' tuple rows with a false row
    /// ([`disjunct::Read`]), for [`Union::single`].
    empty: Vec<Conjunction>,
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

    /// The only conjunction; where the text's one disjunct is false, its
    /// tuple's rows with `-1 >= 0`; else the empty one (`-1 >= 0` over
    /// `n_cols` columns).
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
        // A single disjunct that is false keeps its tuple's rows.
        Ok(match (self.disjuncts.pop(), self.empty.len()) {
            (Some(d), _) => (d.n_local, d.rows),
            (None, 1) => self.empty.remove(0),
            (None, _) => (0, vec![Constraint::ineq(vec![0; n_cols], -1)]),
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
    let mut empty = Vec::new();
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
                let (s, conjunctions, false_tuple) = disjunct::read(&params, p)?;
                empty.extend(false_tuple);
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
        empty,
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
    let Failure {
        start: offset,
        expected,
        ..
    } = pest_error::read(&e, rule_name);
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
