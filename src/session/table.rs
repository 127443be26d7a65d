//! The directive table: every name a recipe or a script may call, once,
//! with its aliases, prototype, arity, one-line summary and what handles
//! it. Everything that lists directives reads this table: the recipe
//! runner, the script functions ([`directive_names`]), the arity errors,
//! and the check that docs/recipe-language.md documents each name.
//!
//! Length: one entry per directive of the language (about 45, each with
//! its argument reading), in one list so that nothing else enumerates
//! them; the lookups after it are short.

use super::args::Args;
use super::RecipeError;
use crate::apply::data::DataDirective;
use crate::apply::Directive;
use crate::lang::recipe::Call;
use crate::scop::{Schedule, Scop};
use crate::support::edit_distance::closest;
use crate::syntax::diagnostic::Diagnostic;

/// One directive of the recipe language.
pub struct DirectiveSpec {
    pub name: &'static str,
    /// Other names for the same directive (Clay's and Pluto's).
    pub aliases: &'static [&'static str],
    /// As the arity error shows it.
    pub prototype: &'static str,
    /// The number of positional arguments.
    pub arity: usize,
    /// The named options it accepts after them (`collapse = 2`).
    pub options: &'static [&'static str],
    pub summary: &'static str,
    pub handler: Handler,
}

/// What a call of a directive does.
pub enum Handler {
    /// A schedule rewrite: the typed arguments as a [`Directive`] for
    /// `apply`.
    Rewrite(fn(&Args) -> Result<Directive, RecipeError>),
    /// `context(…)`: narrows the parameters (`super::context`).
    Context,
    /// The automatic schedulers (`session::auto`).
    Auto,
    /// A data-layout directive: the typed arguments as a
    /// [`DataDirective`] for `apply::data` (`super::data`).
    Data(fn(&Args) -> Result<DataDirective, RecipeError>),
}

const fn spec(
    name: &'static str,
    aliases: &'static [&'static str],
    prototype: &'static str,
    arity: usize,
    summary: &'static str,
    build: fn(&Args) -> Result<Directive, RecipeError>,
) -> DirectiveSpec {
    DirectiveSpec {
        name,
        aliases,
        prototype,
        arity,
        options: &[],
        summary,
        handler: Handler::Rewrite(build),
    }
}

const fn data(
    name: &'static str,
    prototype: &'static str,
    arity: usize,
    summary: &'static str,
    build: fn(&Args) -> Result<DataDirective, RecipeError>,
) -> DirectiveSpec {
    DirectiveSpec {
        name,
        aliases: &[],
        prototype,
        arity,
        options: &[],
        summary,
        handler: Handler::Data(build),
    }
}

/// `gpu_block` or (`thread`) `gpu_thread` from its arguments.
fn gpu_map(a: &Args, thread: bool) -> Result<Directive, RecipeError> {
    Ok(Directive::MapGpu {
        beta: a.beta(0)?,
        depth: a.depth(1)?,
        thread,
        dim: a.gpu_dim(2)?,
    })
}

const ISS_PROTOTYPE: &str =
    "iss(beta_loop, {out | in | params | const}) or iss(beta_loop, c1 >= N / 2)";

