//! Directives that change the shape of a loop without reordering its
//! iterations: `grain` (spread them out by a factor), `linearize` (undo a
//! strip-mine), `embed` and `unembed` (a loop of one iteration around a
//! statement).

use super::dates::{date_factor, drop_dates, insert_dates, with_date_row};
use super::tree::{under, PieceRef};
use super::{check_depth, rewrite_pieces, ApplyError};
use crate::poly::{gcd_of, BasicMap, Constraint};
use crate::scop::schedule::{alpha_date, beta_date, constant_date, Mark};
use crate::scop::Schedule;

/// `α_depth := factor·α_depth`: the loop runs on multiples of `factor`.
pub fn grain(
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
    factor: i64,
) -> Result<Schedule, ApplyError> {
    let targets = under(schedule, beta)?;
    check_depth(schedule, &targets, depth, "grain")?;
    if factor < 1 {
        return Err(ApplyError::precondition(format!(
            "grain: the factor must be at least 1, not {factor}"
        )));
    }
    let factor_u32 = u32::try_from(factor).unwrap_or(u32::MAX);
    let mut next = rewrite_pieces(schedule, &targets, |p| {
        // The old date becomes a local `e`, and the new date is `factor·e`.
        let mut out = p.clone();
        let e = out.add_local();
        let col = p.space().out_col(alpha_date(depth));
        let mut rows: Vec<Constraint> = out.constraints().to_vec();
        for r in &mut rows {
            r.coeffs[e] = r.coeffs[col];
            r.coeffs[col] = 0;
        }
        let mut def = vec![0; out.n_cols()];
        def[col] = 1;
        def[e] = -factor;
        rows.push(Constraint::eq(def, 0));
        Ok(BasicMap::from_columns(
            p.space().clone(),
            out.n_local(),
            rows,
        ))
    })?;
    rescale_safelen(&mut next, &targets, depth, |_, n| {
        n.saturating_mul(factor_u32)
    });
    Ok(next)
}

/// Rescale the `safelen` (in dates) of the loop at `depth` of each
/// statement whose pieces are all in `targets`, by `scale(statement, n)`:
/// `grain` and `densify` stretch or shrink the dates of the loop, and the
/// distances of the dependences it carries with them, so the mark given
/// by `vectorize` before still says as many iterations. A `safelen` too
/// large for the loop after all (a statement whose pieces were scaled
/// apart) is refused by the mark check after the directive, as any is;
/// rounding down is sound.
fn rescale_safelen(
    schedule: &mut Schedule,
    targets: &[PieceRef],
    depth: usize,
    scale: impl Fn(usize, u32) -> u32,
) {
    for (statement, st) in schedule.statements.iter_mut().enumerate() {
        let taken = targets.iter().filter(|t| t.statement == statement).count();
        if taken == 0 || taken != st.pieces.len() {
            continue;
        }
        if let Some(marks) = st.marks.get_mut(depth - 1) {
            for m in marks.iter_mut() {
                if let Mark::Safelen(n) = m {
                    *n = scale(statement, *n).max(1);
                }
            }
        }
    }
}

/// Wrap each statement under `beta` in an innermost loop of one
/// iteration: dates `[…, βd]` become `[…, βd, 0, 0]`.
pub fn embed(schedule: &Schedule, beta: &[i64]) -> Result<Schedule, ApplyError> {
    let targets = under(schedule, beta)?;
    whole_statements(schedule, &targets, "embed")?;
    // Clay's `CLAY_BETA_IS_STMT`: embed wraps one statement, not a loop.
    if targets.iter().any(|t| {
        schedule.statements[t.statement]
            .beta(t.piece)
            .is_some_and(|b| b.len() != beta.len())
    }) {
        return Err(ApplyError::precondition(format!(
            "embed: the β-vector {beta:?} is not a statement: it names a loop"
        ))
        .with_help(
            "embed wraps one statement in a loop of one iteration; give its full β-vector",
        ));
    }
    let mut next = rewrite_pieces(schedule, &targets, |p| {
        let n = p.space().n_out();
        let p = insert_dates(p, n, 2);
        let p = with_date_row(&p, &[(n, 1)], 0, true);
        Ok(with_date_row(&p, &[(n + 1, 1)], 0, true))
    })?;
    let mut statements: Vec<usize> = targets.iter().map(|t| t.statement).collect();
    statements.dedup();
    for s in statements {
        next.statements[s].marks.push(Vec::new());
    }
    Ok(next)
}

