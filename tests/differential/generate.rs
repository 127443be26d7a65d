//! Random directives for the differential tester: one directive's text at a
//! time, its β-vectors, depths and arguments read from the schedule as it is
//! now, so that most directives are meaningful (and many legal). About one
//! argument in ten is chosen outside the plausible range (a depth too deep,
//! a β that names nothing, a factor of 0 or 2000, a shift by 1000) to
//! exercise the preconditions.

use polyc::scop::reduction::update_operator;
use polyc::scop::{AccessKind, Schedule, Scop};

/// A small deterministic generator (SplitMix64): the tester must replay a
/// seed exactly, on every machine, without a dependency.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        lo + (self.next_u64() % ((hi - lo) as u64 + 1)) as i64
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
}

/// The shape of a schedule as the generator sees it: each statement piece's
/// β-vector, each statement's depth and number of iterators.
struct View {
    /// (statement, β-vector `[β0, …, βd]`) of every piece whose β is constant.
    pieces: Vec<(usize, Vec<i64>)>,
    depth: Vec<usize>,
    iterators: Vec<usize>,
    params: Vec<String>,
    iterator_names: Vec<Vec<String>>,
    /// The scalars declared with an integer type: a reduction of one
    /// prints the same in any order of its updates (a `double`'s would
    /// not, and the checker compares outputs byte for byte).
    integer_scalars: Vec<String>,
    /// The arrays of the region (a reduction of one is refused).
    arrays: Vec<String>,
    /// Per statement, the integer scalar it updates as a reduction.
    updates: Vec<Option<String>>,
    /// Per statement, the arrays it reads that no statement writes (a
    /// `pack` of one copies in only; the others are drawn too).
    read_only: Vec<Vec<String>>,
    /// The arrays a recipe added (`add_array`), and how many there are.
    locals: Vec<String>,
    /// Per array of the region (scalars too), the statements accessing it.
    accessed_by: Vec<(String, Vec<usize>)>,
}

impl View {
    fn new(scop: &Scop, schedule: &Schedule) -> View {
        let mut pieces = Vec::new();
        for (s, st) in schedule.statements.iter().enumerate() {
            for p in 0..st.pieces.len() {
                if let Some(b) = st.beta(p) {
                    pieces.push((s, b));
                }
            }
        }
        let integer_scalars: Vec<String> = scop
            .arrays
            .iter()
            .filter(|a| {
                a.n_dims == 0
                    && matches!(
                        a.element_type.as_deref(),
                        Some("int" | "long" | "long long")
                    )
            })
            .map(|a| a.name.clone())
            .collect();
        View {
            pieces,
            depth: schedule.statements.iter().map(|s| s.depth()).collect(),
            iterators: scop.statements.iter().map(|s| s.iterators.len()).collect(),
            params: scop.params.clone(),
            iterator_names: scop
                .statements
                .iter()
                .map(|s| s.iterators.clone())
                .collect(),
            arrays: scop
                .arrays
                .iter()
                .filter(|a| a.n_dims > 0)
                .map(|a| a.name.clone())
                .collect(),
            updates: scop
                .statements
                .iter()
                .map(|st| {
                    integer_scalars
                        .iter()
                        .find(|x| update_operator(st, x).is_some())
                        .cloned()
                })
                .collect(),
            read_only: scop
                .statements
                .iter()
                .map(|st| {
                    let mut names: Vec<String> = st
                        .accesses
                        .iter()
                        .filter(|a| a.kind == AccessKind::Read)
                        .map(|a| a.array.clone())
                        .filter(|a| {
                            scop.statements.iter().all(|t| {
                                t.accesses
                                    .iter()
                                    .all(|b| b.kind != AccessKind::Write || b.array != *a)
                            })
                        })
                        .filter(|a| scop.arrays.iter().any(|x| x.name == *a && x.n_dims > 0))
                        .collect();
                    names.dedup();
                    names
                })
                .collect(),
            locals: scop
                .arrays
                .iter()
                .filter(|a| a.local)
                .map(|a| a.name.clone())
                .collect(),
            accessed_by: scop
                .arrays
                .iter()
                .map(|a| {
                    let users = (0..scop.statements.len())
                        .filter(|&s| {
                            scop.statements[s]
                                .accesses
                                .iter()
                                .any(|x| x.array == a.name)
                        })
                        .collect();
                    (a.name.clone(), users)
                })
                .collect(),
            integer_scalars,
        }
    }

