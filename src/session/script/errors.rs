//! rhai's errors as diagnostics on the script: syntax errors, runtime
//! errors, and the sandbox's limits (operations, time, call depth, data
//! size), each naming the flag that raises it.

use rhai::{EvalAltResult, ParseError};

use crate::session::table::directive_names;
use crate::support::edit_distance::closest;
use crate::syntax::diagnostic::Diagnostic;

use super::engine::TIME_UP;
use super::span::token;
use super::ScriptOptions;

/// A script that does not parse.
pub fn parse_error(text: &str, e: &ParseError) -> Diagnostic {
    let ParseError(kind, pos) = e;
    let d = Diagnostic::error(
        format!("the script does not parse: {kind}"),
        token(text, *pos),
    )
    .with_label("here");
    let message = kind.to_string();
    if ["'import'", "'export'", "'eval'"]
        .iter()
        .any(|w| message.contains(w))
    {
        return d.with_note(sandbox_note());
    }
    d
}

fn sandbox_note() -> &'static str {
    "scripts run sandboxed: no `import`, no `eval`, no file or process access \
     except through polyc's functions (docs/scripting.md)"
}

/// A script stopped by rhai (not by a refused directive).
pub fn runtime_error(text: &str, e: &EvalAltResult, opts: &ScriptOptions) -> Diagnostic {
    let at = token(text, e.position());
    match e {
        EvalAltResult::ErrorInFunctionCall(name, _, inner, pos) => {
            let d = runtime_error(text, inner, opts);
            d.with_secondary(token(text, *pos), format!("in this call of `{name}`"))
        }
        EvalAltResult::ErrorTooManyOperations(_) => Diagnostic::error(
            format!(
                "the script exceeded its limit of {} operations",
                opts.max_operations
            ),
            at,
        )
        .with_label("stopped here")
        .with_help("raise the limit with `--max-operations N` (0: no limit)"),
        EvalAltResult::ErrorTerminated(token, _) if token.to_string() == TIME_UP => {
            Diagnostic::error(
                format!(
                    "the script ran longer than its time limit of {} s",
                    opts.time_limit.map_or(0.0, |t| t.as_secs_f64())
                ),
                at,
            )
            .with_label("stopped here")
            .with_help("raise the limit with `--time-limit SECONDS` (0: no limit)")
        }
        EvalAltResult::ErrorStackOverflow(_) => {
            Diagnostic::error("the script's function calls nest too deeply", at)
                .with_label("stopped here")
                .with_note(format!(
                    "calls nest at most {} levels",
                    super::engine::MAX_CALL_LEVELS
                ))
        }
        EvalAltResult::ErrorFunctionNotFound(signature, _) => {
            let d = Diagnostic::error(format!("no function `{signature}`"), at)
                .with_label("unknown here");
            // `tlie (array, i64, i64, i64)`: the name, then the types.
            let name = signature.split([' ', '(']).next().unwrap_or_default();
            match closest(name, directive_names()) {
                Some(close) => d.with_help(format!("did you mean the directive `{close}`?")),
                None => d.with_help(
                    "polyc's functions (directives, try_…, queries, measure) are listed in docs/scripting.md",
                ),
            }
        }
        EvalAltResult::ErrorDataTooLarge(what, _) => {
            Diagnostic::error(format!("the script exceeded a size limit: {what}"), at)
                .with_label("stopped here")
                .with_note(format!(
                    "strings hold at most {} bytes, arrays and maps at most {} items",
                    super::engine::MAX_STRING,
                    super::engine::MAX_ARRAY
                ))
        }
        EvalAltResult::ErrorModuleNotFound(..) | EvalAltResult::ErrorTooManyModules(..) => {
            Diagnostic::error("the script cannot load modules", at)
                .with_label("not allowed")
                .with_note(sandbox_note())
        }
        EvalAltResult::ErrorParsing(kind, _) => {
            Diagnostic::error(format!("the script does not parse: {kind}"), at).with_label("here")
        }
        other => {
            let message = other.to_string();
            // rhai appends the position, which the label shows.
            let message = match message.rfind(" (line ") {
                Some(k) => message[..k].to_string(),
                None => message,
            };
            Diagnostic::error(format!("the script failed: {message}"), at).with_label("here")
        }
    }
}
