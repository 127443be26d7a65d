//! The C variable a loop counts with: the iterator the statements
//! already use for that date where one fits (so bodies print as
//! written), else a fresh name that no parameter, array or iterator of the
//! region uses.

use super::{Scanner, Val};

impl Scanner<'_> {
    /// The loop variable of date `d`: the iterator that every item's date
    /// equals (with its sign), unless an enclosing loop already uses that
    /// name; else a fresh `cK`.
    pub(super) fn loop_name(&self, kept: &[usize], d: usize, vals: &[Val]) -> (String, i64, bool) {
        let names: Vec<Option<(String, i64)>> = kept
            .iter()
            .map(|&i| {
                let it = &self.items[i];
                it.alias[d].and_then(|(k, s)| {
                    self.scop.statements[it.statement]
                        .iterators
                        .get(k)
                        .map(|n| (n.clone(), s))
                })
            })
            .collect();
        if let Some(Some((name, sign))) = names.first() {
            let agree = names
                .iter()
                .all(|x| x.as_ref() == Some(&(name.clone(), *sign)));
            let used = vals
                .iter()
                .any(|v| matches!(v, Val::Var { name: n, .. } if n == name));
            if agree && !used {
                return (name.clone(), *sign, !self.outer_declared.contains(name));
            }
        }
        self.fresh_name(kept, d, vals)
    }

    /// A name for a loop that no iterator names: an iterator of the loop's
    /// statements that the file declares, no enclosing loop uses and no
    /// loop further in will be named after (so the declaration stays
    /// used); else a fresh `cK`.
    pub(super) fn fresh_name(&self, kept: &[usize], d: usize, vals: &[Val]) -> (String, i64, bool) {
        let in_use = |n: &str| {
            vals.iter()
                .any(|v| matches!(v, Val::Var { name, .. } if name == n))
        };
        for &i in kept {
            let st = &self.scop.statements[self.items[i].statement];
            for (k, it) in st.iterators.iter().enumerate() {
                let wanted_later = kept.iter().any(|&j| {
                    let other = &self.items[j];
                    self.scop.statements[other.statement].iterators.get(k) == Some(it)
                        && other.alias[d + 1..]
                            .iter()
                            .any(|a| a.is_some_and(|(x, _)| x == k))
                });
                if self.outer_declared.contains(it) && !in_use(it) && !wanted_later {
                    return (it.clone(), 1, false);
                }
            }
        }
        let mut name = format!("c{}", d.div_ceil(2));
        while self.taken.contains(&name)
            || vals
                .iter()
                .any(|v| matches!(v, Val::Var { name: n, .. } if *n == name))
        {
            name.push('_');
        }
        (name, 1, true)
    }
}
