//! `--explain`: a schedule written back as the directives that give it
//! from the original program (Chlore's contract: Bagnères et al., CGO
//! 2016, §5), replayable and checked by replaying.
//!
//! A target that splits statements into pieces (`iss`, `peel`) is cut
//! first ([`pieces`]); each piece then goes through the phases as a
//! statement of its own, and the directives are checked on the real
//! schedule.
//!
//! The recovery works in phases over Clay-form schedules, each a
//! sequence of [`Directive`]s applied with [`apply::rewrite`] as it is
//! found, so that the next phase reads the schedule the directives
//! really give:
//!
//! 1. **Structure** ([`structure`]): the β-vectors. Where the target's
//!    loop tree differs from the original's, the statements are
//!    distributed (`split`), put in the target's textual order (`reorder`)
//!    and fused level by level (`fuse`).
//! 2. **Loops** ([`loops`]): each statement's α dates, affine forms of its
//!    iterators, as an integral transformation of the original loops
//!    decomposed into `interchange`, `reverse`, `skew` and `grain`
//!    ([`row_ops`]), then `shift` for the parameters and constants; given
//!    once per subtree whose statements all need the same.
//! 3. **Tiles** ([`tiles`]): `tile_band` where a band's tiles fit one,
//!    else `stripmine` and `interchange`s; then a wavefront's `skew`s of
//!    tile loops. A strip of a date plus whole strips of an outer date is
//!    read as a tile loop skewed by that outer loop first, then as the
//!    point loop skewed around the strip. Last, where a statement's tiles
//!    strip one date that another date repeats shifted (a point loop
//!    `shift`ed after the tiles), the tiles read the two in order.
//! 4. **Marks** ([`marks`]): `parallelize`, `vectorize`, `unroll`,
//!    `unroll_jam`, `pack`, `gpu_block` and `gpu_thread`, per loop.
//! 5. **Tidying**: the same directive on sibling loops merged into one
//!    ([`siblings`]), directives that undo each other dropped
//!    ([`undone`]), a `stripmine` and the swap of its tile loop outwards
//!    joined into one `tile`, and so are a statement's `split`, the
//!    `stripmine` of its loop and the `fuse` back ([`joined`]), each where
//!    the schedule after them is the same.
//!
//! Where the phases leave a gap and the target holds a strip that
//! `linearize` left in its dates, the schedule before that `linearize`
//! is explained instead, then the `linearize` given ([`linearized`]).
//! Where a gap is left and some pieces hold no instance, the target
//! without them is explained, then the holes they leave in the β dates
//! made again ([`empty_pieces`]). Where a gap is left and a tile date
//! is a multiple of its strip (or a point date a multiple of an affine
//! form), the schedule before that `grain` is explained, then the
//! `grain` given ([`grained_dates`]). Where a gap is
//! left and a date is only a strip of a later date (a strip of a tile
//! loop or of a wavefront), the schedule before that `stripmine` or
//! `tile` is explained, then it is given ([`stripped_dates`]). Of these
//! readings, the shortest complete explanation is given. Schedules are
//! compared on the statements' domains ([`difference`]).
//!
//! Steps that are illegal on their own (a `split` before the `fuse` that
//! brings the statements back together) are wrapped in a `group`, which
//! the recipe language checks as one: the grouping runs on the schedule
//! after each directive the exact check a recipe's replay runs (the
//! check of [`apply::apply`] after one directive, [`apply::check`] after
//! a group), and the schedule they give is compared with the target (equal
//! relations and marks). An explanation that does not give the target is
//! an error, never printed as an answer.
//!
//! What is not recovered yet (pieces whose directives act on each other,
//! a tile loop shared by statements whose point loops are ordered inside
//! it) is a [`Gap`] that names the
//! statement and the reason; the part recovered before it is still
//! given. Data-layout directives change the program, not the schedule:
//! the CLI keeps a recipe's as calls around the explanation where they
//! come before and after its other calls.
//!
//! Must not know: recipe syntax beyond [`print`], code generation, the
//! CLI.

mod empty_pieces;
mod grained_dates;
mod grouping;
mod joined;
mod linearized;
mod loops;
mod marks;
pub mod nest;
mod pieces;
pub mod print;
mod row_ops;
mod shape;
mod shifted_copies;
mod siblings;
mod stripped_dates;
mod strips;
mod structure;
mod tiles;
mod undone;

use crate::apply::{self, ApplyError, Directive};
use crate::poly::{Map, PolyError};
use crate::scop::schedule::Mark;
use crate::scop::{Dependence, Schedule, Scop};
use grouping::grouped;

/// One step of an explanation: a directive, or directives applied and
/// checked together (`group { … }`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    One(Directive),
    Group(Vec<Directive>),
}

