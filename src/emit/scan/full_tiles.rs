//! Full-tile separation: a loop whose range is `max(lowers) .. min(uppers)`
//! where one lower bound `f` and one upper bound `e` differ by a constant
//! (the point loop of a tile: `32·c .. min(32·c + 31, n - 1)`) runs from
//! `f` to `e` exactly when `f` is the largest lower bound and `e` the
//! smallest upper one. So it is written twice,
//!
//! ```c
//! if (32 * c + 31 <= n - 1) {     // a full tile
//!   for (i = 32 * c; i <= 32 * c + 31; i++) …
//! } else {                        // a partial one, as before
//!   for (i = 32 * c; i <= polyc_min(32 * c + 31, n - 1); i++) …
//! }
//! ```
//!
//! and the compiler sees a constant trip count in the full tile (it
//! vectorises and unrolls with no remainder; gemm's tiled update ran 1.5×
//! faster on Zen 1). The conditions of the loops nested directly inside
//! (a chain of single loops: the point loops of a band) join the first
//! `if`, so one test covers the whole tile; a condition that reads a
//! chain variable is taken at that variable's worst end of its full range
//! (syrk's `j` tile is full below the diagonal when `i >= 32 * c2 + 31`,
//! so for the whole `i` tile when `32 * c1 >= 32 * c2 + 31`), a
//! sufficient test, and the chain stops before a loop that would make the
//! test longer than [`MAX_TEST_TERMS`]. The rewrite keeps what runs: each condition is an exact
//! integer comparison of two bounds (`f ≥ ceil(b / d)` is `d·f − b ≥ 0`),
//! and under all of them the `max` is `f` and the `min` is `e`.
//!
//! Not versioned: chains that stop above the innermost loops (a time tile
//! around whole sweeps: the code would double for no faster loop), loops
//! whose full range starts at no enclosing loop's
//! variable (not a tile: `1 .. min(n − 1, 9)` after an `iss`), loops
//! with a stride (their lower bound is a stride start), one-iteration
//! loops, the loops a `collapse` covers (OpenMP
//! needs them perfectly nested), and nests whose copy would be large
//! ([`MAX_VERSIONED_WEIGHT`]). Below a chain, both branches are versioned
//! in turn (syrk's triangular `j` loop gets its own test inside each
//! version of `i`), so code doubles once per chain on the way down.

use super::ast::{Cond, Expr, Loop, Node, Sum};
use crate::scop::schedule::Mark;

/// The most statement copies (statement nodes, times the unroll factors
/// around them) a versioned nest may hold: the full-tile copy doubles the
/// printed code, and compile time with it.
const MAX_VERSIONED_WEIGHT: u64 = 256;

/// The most comparisons one full-tile test joins from the loops of a
/// chain: a skewed tile's point loops each have several bounds, and a test
/// of fifteen (seidel-2d's skewed 4 × 4 × 4 tiles) is unreadable for a
/// tile that is rarely full; the chain stops before a loop that would
/// pass it.
const MAX_TEST_TERMS: usize = 8;

/// `nodes` with every full-tile chain versioned.
pub fn separate_full_tiles(nodes: Vec<Node>) -> Vec<Node> {
    let top = Scope {
        loops: Vec::new(),
        collapsed: 0,
    };
    nodes.into_iter().map(|n| node(n, &top)).collect()
}

/// What surrounds a node.
#[derive(Clone)]
struct Scope {
    /// The variables of the loops around it.
    loops: Vec<String>,
    /// How many loops from here down a `collapse` above covers: they are
    /// left as they are.
    collapsed: u32,
}

impl Scope {
    /// The scope of `l`'s body.
    fn inside(&self, l: &Loop) -> Scope {
        let mut loops = self.loops.clone();
        loops.push(l.var.clone());
        let collapsed = l
            .marks
            .iter()
            .find_map(|m| match m {
                Mark::Collapse(n) => Some(n.saturating_sub(1)),
                _ => None,
            })
            .unwrap_or(self.collapsed.saturating_sub(1));
        Scope { loops, collapsed }
    }
}

