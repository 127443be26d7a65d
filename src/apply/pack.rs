//! `pack(beta, depth, array)`: before the loop at `depth` starts, copy
//! the cells of `array` that its statements access in it into a local
//! buffer laid out as the box of their footprint
//! ([`crate::scop::footprint`]), access the buffer instead, and after the
//! loop copy the cells it wrote back. A mark ([`Mark::Pack`]) on the
//! statements that access the array; `emit::pack` prints the copies and
//! the buffer's accesses.
//!
//! Legal when every statement in the loop that accesses the array goes
//! through the buffer (has the mark): the copy in reads exactly the cells
//! the loop accesses, at its start; inside, the buffer holds what the
//! array would; the copy back writes exactly the cells the loop wrote,
//! with their last values, before anything after the loop runs. A
//! parallel loop around it carries no dependence, so no other thread
//! touches a cell this iteration writes. Also needed: the footprint has a
//! box of constant extents (at most [`MAX_BUFFER_CELLS`]) and no
//! existential variable left (code generation prints its copy), no loop
//! around the packed one is unrolled (its copies would share one buffer)
//! or collapsed through it. Checked when marked and again after every
//! directive ([`first_unsound_pack`]).

use super::marks::loops_around;
use super::ApplyError;
use crate::poly::PolyError;
use crate::scop::footprint::{footprint, pack_box, pieces_in_loop, MAX_BUFFER_CELLS};
use crate::scop::{Mark, Schedule, Scop};

/// Mark the statements that access `array` in the loop at `depth` around
/// the statements under `beta` to pack it there.
pub fn pack(
    scop: &Scop,
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
    array: &str,
) -> Result<Schedule, ApplyError> {
    let refuse = |why: String| ApplyError::precondition(format!("pack: {why}"));
    let Some(a) = scop.arrays.iter().find(|a| a.name == array) else {
        let names: Vec<&str> = scop
            .arrays
            .iter()
            .filter(|a| a.n_dims > 0)
            .map(|a| a.name.as_str())
            .collect();
        return Err(refuse(format!("the region has no array `{array}`"))
            .with_help(format!("its arrays: {}", names.join(", "))));
    };
    if a.n_dims == 0 {
        return Err(
            refuse(format!("`{array}` is a scalar, and pack copies arrays"))
                .with_help("a scalar is already a register; pack an array the loop accesses"),
        );
    }
    if a.element_type.is_none() {
        return Err(refuse(format!(
            "the element type of `{array}` is not declared in the file, and the buffer needs it"
        )));
    }
    let mut next = schedule.clone();
    for prefix in loops_around(schedule, beta, depth, "pack")? {
        let users: Vec<usize> = statements_in(schedule, &prefix)
            .into_iter()
            .filter(|&s| accesses(scop, s, array))
            .collect();
        if users.is_empty() {
            return Err(refuse(format!(
                "no statement in the loop at depth {depth} (β {prefix:?}) accesses `{array}`"
            )));
        }
        // A statement packing the array at another depth too is refused
        // by `pack_problem`, as after any directive.
        for &s in &users {
            let at = &mut next.statements[s].marks[depth - 1];
            if !at.contains(&Mark::Pack(array.to_string())) {
                at.push(Mark::Pack(array.to_string()));
            }
        }
        if let Some((why, help)) =
            pack_problem(scop, &next, &prefix, depth, array).map_err(ApplyError::from)?
        {
            return Err(refuse(why).with_help(help));
        }
    }
    Ok(next)
}

/// The cells of the largest buffer that packing `array` in the loops at
/// `depth` around the statements under `beta` takes: per loop, the box of
/// the footprint of the statements that pack it there. Exact; `None` when
/// a box is unbounded or past `i64`.
pub fn buffer_cells(
    scop: &Scop,
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
    array: &str,
) -> Result<Option<i64>, ApplyError> {
    let rank = scop
        .arrays
        .iter()
        .find(|a| a.name == array)
        .map_or(0, |a| a.n_dims);
    let mark = Mark::Pack(array.to_string());
    let mut most = 0;
    for prefix in loops_around(schedule, beta, depth, "pack")? {
        let marked: Vec<(usize, usize)> = pieces_in_loop(schedule, &prefix)
            .into_iter()
            .filter(|&(s, _)| {
                schedule.statements[s]
                    .marks
                    .get(depth - 1)
                    .is_some_and(|m| m.contains(&mark))
            })
            .collect();
        let cells = footprint(scop, schedule, &marked, depth, array, None)?;
        let Some(b) = pack_box(&cells, depth - 1, rank)? else {
            return Ok(None);
        };
        match b.cells() {
            Some(n) => most = most.max(n),
            None => return Ok(None),
        }
    }
    Ok(Some(most))
}