    /// The full β of the first piece of statement `s`.
    fn beta_of(&self, s: usize) -> Option<Vec<i64>> {
        self.pieces
            .iter()
            .find(|(t, _)| *t == s)
            .map(|(_, b)| b.clone())
    }

    fn under<'a>(&'a self, prefix: &'a [i64]) -> impl Iterator<Item = &'a (usize, Vec<i64>)> {
        self.pieces
            .iter()
            .filter(move |(_, b)| b.starts_with(prefix))
    }

    /// The smallest depth of the statements under `prefix` (0 if none).
    fn min_depth(&self, prefix: &[i64]) -> usize {
        self.under(prefix)
            .map(|(s, _)| self.depth[*s])
            .min()
            .unwrap_or(0)
    }

    /// The number of children of the loop (or root) `prefix`.
    fn children(&self, prefix: &[i64]) -> usize {
        let mut values: Vec<i64> = self
            .under(prefix)
            .filter(|(_, b)| b.len() > prefix.len())
            .map(|(_, b)| b[prefix.len()])
            .collect();
        values.sort_unstable();
        values.dedup();
        values.len()
    }

    /// The first statement under `prefix`.
    fn first_statement(&self, prefix: &[i64]) -> Option<usize> {
        self.under(prefix).map(|(s, _)| *s).next()
    }
}

/// Every directive kind the generator writes (`context` only as a promise
/// the kernel's run keeps: [`Gen::context`]).
pub const KINDS: &[&str] = &[
    "context",
    "reorder",
    "fuse",
    "split",
    "shift",
    "skew",
    "reverse",
    "interchange",
    "reshape",
    "grain",
    "densify",
    "iss",
    "iss_infix",
    "peel",
    "collapse",
    "stripmine",
    "linearize",
    "tile",
    "tile_band",
    "embed",
    "unembed",
    "block",
    "parallelize",
    "vectorize",
    "unroll",
    "unroll_noepilog",
    "unroll_jam",
    "pack",
    "gpu_block",
    "gpu_thread",
    "add_array",
    "copy_array",
    "datacopy",
    "replace_array",
    "dimreorder",
    "dimprivatize",
    "dimcontract",
];

fn list(values: &[i64]) -> String {
    let v: Vec<String> = values.iter().map(|x| x.to_string()).collect();
    format!("[{}]", v.join(", "))
}

/// `values` each followed by `, `.
fn terms(values: &[i64]) -> String {
    values.iter().map(|x| format!("{x}, ")).collect()
}

fn section(values: &[i64]) -> String {
    let v: Vec<String> = values.iter().map(|x| x.to_string()).collect();
    v.join(", ")
}

struct Gen<'a> {
    rng: &'a mut Rng,
    view: View,
    /// The parameter vectors the original runs the region with (read
    /// when a `context` is drawn: it builds and runs the kernel).
    observed: &'a dyn Fn() -> Vec<Vec<i64>>,
}

