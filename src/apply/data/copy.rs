//! `datacopy`: a copy statement `copy[f] = original[f]` added to the
//! program and to the schedule, at the top level.

use super::super::{tree, ApplyError};
use crate::poly::{BasicMap, BasicSet, Constraint, Map, PolyError, Set, Space, Tuple};
use crate::scop::schedule::{beta_date, constant_date};
use crate::scop::{Access, AccessKind, Schedule, Scop, Statement, StatementSchedule};
use crate::syntax::c::{Expr, ExprKind};

/// Add the copy of `original` into `copy` over the domain of the statement
/// at `domain_of`, at the top level before (`before`) or after the node
/// `at[0]`, to `scop` (at the end of its statements, placed in the original
/// order next to that node's nests) and to `schedule`.
pub fn insert(
    scop: &mut Scop,
    schedule: &mut Schedule,
    copy: &str,
    original: &str,
    at: &[i64],
    before: bool,
    domain_of: &[i64],
) -> Result<(), ApplyError> {
    let Some(&node) = at.first() else {
        return Err(ApplyError::precondition(
            "datacopy: the β of the place to copy at is empty; give a top-level loop or statement, like [0]",
        ));
    };
    let pieces = tree::under(schedule, domain_of)?;
    let d = pieces[0].statement;
    if pieces.iter().any(|p| p.statement != d) {
        return Err(ApplyError::precondition(format!(
            "datacopy: the β {domain_of:?} holds several statements; give one statement's β for the copy's domain"
        )));
    }
    let source = scop.statements[d].clone();
    let Some(access) = source
        .accesses
        .iter()
        .find(|a| a.array == copy || a.array == original)
        .cloned()
    else {
        return Err(ApplyError::precondition(format!(
            "datacopy: statement {} accesses neither `{copy}` nor `{original}`; its access gives the copy's subscripts",
            source.name
        )));
    };
    let at_nodes = tree::under(schedule, &[node])?;
    // The copy's place in the original order: by the original top-level
    // nests of the statements of the node it is placed by.
    let original_tops: Vec<i64> = at_nodes
        .iter()
        .map(|p| constant_date(&scop.statements[p.statement].schedule, beta_date(0)))
        .collect::<Option<Vec<i64>>>()
        .ok_or(PolyError::SpaceMismatch {
            op: "datacopy (original β)",
        })?;
    let original_at = if before {
        original_tops.iter().copied().min()
    } else {
        original_tops
            .iter()
            .copied()
            .max()
            .and_then(|m| m.checked_add(1))
    }
    .ok_or(PolyError::Overflow)?;
    let n = scop.statements.len();
    let name = format!("S{n}");
    // The copy loops over the iterators the access uses; the others are
    // projected out of the domain (exactly, or the copy is refused).
    let used: Vec<usize> = (0..source.iterators.len())
        .filter(|&k| super::relation::uses_iterator(&access.relation, k))
        .collect();
    let iterators: Vec<String> = used.iter().map(|&k| source.iterators[k].clone()).collect();
    let domain = projected_domain(scop, &source, &used, &name)?;
    let relation_for = |array: &str| -> Result<Map, ApplyError> {
        let mut out: Option<Map> = None;
        for b in access.relation.basics() {
            let space = b.space();
            let (np, ni) = (space.n_param(), space.n_in());
            let keep: Vec<usize> = (0..np)
                .chain(used.iter().map(|&k| np + k))
                .chain(np + ni..b.n_cols())
                .collect();
            let rows = super::relation::pick_columns(b.constraints(), &keep);
            let space = Space::map(
                space.params.clone(),
                Tuple::new(Some(name.clone()), iterators.clone()),
                Tuple::new(Some(array.to_string()), space.output.dims.clone()),
            );
            let b = BasicMap::from_columns(space.clone(), b.n_local(), rows);
            out.get_or_insert_with(|| Map::empty(space)).push(b);
        }
        out.ok_or_else(|| ApplyError::precondition("datacopy: an access with no relation"))
    };
    let (write, read) = (relation_for(copy)?, relation_for(original)?);
    let renamed_to = |array: &str| {
        super::subscripts::edit(
            &source.body,
            &access.span,
            &access.array,
            &super::Edit::Rename(array.to_string()),
            &source.iterators,
        )
        .and_then(|b| super::subscripts::access(&b, &access.span, array))
    };
    let (Some(lhs), Some(rhs)) = (renamed_to(copy), renamed_to(original)) else {
        return Err(ApplyError::precondition(format!(
            "datacopy: the access of `{}` in {} is not one polyc can copy",
            access.array, source.name
        )));
    };
    let body = Expr {
        kind: ExprKind::Assign("=".into(), Box::new(lhs), Box::new(rhs)),
        span: access.span.clone(),
    };
    // Make room in the original order and in the schedule.
    for st in &mut scop.statements {
        if let Some(top) = constant_date(&st.schedule, beta_date(0)) {
            if top >= original_at {
                st.schedule = tree::set_constant_date(&st.schedule, beta_date(0), top + 1);
            }
        }
    }
    let place = if before { node } else { node + 1 };
    for st in &mut schedule.statements {
        for p in &mut st.pieces {
            if let Some(top) = constant_date(p, beta_date(0)) {
                if top >= place {
                    *p = tree::set_constant_date(p, beta_date(0), top + 1);
                }
            }
        }
    }
    schedule.statements.push(StatementSchedule {
        pieces: vec![nest_alone(&scop.params, &name, &iterators, place)],
        marks: vec![Vec::new(); iterators.len()],
    });
    scop.statements.push(Statement {
        name: name.clone(),
        label: None,
        iterators: iterators.clone(),
        domain,
        accesses: vec![
            Access {
                kind: AccessKind::Write,
                array: copy.to_string(),
                relation: write,
                span: access.span.clone(),
            },
            Access {
                kind: AccessKind::Read,
                array: original.to_string(),
                relation: read,
                span: access.span.clone(),
            },
        ],
        schedule: nest_alone(&scop.params, &name, &iterators, original_at),
        body,
        span: source.span.clone(),
    });
    Ok(())
}

