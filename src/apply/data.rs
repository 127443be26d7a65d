//! Clay's data-layout directives: rewrites of the program's accesses and
//! statements rather than of its schedule, checked by comparing what the
//! program computes before and after ([`crate::scop::same_values`]).
//!
//! * `add_array(name)` declares an array local to the region;
//!   `get_array_id(name)` checks that the region has the array `name`
//!   (Clay numbers arrays; polyc names them, and both give the name);
//! * `replace_array(old, new)` makes every access of `old` access `new`;
//! * `dimreorder(beta, array, order)` permutes the subscripts of `array`'s
//!   accesses in the statements under `beta` (subscript `k` becomes the old
//!   subscript `order[k]`);
//! * `dimprivatize(beta, array, depth)` adds the statement's iterator at
//!   `depth` as a last subscript of those accesses (array expansion);
//! * `dimcontract(beta, array, dim)` removes their subscript `dim` (1-based);
//! * `datacopy(copy, original, at, before, domain_of)` adds a statement
//!   `copy[f] = original[f]` at the top level, before or after the node
//!   `at` lies in, iterating over the domain of the statement `domain_of`,
//!   with `f` the subscripts of that statement's first access of either
//!   array (its loops too: it runs once per instance of that statement).
//!
//! [`rewrite`] makes the new scop and schedule (each access rewritten in
//! the model and in the statement's syntax tree, found by its span);
//! [`check`] computes the new dependences, asks whether the new program
//! computes what the old one does, whether each local array can be
//! declared from index 0 ([`crate::scop::local_cells`]: else code
//! generation could not print the accepted recipe), then whether the
//! schedule respects the new dependences. A copy statement also gets a
//! place in the original order (before the first, or after the last,
//! top-level nest of the original that holds a statement of the node it
//! is placed by), so that the rewritten program has an original order in
//! which it is compared and its dependences computed. When the schedule is one the dependence
//! analysis can read as an order (one piece per statement, each date an
//! affine form of the iterators: after `fuse`, `interchange`, `skew`, …),
//! it becomes the rewritten program's original order first, so that a
//! storage only that order allows (`dimcontract` after `fuse`) is
//! accepted; the comparison then covers every array, since the two
//! programs run in different orders.

mod copy;
mod relation;
mod subscripts;

use std::collections::BTreeSet;

use super::{tree, ApplyError};
use crate::scop::local_cells::first_unsized;
use crate::scop::same_values::{first_difference, Difference};
use crate::scop::{dependences, Array, DepOptions, Dependence, Schedule, Scop};
use relation::{edited_relation, uses_iterator};
use subscripts::Edit;

/// One data-layout directive, its arguments checked for type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataDirective {
    AddArray {
        name: String,
    },
    /// Clay's lookup of an array's number: here a check that the array
    /// exists (polyc names arrays).
    GetArrayId {
        name: String,
    },
    ReplaceArray {
        old: String,
        new: String,
    },
    DimReorder {
        beta: Vec<i64>,
        array: String,
        order: Vec<i64>,
    },
    DimPrivatize {
        beta: Vec<i64>,
        array: String,
        depth: usize,
    },
    DimContract {
        beta: Vec<i64>,
        array: String,
        dim: usize,
    },
    DataCopy {
        copy: String,
        original: String,
        at: Vec<i64>,
        before: bool,
        domain_of: Vec<i64>,
    },
}

impl DataDirective {
    /// Whether it rewrites accesses or statements (`add_array` and
    /// `get_array_id` only name arrays): the program's dependences must
    /// then be computed again, and [`check`] run.
    pub fn rewrites_accesses(&self) -> bool {
        !matches!(
            self,
            DataDirective::AddArray { .. } | DataDirective::GetArrayId { .. }
        )
    }
}