impl Gen<'_> {
    /// Mostly true: choose the plausible argument.
    fn plausible(&mut self) -> bool {
        self.rng.chance(0.9)
    }

    fn piece_beta(&mut self) -> Vec<i64> {
        if self.view.pieces.is_empty() {
            return vec![0];
        }
        let k = self.rng.below(self.view.pieces.len());
        self.view.pieces[k].1.clone()
    }

    /// A statement's full β-vector, or now and then one that names nothing.
    fn statement_beta(&mut self) -> Vec<i64> {
        let mut b = self.piece_beta();
        if !self.plausible() {
            self.garble(&mut b);
        }
        b
    }

    /// A loop's β-prefix (`[β0 … β(k-1)]` for the loop at depth `k`).
    fn loop_beta(&mut self) -> Vec<i64> {
        let mut b = self.piece_beta();
        let depth = b.len().saturating_sub(1);
        if depth == 0 || !self.plausible() {
            if self.rng.chance(0.5) {
                self.garble(&mut b);
            }
            return b;
        }
        let k = self.rng.range(1, depth as i64) as usize;
        b.truncate(k);
        b
    }

    /// A β for directives that take either a loop or a statement.
    fn any_beta(&mut self) -> Vec<i64> {
        match self.rng.below(20) {
            0 => Vec::new(),
            1..=8 => self.statement_beta(),
            _ => self.loop_beta(),
        }
    }

    fn garble(&mut self, b: &mut Vec<i64>) {
        match self.rng.below(3) {
            0 if !b.is_empty() => {
                let k = self.rng.below(b.len());
                b[k] += self.rng.pick(&[1, 2, -1, 7]);
            }
            1 => b.push(self.rng.range(0, 3)),
            _ => {
                b.pop();
            }
        }
    }

    /// A depth for the statements under `beta`: usually one they all have,
    /// at or inside the loop `beta` names.
    /// `parallelize`'s options, each drawn alone: a schedule kind, a
    /// chunk (sometimes without a schedule, a refusal), a collapse.
    fn parallel_options(&mut self, beta: &[i64]) -> String {
        let mut options = String::new();
        if self.rng.chance(0.25) {
            let kind = self.rng.pick(&["static", "dynamic", "guided"]);
            options.push_str(&format!(", schedule = {kind}"));
        }
        if self.rng.chance(0.15) {
            let chunk = self.rng.pick(&[1, 4, 16]);
            options.push_str(&format!(", chunk = {chunk}"));
        }
        if self.rng.chance(0.25) {
            let n = self.rng.pick(&[2, 2, 3]);
            options.push_str(&format!(", collapse = {n}"));
        }
        options.push_str(&self.reduction_option(beta));
        options
    }

    /// `reduction = x` for `parallelize` or `vectorize` of a loop around
    /// `beta`, or nothing: mostly the integer scalar a statement in the
    /// loop updates, now and then another integer scalar or an array
    /// (refused). A double scalar's is never drawn: it may change the
    /// output's last digits, and the checker compares byte for byte.
    fn reduction_option(&mut self, beta: &[i64]) -> String {
        let updated = self
            .view
            .under(beta)
            .find_map(|(st, _)| self.view.updates[*st].clone());
        let x = if let Some(x) = updated.filter(|_| self.rng.chance(0.6)) {
            x
        } else if !self.view.integer_scalars.is_empty() && self.rng.chance(0.2) {
            let k = self.rng.below(self.view.integer_scalars.len());
            self.view.integer_scalars[k].clone()
        } else if !self.view.arrays.is_empty() && self.rng.chance(0.03) {
            let k = self.rng.below(self.view.arrays.len());
            self.view.arrays[k].clone()
        } else {
            return String::new();
        };
        format!(", reduction = \"{x}\"")
    }

    fn depth_for(&mut self, beta: &[i64]) -> usize {
        let max = self.view.min_depth(beta);
        if max == 0 || !self.plausible() {
            return self.rng.pick(&[0, 1, 2, max + 1, 5]);
        }
        let lo = if beta.len() <= max && !beta.is_empty() && self.rng.chance(0.7) {
            beta.len()
        } else {
            1
        };
        self.rng.range(lo as i64, max as i64) as usize
    }

    fn small(&mut self) -> i64 {
        if self.plausible() {
            self.rng.pick(&[-2, -1, 1, 1, 2, 3])
        } else {
            self.rng.pick(&[0, 64, -64, 1000, -1000, 1 << 40])
        }
    }

    fn size(&mut self) -> i64 {
        if self.plausible() {
            self.rng.pick(&[2, 2, 3, 4, 4, 5, 8, 16, 32])
        } else {
            self.rng.pick(&[0, 1, -1, -4, 64, 1000, 1025, 1 << 40])
        }
    }

    fn factor(&mut self) -> i64 {
        if self.plausible() {
            self.rng.pick(&[2, 2, 3, 4, 4, 5, 8])
        } else {
            self.rng.pick(&[0, 1, -2, 16, 64, 2000])
        }
    }

    fn constant(&mut self) -> i64 {
        if self.plausible() {
            self.rng.range(-4, 4)
        } else {
            self.rng.pick(&[1000, -1000, 64, -64, 1 << 40, -(1 << 40)])
        }
    }

    /// Parameter coefficients: mostly zeros, now and then ±1 on one.
    fn param_coeffs(&mut self) -> Vec<i64> {
        let n = self.view.params.len();
        let mut v = vec![0; n];
        if n > 0 && self.rng.chance(0.3) {
            let k = self.rng.below(n);
            v[k] = self.rng.pick(&[1, -1, 2]);
        }
        v
    }

    /// `context([e/i, p…, c])`: a promise on the parameters that every
    /// run of the region keeps (a bound of one parameter, of the
    /// difference of two, or its value where it never changes), so the
    /// output must not change; now and then one that no parameter value
    /// satisfies (refused). Where the runs are not known, one that holds
    /// for any value.
    fn context(&mut self) -> String {
        let n = self.view.params.len();
        let zeros = vec![0; n];
        if !self.plausible() {
            return format!("context([1, {}-1]);", terms(&zeros));
        }
        let observed = (self.observed)();
        if n == 0 || observed.is_empty() {
            return format!("context([1, {}0]);", terms(&zeros));
        }
        let mut row = zeros;
        let p = self.rng.below(n);
        let kind = self.rng.below(10);
        match kind {
            4 | 5 => row[p] = -1,
            6 | 7 if n >= 2 => {
                let q = (p + 1 + self.rng.below(n - 1)) % n;
                row[p] = 1;
                row[q] = -1;
            }
            _ => row[p] = 1,
        }
        let value = |v: &Vec<i64>| row.iter().zip(v).map(|(a, x)| a * x).sum::<i64>();
        let least = observed.iter().map(value).min().unwrap_or(0);
        let fixed = kind >= 8 && observed.iter().all(|v| value(v) == least);
        let slack = if fixed {
            0
        } else {
            self.rng.pick(&[0, 0, 1, 3])
        };
        let kind = if fixed { 0 } else { 1 };
        format!("context([{kind}, {}{}]);", terms(&row), slack - least)
    }

    fn directive(&mut self, kind: &str) -> String {
        match kind {
            "context" => self.context(),
            "reorder" => {
                let b = if self.rng.chance(0.3) {
                    Vec::new()
                } else {
                    self.loop_beta()
                };
                let n = self.view.children(&b);
                let mut order: Vec<i64> = (0..n as i64).collect();
                for k in (1..order.len()).rev() {
                    let j = self.rng.below(k + 1);
                    order.swap(k, j);
                }
                if !self.plausible() {
                    order.push(order.len() as i64);
                }
                format!("reorder({}, {});", list(&b), list(&order))
            }
            "fuse" => format!("fuse({});", list(&self.loop_beta())),
            "split" => {
                let b = self.statement_beta();
                let d = self.depth_for(&b);
                format!("split({}, {d});", list(&b))
            }
            "shift" => {
                let b = self.any_beta();
                let d = self.depth_for(&b);
                let p = self.param_coeffs();
                let c = self.constant();
                format!("shift({}, {d}, {}, {c});", list(&b), list(&p))
            }
            "skew" => {
                let b = self.any_beta();
                let d = self.depth_for(&b);
                let mut o = self.depth_for(&b);
                if o == d && d > 1 && self.plausible() {
                    o = self.rng.range(1, d as i64 - 1) as usize;
                }
                let k = self.small();
                format!("skew({}, {d}, {o}, {k});", list(&b))
            }
            "reverse" => {
                let b = self.any_beta();
                let d = self.depth_for(&b);
                format!("reverse({}, {d});", list(&b))
            }
            "interchange" => {
                let b = self.any_beta();
                let d1 = self.depth_for(&b);
                let d2 = self.depth_for(&b);
                format!("interchange({}, {d1}, {d2});", list(&b))
            }
            "reshape" => {
                let b = self.any_beta();
                let d = self.depth_for(&b);
                let n = self
                    .view
                    .first_statement(&b)
                    .map_or(1, |s| self.view.iterators[s]);
                let i = if self.plausible() {
                    self.rng.range(1, n.max(1) as i64)
                } else {
                    self.rng.pick(&[0, n as i64 + 1])
                };
                let k = self.small();
                format!("reshape({}, {d}, {i}, {k});", list(&b))
            }
            "grain" => {
                let b = self.any_beta();
                let d = self.depth_for(&b);
                let k = self.factor();
                format!("grain({}, {d}, {k});", list(&b))
            }
            "densify" => {
                let b = self.any_beta();
                let d = self.depth_for(&b);
                format!("densify({}, {d});", list(&b))
            }
            "iss" => {
                let b = self.loop_beta();
                let k = b.len().max(1);
                let mut alphas = vec![0; k];
                alphas[k - 1] = self.rng.pick(&[1, -1]);
                if k > 1 && self.rng.chance(0.2) {
                    let j = self.rng.below(k - 1);
                    alphas[j] = self.rng.pick(&[1, -1]);
                }
                let p = self.param_coeffs();
                let c = if p.iter().any(|&x| x != 0) {
                    self.rng.range(-3, 3)
                } else {
                    self.rng.pick(&[-1, -2, -3, -5, -10, 0, 2])
                };
                format!(
                    "iss({}, {{{} | | {} | {c}}});",
                    list(&b),
                    section(&alphas),
                    section(&p)
                )
            }
            "iss_infix" => {
                let b = self.loop_beta();
                let k = b.len().max(1);
                let op = self.rng.pick(&[">=", "<=", ">", "<"]);
                let lhs = match self.view.first_statement(&b) {
                    Some(s) if self.rng.chance(0.3) && !self.view.iterator_names[s].is_empty() => {
                        let names = self.view.iterator_names[s].clone();
                        self.rng.pick(&names)
                    }
                    _ => format!("c{}", self.rng.range(1, k as i64)),
                };
                let rhs = if !self.view.params.is_empty() && self.rng.chance(0.4) {
                    let p = self.view.params.clone();
                    format!("{} / 2", self.rng.pick(&p))
                } else {
                    self.rng.pick(&[1, 2, 3, 5, 10]).to_string()
                };
                format!("iss({}, {lhs} {op} {rhs});", list(&b))
            }
            "peel" => {
                let b = self.loop_beta();
                let p = self.param_coeffs();
                let c = if p.iter().any(|&x| x != 0) {
                    self.rng.range(-3, 3)
                } else {
                    self.rng.pick(&[-1, -2, -3, -5, 0])
                };
                if self.view.params.is_empty() {
                    format!("peel({}, {{{c}}});", list(&b))
                } else {
                    format!("peel({}, {{{} | {c}}});", list(&b), section(&p))
                }
            }
            "collapse" => format!("collapse({});", list(&self.loop_beta())),
            "stripmine" => {
                let b = self.any_beta();
                let d = self.depth_for(&b);
                let s = self.size();
                format!("stripmine({}, {d}, {s});", list(&b))
            }
            "linearize" => {
                let b = self.loop_beta();
                let d = self.depth_for(&b);
                format!("linearize({}, {d});", list(&b))
            }
            "tile" => {
                let b = self.any_beta();
                let d = self.depth_for(&b);
                let o = if self.plausible() {
                    self.rng.range(1, d.max(1) as i64) as usize
                } else {
                    d + 1
                };
                let s = self.size();
                format!("tile({}, {d}, {o}, {s});", list(&b))
            }
            "tile_band" => {
                let b = self.loop_beta();
                let d = self.depth_for(&b);
                // Mostly the band of loops below `d` that every statement
                // under `b` has (sometimes one more: refused).
                let room = self.view.min_depth(&b).saturating_sub(d) + 1;
                let n = if self.plausible() {
                    self.rng.range(1, room.max(1) as i64)
                } else {
                    room as i64 + 1
                };
                let sizes: Vec<i64> = (0..n).map(|_| self.size()).collect();
                format!("tile_band({}, {d}, {});", list(&b), list(&sizes))
            }
            "embed" => format!("embed({});", list(&self.statement_beta())),
            "unembed" => format!("unembed({});", list(&self.statement_beta())),
            "block" => {
                let first = self.statement_beta();
                let second = if self.plausible() {
                    // A neighbour: same prefix, next position.
                    let mut b = first.clone();
                    if let Some(last) = b.last_mut() {
                        *last += 1;
                    }
                    b
                } else {
                    self.statement_beta()
                };
                format!("block({}, {});", list(&first), list(&second))
            }
            "parallelize" | "vectorize" => {
                let b = self.any_beta();
                let d = if kind == "vectorize" && self.plausible() {
                    self.view.min_depth(&b).max(1)
                } else {
                    self.depth_for(&b)
                };
                let options = if kind == "parallelize" {
                    self.parallel_options(&b)
                } else {
                    self.reduction_option(&b)
                };
                format!("{kind}({}, {d}{options});", list(&b))
            }
            "gpu_block" | "gpu_thread" => {
                // Mostly blocks outside and threads innermost (what the
                // CUDA target takes), else anywhere; a dimension mostly x.
                let b = self.any_beta();
                let innermost = self.view.min_depth(&b);
                let d = match (kind, self.plausible() && innermost > 0) {
                    ("gpu_block", true) => self.rng.range(1, innermost.min(2) as i64) as usize,
                    ("gpu_thread", true) => innermost,
                    _ => self.depth_for(&b),
                };
                let dim = match self.rng.below(10) {
                    0..=5 => 0,
                    6 | 7 => 1,
                    8 => 2,
                    _ => 3,
                };
                format!("{kind}({}, {d}, {dim});", list(&b))
            }
            "unroll" | "unroll_noepilog" => {
                let b = self.loop_beta();
                let k = self.factor();
                format!("{kind}({}, {k});", list(&b))
            }
            "unroll_jam" => {
                let b = self.any_beta();
                let d = self.depth_for(&b);
                let k = self.factor();
                format!("unroll_jam({}, {d}, {k});", list(&b))
            }
            "pack" => {
                // Most often a loop after a tiling (a bounded footprint),
                // an array of the region (read-only in the loop or not),
                // now and then a scalar or an unknown name (refused).
                // Half the time one of the innermost loops, and mostly an
                // array its statements only read, else any array (copied
                // back too): most often accepted after a tile.
                let b = self.any_beta();
                let innermost = self.view.min_depth(&b);
                let d = if innermost > 0 && self.rng.chance(0.5) {
                    self.rng
                        .range(innermost.saturating_sub(2).max(1) as i64, innermost as i64)
                        as usize
                } else {
                    self.depth_for(&b)
                };
                let read_only: Vec<String> = self
                    .view
                    .under(&b)
                    .flat_map(|(s, _)| self.view.read_only[*s].clone())
                    .collect();
                let a = if !read_only.is_empty() && self.rng.chance(0.7) {
                    read_only[self.rng.below(read_only.len())].clone()
                } else if !self.view.arrays.is_empty() && self.rng.chance(0.9) {
                    let k = self.rng.below(self.view.arrays.len());
                    self.view.arrays[k].clone()
                } else {
                    self.rng.pick(&["nosuch", "alpha"]).to_string()
                };
                format!("pack({}, {d}, \"{a}\");", list(&b))
            }
            "add_array" => {
                let n = self.view.locals.len();
                let name = if self.plausible() {
                    format!("d{n}")
                } else {
                    "A".to_string()
                };
                format!("add_array(\"{name}\");")
            }
            "copy_array" => {
                // A visible array moved into a local one, copied in before
                // its nest and back after it (Clay's datacopy test): one
                // group, accepted when the copies cover every read.
                let (array, users) = self.accessed_array();
                let local = self.local_array();
                let Some(&s) = users.first() else {
                    return format!("replace_array(\"{array}\", \"{local}\");");
                };
                let b = self.view.beta_of(s).unwrap_or_default();
                // In before everything and back after everything, mostly.
                let top = if self.rng.chance(0.7) {
                    0
                } else {
                    b.first().copied().unwrap_or(0)
                };
                let last = self
                    .view
                    .pieces
                    .iter()
                    .filter_map(|(_, b)| b.first().copied())
                    .max()
                    .unwrap_or(0);
                let after = if self.rng.chance(0.7) { last } else { top };
                // The copy in moves every top-level node from `top` on one
                // place down: the copy back's βs are read after it.
                let shifted = |x: i64| if x >= top { x + 1 } else { x };
                let mut b2 = b.clone();
                if let Some(first) = b2.first_mut() {
                    *first = shifted(*first);
                }
                format!(
                    "group {{ replace_array(\"{array}\", \"{local}\"); datacopy(\"{local}\", \"{array}\", [{top}], true, {}); datacopy(\"{array}\", \"{local}\", [{}], false, {}); }}",
                    list(&b),
                    shifted(after),
                    list(&b2)
                )
            }
            "datacopy" => {
                let (array, users) = self.accessed_array();
                let local = self.local_array();
                let s = users.first().copied().unwrap_or(0);
                let b = self
                    .view
                    .beta_of(s)
                    .unwrap_or_else(|| self.statement_beta());
                let at = vec![self.rng.range(0, 2)];
                let before = self.rng.pick(&["true", "false"]);
                let (copy, original) = if self.rng.chance(0.5) {
                    (local, array)
                } else {
                    (array, local)
                };
                format!(
                    "datacopy(\"{copy}\", \"{original}\", {}, {before}, {});",
                    list(&at),
                    list(&b)
                )
            }
            "replace_array" => {
                let (array, _) = self.accessed_array();
                let local = self.local_array();
                format!("replace_array(\"{array}\", \"{local}\");")
            }
            "dimreorder" | "dimprivatize" | "dimcontract" => {
                let b = self.any_beta();
                let array = if !self.view.locals.is_empty() && self.plausible() {
                    self.view.locals[self.rng.below(self.view.locals.len())].clone()
                } else {
                    self.accessed_array().0
                };
                match kind {
                    "dimreorder" => {
                        let order = self.rng.pick(&[
                            vec![1, 0],
                            vec![0, 1],
                            vec![0],
                            vec![2, 0, 1],
                            vec![1, 0, 2],
                        ]);
                        format!("dimreorder({}, \"{array}\", {});", list(&b), list(&order))
                    }
                    _ => {
                        let d = self.depth_for(&b);
                        format!("{kind}({}, \"{array}\", {d});", list(&b))
                    }
                }
            }
            other => format!("{other}();"),
        }
    }

    /// An array of the region and the statements accessing it (mostly
    /// a visible one with some).
    fn accessed_array(&mut self) -> (String, Vec<usize>) {
        let used: Vec<(String, Vec<usize>)> = self
            .view
            .accessed_by
            .iter()
            .filter(|(_, u)| !u.is_empty())
            .cloned()
            .collect();
        if used.is_empty() || !self.plausible() {
            return ("nosuch".to_string(), Vec::new());
        }
        used[self.rng.below(used.len())].clone()
    }

    /// A local array (the newest mostly), or one not added yet.
    fn local_array(&mut self) -> String {
        let plausible = self.plausible();
        match self.view.locals.last() {
            Some(l) if plausible => l.clone(),
            _ => format!("d{}", self.view.locals.len()),
        }
    }
}