/// `n`, versioned.
fn node(n: Node, scope: &Scope) -> Node {
    match n {
        Node::For(l) => versioned(*l, scope),
        Node::If {
            conds,
            body,
            otherwise,
        } => Node::If {
            conds,
            body: body.into_iter().map(|n| node(n, scope)).collect(),
            otherwise: otherwise.into_iter().map(|n| node(n, scope)).collect(),
        },
        stmt => stmt,
    }
}

/// `l` versioned as a full and a partial tile when it heads a chain, else
/// with its body versioned.
fn versioned(mut l: Loop, scope: &Scope) -> Node {
    let inside = scope.inside(&l);
    let chain =
        if scope.collapsed > 0 || inside.collapsed > 0 || weight(&l.body) > MAX_VERSIONED_WEIGHT {
            None
        } else {
            full_chain(&l, &scope.loops)
        };
    let Some((conds, ranges)) = chain else {
        l.body = l.body.into_iter().map(|n| node(n, &inside)).collect();
        return Node::For(Box::new(l));
    };
    let full = rebuilt(&l, Some(&ranges), ranges.len(), scope);
    if conds.is_empty() {
        // The other bounds never cut the range (each comparison held as
        // constants): every tile is full.
        return Node::For(Box::new(full));
    }
    let partial = rebuilt(&l, None, ranges.len(), scope);
    Node::If {
        conds,
        body: vec![Node::For(Box::new(full))],
        otherwise: vec![Node::For(Box::new(partial))],
    }
}

/// The chain of `depth` loops from `l` (in `scope`) with their bounds
/// replaced by `ranges` (the full tile) or kept (`None`), and the body
/// under the chain versioned in turn.
fn rebuilt(l: &Loop, ranges: Option<&[Range]>, depth: usize, scope: &Scope) -> Loop {
    let mut l = l.clone();
    if let Some(ranges) = ranges {
        if let Some((lower, upper)) = ranges.first() {
            l.lower = Expr::Ceil(lower.clone(), 1);
            l.upper = Expr::Floor(upper.clone(), 1);
        }
    }
    let inside = scope.inside(&l);
    if depth > 1 {
        if let [Node::For(inner)] = l.body.as_slice() {
            let inner = rebuilt(inner, ranges.map(|r| &r[1..]), depth - 1, &inside);
            l.body = vec![Node::For(Box::new(inner))];
            return l;
        }
    }
    l.body = l.body.into_iter().map(|n| node(n, &inside)).collect();
    l
}

/// A loop's full range: its lower and upper bound in a full tile.
type Range = (Sum, Sum);

/// The conditions under which `l` and the single loops nested in it run
/// full tiles, and each one's full range, outermost first; `None` when `l`
/// has no full range. A full range must start at a value that reads an
/// enclosing loop's variable (of `around`, or of the chain): a tile's
/// point loop does (`32·c`), and a loop cut only by parameters
/// (`1 .. min(n − 1, 9)` after an `iss`) is not a tile and keeps one copy.
fn full_chain(l: &Loop, around: &[String]) -> Option<(Vec<Cond>, Vec<Range>)> {
    let mut conds = Vec::new();
    let mut ranges = Vec::new();
    let mut vars: Vec<&str> = Vec::new();
    let mut current = l;
    let mut last = l;
    while let Some((range, more)) = full_range(current) {
        let in_a_tile = around
            .iter()
            .map(String::as_str)
            .chain(vars.iter().copied())
            .any(|v| range.0.mentions(v));
        if !in_a_tile {
            break;
        }
        // A test that reads a chain variable (syrk's `j` tile is full when
        // `i >= 32 * c2 + 31`) holds for the whole tile when it holds at
        // that variable's worst end of its full range.
        let box_of: Vec<(&str, &Range)> = vars.iter().copied().zip(ranges.iter()).collect();
        let Some(more) = more
            .into_iter()
            .map(|c| at_worst_corner(c, &box_of))
            .collect::<Option<Vec<Cond>>>()
        else {
            break;
        };
        let fresh: Vec<Cond> = more.into_iter().filter(|c| !conds.contains(c)).collect();
        if !ranges.is_empty() && conds.len() + fresh.len() > MAX_TEST_TERMS {
            break;
        }
        conds.extend(fresh);
        ranges.push(range);
        last = current;
        vars.push(current.var.as_str());
        match current.body.as_slice() {
            [Node::For(inner)] if !inner.marks.iter().any(|m| matches!(m, Mark::Collapse(_))) => {
                current = inner
            }
            _ => break,
        }
    }
    // The gain is in the innermost loops, which the compiler vectorises
    // and unrolls; a chain that stops above them (a time tile around
    // whole sweeps) would only double the code.
    let innermost = !last.body.iter().any(Node::has_loop);
    (!ranges.is_empty() && innermost).then_some((conds, ranges))
}

