//! The directives of the recipe language, each a precondition check plus a
//! rewrite of the scheduling relation, followed by the dependence check.
//!
//! [`apply`] takes a schedule and one [`Directive`] and returns the new
//! schedule, or why the directive was refused: a precondition (with a help
//! line where a fix is likely), or a dependence the new schedule violates
//! (with a witness pair of instances from [`crate::scop::validity`]). The
//! input schedule is never modified. The conventions (signs of skew and
//! shift, what tile swaps) are Clay's, as DESIGN §5.1 fixes them; β-vectors
//! are normalised after every directive.
//!
//! This module knows schedules, dependences and `poly`; it knows nothing
//! about recipe syntax (the front end turns calls into [`Directive`]s) or
//! code generation.
//!
//! Length: the [`Directive`] enum, one documented variant per directive,
//! and the one dispatch of [`apply`] over it; each rewrite lives in its own
//! file, and what is left here is the list of them.

mod affine;
mod blocking;
pub mod data;
pub mod dates;
mod injective;
pub mod legality;
mod marks;
mod order;
mod pack;
mod permutable;
pub mod proofs;
mod reduction;
mod shape;
mod split;
pub mod tree;

pub use marks::ParallelOptions;
pub use pack::buffer_cells;
pub use split::SplitForm;

use crate::poly::PolyError;
use crate::scop::validity::Violation;
use crate::scop::{Dependence, Schedule, Scop};
use legality::{first_illegality_but_jams, first_illegality_since, first_unsound_mark, Illegal};
use proofs::{Proofs, ProvenJam, NO_PROOFS};

/// One directive with its arguments checked for type (not yet for meaning).
/// Depths are 1-based; β-vectors address a loop or a statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Directive {
    /// Swap the loops at depths `d1` and `d2` of the statements under `beta`.
    Interchange {
        beta: Vec<i64>,
        d1: usize,
        d2: usize,
    },
    /// `α_depth := −α_depth`.
    Reverse { beta: Vec<i64>, depth: usize },
    /// `α_depth := α_depth − factor·α_other`.
    Skew {
        beta: Vec<i64>,
        depth: usize,
        other: usize,
        factor: i64,
    },
    /// `α_depth := α_depth − params·coeffs − constant`.
    Shift {
        beta: Vec<i64>,
        depth: usize,
        params: Vec<i64>,
        constant: i64,
    },
    /// `α_depth` becomes `⌊α_depth / size⌋` then `α_depth`.
    Stripmine {
        beta: Vec<i64>,
        depth: usize,
        size: i64,
    },
    /// Strip-mine `depth`, then swap the new tile loop with depth `outer`.
    Tile {
        beta: Vec<i64>,
        depth: usize,
        outer: usize,
        size: i64,
    },
    /// The loops at depths `depth ..= depth + n - 1` become `n` tile loops
    /// (of sizes `sizes`) around them.
    TileBand {
        beta: Vec<i64>,
        depth: usize,
        sizes: Vec<i64>,
    },
    /// Child `x` of the loop (or root) `beta` moves to position `order[x]`.
    Reorder { beta: Vec<i64>, order: Vec<i64> },
    /// Split the loop at `depth` around `beta` after `beta` (fission).
    Split { beta: Vec<i64>, depth: usize },
    /// Merge the next loop into loop `beta`.
    Fuse { beta: Vec<i64> },
    /// The statement at `second` joins the statement at `first`, right after it.
    Block { first: Vec<i64>, second: Vec<i64> },
    /// Index-set split of loop `beta`: where `form >= 0` becomes new
    /// children of the same loop, after its existing ones (Clay's `clay_iss`).
    Iss { beta: Vec<i64>, form: SplitForm },
    /// `iss` on the loop's own counter: `α + params·p + const >= 0` goes second.
    Peel {
        beta: Vec<i64>,
        params: Vec<i64>,
        constant: i64,
    },
    /// Undo `iss`: merge the parts in loop `beta` and the next loop.
    Collapse { beta: Vec<i64> },
    /// `α_depth := factor·α_depth`.
    Grain {
        beta: Vec<i64>,
        depth: usize,
        factor: i64,
    },
    /// Undo `grain`.
    Densify { beta: Vec<i64>, depth: usize },
    /// `α_depth := α_depth − amount·iterator` (1-based iterator number; Clay's sign).
    Reshape {
        beta: Vec<i64>,
        depth: usize,
        iterator: usize,
        amount: i64,
    },
    /// Undo a strip-mine: merge the loop at `depth + 1` into `depth`.
    Linearize { beta: Vec<i64>, depth: usize },
    /// Wrap the statements in an innermost loop of one iteration.
    Embed { beta: Vec<i64> },
    /// Remove such a loop.
    Unembed { beta: Vec<i64> },
    /// Mark the loop `beta` (at depth `beta.len()`) to be unrolled by `factor`.
    Unroll {
        beta: Vec<i64>,
        factor: u32,
        epilog: bool,
    },
    /// Mark the loop at `depth` to be unrolled by `factor` and jammed.
    UnrollJam {
        beta: Vec<i64>,
        depth: usize,
        factor: u32,
    },
    /// Mark the loop at `depth` parallel (it must carry no dependence),
    /// with OpenMP clauses.
    Parallelize {
        beta: Vec<i64>,
        depth: usize,
        options: ParallelOptions,
    },
    /// Mark the innermost loop at `depth` vector (it must carry no
    /// dependence but those `safelen` or the reduction of this scalar
    /// allow).
    Vectorize {
        beta: Vec<i64>,
        depth: usize,
        reduction: Option<String>,
    },
    /// Map the loop at `depth` to CUDA blocks (or, with `thread`, to the
    /// threads of a block) along `dim` (0 = x, 1 = y, 2 = z): it must carry
    /// no dependence.
    MapGpu {
        beta: Vec<i64>,
        depth: usize,
        thread: bool,
        dim: u8,
    },
    /// Copy the cells of `array` that the loop at `depth` accesses into a
    /// buffer before it starts, access the buffer in it, and copy the
    /// cells it wrote back after it.
    Pack {
        beta: Vec<i64>,
        depth: usize,
        array: String,
    },
}