/// Remove the innermost loop of each statement under `beta` when it runs
/// one iteration (its date is a constant): the inverse of `embed`.
pub fn unembed(schedule: &Schedule, beta: &[i64]) -> Result<Schedule, ApplyError> {
    let targets = under(schedule, beta)?;
    whole_statements(schedule, &targets, "unembed")?;
    for t in &targets {
        let st = &schedule.statements[t.statement];
        let depth = st.depth();
        let piece = &st.pieces[t.piece];
        let n = piece.space().n_out();
        if depth == 0 || n < 3 {
            // No loop at all (seed 13 once pack joined the tester: a
            // statement outside every loop): nothing to remove.
            return Err(ApplyError::precondition(format!(
                "unembed: statement S{} is in no loop",
                t.statement
            ))
            .with_help("unembed undoes embed; it removes a loop of one iteration"));
        }
        let cols = [piece.space().out_col(n - 2), piece.space().out_col(n - 1)];
        // Only the two constant definitions may mention the dropped dates.
        let only_definitions = piece.constraints().iter().all(|r| {
            let mentions = cols.iter().filter(|&&c| r.coeffs[c] != 0).count();
            mentions == 0
                || (mentions == 1
                    && r.kind == crate::poly::ConstraintKind::Eq
                    && r.coeffs.iter().filter(|&&v| v != 0).count() == 1)
        });
        if depth == 0 || constant_date(piece, alpha_date(depth)).is_none() || !only_definitions {
            return Err(ApplyError::precondition(format!(
                "unembed: the innermost loop of statement S{} is not a loop of one iteration",
                t.statement
            ))
            .with_help(
                "unembed undoes embed; it removes only a loop whose counter is a constant",
            ));
        }
        // The statement takes its loop's β-vector: the loop must hold it alone.
        let beta = st.beta(t.piece).unwrap_or_default();
        let around = &beta[..beta.len().saturating_sub(1)];
        if let Some(other) = under(schedule, around)?
            .iter()
            .find(|u| u.statement != t.statement)
        {
            return Err(ApplyError::precondition(format!(
                "unembed: the loop around statement S{} (β {around:?}) holds statement S{} too",
                t.statement, other.statement
            ))
            .with_help("unembed removes a loop that holds one statement; `split` it out first"));
        }
    }
    let mut next = rewrite_pieces(schedule, &targets, |p| {
        let n = p.space().n_out();
        Ok(drop_dates(p, n - 2, 2))
    })?;
    let mut statements: Vec<usize> = targets.iter().map(|t| t.statement).collect();
    statements.dedup();
    for s in statements {
        next.statements[s].marks.pop();
    }
    Ok(next)
}

/// Undo `stripmine(beta, depth, s)`: the loop at `depth` (the tiles) and
/// the β after it go away; the loop at `depth + 1` keeps the iterations.
pub fn linearize(schedule: &Schedule, beta: &[i64], depth: usize) -> Result<Schedule, ApplyError> {
    let targets = under(schedule, beta)?;
    check_depth(schedule, &targets, depth, "linearize")?;
    check_depth(schedule, &targets, depth + 1, "linearize")?;
    whole_statements(schedule, &targets, "linearize")?;
    for t in &targets {
        let piece = &schedule.statements[t.statement].pieces[t.piece];
        if constant_date(piece, beta_date(depth)) != Some(0) {
            return Err(ApplyError::precondition(format!(
                "linearize: the loop at depth {depth} of statement S{} has more than one child loop",
                t.statement
            ))
            .with_help("linearize merges a tile loop with the single loop inside it, as stripmine made them"));
        }
    }
    let mut next = rewrite_pieces(schedule, &targets, |p| {
        // The tile date becomes a local (it is a function of the point
        // date, so the set is unchanged), then both dates go.
        let mut out = p.clone();
        let e = out.add_local();
        let col = p.space().out_col(alpha_date(depth));
        let mut rows = out.constraints().to_vec();
        for r in &mut rows {
            r.coeffs[e] = r.coeffs[col];
            r.coeffs[col] = 0;
        }
        let out = BasicMap::from_columns(p.space().clone(), out.n_local(), rows);
        Ok(drop_dates(&out, alpha_date(depth), 2))
    })?;
    let mut statements: Vec<usize> = targets.iter().map(|t| t.statement).collect();
    statements.dedup();
    for s in statements {
        next.statements[s].marks.remove(depth - 1);
    }
    Ok(next)
}