/// `c`, which may read the chain variables of `chain` (each with its full
/// range), as a test over the variables outside the chain that holds
/// exactly when `c` holds at every point of the chain's box: each chain
/// variable replaced by the end of its range where `c` is smallest (the
/// lower end where its coefficient is positive). `None` when that is not
/// a box (a range reads another chain variable), when `c` has floors, or
/// on overflow.
fn at_worst_corner(c: Cond, chain: &[(&str, &Range)]) -> Option<Cond> {
    let read: Vec<&(&str, &Range)> = chain.iter().filter(|(v, _)| c.mentions(v)).collect();
    if read.is_empty() {
        return Some(c);
    }
    if !c.floors.is_empty() || c.eq || c.modulo.is_some() {
        return None;
    }
    let in_chain = |s: &Sum| chain.iter().any(|(v, _)| s.mentions(v));
    let mut c = c;
    for (v, (lower, upper)) in read {
        if in_chain(lower) || in_chain(upper) {
            return None;
        }
        let coefficient = c
            .aff
            .terms
            .iter()
            .filter(|(_, n)| n == v)
            .map(|(k, _)| *k)
            .sum::<i64>();
        let end = if coefficient > 0 { lower } else { upper };
        c.aff = replaced(&c.aff, v, end)?;
        if let Some((left, right)) = &c.sides {
            c.sides = Some(cancelled(
                replaced_in(left, v, end)?,
                replaced_in(right, v, end)?,
            ));
        }
    }
    Some(c)
}

/// `s` with `var` replaced by `value`, exactly; `None` on overflow.
fn replaced(s: &Sum, var: &str, value: &Sum) -> Option<Sum> {
    let mut out = Sum {
        terms: Vec::new(),
        constant: s.constant,
    };
    let mut k = 0i64;
    for (c, n) in &s.terms {
        if n == var {
            k = k.checked_add(*c)?;
        } else {
            out.terms.push((*c, n.clone()));
        }
    }
    out.minus(&value.times(k.checked_neg()?)?)
}

/// A bound with `var` replaced by `value` (a full-tile test's sides are
/// rounded affine forms).
fn replaced_in(e: &Expr, var: &str, value: &Sum) -> Option<Expr> {
    match e {
        Expr::Ceil(s, d) => Some(Expr::Ceil(replaced(s, var, value)?, *d)),
        Expr::Floor(s, d) => Some(Expr::Floor(replaced(s, var, value)?, *d)),
        _ => None,
    }
}