impl Directive {
    /// The β-vector that addresses the statements the directive acts on
    /// (`block`'s first statement).
    pub fn beta(&self) -> &[i64] {
        match self {
            Directive::Interchange { beta, .. }
            | Directive::Reverse { beta, .. }
            | Directive::Skew { beta, .. }
            | Directive::Shift { beta, .. }
            | Directive::Stripmine { beta, .. }
            | Directive::Tile { beta, .. }
            | Directive::TileBand { beta, .. }
            | Directive::Reorder { beta, .. }
            | Directive::Split { beta, .. }
            | Directive::Fuse { beta }
            | Directive::Block { first: beta, .. }
            | Directive::Iss { beta, .. }
            | Directive::Grain { beta, .. }
            | Directive::Peel { beta, .. }
            | Directive::Collapse { beta }
            | Directive::Densify { beta, .. }
            | Directive::Reshape { beta, .. }
            | Directive::Linearize { beta, .. }
            | Directive::Embed { beta }
            | Directive::Unembed { beta }
            | Directive::Unroll { beta, .. }
            | Directive::UnrollJam { beta, .. }
            | Directive::Parallelize { beta, .. }
            | Directive::Vectorize { beta, .. }
            | Directive::MapGpu { beta, .. }
            | Directive::Pack { beta, .. } => beta,
        }
    }

