//! The bands of a schedule tree as tiling and marking see them
//! ([`super::tiling`]): where each sits (its depth, the statements below
//! it), its members and their coincidence, and what surrounds it (a loop
//! already parallel, a sequential nest beside it in the same iteration).

use super::feautrier::AffineRow;
use super::tree::Tree;

/// One band of the tree: the statements below it, the depth of its first
/// member, its size, which members are coincident.
pub(super) struct BandSite {
    pub statements: Vec<usize>,
    /// Each member's `(statement, row)` pairs.
    pub rows: Vec<Vec<(usize, AffineRow)>>,
    pub depth: usize,
    pub members: usize,
    pub coincident: Vec<bool>,
    /// The outermost coincident member, unless the band is inside a loop
    /// already marked parallel.
    pub first_coincident: Option<usize>,
    /// Inside a loop already marked parallel.
    pub in_parallel: bool,
    pub permutable: bool,
    /// It fuses nests that share only reads ([`super::shared_reads`]):
    /// no wavefront of its tiles.
    pub shared_reads: bool,
    /// No band below this one: its last loop is innermost.
    pub innermost: bool,
    /// Inside a loop, beside a loop nest that runs sequentially (none of
    /// its members coincident) in the same iteration.
    pub beside_sequential: bool,
}

/// Every band of `tree`, outer before inner.
pub(super) fn band_sites(tree: &Tree) -> Vec<BandSite> {
    let mut sites = Vec::new();
    collect(tree, 1, false, false, &mut sites);
    sites
}

/// Every band below `tree`, outer before inner; `depth` is the depth its
/// first member would have. A band inside a coincident member of another
/// gets no parallel loop: one parallel region, the outermost, is enough.
/// `beside_sequential`: the tree is inside a loop, beside a loop nest
/// that runs sequentially in the same iteration.
fn collect(
    tree: &Tree,
    depth: usize,
    in_parallel: bool,
    beside_sequential: bool,
    sites: &mut Vec<BandSite>,
) {
    match tree {
        Tree::Leaf(_) => {}
        Tree::Sequence(children) => {
            let sequential =
                |c: &Tree| matches!(c, Tree::Band { .. }) && !c.has_coincident_member();
            let beside = beside_sequential || (depth > 1 && children.iter().any(sequential));
            for c in children {
                collect(c, depth, in_parallel, beside, sites);
            }
        }
        Tree::Band {
            members,
            permutable,
            shared_reads,
            child,
        } => {
            let first_coincident = members
                .iter()
                .position(|m| m.coincident)
                .filter(|_| !in_parallel);
            let statements: Vec<usize> = members
                .first()
                .map(|m| m.rows.iter().map(|&(s, _)| s).collect())
                .unwrap_or_default();
            if !statements.is_empty() {
                sites.push(BandSite {
                    statements,
                    rows: members.iter().map(|m| m.rows.clone()).collect(),
                    depth,
                    members: members.len(),
                    coincident: members.iter().map(|m| m.coincident).collect(),
                    first_coincident,
                    in_parallel,
                    permutable: *permutable,
                    shared_reads: *shared_reads,
                    innermost: !child.has_band(),
                    beside_sequential,
                });
            }
            let inside = in_parallel || first_coincident.is_some();
            collect(
                child,
                depth + members.len(),
                inside,
                beside_sequential,
                sites,
            );
        }
    }
}