/// The directives found, and what could not be expressed (if anything),
/// after them.
#[derive(Clone, Debug)]
pub struct Explanation {
    pub steps: Vec<Step>,
    pub gap: Option<Gap>,
}

/// A part of the target schedule that the recovery does not express.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gap {
    /// The statement's name.
    pub statement: String,
    pub reason: String,
}

/// Why there is no explanation at all.
#[derive(Debug)]
pub enum ExplainError {
    /// A directive found was refused by `apply` (a recovery bug, or a
    /// mark its directive will not set).
    Refused(Box<(Directive, ApplyError)>),
    /// The directives do not give the target (a recovery bug).
    NotReplayed(String),
    Poly(PolyError),
}

impl std::fmt::Display for ExplainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExplainError::Refused(refused) => {
                let (d, e) = refused.as_ref();
                write!(f, "the recovered `{}` is refused: {e:?}", print::call(d))
            }
            ExplainError::NotReplayed(why) => write!(f, "the recovered directives {why}"),
            ExplainError::Poly(e) => write!(f, "{e}"),
        }
    }
}

/// `d` refused with `e`.
fn refused(d: &Directive, e: ApplyError) -> ExplainError {
    ExplainError::Refused(Box::new((d.clone(), e)))
}

/// The message of a refused precondition.
fn precondition(e: &ApplyError) -> Option<&str> {
    match e {
        ApplyError::Precondition { message, .. } => Some(message),
        _ => None,
    }
}

impl From<PolyError> for ExplainError {
    fn from(e: PolyError) -> ExplainError {
        ExplainError::Poly(e)
    }
}

/// The schedule as it is rewritten, and the directives that rewrote it.
struct Recovery<'a> {
    scop: &'a Scop,
    deps: &'a [Dependence],
    current: Schedule,
    /// The schedule before the first directive.
    start: Schedule,
    found: Vec<Directive>,
    /// The schedule after each directive of `found` (the grouping checks
    /// them without rewriting again).
    after: Vec<Schedule>,
}

impl<'a> Recovery<'a> {
    /// A recovery from `current`, nothing found yet.
    fn from(scop: &'a Scop, deps: &'a [Dependence], current: Schedule) -> Recovery<'a> {
        Recovery {
            scop,
            deps,
            start: current.clone(),
            current,
            found: Vec::new(),
            after: Vec::new(),
        }
    }

    /// Rewrite the current schedule with `d` (no dependence check) and
    /// record it.
    fn push(&mut self, d: Directive) -> Result<(), ExplainError> {
        let next =
            apply::rewrite(self.scop, self.deps, &self.current, &d).map_err(|e| refused(&d, e))?;
        self.after.push(next.clone());
        self.current = next;
        self.found.push(d);
        Ok(())
    }

    /// Where the current relations are `target`'s (exactly), in as many
    /// pieces, take `target`'s rows for them, in the current schedule and
    /// the one the last directive gave: the same schedule, written as the
    /// scheduler wrote it, so that the checks of the marks ask the exact
    /// tests the scheduler's own checks asked, and find their answers
    /// remembered (`poly`'s memo of Omega tests reads rows as written).
    fn adopt_rows(&mut self, target: &Schedule) -> Result<(), ExplainError> {
        let same_pieces = self
            .current
            .statements
            .iter()
            .zip(&target.statements)
            .all(|(a, b)| a.pieces.len() == b.pieces.len());
        if !same_pieces || difference_but_marks(self.scop, &self.current, target)?.is_some() {
            return Ok(());
        }
        for schedule in [Some(&mut self.current), self.after.last_mut()]
            .into_iter()
            .flatten()
        {
            for (st, t) in schedule.statements.iter_mut().zip(&target.statements) {
                st.pieces.clone_from(&t.pieces);
            }
        }
        Ok(())
    }

    /// Statement `s`'s current β-vector.
    fn beta(&self, s: usize) -> Result<Vec<i64>, ExplainError> {
        self.current.statements[s].beta(0).ok_or_else(|| {
            ExplainError::NotReplayed("meet a β date that is not a constant".to_string())
        })
    }
}

/// The schedule after each of `directives`, rewritten one after the other
/// from `start` ([`apply::rewrite`], no dependence check), up to the
/// first one refused.
fn rewrites<'d>(
    scop: &Scop,
    deps: &[Dependence],
    start: &Schedule,
    directives: impl IntoIterator<Item = &'d Directive>,
) -> Vec<Schedule> {
    let mut out: Vec<Schedule> = Vec::new();
    for d in directives {
        let now = out.last().unwrap_or(start);
        match apply::rewrite(scop, deps, now, d) {
            Ok(next) => out.push(next),
            Err(_) => break,
        }
    }
    out
}