/// Every directive, in the order of docs/recipe-language.md.
pub const DIRECTIVES: &[DirectiveSpec] = &[
    spec(
        "interchange",
        &[],
        "interchange(beta, depth_1, depth_2)",
        3,
        "swap two loops",
        |a| {
            Ok(Directive::Interchange {
                beta: a.beta(0)?,
                d1: a.depth(1)?,
                d2: a.depth(2)?,
            })
        },
    ),
    spec(
        "reverse",
        &[],
        "reverse(beta, depth)",
        2,
        "run a loop backwards",
        |a| {
            Ok(Directive::Reverse {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
            })
        },
    ),
    spec(
        "skew",
        &[],
        "skew(beta, depth, depth_other, coeff)",
        4,
        "subtract a multiple of another loop's counter",
        |a| {
            Ok(Directive::Skew {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
                other: a.depth(2)?,
                factor: a.coefficient(3)?,
            })
        },
    ),
    spec(
        "shift",
        &[],
        "shift(beta, depth, [param coeffs], const)",
        4,
        "offset a loop's counter",
        |a| {
            Ok(Directive::Shift {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
                params: a.list(2)?,
                constant: a.coefficient(3)?,
            })
        },
    ),
    spec(
        "stripmine",
        &[],
        "stripmine(beta, depth, size)",
        3,
        "cut a loop into strips",
        |a| {
            Ok(Directive::Stripmine {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
                size: a.coefficient(2)?,
            })
        },
    ),
    spec(
        "tile",
        &[],
        "tile(beta, depth, depth_outer, size)",
        4,
        "strip-mine a loop and move its tile loop outward",
        |a| {
            Ok(Directive::Tile {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
                outer: a.depth(2)?,
                size: a.coefficient(3)?,
            })
        },
    ),
    spec(
        "tile_band",
        &[],
        "tile_band(beta, depth, [size_1, …, size_n])",
        3,
        "tile n loops at once: n tile loops around the n point loops",
        |a| {
            Ok(Directive::TileBand {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
                sizes: a.coefficient_list(2)?,
            })
        },
    ),
    spec(
        "reorder",
        &[],
        "reorder(beta, [new order])",
        2,
        "permute the children of a loop",
        |a| {
            Ok(Directive::Reorder {
                beta: a.beta(0)?,
                order: a.list(1)?,
            })
        },
    ),
    spec(
        "split",
        &["fission", "distribute"],
        "split(beta, depth)",
        2,
        "distribute a loop after a statement",
        |a| {
            Ok(Directive::Split {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
            })
        },
    ),
    spec(
        "fuse",
        &["merge", "fuse_next"],
        "fuse(beta_loop)",
        1,
        "merge the next loop into this one",
        |a| Ok(Directive::Fuse { beta: a.beta(0)? }),
    ),
    spec(
        "iss",
        &["indexsetsplit"],
        ISS_PROTOTYPE,
        2,
        "split a loop's iterations in two parts",
        |a| {
            Ok(Directive::Iss {
                beta: a.beta(0)?,
                form: a.split_form(1)?,
            })
        },
    ),
    spec(
        "peel",
        &[],
        "peel(beta_loop, {params | const})",
        2,
        "peel iterations off a loop into a loop of their own",
        |a| {
            let beta = a.beta(0)?;
            let (params, constant) = a.peel_form(1)?;
            Ok(Directive::Peel {
                beta,
                params,
                constant,
            })
        },
    ),
    spec("collapse", &[], "collapse(beta_loop)", 1, "undo iss", |a| {
        Ok(Directive::Collapse { beta: a.beta(0)? })
    }),
    spec(
        "grain",
        &[],
        "grain(beta, depth, factor)",
        3,
        "run a loop on multiples of a factor",
        |a| {
            Ok(Directive::Grain {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
                factor: a.coefficient(2)?,
            })
        },
    ),
    spec(
        "densify",
        &[],
        "densify(beta, depth)",
        2,
        "undo grain",
        |a| {
            Ok(Directive::Densify {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
            })
        },
    ),
    spec(
        "reshape",
        &[],
        "reshape(beta, depth, iterator, amount)",
        4,
        "subtract a multiple of an iterator from a loop's counter",
        |a| {
            Ok(Directive::Reshape {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
                iterator: a.depth(2)?,
                amount: a.coefficient(3)?,
            })
        },
    ),
    spec(
        "linearize",
        &[],
        "linearize(beta_loop, depth)",
        2,
        "undo stripmine",
        |a| {
            Ok(Directive::Linearize {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
            })
        },
    ),
    spec(
        "block",
        &[],
        "block(beta_stmt_1, beta_stmt_2)",
        2,
        "move a statement right after another",
        |a| {
            Ok(Directive::Block {
                first: a.beta(0)?,
                second: a.beta(1)?,
            })
        },
    ),
    spec(
        "embed",
        &[],
        "embed(beta_stmt)",
        1,
        "wrap a statement in a loop of one iteration",
        |a| Ok(Directive::Embed { beta: a.beta(0)? }),
    ),
    spec("unembed", &[], "unembed(beta_stmt)", 1, "undo embed", |a| {
        Ok(Directive::Unembed { beta: a.beta(0)? })
    }),
    spec(
        "unroll",
        &[],
        "unroll(beta_loop, factor)",
        2,
        "unroll a loop, with a remainder loop",
        |a| {
            Ok(Directive::Unroll {
                beta: a.beta(0)?,
                factor: a.factor(1)?,
                epilog: true,
            })
        },
    ),
    spec(
        "unroll_noepilog",
        &[],
        "unroll_noepilog(beta_loop, factor)",
        2,
        "unroll a loop (Clay's form without a remainder)",
        |a| {
            Ok(Directive::Unroll {
                beta: a.beta(0)?,
                factor: a.factor(1)?,
                epilog: false,
            })
        },
    ),
    spec(
        "unroll_jam",
        &[],
        "unroll_jam(beta, depth, factor)",
        3,
        "unroll a loop and fuse the copies of its inner loops",
        |a| {
            Ok(Directive::UnrollJam {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
                factor: a.factor(2)?,
            })
        },
    ),
    DirectiveSpec {
        name: "context",
        aliases: &[],
        prototype: "context([e/i, p1, …, pn, c])",
        arity: 1,
        options: &[],
        summary: "narrow the parameters' values",
        handler: Handler::Context,
    },
    DirectiveSpec {
        name: "parallelize",
        aliases: &[],
        prototype: "parallelize(beta, depth[, schedule = static|dynamic|guided][, chunk = N][, collapse = N][, reduction = x])",
        arity: 2,
        options: &["schedule", "chunk", "collapse", "reduction"],
        summary: "mark a loop parallel",
        handler: Handler::Rewrite(|a| {
            Ok(Directive::Parallelize {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
                options: a.parallel_options()?,
            })
        }),
    },
    DirectiveSpec {
        name: "vectorize",
        aliases: &[],
        prototype: "vectorize(beta, depth[, reduction = x])",
        arity: 2,
        options: &["reduction"],
        summary: "mark an innermost loop vector",
        handler: Handler::Rewrite(|a| {
            Ok(Directive::Vectorize {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
                reduction: a.reduction()?,
            })
        }),
    },
    spec(
        "gpu_block",
        &[],
        "gpu_block(beta, depth, dim)",
        3,
        "run a loop's iterations on CUDA blocks (dim 0/\"x\", 1/\"y\", 2/\"z\")",
        |a| gpu_map(a, false),
    ),
    spec(
        "gpu_thread",
        &[],
        "gpu_thread(beta, depth, dim)",
        3,
        "run a loop's iterations on the threads of a CUDA block",
        |a| gpu_map(a, true),
    ),
    DirectiveSpec {
        name: "pack",
        aliases: &[],
        prototype: "pack(beta, depth, array)",
        arity: 3,
        options: &[],
        summary: "copy the tile of an array a loop accesses into a buffer, and back",
        handler: Handler::Rewrite(|a| {
            Ok(Directive::Pack {
                beta: a.beta(0)?,
                depth: a.depth(1)?,
                array: a.array(2)?,
            })
        }),
    },
    DirectiveSpec {
        name: "auto",
        aliases: &[],
        prototype: "auto(scheduler)",
        arity: 1,
        options: &[],
        summary: "an automatic scheduler",
        handler: Handler::Auto,
    },
    data(
        "dimreorder",
        "dimreorder(beta, array, order)",
        3,
        "permute the subscripts of an array's accesses",
        |a| {
            Ok(DataDirective::DimReorder {
                beta: a.beta(0)?,
                array: a.array(1)?,
                order: a.list(2)?,
            })
        },
    ),
    data(
        "dimprivatize",
        "dimprivatize(beta, array, depth)",
        3,
        "give each iteration of a loop its own cell of an array (a new last subscript)",
        |a| {
            Ok(DataDirective::DimPrivatize {
                beta: a.beta(0)?,
                array: a.array(1)?,
                depth: a.depth(2)?,
            })
        },
    ),
    data(
        "dimcontract",
        "dimcontract(beta, array, subscript)",
        3,
        "drop one subscript of an array's accesses",
        |a| {
            Ok(DataDirective::DimContract {
                beta: a.beta(0)?,
                array: a.array(1)?,
                dim: a.depth(2)?,
            })
        },
    ),
    data(
        "add_array",
        "add_array(\"name\")",
        1,
        "declare a new array, local to the region; its value is the name",
        |a| Ok(DataDirective::AddArray { name: a.array(0)? }),
    ),
    data(
        "get_array_id",
        "get_array_id(\"name\")",
        1,
        "an array of the region, by name (Clay's number; polyc names arrays)",
        |a| Ok(DataDirective::GetArrayId { name: a.array(0)? }),
    ),
    data(
        "replace_array",
        "replace_array(old, new)",
        2,
        "make every access of an array access another one",
        |a| {
            Ok(DataDirective::ReplaceArray {
                old: a.array(0)?,
                new: a.array(1)?,
            })
        },
    ),
    data(
        "datacopy",
        "datacopy(copy, original, beta_insert, before, beta_domain)",
        5,
        "add a loop copying an array into another, at the top level",
        |a| {
            Ok(DataDirective::DataCopy {
                copy: a.array(0)?,
                original: a.array(1)?,
                at: a.beta(2)?,
                before: a.flag(3)?,
                domain_of: a.beta(4)?,
            })
        },
    ),
];