/// The full range `(f, e)` of `l` (a lower and an upper bound a constant
/// apart) and the conditions, over the variables around `l`, under which
/// the other bounds do not cut it; `None` when it has none, when nothing
/// cuts it, or when a condition cannot hold.
fn full_range(l: &Loop) -> Option<(Range, Vec<Cond>)> {
    if l.once || l.stride != 1 {
        return None;
    }
    let lowers = flattened(&l.lower, true);
    let uppers = flattened(&l.upper, false);
    if lowers.len() + uppers.len() <= 2 {
        return None;
    }
    for (a, f) in lowers.iter().enumerate() {
        let Some(f_sum) = affine(f) else { continue };
        for (b, e) in uppers.iter().enumerate() {
            let Some(e_sum) = affine(e) else { continue };
            let width = e_sum.minus(f_sum)?;
            if !width.is_constant() || width.constant < 0 {
                continue;
            }
            let mut conds = Vec::new();
            for (_, other) in lowers.iter().enumerate().filter(|(k, _)| *k != a) {
                conds.push(at_least(f_sum, other)?);
            }
            for (_, other) in uppers.iter().enumerate().filter(|(k, _)| *k != b) {
                conds.push(at_most(e_sum, other)?);
            }
            let mut kept: Vec<Cond> = Vec::new();
            for c in conds {
                if c.aff.is_constant() {
                    if c.aff.constant < 0 {
                        return None;
                    }
                } else {
                    kept.push(c);
                }
            }
            return Some(((f_sum.clone(), e_sum.clone()), kept));
        }
    }
    None
}

/// The terms of a `max` (for a lower bound) or `min` (upper), nested ones
/// flattened.
fn flattened(e: &Expr, lower: bool) -> Vec<&Expr> {
    match (e, lower) {
        (Expr::Max(v), true) | (Expr::Min(v), false) => {
            v.iter().flat_map(|x| flattened(x, lower)).collect()
        }
        _ => vec![e],
    }
}

/// The affine form of a bound with no division.
fn affine(e: &Expr) -> Option<&Sum> {
    match e {
        Expr::Ceil(a, 1) | Expr::Floor(a, 1) => Some(a),
        _ => None,
    }
}

/// `f ≥ other` as a condition: `d·f − b ≥ 0` for `ceil(b / d)`,
/// `d·f − b + d − 1 ≥ 0` for `floor(b / d)`.
fn at_least(f: &Sum, other: &Expr) -> Option<Cond> {
    let aff = match other {
        Expr::Ceil(b, d) => f.times(*d)?.minus(b)?,
        Expr::Floor(b, d) => f.times(*d)?.minus(b)?.plus(d - 1)?,
        _ => return None,
    };
    Some(inequality(aff, Expr::Ceil(f.clone(), 1), other.clone()))
}

/// `e ≤ other` as a condition: `b − d·e ≥ 0` for `floor(b / d)`,
/// `b + d − 1 − d·e ≥ 0` for `ceil(b / d)`.
fn at_most(e: &Sum, other: &Expr) -> Option<Cond> {
    let aff = match other {
        Expr::Floor(b, d) => b.minus(&e.times(*d)?)?,
        Expr::Ceil(b, d) => b.plus(d - 1)?.minus(&e.times(*d)?)?,
        _ => return None,
    };
    Some(inequality(aff, other.clone(), Expr::Floor(e.clone(), 1)))
}

/// `aff ≥ 0`, printed `left >= right`.
fn inequality(aff: Sum, left: Expr, right: Expr) -> Cond {
    Cond {
        aff,
        eq: false,
        modulo: None,
        floors: Vec::new(),
        sides: Some(cancelled(left, right)),
    }
}

/// `left >= right` without the terms both sides have alike (`-2 * i + n -
/// 4 >= 4 * c2 - 2 * i` is `n - 4 >= 4 * c2`), when neither divides.
fn cancelled(left: Expr, right: Expr) -> (Expr, Expr) {
    let (
        Expr::Ceil(mut l, 1) | Expr::Floor(mut l, 1),
        Expr::Ceil(mut r, 1) | Expr::Floor(mut r, 1),
    ) = (left.clone(), right.clone())
    else {
        return (left, right);
    };
    let common: Vec<(i64, String)> = l
        .terms
        .iter()
        .filter(|t| r.terms.contains(t))
        .cloned()
        .collect();
    l.terms.retain(|t| !common.contains(t));
    r.terms.retain(|t| !common.contains(t));
    (Expr::Ceil(l, 1), Expr::Floor(r, 1))
}