/// `α_depth := α_depth − by·(parameters, 1)` for the statements under
/// `beta` (`by`: the parameters' coefficients, then the constant).
fn shift(beta: Vec<i64>, depth: usize, by: &[i64]) -> Directive {
    let (params, constant) = by.split_at(by.len().saturating_sub(1));
    Directive::Shift {
        beta,
        depth,
        params: params.to_vec(),
        constant: constant.first().copied().unwrap_or(0),
    }
}

/// The directives that turn `scop`'s original schedule into `target`,
/// replayed and checked. Exact: every step given is applied with the
/// dependence check, and the final schedule equals `target` (on the part
/// before a [`Gap`], the schedule that part gives).
pub fn explain(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
) -> Result<Explanation, ExplainError> {
    explain_undoing_strips(scop, deps, target, stripped_dates::MAX_STRIPS)
}

/// [`explain`], where the phases leave a gap (or give directives that
/// do not replay) the shortest complete explanation that undoes a
/// `linearize`, holes of empty pieces, a `grain`, or at most `strips`
/// strips of later dates one inside the other ([`stripped_dates`]).
fn explain_undoing_strips(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
    strips: usize,
) -> Result<Explanation, ExplainError> {
    let plain = explain_plainly(scop, deps, target);
    if plain.as_ref().is_ok_and(|p| p.gap.is_none()) {
        return plain;
    }
    // The shortest complete explanation of the readings that undo one
    // directive; an overflow or a refusal there leaves the others, and
    // where none is complete, the phases' answer.
    let readings = [
        linearized::explained(scop, deps, target, linearized::MAX_LINEARIZES),
        empty_pieces::explained(scop, deps, target),
        grained_dates::explained(scop, deps, target),
        stripped_dates::explained(scop, deps, target, strips),
    ];
    let shortest = readings
        .into_iter()
        .filter_map(|e| e.ok().flatten())
        .filter(|e| e.gap.is_none())
        .min_by_key(pieces::length);
    shortest.map_or(plain, Ok)
}

/// [`explain`], undoing at most `linearizes` linearized strips one inside
/// the other ([`linearized`]) where the phases leave a gap.
fn explain_within(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
    linearizes: usize,
) -> Result<Explanation, ExplainError> {
    let plain = explain_plainly(scop, deps, target)?;
    if plain.gap.is_some() {
        // An overflow or a refusal there leaves the phases' answer.
        if let Ok(Some(e)) = linearized::explained(scop, deps, target, linearizes) {
            return Ok(e);
        }
    }
    Ok(plain)
}

/// [`explain`] by the phases, the pieces cut first where there are any.
fn explain_plainly(
    scop: &Scop,
    deps: &[Dependence],
    target: &Schedule,
) -> Result<Explanation, ExplainError> {
    if target.statements.iter().any(|s| s.pieces.len() > 1) {
        return pieces::explain(scop, deps, target);
    }
    let mut recovery = Recovery::from(scop, deps, Schedule::original(scop));
    let gap = recover(&mut recovery, target)?;
    // Grouping checks the schedules the directives gave as a recipe's
    // replay checks them: each step's, after its rewrites.
    let (steps, replayed, gave_up) =
        grouped(scop, deps, &recovery.found, &recovery.after, gap.is_some())?;
    let gap = gave_up.or(gap);
    if gap.is_none() {
        if let Some(why) = difference(scop, &replayed, target)? {
            return Err(ExplainError::NotReplayed(why));
        }
    }
    Ok(Explanation { steps, gap })
}

/// The directives of `steps`, groups opened, in order.
fn flattened(steps: Vec<Step>) -> Vec<Directive> {
    steps
        .into_iter()
        .flat_map(|s| match s {
            Step::One(d) => vec![d],
            Step::Group(ds) => ds,
        })
        .collect()
}