/// The entry for `name` (or one of its aliases).
pub fn lookup(name: &str) -> Option<&'static DirectiveSpec> {
    DIRECTIVES
        .iter()
        .find(|d| d.name == name || d.aliases.contains(&name))
}

/// Whether `name` is `context`, which changes the parameters rather than
/// the schedule.
pub fn is_context(name: &str) -> bool {
    lookup(name).is_some_and(|d| matches!(d.handler, Handler::Context))
}

/// Whether `name` is `auto`, which replaces the schedule with a
/// scheduler's rather than rewriting it.
pub fn is_auto(name: &str) -> bool {
    lookup(name).is_some_and(|d| matches!(d.handler, Handler::Auto))
}

/// Every name a recipe may call (aliases included), implemented or not:
/// the script front end offers each as a function.
pub fn directive_names() -> impl Iterator<Item = &'static str> {
    DIRECTIVES
        .iter()
        .flat_map(|d| std::iter::once(d.name).chain(d.aliases.iter().copied()))
}

/// Whether `name` names a data-layout directive (`add_array`, `datacopy`,
/// `dimcontract`, …): one that rewrites the program, not its schedule.
pub fn is_data_directive(name: &str) -> bool {
    matches!(lookup(name).map(|s| &s.handler), Some(Handler::Data(_)))
}