/// How many statement copies `nodes` print: statement nodes times the
/// unroll factors of the loops around them.
fn weight(nodes: &[Node]) -> u64 {
    nodes
        .iter()
        .map(|n| match n {
            Node::Stmt { .. } => 1,
            Node::If {
                body, otherwise, ..
            } => weight(body).saturating_add(weight(otherwise)),
            Node::For(l) => {
                let factor = l
                    .marks
                    .iter()
                    .find_map(|m| match m {
                        Mark::Unroll(k) | Mark::UnrollNoEpilog(k) | Mark::UnrollJam(k) => {
                            Some(u64::from(*k))
                        }
                        _ => None,
                    })
                    .unwrap_or(1);
                weight(&l.body).saturating_mul(factor)
            }
        })
        .fold(0, u64::saturating_add)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(x: i64, constant: i64) -> Sum {
        Sum {
            terms: vec![(x, "x".to_string())],
            constant,
        }
    }

    fn value(s: &Sum, x: i64) -> i64 {
        s.terms.iter().map(|(c, _)| c * x).sum::<i64>() + s.constant
    }

    fn rounded(e: &Expr, x: i64) -> i64 {
        match e {
            Expr::Ceil(b, d) => {
                value(b, x).div_euclid(*d) + i64::from(value(b, x).rem_euclid(*d) != 0)
            }
            Expr::Floor(b, d) => value(b, x).div_euclid(*d),
            _ => unreachable!("only divisions here"),
        }
    }

    /// A range that the other bounds never cut (`max(32c, 32c − 5)`) is
    /// printed full, with no test (an `if ()` would not compile).
    #[test]
    fn a_range_no_bound_cuts_needs_no_test() {
        let l = Loop {
            var: "i".into(),
            declare: true,
            down: false,
            lower: Expr::Max(vec![
                Expr::Ceil(
                    Sum {
                        terms: vec![(32, "c".into())],
                        constant: 0,
                    },
                    1,
                ),
                Expr::Ceil(
                    Sum {
                        terms: vec![(32, "c".into())],
                        constant: -5,
                    },
                    1,
                ),
            ]),
            upper: Expr::Min(vec![Expr::Floor(
                Sum {
                    terms: vec![(32, "c".into())],
                    constant: 31,
                },
                1,
            )]),
            stride: 1,
            marks: Vec::new(),
            once: false,
            body: vec![Node::Stmt {
                statement: 0,
                iterators: Vec::new(),
            }],
        };
        let scope = Scope {
            loops: vec!["c".into()],
            collapsed: 0,
        };
        let Node::For(full) = versioned(l, &scope) else {
            panic!("a test around a range no bound cuts");
        };
        assert_eq!(
            full.lower,
            Expr::Ceil(
                Sum {
                    terms: vec![(32, "c".into())],
                    constant: 0
                },
                1
            )
        );
    }

    /// Each test is exact: it holds at exactly the points where the full
    /// bound is at least (or at most) the other, by enumeration.
    #[test]
    fn the_full_tile_tests_compare_bounds_exactly() {
        let f = sum(2, -3);
        for d in 1..5 {
            for (b, c) in [(3, 1), (-2, 7), (5, -4)] {
                for other in [Expr::Ceil(sum(b, c), d), Expr::Floor(sum(b, c), d)] {
                    let low = at_least(&f, &other).expect("no overflow");
                    let up = at_most(&f, &other).expect("no overflow");
                    for x in -20..20 {
                        let (fv, ov) = (value(&f, x), rounded(&other, x));
                        assert_eq!(value(&low.aff, x) >= 0, fv >= ov, "{other:?} at {x}");
                        assert_eq!(value(&up.aff, x) >= 0, fv <= ov, "{other:?} at {x}");
                    }
                }
            }
        }
    }
}