/// The scop and schedule `directive` makes, before any check of what they
/// compute: preconditions and the rewrite.
pub fn rewrite(
    scop: &Scop,
    schedule: &Schedule,
    directive: &DataDirective,
) -> Result<(Scop, Schedule), ApplyError> {
    // Only a rewrite whose dependences are computed again may change the
    // original order they are computed in.
    let mut next = if directive.rewrites_accesses() {
        committed(scop, schedule)
    } else {
        scop.clone()
    };
    let mut sched = schedule.clone();
    match directive {
        DataDirective::AddArray { name } => add_array(&mut next, name)?,
        DataDirective::GetArrayId { name } => known(scop, name)?,
        DataDirective::ReplaceArray { old, new } => {
            known(scop, old)?;
            known(scop, new)?;
            if old == new {
                return Err(ApplyError::precondition(format!(
                    "replace_array: `{old}` replaced by itself"
                )));
            }
            let all: Vec<usize> = (0..scop.statements.len()).collect();
            same_type(scop, "replace_array", old, new)?;
            let ty = element_type(scop, old);
            edit_accesses(&mut next, &all, old, &Edit::Rename(new.clone()))?;
            adopt(&mut next, new, ty);
        }
        DataDirective::DimReorder { beta, array, order } => {
            known(scop, array)?;
            let statements = statements_under(schedule, beta)?;
            let n = dims_of(scop, &statements, array);
            let mut seen: Vec<i64> = order.clone();
            seen.sort_unstable();
            if seen != (0..n as i64).collect::<Vec<_>>() {
                return Err(ApplyError::precondition(format!(
                    "dimreorder: {order:?} is not an order of the {n} subscripts of `{array}` (a permutation of 0..{n})"
                )));
            }
            let order: Vec<usize> = order.iter().map(|&k| k as usize).collect();
            edit_accesses(&mut next, &statements, array, &Edit::Permute(order))?;
        }
        DataDirective::DimPrivatize { beta, array, depth } => {
            known(scop, array)?;
            let statements = statements_under(schedule, beta)?;
            for &s in &statements {
                let st = &scop.statements[s];
                if *depth == 0 || *depth > st.iterators.len() {
                    return Err(ApplyError::precondition(format!(
                        "dimprivatize: statement {} has {} loops, no loop at depth {depth}",
                        st.name,
                        st.iterators.len()
                    )));
                }
            }
            edit_accesses(&mut next, &statements, array, &Edit::Append(*depth))?;
        }
        DataDirective::DimContract { beta, array, dim } => {
            known(scop, array)?;
            let statements = statements_under(schedule, beta)?;
            let n = dims_of(scop, &statements, array);
            if *dim == 0 || *dim > n {
                return Err(ApplyError::precondition(format!(
                    "dimcontract: `{array}` has {n} subscripts, no subscript {dim} (1-based)"
                )));
            }
            edit_accesses(&mut next, &statements, array, &Edit::Remove(dim - 1))?;
        }
        DataDirective::DataCopy {
            copy,
            original,
            at,
            before,
            domain_of,
        } => {
            known(scop, copy)?;
            known(scop, original)?;
            if copy == original {
                return Err(ApplyError::precondition(format!(
                    "datacopy: `{copy}` copied into itself"
                )));
            }
            same_type(scop, "datacopy", original, copy)?;
            let ty = element_type(scop, original);
            copy::insert(
                &mut next, &mut sched, copy, original, at, *before, domain_of,
            )?;
            adopt(&mut next, copy, ty);
        }
    }
    settle_arrays(&mut next)?;
    tree::normalize(&mut sched)?;
    tree::check_tree(&sched)?;
    Ok((next, sched))
}

