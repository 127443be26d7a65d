//! The dependence polyhedron of one combination of disjuncts, before any
//! order is imposed: `{ s -> t : s ∈ D_S, t ∈ D_T, A_a(s) = A_b(t) }` under
//! the context, as rows over the columns `[params | s | t | locals]`.
//!
//! The memory cell first gets columns of its own (locals), which are then
//! substituted away wherever an access defines them by an equality with a
//! unit coefficient, as the front end's accesses always do; so is any other
//! local that an equality makes a plain affine form. So a piece has at most
//! the locals of its domains and accesses (divisions, strides).
//! Every step is exact over the integers and checked for overflow.

use crate::poly::{
    checked_add, checked_mul, BasicMap, BasicSet, Constraint, ConstraintKind, PolyError, Space,
};

/// The columns of a dependence row before the locals.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    n_param: usize,
    n_src: usize,
    n_tgt: usize,
}

impl Layout {
    pub(super) fn new(n_param: usize, n_src: usize, n_tgt: usize) -> Layout {
        Layout {
            n_param,
            n_src,
            n_tgt,
        }
    }

    /// Parameters, source iterators and target iterators.
    pub(super) fn n_dims(&self) -> usize {
        self.n_param + self.n_src + self.n_tgt
    }

    /// Column of source iterator `k`.
    pub(super) fn src_col(&self, k: usize) -> usize {
        self.n_param + k
    }

    /// Column of target iterator `k`.
    pub(super) fn tgt_col(&self, k: usize) -> usize {
        self.n_param + self.n_src + k
    }

    /// A space with these columns and blank names, for emptiness tests.
    fn blank_space(&self) -> Space {
        Space::set(
            vec![String::new(); self.n_param],
            None,
            vec![String::new(); self.n_src + self.n_tgt],
        )
    }
}

/// One disjunct of each operand of a piece.
pub(super) struct Operands<'a> {
    pub context: &'a BasicSet,
    pub src_domain: &'a BasicSet,
    pub tgt_domain: &'a BasicSet,
    pub src_access: &'a BasicMap,
    pub tgt_access: &'a BasicMap,
}

/// A conjunction of rows over a [`Layout`] plus `n_local` locals.
#[derive(Clone, Debug)]
pub(super) struct Polyhedron {
    layout: Layout,
    n_local: usize,
    rows: Vec<Constraint>,
}

const MISMATCH: PolyError = PolyError::SpaceMismatch {
    op: "dependence polyhedron",
};