    /// Every β-vector of the directive (`block`'s two), to rewrite.
    pub fn betas_mut(&mut self) -> Vec<&mut Vec<i64>> {
        match self {
            Directive::Block { first, second } => vec![first, second],
            Directive::Interchange { beta, .. }
            | Directive::Reverse { beta, .. }
            | Directive::Skew { beta, .. }
            | Directive::Shift { beta, .. }
            | Directive::Stripmine { beta, .. }
            | Directive::Tile { beta, .. }
            | Directive::TileBand { beta, .. }
            | Directive::Reorder { beta, .. }
            | Directive::Split { beta, .. }
            | Directive::Fuse { beta }
            | Directive::Iss { beta, .. }
            | Directive::Grain { beta, .. }
            | Directive::Peel { beta, .. }
            | Directive::Collapse { beta }
            | Directive::Densify { beta, .. }
            | Directive::Reshape { beta, .. }
            | Directive::Linearize { beta, .. }
            | Directive::Embed { beta }
            | Directive::Unembed { beta }
            | Directive::Unroll { beta, .. }
            | Directive::UnrollJam { beta, .. }
            | Directive::Parallelize { beta, .. }
            | Directive::Vectorize { beta, .. }
            | Directive::MapGpu { beta, .. }
            | Directive::Pack { beta, .. } => vec![beta],
        }
    }
}

/// Why a directive was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApplyError {
    /// A precondition does not hold.
    Precondition {
        message: String,
        help: Option<String>,
    },
    /// The rewritten schedule runs a dependence's target before its source
    /// (`dependence` indexes the list given to [`apply`]).
    Violation(Box<Violation>),
    /// A loop to be marked parallel or vector carries a dependence; with
    /// `jammed` (depths and factors, outermost first), only once the loops
    /// around it at those depths are unrolled by those factors and jammed
    /// (`violation`'s dates are the jammed schedule's).
    Carried {
        depth: usize,
        jammed: Vec<(usize, u32)>,
        violation: Box<Violation>,
    },
    /// After the directive, the loop at `depth`, marked `unroll_jam` by
    /// `factor` earlier, cannot be jammed: `violation`'s dates are those of
    /// the jammed schedule.
    Jam {
        depth: usize,
        factor: u32,
        /// The loop around it jammed with it (depth, factor), if any.
        with: Option<(usize, u32)>,
        violation: Box<Violation>,
    },
    /// A data-layout directive would make the program compute something
    /// else ([`crate::scop::same_values`]).
    Changed(Box<crate::scop::same_values::Difference>),
    /// `poly` could not decide (read as "not proven legal").
    Poly(PolyError),
}

impl ApplyError {
    pub fn precondition(message: impl Into<String>) -> ApplyError {
        ApplyError::Precondition {
            message: message.into(),
            help: None,
        }
    }

    /// The same error, its message naming `user` where it named `inner`:
    /// a directive built from another (`tile` from `stripmine`, `peel`
    /// from `iss`) refuses in the name the user wrote.
    pub fn named(self, inner: &str, user: &str) -> ApplyError {
        match self {
            ApplyError::Precondition { message, help } => ApplyError::Precondition {
                message: match message
                    .strip_prefix(inner)
                    .and_then(|m| m.strip_prefix(": "))
                {
                    Some(rest) => format!("{user}: {rest}"),
                    None => message,
                },
                help,
            },
            other => other,
        }
    }

    pub fn with_help(self, help: impl Into<String>) -> ApplyError {
        match self {
            ApplyError::Precondition { message, .. } => ApplyError::Precondition {
                message,
                help: Some(help.into()),
            },
            other => other,
        }
    }
}

impl From<PolyError> for ApplyError {
    fn from(e: PolyError) -> ApplyError {
        ApplyError::Poly(e)
    }
}

/// The result of a directive that was accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub schedule: Schedule,
    /// False when the directive left the schedule as it was (a warning).
    pub changed: bool,
}

/// Apply `directive` to `schedule`: preconditions, rewrite, β
/// normalisation, then the exact dependence check against `deps`, and the
/// check that every loop marked parallel or vector still carries nothing.
pub fn apply(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    directive: &Directive,
) -> Result<Applied, ApplyError> {
    apply_knowing(scop, deps, schedule, directive, &NO_PROOFS)
}