/// The [`Directive`] a call names, its arguments checked for type (public
/// for testers that call `apply` themselves to see a refusal's structure).
pub fn to_directive(
    call: &Call,
    scop: &Scop,
    schedule: &Schedule,
) -> Result<Directive, RecipeError> {
    let spec = checked_spec(call)?;
    let build = match spec.handler {
        Handler::Rewrite(build) => build,
        Handler::Data(_) => {
            return Err(RecipeError::Rejected(
                Diagnostic::error(
                    format!(
                        "`{}` rewrites the program's data, not its schedule",
                        call.name
                    ),
                    call.span.clone(),
                )
                .with_label("not a schedule rewrite"),
            ))
        }
        Handler::Auto => {
            return Err(RecipeError::Rejected(
                Diagnostic::error(
                    "`auto` replaces the whole schedule: it is not a rewrite directive",
                    call.span.clone(),
                )
                .with_label("not a rewrite")
                .with_help("apply it as a step of a recipe or script"),
            ))
        }
        Handler::Context => {
            return Err(RecipeError::Rejected(
                Diagnostic::error(
                    "`context` narrows the parameters; it is not a schedule directive",
                    call.span.clone(),
                )
                .with_label("applied by the recipe runner, not by `apply`"),
            ))
        }
    };
    build(&Args {
        call,
        scop,
        schedule,
    })
}