impl Polyhedron {
    /// The pairs of `ops`' domains that touch the same cell, or `None` when
    /// a row is plainly false (different constant subscripts). Not tested for
    /// emptiness: that is the caller's exact test.
    pub(super) fn same_cell(
        layout: Layout,
        ops: &Operands<'_>,
    ) -> Result<Option<Polyhedron>, PolyError> {
        let np = layout.n_param;
        let (ds, dt, ctx) = (ops.src_domain, ops.tgt_domain, ops.context);
        let (a, b) = (ops.src_access, ops.tgt_access);
        let m = a.space().n_out();
        let fits = |s: &Space, n_in: usize, n_out: usize| {
            s.n_param() == np && s.n_in() == n_in && s.n_out() == n_out
        };
        if !fits(ctx.space(), 0, 0)
            || !fits(ds.space(), 0, layout.n_src)
            || !fits(dt.space(), 0, layout.n_tgt)
            || !fits(a.space(), layout.n_src, m)
            || !fits(b.space(), layout.n_tgt, m)
        {
            return Err(MISMATCH);
        }
        // Locals: source domain, target domain, context, accesses, then the cell.
        let l_ds = layout.n_dims();
        let l_dt = l_ds + ds.n_local();
        let l_ctx = l_dt + dt.n_local();
        let l_a = l_ctx + ctx.n_local();
        let l_b = l_a + a.n_local();
        let l_cell = l_b + b.n_local();
        let n = l_cell + m;
        let (s0, t0) = (layout.src_col(0), layout.tgt_col(0));
        let (ns, nt) = (layout.n_src, layout.n_tgt);
        let mut rows = Vec::new();
        embed_all(&mut rows, ctx.constraints(), n, |k| {
            if k < np {
                k
            } else {
                l_ctx + k - np
            }
        });
        embed_all(&mut rows, ds.constraints(), n, |k| match k {
            k if k < np + ns => k,
            k => l_ds + k - np - ns,
        });
        embed_all(&mut rows, dt.constraints(), n, |k| match k {
            k if k < np => k,
            k if k < np + nt => t0 + k - np,
            k => l_dt + k - np - nt,
        });
        embed_all(&mut rows, a.constraints(), n, |k| match k {
            k if k < np => k,
            k if k < np + ns => s0 + k - np,
            k if k < np + ns + m => l_cell + k - np - ns,
            k => l_a + k - np - ns - m,
        });
        embed_all(&mut rows, b.constraints(), n, |k| match k {
            k if k < np => k,
            k if k < np + nt => t0 + k - np,
            k if k < np + nt + m => l_cell + k - np - nt,
            k => l_b + k - np - nt - m,
        });
        let mut p = Polyhedron {
            layout,
            n_local: n - layout.n_dims(),
            rows: opposite_pairs_as_equalities(rows),
        };
        // Latest first, so that a local is only ever replaced by a form of
        // earlier columns: a division's defining rows keep mentioning no
        // later local, as `poly`'s complement needs.
        for col in (layout.n_dims()..n).rev() {
            let of_earlier = |c: &Constraint| c.coeffs[col + 1..].iter().all(|&v| v == 0);
            if let Some(pivot) = p.unit_equality(col, of_earlier) {
                let pivot = p.rows.remove(pivot);
                substitute(&mut p.rows, &pivot, col)?;
                for r in &mut p.rows {
                    r.coeffs.remove(col);
                }
                p.n_local -= 1;
            }
        }
        Ok(p.drop_trivial_rows().then_some(p))
    }

    /// The same rows and `extra` (rows over the layout's columns only).
    pub(super) fn with_rows(&self, extra: &[Constraint]) -> Polyhedron {
        let n = self.layout.n_dims() + self.n_local;
        let mut p = self.clone();
        p.rows.extend(extra.iter().map(|c| {
            let mut c = c.clone();
            c.coeffs.resize(n, 0);
            c
        }));
        p
    }

    /// Exact integer emptiness (the Omega test); see also [`Self::sample`].
    pub(super) fn is_empty(&self) -> Result<bool, PolyError> {
        Ok(self.sample()?.is_none())
    }

    /// An integer point (parameters, source and target iterators), or `None`.
    pub(super) fn sample(&self) -> Result<Option<Vec<i64>>, PolyError> {
        BasicSet::from_parts(self.layout.blank_space(), self.n_local, self.rows.clone()).sample()
    }

    /// `d` when a row says `col_t - col_s = d` outright (cheap, syntactic).
    pub(super) fn plain_difference(&self, col_s: usize, col_t: usize) -> Option<i64> {
        self.rows.iter().find_map(|r| {
            let u = r.coeffs[col_t];
            let only = r
                .coeffs
                .iter()
                .enumerate()
                .all(|(k, &v)| k == col_s || k == col_t || v == 0);
            // u·(t - s) + c = 0 with u = ±1: t - s = -u·c.
            let plain = r.kind == ConstraintKind::Eq && u.abs() == 1 && r.coeffs[col_s] == -u;
            if plain && only {
                r.constant.checked_mul(-u)
            } else {
                None
            }
        })
    }

    /// The piece as a relation in `space` (which must match the layout).
    /// The rows are tidied for printing first: a target iterator defined by
    /// a unit equality is substituted into every other row, so that the
    /// printer's inline `S0[i] -> S0[i + 1]` leaves no row naming it.
    pub(super) fn into_basic_map(mut self, space: Space) -> Result<BasicMap, PolyError> {
        let first_tgt = self.layout.tgt_col(0);
        for k in 0..self.layout.n_tgt {
            let col = self.layout.tgt_col(k);
            let alone = |c: &Constraint| {
                c.coeffs[first_tgt..]
                    .iter()
                    .enumerate()
                    .all(|(j, &v)| j + first_tgt == col || v == 0)
            };
            if let Some(p) = self.unit_equality(col, alone) {
                let pivot = self.rows.remove(p);
                substitute(&mut self.rows, &pivot, col)?;
                self.rows.insert(p, pivot);
            }
        }
        self.drop_trivial_rows();
        Ok(BasicMap::from_columns(space, self.n_local, self.rows))
    }