/// [`apply`], where the jams and marked loops of `known` (proofs of
/// earlier checks on `deps`, [`legality::proofs_of_legal`]) are not
/// proven again on the pieces where they hold: each of a recipe's marks
/// would otherwise prove every earlier one again. Exact.
pub fn apply_knowing(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    directive: &Directive,
    known: &Proofs,
) -> Result<Applied, ApplyError> {
    let next = rewrite(scop, deps, schedule, directive)?;
    if let Some(i) = illegality_after(scop, deps, schedule, directive, &next, known)? {
        return Err(refused(i));
    }
    let changed = next != *schedule;
    Ok(Applied {
        schedule: next,
        changed,
    })
}

/// The exact check of `next`, [`rewrite`]'s result for `directive` on
/// `schedule`, which must be legal for `deps`: the first way `next` is
/// illegal, or `None`. Where every pair of instances keeps its order
/// (the same pieces: a mark; a `stripmine` that `preserves_order`; a
/// directive inside a permutable band, [`permutable::keeps_order`]),
/// only the marks are checked; elsewhere, only the pairs in one iteration
/// of the loop the directive rewrites inside ([`dates_changed_inside`]),
/// and every mark. The loops an `unroll_jam` marks were
/// proven by the rewrite, and the jams and marked loops of `known`
/// (earlier rewrites' [`proven_jams`], earlier checks'
/// [`legality::proofs_of_legal`], for all of `deps`) hold where their
/// pieces are the same: neither is checked again.
pub fn illegality_after(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    directive: &Directive,
    next: &Schedule,
    known: &Proofs,
) -> Result<Option<Illegal>, ApplyError> {
    let jammed = proven_jams(schedule, directive)?;
    let with_jammed;
    let proven = if jammed.is_empty() {
        known
    } else {
        with_jammed = Proofs {
            jams: jammed
                .into_iter()
                .chain(known.jams.iter().cloned())
                .collect(),
            marks: known.marks.clone(),
        };
        &with_jammed
    };
    let same_pieces = schedule
        .statements
        .iter()
        .zip(&next.statements)
        .all(|(a, b)| a.pieces == b.pieces);
    Ok(
        if same_pieces
            || preserves_order(schedule, directive)
            || permutable::keeps_order(scop, deps, schedule, directive)
        {
            first_unsound_mark(scop, deps, next, proven)?
        } else {
            let inside = dates_changed_inside(schedule, directive, next);
            first_illegality_since(scop, deps, schedule, next, proven, inside)?
        },
    )
}

/// The loop (a β prefix; empty: the whole region) outside which `next`,
/// [`rewrite`]'s result for `directive` on `schedule`, dates every
/// instance as `schedule` does, so that only the pairs of instances in
/// one iteration of it can change order. A directive that rewrites only
/// the dates at depth `d` and deeper of the statements under its `β`
/// (the loop directives: its loops' dates; `split`, `fuse` and `reorder`:
/// the β dates of its loop's children) keeps every date outside the loop
/// `β[..min(|β|, d − 1)]` that holds them. Cheap; what can be checked
/// cheaply is: a statement with a piece outside that loop, before or
/// after, must keep its pieces (else the whole region).
fn dates_changed_inside<'a>(
    schedule: &Schedule,
    directive: &'a Directive,
    next: &Schedule,
) -> &'a [i64] {
    let (beta, depth) = match directive {
        Directive::Interchange { beta, d1, d2 } => (beta, *d1.min(d2)),
        Directive::Tile {
            beta, depth, outer, ..
        } => (beta, *depth.min(outer)),
        Directive::Reverse { beta, depth }
        | Directive::Skew { beta, depth, .. }
        | Directive::Shift { beta, depth, .. }
        | Directive::Stripmine { beta, depth, .. }
        | Directive::TileBand { beta, depth, .. }
        | Directive::Grain { beta, depth, .. }
        | Directive::Densify { beta, depth }
        | Directive::Reshape { beta, depth, .. }
        | Directive::Linearize { beta, depth }
        | Directive::Split { beta, depth } => (beta, *depth),
        // The loop's children: their β dates at depth `|β| + 1`.
        Directive::Reorder { beta, .. } => (beta, beta.len() + 1),
        // The next loop's statements join loop `β`, at depth `|β|`.
        Directive::Fuse { beta } => (beta, beta.len()),
        _ => return &[],
    };
    let prefix = &beta[..beta.len().min(depth.saturating_sub(1))];
    let inside = |st: &crate::scop::StatementSchedule| {
        (0..st.pieces.len()).all(|p| st.beta(p).is_some_and(|b| b.starts_with(prefix)))
    };
    let kept = schedule.statements.len() == next.statements.len()
        && schedule
            .statements
            .iter()
            .zip(&next.statements)
            .all(|(a, b)| (inside(a) && inside(b)) || a.pieces == b.pieces);
    if kept {
        prefix
    } else {
        &[]
    }
}