/// The checks of a rewritten program `after` (with dependences
/// `after_deps`, [`dependences`] of it) and `schedule`, against the program
/// `before` it: what it computes, then the schedule's legality (a
/// violation indexes `after_deps`).
pub fn check(
    before: &Scop,
    before_deps: &[Dependence],
    after: &Scop,
    after_deps: &[Dependence],
    schedule: &Schedule,
) -> Result<(), ApplyError> {
    if let Some(d) = first_difference(before, before_deps, after, after_deps)? {
        return Err(ApplyError::Changed(Box::new(d)));
    }
    if let Some((array, d, why)) = first_unsized(after)? {
        return Err(ApplyError::precondition(why.describe(&array, d)).with_help(
            "copy cells whose subscripts are non-negative and bounded by the parameters, \
             or fix the parameters' range first with `context`",
        ));
    }
    super::check(after, after_deps, schedule)
}

/// The dependences of a rewritten program, as [`check`] wants them.
pub fn dependences_of(after: &Scop) -> Result<Vec<Dependence>, ApplyError> {
    Ok(dependences(after, &DepOptions::default())?)
}

/// `scop` with the schedule as its original order, when every statement
/// has one piece whose dates are each an affine form of its iterators (no
/// tiling, no `iss`: what the dependence analysis reads as an order);
/// else `scop` as it is. The program keeps its meaning either way, and a
/// storage the schedule allows (a cell contracted once the loops that use
/// it are fused) is then compared in that order.
fn committed(scop: &Scop, schedule: &Schedule) -> Scop {
    let fits = scop
        .statements
        .iter()
        .zip(&schedule.statements)
        .all(|(st, s)| {
            s.pieces.len() == 1
                && s.pieces[0].n_local() == 0
                && s.pieces[0].space().n_out()
                    == crate::scop::schedule::date_count(st.iterators.len())
                && crate::scop::dependences_order_reads(&s.pieces[0])
        });
    let mut out = scop.clone();
    if fits {
        for (st, s) in out.statements.iter_mut().zip(&schedule.statements) {
            st.schedule = s.pieces[0].clone();
        }
    }
    out
}

/// `name` is an array of `scop`, or a precondition error naming the
/// closest one.
fn known(scop: &Scop, name: &str) -> Result<(), ApplyError> {
    if scop.arrays.iter().any(|a| a.name == name) {
        return Ok(());
    }
    let names: Vec<&str> = scop.arrays.iter().map(|a| a.name.as_str()).collect();
    let help = match crate::support::edit_distance::closest(name, names.iter().copied()) {
        Some(c) => format!("did you mean `{c}`?"),
        None => format!("the region's arrays: {}", names.join(", ")),
    };
    Err(ApplyError::precondition(format!("the region has no array `{name}`")).with_help(help))
}

/// `to` holds values of `from`'s element type: the same declared type, or
/// `to` is a local array with no type yet (it takes `from`'s). A value
/// stored in another type would be converted, which the value check does
/// not see.
fn same_type(scop: &Scop, directive: &str, from: &str, to: &str) -> Result<(), ApplyError> {
    let array = |n: &str| scop.arrays.iter().find(|a| a.name == n);
    let (Some(f), Some(t)) = (array(from), array(to)) else {
        return Ok(());
    };
    if t.local && t.element_type.is_none() {
        return Ok(());
    }
    match (&f.element_type, &t.element_type) {
        (Some(a), Some(b)) if a == b => Ok(()),
        (a, b) => {
            let said = |n: &str, ty: &Option<String>| match ty {
                Some(ty) => format!("`{n}` holds `{ty}`"),
                None => format!("polyc sees no declaration of `{n}`"),
            };
            Err(ApplyError::precondition(format!(
                "{directive}: {} and {}: the values would be converted",
                said(from, a),
                said(to, b)
            )))
        }
    }
}

fn element_type(scop: &Scop, name: &str) -> Option<String> {
    scop.arrays
        .iter()
        .find(|a| a.name == name)
        .and_then(|a| a.element_type.clone())
}

