//! isl's incremental clustering (report §7.3; CC'18 §3.5): where one
//! level of the schedule holds several strongly connected components,
//! each component first gets a band of its own, and clusters are then
//! merged two at a time along proximity edges, a merge being kept only
//! when the merged band loses nothing the clusters had.
//!
//! 1. Every component is a cluster, with the band the scheduler finds for
//!    it alone. A cluster with no band (it needs a Feautrier row, or its
//!    statements are already scheduled completely) is never merged.
//! 2. The candidates are the proximity groups (the edges from one
//!    statement to another) between two clusters. The one with the most
//!    equalities between its source and target coordinates goes first
//!    (the most directions that may reach distance zero); ties go to the
//!    clusters closest in the components' topological order.
//! 3. The merge takes the two clusters and every cluster on a validity
//!    path between them (otherwise the merged band would run a cluster
//!    between two of its parts), and asks the scheduler for one band of
//!    all their statements.
//! 4. The merge is kept when that band has at least as many members as
//!    each cluster's, keeps their coincidence ([`Keep`]), runs every
//!    statement along each coincident member (polyc's rule: a statement
//!    at one iteration of a parallel loop is peeled from its tiles and
//!    run alone), and brings some proximity group between two of the
//!    clusters within distance [`CLOSE`] on every member
//!    ([`Closeness`]). A refused group is not tried again, and no merge
//!    takes two clusters it joins.
//! 5. A group that is close except on members beyond its weight, where
//!    its source or its target has one value (a producer whose values
//!    many consumer instances read), is postponed: it is tried again once
//!    every other group has been, and then counts as close. Such a merge
//!    leaves a long distance inside the cluster, so it goes last.
//! 6. The clusters left run in a sequence, in a topological order of
//!    their validity edges.
//!
//! Where isl builds the merged band on top of the clusters' bands (its
//! rows combine theirs), polyc schedules the merged statements afresh
//! with the same scheduler: the rules of step 4 compare the result with
//! the clusters' bands either way, and the result is checked exactly
//! like every schedule.
//!
//! The distance bounds and single values are exact emptiness tests; the
//! choice of the next group counts and compares; the bands come from the
//! caller.

use super::distance::distance;
use super::feautrier::AffineRow;
use super::graph::{close_transitively, Edge};
use super::independence::rank;
use super::pluto::Member;
use crate::poly::{BasicMap, Constraint, PolyError, Space, Tuple};

/// The largest distance, either way, that a merged band may leave on
/// every member for some proximity group between the merged clusters
/// (isl's "optimized completely": distances bounded by 2).
const CLOSE: i64 = 2;

/// What a merged band must keep of the clusters' coincidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Keep {
    /// As many coincident members as the cluster with the most (isl's
    /// `--schedule-maximize-coincidence`, which PPCG sets; `target = gpu`
    /// of both schedulers: blocks and threads take two members each, and
    /// a fused band with one leaves a thread a sequential loop, as
    /// `auto(spatial, target = gpu)`'s fdtd-2d and lu did, 12× and 5×
    /// slower on an H200 than apart).
    EveryCoincidentMember,
    /// A coincident member when some cluster has one (CC'18: one level of
    /// OpenMP parallelism is used; both schedulers on the CPU, which mark
    /// one loop of a nest parallel: lu's column scaling and updates stay
    /// fused, 1.5× faster on two threads than apart).
    OneCoincidentMember,
}

/// One cluster: statements and their band.
#[derive(Clone, Debug)]
pub(super) struct Cluster {
    /// Its statements, ascending: the order of its band's rows.
    pub nodes: Vec<usize>,
    /// Its band; empty when the scheduler found none for it.
    pub band: Vec<Member>,
    /// The positions, in the components' topological order, of the
    /// components it holds.
    components: Vec<usize>,
}

/// Where a group stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Untried,
    /// Close only with its slack (step 5): tried again last.
    Postponed,
    /// Merged, or refused.
    Done,
}

/// How close a merged band brings one group's pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Closeness {
    /// Within [`CLOSE`] on every member.
    Close,
    /// Within [`CLOSE`] except on members beyond the group's weight where
    /// its source or its target has one value.
    WithSlack,
    Far,
}

/// The edges from one statement to another (proximity: every edge).
#[derive(Clone, Debug)]
struct Group {
    source: usize,
    target: usize,
    edges: Vec<usize>,
    /// The most equalities between source and target coordinates on one
    /// of its edges.
    weight: usize,
}

