//! The cells a region accesses of the arrays a recipe adds (`add_array`;
//! [`Array::local`]), and whether each can be declared from index 0:
//! every subscript non-negative over those cells (exact) and bounded above
//! by an affine form of the parameters (read off a rational projection, so
//! at least the exact maximum). Code generation sizes the arrays from the
//! bounds (`emit::locals`); the data-layout directives refuse an access
//! that no declaration holds (`apply::data`), so that a recipe polyc
//! accepts is one it prints.

use crate::poly::{BasicMap, Bound, Constraint, PolyError, Set, Space};
use crate::scop::{Array, Scop};

/// Why a dimension of a local array cannot be declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsized {
    /// A subscript may be negative.
    Negative,
    /// A subscript has no upper bound in the parameters.
    Unbounded,
}

impl Unsized {
    /// The sentence that says so, for dimension `d` (0-based) of `array`.
    pub fn describe(self, array: &str, d: usize) -> String {
        match self {
            Unsized::Negative => format!(
                "subscript {} of `{array}` may be negative: polyc declares local arrays from index 0",
                d + 1
            ),
            Unsized::Unbounded => format!(
                "subscript {} of `{array}` has no upper bound in the parameters: polyc cannot size the array",
                d + 1
            ),
        }
    }
}

/// Why [`upper_bounds`] gave none.
#[derive(Clone, Debug)]
pub enum SizeError {
    Poly(PolyError),
    Unsized(Unsized),
}

impl From<PolyError> for SizeError {
    fn from(e: PolyError) -> SizeError {
        SizeError::Poly(e)
    }
}

/// The cells of `array` the statements access under the scop's context,
/// over its dimensions, or `None` when none does. Exact.
pub fn cells(scop: &Scop, array: &Array) -> Result<Option<Set>, PolyError> {
    let mut out: Option<Set> = None;
    for st in &scop.statements {
        for a in st.accesses.iter().filter(|a| a.array == array.name) {
            let input = BasicMap::universe(a.relation.space().clone())
                .domain()
                .space()
                .clone();
            // The code may assume the context (`context`).
            let domain = scop.in_context(&st.domain).renamed(&input)?;
            let image = a.relation.intersect_domain(&domain)?.range();
            let dims = (0..array.n_dims).map(|k| format!("x{k}")).collect();
            let space = Space::set(scop.params.clone(), Some(array.name.clone()), dims);
            let image = image.renamed(&space)?;
            out = Some(match out {
                Some(s) => s.union(&image)?,
                None => image,
            });
        }
    }
    Ok(out)
}

/// An upper bound of subscript `d` over each basic set of `cells` (in
/// the parameters; one per basic set), once no cell lies below 0.
pub fn upper_bounds(scop: &Scop, cells: &Set, d: usize) -> Result<Vec<Bound>, SizeError> {
    let np = scop.params.len();
    let nd = cells.space().n_out();
    let mut bounds = Vec::new();
    for b in cells.basics() {
        // No cell below 0, exactly.
        let mut below = b.clone();
        let mut row = vec![0; b.n_cols()];
        row[np + d] = -1;
        below.add(Constraint::ineq(row, -1));
        if !below.is_empty()? {
            return Err(SizeError::Unsized(Unsized::Negative));
        }
        let (after, _) = b.project_out_rational(d + 1, nd - d - 1)?;
        let (only, _) = after.project_out_rational(0, d)?;
        let Some(ub) = only.dim_bounds(0)?.upper.into_iter().next() else {
            return Err(SizeError::Unsized(Unsized::Unbounded));
        };
        bounds.push(ub);
    }
    if bounds.is_empty() {
        return Err(SizeError::Unsized(Unsized::Unbounded));
    }
    Ok(bounds)
}

/// The first local array that the statements access and that cannot be
/// declared: its name, the dimension and why.
pub fn first_unsized(scop: &Scop) -> Result<Option<(String, usize, Unsized)>, PolyError> {
    for a in scop.arrays.iter().filter(|a| a.local) {
        let Some(cells) = cells(scop, a)? else {
            continue;
        };
        for d in 0..a.n_dims {
            match upper_bounds(scop, &cells, d) {
                Ok(_) => {}
                Err(SizeError::Unsized(why)) => return Ok(Some((a.name.clone(), d, why))),
                Err(SizeError::Poly(e)) => return Err(e),
            }
        }
    }
    Ok(None)
}