/// `add_array(name)`: a new local array, its shape and type given by its
/// first use.
fn add_array(scop: &mut Scop, name: &str) -> Result<(), ApplyError> {
    let identifier = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !identifier {
        return Err(ApplyError::precondition(format!(
            "add_array: `{name}` is not a C identifier"
        )));
    }
    if name.starts_with("polyc_") {
        return Err(ApplyError::precondition(format!(
            "add_array: names starting with `polyc_` are polyc's own (`{name}`)"
        )));
    }
    let iterators = scop.statements.iter().flat_map(|s| s.iterators.iter());
    let taken = scop.arrays.iter().any(|a| a.name == name)
        || scop.params.iter().any(|p| p == name)
        || iterators.clone().any(|i| i == name);
    if taken {
        return Err(ApplyError::precondition(format!(
            "add_array: the region already uses the name `{name}`"
        )));
    }
    scop.arrays.push(Array {
        name: name.to_string(),
        n_dims: 0,
        extents: None,
        element_type: None,
        local: true,
    });
    Ok(())
}

/// A local array `name` with no type yet takes `ty`.
fn adopt(scop: &mut Scop, name: &str, ty: Option<String>) {
    if let Some(a) = scop.arrays.iter_mut().find(|a| a.name == name) {
        if a.local && a.element_type.is_none() {
            a.element_type = ty;
        }
    }
}

/// The statements with a piece under `beta`, in order.
fn statements_under(schedule: &Schedule, beta: &[i64]) -> Result<Vec<usize>, ApplyError> {
    let found: BTreeSet<usize> = tree::under(schedule, beta)?
        .into_iter()
        .map(|r| r.statement)
        .collect();
    Ok(found.into_iter().collect())
}

/// The number of subscripts of `array`'s first access in `statements`, or
/// its declared number.
fn dims_of(scop: &Scop, statements: &[usize], array: &str) -> usize {
    statements
        .iter()
        .flat_map(|&s| scop.statements[s].accesses.iter())
        .find(|a| a.array == array)
        .map(|a| a.relation.space().n_out())
        .or_else(|| {
            scop.arrays
                .iter()
                .find(|a| a.name == array)
                .map(|a| a.n_dims)
        })
        .unwrap_or(0)
}

/// Apply `edit` to every access of `array` in `statements`: the relation
/// and the syntax tree. An error when none is there.
fn edit_accesses(
    scop: &mut Scop,
    statements: &[usize],
    array: &str,
    edit: &Edit,
) -> Result<(), ApplyError> {
    let mut count = 0;
    for &s in statements {
        let st = &mut scop.statements[s];
        // `x += …` reads and writes one node: edit it once.
        let mut edited: Vec<crate::syntax::Span> = Vec::new();
        for k in 0..st.accesses.len() {
            if st.accesses[k].array != array {
                continue;
            }
            let access = st.accesses[k].clone();
            if let Edit::Append(depth) = edit {
                if uses_iterator(&access.relation, depth - 1) {
                    return Err(ApplyError::precondition(format!(
                        "dimprivatize: the access `{}` of {} already depends on its iterator `{}` \
                         (depth {depth})",
                        subscripts::text(&st.body, &access.span, array)
                            .unwrap_or_else(|| array.to_string()),
                        st.name,
                        st.iterators[depth - 1]
                    )));
                }
            }
            if !edited.contains(&access.span) {
                let body = subscripts::edit(&st.body, &access.span, array, edit, &st.iterators)
                    .ok_or_else(|| {
                        ApplyError::precondition(format!(
                            "the access of `{array}` in {} is not an array element or a name polyc can rewrite",
                            st.name
                        ))
                    })?;
                st.body = body;
                edited.push(access.span.clone());
            }
            st.accesses[k].relation = edited_relation(&access.relation, edit)?;
            if let Edit::Rename(new) = edit {
                st.accesses[k].array = new.clone();
            }
            count += 1;
        }
    }
    if count == 0 {
        return Err(ApplyError::precondition(format!(
            "no statement there accesses `{array}`"
        )));
    }
    Ok(())
}