/// The phases; a gap stops the recovery where it is found.
fn recover(r: &mut Recovery<'_>, target: &Schedule) -> Result<Option<Gap>, ExplainError> {
    let shapes = match shape::shapes(r.scop, target)? {
        Ok(s) => s,
        Err(gap) => return Ok(Some(gap)),
    };
    loops::embed(r, &shapes)?;
    let betas: Vec<Vec<i64>> = shapes.iter().map(|s| s.beta.clone()).collect();
    structure::recover(r, &betas)?;
    if let Some(gap) = loops::recover(r, &shapes)? {
        return Ok(Some(gap));
    }
    if shapes.iter().any(|s| !s.tiles.is_empty()) {
        let (before, found) = (r.current.clone(), r.found.len());
        // `tile_band` where it gives the target's tiles, else `stripmine`
        // and `interchange`. A tile phase that `apply` refuses, or that
        // does not give the target's dates, leaves the schedule before it.
        let mut tiled = false;
        // Tile loops skewed by outer loops read as such first, where
        // there are any, then as point loops skewed around the strips;
        // last, tiles of one date spread over its shifted copies.
        let outer_skews = shape::with_tiles_skewed_by_outer_loops(&shapes);
        let spread = shifted_copies::with_tiles_spread_over_shifted_copies(&shapes)?;
        let readings = outer_skews
            .iter()
            .chain(std::iter::once(&shapes))
            .chain(spread.iter());
        // A statement stripped alone in a shared loop by its own `tile`
        // first, then split apart and fused back.
        let readings: Vec<&Vec<shape::StatementShape>> = readings.collect();
        let tries = [true, false].into_iter().flat_map(|own| {
            let readings = &readings;
            readings
                .iter()
                .flat_map(move |s| [(*s, true, own), (*s, false, own)])
        });
        for (shapes, bands, own_tiles) in tries {
            tiled = match tiles::recover(r, shapes, bands, own_tiles) {
                Ok(done) => done && difference_but_marks(r.scop, &r.current, target)?.is_none(),
                Err(ExplainError::Refused(_)) => false,
                Err(e) => return Err(e),
            };
            if tiled {
                r.drop_undone()?;
                break;
            }
            r.current = before.clone();
            r.found.truncate(found);
            r.after.truncate(found);
        }
        if !tiled {
            let s = shapes.iter().position(|s| !s.tiles.is_empty()).unwrap_or(0);
            return Ok(Some(Gap {
                statement: r.scop.statements[s].name.clone(),
                reason: "its tiles are not strips of its loops that `stripmine` and \
                         `interchange` give"
                    .to_string(),
            }));
        }
    }
    let marks_from = r.found.len();
    let gap = marks::marks(r, target)?;
    if gap.is_none() {
        r.merge_siblings(marks_from)?;
        r.drop_undone()?;
        // Tiles joined on sibling loops merge too.
        r.join_tiles()?;
        r.merge_siblings(r.found.len())?;
    }
    Ok(gap)
}

/// How `a` and `b` differ (the first statement whose relation on its
/// domain or whose marks differ), or `None` when they are the same
/// schedule. Exact.
pub fn difference(scop: &Scop, a: &Schedule, b: &Schedule) -> Result<Option<String>, PolyError> {
    for ((st, x), y) in scop.statements.iter().zip(&a.statements).zip(&b.statements) {
        let same = x.marks.len() == y.marks.len()
            && x.marks
                .iter()
                .zip(&y.marks)
                .all(|(p, q)| same_mark_set(p, q));
        if !same {
            return Ok(Some(format!("give {} other marks", st.name)));
        }
    }
    difference_but_marks(scop, a, b)
}

/// Whether two lists of a loop's marks hold the same marks: the order
/// directives set them in is not a difference.
fn same_mark_set(x: &[Mark], y: &[Mark]) -> bool {
    x.len() == y.len() && x.iter().all(|m| y.contains(m)) && y.iter().all(|m| x.contains(m))
}

/// [`difference`] in the relations only, on the statements' domains:
/// what a schedule says of instances that do not exist is no difference
/// (an `iss` or `peel` whose side holds no instance gives a piece that is
/// empty there).
fn difference_but_marks(
    scop: &Scop,
    a: &Schedule,
    b: &Schedule,
) -> Result<Option<String>, PolyError> {
    for ((st, x), y) in scop.statements.iter().zip(&a.statements).zip(&b.statements) {
        // The pieces as one relation, in the space of `x`'s first: the
        // dates' names are no difference.
        let Some(space) = x.pieces.first().map(|p| p.space().clone()) else {
            if y.pieces.is_empty() {
                continue;
            }
            return Ok(Some(format!("give {} another schedule", st.name)));
        };
        let as_map = |pieces: &[crate::poly::BasicMap]| -> Result<Option<Map>, PolyError> {
            let mut m = Map::empty(space.clone());
            for p in pieces {
                if p.space().n_out() != space.n_out() {
                    return Ok(None);
                }
                for b in Map::from_basic(p.clone()).renamed(&space)?.basics() {
                    m.push(b.clone());
                }
            }
            Ok(Some(m))
        };
        // Equal as written (cheap where the rows are the same), else on
        // the domain.
        let same = match (as_map(&x.pieces)?, as_map(&y.pieces)?) {
            (Some(mx), Some(my)) if !y.pieces.is_empty() => {
                mx.is_equal(&my)?
                    || mx
                        .intersect_domain(&st.domain)?
                        .is_equal(&my.intersect_domain(&st.domain)?)?
            }
            _ => false,
        };
        if !same {
            return Ok(Some(format!("give {} another schedule", st.name)));
        }
    }
    Ok(None)
}
