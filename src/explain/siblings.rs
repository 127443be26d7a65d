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
/// marks (each window is rewritten and compared: the cost grows with it).
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
        // Siblings apart, each with its own steps after it (gemm's
        // `tile_band` then `skew` of the `j` loop, the same of the `k`
        // loop): a window put in the order of kinds, merged.
        let mut k = 0;
        while k < self.found.len() {
            let last = self.found.len().min(k + MAX_WINDOW);
            for end in (k + 3..=last).rev() {
                let n = self.found.len();
                let one = merged(&by_kind(&self.found[k..end]));
                self.replace_if_same(k, end, one)?;
                if self.found.len() < n {
                    break;
                }
            }
            k += 1;
        }
        Ok(())
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
        && with_beta(b, a.beta().to_vec()).is_some_and(|b| &b == a)
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