    /// The first equality with coefficient ±1 on `col` that `also` accepts.
    fn unit_equality(&self, col: usize, also: impl Fn(&Constraint) -> bool) -> Option<usize> {
        self.rows
            .iter()
            .position(|c| c.kind == ConstraintKind::Eq && c.coeffs[col].abs() == 1 && also(c))
    }

    /// Drop rows with no variable that hold, repeated rows, and of two
    /// inequalities `e + c1 >= 0`, `e + c2 >= 0` the looser; false if a row
    /// with no variable fails (the piece is then plainly empty). Cheap:
    /// syntactic, quadratic in the number of rows.
    fn drop_trivial_rows(&mut self) -> bool {
        let mut feasible = true;
        let mut kept: Vec<Constraint> = Vec::with_capacity(self.rows.len());
        for r in self.rows.drain(..) {
            if r.coeffs.iter().all(|&v| v == 0) {
                feasible &= match r.kind {
                    ConstraintKind::Eq => r.constant == 0,
                    ConstraintKind::Ineq => r.constant >= 0,
                };
                continue;
            }
            let parallel = kept
                .iter_mut()
                .find(|k| k.kind == r.kind && k.coeffs == r.coeffs);
            match (parallel, r.kind) {
                (Some(k), ConstraintKind::Ineq) => k.constant = k.constant.min(r.constant),
                (Some(k), ConstraintKind::Eq) if k.constant == r.constant => {}
                _ => kept.push(r),
            }
        }
        self.rows = kept;
        feasible
    }
}

/// `e >= 0` and `-e >= 0` written as `e = 0` (the front end lowers
/// `o = min(i, 3)` that way, piece by piece); exact and cheap, and it lets
/// the cell be substituted away.
fn opposite_pairs_as_equalities(rows: Vec<Constraint>) -> Vec<Constraint> {
    let mut out: Vec<Constraint> = Vec::with_capacity(rows.len());
    for r in rows {
        let opposite = |k: &Constraint| {
            k.kind == ConstraintKind::Ineq
                && r.kind == ConstraintKind::Ineq
                && Some(k.constant) == r.constant.checked_neg()
                && k.coeffs
                    .iter()
                    .zip(&r.coeffs)
                    .all(|(a, b)| Some(*a) == b.checked_neg())
        };
        match out.iter_mut().find(|k| opposite(k)) {
            Some(k) => k.kind = ConstraintKind::Eq,
            None => out.push(r),
        }
    }
    out
}

/// Append `rows`, each column `k` moved to `col(k)` in a row of `n` columns.
fn embed_all(
    out: &mut Vec<Constraint>,
    rows: &[Constraint],
    n: usize,
    col: impl Fn(usize) -> usize,
) {
    out.extend(rows.iter().map(|r| r.remapped(n, &col)));
}

/// Eliminate column `col` from `rows` with `pivot`, an equality whose
/// coefficient on `col` is ±1: exact, since the column's value is then an
/// integer affine form of the others.
fn substitute(rows: &mut [Constraint], pivot: &Constraint, col: usize) -> Result<(), PolyError> {
    let u = pivot.coeffs[col];
    for r in rows.iter_mut() {
        let f = r.coeffs[col];
        if f == 0 {
            continue;
        }
        // r + m·pivot has coefficient f + m·u = f - f·u² = 0 on col.
        let m = checked_mul(f, u)?
            .checked_neg()
            .ok_or(PolyError::Overflow)?;
        for (x, &p) in r.coeffs.iter_mut().zip(&pivot.coeffs) {
            *x = checked_add(*x, checked_mul(m, p)?)?;
        }
        r.constant = checked_add(r.constant, checked_mul(m, pivot.constant)?)?;
    }
    Ok(())
}