/// The jams that [`rewrite`] proves when it applies `directive` to
/// `schedule` and succeeds: each loop an `unroll_jam` marks, alone (none
/// for another directive). Cheap.
pub fn proven_jams(
    schedule: &Schedule,
    directive: &Directive,
) -> Result<Vec<ProvenJam>, ApplyError> {
    let Directive::UnrollJam {
        beta,
        depth,
        factor,
    } = directive
    else {
        return Ok(Vec::new());
    };
    let mut proven = Vec::new();
    for prefix in marks::jammed_loops(schedule, beta, *depth)? {
        proven.push(ProvenJam::on(schedule, vec![(prefix, *factor)])?);
    }
    Ok(proven)
}

/// The exact legality check [`apply`] runs after a directive (every
/// dependence respected, every mark sound), of a schedule made by several
/// rewrites checked together (`group`).
pub fn check(scop: &Scop, deps: &[Dependence], schedule: &Schedule) -> Result<(), ApplyError> {
    check_knowing(scop, deps, schedule, &NO_PROOFS)
}

/// [`check`], where the jams and marked loops of `known` (proofs of
/// earlier checks on `deps`) are not proven again on the pieces where
/// they hold. Exact.
pub fn check_knowing(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    known: &Proofs,
) -> Result<(), ApplyError> {
    match first_illegality_but_jams(scop, deps, schedule, known)? {
        Some(i) => Err(refused(i)),
        None => Ok(()),
    }
}

/// Why a schedule is illegal, as the error of the directive that made it.
fn refused(illegal: Illegal) -> ApplyError {
    match illegal {
        Illegal::Violation(v) => ApplyError::Violation(Box::new(v)),
        Illegal::Carried {
            depth,
            jammed,
            violation,
            ..
        } => ApplyError::Carried {
            depth,
            jammed,
            violation: Box::new(violation),
        },
        Illegal::Jam {
            depth,
            factor,
            with,
            violation,
            ..
        } => ApplyError::Jam {
            depth,
            factor,
            with,
            violation: Box::new(violation),
        },
        Illegal::MixedJams {
            statement,
            jammed_at,
            own,
        } => ApplyError::precondition(format!(
            "statement S{statement} lies in the loop at depth {jammed_at}, which is jammed, and is \
             jammed at depth {own} without it; polyc checks the jams of a nest together only when \
             each of its statements has them all"
        ))
        .with_help("apply `unroll_jam` after the directives that merge loops"),
        Illegal::Reduction { depth, why } => ApplyError::precondition(format!(
            "the loop at depth {depth} is marked parallel with a reduction, and {why}"
        ))
        .with_help("keep only the updates of a reduced variable in its loop"),
        Illegal::Pack { depth, array, why } => ApplyError::precondition(format!(
            "the loop at depth {depth} packs `{array}`, and {why}"
        ))
        .with_help("apply `pack` after the directives that change its loop"),
        Illegal::NestedJam {
            statement,
            outer,
            inner,
        } => ApplyError::precondition(format!(
            "statement S{statement} would be jammed in three or more of its loops (depths {outer} to {inner}); \
             polyc checks at most two jams in a nest"
        ))
        .with_help(
            "jam at most two loops of a nest: apply `unroll_jam` after the directives that merge loops",
        ),
    }
}

