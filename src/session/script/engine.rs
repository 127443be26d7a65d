//! The sandboxed rhai engine: no module loading (`import`), no `eval`, an
//! operation limit and a time limit (both from the command line), limits
//! on strings, arrays and maps, and `print` / `debug` into the script's log
//! (polyc's stderr), never stdout.
//!
//! rhai itself has no file or process access; with modules and `eval`
//! gone, a script reaches the outside only through polyc's functions.

use std::time::Instant;

use rhai::{module_resolvers::DummyModuleResolver, Dynamic, Engine};

use super::shared::Shared;
use super::{LogEntry, ScriptOptions};

/// The token `on_progress` stops a script with when its time is up.
pub const TIME_UP: &str = "polyc: time limit";

/// Deepest nesting of function calls, and of expressions (at top level,
/// in functions). rhai's own defaults are these in release builds and
/// much smaller in debug builds; the same scripts must run in both.
pub const MAX_CALL_LEVELS: usize = 48;
pub const MAX_EXPR_DEPTHS: (usize, usize) = (64, 32);

/// Longest string, array and map a script may build.
pub const MAX_STRING: usize = 1 << 20;
pub const MAX_ARRAY: usize = 1 << 16;
pub const MAX_MAP: usize = 1 << 16;

/// An engine with the standard library, sandboxed, its output logged in
/// `session`. The clock starts now.
pub fn sandboxed(session: &Shared, opts: &ScriptOptions) -> Engine {
    let mut engine = Engine::new();
    engine.set_module_resolver(DummyModuleResolver::new());
    engine.set_max_modules(0);
    engine.disable_symbol("import");
    engine.disable_symbol("export");
    engine.disable_symbol("eval");
    engine.set_max_operations(opts.max_operations);
    engine.set_max_call_levels(MAX_CALL_LEVELS);
    engine.set_max_expr_depths(MAX_EXPR_DEPTHS.0, MAX_EXPR_DEPTHS.1);
    engine.set_max_string_size(MAX_STRING);
    engine.set_max_array_size(MAX_ARRAY);
    engine.set_max_map_size(MAX_MAP);
    engine.set_fail_on_invalid_map_property(true);
    if let Some(limit) = opts.time_limit {
        let start = Instant::now();
        engine.on_progress(move |ops| {
            // Reading the clock every operation would cost more than the
            // operation; every 256th is often enough.
            (ops % 256 == 0 && start.elapsed() > limit).then(|| Dynamic::from(TIME_UP))
        });
    }
    let log = session.clone();
    engine.on_print(move |s| {
        log.borrow_mut().log.push(LogEntry::Print(s.to_string()));
    });
    let log = session.clone();
    engine.on_debug(move |s, _source, pos| {
        let at = pos.line().map_or(String::new(), |l| format!(" (line {l})"));
        log.borrow_mut()
            .log
            .push(LogEntry::Print(format!("[debug{at}] {s}")));
    });
    engine
}