/// Every array's accesses agree on its number of subscripts: a local
/// array takes theirs, a visible one keeps its declared number.
fn settle_arrays(scop: &mut Scop) -> Result<(), ApplyError> {
    for a in &mut scop.arrays {
        let counts: BTreeSet<usize> = scop
            .statements
            .iter()
            .flat_map(|s| s.accesses.iter())
            .filter(|x| x.array == a.name)
            .map(|x| x.relation.space().n_out())
            .collect();
        match counts.len() {
            0 => {}
            1 => {
                let n = counts.iter().copied().next().unwrap_or(0);
                if !a.local && n != a.n_dims {
                    return Err(ApplyError::precondition(format!(
                        "`{}` is declared outside the region with {} subscripts, and its accesses \
                         would have {n}",
                        a.name, a.n_dims
                    ))
                    .with_help(
                        "change the layout of a copy: `add_array`, `replace_array` and `datacopy`",
                    ));
                }
                a.n_dims = n;
            }
            _ => {
                let list: Vec<String> = counts.iter().map(usize::to_string).collect();
                return Err(ApplyError::precondition(format!(
                    "the accesses of `{}` would have {} subscripts",
                    a.name,
                    list.join(" and ")
                ))
                .with_help("rewrite every access of the array the same way"));
            }
        }
        if a.local && a.element_type.is_none() && !counts.is_empty() {
            return Err(ApplyError::precondition(format!(
                "the element type of `{}` is unknown: polyc sees no declaration of the array it replaces",
                a.name
            )));
        }
    }
    Ok(())
}

/// What to try when `directive` (its name) changed what the program
/// computes.
pub fn changed_help(directive: &str) -> &'static str {
    match directive {
        "dimcontract" => {
            "contract an array only where each cell's writes and reads fall in one iteration: \
             fuse the loops that use it first"
        }
        "dimreorder" | "dimprivatize" => {
            "change the layout of a local copy instead: `add_array`, `replace_array` and \
             `datacopy` in and back, in one `group`"
        }
        "datacopy" => "copy in before the first read and back after the last write",
        _ => {
            "a copy keeps the values: `datacopy` the array into the new one before its first \
             read and back after its last write, in one `group` with the directive"
        }
    }
}

/// Why `difference` shows another result, in words, for a diagnostic.
pub fn describe(scop: &Scop, difference: &Difference) -> String {
    let instance = |s: usize, values: &[i64]| {
        let st = &scop.statements[s];
        let pairs: Vec<String> = st
            .iterators
            .iter()
            .zip(values)
            .map(|(n, v)| format!("{n} = {v}"))
            .collect();
        if pairs.is_empty() {
            st.name.clone()
        } else {
            format!("{} at {}", st.name, pairs.join(", "))
        }
    };
    match difference {
        Difference::Read {
            statement,
            access,
            instance: at,
        } => {
            let st = &scop.statements[*statement];
            let a = &st.accesses[*access];
            let text = subscripts::text(&st.body, &a.span, &a.array).unwrap_or_else(|| a.array.clone());
            format!(
                "the read `{text}` of {} would get another value than in the program before it",
                instance(*statement, at)
            )
        }
        Difference::Final {
            statement,
            array,
            instance: at,
            ..
        } => format!(
            "the value {} writes would no longer be, or would newly be, the final value of its cell of `{array}`",
            instance(*statement, at)
        ),
        Difference::Moved { array, cell } => format!(
            "a copy would leave in `{array}`{cell:?} the value another cell had before the region"
        ),
        Difference::CopyCycle { statement } => format!(
            "the copy {} reads, through other copies, what it writes itself",
            scop.statements[*statement].name
        ),
        Difference::Uninitialised {
            statement,
            array,
            instance: at,
        } => format!(
            "the copy {} would read a cell of `{array}` that holds no value yet (the program \
             before it never reads that cell before writing it)",
            instance(*statement, at)
        ),
    }
}
