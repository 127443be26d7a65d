//! Recipe variables: `let NAME = VALUE;` (defined once, overridable with
//! `--set`), Clay's assignments `v = VALUE;` and `v = f(…);` (rebindable),
//! and the diagnostics for a name that is not one of them.

use super::{Span, Value};
use crate::support::edit_distance::closest;
use crate::syntax::diagnostic::Diagnostic;

/// What a name is bound to.
#[derive(Clone, Debug)]
pub struct Binding {
    /// Where the name was (last) defined.
    pub span: Span,
    pub is_let: bool,
    /// `None`: the result of a call, known only when the recipe runs.
    pub value: Option<Value>,
}

/// The variables defined so far, and every `let` of the recipe (to say "is
/// defined later" and to check `--set` names).
#[derive(Debug, Default)]
pub struct Vars {
    bound: Vec<(String, Binding)>,
    all_lets: Vec<(String, Span)>,
}

impl Vars {
    pub fn new(all_lets: Vec<(String, Span)>) -> Vars {
        Vars {
            bound: Vec::new(),
            all_lets,
        }
    }

    pub fn get(&self, name: &str) -> Option<&Binding> {
        self.bound.iter().find(|(n, _)| n == name).map(|(_, b)| b)
    }

    /// `let name = value;`: a name is defined once.
    pub fn define_let(&mut self, name: &str, span: Span, value: Value) -> Result<(), Diagnostic> {
        if let Some(first) = self.get(name) {
            let first_label = if first.is_let {
                format!("`let {name}` is first defined here")
            } else {
                format!("`{name}` is first assigned here")
            };
            return Err(
                Diagnostic::error(format!("`let {name}` is defined twice"), span)
                    .with_label("defined again here")
                    .with_secondary(first.span.clone(), first_label)
                    .with_help("rename one of them; `--set` changes a value from the command line"),
            );
        }
        self.bound.push((
            name.to_string(),
            Binding {
                span,
                is_let: true,
                value: Some(value),
            },
        ));
        Ok(())
    }

    /// Clay's `name = value;` (or `name = f(…);` with `value` `None`): a new
    /// binding that hides the old one, unless the old one is a `let`.
    pub fn assign(
        &mut self,
        name: &str,
        span: Span,
        value: Option<Value>,
    ) -> Result<(), Diagnostic> {
        if let Some(first) = self.get(name).filter(|b| b.is_let) {
            return Err(
                Diagnostic::error(format!("cannot assign to `{name}`, a `let`"), span)
                    .with_label("assigned here")
                    .with_secondary(first.span.clone(), format!("`let {name}` is defined here"))
                    .with_help("a `let` is defined once; `--set` overrides it"),
            );
        }
        self.bound.retain(|(n, _)| n != name);
        self.bound.push((
            name.to_string(),
            Binding {
                span,
                is_let: false,
                value,
            },
        ));
        Ok(())
    }

    /// Whether an unbound bare word is a misspelt or undefined variable
    /// (rather than a word such as `pluto`): Clay's variables are single
    /// letters, recipe constants are capitalised, and a `let` of that name
    /// (defined later) or of a close name betrays a variable.
    pub fn looks_like_variable(&self, name: &str) -> bool {
        name.chars().count() == 1
            || name.starts_with(|c: char| c.is_ascii_uppercase())
            || self.all_lets.iter().any(|(n, _)| n == name)
            || self.similar(name).is_some()
    }

    /// A defined name within a small edit distance of `name`.
    fn similar(&self, name: &str) -> Option<&str> {
        closest(
            name,
            self.bound
                .iter()
                .map(|(n, _)| n.as_str())
                .chain(self.all_lets.iter().map(|(n, _)| n.as_str())),
        )
    }

    /// [`Self::unknown`] for a bare word given as an argument: when no
    /// `let` or close name explains it, a note that a program's name
    /// (`pack`'s array, a reduced scalar) is quoted.
    pub fn unknown_argument(&self, name: &str, span: Span) -> Diagnostic {
        let d = self.unknown(name, span);
        let explained =
            self.all_lets.iter().any(|(n, _)| n == name) || self.similar(name).is_some();
        if explained {
            return d;
        }
        d.with_note(format!(
            "a single letter or a capitalised word is a recipe variable; a name of the program (an array, a scalar) is quoted: \"{name}\""
        ))
    }

    /// "unknown variable `name`", with what helps most: the `let` defined
    /// after its use, a close name, or the names defined so far.
    pub fn unknown(&self, name: &str, span: Span) -> Diagnostic {
        let d = Diagnostic::error(format!("unknown variable `{name}`"), span)
            .with_label("not defined before this use");
        if let Some((_, later)) = self.all_lets.iter().find(|(n, _)| n == name) {
            return d
                .with_secondary(later.clone(), "defined here, after its use")
                .with_help("move the `let` before its first use");
        }
        if let Some(close) = self.similar(name) {
            return d.with_help(format!("did you mean `{close}`?"));
        }
        if self.bound.is_empty() {
            return d.with_help(format!("define it first: `let {name} = …;`"));
        }
        let names: Vec<String> = self.bound.iter().map(|(n, _)| format!("`{n}`")).collect();
        d.with_note(format!(
            "the variables defined here are {}",
            names.join(", ")
        ))
    }
}

/// How a value's kind reads in a diagnostic.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Int(_) => "an integer",
        Value::Beta(_) => "a β-vector",
        Value::Label(_) => "a label",
        Value::Sections(_) => "an inequality list",
        Value::Constraint(_) => "a constraint",
        Value::Str(_) => "a string",
        Value::Ident(_) => "a name",
    }
}