/// The clusters of `components` (a topological order of the strongly
/// connected components of one level) under `edges`, given each
/// statement's rows so far (`earlier`), each cluster with its band from
/// `band_of` (its argument: statements, ascending), in the order they
/// run.
pub(super) fn clusters<E, F>(
    components: &[Vec<usize>],
    edges: &[Edge],
    earlier: &[Vec<Vec<i64>>],
    keep: Keep,
    mut band_of: F,
) -> Result<Vec<Cluster>, E>
where
    E: From<PolyError>,
    F: FnMut(&[usize]) -> Result<Vec<Member>, E>,
{
    let mut clusters = Vec::new();
    for (k, component) in components.iter().enumerate() {
        let mut nodes = component.clone();
        nodes.sort_unstable();
        clusters.push(Cluster {
            band: band_of(&nodes)?,
            nodes,
            components: vec![k],
        });
    }
    let groups = proximity_groups(edges, earlier)?;
    let mut status = vec![Status::Untried; groups.len()];
    while clusters.len() > 1 {
        let Some(g) = next_group(&clusters, &groups, &status) else {
            break;
        };
        let late = status[g] == Status::Postponed;
        status[g] = Status::Done;
        let a = cluster_of(&clusters, groups[g].source);
        let b = cluster_of(&clusters, groups[g].target);
        let chosen = on_validity_paths(&clusters, edges, a, b);
        if chosen.iter().any(|&c| clusters[c].band.is_empty()) {
            continue;
        }
        let between = |other: &Group| {
            let (x, y) = (
                cluster_of(&clusters, other.source),
                cluster_of(&clusters, other.target),
            );
            x != y && chosen.contains(&x) && chosen.contains(&y)
        };
        // A refused group between two chosen clusters: this merge would
        // repeat it. A postponed one: this merge waits with it.
        let refused =
            (0..groups.len()).any(|h| h != g && status[h] == Status::Done && between(&groups[h]));
        if refused {
            continue;
        }
        let waiting = (0..groups.len())
            .any(|h| h != g && status[h] == Status::Postponed && between(&groups[h]));
        if waiting && !late {
            status[g] = Status::Postponed;
            continue;
        }
        let mut nodes: Vec<usize> = chosen
            .iter()
            .flat_map(|&c| clusters[c].nodes.iter().copied())
            .collect();
        nodes.sort_unstable();
        let band = band_of(&nodes)?;
        let parts: Vec<&Cluster> = chosen.iter().map(|&c| &clusters[c]).collect();
        if !keeps_what_the_clusters_had(&band, &parts, keep) {
            continue;
        }
        let mut close = false;
        for (h, group) in groups.iter().enumerate() {
            if !between(group) {
                continue;
            }
            match closeness(group, &band, &nodes, edges)? {
                Closeness::Close => close = true,
                Closeness::WithSlack if status[h] == Status::Postponed || (late && h == g) => {
                    close = true
                }
                Closeness::WithSlack => {
                    if h == g || status[h] == Status::Untried {
                        status[h] = Status::Postponed;
                    }
                }
                Closeness::Far => {}
            }
            if close {
                break;
            }
        }
        if !close {
            continue;
        }
        let mut components: Vec<usize> = parts
            .iter()
            .flat_map(|c| c.components.iter().copied())
            .collect();
        components.sort_unstable();
        clusters = clusters
            .into_iter()
            .enumerate()
            .filter(|(c, _)| !chosen.contains(c))
            .map(|(_, cluster)| cluster)
            .collect();
        clusters.push(Cluster {
            nodes,
            band,
            components,
        });
    }
    Ok(in_validity_order(clusters, edges))
}

/// The edges between two statements, grouped by their ends, each with its
/// weight (`earlier`: each statement's rows so far). Exact.
fn proximity_groups(edges: &[Edge], earlier: &[Vec<Vec<i64>>]) -> Result<Vec<Group>, PolyError> {
    let mut groups: Vec<Group> = Vec::new();
    for (k, e) in edges.iter().enumerate() {
        if e.source == e.target {
            continue;
        }
        let weight = equalities_between_ends(e, earlier)?;
        match groups
            .iter_mut()
            .find(|g| g.source == e.source && g.target == e.target)
        {
            Some(g) => {
                g.edges.push(k);
                g.weight = g.weight.max(weight);
            }
            None => groups.push(Group {
                source: e.source,
                target: e.target,
                edges: vec![k],
                weight,
            }),
        }
    }
    Ok(groups)
}

