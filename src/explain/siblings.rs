//! Directives of a recovery that do the same to sibling loops, one per
//! loop, merged into one directive on the β prefix they share: a
//! directive addresses every loop at its depth under its β-vector, so
//! `vectorize([0, 0], 2); vectorize([0, 1], 2);` is `vectorize([0], 2);`
//! where no other loop at depth 2 is under `[0]`. The marks phase gives
//! its directives loop by loop; they are put in the order of their kinds
//! first (marks on different loops do not act on each other), and so are
//! a few directives in a row where that brings siblings together. Exact: a
//! merge is kept only where the schedule after it is the one the
//! directives it replaces gave (equal relations and marks).

use super::{difference, ExplainError, Recovery};
use crate::apply::{self, Directive};

/// The most directives put in the order of their kinds at once, past the
/// marks (a window that merges is rewritten and compared).
const MAX_WINDOW: usize = 8;

impl Recovery<'_> {
    /// Merges sibling directives: the marks from `marks_from` on, put in
    /// the order of their kinds, then every run of consecutive siblings,
    /// then siblings apart within a few directives, where putting those
    /// in the order of their kinds gives the same schedule.
    pub(super) fn merge_siblings(&mut self, marks_from: usize) -> Result<(), ExplainError> {
        let end = self.found.len();
        if end > marks_from + 1 {
            let marks = by_kind(&self.found[marks_from..]);
            self.replace_if_same(marks_from, end, merged(&marks))?;
        }
        self.merge_runs()?;
        // Siblings apart, each with its own steps after it (gemm's
        // `tile_band` then `skew` of the `j` loop, the same of the `k`
        // loop): a window put in the order of kinds, merged. Not marks:
        // they were put in that order as a whole. The window ends at the
        // last sibling of its first directive within reach; tried only
        // where each sibling leaves alone the statements of the
        // directives it moves before, and they address together every
        // statement under the prefix they share (cheap checks; the
        // merge's own is exact).
        let mut k = 0;
        while k < self.found.len() {
            let first = &self.found[k];
            let last = self.found.len().min(k + MAX_WINDOW);
            let found: Vec<usize> = match is_mark(first) {
                true => Vec::new(),
                false => (k + 2..last)
                    .filter(|&j| siblings(first, &self.found[j]))
                    .collect(),
            };
            if let Some(&end) = found.last() {
                let mut addressed = self.under(k);
                let mut apart = true;
                for &j in &found {
                    let moved = self.under(j);
                    for x in (k + 1..j).filter(|x| !found.contains(x)) {
                        let other = self.under(x);
                        let disjoint = moved.iter().zip(&other).all(|(&a, &b)| !(a && b));
                        apart &= disjoint || commute(&self.found[j], &self.found[x]);
                    }
                    for (a, m) in addressed.iter_mut().zip(moved) {
                        *a |= m;
                    }
                }
                let beta = first.beta();
                let shared = found.iter().fold(beta.len(), |n, &j| {
                    let b = self.found[j].beta();
                    n.min(beta.iter().zip(b).take_while(|(x, y)| x == y).count())
                });
                let covered = self.after[end]
                    .statements
                    .iter()
                    .zip(&addressed)
                    .all(|(st, &a)| {
                        a || !st.beta(0).is_some_and(|b| b.starts_with(&beta[..shared]))
                    });
                if apart && covered {
                    let one = merged(&by_kind(&self.found[k..=end]));
                    self.replace_if_same(k, end + 1, one)?;
                }
            }
            k += 1;
        }
        // The window may leave siblings side by side (jacobi-2d's two
        // `interchange`s after the `stripmine`s merged).
        self.merge_runs()
    }

    /// Merges every run of consecutive siblings where that gives the same
    /// schedule.
    fn merge_runs(&mut self) -> Result<(), ExplainError> {
        let mut k = 0;
        while k < self.found.len() {
            let run = self.found[k + 1..]
                .iter()
                .take_while(|d| siblings(&self.found[k], d))
                .count();
            if run > 0 {
                let one = merged(&self.found[k..=k + run]);
                self.replace_if_same(k, k + run + 1, one)?;
            }
            k += 1;
        }
        Ok(())
    }

    /// Which statements lie under `found[at]`'s β-vector, by the schedule
    /// after it.
    pub(super) fn under(&self, at: usize) -> Vec<bool> {
        let beta = self.found[at].beta();
        self.after[at]
            .statements
            .iter()
            .map(|st| st.beta(0).is_some_and(|b| b.starts_with(beta)))
            .collect()
    }

    /// Replaces `found[from..to]` with `shorter` where it is shorter,
    /// every directive of it is rewritten, and the schedule after it is
    /// the one after `found[to − 1]`.
    pub(super) fn replace_if_same(
        &mut self,
        from: usize,
        to: usize,
        shorter: Vec<Directive>,
    ) -> Result<(), ExplainError> {
        if shorter.len() >= to - from {
            return Ok(());
        }
        let mut schedule = match from {
            0 => self.start.clone(),
            _ => self.after[from - 1].clone(),
        };
        let mut after = Vec::new();
        for d in &shorter {
            match apply::rewrite(self.scop, self.deps, &schedule, d) {
                Ok(next) => schedule = next,
                Err(_) => return Ok(()),
            }
            after.push(schedule.clone());
        }
        if difference(self.scop, &schedule, &self.after[to - 1])?.is_some() {
            return Ok(());
        }
        self.found.splice(from..to, shorter);
        self.after.splice(from..to, after);
        Ok(())
    }
}