/// The schedule `directive` asks for, before the dependence check of
/// [`apply`]: preconditions, the rewrite, β normalisation and the check that
/// the dates stay one-to-one (a mark's own carried-dependence check
/// included). Public so that a tester can evaluate
/// a refusal's witness on the dates of the schedule that was refused.
pub fn rewrite(
    scop: &Scop,
    deps: &[Dependence],
    schedule: &Schedule,
    directive: &Directive,
) -> Result<Schedule, ApplyError> {
    let mut next = match directive {
        Directive::Interchange { beta, d1, d2 } => affine::interchange(schedule, beta, *d1, *d2)?,
        Directive::Reverse { beta, depth } => affine::reverse(schedule, beta, *depth)?,
        Directive::Skew {
            beta,
            depth,
            other,
            factor,
        } => affine::skew(schedule, beta, *depth, *other, *factor)?,
        Directive::Shift {
            beta,
            depth,
            params,
            constant,
        } => affine::shift(schedule, scop, beta, *depth, params, *constant)?,
        Directive::Stripmine { beta, depth, size } => {
            // Clay refuses a statement's β here ("the beta is not a loop").
            blocking::is_loop(schedule, &tree::under(schedule, beta)?, beta, "stripmine")?;
            blocking::stripmine(schedule, beta, *depth, *size)?
        }
        Directive::Tile {
            beta,
            depth,
            outer,
            size,
        } => blocking::tile(schedule, beta, *depth, *outer, *size)
            .map_err(|e| e.named("stripmine", "tile"))?,
        Directive::TileBand { beta, depth, sizes } => {
            blocking::tile_band(schedule, beta, *depth, sizes)?
        }
        Directive::Reorder { beta, order } => order::reorder(schedule, beta, order)?,
        Directive::Split { beta, depth } => order::split(schedule, beta, *depth)?,
        Directive::Fuse { beta } => order::fuse(schedule, beta)?,
        Directive::Block { first, second } => order::block(schedule, scop, first, second)?,
        Directive::Iss { beta, form } => split::iss(schedule, beta, form)?,
        Directive::Peel {
            beta,
            params,
            constant,
        } => split::peel(schedule, beta, params, *constant).map_err(|e| e.named("iss", "peel"))?,
        Directive::Collapse { beta } => split::collapse(schedule, beta)?,
        Directive::Grain {
            beta,
            depth,
            factor,
        } => shape::grain(schedule, beta, *depth, *factor)?,
        Directive::Linearize { beta, depth } => shape::linearize(schedule, beta, *depth)?,
        Directive::Densify { beta, depth } => shape::densify(schedule, beta, *depth)?,
        Directive::Reshape {
            beta,
            depth,
            iterator,
            amount,
        } => shape::reshape(schedule, beta, *depth, *iterator, *amount)?,
        Directive::Embed { beta } => shape::embed(schedule, beta)?,
        Directive::Unembed { beta } => shape::unembed(schedule, beta)?,
        Directive::Unroll {
            beta,
            factor,
            epilog,
        } => marks::unroll(schedule, beta, *factor, *epilog)?,
        Directive::UnrollJam {
            beta,
            depth,
            factor,
        } => marks::unroll_jam(scop, deps, schedule, beta, *depth, *factor)?,
        Directive::Parallelize {
            beta,
            depth,
            options,
        } => marks::parallelize(scop, deps, schedule, beta, *depth, false, options)?,
        Directive::Vectorize {
            beta,
            depth,
            reduction,
        } => marks::parallelize(
            scop,
            deps,
            schedule,
            beta,
            *depth,
            true,
            &ParallelOptions {
                reduction: reduction.clone(),
                ..ParallelOptions::default()
            },
        )?,
        Directive::MapGpu {
            beta,
            depth,
            thread,
            dim,
        } => marks::map_gpu(scop, deps, schedule, beta, *depth, *thread, *dim)?,
        Directive::Pack { beta, depth, array } => pack::pack(scop, schedule, beta, *depth, array)?,
    };
    tree::normalize(&mut next)?;
    tree::check_tree(&next)?;
    injective::check(scop, schedule, &next)?;
    Ok(next)
}

