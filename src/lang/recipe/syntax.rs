//! pest (`grammar/recipe.pest`) and its errors, worded: "expected `,` or
//! `)`, found `1`" on the token where parsing stopped.

use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;

use crate::support::pest_error::{self, Failure};

use crate::syntax::diagnostic::Diagnostic;

#[derive(Parser)]
#[grammar = "../grammar/recipe.pest"]
struct RecipeParser;

/// The parse tree of a whole recipe (the `recipe` rule).
pub fn parse(text: &str) -> Result<Pair<'_, Rule>, Diagnostic> {
    top(text, Rule::recipe)
}

/// The parse tree of one `--set` value (the `override_value` rule).
pub fn parse_value(text: &str) -> Result<Pair<'_, Rule>, Diagnostic> {
    top(text, Rule::override_value)
}

fn top(text: &str, rule: Rule) -> Result<Pair<'_, Rule>, Diagnostic> {
    let mut pairs = RecipeParser::parse(rule, text).map_err(|e| syntax_error(text, e))?;
    pairs
        .next()
        .ok_or_else(|| Diagnostic::error("internal: empty parse of the recipe", 0..0))
}

fn syntax_error(text: &str, e: pest::error::Error<Rule>) -> Diagnostic {
    let Failure {
        start: at,
        mut expected,
        ..
    } = pest_error::read(&e, rule_name);
    // Separators before closers before the rest, alphabetically after that.
    expected.sort_unstable_by_key(|e| (!e.starts_with("`,"), !e.starts_with('`'), *e));
    expected.dedup();
    let found = token_at(text, at);
    let message = match expected.as_slice() {
        [] => "syntax error in the recipe".to_string(),
        [one] => format!("expected {one}"),
        [init @ .., last] => format!("expected {} or {last}", init.join(", ")),
    };
    if found.is_empty() {
        Diagnostic::error(message, at..at).with_label("the recipe ends here")
    } else if found.trim().is_empty() {
        let label = if found == "\n" {
            "found the end of the line"
        } else {
            "found a space"
        };
        Diagnostic::error(message, at..at + found.len()).with_label(label)
    } else {
        let label = format!("found `{found}`");
        Diagnostic::error(message, at..at + found.len()).with_label(label)
    }
}

/// The token starting at `at`: a word, or one character.
fn token_at(text: &str, at: usize) -> &str {
    let rest = text.get(at..).unwrap_or("");
    let word = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    if word > 0 {
        return &rest[..word];
    }
    match rest.chars().next() {
        Some(c) => &rest[..c.len_utf8()],
        None => "",
    }
}

/// How a rule reads in "expected …"; `None` hides it.
fn rule_name(r: Rule) -> Option<&'static str> {
    Some(match r {
        Rule::stmt
        | Rule::let_stmt
        | Rule::assign_stmt
        | Rule::call_stmt
        | Rule::empty_stmt
        | Rule::call => "a directive call",
        Rule::value
        | Rule::arg
        | Rule::nested_call
        | Rule::constraint
        | Rule::beta
        | Rule::sections
        | Rule::label
        | Rule::string
        | Rule::int_lit => "a value",
        Rule::elem | Rule::number | Rule::minus => "an integer",
        Rule::aff | Rule::term | Rule::factor | Rule::neg => "an expression",
        Rule::name | Rule::arg_name => "a name",
        Rule::cmp => "a comparison (`<=`, `==`, …)",
        Rule::add_op | Rule::mul_op => "an operator",
        Rule::eq => "`=`",
        Rule::semi => "`;`",
        Rule::comma => "`,`",
        Rule::bar => "`|`",
        Rule::lparen | Rule::args => "`(`",
        Rule::rparen => "`)`",
        Rule::lbrack => "`[`",
        Rule::rbrack => "`]`",
        Rule::lbrace => "`{`",
        Rule::rbrace => "`}`",
        Rule::EOI => "the end of the recipe",
        _ => return None,
    })
}
