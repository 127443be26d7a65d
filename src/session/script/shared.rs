//! What a running script shares with the functions it calls: the recipe
//! state (schedule, scop, dependences), a fresh copy of the program for
//! `measure`, the log (prints and warnings, in order) and why the script
//! stopped, if it did.

use std::cell::RefCell;
use std::rc::Rc;

use crate::lang::recipe::Call;
use crate::scop::{Schedule, Scop};
use crate::session::{RecipeError, RecipeState};
use crate::syntax::diagnostic::Diagnostic;

use super::{LogEntry, Measurement};

/// Builds and runs a variant of the program (a schedule of the region the
/// script works on) against the original, `runs` times each.
pub type Measurer = dyn Fn(&Scop, &Schedule, usize) -> Result<Measurement, String>;

/// The script's state; functions registered on the engine hold it through
/// [`Shared`]. No borrow is held while script code runs.
pub struct Session {
    /// The script's name and text, for spans and rendered diagnostics.
    pub name: String,
    pub text: String,
    /// The program before the script: what `measure` starts each variant from.
    pub original: RecipeState,
    /// The program as the script has transformed it so far.
    pub state: RecipeState,
    pub log: Vec<LogEntry>,
    /// Set by a refused directive outside `try_…` and `measure`: the
    /// script stops with it.
    pub stop: Option<RecipeError>,
    /// While `measure` runs a variant: `Some(None)`, then `Some(Some(e))`
    /// once a directive of the variant was refused.
    pub variant: Option<Option<RecipeError>>,
    /// While a `group` body runs: the directive calls it made, applied
    /// and checked together when it returns.
    pub group: Option<Vec<Call>>,
    pub measurer: Option<Box<Measurer>>,
}

pub type Shared = Rc<RefCell<Session>>;

impl Session {
    /// A diagnostic rendered against the script, for a script to print.
    pub fn render(&self, d: &Diagnostic) -> String {
        d.render(&self.name, &self.text)
    }

    /// Record a refusal: in a variant it ends the variant, elsewhere the
    /// script.
    pub fn refuse(&mut self, e: RecipeError) {
        match &mut self.variant {
            Some(slot) => *slot = Some(e),
            None => self.stop = Some(e),
        }
    }
}

/// The one-line reason of a refusal, for `try_…` and `measure` results.
pub fn reason(e: &RecipeError) -> String {
    match e {
        RecipeError::Rejected(d) => d.message.clone(),
        RecipeError::NotImplemented(what) => format!("not implemented yet: {what}"),
    }
}
