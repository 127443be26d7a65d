//! Directives of a recovery that undo each other: a `shift` of a loop
//! and the opposite shift in the run of shifts after it, a `skew` and the
//! opposite skew right after it, both on the same statements (the tile
//! phase moves a point loop back to the date its strip reads, after the
//! loop phase moved it away). Both are dropped; the schedules after the
//! directives between them are rewritten again. Exact: shifts commute,
//! and the schedule after the pair is the one before it.

use super::{refused, ExplainError, Recovery};
use crate::apply::{self, Directive};

impl Recovery<'_> {
    /// Drops each `shift` with the one that undoes it in the run of
    /// `shift`s after it, and each `skew` with the one right after it that
    /// undoes it (the tile phase's shift or skew of a point loop back to
    /// the date its strip reads, after the loop phase's). Shifts commute,
    /// so the schedule at the end of the run is the same; those inside it
    /// are rewritten again.
    pub(super) fn drop_undone(&mut self) -> Result<(), ExplainError> {
        let is_shift = |d: &Directive| matches!(d, Directive::Shift { .. });
        let mut k = 0;
        while k < self.found.len() {
            let reach = match is_shift(&self.found[k]) {
                true => self.found[k + 1..]
                    .iter()
                    .take_while(|d| is_shift(d))
                    .count(),
                false => 1,
            };
            let run = self.found[k + 1..]
                .iter()
                .take(reach)
                .position(|d| undoes(&self.found[k], d));
            let addressed = |at: usize| {
                let beta = directive_beta(&self.found[at]);
                self.after[at]
                    .statements
                    .iter()
                    .map(|st| st.beta(0).is_some_and(|b| b.starts_with(beta)))
                    .collect::<Vec<bool>>()
            };
            let Some(j) = run
                .map(|j| k + 1 + j)
                .filter(|&j| addressed(k) == addressed(j))
            else {
                k += 1;
                continue;
            };
            self.found.remove(j);
            self.found.remove(k);
            self.after.drain(k..j);
            self.after.remove(k);
            let mut schedule = match k {
                0 => self.start.clone(),
                _ => self.after[k - 1].clone(),
            };
            let mut redone = Vec::new();
            for d in &self.found[k..j - 1] {
                schedule = apply::rewrite(self.scop, self.deps, &schedule, d)
                    .map_err(|e| refused(d, e))?;
                redone.push(schedule.clone());
            }
            self.after.splice(k..k, redone);
        }
        Ok(())
    }
}

/// Whether `d` undoes `before` where both address the same statements:
/// two `shift`s of the same depth by opposite amounts, or two `skew`s of
/// the same depth by the same other by opposite factors.
fn undoes(before: &Directive, d: &Directive) -> bool {
    match (before, d) {
        (
            Directive::Skew {
                depth,
                other,
                factor,
                ..
            },
            Directive::Skew {
                depth: e,
                other: o,
                factor: f,
                ..
            },
        ) => (depth, other) == (e, o) && factor.checked_add(*f) == Some(0),
        (
            Directive::Shift {
                depth,
                params,
                constant,
                ..
            },
            Directive::Shift {
                depth: e,
                params: p,
                constant: c,
                ..
            },
        ) => {
            depth == e
                && params.len() == p.len()
                && params
                    .iter()
                    .zip(p)
                    .all(|(x, y)| x.checked_add(*y) == Some(0))
                && constant.checked_add(*c) == Some(0)
        }
        _ => false,
    }
}

/// The β-vector a `shift` or a `skew` addresses (empty for the others).
fn directive_beta(d: &Directive) -> &[i64] {
    match d {
        Directive::Shift { beta, .. } | Directive::Skew { beta, .. } => beta,
        _ => &[],
    }
}