/// A directive that changes the number of dates must take every piece of
/// each statement it touches.
pub(super) fn whole_statements(
    schedule: &Schedule,
    targets: &[PieceRef],
    what: &str,
) -> Result<(), ApplyError> {
    for t in targets {
        let all = schedule.statements[t.statement].pieces.len();
        let taken = targets
            .iter()
            .filter(|u| u.statement == t.statement)
            .count();
        if taken != all {
            return Err(ApplyError::precondition(format!(
                "{what}: statement S{} is split in {all} pieces (iss) and only {taken} of them {} under this β-vector",
                t.statement,
                if taken == 1 { "is" } else { "are" }
            ))
            .with_help("apply it to a β-vector above the split, or before the split"));
        }
    }
    Ok(())
}

/// Undo `grain`: when every value of `α_depth` is a multiple of some
/// `k > 1` (its defining equality has all other terms divisible by `k`),
/// `α_depth := α_depth / k`.
pub fn densify(schedule: &Schedule, beta: &[i64], depth: usize) -> Result<Schedule, ApplyError> {
    let targets = under(schedule, beta)?;
    check_depth(schedule, &targets, depth, "densify")?;
    let mut next = rewrite_pieces(schedule, &targets, |p| {
        let col = p.space().out_col(alpha_date(depth));
        let k = date_factor(p, depth);
        if k < 2 {
            return Err(ApplyError::precondition(format!(
                "densify: the loop at depth {depth} does not run on multiples of a factor"
            ))
            .with_help("densify undoes grain"));
        }
        // Old date = k·new date: scale the date's column.
        let mut rows = p.constraints().to_vec();
        for r in &mut rows {
            r.coeffs[col] = r.coeffs[col]
                .checked_mul(k)
                .ok_or(crate::poly::PolyError::Overflow)?;
            // `k·c' = k·e` reads better as `c' = e`.
            let g = gcd_of(r.coeffs.iter().copied().chain([r.constant])).unwrap_or(1);
            if r.kind == crate::poly::ConstraintKind::Eq && g > 1 {
                r.coeffs.iter_mut().for_each(|v| *v /= g);
                r.constant /= g;
            }
        }
        Ok(BasicMap::from_columns(p.space().clone(), p.n_local(), rows))
    })?;
    // The largest factor of each statement's pieces divides its `safelen`.
    let mut factors = vec![1i64; schedule.statements.len()];
    for t in &targets {
        let piece = &schedule.statements[t.statement].pieces[t.piece];
        let k = date_factor(piece, depth);
        factors[t.statement] = factors[t.statement].max(k);
    }
    rescale_safelen(&mut next, &targets, depth, |statement, n| {
        u32::try_from(i64::from(n) / factors[statement]).unwrap_or(1)
    });
    Ok(next)
}

/// `α_depth := α_depth + amount·i`, `i` the statement's iterator number
/// `iterator` (1-based): the loop now also depends on that iterator.
pub fn reshape(
    schedule: &Schedule,
    beta: &[i64],
    depth: usize,
    iterator: usize,
    amount: i64,
) -> Result<Schedule, ApplyError> {
    let targets = under(schedule, beta)?;
    check_depth(schedule, &targets, depth, "reshape")?;
    for t in &targets {
        let n_in = schedule.statements[t.statement].pieces[t.piece]
            .space()
            .n_in();
        if iterator == 0 || iterator > n_in {
            return Err(ApplyError::precondition(format!(
                "reshape: statement S{} has {n_in} iterators; iterator {iterator} does not exist (they are numbered from 1)",
                t.statement
            )));
        }
    }
    // Clay's sign: α_depth := α_depth − amount·iterator.
    rewrite_pieces(schedule, &targets, |p| {
        let input = p.space().in_col(iterator - 1);
        Ok(super::dates::substitute_date(
            p,
            alpha_date(depth),
            &[],
            &[(input, amount)],
            0,
        )?)
    })
}