/// Whether `a` and `b`, two `skew`s or `shift`s, commute on the same
/// statements: neither reads the date the other writes (two that write
/// one date both add to it). A cheap check; the merge that relies on it
/// is checked exactly.
fn commute(a: &Directive, b: &Directive) -> bool {
    let access = |d: &Directive| match d {
        Directive::Skew { depth, other, .. } => Some((*depth, Some(*other))),
        Directive::Shift { depth, .. } => Some((*depth, None)),
        _ => None,
    };
    match (access(a), access(b)) {
        (Some((wa, ra)), Some((wb, rb))) => ra != Some(wb) && rb != Some(wa),
        _ => false,
    }
}

/// Whether `d` only marks loops (the marks are put in the order of their
/// kinds as a whole, above).
fn is_mark(d: &Directive) -> bool {
    matches!(
        d,
        Directive::UnrollJam { .. }
            | Directive::Parallelize { .. }
            | Directive::Vectorize { .. }
            | Directive::MapGpu { .. }
            | Directive::Pack { .. }
    )
}

/// `ds` with each sibling of an earlier directive moved right after the
/// last of its kind so far (kinds in the order they first come).
fn by_kind(ds: &[Directive]) -> Vec<Directive> {
    let mut classes: Vec<Vec<Directive>> = Vec::new();
    for d in ds {
        match classes.iter_mut().find(|c| siblings(&c[0], d)) {
            Some(c) => c.push(d.clone()),
            None => classes.push(vec![d.clone()]),
        }
    }
    classes.concat()
}

/// `ds` with each run of consecutive siblings as one directive on the
/// prefix their β-vectors share.
fn merged(ds: &[Directive]) -> Vec<Directive> {
    let mut out: Vec<Directive> = Vec::new();
    let mut k = 0;
    while k < ds.len() {
        let run = ds[k + 1..]
            .iter()
            .take_while(|d| siblings(&ds[k], d))
            .count();
        let prefix = ds[k + 1..=k + run].iter().fold(ds[k].beta(), |p, d| {
            let shared = p.iter().zip(d.beta()).take_while(|(a, b)| a == b).count();
            &p[..shared]
        });
        out.push(with_beta(&ds[k], prefix.to_vec()).unwrap_or_else(|| ds[k].clone()));
        k += run + 1;
    }
    out
}

/// Whether `a` and `b` are the same directive on different loops: of a
/// kind that acts on every loop its β-vector addresses at its depth,
/// with β-vectors of one length, equal but for them.
fn siblings(a: &Directive, b: &Directive) -> bool {
    a.beta() != b.beta()
        && a.beta().len() == b.beta().len()
        && with_beta(b, a.beta().to_vec()).is_some_and(|b| as_strip(&b) == as_strip(a))
}

/// `d`, where it is a `tile_band` of one loop, as the `stripmine` it is
/// (the tile phase reads a band of one loop where it can, and a strip
/// alone where a statement has more tiles: two pieces' strips of one
/// loop may come back as one of each).
fn as_strip(d: &Directive) -> Directive {
    match d {
        Directive::TileBand { beta, depth, sizes } if sizes.len() == 1 => Directive::Stripmine {
            beta: beta.clone(),
            depth: *depth,
            size: sizes[0],
        },
        d => d.clone(),
    }
}

/// `d` on the β-vector `beta`, for the kinds that act on every loop at
/// their depth under it (not `unroll`, whose β-vector is its loop's, nor
/// the directives on statements or on the loop tree).
fn with_beta(d: &Directive, beta: Vec<i64>) -> Option<Directive> {
    let mut d = d.clone();
    match &mut d {
        Directive::Interchange { beta: b, .. }
        | Directive::Reverse { beta: b, .. }
        | Directive::Skew { beta: b, .. }
        | Directive::Shift { beta: b, .. }
        | Directive::Stripmine { beta: b, .. }
        | Directive::Tile { beta: b, .. }
        | Directive::TileBand { beta: b, .. }
        | Directive::Grain { beta: b, .. }
        | Directive::UnrollJam { beta: b, .. }
        | Directive::Parallelize { beta: b, .. }
        | Directive::Vectorize { beta: b, .. }
        | Directive::MapGpu { beta: b, .. }
        | Directive::Pack { beta: b, .. } => *b = beta,
        _ => return None,
    }
    Some(d)
}
