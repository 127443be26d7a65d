//! The C variable a loop counts with: the iterator the statements
//! already use for that date where one fits (so bodies print as
//! written), else a fresh `cK` that no parameter, array or iterator of
//! the region uses.

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
            // polyc's own iterators (`emit::pack`'s) never name a loop.
            let own = name.starts_with(super::super::POLYC_PREFIX);
            if agree && !used && !own {
                return (name.clone(), *sign, !self.outer_declared.contains(name));
            }
        }
        self.fresh_name(d, vals)
    }

    /// A name for a loop that no iterator names: a fresh `cK` (`K` the
    /// loop's depth), never one of the file's iterators, which would then
    /// count something else (a tile loop named `i` around the loop over
    /// `i`). An iterator the file declares and no loop uses any more gets
    /// `(void)&name;` instead (`emit::loops`).
    pub(super) fn fresh_name(&self, d: usize, vals: &[Val]) -> (String, i64, bool) {
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
