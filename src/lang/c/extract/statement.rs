//! A walked statement as the model's [`Statement`]: its domain, accesses
//! and 2d+1 schedule as sets and relations over its iterators and the
//! parameters.

use super::RawStatement;
use crate::lang::c::affine::{
    lower_conjunction, Aff, Atom, Cond, DnfError, LowerError, Pw, MAX_DISJUNCTS,
};
use crate::poly::{BasicMap, BasicSet, Constraint, Map, Overflow, Set, Space, Tuple};
use crate::scop::schedule::{alpha_date, beta_date, date_count};
use crate::scop::{Access, Statement};
use crate::syntax::diagnostic::Diagnostic;

pub(super) fn build_statement(
    k: usize,
    raw: RawStatement,
    params: &[String],
) -> Result<Statement, Diagnostic> {
    let name = format!("S{k}");
    let n_par = params.len();
    let iters = raw.iterators.clone();
    let column = |a: &Atom| -> Option<usize> {
        match a {
            Atom::Name(n) => params
                .iter()
                .position(|p| p == n)
                .or_else(|| iters.iter().position(|i| i == n).map(|i| n_par + i)),
            Atom::Out(o) => Some(n_par + iters.len() + o),
            Atom::Floor(..) => None,
        }
    };
    let lower_err = |e: LowerError| match e {
        LowerError::Overflow => Diagnostic::error(
            "integer overflow while building the iteration domain",
            raw.span.clone(),
        ),
        other => Diagnostic::error(
            format!("internal: cannot lower {other:?}"),
            raw.span.clone(),
        ),
    };
    let over = |_| {
        Diagnostic::error(
            "integer overflow while building the iteration domain",
            raw.span.clone(),
        )
    };

    let dnf_err = |e: DnfError| {
        match e {
        DnfError::Overflow => over(Overflow),
        DnfError::TooManyDisjuncts => Diagnostic::error(
            format!("the conditions of this statement are too complex (more than {MAX_DISJUNCTS} cases)"),
            raw.span.clone(),
        )
        .with_label("its domain would be a union of too many pieces")
        .with_note("`!=`, `||`, `!` and `%` split a domain into pieces; each `if` multiplies them"),
    }
    };

    let space = Space::set(params.to_vec(), Some(name.clone()), iters.clone());
    let mut domain = Set::empty(space.clone());
    for conj in raw.domain.dnf().map_err(dnf_err)? {
        let mut b = BasicSet::universe(space.clone());
        // A piece with no integer point (`l % 2 != 0` has a piece for a
        // negative remainder, empty where `l >= 0`) is dropped: the union
        // is the same, and every later step handles fewer pieces. Exact
        // (the Omega test); a piece whose test gives up is kept.
        if lower_conjunction(&mut b, &conj, &column).map_err(lower_err)?
            && !b.is_empty().unwrap_or(false)
        {
            domain.push(b);
        }
    }

    let in_tuple = Tuple::new(Some(name.clone()), iters.clone());
    let mut accesses = Vec::new();
    for a in raw.accesses.iter().filter(|a| !params.contains(&a.array)) {
        let outs: Vec<String> = (0..a.subs.len()).map(|o| format!("o{o}")).collect();
        let mspace = Space::map(
            params.to_vec(),
            in_tuple.clone(),
            Tuple::new(Some(a.array.clone()), outs.clone()),
        );
        let mut all = iters.clone();
        all.extend(outs);
        let flat = Space::set(params.to_vec(), None, all);
        let mut conds = Vec::new();
        for (o, s) in a.subs.iter().enumerate() {
            let d = Pw::Aff(Aff::var(Atom::Out(o)))
                .add(&s.scale(-1).map_err(over)?)
                .map_err(over)?;
            conds.push(d.eq_zero().map_err(over)?);
        }
        let mut rel: Option<Map> = None;
        for conj in Cond::And(conds).dnf().map_err(dnf_err)? {
            let mut b = BasicSet::universe(flat.clone());
            if lower_conjunction(&mut b, &conj, &column).map_err(lower_err)? {
                let bm =
                    BasicMap::from_columns(mspace.clone(), b.n_local(), b.constraints().to_vec());
                match &mut rel {
                    Some(m) => m.push(bm),
                    None => rel = Some(Map::from_basic(bm)),
                }
            }
        }
        accesses.push(Access {
            kind: a.kind,
            array: a.array.clone(),
            relation: rel.unwrap_or_else(|| Map::empty(mspace)),
            span: a.span.clone(),
        });
    }

    // 2d+1 schedule: c_{2k} = beta_k, c_{2k+1} = sign_k * iterator_k.
    let d = iters.len();
    let outs: Vec<String> = (0..date_count(d)).map(|c| format!("c{c}")).collect();
    let sspace = Space::map(params.to_vec(), in_tuple, Tuple::new(None, outs));
    let mut schedule = BasicMap::universe(sspace.clone());
    let n_cols = n_par + d + date_count(d);
    for (c, &b) in raw.beta.iter().enumerate() {
        let mut row = vec![0; n_cols];
        row[sspace.out_col(beta_date(c))] = 1;
        schedule.add(Constraint::eq(row, -b));
        if c < d {
            let mut row = vec![0; n_cols];
            row[sspace.out_col(alpha_date(c + 1))] = 1;
            row[sspace.in_col(c)] = -raw.signs[c];
            schedule.add(Constraint::eq(row, 0));
        }
    }

    Ok(Statement {
        name,
        label: raw.label,
        iterators: iters,
        domain,
        accesses,
        schedule,
        body: raw.body,
        span: raw.span,
    })
}
