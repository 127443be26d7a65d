//! An access relation (`S[i] -> a[x]`) rewritten as a data-layout
//! directive rewrites the access: the array renamed, the subscripts
//! permuted, one appended (an iterator), or one removed (an existential,
//! or nothing when a row defined it alone). Exact.

use super::subscripts::Edit;
use super::ApplyError;
use crate::poly::{BasicMap, Constraint, ConstraintKind, Map, Space, Tuple};

/// Whether an access relation's rows involve input dimension `k`.
pub(super) fn uses_iterator(relation: &Map, k: usize) -> bool {
    relation.basics().iter().any(|b| {
        let col = b.space().n_param() + k;
        b.constraints().iter().any(|c| c.coeffs[col] != 0)
    })
}

/// `relation` (`S[i] -> a[x]`) rewritten by `edit`, exactly.
pub(super) fn edited_relation(relation: &Map, edit: &Edit) -> Result<Map, ApplyError> {
    let space = relation.space();
    let output = space.output.clone();
    let (np, ni, no) = (space.n_param(), space.n_in(), space.n_out());
    let input = space
        .input
        .clone()
        .unwrap_or_else(|| Tuple::new(None, Vec::new()));
    let with_output = |name: Option<String>, dims: Vec<String>| {
        Space::map(space.params.clone(), input.clone(), Tuple::new(name, dims))
    };
    let mut out_space = space.clone();
    let mut basics = Vec::new();
    for b in relation.basics() {
        let rows = b.constraints().to_vec();
        let nl = b.n_local();
        let (new_space, n_local, rows) = match edit {
            Edit::Rename(new) => (
                with_output(Some(new.clone()), output.dims.clone()),
                nl,
                rows,
            ),
            Edit::Permute(order) => {
                let dims = order.iter().map(|&k| output.dims[k].clone()).collect();
                // New output column k is old output column order[k].
                let mut from: Vec<usize> = (0..np + ni).collect();
                from.extend(order.iter().map(|&k| np + ni + k));
                from.extend(np + ni + no..np + ni + no + nl);
                (
                    with_output(output.name.clone(), dims),
                    nl,
                    pick_columns(&rows, &from),
                )
            }
            Edit::Append(depth) => {
                let mut dims = output.dims.clone();
                dims.push(format!("x{no}"));
                let width = np + ni + no + 1 + nl;
                let mut moved: Vec<Constraint> = rows
                    .iter()
                    .map(|c| {
                        let mut coeffs = c.coeffs[..np + ni + no].to_vec();
                        coeffs.push(0);
                        coeffs.extend_from_slice(&c.coeffs[np + ni + no..]);
                        Constraint {
                            kind: c.kind,
                            coeffs,
                            constant: c.constant,
                        }
                    })
                    .collect();
                let mut eq = vec![0; width];
                eq[np + ni + no] = 1;
                eq[np + depth - 1] = -1;
                moved.push(Constraint::eq(eq, 0));
                (with_output(output.name.clone(), dims), nl, moved)
            }
            Edit::Remove(k) => {
                let mut dims = output.dims.clone();
                dims.remove(*k);
                let col = np + ni + k;
                let mut from: Vec<usize> = (0..np + ni).collect();
                from.extend((0..no).filter(|d| d != k).map(|d| np + ni + d));
                let defining: Vec<&Constraint> =
                    rows.iter().filter(|c| c.coeffs[col] != 0).collect();
                let alone = matches!(defining.as_slice(),
                    [c] if c.kind == ConstraintKind::Eq && c.coeffs[col].abs() == 1);
                if alone {
                    // `x = f(i)` and nothing else on `x`: the subscript
                    // goes with its row (∃x: x = f(i) always holds).
                    from.extend(np + ni + no..np + ni + no + nl);
                    let kept: Vec<Constraint> = rows
                        .iter()
                        .filter(|c| c.coeffs[col] == 0)
                        .cloned()
                        .collect();
                    (
                        with_output(output.name.clone(), dims),
                        nl,
                        pick_columns(&kept, &from),
                    )
                } else {
                    // Else it becomes an existential, the first local.
                    from.push(col);
                    from.extend(np + ni + no..np + ni + no + nl);
                    (
                        with_output(output.name.clone(), dims),
                        nl + 1,
                        pick_columns(&rows, &from),
                    )
                }
            }
        };
        out_space = new_space.clone();
        basics.push(BasicMap::from_columns(new_space, n_local, rows));
    }
    let mut out = Map::empty(out_space);
    for b in basics {
        out.push(b);
    }
    Ok(out)
}

/// Rows with their columns taken in the order `from`.
pub(super) fn pick_columns(rows: &[Constraint], from: &[usize]) -> Vec<Constraint> {
    rows.iter()
        .map(|c| Constraint {
            kind: c.kind,
            coeffs: from.iter().map(|&k| c.coeffs[k]).collect(),
            constant: c.constant,
        })
        .collect()
}
