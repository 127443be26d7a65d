//! Scripted recipes (`--recipe tune.rhai`, `docs/scripting.md`): rhai
//! programs whose functions are the directives of the recipe language,
//! `try_…` forms that report instead of stopping, queries on the program,
//! and `measure`, so that a script can search and keep what works.
//!
//! A directive call in a script becomes the [`crate::lang::recipe::Call`]
//! a `.poly` recipe would give ([`values`], spans in the script through
//! [`span`]) and goes through [`crate::session::step`]: one directive
//! table, one set of checks and diagnostics for both front ends
//! ([`directives`]). [`queries`] reads the program, [`measure`] builds and
//! times variants through a [`Measurer`] the caller gives (this module
//! knows neither code generation nor compilers), [`engine`] sandboxes
//! rhai and [`errors`] turns its errors into diagnostics.

mod directives;
mod engine;
mod errors;
mod group;
mod measure;
mod queries;
mod shared;
pub mod span;
mod values;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use rhai::{Dynamic, Scope};

use crate::session::{RecipeError, RecipeState};
use crate::syntax::diagnostic::Diagnostic;

pub use measure::DEFAULT_RUNS;
pub use shared::Measurer;

/// The sandbox's limits and the script's predefined constants.
#[derive(Clone, Debug)]
pub struct ScriptOptions {
    /// rhai operations before the script is stopped; 0: no limit.
    pub max_operations: u64,
    /// Wall-clock time before the script is stopped; `None`: no limit.
    pub time_limit: Option<Duration>,
    /// `--set NAME=VALUE`: constants defined before the script runs (an
    /// integer when the value reads as one, else a string).
    pub constants: Vec<(String, String)>,
}

impl Default for ScriptOptions {
    fn default() -> ScriptOptions {
        ScriptOptions {
            max_operations: 100_000_000,
            time_limit: Some(Duration::from_secs(60)),
            constants: Vec::new(),
        }
    }
}

/// One measurement of a variant against the original (medians, seconds).
#[derive(Clone, Debug)]
pub struct Measurement {
    pub original_s: f64,
    pub transformed_s: f64,
    pub speedup: f64,
    /// How the outputs differ, when they do.
    pub mismatch: Option<String>,
}

/// What a script wrote, in order: its `print`s and `debug`s, and the
/// warnings of its directives (diagnostics on the script).
#[derive(Clone, Debug)]
pub enum LogEntry {
    Print(String),
    Warning(Diagnostic),
}

/// The program as the script left it, and what it wrote.
pub struct ScriptOutcome {
    pub state: RecipeState,
    pub log: Vec<LogEntry>,
}

/// Why the script stopped, and what it wrote before.
pub struct ScriptFailure {
    pub error: RecipeError,
    pub log: Vec<LogEntry>,
}

/// Run the script `text` (named `name` in diagnostics) on `start`.
/// `measurer` builds and runs variants for `measure` (`None`: `measure`
/// reports that it is not available).
pub fn run_script(
    name: &str,
    text: &str,
    start: RecipeState,
    measurer: Option<Box<Measurer>>,
    opts: &ScriptOptions,
) -> Result<ScriptOutcome, ScriptFailure> {
    let session = Rc::new(RefCell::new(shared::Session {
        name: name.to_string(),
        text: text.to_string(),
        original: start.clone(),
        state: start,
        log: Vec::new(),
        stop: None,
        variant: None,
        group: None,
        measurer,
    }));
    let result = run(&session, text, opts);
    let mut s = session.borrow_mut();
    let log = std::mem::take(&mut s.log);
    match result {
        Ok(()) => Ok(ScriptOutcome {
            state: s.state.clone(),
            log,
        }),
        Err(d) => Err(ScriptFailure {
            error: s.stop.take().unwrap_or(RecipeError::Rejected(d)),
            log,
        }),
    }
}

/// Compile and run; a diagnostic when rhai stops the script (a refused
/// directive is in the session instead, and wins).
fn run(session: &shared::Shared, text: &str, opts: &ScriptOptions) -> Result<(), Diagnostic> {
    let mut engine = engine::sandboxed(session, opts);
    directives::register(&mut engine, session);
    queries::register(&mut engine, session);
    measure::register(&mut engine, session);
    group::register(&mut engine, session);
    let mut scope = Scope::new();
    for (name, value) in &opts.constants {
        let v = match value.trim().parse::<i64>() {
            Ok(i) => Dynamic::from_int(i),
            Err(_) => Dynamic::from(value.clone()),
        };
        scope.push_constant_dynamic(name.clone(), v);
    }
    let ast = engine
        .compile_with_scope(&scope, text)
        .map_err(|e| errors::parse_error(text, &e))?;
    engine
        .run_ast_with_scope(&mut scope, &ast)
        .map_err(|e| errors::runtime_error(text, &e, opts))
}
