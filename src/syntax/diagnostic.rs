//! Diagnostics: one error with a primary span, secondary labels, notes and a
//! help line, rendered by codespan-reporting in rustc's style.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::NoColor};
use std::ops::Range;

/// An error: the message and the primary span up front, the rest boxed so
/// that `Result<_, Diagnostic>` stays small.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub message: String,
    pub span: Range<usize>,
    pub details: Box<Details>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Details {
    /// A warning (the input was accepted) rather than an error.
    pub warning: bool,
    pub label: String,
    pub secondary: Vec<(Range<usize>, String)>,
    pub notes: Vec<String>,
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error whose primary label sits on `span`.
    pub fn error(message: impl Into<String>, span: Range<usize>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span,
            details: Box::default(),
        }
    }

    /// A warning whose primary label sits on `span`.
    pub fn warning(message: impl Into<String>, span: Range<usize>) -> Diagnostic {
        let mut d = Diagnostic::error(message, span);
        d.details.warning = true;
        d
    }

    /// The same diagnostic with every span moved `offset` bytes on (for
    /// text parsed out of a larger file, such as a recipe in a C comment).
    pub fn shifted(mut self, offset: usize) -> Diagnostic {
        let shift = |r: &Range<usize>| r.start + offset..r.end + offset;
        self.span = shift(&self.span);
        for (r, _) in &mut self.details.secondary {
            *r = shift(r);
        }
        self
    }

    /// The text under the primary span.
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.details.label = label.into();
        self
    }

    pub fn with_secondary(mut self, span: Range<usize>, label: impl Into<String>) -> Diagnostic {
        self.details.secondary.push((span, label.into()));
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.details.notes.push(note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.details.help = Some(help.into());
        self
    }

    /// Render against the file it points into, without colour.
    pub fn render(&self, file_name: &str, source: &str) -> String {
        let file = SimpleFile::new(file_name, source);
        let clamp = |r: &Range<usize>| r.start.min(source.len())..r.end.min(source.len());
        let d = &self.details;
        let mut labels = vec![Label::primary((), clamp(&self.span)).with_message(&d.label)];
        labels.extend(
            d.secondary
                .iter()
                .map(|(s, m)| Label::secondary((), clamp(s)).with_message(m)),
        );
        let mut notes: Vec<String> = d.notes.iter().map(|n| format!("note: {n}")).collect();
        if let Some(h) = &d.help {
            notes.push(format!("help: {h}"));
        }
        let diagnostic = if d.warning {
            CsDiagnostic::warning()
        } else {
            CsDiagnostic::error()
        };
        let diagnostic = diagnostic
            .with_message(&self.message)
            .with_labels(labels)
            .with_notes(notes);
        let mut out = NoColor::new(Vec::new());
        let config = term::Config::default();
        if term::emit(&mut out, &config, &file, &diagnostic).is_err() {
            let kind = if d.warning { "warning" } else { "error" };
            return format!("{kind}: {}\n", self.message);
        }
        String::from_utf8_lossy(&out.into_inner()).into_owned()
    }
}
