//! Queries on the program as the script has transformed it so far:
//! `statements()`, `loops()`, `parameters()`, `dependences()` and
//! `schedule()` (the `--emit schedule-text` form). Each returns fresh
//! rhai values; changing them changes nothing in the program.

use std::collections::BTreeMap;

use rhai::{Array, Dynamic, Engine, Map};

use crate::scop::{DepKind, Mark};

use super::shared::Shared;

/// Register the queries.
pub fn register(engine: &mut Engine, session: &Shared) {
    let s = session.clone();
    engine.register_fn("statements", move || statements(&s));
    let s = session.clone();
    engine.register_fn("loops", move || loops(&s));
    let s = session.clone();
    engine.register_fn("parameters", move || -> Array {
        s.borrow()
            .state
            .scop
            .params
            .iter()
            .map(|p| p.clone().into())
            .collect()
    });
    let s = session.clone();
    engine.register_fn("dependences", move || dependences(&s));
    let s = session.clone();
    engine.register_fn("schedule", move || -> String {
        let s = s.borrow();
        s.state.schedule.to_text(&s.state.scop)
    });
}

fn ints(v: &[i64]) -> Dynamic {
    v.iter()
        .map(|&x| Dynamic::from_int(x))
        .collect::<Array>()
        .into()
}

fn int(v: usize) -> Dynamic {
    Dynamic::from_int(i64::try_from(v).unwrap_or(i64::MAX))
}

fn strings<'a>(v: impl IntoIterator<Item = &'a String>) -> Dynamic {
    v.into_iter()
        .map(|x| Dynamic::from(x.clone()))
        .collect::<Array>()
        .into()
}

/// `#{name, label, beta, betas, iterators, depth}` per statement, in
/// textual order.
fn statements(session: &Shared) -> Array {
    let s = session.borrow();
    let (scop, schedule) = (&s.state.scop, &s.state.schedule);
    scop.statements
        .iter()
        .zip(&schedule.statements)
        .map(|(st, sched)| {
            let betas: Vec<Vec<i64>> = (0..sched.pieces.len())
                .filter_map(|p| sched.beta(p))
                .collect();
            let mut m = Map::new();
            m.insert("name".into(), st.name.clone().into());
            m.insert(
                "label".into(),
                st.label.clone().map_or(Dynamic::UNIT, Dynamic::from),
            );
            m.insert(
                "beta".into(),
                betas.first().map_or(Dynamic::UNIT, |b| ints(b)),
            );
            m.insert(
                "betas".into(),
                betas.iter().map(|b| ints(b)).collect::<Array>().into(),
            );
            m.insert("iterators".into(), strings(&st.iterators));
            m.insert("depth".into(), int(sched.depth()));
            m.into()
        })
        .collect()
}

/// `#{beta, depth, statements, parallel, vector}` per loop, in β order.
fn loops(session: &Shared) -> Array {
    let s = session.borrow();
    let (scop, schedule) = (&s.state.scop, &s.state.schedule);
    #[derive(Default)]
    struct Loop {
        statements: Vec<String>,
        parallel: bool,
        vector: bool,
    }
    let mut found: BTreeMap<Vec<i64>, Loop> = BTreeMap::new();
    for (st, sched) in scop.statements.iter().zip(&schedule.statements) {
        for p in 0..sched.pieces.len() {
            let Some(beta) = sched.beta(p) else { continue };
            for k in 1..=sched.depth() {
                let l = found.entry(beta[..k].to_vec()).or_default();
                if !l.statements.contains(&st.name) {
                    l.statements.push(st.name.clone());
                }
                let marks = sched.marks.get(k - 1).map(Vec::as_slice).unwrap_or(&[]);
                l.parallel |= marks.contains(&Mark::Parallel);
                l.vector |= marks.contains(&Mark::Vector);
            }
        }
    }
    found
        .into_iter()
        .map(|(beta, l)| {
            let mut m = Map::new();
            m.insert("depth".into(), int(beta.len()));
            m.insert("beta".into(), ints(&beta));
            m.insert("statements".into(), strings(&l.statements));
            m.insert("parallel".into(), l.parallel.into());
            m.insert("vector".into(), l.vector.into());
            m.into()
        })
        .collect()
}

/// `#{kind, source, target, array, depth, loop_independent, distance}` per
/// dependence (memory-based, of the original program; `distance` is `()`
/// when it is not uniform).
fn dependences(session: &Shared) -> Array {
    let s = session.borrow();
    let scop = &s.state.scop;
    s.state
        .deps
        .iter()
        .map(|d| {
            let mut m = Map::new();
            let kind = match d.kind {
                DepKind::Raw => "RAW",
                DepKind::War => "WAR",
                DepKind::Waw => "WAW",
                DepKind::Rar => "RAR",
            };
            m.insert("kind".into(), kind.into());
            m.insert(
                "source".into(),
                scop.statements[d.source].name.clone().into(),
            );
            m.insert(
                "target".into(),
                scop.statements[d.target].name.clone().into(),
            );
            m.insert("array".into(), d.array.clone().into());
            m.insert("depth".into(), int(d.depth));
            m.insert("loop_independent".into(), d.is_loop_independent().into());
            m.insert(
                "distance".into(),
                d.distance.as_deref().map_or(Dynamic::UNIT, ints),
            );
            m.into()
        })
        .collect()
}