/// The directives that undo another (and are refused without it first),
/// with the directives that make them meaningful.
const UNDOES: &[(&str, &[&str])] = &[
    ("densify", &["grain"]),
    ("collapse", &["iss", "peel"]),
    ("unembed", &["embed"]),
    ("linearize", &["stripmine", "tile", "tile_band"]),
];

/// One random directive for the program `scop` under `schedule`, after the
/// accepted directives `history`. An undoing directive (`densify`,
/// `collapse`, `unembed`, `linearize`) is rarely chosen when nothing it
/// undoes was applied. With no directive but `context`s accepted yet, an `auto(...)` call
/// (the schedulers, with and without tiles and marks) is drawn 15% of the
/// time; at any point, `auto(…, [b])` on a top-level nest or `auto(…, [b,
/// c])` on a subtree inside its outermost loop 4%. One draw in twenty is
/// a `group { … }` of two directives.
pub fn random_directive(
    rng: &mut Rng,
    scop: &Scop,
    schedule: &Schedule,
    history: &[String],
    observed: &dyn Fn() -> Vec<Vec<i64>>,
) -> String {
    // An automatic schedule, refined by the directives drawn after it;
    // `auto` must come first (after `context`s, which change no date),
    // so it is drawn only then.
    let first = history.iter().all(|h| h.starts_with("context("));
    if first && rng.chance(0.15) {
        return rng
            .pick(&[
                "auto(pluto);",
                "auto(pluto);",
                "auto(feautrier);",
                "auto(pluto, tile = false);",
                "auto(pluto, tile = 4);",
                "auto(pluto, parallel = false);",
                "auto(pluto, fuse = no);",
                "auto(pluto, fuse = max);",
                "auto(feautrier, fuse = max, tile = 4);",
                "auto(pluto, wavefront = true);",
                "auto(pluto, wavefront = true, tile = 4);",
                "auto(pluto, tile = 8, unroll_jam = false);",
                "auto(pluto, register_tile = false);",
                "auto(pluto, target = gpu);",
                "auto(pluto, target = gpu, tile = 4);",
                "auto(spatial);",
                "auto(spatial, hlim = 0, tile = 4);",
                "auto(spatial, line = 16);",
                "auto(spatial, target = gpu);",
            ])
            .to_string();
    }
    // One top-level nest scheduled on its own, at any point (refused when
    // an earlier directive changed that nest).
    if rng.chance(0.04) {
        // A top-level nest `[b]` or, a third of the time, a subtree `[b, c]`
        // inside its outermost loop.
        let depth = if rng.chance(0.33) { 2 } else { 1 };
        let mut nests: Vec<Vec<i64>> = schedule
            .statements
            .iter()
            .flat_map(|st| (0..st.pieces.len()).filter_map(|p| st.beta(p)))
            .filter(|beta| beta.len() > depth)
            .map(|beta| beta[..depth].to_vec())
            .collect();
        nests.sort_unstable();
        nests.dedup();
        if let Some(b) = nests.get(rng.below(nests.len().max(1))) {
            let b = b.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
            let scheduler = rng.pick(&["pluto", "pluto", "feautrier", "spatial"]);
            let options = rng.pick(&[
                "",
                "",
                ", tile = 4",
                ", fuse = no",
                ", parallel = false",
                ", wavefront = true",
                ", unroll_jam = false",
                ", target = gpu",
            ]);
            return format!("auto({scheduler}, [{b}]{options});");
        }
    }
    let mut kind = rng.pick(KINDS);
    // A run aimed at one kind (`POLYC_DIFF_KIND=context`): a third of the
    // draws.
    if let Some(aimed) = aimed_kind() {
        if rng.chance(0.33) {
            kind = aimed;
        }
    }
    // A second jam makes a register tile (two jams checked together).
    if history.iter().any(|h| h.starts_with("unroll_jam(")) && rng.chance(0.2) {
        kind = "unroll_jam";
    }
    // A tiled loop often has a bounded footprint: a pack may follow; more
    // often once loops are mapped to the GPU (shared memory, registers).
    // `auto(…, target = gpu)` tiles and maps too.
    let tiled = ["tile(", "tile_band(", "stripmine("];
    let gpu_auto = |h: &String| h.starts_with("auto(") && h.contains("target = gpu");
    let mapped = history.iter().any(|h| h.starts_with("gpu_") || gpu_auto(h));
    if history
        .iter()
        .any(|h| tiled.iter().any(|t| h.starts_with(t)) || gpu_auto(h))
        && rng.chance(if mapped { 0.4 } else { 0.2 })
    {
        kind = "pack";
    }
    // The data-layout directives need a local array: `add_array` first.
    let data = ["copy_array", "datacopy", "replace_array"];
    if data.contains(&kind) && !history.iter().any(|h| h.starts_with("add_array(")) {
        kind = "add_array";
    }
    // After an array was added, its copy most often follows; after a
    // copy, a change of the copy's layout.
    if history.last().is_some_and(|h| h.starts_with("add_array(")) && rng.chance(0.7) {
        kind = "copy_array";
    }
    if history
        .last()
        .is_some_and(|h| h.starts_with("group { replace_array("))
        && rng.chance(0.5)
    {
        kind = rng.pick(&["dimreorder", "dimreorder", "dimprivatize", "dimcontract"]);
    }
    for _ in 0..3 {
        let Some((_, needs)) = UNDOES.iter().find(|(k, _)| *k == kind) else {
            break;
        };
        let prepared = history
            .iter()
            .any(|h| needs.iter().any(|n| h.starts_with(&format!("{n}("))));
        if prepared || rng.chance(0.15) {
            break;
        }
        kind = rng.pick(KINDS);
    }
    let group = rng.chance(0.05);
    let mut g = Gen {
        view: View::new(scop, schedule),
        rng,
        observed,
    };
    if group {
        // Two directives checked together, both drawn on the schedule
        // before the group (the first one's result is not checked yet).
        // No group inside a group: a copy's group is drawn as one datacopy.
        let plain = |k: &'static str| if k == "copy_array" { "datacopy" } else { k };
        let second = plain(g.rng.pick(KINDS));
        let (a, b) = (g.directive(plain(kind)), g.directive(second));
        return format!("group {{ {a} {b} }}");
    }
    g.directive(kind)
}

/// The kind of `POLYC_DIFF_KIND`, where it names one of [`KINDS`].
fn aimed_kind() -> Option<&'static str> {
    let wanted = std::env::var("POLYC_DIFF_KIND").ok()?;
    KINDS.iter().copied().find(|k| *k == wanted)
}
