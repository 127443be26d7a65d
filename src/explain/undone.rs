//! Directives of a recovery that undo each other: two in a row that give
//! back the schedule before them (a `fuse` and the `split` after it,
//! written alike), and a `shift` or `skew` of
//! a loop and the opposite one later, both on the same statements, with
//! only directives between that commute with it (other `shift`s, or
//! directives that leave those statements as they were): the tile phase
//! moves a point loop back to the date its strip reads, after the loop
//! phase moved it away. Both are dropped; the schedules after the
//! directives between them are rewritten again. A `shift` or `skew` on
//! loops several statements' loops share, undone later on some of them,
//! is first given on each loop one level in, where that drops pairs.
//! Exact: the pair is dropped only where the schedule after it comes out
//! the same.

use super::{refused, ExplainError, Recovery};
use crate::apply::{self, Directive};
use crate::scop::Schedule;

impl Recovery<'_> {
    /// Drops each `shift` or `skew` with the later one that undoes it on
    /// the same statements, where every directive between them is a
    /// `shift` (shifts commute) or leaves those statements' schedules as
    /// they were (the tile phase's move of a point loop back to the date
    /// its strip reads, after the loop phase moved it away; a `tile_band`
    /// of another loop may come between). The directives between are
    /// rewritten again, and the pair is dropped only where the schedule
    /// after it comes out the same (exact).
    pub(super) fn drop_undone(&mut self) -> Result<(), ExplainError> {
        let mut k = 0;
        while k < self.found.len() {
            // Two directives in a row that give back the schedule before
            // them (a `fuse` and the `split` after it), written alike.
            if k + 1 < self.found.len() && self.before(k) == &self.after[k + 1] {
                self.found.drain(k..k + 2);
                self.after.drain(k..k + 2);
                k = k.saturating_sub(1);
                continue;
            }
            let dropped = match self.undone_by(k) {
                Some(j) => self.drop_pair(k, j)?,
                None => self.undone_in_parts(k)?,
            };
            if !dropped {
                k += 1;
            }
        }
        Ok(())
    }

    /// Drops `found[k]` and `found[j]` (`j > k`), the directives between
    /// rewritten again; whether the schedule after them came out the same
    /// (else nothing is changed).
    fn drop_pair(&mut self, k: usize, j: usize) -> Result<bool, ExplainError> {
        let (found, after) = (self.found.clone(), self.after.clone());
        self.found.remove(j);
        self.found.remove(k);
        self.after.drain(k..j);
        self.after.remove(k);
        let mut schedule = self.before(k).clone();
        let mut redone = Vec::new();
        for d in &self.found[k..j - 1] {
            schedule =
                apply::rewrite(self.scop, self.deps, &schedule, d).map_err(|e| refused(d, e))?;
            redone.push(schedule.clone());
        }
        self.after.splice(k..k, redone);
        if super::difference(self.scop, self.before(j - 1), &after[j])?.is_some() {
            (self.found, self.after) = (found, after);
            return Ok(false);
        }
        Ok(true)
    }

    /// `found[k]`, a `shift` or `skew` on a β-vector several loops share
    /// (gemm's `skew([0], 2, 1, -1)` of the `j` and `k` loops), given on
    /// each of those loops instead where a later directive undoes it on
    /// fewer statements (the tile phase's `skew([0, 0], 2, 1, 1)` back to
    /// the date a strip reads): the pairs that then undo each other are
    /// dropped. Kept only where the recovery comes out shorter; else
    /// nothing is changed.
    fn undone_in_parts(&mut self, k: usize) -> Result<bool, ExplainError> {
        let Some(parts) = self.parts(k)? else {
            return Ok(false);
        };
        let (found, after) = (self.found.clone(), self.after.clone());
        let n = parts.len();
        let (directives, schedules): (Vec<Directive>, Vec<Schedule>) = parts.into_iter().unzip();
        self.found.splice(k..=k, directives);
        self.after.splice(k..=k, schedules);
        for i in (k..k + n).rev() {
            if let Some(j) = self.undone_by(i) {
                self.drop_pair(i, j)?;
            }
        }
        if self.found.len() >= found.len() {
            (self.found, self.after) = (found, after);
            return Ok(false);
        }
        Ok(true)
    }

    /// `found[k]` given on each loop one level inside its β-vector that
    /// holds statements, with the schedule after each, where a later
    /// directive undoes it on fewer statements, the β-vector one level
    /// longer still addresses loops around the dates it moves, and the
    /// parts give the same schedule; `None` otherwise. Exact.
    fn parts(&self, k: usize) -> Result<Option<Vec<(Directive, Schedule)>>, ExplainError> {
        let first = &self.found[k];
        let (beta, deepest) = match first {
            Directive::Skew {
                beta, depth, other, ..
            } => (beta, (*depth).max(*other)),
            Directive::Shift { beta, depth, .. } => (beta, *depth),
            _ => return Ok(None),
        };
        if beta.len() >= deepest {
            return Ok(None);
        }
        let moved = self.under(k);
        let fewer = (k + 1..self.found.len()).any(|x| {
            let on = self.under(x);
            undoes(first, &self.found[x])
                && on != moved
                && on.iter().zip(&moved).all(|(&a, &m)| !a || m)
        });
        if !fewer {
            return Ok(None);
        }
        let was = self.before(k);
        let mut loops: Vec<Vec<i64>> = Vec::new();
        for st in &was.statements {
            let Some(b) = st.beta(0) else {
                return Ok(None);
            };
            if let Some(inner) = b.get(..=beta.len()).filter(|i| i.starts_with(beta)) {
                if !loops.iter().any(|l| l == inner) {
                    loops.push(inner.to_vec());
                }
            }
        }
        if loops.len() < 2 {
            return Ok(None);
        }
        let mut schedule = was.clone();
        let mut out = Vec::new();
        for inner in loops {
            let mut d = first.clone();
            if let Directive::Skew { beta, .. } | Directive::Shift { beta, .. } = &mut d {
                *beta = inner;
            }
            schedule = match apply::rewrite(self.scop, self.deps, &schedule, &d) {
                Ok(next) => next,
                Err(_) => return Ok(None),
            };
            out.push((d, schedule.clone()));
        }
        if super::difference(self.scop, &schedule, &self.after[k])?.is_some() {
            return Ok(None);
        }
        Ok(Some(out))
    }

    /// The schedule before `found[k]`.
    fn before(&self, k: usize) -> &Schedule {
        match k {
            0 => &self.start,
            _ => &self.after[k - 1],
        }
    }

    /// The position of the directive that undoes `found[k]` (a `shift`
    /// or `skew`) on the same statements, with only directives between
    /// that commute with it.
    fn undone_by(&self, k: usize) -> Option<usize> {
        let first = &self.found[k];
        if !matches!(first, Directive::Shift { .. } | Directive::Skew { .. }) {
            return None;
        }
        let moved = self.under(k);
        for x in k + 1..self.found.len() {
            let d = &self.found[x];
            if undoes(first, d) && self.under(x) == moved {
                return Some(x);
            }
            let both_shifts = matches!(
                (first, d),
                (Directive::Shift { .. }, Directive::Shift { .. })
            );
            let (was, now) = (self.before(x), &self.after[x]);
            let leaves_them = (0..moved.len())
                .filter(|&s| moved[s])
                .all(|s| was.statements[s] == now.statements[s]);
            if !both_shifts && !leaves_them {
                return None;
            }
        }
        None
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