/// Directives that run every pair of instances in the order the input
/// schedule runs them, so that the result respects every dependence the
/// input respects (and the input is legal: the original schedule, a loaded
/// one checked by `scop::validity`, or an earlier `apply`'s result). The
/// dependence check is skipped for them; it grows with the schedule's depth.
///
/// `stripmine` (and `tile` whose tile loop stays where it is made) replaces
/// a date `α` by `(⌊α/size⌋, 0, α)`: `⌊α/size⌋` is non-decreasing in `α`, and
/// equal when `α` is, so two rewritten dates compare lexicographically as
/// before. That holds only if every piece in the loops being strip-mined
/// is rewritten: a piece left out would compare its `α` with a neighbour's
/// `⌊α/size⌋`. So the loop at `depth` around each target must hold targets
/// only. And every piece of a strip-mined statement must be a target:
/// `stripmine` pads a statement's other pieces (in other loops) with the
/// constant dates `0, 0`, which changes their order with their own loop's
/// neighbours. Otherwise (or if anything is unclear) the check runs.
///
/// `embed` appends the dates `0, 0` to a statement's: every comparison
/// already reads a shorter date vector as followed by zeros.
fn preserves_order(schedule: &Schedule, directive: &Directive) -> bool {
    let (beta, depth) = match directive {
        Directive::Embed { .. } => return true,
        Directive::Stripmine { beta, depth, .. } => (beta, *depth),
        Directive::Tile {
            beta, depth, outer, ..
        } if depth == outer => (beta, *depth),
        _ => return false,
    };
    let Ok(all) = tree::all_betas(schedule) else {
        return false;
    };
    let mut loops: Vec<&[i64]> = Vec::new();
    let mut statements: Vec<usize> = Vec::new();
    for (piece, b) in all.iter().filter(|(_, b)| b.starts_with(beta)) {
        if b.len() <= depth {
            return false;
        }
        loops.push(&b[..depth]);
        statements.push(piece.statement);
    }
    let whole_statements = all
        .iter()
        .filter(|(piece, _)| statements.contains(&piece.statement))
        .all(|(_, b)| b.starts_with(beta));
    !loops.is_empty()
        && whole_statements
        && all
            .iter()
            .filter(|(_, b)| b.len() > depth && loops.contains(&&b[..depth]))
            .all(|(_, b)| b.starts_with(beta))
}

/// Every piece under `beta` must have a loop at `depth` (1-based).
fn check_depth(
    schedule: &Schedule,
    targets: &[tree::PieceRef],
    depth: usize,
    what: &str,
) -> Result<(), ApplyError> {
    if depth == 0 {
        return Err(ApplyError::precondition(format!(
            "{what}: depths are 1-based; 0 names no loop"
        ))
        .with_help("the outermost loop is at depth 1"));
    }
    for t in targets {
        let have = schedule.statements[t.statement].depth();
        if depth > have {
            return Err(ApplyError::precondition(format!(
                "{what}: statement S{} has {have} loop{} around it, not {depth}",
                t.statement,
                if have == 1 { "" } else { "s" }
            )));
        }
    }
    Ok(())
}

/// `schedule` with `rewrite` applied to every piece in `targets`.
fn rewrite_pieces(
    schedule: &Schedule,
    targets: &[tree::PieceRef],
    mut rewrite: impl FnMut(&crate::poly::BasicMap) -> Result<crate::poly::BasicMap, ApplyError>,
) -> Result<Schedule, ApplyError> {
    let mut next = schedule.clone();
    for t in targets {
        let st = &mut next.statements[t.statement];
        let piece = dates::without_unit_locals(&rewrite(&st.pieces[t.piece])?)?;
        st.pieces[t.piece] = piece.without_redundant_divisions();
    }
    Ok(next)
}