/// The directions in which the pairs of `edge` may still reach distance
/// zero (isl's weight): the rank of its equalities that tie source
/// coordinates to target coordinates, less that of the distances of the
/// rows already around both ends (`earlier`, per statement), which the
/// edge keeps at zero. Its equalities are read as written, not from its
/// affine hull. Exact for what it reads.
fn equalities_between_ends(edge: &Edge, earlier: &[Vec<Vec<i64>>]) -> Result<usize, PolyError> {
    let space = edge.relation.space();
    let (n_in, n_out) = (space.n_in(), space.n_out());
    let ends = |c: &Constraint| -> Vec<i64> {
        (0..n_in)
            .map(|j| c.coeffs[space.in_col(j)])
            .chain((0..n_out).map(|j| c.coeffs[space.out_col(j)]))
            .collect()
    };
    let mut rows: Vec<Vec<i64>> = Vec::new();
    let none = Vec::new();
    let (before_src, before_tgt) = (
        earlier.get(edge.source).unwrap_or(&none),
        earlier.get(edge.target).unwrap_or(&none),
    );
    for (h_s, h_t) in before_src.iter().zip(before_tgt) {
        let mut row = Vec::with_capacity(n_in + n_out);
        for &c in h_s {
            row.push(c.checked_neg().ok_or(PolyError::Overflow)?);
        }
        row.extend_from_slice(h_t);
        rows.push(row);
    }
    let handled = rank(&rows, n_in + n_out)?;
    rows.extend(edge.relation.constraints().iter().filter_map(|c| {
        let row = ends(c);
        let tied =
            c.is_eq() && row[..n_in].iter().any(|&v| v != 0) && row[n_in..].iter().any(|&v| v != 0);
        tied.then_some(row)
    }));
    Ok(rank(&rows, n_in + n_out)? - handled)
}

/// The position of the cluster holding statement `s`.
fn cluster_of(clusters: &[Cluster], s: usize) -> usize {
    clusters
        .iter()
        .position(|c| c.nodes.contains(&s))
        .unwrap_or(usize::MAX)
}

/// The next group to merge along, between two clusters that both have a
/// band: untried ones first, then postponed ones; among those, the
/// greatest weight, ties to the clusters closest in topological order,
/// then to the first group.
fn next_group(clusters: &[Cluster], groups: &[Group], status: &[Status]) -> Option<usize> {
    [Status::Untried, Status::Postponed]
        .into_iter()
        .find_map(|wanted| best_group(clusters, groups, |g| status[g] == wanted))
}

/// [`next_group`] among the groups `eligible` admits.
fn best_group(
    clusters: &[Cluster],
    groups: &[Group],
    eligible: impl Fn(usize) -> bool,
) -> Option<usize> {
    let mut best: Option<(usize, usize, usize)> = None; // (weight, distance, group)
    for (g, group) in groups.iter().enumerate() {
        let (a, b) = (
            cluster_of(clusters, group.source),
            cluster_of(clusters, group.target),
        );
        if !eligible(g)
            || a == b
            || a == usize::MAX
            || b == usize::MAX
            || clusters[a].band.is_empty()
            || clusters[b].band.is_empty()
        {
            continue;
        }
        let apart = topological_distance(&clusters[a], &clusters[b]);
        let better = match best {
            None => true,
            Some((w, d, _)) => group.weight > w || (group.weight == w && apart < d),
        };
        if better {
            best = Some((group.weight, apart, g));
        }
    }
    best.map(|(_, _, g)| g)
}

/// The least distance between a component of `a` and one of `b` in the
/// components' topological order.
fn topological_distance(a: &Cluster, b: &Cluster) -> usize {
    a.components
        .iter()
        .flat_map(|x| b.components.iter().map(move |y| x.abs_diff(*y)))
        .min()
        .unwrap_or(usize::MAX)
}

/// `reach[a][b]`: a validity path leads from cluster `a` to cluster `b`
/// (every cluster reaches itself).
fn validity_reach(clusters: &[Cluster], edges: &[Edge]) -> Vec<Vec<bool>> {
    let n = clusters.len();
    let mut reach = vec![vec![false; n]; n];
    for (a, row) in reach.iter_mut().enumerate() {
        row[a] = true;
    }
    for e in edges.iter().filter(|e| e.validity) {
        let (a, b) = (
            cluster_of(clusters, e.source),
            cluster_of(clusters, e.target),
        );
        if a < n && b < n {
            reach[a][b] = true;
        }
    }
    close_transitively(&mut reach);
    reach
}

