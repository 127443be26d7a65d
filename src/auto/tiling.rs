//! Tiling the permutable bands of a scheduler's tree and marking its
//! parallel loops, with polyc's own directives (`tile`, `parallelize`), so
//! that each step is checked as a recipe's would be.
//!
//! A band of `k ≥ 2` members whose first member is the loop at depth `p`
//! becomes `k` tile loops then `k` point loops (Pluto's order): every
//! member is strip-mined (`T₀ P₀ T₁ P₁ …`), then each tile loop `T_m` moves
//! out to depth `p + m` by adjacent interchanges. Bands are tiled innermost
//! first, so that the depths of the outer ones do not move. The outermost
//! coincident member of a band is then marked parallel: its tile loop when
//! the band is tiled.

use super::tree::Tree;
use crate::apply::{apply, ApplyError, Directive};
use crate::scop::{Dependence, Schedule, Scop};

/// One band of the tree: a statement below it, the depth of its first
/// member, its size, its first coincident member.
struct BandSite {
    statement: usize,
    depth: usize,
    members: usize,
    first_coincident: Option<usize>,
    permutable: bool,
}

/// `schedule` (the Clay form of `tree`, without marks) with every
/// permutable band of two or more members tiled by `tile` (none when
/// `None`) and, when `parallel`, the outermost coincident loop of each
/// band marked parallel. Each step is one checked directive.
pub(crate) fn tile_and_mark(
    scop: &Scop,
    deps: &[Dependence],
    tree: &Tree,
    mut schedule: Schedule,
    tile: Option<i64>,
    parallel: bool,
) -> Result<Schedule, ApplyError> {
    let mut sites = Vec::new();
    collect(tree, 1, false, &mut sites);
    // Innermost first: `collect` lists a band before the bands below it.
    let mut steps: Vec<(usize, Directive)> = Vec::new();
    for site in sites.iter().rev() {
        let tiled = tile.filter(|_| site.permutable && site.members >= 2);
        if let Some(size) = tiled {
            // Strip-mine every member, the last first (so that the depths of
            // the others stay), then move each tile loop out past the point
            // loops before it by adjacent swaps.
            for m in (0..site.members).rev() {
                steps.push((
                    site.statement,
                    Directive::Stripmine {
                        beta: Vec::new(),
                        depth: site.depth + m,
                        size,
                    },
                ));
            }
            for m in 1..site.members {
                for d in (site.depth + m..site.depth + 2 * m).rev() {
                    steps.push((
                        site.statement,
                        Directive::Interchange {
                            beta: Vec::new(),
                            d1: d,
                            d2: d + 1,
                        },
                    ));
                }
            }
        }
        if let (true, Some(m)) = (parallel, site.first_coincident) {
            steps.push((
                site.statement,
                Directive::Parallelize {
                    beta: Vec::new(),
                    depth: site.depth + m,
                },
            ));
        }
    }
    for (statement, mut directive) in steps {
        // The loop's β: the statement's, cut before the loop's depth (a
        // directive applies to every statement whose β starts with it).
        let mut beta = schedule.statements[statement].beta(0).unwrap_or_default();
        match &mut directive {
            Directive::Stripmine { beta: b, depth, .. }
            | Directive::Parallelize { beta: b, depth }
            | Directive::Interchange {
                beta: b, d1: depth, ..
            } => {
                beta.truncate(*depth);
                *b = beta;
            }
            _ => {}
        }
        schedule = apply(scop, deps, &schedule, &directive)?.schedule;
    }
    Ok(schedule)
}

/// Every band below `tree`, outer before inner; `depth` is the depth its
/// first member would have. A band inside a coincident member of another
/// gets no parallel loop: one parallel region, the outermost, is enough.
fn collect(tree: &Tree, depth: usize, in_parallel: bool, sites: &mut Vec<BandSite>) {
    match tree {
        Tree::Leaf(_) => {}
        Tree::Sequence(children) => {
            for c in children {
                collect(c, depth, in_parallel, sites);
            }
        }
        Tree::Band {
            members,
            permutable,
            child,
        } => {
            let first_coincident = members
                .iter()
                .position(|m| m.coincident)
                .filter(|_| !in_parallel);
            let first_statement = members.first().and_then(|m| m.rows.first());
            if let Some(&(statement, _)) = first_statement {
                sites.push(BandSite {
                    statement,
                    depth,
                    members: members.len(),
                    first_coincident,
                    permutable: *permutable,
                });
            }
            let inside = in_parallel || first_coincident.is_some();
            collect(child, depth + members.len(), inside, sites);
        }
    }
}