/// Why packing `array` in the loop `prefix` (at `depth`) of `schedule` is
/// not sound, and what would make it so, in words; `None` when it is
/// sound. Exact.
pub fn pack_problem(
    scop: &Scop,
    schedule: &Schedule,
    prefix: &[i64],
    depth: usize,
    array: &str,
) -> Result<Option<(String, &'static str)>, PolyError> {
    if !scop.arrays.iter().any(|a| a.name == array && a.n_dims > 0) {
        // A loaded schedule can name anything.
        return Ok(Some((
            format!("`{array}` is not an array of the region"),
            "pack an array the loop accesses",
        )));
    }
    let members = pieces_in_loop(schedule, prefix);
    let mark = Mark::Pack(array.to_string());
    let marked_at = |s: usize| {
        schedule.statements[s]
            .marks
            .get(depth - 1)
            .is_some_and(|m| m.contains(&mark))
    };
    for s in statements_in(schedule, prefix) {
        if accesses(scop, s, array) && !marked_at(s) {
            return Ok(Some((
                format!(
                    "statement S{s} accesses `{array}` in the loop without the buffer (the copies would miss its accesses)"
                ),
                "apply `pack` after the directive that brings the statement into the loop",
            )));
        }
        let marks = &schedule.statements[s].marks;
        if let Some(k) = (0..marks.len()).find(|&k| k + 1 != depth && marks[k].contains(&mark)) {
            return Ok(Some((
                format!(
                    "statement S{s} in it packs `{array}` in its loop at depth {} too",
                    k + 1
                ),
                "pack an array once in a nest",
            )));
        }
        for (k, at) in marks.iter().enumerate().take(depth - 1) {
            if at.iter().any(|m| {
                matches!(
                    m,
                    Mark::Unroll(_) | Mark::UnrollNoEpilog(_) | Mark::UnrollJam(_)
                )
            }) {
                return Ok(Some((
                    format!(
                        "the loop at depth {} around it is unrolled (its copies would share one buffer)",
                        k + 1
                    ),
                    "unroll or jam loops inside the packed one, or pack inside the unrolled loop",
                )));
            }
            if at
                .iter()
                .any(|m| matches!(m, Mark::Collapse(n) if k + *n as usize > depth - 1))
            {
                return Ok(Some((
                    format!(
                        "it lies in the nest that `collapse` merges at depth {} (the copy would break it)",
                        k + 1
                    ),
                    "collapse fewer loops, or pack outside the collapsed nest",
                )));
            }
        }
    }
    let marked: Vec<(usize, usize)> = members.into_iter().filter(|&(s, _)| marked_at(s)).collect();
    let rank = scop
        .arrays
        .iter()
        .find(|a| a.name == array)
        .map_or(0, |a| a.n_dims);
    let cells = footprint(scop, schedule, &marked, depth, array, None)?;
    if cells.basics().is_empty() {
        return Ok(None);
    }
    if cells.basics().iter().any(|b| b.n_local() > 0) {
        // Fourier–Motzkin could not project the iterators out exactly
        // (accesses or bounds through `%` or `/`): the copy would need an
        // exact guard on an existential, which scanning does not print.
        return Ok(Some((
            format!(
                "the cells of `{array}` it accesses are not a union of polyhedra without existential variables (accesses or bounds through `%` or `/`), and polyc cannot print their copy exactly yet"
            ),
            "pack a loop whose accesses and bounds do not go through `%` or `/`",
        )));
    }
    let Some(b) = pack_box(&cells, depth - 1, rank)? else {
        return Ok(Some((
            format!(
                "the cells of `{array}` it accesses in one run of the loop have no bounded box"
            ),
            "tile the loops first, and pack a loop that accesses one tile of the array",
        )));
    };
    match b.cells() {
        Some(n) if n <= MAX_BUFFER_CELLS => Ok(None),
        n => Ok(Some((
            format!(
                "the box of the cells of `{array}` it accesses in one run of the loop ({}) holds {} cells, more than the {MAX_BUFFER_CELLS} a buffer may",
                b.extents
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(" × "),
                n.map_or("over 2^63".to_string(), |n| n.to_string())
            ),
            "use smaller tiles, or pack a loop further in",
        ))),
    }
}

/// The first packed loop of `schedule` that is no longer sound (a later
/// directive fused a statement that accesses the array into it without
/// the mark, unrolled a loop around it, or made its footprint unbounded):
/// its depth, array and why. Exact.
pub fn first_unsound_pack(
    scop: &Scop,
    schedule: &Schedule,
) -> Result<Option<(usize, String, String)>, PolyError> {
    let mut checked: Vec<(Vec<i64>, String)> = Vec::new();
    for st in &schedule.statements {
        for (k, marks) in st.marks.iter().enumerate() {
            for m in marks {
                let Mark::Pack(array) = m else { continue };
                let depth = k + 1;
                for p in 0..st.pieces.len() {
                    let Some(beta) = st.beta(p) else {
                        return Ok(Some((
                            depth,
                            array.clone(),
                            "a β date of a statement in it is not a constant".into(),
                        )));
                    };
                    let key = (beta[..depth].to_vec(), array.clone());
                    if checked.contains(&key) {
                        continue;
                    }
                    if let Some((why, _)) = pack_problem(scop, schedule, &key.0, depth, array)? {
                        return Ok(Some((depth, array.clone(), why)));
                    }
                    checked.push(key);
                }
            }
        }
    }
    Ok(None)
}

/// The statements with a piece in the loop `prefix`, in order. Cheap.
fn statements_in(schedule: &Schedule, prefix: &[i64]) -> Vec<usize> {
    let mut out: Vec<usize> = pieces_in_loop(schedule, prefix)
        .into_iter()
        .map(|(s, _)| s)
        .collect();
    out.dedup();
    out
}

fn accesses(scop: &Scop, s: usize, array: &str) -> bool {
    scop.statements[s].accesses.iter().any(|a| a.array == array)
}