/// Clusters `a` and `b` and every cluster on a validity path between
/// them, ascending.
fn on_validity_paths(clusters: &[Cluster], edges: &[Edge], a: usize, b: usize) -> Vec<usize> {
    let reach = validity_reach(clusters, edges);
    (0..clusters.len())
        .filter(|&c| {
            c == a || c == b || (reach[a][c] && reach[c][b]) || (reach[b][c] && reach[c][a])
        })
        .collect()
}

/// Whether `band` is not empty, has as many members as each part's band,
/// keeps their coincidence as `keep` asks, and runs every statement along
/// each coincident member (no row of one is constant: such a statement
/// would run at one iteration of the parallel loop, which tiling then
/// peels and runs alone). Cheap.
fn keeps_what_the_clusters_had(band: &[Member], parts: &[&Cluster], keep: Keep) -> bool {
    let coincident = |b: &[Member]| b.iter().filter(|m| m.coincident).count();
    let deepest = parts.iter().map(|c| c.band.len()).max().unwrap_or(0);
    let most_coincident = parts.iter().map(|c| coincident(&c.band)).max().unwrap_or(0);
    let needed = match keep {
        Keep::EveryCoincidentMember => most_coincident,
        Keep::OneCoincidentMember => most_coincident.min(1),
    };
    let along = |m: &Member| m.rows.iter().all(|r| r.iter.iter().any(|&c| c != 0));
    !band.is_empty()
        && band.len() >= deepest
        && coincident(band) >= needed
        && band.iter().filter(|m| m.coincident).all(along)
}

/// How close `band` (rows in the order of `nodes`, which hold the
/// group's ends) brings the pairs of `group`. Exact.
fn closeness(
    group: &Group,
    band: &[Member],
    nodes: &[usize],
    edges: &[Edge],
) -> Result<Closeness, PolyError> {
    let (Some(src), Some(tgt)) = (
        nodes.iter().position(|&s| s == group.source),
        nodes.iter().position(|&s| s == group.target),
    ) else {
        return Ok(Closeness::Far);
    };
    let mut slack = band.len().saturating_sub(group.weight);
    let mut answer = Closeness::Close;
    for member in band {
        let (from, to) = (&member.rows[src], &member.rows[tgt]);
        let mut bounded = true;
        for &k in &group.edges {
            bounded &= within_close(&edges[k], from, to)?;
        }
        if bounded {
            continue;
        }
        if slack == 0 {
            return Ok(Closeness::Far);
        }
        slack -= 1;
        for &k in &group.edges {
            if !has_one_value(&edges[k], from, true)? && !has_one_value(&edges[k], to, false)? {
                return Ok(Closeness::Far);
            }
        }
        answer = Closeness::WithSlack;
    }
    Ok(answer)
}