/// The [`DataDirective`] a call names, its arguments checked for type, or
/// `None` when it names another kind of directive.
pub fn to_data_directive(
    call: &Call,
    scop: &Scop,
    schedule: &Schedule,
) -> Result<Option<DataDirective>, RecipeError> {
    let Some(Handler::Data(build)) = lookup(&call.name).map(|s| &s.handler) else {
        return Ok(None);
    };
    checked_spec(call)?;
    build(&Args {
        call,
        scop,
        schedule,
    })
    .map(Some)
}

/// The table entry of a call, with its named options and its number of
/// arguments checked; an unknown name is a diagnostic with the closest.
fn checked_spec(call: &Call) -> Result<&'static DirectiveSpec, RecipeError> {
    let name = call.name.as_str();
    let Some(spec) = lookup(name) else {
        let d = Diagnostic::error(
            format!("unknown directive `{name}`"),
            call.name_span.clone(),
        )
        .with_label("not a directive");
        return Err(RecipeError::Rejected(
            match closest(name, directive_names()) {
                Some(close) => d.with_help(format!("did you mean `{close}`?")),
                None => d.with_help(
                    "see docs/recipe-language.md for the directives and their arguments",
                ),
            },
        ));
    };
    // Positional arguments first, then the directive's named options.
    let positional = call.args.iter().take_while(|a| a.name.is_none()).count();
    for (k, arg) in call.args.iter().enumerate().skip(positional) {
        let known = arg.name.as_deref().filter(|n| spec.options.contains(n));
        let (message, label) = match (&arg.name, known) {
            (None, _) => (
                format!("argument {} of `{name}` follows a named option", k + 1),
                "positional arguments come first",
            ),
            (Some(option), None) => (
                format!("`{name}` has no option `{option}`"),
                "unknown option",
            ),
            (Some(option), Some(_)) => {
                let again = call.args[positional..k]
                    .iter()
                    .any(|a| a.name.as_deref() == Some(option.as_str()));
                if !again {
                    continue;
                }
                (
                    format!("`{name}` is given the option `{option}` twice"),
                    "given again here",
                )
            }
        };
        let options = if spec.options.is_empty() {
            format!("`{name}` takes no named options")
        } else {
            format!("options of `{name}`: {}", spec.options.join(", "))
        };
        return Err(RecipeError::Rejected(
            Diagnostic::error(message, arg.span.clone())
                .with_label(label)
                .with_note(format!("prototype: {}", spec.prototype))
                .with_note(options),
        ));
    }
    // `interchange` accepts Clay's fourth `pretty` flag and ignores it.
    let arity_ok = positional == spec.arity || (spec.name == "interchange" && positional == 4);
    if !arity_ok {
        return Err(RecipeError::Rejected(
            Diagnostic::error(
                format!("`{name}` takes {} arguments, not {positional}", spec.arity,),
                call.span.clone(),
            )
            .with_label("in this call")
            .with_note(format!("prototype: {}", spec.prototype)),
        ));
    }
    Ok(spec)
}