/// The 2d+1 dates of a statement alone in a top-level nest at `top`:
/// `[top, i1, 0, …, id, 0]`.
fn nest_alone(params: &[String], name: &str, iterators: &[String], top: i64) -> BasicMap {
    let d = iterators.len();
    let n_dates = 2 * d + 1;
    let dates: Vec<String> = (0..n_dates).map(|k| format!("c{k}")).collect();
    let space = Space::map(
        params.to_vec(),
        Tuple::new(Some(name.to_string()), iterators.to_vec()),
        Tuple::new(None, dates),
    );
    let (np, width) = (params.len(), params.len() + d + n_dates);
    let mut rows = Vec::new();
    for t in 0..n_dates {
        let mut coeffs = vec![0; width];
        coeffs[np + d + t] = 1;
        let constant = if t == 0 {
            -top
        } else if t % 2 == 1 {
            coeffs[np + t / 2] = -1;
            0
        } else {
            0
        };
        rows.push(Constraint::eq(coeffs, constant));
    }
    BasicMap::from_columns(space, 0, rows)
}

/// The domain of `source` over the iterators `used`, named `name`: the
/// others projected out, exactly over the integers, or a refusal.
fn projected_domain(
    scop: &Scop,
    source: &Statement,
    used: &[usize],
    name: &str,
) -> Result<Set, ApplyError> {
    let space = Space::set(
        scop.params.clone(),
        Some(name.to_string()),
        used.iter().map(|&k| source.iterators[k].clone()).collect(),
    );
    let mut out = Set::empty(space.clone());
    for b in source.domain.basics() {
        // Move the used iterators first, then project the rest.
        let np = scop.params.len();
        let nd = source.iterators.len();
        let mut order: Vec<usize> = (0..np).collect();
        order.extend(used.iter().map(|&k| np + k));
        order.extend((0..nd).filter(|k| !used.contains(k)).map(|k| np + k));
        order.extend(np + nd..b.n_cols());
        let rows = super::relation::pick_columns(b.constraints(), &order);
        let all = Space::set(
            scop.params.clone(),
            None,
            (0..nd).map(|k| format!("x{k}")).collect(),
        );
        let moved = BasicSet::from_parts(all, b.n_local(), rows);
        let (projected, exact) = moved.project_out_rational(used.len(), nd - used.len())?;
        if !exact {
            return Err(ApplyError::precondition(format!(
                "datacopy: the loops of {} that the copied access does not use cannot be removed from its domain exactly",
                source.name
            ))
            .with_help("take the domain of a statement whose access of the array uses each of its loops"));
        }
        out.push(BasicSet::from_parts(
            space.clone(),
            0,
            projected.constraints().to_vec(),
        ));
    }
    Ok(out)
}