/// Whether every pair of `edge` is at a distance from −[`CLOSE`] to
/// [`CLOSE`] on the rows `src` (of its source) and `tgt`. Exact.
fn within_close(edge: &Edge, src: &AffineRow, tgt: &AffineRow) -> Result<bool, PolyError> {
    let d = distance(edge, src, tgt)?;
    for sign in [1, -1] {
        let coeffs = d
            .coeffs
            .iter()
            .map(|&c| c.checked_mul(sign).ok_or(PolyError::Overflow))
            .collect::<Result<Vec<_>, _>>()?;
        let constant = d
            .constant
            .checked_mul(sign)
            .and_then(|c| c.checked_sub(CLOSE + 1))
            .ok_or(PolyError::Overflow)?;
        let mut relation = edge.relation.clone();
        relation.add(Constraint::ineq(coeffs, constant));
        if !relation.is_empty()? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether `row` takes one value (for each value of the parameters) on
/// the sources of `edge` (`source`) or on its targets: no two pairs give
/// it different values. Exact: two copies of the pairs, one value above
/// the other, must be empty.
fn has_one_value(edge: &Edge, row: &AffineRow, source: bool) -> Result<bool, PolyError> {
    let relation = &edge.relation;
    let space = relation.space();
    let (n_param, n_dim) = (space.n_param(), space.n_dim_total());
    let n_local = relation.n_local();
    let n = n_param + 2 * n_dim + 2 * n_local;
    // Copy 0 keeps its columns but its locals; copy 1 follows it.
    let column = |copy: usize, c: usize| {
        if c < n_param {
            c
        } else if c < n_param + n_dim {
            c + copy * n_dim
        } else {
            c + n_dim + copy * n_local
        }
    };
    let mut rows = Vec::new();
    for copy in 0..2 {
        rows.extend(
            relation
                .constraints()
                .iter()
                .map(|c| c.remapped(n, |k| column(copy, k))),
        );
    }
    let mut above = vec![0; n];
    for (j, &c) in row.iter.iter().enumerate() {
        let k = if source {
            space.in_col(j)
        } else {
            space.out_col(j)
        };
        above[column(0, k)] = c;
        above[column(1, k)] = c.checked_neg().ok_or(PolyError::Overflow)?;
    }
    rows.push(Constraint::ineq(above, -1));
    let dims = |tag: &str| (0..n_dim).map(|k| format!("{tag}{k}")).collect();
    let pairs = Space::map(
        (0..n_param).map(|k| format!("p{k}")).collect(),
        Tuple::new(None, dims("a")),
        Tuple::new(None, dims("b")),
    );
    BasicMap::from_columns(pairs, 2 * n_local, rows).is_empty()
}

/// `clusters` in an order where every validity edge between two of them
/// goes forward; among those ready, the one holding the earliest
/// component first. The clusters are acyclic: a merge takes every cluster
/// on a path between its two.
fn in_validity_order(mut clusters: Vec<Cluster>, edges: &[Edge]) -> Vec<Cluster> {
    let reach = validity_reach(&clusters, edges);
    let first = |c: &Cluster| c.components.first().copied().unwrap_or(usize::MAX);
    let n = clusters.len();
    let mut order = Vec::new();
    let mut placed = vec![false; n];
    while order.len() < n {
        let ready = (0..n)
            .filter(|&c| !placed[c] && (0..n).all(|d| placed[d] || d == c || !reach[d][c]))
            .min_by_key(|&c| first(&clusters[c]));
        let Some(c) = ready else {
            // A cycle cannot happen (see above); keep the rest as they are.
            order.extend((0..n).filter(|&c| !placed[c]));
            break;
        };
        placed[c] = true;
        order.push(c);
    }
    let mut slots: Vec<Option<Cluster>> = clusters.drain(..).map(Some).collect();
    order
        .into_iter()
        .filter_map(|c| slots.get_mut(c).and_then(Option::take))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auto::graph::{graph_of, Graph};

    const PARAMS: &str = "int n, double A[n][n], double B[n][n]";

    /// A producer nest and a consumer nest reading `read` (C text).
    fn two_nests(read: &str) -> Graph {
        graph_of(
            &format!(
                "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    A[i][j] = i + j;\n\
                 for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    B[i][j] = {read};"
            ),
            PARAMS,
        )
    }

    fn row(iter: &[i64], constant: i64) -> AffineRow {
        AffineRow {
            iter: iter.to_vec(),
            param: vec![0],
            constant,
        }
    }

    fn member(rows: Vec<AffineRow>, coincident: bool) -> Member {
        Member { rows, coincident }
    }

    fn cluster(nodes: &[usize], band: Vec<Member>, component: usize) -> Cluster {
        Cluster {
            nodes: nodes.to_vec(),
            band,
            components: vec![component],
        }
    }

    /// The weight counts the directions the pairs may still align, less
    /// those the rows around both ends already align.
    #[test]
    fn the_weight_counts_the_equalities_not_yet_aligned() {
        let none = vec![vec![], vec![]];
        let weight = |g: &Graph, earlier: &[Vec<Vec<i64>>]| {
            let groups = proximity_groups(&g.edges, earlier).unwrap();
            groups.iter().map(|g| g.weight).max().unwrap()
        };
        assert_eq!(weight(&two_nests("A[i][j]"), &none), 2);
        assert_eq!(weight(&two_nests("A[j][i]"), &none), 2);
        assert_eq!(weight(&two_nests("A[i][0]"), &none), 1);
        let around_i = vec![vec![vec![1, 0]], vec![vec![1, 0]]];
        assert_eq!(weight(&two_nests("A[i][j]"), &around_i), 1);
    }

    /// The heaviest group goes first; among equal weights, the clusters
    /// closest in the topological order; a tried group is not chosen.
    #[test]
    fn the_next_group_is_the_heaviest_then_the_closest() {
        let one = vec![member(vec![row(&[1], 0)], true)];
        let clusters = vec![
            cluster(&[0], one.clone(), 0),
            cluster(&[1], one.clone(), 1),
            cluster(&[2], one.clone(), 2),
            cluster(&[3], Vec::new(), 3),
        ];
        let group = |source, target, weight| Group {
            source,
            target,
            edges: Vec::new(),
            weight,
        };
        let groups = vec![
            group(0, 2, 1),
            group(1, 2, 1),
            group(0, 1, 0),
            group(2, 3, 2),
        ];
        let mut status = vec![Status::Untried; groups.len()];
        // 2 -> 3 is the heaviest, but cluster 3 has no band.
        assert_eq!(next_group(&clusters, &groups, &status), Some(1));
        status[1] = Status::Done;
        assert_eq!(next_group(&clusters, &groups, &status), Some(0));
        status[0] = Status::Postponed;
        assert_eq!(next_group(&clusters, &groups, &status), Some(2));
        status[2] = Status::Done;
        assert_eq!(next_group(&clusters, &groups, &status), Some(0));
    }

    /// A merged band is refused when it is empty, shallower than a
    /// cluster's, or has fewer coincident members than `keep` asks.
    #[test]
    fn a_merge_keeps_depth_and_coincidence() {
        let r = || vec![row(&[1, 0], 0)];
        let two = cluster(&[0], vec![member(r(), true), member(r(), true)], 0);
        let one = cluster(&[1], vec![member(r(), true), member(r(), false)], 1);
        let parts = [&two, &one];
        let every = Keep::EveryCoincidentMember;
        let both = vec![member(r(), true), member(r(), true)];
        let first = vec![member(r(), true), member(r(), false)];
        assert!(keeps_what_the_clusters_had(&both, &parts, every));
        assert!(!keeps_what_the_clusters_had(&[], &parts, every));
        assert!(!keeps_what_the_clusters_had(&both[..1], &parts, every));
        assert!(!keeps_what_the_clusters_had(&first, &parts, every));
        assert!(keeps_what_the_clusters_had(
            &first,
            &parts,
            Keep::OneCoincidentMember
        ));
        let none = vec![member(r(), false), member(r(), false)];
        assert!(!keeps_what_the_clusters_had(
            &none,
            &parts,
            Keep::OneCoincidentMember
        ));
        let constant = || vec![row(&[0, 0], 0)];
        let one_value = vec![member(constant(), true), member(r(), true)];
        assert!(!keeps_what_the_clusters_had(&one_value, &parts, every));
        let last = vec![member(r(), true), member(constant(), false)];
        assert!(keeps_what_the_clusters_had(
            &last,
            &parts,
            Keep::OneCoincidentMember
        ));
    }

    /// A group is close when every distance is within 2 on every member;
    /// beyond its weight, a member on which the producer has one value
    /// leaves it close with slack; otherwise it is far.
    #[test]
    fn closeness_bounds_every_distance_by_two() {
        let closeness_of = |g: &Graph, band: &[Member]| {
            let groups = proximity_groups(&g.edges, &[vec![], vec![]]).unwrap();
            closeness(&groups[0], band, &[0, 1], &g.edges).unwrap()
        };
        let aligned = |shift: i64| {
            vec![
                member(vec![row(&[1, 0], 0), row(&[1, 0], shift)], true),
                member(vec![row(&[0, 1], 0), row(&[0, 1], 0)], true),
            ]
        };
        let same = two_nests("A[i][j]");
        assert_eq!(closeness_of(&same, &aligned(0)), Closeness::Close);
        assert_eq!(closeness_of(&same, &aligned(2)), Closeness::Close);
        assert_eq!(closeness_of(&same, &aligned(3)), Closeness::Far);
        // B[i][j] reads A[i][0]: weight 1; on the second member A's
        // producer row is constant (one value), B's row is j.
        let column = two_nests("A[i][0]");
        let producer = vec![
            member(vec![row(&[1, 0], 0), row(&[1, 0], 0)], true),
            member(vec![row(&[0, 0], 0), row(&[0, 1], 0)], false),
        ];
        assert_eq!(closeness_of(&column, &producer), Closeness::WithSlack);
        // The producer's row j takes the one value 0 on the pairs too.
        let walking = vec![
            member(vec![row(&[1, 0], 0), row(&[1, 0], 0)], true),
            member(vec![row(&[0, 1], 0), row(&[0, 1], 0)], false),
        ];
        assert_eq!(closeness_of(&column, &walking), Closeness::WithSlack);
        // With weight 2 there is no slack: far.
        let transposed = two_nests("A[j][i]");
        let far = vec![
            member(vec![row(&[1, 0], 0), row(&[1, 0], 0)], true),
            member(vec![row(&[0, 1], 0), row(&[0, 1], 0)], true),
        ];
        assert_eq!(closeness_of(&transposed, &far), Closeness::Far);
    }
}
